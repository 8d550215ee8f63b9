#!/bin/sh
# log-overhead.sh - what message logs (TRC_LOG) cost on trc-heat: the
# solver's own time traced with and without every rank logging,
# alternating, median of RUNS; the time each rank spent logging, as
# the log layer measures it (TRC_LOGSTATS: its calls' time less MPI's,
# which a loaded host disturbs far less than the run's time); and the
# logs' bytes per rank (on disk, and before compression).
#	sh benchmarks/log-overhead.sh BIN BUILD [SIZE ITERATIONS RUNS RANKS]
bin=$1 build=$2 n=${3:-256} it=${4:-3000} runs=${5:-5} np=${6:-2}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trc-log.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/measure.sh"	# median
heat() {
	"$bin/trc-record" -l "$build/libtrc-mpi.so" -o "$tmp/t.trc" -- -np "$np" \
	    --mca mpi_yield_when_idle 1 "$bin/trc-heat" -n "$n" -i "$it" --tolerance 0 |
	    awk '$1 == "time" { print $2 }'
}
echo "== log-overhead: trc-heat -n $n -i $it on $np ranks, median of $runs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ $i -lt "$runs" ]; do
	heat >>"$tmp/traced"
	rm -rf "$tmp/logs"
	mkdir "$tmp/logs"
	TRC_LOG=all TRC_LOGDIR=$tmp/logs TRC_LOGSTATS=1 heat >>"$tmp/logged" 2>"$tmp/stats"
	sed -n 's/.*rank\.\([0-9]*\)\.log: .*, \([0-9.]*\) s logging$/\1 \2/p' "$tmp/stats" >>"$tmp/spent"
	i=$((i + 1))
done
t=$(median <"$tmp/traced") l=$(median <"$tmp/logged")
echo "traced          $t s   ($(tr '\n' ' ' <"$tmp/traced"))"
echo "traced + logged $l s   ($(tr '\n' ' ' <"$tmp/logged"))"
awk -v t="$t" -v l="$l" 'BEGIN { printf "overhead %.1f%%\n", 100 * (l - t) / t }'
for r in $(awk '{ print $1 }' "$tmp/spent" | sort -un); do
	s=$(awk -v r="$r" '$1 == r { print $2 }' "$tmp/spent" | median)
	printf 'rank %s: %s s logging (median), %.1f%% of the traced run, %.2f us per iteration\n' "$r" "$s" \
	    "$(awk -v s="$s" -v t="$t" 'BEGIN { print 100 * s / t }')" \
	    "$(awk -v s="$s" -v i="$it" 'BEGIN { print 1e6 * s / i }')"
done
for f in "$tmp"/logs/rank.*.log; do
	r=${f##*/rank.} r=${r%.log}
	printf 'rank %s: log %d bytes on disk, %d before compression, %.0f bytes per iteration\n' \
	    "$r" "$(wc -c <"$f")" "$(gzip -dcf "$f" | wc -c)" \
	    "$(gzip -dcf "$f" | wc -c | awk -v i="$it" '{ print $1 / i }')"
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
