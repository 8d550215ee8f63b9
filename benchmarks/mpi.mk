# benchmarks/mpi.mk - the parts built with the MPI compiler wrapper:
# the heat solver and the communication benchmark (bin/), the PMPI
# tracer libtrc-mpi.so (build/, installed into $(LIBDIR)/trc/) and
# the MPI test programs of t/40xx (build/t/mpi/).
#
# MPICC selects the MPI implementation; the tracer must be built per
# implementation (an MPICH build preloaded into an Open MPI program
# crashes), e.g. make MPICC=mpicc.mpich O=build/mpich.

MPICC ?= mpicc
MPI_CFLAGS = $(TRC_CFLAGS) $(CPPFLAGS) $(CFLAGS)

MPI_BENCH := $(B)/trc-heat $(B)/trc-pingpong
MPI_LIB_SRC := $(wildcard lib/mpi/*.c)
MPI_LIB_OBJ := $(MPI_LIB_SRC:%.c=$(O)/%.pic.o)
MPI_TEST_SRC := $(wildcard t/mpi/*.c t/mpi/nd/*.c)
MPI_TEST_F := $(wildcard t/mpi/*.f90)
MPI_TESTS := $(MPI_TEST_SRC:t/mpi/%.c=$(O)/t/mpi/%) \
	$(if $(shell command -v mpif90),$(MPI_TEST_F:t/mpi/%.f90=$(O)/t/mpi/%))

EXTRA += $(MPI_BENCH) $(O)/libtrc-mpi.so $(MPI_TESTS)
INSTALL_EXTRA += mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/trc && \
	cp $(MPI_BENCH) $(DESTDIR)$(BINDIR)/ && \
	cp $(O)/libtrc-mpi.so $(DESTDIR)$(LIBDIR)/trc/;

# Every loop on a 64-byte line: trc-heat's inner loop (40 bytes) at
# GCC's default 16-byte alignment crossed a line, and on this host's
# cores (AMD Zen 5) ran a sweep in either 60 or 83-86 us, the mode
# changing from run to run and within runs: a bimodal machine no
# prediction holds (README, Validation).  Aligned, every run is fast.
HEAT_CFLAGS = -falign-loops=64

$(B)/trc-%: benchmarks/%.c benchmarks/mpiprog.h lib/trc.h $(O)/help.h
	@mkdir -p $(@D)
	$(MPICC) $(MPI_CFLAGS) $(HEAT_CFLAGS) -I$(O) $(LDFLAGS) -o $@ $< -lm

# trc-pingpong writes the #load and #cpu lines as the tracer does.
$(B)/trc-pingpong: benchmarks/pingpong.c benchmarks/mpiprog.h lib/trc.h \
		lib/hostcond.c lib/trc_hostcond.h $(O)/help.h
	@mkdir -p $(@D)
	$(MPICC) $(MPI_CFLAGS) -I$(O) $(LDFLAGS) -o $@ $< lib/hostcond.c -lm

$(O)/lib/mpi/%.pic.o: lib/mpi/%.c
	@mkdir -p $(@D)
	$(MPICC) $(MPI_CFLAGS) -fPIC -fvisibility=hidden -MMD -MP -c -o $@ $<

# TRC_FORMAT=trcb: the binary stream's writer and what it needs from
# lib/, built position-independent into the tracer, hidden.
TRCB_PIC_OBJ := $(O)/lib/mpi/trcb/trcb.pic.o \
	$(addprefix $(O)/lib/mpi/trcb/,intern.pic.o pages.pic.o parse.pic.o writer.pic.o)
$(O)/lib/mpi/trcb/trcb.pic.o: lib/fmt/trcb.c
	@mkdir -p $(@D)
	$(CC) $(TRC_CFLAGS) $(CPPFLAGS) $(CFLAGS) -DTRCB_WRITER_ONLY -fPIC \
		-fvisibility=hidden -MMD -MP -c -o $@ $<
$(O)/lib/mpi/trcb/%.pic.o: lib/%.c
	@mkdir -p $(@D)
	$(CC) $(TRC_CFLAGS) $(CPPFLAGS) $(CFLAGS) -fPIC -fvisibility=hidden \
		-MMD -MP -c -o $@ $<
-include $(TRCB_PIC_OBJ:.o=.d)

# The #load and #cpu lines of the header.
HOSTCOND_PIC_OBJ := $(O)/lib/mpi/trcb/hostcond.pic.o

$(O)/libtrc-mpi.so: $(MPI_LIB_OBJ) $(TRCB_PIC_OBJ) $(HOSTCOND_PIC_OBJ)
	$(MPICC) $(CFLAGS) $(LDFLAGS) -shared -fPIC -o $@ $^ -lzstd -lz -lm

$(O)/t/mpi/%: t/mpi/%.c
	@mkdir -p $(@D)
	$(MPICC) $(MPI_CFLAGS) $(LDFLAGS) -o $@ $< -lm

$(O)/t/mpi/%: t/mpi/%.f90
	@mkdir -p $(@D)
	mpif90 -O1 -o $@ $<

-include $(MPI_LIB_OBJ:.o=.d)

# The tracing overhead on trc-heat, traced against untraced.
mpi-overhead: $(MPI_BENCH) $(O)/libtrc-mpi.so $(B)/trc-record
	@sh benchmarks/mpi-overhead.sh $(abspath $(B)) $(abspath $(O))

.PHONY: mpi-overhead

# The paper's experiment for real (issue 5), both ways: -O0 over TCP
# and -O2 over shared memory, each predicted from the other, 7 runs.
validate: $(MPI_BENCH) $(O)/libtrc-mpi.so $(B)/trc-record $(B)/trc-fit $(B)/trc-scale $(B)/trc-sum $(B)/trc-ratios
	@sh benchmarks/validate.sh $(abspath $(B)) $(abspath $(O))

# The same both ways on LAMMPS's melt (Debian's lammps), tcp <-> shm.
validate-lammps: $(MPI_BENCH) $(O)/libtrc-mpi.so $(B)/trc-record $(B)/trc-fit $(B)/trc-scale $(B)/trc-sum
	@sh benchmarks/validate-lammps.sh $(abspath $(B)) $(abspath $(O))

.PHONY: validate validate-lammps
