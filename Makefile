# trc — one non-recursive GNU Makefile.
#
# Programs are found by wildcard: every filters/*.c, perturb/*.c and
# compare/*.c is one program linked against lib/libtrc.a, and every
# filters/*.sh, perturb/*.sh and compare/*.sh is a script installed as
# is.  Folders with other needs (MPI programs, the tracer) add rules in
# their own FOLDER/*.mk fragments, which may only append to the lists below.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR ?= $(PREFIX)/share/trc

# O holds objects and compiled tests, B the programs; a sanitizer build
# uses its own pair so that both can coexist.
O ?= build
B ?= bin

CC ?= cc
CFLAGS ?= -O2 -g
PKGS = libpcre2-8 gsl zlib
# Lazy on purpose: on a fresh machine the packages are installed by
# 'make deps' before the first compile asks pkg-config.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
# The programs take the packages' archives (Debian's -dev packages ship
# them; OTF2's is libotf2.a): no shared library to map and relocate at
# each start, 0.48 ms where libz, libzstd and OTF2's shared libraries
# took 0.82 (a program that returns at once, medians of 21), which a
# short run of a tool in a pipeline pays in full.
PKG_LIBS = -Wl,-Bstatic $(patsubst -lopen-trace-format2,-lotf2,$(filter-out \
	-lm,$(shell pkg-config --libs $(PKGS)))) -Wl,-Bdynamic
TRC_CFLAGS = -std=c11 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Ilib
TRC_LIBS = $(O)/libtrc.a $(PKG_LIBS) -lm

# Debian packages the build, the tests and the MPI parts need.
DEBS = build-essential pkg-config libpcre2-dev libgsl-dev zlib1g-dev \
	libopenmpi-dev openmpi-bin perl gawk mawk groff-base python3 hpcc lammps \
	lammps-examples
# trc-svg's tests draw its pictures in a headless browser.
DEBS += chromium
# OTF2 (lib/fmt/otf2.c): libotf2 to build, otf2-print for the tests.
PKGS += otf2
DEBS += libotf2-trace-dev otf2-tools
# The binary stream's optional block compression (lib/fmt/trcb.c).
PKGS += libzstd
DEBS += libzstd-dev
# The limits' tests (t/114x) measure peak memory with /usr/bin/time.
DEBS += time

LIB_SRC := $(wildcard lib/*.c lib/fmt/*.c lib/model/*.c lib/scale/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(O)/%.o)
PROG_SRC := $(wildcard filters/*.c perturb/*.c compare/*.c)
PROG_OBJ := $(PROG_SRC:%.c=$(O)/%.o)
SCRIPT_SRC := $(wildcard filters/*.sh perturb/*.sh compare/*.sh)
PROGS := $(patsubst %.c,$(B)/%,$(notdir $(PROG_SRC))) \
	$(patsubst %.sh,$(B)/%,$(notdir $(SCRIPT_SRC)))
UNIT_SRC := $(wildcard t/c/*.c)
UNIT_TESTS := $(UNIT_SRC:t/c/%.c=$(O)/t/%.t)
MAN1 := $(wildcard man/man1/*.1)
MAN5 := $(wildcard man/man5/*.5)
MAN7 := $(wildcard man/man7/*.7)
# What a program of one's own needs of the library, and the bundled
# example run (make demo's data) to try the tools on.
HEADERS := $(wildcard lib/trc*.h)
EXAMPLE := $(filter-out %.sh,$(wildcard benchmarks/example/*))
# Extra targets built by 'make all', install steps, and the benchmark
# targets 'make bench' runs in turn: fragments append to these.
EXTRA :=
INSTALL_EXTRA :=
BENCHES :=

all: programs

include $(wildcard */*.mk)

programs: $(PROGS) $(EXTRA)

# --help's option lines, from the man pages (man/help.sh).
$(O)/help.h: man/help.sh $(MAN1)
	@mkdir -p $(@D)
	sh man/help.sh $(O) $(MAN1)
$(O)/lib/help.o: $(O)/help.h
$(O)/lib/help.o: CPPFLAGS += -I$(O)

$(O)/libtrc.a: $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(O)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(TRC_CFLAGS) $(PKG_CFLAGS) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

