/*
 * rdv.c - the rendezvous: a message the model hands over to its
 * receiver when that one is ready, its blocking sender held until
 * then, and held sends let go when their receivers will not come to
 * their receive (unstick), as they would be on the target.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "scale.h"

/*
 * Held sends whose receivers will not get to their receive: a cycle of
 * ranks each waiting for the next (two ranks sending to each other
 * before they receive, say), or a receiver waiting in a collective of
 * the world, which the sender has not entered.  On the target such a
 * send does not wait forever either: its receiver is inside MPI, in
 * the call it is held in, and takes the message from that call's
 * begin.  At the end of the input (end) every held send is let go so:
 * from its receiver's call when the receiver is held, else at its
 * own cost, and its receive, if any, never comes.  Chains longer than
 * MAXCHAIN ranks wait for the end.
 */
#define MAXCHAIN	64

/*
 * The message m, handed over to its receiver ready at ready, which
 * computed idle before (trc_p2p's): the model sets its end and arrival
 * in *x; a blocking send (held) that ends later for it waited for its
 * receiver.  A receiver ready after the send's eager end comes to it
 * from its computation, caches and all; one ready before waited in the
 * transport, warm.
 */
void
sc_handover(struct trc_scale *s, const struct trc_p2p *m, int64_t ready,
    int64_t idle, struct trc_xfer *x, int held)
{
	int64_t eager = x->end;
	struct trc_p2p mr = *m;

	mr.idle = ready > x->end ? idle : 0;
	s->mo->handover(s->ms, &mr, ready, x);
	sc_clamp_xfer(x);
	if (held && x->end > eager) {
		RK(s, m->src)->woke |= WOKE_WAIT;
		s->st.synced++;
		s->st.sync_ns = trc_time_add(s->st.sync_ns, x->end - eager);
	}
}

/* Rank src's held send off its receiver's progw list. */
static void
progw_remove(struct trc_scale *s, struct rank *a, int32_t src)
{
	int32_t *link = &RK(s, a->sync.dst)->progw;

	while (*link != 0 && *link != src + 1)
		link = &RK(s, *link - 1)->sync.pnext;
	if (*link != 0)
		*link = a->sync.pnext;
	a->sync.onlist = 0;
	a->sync.pnext = 0;
}

/* Rank src's held send ends at se: let it go. */
int
sc_sync_done(struct trc_scale *s, int32_t src, int64_t se)
{
	struct rank *a;

	if ((a = sc_getrank(s, src)) == NULL)
		return sc_nomem(s);
	if (a->sync.state != SYNC_WAIT)
		return 0;	/* cannot be: its send is matched once */
	if (a->sync.onlist)
		progw_remove(s, a, src);
	a->sync.state = SYNC_DONE;
	a->sync.x.end = se;
	return sc_wake(s, src);
}

/* The rank q waits for, or -1 when none or many (see unstick). */
int32_t
sc_waits_for(const struct rank *q)
{
	if (q->blocked == BLK_SYNC && q->sync.state == SYNC_WAIT)
		return q->sync.dst;
	if (q->blocked == BLK_RECV && q->hhead != NULL)
		return q->hhead->ev.peer;
	return -1;
}

/*
 * Rank q is inside an MPI call that waits, whose progress takes what
 * arrives: held in one, or between the begin and the end of a
 * receive, a wait or a collective.  Not a send's: an MPI_Isend starts
 * its message and returns (trc-pingpong's send-busy: a receiver in one
 * takes nothing), and a blocking send that waits is held.
 */
static int
in_mpi(const struct rank *q)
{
	return q->blocked != RUN || q->state == RECV || q->state == WAIT ||
	    q->state == COLL;
}

/* Rank i's held send, of transfer x, ends at end, its message into
 * the match table for its receive, with flags (MSG_TAKEN or 0). */
