/*
 * summary_add.h - the summary's step of one event, inline in the loops
 * that feed it: summary.c's, and by rank trcb.c's, whose decoding loop
 * hands each event over as it is decoded (no batch stored and read
 * back).  Included by those two files only; the rare paths come with
 * it, as static functions of each.
 */
#ifndef TRC_SUMMARY_ADD_H
#define TRC_SUMMARY_ADD_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "swar.h"

enum { OP_SEND, OP_ISEND, OP_RECV, OP_IRECV, OP_WAIT, NFIXED_OPS };

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

/*
 * A run of one rank's events taken by rank: sum_run_begin, then
 * sum_run_event for each event in the rank's order, then sum_run_end
 * with how many were taken.  The rank's times and counts are in h for
 * the loop (add's run mode); kc, KIND_HITS of them, holds the kinds'
 * last fields, which only events of one batch share (sum_run_forget);
 * sink is the cell of computation outside every region.  kc and sink
 * are the caller's own variables, apart from the run's: whose address
 * is kept elsewhere (a reader's) keeps its fields out of registers.
 * The rank has its row already (rank_row).
 */
struct sum_run {
	struct trc_rank_sum	 h, *rs;
	struct kind_hit		*kc;
	int64_t			*cc, *sink;
	int32_t			 rank;
};

/* The fields kept in kc may now name another label or operation. */
static inline void
sum_run_forget(struct kind_hit *kc)
{
	int a;

	for (a = 0; a < KIND_HITS; a++)
		kc[a].f = NULL;
}

static inline __attribute__((always_inline)) void
sum_run_begin(struct trc_summary *s, struct sum_run *sr, int32_t rank,
    struct kind_hit *kc, int64_t *sink)
{
	struct trc_rank_sum *rs = &s->rank[rank];

	s->by_line = 1;
	sr->rank = rank;
	sr->rs = rs;
	sr->h = *rs;
	sr->kc = kc;
	sr->sink = sink;
	sum_run_forget(kc);
	sr->cc = rs->depth > 0 ? &s->comp[rs->stack[rs->depth - 1].label][rank] :
	    sink;
}

/* Event (t, kind, f) on line of the run: 0, or -1 as add. */
static inline __attribute__((always_inline)) int
sum_run_event(struct trc_summary *s, struct sum_run *sr, int64_t t,
    enum trc_kind kind, const struct trc_fields *f, long line)
{
	return add(s, &sr->h, sr->rs, t, sr->rank, kind, f, NULL, line, 1,
	    &sr->cc, sr->sink, sr->kc);
}

/* The run done, n events taken: the rank's row as h has it. */
static inline __attribute__((always_inline)) void
sum_run_end(struct sum_run *sr, size_t n)
{
	struct trc_rank_sum *rs = sr->rs;
	int a;

	rs->events = sr->h.events + (int64_t)n;
	rs->last = sr->h.last;
	rs->comp = sr->h.comp + (sr->h.act[TRC_ACT_COMP] -
	    rs->act[TRC_ACT_COMP]);
	for (a = 0; a < TRC_NACT; a++)
		rs->act[a] = sr->h.act[a];
	rs->cur = sr->h.cur;
	rs->call_start = sr->h.call_start;
}

#endif
