/*
 * summary.c - per rank activity times, procedure lifetimes, operation
 * counts and message sizes, gathered in one pass over a stream.
 * Memory grows with ranks, labels and operation names, never with the
 * length of the trace.
 */
#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "swar.h"

enum { OP_SEND, OP_ISEND, OP_RECV, OP_IRECV, OP_WAIT, NFIXED_OPS };
static const char *fixed_ops[NFIXED_OPS] = {
	"send", "isend", "recv", "irecv", "wait"
};

static int
fail(struct trc_summary *s, const char *fmt, const char *a, size_t alen,
    const char *b)
{
	snprintf(s->errbuf, sizeof(s->errbuf), fmt, (int)alen, a, b);
	s->error = s->errbuf;
	return -1;
}

static int
oom(struct trc_summary *s)
{
	s->error = "out of memory";
	return -1;
}

struct trc_summary *
trc_summary_new(void)
{
	struct trc_summary *s;
	int i;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return NULL;
	for (i = 0; i < NFIXED_OPS; i++)
		if (trc_intern(&s->ops, fixed_ops[i], strlen(fixed_ops[i])) < 0) {
			trc_summary_free(s);
			return NULL;
		}
	for (i = 0; i < TRC_RECENT; i++)
		s->last_op[i].id = s->last_label[i].id = -1;
	if ((s->op = calloc((size_t)s->ops.cap, sizeof(*s->op))) == NULL) {
		trc_summary_free(s);
		return NULL;
	}
	return s;
}

void
trc_summary_free(struct trc_summary *s)
{
	int32_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->npresent; i++)
		free(s->rank[s->present[i]].stack);
	free(s->present);
	for (i = 0; i < s->labels.n; i++) {
		free(s->life[i]);
		free(s->comp[i]);
	}
	free(s->rank);
	free(s->life);
	free(s->comp);
	free(s->label_first);
	free(s->op);
	for (i = 0; i < s->prof_keys.n; i++)
		free(s->prof[i]);
	free(s->prof);
	free(s->prof_n);
	trc_intern_free(&s->prof_keys);
	trc_intern_free(&s->labels);
	trc_intern_free(&s->ops);
	free(s);
}

const char *
trc_summary_error(const struct trc_summary *s)
{
	return s->error;
}

/* Room for rank r in every per-rank array. */

/*
 * An array grown to newn elements of size, the new ones zero: calloc'd
 * anew rather than realloc'd and cleared, so that a large array's
 * pages stay untouched until a rank that is present writes to them
 * (one event of rank 2,000,000 costs its own page, not 2 M ranks').
 */
static void *
grow_zeroed(void *old, size_t oldn, size_t newn, size_t size)
{
	void *p;

	if ((p = calloc(newn, size)) == NULL)
		return NULL;
	if (oldn > 0)
		memcpy(p, old, oldn * size);
	free(old);
	return p;
}
static int
grow_ranks(struct trc_summary *s, int32_t r)
{
	int64_t want;
	int32_t cap, i;
	void *p;

	if (r < s->cap_ranks) {
		if (r >= s->nranks)
			s->nranks = r + 1;
		return 0;
	}
	/* Doubled in 64 bits: a rank near 2^31 must not wrap the count. */
	for (want = s->cap_ranks ? s->cap_ranks : 16; want <= r; want *= 2)
		;
	if (r == INT32_MAX)
		return -1;
	cap = want > INT32_MAX ? INT32_MAX : (int32_t)want;
	if ((p = grow_zeroed(s->rank, (size_t)s->cap_ranks, (size_t)cap,
	    sizeof(*s->rank))) == NULL)
		return -1;
	s->rank = p;
	for (i = 0; i < s->labels.n; i++) {
		if ((p = grow_zeroed(s->life[i], (size_t)s->cap_ranks,
		    (size_t)cap, sizeof(**s->life))) == NULL)
			return -1;
		s->life[i] = p;
		if ((p = grow_zeroed(s->comp[i], (size_t)s->cap_ranks,
		    (size_t)cap, sizeof(**s->comp))) == NULL)
			return -1;
		s->comp[i] = p;
	}
	s->cap_ranks = cap;
	return grow_ranks(s, r);
}

/* Whether name is the one hit holds. */
static inline int
hit(const struct trc_name_hit *h, const struct trc_str *name)
{
	return h->id >= 0 && name->len == h->len &&
	    (name->s == h->name || swar_same(name->s, h->name, h->len));
}

/* The id of name when it is one of h[from] to h[to - 1] of the last
 * looked up (h[0] the latest), or -1.  The usual ways try a few inline
 * (a region's begin three, for a program's procedures in turn, as
 * trc-heat's three; an operation's two); the rare ones all before they
 * hash. */
