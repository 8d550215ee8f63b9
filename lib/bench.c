/*
 * bench.c - a benchmark program from a trace (trc-bench(1)).
 *
 * Each event is reduced to what the MPI call needs (kind, peer, tag,
 * bytes, comm, root, size, req, op, fn) and given as its time the
 * rank's computation so far: the gaps before the events that begin
 * something (a call, a region's end, a marker), less the time of the
 * polls folded into them, each multiplied by its ratio.  The events
 * go into trc-loops' compressor (loops.c), whose templates then hold
 * the calls, their time series the computation before each, and its
 * loops the program's.  Writing the program is a walk of each group
 * of ranks' program: a loop becomes a for loop, a template one call
 * of the run-time part (lib/bench/rt.c, copied in) or of MPI.
 *
 * With --deterministic a choice (a receive or probe with a wildcard,
 * a wait for any or some) is held, with the events of its rank after
 * it, until the event that settles it, and is then written as what it
 * took: memory is the choices in flight.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "trc_bench.h"

/* The run-time part, lib/bench/rt.c as lines (Makefile: rt.inc). */
#include "rt.inc"

#define HASHED		(1 << 30)	/* libtrc-mpi's ids of unseen comms */
#define MAXLIVE		8192		/* requests in flight counted */
#define MAXRQ		(1 << 13)	/* request slots at most */

/* An event as the benchmark needs it. */
struct bev {
	int64_t		 t;		/* the rank's computation so far */
	long		 line;
	enum trc_kind	 kind;
	int32_t		 peer, tag, comm, root, size;
	int64_t		 bytes, req;
	char		*reqs, *op, *fn;	/* NULL when absent */
	int64_t		 polls;		/* a polling call's, else -1 */
	int		 open;		/* a choice not settled yet */
};

/* Computations this short (ns) may be the tracer's own time alone,
 * kept in NSMALL bins (tracer_cost()). */
#define TRACER_MAX	10000
#define NSMALL		64

struct brank {
	int		 seen;
	int64_t		 last_t, clock;
	int64_t		 floor;		/* least computation, 0 none */
	int64_t		 sfloor;	/* the same, scaled (--cpu) */
	int64_t		*small;		/* short ones: count, sum by bin */
	int64_t		 pollgap, polls;	/* before polls= events */
	char		**region;	/* the open regions, innermost last */
	int		 nregion, capregion;
	struct bev	*q;		/* held events (--deterministic) */
	size_t		 qhead, qn, qcap;
	int64_t		*live;		/* requests posted, not completed */
	size_t		 nlive, caplive;
	int64_t		 bsend;		/* bytes sent by MPI_Bsend */
	int		 wildblk;	/* a blocking wildcard receive's */
	int64_t		*wreq;		/* nonblocking ones: request, */
	int		*wflag;		/* and which fields were wild */
	size_t		 nwild, capwild;
};

struct bcomm {
	int32_t		 id, size, n;
	int		 graph;		/* has neighbour collectives */
	unsigned char	*member;	/* by world rank, cap entries */
	int32_t		 cap;
};

struct trc_bench {
	struct trc_bench_opts o;
	struct trc_header hdr;
	struct trc_loops *L;
	struct brank	*rk;
	int32_t		 nrk;
	struct bcomm	*cm;
	int		 ncm;
	int64_t		 maxbytes, span, maxbsend;
	int		 maxw;
	int32_t		 maxsize;
	int		 comp;		/* TRC_COMP_* the trace declares */
	int		 failed;
	char		 err[TRC_ERRLEN + 256];
	char		 buf[TRC_MAXLINE + 512];
};

static const char *const colls[] = {
	"barrier", "bcast", "reduce", "allreduce", "gather", "gatherv",
	"scatter", "scatterv", "allgather", "allgatherv", "alltoall",
	"alltoallv", "alltoallw", "reduce_scatter", "reduce_scatter_block",
	"scan", "exscan", "neighbor_allgather", "neighbor_allgatherv",
	"neighbor_alltoall", "neighbor_alltoallv", "neighbor_alltoallw", NULL
};
#define FIRST_NEIGHBOR	17

static const char *const waits[] = {
	"wait", "waitall", "waitany", "waitsome",
	"test", "testall", "testany", "testsome", NULL
};

static const char *const probes[] = {
	"probe", "iprobe", "mprobe", "improbe", NULL
};

static int
fail(struct trc_bench *B, long line, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (B->failed)
		return -1;
	if (line > 0)
		n = snprintf(B->err, sizeof(B->err), "%s:%ld: ", B->o.name,
		    line);
	va_start(ap, fmt);
	vsnprintf(B->err + n, sizeof(B->err) - (size_t)n, fmt, ap);
	va_end(ap);
	B->failed = 1;
	return -1;
}

const char *
trc_bench_error(const struct trc_bench *B)
{
	return B->err;
}

static int
lookup(const char *const *names, const char *s, size_t len)
{
	int i;

	for (i = 0; names[i] != NULL; i++)
		if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0)
			return i;
	return -1;
}

static int
str_is(const struct trc_str *s, const char *w)
{
	return s->len == strlen(w) && memcmp(s->s, w, s->len) == 0;
}

struct trc_bench *
trc_bench_new(const struct trc_header *h, const struct trc_bench_opts *o)
{
	struct trc_bench *B;
	struct trc_loops_opts lo = { 0 };

	if ((B = calloc(1, sizeof(*B))) == NULL)
		return NULL;
	B->o = *o;
	if (B->o.name == NULL)
		B->o.name = "<stdin>";
	/* coNCePTuaL has no wildcards, and a receive names the size of
	 * the message it takes: every receive waits for its end. */
	if (B->o.conceptual)
		B->o.deterministic = 1;
	B->hdr = *h;
	B->comp = trc_comp_declared(h);
	if (o->wall)
		B->comp &= ~TRC_COMP_CPU;
	B->hdr.extra.s = "";
	B->hdr.extra.len = 0;
	/* The compressor sees times of computation: any order= the
	 * input had, each rank's times are in order. */
	B->hdr.order = TRC_ORDER_RANK;
	lo.window = o->window;
	/* A reply to whoever a wildcard heard from (@w) is a guess that
	 * a neighbour exchange can meet by chance: the benchmark sends
	 * where the trace did. */
	lo.fixed_peers = 1;
	if ((B->L = trc_loops_new(&B->hdr, &lo)) == NULL) {
		free(B);
		return NULL;
	}
	if (h->order == TRC_ORDER_NONE)
		fail(B, 0, "a stream of order=none has no times per rank in "
		    "order");
	return B;
}

static void
bev_clear(struct bev *e)
{
	free(e->reqs);
	free(e->op);
	free(e->fn);
}

void
trc_bench_free(struct trc_bench *B)
{
	int32_t r;
	size_t i;
	int j;

	if (B == NULL)
		return;
	for (r = 0; r < B->nrk; r++) {
		for (j = 0; j < B->rk[r].nregion; j++)
			free(B->rk[r].region[j]);
		free(B->rk[r].region);
		for (i = B->rk[r].qhead; i < B->rk[r].qn; i++)
			bev_clear(&B->rk[r].q[i]);
		free(B->rk[r].q);
		free(B->rk[r].live);
		free(B->rk[r].small);
		free(B->rk[r].wreq);
		free(B->rk[r].wflag);
	}
	free(B->rk);
	for (j = 0; j < B->ncm; j++)
		free(B->cm[j].member);
	free(B->cm);
	trc_loops_free(B->L);
	free(B);
}

static char *
sdup(const struct trc_str *s)
{
	char *p;

	if (s->len == 0)
		return NULL;
	if ((p = malloc(s->len + 1)) != NULL) {
		memcpy(p, s->s, s->len);
		p[s->len] = '\0';
	}
	return p;
}

/* ---- What can be reproduced ---- */

static int
has_req(const struct trc_event *ev)
{
	return ev->reqs.len > 0;
}

/* The error of an event the benchmark cannot make, or NULL. */
static const char *
check(const struct trc_event *ev, char *msg, size_t len)
{
	const struct trc_str *op = &ev->op;
	int nb = has_req(ev);

	/* The calls are made at their beginnings; an end is what the
	 * call did. */
	switch (ev->kind) {
	case TRC_SB:
		if (ev->peer < 0)
			return "a send without peer=";
		if (op->len == 0 || str_is(op, "start") ||
		    str_is(op, "sendrecv") ||
		    (!nb && (str_is(op, "ssend") || str_is(op, "rsend") ||
		    str_is(op, "bsend"))) ||
		    (nb && (str_is(op, "issend") || str_is(op, "irsend") ||
		    str_is(op, "ibsend"))))
			return NULL;
		break;
	case TRC_RB:
		if (ev->peer == TRC_NONE)
			return "a receive without peer=";
		if (op->len == 0 || str_is(op, "start") ||
		    str_is(op, "sendrecv") || (!nb && str_is(op, "mrecv")) ||
		    (nb && str_is(op, "imrecv")))
			return NULL;
		break;
	case TRC_WB:
		if (op->len == 0 || lookup(waits, op->s, op->len) >= 0 ||
		    str_is(op, "sendrecv"))
			return NULL;
		if (lookup(probes, op->s, op->len) >= 0) {
			if (ev->peer == TRC_NONE)
				return "a probe without peer=";
			return NULL;
		}
		break;
	case TRC_XB:
		if (op->len > 1 && op->s[0] == 'i' && nb &&
		    lookup(colls, op->s + 1, op->len - 1) >= 0)
			return NULL;
		if (!nb && lookup(colls, op->s, op->len) >= 0)
			return NULL;
		if (op->len == 0)
			return "a collective without op=";
		break;
	default:
		return NULL;
	}
	snprintf(msg, len, "cannot reproduce %s op=%.*s%s",
	    trc_kind_name(ev->kind), (int)op->len, op->s,
	    nb ? " (nonblocking)" : "");
	return msg;
}

/* ---- Communicators ---- */

static struct bcomm *
comm_get(struct trc_bench *B, int32_t id)
{
	struct bcomm *c;
	int i;

	for (i = 0; i < B->ncm; i++)
		if (B->cm[i].id == id)
			return &B->cm[i];
	if ((c = realloc(B->cm, ((size_t)B->ncm + 1) * sizeof(*c))) == NULL)
		return NULL;
	B->cm = c;
	c = &B->cm[B->ncm++];
	memset(c, 0, sizeof(*c));
	c->id = id;
	return c;
}

static int
comm_add(struct bcomm *c, int32_t r)
{
	unsigned char *m;
	int32_t cap;

	if (r < 0)
		return 0;
	if (r >= c->cap) {
		cap = c->cap ? c->cap : 16;
		while (cap <= r)
			cap *= 2;
		if ((m = realloc(c->member, (size_t)cap)) == NULL)
			return -1;
		memset(m + c->cap, 0, (size_t)(cap - c->cap));
		c->member = m;
		c->cap = cap;
	}
	if (!c->member[r]) {
		c->member[r] = 1;
		c->n++;
	}
	return 0;
}

/* ---- Requests in flight: how many slots the program needs ---- */

