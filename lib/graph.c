/*
 * graph.c - execution graphs for comparison: events interned as tokens,
 * per-rank token strings with the message edge of every receive (from
 * match.c), and the per-rank comparison.
 */
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "fmt/fmt.h"

static uint64_t
mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}

/* ---- events to tokens ---- */

int
trc_key_parse(const char *s, unsigned *fields)
{
	static const struct { const char *name; unsigned bit; } names[] = {
		{ "kind", TRC_KEY_KIND }, { "peer", TRC_KEY_PEER },
		{ "tag", TRC_KEY_TAG }, { "fn", TRC_KEY_FN },
		{ "bytes", TRC_KEY_BYTES },
	};
	const char *end;
	size_t i, len;

	*fields = 0;
	for (;;) {
		end = strchr(s, ',');
		len = end ? (size_t)(end - s) : strlen(s);
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i].name) == len &&
			    memcmp(names[i].name, s, len) == 0)
				break;
		if (i == sizeof(names) / sizeof(names[0]))
			return -1;
		*fields |= names[i].bit;
		if (end == NULL)
			break;
		s = end + 1;
	}
	return *fields & TRC_KEY_KIND ? 0 : -1;
}

/* 32 bytes: with millions of ranks the distinct events are many. */
struct dent {
	int64_t		 bytes;
	int32_t		 kind, peer, tag;
	uint32_t	 fn, fnlen;	/* offsets into the pool */
	uint32_t	 hash;		/* enough bits for any mask */
};

/*
 * Under the default key, kind and peer, a peer below DIRECT - 2 is its
 * own token (peer + 2 beside the kind): no entry, so that a run whose
 * ranks each talk to other peers costs no dictionary.  Entries are
 * numbered from DIRECT up, apart from those.
 */
#define DIRECT	((uint32_t)1 << 27)

struct trc_dict {
	unsigned	 fields;
	struct dent	*e;
	size_t		 n, cap;
	int32_t		*slot;
	size_t		 mask;
	char		*pool;
	size_t		 plen, pcap;
};

struct trc_dict *
trc_dict_new(unsigned fields)
{
	struct trc_dict *d;

	if ((d = calloc(1, sizeof(*d))) == NULL)
		return NULL;
	d->fields = fields;
	d->mask = 1023;
	if ((d->slot = malloc((d->mask + 1) * sizeof(*d->slot))) == NULL) {
		free(d);
		return NULL;
	}
	memset(d->slot, 0xff, (d->mask + 1) * sizeof(*d->slot));
	return d;
}

void
trc_dict_free(struct trc_dict *d)
{
	if (d == NULL)
		return;
	free(d->e);
	free(d->slot);
	free(d->pool);
	free(d);
}

