/*
 * send.c - sends: a send's end puts its message into the match table
 * with its arrival, or for one the model hands over, the earliest it
 * can leave, its blocking sender held until its receiver is ready.
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
int
sc_physical(struct trc_scale *s, const struct trc_event *ev, const char *key,
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
	mp->away = 0;
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
 * Whether the model learns from ev, a call of mp's (trc_model_ops'
 * learn): one after TRC_COLD_NS of computation, a call of its own (not
 * the half of an MPI_Sendrecv, op=, which the tracer writes as points
 * inside its wait).
 */
int
sc_learns(const struct trc_scale *s, const struct trc_event *ev,
    const struct trc_p2p *mp)
{
	return s->mo->learn != NULL && mp->idle >= TRC_COLD_NS &&
	    ev->op.len == 0;
}

/*
 * The transfer of an SE, in *x: the model's send after its SB, or with
 * no SB, the computation it ends, the message leaving at its end.
 */
static int
send_xfer(struct trc_scale *s, int32_t r, const struct trc_event *ev,
    int64_t base, int64_t d, const struct trc_p2p *mp, struct trc_xfer *x)
{
	struct rank *p = RK(s, r);

	if (p->state != SEND) {
		if (sc_comp(s, r, base, d, ev->line, &x->end) < 0)
			return -1;
		x->depart = x->arrive = x->end;
		x->base = ev->t;
		x->rdv = 0;
	} else if ((sc_learns(s, ev, mp) && s->mo->learn(s->ms, mp,
	    mp->nonblocking ? TRC_LEARN_ISEND : TRC_LEARN_SEND,
	    ev->t - p->t) < 0) ||
	    s->mo->send(s->ms, mp, base, p->t, ev->t, x) < 0)
		return sc_fail(s, ev->line, "%s", s->mo->error(s->ms));
	sc_clamp_xfer(x);
	if (ev->peer < 0 || ev->tag < 0)
		return sc_fail(s, ev->line, "send without peer= and tag=");
	/* Where the trace knows when the message left, the base model
	 * need not guess. */
	if (sc_physical(s, ev, "depart", &x->base) < 0)
		return -1;
	/*
	 * Re-timed with the recorded costs (trc-perturb), a receive keeps
	 * whatever lead the recording gives it over its send's end
	 * (lead_of), protocol or skew, so that no delay moves nothing.
	 */
	if (s->conf.rematch)
		x->base = ev->t;
	if (x->base > TRC_TIME_MAX)
		return sc_past_clock(s, ev->line, "depart= time");
	if ((x->rdv ? x->depart : x->arrive) > TRC_TIME_MAX)
		return sc_past_clock(s, ev->line, "predicted arrival");
	return 0;
}

/*
 * The message of an SE into the match table: 1 with the receive that
 * waited for it in *peer, 0 when it waits there itself, -1 on error.
 * A choice waiting at its receiver, which it may be a candidate for, is
 * tried at once.
 */
static int
send_post(struct trc_scale *s, int32_t r, const struct trc_event *ev,
    const struct trc_xfer *x, unsigned flags, struct trc_msg *peer)
{
	struct trc_msg m;
	int rc;

	memset(&m, 0, sizeof(m));
	m.src = r;
	m.dst = ev->peer;
	m.tag = ev->tag;
	m.comm = ev->comm;
	m.bytes = sc_bytes_of(ev);
	m.line = ev->line;
	sc_msg_put(&m, x->rdv ? x->depart : x->arrive, x->base, ev->t, flags);
	if ((rc = trc_match_send(s->mt, &m, peer)) < 0)
		return sc_nomem(s);
	if (rc == 0 && trc_match_pending(s->mt) > s->msgmax)
		return sc_too_many(s);
	if (rc == 0 && s->conf.rematch &&
	    sc_rk_peek(s, ev->peer)->blocked == BLK_WILD) {
		if ((rc = sc_choose_now(s, ev->peer)) < 0 ||
		    (rc == 1 && sc_wake(s, ev->peer) < 0))
			return -1;
		rc = 0;
	}
	return rc;
}