static inline int32_t
recent(const struct trc_name_hit h[TRC_RECENT], const struct trc_str *name,
    int from, int to)
{
	int k;

	for (k = from; k < to; k++)
		if (hit(&h[k], name))
			return h[k].id;
	return -1;
}

/* Name id of in, just looked up, becomes the latest of h; the oldest
 * is forgotten. */
static void
remember(struct trc_name_hit h[TRC_RECENT], const struct trc_intern *in,
    int32_t id, size_t len)
{
	memmove(&h[1], &h[0], (TRC_RECENT - 1) * sizeof(*h));
	h[0].name = in->name[id];
	h[0].len = len;
	h[0].id = id;
}

static int32_t
label_id(struct trc_summary *s, const struct trc_str *fn)
{
	int32_t id, n = s->labels.n;
	void *p;

	if ((id = recent(s->last_label, fn, 0, TRC_RECENT)) >= 0)
		return id;
	if ((id = trc_intern(&s->labels, fn->s, fn->len)) < 0)
		return id;
	remember(s->last_label, &s->labels, id, fn->len);
	if (id < n)
		return id;
	/* A new label: its rows, sized for every rank. */
	if ((p = realloc(s->life, (size_t)s->labels.cap * sizeof(*s->life))) == NULL)
		return -1;
	s->life = p;
	if ((p = realloc(s->comp, (size_t)s->labels.cap * sizeof(*s->comp))) == NULL)
		return -1;
	s->comp = p;
	if ((p = realloc(s->label_first, (size_t)s->labels.cap *
	    sizeof(*s->label_first))) == NULL)
		return -1;
	s->label_first = p;
	s->label_first[id] = LONG_MAX;
	s->life[id] = calloc((size_t)(s->cap_ranks ? s->cap_ranks : 1),
	    sizeof(**s->life));
	s->comp[id] = calloc((size_t)(s->cap_ranks ? s->cap_ranks : 1),
	    sizeof(**s->comp));
	if (s->life[id] == NULL || s->comp[id] == NULL)
		return -1;
	return id;
}

/* An operation not among the last two named. */
static struct trc_op_sum *
op_sum_lookup(struct trc_summary *s, const struct trc_str *name)
{
	int32_t id, n = s->ops.n;
	void *p;

	if ((id = recent(s->last_op, name, 2, TRC_RECENT)) >= 0)
		return &s->op[id];
	if ((id = trc_intern(&s->ops, name->s, name->len)) < 0)
		return NULL;
	remember(s->last_op, &s->ops, id, name->len);
	if (id >= n) {
		if ((p = realloc(s->op, (size_t)s->ops.cap * sizeof(*s->op))) == NULL)
			return NULL;
		s->op = p;
		memset(&s->op[id], 0, sizeof(*s->op));
		s->op[id].first = LONG_MAX;
	}
	return &s->op[id];
}

/*
 * By rank, a kind's last fields and the id of their name (an
 * operation's, a label's): events of one batch (trc_next_run) whose
 * fields lie at one place have the same fields, what the caller reads
 * of them (their strings last until the next batch).
 */
struct kind_hit {
	const struct trc_fields	*f;
	int32_t			 id;
};

/* A program's procedures take turns (trc-heat's three, each its slot):
 * a PB's and a PE's fields are kept three each, the kind's own one and
 * two past the kinds', looked at in turn; one not there replaces the
 * oldest. */
#define KIND_HITS	(TRC_NKINDS + 4)

static inline __attribute__((always_inline)) struct kind_hit *
region_hit(struct kind_hit *kc, enum trc_kind kind,
    const struct trc_fields *f)
{
	struct kind_hit *a = &kc[kind],
	    *b = &kc[TRC_NKINDS + (kind == TRC_PE ? 2 : 0)], *c = b + 1;

	if (a->f == f)
		return a;
	if (b->f == f)
		return b;
	if (c->f == f)
		return c;
	*c = *b;
	*b = *a;
	a->f = NULL;
	return a;
}

/* The operation of name, else fixed; by rank (kc not NULL) the last of
 * fields f's kind kept, no name compared when f is its fields. */
static inline __attribute__((always_inline)) struct trc_op_sum *
op_sum_at(struct trc_summary *s, const struct trc_str *name, int fixed,
    const struct trc_fields *f, struct kind_hit *kc)
{
	struct trc_op_sum *op;
	int32_t id;

	if (name == NULL || name->len == 0)
		return &s->op[fixed];
	if (kc != NULL && kc->f == f)
		return &s->op[kc->id];
	/* Runs of the same operation are the rule: try the last ones first. */
	if ((id = recent(s->last_op, name, 0, 2)) >= 0)
		op = &s->op[id];
	else if ((op = op_sum_lookup(s, name)) == NULL)
		return NULL;
	if (kc != NULL) {
		kc->f = f;
		kc->id = (int32_t)(op - s->op);
	}
	return op;
}

