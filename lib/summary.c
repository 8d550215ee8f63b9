/*
 * summary.c - per rank activity times, procedure lifetimes, operation
 * counts and message sizes, gathered in one pass over a stream.
 * Memory grows with ranks, labels and operation names, never with the
 * length of the trace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"

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
	s->last_op = -1;
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
	for (i = 0; i < s->nranks; i++)
		free(s->rank[i].stack);
	for (i = 0; i < s->labels.n; i++) {
		free(s->life[i]);
		free(s->comp[i]);
	}
	free(s->rank);
	free(s->life);
	free(s->comp);
	free(s->op);
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
static int
grow_ranks(struct trc_summary *s, int32_t r)
{
	int32_t cap, i, j;
	void *p;

	if (r < s->cap_ranks) {
		if (r >= s->nranks)
			s->nranks = r + 1;
		return 0;
	}
	for (cap = s->cap_ranks ? s->cap_ranks : 16; cap <= r; cap *= 2)
		;
	if ((p = realloc(s->rank, (size_t)cap * sizeof(*s->rank))) == NULL)
		return -1;
	s->rank = p;
	memset(s->rank + s->cap_ranks, 0,
	    (size_t)(cap - s->cap_ranks) * sizeof(*s->rank));
	for (i = 0; i < s->labels.n; i++) {
		if ((p = realloc(s->life[i], (size_t)cap * sizeof(**s->life))) == NULL)
			return -1;
		s->life[i] = p;
		if ((p = realloc(s->comp[i], (size_t)cap * sizeof(**s->comp))) == NULL)
			return -1;
		s->comp[i] = p;
		for (j = s->cap_ranks; j < cap; j++) {
			memset(&s->life[i][j], 0, sizeof(**s->life));
			s->comp[i][j] = 0;
		}
	}
	s->cap_ranks = cap;
	return grow_ranks(s, r);
}

static int32_t
label_id(struct trc_summary *s, const struct trc_str *fn)
{
	int32_t id, n = s->labels.n;
	void *p;

	if ((id = trc_intern(&s->labels, fn->s, fn->len)) < 0 || id < n)
		return id;
	/* A new label: its rows, sized for every rank. */
	if ((p = realloc(s->life, (size_t)s->labels.cap * sizeof(*s->life))) == NULL)
		return -1;
	s->life = p;
	if ((p = realloc(s->comp, (size_t)s->labels.cap * sizeof(*s->comp))) == NULL)
		return -1;
	s->comp = p;
	s->life[id] = calloc((size_t)(s->cap_ranks ? s->cap_ranks : 1),
	    sizeof(**s->life));
	s->comp[id] = calloc((size_t)(s->cap_ranks ? s->cap_ranks : 1),
	    sizeof(**s->comp));
	if (s->life[id] == NULL || s->comp[id] == NULL)
		return -1;
	return id;
}

static struct trc_op_sum *
op_sum(struct trc_summary *s, const struct trc_str *name, int fixed)
{
	int32_t id, n = s->ops.n;
	void *p;

	if (name == NULL || name->len == 0)
		return &s->op[fixed];
	/* Runs of the same operation are the rule: try the last one first. */
	id = s->last_op;
	if (id < 0 || strncmp(s->ops.name[id], name->s, name->len) != 0 ||
	    s->ops.name[id][name->len] != '\0')
		id = trc_intern(&s->ops, name->s, name->len);
	if (id < 0)
		return NULL;
	s->last_op = id;
	if (id >= n) {
		if ((p = realloc(s->op, (size_t)s->ops.cap * sizeof(*s->op))) == NULL)
			return NULL;
		s->op = p;
		memset(&s->op[id], 0, sizeof(*s->op));
	}
	return &s->op[id];
}

static void
stat_add(struct trc_stat *st, int64_t v)
{
	if (st->n == 0 || v < st->min)
		st->min = v;
	if (st->n == 0 || v > st->max)
		st->max = v;
	st->n++;
	st->total += v;
}

static void
occurred(struct trc_summary *s, int kind, int32_t name, int64_t life)
{
	s->occ_kind = kind;
	s->occ_name = name;
	s->occ_life = life;
}

static int
isop(const struct trc_event *ev, const char *op)
{
	return ev->op.len == strlen(op) && memcmp(ev->op.s, op, ev->op.len) == 0;
}

/*
 * A message sent or received: counted under its op= when it has one
 * (ssend, start, mrecv, ...), else under fixed.  The parts of a
 * sendrecv add their bytes to it; the call itself is counted at its WE.
 */
static struct trc_op_sum *
msg_op(struct trc_summary *s, const struct trc_event *ev, int fixed,
    int64_t bytes, int64_t time)
{
	struct trc_op_sum *op;

	if ((op = op_sum(s, &ev->op, fixed)) == NULL)
		return NULL;
	op->bytes += bytes;
	if (isop(ev, "sendrecv"))
		return op;
	op->count++;
	if (time >= 0) {	/* -1: the time is its wait's */
		op->time += time;
		occurred(s, TRC_OCC_OP, (int32_t)(op - s->op), time);
	}
	return op;
}

static int
size_bucket(int64_t b)
{
	int k = 0;

	while (b > 0 && k < TRC_SIZE_BUCKETS - 1) {
		b >>= 1;
		k++;
	}
	return k;
}

