/*
 * loops.c - loop compression (trc-loops(1), trc-loops(5)), after
 * ScalaTrace's RSDs and PRSDs (Noeth et al., "ScalaTrace: Scalable
 * compression and replay of communication traces", JPDC 2009).
 *
 * Each event becomes a template: its kind and attributes, the peer
 * written relative to the rank (@+1: the next rank, modulo ranks=),
 * request numbers relative to the highest the rank has used (@r+1: a
 * new one, @r-0: the last), other integer attributes that tools do not
 * know as @v (a value per occurrence: a counter, polls=).  A rank's
 * program is a list of nodes, each a template or a loop of nodes; when
 * an event is appended, the tail of the list is folded while it
 * repeats: a loop followed by its body runs once more, two equal runs
 * of k nodes become a loop of 2 (k up to half the window).  Nodes
 * have structure ids, equal when their structure is, so that runs
 * compare as integers.  Each template occurrence keeps its times (the
 * delta from the rank's event before) and @v values, as statistics or
 * whole; folding merges the data of the second run into the first.
 *
 * Memory: the window of each rank (the nodes that may still fold) and
 * the compressed program itself, which for a program that repeats is
 * small; the lossless mode keeps every time as well.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt/fmt.h"
#include "trc_loops.h"

struct rank {
	int		 seen;
	struct trc_loops_node **seq;	/* the program; the window at its end */
	size_t		 n, cap;
	int64_t		 last_t, reqtop;
	int64_t		 wild;		/* wildcard receives not completed */
	int64_t		 wsrc;		/* the last one's source, or -1 */
};

struct trc_loops {
	struct trc_loops_opts opts;
	struct trc_header hdr;
	char		*extra;
	struct trc_intern tmpls;	/* templates: "SB peer=@+1 tag=1" */
	struct trc_intern sids;		/* structures: "L12", "R3:4,5" */
	int		*tmpl_nv;	/* @v count of each template */
	size_t		 ntmpl_nv;
	/* Ranks in pages (lib/pages.c), and those with events in
	 * g->present: memory follows the ranks present, not the largest
	 * rank number. */
	struct trc_pages rkp;
	int32_t		*present;
	int32_t		 npresent, cappresent;
	int32_t		 nrk;		/* the largest rank + 1 */
	int		 hbits;		/* log2 of opts.histogram, or -1 */
	int		 failed;
	char		 err[256];
	char		 buf[TRC_MAXLINE + 256];
};

static int
fail(struct trc_loops *L, const char *fmt, ...)
{
	va_list ap;

	if (L->failed)
		return -1;
	va_start(ap, fmt);
	vsnprintf(L->err, sizeof(L->err), fmt, ap);
	va_end(ap);
	L->failed = 1;
	return -1;
}

const char *
trc_loops_error(const struct trc_loops *L)
{
	return L->err;
}

/* ---- Series ---- */

/*
 * Values are any int64 (@v): a difference past the range is no stride
 * (the series is kept or summed), and a sum past it is an error,
 * SERIES_RANGE, since statistics could not say it.
 */
#define SERIES_RANGE	(-2)

static int
series_add(struct trc_loops_series *s, int64_t x, int keep)
{
	int64_t *p, d;

	if (keep && (size_t)s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 4;
		if ((p = realloc(s->v, s->cap * sizeof(*p))) == NULL)
			return -1;
		s->v = p;
	}
	if (keep)
		s->v[s->n] = x;
	if (s->n == 0) {
		s->first = s->min = s->max = x;
		s->arith = 1;
		s->stride = 0;
	} else {
		if (__builtin_sub_overflow(x, s->last, &d))
			s->arith = 0;
		else if (s->n == 1)
			s->stride = d;
		else if (d != s->stride)
			s->arith = 0;
		if (x < s->min)
			s->min = x;
		if (x > s->max)
			s->max = x;
	}
	s->last = x;
	if (__builtin_add_overflow(s->sum, x, &s->sum))
		return SERIES_RANGE;
	s->ksum += (double)s->n * (double)x;
	s->n++;
	return 0;
}

/* b's values after a's, into a: 0, -1 out of memory, SERIES_RANGE. */
static int
series_merge(struct trc_loops_series *a, const struct trc_loops_series *b,
    int keep)
{
	struct trc_loops_bucket *hb;
	size_t nh, caph;
	int64_t i, d;
	int rc;

	if (keep) {
		for (i = 0; i < b->n; i++)
			if ((rc = series_add(a, b->v[i], 1)) < 0)
				return rc;
		return 0;
	}
	if (b->n == 0)
		return 0;
	if (a->n == 0) {
		/* The histogram is merged apart (hist_merge): a's stays. */
		hb = a->hb;
		nh = a->nh;
		caph = a->caph;
		*a = *b;
		a->hb = hb;
		a->nh = nh;
		a->caph = caph;
		return 0;
	}
	if (__builtin_sub_overflow(b->first, a->last, &d))
		a->arith = 0;
	else {
		if (a->n == 1)
			a->stride = d;
		if (!b->arith || d != a->stride ||
		    (b->n > 1 && b->stride != a->stride))
			a->arith = 0;
	}
	a->arith = a->arith && b->arith;
	a->last = b->last;
	a->ksum += b->ksum + (double)a->n * (double)b->sum;
	if (__builtin_add_overflow(a->sum, b->sum, &a->sum))
		return SERIES_RANGE;
	if (b->min < a->min)
		a->min = b->min;
	if (b->max > a->max)
		a->max = b->max;
	a->n += b->n;
	return 0;
}

/* ---- Histograms ---- */

/*
 * The start of the bucket of value x, with 2^bits buckets a doubling
 * (trc-loops(5)): x itself up to 2^(bits + 1), else x with all but its
 * bits + 1 highest bits cleared, so that a bucket spans at most 1/2^bits
 * of the values in it.
 */
static int64_t
bucket_lo(int64_t x, int bits)
{
	int e;

	if (x <= 0)
		return x;
	e = 64 - __builtin_clzll((unsigned long long)x) - bits - 1;
	return e <= 0 ? x : (int64_t)((uint64_t)x >> e << e);
}

/* The width of the bucket that starts at lo. */
static int64_t
bucket_width(int64_t lo, int bits)
{
	int e;

	if (lo <= 0)
		return 1;
	e = 64 - __builtin_clzll((unsigned long long)lo) - bits - 1;
	return e <= 0 ? 1 : (int64_t)1 << e;
}

/* n values of sum sum into the bucket that starts at lo: 0, -1 out of
 * memory, SERIES_RANGE. */
static int
hist_add(struct trc_loops_series *s, int64_t lo, int64_t n, int64_t sum)
{
	size_t a = 0, b = s->nh, m;

	while (a < b) {
		m = a + (b - a) / 2;
		if (s->hb[m].lo < lo)
			a = m + 1;
		else
			b = m;
	}
	if (a < s->nh && s->hb[a].lo == lo) {
		s->hb[a].n += n;
		return __builtin_add_overflow(s->hb[a].sum, sum,
		    &s->hb[a].sum) ? SERIES_RANGE : 0;
	}
	if (trc_grow(&s->hb, &s->caph, s->nh + 1, sizeof(*s->hb), 4) < 0)
		return -1;
	memmove(&s->hb[a + 1], &s->hb[a], (s->nh - a) * sizeof(*s->hb));
	s->hb[a].lo = lo;
	s->hb[a].n = n;
	s->hb[a].sum = sum;
	s->nh++;
	return 0;
}

/* b's histogram into a's. */
static int
hist_merge(struct trc_loops_series *a, const struct trc_loops_series *b)
{
	size_t i;
	int rc;

	for (i = 0; i < b->nh; i++)
		if ((rc = hist_add(a, b->hb[i].lo, b->hb[i].n,
		    b->hb[i].sum)) < 0)
			return rc;
	return 0;
}

/* ---- Nodes ---- */

static void
node_free(struct trc_loops_node *x)
{
	int i;

	if (x == NULL)
		return;
	for (i = 0; i < x->nbody; i++)
		node_free(x->body[i]);
	free(x->body);
	if (x->d != NULL) {
		free(x->d->dt.v);
		free(x->d->dt.hb);
		for (i = 0; i < x->d->nv; i++)
			free(x->d->v[i].v);
		free(x->d->v);
		free(x->d);
	}
	free(x);
}

