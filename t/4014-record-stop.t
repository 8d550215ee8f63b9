#!/bin/sh
# trc-record: a run stopped from outside (its time limit, -T, or a TERM
# or INT sent to trc-record, as timeout(1) sends) still leaves the
# ranks' events merged into a partial trace, says why, and fails.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"

tr=$tmp/h.trc
# partial TRACE WHAT: the checks every stopped run must pass.
partial() {
	is "$(head -1 "$1")" "#trc-partial 1 ranks=2" "$2: marked partial in the first line"
	is "$(tail -1 "$1")" "# truncated" "$2: a final truncated line"
	# (Lost when the rank that died first made mpirun kill the other
	# before it wrote: 4 runs in 50 beside busy loops, until the
	# tracer waited after its mark, libtrc-mpi(7).  The trace's own
	# lines say how each rank ended.)
	ok "$([ "$(count "$1" 0 PE fn=Step)$(count "$1" 1 PE fn=Step)" = 55 ]; echo $?)" \
		"$2: every rank's five steps before the loop are kept" ||
		diag "$(grep '^#' "$1"; tail -3 "$err")"
	ok "$([ "$(count "$1" 0 PE fn=Hang)" -ge 1 ]; echo $?)" "$2: events of the loop are kept"
	ok "$(grep -q '^# rank 0: truncated: signal\|^# rank 0: killed' "$1"; echo $?)" "$2: rank 0's end said"
	is "$(awk '!/^#/ && $1 + 0 < last { print NR } !/^#/ { last = $1 + 0 }' "$1")" "" "$2: sorted"
	ok "$(! ls -d "$1".ranks.* >/dev/null 2>&1; echo $?)" "$2: rank files merged and removed"
}

# looping: until rank 0 has been once round its loop (it then makes
# $TRC_TEST_READY), 30 s at most.  A fixed wait after the ranks' start
# was too short for sanitized ranks beside other tests: they had not
# left their first steps when the signal came.
TRC_TEST_READY=$tmp/ready
export TRC_TEST_READY
looping() {
	i=0
	while [ ! -e "$TRC_TEST_READY" ] && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# -T: the watchdog stops the run, the trace says so.
start=$(date +%s)
trc-record -T 2 -o "$tr" -- -np 2 "$MPIT/abort" hang >/dev/null 2>"$err"
st=$?
took=$(( $(date +%s) - start ))
is "$st" "2" "-T: exit 2"
ok "$([ "$took" -ge 2 ] && [ "$took" -lt 30 ]; echo $?)" "-T 2: stopped after 2 s, not much later (took $took s)"
is "$(tail -1 "$err")" "trc-record: the run did not finish (its time limit (-T 2) stopped it); partial trace in $tr" \
	"-T: says why"
ok "$(grep -qx '# trc-record: its time limit (-T 2) stopped it' "$tr"; echo $?)" "-T: the trace says why"
partial "$tr" "-T"
ok "$([ ! -e "$tr.expired" ]; echo $?)" "-T: no marker left"

# timeout(1) sends TERM to trc-record and its children.
rm -f "$tr"
timeout 5 trc-record -o "$tr" -- -np 2 "$MPIT/abort" hang >/dev/null 2>"$err"
is "$?" "124" "timeout(1): its own status"
is "$(tail -1 "$err")" "trc-record: the run did not finish (a signal to trc-record stopped it); partial trace in $tr" \
	"timeout(1): says why"
partial "$tr" "timeout(1)"

# INT to trc-record alone, as a terminal's ^C reaches the foreground
# job.  A background job of a script starts with INT ignored, which
# env(1) undoes.
rm -f "$tr" "$TRC_TEST_READY"
env --default-signal=INT trc-record -o "$tr" -- -np 2 "$MPIT/abort" hang >/dev/null 2>"$err" &
pid=$!
looping
t0=$(date +%s%N)
kill -INT $pid
wait $pid
st=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
is "$st" "2" "INT: exit 2"
# mpirun sends SIGCONT, waits 1 s, SIGTERM, waits 1 s and SIGKILLs;
# the ranks, written, wait for it (libtrc-mpi(7)): at least 2 s.
ok "$([ "$ms" -ge 1900 ]; echo $?)" "INT: the ranks waited for mpirun's SIGKILL (took $ms ms)"
ok "$(grep -qx '# trc-record: a signal to trc-record stopped it' "$tr"; echo $?)" "INT: the trace says why"
partial "$tr" "INT"

# Two TERMs, as timeout(1) sends them (to trc-record, then to its
# process group): the second goes no further.  When it reached mpirun,
# mpirun killed the ranks before they wrote (every event lost, 3 runs
# of 3 by hand; 5 of 20 runs under timeout(1) on a loaded host).
rm -f "$tr" "$TRC_TEST_READY"
trc-record -o "$tr" -- -np 2 "$MPIT/abort" hang >/dev/null 2>"$err" &
pid=$!
looping
kill -TERM $pid
sleep 0.2
kill -TERM $pid
wait $pid
is "$?" "2" "two TERMs: exit 2"
partial "$tr" "two TERMs"

# A run that ends within its limit is untouched.
rm -f "$tr"
expect_exit 0 "-T: a run within the limit" -- trc-record -T 60 -o "$tr" -- -np 3 "$MPIT/calls"
is "$(head -1 "$tr")" "#trc 1 ranks=3 order=time" "-T: a complete trace"

# Standard input reaches the program as without the background run.
rm -f "$tr"
echo hello | trc-record -o "$tr" -- -np 1 sh -c "read x; echo \"\$x\" >$tmp/in" >/dev/null 2>&1
is "$(cat "$tmp/in" 2>/dev/null)" "hello" "the program reads trc-record's standard input"

# Bad limits.
for bad in x 1.5 -3 0 ''; do
	expect_exit 2 "-T '$bad' refused" -- trc-record -T "$bad" -o "$tr" -- -np 3 "$MPIT/calls"
done
done_testing
