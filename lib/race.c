/*
 * race.c - message races from one trace, by vector clocks
 * (trc_race.h, trc-race(1)).
 *
 * The classical test (Netzer and Miller's race detection; DAMPI's
 * clocks piggybacked on messages, ISP's replay of the alternatives):
 * a receive that could match several messages races when one it did
 * not take was sent concurrently with it.  Here everything is read
 * from the trace: a send's clock is its rank's clock at the SE, a
 * receive merges it in, and each choice point ticks its rank's own
 * entry, so the entry r of a send's clock says which choices of rank r
 * it has heard of.
 *
 * A receive or probe choice c of rank r (with what it asked, peer=*
 * or tag=*) is checked against every later receive of r: the message
 * s that receive takes competes with c when it matches c's ask, comes
 * from another source than c's message (one source's messages match
 * in the order sent), was taken by a receive posted after c (one
 * posted before had it first), and its clock has not heard of c.  Of
 * one source's competitors the first sent is the one c would have
 * taken.  An any-of choice competes with the messages its losing
 * candidate receives take later, when they have not heard of it, and
 * with its losing send requests, which could have completed.
 *
 * A choice is settled when nothing can compete any more: every rank
 * and every message in flight to r has heard of it (the floor of r),
 * or an any-of choice's losing receives have completed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "trc_race.h"

/* What an op= name means here. */
enum {
	OP_PLAIN,	/* a plain call, or one we know nothing of */
	OP_PROBE,	/* a probe: a choice when it asks a wildcard */
	OP_ANYOF,	/* a wait or test completing any or some */
	OP_MRECV,	/* the receive of a matched probe's message */
	OP_ROOT_OUT,	/* a collective whose data flows from the root */
	OP_ROOT_IN	/* one whose data flows to the root */
};

static const struct opname {
	const char	*name;
	int		 what;
} opnames[] = {
	{ "recv", OP_PLAIN }, { "irecv", OP_PLAIN },
	{ "sendrecv", OP_PLAIN }, { "sendrecv_replace", OP_PLAIN },
	{ "start", OP_PLAIN }, { "startall", OP_PLAIN },
	{ "probe", OP_PROBE }, { "iprobe", OP_PROBE },
	{ "mprobe", OP_PROBE }, { "improbe", OP_PROBE },
	{ "waitany", OP_ANYOF }, { "waitsome", OP_ANYOF },
	{ "testany", OP_ANYOF }, { "testsome", OP_ANYOF },
	{ "mrecv", OP_MRECV }, { "imrecv", OP_MRECV },
	{ "bcast", OP_ROOT_OUT }, { "ibcast", OP_ROOT_OUT },
	{ "scatter", OP_ROOT_OUT }, { "scatterv", OP_ROOT_OUT },
	{ "iscatter", OP_ROOT_OUT }, { "iscatterv", OP_ROOT_OUT },
	{ "reduce", OP_ROOT_IN }, { "ireduce", OP_ROOT_IN },
	{ "gather", OP_ROOT_IN }, { "gatherv", OP_ROOT_IN },
	{ "igather", OP_ROOT_IN }, { "igatherv", OP_ROOT_IN },
};

enum { CH_RECV, CH_PROBE, CH_ANYOF };		/* kinds of choice */
enum { RQ_RECV, RQ_SEND, RQ_COLL };		/* kinds of request */
enum { BLK_NONE, BLK_RECV, BLK_COLL };		/* why a rank waits */

#define NREQ_INLINE	6

/* An event as kept: the fields used here, the req= list parsed. */
struct rev {
	enum trc_kind	 kind;
	int32_t		 peer, tag, comm, root, size;
	int		 op;		/* index into opnames, -1 none, -2 other */
	int64_t		 req;
	long		 line;
	uint32_t	 nreqs;
	int64_t		*reqs;		/* ireq or the heap */
	int64_t		 ireq[NREQ_INLINE];
};

/* A message in flight: its send and its clock. */
struct msg {
	int32_t		 src, dst, tag, comm;
	uint64_t	 seq;		/* its sender's send count */
	long		 line;
	uint32_t	 n, cap;	/* clock entries, and room */
	uint32_t	*vc;
	size_t		 nextfree;
};

struct cand {
	long		 line;
	int32_t		 src;
	int64_t		 req;
	uint64_t	 seq;
	int		 send_req;
};

struct choice {
	long		 line;
	int32_t		 rank;
	int		 kind;
	const char	*call;
	int32_t		 peer, tag, comm;
	uint64_t	 post;		/* receive posting order of its rank */
	uint32_t	 clock;		/* its rank's entry, ticked by it */
	int32_t		 src;		/* the source of what it took */
	int32_t		 ftag;		/* and its tag (probes) */
	char		*reqs;		/* an any-of's candidates, as text */
	struct cand	*took, *could;
	size_t		 ntook, ctook, ncould, ccould;
	size_t		 pending;	/* losing receives not completed */
	int		 settled;	/* printed, kept for those receives */
	uint32_t	 nbits;		/* sources in seen */
	uint64_t	 seen[];	/* sources with a competitor */
};

/* A request not yet completed. */
struct req {
	int64_t		 id;
	int32_t		 rank;
	int		 kind;
	int32_t		 peer, tag, comm;	/* a receive's ask */
	uint64_t	 post;
	long		 line;
	const char	*call;
	int		 mrecv;
	struct trc_coll	*coll;
	struct choice	**lost;	/* any-of choices it lost */
	size_t		 nlost, clost;
	struct cand	*could;	/* a wildcard's: taken by later posts */
	size_t		 ncould, ccould;
};

/* What a collective instance carries: the merged clocks of those
 * whose data it takes, and whether the root is in. */
struct coll {
	uint32_t	*vc;
	int32_t		 n;		/* entries of vc */
	int		 flow;	/* OP_PLAIN, OP_ROOT_OUT, OP_ROOT_IN */
	int32_t		 root;
	int		 root_in;
	int32_t		 waiters;	/* ranks + 1, threaded by rank */
};

struct rank {
	uint32_t	*vc;		/* rs->cap entries */
	uint64_t	 posts, sends;
	/* The blocking receive or the probe or any-of wait begun. */
	int		 b_kind;	/* -1 none, CH_* */
	int32_t		 b_peer, b_tag, b_comm;
	uint64_t	 b_post;
	long		 b_line;
	const char	*b_call;
	int		 b_mrecv;
	size_t		 unknown;	/* probes whose message is not known */
	int64_t		*cands;		/* an any-of's candidates */
	size_t		 ncands, ccands;
	struct cand	*took;		/* what its receives took */
	size_t		 ntook, ctook;
	struct trc_coll	*coll;		/* the blocking collective */
	struct req	**wild;		/* wildcard receive requests pending */
	size_t		 nwild, cwild;
	/* Open choices, oldest first, from h. */
	struct choice	**ch;
	size_t		 h, n, cap;
	/* Waiting: on a send (the RE is blk) or a collective. */
	int		 blocked;
	struct rev	 blk;
	int32_t		 nextwaiter;
	int		 retry;		/* blk is a collective end to retry */
	int		 finalized;	/* past MPI_Finalize: sends no more */
	struct rev	*q;
	size_t		 qh, qn, qcap;
	int		 ready;
};