/* b's data after a's, into a: 0, or -1 with the error on L. */
static int
node_merge(struct trc_loops *L, struct trc_loops_node *a,
    const struct trc_loops_node *b, int keep)
{
	int i, rc;

	if (a->tmpl >= 0) {
		if ((rc = series_merge(&a->d->dt, &b->d->dt, keep)) < 0 ||
		    (rc = hist_merge(&a->d->dt, &b->d->dt)) < 0)
			return rc == SERIES_RANGE ? fail(L, "the times of "
			    "'%.80s' sum past the 64-bit range",
			    trc_loops_template(L, a->tmpl)) :
			    fail(L, "out of memory");
		for (i = 0; i < a->d->nv; i++)
			if ((rc = series_merge(&a->d->v[i], &b->d->v[i],
			    keep || a->d->v[i].exact)) < 0)
				return rc == SERIES_RANGE ? fail(L, "the "
				    "values of '%.80s' sum past the 64-bit "
				    "range", trc_loops_template(L, a->tmpl)) :
				    fail(L, "out of memory");
		return 0;
	}
	for (i = 0; i < a->nbody; i++)
		if (node_merge(L, a->body[i], b->body[i], keep) < 0)
			return -1;
	return 0;
}

/*
 * The structure id of a loop over its body, without its own count,
 * which grows while it is at the end of the program (interning every
 * count would keep one name per iteration): loops compare by id and
 * count.  The counts of loops in the body are part of the name.
 */
static int32_t
loop_sid(struct trc_loops *L, struct trc_loops_node *const *body, int n)
{
	size_t len;
	int i;

	len = (size_t)snprintf(L->buf, sizeof(L->buf), "R:");
	for (i = 0; i < n && len < sizeof(L->buf) - 40; i++)
		len += (size_t)snprintf(L->buf + len, sizeof(L->buf) - len,
		    "%ld*%lld,", (long)body[i]->sid, (long long)body[i]->count);
	if (i < n)
		return -1;	/* too long to name: never equal */
	return trc_intern(&L->sids, L->buf, len);
}

static int
same(struct trc_loops_node *const *a, struct trc_loops_node *const *b, int k)
{
	int i;

	for (i = 0; i < k; i++)
		if (a[i]->sid != b[i]->sid || a[i]->count != b[i]->count ||
		    a[i]->sid < 0)
			return 0;
	return 1;
}

/* Folds the tail of a rank's program while it repeats. */
static int
fold(struct trc_loops *L, struct rank *R)
{
	struct trc_loops_node *lp, **body;
	size_t n;
	int k, w = L->opts.window, i, keep = L->opts.lossless;

	for (;;) {
		n = R->n;
		/* A loop followed by its body: one iteration more. */
		for (k = 1; k < w && (size_t)k + 1 <= n; k++) {
			lp = R->seq[n - (size_t)k - 1];
			if (lp->tmpl >= 0 || lp->nbody != k ||
			    !same(lp->body, R->seq + n - k, k))
				continue;
			for (i = 0; i < k; i++) {
				if (node_merge(L, lp->body[i],
				    R->seq[n - k + i], keep) < 0)
					return -1;
				/* NULL: after an error trc_loops_free()
				 * frees the rest of the program. */
				node_free(R->seq[n - k + i]);
				R->seq[n - k + i] = NULL;
			}
			lp->count++;
			R->n -= (size_t)k;
			break;
		}
		if (k < w && (size_t)k + 1 <= n)
			continue;
		/* Two equal runs: a loop of 2. */
		for (k = 1; 2 * k <= w && (size_t)(2 * k) <= n; k++)
			if (same(R->seq + n - 2 * k, R->seq + n - k, k))
				break;
		if (!(2 * k <= w && (size_t)(2 * k) <= n))
			return 0;
		if ((lp = calloc(1, sizeof(*lp))) == NULL ||
		    (body = malloc((size_t)k * sizeof(*body))) == NULL) {
			free(lp);
			return fail(L, "out of memory");
		}
		memcpy(body, R->seq + n - 2 * k, (size_t)k * sizeof(*body));
		for (i = 0; i < k; i++) {
			if (node_merge(L, body[i], R->seq[n - k + i],
			    keep) < 0) {
				free(body);
				free(lp);
				return -1;
			}
			node_free(R->seq[n - k + i]);
			R->seq[n - k + i] = NULL;
		}
		lp->tmpl = -1;
		lp->body = body;
		lp->nbody = k;
		lp->count = 2;
		lp->sid = loop_sid(L, body, k);
		R->seq[n - 2 * k] = lp;
		R->n = n - 2 * (size_t)k + 1;
	}
}

struct trc_loops *
trc_loops_new(const struct trc_header *h, const struct trc_loops_opts *o)
{
	struct trc_loops *L;

	if ((L = calloc(1, sizeof(*L))) == NULL)
		return NULL;
	if (o != NULL)
		L->opts = *o;
	if (L->opts.window < 2)
		L->opts.window = TRC_LOOPS_WINDOW;
	/* Lossless keeps every time: no statistics to add a histogram to. */
	L->hbits = -1;
	if (L->opts.lossless || L->opts.histogram <= 0)
		L->opts.histogram = 0;
	else
		/* A power of two (the next up), at most TRC_LOOPS_MAXHIST. */
		for (L->hbits = 0; (1 << L->hbits) < L->opts.histogram &&
		    (1 << L->hbits) < TRC_LOOPS_MAXHIST; L->hbits++)
			;
	L->rkp.elsize = sizeof(struct rank);
	L->hdr = *h;
	if ((L->extra = malloc(h->extra.len + 1)) == NULL) {
		free(L);
		return NULL;
	}
	memcpy(L->extra, h->extra.s, h->extra.len);
	L->hdr.extra.s = L->extra;
	if (h->order == TRC_ORDER_NONE)
		fail(L, "a stream of order=none has no times per rank in order");
	return L;
}

void
trc_loops_free(struct trc_loops *L)
{
	struct rank *R;
	int32_t k;
	size_t i;

	if (L == NULL)
		return;
	for (k = 0; k < L->npresent; k++) {
		R = trc_pages_at(&L->rkp, (size_t)L->present[k]);
		for (i = 0; i < R->n; i++)
			node_free(R->seq[i]);
		free(R->seq);
	}
	trc_pages_free(&L->rkp);
	free(L->present);
	trc_intern_free(&L->tmpls);
	trc_intern_free(&L->sids);
	free(L->tmpl_nv);
	free(L->extra);
	free(L);
}

/* A decimal integer as the text writes it back exactly. */
static int
canonical(const struct trc_str *v, int64_t *i)
{
	char num[24];

	return v->len > 0 && v->len < 21 && trc_parse_int(v->s, v->len, i) == 0 &&
	    trc_format_int(num, *i) == v->len &&
	    memcmp(num, v->s, v->len) == 0;
}

/* The keys whose values are the event's structure, kept as they are. */
static int
structural(const struct trc_str *k)
{
	static const char *const keys[] = { "tag", "comm", "root", "bytes",
	    "op", "fn", "size", "peer", "req", NULL };
	int i;

	for (i = 0; keys[i] != NULL; i++)
		if (strlen(keys[i]) == k->len && memcmp(keys[i], k->s, k->len) == 0)
			return 1;
	return 0;
}

/* req=3,4 as offsets from the rank's highest request: "@r+1,+1". */
static size_t
req_template(char *o, const struct trc_str *v, int64_t *top)
{
	const char *p = v->s, *end = v->s + v->len, *c;
	struct trc_str e;
	int64_t x, t = *top;
	size_t n = 2;

	memcpy(o, "@r", 2);
	for (; p <= end; p = c + 1) {
		if ((c = memchr(p, ',', (size_t)(end - p))) == NULL)
			c = end;
		e.s = p;
		e.len = (size_t)(c - p);
		if (!canonical(&e, &x) || x < 0)
			return 0;
		if (n > 2)
			o[n++] = ',';
		if (x > t) {
			n += (size_t)sprintf(o + n, "+%lld", (long long)(x - t));
			t = x;
		} else
			n += (size_t)sprintf(o + n, "-%lld", (long long)(t - x));
		if (c == end)
			break;
	}
	*top = t;
	return n;
}

