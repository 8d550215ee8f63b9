# benchmarks/examples.mk - the example MPI programs of the perturbation
# experiments: Mendes' Figure 1 (trc-fig1) and a master-worker
# program (trc-master-worker), built with the MPI compiler wrapper by
# the pattern rule of benchmarks/mpi.mk.

MPICC ?= mpicc
EXAMPLES := $(B)/trc-fig1 $(B)/trc-master-worker

EXTRA += $(EXAMPLES)
INSTALL_EXTRA += mkdir -p $(DESTDIR)$(BINDIR) && cp $(EXAMPLES) $(DESTDIR)$(BINDIR)/;