struct trc_race {
	char		*name;
	int32_t		 hdr_ranks;
	int32_t		 nranks, cap;	/* ranks seen, clock entries */
	struct rank	*rk;
	struct trc_match *mt;
	size_t		 msgmax;	/* TRC_MSG_MAX */
	size_t		 maxranks;	/* TRC_RACE_MAX */
	struct msg	*msgs;
	size_t		 nmsgs, cmsgs, freemsg, live;
	struct req	**rq;		/* open addressing by (rank, id) */
	size_t		 rqcap, nrq;
	int32_t		*readyq;
	size_t		 nready, cready;
	size_t		 open, settle_at, queued;
	uint32_t	*floor;
	int		 (*report)(void *, const struct trc_race_point *);
	void		*arg;
	int		 stopped, failed;
	struct trc_race_stats st;
	char		 err[TRC_ERRLEN + 512];
};

#define NOFREE	((size_t)-1)

static int	ensure_rank(struct trc_race *, int32_t);
static int	fail(struct trc_race *, long, const char *, ...);

/* More messages wait than TRC_MSG_MAX: the oldest named. */
static int
too_many(struct trc_race *rs)
{
	char err[256];
	long line = trc_match_too_many(rs->mt, err, sizeof(err));

	return fail(rs, line, "%s", err);
}

static int
fail(struct trc_race *rs, long line, const char *fmt, ...)
{
	char msg[TRC_ERRLEN + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!rs->failed)
		snprintf(rs->err, sizeof(rs->err), "%s:%ld: %s", rs->name,
		    line, msg);
	rs->failed = 1;
	return -1;
}

static int
nomem(struct trc_race *rs)
{
	if (!rs->failed)
		snprintf(rs->err, sizeof(rs->err), "out of memory");
	rs->failed = 1;
	return -1;
}

/* Room for one more of n in *v of *cap, each size bytes: 0 or -1. */
static inline int
grow(void *v, size_t *cap, size_t n, size_t size)
{
	return n < *cap ? 0 : trc_grow(v, cap, n + 1, size, 8);
}

struct trc_race *
trc_race_new(const char *name, int32_t ranks,
    int (*report)(void *, const struct trc_race_point *), void *arg)
{
	struct trc_race *rs;

	if ((rs = calloc(1, sizeof(*rs))) == NULL)
		return NULL;
	if ((rs->name = strdup(name)) == NULL ||
	    (rs->mt = trc_match_new()) == NULL) {
		trc_race_free(rs);
		return NULL;
	}
	rs->hdr_ranks = ranks > 0 ? ranks : 0;
	/* trc-race said a bad TRC_MSG_MAX before. */
	if (trc_msg_max(&rs->msgmax) < 0)
		rs->msgmax = TRC_MSG_MAX_DEFAULT;
	rs->report = report;
	rs->arg = arg;
	rs->freemsg = NOFREE;
	rs->settle_at = 1024;
	if (trc_env_size("TRC_RACE_MAX", TRC_RACE_MAXRANKS, &rs->maxranks) < 0 ||
	    rs->maxranks > INT32_MAX)
		rs->maxranks = TRC_RACE_MAXRANKS;	/* trc-race said so */
	if (ranks > 0 && (size_t)ranks > rs->maxranks) {
		/* Said by the first trc_race_event() or trc_race_end(). */
		snprintf(rs->err, sizeof(rs->err), "%s:1: ranks=%ld: trc-race "
		    "takes at most %d ranks (vector clocks of ranks^2 entries, "
		    "TRC_RACE_MAX)", rs->name, (long)ranks, (int)rs->maxranks);
		rs->failed = 1;
		return rs;
	}
	if (ranks > 0 && ensure_rank(rs, ranks - 1) < 0) {
		trc_race_free(rs);
		return NULL;
	}
	return rs;
}

static void
choice_free(struct choice *c)
{
	free(c->reqs);
	free(c->took);
	free(c->could);
	free(c);
}

/* A losing receive of an any-of choice is done with it. */
static void
lost_release(struct choice *c)
{
	if (--c->pending == 0 && c->settled)
		choice_free(c);
}

void
trc_race_free(struct trc_race *rs)
{
	int32_t r;
	size_t i;

	if (rs == NULL)
		return;
	/* Settled choices live as long as the receives that lost them. */
	for (i = 0; i < rs->rqcap; i++)
		if (rs->rq[i] != NULL) {
			size_t k;

			for (k = 0; k < rs->rq[i]->nlost; k++)
				if (rs->rq[i]->lost[k]->settled)
					lost_release(rs->rq[i]->lost[k]);
			free(rs->rq[i]->could);
			free(rs->rq[i]->lost);
			free(rs->rq[i]);
		}
	free(rs->rq);
	for (r = 0; r < rs->nranks; r++) {
		struct rank *p = &rs->rk[r];

		free(p->vc);
		free(p->cands);
		free(p->took);
		free(p->wild);
		for (i = 0; i < p->n; i++)
			choice_free(p->ch[p->h + i]);
		free(p->ch);
		if (p->blocked && p->blk.reqs != p->blk.ireq)
			free(p->blk.reqs);
		for (i = 0; i < p->qn; i++) {
			struct rev *e = &p->q[(p->qh + i) % p->qcap];

			if (e->reqs != e->ireq)
				free(e->reqs);
		}
		free(p->q);
	}
	free(rs->rk);
	for (i = 0; i < rs->nmsgs; i++)
		free(rs->msgs[i].vc);
	free(rs->msgs);
	free(rs->readyq);
	free(rs->floor);
	if (rs->mt != NULL) {
		struct trc_coll *c;

		/* Instances still open hold our clocks. */
		while ((c = (struct trc_coll *)trc_coll_oldest(rs->mt)) != NULL) {
			struct coll *k = c->user;

			if (k != NULL) {
				free(k->vc);
				free(k);
			}
			trc_coll_release(rs->mt, c);
		}
		trc_match_free(rs->mt);
	}
	free(rs->name);
	free(rs);
}

const char *
trc_race_error(const struct trc_race *rs)
{
	return rs->err;
}

void
trc_race_stats(const struct trc_race *rs, struct trc_race_stats *st)
{
	*st = rs->st;
}

/* Ranks 0..r exist, with clocks of rs->cap entries. */
static int
ensure_rank(struct trc_race *rs, int32_t r)
{
	int32_t n, i, c;
	uint32_t *v;

	if (r < rs->nranks)
		return 0;
	if (r >= rs->cap) {
		for (c = rs->cap ? rs->cap : 8; c <= r; c *= 2)
			;
		for (i = 0; i < rs->nranks; i++) {
			if ((v = realloc(rs->rk[i].vc, (size_t)c *
			    sizeof(*v))) == NULL)
				return nomem(rs);
			memset(v + rs->cap, 0, (size_t)(c - rs->cap) *
			    sizeof(*v));
			rs->rk[i].vc = v;
		}
		if ((v = realloc(rs->floor, (size_t)c * sizeof(*v))) == NULL)
			return nomem(rs);
		rs->floor = v;
		{
			/* Not realloc: a blocked rank's request list may lie
			 * inside its own struct rank (blk.ireq). */
			struct rank *nk = malloc((size_t)c * sizeof(*nk));

			if (nk == NULL)
				return nomem(rs);
			for (i = 0; i < rs->nranks; i++) {
				nk[i] = rs->rk[i];
				if (rs->rk[i].blk.reqs == rs->rk[i].blk.ireq)
					nk[i].blk.reqs = nk[i].blk.ireq;
			}
			free(rs->rk);
			rs->rk = nk;
		}
		rs->cap = c;
	}
	for (n = rs->nranks; n <= r; n++) {
		struct rank *p = &rs->rk[n];

		memset(p, 0, sizeof(*p));
		p->b_kind = -1;
		if ((p->vc = calloc((size_t)rs->cap, sizeof(*p->vc))) == NULL)
			return nomem(rs);
		rs->nranks = n + 1;
	}
	return 0;
}

