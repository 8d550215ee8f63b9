# benchmarks/limits.mk - the limits of issue 15 at full size: 2^21
# ranks, a 200 MB line, unmatched sends; peak memory and time of each
# (t/1141 and t/1142 run the short forms).
BENCHES += bench-limits

bench-limits: programs
	@sh benchmarks/limits-bench.sh $(abspath $(B))

.PHONY: bench-limits

# The Done-when of issue 15 whole: every stream tool on 2^21 ranks, a
# 200 MB line, a 10 MB value and 5 M unmatched sends, the peak memory
# of each and whether it gave the output or the error expected (t/1144
# runs the short form).  About 2 minutes here (2026-11-28: 98 s);
# 3 GB at most at a time.
limits-long: programs
	@sh benchmarks/limits-long.sh $(abspath $(B))

.PHONY: limits-long
