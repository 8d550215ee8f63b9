#!/bin/sh
# make bench-wake's program (benchmarks/wake.c), a short run: a message
# to rank 1, which waits on core 0 with mpi_yield_when_idle, sent from
# core 1 after 100 us and 1 ms of computation; with 3 ranks, rank 2
# computes twice as long on core 0 meanwhile.  Alone on its core the
# receiver takes it within microseconds; beside the computing rank only
# once that rank's computation ends, about the delay later (on this
# host 104 us and 1009 us): what trc-scale --bound rests on.  A bad
# repetition count refused.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"
wake=$TRC_BUILD/bench/wake
[ -x "$wake" ] || skip_all "wake not built"
[ "$(nproc)" -ge 2 ] || skip_all "needs 2 cores"
yield="--oversubscribe --bind-to none --mca btl self,vader --mca mpi_yield_when_idle 1"

# shellcheck disable=SC2086
mpirun -np 2 $yield "$wake" 21 >"$out" 2>"$err"
ok $? "runs on 2 ranks, 21 repetitions"
is "$(awk '{ print $1, $5 }' "$out" | tr '\n' ' ')" "2 100 2 1000 " "a row for each delay"
ok "$(awk '!($8 >= 0 && $8 < 50) { bad = 1 } END { exit bad }' "$out"; echo $?)" \
	"alone on its core: taken within 50 us"
cp "$out" "$tmp/two"
# shellcheck disable=SC2086
mpirun -np 3 $yield "$wake" 21 >"$out" 2>"$err"
ok $? "runs on 3 ranks"
ok "$(awk '!($8 >= $5 / 2) { bad = 1 } END { exit bad }' "$out"; echo $?)" \
	"beside a computing rank: taken no sooner than half the delay later"
is "$(awk '$5 == 1000 && $8 >= 500' "$out" | wc -l | tr -d ' ')" 1 "  1 ms: after 500 us or more"

# shellcheck disable=SC2086
mpirun -np 2 $yield "$wake" 0 >"$out" 2>"$err"
ok "$([ $? -ne 0 ] && echo 0 || echo 1)" "0 repetitions: refused"
ok "$(grep -q '^usage: wake \[repetitions\]$' "$err"; echo $?)" "  with its usage"
done_testing
