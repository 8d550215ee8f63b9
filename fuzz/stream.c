/*
 * stream.c - the text stream's reader (lib/reader.c, lib/parse.c) and
 * what trc-sum makes of it (lib/summary.c): every event read must
 * write back as itself, and a reader for trc-sum's fields (fields_only,
 * no_match: its own fast paths) must read the same events, fields and
 * error.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

/* What a no_match reader keeps of an event is the full reader's. */
static int
same_sums(const struct trc_event *a, const struct trc_event *b)
{
	return a->t == b->t && a->rank == b->rank && a->kind == b->kind &&
	    a->line == b->line && a->bytes == b->bytes &&
	    (a->req >= 0) == (b->req >= 0) && a->fn.len == b->fn.len &&
	    memcmp(a->fn.s, b->fn.s, a->fn.len) == 0 &&
	    a->op.len == b->op.len && memcmp(a->op.s, b->op.s, a->op.len) == 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	struct trc_open_opts opts = { .format = "trc" };
	struct trc_open_opts sums = { .format = "trc", .fields_only = 1,
	    .no_match = 1 };
	struct trc_summary *s;
	struct trc_reader *r, *r2;
	struct trc_event ev, ev2;
	const char *path = fuzz_file("in.trc", data, n);
	int rc, rc2, bad = 0;

	if ((r = trc_open_with(path, &opts)) == NULL ||
	    (r2 = trc_open_with(path, &sums)) == NULL ||
	    (s = trc_summary_new()) == NULL)
		abort();
	if (trc_get_header(r) != NULL) {
		if (trc_get_header(r2) == NULL)
			abort();
		while ((rc = trc_next(r, &ev)) > 0) {
			fuzz_check_event(&ev);
			if (trc_next(r2, &ev2) != 1 || !same_sums(&ev, &ev2))
				abort();
			if (!bad && trc_summary_add(s, &ev) < 0)
				bad = 1;
		}
		rc2 = trc_next(r2, &ev2);
		if (rc2 != rc || (rc < 0 &&
		    strcmp(trc_error(r), trc_error(r2)) != 0))
			abort();
		if (rc == 0 && !bad)
			trc_summary_finish(s);
	}
	trc_summary_free(s);
	trc_close(r2);
	trc_close(r);
	return 0;
}
