/*
 * p2p.c - point to point: a send's end puts its message into the match
 * table, a receive completion takes it, no earlier than it arrives (the
 * causality repair); a message the model hands over leaves when its
 * receiver is ready, its blocking sender held until then.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "scale.h"

/*
 * A recorded time from attribute key (6 letters) of ev: depart= of an
 * SE, arrive= of an RE, physical times some formats hold.  In *t: 0,
 * 1 when there is none, -1 when it is invalid.
 */
static int
physical(struct trc_scale *s, const struct trc_event *ev, const char *key,
    int64_t *t)
{
	const struct trc_str *v;
	int i;

	/* Asked of every message: no strlen, lengths first. */
	for (i = 0; i < ev->nattr; i++)
		if (ev->attr[i].key.len == 6 &&
		    memcmp(ev->attr[i].key.s, key, 6) == 0)
			break;
	if (i == ev->nattr)
		return 1;
	v = &ev->attr[i].val;
	if (trc_parse_time(v->s, v->len, t) < 0)
		return sc_fail(s, ev->line, "invalid %s '%.*s'", key, (int)v->len,
		    v->s);
	return 0;
}

void
sc_p2p_of(struct trc_p2p *mp, int32_t src, int32_t dst,
    const struct trc_event *ev)
{
	mp->src = src;
	mp->dst = dst;
	mp->tag = ev->tag;
	mp->comm = ev->comm;
	mp->bytes = ev->bytes > 0 ? ev->bytes : 0;
	mp->nonblocking = ev->req != TRC_NONE;
	mp->idle = 0;
}

/* The posting of the receive of request req, or NULL. */
struct irecv *
sc_find_irecv(struct rank *p, int64_t req)
{
	size_t i;

	for (i = 0; i < p->nir; i++)
		if (p->ir[i].req == req)
			return &p->ir[i];
	return NULL;
}

static void
forget_irecv(struct rank *p, int64_t req)
{
	size_t i;

	for (i = 0; i < p->nir; i++)
		if (p->ir[i].req == req) {
			p->ir[i] = p->ir[--p->nir];
			return;
		}
}

/* SB: its SE's channel is fetched while other ranks run. */
void
sc_send_begin(struct trc_scale *s, int32_t r, const struct trc_event *ev)
{
	RK(s, r)->state = SEND;
	if (ev->peer >= 0 && ev->tag >= 0)
		trc_match_prefetch(s->mt, r, ev->peer, ev->tag, ev->comm);
}

/*
 * RB: a receive posted, blocking (the rank's rb) or not (in its ir
 * list), in the rank's posting order.
 */
int
sc_recv_begin(struct trc_scale *s, int32_t r, const struct trc_event *ev,
    struct rewrite *rw)
{
	struct rank *p = RK(s, r);
	struct irecv rv;

	rv.req = ev->req;
	rv.seq = p->nextseq++;
	rv.src = ev->peer;
	rv.tag = ev->tag;
	rv.comm = ev->comm;
	rv.done = 0;
	if (p->pr_on && ev->comm == p->pr_comm &&
	    ev->peer == p->pr_p0 && ev->tag == p->pr_t0) {
		/* For the message a probe saw otherwise: from its
		 * sender, with its tag. */
		rv.src = p->pr_src;
		rv.tag = p->pr_tag;
		rw->what |= RW_PEER | RW_TAG;
		rw->peer = rv.src;
		rw->tag = rv.tag;
	}
	if (ev->req == TRC_NONE) {
		p->state = RECV;
		p->rb = rv;
		return 0;
	}
	if (sc_grow(&p->ir, &p->ircap, p->nir + 1, sizeof(*p->ir), 4) < 0)
		return sc_nomem(s);
	p->ir[p->nir++] = rv;
	return 0;
}

