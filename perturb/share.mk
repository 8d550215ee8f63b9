# perturb/share.mk - the experiment driver's makefile fragment is
# installed for users' makefiles to include (trc-experiment(1)).
INSTALL_EXTRA += mkdir -p $(DESTDIR)$(PREFIX)/share/trc && \
	cp perturb/experiment.mk $(DESTDIR)$(PREFIX)/share/trc/;
