#!/bin/sh
# formats-bench.sh RUNSTAT BIN - events per CPU second and peak memory
# of reading each format, side by side with reading the trc text
# stream itself, in the same run.  One generated trace of at least
# 5 million events (TRC_BENCH_EVENTS) is written by each format's own
# writer (or, for formats trc only reads, made by the format's
# generator in benchmarks/), then read with trc-cat; each figure is the
# median CPU time of 3 runs and their largest peak.  Then the peak
# memory of each reader on a trace five times shorter, to show it does
# not grow with the trace.  Target (issue 9): every text reader at no
# less than half the events per second of the text stream.
set -e
runstat=$1 bin=$2
events=${TRC_BENCH_EVENTS:-5000000}
dir=$(mktemp -d "${TMPDIR:-/tmp}/trc-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
here=$(cd "$(dirname "$0")" && pwd)

. "$here/measure.sh"

# convert FORMAT SRC DST: SRC in trc to DST in FORMAT; prints the path
# the reader takes.
convert() {
	case $1 in
	prv)	"$bin/trc-cat" --to prv -o "$3" "$2"; echo "$3.prv" ;;
	otf2)	"$bin/trc-cat" --to otf2 -o "$3" "$2"; echo "$3/traces.otf2" ;;
	simgrid) "$bin/trc-cat" --to simgrid --flops 1e9 -o "$3" "$2"; echo "$3" ;;
	dumpi)	sh "$here/dumpi-gen.sh" "$2" "$3"; echo "$3-0000.txt" ;;
	esac
}

formats=${TRC_BENCH_FORMATS:-prv simgrid dumpi otf2}
: > "$dir/mem"
for size in $((events / 5)) "$events"; do
	"$bin/trc-gen" -p halo -n 64 -e "$size" > "$dir/big.trc"
	n=$(($(wc -l < "$dir/big.trc") - 2))
	if [ "$size" = "$events" ]; then
		echo "stream: trc-gen -p halo -n 64 -e $events: $n events"
		printf '  %-30s %9s %12s %9s %10s\n' reader "cpu s" "M events/s" "peak MB" "vs trc"
		base=
		measure "trc (text stream)" "$n" "$bin/trc-cat" "$dir/big.trc"
		base=$(awk -v n="$n" -v cpu="$cpu" 'BEGIN { print n / cpu / 1e6 }')
		printf '%-10s %9d events: %6d KB\n' trc "$n" "$rss" >> "$dir/mem"
	else
		printf '%-10s %9d events: %6d KB\n' trc "$n" \
		    "$(peak "$bin/trc-cat" "$dir/big.trc")" >> "$dir/mem"
	fi
	for f in $formats; do
		path=$(convert "$f" "$dir/big.trc" "$dir/big-$f")
		flags="-f $f"
		[ "$f" = simgrid ] && flags="$flags --flops 1e9"
		if [ "$size" = "$events" ]; then
			# shellcheck disable=SC2086
			measure "$f" "$n" "$bin/trc-cat" $flags "$path"
			m=$rss
		else
			# shellcheck disable=SC2086
			m=$(peak "$bin/trc-cat" $flags "$path")
		fi
		printf '%-10s %9d events: %6d KB\n' "$f" "$n" "$m" >> "$dir/mem"
		rm -rf "$dir"/big-"$f"*
	done
done
echo
echo "peak memory against trace length:"
sort -s -k1,1 "$dir/mem"
