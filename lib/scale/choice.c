/*
 * choice.c - rematch (trc-perturb): the choice points, receives posted
 * with peer=* or tag=*, waits for any or some, probes, each given the
 * message that now arrives first.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "scale.h"

/*
 * Rematch: is this RE of request req (of the prediction) a choice
 * point, the completion of a receive posted with peer=* or tag=*, or
 * one of the receives of a wait that completes any or some?  Returns 2
 * when chosen at once (choose_now), 1 when its rank must wait for
 * sc_rematch() to choose, 0 when it is not a choice, -1 on error.
 */
int
sc_choice_recv(struct trc_scale *s, struct rank *p, const struct trc_event *ev,
    int64_t req)
{
	const struct irecv *rv = NULL;
	size_t j;

	if (p->state == WAIT && !p->wall && req != TRC_NONE) {
		for (j = 0; j < p->nwl && p->wl[j].req != req; j++)
			;
		p->ch_any = j < p->nwl;
	} else
		p->ch_any = 0;
	if (!p->ch_any) {
		if (req == TRC_NONE && p->state == RECV)
			rv = &p->rb;
		else if (req != TRC_NONE)
			rv = sc_find_irecv(p, req);
		if (rv == NULL || (rv->src != TRC_ANY && rv->tag != TRC_ANY))
			return 0;
		p->ch = *rv;
	}
	if (ev->peer < 0 || ev->tag < 0)
		return sc_fail(s, ev->line, "receive completion without actual "
		    "peer= and tag=");
	p->ch_kind = CH_RECV;
	p->ch_p0 = ev->peer;
	p->ch_t0 = ev->tag;
	p->ch_c0 = ev->comm;
	p->ch_t = ev->t;
	switch (sc_choose_now(s, ev->rank)) {
	case -1:
		return -1;
	case 1:
		return 2;
	}
	p->blocked = BLK_WILD;
	s->nwild++;
	return 1;
}

/*
 * WE of a probe, with rematch: it sees the message that arrives first
 * among those it asked for (a choice point, sc_rematch() decides), and
 * ends no earlier than that message's arrival.  When it is another
 * than recorded, the receive the recording has for the recorded one
 * takes it.
 */
int
sc_probe_end(struct trc_scale *s, int32_t r, const struct trc_event *ev,
    int64_t base, int64_t d, int64_t *tp, struct rewrite *rw)
{
	struct rank *p = RK(s, r);
	int64_t lead;
	int rc;

	if (p->rs.how == RS_NONE) {
		p->ch.req = TRC_NONE;
		p->ch.src = p->pb_src;
		p->ch.tag = p->pb_tag;
		p->ch.comm = p->pb_comm;
		p->ch.seq = 0;
		p->ch_any = 0;
		p->ch_kind = CH_PROBE;
		p->ch_p0 = ev->peer;
		p->ch_t0 = ev->tag;
		p->ch_c0 = ev->comm;
		p->ch_t = ev->t;
		if ((rc = sc_choose_now(s, r)) < 0)
			return -1;
		if (rc == 0) {
			p->blocked = BLK_WILD;
			s->nwild++;
			return 1;
		}
	}
	p->rs.how = RS_NONE;
	*tp = s->mo->wait(s->ms, r, base, d, -1);
	lead = sc_lead_of(s, p, ev->t, p->rs.src == ev->peer &&
	    p->rs.tag == ev->tag);
	if (p->rs.tp - lead > *tp)
		*tp = p->rs.tp - lead;
	if (p->rs.src != ev->peer || p->rs.tag != ev->tag) {
		rw->what |= RW_PEER | RW_TAG | RW_BYTES;
		rw->peer = p->rs.src;
		rw->tag = p->rs.tag;
		rw->bytes = p->rs.bytes;
		s->st.rematched++;
	}
	/* Even the recorded one: a matched probe's receive (mrecv) is
	 * posted with the probe's wildcards, and takes what it saw. */
	p->pr_on = 1;
	p->pr_p0 = ev->peer;
	p->pr_t0 = ev->tag;
	p->pr_comm = ev->comm;
	p->pr_src = p->rs.src;
	p->pr_tag = p->rs.tag;
	p->probing = 0;
	p->state = COMP;
	return 0;
}