/* The profile: a call's time on rank r under its operation and site. */
static int
prof_add(struct trc_summary *s, const char *op, size_t oplen, int32_t r,
    int64_t t)
{
	const struct trc_rank_sum *rs = &s->rank[r];
	const char *site = rs->depth > 0 ?
	    s->labels.name[rs->stack[rs->depth - 1].label] : "";
	char key[512];
	int n;
	int32_t id, cap;
	void *p;

	if (!s->profile)
		return 0;
	n = snprintf(key, sizeof(key), "%.*s\t%s", (int)oplen, op, site);
	if (n < 0 || (size_t)n >= sizeof(key))
		n = sizeof(key) - 1;
	if ((id = trc_intern(&s->prof_keys, key, (size_t)n)) < 0)
		return -1;
	if (id >= s->prof_cap) {
		cap = s->prof_cap ? 2 * s->prof_cap : 16;
		if ((p = realloc(s->prof, (size_t)cap * sizeof(*s->prof))) == NULL)
			return -1;
		s->prof = p;
		if ((p = realloc(s->prof_n, (size_t)cap * sizeof(*s->prof_n))) == NULL)
			return -1;
		s->prof_n = p;
		memset(s->prof + s->prof_cap, 0,
		    (size_t)(cap - s->prof_cap) * sizeof(*s->prof));
		memset(s->prof_n + s->prof_cap, 0,
		    (size_t)(cap - s->prof_cap) * sizeof(*s->prof_n));
		s->prof_cap = cap;
	}
	if (r >= s->prof_n[id]) {
		cap = s->prof_n[id] ? s->prof_n[id] : 4;
		while (cap <= r)
			cap *= 2;
		if ((p = realloc(s->prof[id], (size_t)cap * sizeof(**s->prof))) == NULL)
			return -1;
		s->prof[id] = p;
		memset(s->prof[id] + s->prof_n[id], 0,
		    (size_t)(cap - s->prof_n[id]) * sizeof(**s->prof));
		s->prof_n[id] = cap;
	}
	s->prof[id][r] += t;
	return 0;
}

/*
 * The sums of the values less the first: their variance is then taken
 * without a division a value (Welford's division was 3% of trc-sum's
 * CPU time on trc-gen's allreduce, a region every five events, text or
 * trcb), and without the cancellation of plain sums of squares as long
 * as the first is not far from the rest in their own spread's terms (a
 * first value 1000 spreads off, over a million values, loses 6 of a
 * double's 16 digits).
 */
static inline void
stat_add(struct trc_stat *st, int64_t v)
{
	int64_t d;

	if (st->n == 0) {
		st->min = st->max = st->first = v;
		st->dsum = st->dsq = 0;
	}
	if (v < st->min)
		st->min = v;
	if (v > st->max)
		st->max = v;
	st->n++;
	st->total += v;
	d = v - st->first;	/* both lifetimes: no overflow */
	st->dsum += (double)d;
	st->dsq += (double)d * (double)d;
}

/* The cv of n values summing to total, from the sums of the values less
 * one of them (dsum) and of their squares (dsq): a shift leaves the
 * variance as it is. */
static double
cv_shifted(double n, double total, double dsum, double dsq)
{
	double mean = total / n, m = dsum / n, var = dsq / n - m * m;

	return var > 0 ? sqrt(var) / mean : 0;
}

double
trc_stat_cv(const struct trc_stat *st)
{
	if (st->n < 2 || st->total <= 0)
		return 0;
	return cv_shifted((double)st->n, (double)st->total, st->dsum, st->dsq);
}

double
trc_stat_cv_rest(const struct trc_stat *st)
{
	/* The first adds nothing to dsum and dsq: the sums are the rest's. */
	if (st->n < 3 || st->total - st->first <= 0)
		return 0;
	return cv_shifted((double)(st->n - 1), (double)(st->total - st->first),
	    st->dsum, st->dsq);
}

static void
occurred(struct trc_summary *s, int kind, int32_t name, int64_t life)
{
	s->occ_kind = kind;
	s->occ_name = name;
	s->occ_life = life;
}

static int
isop(const struct trc_str *name, const char *op)
{
	return name->len == strlen(op) && memcmp(name->s, op, name->len) == 0;
}

