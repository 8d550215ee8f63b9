# measure.sh - sourced by the benchmark scripts, which set $runstat
# (build/bench/runstat) and $dir (a scratch directory).
#
# measure NAME EVENTS CMD...: runs CMD 3 times (TRC_BENCH_RUNS) and
# prints one row (report).  Sets $cpu and $rss (KB).
measure() {
	name=$1 n=$2
	shift 2
	i=0
	while [ $i -lt "${TRC_BENCH_RUNS:-3}" ]; do
		run_once "$@"
		i=$((i + 1))
	done > "$dir/runs"
	report "$name" "$n" "$dir/runs"
}

# run_once CMD...: one run of CMD, its "CPU-seconds peak-KB".
run_once() {
	"$runstat" "$@" 2>&1 >/dev/null |
	    sed -n 's/^cpu=\([0-9.]*\) maxrss=\([0-9]*\)$/\1 \2/p'
}

# report NAME EVENTS FILE: the row of the runs in FILE (run_once's lines):
# the median CPU seconds, events per CPU second, the largest peak
# memory, and the rate as a multiple of $base (M events/s) when that
# is set.  Sets $cpu and $rss (KB).
report() {
	cpu=$(median < "$3")
	rss=$(awk '$2 > m { m = $2 } END { print m }' "$3")
	awk -v name="$1" -v n="$2" -v cpu="$cpu" -v rss="$rss" -v base="${base:-0}" 'BEGIN {
		rate = cpu > 0 ? n / cpu / 1e6 : 0
		printf "  %-30s %9.3f %12.2f %9.1f", name, cpu, rate, rss / 1024
		if (base > 0) printf " %9.2fx", rate / base; else printf " %10s", "-"
		printf "\n" }'
}

# peak CMD...: the peak memory of one run of CMD, in KB.
peak() {
	"$runstat" "$@" 2>&1 >/dev/null | sed -n 's/.*maxrss=//p'
}

# median: the median of the first column of standard input (the middle
# one of an odd count, the lower middle of an even one).
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}