/*
 * Rematch: decide the choice points, the receives posted with peer=* or
 * tag=*, the receives of waits and tests that complete any or some of
 * their requests, and probes.  Each takes, among the messages to its
 * rank that fit (for a wait, the receive a message goes to is the one
 * posted first that it fits), the one that arrives first.
 *
 * The recording's arrival times are the ends of the sends, not when
 * MPI saw the messages, and a recorded choice may disagree with them
 * (two messages queued before the receive was posted, taken in the
 * order MPI polled their senders): the recording shows what it
 * chose, so a candidate keeps the lateness that explains it.  A
 * message i competes with the recorded one, 0, at a'(i) + max(0,
 * a(0) - a(i)), a the recorded arrival and a' the predicted: it wins
 * only when it now arrives before message 0 by more than it did in
 * the recording.  Ties go to the recorded choice, then to the earlier
 * recorded arrival.  Without delays a' is a and every choice is the
 * recorded one.
 *
 * A choice is made once no message still to come can win: one still
 * to come arrives no earlier than the lower bound of its sender, and a
 * rank waiting on a choice sends only after it, no earlier than its
 * earliest candidate.  While message 0 is not there, a candidate must
 * win against any message 0 could be, sent no later than the choice
 * itself in the recording.  When no rank can go on without a choice
 * (all wait, at the end of the input or not), the choice whose message
 * is earliest is made, as the ranks waiting would not send before it.
 */
struct pick {
	const struct rank	*p;
	int			 have0, no0, found, is0;
	int64_t			 a0;		/* message 0's recorded arrival */
	struct trc_msg		 best;
	int64_t			 key, req, base, minv;
};

static int
fits_one(const struct irecv *rv, const struct trc_msg *h)
{
	return (rv->src == TRC_ANY || rv->src == h->src) &&
	    (rv->tag == TRC_ANY || rv->tag == h->tag) && rv->comm == h->comm;
}

/* Does message h fit rank p's choice?  With the request it goes to. */
static int
fits(const struct rank *p, const struct trc_msg *h, int64_t *req)
{
	const struct irecv *w = NULL;
	size_t j;

	if (!p->ch_any) {
		*req = p->ch.req;
		return fits_one(&p->ch, h);
	}
	for (j = 0; j < p->nwl; j++)
		if (!p->wl[j].done && fits_one(&p->wl[j], h) &&
		    (w == NULL || p->wl[j].seq < w->seq))
			w = &p->wl[j];
	if (w == NULL)
		return 0;
	*req = w->req;
	return 1;
}

static int
pick_one(void *arg, const struct trc_msg *h)
{
	struct pick *k = arg;
	const struct rank *p = k->p;
	int64_t req, t, base, sent, key, lead, late;
	uint8_t fl;
	int is0, better;

	if (!fits(p, h, &req))
		return 0;
	sc_msg_get(h, &t, &base, &sent, &fl);
	is0 = k->have0 && h->src == p->ch_p0 && h->tag == p->ch_t0 &&
	    h->comm == p->ch_c0;
	late = (k->have0 ? k->a0 : p->ch_t) - base;
	key = is0 || k->no0 || late < 0 ? t : t + late;
	lead = base > p->ch_t ? base - p->ch_t : 0;
	if (t - lead < k->minv)
		k->minv = t - lead;
	better = !k->found || key < k->key || (key == k->key &&
	    (is0 > k->is0 || (is0 == k->is0 && (base < k->base ||
	    (base == k->base && h->line < k->best.line)))));
	if (better) {
		k->found = 1;
		k->best = *h;
		k->key = key;
		k->is0 = is0;
		k->base = base;
		k->req = req;
	}
	return 0;
}

/* A pick of rank r, with the recorded message (message 0) looked up. */
static void
pick_start(struct trc_scale *s, const struct rank *p, int32_t r,
    struct pick *k)
{
	struct trc_msg m0;
	int64_t req, t, sent;
	uint8_t fl;

	memset(k, 0, sizeof(*k));
	k->p = p;
	k->minv = INT64_MAX;
	memset(&m0, 0, sizeof(m0));
	m0.src = p->ch_p0;
	m0.tag = p->ch_t0;
	m0.comm = p->ch_c0;
	if (!fits(p, &m0, &req))
		k->no0 = 1;	/* it can be none of the candidates */
	else if (trc_match_peek(s->mt, p->ch_p0, r, p->ch_t0, p->ch_c0, &m0)) {
		k->have0 = 1;
		sc_msg_get(&m0, &t, &k->a0, &sent, &fl);
	}
}

/* What rank i, waiting on a choice, would take now: in its pk_*. */
static void
pick(struct trc_scale *s, struct rank *p, int32_t i)
{
	struct pick k;

	pick_start(s, p, i, &k);
	(void)trc_match_heads(s->mt, i, pick_one, &k);
	p->pk_found = (uint8_t)k.found;
	p->pk_is0 = (uint8_t)k.is0;
	p->pk_key = k.key;
	p->pk_req = k.req;
	p->pk_msg = k.best;
	/* It ends no earlier than its arrival, nor than its own length. */
	p->pk_minv = s->mo->bound(s->ms, i, TRC_PHASE_RECV, p->tp,
	    p->ch_t > p->t ? p->ch_t - p->t : 0);
	if (k.minv > p->pk_minv)
		p->pk_minv = k.minv;
}

