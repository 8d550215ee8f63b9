/*
 * scale.c - the transform engine (trc_scale.h; Mendes, "Performance
 * Prediction by Trace Transformation", section 4; DESIGN.md section 4).
 *
 * Each rank is replayed in its own event order with a predicted clock;
 * what each interval costs, and when a message leaves and arrives, the
 * model says (trc_model.h), called through its table of functions: the
 * engine knows MPI's semantics (matching, blocking, handing a message
 * over, the causality repair, rematching wildcard receives) and
 * nothing of any model.  A rank whose receive completion arrives before its send (clock skew,
 * or a stream not ordered by time), or whose collective still misses
 * participants, is blocked: its later events are held until it can go
 * on.  Predicted times are monotone per rank, so the output is a k-way
 * merge of per-rank queues, released below a watermark: the least
 * predicted time any rank could still produce (trc_reorder.h).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "trc_reorder.h"

enum state { COMP, SEND, RECV, WAIT, COLL };
enum block { RUN, BLK_RECV, BLK_COLL, BLK_WILD, BLK_SYNC };
/* A blocking send that waits for its receiver: where its end stands. */
enum sync { SYNC_NONE, SYNC_WAIT, SYNC_DONE };

/* An input event held while its rank waits, strings in one block. */
struct held {
	struct held	*next;
	int64_t		 delay;
	long		 line;
	struct trc_event ev;	/* cut after its nattr attributes */
};

/* A nonblocking collective entered and not yet ended on a rank. */
struct nbcoll {
	int64_t		 req;
	struct trc_coll	*c;
};

/* A nonblocking send ended and not yet waited on: its size. */
struct isend {
	int64_t		 req, bytes;
};
/* Sends never waited on (freed requests): past this many, one goes. */
#define ISEND_MAX	4096

/*
 * A receive posted: its request (TRC_NONE when blocking), channel and
 * place in the rank's posting order, which decides which receive a
 * message fitting several goes to.
 */
struct irecv {
	int64_t		 req;
	int64_t		 seq;
	int32_t		 src, tag, comm;	/* TRC_ANY: peer=*, tag=* */
	uint8_t		 done;		/* in a wait's list: completed */
};

/*
 * A request renamed by a choice: what the recording calls rec is the
 * request act of the prediction (a waitany that completed another).
 */
struct ren {
	int64_t		 rec, act;
};

/* What a choice point does with the message it chooses. */
enum chkind { CH_RECV = 1, CH_PROBE };

/* The attributes of an event a choice changed, for its output. */
struct rewrite {
	unsigned	 what;
	int32_t		 peer, tag;
	int64_t		 bytes;
	struct trc_str	 reqs;		/* the req= value */
};
#define RW_PEER		1u
#define RW_TAG		2u
#define RW_BYTES	4u
#define RW_REQS		8u

struct rank {
	int64_t		 t, tp;		/* last original, predicted time */
	/* trc_p2p's idle after the last event, and before this one. */
	int64_t		 idle, idle_now;
	int64_t		 delay;		/* before the next event fed */
	/* The message of a resolved receive (msg_get). */
	int64_t		 rs_tp, rs_base;
	struct held	*hhead, *htail;
	struct trc_coll	*coll;
	int32_t		 nextwaiter;	/* ranks blocked on one collective */
	int32_t		 rs_src, rs_tag;	/* a rematched message */
	int64_t		 rs_bytes;
	int64_t		 rs_req;	/* the request a choice completed */
	/* A held send: SYNC_WAIT, as if eager; SYNC_DONE, end its end. */
	struct trc_xfer	 sync_x;
	int32_t		 sync_dst;	/* SYNC_WAIT: the receiver */
	uint32_t	 upass;		/* unstick: the pass that walked it */
	int32_t		 uwalk;		/* and the walk, by its first rank */
	int32_t		 sync_tag, sync_comm;	/* and the channel */
	uint8_t		 seen, state, blocked, resolved;
	uint8_t		 sync;		/* enum sync, of the SE being processed */
	uint8_t		 rs_flags;	/* MSG_*, of the resolved message */
	struct irecv	 rb;		/* the last blocking RB */
	/*
	 * BLK_WILD, a choice point (rematch): what it chooses among (ch,
	 * or with ch_any the receives of its wait's list not done), and
	 * the message the recording chose, at time ch_t.
	 */
	struct irecv	 ch;
	uint8_t		 ch_kind, ch_any;
	int32_t		 ch_p0, ch_t0, ch_c0;
	int64_t		 ch_t;
	/* What rematch() found for it in its last pass. */
	struct trc_msg	 pk_msg;
	int64_t		 pk_key, pk_req, pk_minv;
	uint8_t		 pk_found, pk_is0;
	/* A probe in progress: what it asked. */
	uint8_t		 probing;
	int32_t		 pb_src, pb_tag, pb_comm;
	/*
	 * A probe that saw another message than recorded: the receive
	 * the recording has for (pr_p0, pr_t0) takes (pr_src, pr_tag).
	 */
	uint8_t		 pr_on;
	int32_t		 pr_p0, pr_t0, pr_comm, pr_src, pr_tag;
	struct ren	*ren;		/* requests renamed by choices */
	size_t		 nren, rencap;
	struct ren	*wsub;		/* in the wait in progress */
	size_t		 nwsub, wsubcap;
	int64_t		 nextseq;	/* receives posted */
	struct irecv	*ir;		/* nonblocking receives not completed */
	size_t		 nir, ircap;
	struct nbcoll	*nb;		/* nonblocking collectives not ended */
	size_t		 nnb, nbcap;
	struct isend	*is;		/* nonblocking sends not waited on */
	size_t		 nis, iscap;
	/*
	 * Of the wait in progress, the largest send of its req= list (-1:
	 * none), and whether it has completed a receive: a wait on sends
	 * alone is the sends' cost (the model's wait).
	 */
	int64_t		 wsbytes;
	uint8_t		 wrecv;
	/*
	 * The wait in progress: the receives of its req= list, in its
	 * order, which is the order of their RE lines (trc(5)); those
	 * before wcur are done.  wall: every one completes (wait,
	 * waitall, test, testall, sendrecv), so the next RE is wcur's.
	 */
	struct irecv	*wl;
	size_t		 nwl, wlcap, wcur;
	uint8_t		 wall;
};

struct trc_scale {
	struct trc_scale_conf	 conf;
	struct trc_scale_stats	 st;
	const char		*name;
	const char		*outname;
	struct trc_writer	*w;
	struct trc_match	*mt;
	/* The model, which the engine calls and never asks about. */
	const struct trc_model_ops *mo;
	void			*ms;
	int32_t			 hdr_ranks;
	int			 timeorder;
	/* TRC_COMP_*: what the #clock line says computation may lose. */
	int			 compflags;
	int			 failed;
	struct trc_pages	 rkp;		/* struct rank, by rank */
	size_t			 msgmax;	/* TRC_MSG_MAX */
	size_t			 nrk, nseen;	/* nrk: above every rank */
	int64_t			 tin;		/* time of the last event fed */
	unsigned long long	 nfed, nextwm;
	size_t			 curheld, queued;
	int32_t			*work;		/* ranks to resume */
	size_t			 nwork, workcap;
	struct trc_reorder	*out;		/* the output, in time order */
	size_t			 nwild;		/* ranks in BLK_WILD */
	size_t			 nsyncw;	/* ranks in BLK_SYNC */
	uint32_t		 upass;		/* unstick's passes */
	struct trc_event	 tmp;		/* a held event, rebuilt */
	char			**diag;
	size_t			 ndiag, diagcap;
	char			*lbuf;		/* a req= list rewritten */
	size_t			 lcap;
	char			 err[TRC_ERRLEN + 512];
};

