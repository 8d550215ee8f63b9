/*
 * choice.c - the choice points of a trace, and the first one where two
 * traces differ (trc_choice.h).
 *
 * A rank's choice points become ready in call order: a wildcard
 * Irecv posted first and completed last holds back the ones after it,
 * so that two runs whose waits complete the same receives in another
 * order still compare receive with receive.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "trc_choice.h"

#define MAXRANK	(1 << 24)	/* more ranks than this is a bad trace */

/* A choice point posted, waiting to be settled or for earlier ones. */
struct pending {
	struct trc_choice c;
	int64_t		 req;		/* of a nonblocking receive, else TRC_NONE */
	int		 anyof;		/* a wait or test: took is its WE's req= */
	int		 settled;
};

struct cstate {
	struct pending	*q;		/* q[head..n): posted, in call order */
	size_t		 head, n, cap;
	long		 nchoices;
	long		 rb_open;	/* a blocking RB's choice, -1 not one, 0 none */
	long		 wb_open;	/* the same for a WB */
};

struct trc_choices {
	char		*name;
	struct cstate	*rank;
	int32_t		 nranks;
	struct trc_choice *ready;	/* ready[rhead..rn) */
	size_t		 rhead, rn, rcap;
	char		 err[TRC_ERRLEN + 64];
};

static const char *const probes[] = { "probe", "iprobe", "mprobe",
    "improbe", NULL };
static const char *const anyofs[] = { "waitany", "waitsome", "testany",
    "testsome", NULL };

static int
is_op(const struct trc_str *op, const char *const *list)
{
	for (; *list != NULL; list++)
		if (op->len == strlen(*list) && memcmp(op->s, *list,
		    op->len) == 0)
			return 1;
	return 0;
}

void
trc_choice_clear(struct trc_choice *c)
{
	free(c->asked);
	free(c->took);
	memset(c, 0, sizeof *c);
}

struct trc_choices *
trc_choices_new(const char *name)
{
	struct trc_choices *x;

	if ((x = calloc(1, sizeof *x)) == NULL)
		return NULL;
	if ((x->name = strdup(name != NULL ? name : "<stdin>")) == NULL) {
		free(x);
		return NULL;
	}
	return x;
}

void
trc_choices_free(struct trc_choices *x)
{
	int32_t r;
	size_t i;

	if (x == NULL)
		return;
	for (r = 0; r < x->nranks; r++) {
		for (i = x->rank[r].head; i < x->rank[r].n; i++)
			trc_choice_clear(&x->rank[r].q[i].c);
		free(x->rank[r].q);
	}
	for (i = x->rhead; i < x->rn; i++)
		trc_choice_clear(&x->ready[i]);
	free(x->rank);
	free(x->ready);
	free(x->name);
	free(x);
}

const char *
trc_choices_error(const struct trc_choices *x)
{
	return x->err;
}