int
trc_loops_add(struct trc_loops *L, const struct trc_event *ev)
{
	int64_t vals[TRC_MAXATTR], x, d, dt;
	unsigned char exact[TRC_MAXATTR];
	struct rank *R;
	struct trc_loops_node *leaf, **seq;
	const struct trc_attr *a;
	char *o = L->buf;
	size_t len, n;
	int32_t id, *pr;
	int i, nv = 0, *q;

	if (L->failed)
		return -1;
	/* The template is built in L->buf: no longer than a line was. */
	for (len = 8, i = 0; i < ev->nattr; i++)
		len += ev->attr[i].key.len + ev->attr[i].val.len + 2;
	if (len > TRC_MAXLINE)
		return fail(L, "event longer than %d bytes", TRC_MAXLINE);
	if ((R = trc_pages_get(&L->rkp, (size_t)ev->rank)) == NULL)
		return fail(L, "out of memory");
	if (!R->seen) {
		R->wsrc = -1;
		if (L->npresent == L->cappresent) {
			id = L->cappresent ? 2 * L->cappresent : 16;
			if ((pr = realloc(L->present, (size_t)id *
			    sizeof(*pr))) == NULL)
				return fail(L, "out of memory");
			L->present = pr;
			L->cappresent = id;
		}
		L->present[L->npresent++] = ev->rank;
		if (ev->rank >= L->nrk)
			L->nrk = ev->rank + 1;
	}
	len = (size_t)sprintf(o, "%s", trc_kind_name(ev->kind));
	for (i = 0; i < ev->nattr; i++) {
		a = &ev->attr[i];
		o[len++] = ' ';
		memcpy(o + len, a->key.s, a->key.len);
		len += a->key.len;
		o[len++] = '=';
		if (a->key.len == 4 && memcmp(a->key.s, "peer", 4) == 0 &&
		    a->val.len == 1 && a->val.s[0] == '*' &&
		    ev->kind == TRC_RB) {
			R->wild++;
			o[len++] = '*';
			continue;
		}
		if (a->key.len == 4 && memcmp(a->key.s, "peer", 4) == 0 &&
		    canonical(&a->val, &x) && x >= 0 &&
		    (L->hdr.ranks == 0 || x < L->hdr.ranks)) {
			/* The source a wildcard receive took varies from run
			 * to run: kept exactly (@p), and later events to the
			 * same rank (a reply) say so (@w). */
			if (ev->kind == TRC_RE && R->wild > 0 &&
			    !L->opts.fixed_peers) {
				R->wild--;
				R->wsrc = x;
				memcpy(o + len, "@p", 2);
				len += 2;
				exact[nv] = 1;
				vals[nv++] = x;
				continue;
			}
			if (R->wsrc >= 0 && x == R->wsrc && R->wsrc != ev->rank &&
			    !L->opts.fixed_peers) {
				memcpy(o + len, "@w", 2);
				len += 2;
				continue;
			}
			d = x - ev->rank;
			if (L->hdr.ranks > 0) {
				d = ((d % L->hdr.ranks) + L->hdr.ranks) %
				    L->hdr.ranks;
				if (2 * d > L->hdr.ranks)
					d -= L->hdr.ranks;
			}
			len += (size_t)sprintf(o + len, "@%+lld", (long long)d);
			continue;
		}
		if (a->key.len == 3 && memcmp(a->key.s, "req", 3) == 0 &&
		    (n = req_template(o + len, &a->val, &R->reqtop)) > 0) {
			len += n;
			continue;
		}
		if (!structural(&a->key) && canonical(&a->val, &x)) {
			memcpy(o + len, "@v", 2);
			len += 2;
			exact[nv] = 0;
			vals[nv++] = x;
			continue;
		}
		if (a->val.len > 0 && a->val.s[0] == '@')
			o[len++] = '@';		/* a literal '@' doubled */
		memcpy(o + len, a->val.s, a->val.len);
		len += a->val.len;
	}
	o[len] = '\0';
	if ((id = trc_intern(&L->tmpls, o, len)) < 0)
		return fail(L, "out of memory");
	if ((size_t)id >= L->ntmpl_nv) {
		if ((q = realloc(L->tmpl_nv, ((size_t)id + 64) * sizeof(*q))) == NULL)
			return fail(L, "out of memory");
		L->tmpl_nv = q;
		L->ntmpl_nv = (size_t)id + 64;
	}
	L->tmpl_nv[id] = nv;

	if ((leaf = calloc(1, sizeof(*leaf))) == NULL ||
	    (leaf->d = calloc(1, sizeof(*leaf->d))) == NULL ||
	    (nv > 0 && (leaf->d->v = calloc((size_t)nv,
	    sizeof(*leaf->d->v))) == NULL)) {
		node_free(leaf);
		return fail(L, "out of memory");
	}
	leaf->tmpl = id;
	leaf->d->nv = nv;
	sprintf(L->buf, "L%ld", (long)id);
	dt = ev->t - (R->seen ? R->last_t : 0);
	if ((leaf->sid = trc_intern(&L->sids, L->buf, strlen(L->buf))) < 0 ||
	    series_add(&leaf->d->dt, dt, L->opts.lossless) < 0 ||
	    (L->hbits >= 0 &&
	    hist_add(&leaf->d->dt, bucket_lo(dt, L->hbits), 1, dt) < 0)) {
		node_free(leaf);
		return fail(L, "out of memory");
	}
	for (i = 0; i < nv; i++) {
		leaf->d->v[i].exact = exact[i];
		if (series_add(&leaf->d->v[i], vals[i],
		    L->opts.lossless || exact[i]) < 0) {
			node_free(leaf);
			return fail(L, "out of memory");
		}
	}
	R->seen = 1;
	R->last_t = ev->t;
	if (R->n == R->cap) {
		/* From 4: with millions of ranks of a few events each, the
		 * room a rank holds unused is what counts. */
		R->cap = R->cap ? 2 * R->cap : 4;
		if ((seq = realloc(R->seq, R->cap * sizeof(*seq))) == NULL) {
			node_free(leaf);
			return fail(L, "out of memory");
		}
		R->seq = seq;
	}
	R->seq[R->n++] = leaf;
	return fold(L, R);
}

/* ---- Writing ---- */

/* Numbers the leaves of a program in order; prints it when f. */
static void
put_program(FILE *f, struct trc_loops *L, struct trc_loops_node *const *seq,
    size_t n, int depth, int *leafno)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (seq[i]->tmpl >= 0) {
			fprintf(f, "%*sE%d %s\n", 2 * depth + 2, "", (*leafno)++,
			    L->tmpls.name[seq[i]->tmpl]);
			continue;
		}
		fprintf(f, "%*sloop %lld\n", 2 * depth + 2, "",
		    (long long)seq[i]->count);
		put_program(f, L, seq[i]->body, (size_t)seq[i]->nbody,
		    depth + 1, leafno);
		fprintf(f, "%*send\n", 2 * depth + 2, "");
	}
}

static void
put_time(FILE *f, const char *key, int64_t ns)
{
	char b[32];

	b[trc_format_time(b, ns < 0 ? -ns : ns)] = '\0';
	fprintf(f, " %s=%s%s", key, ns < 0 ? "-" : "", b);
}

/* A series: FIRST+STRIDE, or every value, or ~SUM,MIN,MAX. */
static void
put_series(FILE *f, const char *key, const struct trc_loops_series *s,
    int lossless)
{
	int64_t i;

	if (s->arith)
		fprintf(f, " %s=%lld%+lld", key, (long long)s->first,
		    (long long)s->stride);
	else if (lossless) {
		fprintf(f, " %s=", key);
		for (i = 0; i < s->n; i++)
			fprintf(f, "%s%lld", i ? "," : "", (long long)s->v[i]);
	} else
		fprintf(f, " %s=~%lld,%lld,%lld", key, (long long)s->sum,
		    (long long)s->min, (long long)s->max);
}

/* The times' histogram less the first time, which first= gives:
 * " hist=LO:N:SUM,...". */
static void
put_hist(FILE *f, const struct trc_loops_series *s, int bits)
{
	int64_t lo = bucket_lo(s->first, bits), n, sum;
	const char *sep = "=";
	size_t i;

	fputs(" hist", f);
	for (i = 0; i < s->nh; i++) {
		n = s->hb[i].n;
		sum = s->hb[i].sum;
		if (s->hb[i].lo == lo) {
			n--;
			sum -= s->first;
		}
		if (n == 0)
			continue;
		fprintf(f, "%s%lld:%lld:%lld", sep, (long long)s->hb[i].lo,
		    (long long)n, (long long)sum);
		sep = ",";
	}
}