/* Requests: open addressing on (rank, id), linear probing. */
static size_t
rq_slot(const struct trc_race *rs, int32_t rank, int64_t id)
{
	uint64_t h = (uint64_t)id * 0x9e3779b97f4a7c15ull ^
	    (uint64_t)(uint32_t)rank * 0xc2b2ae3d27d4eb4full;

	h ^= h >> 29;
	return (size_t)h & (rs->rqcap - 1);
}

static struct req *
rq_find(const struct trc_race *rs, int32_t rank, int64_t id, size_t *at)
{
	size_t i;

	if (rs->rqcap == 0)
		return NULL;
	for (i = rq_slot(rs, rank, id); rs->rq[i] != NULL;
	    i = (i + 1) & (rs->rqcap - 1))
		if (rs->rq[i]->id == id && rs->rq[i]->rank == rank) {
			if (at != NULL)
				*at = i;
			return rs->rq[i];
		}
	return NULL;
}

static int
rq_put(struct trc_race *rs, struct req *q)
{
	size_t i, j, ncap;
	struct req **old = rs->rq;

	if (4 * (rs->nrq + 1) > 3 * rs->rqcap) {
		ncap = rs->rqcap ? rs->rqcap * 2 : 64;
		if ((rs->rq = calloc(ncap, sizeof(*rs->rq))) == NULL) {
			rs->rq = old;
			return -1;
		}
		j = rs->rqcap;
		rs->rqcap = ncap;
		for (i = 0; i < j; i++)
			if (old[i] != NULL) {
				size_t k = rq_slot(rs, old[i]->rank, old[i]->id);

				while (rs->rq[k] != NULL)
					k = (k + 1) & (ncap - 1);
				rs->rq[k] = old[i];
			}
		free(old);
	}
	for (i = rq_slot(rs, q->rank, q->id); rs->rq[i] != NULL;
	    i = (i + 1) & (rs->rqcap - 1))
		;
	rs->rq[i] = q;
	rs->nrq++;
	return 0;
}

/*
 * A new pending request of rank r, from the event that posts it; NULL
 * (the error set) when the id is already pending or memory is short.
 */
static struct req *
rq_post(struct trc_race *rs, int32_t r, const struct rev *e, int kind)
{
	struct req *q;

	if (rq_find(rs, r, e->req, NULL) != NULL) {
		fail(rs, e->line, "request %lld already pending",
		    (long long)e->req);
		return NULL;
	}
	if ((q = calloc(1, sizeof(*q))) == NULL) {
		nomem(rs);
		return NULL;
	}
	q->id = e->req;
	q->rank = r;
	q->kind = kind;
	q->line = e->line;
	if (rq_put(rs, q) < 0) {
		free(q);
		nomem(rs);
		return NULL;
	}
	return q;
}

/* Removes slot i, shifting back what probed past it. */
static void
rq_del(struct trc_race *rs, size_t i)
{
	size_t mask = rs->rqcap - 1, j = i, k;

	free(rs->rq[i]->could);
	free(rs->rq[i]->lost);
	free(rs->rq[i]);
	rs->rq[i] = NULL;
	rs->nrq--;
	for (;;) {
		j = (j + 1) & mask;
		if (rs->rq[j] == NULL)
			return;
		k = rq_slot(rs, rs->rq[j]->rank, rs->rq[j]->id);
		/* Move j into the hole when its home is not in (i, j]. */
		if ((j > i && (k <= i || k > j)) || (j < i && k <= i && k > j)) {
			rs->rq[i] = rs->rq[j];
			rs->rq[j] = NULL;
			i = j;
		}
	}
}

static int
op_lookup(const struct trc_str *op)
{
	size_t i;

	if (op->len == 0)
		return -1;
	for (i = 0; i < sizeof(opnames) / sizeof(opnames[0]); i++)
		if (strlen(opnames[i].name) == op->len &&
		    memcmp(opnames[i].name, op->s, op->len) == 0)
			return (int)i;
	return -2;
}

static int
op_what(int op)
{
	return op >= 0 ? opnames[op].what : OP_PLAIN;
}

/* The event as kept; reqs parsed for waits. */
static int
rev_from(struct trc_race *rs, const struct trc_event *ev, struct rev *e)
{
	struct trc_str s;
	const struct trc_str *a;
	int64_t id, n;
	uint32_t cap = NREQ_INLINE;

	e->kind = ev->kind;
	e->peer = ev->peer;
	e->tag = ev->tag;
	e->comm = ev->comm;
	e->root = ev->root;
	e->size = 0;
	e->op = op_lookup(&ev->op);
	e->req = ev->req;
	e->line = ev->line;
	e->nreqs = 0;
	e->reqs = e->ireq;
	if (ev->kind == TRC_XB && (a = trc_attr_get(ev, "size")) != NULL) {
		if (trc_parse_int(a->s, a->len, &n) < 0 || n < 1 ||
		    n > INT32_MAX)
			return fail(rs, ev->line, "invalid size '%.*s'",
			    (int)a->len, a->s);
		e->size = (int32_t)n;
	}
	if (ev->kind != TRC_WB && ev->kind != TRC_WE)
		return 0;
	s = ev->reqs;
	while (trc_reqs_next(&s, &id)) {
		if (e->nreqs == cap) {
			int64_t *nv;

			cap *= 2;
			if (e->reqs == e->ireq) {
				if ((nv = malloc(cap * sizeof(*nv))) != NULL)
					memcpy(nv, e->ireq, sizeof(e->ireq));
			} else
				nv = realloc(e->reqs, cap * sizeof(*nv));
			if (nv == NULL) {
				if (e->reqs != e->ireq)
					free(e->reqs);
				e->reqs = e->ireq;
				return nomem(rs);
			}
			e->reqs = nv;
		}
		e->reqs[e->nreqs++] = id;
	}
	return 0;
}

static void
rev_move(struct rev *to, struct rev *from)
{
	*to = *from;
	if (from->reqs == from->ireq)
		to->reqs = to->ireq;
}

static void
rev_done(struct rev *e)
{
	if (e->reqs != e->ireq)
		free(e->reqs);
	e->reqs = e->ireq;
}

