#!/bin/sh
# validate-cpu.sh BIN BUILD - computation as CPU time when ranks share
# cores (issue 10, item 4; VACED-SIM's idea).  trc-heat on 2 ranks
# pinned to one core (taskset -c 0, Open MPI --bind-to none
# --oversubscribe) traced with TRC_CLOCK=cpu, predicted by trc-scale
# with the communication of the 2-rank, 2-core machine (trc-pingpong
# there, fitted), against the 2-rank run on 2 cores; the same 1-core
# trace predicted from its wall-clock intervals (--wall) for contrast.
# The 2-core run is traced, so the predictions from cpu= are of a
# traced run (trc-scale --traced): the tracer's time cpu= leaves out
# put back.
# Two figures other jobs on the host hardly move: each rank's summed
# computation CPU time on one core against on two (the 2-core run is
# traced with TRC_CLOCK=cpu too), and the prediction from the 1-core
# trace against the same prediction from the 2-core trace.
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
. benchmarks/fixed-layout.sh
bin=$1 build=$2
reps=${REPS:-5} n=${N:-960} it=${ITER:-200}
PATH=$bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpiopt=${MPIOPT---mca mpi_yield_when_idle 1}
two="--mca btl self,vader $mpiopt"
one="--bind-to none --oversubscribe --mca btl self,vader $mpiopt"
out=$build/validate-cpu
mkdir -p "$out"

. benchmarks/validate-lib.sh
# comp TRACE [cpu]: rank 0's computation, wall (or cpu=) seconds
comp() { trc-sum -t "$1" | awk -F'\t' 'NR > 1 && $1 == 0 { print $4; exit }'; }
# compcpu TRACE: the cpu= of both ranks' computation intervals (those
# ending at a begin, a region event or a mark, or at an end without its
# begin), in seconds
compcpu() { awk '!/^#/ && / cpu=/ { r = $2; k = $3; c = $0; sub(/.* cpu=/, "", c); sub(/ .*/, "", c)
	if (!inc[r] || k == "PB" || k == "PE" || k == "MK") s += c
	if (k == "SB" || k == "WB" || k == "XB" || (k == "RB" && $0 !~ / req=/)) inc[r] = 1
	else if (k == "SE" || k == "WE" || k == "XE" || (k == "RE" && $0 !~ / req=/)) inc[r] = 0 }
	END { printf "%.6f\n", s }' "$1"; }
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
	trc-record --clock cpu -o "$out/two.trc" -- -np 2 $two trc-heat -n "$n" -i "$it" --tolerance 0 >/dev/null
	trc-scale --traced -c "$out/two.fit" "$out/one.trc" >"$out/pred.trc"
	trc-scale --wall -c "$out/two.fit" "$out/one.trc" >"$out/predwall.trc"
	trc-scale --traced -c "$out/two.fit" "$out/two.trc" >"$out/predtwo.trc"
	b=$(span "$out/one.trc") p=$(span "$out/pred.trc") w=$(span "$out/predwall.trc") o=$(span "$out/two.trc")
	e=$(awk -v p="$p" -v o="$o" 'BEGIN { printf "%.1f", 100 * (p - o) / o }')
	ew=$(awk -v p="$w" -v o="$o" 'BEGIN { printf "%.1f", 100 * (p - o) / o }')
	q=$(span "$out/predtwo.trc")
	eq=$(awk -v p="$p" -v o="$q" 'BEGIN { printf "%.1f", 100 * (p - o) / o }')
	c1=$(compcpu "$out/one.trc") c2=$(compcpu "$out/two.trc")
	ec=$(awk -v p="$c1" -v o="$c2" 'BEGIN { printf "%.1f", 100 * (p - o) / o }')
	echo "cpu $e" >>"$out/errors"
	echo "wall $ew" >>"$out/errors"
	echo "same $eq" >>"$out/errors"
	echo "compcpu $ec" >>"$out/errors"
	echo "   one core: $b s (rank 0 computes $(comp "$out/one.trc") s wall, $(cpusum "$out/one.trc") s cpu);" \
	    "two cores: $o s (rank 0 computes $(comp "$out/two.trc") s)"
	echo "   predicted with cpu= $p s, error $e%; with the wall clock (--wall) $w s, error $ew%"
	echo "   computation CPU time, both ranks: one core $c1 s, two cores $c2 s ($ec%);" \
	    "predicted from the 2-core trace itself $q s: from the 1-core one $eq%"
	r=$((r + 1))
done
echo "== median over $reps runs (min to max); load at end $(load)"
echo "   cpu: predicted (one core, cpu=) against observed (two cores); wall: the same with --wall;"
echo "   same: against the prediction from the 2-core trace; compcpu: computation CPU time, one core against two"
for k in cpu wall same compcpu; do
	awk -v k="$k" '$1 == k { print $2 }' "$out/errors" | sort -g | awk -v k="$k" '{ v[NR] = $1 } END {
		printf "   %-8s median %6.1f%% (%s%% to %s%%)\n", k,
		    NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR] }'
done
