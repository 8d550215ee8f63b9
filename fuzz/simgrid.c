/*
 * simgrid.c - the SimGrid time-independent reader (lib/fmt/simgrid.c):
 * the input is a trace, or an index naming files p1, p2, p3 that
 * follow it, separated by lines "%%".
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	static const char *const names[] = { "in.txt", "p1", "p2", "p3" };
	struct trc_open_opts opts = { .format = "simgrid", .flops = 1e9 };
	struct trc_reader *r;
	struct trc_event ev;

	fuzz_parts(data, n, names, 4);
	fuzz_read(fuzz_path("in.txt"), "simgrid");
	/* Compute given in flops, as --flops asks. */
	if ((r = trc_open_with(fuzz_path("in.txt"), &opts)) == NULL)
		return 0;
	if (trc_get_header(r) != NULL)
		while (trc_next(r, &ev) > 0)
			fuzz_check_event(&ev);
	trc_close(r);
	return 0;
}