static int
fail(struct trc_choices *x, long line, const char *fmt, ...)
{
	char msg[TRC_ERRLEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(x->err, sizeof x->err, "%s:%ld: %s", x->name, line, msg);
	return -1;
}

/* "peer=* tag=7": a value, * for a wildcard, ? when not given. */
static char *
peer_tag(int32_t peer, int32_t tag)
{
	char p[16], t[16], *s;

	if (peer == TRC_ANY)
		snprintf(p, sizeof p, "*");
	else if (peer == TRC_NONE)
		snprintf(p, sizeof p, "?");
	else
		snprintf(p, sizeof p, "%ld", (long)peer);
	if (tag == TRC_ANY)
		snprintf(t, sizeof t, "*");
	else if (tag == TRC_NONE)
		snprintf(t, sizeof t, "?");
	else
		snprintf(t, sizeof t, "%ld", (long)tag);
	if ((s = malloc(strlen(p) + strlen(t) + 11)) != NULL)
		sprintf(s, "peer=%s tag=%s", p, t);
	return s;
}

static char *
req_list(const struct trc_str *reqs)
{
	char *s;

	if ((s = malloc(reqs->len + 5)) != NULL) {
		memcpy(s, "req=", 4);
		memcpy(s + 4, reqs->s, reqs->len);
		s[4 + reqs->len] = '\0';
	}
	return s;
}

static struct cstate *
rank_state(struct trc_choices *x, const struct trc_event *ev)
{
	struct cstate *r;
	int32_t n;

	if (ev->rank < 0 || ev->rank >= MAXRANK) {
		fail(x, ev->line, "invalid rank %ld", (long)ev->rank);
		return NULL;
	}
	if (ev->rank >= x->nranks) {
		n = ev->rank + 1;
		if ((r = realloc(x->rank, (size_t)n * sizeof *r)) == NULL) {
			fail(x, ev->line, "out of memory");
			return NULL;
		}
		memset(r + x->nranks, 0, (size_t)(n - x->nranks) * sizeof *r);
		x->rank = r;
		x->nranks = n;
	}
	return &x->rank[ev->rank];
}

/* A new choice point of ev's rank, at ev: its number, or -1. */
static long
post(struct trc_choices *x, struct cstate *r, const struct trc_event *ev,
    const char *call, size_t calllen, char *asked, int64_t req, int anyof)
{
	struct pending *p;

	if (asked == NULL)
		return fail(x, ev->line, "out of memory");
	if (r->head > 0 && r->head == r->n)
		r->head = r->n = 0;
	if (r->n == r->cap) {
		if (r->head > 0) {
			memmove(r->q, r->q + r->head, (r->n - r->head) *
			    sizeof *r->q);
			r->n -= r->head;
			r->head = 0;
		}
		if (r->n == r->cap) {
			size_t cap = r->cap ? 2 * r->cap : 8;

			if ((p = realloc(r->q, cap * sizeof *p)) == NULL) {
				free(asked);
				return fail(x, ev->line, "out of memory");
			}
			r->q = p;
			r->cap = cap;
		}
	}
	p = &r->q[r->n++];
	memset(p, 0, sizeof *p);
	p->c.rank = ev->rank;
	p->c.index = ++r->nchoices;
	p->c.line = ev->line;
	if (calllen >= sizeof p->c.call)
		calllen = sizeof p->c.call - 1;
	memcpy(p->c.call, call, calllen);
	p->c.asked = asked;
	p->req = req;
	p->anyof = anyof;
	return p->c.index;
}

/* Move what is ready at the front of r to the ready list. */
static int
advance(struct trc_choices *x, struct cstate *r, long line)
{
	while (r->head < r->n && r->q[r->head].settled) {
		if (x->rhead > 0 && x->rhead == x->rn)
			x->rhead = x->rn = 0;
		if (x->rn == x->rcap) {
			struct trc_choice *p;
			size_t cap = x->rcap ? 2 * x->rcap : 16;

			if ((p = realloc(x->ready, cap * sizeof *p)) == NULL)
				return fail(x, line, "out of memory");
			x->ready = p;
			x->rcap = cap;
		}
		x->ready[x->rn++] = r->q[r->head++].c;
	}
	return 0;
}

static int
settle(struct trc_choices *x, struct cstate *r, struct pending *p,
    const struct trc_event *ev)
{
	p->c.end = ev->line;
	p->c.took = p->anyof ? req_list(&ev->reqs) : peer_tag(ev->peer,
	    ev->tag);
	if (p->c.took == NULL)
		return fail(x, ev->line, "out of memory");
	p->settled = 1;
	return advance(x, r, ev->line);
}

/* The pending choice point number k of r. */
static struct pending *
numbered(struct cstate *r, long k)
{
	size_t i;

	if (r->head == r->n || k < r->q[r->head].c.index)
		return NULL;
	i = r->head + (size_t)(k - r->q[r->head].c.index);
	return i < r->n ? &r->q[i] : NULL;
}

int
trc_choices_event(struct trc_choices *x, const struct trc_event *ev)
{
	struct cstate *r;
	struct pending *p;
	size_t i;
	long k;
	int wild;

	switch (ev->kind) {
	case TRC_RB: case TRC_RE: case TRC_WB: case TRC_WE:
		break;
	default:
		return 0;
	}
	if ((r = rank_state(x, ev)) == NULL)
		return -1;
	switch (ev->kind) {
	case TRC_RB:
		/* An Mrecv takes what its probe chose. */
		wild = (ev->peer == TRC_ANY || ev->tag == TRC_ANY) &&
		    !(ev->op.len >= 5 && memcmp(ev->op.s + ev->op.len - 5,
		    "mrecv", 5) == 0);
		k = -1;
		if (wild) {
			const char *call = ev->op.len ? ev->op.s :
			    ev->req != TRC_NONE ? "irecv" : "recv";
			size_t len = ev->op.len ? ev->op.len : strlen(call);

			if ((k = post(x, r, ev, call, len, peer_tag(ev->peer,
			    ev->tag), ev->req, 0)) < 0)
				return -1;
		}
		if (ev->req == TRC_NONE)
			r->rb_open = k;
		break;
	case TRC_RE:
		if (ev->req != TRC_NONE) {
			for (i = r->head; i < r->n; i++)
				if (!r->q[i].settled && !r->q[i].anyof &&
				    r->q[i].req == ev->req)
					return settle(x, r, &r->q[i], ev);
		} else {
			k = r->rb_open;
			r->rb_open = 0;
			if (k > 0 && (p = numbered(r, k)) != NULL)
				return settle(x, r, p, ev);
		}
		break;
	case TRC_WB:
		k = -1;
		if ((is_op(&ev->op, probes) && (ev->peer == TRC_ANY ||
		    ev->tag == TRC_ANY)) || is_op(&ev->op, anyofs)) {
			int anyof = is_op(&ev->op, anyofs);

			if ((k = post(x, r, ev, ev->op.s, ev->op.len, anyof ?
			    req_list(&ev->reqs) : peer_tag(ev->peer, ev->tag),
			    TRC_NONE, anyof)) < 0)
				return -1;
		}
		r->wb_open = k;
		break;
	case TRC_WE:
		k = r->wb_open;
		r->wb_open = 0;
		if (k > 0 && (p = numbered(r, k)) != NULL)
			return settle(x, r, p, ev);
		break;
	default:
		break;
	}
	return 0;
}

int
trc_choices_end(struct trc_choices *x)
{
	int32_t r;
	size_t i;

	/* Never settled: took nothing. */
	for (r = 0; r < x->nranks; r++) {
		struct cstate *s = &x->rank[r];

		for (i = s->head; i < s->n; i++)
			if (!s->q[i].settled) {
				s->q[i].settled = 1;
				if ((s->q[i].c.took = calloc(1, 1)) == NULL)
					return fail(x, s->q[i].c.line,
					    "out of memory");
			}
		s->rb_open = s->wb_open = 0;
		if (advance(x, s, s->head < s->n ? s->q[s->head].c.line :
		    0) < 0)
			return -1;
	}
	return 0;
}

int
trc_choices_next(struct trc_choices *x, struct trc_choice *c)
{
	if (x->rhead == x->rn)
		return 0;
	*c = x->ready[x->rhead++];
	return 1;
}

/*
 * The comparison.  Per rank, the choice points one trace has reached
 * and the other not yet, in a queue that holds one side's at a time.
 */
struct dstate {
	struct trc_choice *q;		/* q[head..n) */
	size_t		 head, n, cap;
	int		 side;		/* of what q holds */
	int		 done;		/* its first difference is known */
};

struct diff {
	struct dstate	*rank;
	int32_t		 nranks;
	struct trc_choice_diff best;
	int		 found;
};

static void
dstate_drop(struct dstate *d)
{
	size_t i;

	for (i = d->head; i < d->n; i++)
		trc_choice_clear(&d->q[i]);
	free(d->q);
	d->q = NULL;
	d->head = d->n = d->cap = 0;
}

/* Before: the first trace's line orders; a choice it lacks comes last. */
static int
earlier(const struct trc_choice_diff *x, const struct trc_choice_diff *y)
{
	if ((x->a.line != 0) != (y->a.line != 0))
		return x->a.line != 0;
	if (x->a.line != 0)
		return x->a.line < y->a.line;
	return x->b.line < y->b.line;
}

/* Takes a and b (either may be empty): the best difference so far? */
static void
candidate(struct diff *df, struct trc_choice *a, struct trc_choice *b)
{
	struct trc_choice_diff c;

	c.a = *a;
	c.b = *b;
	memset(a, 0, sizeof *a);
	memset(b, 0, sizeof *b);
	if (!df->found || earlier(&c, &df->best)) {
		if (df->found)
			trc_choice_diff_free(&df->best);
		df->best = c;
		df->found = 1;
	} else
		trc_choice_diff_free(&c);
}

static int
same(const struct trc_choice *a, const struct trc_choice *b)
{
	return strcmp(a->call, b->call) == 0 &&
	    strcmp(a->asked, b->asked) == 0 && strcmp(a->took, b->took) == 0;
}

/* Choice c of side s (0: the first trace); it is taken. */
static int
take(struct diff *df, int s, struct trc_choice *c, char *err,
    size_t errlen)
{
	struct trc_choice *o;
	struct dstate *d;

	if (c->rank >= df->nranks) {
		int32_t n = c->rank + 1;

		if ((d = realloc(df->rank, (size_t)n * sizeof *d)) == NULL) {
			trc_choice_clear(c);
			return trc_errorf(err, errlen, "out of memory");
		}
		memset(d + df->nranks, 0, (size_t)(n - df->nranks) *
		    sizeof *d);
		df->rank = d;
		df->nranks = n;
	}
	d = &df->rank[c->rank];
	/*
	 * Nothing later on a rank can come before its first difference,
	 * nor before one already found earlier in the first trace.
	 */
	if (d->done || (s == 0 && df->found && df->best.a.line != 0 &&
	    c->line > df->best.a.line)) {
		d->done = 1;
		dstate_drop(d);
		trc_choice_clear(c);
		return 0;
	}
	if (d->head < d->n && d->side != s) {
		o = &d->q[d->head++];
		if (same(o, c)) {
			trc_choice_clear(o);
			trc_choice_clear(c);
			return 0;
		}
		if (s == 0)
			candidate(df, c, o);
		else
			candidate(df, o, c);
		d->done = 1;
		dstate_drop(d);
		return 0;
	}
	if (d->head > 0 && d->head == d->n)
		d->head = d->n = 0;
	if (d->n == d->cap) {
		struct trc_choice *q;
		size_t cap = d->cap ? 2 * d->cap : 8;

		if (d->head > 0) {
			memmove(d->q, d->q + d->head, (d->n - d->head) *
			    sizeof *d->q);
			d->n -= d->head;
			d->head = 0;
		}
		if (d->n == d->cap) {
			if ((q = realloc(d->q, cap * sizeof *q)) == NULL) {
				trc_choice_clear(c);
				return trc_errorf(err, errlen, "out of memory");
			}
			d->q = q;
			d->cap = cap;
		}
	}
	d->side = s;
	d->q[d->n++] = *c;
	return 0;
}

/* One step of side s: 1 read an event, 0 at its end, -1 on error. */
static int
step(struct diff *df, int s, struct trc_reader *rd, struct trc_choices *x,
    char *err, size_t errlen)
{
	struct trc_event ev;
	struct trc_choice c;
	int rc;

	if ((rc = trc_next(rd, &ev)) < 0)
		return trc_errorf(err, errlen, "%s", trc_error(rd));
	if ((rc == 0 ? trc_choices_end(x) : trc_choices_event(x, &ev)) < 0)
		return trc_errorf(err, errlen, "%s", trc_choices_error(x));
	while (trc_choices_next(x, &c))
		if (take(df, s, &c, err, errlen) < 0)
			return -1;
	return rc;
}

int
trc_choice_diff(struct trc_reader *a, struct trc_reader *b,
    struct trc_choice_diff *out, char *err, size_t errlen)
{
	struct trc_choices *x[2];
	struct trc_reader *rd[2] = { a, b };
	struct diff df;
	struct trc_choice none;
	int more[2] = { 1, 1 }, s, rc = 0;
	int32_t r;

	memset(&df, 0, sizeof df);
	memset(out, 0, sizeof *out);
	x[0] = trc_choices_new(trc_name(a));
	x[1] = trc_choices_new(trc_name(b));
	if (x[0] == NULL || x[1] == NULL) {
		rc = trc_errorf(err, errlen, "out of memory");
		goto out;
	}
	/* Side by side, so that what one holds for the other stays small. */
	while (more[0] || more[1])
		for (s = 0; s < 2; s++)
			if (more[s] && (more[s] = step(&df, s, rd[s], x[s],
			    err, errlen)) < 0) {
				rc = -1;
				goto out;
			}
	/* What one trace has beyond the other's end. */
	for (r = 0; r < df.nranks; r++) {
		struct dstate *d = &df.rank[r];

		if (d->done || d->head == d->n)
			continue;
		memset(&none, 0, sizeof none);
		if (d->side == 0)
			candidate(&df, &d->q[d->head++], &none);
		else
			candidate(&df, &none, &d->q[d->head++]);
	}
	if (df.found) {
		*out = df.best;
		df.found = 0;
		rc = 1;
	}
out:
	for (r = 0; r < df.nranks; r++)
		dstate_drop(&df.rank[r]);
	free(df.rank);
	if (df.found)
		trc_choice_diff_free(&df.best);
	trc_choices_free(x[0]);
	trc_choices_free(x[1]);
	return rc;
}

void
trc_choice_diff_free(struct trc_choice_diff *d)
{
	trc_choice_clear(&d->a);
	trc_choice_clear(&d->b);
}

size_t
trc_choice_diff_format(const struct trc_choice_diff *d, const char *na,
    const char *nb, char *buf, size_t len)
{
	const struct trc_choice *first = d->a.line ? &d->a : &d->b;
	size_t at;

#define PUT(...) at += (size_t)snprintf(at < len ? buf + at : NULL, \
	at < len ? len - at : 0, __VA_ARGS__)
	at = 0;
	if (len > 0)
		buf[0] = '\0';
	PUT("rank %ld %s ", (long)first->rank, first->call);
	if (d->a.line)
		PUT("%s:%ld took %s", na, d->a.line, *d->a.took ?
		    d->a.took : "nothing");
	else
		PUT("%s: none", na);
	if (d->b.line) {
		PUT(", %s:%ld", nb, d->b.line);
		if (d->a.line && (strcmp(d->a.call, d->b.call) != 0 ||
		    strcmp(d->a.asked, d->b.asked) != 0))
			PUT(" %s %s", d->b.call, d->b.asked);
		PUT(" took %s", *d->b.took ? d->b.took : "nothing");
	} else
		PUT(", %s: none", nb);
#undef PUT
	return at;
}
