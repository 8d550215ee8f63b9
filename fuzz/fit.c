/*
 * fit.c - .fit files (lib/fit.c, trc-fit(5)) and what they give for
 * sizes across the range, and the same bytes as a LogGP parameter
 * file (lib/model/loggp.c, trc-loggp(5)) with each model built on
 * them (lib/model/).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static const int64_t sizes[] = { 0, 1, 7, 255, 256, 4096, 65536,
    1 << 30, INT64_C(1) << 40, INT64_MAX - 1, INT64_MAX, -1 };

static void
use_fit(const struct trc_fit *f)
{
	size_t i, k;
	int64_t ns;
	double t;

	for (i = 0; i < f->nop; i++) {
		if (trc_fit_find(f, f->op[i].name, strlen(f->op[i].name)) == NULL)
			abort();
		for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			t = trc_fit_eval(&f->op[i], sizes[k]);
			ns = trc_fit_eval_ns(&f->op[i], sizes[k]);
			if (isnan(t) || ns < 0)
				abort();
		}
	}
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
		trc_fit_sync(f, sizes[k]);
}

static void
use_model(const char *name, const struct trc_model_conf *c)
{
	struct trc_model *m;
	struct trc_xfer x;
	struct trc_p2p p = { 0, 1, 0, 0, 0, 0, 0 };
	char err[512];
	int64_t d;
	size_t k;

	if ((m = trc_model_new(name, c, err, sizeof(err))) == NULL) {
		if (err[0] == '\0')
			abort();
		return;
	}
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		p.bytes = sizes[k] < 0 ? 0 : sizes[k] % (INT64_C(1) << 40);
		if (m->ops->comp(m->state, 0, 1000, &d) < 0)
			continue;
		if (m->ops->send(m->state, &p, 1000, 1000, 2000, &x) == 0) {
			if (x.rdv)
				m->ops->handover(m->state, &p, 5000, &x);
			m->ops->recv(m->state, &p, 3000, 10);
		}
		m->ops->wait(m->state, 0, 1000, 10, -1);
		/* A wait on sends alone of the size: the send rows' ratio. */
		m->ops->wait(m->state, 0, 1000, 10, p.bytes);
	}
	trc_model_free(m);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	const char *path = fuzz_file("in.fit", data, n);
	struct trc_model_conf c = { 0 };
	struct trc_fit *f;
	char err[512];

	if ((f = trc_fit_load(path, err, sizeof(err))) != NULL) {
		use_fit(f);
		c.fit = f;
		use_model("fit", &c);
		c.base = f;
		use_model("fit", &c);
		trc_fit_free(f);
	} else if (err[0] == '\0')
		abort();
	memset(&c, 0, sizeof(c));
	c.path = path;
	use_model("loggp", &c);
	return 0;
}
