/*
 * recv.c - receives: posted in order, and completed no earlier than
 * their message arrives (the causality repair).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "scale.h"

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
	if (trc_grow(&p->ir, &p->ircap, p->nir + 1, sizeof(*p->ir), 4) < 0)
		return sc_nomem(s);
	p->ir[p->nir++] = rv;
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
	return s->conf.rematch && same && p->rs.base > t ? p->rs.base - t : 0;
}

/*
 * The message of an RE from src with tag, when none is resolved for
 * it: in the rank's rs, 0; 1 when not sent yet (the rank waits); -1.
 */
static int
recv_match(struct trc_scale *s, int32_t r, const struct trc_event *ev,
    int32_t src, int32_t tag)
{
	struct rank *p = RK(s, r);
	struct trc_msg m, peer;
	int rc;

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
	sc_msg_get(&peer, &p->rs.tp, &p->rs.base, &p->rs.sent, &p->rs.flags);
	p->rs.bytes = peer.bytes;
	return 0;
}

/*
 * Request act (of the prediction) completes at an RE whose recording
 * names ev->req: its receive is posted no more; with rematch it is done
 * in its wait's list, and the RE's req= names it when it is another.
 */
static int
recv_req_done(struct trc_scale *s, struct rank *p, const struct trc_event *ev,
    int64_t act, struct rewrite *rw)
{
	size_t j;

	forget_irecv(p, act);
	if (!s->conf.rematch)
		return 0;
	for (j = 0; j < p->nwl; j++)
		if (p->wl[j].req == act)
			p->wl[j].done = 1;
	if (sc_complete_req(s, p, ev->req, act) < 0)
		return -1;
	if (act != ev->req) {
		if (trc_grow(&s->lbuf, &s->lcap, 24, 1, 64) < 0)
			return sc_nomem(s);
		rw->what |= RW_REQS;
		rw->reqs.s = s->lbuf;
		rw->reqs.len = trc_format_int(s->lbuf, act);
	}
	return 0;
}

/*
 * A message the model hands over (MSG_RDV) to this receive, ready at
 * its begin: base, or with no RB or WB before it, its end want less
 * the receive's own length.  Its arrival goes to rs.tp, and its sender,
 * when held for it, is let go.
 */
static int
recv_handover(struct trc_scale *s, struct rank *p, const struct trc_p2p *mp,
    int64_t base, int64_t want)
{
	struct trc_xfer x;
	int64_t ready;
	int held;

	held = (p->rs.flags & MSG_HELD) && mp->src >= 0 &&
	    sc_rk_peek(s, mp->src)->sync.state == SYNC_WAIT;
	ready = p->state == COMP ? want - s->mo->recv(s->ms, mp, 0, 0) : base;
	if (held)
		x = RK(s, mp->src)->sync.x;
	else {
		x.end = x.depart = x.arrive = p->rs.tp;
		x.base = p->rs.base;
	}
	sc_handover(s, mp, ready, mp->idle, &x, held);
	p->rs.tp = x.arrive;
	p->rs.flags = 0;
	if (held && sc_sync_done(s, mp->src, x.end) < 0)
		return -1;
	return 0;
}

/*
 * The arrival of mp, taken by rank r in a wait that began at base, when
 * the two are an eager exchange: each rank posted the receive of the
 * other's message and then sent its own eagerly (xsend), the two sends
 * at once, so that each rank's progress, in its send and then its
 * wait, took the other's message as it came: the model's exchange_wait
 * (TCP loopback at 35 KB: both done 9 to 10 us after the later begin,
 * where a lone message takes 15).  0 with it in *t; 1 when they are no
 * such exchange, the model has no cost for it, or the wait began after
 * it was over (the message waits there for the wait's own cost).
 */
static int
xwait_arrival(struct trc_scale *s, int32_t r, const struct trc_p2p *mp,
    int64_t base, int64_t *t)
{
	const struct rank *p = RK(s, r), *q;	/* q: never NULL (sc_rk_peek) */
	int64_t late;

	if (s->mo->exchange_wait == NULL || s->cores.ncores > 0 ||
	    p->state != WAIT || p->rs.flags != 0 || !p->xs.on ||
	    p->xs.dst != mp->src || !(q = sc_rk_peek(s, mp->src))->xs.on ||
	    q->xs.dst != r || q->xs.sent != p->rs.sent ||
	    q->xs.begin >= p->xs.end || p->xs.begin >= q->xs.end)
		return 1;
	if ((*t = s->mo->exchange_wait(s->ms, mp, p->xs.begin,
	    q->xs.begin)) < 0)
		return 1;
	if (p->xs.begin > q->xs.begin &&
	    (late = s->mo->recv(s->ms, mp, p->xs.end, 0)) > *t) {
		*t = late;
		if (late > base)
			s->st.xlate++;
	}
	return *t <= base;
}

