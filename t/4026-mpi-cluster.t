#!/bin/sh
# trc-cluster on a real run whose ranks behave in two known ways:
# trc-master-worker --stable on 4 ranks, 6 tasks of w (i + 1) seconds,
# w = 0.05, handed out round robin: worker k does tasks k - 1 and k + 2,
# so 0.25, 0.35 and 0.45 s in "task" on ranks 1, 2, 3, the master next
# to nothing.  Relative distances: d(1,2) = .1/.35 = 0.286, d(2,3) =
# .1/.45 = 0.222, d(1,3) = .2/.45 = 0.444, and about 1 from the master
# to each; rank 2 has the least sum, so with two groups it stands for
# the workers.  The tasks are busy waits on the wall clock, which a
# loaded host stretches by tens of milliseconds (4 ranks, 2 cores), so
# the distances are checked loosely and the groups exactly.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"

trc-record -o "$tmp/mw.trc" -- -np 4 "$TRC_BIN/trc-master-worker" --stable \
	--tasks 6 --work 0.05 >"$out" 2>"$err"
ok $? "trc-record runs trc-master-worker --stable on 4 ranks"
is "$(cat "$out")" "tasks 6, done by workers 1 to 3: 2 2 2" "round robin: two tasks each"
trc-cluster -n 2 "$tmp/mw.trc" >"$out"
is "$(grep '^#group' "$out")" "#group 0 representative=0 size=1 ranks=0
#group 1 representative=2 size=3 ranks=1-3" "-n 2: the master apart, rank 2 for the workers"
awk -F'\t' 'NR > 1 && $1 ~ /^[0-9]+$/ { print $1, $4 }' "$out" >"$tmp/d"
# Nominally 0.29 and 0.22; load stretches the tasks, the longest most.
is "$(awk '$1 == 1 { print ($2 > 0.1 && $2 < 0.7) }' "$tmp/d")" 1 "rank 1 is some way from rank 2, far less than the master"
is "$(awk '$1 == 3 { print ($2 > 0.1 && $2 < 0.7) }' "$tmp/d")" 1 "rank 3 too"
trc-cluster --radius 0.8 "$tmp/mw.trc" >"$out"
is "$(grep '^#group' "$out")" "#group 0 representative=0 size=1 ranks=0
#group 1 representative=2 size=3 ranks=1-3" "--radius 0.8: the same two groups, the fewest within it"
trc-cluster --radius 0.01 "$tmp/mw.trc" >"$out"
is "$(sed -n 's/^# representative ranks: \([0-9]*\) groups.*/\1/p' "$out")" 4 \
	"--radius 0.01: every rank alone"
done_testing