static int
live_post(struct trc_bench *B, struct brank *R, int64_t id)
{
	int64_t *p, lo = id;
	size_t i;

	if (R->nlive == MAXLIVE) {	/* never completed: freed, say */
		memmove(R->live, R->live + 1, (R->nlive - 1) * sizeof(*p));
		R->nlive--;
	}
	if (R->nlive == R->caplive) {
		R->caplive = R->caplive ? 2 * R->caplive : 16;
		if ((p = realloc(R->live, R->caplive * sizeof(*p))) == NULL)
			return -1;
		R->live = p;
	}
	R->live[R->nlive++] = id;
	for (i = 0; i < R->nlive; i++)
		if (R->live[i] < lo)
			lo = R->live[i];
	if (id - lo + 1 > B->span)
		B->span = id - lo + 1;
	return 0;
}

static void
live_done(struct brank *R, const struct trc_str *reqs)
{
	struct trc_str s = *reqs;
	int64_t id;
	size_t i;

	while (trc_reqs_next(&s, &id) > 0)
		for (i = 0; i < R->nlive; i++)
			if (R->live[i] == id) {
				R->live[i] = R->live[--R->nlive];
				break;
			}
}

/* ---- Into the compressor ---- */

static size_t
put_attr(char *o, const char *key, const char *val)
{
	size_t n = (size_t)sprintf(o, " %s=", key);
	const char *v;

	/* A label's blanks would split the line: as the tracer does. */
	for (v = val; *v != '\0'; v++)
		o[n++] = *v == ' ' || *v == '\t' ? '_' : *v;
	return n;
}

static size_t
put_int(char *o, const char *key, int64_t v)
{
	if (v == TRC_ANY)
		return (size_t)sprintf(o, " %s=*", key);
	return (size_t)sprintf(o, " %s=%lld", key, (long long)v);
}

static int
feed(struct trc_bench *B, int32_t rank, const struct bev *e)
{
	struct trc_event ev;
	char err[TRC_ERRLEN], *o = B->buf;
	size_t n;

	n = trc_format_time(o, e->t);
	n += (size_t)sprintf(o + n, " %ld %s", (long)rank,
	    trc_kind_name(e->kind));
	if (e->peer != TRC_NONE)
		n += put_int(o + n, "peer", e->peer);
	if (e->tag != TRC_NONE)
		n += put_int(o + n, "tag", e->tag);
	if (e->bytes != TRC_NONE)
		n += put_int(o + n, "bytes", e->bytes);
	if (e->comm != 0)
		n += put_int(o + n, "comm", e->comm);
	if (e->root != TRC_NONE)
		n += put_int(o + n, "root", e->root);
	if (e->size != TRC_NONE)
		n += put_int(o + n, "size", e->size);
	if (e->reqs != NULL)
		n += put_attr(o + n, "req", e->reqs);
	if (e->op != NULL)
		n += put_attr(o + n, "op", e->op);
	if (e->fn != NULL)
		n += put_attr(o + n, "fn", e->fn);
	/* Last: the template's last series (polled_ns()). */
	if (e->polls >= 0)
		n += put_int(o + n, "polls", e->polls);
	o[n] = '\0';
	if (trc_parse_line(o, n, &ev, err) < 0)
		return fail(B, e->line, "%s", err);
	ev.line = e->line;
	if (trc_loops_add(B->L, &ev) < 0)
		return fail(B, e->line, "%s", trc_loops_error(B->L));
	return 0;
}

/*
 * Without --deterministic what a wildcard took is the run's, not the
 * program's: left out of its completion, so that the receives of one
 * call in a loop are one template whoever sent (1 peer, 2 tag).
 */
static int
unwild(struct brank *R, struct bev *e)
{
	int flags = 0, *fp;
	int64_t *p;
	size_t i;

	if (e->kind == TRC_RB && (e->peer == TRC_ANY || e->tag == TRC_ANY)) {
		flags = (e->peer == TRC_ANY) | (e->tag == TRC_ANY) << 1;
		if (e->reqs == NULL) {
			R->wildblk = flags;
			return 0;
		}
		if (R->nwild == R->capwild) {
			R->capwild = R->capwild ? 2 * R->capwild : 16;
			if ((p = realloc(R->wreq, R->capwild * sizeof(*p))) ==
			    NULL)
				return -1;
			R->wreq = p;
			if ((fp = realloc(R->wflag, R->capwild *
			    sizeof(*fp))) == NULL)
				return -1;
			R->wflag = fp;
		}
		R->wreq[R->nwild] = e->req;
		R->wflag[R->nwild++] = flags;
		return 0;
	}
	if (e->kind == TRC_WE && e->op != NULL &&
	    lookup(probes, e->op, strlen(e->op)) >= 0) {
		e->peer = e->tag = TRC_NONE;
		return 0;
	}
	if (e->kind != TRC_RE)
		return 0;
	if (e->reqs == NULL) {
		flags = R->wildblk;
		R->wildblk = 0;
	} else
		for (i = 0; i < R->nwild; i++)
			if (R->wreq[i] == e->req) {
				flags = R->wflag[i];
				R->wreq[i] = R->wreq[--R->nwild];
				R->wflag[i] = R->wflag[R->nwild];
				break;
			}
	if (flags & 1)
		e->peer = TRC_NONE;
	if (flags & 2)
		e->tag = TRC_NONE;
	return 0;
}

/* ---- Choices held until settled (--deterministic) ---- */

static int
is_choice(const struct bev *e, int every_recv)
{
	if (e->kind == TRC_RB)
		return every_recv || e->peer == TRC_ANY || e->tag == TRC_ANY;
	if (e->kind != TRC_WB || e->op == NULL)
		return 0;
	if (lookup(probes, e->op, strlen(e->op)) >= 0)
		return e->peer == TRC_ANY || e->tag == TRC_ANY;
	return strcmp(e->op, "waitany") == 0 || strcmp(e->op, "waitsome") == 0 ||
	    strcmp(e->op, "testany") == 0 || strcmp(e->op, "testsome") == 0;
}

/* The event that settles a held choice: it takes what this took (and
 * a receive the size it took, for --conceptual). */
static int
settle(struct brank *R, const struct bev *e, int size)
{
	struct bev *c;
	size_t i;
	char *p;

	for (i = R->qhead; i < R->qn; i++) {
		c = &R->q[i];
		if (!c->open)
			continue;
		if (e->kind == TRC_RE && c->kind == TRC_RB &&
		    (c->reqs == NULL) == (e->reqs == NULL) &&
		    (c->reqs == NULL || c->req == e->req)) {
			if (c->peer == TRC_ANY)
				c->peer = e->peer;
			if (c->tag == TRC_ANY)
				c->tag = e->tag;
			if (size && e->bytes != TRC_NONE)
				c->bytes = e->bytes;
			c->open = 0;
			return 0;
		}
		if (e->kind == TRC_WE && c->kind == TRC_WB) {
			c->open = 0;
			if (lookup(probes, c->op, strlen(c->op)) >= 0) {
				if (c->peer == TRC_ANY)
					c->peer = e->peer;
				if (c->tag == TRC_ANY)
					c->tag = e->tag;
				return 0;
			}
			/* Waits for some become waits for all they took. */
			if (e->reqs != NULL) {
				if ((p = strdup(e->reqs)) == NULL)
					return -1;
				free(c->reqs);
				c->reqs = p;
			}
			if (strcmp(c->op, "waitsome") == 0 ||
			    strcmp(c->op, "testsome") == 0) {
				p = strcmp(c->op, "waitsome") == 0 ?
				    strdup("waitall") : strdup("testall");
				if (p == NULL)
					return -1;
				free(c->op);
				c->op = p;
			}
			return 0;
		}
	}
	return 0;
}

static int
flush_held(struct trc_bench *B, int32_t rank, int all)
{
	struct brank *R = &B->rk[rank];
	int rc;

	while (R->qhead < R->qn && (all || !R->q[R->qhead].open)) {
		rc = feed(B, rank, &R->q[R->qhead]);
		bev_clear(&R->q[R->qhead]);
		R->qhead++;
		if (rc < 0)
			return -1;
	}
	if (R->qhead == R->qn)
		R->qhead = R->qn = 0;
	return 0;
}

static int
hold(struct trc_bench *B, int32_t rank, struct bev *e)
{
	struct brank *R = &B->rk[rank];
	struct bev *q;

	if (R->qhead > 0 && R->qn == R->qcap) {
		memmove(R->q, R->q + R->qhead, (R->qn - R->qhead) * sizeof(*q));
		R->qn -= R->qhead;
		R->qhead = 0;
	}
	if (R->qn == R->qcap) {
		R->qcap = R->qcap ? 2 * R->qcap : 16;
		if ((q = realloc(R->q, R->qcap * sizeof(*q))) == NULL)
			return fail(B, e->line, "out of memory");
		R->q = q;
	}
	R->q[R->qn++] = *e;
	memset(e, 0, sizeof(*e));
	return 0;
}

/* ---- Events ---- */

/* The computation before an event: the gap before a call's or a
 * region's beginning; inside a call (its end, the receives of a
 * wait, the parts of a sendrecv after the first) the call's time. */
static int
computes(const struct trc_event *ev)
{
	switch (ev->kind) {
	case TRC_SB:
	case TRC_RB:
	case TRC_WB:
	case TRC_XB:
	case TRC_PB:
	case TRC_PE:
	case TRC_MK:
		return !(str_is(&ev->op, "sendrecv") && ev->kind != TRC_SB);
	default:
		return 0;
	}
}

static int
compute(struct trc_bench *B, struct brank *R, const struct trc_event *ev)
{
	const char *label = "";
	char err[TRC_ERRLEN];
	struct trc_comp c;
	int64_t gap;
	double k = 1;

	if (!R->seen || !computes(ev) || ev->t <= R->last_t)
		return 0;
	if (trc_comp_recorded(ev, B->comp, ev->t - R->last_t, &c, err,
	    sizeof(err)) < 0)
		return fail(B, ev->line, "%s", err);
	/* The time in polls is the benchmark's own to spend. */
	if (B->comp & TRC_COMP_CPU && c.cpu >= 0)
		gap = c.cpu - (c.pollcpu > 0 ? c.pollcpu : 0);
	else
		gap = c.d - c.pollt;
	if (gap <= 0)
		return 0;
	if (R->floor == 0 || gap < R->floor)
		R->floor = gap;
	if (gap < TRACER_MAX) {
		if (R->small == NULL && (R->small = calloc(2 * NSMALL,
		    sizeof(*R->small))) == NULL)
			return fail(B, ev->line, "out of memory");
		R->small[gap * NSMALL / TRACER_MAX]++;
		R->small[NSMALL + gap * NSMALL / TRACER_MAX] += gap;
	}
	if (c.polls > 0) {
		R->pollgap += gap;
		R->polls += c.polls;
	}
	if (R->nregion > 0)
		label = R->region[R->nregion - 1];
	if (B->o.ratios != NULL) {
		if (trc_ratios_get(B->o.ratios, label, strlen(label), ev->rank,
		    &k) < 0)
			return fail(B, ev->line, "%s",
			    trc_ratios_error(B->o.ratios));
	} else if (B->o.cpu_ratio > 0)
		k = B->o.cpu_ratio;
	gap = (int64_t)llround((double)gap * k);
	if (gap > 0 && (R->sfloor == 0 || gap < R->sfloor))
		R->sfloor = gap;
	R->clock += gap;
	return 0;
}

