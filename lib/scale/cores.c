/*
 * cores.c - a target with fewer cores than ranks (trc-scale --cores):
 * the ranks' computations share them.  A computation interval runs
 * while fewer than n ranks compute, else waits for a core, and may be
 * cut into pieces by those met before it: a core goes to whichever
 * rank is ready (a lower bound, see below), a rank that waits
 * inside MPI giving it up (Open MPI's mpi_yield_when_idle, on by
 * default when a node holds more ranks than cores), so that only
 * computation needs a core.  Intervals are placed in the order the
 * engine meets them, which follows the predicted times as the input's
 * order follows the recorded ones.
 *
 * With --bound each rank has one core, r mod n, and its intervals wait
 * for that core alone: the kernel seldom moves a rank that polls, as
 * every rank of such a node counts as running, so a rank keeps its
 * core bound or not (sc_cores_of).  For the same reason a collective's
 * ranks that share a core end it one after another: the one still
 * running there goes on until it waits in a call (sc_cores_coll_done).
 *
 * The cores' use is a step function of predicted time (one per core
 * with --bound): step i has busy ranks computing from its t to the
 * next step's, the last none from its t on.  The steps before every
 * rank's predicted time can no longer be asked for and are dropped
 * (sc_cores_prune), so that memory is bounded by the intervals in
 * flight, not by the trace's length.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "scale.h"

/* A step at position i from time t, as busy as the one it splits. */
static int
split(struct sc_cores *c, size_t i, int64_t t)
{
	if (trc_grow(&c->st, &c->cap, c->n + 1, sizeof(*c->st), 64) < 0)
		return -1;
	memmove(c->st + i + 1, c->st + i, (c->n - i) * sizeof(*c->st));
	c->st[i].t = t;
	c->st[i].busy = i > 0 ? c->st[i - 1].busy : 0;
	c->n++;
	return 0;
}

/* The first step that starts after t, or n. */
static size_t
after(const struct sc_cores *c, int64_t t)
{
	size_t i, lo = 0, hi = c->n;

	while (lo < hi) {
		i = lo + (hi - lo) / 2;
		if (c->st[i].t <= t)
			lo = i + 1;
		else
			hi = i;
	}
	return lo;
}

/*
 * The end, in *end, of w ns of computation that may start at start:
 * the steps where a core is free take it, one after another, until w
 * is done.  0, or -1 when out of memory.
 */
int
sc_cores_place(struct sc_cores *c, int64_t start, int64_t w, int64_t *end)
{
	size_t i;

	*end = start;
	if (w <= 0)
		return 0;
	i = after(c, start);
	if (i > 0 && c->st[i - 1].t == start)
		i--;
	else if (split(c, i, start) < 0)
		return -1;
	/* The last step is never full (none compute from it on), so the
	 * loop ends there at the latest. */
	for (;; i++) {
		if (c->st[i].busy >= c->ncores)
			continue;
		if (i + 1 == c->n || c->st[i + 1].t - c->st[i].t > w) {
			*end = c->st[i].t + w;
			if ((i + 1 == c->n || c->st[i + 1].t != *end) &&
			    split(c, i + 1, *end) < 0)
				return -1;
			c->st[i].busy++;
			return 0;
		}
		w -= c->st[i + 1].t - c->st[i].t;
		c->st[i].busy++;
		if (w == 0) {
			*end = c->st[i + 1].t;
			return 0;
		}
	}
}

/* The earliest time from t on that a core is free (fewer than n
 * ranks compute). */
int64_t
sc_cores_free_at(const struct sc_cores *c, int64_t t)
{
	size_t i = after(c, t);

	/* i - 1 holds t, when there is a step at or before it. */
	for (i = i > 0 ? i - 1 : 0; i < c->n && c->st[i].busy >= c->ncores;
	    i++)
		;
	return i < c->n && c->st[i].t > t ? c->st[i].t : t;
}

/* The steps of c that end by before, dropped. */
static void
prune(struct sc_cores *c, int64_t before)
{
	size_t k = 0;

	while (k + 1 < c->n && c->st[k + 1].t <= before)
		k++;
	if (k == 0)
		return;
	memmove(c->st, c->st + k, (c->n - k) * sizeof(*c->st));
	c->n -= k;
}

/*
 * Drops the steps no computation can ask for any more: those that end
 * by the earliest time a rank's next one may start, its predicted time
 * (a rank not met yet starts at its first recorded time, no earlier
 * than the input's in a stream in time order).
 */
void
sc_cores_prune(struct trc_scale *s)
{
	int64_t before = INT64_MAX;
	int32_t k;
	size_t i;

	if (s->hdr_ranks == 0 || s->nseen < (size_t)s->hdr_ranks) {
		if (!s->timeorder)
			return;
		before = s->tin;
	}
	for (i = 0; i < s->nrk; i++) {
		RK_SKIP(s, i);
		if (RK(s, i)->seen && RK(s, i)->tp < before)
			before = RK(s, i)->tp;
	}
	if (s->bound == NULL)
		prune(&s->cores, before);
	else
		for (k = 0; k < s->cores.ncores; k++)
			prune(&s->bound[k], before);
}