/*
 * The receive at peer->dst waited for this send: it resumes, its
 * message resolved.  One the model hands over leaves from the
 * receive's begin, its RE held; a blocking send then ends with it, at
 * *end.
 */
static int
send_to_waiting(struct trc_scale *s, const struct trc_msg *peer,
    const struct trc_p2p *mp, struct trc_xfer *x, unsigned flags,
    int64_t sent, int64_t *end)
{
	struct rank *q;

	if ((q = sc_getrank(s, peer->dst)) == NULL)
		return sc_nomem(s);
	if (x->rdv) {
		sc_handover(s, mp, q->tp + (q->hhead != NULL ?
		    q->hhead->delay : 0), q->idle, x, (flags & MSG_HELD) != 0);
		if (flags & MSG_HELD)
			*end = x->end;
	}
	q->rs.how = RS_SENT;
	q->rs.tp = x->arrive;
	q->rs.bytes = mp->bytes;
	q->rs.base = x->base;
	q->rs.sent = sent;
	q->rs.flags = 0;
	return sc_wake(s, peer->dst);
}

/*
 * A blocking eager send from begin to end: the rank's half of an
 * eager exchange (xsend) when a receive of its peer's is posted.
 */
static void
xsend_note(struct rank *p, const struct trc_event *ev, int64_t begin,
    int64_t end)
{
	size_t i;

	for (i = 0; i < p->nir; i++)
		if (p->ir[i].src == ev->peer && p->ir[i].comm == ev->comm)
			break;
	if (i == p->nir)
		return;
	p->xs.sent = ev->t;
	p->xs.begin = begin;
	p->xs.end = end;
	p->xs.dst = ev->peer;
	p->xs.on = 1;
}

/*
 * SE: the send's end, and its message into the match table.  A
 * blocking send the model hands over (MSG_HELD) whose receive has not
 * been read is held until it is; resumed, its receive has set its end.
 */
int
sc_send_end(struct trc_scale *s, int32_t r, const struct trc_event *ev,
    int64_t base, int64_t d, int64_t *tp)
{
	struct rank *p = RK(s, r);
	struct trc_msg peer;
	struct trc_p2p mp;
	struct trc_xfer x;
	unsigned flags = 0;
	int64_t end;
	int rc;

	if (p->sync.state == SYNC_DONE) {
		*tp = p->sync.x.end;
		p->sync.state = SYNC_NONE;
		p->state = COMP;
		return 0;
	}
	sc_p2p_of(&mp, r, ev->peer, ev);
	mp.idle = p->idle_now;
	mp.away = p->state == SEND && p->away_t == (uint32_t)p->t && p->away;
	s->st.away += (unsigned)mp.away;
	if (send_xfer(s, r, ev, base, d, &mp, &x) < 0)
		return -1;
	if (x.rdv)
		flags = MSG_RDV | (mp.nonblocking ? 0 : MSG_HELD);
	if ((rc = send_post(s, r, ev, &x, flags, &peer)) < 0)
		return -1;
	end = x.end;
	if (rc == 1) {
		if (send_to_waiting(s, &peer, &mp, &x, flags, ev->t, &end) < 0)
			return -1;
	} else if (flags & MSG_HELD) {
		p->sync.state = SYNC_WAIT;
		p->sync.x = x;
		p->sync.dst = ev->peer;
		p->sync.tag = ev->tag;
		p->sync.comm = ev->comm;
		p->blocked = BLK_SYNC;
		s->nsyncw++;
		return 1;
	}
	if (mp.nonblocking && sc_isend_put(s, p, ev->req, mp.bytes) < 0)
		return -1;
	if (!mp.nonblocking && !x.rdv && p->state == SEND)
		xsend_note(p, ev, base, end);
	p->state = COMP;
	*tp = end;
	return 0;
}