static int
dict_token(struct trc_dict *d, const struct trc_event *ev, uint32_t *tok)
{
	struct dent k, *e;
	struct trc_str fn = { "", 0 };
	uint64_t h;
	size_t i, j;

	if (d->fields == TRC_KEY_KIND) {
		*tok = (uint32_t)ev->kind << 28;
		return 0;
	}
	if (d->fields == TRC_KEY_DEFAULT &&
	    (uint32_t)ev->peer + 2 < DIRECT) {
		*tok = (uint32_t)ev->kind << 28 | ((uint32_t)ev->peer + 2);
		return 0;
	}
	memset(&k, 0, sizeof(k));
	k.kind = (int32_t)ev->kind;
	k.peer = d->fields & TRC_KEY_PEER ? ev->peer : 0;
	k.tag = d->fields & TRC_KEY_TAG ? ev->tag : 0;
	k.bytes = d->fields & TRC_KEY_BYTES ? ev->bytes : 0;
	if (d->fields & TRC_KEY_FN)
		fn = ev->fn.len > 0 ? ev->fn : ev->op;
	h = mix((uint64_t)(uint32_t)k.kind << 32 | (uint32_t)k.peer);
	h = mix(h ^ ((uint64_t)(uint32_t)k.tag << 32) ^ (uint64_t)k.bytes);
	for (i = 0; i < fn.len; i++)
		h = (h ^ (unsigned char)fn.s[i]) * 1099511628211ULL;
	k.hash = (uint32_t)h;
	for (i = k.hash & d->mask; d->slot[i] >= 0; i = (i + 1) & d->mask) {
		e = &d->e[d->slot[i]];
		if (e->hash == k.hash && e->kind == k.kind &&
		    e->peer == k.peer && e->tag == k.tag &&
		    e->bytes == k.bytes && e->fnlen == fn.len &&
		    (fn.len == 0 ||
		    memcmp(d->pool + e->fn, fn.s, fn.len) == 0)) {
			*tok = (uint32_t)k.kind << 28 |
			    (DIRECT + (uint32_t)d->slot[i]);
			return 0;
		}
	}
	/* Entries fit beside the direct tokens, the pool in 32 bits. */
	if (d->n >= DIRECT - 1 || d->plen + fn.len > UINT32_MAX)
		return -1;
	if (2 * (d->n + 1) > d->mask) {
		size_t nmask = 2 * d->mask + 1;
		int32_t *ns;

		if ((ns = malloc((nmask + 1) * sizeof(*ns))) == NULL)
			return -1;
		memset(ns, 0xff, (nmask + 1) * sizeof(*ns));
		for (j = 0; j < d->n; j++) {
			for (i = d->e[j].hash & nmask; ns[i] >= 0;
			    i = (i + 1) & nmask)
				continue;
			ns[i] = (int32_t)j;
		}
		free(d->slot);
		d->slot = ns;
		d->mask = nmask;
		for (i = k.hash & d->mask; d->slot[i] >= 0;
		    i = (i + 1) & d->mask)
			continue;
	}
	if (d->n == d->cap) {
		size_t ncap = d->cap ? 2 * d->cap : 256;

		if ((e = realloc(d->e, ncap * sizeof(*e))) == NULL)
			return -1;
		d->e = e;
		d->cap = ncap;
	}
	if (d->plen + fn.len > d->pcap) {
		size_t ncap = d->pcap ? 2 * d->pcap : 4096;
		char *p;

		while (ncap < d->plen + fn.len)
			ncap *= 2;
		if ((p = realloc(d->pool, ncap)) == NULL)
			return -1;
		d->pool = p;
		d->pcap = ncap;
	}
	if (fn.len > 0)
		memcpy(d->pool + d->plen, fn.s, fn.len);
	k.fn = (uint32_t)d->plen;
	k.fnlen = (uint32_t)fn.len;
	d->plen += fn.len;
	d->e[d->n] = k;
	d->slot[i] = (int32_t)d->n;
	*tok = (uint32_t)k.kind << 28 | (DIRECT + (uint32_t)d->n++);
	return 0;
}

/* ---- graphs ---- */

/*
 * Room for need elements of size el in *pp: from first, doubling, so
 * that the many ranks of few events each stay small.
 */
static int
grow(void *pp, size_t el, uint32_t *cap, uint32_t need, uint32_t first)
{
	void *p;
	size_t ncap;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap : first;
	while (ncap < need)
		ncap *= 2;
	if (ncap > UINT32_MAX)
		ncap = UINT32_MAX;
	if ((p = realloc(*(void **)pp, ncap * el)) == NULL)
		return -1;
	*(void **)pp = p;
	*cap = (uint32_t)ncap;
	return 0;
}

static size_t
dst_hash(int32_t d, size_t cap)
{
	return ((uint32_t)d * 2654435761u) & (cap - 1);
}

/* The count of rk's sends to dst so far, in its hash of destinations
 * (memory by the destinations it sent to); NULL when out of memory. */
static uint32_t *
sent_to(struct trc_rank *rk, int32_t dst)
{
	struct trc_sent *ns;
	size_t i, j, cap;

	if (rk->scap > 0)
		for (i = dst_hash(dst, rk->scap); rk->sent[i].dst >= 0;
		    i = (i + 1) & (rk->scap - 1))
			if (rk->sent[i].dst == dst)
				return &rk->sent[i].cnt;
	if (2 * (rk->nsent + 1) > rk->scap) {
		cap = rk->scap ? 2 * (size_t)rk->scap : 2;
		if ((ns = malloc(cap * sizeof(*ns))) == NULL)
			return NULL;
		for (i = 0; i < cap; i++)
			ns[i].dst = -1;
		for (j = 0; j < rk->scap; j++) {
			if (rk->sent[j].dst < 0)
				continue;
			for (i = dst_hash(rk->sent[j].dst, cap); ns[i].dst >= 0;
			    i = (i + 1) & (cap - 1))
				;
			ns[i] = rk->sent[j];
		}
		free(rk->sent);
		rk->sent = ns;
		rk->scap = (uint32_t)cap;
	}
	for (i = dst_hash(dst, rk->scap); rk->sent[i].dst >= 0;
	    i = (i + 1) & (rk->scap - 1))
		;
	rk->sent[i].dst = dst;
	rk->sent[i].cnt = 0;
	rk->nsent++;
	return &rk->sent[i].cnt;
}