static int
release(struct trc_scale *s, int32_t i, const struct trc_xfer *x,
    int64_t end, unsigned flags)
{
	struct rank *a = RK(s, i);
	struct trc_msg m;

	memset(&m, 0, sizeof(m));
	m.src = i;
	m.dst = a->sync.dst;
	m.tag = a->sync.tag;
	m.comm = a->sync.comm;
	sc_msg_put(&m, x->arrive, x->base, a->hhead != NULL ? a->hhead->ev.t :
	    TRC_TIME_OVER, flags);
	if (trc_match_set(s->mt, &m) < 0)
		return sc_fail(s, a->hhead != NULL ? a->hhead->line : 0,
		    "internal error: held send not queued");
	s->st.unstuck++;
	return sc_sync_done(s, i, end);
}

/*
 * Rank i and its receiver each held in a send to the other: an
 * exchange (MPI_Irecv, MPI_Send, MPI_Wait on both, the usual swap of a
 * halo), each call taking the other's message in its progress.  Where
 * the model costs one, both sends end by it, and each message, there
 * at its sender's end, costs its receive nothing more (MSG_TAKEN).  1
 * when done; 0 when it is no exchange, the model has no cost for it, or
 * ranks share cores (--cores); -1 on error.
 */
static int
exchange(struct trc_scale *s, int32_t i)
{
	struct rank *a = RK(s, i);
	const struct rank *b;
	struct trc_p2p out, in;
	struct trc_xfer xa, xb;
	int32_t j = a->sync.dst;
	int64_t ea, eb;

	if (s->mo->exchange == NULL || s->cores.ncores > 0 || j < 0 ||
	    j == i || a->hhead == NULL || (b = sc_rk_peek(s, j)) == NULL ||
	    b->blocked != BLK_SYNC || b->sync.state != SYNC_WAIT ||
	    b->sync.dst != i || b->hhead == NULL)
		return 0;
	sc_p2p_of(&out, i, j, &a->hhead->ev);
	out.idle = a->idle;
	sc_p2p_of(&in, j, i, &b->hhead->ev);
	in.idle = b->idle;
	if ((ea = s->mo->exchange(s->ms, &out, &in, a->tp, b->tp)) < 0 ||
	    (eb = s->mo->exchange(s->ms, &in, &out, b->tp, a->tp)) < 0)
		return 0;
	xa = a->sync.x;
	xb = b->sync.x;
	xa.arrive = ea;
	xb.arrive = eb;
	s->st.exchanged += 2;
	if (release(s, i, &xa, ea, MSG_TAKEN) < 0 ||
	    release(s, j, &xb, eb, MSG_TAKEN) < 0)
		return -1;
	return 1;
}

/* Let rank i's held send go: from its receiver's call (from_call),
 * else at its own cost. */
static int
letgo(struct trc_scale *s, size_t i, int from_call)
{
	struct rank *a = RK(s, i);
	struct trc_xfer x = a->sync.x;
	struct trc_p2p mp;
	int64_t ready;

	if (a->sync.dst >= 0 && from_call) {
		if (a->hhead != NULL)
			sc_p2p_of(&mp, (int32_t)i, a->sync.dst, &a->hhead->ev);
		else
			memset(&mp, 0, sizeof(mp));
		/* On fewer cores than ranks, a receiver waiting in its call
		 * has given its core up: it takes the message once it has
		 * one again. */
		ready = RK(s, a->sync.dst)->tp;
		if (s->cores.ncores > 0)
			ready = sc_cores_free_at(sc_cores_of(s,
			    a->sync.dst), ready > x.end ?
			    ready : x.end);
		sc_handover(s, &mp, ready, RK(s, a->sync.dst)->idle, &x, 1);
	}
	/* Its receive, when read, takes the arrival found here. */
	return release(s, (int32_t)i, &x, x.end, 0);
}

