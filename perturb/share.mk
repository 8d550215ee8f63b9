# perturb/share.mk - the experiment driver's makefile fragment is
# installed for users' makefiles to include (trc-experiment(1)).
INSTALL_EXTRA += mkdir -p $(DESTDIR)$(PREFIX)/share/trc && \
	cp perturb/experiment.mk $(DESTDIR)$(PREFIX)/share/trc/;

# Every program of t/mpi/nd under trc-experiment, real runs and offline
# (t/2042; the suite runs one): about two minutes.
test-nd: programs
	TRC_ND=all TRC_BIN=$(abspath $(B)) TRC_BUILD=$(abspath $(O)) \
		prove -v t/2042-experiment-nd.t

.PHONY: test-nd
