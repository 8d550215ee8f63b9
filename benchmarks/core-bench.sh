#!/bin/sh
# core-bench.sh RUNSTAT BIN - events per CPU second and peak memory of
# trc-gen, trc-cat and trc-sum on a generated stream of 10 million
# events over 64 ranks, side by side with mawk on the same file, each
# the median of 3 runs; then peak memory on a stream 10 times shorter,
# to show it does not grow with the trace.
set -e
runstat=$1 bin=$2
events=${TRC_BENCH_EVENTS:-10000000}
dir=$(mktemp -d "${TMPDIR:-/tmp}/trc-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT

. "$(dirname "$0")/measure.sh"

"$bin/trc-gen" -p halo -n 64 -e "$events" > "$dir/big.trc"
n=$(($(wc -l < "$dir/big.trc") - 2))
cat "$dir/big.trc" > /dev/null	# into the page cache for every reader alike
echo "stream: trc-gen -p halo -n 64 -e $events: $n events, $(($(wc -c < "$dir/big.trc") / 1048576)) MiB"
printf '  %-30s %9s %12s %9s %10s\n' program "cpu s" "M events/s" "peak MB" "vs mawk"
base=
measure "mawk '{s[\$2]+=\$1}'" "$n" mawk '{s[$2]+=$1}' "$dir/big.trc"
base=$(awk -v n="$n" -v cpu="$cpu" 'BEGIN { print n / cpu / 1e6 }')
measure "trc-sum" "$n" "$bin/trc-sum" "$dir/big.trc"
measure "trc-cat (parse and rewrite)" "$n" "$bin/trc-cat" "$dir/big.trc"
measure "trc-gen" "$n" "$bin/trc-gen" -p halo -n 64 -e "$events"

head -n $((n / 10 + 2)) "$dir/big.trc" > "$dir/small.trc"
echo
echo "peak memory against trace length (KB):"
for p in trc-sum trc-cat; do
	small=$(peak "$bin/$p" "$dir/small.trc")
	big=$(peak "$bin/$p" "$dir/big.trc")
	printf '%-10s %9d events: %6d KB   %9d events: %6d KB\n' "$p" $((n / 10)) "$small" "$n" "$big"
done
