#!/bin/sh
# race-bench.sh RUNSTAT BIN - trc-race's CPU time and peak memory side
# by side with trc-stable's on the same stream (trc-stable compares it
# with itself), each the median CPU time of 3 runs and their largest
# peak, on trc-gen streams of TRC_BENCH_EVENTS events (default 10
# million) over TRC_BENCH_RANKS ranks (default 64):
#   master-worker  every receive of rank 0 is a wildcard that races with
#                  the results of nearly every other worker, so trc-race
#                  prints a race naming about ranks - 2 sends per task;
#   halo           no choice point: vector clocks alone.
# Then trc-race's peak memory on the first tenth of each stream, to show
# that it does not grow with the trace.  Target (issue 11): trc-race's
# CPU time at most 3 times trc-stable's.
set -e
runstat=$1 bin=$2
events=${TRC_BENCH_EVENTS:-10000000}
ranks=${TRC_BENCH_RANKS:-64}
dir=$(mktemp -d "${TMPDIR:-/tmp}/race-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT

. "$(dirname "$0")/measure.sh"

: >"$dir/mem"
for p in master-worker halo; do
	"$bin/trc-gen" -p $p -n "$ranks" -e "$events" >"$dir/big.trc"
	n=$(($(wc -l <"$dir/big.trc") - 2))
	echo "stream: trc-gen -p $p -n $ranks -e $events: $n events, $(($(wc -c <"$dir/big.trc") / 1048576)) MiB"
	printf '  %-30s %9s %12s %9s %10s\n' program "cpu s" "M events/s" "peak MB" "vs stable"
	base=
	measure "trc-stable big.trc big.trc" "$n" "$bin/trc-stable" "$dir/big.trc" "$dir/big.trc"
	stable=$cpu
	base=$(awk -v n="$n" -v cpu="$cpu" 'BEGIN { print n / cpu / 1e6 }')
	measure "trc-race big.trc" "$n" "$bin/trc-race" "$dir/big.trc"
	race=$cpu big=$rss
	# What it prints, counted without keeping it.
	sum=$("$bin/trc-race" "$dir/big.trc" | tail -1)
	bytes=$("$bin/trc-race" "$dir/big.trc" | wc -c)
	echo "  trc-race: $sum, $((bytes / 1048576)) MiB printed"
	awk -v r="$race" -v s="$stable" 'BEGIN {
		printf "  trc-race CPU / trc-stable CPU: %.2f (target <= 3): %s\n",
		    r / s, r <= 3 * s ? "met" : "NOT MET" }'
	head -n $((n / 10 + 2)) "$dir/big.trc" >"$dir/small.trc"
	small=$(peak "$bin/trc-race" "$dir/small.trc")
	printf '%-14s %9d events: %6d KB   %9d events: %6d KB\n' \
	    $p $((n / 10)) "$small" "$n" "$big" >>"$dir/mem"
	rm -f "$dir/big.trc" "$dir/small.trc"
done
echo
echo "trc-race peak memory against trace length (KB):"
cat "$dir/mem"
