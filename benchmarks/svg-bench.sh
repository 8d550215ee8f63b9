#!/bin/sh
# svg-bench.sh BINDIR [EVENTS [RANKS]] - trc-svg's speed, memory and
# picture size on trc-gen halo streams of EVENTS/10 and EVENTS events
# (default 10 million, 16 ranks).  The issue's bounds: under 10 s of
# CPU and under 5 MB of SVG for 10 million events, memory flat in
# trace length.  Also --vs of the stream against itself, which holds
# two lanes per rank.
set -e
bin=${1:?usage: svg-bench.sh BINDIR [EVENTS [RANKS]]}
events=${2:-10000000}
ranks=${3:-16}
dir=$(mktemp -d "${TMPDIR:-/tmp}/svg-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
PATH=$bin:$PATH

printf '%-22s %10s %8s %12s %10s %10s\n' case events cpu_s events/s peak_MB svg_KB
run() {	# name events trc-svg-args...
	name=$1 n=$2
	shift 2
	/usr/bin/time -f '%U %S %M' -o "$dir/time" trc-svg "$@" -o "$dir/out.svg"
	read -r u s m < "$dir/time"
	awk -v c="$name" -v n="$n" -v u="$u" -v s="$s" -v m="$m" \
	    -v z="$(wc -c < "$dir/out.svg")" 'BEGIN {
		cpu = u + s
		printf "%-22s %10d %8.2f %12.0f %10.1f %10.1f\n", c, n, cpu,
		    (cpu > 0 ? n / cpu : 0), m / 1024, z / 1024
		if (n >= 10000000 && (cpu >= 10 || z >= 5 * 1024 * 1024))
			printf "  over the bounds (10 s CPU, 5 MB SVG)\n"
	}'
}
for n in $((events / 10)) $events; do
	trc-gen -p halo -n "$ranks" -e "$n" > "$dir/t.trc"
	got=$(grep -vc '^#' "$dir/t.trc")
	run "timeline" "$got" "$dir/t.trc"
	run "timeline --time" "$got" --time 1-2 "$dir/t.trc"
	run "--vs (2 x events)" "$((2 * got))" --vs "$dir/t.trc" "$dir/t.trc"
done
