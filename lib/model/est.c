/*
 * est.c - trc-scale's --outliers delay and drop (trc_model.h): per
 * rank and label, the quartiles of its computation intervals, estimated
 * as the stream goes by the P-squared algorithm (GSL's
 * gsl_rstat_quantile: a few numbers each, however long the run), and
 * the intervals far past them.
 *
 * A label whose intervals are alike (their interquartile range within
 * ALIKE of their median) does the same work each time.  One of its
 * intervals more than FENCE interquartile ranges past the median
 * (Tukey's far-out fence) is taken as the median's computation and a
 * delay the host added: a preemption, a page fault, a slow spell of a
 * core.  The target scales the computation, not the delay, which a
 * target twice as slow would not double (delay), or leaves the delay
 * out as the base host's, not the program's (drop).  A label of unlike
 * intervals (two kinds of work under one name) is scaled as it is,
 * and so is every interval until its label has WARM of them on its
 * rank.  An interval is judged before it joins the estimates.
 */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_rstat.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "model.h"

#define WARM	32	/* intervals of a label before any is judged */
#define ALIKE	0.1	/* interquartile range / median of alike ones */
#define FENCE	3.0	/* interquartile ranges past the median */

static const double quartile[3] = { 0.25, 0.5, 0.75 };

struct comp_est {
	char			*label;
	size_t			 len;
	unsigned long long	 n;
	gsl_rstat_quantile_workspace *q[3];
};

static void
est_clear(struct comp_est *e)
{
	int i;

	free(e->label);
	for (i = 0; i < 3; i++)
		if (e->q[i] != NULL)
			gsl_rstat_quantile_free(e->q[i]);
}

void
trc_est_free(struct cpu_rank *p)
{
	size_t i;

	for (i = 0; i < p->nest; i++)
		est_clear(&p->est[i]);
	free(p->est);
}

/* Rank p's estimates of label l, made when new; NULL out of memory. */
static struct comp_est *
find(struct cpu_rank *p, const char *l, size_t len)
{
	struct comp_est *e;
	size_t i;

	if (p->estcur > 0)
		return &p->est[p->estcur - 1];
	for (i = 0; i < p->nest; i++)
		if (p->est[i].len == len &&
		    memcmp(p->est[i].label, l, len) == 0) {
			p->estcur = i + 1;
			return &p->est[i];
		}
	if (trc_grow(&p->est, &p->estcap, p->nest + 1, sizeof(*p->est), 4) <
	    0)
		return NULL;
	e = &p->est[p->nest];
	memset(e, 0, sizeof(*e));
	if ((e->label = malloc(len + 1)) == NULL)
		return NULL;
	memcpy(e->label, l, len);
	e->len = len;
	for (i = 0; i < 3; i++)
		if ((e->q[i] = gsl_rstat_quantile_alloc(quartile[i])) ==
		    NULL) {
			est_clear(e);
			return NULL;
		}
	p->estcur = ++p->nest;
	return e;
}

void
trc_est_init(void)
{
	gsl_set_error_handler_off();	/* out of memory is ours to say */
}

int
trc_est_comp(struct trc_cpu *c, struct cpu_rank *p, const char *l,
    size_t len, double k, int64_t d, int64_t *dp)
{
	struct comp_est *e;
	double m, iqr;
	int64_t mi;
	int i;

	if ((e = find(p, l, len)) == NULL)
		return -1;
	*dp = trc_scale_ns(k, d);
	if (e->n >= WARM) {
		m = gsl_rstat_quantile_get(e->q[1]);
		iqr = gsl_rstat_quantile_get(e->q[2]) -
		    gsl_rstat_quantile_get(e->q[0]);
		if (m > 0 && iqr <= ALIKE * m && (double)d > m + FENCE * iqr) {
			mi = (int64_t)llround(m);
			*dp = c->outliers == TRC_OUTLIERS_DROP ?
			    trc_scale_ns(k, mi) :
			    trc_time_add(trc_scale_ns(k, mi), d - mi);
			c->nout++;
			c->outns = trc_time_add(c->outns, d - mi);
		}
	}
	for (i = 0; i < 3; i++)
		gsl_rstat_quantile_add((double)d, e->q[i]);
	e->n++;
	return 0;
}
