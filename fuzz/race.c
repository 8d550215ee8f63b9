/*
 * race.c - trc-race's analysis (lib/race.c) of a fuzzed stream: every
 * race reported names a choice point and what it took and could take.
 */
#include <stdlib.h>

#include "fuzz.h"
#include "trc_race.h"

static int
report(void *arg, const struct trc_race_point *p)
{
	size_t i;

	(void)arg;
	if (p->call == NULL || p->rank < 0 || (p->ncould > 0 && p->could == NULL) ||
	    (p->ntook > 0 && p->took == NULL))
		abort();
	for (i = 1; i < p->ncould; i++)
		if (p->could[i].line < p->could[i - 1].line)
			abort();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	struct trc_open_opts opts = { .format = "trc" };
	const struct trc_header *h;
	struct trc_race_stats st;
	struct trc_reader *r;
	struct trc_race *rs;
	struct trc_event ev;
	int rc;

	/* Vector clocks are ranks^2 (trc-race(1)): at the default cap of
	 * 16384 ranks a gigabyte, past libFuzzer's -rss_limit_mb under
	 * ASan with a few such inputs kept in its quarantine.  2048 ranks
	 * keep an input under 20 MB of clocks; the cap's error is still
	 * reached, and make limits-long runs the default one. */
	setenv("TRC_RACE_MAX", "2048", 0);
	if ((r = trc_open_with(fuzz_file("in.trc", data, n), &opts)) == NULL)
		abort();
	if ((h = trc_get_header(r)) != NULL) {
		if ((rs = trc_race_new("in.trc", h->ranks, report, NULL)) == NULL)
			abort();
		while ((rc = trc_next(r, &ev)) > 0)
			if ((rc = trc_race_event(rs, &ev)) != 0)
				break;
		if (rc == -1 && trc_race_error(rs)[0] == '\0' &&
		    trc_error(r)[0] == '\0')
			abort();
		if (rc == 0 && trc_race_end(rs) < 0 &&
		    trc_race_error(rs)[0] == '\0')
			abort();
		trc_race_stats(rs, &st);
		if (st.races > st.choices)
			abort();
		trc_race_free(rs);
	}
	trc_close(r);
	return 0;
}