/*
 * A blocking receive of mp begun at base finds its sender's next
 * message to the rank there too when the sender began it (a send to
 * the rank, or a collective on the message's communicator or the
 * world) after mp's send ended and no later than base: MPI's progress
 * in the receive takes every message there, and the call that receives
 * that one then finds it done (Open MPI over TCP, make bench-behind:
 * 5.3 us against 2.2, the next message's receive then 0.06 us).  The
 * model's receive of the next message, warm, moves from that call to
 * this one (took_ns).  Only the sender's latest such call so far in
 * the input is known: one read after the receive is not seen.
 */
static int64_t
recv_take(struct trc_scale *s, struct rank *p, const struct trc_p2p *mp,
    int64_t base)
{
	const struct next_msg *nx = &sc_rk_peek(s, mp->src)->nx;
	struct trc_p2p next;
	int64_t ns;

	if (nx->t <= p->rs.sent || nx->tp > base ||
	    (nx->dst >= 0 ? nx->dst != mp->dst :
	    nx->comm != 0 && nx->comm != mp->comm))
		return 0;
	next = *mp;
	next.tag = -1;
	next.comm = nx->comm;
	next.bytes = nx->bytes;
	next.idle = 0;
	if ((ns = s->mo->recv(s->ms, &next, 0, 0)) <= 0)
		return 0;
	p->took_ns = ns;
	p->took_src = mp->src;
	p->took_coll = nx->dst < 0;
	s->st.took++;
	return ns;
}

/*
 * A blocking receive begun at base may take its sender's next message
 * too (recv_take) when the sender begins it first in the prediction,
 * though later in the input: over shared memory heat's rank 0 begins
 * its allreduce after rank 1's halo receive ended (its send waited for
 * it), over TCP before it in a fifth of the steps, which then take
 * 10 us against 3.5.  While the sender computes or sends, its next
 * event possibly before base, and it has begun no call that sends
 * since mp, the receive waits (BLK_TAKE): until the sender's next
 * event can be no earlier than base (sc_lower_bound, from the input
 * read so far), it begins such a call, it waits itself, or the input
 * ends (sc_take_release).  1 when it waits, else 0.
 */
static int
take_hold(struct trc_scale *s, int32_t r, struct rank *p,
    const struct trc_event *ev, int32_t src, int64_t base)
{
	struct rank *q;

	if (p->take_seen) {
		p->take_seen = 0;
		return 0;
	}
	if (p->state != RECV || ev->req != TRC_NONE || p->rs.flags != 0 ||
	    src == r ||
	    (q = sc_getrank(s, src)) == NULL || !q->seen ||
	    (q->state != COMP && q->state != SEND) ||
	    q->blocked != RUN || q->hhead != NULL || q->nx.t > p->rs.sent ||
	    sc_lower_bound(s, q, src, 0) >= base)
		return 0;
	p->rs.how = RS_SENT;	/* matched: not again when it goes on */
	p->take_base = base;
	p->take_next = q->takew;
	q->takew = r + 1;
	p->blocked = BLK_TAKE;
	s->ntakew++;
	s->st.takeheld++;
	return 1;
}

int
sc_take_release(struct trc_scale *s, int32_t q, int blocked)
{
	struct rank *sender = RK(s, q), *p;
	int32_t *link = &sender->takew, w;

	while ((w = *link) != 0) {
		p = RK(s, w - 1);
		if (blocked || sender->nx.t > p->rs.sent ||
		    sc_lower_bound(s, sender, q, 0) >= p->take_base) {
			*link = p->take_next;
			p->take_next = 0;
			p->take_seen = 1;
			if (sc_wake(s, w - 1) < 0)
				return -1;
		} else
			link = &p->take_next;
	}
	return 0;
}

int
sc_take_release_all(struct trc_scale *s)
{
	size_t i;

	for (i = 0; i < s->nrk; i++) {
		RK_SKIP(s, i);
		if (RK(s, i)->takew != 0 &&
		    sc_take_release(s, (int32_t)i, 1) < 0)
			return -1;
	}
	return sc_resume(s);
}

