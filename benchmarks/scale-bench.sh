#!/bin/sh
# scale-bench.sh RUNSTAT BIN - events per CPU second and peak memory of
# trc-scale on generated streams of 10 million events (TRC_BENCH_EVENTS)
# over 64 and over 4096 ranks, halo exchanges and allreduces, side by
# side with trc-cat (parse and rewrite) on the same stream, each the
# median CPU time of 3 runs and their largest peak; then trc-scale's
# peak memory on the first tenth of each stream, to show it does not
# grow with the trace.  Targets (issue 3): 8 M events per CPU second,
# under 16 MB.
set -e
runstat=$1 bin=$2
events=${TRC_BENCH_EVENTS:-10000000}
dir=$(mktemp -d "${TMPDIR:-/tmp}/trc-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT

# A target machine twice as fast to compute, with its own network.
printf 'send 0 inf 2e-6 1e-10\nisend 0 inf 1e-6 1e-10\nrecv 0 inf 2e-6 1e-10\nallreduce 0 inf 1e-5 1e-9\n' >"$dir/x.fit"

# measure NAME EVENTS CMD...: prints one row, sets $cpu and $rss.
measure() {
	name=$1 n=$2
	shift 2
	for i in 1 2 3; do
		"$runstat" "$@" 2>&1 >/dev/null | sed -n 's/^cpu=\([0-9.]*\) maxrss=\([0-9]*\)$/\1 \2/p'
	done > "$dir/runs"
	cpu=$(sort -n "$dir/runs" | awk 'NR == 2 { print $1 }')
	rss=$(awk '$2 > m { m = $2 } END { print m }' "$dir/runs")
	awk -v name="$name" -v n="$n" -v cpu="$cpu" -v rss="$rss" -v base="${base:-0}" 'BEGIN {
		rate = cpu > 0 ? n / cpu / 1e6 : 0
		printf "  %-30s %9.3f %12.2f %9.1f", name, cpu, rate, rss / 1024
		if (base > 0) printf " %9.2fx", rate / base; else printf " %10s", "-"
		printf "\n" }'
}

peak() {
	"$runstat" "$@" 2>&1 >/dev/null | sed -n 's/.*maxrss=//p'
}

: >"$dir/mem"
for ranks in 64 4096; do
	for p in halo allreduce; do
		"$bin/trc-gen" -p $p -n $ranks -e "$events" >"$dir/big.trc"
		n=$(($(wc -l <"$dir/big.trc") - 2))
		echo "stream: trc-gen -p $p -n $ranks -e $events: $n events, $(($(wc -c <"$dir/big.trc") / 1048576)) MiB"
		printf '  %-30s %9s %12s %9s %10s\n' program "cpu s" "M events/s" "peak MB" "vs trc-cat"
		base=
		measure "trc-cat" "$n" "$bin/trc-cat" "$dir/big.trc"
		base=$(awk -v n="$n" -v cpu="$cpu" 'BEGIN { print n / cpu / 1e6 }')
		measure "trc-scale" "$n" "$bin/trc-scale" "$dir/big.trc"
		measure "trc-scale -k 0.5 -c x.fit" "$n" "$bin/trc-scale" -k 0.5 -c "$dir/x.fit" "$dir/big.trc"
		big=$rss
		head -n $((n / 10 + 2)) "$dir/big.trc" >"$dir/small.trc"
		small=$(peak "$bin/trc-scale" -k 0.5 -c "$dir/x.fit" "$dir/small.trc")
		printf '%-10s %5d %9d events: %6d KB   %9d events: %6d KB\n' \
		    $p $ranks $((n / 10)) "$small" "$n" "$big" >>"$dir/mem"
		rm -f "$dir/big.trc" "$dir/small.trc"
	done
done
echo
echo "trc-scale -k 0.5 -c x.fit peak memory against trace length (KB):"
cat "$dir/mem"
