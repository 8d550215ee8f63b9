/*
 * outlier.c - which computation intervals the host made longer
 * (trc_outlier.h).
 *
 * A label whose intervals are alike does the same work each time; one
 * of them far longer than the rest is that work and a delay the host
 * added: a preemption, a page fault, a slow spell of a core, a
 * neighbour's polling.  The spread of a label is read from the lower
 * half of its intervals alone, twice the distance from the lower
 * quartile to the median (the interquartile range of an undisturbed,
 * symmetric label), because the host's delays only add time and may
 * take many intervals: on this toolkit's host, the heat solver's rank
 * computing while the other waits over shared memory took 22 us more
 * in 10 to 40% of its steps, which puts the upper quartile among the
 * delays and the interquartile range at a third of the median.  A
 * label is alike when its spread is within ALIKE of its median, and
 * an interval is far longer when it lies more than FENCE spreads past
 * the median (Tukey's far-out fence).  Nothing is judged until a
 * label has WARM intervals on its rank; each is judged before it
 * joins the estimates.
 */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_rstat.h>
#include <math.h>

#include "trc_outlier.h"

#define WARM	32	/* intervals of a label before any is judged */
#define ALIKE	0.1	/* spread / median of alike ones */
#define FENCE	3.0	/* spreads past the median */

static const double quantile[2] = { 0.25, 0.5 };

int
trc_outlier_judge(struct trc_outlier *o, int64_t d, int64_t *median)
{
	gsl_rstat_quantile_workspace *q[2];
	double m, spread;
	int i, past = 0;

	if (o->q[0] == NULL) {
		gsl_set_error_handler_off();	/* out of memory is ours */
		for (i = 0; i < 2; i++)
			if ((o->q[i] = gsl_rstat_quantile_alloc(quantile[i])) ==
			    NULL) {
				trc_outlier_free(o);
				return -1;
			}
	}
	q[0] = o->q[0];
	q[1] = o->q[1];
	if (o->n >= WARM) {
		m = gsl_rstat_quantile_get(q[1]);
		spread = 2 * (m - gsl_rstat_quantile_get(q[0]));
		if (m > 0 && spread <= ALIKE * m &&
		    (double)d > m + FENCE * spread) {
			*median = (int64_t)llround(m);
			past = 1;
		}
	}
	for (i = 0; i < 2; i++)
		gsl_rstat_quantile_add((double)d, q[i]);
	o->n++;
	return past;
}

void
trc_outlier_free(struct trc_outlier *o)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (o->q[i] != NULL)
			gsl_rstat_quantile_free(o->q[i]);
		o->q[i] = NULL;
	}
	o->n = 0;
}
