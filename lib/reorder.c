/*
 * reorder.c - the time-sorted output queue (trc_reorder.h).
 *
 * Queued events wait, formatted, in the order they came, with their
 * times beside them in pend; a release takes those below the mark
 * into rel, sorts them unless they came sorted (an engine replaying
 * ranks about in time order puts them so, mostly) and writes them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "trc_reorder.h"

#define CHUNK		((size_t)64 * 1024)
#define KEEPCHUNKS	8
#define RELMAX		16384	/* events written in one sorted batch */
#define ALIGN8(n)	(((n) + 7) & ~(size_t)7)

/* A chunk of records, or of one record longer than CHUNK. */
struct chunk {
	size_t		 live;		/* records not yet written */
	size_t		 used, size;
	struct chunk	*next;		/* on the free list */
};

/* One formatted output event. */
struct rec {
	uint32_t	 len;
	uint32_t	 off;		/* from its chunk's start */
	char		 text[];
};

/* An event waiting for output, in the order they came. */
struct pend {
	int64_t		 t;
	struct rec	*q;
};

struct trc_reorder {
	struct trc_writer	*w;
	struct pend		*pend, *rel;
	size_t			 npend, pendcap, relcap;
	size_t			 peak;		/* npend, at most */
	int64_t			 pmin;		/* no event in pend is earlier */
	struct chunk		*cur, *freech;
	size_t			 nfreech, nchunks;
	/* The last t0= written: most events share their time with the last. */
	int64_t			 t0;
	size_t			 t0len;		/* 0: none yet */
	char			 t0buf[40];
};

struct trc_reorder *
trc_reorder_new(struct trc_writer *w)
{
	struct trc_reorder *o;

	if ((o = calloc(1, sizeof(*o))) == NULL)
		return NULL;
	o->w = w;
	o->pmin = INT64_MAX;
	return o;
}

size_t
trc_reorder_peak(const struct trc_reorder *o)
{
	return o->peak;
}

static struct chunk *
chunk_of(struct rec *q)
{
	return (struct chunk *)((char *)q - q->off);
}

/* Room for a record of up to len bytes of text, or NULL. */
static struct rec *
rec_reserve(struct trc_reorder *o, size_t len)
{
	struct chunk *c = o->cur;
	size_t need = ALIGN8(sizeof(struct rec) + len), size;
	struct rec *q;

	if (c != NULL && c->live == 0)
		c->used = ALIGN8(sizeof(*c));
	if (c == NULL || c->used + need > c->size) {
		size = CHUNK;
		if (ALIGN8(sizeof(*c)) + need > CHUNK)
			size = ALIGN8(sizeof(*c)) + need;
		if (size == CHUNK && o->freech != NULL) {
			c = o->freech;
			o->freech = c->next;
			o->nfreech--;
		} else if ((c = malloc(size)) == NULL)
			return NULL;
		else
			o->nchunks++;
		c->live = 0;
		c->used = ALIGN8(sizeof(*c));
		c->size = size;
		c->next = NULL;
		if (o->cur != NULL && o->cur->live == 0) {
			free(o->cur);
			o->nchunks--;
		}
		o->cur = c;
	}
	q = (struct rec *)((char *)c + c->used);
	q->off = (uint32_t)c->used;
	return q;
}

static void
rec_commit(struct trc_reorder *o, struct rec *q)
{
	struct chunk *c = o->cur;

	c->used += ALIGN8(sizeof(*q) + q->len);
	c->live++;
}

static void
rec_done(struct trc_reorder *o, struct rec *q)
{
	struct chunk *c = chunk_of(q);

	if (--c->live > 0 || c == o->cur)
		return;
	/*
	 * Keep as many free chunks as are in use: a release empties
	 * about as many as the events between two releases fill.
	 */
	if (c->size == CHUNK && (o->nfreech < KEEPCHUNKS ||
	    2 * o->nfreech < o->nchunks)) {
		c->next = o->freech;
		o->freech = c;
		o->nfreech++;
	} else {
		free(c);
		o->nchunks--;
	}
}

/* Queue a record formatted by rec_reserve() and its caller, at time t. */
static int
queue(struct trc_reorder *o, int64_t t, struct rec *q)
{
	struct pend *v;
	size_t n;

	if (o->npend == o->pendcap) {
		/* By half again: this array is most of the queue's own. */
		n = o->pendcap ? o->pendcap + o->pendcap / 2 : 1024;
		if ((v = realloc(o->pend, n * sizeof(*v))) == NULL)
			return -1;
		o->pend = v;
		o->pendcap = n;
	}
	rec_commit(o, q);
	o->pend[o->npend].t = t;
	o->pend[o->npend++].q = q;
	if (t < o->pmin)
		o->pmin = t;
	if (o->npend > o->peak)
		o->peak = o->npend;
	return 0;
}

/*
 * Sort v[0..n) by time, stably, with tmp of room n: an LSD radix sort
 * on the time above the least, 11 bits a pass (a release spans little
 * time, so two or three passes do).
 */
