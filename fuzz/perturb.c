/*
 * perturb.c - trc-perturb's offline perturbation (lib/perturb.c, and
 * lib/scale/ replaying with rematch): the first line is the delay
 * specs (-d), the rest the stream.  A run without errors writes a
 * valid stream.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	struct trc_open_opts opts = { .format = "trc" };
	struct trc_scale_conf conf = { 0 };
	const struct trc_header *h;
	struct trc_perturb *pt;
	struct trc_writer *out;
	struct trc_reader *r;
	struct trc_scale *sc;
	struct trc_event ev;
	int64_t before, after;
	char err[512];
	int rc, errors = -1;

	if ((pt = trc_perturb_new()) == NULL)
		abort();
	if (trc_perturb_parse(pt, fuzz_line(&data, &n), err, sizeof(err)) < 0) {
		if (err[0] == '\0')
			abort();
		trc_perturb_free(pt);
		return 0;
	}
	if ((r = trc_open_with(fuzz_file("in.trc", data, n), &opts)) == NULL)
		abort();
	if ((h = trc_get_header(r)) == NULL)
		goto out;
	conf.model = &trc_model_recorded;
	conf.rematch = 1;
	out = fuzz_wopen("out.trc");
	if ((sc = trc_scale_new(&conf, h, trc_name(r), out)) == NULL)
		abort();
	while ((rc = trc_next(r, &ev)) > 0) {
		if (trc_perturb_event(pt, &ev, &before, &after) < 0)
			abort();
		if (before > 0)
			trc_scale_delay(sc, ev.rank, before);
		if (trc_scale_feed(sc, &ev) < 0) {
			if (trc_scale_error(sc)[0] == '\0')
				abort();
			break;
		}
		if (after > 0)
			trc_scale_delay(sc, ev.rank, after);
	}
	if (rc == 0)
		errors = trc_scale_finish(sc);
	trc_perturb_count(pt);
	trc_perturb_total(pt);
	trc_scale_free(sc);
	if (fuzz_wclose(out) < 0)
		abort();
	if (rc == 0 && errors == 0 && fuzz_read(fuzz_path("out.trc"),
	    "trc") < 0) {
		fprintf(stderr, "fuzz: the output is not a valid stream: %s\n",
		    fuzz_error());
		abort();
	}
out:
	trc_close(r);
	trc_perturb_free(pt);
	return 0;
}
