#!/bin/sh
# validate-cpu.sh BIN BUILD - computation as CPU time when ranks share
# cores (issue 10, item 4; VACED-SIM's idea).  trc-heat on 2 ranks
# pinned to one core (taskset -c 0, Open MPI --bind-to none
# --oversubscribe) traced with TRC_CLOCK=cpu, predicted by trc-scale
# with the communication of the 2-rank, 2-core machine (trc-pingpong
# there, fitted), against the 2-rank run on 2 cores; the same 1-core
# trace predicted from its wall-clock intervals (--wall) for contrast.
# Same binary and transport (shared memory) on both sides, so the
# computation ratio is 1.  The host is shared with other jobs: the
# load average is printed, and every figure is a median of REPS.
#
# Environment: REPS (5), N (960), ITER (200), MPIOPT (--mca
# mpi_yield_when_idle 1: two ranks on one core must give it away
# while they wait).
# MAXLOAD (1.5), QUIETWAIT (300): each run waits, QUIETWAIT seconds at
# most, for the 1-minute load average to fall under MAXLOAD, as make
# validate does: another job's preemptions stretch a run, inside a poll
# as often as not, and no prediction holds them.
set -e
bin=$1 build=$2
reps=${REPS:-5} n=${N:-960} it=${ITER:-200}
PATH=$bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpiopt=${MPIOPT---mca mpi_yield_when_idle 1}
two="--mca btl self,vader $mpiopt"
one="--bind-to none --oversubscribe --mca btl self,vader $mpiopt"
out=$build/validate-cpu
mkdir -p "$out"

load() { cut -d' ' -f1-3 /proc/loadavg; }
quiet() {
	w=0
	while awk -v m="${MAXLOAD:-1.5}" '{ exit !($1 >= m) }' /proc/loadavg &&
	    [ $w -lt "${QUIETWAIT:-300}" ]; do
		sleep 5
		w=$((w + 5))
	done
	[ $w -eq 0 ] || echo "   (waited ${w} s for the load average to fall under ${MAXLOAD:-1.5})"
}
span() { awk '!/^#/ { if (!s) { a = $1; s = 1 } z = $1 } END { printf "%.6f\n", z - a }' "$1"; }
# comp TRACE [cpu]: rank 0's computation, wall (or cpu=) seconds
comp() { trc-sum -t "$1" | awk -F'\t' 'NR > 1 && $1 == 0 { print $4; exit }'; }
cpusum() { awk '!/^#/ && $2 == 0 && / cpu=/ { c = $0; sub(/.* cpu=/, "", c); sub(/ .*/, "", c); s += c } END { printf "%.6f\n", s }' "$1"; }

echo "== validate-cpu: trc-heat -n $n -i $it, 2 ranks; base: one core (taskset -c 0), TRC_CLOCK=cpu; target: $(nproc) cores; load $(load)"
quiet
echo "== communication of the target: trc-pingpong on 2 cores, fitted"
mpirun -np 2 $two trc-pingpong --repetitions 100 -m 16384 \
    --operations send,recv,send-late,isend,barrier,allreduce >"$out/two.meas"
trc-fit "$out/two.meas" >"$out/two.fit"

: >"$out/errors"
r=1
while [ "$r" -le "$reps" ]; do
	quiet
	echo "== run $r of $reps, load $(load)"
	taskset -c 0 trc-record --clock cpu -o "$out/one.trc" -- -np 2 $one trc-heat -n "$n" -i "$it" --tolerance 0 >/dev/null
	trc-record -o "$out/two.trc" -- -np 2 $two trc-heat -n "$n" -i "$it" --tolerance 0 >/dev/null
	trc-scale -c "$out/two.fit" "$out/one.trc" >"$out/pred.trc"
	trc-scale --wall -c "$out/two.fit" "$out/one.trc" >"$out/predwall.trc"
	b=$(span "$out/one.trc") p=$(span "$out/pred.trc") w=$(span "$out/predwall.trc") o=$(span "$out/two.trc")
	e=$(awk -v p="$p" -v o="$o" 'BEGIN { printf "%.1f", 100 * (p - o) / o }')
	ew=$(awk -v p="$w" -v o="$o" 'BEGIN { printf "%.1f", 100 * (p - o) / o }')
	echo "cpu $e" >>"$out/errors"
	echo "wall $ew" >>"$out/errors"
	echo "   one core: $b s (rank 0 computes $(comp "$out/one.trc") s wall, $(cpusum "$out/one.trc") s cpu);" \
	    "two cores: $o s (rank 0 computes $(comp "$out/two.trc") s)"
	echo "   predicted with cpu= $p s, error $e%; with the wall clock (--wall) $w s, error $ew%"
	r=$((r + 1))
done
echo "== total-time error, median over $reps runs (min to max); load at end $(load)"
for k in cpu wall; do
	awk -v k="$k" '$1 == k { print $2 }' "$out/errors" | sort -g | awk -v k="$k" '{ v[NR] = $1 } END {
		printf "   computation from %-4s median %6.1f%% (%s%% to %s%%)\n", k,
		    NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR] }'
done
