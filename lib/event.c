/*
 * event.c - events built field by field, owned copies of events, a
 * time-ordered queue of them, and counts of dropped records: what the
 * readers and writers of foreign formats share.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fmt/fmt.h"

/* Builder. */

void
trc_eb_start(struct trc_evbuild *b, struct trc_event *ev, int64_t t,
    int32_t rank, enum trc_kind kind)
{
	memset(ev, 0, offsetof(struct trc_event, attr));
	ev->t = t;
	ev->rank = rank;
	ev->kind = kind;
	ev->peer = ev->tag = ev->root = TRC_NONE;
	ev->bytes = ev->req = TRC_NONE;
	ev->comm = 0;
	ev->fn.s = ev->op.s = ev->reqs.s = "";
	ev->line = 0;
	b->ev = ev;
	b->len = 0;
	b->full = 0;
	b->bad[0] = '\0';
}

void
trc_eb_strk(struct trc_evbuild *b, const char *key, size_t klen,
    const char *s, size_t len)
{
	size_t k;
	char *val;
	int i;

	if ((val = trc_eb_slot(b, key, klen, len)) == NULL)
		return;
	swar_copy(val, s, len);
	/* A value is one word of the line, as libtrc-mpi makes labels. */
	for (k = 0; k < len; k++)
		if (val[k] == ' ' || val[k] == '\t' || val[k] == '\r' ||
		    val[k] == '\n' || val[k] == '\0')
			val[k] = '_';
	i = trc_eb_commit(b, val, klen, len);
	/* The fields as a reader of the text will find them. */
	if (b->bad[0] == '\0' &&
	    trc_attr_field(b->ev, &b->ev->attr[i], b->bad) < 0)
		b->full = 1;
}

void
trc_eb_time(struct trc_evbuild *b, const char *key, int64_t ns)
{
	size_t klen;
	char *val;

	klen = strlen(key);
	if ((val = trc_eb_slot(b, key, klen, 32)) != NULL)
		trc_eb_commit(b, val, klen, trc_format_time(val, ns));
}

int
trc_eb_done(struct trc_evbuild *b)
{
	return b->full ? -1 : 0;
}

const char *
trc_eb_error(const struct trc_evbuild *b)
{
	return b->bad[0] != '\0' ? b->bad : NULL;
}

/* Copies. */

struct trc_event *
trc_event_dup(const struct trc_event *ev)
{
	struct trc_event *c;
	size_t need = 0, off;
	char *p;
	int i;

	for (i = 0; i < ev->nattr; i++)
		need += ev->attr[i].key.len + ev->attr[i].val.len + 2;
	need += ev->fn.len + ev->op.len + ev->reqs.len + 3;
	/* Only the attributes in use are copied. */
	off = offsetof(struct trc_event, attr) +
	    (size_t)ev->nattr * sizeof(ev->attr[0]);
	if (off < sizeof(*c))
		off = sizeof(*c);
	if ((c = malloc(off + need)) == NULL)
		return NULL;
	memcpy(c, ev, offsetof(struct trc_event, attr) +
	    (size_t)ev->nattr * sizeof(ev->attr[0]));
	p = (char *)c + off;
#define COPY(dst, src) do {						\
		memcpy(p, (src).s, (src).len);				\
		p[(src).len] = '\0';					\
		(dst).s = p;						\
		(dst).len = (src).len;					\
		p += (src).len + 1;					\
	} while (0)
	for (i = 0; i < ev->nattr; i++) {
		COPY(c->attr[i].key, ev->attr[i].key);
		COPY(c->attr[i].val, ev->attr[i].val);
	}
	COPY(c->fn, ev->fn);
	COPY(c->op, ev->op);
	COPY(c->reqs, ev->reqs);
#undef COPY
	return c;
}

/* Queue: a binary heap on (t, seq). */

struct qent {
	int64_t			 t;
	uint64_t		 seq;
	struct trc_event	*ev;
};

struct trc_evq {
	struct qent	*h;
	size_t		 n, cap;
	uint64_t	 seq;
	struct trc_event *last;		/* popped, freed at the next pop */
};

struct trc_evq *
trc_evq_new(void)
{
	return calloc(1, sizeof(struct trc_evq));
}

static int
qless(const struct qent *a, const struct qent *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

int
trc_evq_push(struct trc_evq *q, const struct trc_event *ev)
{
	struct qent e, *h;
	size_t i, cap;

	if (q->n == q->cap) {
		cap = q->cap ? 2 * q->cap : 64;
		if ((h = realloc(q->h, cap * sizeof(*h))) == NULL)
			return -1;
		q->h = h;
		q->cap = cap;
	}
	if ((e.ev = trc_event_dup(ev)) == NULL)
		return -1;
	e.t = ev->t;
	e.seq = q->seq++;
	for (i = q->n++; i > 0 && qless(&e, &q->h[(i - 1) / 2]); i = (i - 1) / 2)
		q->h[i] = q->h[(i - 1) / 2];
	q->h[i] = e;
	return 0;
}

size_t
trc_evq_len(const struct trc_evq *q)
{
	return q->n;
}

int64_t
trc_evq_min(const struct trc_evq *q)
{
	return q->n ? q->h[0].t : INT64_MAX;
}

int
trc_evq_pop(struct trc_evq *q, struct trc_event *ev)
{
	struct qent e;
	size_t i, c;

	free(q->last);
	q->last = NULL;
	if (q->n == 0)
		return 0;
	q->last = q->h[0].ev;
	e = q->h[--q->n];
	for (i = 0; (c = 2 * i + 1) < q->n; i = c) {
		if (c + 1 < q->n && qless(&q->h[c + 1], &q->h[c]))
			c++;
		if (!qless(&q->h[c], &e))
			break;
		q->h[i] = q->h[c];
	}
	q->h[i] = e;
	memcpy(ev, q->last, offsetof(struct trc_event, attr) +
	    (size_t)q->last->nattr * sizeof(ev->attr[0]));
	return 1;
}

void
trc_evq_free(struct trc_evq *q)
{
	size_t i;

	if (q == NULL)
		return;
	for (i = 0; i < q->n; i++)
		free(q->h[i].ev);
	free(q->last);
	free(q->h);
	free(q);
}

/* Dropped-record counts. */

void
trc_drops_add(struct trc_drops *d, const char *what)
{
	size_t i, cap;
	struct trc_drop *p;

	for (i = 0; i < d->n; i++)
		if (strcmp(d->v[i].what, what) == 0) {
			d->v[i].n++;
			return;
		}
	if (d->n == d->cap) {
		cap = d->cap ? 2 * d->cap : 8;
		if ((p = realloc(d->v, cap * sizeof(*p))) == NULL)
			return;		/* a count lost, not the stream */
		d->v = p;
		d->cap = cap;
	}
	if ((d->v[d->n].what = strdup(what)) == NULL)
		return;
	d->v[d->n++].n = 1;
}

int
trc_drops_get(const struct trc_drops *d, size_t i, const char **what,
    unsigned long long *n)
{
	if (i >= d->n)
		return 0;
	*what = d->v[i].what;
	*n = d->v[i].n;
	return 1;
}

void
trc_drops_free(struct trc_drops *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		free(d->v[i].what);
	free(d->v);
	memset(d, 0, sizeof(*d));
}