define program_rule
$(B)/$(notdir $(basename $(1))): $(O)/$(basename $(1)).o $(O)/libtrc.a
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) $$(LDFLAGS) $$(PROG_LDFLAGS) -o $$@ $$< $$(TRC_LIBS)
endef
$(foreach s,$(PROG_SRC),$(eval $(call program_rule,$(s))))

# A script's #@HELP@ line becomes its option lines (man/help.sh).
define script_rule
$(B)/$(notdir $(basename $(1))): $(1) $(O)/help.h
	@mkdir -p $$(@D)
	sed -e '/^#@HELP@$$$$/{r $(O)/help/$(notdir $(basename $(1))).txt' -e 'd;}' $$< >$$@ && chmod +x $$@
endef
$(foreach s,$(SCRIPT_SRC),$(eval $(call script_rule,$(s))))

$(O)/t/%.t: $(O)/t/c/%.o $(O)/libtrc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $(PROG_LDFLAGS) -o $@ $< $(TRC_LIBS)

$(O)/t/c/%.o: t/c/%.c
	@mkdir -p $(@D)
	$(CC) $(TRC_CFLAGS) -It $(PKG_CFLAGS) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# deps installs what is missing, as root or through sudo; as anyone
# else it only says what is missing.
deps:
	@missing=; for p in $(DEBS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		if [ "$$(id -u)" = 0 ]; then sudo=; elif command -v sudo >/dev/null; then sudo=sudo; \
		else echo "make deps: need root to install:$$missing" >&2; exit 2; fi; \
		export DEBIAN_FRONTEND=noninteractive; \
		$$sudo apt-get install -y -q $$missing >/dev/null 2>&1 || \
		{ $$sudo apt-get update -q && $$sudo apt-get install -y -q $$missing; }; \
	fi

# The test suite: C unit tests and shell tests, all TAP, under prove.
# Shell tests find the programs through TRC_BIN.  A test file that
# hangs (an MPI run gone wrong) is stopped after TEST_TIMEOUT seconds
# and fails, instead of holding the suite.
TEST_TIMEOUT ?= 600
# T=t/NNNN-name.t (blank-separated, or a glob) runs only those.
# Tests that run MPI programs and judge their times (t/20[34]*, t/4*)
# run one at a time with nothing beside them; the others, which read
# and write files, TEST_JOBS at a time (a core each): on two cores
# that halves the suite's time.  The MPI tests that judge no time (and
# t/2040, which runs no MPI program) run one after another in a chain
# beside the file tests, which take the core the chain leaves: an MPI
# test uses about one core, most of its time spent starting processes
# and waiting for them (t/4025 under the sanitizers: 19 s of wall time
# for 7 s of CPU), and one at a time no two MPI runs are ever at once.
# The tests took 904 and 966 s in two clean runs against 1053 before
# (2026-11-29).
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
CHAINED_TESTS = t/4003-mpi-abort.t t/4014-record-stop.t t/4025-mpi-replay.t \
	t/2040-experiment-make.t t/4001-pingpong-format.t t/4000-heat-solve.t \
	t/4002-mpi-calls.t t/4004-mpi-fortran.t t/4006-record-usage.t \
	t/4008-mpi-subcomm.t t/4009-mpi-comms.t t/4010-mpi-nbcoll.t \
	t/4013-mpi-programs.t t/4014-mpi-trcb.t t/4015-loops-heat.t \
	t/4016-predict-lammps.t t/4020-mpi-untraced.t t/4027-mpi-eager.t
TIMED_TESTS = $(filter-out $(CHAINED_TESTS),$(sort $(wildcard t/20[34]*.t t/4*.t)))
FILE_TESTS = $(CHAINED_TESTS) \
	$(filter-out $(TIMED_TESTS) $(CHAINED_TESTS),$(sort $(wildcard t/*.t))) $(UNIT_TESTS)
comma = ,
empty =
space = $(empty) $(empty)
# prove's rules: the chain in sequence, as one of the parallel jobs.
# Each other test is a sequence of its own, not a plain parallel job:
# prove hands out plain jobs before any sequence's, and so would start
# the chain only when every file test had begun.
CHAIN_RULES = --rules='seq={$(subst $(space),$(comma),$(strip $(CHAINED_TESTS)))}' \
	$(foreach t,$(filter-out $(CHAINED_TESTS),$(FILE_TESTS)),--rules=seq=$(t))
PROVE = TRC_BIN=$(abspath $(B)) TRC_BUILD=$(abspath $(O)) prove \
	--exec 'timeout $(TEST_TIMEOUT)' $(PROVE_FLAGS)
test: test-build
ifneq ($(T),)
	$(PROVE) $(T)
else
	$(PROVE) -j$(TEST_JOBS) $(CHAIN_RULES) $(FILE_TESTS)
	$(PROVE) $(TIMED_TESTS)
endif

# What the tests need, built TEST_JOBS at a time: make check builds it
# so before running the tests (about half the serial build's time).
test-build: programs $(UNIT_TESTS)

SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# The filters and unit tests, started thousands of times, link the
# sanitizers' runtimes statically: a start then costs 47 ms, not 73
# (most of it page faults, which are dear in a virtual machine).  What
# is preloaded into MPI programs (libtrc-mpi.so) keeps them shared.
SAN_PROG_LDFLAGS = -static-libasan -static-libubsan
SAN_MAKE = $(MAKE) O=build/san B=build/san/bin CFLAGS='$(SAN_FLAGS)' LDFLAGS='$(SAN_FLAGS)' \
	PROG_LDFLAGS='$(SAN_PROG_LDFLAGS)' TRC_SANITIZE=1
test-sanitize:
	$(SAN_MAKE) -j$(TEST_JOBS) test-build
	$(SAN_MAKE) test

check:
	$(MAKE) deps
	$(MAKE) -j$(TEST_JOBS) test-build
	$(MAKE) test
	$(MAKE) test-sanitize

demo:
	$(MAKE) deps
	$(MAKE) programs
	@sh demo.sh $(abspath $(B)) $(abspath $(O))/demo

bench:
	$(MAKE) deps
	$(MAKE) programs
	$(MAKE) $(BENCHES)

install: programs $(O)/libtrc.a
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5
	cp $(PROGS) $(DESTDIR)$(BINDIR)/
	$(if $(MAN1),cp $(MAN1) $(DESTDIR)$(MANDIR)/man1/)
	$(if $(MAN5),cp $(MAN5) $(DESTDIR)$(MANDIR)/man5/)
	$(if $(MAN7),mkdir -p $(DESTDIR)$(MANDIR)/man7 && cp $(MAN7) $(DESTDIR)$(MANDIR)/man7/)
	mkdir -p $(DESTDIR)$(INCLUDEDIR)/trc $(DESTDIR)$(LIBDIR) $(DESTDIR)$(DATADIR)/example
	cp $(HEADERS) $(DESTDIR)$(INCLUDEDIR)/trc/
	cp $(O)/libtrc.a $(DESTDIR)$(LIBDIR)/
	cp $(EXAMPLE) $(DESTDIR)$(DATADIR)/example/
	$(INSTALL_EXTRA)

uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(PROGS) $(filter $(B)/%,$(EXTRA))))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1)))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(MAN5)))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man7/,$(notdir $(MAN7)))
	rm -f $(DESTDIR)$(PREFIX)/share/trc/experiment.mk $(DESTDIR)$(LIBDIR)/trc/libtrc-mpi.so
	rm -f $(addprefix $(DESTDIR)$(INCLUDEDIR)/trc/,$(notdir $(HEADERS))) $(DESTDIR)$(LIBDIR)/libtrc.a
	rm -f $(addprefix $(DESTDIR)$(DATADIR)/example/,$(notdir $(EXAMPLE)))
	-rmdir $(DESTDIR)$(INCLUDEDIR)/trc $(DESTDIR)$(DATADIR)/example 2>/dev/null
	-rmdir $(DESTDIR)$(PREFIX)/share/trc $(DESTDIR)$(LIBDIR)/trc 2>/dev/null

clean:
	rm -rf build bin/*

.SECONDARY:

.PHONY: all programs deps test test-build test-sanitize check demo bench install uninstall clean

-include $(LIB_OBJ:.o=.d) $(PROG_OBJ:.o=.d) $(UNIT_SRC:t/c/%.c=$(O)/t/c/%.d)