static void
put_data(FILE *f, struct trc_loops *L, struct trc_loops_node *const *seq,
    size_t n, int *leafno)
{
	const struct trc_loops_leaf *d;
	size_t i;
	int j;

	for (i = 0; i < n; i++) {
		if (seq[i]->tmpl < 0) {
			put_data(f, L, seq[i]->body, (size_t)seq[i]->nbody,
			    leafno);
			continue;
		}
		d = seq[i]->d;
		fprintf(f, "  E%d n=%lld", (*leafno)++, (long long)d->dt.n);
		/* Statistics, unless the times are exact in as few bytes. */
		if (L->opts.lossless || d->dt.arith)
			put_series(f, "dt", &d->dt, 1);
		else {
			put_time(f, "sum", d->dt.sum);
			put_time(f, "mean", d->dt.sum / d->dt.n);
			put_time(f, "min", d->dt.min);
			put_time(f, "max", d->dt.max);
			put_time(f, "first", d->dt.first);
			if (L->hbits >= 0)
				put_hist(f, &d->dt, L->hbits);
		}
		for (j = 0; j < d->nv; j++)
			put_series(f, "v", &d->v[j],
			    L->opts.lossless || d->v[j].exact);
		fputc('\n', f);
	}
}

/* The rank list "0,2-5" of the ranks in group g: rank[i] in group[i],
 * the n ranks present in order. */
static void
put_ranks(FILE *f, const int32_t *rank, const int32_t *group, int32_t n,
    int32_t g)
{
	int32_t i, j;
	int first = 1;

	for (i = 0; i < n; i++) {
		if (group[i] != g)
			continue;
		for (j = i; j + 1 < n && group[j + 1] == g &&
		    rank[j + 1] == rank[j] + 1; j++)
			;
		fprintf(f, first ? " %ld" : ",%ld", (long)rank[i]);
		if (j > i)
			fprintf(f, "-%ld", (long)rank[j]);
		first = 0;
		i = j;
	}
}

int32_t
trc_loops_nranks(const struct trc_loops *L)
{
	return L->nrk;
}

const char *
trc_loops_template(const struct trc_loops *L, int32_t tmpl)
{
	return L->tmpls.name[tmpl];
}

struct trc_loops_node *const *
trc_loops_program(const struct trc_loops *L, int32_t r, size_t *n)
{
	const struct rank *R;

	if (r < 0 || (R = trc_pages_at(&L->rkp, (size_t)r)) == NULL ||
	    !R->seen) {
		*n = 0;
		return NULL;
	}
	*n = R->n;
	return R->seq;
}

static int
cmp_rank(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* The groups of the ranks present, in rank order: group[i] for the
 * rank L->present[i] once sorted. */
static int32_t
groups_present(struct trc_loops *L, int32_t *group)
{
	struct trc_intern progs = { 0 };
	const struct rank *R;
	int32_t k, r, g, ng = 0;
	size_t i, len;

	if (L->npresent > 0)
		qsort(L->present, (size_t)L->npresent, sizeof(*L->present),
		    cmp_rank);
	/* Ranks whose programs have the same structure share one. */
	for (k = 0; k < L->npresent; k++) {
		r = L->present[k];
		R = trc_pages_at(&L->rkp, (size_t)r);
		len = (size_t)snprintf(L->buf, sizeof(L->buf), "P");
		for (i = 0; i < R->n && len < sizeof(L->buf) - 40; i++)
			len += (size_t)snprintf(L->buf + len,
			    sizeof(L->buf) - len, "%ld*%lld,",
			    (long)R->seq[i]->sid, (long long)R->seq[i]->count);
		if (i < R->n)
			len += (size_t)snprintf(L->buf + len,
			    sizeof(L->buf) - len, "#%ld", (long)r);
		if ((g = trc_intern(&progs, L->buf, len)) < 0) {
			trc_intern_free(&progs);
			return fail(L, "out of memory");
		}
		group[k] = g;
		if (g >= ng)
			ng = g + 1;
	}
	trc_intern_free(&progs);
	return ng;
}

int32_t
trc_loops_groups(struct trc_loops *L, int32_t *group)
{
	int32_t *gp, r, k, ng;

	if (L->failed)
		return -1;
	if ((gp = malloc(((size_t)L->npresent + 1) * sizeof(*gp))) == NULL)
		return fail(L, "out of memory");
	if ((ng = groups_present(L, gp)) >= 0) {
		for (r = 0; r < L->nrk; r++)
			group[r] = -1;
		for (k = 0; k < L->npresent; k++)
			group[L->present[k]] = gp[k];
	}
	free(gp);
	return ng;
}

int
trc_loops_write(struct trc_loops *L, FILE *f)
{
	static const char *orders[] = { "time", "rank", "none" };
	const char *p, *nl;
	const struct rank *R;
	int32_t *group, k, j, g, ng;
	int leafno;

	if (L->failed)
		return -1;
	if ((group = malloc(((size_t)L->npresent + 1) * sizeof(*group))) ==
	    NULL)
		return fail(L, "out of memory");
	if ((ng = groups_present(L, group)) < 0) {
		free(group);
		return -1;
	}
	fprintf(f, "#trc-loops 1");
	if (L->hdr.ranks > 0)
		fprintf(f, " ranks=%ld", (long)L->hdr.ranks);
	fprintf(f, " order=%s timing=%s", orders[L->hdr.order],
	    L->opts.lossless ? "lossless" : "stats");
	if (L->hbits >= 0)
		fprintf(f, " hist=%d", 1 << L->hbits);
	fputc('\n', f);
	for (p = L->hdr.extra.s; p < L->hdr.extra.s + L->hdr.extra.len;
	    p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(L->hdr.extra.s +
		    L->hdr.extra.len - p));
		fprintf(f, "#h %.*s\n", (int)(nl - p), p);
	}
	for (g = 0; g < ng; g++) {
		for (k = 0; group[k] != g; k++)
			;
		fprintf(f, "group");
		put_ranks(f, L->present, group, L->npresent, g);
		fputc('\n', f);
		leafno = 0;
		R = trc_pages_at(&L->rkp, (size_t)L->present[k]);
		put_program(f, L, R->seq, R->n, 0, &leafno);
		for (j = k; j < L->npresent; j++) {
			if (group[j] != g)
				continue;
			fprintf(f, "rank %ld\n", (long)L->present[j]);
			leafno = 0;
			R = trc_pages_at(&L->rkp, (size_t)L->present[j]);
			put_data(f, L, R->seq, R->n, &leafno);
		}
	}
	free(group);
	return ferror(f) ? -1 : 0;
}

/* ---- Expansion ---- */

/* A histogram's bucket being spread: its n values share its sum as
 * q n + r (the first r get q + 1); cur is its turn's credit. */
struct ubucket {
	int64_t		 lo, n, sum, q, r, used, cur;
};

struct useries {
	int		 kind;		/* 0 arithmetic, 1 list, 2 stats */
	int		 hasfirst;	/* stats: the first exactly */
	int64_t		 first, stride, sum, n;
	int64_t		*v;
	int64_t		 i, q, r, acc;	/* next; stats: sum = q n + r */
	int64_t		 cur;		/* arithmetic: the value before */
	struct ubucket	*hb;		/* stats: the histogram, if any */
	size_t		 nb;
};

struct uleaf {
	struct useries	 dt;
	int		 nv;
	struct useries	*v;
};

struct unode {
	int		 leaf;		/* its number, or -1 for a loop */
	char		*tmpl;		/* "SB peer=@+1 tag=1" */
	int64_t		 count;
	struct unode	*body;
	int		 nbody;
	int		 nv;
	long		 line;		/* of its template */
};

struct ugroup {
	struct unode	 prog;		/* a loop of count 1 */
	int		 nleaf;
	/* The ranks its line names, as sorted ranges: counted, not
	 * marked one by one ("group 0-20000000" is 18 bytes), and those
	 * given data so far. */
	int64_t		(*rng)[2];
	size_t		 nrng, caprng;
	int64_t		 nranks, ndata;
};

struct frame {
	const struct unode *loop;
	int		 i;
	int64_t		 left;
};

struct urank {
	int		 present;
	struct ugroup	*g;
	struct uleaf	*leaf;
	struct frame	*st;
	int		 depth, cap;
	int64_t		 t, reqtop, wsrc;
	int		 done;
	char		*line;
	size_t		 len;
};

