# benchmarks/core.mk - the toolkit's own speed and memory, against
# mawk on the same file in the same run.
RUNSTAT := $(O)/bench/runstat
EXTRA += $(RUNSTAT)
BENCHES += bench-core

$(RUNSTAT): $(O)/benchmarks/runstat.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $<

bench-core: programs $(RUNSTAT)
	@sh benchmarks/core-bench.sh $(abspath $(RUNSTAT)) $(abspath $(B))

.PHONY: bench-core
-include $(O)/benchmarks/runstat.d
