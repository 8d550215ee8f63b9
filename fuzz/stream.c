/*
 * stream.c - the text stream's reader (lib/reader.c, lib/parse.c) and
 * what trc-sum makes of it (lib/summary.c): every event read must
 * write back as itself.
 */
#include <stdlib.h>

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	struct trc_open_opts opts = { .format = "trc" };
	struct trc_summary *s;
	struct trc_reader *r;
	struct trc_event ev;
	int rc, bad = 0;

	if ((r = trc_open_with(fuzz_file("in.trc", data, n), &opts)) == NULL ||
	    (s = trc_summary_new()) == NULL)
		abort();
	if (trc_get_header(r) != NULL) {
		while ((rc = trc_next(r, &ev)) > 0) {
			fuzz_check_event(&ev);
			if (!bad && trc_summary_add(s, &ev) < 0)
				bad = 1;
		}
		if (rc == 0 && !bad)
			trc_summary_finish(s);
	}
	trc_summary_free(s);
	trc_close(r);
	return 0;
}
