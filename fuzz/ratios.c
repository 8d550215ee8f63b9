/*
 * ratios.c - ratio tables (lib/ratios.c, trc-ratios(5)) and the factor
 * each gives: finite and positive for every label asked.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	static const char *const labels[] = { "", "Iterate", "IterEdge",
	    "a", "main", "x y", "Converged" };
	struct trc_ratios *t;
	char err[512];
	double k;
	size_t i;
	int32_t r;

	if ((t = trc_ratios_load(fuzz_file("r.tbl", data, n), err,
	    sizeof(err))) == NULL) {
		if (err[0] == '\0')
			abort();
		return 0;
	}
	trc_ratios_mode(t);
	for (i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		for (r = -1; r < 4; r++)
			if (trc_ratios_get(t, labels[i], strlen(labels[i]),
			    r < 0 ? INT32_MAX : r, &k) >= 0 &&
			    !(isfinite(k) && k > 0))
				abort();
	/* The intervals of a pair, counted through its first= rows. */
	for (i = 0; i < 3 * sizeof(labels) / sizeof(labels[0]); i++) {
		const char *l = labels[i % (sizeof(labels) / sizeof(labels[0]))];

		if (trc_ratios_next(t, l, strlen(l), 0, (int)(i % 2), &k) >= 0 &&
		    !(isfinite(k) && k > 0))
			abort();
	}
	trc_ratios_free(t);
	return 0;
}