/*
 * A message sent or received: counted under its op= when it has one
 * (ssend, start, mrecv, ...), else under fixed.  The parts of a
 * sendrecv add their bytes to it; the call itself is counted at its WE.
 */
static inline __attribute__((always_inline)) struct trc_op_sum *
msg_op(struct trc_summary *s, const struct trc_str *name, int32_t rank,
    int fixed, int64_t bytes, int64_t time, long line, const int occ,
    const struct trc_fields *f, struct kind_hit *kc)
{
	struct trc_op_sum *op;

	if ((op = op_sum_at(s, name, fixed, f, kc)) == NULL)
		return NULL;
	if (line < op->first)
		op->first = line;
	op->bytes += bytes;
	if (isop(name, "sendrecv"))
		return op;
	op->count++;
	if (time >= 0) {	/* -1: the time is its wait's */
		op->time += time;
		if (occ)
			occurred(s, TRC_OCC_OP, (int32_t)(op - s->op), time);
		if (s->profile && prof_add(s, s->ops.name[op - s->op],
		    strlen(s->ops.name[op - s->op]), rank, time) < 0)
			return NULL;
	}
	return op;
}

/* The bucket of b bytes: its bit length (0 for none), at most the last. */
static inline int
size_bucket(int64_t b)
{
	int k = b > 0 ? 64 - __builtin_clzll((unsigned long long)b) : 0;

	return k < TRC_SIZE_BUCKETS - 1 ? k : TRC_SIZE_BUCKETS - 1;
}

/* The computation interval ev ends, of wall length *dt, by its cpu=. */
static int
comp_time(struct trc_summary *s, const struct trc_event *ev, int64_t *dt)
{
	struct trc_comp c;

	if (trc_comp_recorded(ev, TRC_COMP_CPU, *dt, &c, s->errbuf,
	    sizeof(s->errbuf)) < 0) {
		s->error = s->errbuf;
		return -1;
	}
	if (c.cpu >= 0)
		*dt = c.cpu;
	return 0;
}

/*
 * A rank's first event: room for it, and it joins the ranks present.
 * Apart from add(), as the rare paths below, so that the path of every
 * event keeps its variables in registers.
 */
static int __attribute__((noinline))
rank_first(struct trc_summary *s, int32_t rank, int64_t t)
{
	struct trc_rank_sum *rs;
	int32_t cap;
	void *p;

	/* The rows go up to the largest rank (touched only where a rank
	 * is present): a huge rank number can ask more than there is. */
	if (grow_ranks(s, rank) < 0) {
		snprintf(s->errbuf, sizeof(s->errbuf), "out of memory for "
		    "the rows of ranks up to %ld", (long)rank);
		s->error = s->errbuf;
		return -1;
	}
	rs = &s->rank[rank];
	if (rs->events == 0) {
		if (s->npresent == s->cap_present) {
			cap = s->cap_present ? 2 * s->cap_present : 16;
			if ((p = realloc(s->present, (size_t)cap *
			    sizeof(*s->present))) == NULL)
				return oom(s);
			s->present = p;
			s->cap_present = cap;
		}
		s->present[s->npresent++] = rank;
		rs->first = rs->last = t;
		rs->cur = TRC_ACT_COMP;
	}
	return 0;
}

static int __attribute__((noinline))
backwards(struct trc_summary *s, int32_t rank)
{
	snprintf(s->errbuf, sizeof(s->errbuf), "time goes backwards "
	    "on rank %ld (order=none streams must keep each rank's "
	    "events in time order)", (long)rank);
	s->error = s->errbuf;
	return -1;
}

/* A region begins (PB) of a label not among the last two, or on a full
 * stack: onto the rank's stack. */
static int __attribute__((noinline))
region_begin_slow(struct trc_summary *s, struct trc_rank_sum *rs,
    const struct trc_str *fn, int64_t t, long line)
{
	int32_t id;
	void *p;

	if ((id = label_id(s, fn)) < 0)
		return oom(s);
	if (line < s->label_first[id])
		s->label_first[id] = line;
	if (rs->depth == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 8;
		if ((p = realloc(rs->stack, (size_t)rs->cap *
		    sizeof(*rs->stack))) == NULL)
			return oom(s);
		rs->stack = p;
	}
	rs->stack[rs->depth].label = id;
	rs->stack[rs->depth].len = fn->len;
	rs->stack[rs->depth++].start = t;
	return 0;
}

/* A region begins (PB): the usual, a recent label with room on the
 * stack, inline; the rest by region_begin_slow. */
