/*
 * output.c - the output: each event queued at its predicted time as it
 * is processed (trc_reorder.h), and written once the watermark, the
 * least predicted time any rank may still produce, has passed it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "trc_reorder.h"
#include "scale.h"

/*
 * Format e at tp into a new record, with t0= the time of ev (e itself
 * or a copy of it with other values).
 */
int
sc_emit(struct trc_scale *s, const struct trc_event *ev,
    const struct trc_event *e, int64_t tp)
{
	/* t0= would be one attribute more than a stream may hold. */
	if (e->nattr >= TRC_MAXATTR && trc_attr_get(e, "t0") == NULL)
		return sc_fail(s, ev->line, "%d attributes: no room for t0= "
		    "(at most %d)", e->nattr, TRC_MAXATTR);
	if (trc_reorder_put(s->out, e, tp, ev->t) < 0)
		return sc_nomem(s);
	s->st.maxqueued = trc_reorder_peak(s->out);
	return 0;
}

/* An event a choice changed: with the new values of rw. */
int
sc_emit_rewritten(struct trc_scale *s, const struct trc_event *ev,
    const struct rewrite *rw, int64_t tp)
{
	struct trc_event copy;
	char nbuf[3][24];
	int i;

	/* Only the values change: a shallow copy will do. */
	memcpy(&copy, ev, sizeof(copy));
	for (i = 0; i < copy.nattr; i++) {
		struct trc_str *k = &copy.attr[i].key, *v = &copy.attr[i].val;

		if (k->len == 4 && memcmp(k->s, "peer", 4) == 0 &&
		    (rw->what & RW_PEER)) {
			v->len = trc_format_int(nbuf[0], rw->peer);
			v->s = nbuf[0];
		} else if (k->len == 3 && memcmp(k->s, "tag", 3) == 0 &&
		    (rw->what & RW_TAG)) {
			v->len = trc_format_int(nbuf[1], rw->tag);
			v->s = nbuf[1];
		} else if (k->len == 5 && memcmp(k->s, "bytes", 5) == 0 &&
		    (rw->what & RW_BYTES)) {
			v->len = trc_format_int(nbuf[2], rw->bytes);
			v->s = nbuf[2];
		} else if (k->len == 3 && memcmp(k->s, "req", 3) == 0 &&
		    (rw->what & RW_REQS))
			*v = rw->reqs;
	}
	return sc_emit(s, ev, &copy, tp);
}

/* Write the output queued before wm. */
int
sc_release(struct trc_scale *s, int64_t wm)
{
	switch (trc_reorder_release(s->out, wm)) {
	case 0:
		return 0;
	case -1:
		return sc_nomem(s);
	}
	snprintf(s->err, sizeof(s->err), "%s: %s", s->outname,
	    trc_werror(s->w));
	s->failed = 1;
	return -1;
}

/*
 * The least predicted time at which a message for receive rv of rank
 * dst can leave: its channel's oldest queued send, or else the
 * sender's own lower bound.
 */
static int64_t
msg_bound(struct trc_scale *s, int32_t dst, const struct irecv *rv)
{
	struct trc_msg m;

	if (rv->src < 0 || rv->tag < 0)
		return INT64_MIN;
	if (trc_match_peek(s->mt, rv->src, dst, rv->tag, rv->comm, &m))
		return m.val;
	if (!sc_rk_peek(s, rv->src)->seen)
		return s->timeorder ? s->tin : INT64_MIN;
	return sc_lower_bound(s, RK(s, rv->src), rv->src, 0);
}

/*
 * The least predicted time rank i may still produce.  In a time-ordered
 * stream no rank's next event is earlier than tin, the time of the last
 * event read, so the interval a rank is in has lasted at least tin - t,
 * and the model bounds its end from that (a computation interval no
 * earlier than tp + K (tin - t), say); an event inside a call, which
 * keeps its interval, comes no earlier than tp + (tin - t).  A receive
 * completion comes no earlier than its message's arrival either: deep
 * looks at the senders of the receives the rank has posted.  A
 * collective ends no earlier than the latest predicted begin so far,
 * a nonblocking one too, inside a wait.
 */