/* An RE that takes the message from src with tag: its output says so. */
static void
recv_rewrite(struct trc_scale *s, const struct rank *p,
    const struct trc_event *ev, int32_t src, int32_t tag, struct rewrite *rw)
{
	rw->what |= RW_PEER | RW_TAG | RW_BYTES;
	rw->peer = src;
	rw->tag = tag;
	rw->bytes = p->rs.bytes;
	if (src != ev->peer || tag != ev->tag)
		s->st.rematched++;
}

/*
 * RE: a receive completes, no earlier than its message arrives.  Its
 * message is the one matched now by its recorded peer= and tag=, the
 * one a choice or its send resolved for it (rs), or the one a probe
 * saw (forced).
 */
int
sc_recv_end(struct trc_scale *s, int32_t r, const struct trc_event *ev,
    int64_t base, int64_t d, int64_t *tp, struct rewrite *rw)
{
	struct rank *p = RK(s, r), *q;
	struct trc_p2p mp;
	int64_t want, arrive = ev->t, req = ev->req, act, lead, owed;
	int32_t src, tag;
	long wl = -1;
	int rc, forced, chosen;

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
	if (p->rs.how == RS_NONE && s->conf.rematch && !forced &&
	    (rc = sc_choice_recv(s, p, ev, req)) != 0 && rc != 2)
		return rc;
	src = forced ? p->pr_src : ev->peer;
	tag = forced ? p->pr_tag : ev->tag;
	if (p->rs.how == RS_NONE && (rc = recv_match(s, r, ev, src, tag)) != 0)
		return rc;
	if ((chosen = p->rs.how == RS_CHOSEN) != 0) {
		src = p->rs.src;
		tag = p->rs.tag;
	}
	if (!chosen && !forced && (rc = take_hold(s, r, p, ev, src, base)) != 0)
		return rc;
	if (chosen || forced)
		recv_rewrite(s, p, ev, src, tag, rw);
	if (forced)
		p->pr_on = 0;
	if (sc_physical(s, ev, "arrive", &arrive) < 0)
		return -1;
	act = chosen && p->rs.req != TRC_NONE ? p->rs.req : req;
	if (act != TRC_NONE && recv_req_done(s, p, ev, act, rw) < 0)
		return -1;
	p->rs.how = RS_NONE;
	/* Received before it left, on the base: the clocks disagree. */
	if (arrive < p->rs.base && !chosen && !forced)
		s->st.skew++;
	sc_p2p_of(&mp, src, r, ev);
	mp.tag = tag;
	/* The sender's last send, received (recv_take). */
	if ((q = sc_getrank(s, src)) != NULL && q->nx.dst == r &&
	    p->rs.sent >= q->nx.t)
		q->nx.tp = TRC_TIME_MAX + 1;
	mp.idle = p->idle_now;
	/* A receive before took the message this one takes. */
	owed = !p->took_coll && src == p->took_src && p->state != COMP ?
	    p->took_ns : 0;
	p->took_ns = 0;
	if (p->state == COMP) {	/* no RB or WB before it */
		if (sc_comp(s, r, base, d, ev->line, &want) < 0)
			return -1;
	} else if (p->rs.flags & MSG_TAKEN)
		want = base;	/* in an exchange, by its send (rdv.c) */
	else if (xwait_arrival(s, r, &mp, base, &want) == 0) {
		p->rs.tp = want;
		s->st.xwaits++;
	} else {
		/* Its message had come before it began: its own length. */
		if (sc_learns(s, ev, &mp) && !chosen && !forced &&
		    p->rs.sent <= ev->t - d &&
		    s->mo->learn(s->ms, &mp, TRC_LEARN_RECV, d) < 0)
			return sc_fail(s, ev->line, "%s", s->mo->error(s->ms));
		want = s->mo->recv(s->ms, &mp, base, d);
		if (p->state == RECV)
			want += recv_take(s, p, &mp, base);
	}
	if (owed > 0)
		want = want - owed > base ? want - owed : base;
	if ((p->rs.flags & MSG_RDV) &&
	    recv_handover(s, p, &mp, base, want) < 0)
		return -1;
	if (p->rs.tp > TRC_TIME_MAX)
		return sc_past_clock(s, ev->line, "predicted arrival");
	/* The causality repair. */
	*tp = want;
	lead = sc_lead_of(s, p, arrive, src == ev->peer && tag == ev->tag);
	if (p->rs.tp - lead > *tp) {
		p->woke |= WOKE_WAIT;
		s->st.repaired++;
		s->st.repair_ns = trc_time_add(s->st.repair_ns,
		    p->rs.tp - lead - *tp);
		*tp = p->rs.tp - lead;
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