static inline __attribute__((always_inline)) int
region_begin(struct trc_summary *s, struct trc_rank_sum *rs,
    const struct trc_str *fn, int64_t t, long line, int32_t known)
{
	struct trc_region *top;
	int32_t id;

	if (rs->depth == rs->cap || ((id = known) < 0 &&
	    (id = recent(s->last_label, fn, 0, 3)) < 0))
		return region_begin_slow(s, rs, fn, t, line);
	if (line < s->label_first[id])
		s->label_first[id] = line;
	top = &rs->stack[rs->depth++];
	top->label = id;
	top->len = fn->len;
	top->start = t;
	return 0;
}

/* A PE that closes no region, or not the top's. */
static int __attribute__((noinline))
region_mismatch(struct trc_summary *s, const struct trc_rank_sum *rs,
    const struct trc_str *fn)
{
	if (rs->depth == 0)
		return fail(s, "PE fn='%.*s' with no open region%s",
		    fn->s, fn->len, "");
	return fail(s, "PE fn='%.*s' closes region '%s'", fn->s, fn->len,
	    s->labels.name[rs->stack[rs->depth - 1].label]);
}

/* A region ends (PE): its lifetime, the stack's top checked. */
static inline __attribute__((always_inline)) int
region_end(struct trc_summary *s, struct trc_rank_sum *rs,
    const struct trc_str *fn, int32_t rank, int64_t t, const int occ,
    int32_t known)
{
	struct trc_region *top;

	if (rs->depth == 0)
		return region_mismatch(s, rs, fn);
	top = &rs->stack[rs->depth - 1];
	/* The label's length kept with it: its name is that long.  A
	 * label known by its id (by rank) is the top's only as that. */
	if (known >= 0 ? top->label != known : fn->len != top->len ||
	    !swar_same(s->labels.name[top->label], fn->s, top->len))
		return region_mismatch(s, rs, fn);
	stat_add(&s->life[top->label][rank], t - top->start);
	if (occ)
		occurred(s, TRC_OCC_PROC, top->label, t - top->start);
	rs->depth--;
	return 0;
}

/* Rank rank's row, made at its first event: NULL when out of memory. */
static inline __attribute__((always_inline)) struct trc_rank_sum *
rank_row(struct trc_summary *s, int32_t rank, int64_t t)
{
	/* Ranks seen before are the rule: one test for the others. */
	if ((rank >= s->nranks || s->rank[rank].events == 0) &&
	    rank_first(s, rank, t) < 0)
		return NULL;
	return &s->rank[rank];
}

/*
 * Event b (its attributes in ev, which only cpu= reads) into the sums
 * of rank's row rs, whose times, activity and counts (events, last,
 * act, comp, cur, call_start) are h's: rs itself in stream order, a
 * copy by rank, which stays in registers for the run.  Inline in
 * trc_summary_add, trc_summary_add_brief and trc_summary_add_run, each
 * one loop.  By rank (run 1, cc not NULL) the run's caller counts its
 * events and its computation (h->comp, as act[TRC_ACT_COMP] without
 * cpu=), the last occurrence (occ_*) is not kept, and the innermost
 * region's cell of computation is *cc, made again at each PB and PE (a
 * sink outside every region): no load of the stack an event; kc[kind]
 * is the kind's last fields and the id of their name (struct kind_hit).
 */