static int
fail(struct trc_scale *s, long line, const char *fmt, ...)
{
	char msg[TRC_ERRLEN + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(s->err, sizeof(s->err), "%s:%ld: %s", s->name, line, msg);
	s->failed = 1;
	return -1;
}

/*
 * A time past TRC_TIME_MAX (trc.h): every time the engine keeps is
 * at most that, and every length a model returns at most
 * TRC_TIME_OVER, so that their sums never wrap before this check.
 */
static int
past_clock(struct trc_scale *s, long line, const char *what)
{
	char a[24];

	a[trc_format_time(a, TRC_TIME_MAX)] = '\0';
	return fail(s, line, "%s past the clock's limit of %s s", what, a);
}

/*
 * More messages wait for their other end than TRC_MSG_MAX allows: an
 * error that names the one waiting longest, likely never matched.
 */
static int nomem(struct trc_scale *);

static int
too_many(struct trc_scale *s)
{
	struct trc_msg m;

	if (!trc_match_oldest(s->mt, &m))
		return nomem(s);
	return fail(s, m.line, "%s %s rank %ld tag %ld comm %ld still unmatched "
	    "with %zu messages in flight (TRC_MSG_MAX)", m.send ? "send" :
	    "receive", m.send ? "to" : "from", (long)(m.send ? m.dst : m.src),
	    (long)m.tag, (long)m.comm, trc_match_pending(s->mt));
}

/* A model's times, kept no further than TRC_TIME_OVER. */
static void
clamp_xfer(struct trc_xfer *x)
{
	if (x->end > TRC_TIME_OVER)
		x->end = TRC_TIME_OVER;
	if (x->depart > TRC_TIME_OVER)
		x->depart = TRC_TIME_OVER;
	if (x->arrive > TRC_TIME_OVER)
		x->arrive = TRC_TIME_OVER;
}

static int
nomem(struct trc_scale *s)
{
	snprintf(s->err, sizeof(s->err), "out of memory");
	s->failed = 1;
	return -1;
}

static int
grow(void *pp, size_t *cap, size_t need, size_t size, size_t first)
{
	void *p;
	size_t n = *cap ? *cap : first;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	if ((p = realloc(*(void **)pp, n * size)) == NULL)
		return -1;
	*(void **)pp = p;
	*cap = n;
	return 0;
}

/*
 * The ranks, in pages as they come (trc_pages): RK() is a rank the
 * engine has met, rk_peek() any rank, one never met reading as zeros.
 * A loop over the ranks skips the pages never asked for.
 */
#define RK(s, r)	((struct rank *)(s)->rkp.pg[(size_t)(r) >> TRC_PAGE_SHIFT] + \
			    ((size_t)(r) & (TRC_PAGE - 1)))
#define RK_AT(s, r)	((struct rank *)trc_pages_at(&(s)->rkp, (size_t)(r)))
static const struct rank rk_none;

static const struct rank *
rk_peek(const struct trc_scale *s, int32_t r)
{
	const struct rank *p;

	if (r < 0 || (p = trc_pages_at(&s->rkp, (size_t)r)) == NULL)
		return &rk_none;
	return p;
}

/* The next rank from i on whose page exists: i, or past the page. */
#define RK_SKIP(s, i)	if (RK_AT(s, i) == NULL) { (i) |= TRC_PAGE - 1; continue; }

static struct rank *
getrank(struct trc_scale *s, int32_t r)
{
	struct rank *p;

	if (r >= 0 && (p = RK_AT(s, r)) != NULL)	/* the usual case */
		return p;
	if (r < 0 || (p = trc_pages_get(&s->rkp, (size_t)r)) == NULL)
		return NULL;
	s->nrk = s->rkp.npg * TRC_PAGE;
	return p;
}

struct trc_scale *
trc_scale_new(const struct trc_scale_conf *conf, const struct trc_header *h,
    const char *name, struct trc_writer *w)
{
	struct trc_header out;
	struct trc_scale *s;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return NULL;
	s->rkp.elsize = sizeof(struct rank);
	if (trc_env_size("TRC_MSG_MAX", TRC_MSG_MAX_DEFAULT, &s->msgmax) < 0) {
		snprintf(s->err, sizeof(s->err), "invalid TRC_MSG_MAX '%s'",
		    getenv("TRC_MSG_MAX"));
		s->failed = 1;
	}
	s->conf = *conf;
	s->name = name;
	s->outname = conf->outname ? conf->outname : "<stdout>";
	s->w = w;
	if (s->conf.model == NULL)
		s->conf.model = &trc_model_recorded;
	s->mo = s->conf.model->ops;
	s->ms = s->conf.model->state;
	s->hdr_ranks = h->ranks;
	s->timeorder = h->order == TRC_ORDER_TIME;
	s->compflags = trc_comp_declared(h);
	if (!conf->cpu)
		s->compflags &= ~TRC_COMP_CPU;
	if (conf->poll == TRC_POLL_COMP)
		s->compflags &= ~TRC_COMP_POLLT;
	s->nextwm = 4096;
	if ((s->mt = trc_match_new()) == NULL ||
	    (s->out = trc_reorder_new(w)) == NULL ||
	    (h->ranks > 0 && getrank(s, h->ranks - 1) == NULL)) {
		trc_scale_free(s);
		return NULL;
	}
	/* The output is sorted by predicted time whatever the input's
	 * order; a failed write stays on w for the caller's flush. */
	out = *h;
	out.order = TRC_ORDER_TIME;
	trc_write_header(w, &out);
	return s;
}

const char *
trc_scale_error(const struct trc_scale *s)
{
	return s->err;
}

const struct trc_scale_stats *
trc_scale_stats(const struct trc_scale *s)
{
	return &s->st;
}

const char *
trc_scale_diag(const struct trc_scale *s, size_t i)
{
	return i < s->ndiag ? s->diag[i] : NULL;
}

void
trc_scale_delay(struct trc_scale *s, int32_t r, int64_t ns)
{
	struct rank *p;

	if (r >= 0 && ns > 0 && (p = getrank(s, r)) != NULL)
		p->delay = trc_time_add(p->delay, ns);
}

/* Write the output queued before wm. */
static int
release(struct trc_scale *s, int64_t wm)
{
	switch (trc_reorder_release(s->out, wm)) {
	case 0:
		return 0;
	case -1:
		return nomem(s);
	}
	snprintf(s->err, sizeof(s->err), "%s: %s", s->outname,
	    trc_werror(s->w));
	s->failed = 1;
	return -1;
}

/* --- the transform ------------------------------------------------ */

/*
 * What a message carries from its send to its receive, in the match
 * table's two payload words: val, its predicted arrival (for one the
 * target hands over, MSG_RDV, the earliest it can leave, its arrival
 * known only when its receiver is ready), and aux, the recorded time
 * before which a receive of it is clock skew, with the flags.
 */
#define MSG_RDV		1u	/* handed over to a ready receiver */
#define MSG_HELD	2u	/* and its sender, blocking, held until then */

static void
msg_put(struct trc_msg *m, int64_t t, int64_t base, unsigned flags)
{
	m->val = t;
	m->aux = base * 4 + (int64_t)flags;
}

static void
msg_get(const struct trc_msg *m, int64_t *t, int64_t *base, uint8_t *flags)
{
	*t = m->val;
	*flags = (uint8_t)(m->aux & 3);
	*base = (m->aux - (m->aux & 3)) / 4;
}

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
		return fail(s, ev->line, "invalid %s '%.*s'", key, (int)v->len,
		    v->s);
	return 0;
}

