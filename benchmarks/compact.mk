# benchmarks/compact.mk - compact traces (issue 16): sizes of the text,
# gzip, trcb, trcb-zstd and trc-loops forms, and trc-sum, trc-scale and
# trc-stable on text against trcb, side by side in one run.
# trc-sum's summary alone (sum-floor) bounds what any reader can gain.
SUM_FLOOR := $(O)/bench/sum-floor
EXTRA += $(SUM_FLOOR)
BENCHES += bench-compact

$(SUM_FLOOR): $(O)/benchmarks/sum-floor.o $(O)/libtrc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(TRC_LIBS)

bench-compact: programs $(RUNSTAT) $(SUM_FLOOR)
	@sh benchmarks/compact-bench.sh $(abspath $(RUNSTAT)) $(abspath $(B))

.PHONY: bench-compact
-include $(O)/benchmarks/sum-floor.d