static inline __attribute__((always_inline)) int
add(struct trc_summary *s, struct trc_rank_sum *h, struct trc_rank_sum *rs,
    int64_t t, int32_t rank, enum trc_kind kind, const struct trc_fields *f,
    const struct trc_event *ev, long line, const int run, int64_t **cc,
    int64_t *sink, struct kind_hit *kc)
{
	static const struct trc_str collective = { "collective", 10 };
	struct kind_hit *kh;
	struct trc_op_sum *op;
	int64_t dt, bytes;
	int32_t id;

	dt = t - h->last;
	/* An order=none stream may mix its ranks, never a rank's time. */
	if (dt < 0)
		return backwards(s, rank);
	h->act[h->cur] += dt;
	if (h->cur == TRC_ACT_COMP) {
		/* A rank's first event ends no interval: its cpu= is
		 * the time before the run.  Events in brief (ev NULL)
		 * come only without cpu= (refused before): by rank, no
		 * load of s->cpu an event. */
		if (ev != NULL && s->cpu && h->events > 0 &&
		    comp_time(s, ev, &dt) < 0)
			return -1;
		if (run)
			**cc += dt;
		else {
			h->comp += dt;
			if (rs->depth > 0)
				s->comp[rs->stack[rs->depth - 1].label][rank] +=
				    dt;
		}
	}
	h->last = t;
	if (!run) {
		h->events++;
		s->occ_kind = TRC_OCC_NONE;
	}

	switch (kind) {
	case TRC_SB:
		h->cur = TRC_ACT_SEND;
		h->call_start = t;
		break;
	case TRC_SE:
		bytes = f->bytes > 0 ? f->bytes : 0;
		/* Without its SB the send took no time of its own (trc(5)). */
		if (msg_op(s, &f->op, rank, f->req >= 0 ? OP_ISEND : OP_SEND, bytes,
		    h->cur == TRC_ACT_SEND ? t - h->call_start : 0,
		    line, !run, f, run ? &kc[TRC_SE] : NULL) == NULL)
			return oom(s);
		id = size_bucket(bytes);
		s->size_count[id]++;
		s->size_bytes[id] += bytes;
		h->cur = TRC_ACT_COMP;
		break;
	case TRC_RB:
		if (f->req < 0) {	/* nonblocking posts are points */
			h->cur = TRC_ACT_RECV;
			h->call_start = t;
		}
		break;
	case TRC_RE:
		bytes = f->bytes > 0 ? f->bytes : 0;
		if (h->cur == TRC_ACT_WAIT) {	/* completed by a wait */
			if (msg_op(s, &f->op, rank, OP_IRECV, bytes, -1,
			    line, !run, f, run ? &kc[TRC_RE] : NULL) == NULL)
				return oom(s);
		} else {
			if (msg_op(s, &f->op, rank, OP_RECV, bytes,
			    h->cur == TRC_ACT_RECV ? t - h->call_start :
			    0, line, !run, f, run ? &kc[TRC_RE] : NULL) == NULL)
				return oom(s);
			h->cur = TRC_ACT_COMP;
		}
		break;
	case TRC_WB:
		h->cur = TRC_ACT_WAIT;
		h->call_start = t;
		break;
	case TRC_XB:
		if (f->req < 0) {	/* a nonblocking one's is a point */
			h->cur = TRC_ACT_COLL;
			h->call_start = t;
		}
		break;
	case TRC_XE:
		bytes = f->bytes > 0 ? f->bytes : 0;
		if (f->req >= 0) {
			/* A nonblocking one's, in the wait that completed it. */
			if ((op = op_sum_at(s, f->op.len ? &f->op :
			    &collective, OP_WAIT, f, run ? &kc[TRC_XE] : NULL)) ==
			    NULL)
				return oom(s);
			if (line < op->first)
				op->first = line;
			op->count++;
			op->bytes += bytes;
			break;
		}
		/* FALLTHROUGH */
	case TRC_WE:
		if ((op = op_sum_at(s, kind == TRC_WE ? &f->op :
		    f->op.len ? &f->op : &collective, OP_WAIT, f,
		    run ? &kc[kind] : NULL)) == NULL)
			return oom(s);
		if (line < op->first)
			op->first = line;
		/* Without its begin the call took no time of its own. */
		dt = h->cur == (kind == TRC_WE ? TRC_ACT_WAIT :
		    TRC_ACT_COLL) ? t - h->call_start : 0;
		op->count++;
		op->bytes += kind == TRC_XE && f->bytes > 0 ? f->bytes : 0;
		op->time += dt;
		if (!run)
			occurred(s, TRC_OCC_OP, (int32_t)(op - s->op), dt);
		if (s->profile && prof_add(s, s->ops.name[op - s->op],
		    strlen(s->ops.name[op - s->op]), rank, dt) < 0)
			return oom(s);
		h->cur = TRC_ACT_COMP;
		break;
	case TRC_PB:
		kh = run ? region_hit(kc, TRC_PB, f) : NULL;
		if (region_begin(s, rs, &f->fn, t, line, run && kh->f == f ?
		    kh->id : -1) < 0)
			return -1;
		if (run) {
			kh->f = f;
			id = rs->stack[rs->depth - 1].label;
			kh->id = id;
			*cc = &s->comp[id][rank];
		}
		break;
	case TRC_PE:
		/* The label closed, the top's, is fn's once it closes. */
		id = run && rs->depth > 0 ? rs->stack[rs->depth - 1].label : -1;
		kh = run ? region_hit(kc, TRC_PE, f) : NULL;
		if (region_end(s, rs, &f->fn, rank, t, !run, run &&
		    kh->f == f ? kh->id : -1) < 0)
			return -1;
		if (run) {
			kh->f = f;
			kh->id = id;
			*cc = rs->depth > 0 ?
			    &s->comp[rs->stack[rs->depth - 1].label][rank] :
			    sink;
		}
		break;
	default:
		break;
	}
	return 0;
}

