/*
 * otf2raw.c - the OTF2 reader (lib/fmt/otf2.c) on a whole archive of
 * two locations, its files given in turn, separated by "%%file%%": the
 * anchor traces.otf2, the global definitions traces.def, then
 * traces/0.def, traces/0.evt, traces/1.def, traces/1.evt.
 *
 * The OTF2 target before fuzz/otf2.c wrote its archives with libotf2:
 * raw bytes mostly reach libotf2's own parser, and what it makes of
 * broken bytes is libotf2's (fuzz/upstream/README).  Kept to replay
 * its regression inputs (fuzz/regress/otf2raw: the anchor checks, the
 * undefined communicator of a collective, ...) in t/0900; built with
 * the other targets, but make fuzz does not run it (fuzz/fuzz.mk).
 */
#define _GNU_SOURCE	/* memmem */
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"

#define SEP	"%%file%%"
#define SEPLEN	8

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	static const char *const names[] = { "traces.otf2", "traces.def",
	    "traces/0.def", "traces/0.evt", "traces/1.def", "traces/1.evt" };
	char dir[512];

	const uint8_t *sep;
	size_t k, len;

	snprintf(dir, sizeof(dir), "%s", fuzz_path("traces"));
	mkdir(dir, 0700);
	/* The files are binary: a separator that needs no line of its own. */
	for (k = 0; k < 6; k++) {
		sep = k < 5 && n > 0 ? memmem(data, n, SEP, SEPLEN) : NULL;
		len = sep != NULL ? (size_t)(sep - data) : n;
		fuzz_file(names[k], data, len);
		data += sep != NULL ? len + SEPLEN : len;
		n -= sep != NULL ? len + SEPLEN : len;
	}
	fuzz_read(fuzz_path("traces.otf2"), "otf2");
	return 0;
}
