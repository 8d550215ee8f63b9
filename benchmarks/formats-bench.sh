#!/bin/sh
# formats-bench.sh RUNSTAT BIN - events per CPU second and peak memory
# of reading each format, side by side with reading the trc text
# stream of the same trace, in turns with it.  A generated trace of
# 5 million events (TRC_BENCH_EVENTS) is written by each format's own
# writer (for formats trc only reads, by the awk converters the tests
# use) and read back with trc-cat; each figure is the median CPU time
# of 3 runs and their largest peak, and a format's rate counts the
# events it yields (a format that cannot say markers yields fewer).
# Its ratio is to the text stream read in turns with it (trc, format,
# trc, format, ... five times, medians), so that the load of a shared
# machine falls on both alike.  TRC_BENCH_RUNS sets both counts (the
# sanitized tests run each once: their figures are not judged).
# Under each text format's row, its bytes alone: wc -l over the files
# its reader reads, rated as if it yielded the format's events, the
# least any line reader of those bytes spends (read(2)'s copy from the
# page cache and a scan for newlines), so the most a reader of the
# format can reach against the text stream.
# Then each reader's peak memory on a trace five times shorter, to
# show it does not grow with the trace.  Target (issue 9): every text
# reader at no less than half the events per second of the text stream.
# OTF2 is binary and read through libotf2: its ratio is shown, but the
# target is not stated for it.
set -e
runstat=$1 bin=$2
events=${TRC_BENCH_EVENTS:-5000000}
dir=$(mktemp -d "${TMPDIR:-/tmp}/trc-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
data=$(cd "$(dirname "$0")/../t/data" && pwd)

. "$(dirname "$0")/measure.sh"

# pair NAME EVENTS CMD...: the row of CMD, as measure() prints it, its
# rate a multiple of the text stream's ($n events of $dir/big.trc)
# read in turns with it.  Sets $rss.
pair() {
	name=$1 nf=$2
	shift 2
	: > "$dir/runs"
	: > "$dir/base"
	i=0
	while [ $i -lt "${TRC_BENCH_RUNS:-5}" ]; do
		"$runstat" "$bin/trc-cat" "$dir/big.trc" 2>&1 >/dev/null |
		    sed -n 's/^cpu=\([0-9.]*\) maxrss=.*$/\1/p' >> "$dir/base"
		"$runstat" "$@" 2>&1 >/dev/null |
		    sed -n 's/^cpu=\([0-9.]*\) maxrss=\([0-9]*\)$/\1 \2/p' >> "$dir/runs"
		i=$((i + 1))
	done
	bcpu=$(median < "$dir/base")
	cpu=$(median < "$dir/runs")
	rss=$(awk '$2 > m { m = $2 } END { print m }' "$dir/runs")
	awk -v name="$name" -v nf="$nf" -v n="$n" -v cpu="$cpu" -v bcpu="$bcpu" \
	    -v rss="$rss" 'BEGIN {
		printf "  %-30s %9.3f %12.2f %9.1f %9.2fx   (trc %.3f s)\n", name,
		    cpu, nf / cpu / 1e6, rss / 1024, (nf / cpu) / (n / bcpu), bcpu }'
}

# convert FORMAT SRC DST: SRC as FORMAT under the name DST; prints the
# path its reader takes.
convert() {
	case $1 in
	prv)	"$bin/trc-cat" --to prv -o "$3" "$2"; echo "$3.prv" ;;
	otf2)	"$bin/trc-cat" --to otf2 -o "$3" "$2"; echo "$3/traces.otf2" ;;
	simgrid) "$bin/trc-cat" --to simgrid --flops 1e9 -o "$3" "$2"; echo "$3" ;;
	dumpi)	awk -v prefix="$3" -f "$data/dumpi/from-trc.awk" "$2"
		# awk writes the 64 files a line at a time in turns, which
		# leaves them in the page cache in small pieces that cost
		# the kernel 4x more to read (cat of them: 0.11 s against
		# 0.03 s for the same bytes copied); dumpi2ascii writes one
		# file at a time, as this copy does.
		for f in "$3"-*.txt; do
			cp "$f" "$f.tmp" && mv "$f.tmp" "$f"
		done
		echo "$3-0000.txt" ;;
	sddf)	awk -f "$data/sddf/from-trc.awk" "$2" > "$3.sddf"
		echo "$3.sddf" ;;
	esac
}

# files FORMAT BASE: the files the reader of FORMAT reads for the
# trace convert wrote under the name BASE (text formats only).
files() {
	case $1 in
	prv)	echo "$2.prv" "$2.pcf" "$2.row" ;;
	simgrid) ls "$2" "$2"_*.txt ;;	# the index and a file per rank
	dumpi)	ls "$2"-*.txt ;;
	sddf)	echo "$2.sddf" ;;
	esac
}

# The SDDF converter writes blocking calls only: a ring holds no other.
# TRC_BENCH_FORMATS names the formats to run (all by default), e.g.
# "dumpi" alone; a pattern none of whose formats is named is skipped.
all=${TRC_BENCH_FORMATS:-prv simgrid dumpi otf2 sddf}
halo= ring=
for f in $all; do
	if [ "$f" = sddf ]; then ring=sddf; else halo="$halo $f"; fi
done
: > "$dir/mem"
for spec in "halo:$halo" "ring:$ring"; do
	pattern=${spec%%:*} formats=${spec#*:}
	[ -n "$formats" ] || continue
	"$bin/trc-gen" -p "$pattern" -n 64 -e "$events" > "$dir/big.trc"
	"$bin/trc-gen" -p "$pattern" -n 64 -e $((events / 5)) > "$dir/small.trc"
	n=$(($(wc -l < "$dir/big.trc") - 2))
	echo "stream: trc-gen -p $pattern -n 64 -e $events: $n events"
	printf '  %-30s %9s %12s %9s %10s\n' reader "cpu s" "M events/s" "peak MB" "vs trc"
	measure "trc (text stream)" "$n" "$bin/trc-cat" "$dir/big.trc"
	printf '%-8s %-5s small %6d KB  large %6d KB\n' trc "$pattern" \
	    "$(peak "$bin/trc-cat" "$dir/small.trc")" "$rss" >> "$dir/mem"
	for f in $formats; do
		flags="-f $f"
		[ "$f" = simgrid ] && flags="$flags --flops 1e9"
		path=$(convert "$f" "$dir/small.trc" "$dir/small-$f")
		# shellcheck disable=SC2086
		small=$(peak "$bin/trc-cat" $flags "$path")
		path=$(convert "$f" "$dir/big.trc" "$dir/big-$f")
		# shellcheck disable=SC2086
		nf=$(($("$bin/trc-cat" $flags "$path" | wc -l) - 1))
		# shellcheck disable=SC2086
		pair "$f ($nf events)" "$nf" "$bin/trc-cat" $flags "$path"
		printf '%-8s %-5s small %6d KB  large %6d KB\n' "$f" "$pattern" \
		    "$small" "$rss" >> "$dir/mem"
		if [ "$f" != otf2 ]; then
			# shellcheck disable=SC2046
			pair "  its bytes alone (wc -l)" "$nf" wc -l \
			    $(files "$f" "$dir/big-$f")
		fi
		rm -rf "$dir"/big-"$f"* "$dir"/small-"$f"*
	done
done
echo
echo "peak memory, $((events / 5)) and $events events:"
cat "$dir/mem"
