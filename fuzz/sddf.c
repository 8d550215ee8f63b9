/*
 * sddf.c - the sddf reader (lib/fmt/sddf.c): it fails with a message
 * or yields events that the text stream can say.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	fuzz_read(fuzz_file("in.sddf", data, n), "sddf");
	return 0;
}
