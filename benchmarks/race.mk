# benchmarks/race.mk - trc-race against trc-stable (the trace against
# itself) on the same 10-million-event, 64-rank streams (issue 11).
BENCHES += bench-race

bench-race: programs $(RUNSTAT)
	@sh benchmarks/race-bench.sh $(abspath $(RUNSTAT)) $(abspath $(B))

.PHONY: bench-race
