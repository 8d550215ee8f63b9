#!/bin/sh
# libtrc-mpi's cpu= leaves its own time out (issue 17): t/mpi/sendrecv
# computes nothing between its calls, so each computation interval's
# cpu= is the tracer's few hundred nanoseconds, about the same every
# time.  With a buffer of 4 KB the tracer writes it out every 60 or so
# events, a write of microseconds; counted in cpu= (as it was), a third
# of them land in a computation interval and its mean is 2 to 3.5
# times its median on the machine this was written on; left out, 1.1.
# The buffer is touched at MPI_Init, so a buffer of megabytes, filled
# for the first time, gives no page faults of its own either.  On
# 2026-11-28's slower host, left out: 1.25 to 1.51 (4 KB) and 1.37 to
# 1.42 (4 MB) in six runs, and 1.5 failed twice in seven (once in a
# make check);
# counted (the flush's CPU time put back in cpu=): 3.46 to 3.55 and
# 2.59 to 3.31.  The bound, 1.8, is between the two on both hosts.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"
prog=$MPIT/sendrecv
[ -x "$prog" ] || skip_all "t/mpi/sendrecv not built"

# spread TRACE: mean / median of the cpu= of the SB events (the
# computation intervals: an MPI_Sendrecv's parts all have the time of
# its SB, so only the SB's cpu= is the time between two calls).
spread() {
	awk '!/^#/ && $3 == "SB" { for (i = 4; i <= NF; i++)
		if ($i ~ /^cpu=/) print substr($i, 5) }' "$1" | sort -g |
	    awk '{ v[NR] = $1; s += $1 } END { m = v[int((NR + 1) / 2)]
		if (NR < 1000 || m <= 0) print "none"
		else printf "%.2f\n", s / NR / m }'
}
# The mean is at the mercy of one long stall: the run's computation is
# some 1.4 ms of CPU in all (20,000 intervals, median 50 ns), so a
# millisecond the host takes from a rank inside one interval (a virtual
# machine's thread clock counts it) doubles it.  That failed once in a
# make check (2026-11-29) where ten runs by hand gave 1.04 to 1.25.  So
# a run over the bound is run again, up to three runs: a tracer that
# counts its flushes is over it in every run (2.59 to 3.55 in all that
# were measured), a host's stall is not.
# calm SPREAD: a spread measured and under the bound.
calm() {
	[ "$1" != none ] && awk -v s="$1" 'BEGIN { exit !(s < 1.8) }'
}
for b in 4096 4M; do
	spreads= rc=0 s=none
	for attempt in 1 2 3; do
		TRC_BUFSIZE=$b trc-record --clock cpu -o "$tmp/$b.trc" -- -np 2 \
		    "$prog" 2000 >/dev/null 2>"$err" || { rc=$?; break; }
		s=$(spread "$tmp/$b.trc")
		spreads="$spreads $s"
		calm "$s" && break
	done
	ok $rc "trc-record --clock cpu, TRC_BUFSIZE=$b"
	calm "$s"
	ok $? "TRC_BUFSIZE=$b: the computation's cpu= mean under 1.8 times its median in one of three runs ($spreads)"
done
# The tracer's lines of a call's end are made after the end's time:
# its own time too, left out of the computation that follows.  The
# program computes nothing between its calls, so their cpu= sum to a
# small part of the wall time between an MPI_Sendrecv's WE and the
# next one's SB (on 2026-11-29's host: 0.05 left out; counted, 0.21;
# on 2026-11-30's, left out 0.068 to 0.088, and 0.095 to 0.099 under
# the sanitizers, once 0.1 or over in a make check; counted 0.34 to
# 0.36, and 0.49 to 0.62 under the sanitizers).
awk '!/^#/ && $3 == "WE" { we[$2] = $1 }
    !/^#/ && $3 == "SB" && ($2 in we) { for (i = 4; i <= NF; i++)
	if ($i ~ /^cpu=/) c = substr($i, 5)
	g += $1 - we[$2]; s += c; n++ }
    END { printf "%d %.3f\n", n, (g > 0 ? s / g : 1) }' "$tmp/4M.trc" > "$tmp/gaps"
read -r n frac < "$tmp/gaps"
[ "$n" -ge 1000 ] && awk -v f="$frac" 'BEGIN { exit !(f < 0.2) }'
ok $? "computation between calls: cpu= under a fifth of the wall from WE to SB ($n, $frac)"
done_testing
