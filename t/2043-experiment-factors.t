#!/bin/sh
# trc-experiment on real runs with factors that cannot or do not fire
# (issue 12): a typo'd call, a call the program never makes and a rank
# it does not have each stop the experiment before any run, with why;
# a factor that fires in the given baseline but in none of the runs is
# shown with 0 delays and gets no "stable" unless forced; -T stops a
# run that a delay makes hang, and that run is reported, not stable.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"
command -v make >/dev/null || skip_all "no make"
unset MAKEFLAGS MFLAGS MAKELEVEL

heat="-np 4 trc-heat -n 32 -i 20"
f=$tmp/f

# stops NAME LINE WANT: the factor LINE stops trc-experiment on heat
# with the message WANT, before any run but the baseline.
stops() {
	printf '%s\n' "$2" >"$f"
	rm -rf "$tmp/x.exp"
	expect_exit 2 "$1: stops" -- trc-experiment --factors "$f" "$tmp/x.exp" -- $heat
	is "$(grep "^trc-design\|^trc-perturb" "$err")" "$3" "  says why"
	is "$(ls "$tmp/x.exp" | grep -c '^run-.*\.trc$')" 0 "  no run made"
}
stops "a typo'd call" "x call=sned delay=0.01" \
	"trc-design: $f:1: unknown call 'sned' (did you mean send? libtrc-mpi(7) lists the calls)"
# The heat solver sends with MPI_Send and MPI_Isend, never MPI_Ssend.
stops "an unused call" "x call=ssend delay=0.01" \
	"trc-perturb: $tmp/x.exp/factors:1: factor x never fires in $tmp/x.exp/base.trc: no call ssend on any rank in the trace"
stops "a rank out of range" "x call=send ranks=7 delay=0.01" \
	"trc-perturb: $tmp/x.exp/factors:1: factor x never fires in $tmp/x.exp/base.trc: rank 7 not in the trace, which has ranks 0-3"

# Forced past the check, rank 7's factor runs and fires 0 times in its
# run (the tracer's #delay line): shown with 0, and trc-effects on the
# same runs refuses "stable" unless forced.
printf 'late call=allreduce ranks=7 delay=0.01\n' >"$f"
expect_exit 0 "--force: a factor that never fires runs" -- \
	trc-experiment --force --keep all --factors "$f" "$tmp/z.exp" -- $heat
is "$(grep '^#delay' "$tmp/z.exp/run-2.trc")" "#delay fired=0 call=allreduce,ranks=7,delay=0.01" \
	"  the run's trace says it fired 0 times"
is "$(sed -n '/^delays made/,/^$/p' "$out" | sed -n 2p)" "$(printf '\tA\t1\t0\tlate')" "  A shown with 0 delays"
is "$(grep '^verdict\|^forced' "$out")" "verdict: stable under every perturbation
forced: factor A (late) made no delay" "  the verdict says it was forced"
expect_exit 2 "  trc-effects, not forced, refuses stable" -- trc-effects --factors "$f" "$tmp/z.exp/runs.tsv"
is "$(cat "$err")" "trc-effects: $tmp/z.exp/runs.tsv: factor A (late) made no delay in its runs: no verdict of stable rests on it (--force gives one)" \
	"  with why"
grep -q "^	A	1	0	late$" "$out"; ok $? "  after showing A with 0"

# hang: rank 0 waits a second for rank 1's message, then hangs; 2 s
# before rank 1's send make it hang.  -T 4 stops that run.
printf 'slow call=send ranks=1 delay=2\n' >"$f"
t0=$(date +%s)
expect_exit 1 "-T: a hung run stopped" -- trc-experiment -T 4 --factors "$f" "$tmp/h.exp" -- -np 2 "$MPIT/hang"
t1=$(date +%s)
[ $((t1 - t0)) -lt 30 ]; ok $? "  in $((t1 - t0)) s"
grep -q "^$tmp/h.exp/run-2.trc: stopped by its time limit (-T 4)$" "$err"
ok $? "  named on stderr"
is "$(grep '^runs stopped\|^verdict' "$out")" "runs stopped by their time limit, never stable: 2
verdict: unstable under perturbation: 0 of 1 repeated baseline runs differ" "  reported, and not stable"
is "$(head -2 "$tmp/h.exp/run-2.trc")" "#trc-partial 1 ranks=2
# trc-record: its time limit (-T 4) stopped it" "  its partial trace kept"

done_testing
