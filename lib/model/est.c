/*
 * est.c - trc-scale's --outliers delay and drop (trc_model.h): per rank
 * and label, the judge of outlier.c over its computation intervals.  An
 * interval past its label's fence is taken as the median's computation
 * and a delay the host added.  The target scales the computation, not
 * the delay, which a target twice as slow would not double (delay), or
 * leaves the delay out as the base host's, not the program's (drop).
 */
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "trc_outlier.h"
#include "model.h"

struct comp_est {
	char			*label;
	size_t			 len;
	struct trc_outlier	 judge;
};

void
trc_est_free(struct cpu_rank *p)
{
	size_t i;

	for (i = 0; i < p->nest; i++) {
		free(p->est[i].label);
		trc_outlier_free(&p->est[i].judge);
	}
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
	p->estcur = ++p->nest;
	return e;
}

int
trc_est_comp(struct trc_cpu *c, struct cpu_rank *p, const char *l,
    size_t len, double k, int64_t d, int64_t *dp)
{
	struct comp_est *e;
	int64_t m;
	int past;

	if ((e = find(p, l, len)) == NULL ||
	    (past = trc_outlier_judge(&e->judge, d, &m)) < 0)
		return -1;
	*dp = trc_scale_ns(k, d);
	if (past) {
		*dp = c->outliers == TRC_OUTLIERS_DROP ? trc_scale_ns(k, m) :
		    trc_time_add(trc_scale_ns(k, m), d - m);
		c->nout++;
		c->outns = trc_time_add(c->outns, d - m);
	}
	return 0;
}
