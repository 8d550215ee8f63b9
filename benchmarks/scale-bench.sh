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

. "$(dirname "$0")/measure.sh"

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
		measure "trc-scale --cpu-ratio 0.5 -c x.fit" "$n" "$bin/trc-scale" --cpu-ratio 0.5 -c "$dir/x.fit" "$dir/big.trc"
		big=$rss
		head -n $((n / 10 + 2)) "$dir/big.trc" >"$dir/small.trc"
		small=$(peak "$bin/trc-scale" --cpu-ratio 0.5 -c "$dir/x.fit" "$dir/small.trc")
		printf '%-10s %5d %9d events: %6d KB   %9d events: %6d KB\n' \
		    $p $ranks $((n / 10)) "$small" "$n" "$big" >>"$dir/mem"
		rm -f "$dir/big.trc" "$dir/small.trc"
	done
done
echo
echo "trc-scale --cpu-ratio 0.5 -c x.fit peak memory against trace length (KB):"
cat "$dir/mem"