struct trc_unloop {
	char		*name;
	int		 failed;
	char		 err[TRC_ERRLEN + 256];
	struct trc_header hdr;
	char		*extra;
	size_t		 extralen;
	struct ugroup	**grp;
	int		 ngrp;
	/* Ranks in pages (lib/pages.c), those with data listed in
	 * present: memory follows the ranks present. */
	struct trc_pages rkp;
	int32_t		*present;
	size_t		 npresent, cappresent;
	int32_t		*heap;
	int		 nheap, started;
	int		 hbits;		/* the header's hist=, log2, or -1 */
	struct trc_event ev;		/* each line made, read back */
};

static int
ufail(struct trc_unloop *U, long line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (U->failed)
		return -1;
	n = line > 0 ? snprintf(U->err, sizeof(U->err), "%s:%ld: ", U->name,
	    line) : snprintf(U->err, sizeof(U->err), "%s: ", U->name);
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(U->err))
		vsnprintf(U->err + n, sizeof(U->err) - (size_t)n, fmt, ap);
	va_end(ap);
	U->failed = 1;
	return -1;
}

const char *
trc_unloop_error(const struct trc_unloop *U)
{
	return U->err;
}

static void
unode_free(struct unode *x)
{
	int i;

	for (i = 0; i < x->nbody; i++)
		unode_free(&x->body[i]);
	free(x->body);
	free(x->tmpl);
}

void
trc_unloop_free(struct trc_unloop *U)
{
	struct urank *R;
	size_t k;
	int i, j;

	if (U == NULL)
		return;
	for (k = 0; k < U->npresent; k++) {
		R = trc_pages_at(&U->rkp, (size_t)U->present[k]);
		if (R->leaf != NULL)
			for (i = 0; i < R->g->nleaf; i++) {
				free(R->leaf[i].dt.v);
				free(R->leaf[i].dt.hb);
				for (j = 0; j < R->leaf[i].nv; j++)
					free(R->leaf[i].v[j].v);
				free(R->leaf[i].v);
			}
		free(R->leaf);
		free(R->st);
		free(R->line);
	}
	for (i = 0; i < U->ngrp; i++) {
		unode_free(&U->grp[i]->prog);
		free(U->grp[i]->rng);
		free(U->grp[i]);
	}
	free(U->grp);
	trc_pages_free(&U->rkp);
	free(U->present);
	free(U->heap);
	free(U->extra);
	free(U->name);
	free(U);
}

static int
word_is(const char *s, const char *w)
{
	size_t n = strlen(w);

	return strncmp(s, w, n) == 0 && (s[n] == ' ' || s[n] == '\0');
}

/* Parses "N" or "-N": 0, or -1. */
static int
num(const char *s, const char **end, int64_t *v)
{
	char *e;
	long long x;

	errno = 0;
	x = strtoll(s, &e, 10);
	if (e == s || errno != 0)
		return -1;
	*v = x;
	*end = e;
	return 0;
}

/* A time "S.NNNNNNNNN", maybe negative. */
static int
ptime(const char *s, const char **end, int64_t *v)
{
	const char *e = s + (*s == '-');

	while ((*e >= '0' && *e <= '9') || *e == '.')
		e++;
	if (trc_parse_time(s + (*s == '-'), (size_t)(e - s - (*s == '-')),
	    v) < 0)
		return -1;
	if (*s == '-')
		*v = -*v;
	*end = e;
	return 0;
}

/* A series after "key=": FIRST+STRIDE, V,V,..., or ~SUM,MIN,MAX. */
static int
pseries(const char *s, const char **end, struct useries *u, int64_t n)
{
	int64_t x, *p;
	size_t cap = 0;

	memset(u, 0, sizeof(*u));
	u->n = n;
	if (*s == '~') {
		u->kind = 2;
		if (num(s + 1, &s, &u->sum) < 0 || *s++ != ',' ||
		    num(s, &s, &x) < 0 || *s++ != ',' || num(s, &s, &x) < 0)
			return -1;
		*end = s;
		return 0;
	}
	if (num(s, &s, &u->first) < 0)
		return -1;
	if (*s == '+' || *s == '-') {
		u->kind = 0;
		if (num(s, &s, &u->stride) < 0)
			return -1;
		*end = s;
		return 0;
	}
	u->kind = 1;
	x = u->first;
	for (;;) {
		if ((size_t)u->i == cap) {
			cap = cap ? 2 * cap : 16;
			if ((p = realloc(u->v, cap * sizeof(*p))) == NULL)
				return -2;
			u->v = p;
		}
		u->v[u->i++] = x;
		if (*s != ',')
			break;
		if (num(s + 1, &s, &x) < 0)
			return -1;
	}
	if (u->i != n)
		return -1;
	u->i = 0;
	*end = s;
	return 0;
}

/*
 * A histogram's next value: each bucket in turn as often as it has
 * values, spread evenly over the occurrences (smooth weighted round
 * robin: every bucket's credit grows by its count, the most credited,
 * the lowest on a tie, gives the value and pays back the total), so
 * that over any stretch each bucket has about its share; a bucket's
 * values share its sum as statistics do.
 */
static int64_t
hist_next(struct useries *u)
{
	struct ubucket *b;
	size_t k, best = 0;

	for (k = 0; k < u->nb; k++) {
		u->hb[k].cur += u->hb[k].n;
		if (u->hb[k].cur > u->hb[best].cur)
			best = k;
	}
	b = &u->hb[best];
	b->cur -= u->acc;
	return b->q + (b->used++ < b->r);
}

/* A histogram after "hist=" of a stats line: LO:N:SUM,..., each bucket
 * one of 2^bits a doubling, after the one before, with N values whose
 * SUM is the bucket's: 0, -1 invalid, -2 out of memory. */
static int
phist(const char *s, const char **end, struct useries *u, int bits)
{
	struct ubucket *b;
	int64_t lo, n, sum, top;
	size_t cap = 0;

	for (;;) {
		if (num(s, &s, &lo) < 0 || *s++ != ':' || num(s, &s, &n) < 0 ||
		    *s++ != ':' || num(s, &s, &sum) < 0)
			return -1;
		/* A bucket's start, after the last, its values in it. */
		if (lo < 0 || bucket_lo(lo, bits) != lo || n < 1 ||
		    (u->nb > 0 && lo <= u->hb[u->nb - 1].lo) ||
		    __builtin_add_overflow(lo, bucket_width(lo, bits) - 1,
		    &top) || __builtin_mul_overflow(lo, n, &(int64_t){ 0 }) ||
		    sum < lo * n || (!__builtin_mul_overflow(top, n,
		    &(int64_t){ 0 }) && sum > top * n))
			return -1;
		if (trc_grow(&u->hb, &cap, u->nb + 1, sizeof(*u->hb), 4) < 0)
			return -2;
		b = &u->hb[u->nb++];
		memset(b, 0, sizeof(*b));
		b->lo = lo;
		b->n = n;
		b->sum = sum;
		b->q = sum / n;
		b->r = sum % n;
		if (*s != ',')
			break;
		s++;
	}
	*end = s;
	return 0;
}

/* A stats line's histogram against its count, sum and first: 0, -1. */
static int
hist_whole(const struct useries *u)
{
	int64_t n = 0, sum = 0;
	size_t k;

	for (k = 0; k < u->nb; k++)
		if (__builtin_add_overflow(n, u->hb[k].n, &n) ||
		    __builtin_add_overflow(sum, u->hb[k].sum, &sum))
			return -1;
	return n == u->n - u->hasfirst &&
	    !__builtin_add_overflow(sum, u->hasfirst ? u->first : 0, &sum) &&
	    sum == u->sum ? 0 : -1;
}

/*
 * The next value into *v: 0, or -1 past the 64-bit range, which only a
 * description trc-loops did not write can take a series.
 */