int
trc_summary_add(struct trc_summary *s, const struct trc_event *ev)
{
	/* In stream order the first to name a label or an operation
	 * made it (trc_summary_order): no line to keep. */
	struct trc_rank_sum *rs;

	if ((rs = rank_row(s, ev->rank, ev->t)) == NULL)
		return -1;
	return add(s, rs, rs, ev->t, ev->rank, ev->kind, trc_event_fields(ev),
	    ev, LONG_MAX, 0, NULL, NULL, NULL);
}

int
trc_summary_add_brief(struct trc_summary *s, const struct trc_brief *b,
    size_t n, size_t *done)
{
	struct trc_rank_sum *rs;
	size_t i;

	/* cpu= is an attribute, which events in brief have not. */
	if (s->cpu) {
		*done = 0;
		s->error = "cpu= times need whole events, not briefs";
		return -1;
	}
	for (i = 0; i < n; i++)
		if ((rs = rank_row(s, b[i].rank, b[i].t)) == NULL ||
		    add(s, rs, rs, b[i].t, b[i].rank, b[i].kind, b[i].f, NULL,
		    LONG_MAX, 0, NULL, NULL, NULL) < 0)
			break;
	*done = i;
	return i < n ? -1 : 0;
}

int
trc_summary_add_run(struct trc_summary *s, const struct trc_run *run,
    size_t from, size_t *done)
{
	const struct trc_brief *b = run->b;
	const uint32_t *place = run->place;
	struct trc_rank_sum *rs, h;
	struct kind_hit kc[KIND_HITS];
	int64_t sink, *cc;
	long line0 = run->line0;
	int32_t rank;
	size_t i, n = run->n;
	int a;

	if (s->cpu) {
		*done = from;
		s->error = "cpu= times need whole events, not briefs";
		return -1;
	}
	s->by_line = 1;
	if (from >= run->n) {
		*done = from;
		return 0;
	}
	/* The run is one rank's: its times and counts in h for the loop. */
	rank = b[from].rank;
	if ((rs = rank_row(s, rank, b[from].t)) == NULL) {
		*done = from;
		return -1;
	}
	h = *rs;
	/* A batch's fields: none yet. */
	for (a = 0; a < KIND_HITS; a++)
		kc[a].f = NULL;
	cc = rs->depth > 0 ? &s->comp[rs->stack[rs->depth - 1].label][rank] :
	    &sink;
	for (i = from; i < n; i++)
		if (add(s, &h, rs, b[i].t, rank, b[i].kind, b[i].f, NULL,
		    line0 + (long)place[i], 1, &cc, &sink, kc) < 0)
			break;
	rs->events = h.events + (int64_t)(i - from);
	rs->last = h.last;
	rs->comp = h.comp + (h.act[TRC_ACT_COMP] - rs->act[TRC_ACT_COMP]);
	for (a = 0; a < TRC_NACT; a++)
		rs->act[a] = h.act[a];
	rs->cur = h.cur;
	rs->call_start = h.call_start;
	*done = i;
	return i < run->n ? -1 : 0;
}

/* An id and its first line, sorted by line, then id. */
struct first_id {
	long	 first;
	int32_t	 id;
};