static int
regions(struct trc_bench *B, struct brank *R, const struct trc_event *ev)
{
	char **p;

	if (ev->kind == TRC_PE && R->nregion > 0) {
		free(R->region[--R->nregion]);
		return 0;
	}
	if (ev->kind != TRC_PB)
		return 0;
	if (R->nregion == R->capregion) {
		R->capregion = R->capregion ? 2 * R->capregion : 8;
		if ((p = realloc(R->region, (size_t)R->capregion *
		    sizeof(*p))) == NULL)
			return fail(B, ev->line, "out of memory");
		R->region = p;
	}
	if ((R->region[R->nregion] = malloc(ev->fn.len + 1)) == NULL)
		return fail(B, ev->line, "out of memory");
	memcpy(R->region[R->nregion], ev->fn.s, ev->fn.len);
	R->region[R->nregion++][ev->fn.len] = '\0';
	return 0;
}

/* size=, the ranks of a collective's communicator, or TRC_NONE. */
static int32_t
comm_size(const struct trc_event *ev)
{
	const struct trc_str *v = trc_attr_get(ev, "size");
	int64_t x;

	if (v == NULL || trc_parse_int(v->s, v->len, &x) < 0 || x < 0 ||
	    x > INT32_MAX)
		return TRC_NONE;
	return (int32_t)x;
}

/* The beginning of a call that polls until it completes (polls()). */
static int
polling_call(const struct trc_event *ev)
{
	return ev->kind == TRC_WB && ((ev->op.len >= 4 &&
	    memcmp(ev->op.s, "test", 4) == 0) || str_is(&ev->op, "iprobe") ||
	    str_is(&ev->op, "improbe"));
}

/* polls=, its unsuccessful polls, 0 when absent. */
static int64_t
recorded_polls(const struct trc_event *ev)
{
	const struct trc_str *v = trc_attr_get(ev, "polls");
	int64_t x;

	if (v == NULL || trc_parse_int(v->s, v->len, &x) < 0 || x < 0)
		return 0;
	return x;
}

/* Sizes, communicators and requests the program must provide for. */
static int
account(struct trc_bench *B, struct brank *R, const struct trc_event *ev)
{
	int32_t size = comm_size(ev);
	struct bcomm *c;
	struct trc_str s;
	int64_t id;
	int n;

	if (ev->bytes > INT32_MAX)
		return fail(B, ev->line, "bytes=%lld too large for MPI's int "
		    "counts", (long long)ev->bytes);
	if (ev->bytes > B->maxbytes)
		B->maxbytes = ev->bytes;
	if (ev->comm < 0)
		return fail(B, ev->line, "invalid comm=%ld", (long)ev->comm);
	if (ev->comm != 0) {
		if ((c = comm_get(B, ev->comm)) == NULL ||
		    comm_add(c, ev->rank) < 0 ||
		    ((ev->kind == TRC_SB || ev->kind == TRC_RB ||
		    ev->kind == TRC_RE) && comm_add(c, ev->peer) < 0) ||
		    (ev->root >= 0 && comm_add(c, ev->root) < 0))
			return fail(B, ev->line, "out of memory");
		if (ev->kind == TRC_XB && size > c->size)
			c->size = size;
		if (ev->kind == TRC_XB && ev->op.len > 0 &&
		    lookup(colls, ev->op.s + (ev->op.s[0] == 'i'),
		    ev->op.len - (ev->op.s[0] == 'i')) >= FIRST_NEIGHBOR)
			c->graph = 1;
	} else if (ev->kind == TRC_XB && ev->op.len > 0 &&
	    lookup(colls, ev->op.s + (ev->op.s[0] == 'i'),
	    ev->op.len - (ev->op.s[0] == 'i')) >= FIRST_NEIGHBOR)
		return fail(B, ev->line, "cannot reproduce a neighbour "
		    "collective on the world (its topology is not traced)");
	if (size > B->maxsize)
		B->maxsize = size;
	if (ev->kind == TRC_SB && str_is(&ev->op, "bsend")) {
		R->bsend += ev->bytes + 1024;
		if (R->bsend > B->maxbsend)
			B->maxbsend = R->bsend;
	}
	if (ev->kind == TRC_WB) {
		s = ev->reqs;
		for (n = 0; trc_reqs_next(&s, &id) > 0; n++)
			;
		if (n > B->maxw)
			B->maxw = n;
	}
	if (!has_req(ev))
		return 0;
	if ((ev->kind == TRC_SB || (ev->kind == TRC_RB) ||
	    ev->kind == TRC_XB) && live_post(B, R, ev->req) < 0)
		return fail(B, ev->line, "out of memory");
	if (ev->kind == TRC_WE)
		live_done(R, &ev->reqs);
	return 0;
}

int
trc_bench_add(struct trc_bench *B, const struct trc_event *ev)
{
	struct brank *R, *p;
	struct bev e = { 0 };
	char msg[128];
	const char *why;
	int32_t nr;

	if (B->failed)
		return -1;
	if (ev->rank >= B->nrk) {
		nr = B->nrk ? B->nrk : 16;
		while (nr <= ev->rank)
			nr *= 2;
		if ((p = realloc(B->rk, (size_t)nr * sizeof(*p))) == NULL)
			return fail(B, ev->line, "out of memory");
		memset(p + B->nrk, 0, (size_t)(nr - B->nrk) * sizeof(*p));
		B->rk = p;
		B->nrk = nr;
	}
	R = &B->rk[ev->rank];
	if ((why = check(ev, msg, sizeof(msg))) != NULL)
		return fail(B, ev->line, "%s", why);
	if (compute(B, R, ev) < 0 || regions(B, R, ev) < 0 ||
	    account(B, R, ev) < 0)
		return -1;
	R->seen = 1;
	R->last_t = ev->t;

	e.t = R->clock;
	e.line = ev->line;
	e.kind = ev->kind;
	e.peer = ev->peer;
	e.tag = ev->tag;
	e.comm = ev->comm;
	e.root = ev->root;
	e.size = comm_size(ev);
	e.bytes = ev->bytes;
	e.req = ev->req;
	e.polls = polling_call(ev) ? recorded_polls(ev) : -1;
	if ((ev->reqs.len > 0 && (e.reqs = sdup(&ev->reqs)) == NULL) ||
	    (ev->op.len > 0 && (e.op = sdup(&ev->op)) == NULL) ||
	    (ev->fn.len > 0 && (e.fn = sdup(&ev->fn)) == NULL)) {
		bev_clear(&e);
		return fail(B, ev->line, "out of memory");
	}
	if (!B->o.deterministic) {
		if (unwild(R, &e) < 0) {
			bev_clear(&e);
			return fail(B, ev->line, "out of memory");
		}
		e.open = feed(B, ev->rank, &e);
		bev_clear(&e);
		return e.open;
	}
	if ((e.kind == TRC_RE || e.kind == TRC_WE) &&
	    settle(R, &e, B->o.conceptual) < 0) {
		bev_clear(&e);
		return fail(B, ev->line, "out of memory");
	}
	e.open = is_choice(&e, B->o.conceptual);
	if (R->qhead == R->qn && !e.open) {
		e.open = feed(B, ev->rank, &e);
		bev_clear(&e);
		return e.open;
	}
	if (hold(B, ev->rank, &e) < 0) {
		bev_clear(&e);
		return -1;
	}
	return flush_held(B, ev->rank, 0);
}

/* ---- Writing the program ---- */

enum { P_NONE, P_ANY, P_REL, P_ABS, P_TOOK, P_REPLY };

/* An event template of the compressor, read back. */
struct tpl {
	enum trc_kind	 kind;
	int		 peer;		/* P_* */
	long long	 pv;		/* P_REL: offset; P_ABS: rank */
	long long	 tag, bytes, root;
	int32_t		 comm;
	int		 hasreq, nreq;
	long long	 reqplus;
	long long	 reqoff[64];	/* R - reqoff[i] after R += reqplus */
	char		 op[64];
	char		 fn[TRC_MAXLINE];
};

static int
parse_tpl(const char *t, struct tpl *x)
{
	long long top = 0, k, abs_[64];
	const char *v, *e;
	char key[16], *end;
	size_t n;
	int i;

	memset(x, 0, sizeof(*x));
	x->tag = x->bytes = x->root = -1;
	n = strcspn(t, " ");
	if (trc_kind_parse(t, n, &x->kind) < 0)
		return -1;
	for (t += n; *t == ' '; t += n) {
		t++;
		n = strcspn(t, " ");
		if ((v = memchr(t, '=', n)) == NULL || (size_t)(v - t) >= sizeof(key))
			return -1;
		memcpy(key, t, (size_t)(v - t));
		key[v - t] = '\0';
		v++;
		e = t + n;
		if (strcmp(key, "op") == 0 || strcmp(key, "fn") == 0) {
			if (*v == '@')
				v++;		/* "@@x": a literal '@x' */
			if ((size_t)(e - v) >= (strcmp(key, "op") == 0 ?
			    sizeof(x->op) : sizeof(x->fn)))
				return -1;
			memcpy(strcmp(key, "op") == 0 ? x->op : x->fn, v,
			    (size_t)(e - v));
			continue;
		}
		if (strcmp(key, "req") == 0) {
			/* "@r+1,-0": +k is a new request, the highest so
			 * far plus k, -k the highest less k. */
			x->hasreq = 1;
			if (strncmp(v, "@r", 2) != 0)
				return -1;
			for (v += 2; v < e; v++) {
				if ((*v != '+' && *v != '-') || x->nreq == 64)
					return -1;
				k = strtoll(v + 1, &end, 10);
				if (end == v + 1 || k < 0)
					return -1;
				if (*v == '+')
					top += k;
				abs_[x->nreq++] = *v == '+' ? top : top - k;
				v = end;
				if (*v != ',')
					break;
			}
			if (v != e)
				return -1;
			x->reqplus = top;
			for (i = 0; i < x->nreq; i++)
				x->reqoff[i] = top - abs_[i];
			continue;
		}
		if (strcmp(key, "peer") == 0) {
			if (*v == '*')
				x->peer = P_ANY;
			else if (strncmp(v, "@p", 2) == 0)
				x->peer = P_TOOK;
			else if (strncmp(v, "@w", 2) == 0)
				x->peer = P_REPLY;
			else if (*v == '@') {
				x->peer = P_REL;
				x->pv = strtoll(v + 1, NULL, 10);
			} else {
				x->peer = P_ABS;
				x->pv = strtoll(v, NULL, 10);
			}
			continue;
		}
		k = *v == '*' ? TRC_ANY : strtoll(v, NULL, 10);
		if (strcmp(key, "tag") == 0)
			x->tag = k;
		else if (strcmp(key, "bytes") == 0)
			x->bytes = k;
		else if (strcmp(key, "comm") == 0)
			x->comm = (int32_t)k;
		else if (strcmp(key, "root") == 0)
			x->root = k;
	}
	return 0;
}