static int
useries_next(struct useries *u, int64_t *v)
{
	int64_t x;

	switch (u->kind) {
	case 0:
		/* From the value before, not first + i stride: every value
		 * is in range, i stride need not be. */
		if (u->i == 0)
			x = u->first;
		else if (__builtin_add_overflow(u->cur, u->stride, &x))
			return -1;
		u->cur = x;
		break;
	case 1:
		x = u->v[u->i];
		break;
	default:
		/* The sum spread evenly, exactly: q + 1 for the first r,
		 * q for the others; the first alone when it is given. */
		if (u->i == 0) {
			u->acc = u->n - u->hasfirst;
			if (__builtin_sub_overflow(u->sum, u->hasfirst ?
			    u->first : 0, &x))
				return -1;
			if (u->acc > 0) {
				u->q = x / u->acc;
				u->r = x % u->acc;
				if (u->r < 0) {
					u->r += u->acc;
					u->q--;
				}
			}
			if (u->hasfirst) {
				x = u->first;
				break;
			}
		}
		if (u->nb > 0) {
			x = hist_next(u);
			break;
		}
		/* In range: r > 0 only when acc > 1, so |q| < 2^62. */
		x = u->q + (u->i - u->hasfirst < u->r);
	}
	u->i++;
	*v = x;
	return 0;
}

/* The end of a template's word: a space, a tab or its end. */
static int
word_end(char c)
{
	return c == ' ' || c == '\t' || c == '\0';
}

/*
 * Counts the @v and @p of a template.  Only a value's first byte can
 * start a placeholder (trc-loops(5)): a value's first '=' follows its
 * key, and an '=' or '@' later in the value is its own (x=a=@v).
 */
static int
count_v(const char *t)
{
	int n = 0, inkey = 0;

	for (; *t != '\0'; t++) {
		if (*t == ' ' || *t == '\t')
			inkey = 1;
		else if (*t == '=' && inkey) {
			inkey = 0;
			if (t[1] == '@' && (t[2] == 'v' || t[2] == 'p') &&
			    word_end(t[3]))
				n++;
		}
	}
	return n;
}

/* Reads the program of a group, up to its first "rank" line. */
static int
read_program(struct trc_unloop *U, struct trc_lines *in, struct ugroup *g,
    char **s, size_t *len, int *rc)
{
	struct unode *stack[64], *parent, *x, *p;
	int depth = 0;
	const char *e;
	char *t;
	long line;

	stack[0] = &g->prog;
	g->prog.leaf = -1;
	g->prog.count = 1;
	while ((*rc = trc_lines_next(in, s, len)) > 0) {
		line = trc_lines_lineno(in);
		for (t = *s; *t == ' '; t++)
			;
		if (word_is(t, "rank") || word_is(t, "group"))
			break;
		if (word_is(t, "end")) {
			if (depth == 0)
				return ufail(U, line, "'end' without 'loop'");
			depth--;
			continue;
		}
		parent = stack[depth];
		if ((p = realloc(parent->body, ((size_t)parent->nbody + 1) *
		    sizeof(*p))) == NULL)
			return ufail(U, line, "out of memory");
		parent->body = p;
		x = &parent->body[parent->nbody++];
		memset(x, 0, sizeof(*x));
		/* The stack holds only the open loops, whose parents do
		 * not grow while they are open: no pointer moves. */
		if (word_is(t, "loop")) {
			if (num(t + 5, &e, &x->count) < 0 || *e != '\0' ||
			    x->count < 1)
				return ufail(U, line, "invalid loop count '%s'",
				    t + 5);
			x->leaf = -1;
			if (depth == 63)
				return ufail(U, line, "loops nested too deep");
			stack[++depth] = x;
			continue;
		}
		if (t[0] != 'E' || num(t + 1, &e, &(int64_t){ 0 }) < 0 ||
		    *e != ' ')
			return ufail(U, line, "invalid program line '%.40s'", t);
		x->leaf = g->nleaf++;
		if (strtol(t + 1, NULL, 10) != x->leaf)
			return ufail(U, line, "leaf E%ld out of order",
			    strtol(t + 1, NULL, 10));
		if ((x->tmpl = strdup(e + 1)) == NULL)
			return ufail(U, line, "out of memory");
		x->line = line;
		x->nv = count_v(x->tmpl);
	}
	if (*rc < 0)
		return -1;
	if (depth != 0)
		return ufail(U, trc_lines_lineno(in), "'loop' without 'end'");
	return 0;
}

static int
read_rank(struct trc_unloop *U, struct trc_lines *in, struct ugroup *g,
    struct urank *R, char **s, size_t *len, int *rc)
{
	struct useries *u;
	const char *p;
	char key[64];
	int64_t n;
	int i, j, k;
	long line;

	if ((R->leaf = calloc((size_t)g->nleaf + 1, sizeof(*R->leaf))) == NULL)
		return ufail(U, 0, "out of memory");
	R->g = g;
	for (i = 0; i < g->nleaf; i++) {
		if ((*rc = trc_lines_next(in, s, len)) <= 0)
			return *rc < 0 ? -1 : ufail(U, trc_lines_lineno(in) + 1,
			    "rank data ends before E%d", i);
		line = trc_lines_lineno(in);
		for (p = *s; *p == ' '; p++)
			;
		if (*p != 'E' || num(p + 1, &p, &n) < 0 || n != i ||
		    strncmp(p, " n=", 3) != 0 || num(p + 3, &p, &n) < 0 || n < 1)
			return ufail(U, line, "expected 'E%d n=COUNT'", i);
		R->leaf[i].nv = 0;
		for (k = 0; *p == ' '; k++) {
			p++;
			for (j = 0; j < 63 && p[j] != '=' && p[j] != '\0'; j++)
				key[j] = p[j];
			key[j] = '\0';
			if (p[j] != '=')
				return ufail(U, line, "invalid field '%.20s'", p);
			p += j + 1;
			if (strcmp(key, "dt") == 0) {
				/* Once: a second would drop the first's
				 * values (libFuzzer: a leak). */
				if (R->leaf[i].dt.n != 0 || R->leaf[i].dt.nb > 0)
					return ufail(U, line, "E%d: times "
					    "given twice", i);
				if (pseries(p, &p, &R->leaf[i].dt, n) != 0)
					return ufail(U, line, "invalid dt");
			} else if (strcmp(key, "sum") == 0) {
				R->leaf[i].dt.kind = 2;
				R->leaf[i].dt.n = n;
				if (ptime(p, &p, &R->leaf[i].dt.sum) < 0)
					return ufail(U, line, "invalid sum");
			} else if (strcmp(key, "first") == 0) {
				R->leaf[i].dt.hasfirst = 1;
				if (ptime(p, &p, &R->leaf[i].dt.first) < 0)
					return ufail(U, line, "invalid first");
			} else if (strcmp(key, "mean") == 0 ||
			    strcmp(key, "min") == 0 || strcmp(key, "max") == 0) {
				if (ptime(p, &p, &(int64_t){ 0 }) < 0)
					return ufail(U, line, "invalid %s", key);
			} else if (strcmp(key, "hist") == 0) {
				/* After sum=, once, as the header says. */
				if (U->hbits < 0 || R->leaf[i].dt.kind != 2 ||
				    R->leaf[i].dt.nb > 0)
					return ufail(U, line, "E%d: hist= needs "
					    "hist= in the header and sum= before "
					    "it, once", i);
				if ((j = phist(p, &p, &R->leaf[i].dt,
				    U->hbits)) != 0)
					return j == -2 ? ufail(U, 0, "out of "
					    "memory") : ufail(U, line,
					    "invalid hist");
			} else if (strcmp(key, "v") == 0) {
				if ((u = realloc(R->leaf[i].v,
				    ((size_t)R->leaf[i].nv + 1) * sizeof(*u))) ==
				    NULL)
					return ufail(U, line, "out of memory");
				R->leaf[i].v = u;
				if (pseries(p, &p, &u[R->leaf[i].nv++], n) != 0)
					return ufail(U, line, "invalid v");
			} else
				return ufail(U, line, "unknown field '%s'", key);
		}
		if (*p != '\0')
			return ufail(U, line, "invalid field '%.20s'", p);
		if (R->leaf[i].dt.n != n)
			return ufail(U, line, "E%d has no times", i);
		if (R->leaf[i].dt.nb > 0 && (R->leaf[i].dt.kind != 2 ||
		    hist_whole(&R->leaf[i].dt) < 0))
			return ufail(U, line, "E%d: hist= is not its count "
			    "and sum less first=", i);
	}
	*rc = trc_lines_next(in, s, len);
	return *rc < 0 ? -1 : 0;
}

/* Checks that each leaf's count is what the program runs. */
static int64_t
runs(const struct unode *x, int64_t times, int64_t *count)
{
	int i;

	if (x->leaf >= 0) {
		count[x->leaf] += times;
		return 0;
	}
	for (i = 0; i < x->nbody; i++)
		runs(&x->body[i], times * x->count, count);
	return 0;
}