static int
cmp_first(const void *a, const void *b)
{
	const struct first_id *x = a, *y = b;

	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

int32_t *
trc_summary_order(const struct trc_summary *s, int ops)
{
	int32_t i, n = ops ? s->ops.n : s->labels.n, *ids;
	struct first_id *f;

	if ((ids = malloc(((size_t)n + 1) * sizeof(*ids))) == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		ids[i] = i;
	/* In stream order, ids are already the order of first use. */
	if (!s->by_line || n < 2)
		return ids;
	if ((f = malloc((size_t)n * sizeof(*f))) == NULL) {
		free(ids);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		f[i].id = i;
		/* The fixed operations, never named, come first. */
		f[i].first = !ops ? s->label_first[i] : i < NFIXED_OPS ?
		    LONG_MIN : s->op[i].first;
	}
	qsort(f, (size_t)n, sizeof(*f), cmp_first);
	for (i = 0; i < n; i++)
		ids[i] = f[i].id;
	free(f);
	return ids;
}

static int
cmp_rank(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

int
trc_summary_finish(struct trc_summary *s)
{
	int64_t sum[TRC_NACT] = { 0 }, run = 0;
	int32_t i, r;
	int a;

	if (s->npresent > 0)
		qsort(s->present, (size_t)s->npresent, sizeof(*s->present),
		    cmp_rank);
	/* The sums over ranks (trc-sum's "all" row, the profile's run
	 * time) must not wrap the nanosecond clock: past 292 years. */
	for (i = 0; i < s->npresent; i++) {
		r = s->present[i];
		for (a = 0; a < TRC_NACT; a++)
			if (__builtin_add_overflow(sum[a], s->rank[r].act[a],
			    &sum[a]))
				goto overflow;
		if (__builtin_add_overflow(run, s->rank[r].last -
		    s->rank[r].first, &run))
			goto overflow;
	}

	for (i = 0; i < s->npresent; i++)
		if (s->rank[r = s->present[i]].depth > 0) {
			snprintf(s->errbuf, sizeof(s->errbuf),
			    "rank %ld: region '%s' not closed at the end",
			    (long)r, s->labels.name[s->rank[r].stack[
			    s->rank[r].depth - 1].label]);
			s->error = s->errbuf;
			return -1;
		}
	return 0;
overflow:
	s->error = "the ranks' times summed overflow the clock (over 292 "
	    "years)";
	return -1;
}

int
trc_summary_sections(const char *list, unsigned *bits)
{
	static const char *names[] = { "ranks", "procs", "ops", "sizes",
	    "profile" };
	const char *end;
	size_t len, i;

	*bits = 0;
	for (;;) {
		end = strchr(list, ',');
		len = end ? (size_t)(end - list) : strlen(list);
		for (i = 0; i < 5; i++)
			if (strlen(names[i]) == len && strncmp(names[i], list, len) == 0)
				break;
		if (i == 5)
			return -1;
		*bits |= 1u << i;
		if (end == NULL)
			return 0;
		list = end + 1;
	}
}

/* One profile row from per-rank times (nt of them, the rest 0), over
 * the ranks present. */
static void
prof_row(struct trc_profile_row *row, const char *op, size_t oplen,
    const char *site, const int64_t *t, int32_t nt,
    const struct trc_summary *s, int64_t run)
{
	int32_t i, r;
	int64_t v;

	snprintf(row->op, sizeof(row->op), "%.*s", (int)oplen, op);
	row->site = site;
	row->total = 0;
	for (i = 0; i < s->npresent; i++) {
		r = s->present[i];
		v = r < nt ? t[r] : 0;
		row->total += v;
		if (i == 0 || v > row->max)
			row->max = v;
		if (i == 0 || v < row->min)
			row->min = v;
	}
	row->mean = s->npresent > 0 ? (double)row->total / s->npresent : 0;
	row->percent = run > 0 ? 100.0 * (double)row->total / (double)run : 0;
}

static int
prof_cmp(const void *a, const void *b)
{
	const struct trc_profile_row *x = a, *y = b;
	int c;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	if ((c = strcmp(x->op, y->op)) != 0)
		return c;
	return strcmp(x->site, y->site);
}

struct trc_profile_row *
trc_summary_profile(const struct trc_summary *s, size_t *n)
{
	struct trc_profile_row *rows;
	int64_t run = 0, *t = NULL;
	int32_t i, j, r, nranks = s->nranks;
	const char *key, *tab;
	size_t k = 0;

	*n = 0;
	for (j = 0; j < s->npresent; j++) {
		r = s->present[j];
		run += s->rank[r].last - s->rank[r].first;
	}
	rows = calloc((size_t)s->prof_keys.n + (size_t)s->labels.n + 1,
	    sizeof(*rows));
	if (rows == NULL || (nranks > 0 &&
	    (t = calloc((size_t)nranks, sizeof(*t))) == NULL)) {
		free(rows);
		return NULL;
	}
	/* Computation by its label, and outside every region. */
	for (i = 0; i < s->labels.n; i++)
		prof_row(&rows[k++], "computation", 11, s->labels.name[i],
		    s->comp[i], nranks, s, run);
	for (j = 0; j < s->npresent; j++) {
		r = s->present[j];
		t[r] = s->rank[r].act[TRC_ACT_COMP];
		for (i = 0; i < s->labels.n; i++)
			t[r] -= s->comp[i][r];
	}
	prof_row(&rows[k++], "computation", 11, "", t, nranks, s, run);
	for (i = 0; i < s->prof_keys.n; i++) {
		key = s->prof_keys.name[i];
		tab = strchr(key, '\t');
		prof_row(&rows[k++], key, (size_t)(tab - key), tab + 1,
		    s->prof[i], s->prof_n[i], s, run);
	}
	free(t);
	/* Rows that took no time on any rank say nothing. */
	for (i = 0, *n = 0; (size_t)i < k; i++)
		if (rows[i].total > 0 || rows[i].max > 0)
			rows[(*n)++] = rows[i];
	qsort(rows, *n, sizeof(*rows), prof_cmp);
	return rows;
}
