/*
 * common.c - what the models share (model.h): computation ratios, the
 * base machine's model.
 *
 * Asked at every computation interval, so a rank's K is kept until its
 * label changes, and the ratio table caches its answer per label and
 * rank in turn.  A table with first=K rows (a warm-up) is asked at
 * every interval instead, and counts them per label and rank: every
 * interval but a rank's first event's, which ends none, as trc-ratios
 * counts them (trc_warmup_add).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "trc_fit.h"
#include "trc_model.h"
#include "model.h"

int64_t
trc_ns(double s)
{
	double v = s * 1e9;

	if (isnan(v))
		return TRC_TIME_OVER;
	if (!(v > 0))
		return 0;
	return v >= (double)TRC_TIME_MAX ? TRC_TIME_OVER : (int64_t)llround(v);
}

int
trc_base_sync(const struct trc_fit *base, const struct trc_p2p *m)
{
	return !m->nonblocking && base != NULL && trc_fit_sync(base, m->bytes);
}

/* A message on the base: its recv row, else its send row (fit_msg). */
static double
base_msg(const void *arg, double b)
{
	const struct trc_fit *base = arg;
	const struct trc_fit_op *op;

	if ((op = trc_fit_find(base, "recv", 4)) == NULL)
		op = trc_fit_find(base, "send", 4);
	return op != NULL ? trc_fit_eval(op, (int64_t)llround(b)) : 1e-6;
}

/*
 * The base's fits of c's op and op-cold on c's ranks, s, in cpu->bwarm
 * and cpu->bcold, remembered for the next participant: 0, or -1
 * without both or with the cold not the slower.
 */
static int
base_fits(struct trc_cpu *cpu, const struct trc_coll_call *c)
{
	struct coll_net net = { base_msg, cpu->base, 0 };
	const struct trc_fit_op *w, *k;
	char cold[64];
	double s = 1, a2, ap;
	int64_t unused;
	int n;

	if (!trc_coll_memo_get(&cpu->bkey, c->op, c->oplen, c->bytes, c->size,
	    &unused)) {
		cpu->bwarm = cpu->bcold = -1;
		if ((w = trc_fit_find(cpu->base, c->op, c->oplen)) != NULL &&
		    (n = snprintf(cold, sizeof(cold), "%.*s-cold",
		    (int)c->oplen, c->op)) > 0 && (size_t)n < sizeof(cold) &&
		    (k = trc_fit_find(cpu->base, cold, (size_t)n)) != NULL) {
			/* On p ranks as fit_coll scales the target's. */
			if (c->size > 2 && (a2 = trc_coll_cost(&net, c->op,
			    c->oplen, 2, c->bytes)) > 0 && (ap = trc_coll_cost(
			    &net, c->op, c->oplen, c->size, c->bytes)) >= 0)
				s = ap / a2;
			cpu->bwarm = s * trc_fit_eval(w, c->bytes);
			cpu->bcold = s * trc_fit_eval(k, c->bytes);
		}
		trc_coll_memo_put(&cpu->bkey, c->op, c->oplen, c->bytes,
		    c->size, 0);
	}
	return cpu->bwarm >= 0 && cpu->bcold > cpu->bwarm ? 0 : -1;
}

/* Recorded d seconds between warm w and cold k, 0 to 1. */
static double
between(double d, double w, double k)
{
	double x = (d - w) / (k - w);

	return x < 0 ? 0 : x > 1 ? 1 : x;
}

static struct cpu_rank *getrank(struct trc_cpu *, int32_t);

/* Rank r's call measured x cold, of weight w; -1 out of memory. */
static int
learn(struct trc_cpu *cpu, int32_t r, double x, double w)
{
	struct cpu_rank *p;

	if (r < 0)
		return 0;
	if ((p = getrank(cpu, r)) == NULL) {
		snprintf(cpu->err, sizeof(cpu->err), "out of memory");
		return -1;
	}
	p->xsum += w * x;
	p->xn += w;
	return 0;
}

/*
 * A collective entered last straight from a computation (nothing sent
 * or received since) measures its rank's coldness too, once an
 * instance: each participant's call is weighed 1 / size.
 */
