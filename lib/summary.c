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
#include "summary_add.h"

static const char *fixed_ops[NFIXED_OPS] = {
	"send", "isend", "recv", "irecv", "wait"
};

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
	struct sum_run sr;
	struct kind_hit kc[KIND_HITS];
	int64_t sink;
	long line0 = run->line0;
	size_t i, n = run->n;

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
	/* The run is one rank's. */
	if (rank_row(s, b[from].rank, b[from].t) == NULL) {
		*done = from;
		return -1;
	}
	sum_run_begin(s, &sr, b[from].rank, kc, &sink);
	for (i = from; i < n; i++)
		if (sum_run_event(s, &sr, b[i].t, b[i].kind, b[i].f,
		    line0 + (long)place[i]) < 0)
			break;
	sum_run_end(&sr, i - from);
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