/* The program's constants and tables, known before it is written. */
struct gen {
	FILE		*f;
	struct trc_bench *B;
	int32_t		 N;		/* ranks */
	int32_t		*cidx;		/* comm id -> index, by B->cm order */
	int		 ncm;
	struct tpl	*x;		/* the template being written */
};

static int
comm_index(const struct gen *G, int32_t id)
{
	int i;

	if (id == 0)
		return 0;
	for (i = 0; i < G->B->ncm; i++)
		if (G->B->cm[i].id == id)
			return G->cidx[i];
	return 0;
}

static void
indent(FILE *f, int depth)
{
	while (depth-- > 0)
		fputc('\t', f);
}

static void
put_peer(FILE *f, const struct tpl *x, int k)
{
	switch (x->peer) {
	case P_ANY:
		fputs("MPI_ANY_SOURCE", f);
		break;
	case P_REL:
		if (x->pv == 0)
			fprintf(f, "bench_peer(%d, me)", k);
		else
			fprintf(f, "bench_peer(%d, me %c %lld)", k,
			    x->pv < 0 ? '-' : '+', x->pv < 0 ? -x->pv : x->pv);
		break;
	case P_REPLY:
		fprintf(f, "bench_wsrc(%d)", k);
		break;
	case P_ABS:
		fprintf(f, "bench_peer(%d, %lld)", k, x->pv);
		break;
	default:
		fputs("MPI_PROC_NULL", f);
	}
}

static void
put_tag(FILE *f, const struct tpl *x)
{
	if (x->tag == TRC_ANY)
		fputs("MPI_ANY_TAG", f);
	else
		fprintf(f, "%lld", x->tag < 0 ? 0 : x->tag);
}

/* A C string literal. */
static void
put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s != '\0'; s++)
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 32 || (unsigned char)*s >= 127)
			fprintf(f, "\\%03o", (unsigned char)*s);
		else
			fputc(*s, f);
	fputc('"', f);
}

static void
put_upper(FILE *f, const char *s)
{
	for (; *s != '\0'; s++)
		fputc(*s >= 'a' && *s <= 'z' ? *s - 'a' + 'A' : *s, f);
}

/* An MPI function's name after MPI_: allreduce Allreduce. */
static void
put_cap(FILE *f, const char *s)
{
	if (*s >= 'a' && *s <= 'z')
		fputc(*s++ - 'a' + 'A', f);
	fputs(s, f);
}

/* The request id of element i of req=, after R += reqplus. */
static void
put_rid(FILE *f, const struct tpl *x, int i)
{
	if (x->reqoff[i] == 0)
		fputs("R", f);
	else
		fprintf(f, "R - %lld", x->reqoff[i]);
}

/* The send, receive, wait or collective of one template. */
/*
 * A blocking collective that reads no arrays, called where the program
 * called it, as a send is, not through bench_coll(): its switch and
 * its datatype's choice between two calls cost the benchmark 8 ns an
 * allreduce (t/mpi/comms, rank 0, the mean wall time between calls:
 * 172 through bench_coll(), 164 called straight) that the program,
 * which calls MPI itself, did not spend.  The reductions' type and
 * count as the runtime's red_type() chooses them.  0 when bench_coll()
 * must make it.
 */
static int
coll_direct(FILE *f, const struct tpl *x, int k)
{
	static const char *const red[] = {
		"reduce", "allreduce", "reduce_scatter_block", "scan", "exscan",
		NULL
	};
	static const char *const plain[] = {
		"bcast", "gather", "scatter", "allgather", "alltoall", NULL
	};
	long long b = x->bytes < 0 ? 0 : x->bytes, n;
	const char *t;
	char root[64];

	if (x->root >= 0)
		snprintf(root, sizeof(root), ", bench_peer(%d, %lld)", k,
		    x->root);
	else
		snprintf(root, sizeof(root), ", 0");
	if (strcmp(x->op, "barrier") == 0) {
		fprintf(f, "MPI_Barrier(comm[%d]);\n", k);
		return 1;
	}
	if (lookup(red, x->op, strlen(x->op)) >= 0) {
		if (b % 8 == 0)
			t = "MPI_INT64_T", n = b / 8;
		else if (b % 4 == 0)
			t = "MPI_INT32_T", n = b / 4;
		else if (b % 2 == 0)
			t = "MPI_INT16_T", n = b / 2;
		else
			t = "MPI_BYTE", n = b;
		fputs("MPI_", f);
		put_cap(f, x->op);
		fprintf(f, "(sbuf, rbuf, %lld, %s, MPI_BOR%s, comm[%d]);\n", n,
		    t, strcmp(x->op, "reduce") == 0 ? root : "", k);
		return 1;
	}
	if (lookup(plain, x->op, strlen(x->op)) < 0)
		return 0;
	fputs("MPI_", f);
	put_cap(f, x->op);
	if (strcmp(x->op, "bcast") == 0)
		fprintf(f, "(sbuf, %lld, MPI_BYTE%s, comm[%d]);\n", b, root, k);
	else
		fprintf(f, "(sbuf, %lld, MPI_BYTE, rbuf, %lld, MPI_BYTE%s, "
		    "comm[%d]);\n", b, b, strncmp(x->op, "all", 3) == 0 ? "" :
		    root, k);
	return 1;
}

static void
emit_call(struct gen *G, const struct tpl *x, int d)
{
	FILE *f = G->f;
	int k = comm_index(G, x->comm), i, w;
	const char *mode;

	if (x->reqplus > 0) {
		indent(f, d);
		fprintf(f, "R += %lld;\n", x->reqplus);
	}
	switch (x->kind) {
	case TRC_PB:
	case TRC_PE:
		indent(f, d);
		fprintf(f, "MPI_Pcontrol(%d, ", x->kind == TRC_PB ? 1 : -1);
		put_string(f, x->fn);
		fputs(");\n", f);
		return;
	case TRC_SB:
		indent(f, d);
		if (strcmp(x->op, "sendrecv") == 0) {
			fprintf(f, "bench_sr_send(%lld, ", x->bytes);
			put_peer(f, x, k);
			fputs(", ", f);
			put_tag(f, x);
			fprintf(f, ", %d);\n", k);
			return;
		}
		if (strcmp(x->op, "start") == 0) {
			fprintf(f, "bench_send_init(%lld, ", x->bytes);
			put_peer(f, x, k);
			fputs(", ", f);
			put_tag(f, x);
			fprintf(f, ", %d, ", k);
			put_rid(f, x, 0);
			fputs(");\n", f);
			return;
		}
		mode = x->op[0] == '\0' ? "" : x->op[0] == 'i' ? x->op + 1 :
		    x->op;
		fprintf(f, "MPI_%s%c%s(sbuf, %lld, MPI_BYTE, ",
		    x->hasreq ? "I" : "", x->hasreq ? mode[0] == '\0' ? 's' :
		    mode[0] : mode[0] == '\0' ? 'S' : mode[0] - 'a' + 'A',
		    mode[0] == '\0' ? "end" : mode + 1, x->bytes);
		put_peer(f, x, k);
		fputs(", ", f);
		put_tag(f, x);
		fprintf(f, ", comm[%d]", k);
		if (x->hasreq) {
			fputs(", bench_req(", f);
			put_rid(f, x, 0);
			fputc(')', f);
		}
		fputs(");\n", f);
		return;
	case TRC_RB:
		indent(f, d);
		if (strcmp(x->op, "mrecv") == 0 || strcmp(x->op, "imrecv") == 0) {
			fprintf(f, "bench_mrecv(%lld, ", x->bytes);
			if (x->hasreq)
				put_rid(f, x, 0);
			else
				fputc('0', f);
			fputs(");\n", f);
			return;
		}
		fprintf(f, "bench_%s(%lld, ", strcmp(x->op, "sendrecv") == 0 ?
		    "sr_recv" : strcmp(x->op, "start") == 0 ? "recv_init" :
		    x->hasreq ? "irecv" : "recv", x->bytes);
		put_peer(f, x, k);
		fputs(", ", f);
		put_tag(f, x);
		fprintf(f, ", %d", k);
		if (x->hasreq) {
			fputs(", ", f);
			put_rid(f, x, 0);
		}
		fputs(");\n", f);
		return;
	case TRC_RE:
		if (x->peer != P_TOOK)
			return;
		indent(f, d);
		fputs("bench_took(", f);
		if (x->hasreq)
			put_rid(f, x, 0);
		else
			fputc('0', f);
		fputs(");\n", f);
		return;
	case TRC_WB:
		indent(f, d);
		if (strcmp(x->op, "sendrecv") == 0) {
			fputs("bench_sendrecv();\n", f);
			return;
		}
		if ((w = lookup(probes, x->op, strlen(x->op))) >= 0) {
			fprintf(f, "bench_probe(%d, ", w);
			put_peer(f, x, k);
			fputs(", ", f);
			put_tag(f, x);
			fprintf(f, ", %d);\n", k);
			return;
		}
		fputs("bench_wait(B_", f);
		put_upper(f, x->op[0] == '\0' ? "waitall" : x->op);
		fprintf(f, ", %d, ", x->nreq);
		if (x->nreq == 0)
			fputs("NULL", f);
		else {
			fputs("(const long[]){ ", f);
			for (i = 0; i < x->nreq; i++) {
				if (i > 0)
					fputs(", ", f);
				put_rid(f, x, i);
			}
			fputs(" }", f);
		}
		fputs(");\n", f);
		return;
	case TRC_XB:
		indent(f, d);
		if (!x->hasreq && coll_direct(f, x, k))
			return;
		fputs("bench_coll(B_", f);
		put_upper(f, x->hasreq ? x->op + 1 : x->op);
		fprintf(f, ", %lld, %lld, %d, ", x->bytes < 0 ? 0 : x->bytes,
		    x->root, k);
		if (x->hasreq)
			put_rid(f, x, 0);
		else
			fputc('0', f);
		fputs(");\n", f);
		return;
	default:
		return;
	}
}

/* Each rank's leaves in program order, for the times. */
static void
collect(struct trc_loops_node *const *seq, size_t n,
    struct trc_loops_node **out, int *k)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (seq[i]->tmpl >= 0)
			out[(*k)++] = seq[i];
		else
			collect(seq[i]->body, (size_t)seq[i]->nbody, out, k);
}

static int
count_leaves(struct trc_loops_node *const *seq, size_t n)
{
	size_t i;
	int k = 0;

	for (i = 0; i < n; i++)
		k += seq[i]->tmpl >= 0 ? 1 :
		    count_leaves(seq[i]->body, (size_t)seq[i]->nbody);
	return k;
}

static int
begins(enum trc_kind k)
{
	return k == TRC_SB || k == TRC_RB || k == TRC_WB || k == TRC_XB ||
	    k == TRC_PB || k == TRC_PE || k == TRC_MK;
}