/* SE: the send's end, and its message into the match table. */
int
sc_send_end(struct trc_scale *s, int32_t r, const struct trc_event *ev,
    int64_t base, int64_t d, int64_t *tp)
{
	struct rank *p = RK(s, r), *q;
	struct trc_msg m, peer;
	struct trc_p2p mp;
	struct trc_xfer x;
	unsigned flags = 0;
	int64_t end;
	int rc;

	if (p->sync == SYNC_DONE) {
		/* Resumed: its receive has set its end. */
		*tp = p->sync_x.end;
		p->sync = SYNC_NONE;
		p->state = COMP;
		return 0;
	}
	sc_p2p_of(&mp, r, ev->peer, ev);
	mp.idle = p->idle_now;
	if (p->state != SEND) {
		/* No SB: the interval is computation, and the message
		 * leaves at its end. */
		if (sc_comp(s, r, base, d, ev->line, &x.end) < 0)
			return -1;
		x.depart = x.arrive = x.end;
		x.base = ev->t;
		x.rdv = 0;
	} else if (s->mo->send(s->ms, &mp, base, p->t, ev->t, &x) < 0)
		return sc_fail(s, ev->line, "%s", s->mo->error(s->ms));
	sc_clamp_xfer(&x);
	if (ev->peer < 0 || ev->tag < 0)
		return sc_fail(s, ev->line, "send without peer= and tag=");
	/* Where the trace knows when the message left, the base model
	 * need not guess. */
	if (physical(s, ev, "depart", &x.base) < 0)
		return -1;
	/*
	 * Re-timed with the recorded costs (trc-perturb), a receive keeps
	 * whatever lead the recording gives it over its send's end
	 * (lead_of), protocol or skew, so that no delay moves nothing.
	 */
	if (s->conf.rematch)
		x.base = ev->t;
	if (x.base > TRC_TIME_MAX)
		return sc_past_clock(s, ev->line, "depart= time");
	if ((x.rdv ? x.depart : x.arrive) > TRC_TIME_MAX)
		return sc_past_clock(s, ev->line, "predicted arrival");
	if (x.rdv)
		flags = MSG_RDV | (mp.nonblocking ? 0 : MSG_HELD);
	memset(&m, 0, sizeof(m));
	m.src = r;
	m.dst = ev->peer;
	m.tag = ev->tag;
	m.comm = ev->comm;
	m.bytes = mp.bytes;
	m.line = ev->line;
	sc_msg_put(&m, x.rdv ? x.depart : x.arrive, x.base, flags);
	if ((rc = trc_match_send(s->mt, &m, &peer)) < 0)
		return sc_nomem(s);
	if (rc == 0 && trc_match_pending(s->mt) > s->msgmax)
		return sc_too_many(s);
	if (rc == 0 && s->conf.rematch &&
	    sc_rk_peek(s, ev->peer)->blocked == BLK_WILD) {
		/* A candidate for a choice waiting there: try it now. */
		if ((rc = sc_choose_now(s, ev->peer)) < 0 ||
		    (rc == 1 && sc_wake(s, ev->peer) < 0))
			return -1;
		p = RK(s, r);
		rc = 0;
	}
	end = x.end;
	if (rc == 1) {
		/* A receive was waiting for this send: resume it. */
		if ((q = sc_getrank(s, peer.dst)) == NULL)
			return sc_nomem(s);
		p = RK(s, r);
		if (x.rdv) {
			/* Handed over from its receive's begin, RE held. */
			sc_handover(s, &mp, q->tp + (q->hhead != NULL ?
			    q->hhead->delay : 0), &x, (flags & MSG_HELD) != 0);
			if (flags & MSG_HELD)
				end = x.end;
		}
		q->resolved = 1;
		q->rs_tp = x.arrive;
		q->rs_bytes = mp.bytes;
		q->rs_base = x.base;
		q->rs_flags = 0;
		if (sc_wake(s, peer.dst) < 0)
			return -1;
	} else if (flags & MSG_HELD) {
		/* Held until the receive is read. */
		p->sync = SYNC_WAIT;
		p->sync_x = x;
		p->sync_dst = ev->peer;
		p->sync_tag = ev->tag;
		p->sync_comm = ev->comm;
		p->blocked = BLK_SYNC;
		s->nsyncw++;
		return 1;
	}
	if (mp.nonblocking && sc_isend_put(s, p, ev->req, mp.bytes) < 0)
		return -1;
	p->state = COMP;
	*tp = end;
	return 0;
}

/*
 * How much earlier than its message the recording has a receive (or a
 * probe) end at time t: clock skew, or a send whose end the recording
 * puts after its receive.  Re-timing with the recorded costs keeps it
 * for the message recorded (same), so that no delay moves nothing;
 * trc-scale (no rematch) does not.
 */
int64_t
sc_lead_of(const struct trc_scale *s, const struct rank *p, int64_t t, int same)
{
	return s->conf.rematch && same && p->rs_base > t ? p->rs_base - t : 0;
}

