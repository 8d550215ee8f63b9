# benchmarks/poll.mk - issue 10's polling and CPU-time experiments.

# Polling as waiting: t/mpi/polling over TCP and shared memory, each
# predicted from the other by every trc-scale --poll mode, median of 5.
validate-poll: $(MPI_BENCH) $(O)/libtrc-mpi.so $(O)/t/mpi/polling $(B)/trc-record $(B)/trc-fit $(B)/trc-scale
	@sh benchmarks/validate-poll.sh $(abspath $(B)) $(abspath $(O))

# Computation as CPU time: trc-heat on 2 ranks on one core, traced with
# TRC_CLOCK=cpu, predicting the 2-core run, median of 5.
validate-cpu: $(MPI_BENCH) $(O)/libtrc-mpi.so $(B)/trc-record $(B)/trc-fit $(B)/trc-scale $(B)/trc-sum
	@sh benchmarks/validate-cpu.sh $(abspath $(B)) $(abspath $(O))

.PHONY: validate-poll validate-cpu
