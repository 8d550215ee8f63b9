#!/bin/sh
# make bench-cold's program (benchmarks/coldcoll.c), a short run: an
# 8-byte allreduce on 2 ranks after rank 0 touched 0 to 8 MiB, with and
# without a receive between, over shared memory.  Its rows and their
# units, and a bad repetition count refused.  What the times say (the
# allreduce after 8 MiB against after nothing: 10 us against 0.3 on
# the first host, trc-scale(1)'s cold collectives; 2.1 against 1.7 on
# 2026-11-29's AMD EPYC guest) is make bench-cold's to measure, not a
# test's: 21 repetitions on a shared host put the two either way (the
# check that cold be no cheaper failed in a clean clone's pass on
# 2026-11-30, and once before under the sanitizers).
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"
cold=$TRC_BUILD/bench/coldcoll
[ -x "$cold" ] || skip_all "coldcoll not built"

mpirun -np 2 --mca btl self,vader "$cold" 21 >"$out" 2>"$err"
ok $? "runs on 2 ranks, 21 repetitions"
is "$(head -1 "$out" | tr -s ' ')" "receive KiB computing us allreduce us" "its header"
is "$(awk 'NR > 1 { print $1, $2 }' "$out" | tr '\n' ' ')" \
	"none 0 none 64 none 256 none 512 none 1024 none 2048 none 4096 none 8192 after 0 after 64 after 256 after 512 after 1024 after 2048 after 4096 after 8192 " \
	"every size, without and with the receive"
is "$(awk 'NR > 1 && !($3 >= 0 && $4 > 0)' "$out")" "" "times are positive"

mpirun -np 2 "$cold" 0 >"$out" 2>"$err"
ok "$([ $? -ne 0 ] && echo 0 || echo 1)" "0 repetitions: refused"
ok "$(grep -q '^usage: coldcoll \[repetitions\]$' "$err"; echo $?)" "  with its usage"
done_testing