/* Rank p, waiting on a choice, takes message m for request req. */
static int
resolve(struct trc_scale *s, struct rank *p, const struct trc_msg *m,
    int64_t req)
{
	if (p->ch_kind == CH_RECV && trc_match_take(s->mt, m) < 0)
		return sc_nomem(s);
	p->rs.how = RS_CHOSEN;
	sc_msg_get(m, &p->rs.tp, &p->rs.base, &p->rs.sent, &p->rs.flags);
	p->rs.src = m->src;
	p->rs.tag = m->tag;
	p->rs.bytes = m->bytes;
	p->rs.req = req;
	return 0;
}

/*
 * A choice among receives (or a probe) of named sources and tags, as a
 * waitany on receives from given ranks: its candidates are the oldest
 * sends of their channels, and a message still to come leaves no
 * earlier than its sender's lower bound, so it is decided at once when
 * it can be, without looking at every channel.  Returns 1 when
 * decided (RS_CHOSEN), 0 when it must wait for sc_rematch(), -1 on error.
 */
int
sc_choose_now(struct trc_scale *s, int32_t r)
{
	struct rank *p = RK(s, r);
	const struct irecv *rv;
	struct trc_msg h;
	struct pick k;
	int64_t bound = INT64_MAX, lb;
	size_t j, n = p->ch_any ? p->nwl : 1;

	for (j = 0; j < n; j++) {
		rv = p->ch_any ? &p->wl[j] : &p->ch;
		if (!(p->ch_any && rv->done) && (rv->src < 0 || rv->tag < 0))
			return 0;
	}
	pick_start(s, p, r, &k);
	for (j = 0; j < n; j++) {
		rv = p->ch_any ? &p->wl[j] : &p->ch;
		if (p->ch_any && rv->done)
			continue;
		if (trc_match_peek(s->mt, rv->src, r, rv->tag, rv->comm, &h))
			(void)pick_one(&k, &h);
		else {
			if (!sc_rk_peek(s, rv->src)->seen)
				lb = s->timeorder ? s->tin : INT64_MIN;
			else
				lb = sc_lower_bound(s, RK(s, rv->src), rv->src, 1);
			if (lb < bound)
				bound = lb;
		}
	}
	/* A tie with a message still to come goes to the recorded one. */
	if (!k.found || k.key > bound || (k.key == bound && !k.is0))
		return 0;
	return resolve(s, p, &k.best, k.req) < 0 ? -1 : 1;
}

int
sc_rematch(struct trc_scale *s, int end)
{
	struct rank *p;
	int64_t m, lb, min1, min2, mw;
	size_t i, nfree;
	int32_t bi, i1, least;

	while (s->nwild > 0) {
		m = INT64_MAX;
		if (!end && (s->hdr_ranks == 0 ||
		    s->nseen < (size_t)s->hdr_ranks))
			m = s->timeorder ? s->tin : INT64_MIN;
		min1 = min2 = INT64_MAX;
		i1 = -1;
		nfree = 0;
		for (i = 0; i < s->nrk; i++) {
			RK_SKIP(s, i);
			p = RK(s, i);
			if (p->seen && p->blocked == RUN && p->hhead == NULL)
				nfree++;
			if (p->blocked == BLK_WILD) {
				pick(s, p, (int32_t)i);
				if (!p->pk_found)
					continue;
				if (p->pk_minv < min1) {
					min2 = min1;
					min1 = p->pk_minv;
					i1 = (int32_t)i;
				} else if (p->pk_minv < min2)
					min2 = p->pk_minv;
			} else if (p->seen) {
				lb = sc_lower_bound(s, p, (int32_t)i, 1);
				if (lb < m)
					m = lb;
			}
		}
		bi = least = -1;
		for (i = 0; i < s->nrk; i++) {
			RK_SKIP(s, i);
			p = RK(s, i);
			if (p->blocked != BLK_WILD || !p->pk_found)
				continue;
			/* Those that can take the recorded message first. */
			if (least < 0 || p->pk_is0 > RK(s, least)->pk_is0 ||
			    (p->pk_is0 == RK(s, least)->pk_is0 &&
			    p->pk_key < RK(s, least)->pk_key))
				least = (int32_t)i;
			mw = (int32_t)i == i1 ? min2 : min1;
			if (m < mw)
				mw = m;
			/* A tie with a message still to come goes to the
			 * recorded one. */
			if (p->pk_key > mw || (p->pk_key == mw && !p->pk_is0))
				continue;
			if (bi < 0 || p->pk_key < RK(s, bi)->pk_key)
				bi = (int32_t)i;
		}
		/* Every rank waits: the earliest choice lets them go. */
		if (bi < 0 && (end || (nfree == 0 && s->hdr_ranks > 0 &&
		    s->nseen >= (size_t)s->hdr_ranks)))
			bi = least;
		if (bi < 0)
			return 0;
		p = RK(s, bi);
		if (resolve(s, p, &p->pk_msg, p->pk_req) < 0 ||
		    sc_wake(s, bi) < 0 || sc_resume(s) < 0)
			return -1;
	}
	return 0;
}