/* RE: a receive completes, no earlier than its message arrives. */
int
sc_recv_end(struct trc_scale *s, int32_t r, const struct trc_event *ev,
    int64_t base, int64_t d, int64_t *tp, struct rewrite *rw)
{
	struct rank *p = RK(s, r);
	struct trc_msg m, peer;
	struct trc_p2p mp;
	struct trc_xfer x;
	int64_t want, ready, arrive = ev->t, req = ev->req, act, lead;
	int32_t src, tag;
	long wl = -1;
	size_t j;
	int rc, held, forced, chosen;

	if (p->state == WAIT)
		p->wrecv = 1;
	if (req != TRC_NONE && s->conf.rematch)
		req = sc_map_req(p, req);
	if (p->state == WAIT && req != TRC_NONE && p->nwl > 0 &&
	    !(s->conf.rematch && !p->wall) &&
	    (wl = sc_wait_next(s, p, ev, req)) == -2)
		return -1;
	/* The receive of a message a probe saw otherwise takes that one. */
	forced = s->conf.rematch && p->pr_on && ev->peer == p->pr_p0 &&
	    ev->tag == p->pr_t0 && ev->comm == p->pr_comm;
	if (!p->resolved && s->conf.rematch && !forced &&
	    (rc = sc_choice_recv(s, p, ev, req)) != 0 && rc != 2)
		return rc;
	p = RK(s, r);
	src = forced ? p->pr_src : ev->peer;
	tag = forced ? p->pr_tag : ev->tag;
	if (!p->resolved) {
		if (src < 0 || tag < 0)
			return sc_fail(s, ev->line, "receive completion "
			    "without actual peer= and tag=");
		memset(&m, 0, sizeof(m));
		m.src = src;
		m.dst = r;
		m.tag = tag;
		m.comm = ev->comm;
		m.bytes = sc_bytes_of(ev);
		m.line = ev->line;
		if ((rc = trc_match_recv(s->mt, &m, &peer)) < 0)
			return sc_nomem(s);
		if (rc == 0 && trc_match_pending(s->mt) > s->msgmax)
			return sc_too_many(s);
		if (rc == 0) {
			p->blocked = BLK_RECV;
			return 1;
		}
		sc_msg_get(&peer, &p->rs_tp, &p->rs_base, &p->rs_flags);
		p->rs_bytes = peer.bytes;
	}
	chosen = p->resolved == 2;
	if (chosen) {
		src = p->rs_src;
		tag = p->rs_tag;
	}
	if (chosen || forced) {
		rw->what |= RW_PEER | RW_TAG | RW_BYTES;
		rw->peer = src;
		rw->tag = tag;
		rw->bytes = p->rs_bytes;
		if (src != ev->peer || tag != ev->tag)
			s->st.rematched++;
		if (forced)
			p->pr_on = 0;
	}
	if (physical(s, ev, "arrive", &arrive) < 0)
		return -1;
	act = chosen && p->rs_req != TRC_NONE ? p->rs_req : req;
	if (act != TRC_NONE) {
		forget_irecv(p, act);
		if (s->conf.rematch) {
			for (j = 0; j < p->nwl; j++)
				if (p->wl[j].req == act)
					p->wl[j].done = 1;
			if (sc_complete_req(s, p, ev->req, act) < 0)
				return -1;
			if (act != ev->req) {
				if (sc_grow(&s->lbuf, &s->lcap, 24, 1, 64) < 0)
					return sc_nomem(s);
				rw->what |= RW_REQS;
				rw->reqs.s = s->lbuf;
				rw->reqs.len = trc_format_int(s->lbuf, act);
			}
		}
	}
	p->resolved = 0;
	/* Received before it left, on the base: the clocks disagree. */
	if (arrive < p->rs_base && !chosen && !forced)
		s->st.skew++;
	sc_p2p_of(&mp, src, r, ev);
	mp.tag = tag;
	mp.idle = p->idle_now;
	if (p->state == COMP) {	/* no RB or WB before it */
		if (sc_comp(s, r, base, d, ev->line, &want) < 0)
			return -1;
	} else
		want = s->mo->recv(s->ms, &mp, base, d);
	if (p->rs_flags & MSG_RDV) {
		/* Handed over from the receive's begin. */
		held = (p->rs_flags & MSG_HELD) && src >= 0 &&
		    sc_rk_peek(s, src)->sync == SYNC_WAIT;
		ready = p->state == COMP ? want - s->mo->recv(s->ms, &mp, 0, 0) :
		    base;
		if (held)
			x = RK(s, src)->sync_x;
		else {
			x.end = x.depart = x.arrive = p->rs_tp;
			x.base = p->rs_base;
		}
		sc_handover(s, &mp, ready, &x, held);
		p->rs_tp = x.arrive;
		p->rs_flags = 0;
		if (held) {
			if (sc_sync_done(s, src, x.end) < 0)
				return -1;
			p = RK(s, r);
		}
	}
	if (p->rs_tp > TRC_TIME_MAX)
		return sc_past_clock(s, ev->line, "predicted arrival");
	*tp = want;
	lead = sc_lead_of(s, p, arrive, src == ev->peer && tag == ev->tag);
	if (p->rs_tp - lead > *tp) {
		s->st.repaired++;
		s->st.repair_ns = trc_time_add(s->st.repair_ns,
		    p->rs_tp - lead - *tp);
		*tp = p->rs_tp - lead;
	}
	if (p->state == RECV)
		p->state = COMP;
	if (wl >= 0)
		p->wcur = (size_t)wl + 1;
	if (p->wcur < p->nwl && p->wl[p->wcur].src >= 0)
		/* The next RE's channel, while other ranks run. */
		trc_match_prefetch(s->mt, p->wl[p->wcur].src, r,
		    p->wl[p->wcur].tag, p->wl[p->wcur].comm);
	return 0;
}
