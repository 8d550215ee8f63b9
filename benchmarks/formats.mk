# benchmarks/formats.mk - each format's reader against the trc text
# stream's on the same trace in the same run (issue 9).
BENCHES += bench-formats

bench-formats: programs $(RUNSTAT)
	@sh benchmarks/formats-bench.sh $(abspath $(RUNSTAT)) $(abspath $(B))

.PHONY: bench-formats
