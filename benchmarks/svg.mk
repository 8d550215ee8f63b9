# benchmarks/svg.mk - trc-svg on 1 and 10 million events: CPU time,
# events per second, peak memory (flat in trace length) and SVG size.
BENCHES += bench-svg

bench-svg: programs
	@sh benchmarks/svg-bench.sh $(abspath $(B))

.PHONY: bench-svg