/* Messages: a pool of slots with a free list. */
static struct msg *
msg_new(struct trc_race *rs, size_t *idx)
{
	struct msg *m;
	size_t i;

	if (rs->freemsg != NOFREE) {
		i = rs->freemsg;
		rs->freemsg = rs->msgs[i].nextfree;
	} else {
		if (grow(&rs->msgs, &rs->cmsgs, rs->nmsgs, sizeof(*rs->msgs)) < 0)
			return NULL;
		i = rs->nmsgs++;
		rs->msgs[i].vc = NULL;
		rs->msgs[i].cap = 0;
	}
	m = &rs->msgs[i];
	if (m->cap < (uint32_t)rs->nranks) {
		free(m->vc);
		m->cap = (uint32_t)rs->cap;
		if ((m->vc = malloc(m->cap * sizeof(*m->vc))) == NULL) {
			m->cap = 0;
			m->nextfree = rs->freemsg;
			rs->freemsg = i;
			return NULL;
		}
	}
	m->nextfree = NOFREE - 1;	/* live */
	*idx = i;
	if (++rs->live > rs->st.peak_msgs)
		rs->st.peak_msgs = rs->live;
	return m;
}

static void
msg_free(struct trc_race *rs, size_t i)
{
	rs->msgs[i].nextfree = rs->freemsg;
	rs->freemsg = i;
	rs->live--;
}

static void
vc_merge(uint32_t *to, const uint32_t *from, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (from[i] > to[i])
			to[i] = from[i];
}

static int
add_cand(struct cand **v, size_t *n, size_t *cap, const struct cand *c)
{
	if (grow(v, cap, *n, sizeof(**v)) < 0)
		return -1;
	(*v)[(*n)++] = *c;
	return 0;
}

/* A new choice of rank r, its clock ticked, at the end of the open list. */
static struct choice *
choice_new(struct trc_race *rs, int32_t r, int kind)
{
	struct rank *p = &rs->rk[r];
	struct choice *c;
	size_t words = (size_t)(rs->nranks + 63) / 64;

	if ((c = calloc(1, sizeof(*c) + words * sizeof(c->seen[0]))) == NULL)
		return NULL;
	c->nbits = (uint32_t)(words * 64);
	if (p->h > 0 && p->h + p->n == p->cap) {
		memmove(p->ch, p->ch + p->h, p->n * sizeof(*p->ch));
		p->h = 0;
	}
	if (grow(&p->ch, &p->cap, p->h + p->n, sizeof(*p->ch)) < 0) {
		free(c);
		return NULL;
	}
	p->ch[p->h + p->n++] = c;
	c->rank = r;
	c->kind = kind;
	c->clock = ++p->vc[r];
	rs->st.choices++;
	if (++rs->open > rs->st.peak_open)
		rs->st.peak_open = rs->open;
	return c;
}

static int
wild_match(const struct choice *c, const struct msg *m)
{
	return (c->peer == TRC_ANY || c->peer == m->src) &&
	    (c->tag == TRC_ANY || c->tag == m->tag) && c->comm == m->comm;
}

/* Of one source, the first sent is what a choice would take. */
static int
add_could(struct cand **v, size_t *n, size_t *cap, const struct msg *m)
{
	struct cand cd;
	size_t j;

	for (j = 0; j < *n; j++)
		if ((*v)[j].src == m->src) {
			if (m->seq < (*v)[j].seq) {
				(*v)[j].seq = m->seq;
				(*v)[j].line = m->line;
			}
			return 0;
		}
	cd.line = m->line;
	cd.src = m->src;
	cd.req = TRC_NONE;
	cd.seq = m->seq;
	cd.send_req = 0;
	return add_cand(v, n, cap, &cd);
}

/* The same for a choice, its sources found looked up in a bitmap. */
static int
choice_could(struct choice *c, const struct msg *m)
{
	uint32_t s = (uint32_t)m->src;

	if (s < c->nbits) {
		uint64_t bit = (uint64_t)1 << (s % 64);

		if (!(c->seen[s / 64] & bit)) {
			struct cand cd;

			c->seen[s / 64] |= bit;
			cd.line = m->line;
			cd.src = m->src;
			cd.req = TRC_NONE;
			cd.seq = m->seq;
			cd.send_req = 0;
			return add_cand(&c->could, &c->ncould, &c->ccould, &cd);
		}
	}
	return add_could(&c->could, &c->ncould, &c->ccould, m);
}

/*
 * Rank r takes message m with a receive posted post-th: m competes with
 * the open receive and probe choices of r it matches and has not heard
 * of, those with a clock above m's entry r, a suffix of the list.
 */
static int
compete(struct trc_race *rs, int32_t r, const struct msg *m, uint64_t post)
{
	struct rank *p = &rs->rk[r];
	uint32_t seen = (uint32_t)r < m->n ? m->vc[r] : 0;
	size_t lo = 0, hi = p->n, i;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->ch[p->h + mid]->clock <= seen)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < p->n; i++) {
		struct choice *c = p->ch[p->h + i];

		if (c->kind == CH_ANYOF || c->post >= post ||
		    c->src == m->src || !wild_match(c, m))
			continue;
		if (choice_could(c, m) < 0)
			return nomem(rs);
	}
	return 0;
}

/*
 * Rank r's receive, asking (peer, tag, comm) and posted post-th, took
 * message i (which is freed): competitors found, clocks merged, a
 * choice made when it asked a wildcard.  q is its request, or NULL.
 */
static int
took(struct trc_race *rs, int32_t r, size_t i, struct req *q,
    int32_t peer, int32_t tag, int32_t comm, uint64_t post, long line,
    const char *call, int mrecv)
{
	struct rank *p = &rs->rk[r];
	struct msg *m = &rs->msgs[i];
	struct choice *c;
	struct cand cd;
	size_t k, j;

	if (compete(rs, r, m, post) < 0)
		return -1;
	/* Wildcard receives posted before this one and still pending
	 * could have had m: it came before they completed. */
	for (k = 0; k < p->nwild; k++) {
		struct req *w = p->wild[k];

		if (w != q && w->post < post && w->comm == m->comm &&
		    (w->peer == TRC_ANY || w->peer == m->src) &&
		    (w->tag == TRC_ANY || w->tag == m->tag) &&
		    add_could(&w->could, &w->ncould, &w->ccould, m) < 0)
			return nomem(rs);
	}
	cd.line = m->line;
	cd.src = m->src;
	cd.seq = m->seq;
	cd.send_req = 0;
	cd.req = q != NULL ? q->id : TRC_NONE;
	if (q != NULL) {
		for (k = 0; k < q->nlost; k++) {
			c = q->lost[k];
			/* A settled choice has been heard of by all. */
			if (!c->settled && ((uint32_t)r >= m->n ||
			    m->vc[r] < c->clock) && add_cand(&c->could,
			    &c->ncould, &c->ccould, &cd) < 0)
				return nomem(rs);
			lost_release(c);
		}
		q->nlost = 0;
	}
	vc_merge(p->vc, m->vc, m->n);
	/* A probe waiting to learn which send its message was. */
	for (k = 0; p->unknown > 0 && k < p->n; k++) {
		c = p->ch[p->h + k];
		if (c->kind == CH_PROBE && c->took[0].line == 0 &&
		    c->src == m->src && c->ftag == m->tag &&
		    c->comm == m->comm) {
			c->took[0].line = m->line;
			p->unknown--;
			break;
		}
	}
	if (p->b_kind == CH_ANYOF)
		if (add_cand(&p->took, &p->ntook, &p->ctook, &cd) < 0)
			return nomem(rs);
	if (!mrecv && (peer == TRC_ANY || tag == TRC_ANY)) {
		if ((c = choice_new(rs, r, CH_RECV)) == NULL)
			return nomem(rs);
		c->line = line;
		c->call = call;
		c->peer = peer;
		c->tag = tag;
		c->comm = comm;
		c->post = post;
		c->src = m->src;
		c->ftag = m->tag;
		cd.req = TRC_NONE;
		if (add_cand(&c->took, &c->ntook, &c->ctook, &cd) < 0)
			return nomem(rs);
		if (q != NULL)
			for (j = 0; j < q->ncould; j++) {
				uint32_t src = (uint32_t)q->could[j].src;

				if (q->could[j].src == m->src)
					continue;
				if (add_cand(&c->could, &c->ncould, &c->ccould,
				    &q->could[j]) < 0)
					return nomem(rs);
				if (src < c->nbits)
					c->seen[src / 64] |= (uint64_t)1 << (src % 64);
			}
	}
	msg_free(rs, i);
	return 0;
}