double
trc_coll_coldness(struct trc_cpu *cpu, const struct trc_coll_call *c)
{
	double x;

	if (c->idle < TRC_COLD_NS)
		return 0;
	if (cpu->base == NULL || c->d < 0 || base_fits(cpu, c) < 0)
		return c->idle_p2p >= TRC_COLD_NS ? 1 : 0.5;
	x = between((double)c->d * 1e-9, cpu->bwarm, cpu->bcold);
	if (c->idle_p2p >= TRC_COLD_NS && c->size > 0)
		(void)learn(cpu, c->rank, x, 1.0 / c->size);
	return x;
}

double
trc_cold_of(struct trc_cpu *cpu, int32_t rank)
{
	double x, n;

	return trc_cold_measured(cpu, rank, &x, &n) < 0 ? 1 : x;
}

int
trc_cold_measured(struct trc_cpu *cpu, int32_t rank, double *x, double *n)
{
	const struct cpu_rank *p;

	if (rank < 0 || (p = trc_pages_at(&cpu->rk, (size_t)rank)) == NULL ||
	    !(p->xn > 0))
		return -1;
	*x = p->xsum / p->xn;
	*n = p->xn;
	return 0;
}

int
trc_cold_learn(struct trc_cpu *cpu, const struct trc_p2p *m, int op,
    int64_t d)
{
	const struct trc_fit_op *w, *k;
	double vw, vk;

	if (op < 0 || op >= TRC_LEARN_OPS || m->idle < TRC_COLD_NS ||
	    (op != TRC_LEARN_RECV && trc_base_sync(cpu->base, m)))
		return 0;
	w = cpu->bop[op][0];
	k = cpu->bop[op][1];
	if (w == NULL || k == NULL ||
	    !((vk = trc_fit_eval(k, m->bytes)) > (vw = trc_fit_eval(w,
	    m->bytes))))
		return 0;
	return learn(cpu, op == TRC_LEARN_RECV ? m->dst : m->src,
	    between((double)d * 1e-9, vw, vk), 1);
}

double
trc_cold_eval(const struct trc_fit_op *warm, const struct trc_fit_op *cold,
    double x, int64_t b)
{
	double w = trc_fit_eval(warm, b);

	return cold == NULL ? w : w + x * (trc_fit_eval(cold, b) - w);
}

void
trc_cpu_init(struct trc_cpu *c, const struct trc_model_conf *conf)
{
	memset(c, 0, sizeof(*c));
	c->ratios = conf->ratios;
	c->counted = c->ratios != NULL && trc_ratios_counted(c->ratios);
	c->base = conf->base;
	if (c->base != NULL) {
		c->bop[TRC_LEARN_SEND][0] = trc_fit_find(c->base, "send", 4);
		c->bop[TRC_LEARN_SEND][1] = trc_fit_find(c->base, "send-cold",
		    9);
		c->bop[TRC_LEARN_ISEND][0] = trc_fit_find(c->base, "isend", 5);
		c->bop[TRC_LEARN_ISEND][1] = trc_fit_find(c->base,
		    "isend-cold", 10);
		c->bop[TRC_LEARN_RECV][0] = trc_fit_find(c->base, "recv-late",
		    9);
		c->bop[TRC_LEARN_RECV][1] = trc_fit_find(c->base,
		    "recv-late-cold", 14);
	}
	c->k = conf->cpu_ratio > 0 ? conf->cpu_ratio : 1;
	c->outliers = conf->outliers;
	c->rk.elsize = sizeof(struct cpu_rank);
}

void
trc_cpu_fini(struct trc_cpu *c)
{
	struct cpu_rank *p;
	size_t i;

	for (i = 0; i < c->rk.npg * TRC_PAGE; i++)
		if ((p = trc_pages_at(&c->rk, i)) != NULL) {
			free(p->lab);
			free(p->labpos);
			trc_est_free(p);
		}
	trc_pages_free(&c->rk);
}

static struct cpu_rank *
getrank(struct trc_cpu *c, int32_t r)
{
	if (r < 0)
		return NULL;
	return trc_pages_get(&c->rk, (size_t)r);
}

/* The label of rank p's innermost region, "" outside every one. */
static const char *
label_of(const struct cpu_rank *p, size_t *len)
{
	if (p->depth == 0) {
		*len = 0;
		return "";
	}
	*len = p->lablen - p->labpos[p->depth - 1];
	return p->lab + p->labpos[p->depth - 1];
}

