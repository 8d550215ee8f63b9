#!/bin/sh
# validate.sh BIN BUILD - the paper's prediction experiment (Mendes,
# section 5) on this host.  Base machine: trc-heat built at -O0, Open
# MPI over TCP loopback; target machine: trc-heat at -O2 over shared
# memory.  2 ranks (the core count) for every timed run, no
# oversubscription.  Fit both machines' communication from
# trc-pingpong, derive per-procedure speed ratios from a reduced
# problem (32 x 32) run on both, trace the full problem (64 x 64) on the
# base, predict with trc-scale, run it on the target, and compare
# (trc-sum -v), REPS times; print the total-time error's median and
# spread.
set -e
bin=$1 build=$2
reps=${REPS:-3} n=${N:-64} it=${ITER:-2000} rn=${RN:-32} rit=${RITER:-2000}
PATH=$bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
base="--mca btl self,tcp"
target="--mca btl self,vader"
heat0=$build/validate/trc-heat-O0
mkdir -p "$build/validate"
out=$build/validate
${MPICC:-mpicc} -std=c11 -D_POSIX_C_SOURCE=200809L -Ilib -O0 -o "$heat0" benchmarks/heat.c -lm

echo "== communication: trc-pingpong on both machines, fitted"
mpirun -np 2 $base trc-pingpong -r 30 -m 1048576 -o send,recv,barrier,bcast,reduce,allreduce >"$out/base.meas"
mpirun -np 2 $target trc-pingpong -r 30 -m 1048576 -o send,recv,barrier,bcast,reduce,allreduce >"$out/target.meas"
trc-fit "$out/base.meas" >"$out/base.fit"
trc-fit "$out/target.meas" >"$out/target.fit"

echo "== computation: reduced problem ($rn x $rn, $rit steps) on both, speed ratios"
trc-record -o "$out/rb.trc" -- -np 2 $base "$heat0" -n $rn -i $rit -t 0 >/dev/null
trc-record -o "$out/rt.trc" -- -np 2 $target trc-heat -n $rn -i $rit -t 0 >/dev/null
trc-sum -t -s procs "$out/rb.trc" >"$out/rb.tsv"
trc-sum -t -s procs "$out/rt.trc" >"$out/rt.tsv"
{
	echo "# speed ratios base/target from trc-heat -n $rn -i $rit on 2 ranks"
	echo "mode speed"
	awk -F'\t' 'NR == FNR { if (FNR > 1) t[$1] += $8; next }
	    FNR > 1 { b[$1] += $8 } END {
	    for (p in b) if (t[p] > 0) printf "%-10s all %.3f\n", p, b[p] / t[p] }' \
	    "$out/rt.tsv" "$out/rb.tsv" | sort
} >"$out/ratios.tbl"
cat "$out/ratios.tbl"

span() { awk '!/^#/ { if (!s) { a = $1; s = 1 } z = $1 } END { printf "%.6f\n", z - a }' "$1"; }
r=1
: >"$out/errors"
while [ $r -le "$reps" ]; do
	echo "== run $r: full problem ($n x $n, $it steps, 2 ranks)"
	trc-record -o "$out/base.trc" -- -np 2 $base "$heat0" -n $n -i $it -t 0 >/dev/null
	trc-scale -b "$out/base.fit" -c "$out/target.fit" -p "$out/ratios.tbl" "$out/base.trc" >"$out/pred.trc"
	trc-record -o "$out/obs.trc" -- -np 2 $target trc-heat -n $n -i $it -t 0 >/dev/null
	trc-sum -v "$out/obs.trc" "$out/pred.trc"
	b=$(span "$out/base.trc") p=$(span "$out/pred.trc") o=$(span "$out/obs.trc")
	e=$(awk -v p="$p" -v o="$o" 'BEGIN { printf "%.1f", 100 * (p - o) / o }')
	echo "total: base $b s, predicted $p s, observed $o s, error $e%"
	echo "$e" >>"$out/errors"
	r=$((r + 1))
done
sort -n "$out/errors" | awk '{ v[NR] = $1 } END {
	printf "== total-time error over %d runs: median %s%%, spread %s%% to %s%%\n",
	    NR, v[int((NR + 1) / 2)], v[1], v[NR] }'