struct group {
	int32_t		*ranks;
	int		 nranks, nleaf, ntimed;
	struct trc_loops_node ***leaf;	/* [rank][leaf] */
	int		*timed;		/* leaf -> column, or -1 */
	int		*polled;	/* timed polling leaf -> column, -1 */
	int		 npolled;
};

/* A call that polls until it completes: a test, iprobe, improbe. */
static int
polls(const struct tpl *x)
{
	return x->kind == TRC_WB && (strncmp(x->op, "test", 4) == 0 ||
	    strcmp(x->op, "iprobe") == 0 || strcmp(x->op, "improbe") == 0);
}

static int
emit_body(struct gen *G, struct group *g, struct trc_loops_node *const *seq,
    size_t n, int depth, int *leafno)
{
	struct tpl *x = G->x;	/* one, not one a level of loops */
	size_t i;
	int j;

	for (i = 0; i < n; i++) {
		if (seq[i]->tmpl < 0) {
			indent(G->f, depth);
			fprintf(G->f, "for (long i%d = 0; i%d < %lld; i%d++) "
			    "{\n", depth, depth, (long long)seq[i]->count,
			    depth);
			if (emit_body(G, g, seq[i]->body,
			    (size_t)seq[i]->nbody, depth + 1, leafno) < 0)
				return -1;
			indent(G->f, depth);
			fputs("}\n", G->f);
			continue;
		}
		if (parse_tpl(trc_loops_template(G->B->L, seq[i]->tmpl),
		    x) < 0)
			return fail(G->B, 0, "bad template '%s'",
			    trc_loops_template(G->B->L, seq[i]->tmpl));
		if ((j = g->timed[*leafno]) >= 0) {
			indent(G->f, depth);
			if (g->polled[*leafno] >= 0)
				fprintf(G->f, "bench_compute_polling(&t[%d], "
				    "n[%d]++, w[%d]);\n", j, j,
				    g->polled[*leafno]);
			else
				fprintf(G->f, "bench_compute(&t[%d], n[%d]++);"
				    "\n", j, j);
		}
		emit_call(G, x, depth);
		(*leafno)++;
	}
	return 0;
}

/*
 * The tracer's own time between two calls, part of every computation
 * the trace shows (its writing of one event, its reading of the clocks
 * for the next), which the benchmark's own tracer spends again: the
 * mean of the rank's computations from its least, f, to 2f, the calls
 * made one after the other, when f is short enough to be a tracer's
 * (under TRACER_MAX ns), else none.
 */
static int64_t
tracer_cost(const struct trc_bench *B, int32_t rank)
{
	const struct brank *R;
	int64_t n = 0, sum = 0;
	int b;

	if (rank >= B->nrk || (R = &B->rk[rank])->small == NULL ||
	    R->floor <= 0 || R->floor >= TRACER_MAX)
		return 0;
	for (b = 0; b < NSMALL && b * TRACER_MAX / NSMALL <= 2 * R->floor;
	    b++) {
		n += R->small[b];
		sum += R->small[NSMALL + b];
	}
	return n > 0 ? sum / n : 0;
}

/*
 * Whether a leaf's computations after its first are the calls the
 * program made one after the other: the rank's tracer has a cost
 * (tracer_cost()), and their mean is at most twice the rank's least,
 * 2f, as tracer_cost() counts them.  Their time is the tracer's own
 * and the program's few instructions around its calls, whose cost is
 * not the rank's mean but varies with the call (its lines, its
 * bookkeeping: 280 ns before a barrier, 310 before an allreduce in
 * t/mpi/subcomm's trace on the CPU clock, f 255), and the benchmark's
 * tracer and its own code between the calls spend it again: none of
 * it is spent.  Compared on the times as the benchmark spends them
 * (--cpu scales the least too).
 */
static int
back_to_back(const struct trc_bench *B, int32_t rank,
    const struct trc_loops_series *s)
{
	const struct brank *R;

	if (s->n < 2 || tracer_cost(B, rank) <= 0 ||
	    (R = &B->rk[rank])->sfloor <= 0)
		return 0;
	return (double)s->sum - (double)s->first <=
	    2 * (double)R->sfloor * (double)(s->n - 1);
}

/* What a rank computed per unsuccessful poll, ns, 0 when unknown. */
static int64_t
poll_slice_ns(const struct trc_bench *B, int32_t rank)
{
	const struct brank *R = rank < B->nrk ? &B->rk[rank] : NULL;

	return R != NULL && R->polls > 0 ? R->pollgap / R->polls : 0;
}

/* A polling call's computation while it polled: its mean polls (the
 * template's last series, polls=) at the rank's computation per poll. */
static long long
polled_ns(const struct trc_bench *B, int32_t rank,
    const struct trc_loops_leaf *d)
{
	const struct trc_loops_series *p;

	if (d->nv < 1 || (p = &d->v[d->nv - 1])->n < 1)
		return 0;
	return llround((double)p->sum / (double)p->n *
	    (double)poll_slice_ns(B, rank));
}

/*
 * The times after the first: an arithmetic progression, exact, or the
 * least-squares line through them, a + b k for the k-th (k >= 1),
 * which keeps their sum and follows a trend (a master's tasks that
 * grow); for times that only scatter it is about their mean.
 */
static void
dt_line(const struct trc_loops_series *s, int64_t cost, long long *a,
    double *b)
{
	double n = (double)s->n - 1, s1, s2, sx, skx, det;

	*b = 0;
	if (s->arith) {
		*a = s->stride;
		return;
	}
	if (s->n < 2) {
		*a = 0;
		return;
	}
	/* k = 1 .. n: sums of k and k^2; of x and k x (the first's k x is
	 * 0). */
	s1 = n * (n + 1) / 2;
	s2 = n * (n + 1) * (2 * n + 1) / 6;
	sx = (double)(s->sum - s->first);
	skx = s->ksum;
	det = n * s2 - s1 * s1;
	if (s->n > 2 && det > 0)
		*b = (n * skx - s1 * sx) / det;
	*a = llround((sx - *b * s1) / n) - cost;
}

/* A group's leaves, rank by rank, in program order: g->leaf. */
static int
group_leaves(struct gen *G, struct group *g)
{
	struct trc_loops_node *const *seq;
	size_t n;
	int i, j;

	seq = trc_loops_program(G->B->L, g->ranks[0], &n);
	g->nleaf = count_leaves(seq, n);
	if ((g->leaf = calloc((size_t)g->nranks, sizeof(*g->leaf))) == NULL ||
	    (g->timed = calloc((size_t)g->nleaf + 1, sizeof(int))) == NULL ||
	    (g->polled = calloc((size_t)g->nleaf + 1, sizeof(int))) == NULL)
		return fail(G->B, 0, "out of memory");
	for (i = 0; i < g->nranks; i++) {
		if ((g->leaf[i] = calloc((size_t)g->nleaf + 1,
		    sizeof(**g->leaf))) == NULL)
			return fail(G->B, 0, "out of memory");
		j = 0;
		seq = trc_loops_program(G->B->L, g->ranks[i], &n);
		collect(seq, n, g->leaf[i], &j);
	}
	return 0;
}

static int
emit_group(struct gen *G, int32_t gno, struct group *g)
{
	struct trc_loops_node *const *seq;
	const struct trc_loops_series *s;
	struct tpl *x = G->x;
	int64_t cost;
	long long a;
	double b;
	size_t n;
	int i, j, arith, leafno = 0;

	if (group_leaves(G, g) < 0)
		return -1;
	/* The leaves that compute on some rank get a column of times. */
	for (j = 0; j < g->nleaf; j++) {
		g->timed[j] = g->polled[j] = -1;
		if (parse_tpl(trc_loops_template(G->B->L, g->leaf[0][j]->tmpl),
		    x) < 0)
			return fail(G->B, 0, "bad template");
		if (!begins(x->kind))
			continue;
		for (i = 0; i < g->nranks; i++) {
			s = &g->leaf[i][j]->d->dt;
			if (s->first != 0 || s->sum != 0)
				break;
		}
		if (i < g->nranks) {
			g->timed[j] = g->ntimed++;
			if (polls(x))
				g->polled[j] = g->npolled++;
		}
	}
	fprintf(G->f, "\n/* ranks");
	for (i = 0; i < g->nranks; i++)
		fprintf(G->f, "%s%ld", i ? "," : " ", (long)g->ranks[i]);
	fprintf(G->f, " */\n");
	if (g->ntimed > 0) {
		fprintf(G->f, "static const struct bench_dt T%ld[%d][%d] = {\n",
		    (long)gno, g->nranks, g->ntimed);
		for (i = 0; i < g->nranks; i++) {
			fputs("\t{", G->f);
			for (j = 0; j < g->nleaf; j++) {
				if (g->timed[j] < 0)
					continue;
				s = &g->leaf[i][j]->d->dt;
				cost = tracer_cost(G->B, g->ranks[i]);
				arith = s->arith;
				if (back_to_back(G->B, g->ranks[i], s)) {
					a = 0;
					b = 0;
					arith = 0;
				} else
					dt_line(s, cost, &a, &b);
				fprintf(G->f, "%s{ %lld, %lld, %d, %.9g }",
				    g->timed[j] ? ", " : " ",
				    (long long)(s->first > cost ? s->first -
				    cost : 0), a, arith, b);
			}
			fputs(" },\n", G->f);
		}
		fputs("};\n", G->f);
	}
	if (g->npolled > 0) {
		/* The computation while polling of each polling call: its
		 * mean polls at the rank's computation per poll, ns. */
		fprintf(G->f, "static const long long W%ld[%d][%d] = {\n",
		    (long)gno, g->nranks, g->npolled);
		for (i = 0; i < g->nranks; i++) {
			fputs("\t{", G->f);
			for (j = 0; j < g->nleaf; j++)
				if (g->polled[j] >= 0)
					fprintf(G->f, "%s%lld", g->polled[j] ?
					    ", " : " ", polled_ns(G->B,
					    g->ranks[i], g->leaf[i][j]->d));
			fputs(" },\n", G->f);
		}
		fputs("};\n", G->f);
	}
	fprintf(G->f, "\nstatic void\ng%ld(int gi)\n{\n", (long)gno);
	if (g->npolled > 0)
		fprintf(G->f, "\tconst long long *w = W%ld[gi];\n",
		    (long)gno);
	if (g->ntimed > 0)
		fprintf(G->f, "\tconst struct bench_dt *t = T%ld[gi];\n"
		    "\tlong n[%d] = { 0 };\n\n", (long)gno, g->ntimed);
	else
		fputs("\t(void)gi;\n", G->f);
	seq = trc_loops_program(G->B->L, g->ranks[0], &n);
	if (emit_body(G, g, seq, n, 1, &leafno) < 0)
		return -1;
	fputs("}\n", G->f);
	return 0;
}

