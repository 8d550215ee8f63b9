/*
 * design.c - designs and their effects (lib/design.c, lib/effects.c):
 * the input is a line "P [R]" (factors, replications), generator lines
 * such as "D=-ABC", a line "%%", then the run table: per run a level
 * per factor ("+" or "-") and R responses, as trc-effects reads them.
 * The design is checked against itself (every point's index, every
 * chain) and the effects computed from the table, through the design
 * its points form.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#define MAXROWS	4096

static void
check(const struct trc_design *d)
{
	struct trc_chain c;
	char buf[4096], rom[16];
	long runs = trc_design_runs(d), i;
	uint32_t *w;
	signed char *s;

	trc_roman(trc_design_resolution(d), rom, sizeof(rom));
	if ((w = calloc((size_t)1 << d->k, sizeof(*w))) == NULL ||
	    (s = calloc((size_t)1 << d->k, sizeof(*s))) == NULL)
		abort();
	for (i = 0; i < runs && i < 1024; i++) {
		if (trc_design_index(d, trc_design_point(d, i)) != i)
			abort();
		c.word = w;
		c.sign = s;
		trc_design_chain(d, i, &c);
		trc_chain_format(&c, buf, sizeof(buf));
	}
	free(w);
	free(s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	const uint8_t *tab;
	size_t tn;
	struct trc_design d, dp;
	struct trc_effects e;
	char err[512], line[4096], *s, *end;
	const char *l;
	static uint32_t pts[MAXROWS];
	static double y[MAXROWS * 4];
	long p, r = 1, nrow = 0, j, i;
	int bad = 0;

	l = fuzz_line(&data, &n);
	if (sscanf(l, "%ld %ld", &p, &r) < 1 || p < 0 || p > TRC_MAXFACTORS ||
	    r < 1 || r > 4)
		return 0;
	if (trc_design_init(&d, (int)p, err, sizeof(err)) < 0)
		return 0;
	fuzz_split(data, n, &data, &n, &tab, &tn);
	while (n > 0) {
		l = fuzz_line(&data, &n);
		if (*l != '\0' && trc_design_generator(&d, l, err,
		    sizeof(err)) < 0 && err[0] == '\0')
			abort();
	}
	if (trc_design_finish(&d, err, sizeof(err)) < 0) {
		trc_design_free(&d);
		return 0;
	}
	check(&d);
	/* The run table. */
	while (tn > 0 && nrow < MAXROWS) {
		snprintf(line, sizeof(line), "%s", fuzz_line(&tab, &tn));
		s = line;
		pts[nrow] = 0;
		for (j = 0; j < p; j++) {
			s += strspn(s, " \t");
			if (*s == '+')
				pts[nrow] |= UINT32_C(1) << j;
			else if (*s != '-')
				bad = 1;
			if (*s != '\0')
				s++;
		}
		for (j = 0; j < r; j++) {
			y[nrow * r + j] = strtod(s, &end);
			if (end == s || !isfinite(y[nrow * r + j]))
				bad = 1;
			s = end;
		}
		nrow++;
	}
	if (!bad && nrow > 0 && trc_design_from_points(&dp, (int)p, pts, nrow,
	    err, sizeof(err)) == 0) {
		check(&dp);
		/* Responses in standard order, as trc-effects sorts them. */
		if (nrow == trc_design_runs(&dp)) {
			static double ys[MAXROWS * 4];

			for (i = 0; i < nrow; i++) {
				long k = trc_design_index(&dp, pts[i]);

				if (k < 0)	/* its own points */
					abort();
				for (j = 0; j < r; j++)
					ys[k * r + j] = y[i * r + j];
			}
			if (trc_effects_compute(&dp, r, ys, &e, err,
			    sizeof(err)) == 0)
				trc_effects_free(&e);
		}
		trc_design_free(&dp);
	}
	trc_design_free(&d);
	return 0;
}