static void
ready(struct trc_race *rs, int32_t r)
{
	if (rs->rk[r].ready)
		return;
	if (grow(&rs->readyq, &rs->cready, rs->nready, sizeof(*rs->readyq)) < 0) {
		nomem(rs);
		return;
	}
	rs->rk[r].ready = 1;
	rs->readyq[rs->nready++] = r;
}

static int	do_recv(struct trc_race *, int32_t, struct rev *, int, size_t);

static int
do_send(struct trc_race *rs, int32_t r, const struct rev *e)
{
	struct rank *p = &rs->rk[r];
	struct trc_msg tm, peer;
	struct msg *m;
	size_t i;
	int rc;

	if (e->peer < 0 || e->tag == TRC_ANY)
		return fail(rs, e->line, "send without peer= and tag=");
	if ((m = msg_new(rs, &i)) == NULL)
		return nomem(rs);
	m->src = r;
	m->dst = e->peer;
	m->tag = e->tag;
	m->comm = e->comm;
	m->seq = p->sends++;
	m->line = e->line;
	m->n = (uint32_t)rs->nranks;
	memcpy(m->vc, p->vc, m->n * sizeof(*m->vc));
	if (e->req != TRC_NONE) {
		if (rq_post(rs, r, e, RQ_SEND) == NULL)
			return -1;
	}
	memset(&tm, 0, sizeof(tm));
	tm.src = r;
	tm.dst = e->peer;
	tm.tag = e->tag;
	tm.comm = e->comm;
	tm.val = (int64_t)i;
	tm.line = e->line;
	tm.send = 1;
	if ((rc = trc_match_send(rs->mt, &tm, &peer)) < 0)
		return nomem(rs);
	if (rc == 0 && trc_match_pending(rs->mt) > rs->msgmax)
		return too_many(rs);
	if (rc == 1) {
		/* Its receiver waits on it: the RE goes on with it. */
		struct rank *d = &rs->rk[e->peer];

		d->blocked = BLK_NONE;
		rc = do_recv(rs, e->peer, &d->blk, 1, i);
		rev_done(&d->blk);
		ready(rs, e->peer);
		return rc < 0 ? -1 : 0;
	}
	return 0;
}

/* A pending wildcard receive request leaves p->wild. */
static void
unwild(struct rank *p, const struct req *q)
{
	size_t k;

	for (k = 0; k < p->nwild; k++)
		if (p->wild[k] == q) {
			p->wild[k] = p->wild[--p->nwild];
			return;
		}
}

/* A request completes without a receive: its losses are settled. */
static void
req_gone(struct trc_race *rs, size_t at)
{
	struct req *q = rs->rq[at];
	size_t k;

	for (k = 0; k < q->nlost; k++)
		lost_release(q->lost[k]);
	q->nlost = 0;
	if (q->kind == RQ_RECV)
		unwild(&rs->rk[q->rank], q);
	rq_del(rs, at);
}

/*
 * RE: a receive completes, with message i when have, else matched now;
 * 1 when its send is not yet read (e is then kept in blk).
 */
static int
do_recv(struct trc_race *rs, int32_t r, struct rev *e, int have, size_t i)
{
	struct rank *p = &rs->rk[r];
	struct req *q = NULL;
	struct trc_msg tm, peer;
	int32_t wpeer = e->peer, wtag = e->tag, wcomm = e->comm;
	uint64_t post;
	long line = e->line;
	const char *call = "recv";
	int mrecv = op_what(e->op) == OP_MRECV, rc;
	size_t at = 0;

	if (e->peer < 0 || e->tag == TRC_ANY)
		return fail(rs, e->line, "receive completion without actual "
		    "peer= and tag=");
	if (e->req != TRC_NONE &&
	    (q = rq_find(rs, r, e->req, &at)) != NULL) {
		if (q->kind != RQ_RECV)
			return fail(rs, e->line, "receive completion of "
			    "req=%lld, which is not a receive",
			    (long long)e->req);
		wpeer = q->peer;
		wtag = q->tag;
		wcomm = q->comm;
		post = q->post;
		line = q->line;
		call = q->call;
		mrecv = q->mrecv;
	} else if (e->req == TRC_NONE && p->b_kind == CH_RECV) {
		wpeer = p->b_peer;
		wtag = p->b_tag;
		wcomm = p->b_comm;
		post = p->b_post;
		line = p->b_line;
		call = p->b_call;
		mrecv = p->b_mrecv;
	} else
		/* No begin in the stream: it asked what it got. */
		post = ++p->posts;
	if (!have) {
		memset(&tm, 0, sizeof(tm));
		tm.src = e->peer;
		tm.dst = r;
		tm.tag = e->tag;
		tm.comm = e->comm;
		tm.line = e->line;
		if ((rc = trc_match_recv(rs->mt, &tm, &peer)) < 0)
			return nomem(rs);
		if (rc == 0 && trc_match_pending(rs->mt) > rs->msgmax)
			return too_many(rs);
		if (rc == 0) {
			if (q == NULL && e->req == TRC_NONE &&
			    p->b_kind != CH_RECV) {
				/* Keep the posting order found now. */
				p->b_kind = CH_RECV;
				p->b_peer = wpeer;
				p->b_tag = wtag;
				p->b_comm = wcomm;
				p->b_post = post;
				p->b_line = line;
				p->b_call = call;
				p->b_mrecv = mrecv;
			}
			p->blocked = BLK_RECV;
			rev_move(&p->blk, e);
			return 1;
		}
		i = (size_t)peer.val;
	}
	if (took(rs, r, i, q, wpeer, wtag, wcomm, post, line, call, mrecv) < 0)
		return -1;
	if (q != NULL) {
		unwild(p, q);
		/* took() left the table alone: at is still q's slot. */
		rq_del(rs, at);
	} else if (e->req == TRC_NONE)
		p->b_kind = -1;
	return 0;
}

