# benchmarks/examples.mk - the example MPI programs of the perturbation
# experiments: Mendes' Figure 1 (trc-fig1) and a master-worker
# program (trc-master-worker), built with the MPI compiler wrapper.

MPICC ?= mpicc
EXAMPLES := $(B)/trc-fig1 $(B)/trc-master-worker

EXTRA += $(EXAMPLES)
INSTALL_EXTRA += mkdir -p $(DESTDIR)$(BINDIR) && cp $(EXAMPLES) $(DESTDIR)$(BINDIR)/;

$(B)/trc-fig1: benchmarks/fig1.c lib/trc.h
	@mkdir -p $(@D)
	$(MPICC) $(TRC_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< -lm

$(B)/trc-master-worker: benchmarks/master-worker.c lib/trc.h
	@mkdir -p $(@D)
	$(MPICC) $(TRC_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< -lm