/* Receive k of rk is matched to the send s (its val as send_val). */
static void
matched(struct trc_rank *rk, size_t k, const struct trc_msg *s)
{
	rk->edge[k].idx = (uint32_t)((uint64_t)s->val & 0xffffffff);
	rk->edge[k].ord = (uint32_t)((uint64_t)s->val >> 32);
	rk->edge[k].line = (uint64_t)s->line;
}

int
trc_recv_differs(const struct trc_rank *x, const struct trc_rank *y,
    size_t i)
{
	return x->edge[i].src != y->edge[i].src ||
	    x->edge[i].ord != y->edge[i].ord;
}

static struct trc_rank *
rank_get(struct trc_graph *g, int32_t r)
{
	struct trc_rank *rk;
	int32_t *p, cap;

	g->rankp.elsize = sizeof(*rk);
	if ((rk = trc_pages_get(&g->rankp, (size_t)r)) == NULL)
		return NULL;
	if (!rk->present) {
		if (g->npresent == g->cappresent) {
			cap = g->cappresent ? 2 * g->cappresent : 64;
			if ((p = realloc(g->present, (size_t)cap *
			    sizeof(*p))) == NULL)
				return NULL;
			g->present = p;
			g->cappresent = cap;
		}
		g->present[g->npresent++] = r;
		rk->present = 1;
	}
	if (r >= g->nranks)
		g->nranks = r + 1;
	return rk;
}

