#!/bin/sh
# stable-bench.sh BENCHDIR BINDIR [EVENTS [RANKS]] - trc-stable and the
# LCS engine against diff --minimal on the same data, in the same run.
#
# For each fraction of differing events, lcs-bench gen writes two trc
# streams and their per-rank "KIND PEER" token files; then lcs-bench
# lcs (the engine on the token files), diff --minimal on the same token
# files, and trc-stable on the streams each report wall and CPU time,
# peak memory, total LCS and distance.  The LCS totals must agree.
set -e
bench=${1:?usage: stable-bench.sh BENCHDIR BINDIR [EVENTS [RANKS]]}
bin=${2:?usage: stable-bench.sh BENCHDIR BINDIR [EVENTS [RANKS]]}
events=${3:-10000000}
ranks=${4:-64}
dir=$(mktemp -d "${TMPDIR:-/tmp}/stable-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT

printf '%-8s %-16s %8s %8s %10s %12s %9s\n' case tool wall_s cpu_s maxrss_MB lcs d
for p in 0.0001 0.01; do
	rm -rf "$dir/d"
	"$bench/lcs-bench" gen -n "$events" -r "$ranks" -p "$p" "$dir/d" >"$dir/gen"
	case=$(awk -v p="$p" 'BEGIN { printf "%g%%", p * 100 }')
	for tool in lcs diff; do
		"$bench/lcs-bench" $tool "$dir/d" | awk -v c="$case" -v t="$tool" '{
			for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			name = t == "lcs" ? "lcs-bench" : "diff --minimal"
			printf "%-8s %-16s %8.2f %8.2f %10.1f %12d %9d\n", c, name,
			    v["wall"], v["cpu"], v["maxrss_kb"] / 1024, v["lcs"], v["d"]
		}'
	done
	if [ -x "$bin/trc-stable" ]; then
		/usr/bin/time -f '%e %U %S %M' -o "$dir/time" \
		    "$bin/trc-stable" -t 1000000000 "$dir/d/a.trc" "$dir/d/b.trc" >"$dir/out" || true
		awk -v c="$case" 'NR == FNR { w = $1; u = $2 + $3; m = $4; next }
		    $1 == "total" { l = $4; d = $5 }
		    END { printf "%-8s %-16s %8.2f %8.2f %10.1f %12d %9d\n", c,
			"trc-stable", w, u, m / 1024, l, d }' "$dir/time" "$dir/out"
	fi
	sed 's/^/# /' "$dir/gen"
done