/* RB: a receive is posted. */
static int
do_post(struct trc_race *rs, int32_t r, const struct rev *e)
{
	struct rank *p = &rs->rk[r];
	const char *call;
	struct req *q;

	p->posts++;
	if (e->op >= 0)
		call = opnames[e->op].name;
	else
		call = e->req != TRC_NONE ? "irecv" : "recv";
	if (e->req == TRC_NONE) {
		p->b_kind = CH_RECV;
		p->b_peer = e->peer;
		p->b_tag = e->tag;
		p->b_comm = e->comm;
		p->b_post = p->posts;
		p->b_line = e->line;
		p->b_call = call;
		p->b_mrecv = op_what(e->op) == OP_MRECV;
		return 0;
	}
	if ((q = rq_post(rs, r, e, RQ_RECV)) == NULL)
		return -1;
	q->peer = e->peer;
	q->tag = e->tag;
	q->comm = e->comm;
	q->post = p->posts;
	q->call = call;
	q->mrecv = op_what(e->op) == OP_MRECV;
	if (!q->mrecv && (q->peer == TRC_ANY || q->tag == TRC_ANY)) {
		if (grow(&p->wild, &p->cwild, p->nwild, sizeof(*p->wild)) < 0)
			return nomem(rs);
		p->wild[p->nwild++] = q;
	}
	return 0;
}

static int
do_wb(struct trc_race *rs, int32_t r, const struct rev *e)
{
	struct rank *p = &rs->rk[r];
	int w = op_what(e->op);

	p->b_kind = -1;
	if (w == OP_PROBE) {
		p->b_kind = CH_PROBE;
		p->b_peer = e->peer;
		p->b_tag = e->tag;
		p->b_comm = e->comm;
		p->b_post = ++p->posts;
		p->b_line = e->line;
		p->b_call = opnames[e->op].name;
	} else if (w == OP_ANYOF) {
		p->b_kind = CH_ANYOF;
		p->b_line = e->line;
		p->b_call = opnames[e->op].name;
		p->ncands = 0;
		p->ntook = 0;
		if (e->nreqs > p->ccands) {
			int64_t *nv = realloc(p->cands, e->nreqs * sizeof(*nv));

			if (nv == NULL)
				return nomem(rs);
			p->cands = nv;
			p->ccands = e->nreqs;
		}
		if (e->nreqs > 0)
			memcpy(p->cands, e->reqs, e->nreqs * sizeof(*e->reqs));
		p->ncands = e->nreqs;
	}
	return 0;
}

/* "1,2,3" */
static char *
reqs_text(const int64_t *v, size_t n)
{
	char *s, *t;
	size_t k;

	if ((s = malloc(n * 21 + 1)) == NULL)
		return NULL;
	t = s;
	*t = '\0';
	for (k = 0; k < n; k++)
		t += sprintf(t, "%s%lld", k ? "," : "", (long long)v[k]);
	return s;
}

/*
 * Before a request's list of lost choices grows, those settled leave
 * it: a receive that loses every wait of a long run (a request for a
 * final message) keeps only the choices still open.
 */
static void
lost_compact(struct req *q)
{
	size_t k, n = 0;

	for (k = 0; k < q->nlost; k++)
		if (q->lost[k]->settled)
			lost_release(q->lost[k]);
		else
			q->lost[n++] = q->lost[k];
	q->nlost = n;
}

static int
do_we(struct trc_race *rs, int32_t r, const struct rev *e)
{
	struct rank *p = &rs->rk[r];
	int w = op_what(e->op);
	struct choice *c;
	struct trc_msg tm;
	struct cand cd;
	struct req *q;
	size_t k, j, at;

	if (w == OP_PROBE && p->b_kind == CH_PROBE) {
		p->b_kind = -1;
		if ((p->b_peer == TRC_ANY || p->b_tag == TRC_ANY) &&
		    e->peer >= 0) {
			if ((c = choice_new(rs, r, CH_PROBE)) == NULL)
				return nomem(rs);
			c->line = p->b_line;
			c->call = p->b_call;
			c->peer = p->b_peer;
			c->tag = p->b_tag;
			c->comm = p->b_comm;
			c->post = p->b_post;
			c->src = e->peer;
			c->ftag = e->tag;
			/* The message found waits first on its channel. */
			memset(&cd, 0, sizeof(cd));
			cd.src = e->peer;
			cd.req = TRC_NONE;
			if (trc_match_peek(rs->mt, e->peer, r, e->tag, e->comm,
			    &tm) == 1)
				cd.line = rs->msgs[tm.val].line;
			else
				p->unknown++;
			if (add_cand(&c->took, &c->ntook, &c->ctook, &cd) < 0)
				return nomem(rs);
		}
	} else if (w == OP_ANYOF && p->b_kind == CH_ANYOF) {
		p->b_kind = -1;
		if (p->ncands >= 2) {
			if ((c = choice_new(rs, r, CH_ANYOF)) == NULL ||
			    (c->reqs = reqs_text(p->cands, p->ncands)) == NULL)
				return nomem(rs);
			c->line = p->b_line;
			c->call = p->b_call;
			c->src = -1;
			/* What completed, in the order of the list: the
			 * receives' messages, the sends themselves. */
			for (j = 0; j < e->nreqs; j++) {
				for (k = 0; k < p->ntook; k++)
					if (p->took[k].req == e->reqs[j])
						break;
				if (k < p->ntook)
					cd = p->took[k];
				else if ((q = rq_find(rs, r, e->reqs[j], NULL)) !=
				    NULL && q->kind == RQ_SEND) {
					cd.line = q->line;
					cd.src = r;
					cd.req = q->id;
					cd.seq = 0;
					cd.send_req = 1;
				} else
					continue;
				if (add_cand(&c->took, &c->ntook, &c->ctook,
				    &cd) < 0)
					return nomem(rs);
			}
			p->ntook = 0;
			for (k = 0; k < p->ncands; k++) {
				for (j = 0; j < e->nreqs; j++)
					if (e->reqs[j] == p->cands[k])
						break;
				if (j < e->nreqs ||
				    (q = rq_find(rs, r, p->cands[k], NULL)) == NULL)
					continue;
				if (q->kind == RQ_RECV) {
					if (q->nlost == q->clost)
						lost_compact(q);
					if (grow(&q->lost, &q->clost, q->nlost,
					    sizeof(*q->lost)) < 0)
						return nomem(rs);
					q->lost[q->nlost++] = c;
					c->pending++;
				} else if (q->kind == RQ_SEND) {
					/* Its completion is the library's. */
					cd.line = q->line;
					cd.src = r;
					cd.req = q->id;
					cd.seq = 0;
					cd.send_req = 1;
					if (add_cand(&c->could, &c->ncould,
					    &c->ccould, &cd) < 0)
						return nomem(rs);
				}
			}
		}
	}
	/* What completed and had no RE or XE goes. */
	for (j = 0; j < e->nreqs; j++)
		if ((q = rq_find(rs, r, e->reqs[j], &at)) != NULL &&
		    q->kind != RQ_COLL)
			req_gone(rs, at);
	return 0;
}

static int
coll_ready(const struct trc_coll *inst, int32_t r)
{
	const struct coll *k = inst->user;

	switch (k->flow) {
	case OP_ROOT_OUT:
		return k->root_in;
	case OP_ROOT_IN:
		return r != k->root || inst->arrived == inst->size;
	default:
		return inst->arrived == inst->size;
	}
}