static void
p2p_of(struct trc_p2p *mp, int32_t src, int32_t dst,
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

/*
 * base + the predicted length of the computation interval of recorded
 * length d ending now on rank r, in *tp; -1 on error.
 */
static int
comp(struct trc_scale *s, int32_t r, int64_t base, int64_t d, long line,
    int64_t *tp)
{
	int64_t dp;
	int rc;

	if ((rc = s->mo->comp(s->ms, r, d, &dp)) < 0)
		return fail(s, line, "%s", s->mo->error(s->ms));
	if (rc > 0 && d > 0)
		s->st.unlabelled++;
	*tp = base + dp;
	return 0;
}

/*
 * A computation interval whose CPU time or polls the stream gives: d
 * becomes what the model scales, base takes what is added unscaled.
 */
static int
comp_recorded(struct trc_scale *s, int32_t r, const struct trc_event *ev,
    int64_t *base, int64_t *d)
{
	struct trc_comp c;
	int64_t extra;
	char err[TRC_ERRLEN];

	if (trc_comp_recorded(ev, s->compflags, *d, &c, err, sizeof(err)) < 0)
		return fail(s, ev->line, "%s", err);
	trc_comp_split(s->conf.model, s->conf.poll, r, &c, d, &extra);
	*base += extra;
	return 0;
}

static int
coll_size(struct trc_scale *s, const struct trc_event *ev, int32_t *size)
{
	const struct trc_str *a;
	int64_t n;

	if ((a = trc_attr_get(ev, "size")) != NULL) {
		if (trc_parse_int(a->s, a->len, &n) < 0 || n < 1 ||
		    n > INT32_MAX)
			return fail(s, ev->line, "invalid size '%.*s'",
			    (int)a->len, a->s);
		*size = (int32_t)n;
		return 0;
	}
	if (ev->comm == 0 && s->hdr_ranks > 0) {
		*size = s->hdr_ranks;
		return 0;
	}
	if (ev->comm == 0)
		return fail(s, ev->line,
		    "collective needs the header's ranks= or size=");
	return fail(s, ev->line, "collective on comm %ld needs size=",
	    (long)ev->comm);
}

static int64_t
bytes_of(const struct trc_event *ev)
{
	return ev->bytes > 0 ? ev->bytes : 0;
}

static int
wake(struct trc_scale *s, int32_t r)
{
	if (grow(&s->work, &s->workcap, s->nwork + 1, sizeof(*s->work), 64) <
	    0)
		return nomem(s);
	s->work[s->nwork++] = r;
	return 0;
}

/* The posting of the receive of request req, or NULL. */
static struct irecv *
find_irecv(struct rank *p, int64_t req)
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

/* --- requests renamed by choices ---------------------------------- */

/* The request of the prediction that the recording calls rec. */
static int64_t
map_req(const struct rank *p, int64_t rec)
{
	size_t i;

	for (i = 0; i < p->nren; i++)
		if (p->ren[i].rec == rec)
			return p->ren[i].act;
	return rec;
}

/* The recording's name of request act of the prediction. */
static int64_t
unmap_req(const struct rank *p, int64_t act)
{
	size_t i;

	for (i = 0; i < p->nren; i++)
		if (p->ren[i].act == act)
			return p->ren[i].rec;
	return act;
}

/* From now on the recording's rec is act (rec itself: no renaming). */
static int
set_map(struct trc_scale *s, struct rank *p, int64_t rec, int64_t act)
{
	size_t i;

	for (i = 0; i < p->nren && p->ren[i].rec != rec; i++)
		;
	if (i < p->nren) {
		if (rec == act)
			p->ren[i] = p->ren[--p->nren];
		else
			p->ren[i].act = act;
		return 0;
	}
	if (rec == act)
		return 0;
	if (grow(&p->ren, &p->rencap, p->nren + 1, sizeof(*p->ren), 4) < 0)
		return nomem(s);
	p->ren[p->nren].rec = rec;
	p->ren[p->nren++].act = act;
	return 0;
}

/*
 * The recording's request rec completes as act: rec is done, and the
 * request the recording completes later under act's name is the one
 * rec stood for (a swap).  The wait's WE lists act for rec.
 */
static int
complete_req(struct trc_scale *s, struct rank *p, int64_t rec, int64_t act)
{
	int64_t was = map_req(p, rec), other = unmap_req(p, act);

	if (act != was && set_map(s, p, other, was) < 0)
		return -1;
	if (set_map(s, p, rec, rec) < 0)
		return -1;
	if (act == rec)
		return 0;
	if (grow(&p->wsub, &p->wsubcap, p->nwsub + 1, sizeof(*p->wsub), 4) <
	    0)
		return nomem(s);
	p->wsub[p->nwsub].rec = rec;
	p->wsub[p->nwsub++].act = act;
	return 0;
}

/*
 * The req= list of ev with the requests of the prediction, in s->lbuf:
 * in rw when it differs.  A WE's completed ones are those of its wait.
 */
static int
map_list(struct trc_scale *s, const struct rank *p,
    const struct trc_event *ev, struct rewrite *rw)
{
	struct trc_str list = ev->reqs;
	int64_t id, act;
	size_t n = 0, i;
	int changed = 0;

	if (grow(&s->lbuf, &s->lcap, list.len + 64, 1, 64) < 0)
		return nomem(s);
	while (trc_reqs_next(&list, &id) == 1) {
		act = map_req(p, id);
		if (ev->kind == TRC_WE)
			for (i = 0; i < p->nwsub; i++)
				if (p->wsub[i].rec == id)
					act = p->wsub[i].act;
		changed |= act != id;
		if (grow(&s->lbuf, &s->lcap, n + 24, 1, 64) < 0)
			return nomem(s);
		if (n > 0)
			s->lbuf[n++] = ',';
		n += trc_format_int(s->lbuf + n, act);
	}
	if (changed) {
		rw->what |= RW_REQS;
		rw->reqs.s = s->lbuf;
		rw->reqs.len = n;
	}
	return 0;
}

/*
 * The nonblocking sends that a wait's req= list names: the largest
 * one's size in wsbytes, and each forgotten (those a waitsome or a test
 * left incomplete have no size in a later wait: kept as recorded).
 */
static void
wait_sends(struct rank *p, struct trc_str list)
{
	int64_t id;
	size_t i;

	while (trc_reqs_next(&list, &id) == 1)
		for (i = 0; i < p->nis; i++)
			if (p->is[i].req == id) {
				if (p->is[i].bytes > p->wsbytes)
					p->wsbytes = p->is[i].bytes;
				p->is[i] = p->is[--p->nis];
				break;
			}
}

/* A nonblocking send ended: its size kept for its wait. */
static int
isend_put(struct trc_scale *s, struct rank *p, int64_t req, int64_t bytes)
{
	if (p->nis == ISEND_MAX) {
		memmove(p->is, p->is + 1, (p->nis - 1) * sizeof(*p->is));
		p->nis--;
	}
	if (grow(&p->is, &p->iscap, p->nis + 1, sizeof(*p->is), 4) < 0)
		return nomem(s);
	p->is[p->nis].req = req;
	p->is[p->nis++].bytes = bytes;
	return 0;
}

/*
 * A wait begins: note the receives it may complete, in the order of
 * its req= list (the requests of the prediction), and the sends.
 */
static int
wait_list(struct trc_scale *s, struct rank *p, const struct trc_event *ev)
{
	struct trc_str list = ev->reqs;
	int64_t id;
	struct irecv *rv;
	const char *op = ev->op.s;
	size_t n = ev->op.len;

	p->nwl = p->wcur = p->nwsub = 0;
	p->wall = !(n >= 3 && (memcmp(op + n - 3, "any", 3) == 0 ||
	    (n >= 4 && memcmp(op + n - 4, "some", 4) == 0)));
	p->wsbytes = -1;
	p->wrecv = 0;
	if (p->nis > 0)
		wait_sends(p, ev->reqs);
	if (p->nir == 0)
		return 0;
	while (trc_reqs_next(&list, &id) == 1)
		if ((rv = find_irecv(p, map_req(p, id))) != NULL) {
			if (grow(&p->wl, &p->wlcap, p->nwl + 1, sizeof(*p->wl),
			    4) < 0)
				return nomem(s);
			p->wl[p->nwl] = *rv;
			p->wl[p->nwl++].done = 0;
		}
	return 0;
}

/*
 * An RE of request req (of the prediction) inside the wait: its
 * receive must come at or after the cursor (and, in a wait that
 * completes them all, at it).  Returns its place in the list, -1 when
 * it is not there (not posted in the input: no order known), or -2 on
 * error.  The cursor moves when the RE is done: a held RE is checked
 * again when resumed.
 */
static long
wait_next(struct trc_scale *s, struct rank *p, const struct trc_event *ev,
    int64_t req)
{
	size_t j;

	for (j = 0; j < p->nwl; j++)
		if (p->wl[j].req == req)
			break;
	if (j == p->nwl)
		return -1;
	if (j < p->wcur || (p->wall && j > p->wcur)) {
		fail(s, ev->line, "receive completion req=%lld out of the "
		    "order of its wait's req= list", (long long)ev->req);
		return -2;
	}
	return (long)j;
}

/*
 * Format e at tp into a new record, with t0= the time of ev (e itself
 * or a copy of it with other values).
 */
static int
emit(struct trc_scale *s, const struct trc_event *ev,
    const struct trc_event *e, int64_t tp)
{
	if (trc_reorder_put(s->out, e, tp, ev->t) < 0)
		return nomem(s);
	s->st.maxqueued = trc_reorder_peak(s->out);
	return 0;
}

/* An event a choice changed: with the new values of rw. */
static int
emit_rewritten(struct trc_scale *s, const struct trc_event *ev,
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
	return emit(s, ev, &copy, tp);
}

/*
 * The message m, handed over to its receiver ready at ready: the
 * model sets its end and arrival in *x; a blocking send (held) that
 * ends later for it waited for its receiver.
 */
static void
handover(struct trc_scale *s, const struct trc_p2p *m, int64_t ready,
    struct trc_xfer *x, int held)
{
	int64_t eager = x->end;

	s->mo->handover(s->ms, m, ready, x);
	clamp_xfer(x);
	if (held && x->end > eager) {
		s->st.synced++;
		s->st.sync_ns = trc_time_add(s->st.sync_ns, x->end - eager);
	}
}

/* Rank src's held send ends at se: let it go. */
static int
sync_done(struct trc_scale *s, int32_t src, int64_t se)
{
	struct rank *a;

	if ((a = getrank(s, src)) == NULL)
		return nomem(s);
	if (a->sync != SYNC_WAIT)
		return 0;	/* cannot be: its send is matched once */
	a->sync = SYNC_DONE;
	a->sync_x.end = se;
	return wake(s, src);
}

/*
 * The handlers of process(): each returns 0 with the event's predicted
 * time in *tp, 1 when its rank must wait (the event is not consumed),
 * -1 on error.  base is the predicted time of the rank's last event
 * plus any delay, d the recorded length of the interval that ends.
 * A handler that may grow the ranks (getrank, sync_done) fetches its rank
 * again after the call.
 */

static int choose_now(struct trc_scale *, int32_t);

/* SE: the send's end, and its message into the match table. */
static int
send_end(struct trc_scale *s, int32_t r, const struct trc_event *ev,
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
	p2p_of(&mp, r, ev->peer, ev);
	mp.idle = p->idle_now;
	if (p->state != SEND) {
		/* No SB: the interval is computation, and the message
		 * leaves at its end. */
		if (comp(s, r, base, d, ev->line, &x.end) < 0)
			return -1;
		x.depart = x.arrive = x.end;
		x.base = ev->t;
		x.rdv = 0;
	} else if (s->mo->send(s->ms, &mp, base, p->t, ev->t, &x) < 0)
		return fail(s, ev->line, "%s", s->mo->error(s->ms));
	clamp_xfer(&x);
	if (ev->peer < 0 || ev->tag < 0)
		return fail(s, ev->line, "send without peer= and tag=");
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
		return past_clock(s, ev->line, "depart= time");
	if ((x.rdv ? x.depart : x.arrive) > TRC_TIME_MAX)
		return past_clock(s, ev->line, "predicted arrival");
	if (x.rdv)
		flags = MSG_RDV | (mp.nonblocking ? 0 : MSG_HELD);
	memset(&m, 0, sizeof(m));
	m.src = r;
	m.dst = ev->peer;
	m.tag = ev->tag;
	m.comm = ev->comm;
	m.bytes = mp.bytes;
	m.line = ev->line;
	msg_put(&m, x.rdv ? x.depart : x.arrive, x.base, flags);
	if ((rc = trc_match_send(s->mt, &m, &peer)) < 0)
		return nomem(s);
	if (rc == 0 && trc_match_pending(s->mt) > s->msgmax)
		return too_many(s);
	if (rc == 0 && s->conf.rematch &&
	    rk_peek(s, ev->peer)->blocked == BLK_WILD) {
		/* A candidate for a choice waiting there: try it now. */
		if ((rc = choose_now(s, ev->peer)) < 0 ||
		    (rc == 1 && wake(s, ev->peer) < 0))
			return -1;
		p = RK(s, r);
		rc = 0;
	}
	end = x.end;
	if (rc == 1) {
		/* A receive was waiting for this send: resume it. */
		if ((q = getrank(s, peer.dst)) == NULL)
			return nomem(s);
		p = RK(s, r);
		if (x.rdv) {
			/* Handed over from its receive's begin, RE held. */
			handover(s, &mp, q->tp + (q->hhead != NULL ?
			    q->hhead->delay : 0), &x, (flags & MSG_HELD) != 0);
			if (flags & MSG_HELD)
				end = x.end;
		}
		q->resolved = 1;
		q->rs_tp = x.arrive;
		q->rs_bytes = mp.bytes;
		q->rs_base = x.base;
		q->rs_flags = 0;
		if (wake(s, peer.dst) < 0)
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
	if (mp.nonblocking && isend_put(s, p, ev->req, mp.bytes) < 0)
		return -1;
	p->state = COMP;
	*tp = end;
	return 0;
}

/*
 * Rematch: is this RE of request req (of the prediction) a choice
 * point, the completion of a receive posted with peer=* or tag=*, or
 * one of the receives of a wait that completes any or some?  Returns 2
 * when chosen at once (choose_now), 1 when its rank must wait for
 * rematch() to choose, 0 when it is not a choice, -1 on error.
 */
static int
choice_recv(struct trc_scale *s, struct rank *p, const struct trc_event *ev,
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
			rv = find_irecv(p, req);
		if (rv == NULL || (rv->src != TRC_ANY && rv->tag != TRC_ANY))
			return 0;
		p->ch = *rv;
	}
	if (ev->peer < 0 || ev->tag < 0)
		return fail(s, ev->line, "receive completion without actual "
		    "peer= and tag=");
	p->ch_kind = CH_RECV;
	p->ch_p0 = ev->peer;
	p->ch_t0 = ev->tag;
	p->ch_c0 = ev->comm;
	p->ch_t = ev->t;
	switch (choose_now(s, ev->rank)) {
	case -1:
		return -1;
	case 1:
		return 2;
	}
	p = RK(s, ev->rank);
	p->blocked = BLK_WILD;
	s->nwild++;
	return 1;
}

/*
 * How much earlier than its message the recording has a receive (or a
 * probe) end at time t: clock skew, or a send whose end the recording
 * puts after its receive.  Re-timing with the recorded costs keeps it
 * for the message recorded (same), so that no delay moves nothing;
 * trc-scale (no rematch) does not.
 */
static int64_t
lead_of(const struct trc_scale *s, const struct rank *p, int64_t t, int same)
{
	return s->conf.rematch && same && p->rs_base > t ? p->rs_base - t : 0;
}

/* RE: a receive completes, no earlier than its message arrives. */
static int
recv_end(struct trc_scale *s, int32_t r, const struct trc_event *ev,
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
		req = map_req(p, req);
	if (p->state == WAIT && req != TRC_NONE && p->nwl > 0 &&
	    !(s->conf.rematch && !p->wall) &&
	    (wl = wait_next(s, p, ev, req)) == -2)
		return -1;
	/* The receive of a message a probe saw otherwise takes that one. */
	forced = s->conf.rematch && p->pr_on && ev->peer == p->pr_p0 &&
	    ev->tag == p->pr_t0 && ev->comm == p->pr_comm;
	if (!p->resolved && s->conf.rematch && !forced &&
	    (rc = choice_recv(s, p, ev, req)) != 0 && rc != 2)
		return rc;
	p = RK(s, r);
	src = forced ? p->pr_src : ev->peer;
	tag = forced ? p->pr_tag : ev->tag;
	if (!p->resolved) {
		if (src < 0 || tag < 0)
			return fail(s, ev->line, "receive completion "
			    "without actual peer= and tag=");
		memset(&m, 0, sizeof(m));
		m.src = src;
		m.dst = r;
		m.tag = tag;
		m.comm = ev->comm;
		m.bytes = bytes_of(ev);
		m.line = ev->line;
		if ((rc = trc_match_recv(s->mt, &m, &peer)) < 0)
			return nomem(s);
		if (rc == 0 && trc_match_pending(s->mt) > s->msgmax)
			return too_many(s);
		if (rc == 0) {
			p->blocked = BLK_RECV;
			return 1;
		}
		msg_get(&peer, &p->rs_tp, &p->rs_base, &p->rs_flags);
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
			if (complete_req(s, p, ev->req, act) < 0)
				return -1;
			if (act != ev->req) {
				if (grow(&s->lbuf, &s->lcap, 24, 1, 64) < 0)
					return nomem(s);
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
	p2p_of(&mp, src, r, ev);
	mp.tag = tag;
	mp.idle = p->idle_now;
	if (p->state == COMP) {	/* no RB or WB before it */
		if (comp(s, r, base, d, ev->line, &want) < 0)
			return -1;
	} else
		want = s->mo->recv(s->ms, &mp, base, d);
	if (p->rs_flags & MSG_RDV) {
		/* Handed over from the receive's begin. */
		held = (p->rs_flags & MSG_HELD) && src >= 0 &&
		    rk_peek(s, src)->sync == SYNC_WAIT;
		ready = p->state == COMP ? want - s->mo->recv(s->ms, &mp, 0, 0) :
		    base;
		if (held)
			x = RK(s, src)->sync_x;
		else {
			x.end = x.depart = x.arrive = p->rs_tp;
			x.base = p->rs_base;
		}
		handover(s, &mp, ready, &x, held);
		p->rs_tp = x.arrive;
		p->rs_flags = 0;
		if (held) {
			if (sync_done(s, src, x.end) < 0)
				return -1;
			p = RK(s, r);
		}
	}
	if (p->rs_tp > TRC_TIME_MAX)
		return past_clock(s, ev->line, "predicted arrival");
	*tp = want;
	lead = lead_of(s, p, arrive, src == ev->peer && tag == ev->tag);
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

/* Is ev (a WB) a probe's? */
static int
is_probe(const struct trc_event *ev)
{
	const char *op = ev->op.s;
	size_t n = ev->op.len;

	return n >= 5 && memcmp(op + n - 5, "probe", 5) == 0;
}

/*
 * WE of a probe, with rematch: it sees the message that arrives first
 * among those it asked for (a choice point, rematch() decides), and
 * ends no earlier than that message's arrival.  When it is another
 * than recorded, the receive the recording has for the recorded one
 * takes it.
 */
static int
probe_end(struct trc_scale *s, int32_t r, const struct trc_event *ev,
    int64_t base, int64_t d, int64_t *tp, struct rewrite *rw)
{
	struct rank *p = RK(s, r);
	int64_t lead;
	int rc;

	if (!p->resolved) {
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
		if ((rc = choose_now(s, r)) < 0)
			return -1;
		p = RK(s, r);
		if (rc == 0) {
			p->blocked = BLK_WILD;
			s->nwild++;
			return 1;
		}
	}
	p->resolved = 0;
	*tp = s->mo->wait(s->ms, r, base, d, -1);
	lead = lead_of(s, p, ev->t, p->rs_src == ev->peer &&
	    p->rs_tag == ev->tag);
	if (p->rs_tp - lead > *tp)
		*tp = p->rs_tp - lead;
	if (p->rs_src != ev->peer || p->rs_tag != ev->tag) {
		rw->what |= RW_PEER | RW_TAG | RW_BYTES;
		rw->peer = p->rs_src;
		rw->tag = p->rs_tag;
		rw->bytes = p->rs_bytes;
		s->st.rematched++;
	}
	/* Even the recorded one: a matched probe's receive (mrecv) is
	 * posted with the probe's wildcards, and takes what it saw. */
	p->pr_on = 1;
	p->pr_p0 = ev->peer;
	p->pr_t0 = ev->tag;
	p->pr_comm = ev->comm;
	p->pr_src = p->rs_src;
	p->pr_tag = p->rs_tag;
	p->probing = 0;
	p->state = COMP;
	return 0;
}

/*
 * XE: every participant ends at the latest begin plus the cost.  c is
 * the instance, which a blocking collective's rank is in (p->coll) and
 * a nonblocking one's names by the req= of its XE.
 */
static int
coll_end(struct trc_scale *s, int32_t r, const struct trc_event *ev,
    int64_t base, int64_t *tp)
{
	struct rank *p = RK(s, r);
	struct trc_coll_call cc;
	struct trc_coll *c;
	size_t i = 0;

	if (ev->req != TRC_NONE) {
		for (i = 0; i < p->nnb && p->nb[i].req != ev->req; i++)
			;
		if (i == p->nnb)
			return fail(s, ev->line, "collective end req=%lld "
			    "without its begin", (long long)ev->req);
		c = p->nb[i].c;
	} else if ((c = p->coll) == NULL)
		return fail(s, ev->line, "collective end without its begin");
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
	cc.bytes = bytes_of(ev);
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
	*tp = c->val + s->mo->coll(s->ms, &cc);
	if (*tp < base)
		*tp = base;
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
static int
coll_begin(struct trc_scale *s, int32_t r, const struct trc_event *ev,
    int64_t tp)
{
	struct rank *p = RK(s, r);
	struct trc_coll *c;
	int32_t q;

	if (p->coll != NULL)
		return fail(s, ev->line, "collective begin inside another "
		    "collective");
	if (ev->req != TRC_NONE && grow(&p->nb, &p->nbcap, p->nnb + 1,
	    sizeof(*p->nb), 4) < 0)
		return nomem(s);
	if ((c = trc_coll_enter(s->mt, ev->comm, r, ev->line)) == NULL)
		return nomem(s);
	if (c->arrived == 1) {
		if (coll_size(s, ev, &c->size) < 0)
			return -1;
		c->val = tp;
		c->aux = ev->t;
	} else {
		if (tp > c->val)
			c->val = tp;
		if (ev->t > c->aux)
			c->aux = ev->t;
	}
	if (c->arrived > c->size)
		return fail(s, ev->line, "collective on comm %ld has more "
		    "than %ld participants", (long)ev->comm, (long)c->size);
	if (c->arrived == c->size) {
		for (q = (int32_t)(intptr_t)c->user; q > 0;
		    q = RK(s, q - 1)->nextwaiter)
			if (wake(s, q - 1) < 0)
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
	return 0;
}

/*
 * Every other event ends a computation interval, or keeps its interval
 * inside a call; a begin changes what the rank is doing.
 */
static int
other(struct trc_scale *s, int32_t r, const struct trc_event *ev,
    int64_t base, int64_t d, int64_t *tp, struct rewrite *rw)
{
	struct rank *p = RK(s, r);
	struct irecv rv;

	if (p->state != COMP)
		*tp = base + d;
	else if (comp(s, r, base, d, ev->line, tp) < 0)
		return -1;
	switch (ev->kind) {
	case TRC_SB:
		p->state = SEND;
		if (ev->peer >= 0 && ev->tag >= 0)
			/* Its SE's channel. */
			trc_match_prefetch(s->mt, r, ev->peer, ev->tag,
			    ev->comm);
		break;
	case TRC_RB:
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
		} else {
			if (grow(&p->ir, &p->ircap, p->nir + 1, sizeof(*p->ir),
			    4) < 0)
				return nomem(s);
			p->ir[p->nir++] = rv;
		}
		break;
	case TRC_WB:
		p->state = WAIT;
		if (s->conf.rematch && (p->nren > 0 || p->nwsub > 0) &&
		    map_list(s, p, ev, rw) < 0)
			return -1;
		if (wait_list(s, p, ev) < 0)
			return -1;
		if ((p->probing = is_probe(ev)) != 0) {
			p->pb_src = ev->peer;
			p->pb_tag = ev->tag;
			p->pb_comm = ev->comm;
		}
		if (p->nwl > 0 && p->wl[0].src >= 0)
			trc_match_prefetch(s->mt, p->wl[0].src, r,
			    p->wl[0].tag, p->wl[0].comm);
		break;
	case TRC_XB:
		return coll_begin(s, r, ev, *tp);
	case TRC_PB:
		if (s->mo->region(s->ms, r, &ev->fn) < 0)
			return nomem(s);
		break;
	case TRC_PE:
		if (s->mo->region(s->ms, r, NULL) < 0)
			return nomem(s);
		break;
	default:
		break;
	}
	return 0;
}

/*
 * Transform one event of rank r, held up by delay first.  Returns 0
 * when done, 1 when the rank must wait (the event is not consumed), -1
 * on error.
 */
static int
process(struct trc_scale *s, int32_t r, const struct trc_event *ev,
    int64_t delay)
{
	struct rank *p = RK(s, r);
	struct rewrite rw;
	int64_t d, tp, base;
	int rc;

	if (!p->seen) {
		p->seen = 1;
		p->t = p->tp = ev->t;
		s->nseen++;
	}
	if (ev->t < p->t)
		return fail(s, ev->line, "time goes backwards on rank %ld",
		    (long)r);
	if (ev->t > TRC_TIME_MAX)
		return past_clock(s, ev->line, "time");
	d = ev->t - p->t;
	if ((base = trc_time_add(p->tp, delay)) > TRC_TIME_MAX)
		return past_clock(s, ev->line, "delayed time");
	/* Computation since the transport was last used (trc_p2p). */
	p->idle_now = p->idle;
	if (p->state == COMP && d > 0)
		p->idle_now = ev->nattr > 0 && trc_attr_get(ev, "polls") != NULL ?
		    0 : trc_time_add(p->idle, d);
	/* A rank's first event ends no interval (d is 0): its cpu= none. */
	if (p->state == COMP && s->compflags != 0 && d > 0 &&
	    comp_recorded(s, r, ev, &base, &d) < 0)
		return -1;
	rw.what = 0;
	switch (ev->kind) {
	case TRC_SE:
		rc = send_end(s, r, ev, base, d, &tp);
		break;
	case TRC_RE:
		rc = recv_end(s, r, ev, base, d, &tp, &rw);
		break;
	case TRC_XE:
		rc = coll_end(s, r, ev, base, &tp);
		break;
	case TRC_WE:
		if (p->state == WAIT && p->probing && s->conf.rematch &&
		    ev->peer >= 0 && ev->tag >= 0) {
			rc = probe_end(s, r, ev, base, d, &tp, &rw);
			break;
		}
		p->probing = 0;
		if (s->conf.rematch && (p->nren > 0 || p->nwsub > 0) &&
		    map_list(s, p, ev, &rw) < 0)
			return -1;
		if (p->state == WAIT) {
			tp = s->mo->wait(s->ms, r, base, d,
			    p->wrecv ? -1 : p->wsbytes);
			rc = 0;
		} else
			rc = comp(s, r, base, d, ev->line, &tp);
		p->state = COMP;
		break;
	default:
		rc = other(s, r, ev, base, d, &tp, &rw);
		break;
	}
	if (rc != 0)
		return rc;
	if (tp > TRC_TIME_MAX)
		return past_clock(s, ev->line, "predicted time");
	p = RK(s, r);
	p->t = ev->t;
	p->tp = tp;
	p->idle = ev->kind == TRC_SE || ev->kind == TRC_RE ||
	    ev->kind == TRC_WE || ev->kind == TRC_XE ? 0 : p->idle_now;
	s->st.delay_ns = trc_time_add(s->st.delay_ns, delay);
	s->st.events++;
	return rw.what ? emit_rewritten(s, ev, &rw, tp) : emit(s, ev, ev, tp);
}

/* --- holding events ----------------------------------------------- */

static int
hold(struct trc_scale *s, struct rank *p, const struct trc_event *ev,
    int64_t delay)
{
	struct held *h;
	size_t len = 0, i, n = (size_t)ev->nattr;
	char *t;

	for (i = 0; i < n; i++)
		len += ev->attr[i].key.len + ev->attr[i].val.len;
	/* Only the attributes in use are kept, their text after them. */
	if ((h = malloc(offsetof(struct held, ev.attr) +
	    n * sizeof(struct trc_attr) + len + 1)) == NULL)
		return nomem(s);
	memcpy(&h->ev, ev, offsetof(struct trc_event, attr));
	h->line = ev->line;
	h->next = NULL;
	h->delay = delay;
	t = (char *)&h->ev.attr[n];
	for (i = 0; i < n; i++) {
		memcpy(t, ev->attr[i].key.s, ev->attr[i].key.len);
		h->ev.attr[i].key.s = t;
		h->ev.attr[i].key.len = ev->attr[i].key.len;
		t += ev->attr[i].key.len;
		memcpy(t, ev->attr[i].val.s, ev->attr[i].val.len);
		/* fn=, op= and req= point into their attribute's value. */
		if (ev->fn.len && ev->fn.s == ev->attr[i].val.s)
			h->ev.fn.s = t;
		if (ev->op.len && ev->op.s == ev->attr[i].val.s)
			h->ev.op.s = t;
		if (ev->reqs.len && ev->reqs.s == ev->attr[i].val.s)
			h->ev.reqs.s = t;
		h->ev.attr[i].val.s = t;
		h->ev.attr[i].val.len = ev->attr[i].val.len;
		t += ev->attr[i].val.len;
	}
	if (p->htail)
		p->htail->next = h;
	else
		p->hhead = h;
	p->htail = h;
	s->st.held++;
	if (++s->curheld > s->st.maxheld)
		s->st.maxheld = s->curheld;
	return 0;
}

/* A held event as a whole trc_event (line sits after the attributes). */
static const struct trc_event *
unheld(struct trc_scale *s, const struct held *h)
{
	size_t n = (size_t)h->ev.nattr;

	memcpy(&s->tmp, &h->ev, offsetof(struct trc_event, attr));
	memcpy(s->tmp.attr, h->ev.attr, n * sizeof(struct trc_attr));
	s->tmp.line = h->line;
	return &s->tmp;
}

static int
resume(struct trc_scale *s)
{
	struct rank *p;
	struct held *h;
	int32_t r;
	int rc;

	while (s->nwork > 0) {
		r = s->work[--s->nwork];
		p = RK(s, r);
		if (p->blocked == BLK_WILD)
			s->nwild--;
		if (p->blocked == BLK_SYNC)
			s->nsyncw--;
		p->blocked = RUN;
		while ((h = p->hhead) != NULL) {
			if ((rc = process(s, r, unheld(s, h), h->delay)) < 0)
				return -1;
			p = RK(s, r);
			if (rc > 0)
				break;
			if ((p->hhead = h->next) == NULL)
				p->htail = NULL;
			free(h);
			s->curheld--;
		}
	}
	return 0;
}

/* --- the watermark ------------------------------------------------ */

static int64_t lower_bound(struct trc_scale *, struct rank *, int32_t, int);

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
	if (!rk_peek(s, rv->src)->seen)
		return s->timeorder ? s->tin : INT64_MIN;
	return lower_bound(s, RK(s, rv->src), rv->src, 0);
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
static int64_t
lower_bound(struct trc_scale *s, struct rank *p, int32_t i, int deep)
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
		else	/* a wait on sends alone ends at its WE */
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
static int64_t
watermark(struct trc_scale *s)
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
		lb = lower_bound(s, RK(s, i), (int32_t)i, 1);
		if (lb < wm)
			wm = lb;
	}
	return wm;
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
	int64_t req, t, base, key, lead, late;
	uint8_t fl;
	int is0, better;

	if (!fits(p, h, &req))
		return 0;
	msg_get(h, &t, &base, &fl);
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

/* What rank i, waiting on a choice, would take now: in its pk_*. */
static void
pick(struct trc_scale *s, struct rank *p, int32_t i)
{
	struct pick k;
	struct trc_msg m0;
	int64_t req, t;
	uint8_t fl;

	memset(&k, 0, sizeof(k));
	k.p = p;
	k.minv = INT64_MAX;
	memset(&m0, 0, sizeof(m0));
	m0.src = p->ch_p0;
	m0.tag = p->ch_t0;
	m0.comm = p->ch_c0;
	if (!fits(p, &m0, &req))
		k.no0 = 1;	/* it can be none of the candidates */
	else if (trc_match_peek(s->mt, p->ch_p0, i, p->ch_t0, p->ch_c0, &m0)) {
		k.have0 = 1;
		msg_get(&m0, &t, &k.a0, &fl);
	}
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
		return nomem(s);
	p->resolved = 2;
	msg_get(m, &p->rs_tp, &p->rs_base, &p->rs_flags);
	p->rs_src = m->src;
	p->rs_tag = m->tag;
	p->rs_bytes = m->bytes;
	p->rs_req = req;
	return 0;
}

/*
 * A choice among receives (or a probe) of named sources and tags, as a
 * waitany on receives from given ranks: its candidates are the oldest
 * sends of their channels, and a message still to come leaves no
 * earlier than its sender's lower bound, so it is decided at once when
 * it can be, without looking at every channel.  Returns 1 when
 * decided (resolved 2), 0 when it must wait for rematch(), -1 on error.
 */
static int
choose_now(struct trc_scale *s, int32_t r)
{
	struct rank *p = RK(s, r);
	const struct irecv *rv;
	struct trc_msg h;
	struct pick k;
	int64_t bound = INT64_MAX, lb, req, t;
	size_t j, n = p->ch_any ? p->nwl : 1;
	uint8_t fl;

	for (j = 0; j < n; j++) {
		rv = p->ch_any ? &p->wl[j] : &p->ch;
		if (!(p->ch_any && rv->done) && (rv->src < 0 || rv->tag < 0))
			return 0;
	}
	memset(&k, 0, sizeof(k));
	k.p = p;
	k.minv = INT64_MAX;
	memset(&h, 0, sizeof(h));
	h.src = p->ch_p0;
	h.tag = p->ch_t0;
	h.comm = p->ch_c0;
	if (!fits(p, &h, &req))
		k.no0 = 1;
	else if (trc_match_peek(s->mt, p->ch_p0, r, p->ch_t0, p->ch_c0, &h)) {
		k.have0 = 1;
		msg_get(&h, &t, &k.a0, &fl);
	}
	for (j = 0; j < n; j++) {
		rv = p->ch_any ? &p->wl[j] : &p->ch;
		if (p->ch_any && rv->done)
			continue;
		if (trc_match_peek(s->mt, rv->src, r, rv->tag, rv->comm, &h))
			(void)pick_one(&k, &h);
		else {
			if (!rk_peek(s, rv->src)->seen)
				lb = s->timeorder ? s->tin : INT64_MIN;
			else
				lb = lower_bound(s, RK(s, rv->src), rv->src, 1);
			if (lb < bound)
				bound = lb;
		}
	}
	/* A tie with a message still to come goes to the recorded one. */
	if (!k.found || k.key > bound || (k.key == bound && !k.is0))
		return 0;
	return resolve(s, p, &k.best, k.req) < 0 ? -1 : 1;
}

static int
rematch(struct trc_scale *s, int end)
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
				lb = lower_bound(s, p, (int32_t)i, 1);
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
		    wake(s, bi) < 0 || resume(s) < 0)
			return -1;
	}
	return 0;
}

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

/* The rank q waits for, or -1 when none or many (see unstick). */
static int32_t
waits_for(const struct rank *q)
{
	if (q->blocked == BLK_SYNC && q->sync == SYNC_WAIT)
		return q->sync_dst;
	if (q->blocked == BLK_RECV && q->hhead != NULL)
		return q->hhead->ev.peer;
	return -1;
}

/* Let rank i's held send go, from its receiver's call when held. */
static int
letgo(struct trc_scale *s, size_t i)
{
	struct rank *a = RK(s, i);
	struct trc_xfer x = a->sync_x;
	struct trc_p2p mp;
	struct trc_msg m;

	if (a->sync_dst >= 0 && rk_peek(s, a->sync_dst)->blocked != RUN) {
		if (a->hhead != NULL)
			p2p_of(&mp, (int32_t)i, a->sync_dst, &a->hhead->ev);
		else
			memset(&mp, 0, sizeof(mp));
		handover(s, &mp, RK(s, a->sync_dst)->tp, &x, 1);
	}
	/* Its receive, when read, takes the arrival found here. */
	memset(&m, 0, sizeof(m));
	m.src = (int32_t)i;
	m.dst = a->sync_dst;
	m.tag = a->sync_tag;
	m.comm = a->sync_comm;
	msg_put(&m, x.arrive, x.base, 0);
	if (trc_match_set(s->mt, &m) < 0)
		return fail(s, a->hhead != NULL ? a->hhead->line : 0,
		    "internal error: held send not queued");
	s->st.unstuck++;
	return sync_done(s, (int32_t)i, x.end);
}

static int
unstick(struct trc_scale *s, int end)
{
	struct rank *a, *q;
	int32_t cur, next, w;
	size_t i;
	int stuck, again = 1;

	while (s->nsyncw > 0 && again) {
		again = 0;
		s->upass++;
		for (i = 0; i < s->nrk && s->nsyncw > 0; i++) {
			RK_SKIP(s, i);
			a = RK(s, i);
			w = (int32_t)i;
			if (a->blocked != BLK_SYNC || a->sync != SYNC_WAIT ||
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
			    cur = waits_for(q)) {
				if ((q = getrank(s, cur)) == NULL)
					return nomem(s);
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
				if ((q = getrank(s, cur)) == NULL)
					return nomem(s);
				if (q->uwalk != w)
					break;
				q->uwalk = -1;
				next = waits_for(q);
				if (q->blocked == BLK_SYNC && q->sync == SYNC_WAIT &&
				    letgo(s, (size_t)cur) < 0)
					return -1;
			}
			if (resume(s) < 0)
				return -1;
			again = 1;
		}
	}
	return 0;
}

int
trc_scale_feed(struct trc_scale *s, const struct trc_event *ev)
{
	struct rank *p;
	int64_t delay;
	int rc;

	if (s->failed)
		return -1;
	if ((p = getrank(s, ev->rank)) == NULL)
		return nomem(s);
	s->tin = ev->t;
	delay = p->delay;
	p->delay = 0;
	if (p->hhead != NULL || p->blocked != RUN) {
		if (hold(s, p, ev, delay) < 0)
			return -1;
	} else {
		if ((rc = process(s, ev->rank, ev, delay)) < 0)
			return -1;
		if (rc > 0 && hold(s, RK(s, ev->rank), ev, delay) < 0)
			return -1;
		if (resume(s) < 0)
			return -1;
	}
	if (++s->nfed >= s->nextwm) {
		s->nextwm = s->nfed + 4096 + s->nrk;
		if (s->nwild > 0 && rematch(s, 0) < 0)
			return -1;
		if (s->nsyncw > 0 && unstick(s, 0) < 0)
			return -1;
		return release(s, watermark(s));
	}
	return 0;
}

static int
add_diag(struct trc_scale *s, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || grow(&s->diag, &s->diagcap, s->ndiag + 1,
	    sizeof(*s->diag), 8) < 0 ||
	    (s->diag[s->ndiag] = strdup(buf)) == NULL)
		return nomem(s);
	s->ndiag++;
	return 0;
}