/*
 * The cores rank r's computations take: all of them, or with --bound
 * its own, r mod n, as Open MPI's --map-by core places ranks on a node
 * (with --bind-to core:overload-allowed when they are more than the
 * cores).  A rank bound to a core waits for it even while another core
 * is free: a rank whose message came stays behind the computation of
 * another on its core, which the scheduler does not interrupt for one
 * that polls (measured: a message sent to a rank sharing its core with
 * one computing for 100 us or 1 ms was taken 104 us or 1010 us later,
 * make bench-wake).
 */
struct sc_cores *
sc_cores_of(struct trc_scale *s, int32_t r)
{
	return s->bound != NULL ? &s->bound[r % s->cores.ncores] : &s->cores;
}

/*
 * --bound: a blocking collective that completes on cores its ranks
 * share.  Its ranks waiting in it have given their cores up; the one
 * of each core that entered last still runs there when the last rank
 * enters, so it goes on (its holder), and the others on that core end
 * their calls only when it waits in a call again: the scheduler does
 * not take the core from a computing rank for ranks that poll.
 * Measured: trc-heat on 4 ranks bound to 2 cores over shared memory
 * (make replay-validate), rank 1's allreduce ended a median 38 us after
 * the last rank entered, while rank 3, on its core, went on through
 * its next Iterate, where the others ended theirs within 4 us.
 */
void
sc_cores_coll_done(struct trc_scale *s, const struct trc_coll *c)
{
	struct sc_cores *k;
	struct rank *q;
	int32_t n = s->cores.ncores, core, r, h, nin;

	if (s->bound == NULL)
		return;
	for (core = 0; core < n && (size_t)core < s->nrk; core++) {
		/* A hold whose ranks have not all ended stays the core's. */
		if ((k = &s->bound[core])->pending > 0)
			continue;
		for (h = -1, nin = 0, r = core; (size_t)r < s->nrk; r += n)
			if ((q = RK_AT(s, r)) != NULL && q->coll == c &&
			    q->state == COLL) {
				nin++;
				if (h < 0 || q->xb_tp >= RK(s, h)->xb_tp)
					h = r;
			}
		if (nin < 2)
			continue;
		k->holder = h;
		k->held_until = -1;
		for (r = core; (size_t)r < s->nrk; r += n)
			if (r != h && (q = RK_AT(s, r)) != NULL &&
			    q->coll == c && q->state == COLL) {
				q->core_wait = 1;
				k->pending++;
			}
	}
}

/*
 * XE of rank r, ending at *tp, when its core's holder has it wait: no
 * earlier than the holder waited in a call; 1 when that is not known
 * yet (the rank is blocked), else 0.
 */
int
sc_cores_coll_end(struct trc_scale *s, int32_t r, int64_t *tp)
{
	struct rank *p = RK(s, r);
	struct sc_cores *k = sc_cores_of(s, r);

	if (!p->core_wait)
		return 0;
	if (k->held_until < 0) {
		p->blocked = BLK_CORE;
		p->nextwaiter = k->held_waiters;
		k->held_waiters = r + 1;
		return 1;
	}
	p->core_wait = 0;
	k->pending--;
	if (k->held_until > *tp)
		*tp = k->held_until;
	return 0;
}

/* The holder's wait, or the end of the input: the core's waiters go. */
static int
give_up(struct trc_scale *s, struct sc_cores *k, int64_t tp)
{
	int32_t q;

	k->held_until = tp;
	for (q = k->held_waiters; q > 0; q = RK(s, q - 1)->nextwaiter)
		if (sc_wake(s, q - 1) < 0)
			return -1;
	k->held_waiters = 0;
	return 0;
}

/* Rank r begins a call that may wait, at tp: a core it holds is free. */
int
sc_cores_give_up(struct trc_scale *s, int32_t r, int64_t tp)
{
	struct sc_cores *k;

	if (s->bound == NULL ||
	    (k = sc_cores_of(s, r))->holder != r || k->held_until >= 0)
		return 0;
	return give_up(s, k, tp);
}

/* The input is done: the ranks waiting for a holder go. */
int
sc_cores_let_go(struct trc_scale *s)
{
	struct sc_cores *k;
	int32_t core;

	for (core = 0; s->bound != NULL && core < s->cores.ncores; core++) {
		k = &s->bound[core];
		if (k->holder >= 0 && k->held_until < 0 &&
		    give_up(s, k, RK(s, k->holder)->tp) < 0)
			return -1;
	}
	return sc_resume(s);
}

/* Sets up the cores of conf (none when conf->cores is 0); 0, or -1
 * when out of memory. */
int
sc_cores_init(struct trc_scale *s, const struct trc_scale_conf *conf)
{
	int32_t k;

	s->cores.ncores = conf->cores;
	if (conf->cores == 0 || !conf->bound)
		return 0;
	if ((s->bound = calloc((size_t)conf->cores, sizeof(*s->bound))) ==
	    NULL)
		return -1;
	for (k = 0; k < conf->cores; k++) {
		s->bound[k].ncores = 1;
		s->bound[k].holder = -1;
	}
	return 0;
}

static void
line_free(struct sc_cores *c)
{
	free(c->st);
	c->st = NULL;
	c->n = c->cap = 0;
}

void
sc_cores_free(struct trc_scale *s)
{
	int32_t k;

	line_free(&s->cores);
	for (k = 0; s->bound != NULL && k < s->cores.ncores; k++)
		line_free(&s->bound[k]);
	free(s->bound);
	s->bound = NULL;
}
