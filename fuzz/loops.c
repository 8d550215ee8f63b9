/*
 * loops.c - trc-loops (lib/loops.c): a first line "x" makes the rest a
 * description (trc-loops(5)) to expand; else the first line's words
 * (lossless, window=N, hist=N) are options and the rest a stream,
 * compressed, then expanded: the expansion is a valid stream with as
 * many events as the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

/* Expands path into out.trc: the number of events, -1 on error. */
static long
expand(const char *path)
{
	struct trc_unloop *u;
	struct trc_writer *w;
	const char *line;
	size_t len;
	long n = 0;
	int rc;

	if ((u = trc_unloop_open(path)) == NULL)
		abort();
	w = fuzz_wopen("out.trc");
	if (trc_unloop_header(u) == NULL) {
		if (trc_unloop_error(u)[0] == '\0')
			abort();
		rc = -1;
	} else {
		if (trc_write_header(w, trc_unloop_header(u)) < 0)
			abort();
		while ((rc = trc_unloop_next(u, &line, &len)) > 0) {
			if (len == 0 || line[len - 1] != '\n')
				abort();
			trc_write_raw(w, line, len);
			n++;
		}
		if (rc < 0 && trc_unloop_error(u)[0] == '\0')
			abort();
	}
	trc_unloop_free(u);
	if (fuzz_wclose(w) < 0)
		abort();
	return rc < 0 ? -1 : n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	struct trc_open_opts opts = { .format = "trc" };
	struct trc_loops_opts lo = { 0 };
	const struct trc_header *h;
	struct trc_reader *r;
	struct trc_loops *L;
	struct trc_event ev;
	const char *w, *s;
	long nev = 0, back;
	FILE *fp;
	int rc = 0, ok;

	w = fuzz_line(&data, &n);
	if (strcmp(w, "x") == 0) {
		if (expand(fuzz_file("in.loops", data, n)) >= 0 &&
		    fuzz_read(fuzz_path("out.trc"), "trc") < 0) {
			fprintf(stderr, "fuzz: the expansion is not a valid "
			    "stream: %s\n", fuzz_error());
			abort();
		}
		return 0;
	}
	lo.lossless = strstr(w, "lossless") != NULL;
	if ((s = strstr(w, "window=")) != NULL)
		lo.window = 2 + atoi(s + 7) % 63;
	if ((s = strstr(w, "hist=")) != NULL)
		lo.histogram = 1 << abs(atoi(s + 5) % 7);
	if ((r = trc_open_with(fuzz_file("in.trc", data, n), &opts)) == NULL)
		abort();
	if ((h = trc_get_header(r)) == NULL) {
		trc_close(r);
		return 0;
	}
	if ((L = trc_loops_new(h, &lo)) == NULL)
		abort();
	ok = trc_loops_error(L)[0] == '\0';
	while (ok && (rc = trc_next(r, &ev)) > 0) {
		if (trc_loops_add(L, &ev) < 0) {
			if (trc_loops_error(L)[0] == '\0')
				abort();
			ok = 0;
		}
		nev++;
	}
	ok = ok && rc == 0;
	trc_close(r);
	if (ok) {
		if ((fp = fopen(fuzz_path("out.loops"), "w")) == NULL)
			abort();
		if (trc_loops_write(L, fp) < 0 || fclose(fp) != 0)
			abort();
		back = expand(fuzz_path("out.loops"));
		if (back != nev) {
			fprintf(stderr, "fuzz: %ld events compressed, %ld "
			    "expanded\n", nev, back);
			abort();
		}
		if (fuzz_read(fuzz_path("out.trc"), "trc") < 0) {
			fprintf(stderr, "fuzz: the expansion is not a valid "
			    "stream: %s\n", fuzz_error());
			abort();
		}
	}
	trc_loops_free(L);
	return 0;
}