/*
 * At the end, ranks that still wait, each for another's message (a
 * receive whose send that rank has yet to reach, or a send held for
 * its receiver), in a cycle: a deadlock, said once a cycle with its
 * ranks and lines.  Returns the number of receive lines so said, in
 * *lines (free() it), or -1.
 */
static int
deadlocks(struct trc_scale *s, long **lines)
{
	struct rank *q;
	char msg[512];
	size_t i, len, nl = 0, k;
	int32_t cur, w, at;

	*lines = NULL;
	s->upass++;
	for (i = 0; i < s->nrk; i++) {
		RK_SKIP(s, i);
		w = (int32_t)i;
		for (cur = w; cur >= 0 && (q = RK_AT(s, cur)) != NULL &&
		    q->hhead != NULL && (q->blocked == BLK_RECV ||
		    q->blocked == BLK_SYNC); cur = waits_for(q)) {
			if (q->upass == s->upass)
				break;
			q->upass = s->upass;
			q->uwalk = w;
		}
		if (cur < 0 || (q = RK_AT(s, cur)) == NULL || q->upass != s->upass ||
		    q->uwalk != w || q->hhead == NULL)
			continue;
		/* Back on this walk: cur is on a cycle; say it from cur. */
		len = 0;
		at = cur;
		k = 0;
		do {
			q = RK(s, at);
			if (k++ < 8)
				len += (size_t)snprintf(msg + len, sizeof(msg) - len,
				    "%srank %ld (line %ld) %s rank %ld",
				    at == cur ? "" : ", ", (long)at, q->hhead->line,
				    q->blocked == BLK_RECV ? "waits for a send of" :
				    "sends, held for", (long)waits_for(q));
			else if (k == 9)
				len += (size_t)snprintf(msg + len, sizeof(msg) - len,
				    ", ...");
			if (len >= sizeof(msg))
				len = sizeof(msg) - 1;
			if (q->blocked == BLK_RECV) {
				long *v = realloc(*lines, (nl + 1) * sizeof(*v));

				if (v == NULL)
					return nomem(s);
				*lines = v;
				v[nl++] = q->hhead->line;
			}
			q->uwalk = -1;	/* said: no other walk says it again */
			at = waits_for(q);
		} while (at != cur);
		if (add_diag(s, "%s:%ld: deadlock: %s", s->name,
		    RK(s, cur)->hhead->line, msg) < 0)
			return -1;
	}
	return (int)nl;
}

