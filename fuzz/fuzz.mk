# fuzz/ - libFuzzer targets, one per reader and engine (README, "Fuzzing").
#
# Each fuzz/NAME.c defines LLVMFuzzerTestOneInput.  'make fuzz' builds
# each with clang, -fsanitize=fuzzer,address,undefined, and runs it for
# FUZZ_TIME seconds, FUZZ_JOBS at once, from its seeds in
# fuzz/corpus/NAME and its regression inputs in fuzz/regress/NAME; what
# it finds lands in build/fuzz/crash/NAME.  The test suite builds each
# with the ordinary compiler and fuzz/replay.c's main() instead, and
# t/0900-fuzz-replay.t feeds it every seed and regression input, so
# that test-sanitize replays them all under ASan and UBSan.

FUZZ_TARGETS := $(sort $(basename $(notdir $(filter-out fuzz/common.c \
	fuzz/replay.c,$(wildcard fuzz/*.c)))))
# What 'make fuzz' runs: every target but otf2raw, the raw bytes of an
# OTF2 archive, which finds libotf2's own bugs (fuzz/upstream/README);
# it is built and replayed with the rest, and make fuzz-run-otf2raw
# runs it.
FUZZ_CAMPAIGN := $(filter-out otf2raw,$(FUZZ_TARGETS))
# What 'make fuzz' installs, as 'make deps' installs DEBS: clang and
# its runtime (libFuzzer and the sanitizers).
FUZZ_DEBS = clang libclang-rt-14-dev
FUZZ_CC ?= clang
FUZZ_TIME ?= 20
FUZZ_JOBS ?= 2
FUZZ_DIR = build/fuzz
FUZZ_SAN = -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
FUZZ_CFLAGS = -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
	-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION

# The replay programs of the test suite.
FUZZ_REPLAY := $(FUZZ_TARGETS:%=$(O)/fuzz/%.replay)
test: $(FUZZ_REPLAY)

$(O)/fuzz/%.replay: $(O)/fuzz/%.o $(O)/fuzz/common.o $(O)/fuzz/replay.o \
    $(O)/libtrc.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(TRC_LIBS)

# libFuzzer's programs, over a libtrc of their own.
FUZZ_BIN := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/bin/%)

fuzz-lib:
	$(MAKE) O=$(FUZZ_DIR)/obj CC=$(FUZZ_CC) CFLAGS='$(FUZZ_CFLAGS)' \
		$(FUZZ_DIR)/obj/libtrc.a

$(FUZZ_DIR)/bin/%: fuzz/%.c fuzz/common.c fuzz/fuzz.h fuzz-lib
	@mkdir -p $(@D)
	$(FUZZ_CC) $(TRC_CFLAGS) $(PKG_CFLAGS) -O1 -g $(FUZZ_SAN) \
		-fsanitize=fuzzer -o $@ fuzz/$*.c fuzz/common.c \
		$(FUZZ_DIR)/obj/libtrc.a $(PKG_LIBS) -lm

fuzz-build: $(FUZZ_BIN)

fuzz-run-%: $(FUZZ_DIR)/bin/%
	@sh fuzz/run.sh $* $(FUZZ_TIME) $(FUZZ_DIR)

fuzz:
	$(MAKE) deps
	$(MAKE) deps DEBS='$(FUZZ_DEBS)'
	$(MAKE) fuzz-build
	-$(MAKE) -k -j$(FUZZ_JOBS) $(FUZZ_CAMPAIGN:%=fuzz-run-%)
	@sh fuzz/run.sh -summary $(FUZZ_DIR) $(FUZZ_CAMPAIGN)

.PHONY: fuzz fuzz-build fuzz-lib

-include $(FUZZ_TARGETS:%=$(O)/fuzz/%.d) $(O)/fuzz/common.d $(O)/fuzz/replay.d
