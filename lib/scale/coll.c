/*
 * coll.c - collectives: the k-th a rank enters on a communicator is
 * instance k; every participant ends at the latest begin plus the
 * model's cost.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "scale.h"

static int
coll_size(struct trc_scale *s, const struct trc_event *ev, int32_t *size)
{
	const struct trc_str *a;
	int64_t n;

	if ((a = trc_attr_get(ev, "size")) != NULL) {
		if (trc_parse_int(a->s, a->len, &n) < 0 || n < 1 ||
		    n > INT32_MAX)
			return sc_fail(s, ev->line, "invalid size '%.*s'",
			    (int)a->len, a->s);
		*size = (int32_t)n;
		return 0;
	}
	if (ev->comm == 0 && s->hdr_ranks > 0) {
		*size = s->hdr_ranks;
		return 0;
	}
	if (ev->comm == 0)
		return sc_fail(s, ev->line,
		    "collective needs the header's ranks= or size=");
	return sc_fail(s, ev->line, "collective on comm %ld needs size=",
	    (long)ev->comm);
}

/*
 * XE: every participant ends at the latest begin plus the cost.  c is
 * the instance, which a blocking collective's rank is in (p->coll) and
 * a nonblocking one's names by the req= of its XE.
 */
int
sc_coll_end(struct trc_scale *s, int32_t r, const struct trc_event *ev,
    int64_t base, int64_t *tp)
{
	struct rank *p = RK(s, r);
	struct trc_coll_call cc;
	struct trc_coll *c;
	int64_t cost;
	size_t i = 0;

	if (ev->req != TRC_NONE) {
		for (i = 0; i < p->nnb && p->nb[i].req != ev->req; i++)
			;
		if (i == p->nnb)
			return sc_fail(s, ev->line, "collective end req=%lld "
			    "without its begin", (long long)ev->req);
		c = p->nb[i].c;
	} else if ((c = p->coll) == NULL)
		return sc_fail(s, ev->line, "collective end without its begin");
	if (c->arrived < c->size) {
		/*
		 * Wait on the instance's list, threaded through the ranks;
		 * p->coll says what in, for the bounds and unstick.
		 */
		p->blocked = BLK_COLL;
		p->coll = c;
		p->nextwaiter = (int32_t)(intptr_t)c->user;
		c->user = (void *)(intptr_t)(r + 1);
		return 1;
	}
	cc.op = ev->op.s;
	cc.oplen = ev->op.len;
	cc.bytes = sc_bytes_of(ev);
	cc.size = c->size;
	cc.comm = c->comm;
	/*
	 * A participant the recording has leave before the last one
	 * entered (the root of a bcast) keeps that lead when re-timed
	 * with the recorded costs (rematch), as a receive does.
	 */
	cc.d = ev->t - c->aux;
	if (cc.d < 0 && !s->conf.rematch)
		cc.d = 0;
	cc.idle = c->idle;
	cc.idle_p2p = c->idle_p2p;
	cc.rank = c->last;
	cost = s->mo->coll(s->ms, &cc);
	/* A receive before took this rank's first message of it. */
	if (p->took_coll)
		cost = cost > p->took_ns ? cost - p->took_ns : 0;
	p->took_ns = 0;
	*tp = c->val + cost;
	if (*tp < base)
		*tp = base;
	if (s->cores.ncores > 0)
		*tp = sc_cores_free_at(sc_cores_of(s, r), *tp);
	/* --bound: after the rank that holds its core. */
	if (s->bound != NULL && sc_cores_coll_end(s, r, tp) > 0)
		return 1;
	p->woke |= WOKE_COLL;
	p->woke_rounds = trc_coll_rounds(c->size);
	if (++c->left == c->arrived)
		trc_coll_release(s->mt, c);
	p->coll = NULL;
	if (ev->req != TRC_NONE)
		p->nb[i] = p->nb[--p->nnb];	/* still in its wait */
	else
		p->state = COMP;
	return 0;
}

/*
 * XB: enter the collective, the k-th of the rank on its communicator
 * whichever kind (MPI orders them so); the last one in lets the
 * waiters go.  A nonblocking one's XB req=R is a point: the rank goes
 * on, and its XE req=R, inside a wait, ends it.
 */
int
sc_coll_begin(struct trc_scale *s, int32_t r, const struct trc_event *ev,
    int64_t tp)
{
	struct rank *p = RK(s, r);
	struct trc_coll *c;
	int32_t q;

	if (p->coll != NULL)
		return sc_fail(s, ev->line, "collective begin inside another "
		    "collective");
	if (ev->req != TRC_NONE && trc_grow(&p->nb, &p->nbcap, p->nnb + 1,
	    sizeof(*p->nb), 4) < 0)
		return sc_nomem(s);
	if ((c = trc_coll_enter(s->mt, ev->comm, r, ev->line)) == NULL)
		return sc_nomem(s);
	if (c->arrived == 1) {
		if (coll_size(s, ev, &c->size) < 0)
			return -1;
		c->aux = ev->t;
	} else if (ev->t > c->aux)
		c->aux = ev->t;
	/* The latest entry so far, and what it came from. */
	if (c->arrived == 1 || tp >= c->val) {
		c->val = tp;
		c->idle = p->coll_idle_now;
		c->idle_p2p = p->idle_now;
		c->last = r;
	}
	if (c->arrived > c->size)
		return sc_fail(s, ev->line, "collective on comm %ld has more "
		    "than %ld participants", (long)ev->comm, (long)c->size);
	if (c->arrived == c->size) {
		for (q = (int32_t)(intptr_t)c->user; q > 0;
		    q = RK(s, q - 1)->nextwaiter)
			if (sc_wake(s, q - 1) < 0)
				return -1;
		c->user = NULL;
	}
	if (ev->req != TRC_NONE) {
		p->nb[p->nnb].req = ev->req;
		p->nb[p->nnb++].c = c;
		return 0;
	}
	p->coll = c;
	p->state = COLL;
	p->xb_tp = tp;
	if (c->arrived == c->size)
		sc_cores_coll_done(s, c);
	return 0;
}
