# lib/replay.mk - libtrc-unreplayable.so, which trc-replay preloads after
# libtrc-mpi.so so that a call a message log cannot answer stops the
# replay by name (lib/replay/unreplayable.c; the log itself is
# lib/mpi/msglog.c, inside libtrc-mpi.so).

EXTRA += $(O)/libtrc-unreplayable.so
INSTALL_EXTRA += mkdir -p $(DESTDIR)$(LIBDIR)/trc && \
	cp $(O)/libtrc-unreplayable.so $(DESTDIR)$(LIBDIR)/trc/;

$(O)/libtrc-unreplayable.so: lib/replay/unreplayable.c
	@mkdir -p $(@D)
	$(CC) $(TRC_CFLAGS) $(CPPFLAGS) $(CFLAGS) -fPIC -fvisibility=hidden \
		-shared $(LDFLAGS) -o $@ $<
