# benchmarks/scale.mk - trc-scale's speed and memory at 64 and 4096
# ranks, against trc-cat on the same stream in the same run.
BENCHES += bench-scale

bench-scale: programs $(RUNSTAT)
	@sh benchmarks/scale-bench.sh $(abspath $(RUNSTAT)) $(abspath $(B))

.PHONY: bench-scale
