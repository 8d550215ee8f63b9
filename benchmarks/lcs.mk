# benchmarks/lcs.mk - the LCS benchmark, built into $(O)/bench, not bin/.
LCS_BENCH := $(O)/bench/lcs-bench
EXTRA += $(LCS_BENCH)
BENCHES += bench-stable

$(LCS_BENCH): $(O)/benchmarks/lcs-bench.o $(O)/libtrc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(TRC_LIBS)

# Two 10-million-event streams over 64 ranks, 0.01% and 1% apart:
# trc-stable and the LCS engine against diff --minimal, same files.
bench-stable: programs $(LCS_BENCH)
	@sh benchmarks/stable-bench.sh $(abspath $(O)/bench) $(abspath $(B))

.PHONY: bench-stable
-include $(O)/benchmarks/lcs-bench.d