int
sc_unstick(struct trc_scale *s, int end)
{
	struct rank *a, *q;
	int32_t cur, next, w;
	size_t i;
	int stuck, rc, again = 1;

	while (s->nsyncw > 0 && again) {
		again = 0;
		s->upass++;
		for (i = 0; i < s->nrk && s->nsyncw > 0; i++) {
			RK_SKIP(s, i);
			a = RK(s, i);
			w = (int32_t)i;
			if (a->blocked != BLK_SYNC || a->sync.state != SYNC_WAIT ||
			    a->upass == s->upass)
				continue;
			/*
			 * Walk the chain of waits from it, marking the ranks
			 * passed, so that a pass walks each rank once: back
			 * on this walk is a cycle, a rank an earlier walk
			 * passed leads where that one did.
			 */
			stuck = end;
			for (cur = w; cur >= 0 && (size_t)cur < s->nrk;
			    cur = sc_waits_for(q)) {
				if ((q = sc_getrank(s, cur)) == NULL)
					return sc_nomem(s);
				if (q->upass == s->upass) {
					if (q->uwalk == w)
						stuck = 1;
					break;
				}
				q->upass = s->upass;
				q->uwalk = w;
				if (q->blocked == BLK_COLL && q->coll != NULL &&
				    q->coll->comm == 0) {
					stuck = 1;
					break;
				}
			}
			if (!stuck)
				continue;
			/*
			 * Every send held on the way goes at once, each from
			 * its receiver's call, as they would on the target.
			 */
			for (cur = w; cur >= 0 && (size_t)cur < s->nrk;
			    cur = next) {
				if ((q = sc_getrank(s, cur)) == NULL)
					return sc_nomem(s);
				if (q->uwalk != w)
					break;
				q->uwalk = -1;
				next = sc_waits_for(q);
				if (q->blocked != BLK_SYNC ||
				    q->sync.state != SYNC_WAIT)
					continue;
				if ((rc = exchange(s, cur)) < 0 ||
				    (rc == 0 && letgo(s, (size_t)cur,
				    q->sync.dst >= 0 && sc_rk_peek(s,
				    q->sync.dst)->blocked != RUN) < 0))
					return -1;
			}
			if (sc_resume(s) < 0)
				return -1;
			again = 1;
		}
	}
	return 0;
}

/*
 * After rank r's event: a blocking send the target's progress takes
 * (TRC_RDV_PROGRESS) needs no receive, only its receiver inside any
 * MPI call (trc-pingpong(1), send-busy): Open MPI's shared memory
 * copies such a message out in whatever call its receiver progresses
 * in, and frees the sender's fragment.  So r's own send of that kind,
 * just held, goes at once from its receiver's call when the receiver
 * is in one, else waits on the receiver's progw list; and when r is in
 * a call, the sends on its own list go from it.
 */
int
sc_progress(struct trc_scale *s, int32_t r)
{
	struct rank *p = RK(s, r), *q;
	int32_t a;

	if (p->blocked == BLK_SYNC && p->sync.state == SYNC_WAIT &&
	    p->sync.x.rdv == TRC_RDV_PROGRESS && !p->sync.onlist &&
	    p->sync.dst >= 0) {
		if ((q = sc_getrank(s, p->sync.dst)) == NULL)
			return sc_nomem(s);
		p = RK(s, r);
		if (in_mpi(q)) {
			if (letgo(s, (size_t)r, 1) < 0)
				return -1;
		} else {
			p->sync.pnext = q->progw;
			p->sync.onlist = 1;
			q->progw = r + 1;
		}
	}
	while (in_mpi(RK(s, r)) && (a = RK(s, r)->progw) != 0) {
		p = RK(s, r);
		q = RK(s, a - 1);
		p->progw = q->sync.pnext;
		q->sync.onlist = 0;
		q->sync.pnext = 0;
		if (q->blocked == BLK_SYNC && q->sync.state == SYNC_WAIT &&
		    letgo(s, (size_t)(a - 1), 1) < 0)
			return -1;
	}
	return 0;
}