static int
do_xb(struct trc_race *rs, int32_t r, const struct rev *e)
{
	struct rank *p = &rs->rk[r];
	struct trc_coll *inst;
	struct coll *k;
	struct req *q;
	int32_t x;

	if (e->req == TRC_NONE && p->coll != NULL)
		return fail(rs, e->line, "collective begin inside another "
		    "collective");
	if ((inst = trc_coll_enter(rs->mt, e->comm, r, e->line)) == NULL)
		return nomem(rs);
	if ((k = inst->user) == NULL) {
		if ((k = calloc(1, sizeof(*k))) == NULL)
			return nomem(rs);
		inst->user = k;
		k->flow = op_what(e->op);
		if ((k->flow != OP_ROOT_OUT && k->flow != OP_ROOT_IN) ||
		    e->root < 0)
			k->flow = OP_PLAIN;
		k->root = e->root;
		if (e->size > 0)
			inst->size = e->size;
		else if (e->comm == 0 && rs->hdr_ranks > 0)
			inst->size = rs->hdr_ranks;
		else if (e->comm == 0)
			return fail(rs, e->line, "collective needs the "
			    "header's ranks= or size=");
		else
			return fail(rs, e->line, "collective on comm %ld needs "
			    "size=", (long)e->comm);
		if ((k->vc = calloc((size_t)rs->cap, sizeof(*k->vc))) == NULL)
			return nomem(rs);
		k->n = rs->cap;
	}
	if (inst->arrived > inst->size)
		return fail(rs, e->line, "collective on comm %ld has more "
		    "than %ld participants", (long)e->comm, (long)inst->size);
	if (k->flow != OP_ROOT_OUT || r == k->root) {
		/* Clocks grew since the instance began: its room too. */
		if (k->n < rs->cap) {
			uint32_t *nv = realloc(k->vc, (size_t)rs->cap *
			    sizeof(*nv));

			if (nv == NULL)
				return nomem(rs);
			memset(nv + k->n, 0, (size_t)(rs->cap - k->n) *
			    sizeof(*nv));
			k->vc = nv;
			k->n = rs->cap;
		}
		vc_merge(k->vc, p->vc, (uint32_t)rs->nranks);
	}
	if (r == k->root)
		k->root_in = 1;
	if (e->req != TRC_NONE) {
		if ((q = rq_post(rs, r, e, RQ_COLL)) == NULL)
			return -1;
		q->coll = inst;
	} else
		p->coll = inst;
	/* Those waiting look again. */
	for (x = k->waiters; x > 0; x = rs->rk[x - 1].nextwaiter) {
		rs->rk[x - 1].blocked = BLK_NONE;
		rs->rk[x - 1].retry = 1;
		ready(rs, x - 1);
	}
	k->waiters = 0;
	return 0;
}

static int
do_xe(struct trc_race *rs, int32_t r, struct rev *e)
{
	struct rank *p = &rs->rk[r];
	struct trc_coll *inst = p->coll;
	struct req *q = NULL;
	struct coll *k;
	size_t at = 0;

	if (e->req != TRC_NONE) {
		q = rq_find(rs, r, e->req, &at);
		inst = q != NULL && q->kind == RQ_COLL ? q->coll : NULL;
	}
	if (inst == NULL)
		return fail(rs, e->line, "collective end without its begin");
	k = inst->user;
	if (!coll_ready(inst, r)) {
		p->blocked = BLK_COLL;
		rev_move(&p->blk, e);
		p->nextwaiter = k->waiters;
		k->waiters = r + 1;
		return 1;
	}
	if (k->flow != OP_ROOT_IN || r == k->root)
		vc_merge(p->vc, k->vc, (uint32_t)(k->n < rs->nranks ?
		    k->n : rs->nranks));
	if (++inst->left == inst->size) {
		free(k->vc);
		free(k);
		trc_coll_release(rs->mt, inst);
	}
	if (q != NULL)
		rq_del(rs, at);
	else
		p->coll = NULL;
	return 0;
}

/* One event of rank r, which it owns: 0, 1 when r now waits, -1. */
static int
step(struct trc_race *rs, int32_t r, struct rev *e)
{
	int rc = 0;

	switch (e->kind) {
	case TRC_SE:
		rc = do_send(rs, r, e);
		break;
	case TRC_RB:
		rc = do_post(rs, r, e);
		break;
	case TRC_RE:
		rc = do_recv(rs, r, e, 0, 0);
		break;
	case TRC_WB:
		rc = do_wb(rs, r, e);
		break;
	case TRC_WE:
		rc = do_we(rs, r, e);
		break;
	case TRC_XB:
		rc = do_xb(rs, r, e);
		break;
	case TRC_XE:
		rc = do_xe(rs, r, e);
		break;
	case TRC_MK:
		rs->rk[r].finalized = 1;
		break;
	default:
		break;
	}
	if (rc != 1)
		rev_done(e);
	return rc;
}

/* Ranks let go run their queues until they wait again. */
static int
drain(struct trc_race *rs)
{
	while (rs->nready > 0) {
		int32_t r = rs->readyq[--rs->nready];
		struct rank *p = &rs->rk[r];
		struct rev e;

		p->ready = 0;
		if (p->retry) {
			p->retry = 0;
			rev_move(&e, &p->blk);
			if (step(rs, r, &e) < 0)
				return -1;
		}
		while (!p->blocked && p->qn > 0) {
			rev_move(&e, &p->q[p->qh]);
			p->qh = (p->qh + 1) % p->qcap;
			p->qn--;
			rs->queued--;
			if (step(rs, r, &e) < 0)
				return -1;
		}
	}
	return rs->failed ? -1 : 0;
}

static int
enqueue(struct trc_race *rs, struct rank *p, struct rev *e)
{
	if (p->qn == p->qcap) {
		size_t nc = p->qcap ? p->qcap * 2 : 16, k;
		struct rev *nq = malloc(nc * sizeof(*nq));

		if (nq == NULL)
			return nomem(rs);
		for (k = 0; k < p->qn; k++)
			rev_move(&nq[k], &p->q[(p->qh + k) % p->qcap]);
		free(p->q);
		p->q = nq;
		p->qh = 0;
		p->qcap = nc;
	}
	rev_move(&p->q[(p->qh + p->qn) % p->qcap], e);
	p->qn++;
	if (++rs->queued > rs->st.peak_queued)
		rs->st.peak_queued = rs->queued;
	return 0;
}

static int
cand_cmp(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;

	return (a->line > b->line) - (a->line < b->line);
}

static int
choice_cmp(const void *x, const void *y)
{
	const struct choice *a = *(struct choice *const *)x;
	const struct choice *b = *(struct choice *const *)y;

	if (a->line != b->line)
		return (a->line > b->line) - (a->line < b->line);
	return (a->rank > b->rank) - (a->rank < b->rank);
}

