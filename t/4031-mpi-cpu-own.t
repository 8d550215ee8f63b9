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
for b in 4096 4M; do
	TRC_BUFSIZE=$b trc-record --clock cpu -o "$tmp/$b.trc" -- -np 2 \
	    "$prog" 2000 >/dev/null 2>"$err"
	ok $? "trc-record --clock cpu, TRC_BUFSIZE=$b"
	s=$(spread "$tmp/$b.trc")
	[ "$s" != none ] && awk -v s="$s" 'BEGIN { exit !(s < 1.8) }'
	ok $? "TRC_BUFSIZE=$b: the computation's cpu= mean under 1.8 times its median ($s)"
done
done_testing