static int
cmp_comm(const void *a, const void *b)
{
	const struct bcomm *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* The least member of c, or -1. */
static int32_t
least(const struct bcomm *c)
{
	int32_t r;

	for (r = 0; r < c->cap; r++)
		if (c->member[r])
			return r;
	return -1;
}

/* One communicator the program makes: a traced one's index in B->cm,
 * or -1 for one of L alone, made and freed. */
struct made {
	int32_t		 id, L;
	int		 cm;
};

static int
cmp_made(const void *a, const void *b)
{
	const struct made *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/*
 * The communicators in the order the program makes them, by id, which
 * is by (B, L): with one of L alone for every count B of L's that the
 * trace does not use, so that each takes the id it had.  Unseen
 * (hashed) ids, and ids whose L is not their least member, come
 * after; tables into f, or only the indices when f is NULL.
 */
static void
emit_comms(struct gen *G, FILE *f)
{
	struct trc_bench *B = G->B;
	struct made *m;
	struct bcomm *c;
	int32_t *next, L, b, r;
	int i, n = 0, nmem = 0, how;

	if ((next = calloc((size_t)G->N + 1, sizeof(*next))) == NULL) {
		fail(B, 0, "out of memory");
		return;
	}
	for (r = 0; r < G->N; r++)
		next[r] = 1;
	if (B->ncm > 0)
		qsort(B->cm, (size_t)B->ncm, sizeof(*B->cm), cmp_comm);
	for (i = 0; i < B->ncm; i++) {
		c = &B->cm[i];
		L = (c->id - 1) % G->N;
		b = (c->id - 1) / G->N + 1;
		if (c->id < HASHED && least(c) == L) {
			for (; next[L] < b; next[L]++)
				n++;
			next[L] = b + 1;
		}
		n++;
	}
	if ((m = calloc((size_t)n + 1, sizeof(*m))) == NULL) {
		free(next);
		fail(B, 0, "out of memory");
		return;
	}
	for (r = 0; r < G->N; r++)
		next[r] = 1;
	for (n = i = 0; i < B->ncm; i++) {
		c = &B->cm[i];
		L = (c->id - 1) % G->N;
		b = (c->id - 1) / G->N + 1;
		if (c->id < HASHED && least(c) == L) {
			for (; next[L] < b; next[L]++) {
				m[n].id = (next[L] - 1) * G->N + L + 1;
				m[n].L = L;
				m[n++].cm = -1;
			}
			next[L] = b + 1;
			m[n].id = c->id;
		} else
			m[n].id = INT32_MAX;	/* after the others */
		m[n++].cm = i;
	}
	qsort(m, (size_t)n, sizeof(*m), cmp_made);
	G->ncm = n;
	for (i = 0; i < n; i++)
		if (m[i].cm >= 0)
			G->cidx[m[i].cm] = i + 1;
	if (f == NULL)
		goto out;
	fputs("\nconst struct bench_comm bench_comms[] = {\n", f);
	for (i = 0; i < n; i++) {
		if (m[i].cm < 0) {
			fprintf(f, "\t{ %ld, BENCH_SKIP, 1, %d },\n",
			    (long)m[i].id, nmem++);
			continue;
		}
		c = &B->cm[m[i].cm];
		how = c->graph ? 2 : m[i].id == INT32_MAX ? 1 : 0;
		fprintf(f, "\t{ %ld, %s, %ld, %d },\n", (long)c->id,
		    how == 2 ? "BENCH_GRAPH" : how ? "BENCH_UNSEEN" :
		    "BENCH_TRACED", (long)c->n, nmem);
		nmem += c->n;
	}
	if (n == 0)
		fputs("\t{ 0, BENCH_SKIP, 0, 0 }\n", f);
	fputs("};\n\nconst int bench_members[] = {", f);
	for (i = 0; i < n; i++) {
		if (m[i].cm < 0) {
			fprintf(f, " %ld,", (long)m[i].L);
			continue;
		}
		c = &B->cm[m[i].cm];
		for (r = 0; r < c->cap; r++)
			if (c->member[r])
				fprintf(f, " %ld,", (long)r);
	}
	fputs(" 0 };\n", f);
out:
	free(m);
	free(next);
}

static int64_t
pow2_at_least(int64_t x)
{
	int64_t p = 16;

	while (p < x && p < MAXRQ)
		p *= 2;
	return p;
}

/* ---- The same program in coNCePTuaL (--conceptual) ---- */

/*
 * coNCePTuaL runs one statement list on every task; a statement names
 * the tasks that act.  Each group's calls are written with its ranks
 * as the actors, so a task does only its own; a collective, though,
 * is one statement of all its communicator's members, so it must
 * line up in the programs of the groups that take part: it is written
 * once when they have all reached it, their other calls before it
 * group after group, and a loop around collectives once when they
 * have all reached loops of its count.
 */
struct nc {
	struct gen	*G;
	struct group	*g;
	int		 ng;
	int		*leafno;	/* per group, the next leaf */
	int		*pend;		/* by depth: 1 statement, 2 brace */
	int		 maxdepth;
	char		 set[TRC_MAXLINE];	/* the actors written */
};

/* Ends the statement before on this depth and begins one. */
static void
nc_begin(struct nc *N, int depth)
{
	FILE *f = N->G->f;

	if (N->pend[depth] == 1)
		fputs(depth > 0 ? " THEN\n" : ".\n", f);
	else if (N->pend[depth] == 2)
		fputs(depth > 0 ? " THEN\n" : "\n", f);
	else if (depth > 0)
		fputc('\n', f);	/* the first in braces */
	N->pend[depth] = 1;
	indent(f, depth);
}

static int
nc_open(struct nc *N, long long count, int depth)
{
	if (depth + 1 >= N->maxdepth)
		return fail(N->G->B, 0, "loops nested too deep");
	nc_begin(N, depth);
	fprintf(N->G->f, "FOR %lld REPETITIONS {", count);
	N->pend[depth + 1] = 0;
	return 0;
}

static void
nc_close(struct nc *N, int depth)
{
	fputc('\n', N->G->f);
	indent(N->G->f, depth);
	fputc('}', N->G->f);
	N->pend[depth] = 2;
}

/* A set of ranks as a coNCePTuaL range: {a, ..., b} when they are
 * consecutive, {a, b, ..., z} an arithmetic progression, else each. */
static void
nc_range(char *o, size_t len, const int32_t *r, int n)
{
	size_t k = 0;
	int i, d = n > 1 ? r[1] - r[0] : 0;

	for (i = 2; i < n && d > 0; i++)
		if (r[i] - r[i - 1] != d)
			d = 0;
	if (n >= 3 && d == 1)
		snprintf(o, len, "{%ld, ..., %ld}", (long)r[0], (long)r[n - 1]);
	else if (n >= 4 && d > 1)
		snprintf(o, len, "{%ld, %ld, ..., %ld}", (long)r[0],
		    (long)r[1], (long)r[n - 1]);
	else {
		k = (size_t)snprintf(o, len, "{");
		for (i = 0; i < n && k < len; i++)
			k += (size_t)snprintf(o + k, len - k, "%s%ld",
			    i ? ", " : "", (long)r[i]);
		if (k < len)
			snprintf(o + k, len - k, "}");
	}
}

/*
 * The actors of a statement, ranks r[0..n-1] of N: "TASK 3", "ALL
 * TASKS" or "TASKS {0, 2}", with var "ALL TASKS t" or "TASKS t SUCH
 * THAT t IS IN {0, 2}".  Returns whether it is one task (a verb's
 * singular).
 */
static int
nc_actor(struct nc *N, const int32_t *r, int n, int var)
{
	char range[TRC_MAXLINE - 64];

	if (n == 1) {
		snprintf(N->set, sizeof(N->set), "TASK %ld", (long)r[0]);
		return 1;
	}
	if (n == N->G->N) {
		snprintf(N->set, sizeof(N->set), "ALL TASKS%s",
		    var ? " t" : "");
		return 0;
	}
	nc_range(range, sizeof(range), r, n);
	snprintf(N->set, sizeof(N->set), "TASKS %s%s", var ?
	    "t SUCH THAT t IS IN " : "", range);
	return 0;
}

/* The peer of a point-to-point template for actors r[0..n-1]. */
static void
nc_peer(struct nc *N, const struct tpl *x, const int32_t *r, int n,
    char *o, size_t len)
{
	long long k, w = N->G->N;
	int i, wrap = 0;

	if (x->peer == P_ABS) {
		snprintf(o, len, "%lld", ((x->pv % w) + w) % w);
		return;
	}
	k = x->pv;
	if (n == 1) {
		snprintf(o, len, "%lld", (((r[0] + k) % w) + w) % w);
		return;
	}
	for (i = 0; i < n; i++)
		if (r[i] + k < 0 || r[i] + k >= w)
			wrap = 1;
	if (k == 0)
		snprintf(o, len, "t");
	else if (!wrap)
		snprintf(o, len, "t%c%lld", k < 0 ? '-' : '+', k < 0 ? -k : k);
	else
		snprintf(o, len, "(t+%lld) MOD %lld", ((k % w) + w) % w, w);
}

/* "A 64 BYTE MESSAGE USING TAG 7": tag 0, the language's default, and
 * none are left out. */
static void
nc_message(FILE *f, const struct tpl *x)
{
	fprintf(f, "A %lld BYTE MESSAGE", x->bytes < 0 ? 0 : x->bytes);
	if (x->tag > 0)
		fprintf(f, " USING TAG %lld", x->tag);
}

/* The computation before leaf j of group k: rank by rank its mean,
 * whole microseconds, the ranks of one value in one statement. */
static void
nc_compute(struct nc *N, int k, int j, int depth)
{
	struct group *g = &N->g[k];
	const struct trc_loops_series *s;
	int32_t *set;
	long long *us;
	int64_t cost;
	int i, m, n;

	if ((us = calloc((size_t)g->nranks, sizeof(*us))) == NULL ||
	    (set = calloc((size_t)g->nranks, sizeof(*set))) == NULL) {
		free(us);
		fail(N->G->B, 0, "out of memory");
		return;
	}
	for (i = 0; i < g->nranks; i++) {
		s = &g->leaf[i][j]->d->dt;
		cost = tracer_cost(N->G->B, g->ranks[i]);
		/* Calls one after the other: only the first's time, as the
		 * C program spends it, over the iterations. */
		if (s->n < 1)
			us[i] = 0;
		else if (back_to_back(N->G->B, g->ranks[i], s))
			us[i] = s->first > cost ? llround((double)(s->first -
			    cost) / (double)s->n / 1000) : 0;
		else
			us[i] = llround(((double)s->sum - (double)s->n *
			    (double)cost) / (double)s->n / 1000);
	}
	for (i = 0; i < g->nranks; i++) {
		if (us[i] <= 0)
			continue;
		for (n = 0, m = i; m < g->nranks; m++)
			if (us[m] == us[i]) {
				set[n++] = g->ranks[m];
				if (m > i)
					us[m] = -1;	/* written */
			}
		m = nc_actor(N, set, n, 0);
		nc_begin(N, depth);
		fprintf(N->G->f, "%s COMPUTE%s FOR %lld MICROSECONDS",
		    N->set, m ? "S" : "", us[i]);
	}
	free(us);
	free(set);
}

/* One call of group k, after its computation. */
static int
nc_leaf(struct nc *N, int k, const struct trc_loops_node *leaf, int depth)
{
	struct group *g = &N->g[k];
	struct tpl *x = N->G->x;
	char peer[64];
	const char *async;
	int one;

	if (parse_tpl(trc_loops_template(N->G->B->L, leaf->tmpl), x) < 0)
		return fail(N->G->B, 0, "bad template '%s'",
		    trc_loops_template(N->G->B->L, leaf->tmpl));
	if (begins(x->kind))
		nc_compute(N, k, N->leafno[k], depth);
	N->leafno[k]++;
	switch (x->kind) {
	case TRC_SB:
	case TRC_RB:
		if (x->peer == P_ANY || x->tag == TRC_ANY)
			return fail(N->G->B, 0, "cannot express a receive "
			    "from any source or tag that the trace does not "
			    "settle in coNCePTuaL");
		if (x->peer != P_REL && x->peer != P_ABS)
			return fail(N->G->B, 0, "cannot express a peer of "
			    "'%s' in coNCePTuaL",
			    trc_loops_template(N->G->B->L, leaf->tmpl));
		/* A nonblocking call, or a part of a sendrecv, which
		 * both parts must be posted for. */
		async = x->hasreq || strcmp(x->op, "sendrecv") == 0 ||
		    strcmp(x->op, "start") == 0 ? "ASYNCHRONOUSLY " : "";
		one = nc_actor(N, g->ranks, g->nranks, x->peer == P_REL &&
		    g->nranks > 1);
		nc_peer(N, x, g->ranks, g->nranks, peer, sizeof(peer));
		nc_begin(N, depth);
		if (x->kind == TRC_SB) {
			fprintf(N->G->f, "%s %sSEND%s ", N->set, async,
			    one ? "S" : "");
			nc_message(N->G->f, x);
			fprintf(N->G->f, " TO UNSUSPECTING TASK %s", peer);
		} else {
			fprintf(N->G->f, "%s %sRECEIVE%s ", N->set, async,
			    one ? "S" : "");
			nc_message(N->G->f, x);
			fprintf(N->G->f, " FROM TASK %s", peer);
		}
		return 0;
	case TRC_WB:
		if (lookup(probes, x->op, strlen(x->op)) >= 0)
			return 0;	/* the receive follows */
		one = nc_actor(N, g->ranks, g->nranks, 0);
		nc_begin(N, depth);
		fprintf(N->G->f, "%s AWAIT%s COMPLETION", N->set,
		    one ? "S" : "");
		return 0;
	default:
		return 0;
	}
}

/* Whether a node is or holds a collective. */
static int
nc_anchor(const struct trc_bench *B, const struct trc_loops_node *n)
{
	int i;

	if (n->tmpl >= 0)
		return strncmp(trc_loops_template(B->L, n->tmpl), "XB ", 3) ==
		    0;
	for (i = 0; i < n->nbody; i++)
		if (nc_anchor(B, n->body[i]))
			return 1;
	return 0;
}

/* A node of group k alone: a call or a loop without collectives. */
static int
nc_item(struct nc *N, int k, const struct trc_loops_node *n, int depth)
{
	int i;

	if (n->tmpl >= 0)
		return nc_leaf(N, k, n, depth);
	if (nc_open(N, (long long)n->count, depth) < 0)
		return -1;
	for (i = 0; i < n->nbody; i++)
		if (nc_item(N, k, n->body[i], depth + 1) < 0)
			return -1;
	nc_close(N, depth);
	return 0;
}

/* The members of communicator id, world ranks, into r; their count. */
static int
nc_members(struct nc *N, int32_t id, int32_t *r)
{
	const struct trc_bench *B = N->G->B;
	int32_t w;
	int i, n = 0;

	if (id == 0) {
		for (w = 0; w < N->G->N; w++)
			r[n++] = w;
		return n;
	}
	for (i = 0; i < B->ncm; i++)
		if (B->cm[i].id == id)
			for (w = 0; w < B->cm[i].cap && w < N->G->N; w++)
				if (B->cm[i].member[w])
					r[n++] = w;
	return n;
}

/*
 * One collective statement for the groups at[] whose anchor is a
 * collective of op, comm and root as x's; bytes the largest of theirs.
 */
static int
nc_coll(struct nc *N, const struct tpl *x, long long bytes, int depth)
{
	FILE *f = N->G->f;
	const char *op = x->hasreq ? x->op + 1 : x->op;
	int32_t *m, *o;
	int n, no, i, one;
	long long words = (bytes < 0 ? 0 : bytes + 7) / 8;
	char others[TRC_MAXLINE - 64];

	if ((m = calloc((size_t)N->G->N + 1, sizeof(*m))) == NULL ||
	    (o = calloc((size_t)N->G->N + 1, sizeof(*o))) == NULL) {
		free(m);
		return fail(N->G->B, 0, "out of memory");
	}
	n = nc_members(N, x->comm, m);
	for (no = i = 0; i < n; i++)
		if (m[i] != x->root)
			o[no++] = m[i];
	nc_range(others, sizeof(others), o, no);
	if (strncmp(op, "neighbor_", 9) == 0) {
		free(m);
		free(o);
		return fail(N->G->B, 0, "cannot express op=%s in coNCePTuaL",
		    x->op);
	}
	/* A communicator of one: a barrier or a reduction of itself,
	 * nothing to send to the others. */
	if (no == 0 && x->root >= 0 && strcmp(op, "reduce") != 0) {
		free(m);
		free(o);
		return 0;
	}
	if (n == 1 && strncmp(op, "all", 3) == 0 && strcmp(op, "allreduce")) {
		free(m);
		free(o);
		return 0;
	}
	nc_begin(N, depth);
	if (strcmp(op, "barrier") == 0) {
		one = nc_actor(N, m, n, 0);
		fprintf(f, "%s SYNCHRONIZE%s", N->set, one ? "S" : "");
	} else if (strcmp(op, "bcast") == 0 || strcmp(op, "scatter") == 0 ||
	    strcmp(op, "scatterv") == 0) {
		fprintf(f, "TASK %lld MULTICASTS A %lld BYTE MESSAGE TO ",
		    x->root, bytes < 0 ? 0 : bytes);
		if (n == N->G->N)
			fputs("ALL OTHER TASKS", f);
		else if (no == 1)
			fprintf(f, "TASK %ld", (long)o[0]);
		else
			fprintf(f, "TASKS %s", others);
	} else if (strcmp(op, "gather") == 0 || strcmp(op, "gatherv") == 0) {
		one = nc_actor(N, o, no, 0);
		fprintf(f, "%s MULTICAST%s A %lld BYTE MESSAGE TO TASK %lld",
		    N->set, one ? "S" : "", bytes < 0 ? 0 : bytes, x->root);
	} else if (strcmp(op, "reduce") == 0) {
		one = nc_actor(N, m, n, 0);
		fprintf(f, "%s REDUCE%s %lld DOUBLEWORDS TO TASK %lld", N->set,
		    one ? "S" : "", words, x->root);
	} else if (strncmp(op, "all", 3) == 0 && strcmp(op, "allreduce")) {
		/* allgather(v), alltoall(v, w): many to many */
		one = nc_actor(N, m, n, n < N->G->N);
		fprintf(f, "%s MULTICAST%s A %lld BYTE MESSAGE TO ", N->set,
		    one ? "S" : "", bytes < 0 ? 0 : bytes);
		if (n == N->G->N)
			fputs("ALL OTHER TASKS", f);
		else {
			nc_range(others, sizeof(others), m, n);
			fprintf(f, "TASKS u SUCH THAT u IS IN %s /\\ u <> t",
			    others);
		}
	} else {
		/* allreduce, reduce_scatter(_block), scan, exscan */
		one = nc_actor(N, m, n, 0);
		fprintf(f, "%s REDUCE%s %lld DOUBLEWORDS", N->set,
		    one ? "S" : "", words);
	}
	free(m);
	free(o);
	return 0;
}

/* The ranks that an anchor's collectives involve, marked in in[]. */
static int
nc_reach(struct nc *N, const struct trc_loops_node *n, unsigned char *in,
    int32_t *r)
{
	struct tpl y;
	int i, m;

	if (n->tmpl < 0) {
		for (i = 0; i < n->nbody; i++)
			if (nc_reach(N, n->body[i], in, r) < 0)
				return -1;
		return 0;
	}
	if (strncmp(trc_loops_template(N->G->B->L, n->tmpl), "XB ", 3) != 0)
		return 0;
	if (parse_tpl(trc_loops_template(N->G->B->L, n->tmpl), &y) < 0)
		return fail(N->G->B, 0, "bad template");
	m = nc_members(N, y.comm, r);
	for (i = 0; i < m; i++)
		in[r[i]] = 1;
	return 0;
}

/* Whether anchors a and b are the same collective, or loops of one
 * count. */
static int
nc_same(struct nc *N, const struct trc_loops_node *a,
    const struct trc_loops_node *b)
{
	struct tpl x, y;

	if ((a->tmpl < 0) != (b->tmpl < 0))
		return 0;
	if (a->tmpl < 0)
		return a->count == b->count;
	if (parse_tpl(trc_loops_template(N->G->B->L, a->tmpl), &x) < 0 ||
	    parse_tpl(trc_loops_template(N->G->B->L, b->tmpl), &y) < 0)
		return 0;
	return x.comm == y.comm && x.root == y.root && strcmp(x.op, y.op) == 0;
}

/*
 * The sequences seq[k] of n[k] nodes of the groups gs[0..ngs-1] at one
 * depth, merged: each group's calls up to its next anchor, then an
 * anchor that every group it involves has reached (the same
 * collective, or loops of one count whose bodies are merged the same
 * way), until none is left.
 */
static int
nc_merge(struct nc *N, const int *gs, int ngs,
    struct trc_loops_node *const **seq, const size_t *n, int depth)
{
	struct trc_bench *B = N->G->B;
	struct trc_loops_node *const **body = NULL;
	const struct trc_loops_node *a = NULL, *c;
	unsigned char *in = NULL;
	struct tpl y;
	size_t *pos, *nb = NULL;
	long long bytes;
	int32_t *r = NULL, w;
	int i, j, k, at, ns = 0, *sub = NULL, rc = -1;

	pos = calloc((size_t)ngs + 1, sizeof(*pos));
	sub = calloc((size_t)ngs + 1, sizeof(*sub));
	body = calloc((size_t)ngs + 1, sizeof(*body));
	nb = calloc((size_t)ngs + 1, sizeof(*nb));
	in = calloc((size_t)N->G->N + 1, 1);
	r = calloc((size_t)N->G->N + 1, sizeof(*r));
	if (pos == NULL || sub == NULL || body == NULL || nb == NULL ||
	    in == NULL || r == NULL) {
		fail(B, 0, "out of memory");
		goto out;
	}
	for (;;) {
		for (at = i = 0; i < ngs; i++) {
			k = gs[i];
			while (pos[i] < n[i] && !nc_anchor(B, seq[i][pos[i]]))
				if (nc_item(N, k, seq[i][pos[i]++], depth) < 0)
					goto out;
			at += pos[i] < n[i];
		}
		if (at == 0)
			break;
		/* The first anchor whose groups have all reached it. */
		for (i = 0; i < ngs; i++) {
			if (pos[i] == n[i])
				continue;
			a = seq[i][pos[i]];
			memset(in, 0, (size_t)N->G->N);
			if (nc_reach(N, a, in, r) < 0)
				goto out;
			for (ns = j = 0; j < ngs; j++) {
				for (w = 0; w < N->g[gs[j]].nranks; w++)
					if (in[N->g[gs[j]].ranks[w]])
						break;
				if (j != i && w == N->g[gs[j]].nranks)
					continue;	/* not involved */
				if (pos[j] == n[j] ||
				    !nc_same(N, a, seq[j][pos[j]]))
					break;
				sub[ns++] = j;
			}
			if (j == ngs)
				break;
		}
		if (i == ngs) {
			for (i = 0; pos[i] == n[i]; i++)
				;
			fail(B, 0, "cannot express in coNCePTuaL: the "
			    "collectives of rank %ld and others come in "
			    "different orders or loops",
			    (long)N->g[gs[i]].ranks[0]);
			goto out;
		}
		if (a->tmpl < 0) {
			for (j = 0; j < ns; j++) {
				c = seq[sub[j]][pos[sub[j]]];
				body[j] = c->body;
				nb[j] = (size_t)c->nbody;
				sub[j] = gs[sub[j]];
			}
			if (nc_open(N, (long long)a->count, depth) < 0 ||
			    nc_merge(N, sub, ns, body, nb, depth + 1) < 0)
				goto out;
			nc_close(N, depth);
			/* sub[] now holds group numbers: find them again. */
			for (j = 0; j < ngs; j++)
				for (k = 0; k < ns; k++)
					if (gs[j] == sub[k])
						pos[j]++;
			continue;
		}
		/* A collective: each group's computation before it, then
		 * one statement with the largest size of theirs. */
		bytes = -1;
		for (j = 0; j < ns; j++) {
			c = seq[sub[j]][pos[sub[j]]];
			if (parse_tpl(trc_loops_template(B->L, c->tmpl),
			    &y) < 0) {
				fail(B, 0, "bad template");
				goto out;
			}
			if (y.bytes > bytes)
				bytes = y.bytes;
			nc_compute(N, gs[sub[j]], N->leafno[gs[sub[j]]]++,
			    depth);
			pos[sub[j]]++;
		}
		if (nc_coll(N, &y, bytes, depth) < 0)
			goto out;
	}
	rc = 0;
out:
	free(pos);
	free(sub);
	free(body);
	free(nb);
	free(in);
	free(r);
	return rc;
}

static int
write_conceptual(struct gen *G, struct group *g, int ng)
{
	struct trc_loops_node *const **seq;
	struct nc N = { 0 };
	size_t *n;
	int k, *gs, rc = -1;

	N.G = G;
	N.g = g;
	N.ng = ng;
	N.maxdepth = 256;
	seq = calloc((size_t)ng + 1, sizeof(*seq));
	n = calloc((size_t)ng + 1, sizeof(*n));
	N.leafno = calloc((size_t)ng + 1, sizeof(int));
	N.pend = calloc((size_t)N.maxdepth, sizeof(int));
	gs = calloc((size_t)ng + 1, sizeof(*gs));
	if (seq == NULL || n == NULL || N.leafno == NULL || N.pend == NULL ||
	    gs == NULL) {
		fail(G->B, 0, "out of memory");
		goto out;
	}
	for (k = 0; k < ng; k++) {
		if (group_leaves(G, &g[k]) < 0)
			goto out;
		seq[k] = trc_loops_program(G->B->L, g[k].ranks[0], &n[k]);
	}
	fprintf(G->f, "# A coNCePTuaL benchmark made by trc-bench from %s:\n"
	    "# the MPI calls of the traced run, rank by rank, and its "
	    "computation;\n# every receive from the source it took in the "
	    "trace.\n", G->B->o.name);
	fprintf(G->f, "REQUIRE LANGUAGE VERSION \"1.5\".\n\n");
	nc_begin(&N, 0);
	fprintf(G->f, "ASSERT THAT \"the benchmark runs on %ld tasks\" WITH "
	    "num_tasks = %ld", (long)G->N, (long)G->N);
	for (k = 0; k < ng; k++)
		gs[k] = k;
	if (nc_merge(&N, gs, ng, seq, n, 0) < 0)
		goto out;
	fputs(N.pend[0] == 1 ? ".\n" : "\n", G->f);
	rc = 0;
out:
	free(seq);
	free(n);
	free(N.leafno);
	free(N.pend);
	free(gs);
	return rc;
}

int
trc_bench_write(struct trc_bench *B, FILE *f)
{
	struct gen G = { 0 };
	struct group *g = NULL;
	int32_t *group = NULL, *gidx = NULL, ng, r, i;
	int64_t buf;
	size_t n;
	int rc = -1;

	if (B->failed)
		return -1;
	for (r = 0; r < B->nrk; r++)
		if (B->rk[r].qn > B->rk[r].qhead && flush_held(B, r, 1) < 0)
			return -1;
	G.f = f;
	G.B = B;
	if ((G.x = malloc(sizeof(*G.x))) == NULL)
		return fail(B, 0, "out of memory");
	G.N = B->hdr.ranks > 0 ? B->hdr.ranks : trc_loops_nranks(B->L);
	for (r = G.N; r < trc_loops_nranks(B->L); r++)
		if (trc_loops_program(B->L, r, &n) != NULL)
			G.N = r + 1;
	if (G.N == 0) {
		free(G.x);
		return fail(B, 0, "no events");
	}
	for (i = 0; i < B->ncm; i++)
		if (B->cm[i].cap > G.N)
			B->cm[i].cap = G.N;	/* ranks past the world: none */
	if ((group = calloc((size_t)trc_loops_nranks(B->L) + 1,
	    sizeof(*group))) == NULL ||
	    (gidx = calloc((size_t)trc_loops_nranks(B->L) + 1,
	    sizeof(*gidx))) == NULL ||
	    (G.cidx = calloc((size_t)B->ncm + 1, sizeof(*G.cidx))) == NULL) {
		fail(B, 0, "out of memory");
		goto out;
	}
	if ((ng = trc_loops_groups(B->L, group)) < 0) {
		fail(B, 0, "%s", trc_loops_error(B->L));
		goto out;
	}
	if ((g = calloc((size_t)ng + 1, sizeof(*g))) == NULL) {
		fail(B, 0, "out of memory");
		goto out;
	}
	/*
	 * Each group's ranks in an array of its size, and each rank's
	 * place in its group kept: with millions of ranks, neither an
	 * array of every rank per group nor a search per rank.
	 */
	for (r = 0; r < trc_loops_nranks(B->L); r++)
		if (group[r] >= 0)
			g[group[r]].nranks++;
	for (i = 0; i < ng; i++) {
		if ((g[i].ranks = calloc((size_t)g[i].nranks + 1,
		    sizeof(int32_t))) == NULL) {
			fail(B, 0, "out of memory");
			goto out;
		}
		g[i].nranks = 0;
	}
	for (r = 0; r < trc_loops_nranks(B->L); r++) {
		if (group[r] < 0)
			continue;
		gidx[r] = g[group[r]].nranks;
		g[group[r]].ranks[g[group[r]].nranks++] = r;
	}
	emit_comms(&G, NULL);
	if (B->failed)
		goto out;
	if (B->o.conceptual) {
		rc = write_conceptual(&G, g, ng);
		goto out;
	}
	buf = B->maxbytes * (B->maxsize > G.N ? B->maxsize : G.N);
	fprintf(f, "/*\n * A benchmark made by trc-bench from %s: the MPI "
	    "calls of the traced\n * run, rank by rank, and its computation "
	    "as busy waits%s%s.\n * Run it with %ld ranks:\n *\tmpicc -std=c11 "
	    "-O2 -o bench bench.c && mpirun -np %ld ./bench\n */\n",
	    B->o.name, B->comp & TRC_COMP_CPU ? " of the CPU time it took" :
	    "", B->o.deterministic ?
	    ";\n * every receive and probe from the source it took in the "
	    "trace" : "", (long)G.N, (long)G.N);
	fprintf(f, "#define BENCH_CPU\t%d\n", B->comp & TRC_COMP_CPU ? 1 : 0);
	fprintf(f, "#define BENCH_RANKS\t%ld\n#define BENCH_NCOMM\t%d\n"
	    "#define BENCH_RQ\t%lld\n#define BENCH_MAXW\t%d\n"
	    "#define BENCH_BUF\t%lld\n#define BENCH_BSEND\t%lld\n",
	    (long)G.N, G.ncm, (long long)pow2_at_least(2 * B->span + 2),
	    B->maxw > 0 ? B->maxw : 1, (long long)(buf > 0 ? buf : 1),
	    (long long)(B->maxbsend > 0 ? B->maxbsend + 4096 : 0));
	for (i = 0; bench_rt[i] != NULL; i++)
		fprintf(f, "%s\n", bench_rt[i]);
	for (i = 0; i < ng; i++)
		if (emit_group(&G, i, &g[i]) < 0)
			goto out;
	emit_comms(&G, f);
	fprintf(f, "\nconst int bench_group[BENCH_RANKS] = {");
	for (r = 0; r < G.N; r++)
		fprintf(f, "%s%ld", r ? ", " : " ",
		    (long)(r < trc_loops_nranks(B->L) ? group[r] : -1));
	fprintf(f, " };\nconst int bench_index[BENCH_RANKS] = {");
	for (r = 0; r < G.N; r++)
		fprintf(f, "%s%lu", r ? ", " : " ", (unsigned long)
		    (r < trc_loops_nranks(B->L) && group[r] >= 0 ? gidx[r] : 0));
	fprintf(f, " };\nvoid (*const bench_program[])(int) = {");
	for (i = 0; i < ng; i++)
		fprintf(f, "%sg%ld", i ? ", " : " ", (long)i);
	fprintf(f, "%s };\n", ng == 0 ? " 0" : "");
	/* What each rank computed per unsuccessful poll, ns (0: none). */
	fprintf(f, "const long long bench_slice[BENCH_RANKS] = {");
	for (r = 0; r < G.N; r++)
		fprintf(f, "%s%lld", r ? ", " : " ",
		    (long long)poll_slice_ns(B, r));
	fprintf(f, " };\n");
	rc = B->failed ? -1 : 0;
out:
	if (g != NULL)
		for (i = 0; i < ng; i++) {
			free(g[i].ranks);
			if (g[i].leaf != NULL)
				for (r = 0; r < g[i].nranks; r++)
					free(g[i].leaf[r]);
			free(g[i].leaf);
			free(g[i].timed);
			free(g[i].polled);
		}
	free(g);
	free(group);
	free(gidx);
	free(G.cidx);
	free(G.x);
	return rc;
}
