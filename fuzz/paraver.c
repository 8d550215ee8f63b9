/*
 * paraver.c - the Paraver reader (lib/fmt/paraver.c) with its .pcf and
 * .row files: the input is "PRV [%% PCF [%% ROW]]".
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	static const char *const names[] = { "in.prv", "in.pcf", "in.row" };

	fuzz_parts(data, n, names, 3);
	fuzz_read(fuzz_path("in.prv"), "prv");
	return 0;
}
