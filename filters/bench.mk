# filters/bench.mk - trc-bench copies the run-time part of the programs
# it writes, lib/bench/rt.c, into each: made at build time into an
# array of C strings that lib/bench.c includes.

$(O)/lib/bench/rt.inc: lib/bench/rt.c
	@mkdir -p $(@D)
	awk 'BEGIN { print "static const char *const bench_rt[] = {" } \
		{ gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); print "\t\"" $$0 "\"," } \
		END { print "\tNULL\n};" }' $< >$@

$(O)/lib/bench.o: $(O)/lib/bench/rt.inc
$(O)/lib/bench.o: CPPFLAGS += -I$(O)/lib/bench