int64_t
sc_lower_bound(struct trc_scale *s, struct rank *p, int32_t i, int deep)
{
	int64_t tp = p->tp, dt = s->tin - p->t, in, re, mb, m;
	size_t j;

	if (p->hhead != NULL || p->blocked != RUN)
		return tp;
	if (!s->timeorder || dt < 0)
		dt = 0;
	in = tp + dt;
	switch (p->state) {
	case COMP:
		/* CPU time and polls may make it shorter than recorded. */
		if (s->compflags != 0)
			return tp;
		return s->mo->bound(s->ms, i, TRC_PHASE_COMP, tp, dt);
	case SEND:
		return s->mo->bound(s->ms, i, TRC_PHASE_SEND, tp, dt);
	case COLL:
		m = p->coll != NULL && p->coll->val > tp ? p->coll->val : tp;
		return m < in ? m : in;
	case RECV:
	case WAIT:
		if (p->state == WAIT && p->nnb > 0) {
			/*
			 * An XE req= in the wait ends no earlier than its
			 * collective's latest begin so far, nor than tp,
			 * and may end before the time read.
			 */
			for (m = INT64_MAX, j = 0; j < p->nnb; j++)
				if (p->nb[j].c->val < m)
					m = p->nb[j].c->val;
			if (m < tp)
				m = tp;
			if (m < in)
				in = m;
		}
		re = s->mo->bound(s->ms, i, TRC_PHASE_RECV, tp, dt);
		if (re >= in || !deep)
			return re < in ? re : in;
		if (p->state == RECV)
			mb = msg_bound(s, i, &p->rb);
		else if (p->wcur >= p->nwl)
			/* No receive left: the WE, no earlier than the model
			 * bounds it (a wait on sends may be scaled shorter
			 * than the time it has lasted, fit_wait). */
			mb = re;
		else
			for (mb = INT64_MAX, j = p->wcur; j < p->nwl && mb > re;
			    j++) {
				if ((m = msg_bound(s, i, &p->wl[j])) < mb)
					mb = m;
				/*
				 * In a wait that completes them all, the
				 * next RE is the next receive's of its req=
				 * list (trc(5)): the others' messages do not
				 * bound it.
				 */
				if (p->wall)
					break;
			}
		if (mb > re)
			re = mb;
		return re < in ? re : in;
	}
	return tp;
}

/*
 * Rank i is about to be bounded: fetch the channel msg_bound() will
 * look at, a cache miss each with thousands of ranks.
 */
static void
prefetch_bound(struct trc_scale *s, size_t i)
{
	const struct rank *p = RK(s, i);
	const struct irecv *rv;

	if (!p->seen || p->hhead != NULL || p->blocked != RUN)
		return;
	if (p->state == RECV)
		rv = &p->rb;
	else if (p->state == WAIT && p->wcur < p->nwl)
		rv = &p->wl[p->wcur];
	else
		return;
	if (rv->src >= 0 && rv->tag >= 0)
		trc_match_prefetch(s->mt, rv->src, (int32_t)i, rv->tag,
		    rv->comm);
}

#define PFDIST	8	/* ranks ahead */

/* The least predicted time any rank may still produce. */
int64_t
sc_watermark(struct trc_scale *s)
{
	int64_t wm = INT64_MAX, lb;
	size_t i;

	if (s->hdr_ranks == 0 || s->nseen < (size_t)s->hdr_ranks) {
		if (!s->timeorder)
			return INT64_MIN;
		wm = s->tin;
	}
	for (i = 0; i < s->nrk && i < PFDIST; i++)
		if (RK_AT(s, i) != NULL)
			prefetch_bound(s, i);
	for (i = 0; i < s->nrk; i++) {
		RK_SKIP(s, i);
		if (i + PFDIST < s->nrk && RK_AT(s, i + PFDIST) != NULL)
			prefetch_bound(s, i + PFDIST);
		if (!RK(s, i)->seen)
			continue;
		lb = sc_lower_bound(s, RK(s, i), (int32_t)i, 1);
		if (lb < wm)
			wm = lb;
	}
	return wm;
}