static struct pend *
sort_pend(struct pend *v, struct pend *tmp, size_t n)
{
	size_t cnt[2048], i, sum, c;
	uint64_t lo, hi, key;
	struct pend *x;
	int sh;

	lo = hi = (uint64_t)v[0].t ^ (UINT64_C(1) << 63);
	for (i = 1; i < n; i++) {
		key = (uint64_t)v[i].t ^ (UINT64_C(1) << 63);
		if (key < lo)
			lo = key;
		if (key > hi)
			hi = key;
	}
	for (sh = 0; sh < 64 && ((hi - lo) >> sh) != 0; sh += 11) {
		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < n; i++)
			cnt[((((uint64_t)v[i].t ^ (UINT64_C(1) << 63)) - lo) >>
			    sh) & 2047]++;
		for (sum = 0, i = 0; i < 2048; i++) {
			c = cnt[i];
			cnt[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			tmp[cnt[((((uint64_t)v[i].t ^ (UINT64_C(1) << 63)) -
			    lo) >> sh) & 2047]++] = v[i];
		x = v;
		v = tmp;
		tmp = x;
	}
	return v;
}

/* Write the n queued events before cut, in order. */
static int
release_below(struct trc_reorder *o, int64_t cut, size_t n)
{
	struct pend *v, *r;
	size_t i, k = 0, c;
	int sorted = 1;
	int64_t last = INT64_MIN, pmin = INT64_MAX;

	if (n > o->relcap) {
		for (c = o->relcap ? o->relcap : 1024; c < n; c *= 2)
			;
		if ((r = realloc(o->rel, c * sizeof(*r))) == NULL)
			return -1;
		o->rel = r;
		o->relcap = c;
	}
	for (n = 0, i = 0; i < o->npend; i++)
		if (o->pend[i].t < cut) {
			if (o->pend[i].t < last)
				sorted = 0;
			last = o->pend[i].t;
			o->rel[n++] = o->pend[i];
		} else {
			if (o->pend[i].t < pmin)
				pmin = o->pend[i].t;
			o->pend[k++] = o->pend[i];
		}
	o->npend = k;
	o->pmin = pmin;
	/* The sort's other buffer: what the batch left free in pend. */
	v = sorted ? o->rel : sort_pend(o->rel, o->pend + k, n);
	for (i = 0; i < n; i++) {
#if defined(__GNUC__)
		/* Records sorted by time lie all over the buffer. */
		if (i + 16 < n) {
			__builtin_prefetch(v[i + 16].q);
			__builtin_prefetch((char *)v[i + 16].q + 64);
		}
#endif
		if (trc_write_raw(o->w, v[i].q->text, v[i].q->len) < 0)
			return -2;
		rec_done(o, v[i].q);
	}
	return 0;
}

/*
 * A batch larger than RELMAX, as when a long wait of the engine's ends,
 * goes out in parts cut at times from a histogram, so that the copy a
 * batch needs stays small.
 */
int
trc_reorder_release(struct trc_reorder *o, int64_t wm)
{
	size_t cnt[2048], i, n, b, sum;
	int64_t lo, hi, cut;
	int sh, rc;

	for (;;) {
		if (wm <= o->pmin)
			return 0;	/* the watermark has not passed any */
		lo = INT64_MAX;
		hi = INT64_MIN;
		for (n = 0, i = 0; i < o->npend; i++)
			if (o->pend[i].t < wm) {
				n++;
				if (o->pend[i].t < lo)
					lo = o->pend[i].t;
				if (o->pend[i].t > hi)
					hi = o->pend[i].t;
			}
		if (n <= RELMAX)
			return n > 0 ? release_below(o, wm, n) : 0;
		for (sh = 0; sh < 63 && ((uint64_t)hi - (uint64_t)lo) >> sh >=
		    2048; sh++)
			;
		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < o->npend; i++)
			if (o->pend[i].t < wm)
				cnt[((uint64_t)o->pend[i].t - (uint64_t)lo) >> sh]++;
		/* At least the first bucket, at most RELMAX if it can. */
		for (sum = cnt[0], b = 1; b < 2048 && sum + cnt[b] <= RELMAX;
		    b++)
			sum += cnt[b];
		cut = (int64_t)((uint64_t)lo + ((uint64_t)b << sh));
		if (b == 2048 || cut > hi)
			cut = wm;
		if ((rc = release_below(o, cut, sum)) < 0)
			return rc;
	}
}

int
trc_reorder_put(struct trc_reorder *o, const struct trc_event *e, int64_t t,
    int64_t t0)
{
	const char *xbuf = NULL;
	size_t xlen = 0;
	struct rec *q;

	if (trc_attr_get(e, "t0") == NULL) {
		if (o->t0len == 0 || o->t0 != t0) {
			memcpy(o->t0buf, "t0=", 3);
			o->t0len = 3 + trc_format_time(o->t0buf + 3, t0);
			o->t0 = t0;
		}
		xbuf = o->t0buf;
		xlen = o->t0len;
	}
	if ((q = rec_reserve(o, trc_event_maxlen(e, xlen))) == NULL)
		return -1;
	q->len = (uint32_t)trc_format_event(q->text, e, t, xbuf, xlen);
	return queue(o, t, q);
}

void
trc_reorder_free(struct trc_reorder *o)
{
	struct chunk *c;
	size_t i;

	if (o == NULL)
		return;
	for (i = 0; i < o->npend; i++)
		rec_done(o, o->pend[i].q);
	free(o->cur);
	while ((c = o->freech) != NULL) {
		o->freech = c->next;
		free(c);
	}
	free(o->pend);
	free(o->rel);
	free(o);
}
