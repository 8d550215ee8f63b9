#!/bin/sh
# mpi-overhead.sh - the tracing overhead of libtrc-mpi on trc-heat: the
# solver's own time, traced and untraced, alternating, median of RUNS.
#	sh benchmarks/mpi-overhead.sh BIN BUILD [SIZE ITERATIONS RUNS]
bin=$1 build=$2 n=${3:-256} it=${4:-3000} runs=${5:-7}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trc-ovh.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/measure.sh"	# median
i=0
while [ $i -lt "$runs" ]; do
	mpirun -np 2 "$bin/trc-heat" -n "$n" -i "$it" --tolerance 0 | awk '$1 == "time" { print $2 }' >>"$tmp/plain"
	"$bin/trc-record" -l "$build/libtrc-mpi.so" -o "$tmp/t.trc" -- -np 2 "$bin/trc-heat" -n "$n" -i "$it" --tolerance 0 |
		awk '$1 == "time" { print $2 }' >>"$tmp/traced"
	i=$((i + 1))
done
p=$(median <"$tmp/plain") t=$(median <"$tmp/traced")
ev=$(grep -vc '^#' "$tmp/t.trc")
echo "trc-heat -n $n -i $it on 2 ranks, median of $runs runs"
echo "untraced $p s"
echo "traced   $t s ($ev events, $(awk -v e="$ev" -v t="$t" 'BEGIN { printf "%.0f", e / t }') events/s)"
awk -v p="$p" -v t="$t" 'BEGIN { printf "overhead %.1f%%\n", 100 * (t - p) / p }'