static int
cmp_rank(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

int32_t *
trc_graph_ranks(const struct trc_graph *a, const struct trc_graph *b,
    int declared, int32_t *n)
{
	int32_t *u, i = 0, j = 0, k = 0, h = !declared ? 0 :
	    a->hranks > b->hranks ? a->hranks : b->hranks;

	*n = 0;
	if ((u = malloc(((size_t)a->npresent + (size_t)b->npresent +
	    (size_t)h + 1) * sizeof(*u))) == NULL)
		return NULL;
	/* The ranks a header declares, with events or not. */
	for (k = 0; k < h; k++)
		u[k] = k;
	while (i < a->npresent && a->present[i] < h)
		i++;
	while (j < b->npresent && b->present[j] < h)
		j++;
	/* Each graph's list is in order (trc_graph_read sorts it). */
	while (i < a->npresent || j < b->npresent) {
		if (j == b->npresent || (i < a->npresent &&
		    a->present[i] < b->present[j]))
			u[k++] = a->present[i++];
		else if (i == a->npresent || b->present[j] < a->present[i])
			u[k++] = b->present[j++];
		else {
			u[k++] = a->present[i++];
			j++;
		}
	}
	*n = k;
	return u;
}

int
trc_graph_read(struct trc_graph *g, struct trc_reader *rd,
    struct trc_dict *dict, const char *split)
{
	const struct trc_header *h;
	struct trc_match *m;
	struct trc_msg msg, peer;
	struct trc_event ev;
	struct trc_rank *rk;
	size_t splen = split ? strlen(split) : 0, msgmax;
	uint32_t tok, *cnt;
	int rc, mk;

	if ((h = trc_get_header(rd)) == NULL)
		return -1;
	if (h->ranks > 0 && h->ranks > g->nranks)
		g->nranks = g->hranks = h->ranks;
	if ((m = trc_match_new()) == NULL)
		return trc_fail(rd, "out of memory");
	/* The program said a bad TRC_MSG_MAX before. */
	if (trc_msg_max(&msgmax) < 0)
		msgmax = TRC_MSG_MAX_DEFAULT;
	memset(&msg, 0, sizeof(msg));
	while ((rc = trc_next(rd, &ev)) > 0) {
		if ((rk = rank_get(g, ev.rank)) == NULL ||
		    dict_token(dict, &ev, &tok) < 0 ||
		    (rk->n < UINT32_MAX && grow(&rk->tok, sizeof(*rk->tok),
		    &rk->cap, rk->n + 1, 8) < 0))
			goto oom;
		if (rk->n == UINT32_MAX) {
			trc_match_free(m);
			return trc_fail(rd, "rank %ld has more than %lu events",
			    (long)ev.rank, (unsigned long)UINT32_MAX);
		}
		if (split == NULL)
			mk = ev.kind == TRC_MK;
		else
			mk = ev.kind == TRC_PB && ev.fn.len == splen &&
			    memcmp(ev.fn.s, split, splen) == 0;
		if (mk) {
			if (grow(&rk->mark, sizeof(*rk->mark), &rk->mcap,
			    rk->nmark + 1, 1) < 0)
				goto oom;
			rk->mark[rk->nmark++] = (uint32_t)rk->n;
		}
		if (ev.kind == TRC_SE) {
			g->sends++;
			if (ev.peer >= 0) {
				msg.src = ev.rank;
				msg.dst = ev.peer;
				msg.tag = ev.tag;
				msg.comm = ev.comm;
				msg.bytes = ev.bytes;
				/* The send's val is (its ordinal to the
				 * destination, its event index). */
				if ((cnt = sent_to(rk, ev.peer)) == NULL)
					goto oom;
				msg.val = (int64_t)((uint64_t)(*cnt)++ << 32 |
				    rk->n);
				msg.line = ev.line;
				if ((rc = trc_match_send(m, &msg, &peer)) < 0)
					goto oom;
				if (rc == 0 && trc_match_pending(m) > msgmax)
					goto too_many;
				/* The receive's val is (its rank, its slot). */
				if (rc == 1)
					matched(trc_pages_at(&g->rankp,
					    (size_t)((uint64_t)peer.val >> 32)),
					    (uint64_t)peer.val & 0xffffffff, &msg);
			} else
				g->unmatched++;
		} else if (ev.kind == TRC_RE) {
			uint32_t k = rk->nrecv;

			g->recvs++;
			if (grow(&rk->edge, sizeof(*rk->edge), &rk->rcap,
			    k + 1, 1) < 0)
				goto oom;
			rk->nrecv++;
			rk->edge[k].src = ev.peer >= 0 ? (uint32_t)ev.peer :
			    UINT32_MAX;
			rk->edge[k].idx = rk->edge[k].ord = UINT32_MAX;
			rk->edge[k].line = 0;
			if (ev.peer >= 0) {
				msg.src = ev.peer;
				msg.dst = ev.rank;
				msg.tag = ev.tag;
				msg.comm = ev.comm;
				msg.bytes = ev.bytes;
				msg.val = (int64_t)((uint64_t)ev.rank << 32 | k);
				msg.line = ev.line;
				if ((rc = trc_match_recv(m, &msg, &peer)) < 0)
					goto oom;
				if (rc == 0 && trc_match_pending(m) > msgmax)
					goto too_many;
				if (rc == 1)
					matched(rk, k, &peer);
			} else
				g->unmatched++;
		}
		rk->tok[rk->n++] = tok;
		g->events++;
	}
	if (rc == 0)
		g->unmatched += trc_match_pending(m);
	trc_match_free(m);
	if (g->npresent > 0)
		qsort(g->present, (size_t)g->npresent, sizeof(*g->present),
		    cmp_rank);
	return rc < 0 ? -1 : 0;
oom:
	trc_match_free(m);
	return trc_fail(rd, "out of memory");
too_many: {
		char err[256];
		long line = trc_match_too_many(m, err, sizeof(err));

		trc_match_free(m);
		return trc_fail_at(rd, trc_name(rd), line, "%s", err);
	}
}

void
trc_graph_free(struct trc_graph *g)
{
	struct trc_rank *rk;
	int32_t i;

	for (i = 0; i < g->npresent; i++) {
		rk = trc_pages_at(&g->rankp, (size_t)g->present[i]);
		free(rk->tok);
		free(rk->edge);
		free(rk->sent);
		free(rk->mark);
	}
	trc_pages_free(&g->rankp);
	free(g->present);
	memset(g, 0, sizeof(*g));
}

static const struct trc_rank empty_rank;

const struct trc_rank *
trc_graph_rank(const struct trc_graph *g, int32_t r)
{
	const struct trc_rank *rk;

	if (r < 0 || (rk = trc_pages_at(&g->rankp, (size_t)r)) == NULL)
		return &empty_rank;
	return rk;
}

#define rank_of trc_graph_rank

/*
 * Region 0 is what comes before the first split point (maybe nothing),
 * region i >= 1 starts at the i-th split point.
 */
static void
region(const struct trc_rank *rk, size_t i, size_t *start, size_t *len)
{
	size_t s, e;

	if (i > rk->nmark) {
		*start = rk->n;
		*len = 0;
		return;
	}
	s = i == 0 ? 0 : rk->mark[i - 1];
	e = i < rk->nmark ? rk->mark[i] : rk->n;
	*start = s;
	*len = e - s;
}

int
trc_rank_compare(const struct trc_graph *a, const struct trc_graph *b,
    int32_t r, int regions, struct trc_rank_cmp *out,
    void (*cb)(void *, int32_t, size_t, size_t, size_t, size_t, size_t,
	uint64_t), void *arg)
{
	const struct trc_rank *x = rank_of(a, r), *y = rank_of(b, r);
	size_t i, nr, a0, an, b0, bn;
	int64_t l;

	memset(out, 0, sizeof(*out));
	out->na = x->n;
	out->nb = y->n;
	out->same_string = x->n == y->n &&
	    (x->n == 0 || memcmp(x->tok, y->tok, x->n * sizeof(*x->tok)) == 0);
	out->same_edges = x->nrecv == y->nrecv;
	for (i = 0; out->same_edges && i < x->nrecv; i++)
		out->same_edges = x->edge[i].src == y->edge[i].src &&
		    x->edge[i].idx == y->edge[i].idx;
	if (out->same_string) {
		out->lcs = x->n;
		if (!out->same_edges)
			for (i = 0; i < x->nrecv; i++)
				out->d += trc_recv_differs(x, y, i);
		if (regions)
			out->regions = x->nmark + 1;
		return 0;
	}
	if (!regions) {
		if ((l = trc_lcs(x->tok, x->n, y->tok, y->n, NULL)) < 0)
			return -1;
		out->lcs = (uint64_t)l;
		out->d = (x->n > y->n ? x->n : y->n) - out->lcs;
		return 0;
	}
	nr = (x->nmark > y->nmark ? x->nmark : y->nmark) + 1;
	out->regions = nr;
	for (i = 0; i < nr; i++) {
		region(x, i, &a0, &an);
		region(y, i, &b0, &bn);
		/* tok is NULL for a rank without events, and NULL + 0 undefined. */
		if ((l = trc_lcs(an ? x->tok + a0 : NULL, an, bn ? y->tok + b0 :
		    NULL, bn, NULL)) < 0)
			return -1;
		out->lcs += (uint64_t)l;
		out->d += (an > bn ? an : bn) - (uint64_t)l;
		if ((uint64_t)l != an || an != bn) {
			out->bad_regions++;
			if (cb != NULL)
				cb(arg, r, i, a0, an, b0, bn, (uint64_t)l);
		}
	}
	return 0;
}

/* Hunks of one rank to unmatched events. */
struct unmatched_arg {
	struct trc_graph_diff	*out;
	void			(*cb)(void *, int32_t, int, size_t);
	void			*arg;
	int32_t			 rank;
};

static void
unmatched_hunk(void *p, const struct trc_lcs_hunk *h)
{
	struct unmatched_arg *u = p;
	size_t i;

	for (i = 0; i < h->alen; i++)
		u->cb(u->arg, u->rank, 0, h->a + i);
	for (i = 0; i < h->blen; i++)
		u->cb(u->arg, u->rank, 1, h->b + i);
	u->out->unmatched[0] += h->alen;
	u->out->unmatched[1] += h->blen;
}

/*
 * One distance, the sum of the ranks': where a rank's strings differ,
 * its events outside their LCS; where they are the same, event i is the
 * same vertex in both graphs and the receives matched to other sends
 * are what differs.  (Across differing strings the vertices correspond
 * only through the LCS, and a lost send would shift every later match
 * on its channel, so matches are not counted there.)  n is the sum of
 * the ranks' larger event counts, so that d = n - lcs where no receive
 * is matched otherwise.
 */
int
trc_graph_compare(const struct trc_graph *a, const struct trc_graph *b,
    int declared, int regions, struct trc_graph_cmp *out,
    void (*cb)(void *, int32_t r, size_t region, size_t a0, size_t an,
	size_t b0, size_t bn, uint64_t lcs), void *arg)
{
	struct trc_rank_cmp *c;
	int32_t i;

	memset(out, 0, sizeof(*out));
	out->identical = 1;
	if ((out->rank = trc_graph_ranks(a, b, declared, &out->nranks)) ==
	    NULL || (out->per = calloc((size_t)out->nranks + 1,
	    sizeof(*out->per))) == NULL) {
		trc_graph_cmp_free(out);
		return -1;
	}
	for (i = 0; i < out->nranks; i++) {
		c = &out->per[i];
		if (trc_rank_compare(a, b, out->rank[i], regions, c, cb,
		    arg) < 0) {
			trc_graph_cmp_free(out);
			return -1;
		}
		out->identical &= c->same_string && c->same_edges;
		out->total.na += c->na;
		out->total.nb += c->nb;
		out->total.lcs += c->lcs;
		out->total.d += c->d;
		out->total.regions += c->regions;
		out->total.bad_regions += c->bad_regions;
		out->n += c->na > c->nb ? c->na : c->nb;
	}
	return 0;
}

void
trc_graph_cmp_free(struct trc_graph_cmp *c)
{
	free(c->rank);
	free(c->per);
	c->rank = NULL;
	c->per = NULL;
	c->nranks = 0;
}

uint64_t
trc_graph_threshold(const struct trc_graph_cmp *c, double frac,
    uint64_t events)
{
	return frac >= 0 ? (uint64_t)(frac * (double)c->n) : events;
}

int
trc_graph_unstable(const struct trc_graph_cmp *c, uint64_t threshold)
{
	return !c->identical && c->total.d > threshold;
}

int
trc_graph_unmatched(const struct trc_graph *a, const struct trc_graph *b,
    struct trc_graph_diff *out,
    void (*cb)(void *, int32_t rank, int side, size_t idx), void *arg)
{
	struct trc_graph_cmp gc;
	struct unmatched_arg u;
	int32_t r, i;
	size_t x, k;

	memset(out, 0, sizeof(*out));
	/* The ranks with events: one a header declares has nothing to
	 * add to the distance and nothing unmatched. */
	if (trc_graph_compare(a, b, 0, 0, &gc, NULL, NULL) < 0)
		return -1;
	out->na = gc.total.na;
	out->nb = gc.total.nb;
	out->lcs = gc.total.lcs;
	out->n = gc.n;
	out->d = gc.total.d;
	out->identical = gc.identical;
	u.out = out;
	u.cb = cb;
	u.arg = arg;
	for (i = 0; i < gc.nranks; i++) {
		const struct trc_rank *x1 = trc_graph_rank(a, gc.rank[i]);
		const struct trc_rank *y1 = trc_graph_rank(b, gc.rank[i]);
		const struct trc_rank_cmp *c = &gc.per[i];

		r = gc.rank[i];
		if (c->same_string && c->same_edges)
			continue;
		if (c->same_string) {
			/* The receives matched otherwise, in both. */
			for (x = 0, k = 0; x < x1->n; x++) {
				if (TRC_TOK_KIND(x1->tok[x]) != TRC_RE)
					continue;
				if (x1->edge[k].src != y1->edge[k].src ||
				    x1->edge[k].idx != y1->edge[k].idx) {
					cb(arg, r, 0, x);
					cb(arg, r, 1, x);
					out->unmatched[0]++;
					out->unmatched[1]++;
				}
				k++;
			}
			continue;
		}
		u.rank = r;
		if (trc_lcs_align(x1->tok, x1->n, y1->tok, y1->n,
		    unmatched_hunk, &u) < 0) {
			trc_graph_cmp_free(&gc);
			return -1;
		}
	}
	trc_graph_cmp_free(&gc);
	return 0;
}