/*
 * K of rank r's current label: 0, or -1 when matching failed.  take:
 * for an interval that ends now (else a bound's peek).
 */
static int
factor(struct trc_cpu *c, int32_t r, double *k, int *matched, int take)
{
	struct cpu_rank *p;
	const char *l;
	size_t len;
	int rc;

	if ((p = getrank(c, r)) == NULL) {
		snprintf(c->err, sizeof(c->err), "out of memory");
		return -1;
	}
	if (c->counted) {
		l = label_of(p, &len);
		rc = trc_ratios_next(c->ratios, l, len, r, take && p->started,
		    k);
		if (take)
			p->started = 1;
		if (rc < 0) {
			snprintf(c->err, sizeof(c->err), "%s",
			    trc_ratios_error(c->ratios));
			return -1;
		}
		*matched = rc;
		return 0;
	}
	if (!p->kvalid) {
		l = label_of(p, &len);
		if ((rc = trc_ratios_get(c->ratios, l, len, r, &p->k)) < 0) {
			snprintf(c->err, sizeof(c->err), "%s",
			    trc_ratios_error(c->ratios));
			return -1;
		}
		p->kmatched = (uint8_t)rc;
		p->kvalid = 1;
	}
	*k = p->k;
	*matched = p->kmatched;
	return 0;
}

/* trc_cpu_comp() with a ratio table or --outliers delay or drop. */
int
trc_cpu_comp_label(struct trc_cpu *c, int32_t r, int64_t d, int64_t *dp)
{
	struct cpu_rank *p;
	const char *l;
	size_t len;
	double k = c->k;
	int matched = 1;

	if (c->ratios != NULL && factor(c, r, &k, &matched, 1) < 0)
		return -1;
	if (c->outliers == TRC_OUTLIERS_SCALE ||
	    (c->outliers == TRC_OUTLIERS_DELAY && k == 1)) {
		*dp = trc_scale_ns(k, d);
		return !matched;
	}
	if ((p = getrank(c, r)) == NULL) {
		snprintf(c->err, sizeof(c->err), "out of memory");
		return -1;
	}
	l = label_of(p, &len);
	if (trc_est_comp(c, p, l, len, k, d, dp) < 0) {
		snprintf(c->err, sizeof(c->err), "out of memory");
		return -1;
	}
	return !matched;
}

void
trc_cpu_outliers(const struct trc_cpu *c, unsigned long long *n,
    int64_t *excess)
{
	*n = c->nout;
	*excess = c->outns;
}

int
trc_cpu_region(struct trc_cpu *c, int32_t r, const struct trc_str *fn)
{
	struct cpu_rank *p;

	if (c->ratios == NULL && c->outliers == TRC_OUTLIERS_SCALE)
		return 0;
	if ((p = getrank(c, r)) == NULL)
		return -1;
	p->estcur = 0;
	if (fn == NULL) {
		if (p->depth > 0) {
			p->lablen = p->labpos[--p->depth];
			p->kvalid = 0;
		}
		return 0;
	}
	/* lab gets a byte more than it needs: never NULL, even for "". */
	if (trc_grow(&p->labpos, &p->depthcap, p->depth + 1,
	    sizeof(*p->labpos), 8) < 0 ||
	    trc_grow(&p->lab, &p->labcap, p->lablen + fn->len + 1, 1, 64) < 0)
		return -1;
	p->labpos[p->depth++] = p->lablen;
	memcpy(p->lab + p->lablen, fn->s, fn->len);
	p->lablen += fn->len;
	p->kvalid = 0;
	return 0;
}

int64_t
trc_cpu_bound(struct trc_cpu *c, int32_t r, int64_t dt)
{
	double k = c->k;
	int matched;

	/* With drop, past its fence an interval takes K m, which may be
	 * less than any part of dt. */
	if (dt == 0 || c->outliers == TRC_OUTLIERS_DROP)
		return 0;
	if (c->ratios != NULL && factor(c, r, &k, &matched, 0) < 0)
		return 0;	/* the error comes again at the event */
	/* Past its fence an interval d long takes K m + d - m, which for
	 * K > 1 is less than K d but no less than d. */
	if (c->outliers == TRC_OUTLIERS_DELAY && k > 1)
		k = 1;
	return trc_scale_ns(k, dt);
}
