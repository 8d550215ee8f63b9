/*
 * effects.c - effects of a two-level design by the sign-table method,
 * with allocation of variation (Jain ch. 17-18).
 *
 * Effect i is the sum of the responses, each with the sign of chain
 * i's word at its point, over the number of runs.  The signs of the
 * base words at the points in standard order are a Walsh-Hadamard
 * matrix, so the whole sign table is applied in m log m steps.  Sums
 * are taken over the raw responses and divided last, so that integer
 * responses (graph distances) give exact effects, and an effect that
 * is zero is exactly zero.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

#include "trc.h"

void
trc_effects_free(struct trc_effects *e)
{
	free(e->q);
	free(e->ss);
	free(e->zero);
	memset(e, 0, sizeof *e);
}

int
trc_effects_compute(const struct trc_design *d, long r, const double *y,
    struct trc_effects *e, char *err, size_t errlen)
{
	struct trc_chain c;
	long m = trc_design_runs(d), i, j, h, n;
	double *t, mean, a, b;
	int len;

	memset(e, 0, sizeof *e);
	if (r < 1)
		return trc_errorf(err, errlen, "no replications");
	n = m * r;
	e->m = m;
	e->r = r;
	e->q = calloc(m, sizeof e->q[0]);
	e->ss = calloc(m, sizeof e->ss[0]);
	e->zero = calloc(m, sizeof e->zero[0]);
	c.word = malloc(d->ndef * sizeof c.word[0]);
	c.sign = malloc(d->ndef);
	if (e->q == NULL || e->ss == NULL || e->zero == NULL ||
	    c.word == NULL || c.sign == NULL) {
		free(c.word);
		free(c.sign);
		trc_effects_free(e);
		return trc_errorf(err, errlen, "out of memory");
	}
	t = e->q;
	for (i = 0; i < m; i++)
		for (j = 0; j < r; j++)
			t[i] += y[i * r + j];
	/* In place: t[i] = sum over points x of (-1)^|i & x| T[x]. */
	for (h = 1; h < m; h <<= 1)
		for (i = 0; i < m; i += h << 1)
			for (j = i; j < i + h; j++) {
				a = t[j];
				b = t[j + h];
				t[j] = a + b;
				t[j + h] = a - b;
			}
	mean = t[0] / n;
	for (i = 0; i < m; i++) {
		/*
		 * A base word's column at point x is (-1) to the number of
		 * its factors low at x, that is (-1)^(|i| - |i & x|); and
		 * the chain is named by word[0], of sign bsign to it.
		 */
		trc_design_chain(d, i, &c);
		len = trc_word_len(c.base);
		e->zero[i] = t[i] == 0;
		e->q[i] = (len & 1 ? -1 : 1) * c.bsign * t[i] / n;
		if (e->zero[i])
			e->q[i] = 0;	/* no -0 */
		if (i > 0)
			e->ss[i] = (double)n * e->q[i] * e->q[i];
	}
	free(c.word);
	free(c.sign);
	for (i = 0; i < m; i++) {
		double pm = 0;

		for (j = 0; j < r; j++)
			pm += y[i * r + j];
		pm /= r;
		for (j = 0; j < r; j++) {
			a = y[i * r + j] - mean;
			b = y[i * r + j] - pm;
			e->sst += a * a;
			e->sse += b * b;
		}
	}
	e->df = m * (r - 1);
	if (e->df > 0) {
		e->se = sqrt(e->sse / e->df);
		e->sq = e->se / sqrt((double)n);
	}
	return 0;
}

static int
by_ss(const void *a, const void *b)
{
	const struct trc_effect_rank *x = a, *y = b;

	if (x->ss != y->ss)
		return x->ss > y->ss ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

long
trc_effects_rank(const struct trc_effects *e, struct trc_effect_rank *rank)
{
	long i, n = 0;

	for (i = 1; i < e->m; i++)
		if (!e->zero[i]) {
			rank[n].i = i;
			rank[n++].ss = e->ss[i];
		}
	if (e->sse > 0) {
		rank[n].i = -1;
		rank[n++].ss = e->sse;
	}
	qsort(rank, n, sizeof rank[0], by_ss);
	return n;
}

double
trc_effects_t(double conf, long df)
{
	double t;

	if (!(conf > 0 && conf < 100) || df < 1)
		return NAN;
	/* GSL's handler would abort the program; its NAN is the answer. */
	gsl_set_error_handler_off();
	t = gsl_cdf_tdist_Pinv(0.5 + conf / 200, (double)df);
	return isfinite(t) ? t : NAN;
}
