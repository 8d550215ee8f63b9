# benchmarks/limits.mk - the limits of issue 15 at full size: 2^21
# ranks, a 200 MB line, unmatched sends; peak memory and time of each
# (t/1141 and t/1142 run the short forms).
BENCHES += bench-limits

bench-limits: programs
	@sh benchmarks/limits-bench.sh $(abspath $(B))

.PHONY: bench-limits