static int
range_cmp(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

/* Is rank r in g's sorted ranges? */
static int
in_group(const struct ugroup *g, int64_t r)
{
	size_t lo = 0, hi = g->nrng, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (r < g->rng[mid][0])
			hi = mid;
		else if (r > g->rng[mid][1])
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}

struct trc_unloop *
trc_unloop_open(const char *path)
{
	struct trc_unloop *U;
	struct trc_lines *in;
	struct ugroup *g, **gp;
	struct urank *R;
	char err[TRC_ERRLEN], *s, *p, *q;
	const char *e;
	size_t len, k, j;
	int64_t r, lo, hi, *count;
	int rc, i, nv;
	long line;

	if ((U = calloc(1, sizeof(*U))) == NULL)
		return NULL;
	U->rkp.elsize = sizeof(struct urank);
	if ((U->name = strdup(path == NULL || strcmp(path, "-") == 0 ?
	    "<stdin>" : path)) == NULL || (in = trc_lines_open(path)) == NULL) {
		trc_unloop_free(U);
		return NULL;
	}
	if ((rc = trc_lines_next(in, &s, &len)) <= 0) {
		if (rc < 0)
			snprintf(U->err, sizeof(U->err), "%s",
			    trc_lines_error(in));
		else
			ufail(U, 1, "missing '#trc-loops' header (empty input)");
		U->failed = 1;
		goto out;
	}
	if (strncmp(s, "#trc-loops 1", 12) != 0 || (s[12] != ' ' && s[12] != '\0')) {
		ufail(U, 1, "missing '#trc-loops 1' header");
		goto out;
	}
	/* The stream's header: "#trc 1" and the same words, then
	 * trc-loops' own: timing=, hist=. */
	memcpy(s + 6, "#trc", 4);
	U->hbits = -1;
	if ((p = strstr(s, " timing=")) != NULL) {
		if ((q = strstr(p, " hist=")) != NULL) {
			if (num(q + 6, &e, &r) < 0 || r < 1 ||
			    r > TRC_LOOPS_MAXHIST || (r & (r - 1)) != 0 ||
			    (*e != '\0' && *e != ' ')) {
				ufail(U, 1, "hist= is not a power of two from "
				    "1 to %d", TRC_LOOPS_MAXHIST);
				goto out;
			}
			for (U->hbits = 0; ((int64_t)1 << U->hbits) < r;
			    U->hbits++)
				;
		}
		*p = '\0';
	}
	if (trc_parse_header(s + 6, strlen(s + 6), &U->hdr, err) < 0) {
		ufail(U, 1, "%s", err);
		goto out;
	}
	while ((rc = trc_lines_next(in, &s, &len)) > 0 && strncmp(s, "#h ", 3) == 0) {
		/* The header's other lines, each a '#' line of the stream. */
		if (s[3] != '#') {
			ufail(U, trc_lines_lineno(in), "'#h' holds no '#' line "
			    "of the stream's header");
			goto out;
		}
		if ((p = realloc(U->extra, U->extralen + len)) == NULL) {
			ufail(U, 0, "out of memory");
			goto out;
		}
		U->extra = p;
		memcpy(U->extra + U->extralen, s + 3, len - 3);
		U->extralen += len - 3;
		U->extra[U->extralen++] = '\n';
	}
	U->hdr.extra.s = U->extra ? U->extra : "";
	U->hdr.extra.len = U->extralen;
	while (rc > 0) {
		line = trc_lines_lineno(in);
		if (!word_is(s, "group")) {
			ufail(U, line, "expected 'group RANKS'");
			goto out;
		}
		if ((gp = realloc(U->grp, ((size_t)U->ngrp + 1) *
		    sizeof(*gp))) == NULL) {
			ufail(U, line, "out of memory");
			goto out;
		}
		U->grp = gp;
		if ((g = calloc(1, sizeof(*g))) == NULL) {
			ufail(U, line, "out of memory");
			goto out;
		}
		U->grp[U->ngrp++] = g;
		/* The ranks it names must each have data, checked below. */
		for (p = s + 5; *p == ' '; p++)
			;
		for (q = p; *q != '\0'; q = (char *)e + (*e == ',')) {
			if (num(q, &e, &lo) < 0 || lo < 0 || lo >= INT32_MAX) {
				ufail(U, line, "invalid rank list '%s'", p);
				goto out;
			}
			hi = lo;
			if (*e == '-' && (num(e + 1, &e, &hi) < 0 || hi < lo ||
			    hi >= INT32_MAX)) {
				ufail(U, line, "invalid rank list '%s'", p);
				goto out;
			}
			if (*e != ',' && *e != '\0') {
				ufail(U, line, "invalid rank list '%s'", p);
				goto out;
			}
			/* The stream written must be one its readers take. */
			if (U->hdr.ranks > 0 && hi >= U->hdr.ranks) {
				ufail(U, line, "rank %lld out of range (ranks=%ld)",
				    (long long)hi, (long)U->hdr.ranks);
				goto out;
			}
			if (trc_grow(&g->rng, &g->caprng, g->nrng + 1,
			    sizeof(*g->rng), 8) < 0) {
				ufail(U, line, "out of memory");
				goto out;
			}
			g->rng[g->nrng][0] = lo;
			g->rng[g->nrng++][1] = hi;
			g->nranks += hi - lo + 1;
		}
		if (g->nrng > 1)
			qsort(g->rng, g->nrng, sizeof(*g->rng), range_cmp);
		for (k = 1; k < g->nrng; k++)
			if (g->rng[k][0] <= g->rng[k - 1][1]) {
				ufail(U, line, "rank %lld twice in the group",
				    (long long)g->rng[k][0]);
				goto out;
			}
		if (read_program(U, in, g, &s, &len, &rc) < 0)
			goto lines;
		while (rc > 0 && word_is(s, "rank")) {
			line = trc_lines_lineno(in);
			if (num(s + 5, &e, &r) < 0 || *e != '\0' || r < 0 ||
			    !in_group(g, r)) {
				ufail(U, line, "rank '%s' not in the group", s + 5);
				goto out;
			}
			if ((R = trc_pages_get(&U->rkp, (size_t)r)) == NULL ||
			    trc_grow(&U->present, &U->cappresent,
			    U->npresent + 1, sizeof(*U->present), 16) < 0) {
				ufail(U, line, "out of memory");
				goto out;
			}
			if (R->present) {
				ufail(U, line, R->g == g ? "rank %lld given "
				    "data twice" : "rank %lld in two groups",
				    (long long)r);
				goto out;
			}
			R->present = 1;
			R->g = g;
			U->present[U->npresent++] = (int32_t)r;
			g->ndata++;
			if (read_rank(U, in, g, R, &s, &len, &rc) < 0)
				goto lines;
		}
	}
	if (rc < 0)
		goto lines;
	/* Every rank a group names has its data there: as many given as
	 * named, or the first rank of the list that is not. */
	for (i = 0; i < U->ngrp; i++) {
		g = U->grp[i];
		for (k = 0; g->ndata != g->nranks && k < g->nrng; k++)
			for (r = g->rng[k][0]; r <= g->rng[k][1]; r++) {
				R = trc_pages_at(&U->rkp, (size_t)r);
				if (R == NULL || !R->present) {
					ufail(U, 0, "rank %lld has no data",
					    (long long)r);
					goto out;
				}
				if (R->g != g) {
					ufail(U, 0, "rank %lld in two groups",
					    (long long)r);
					goto out;
				}
			}
	}
	for (j = 0; j < U->npresent; j++) {
		r = U->present[j];
		R = trc_pages_at(&U->rkp, (size_t)r);
		/* Each leaf's data must hold what the program runs. */
		g = R->g;
		if ((count = calloc((size_t)g->nleaf + 1, sizeof(*count))) == NULL) {
			ufail(U, 0, "out of memory");
			goto out;
		}
		runs(&g->prog, 1, count);
		for (i = 0; i < g->nleaf; i++)
			if (count[i] != R->leaf[i].dt.n)
				break;
		nv = i < g->nleaf ? 0 : 1;
		free(count);
		if (!nv) {
			ufail(U, 0, "rank %lld: E%d runs other than its n= times",
			    (long long)r, i);
			goto out;
		}
	}
	trc_lines_close(in);
	return U;
lines:
	if (!U->failed) {
		snprintf(U->err, sizeof(U->err), "%s", trc_lines_error(in));
		U->failed = 1;
	}
out:
	trc_lines_close(in);
	return U;
}

const struct trc_header *
trc_unloop_header(struct trc_unloop *U)
{
	return U->failed ? NULL : &U->hdr;
}

/* Leaves with their @v count checked against their data. */
static const struct unode *
rank_step(struct urank *R)
{
	struct frame *f, *st;
	const struct unode *x;

	for (;;) {
		if (R->depth == 0)
			return NULL;
		f = &R->st[R->depth - 1];
		if (f->i == f->loop->nbody) {
			f->i = 0;
			if (--f->left == 0) {
				R->depth--;
				continue;
			}
		}
		x = &f->loop->body[f->i++];
		if (x->leaf >= 0)
			return x;
		if (R->depth == R->cap) {
			R->cap = R->cap ? 2 * R->cap : 16;
			if ((st = realloc(R->st, (size_t)R->cap * sizeof(*st))) ==
			    NULL)
				return NULL;
			R->st = st;
		}
		R->st[R->depth].loop = x;
		R->st[R->depth].i = 0;
		R->st[R->depth].left = x->count;
		R->depth++;
	}
}

/* The rank's next event line into R->line: 1, 0 at its end, -1. */
static int
range_fail(struct trc_unloop *U, int32_t rank, const struct unode *x)
{
	return ufail(U, x->line, "rank %ld: E%d: a value or time past the "
	    "64-bit range", (long)rank, x->leaf);
}

static int
rank_next(struct trc_unloop *U, int32_t rank, struct urank *R)
{
	const struct unode *x;
	struct uleaf *d;
	const char *t, *v;
	char *o, err[TRC_ERRLEN];
	int64_t d0, peer, n, dt;
	int vi = 0, N = U->hdr.ranks, inkey;

	if ((x = rank_step(R)) == NULL)
		return R->depth == 0 ? 0 : ufail(U, 0, "out of memory");
	d = &R->leaf[x->leaf];
	if (x->nv != d->nv)
		return ufail(U, 0, "rank %ld: E%d has %d values, its template %d",
		    (long)rank, x->leaf, d->nv, x->nv);
	if (useries_next(&d->dt, &dt) < 0 ||
	    __builtin_add_overflow(R->t, dt, &R->t))
		return range_fail(U, rank, x);
	/* A rank's times never go back in a stream trc-loops compressed:
	 * statistics whose first is more than their sum would. */
	if (dt < 0)
		return ufail(U, x->line, "rank %ld: E%d: a time before the "
		    "rank's time before", (long)rank, x->leaf);
	if ((R->line == NULL && (R->line = malloc(TRC_MAXLINE + 64)) == NULL))
		return ufail(U, 0, "out of memory");
	o = R->line;
	o += trc_format_time(o, R->t);
	o += sprintf(o, " %ld ", (long)rank);
	/* As count_v(): a placeholder only at a value's start, the first
	 * byte after its word's first '=' (the first word is the kind). */
	for (t = x->tmpl, inkey = 0; *t != '\0';) {
		if (o - R->line > TRC_MAXLINE)
			return ufail(U, 0, "rank %ld: line too long", (long)rank);
		if (*t == ' ' || *t == '\t')
			inkey = 1;
		if (t[0] != '=' || !inkey || t[1] != '@') {
			if (*t == '=')
				inkey = 0;
			*o++ = *t++;
			continue;
		}
		inkey = 0;
		*o++ = '=';
		t += 2;
		/* A placeholder is its value whole: "@vx" would use a value
		 * count_v() did not count. */
		if ((*t == 'v' || *t == 'p' || *t == 'w') && !word_end(t[1]))
			return ufail(U, x->line, "bad template '%s'", x->tmpl);
		if (*t == '@') {	/* a literal '@' */
			*o++ = *t++;
			continue;
		} else if (*t == 'v') {
			if (useries_next(&d->v[vi++], &n) < 0)
				return range_fail(U, rank, x);
			o += trc_format_int(o, n);
			t++;
		} else if (*t == 'p') {
			if (useries_next(&d->v[vi++], &R->wsrc) < 0)
				return range_fail(U, rank, x);
			o += trc_format_int(o, R->wsrc);
			t++;
		} else if (*t == 'w') {
			o += trc_format_int(o, R->wsrc);
			t++;
		} else if (*t == 'r') {
			for (t++; *t == '+' || *t == '-';) {
				if (num(t + 1, &v, &n) < 0)
					return ufail(U, x->line, "bad template '%s'",
					    x->tmpl);
				if (*t == '+' ? __builtin_add_overflow(R->reqtop,
				    n, &R->reqtop) : __builtin_sub_overflow(
				    R->reqtop, n, &n))
					return range_fail(U, rank, x);
				o += trc_format_int(o, *t == '+' ? R->reqtop :
				    n);
				t = v;
				if (*t == ',' && (t[1] == '+' || t[1] == '-'))
					*o++ = *t++;
			}
		} else if (*t == '+' || *t == '-') {
			if (num(t, &v, &d0) < 0)
				return ufail(U, x->line, "bad template '%s'", x->tmpl);
			if (__builtin_add_overflow(rank, d0, &peer))
				return range_fail(U, rank, x);
			if (N > 0)
				peer = ((peer % N) + N) % N;
			o += trc_format_int(o, peer);
			t = v;
		} else
			return ufail(U, x->line, "bad template '%s'", x->tmpl);
		if (!word_end(*t))
			return ufail(U, x->line, "bad template '%s'", x->tmpl);
	}
	*o++ = '\n';
	R->len = (size_t)(o - R->line);
	/* What a template makes must read back: a bad kind or key in the
	 * program is an error here, not an invalid stream written. */
	if (trc_parse_line(R->line, R->len - 1, &U->ev, err) < 0)
		return ufail(U, x->line, "rank %ld: E%d gives an invalid "
		    "event: %s", (long)rank, x->leaf, err);
	return 1;
}

static int
hless(struct trc_unloop *U, int32_t a, int32_t b)
{
	const struct urank *A = trc_pages_at(&U->rkp, (size_t)a);
	const struct urank *B = trc_pages_at(&U->rkp, (size_t)b);

	return A->t < B->t || (A->t == B->t && a < b);
}

static void
hsift(struct trc_unloop *U, int i)
{
	int32_t x = U->heap[i];
	int c;

	while ((c = 2 * i + 1) < U->nheap) {
		if (c + 1 < U->nheap && hless(U, U->heap[c + 1], U->heap[c]))
			c++;
		if (!hless(U, U->heap[c], x))
			break;
		U->heap[i] = U->heap[c];
		i = c;
	}
	U->heap[i] = x;
}

int
trc_unloop_next(struct trc_unloop *U, const char **line, size_t *len)
{
	struct urank *R;
	int32_t r;
	size_t k;
	int rc, i;

	if (U->failed)
		return -1;
	if (!U->started) {
		U->started = 1;
		if ((U->heap = malloc((U->npresent + 1) * sizeof(*U->heap))) ==
		    NULL)
			return ufail(U, 0, "out of memory");
		for (k = 0; k < U->npresent; k++) {
			r = U->present[k];
			R = trc_pages_at(&U->rkp, (size_t)r);
			if ((R->st = malloc(16 * sizeof(*R->st))) == NULL)
				return ufail(U, 0, "out of memory");
			R->cap = 16;
			R->st[0].loop = &R->g->prog;
			R->st[0].i = 0;
			R->st[0].left = 1;
			R->depth = 1;
			if ((rc = rank_next(U, r, R)) < 0)
				return -1;
			if (rc > 0)
				U->heap[U->nheap++] = r;
		}
		for (i = U->nheap / 2 - 1; i >= 0; i--)
			hsift(U, i);
	} else if (U->nheap > 0) {
		/* The line handed out last is replaced now. */
		r = U->heap[0];
		if ((rc = rank_next(U, r, trc_pages_at(&U->rkp, (size_t)r))) < 0)
			return -1;
		if (rc == 0)
			U->heap[0] = U->heap[--U->nheap];
		if (U->nheap > 0)
			hsift(U, 0);
	}
	if (U->nheap == 0)
		return 0;
	R = trc_pages_at(&U->rkp, (size_t)U->heap[0]);
	*line = R->line;
	*len = R->len;
	return 1;
}
