# benchmarks/compact.mk - compact traces (issue 16): sizes of the text,
# gzip, trcb, trcb-zstd and trc-loops forms, and trc-sum, trc-scale and
# trc-stable on text against trcb, side by side in one run.
BENCHES += bench-compact

bench-compact: programs $(RUNSTAT)
	@sh benchmarks/compact-bench.sh $(abspath $(RUNSTAT)) $(abspath $(B))

.PHONY: bench-compact
