#!/bin/sh
# make bench-behind's program (benchmarks/behind.c), a short run over
# each transport: ten bins of the receive's start against the next
# message's send, every repetition in one; and what no transport can
# change: a message is not received before it is sent, so where A's
# receive began 16 us or more before B's send, B's receive, which
# follows it, lasted at least what was left of those 16 us (their
# medians, to the clock's grain).
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"
behind=$TRC_BUILD/bench/behind
[ -x "$behind" ] || skip_all "behind not built"

for btl in tcp vader; do
	mpirun -np 2 --mca btl self,$btl --mca mpi_yield_when_idle 1 "$behind" 300 >"$out" 2>"$err"
	ok $? "$btl: runs, 300 repetitions"
	is "$(awk 'NR > 1 { print $1, $3 }' "$out" | tr '\n' ' ')" \
	    "-20 -16 -16 -12 -12 -8 -8 -4 -4 +0 +0 +4 +4 +8 +8 +12 +12 +16 +16 +20 " "$btl: ten bins of 4 us"
	is "$(awk 'NR > 1 { n += $4 } END { print n }' "$out")" 300 "$btl: every repetition in a bin"
	ok "$(awk 'NR == 2 { exit !($7 >= 16 - $5 - 0.5) }' "$out"; echo $?)" \
	    "$btl: begun 16 us or more before B's send, the medians of A's receive and B's sum to 16 us or more"
done
mpirun -np 2 "$behind" 0 >"$out" 2>"$err"
ok "$([ $? -ne 0 ] && echo 0 || echo 1)" "0 repetitions: refused"
ok "$(grep -q '^usage: behind \[repetitions\] (2 ranks)$' "$err"; echo $?)" "  with its usage"
done_testing