static int
report(struct trc_race *rs, struct choice *c)
{
	struct trc_race_point pt;
	struct trc_race_msg *v;
	size_t k;
	int rc;

	if ((v = malloc((c->ntook + c->ncould + 1) * sizeof(*v))) == NULL)
		return nomem(rs);
	/* Found in receive order, nearly line order: insertion sort. */
	for (k = 1; k < c->ncould; k++) {
		struct cand x = c->could[k];
		size_t j = k;

		for (; j > 0 && cand_cmp(&c->could[j - 1], &x) > 0; j--)
			c->could[j] = c->could[j - 1];
		c->could[j] = x;
	}
	for (k = 0; k < c->ntook; k++) {
		v[k].line = c->took[k].line;
		v[k].src = c->took[k].src;
		v[k].req = c->took[k].req;
		v[k].send_req = c->took[k].send_req;
	}
	for (k = 0; k < c->ncould; k++) {
		v[c->ntook + k].line = c->could[k].line;
		v[c->ntook + k].src = c->could[k].src;
		v[c->ntook + k].req = c->could[k].req;
		v[c->ntook + k].send_req = c->could[k].send_req;
	}
	pt.line = c->line;
	pt.rank = c->rank;
	pt.call = c->call;
	pt.peer = c->peer;
	pt.tag = c->tag;
	pt.comm = c->comm;
	pt.reqs = c->reqs;
	pt.took = v;
	pt.ntook = c->ntook;
	pt.could = v + c->ntook;
	pt.ncould = c->ncould;
	rs->st.races++;
	rc = rs->report != NULL ? rs->report(rs->arg, &pt) : 0;
	free(v);
	if (rc != 0)
		rs->stopped = 1;
	return 0;
}

/* A choice settled: freed, or kept for the receives that lost it. */
static void
choice_done(struct choice *c)
{
	if (c->pending > 0)
		c->settled = 1;
	else
		choice_free(c);
}

/*
 * Settles the choices nothing can compete with any more, oldest first
 * on each rank; all of them when final.  Races are reported in line
 * order among those settled together.
 */
static int
settle(struct trc_race *rs, int final)
{
	struct choice **done = NULL;
	size_t ndone = 0, cdone = 0, k;
	int32_t r, x;
	int rc = 0;

	if (!final) {
		for (r = 0; r < rs->nranks; r++)
			rs->floor[r] = UINT32_MAX;
		for (x = 0; x < rs->nranks; x++)
			for (r = 0; r < rs->nranks; r++)
				if (x != r && !rs->rk[x].finalized &&
				    rs->rk[x].vc[r] < rs->floor[r])
					rs->floor[r] = rs->rk[x].vc[r];
		for (k = 0; k < rs->nmsgs; k++) {
			const struct msg *m = &rs->msgs[k];

			if (m->nextfree != NOFREE - 1)
				continue;
			if (m->dst < rs->nranks && (uint32_t)m->dst < m->n &&
			    m->vc[m->dst] < rs->floor[m->dst])
				rs->floor[m->dst] = m->vc[m->dst];
			else if ((uint32_t)m->dst >= m->n)
				rs->floor[m->dst] = 0;
		}
	}
	for (r = 0; r < rs->nranks; r++) {
		struct rank *p = &rs->rk[r];

		while (p->n > 0) {
			struct choice *c = p->ch[p->h];

			/* Nothing to come can compete: every rank and every
			 * message in flight to r has heard of c. */
			if (!final && c->clock > rs->floor[r] &&
			    (c->kind != CH_ANYOF || c->pending > 0))
				break;
			p->h++;
			p->n--;
			rs->open--;
			if (c->kind == CH_PROBE && c->took[0].line == 0)
				p->unknown--;
			if (c->ncould == 0) {
				choice_done(c);
				continue;
			}
			if (grow(&done, &cdone, ndone, sizeof(*done)) < 0) {
				choice_done(c);
				rc = nomem(rs);
				goto out;
			}
			done[ndone++] = c;
		}
		if (p->n == 0)
			p->h = 0;
	}
	if (ndone > 1)
		qsort(done, ndone, sizeof(*done), choice_cmp);
	for (k = 0; k < ndone && rc == 0 && !rs->stopped; k++)
		rc = report(rs, done[k]);
out:
	for (k = 0; k < ndone; k++)
		choice_done(done[k]);
	free(done);
	rs->settle_at = 2 * rs->open > 1024 ? 2 * rs->open : 1024;
	return rc;
}

int
trc_race_event(struct trc_race *rs, const struct trc_event *ev)
{
	const struct trc_str *a;
	struct rank *p;
	struct rev e;
	int rc;

	if (rs->failed)
		return -1;
	if (rs->stopped)
		return 1;
	rs->st.events++;
	switch (ev->kind) {
	case TRC_SE: case TRC_RB: case TRC_RE: case TRC_WB: case TRC_WE:
	case TRC_XB: case TRC_XE:
		break;
	case TRC_MK:
		/* The tracer's mark of MPI_Finalize: no send after it. */
		if ((a = trc_attr_get(ev, "mark")) != NULL && a->len == 8 &&
		    memcmp(a->s, "finalize", 8) == 0)
			break;
		return 0;
	default:
		return 0;
	}
	if (rs->hdr_ranks > 0 && ev->peer >= rs->hdr_ranks &&
	    (ev->kind == TRC_SE || ev->kind == TRC_RE))
		return fail(rs, ev->line, "peer %ld out of the header's "
		    "ranks=%ld", (long)ev->peer, (long)rs->hdr_ranks);
	if ((size_t)ev->rank >= rs->maxranks ||
	    (ev->peer >= 0 && (size_t)ev->peer >= rs->maxranks))
		return fail(rs, ev->line, "rank %ld: trc-race takes at most %d "
		    "ranks (vector clocks of ranks^2 entries, TRC_RACE_MAX)",
		    (long)((size_t)ev->rank >= rs->maxranks ? ev->rank :
		    ev->peer), (int)rs->maxranks);
	/* Ranks grow here only: pointers into rs->rk stay good below. */
	if (ensure_rank(rs, ev->rank) < 0 ||
	    (ev->peer >= 0 && ensure_rank(rs, ev->peer) < 0) ||
	    rev_from(rs, ev, &e) < 0)
		return -1;
	p = &rs->rk[ev->rank];
	if (p->blocked || p->qn > 0)
		rc = enqueue(rs, p, &e);
	else
		rc = step(rs, ev->rank, &e);
	if (rc < 0 || drain(rs) < 0)
		return -1;
	if (rs->open >= rs->settle_at && settle(rs, 0) < 0)
		return -1;
	return rs->stopped;
}

int
trc_race_end(struct trc_race *rs)
{
	const struct rank *w = NULL;
	int32_t r;
	size_t k;

	if (rs->failed)
		return -1;
	if (rs->stopped)
		return 1;
	for (r = 0; r < rs->nranks; r++)
		if (rs->rk[r].blocked &&
		    (w == NULL || rs->rk[r].blk.line < w->blk.line))
			w = &rs->rk[r];
	if (w != NULL) {
		if (w->blk.kind == TRC_RE)
			return fail(rs, w->blk.line, "receive from %ld tag %ld "
			    "has no send", (long)w->blk.peer, (long)w->blk.tag);
		return fail(rs, w->blk.line, "collective end: not every "
		    "participant entered");
	}
	/* Messages never received compete with what they could match. */
	for (k = 0; k < rs->nmsgs; k++)
		if (rs->msgs[k].nextfree == NOFREE - 1 &&
		    rs->msgs[k].dst < rs->nranks &&
		    compete(rs, rs->msgs[k].dst, &rs->msgs[k], UINT64_MAX) < 0)
			return -1;
	if (settle(rs, 1) < 0)
		return -1;
	return rs->stopped;
}
