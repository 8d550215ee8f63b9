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

# Collectives after computation (trc-scale(1)'s cold collectives): rank
# 0 touches 0 to 8 MiB, then an 8-byte allreduce, with and without a
# receive between, over shared memory and over TCP.
COLDCOLL := $(O)/bench/coldcoll
EXTRA += $(COLDCOLL)

bench-cold: $(COLDCOLL)
	@for btl in vader tcp; do \
		echo "== $$btl"; \
		OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
		    mpirun -np 2 --mca btl self,$$btl --mca mpi_yield_when_idle 1 $(COLDCOLL) || exit 2; \
	done

.PHONY: bench-cold

# A rank that shares its core takes a message only when the rank
# computing beside it stops (trc-scale --bound): 2 ranks, then 3, over
# shared memory.
WAKE := $(O)/bench/wake
EXTRA += $(WAKE)

bench-wake: $(WAKE)
	@for np in 2 3; do \
		OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
		    mpirun -np $$np --oversubscribe --bind-to none --mca btl self,vader \
		    --mca mpi_yield_when_idle 1 $(WAKE) || exit 2; \
	done

.PHONY: bench-wake

# A receive begun after its sender began its next message takes that
# one too, over TCP (make validate's recv row): both transports.
BEHIND := $(O)/bench/behind
EXTRA += $(BEHIND)

bench-behind: $(BEHIND)
	@for btl in tcp vader; do \
		echo "== $$btl"; \
		OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
		    mpirun -np 2 --mca btl self,$$btl --mca mpi_yield_when_idle 1 \
		    $(BEHIND) || exit 2; \
	done

.PHONY: bench-behind

# The MPI micro-benchmarks above, each one file and micro.h.
$(COLDCOLL) $(WAKE) $(BEHIND): $(O)/bench/%: benchmarks/%.c benchmarks/micro.h
	@mkdir -p $(@D)
	$(MPICC) $(MPI_CFLAGS) $(LDFLAGS) -o $@ $<
