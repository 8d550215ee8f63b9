/*
 * factors.c - factor files (lib/factors.c, trc-factors(5)): every
 * factor read renders as a TRC_DELAY spec that parses back to the same
 * factor, and the delay specs of each design point parse as the
 * tracer and trc-perturb parse them (lib/perturb.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static int
streq(const char *a, const char *b)
{
	return (a == NULL) == (b == NULL) && (a == NULL || strcmp(a, b) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	struct trc_factors fs;
	struct trc_factor back;
	struct trc_perturb *pt;
	char err[512], *buf;
	size_t len;
	uint32_t high;
	int i;

	if (trc_factors_read(fuzz_file("f.factors", data, n), &fs, err,
	    sizeof(err)) < 0) {
		if (err[0] == '\0')
			abort();
		return 0;
	}
	for (i = 0; i < fs.n; i++) {
		len = trc_factor_spec(&fs.v[i], NULL, 0);
		if ((buf = malloc(len + 1)) == NULL)
			abort();
		if (trc_factor_spec(&fs.v[i], buf, len + 1) != len)
			abort();
		if (trc_factor_parse_spec(buf, len, &back, err,
		    sizeof(err)) < 0) {
			fprintf(stderr, "fuzz: factor %d as '%s': %s\n", i,
			    buf, err);
			abort();
		}
		if (!streq(back.call, fs.v[i].call) ||
		    !streq(back.ranks, fs.v[i].ranks) ||
		    !streq(back.region, fs.v[i].region) ||
		    back.occ_lo != fs.v[i].occ_lo ||
		    back.occ_hi != fs.v[i].occ_hi ||
		    back.delay != fs.v[i].delay) {
			fprintf(stderr, "fuzz: factor %d as '%s' reads back "
			    "otherwise\n", i, buf);
			abort();
		}
		trc_factor_free(&back);
		free(buf);
	}
	/* The specs of some design points, as trc-experiment passes them. */
	for (high = 0; high < 8; high++) {
		uint32_t h = high == 7 ? ~UINT32_C(0) : high;

		len = trc_delay_spec(&fs, h, NULL, 0);
		if ((buf = malloc(len + 1)) == NULL ||
		    (pt = trc_perturb_new()) == NULL)
			abort();
		trc_delay_spec(&fs, h, buf, len + 1);
		if (trc_perturb_parse(pt, buf, err, sizeof(err)) < 0) {
			fprintf(stderr, "fuzz: delays '%s': %s\n", buf, err);
			abort();
		}
		trc_perturb_free(pt);
		free(buf);
	}
	trc_factors_free(&fs);
	return 0;
}
