/*
 * dumpi.c - the DUMPI text reader (lib/fmt/dumpi.c), which finds the
 * files of the other ranks beside the first: the input is the files
 * of ranks 0, 1, ... separated by lines "%%".
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	static const char *const names[] = { "d-0000.txt", "d-0001.txt",
	    "d-0002.txt", "d-0003.txt" };

	fuzz_parts(data, n, names, 4);
	fuzz_read(fuzz_path("d-0000.txt"), "dumpi");
	return 0;
}
