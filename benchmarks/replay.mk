# benchmarks/replay.mk - message logs and one-rank replay (issue 18).

# What TRC_LOG costs on trc-heat: time and bytes per rank.
log-overhead: $(MPI_BENCH) $(O)/libtrc-mpi.so $(B)/trc-record
	@sh benchmarks/log-overhead.sh $(abspath $(B)) $(abspath $(O))

# PHANTOM's way on this host: trc-heat -O0 over TCP logged (the base),
# its representatives (trc-cluster) replayed alone at -O2 (the target),
# ratios from the replays, and trc-scale's prediction of the -O2 runs
# over shared memory against the observed ones, on 2 and 4 ranks.
replay-validate: $(MPI_BENCH) $(O)/libtrc-mpi.so $(O)/libtrc-unreplayable.so \
	    $(B)/trc-record $(B)/trc-replay $(B)/trc-cluster $(B)/trc-ratios \
	    $(B)/trc-fit $(B)/trc-scale $(B)/trc-sum $(B)/trc-cat
	@sh benchmarks/replay-validate.sh $(abspath $(B)) $(abspath $(O))

.PHONY: log-overhead replay-validate
