/*
 * versus.c - predicted against observed lifetimes, paired occurrence
 * by occurrence.  The k-th occurrence of a procedure or operation on a
 * rank in one run is paired with the k-th in the other; a lifetime
 * waits in a FIFO only until its partner arrives, so memory follows
 * how far one stream runs ahead of the other, not their length.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"

struct trc_versus *
trc_versus_new(void)
{
	struct trc_versus *v;

	if ((v = calloc(1, sizeof(*v))) == NULL)
		return NULL;
	v->first[0] = v->first[1] = -1;
	return v;
}

void
trc_versus_free(struct trc_versus *v)
{
	int32_t i, r;

	if (v == NULL)
		return;
	for (i = 0; i < v->names.n; i++) {
		for (r = 0; r < v->cap_ranks; r++)
			free(v->pair[i][r].queue);
		free(v->pair[i]);
	}
	free(v->pair);
	trc_intern_free(&v->names);
	free(v);
}

static struct trc_pair *
pair_of(struct trc_versus *v, const char *name, int32_t rank)
{
	int32_t id, n = v->names.n, cap, i;
	void *p;

	if ((id = trc_intern(&v->names, name, strlen(name))) < 0)
		return NULL;
	if (id >= n) {
		if ((p = realloc(v->pair, (size_t)v->names.cap * sizeof(*v->pair))) == NULL)
			return NULL;
		v->pair = p;
		if ((v->pair[id] = calloc((size_t)(v->cap_ranks ? v->cap_ranks : 1),
		    sizeof(**v->pair))) == NULL)
			return NULL;
	}
	if (rank >= v->cap_ranks) {
		for (cap = v->cap_ranks ? v->cap_ranks : 16; cap <= rank; cap *= 2)
			;
		for (i = 0; i < v->names.n; i++) {
			if ((p = realloc(v->pair[i], (size_t)cap * sizeof(**v->pair))) == NULL)
				return NULL;
			v->pair[i] = p;
			memset(v->pair[i] + v->cap_ranks, 0,
			    (size_t)(cap - v->cap_ranks) * sizeof(**v->pair));
		}
		v->cap_ranks = cap;
	}
	if (rank >= v->nranks)
		v->nranks = rank + 1;
	return &v->pair[id][rank];
}

int
trc_versus_add(struct trc_versus *v, int side, const struct trc_summary *s,
    const struct trc_event *ev)
{
	struct trc_pair *pr;
	char name[256];
	int64_t other, pred, obs, *q;

	if (v->first[side] < 0)
		v->first[side] = ev->t;
	v->last[side] = ev->t;
	if (s->occ_kind == TRC_OCC_NONE)
		return 0;
	snprintf(name, sizeof(name), "%c:%s", s->occ_kind == TRC_OCC_PROC ?
	    'P' : 'O', s->occ_kind == TRC_OCC_PROC ?
	    s->labels.name[s->occ_name] : s->ops.name[s->occ_name]);
	if ((pr = pair_of(v, name, ev->rank)) == NULL)
		return -1;
	v->occurrences[side]++;
	if (pr->len > 0 && pr->side != side) {
		other = pr->queue[pr->head];
		pr->head = (pr->head + 1) % pr->cap;
		pr->len--;
		v->pending--;
		pred = side == TRC_PREDICTED ? s->occ_life : other;
		obs = side == TRC_OBSERVED ? s->occ_life : other;
		pr->pred += pred;
		pr->obs += obs;
		pr->n++;
		/* A ratio to an instant is no ratio: left out of the mean. */
		if (obs > 0) {
			pr->ratio_sum += (double)pred / (double)obs;
			pr->nratio++;
		}
		return 0;
	}
	if (pr->len == pr->cap) {
		if ((q = malloc((size_t)(pr->cap ? 2 * pr->cap : 8) * sizeof(*q))) == NULL)
			return -1;
		for (int i = 0; i < pr->len; i++)
			q[i] = pr->queue[(pr->head + i) % pr->cap];
		free(pr->queue);
		pr->queue = q;
		pr->head = 0;
		pr->cap = pr->cap ? 2 * pr->cap : 8;
	}
	pr->queue[(pr->head + pr->len++) % pr->cap] = s->occ_life;
	pr->side = side;
	v->pending++;
	return 0;
}

void
trc_versus_finish(struct trc_versus *v)
{
	struct trc_pair *pr;
	int32_t i, r;

	for (i = 0; i < v->names.n; i++)
		for (r = 0; r < v->nranks; r++) {
			pr = &v->pair[i][r];
			pr->unpaired[pr->side] += pr->len;
			pr->len = 0;
		}
	v->pending = 0;
}

void
trc_versus_sums(const struct trc_versus *v, int32_t i, int64_t *pred,
    int64_t *obs)
{
	int32_t r;

	*pred = *obs = 0;
	for (r = 0; r < v->nranks; r++) {
		*pred += v->pair[i][r].pred;
		*obs += v->pair[i][r].obs;
	}
}

double
trc_versus_share(int64_t obs, int32_t nranks, int64_t span)
{
	double all = (double)nranks * (double)span;

	return all > 0 ? (double)obs / all : 0;
}

/* Feeds one event of side i into the comparison: 1, 0 at its end, -1
 * with the error in v->err. */
static int
versus_step(struct trc_versus *v, int i, struct trc_reader *r,
    struct trc_summary *sum)
{
	struct trc_event ev;
	int rc;

	if ((rc = trc_next(r, &ev)) < 0)
		return trc_errorf(v->err, sizeof(v->err), "%s", trc_error(r));
	if (rc == 0) {
		if (trc_summary_finish(sum) < 0)
			return trc_errorf(v->err, sizeof(v->err), "%s: %s",
			    trc_name(r), trc_summary_error(sum));
		return 0;
	}
	if (trc_summary_add(sum, &ev) < 0)
		return trc_errorf(v->err, sizeof(v->err), "%s:%ld: %s",
		    trc_name(r), ev.line, trc_summary_error(sum));
	if (trc_versus_add(v, i, sum, &ev) < 0)
		return trc_errorf(v->err, sizeof(v->err), "out of memory");
	return 1;
}

int
trc_versus_read(struct trc_versus *v, struct trc_reader *r[2],
    struct trc_summary *sum[2])
{
	int done[2] = { 0, 0 }, i, rc;

	/* Read the side that is behind, so that the pairing FIFOs stay
	 * short when the two runs have the same events. */
	while (!done[0] || !done[1]) {
		i = done[0] ? 1 : done[1] ? 0 :
		    v->occurrences[0] > v->occurrences[1];
		if ((rc = versus_step(v, i, r[i], sum[i])) < 0)
			return -1;
		done[i] = rc == 0;
	}
	trc_versus_finish(v);
	return 0;
}