int
trc_scale_finish(struct trc_scale *s)
{
	struct trc_msg *v;
	const struct trc_coll *c;
	unsigned long long done;
	size_t n, i, j;
	long *dead = NULL;
	int errors = 0, ndead;

	if (s->failed)
		return -1;
	/* Each may let go ranks whose events feed the other. */
	do {
		done = s->st.events;
		if (s->nwild > 0 && rematch(s, 1) < 0)
			return -1;
		if (s->nsyncw > 0 && unstick(s, 1) < 0)
			return -1;
	} while (s->st.events != done && (s->nwild > 0 || s->nsyncw > 0));
	n = s->ndiag;
	if ((ndead = deadlocks(s, &dead)) < 0) {
		free(dead);
		return -1;
	}
	errors += (int)(s->ndiag - n);
	if ((v = trc_match_leftovers(s->mt, &n)) == NULL && n != 0) {
		free(dead);
		return nomem(s);
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < (size_t)ndead && dead[j] != v[i].line; j++)
			;
		if (j < (size_t)ndead)
			continue;	/* said as part of its deadlock */
		if (v[i].send) {
			if (add_diag(s, "%s:%ld: warning: send to rank %ld "
			    "tag %ld comm %ld was never received", s->name,
			    v[i].line, (long)v[i].dst, (long)v[i].tag,
			    (long)v[i].comm) < 0)
				break;
		} else {
			if (add_diag(s, "%s:%ld: receive from rank %ld tag "
			    "%ld comm %ld has no matching send", s->name,
			    v[i].line, (long)v[i].src, (long)v[i].tag,
			    (long)v[i].comm) < 0)
				break;
			errors++;
		}
	}
	free(v);
	free(dead);
	if (s->failed)
		return -1;
	/* Choices left without a message. */
	for (i = 0; i < s->nrk; i++) {
		const struct rank *p;
		char src[24] = "any rank", tag[24] = "*";

		RK_SKIP(s, i);
		p = RK(s, i);
		if (p->blocked != BLK_WILD || p->hhead == NULL)
			continue;
		if (p->ch_any) {
			if (add_diag(s, "%s:%ld: receive completion req=%lld "
			    "of a wait for any has no matching send", s->name,
			    p->hhead->line, (long long)p->hhead->ev.req) < 0)
				return -1;
			errors++;
			continue;
		}
		if (p->ch.src >= 0)
			snprintf(src, sizeof(src), "rank %ld", (long)p->ch.src);
		if (p->ch.tag >= 0)
			snprintf(tag, sizeof(tag), "%ld", (long)p->ch.tag);
		if (add_diag(s, "%s:%ld: %s from %s tag %s comm %ld has no "
		    "matching send", s->name, p->hhead->line,
		    p->ch_kind == CH_PROBE ? "probe" : "receive", src, tag,
		    (long)p->ch.comm) < 0)
			return -1;
		errors++;
	}
	while ((c = trc_coll_oldest(s->mt)) != NULL) {
		if (c->arrived < c->size) {
			if (add_diag(s, "%s:%ld: collective on comm %ld "
			    "never completed: %ld of %ld ranks entered",
			    s->name, c->line, (long)c->comm, (long)c->arrived,
			    (long)c->size) < 0)
				return -1;
			errors++;
		}
		trc_coll_release(s->mt, (struct trc_coll *)c);
	}
	if (release(s, INT64_MAX) < 0)
		return -1;
	return errors;
}

void
trc_scale_free(struct trc_scale *s)
{
	struct held *h, *hn;
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nrk; i++) {
		RK_SKIP(s, i);
		for (h = RK(s, i)->hhead; h != NULL; h = hn) {
			hn = h->next;
			free(h);
		}
		free(RK(s, i)->ir);
		free(RK(s, i)->wl);
		free(RK(s, i)->nb);
		free(RK(s, i)->is);
		free(RK(s, i)->ren);
		free(RK(s, i)->wsub);
	}
	trc_reorder_free(s->out);
	for (i = 0; i < s->ndiag; i++)
		free(s->diag[i]);
	free(s->diag);
	free(s->lbuf);
	trc_pages_free(&s->rkp);
	free(s->work);
	trc_match_free(s->mt);
	free(s);
}