int
trc_summary_add(struct trc_summary *s, const struct trc_event *ev)
{
	static const struct trc_str collective = { "collective", 10 };
	struct trc_rank_sum *rs;
	struct trc_op_sum *op;
	struct trc_region *top;
	int64_t dt, bytes = ev->bytes > 0 ? ev->bytes : 0;
	int32_t id;
	void *p;

	if (grow_ranks(s, ev->rank) < 0)
		return oom(s);
	rs = &s->rank[ev->rank];
	if (rs->events == 0) {
		rs->first = rs->last = ev->t;
		rs->cur = TRC_ACT_COMP;
	}
	dt = ev->t - rs->last;
	rs->act[rs->cur] += dt;
	if (rs->cur == TRC_ACT_COMP && rs->depth > 0)
		s->comp[rs->stack[rs->depth - 1].label][ev->rank] += dt;
	rs->last = ev->t;
	rs->events++;
	s->occ_kind = TRC_OCC_NONE;

	switch (ev->kind) {
	case TRC_SB:
		rs->cur = TRC_ACT_SEND;
		rs->call_start = ev->t;
		break;
	case TRC_SE:
		if (msg_op(s, ev, ev->req >= 0 ? OP_ISEND : OP_SEND, bytes,
		    ev->t - rs->call_start) == NULL)
			return oom(s);
		s->size_count[size_bucket(bytes)]++;
		s->size_bytes[size_bucket(bytes)] += bytes;
		rs->cur = TRC_ACT_COMP;
		break;
	case TRC_RB:
		if (ev->req < 0) {	/* nonblocking posts are points */
			rs->cur = TRC_ACT_RECV;
			rs->call_start = ev->t;
		}
		break;
	case TRC_RE:
		if (rs->cur == TRC_ACT_WAIT) {	/* completed by a wait */
			if (msg_op(s, ev, OP_IRECV, bytes, -1) == NULL)
				return oom(s);
		} else {
			if (msg_op(s, ev, OP_RECV, bytes,
			    ev->t - rs->call_start) == NULL)
				return oom(s);
			rs->cur = TRC_ACT_COMP;
		}
		break;
	case TRC_WB:
		rs->cur = TRC_ACT_WAIT;
		rs->call_start = ev->t;
		break;
	case TRC_XB:
		if (ev->req < 0) {	/* a nonblocking one's is a point */
			rs->cur = TRC_ACT_COLL;
			rs->call_start = ev->t;
		}
		break;
	case TRC_XE:
		if (ev->req >= 0) {
			/* A nonblocking one's, in the wait that completed it. */
			if ((op = op_sum(s, ev->op.len ? &ev->op : &collective,
			    OP_WAIT)) == NULL)
				return oom(s);
			op->count++;
			op->bytes += bytes;
			break;
		}
		/* FALLTHROUGH */
	case TRC_WE:
		if ((op = op_sum(s, ev->kind == TRC_WE ? &ev->op :
		    ev->op.len ? &ev->op : &collective, OP_WAIT)) == NULL)
			return oom(s);
		op->count++;
		op->bytes += ev->kind == TRC_XE ? bytes : 0;
		op->time += ev->t - rs->call_start;
		occurred(s, TRC_OCC_OP, (int32_t)(op - s->op),
		    ev->t - rs->call_start);
		rs->cur = TRC_ACT_COMP;
		break;
	case TRC_PB:
		if ((id = label_id(s, &ev->fn)) < 0)
			return oom(s);
		if (rs->depth == rs->cap) {
			rs->cap = rs->cap ? 2 * rs->cap : 8;
			if ((p = realloc(rs->stack, (size_t)rs->cap *
			    sizeof(*rs->stack))) == NULL)
				return oom(s);
			rs->stack = p;
		}
		rs->stack[rs->depth].label = id;
		rs->stack[rs->depth++].start = ev->t;
		break;
	case TRC_PE:
		if (rs->depth == 0)
			return fail(s, "PE fn='%.*s' with no open region%s",
			    ev->fn.s, ev->fn.len, "");
		top = &rs->stack[rs->depth - 1];
		if (strncmp(s->labels.name[top->label], ev->fn.s, ev->fn.len) != 0 ||
		    s->labels.name[top->label][ev->fn.len] != '\0')
			return fail(s, "PE fn='%.*s' closes region '%s'",
			    ev->fn.s, ev->fn.len, s->labels.name[top->label]);
		stat_add(&s->life[top->label][ev->rank], ev->t - top->start);
		occurred(s, TRC_OCC_PROC, top->label, ev->t - top->start);
		rs->depth--;
		break;
	default:
		break;
	}
	return 0;
}

int
trc_summary_finish(struct trc_summary *s)
{
	int32_t r;

	for (r = 0; r < s->nranks; r++)
		if (s->rank[r].depth > 0) {
			snprintf(s->errbuf, sizeof(s->errbuf),
			    "rank %ld: region '%s' not closed at the end",
			    (long)r, s->labels.name[s->rank[r].stack[
			    s->rank[r].depth - 1].label]);
			s->error = s->errbuf;
			return -1;
		}
	return 0;
}

int
trc_summary_sections(const char *list, unsigned *bits)
{
	static const char *names[] = { "ranks", "procs", "ops", "sizes" };
	const char *end;
	size_t len, i;

	*bits = 0;
	for (;;) {
		end = strchr(list, ',');
		len = end ? (size_t)(end - list) : strlen(list);
		for (i = 0; i < 4; i++)
			if (strlen(names[i]) == len && strncmp(names[i], list, len) == 0)
				break;
		if (i == 4)
			return -1;
		*bits |= 1u << i;
		if (end == NULL)
			return 0;
		list = end + 1;
	}
}
