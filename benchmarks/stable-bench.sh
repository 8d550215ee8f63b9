#!/bin/sh
# stable-bench.sh BENCHDIR BINDIR [EVENTS [RANKS]] - trc-stable and the
# LCS engine against diff --minimal on the same data, in the same run.
#
# For each fraction of differing events (0.01% and 1%) two streams are
# made, with their per-rank "KIND PEER" token files (the strings
# trc-stable compares by default):
#   gen   lcs-bench gen's own ring exchange with wildcard receives;
#   halo  trc-gen -p halo, edited by awk (an event lost, an extra
#         event, another peer), when trc-gen is in BINDIR.
# Then lcs-bench lcs (the engine on the token files), diff --minimal on
# the same token files, and trc-stable on the streams themselves
# (parsing included) each report wall and CPU time, peak memory, total
# LCS and distance.  The LCS totals must agree.
set -e
bench=${1:?usage: stable-bench.sh BENCHDIR BINDIR [EVENTS [RANKS]]}
bin=${2:?usage: stable-bench.sh BENCHDIR BINDIR [EVENTS [RANKS]]}
events=${3:-10000000}
ranks=${4:-64}
dir=$(mktemp -d "${TMPDIR:-/tmp}/stable-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT

row() {	# case tool wall cpu maxrss_kb lcs d
	awk -v c="$1" -v t="$2" -v w="$3" -v u="$4" -v m="$5" -v l="$6" -v d="$7" \
	    'BEGIN { printf "%-12s %-16s %8.2f %8.2f %10.1f %12d %9d\n", c, t, w, u, m / 1024, l, d }'
}

run_case() {	# case dir
	for tool in lcs diff; do
		set -- "$1" "$2" $("$bench/lcs-bench" $tool "$2" | tr ' ' '\n' |
		    sed -n 's/^\(wall\|cpu\|maxrss_kb\|lcs\|d\)=//p' | tr '\n' ' ')
		# wall cpu maxrss lcs d come out as lcs d wall cpu maxrss
		row "$1" "$([ $tool = lcs ] && echo lcs-bench || echo 'diff --minimal')" \
		    "$5" "$6" "$7" "$3" "$4"
		set -- "$1" "$2"
	done
	if [ -x "$bin/trc-stable" ]; then
		/usr/bin/time -f '%e %U %S %M' -o "$dir/time" \
		    "$bin/trc-stable" --threshold 100% "$2/a.trc" "$2/b.trc" >"$dir/out"
		set -- "$1" "$2" $(cat "$dir/time") $(awk '$1 == "total" { print $4, $5 }' "$dir/out")
		row "$1" trc-stable "$3" "$(echo "$4 $5" | awk '{ print $1 + $2 }')" "$6" "$7" "$8"
	fi
}

# Per-rank "KIND PEER" token files of a stream, as lcs-bench gen writes.
tokens() {	# stream dir
	mkdir -p "$2"
	awk -v d="$2" '/^#/ { next } {
		p = "-"
		for (i = 4; i <= NF; i++) if ($i ~ /^peer=/) p = substr($i, 6)
		print $3, p > (d "/" $2)
	}' "$1"
}

printf '%-12s %-16s %8s %8s %10s %12s %9s\n' case tool wall_s cpu_s maxrss_MB lcs d
for p in 0.0001 0.01; do
	pc=$(awk -v p="$p" 'BEGIN { printf "%g%%", p * 100 }')
	rm -rf "$dir/d"
	"$bench/lcs-bench" gen -n "$events" -r "$ranks" -p "$p" "$dir/d" >"$dir/gen"
	run_case "gen $pc" "$dir/d"
	sed 's/^/# /' "$dir/gen"
	rm -rf "$dir/d"
	[ -x "$bin/trc-gen" ] || continue
	mkdir -p "$dir/h"
	# trc-gen -p halo writes about 19 events per rank and iteration.
	"$bin/trc-gen" -p halo -n "$ranks" -i $((events / ranks / 19)) -s 1 >"$dir/h/a.trc"
	awk -v p="$p" -v n="$ranks" 'BEGIN { srand(1) }
	    /^#/ { print; next }
	    rand() >= p { print; next }
	    { e++; r = int(rand() * 3) }
	    r == 0 { next }
	    r == 1 { print $1, $2, "MK", "name=extra"; print; next }
	    { for (i = 4; i <= NF; i++) if ($i ~ /^peer=[0-9]/) {
		$i = "peer=" (substr($i, 6) + 1) % n; print; next }
	      print $1, $2, "MK", "name=changed" }
	    END { printf "halo: %d events, %d edits\n", NR, e > "/dev/stderr" }' \
	    "$dir/h/a.trc" >"$dir/h/b.trc" 2>"$dir/gen"
	tokens "$dir/h/a.trc" "$dir/h/a"
	tokens "$dir/h/b.trc" "$dir/h/b"
	run_case "halo $pc" "$dir/h"
	sed 's/^/# /' "$dir/gen"
	rm -rf "$dir/h"
done
