/*
 * compratio.c - computation speed ratios measured from pairs of runs
 * (trc_ratios.h), the method's first step: Mendes measures them on a
 * reduced problem run on both machines.
 */
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "trc_outlier.h"
#include "trc_ratios.h"
#include "trc_summary.h"

/* The ratios one row collected, one per pair. */
struct samples {
	double	*v;
	size_t	 n, cap;
};

/* A rank's row: its ratios, and its warm-up's over the first intervals
 * (first, the count of the first pair that gave one; pairs with
 * another count give none). */
struct cell {
	struct samples	 all, warm;
	int64_t		 first;
};

/*
 * Rows by label id (in names) and rank + 1 (0 is "all"); label id
 * "outside" is the empty label, and dflt the default row.
 */
struct trc_compratio {
	struct trc_intern	 names;
	struct cell		**cell;		/* [label][rank + 1] */
	int32_t			*ncell;		/* columns per label */
	int32_t			 cap;		/* labels allocated */
	struct samples		 dflt;
	struct trc_compratio_row *rows;
};

struct trc_compratio *
trc_compratio_new(void)
{
	return calloc(1, sizeof(struct trc_compratio));
}

static int
push(struct samples *s, double v)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 8;
		double *p = realloc(s->v, cap * sizeof(*p));

		if (p == NULL)
			return -1;
		s->v = p;
		s->cap = cap;
	}
	s->v[s->n++] = v;
	return 0;
}

/* The cell of (label, rank), rank -1 for all; NULL when out of memory. */
static struct cell *
cell(struct trc_compratio *c, const char *label, int32_t rank)
{
	int32_t id, col = rank + 1;

	if ((id = trc_intern(&c->names, label, strlen(label))) < 0)
		return NULL;
	if (id >= c->cap) {
		int32_t cap = c->cap ? 2 * c->cap : 8;
		struct cell **p = realloc(c->cell, (size_t)cap * sizeof(*p));
		int32_t *q;

		if (p == NULL)
			return NULL;
		c->cell = p;
		if ((q = realloc(c->ncell, (size_t)cap * sizeof(*q))) == NULL)
			return NULL;
		c->ncell = q;
		memset(p + c->cap, 0, (size_t)(cap - c->cap) * sizeof(*p));
		memset(q + c->cap, 0, (size_t)(cap - c->cap) * sizeof(*q));
		c->cap = cap;
	}
	if (col >= c->ncell[id]) {
		int32_t n = c->ncell[id] ? c->ncell[id] : 4;
		struct cell *p;

		while (n <= col)
			n *= 2;
		if ((p = realloc(c->cell[id], (size_t)n * sizeof(*p))) == NULL)
			return NULL;
		memset(p + c->ncell[id], 0,
		    (size_t)(n - c->ncell[id]) * sizeof(*p));
		c->cell[id] = p;
		c->ncell[id] = n;
	}
	return &c->cell[id][col];
}

/* Computation time of label id (-1: outside every region) on rank r. */
static int64_t
comp_of(const struct trc_summary *s, int32_t id, int32_t r)
{
	int64_t t;
	int32_t i;

	if (r >= s->nranks)
		return 0;
	if (id >= 0)
		return s->comp[id][r];
	t = s->rank[r].comp;
	for (i = 0; i < s->labels.n; i++)
		t -= s->comp[i][r];
	return t;
}

/*
 * The warm-up of (label, rank) on both runs as a ratio into cp: when
 * both left out the same first intervals, of positive times, and as
 * many as the first pair that gave one.  0, or -1 out of memory.
 */
static int
add_warm(struct cell *cp, const struct trc_warmup *wb,
    const struct trc_warmup *wt, int32_t bid, int32_t tid, int32_t r)
{
	int64_t kb, kt, b, t;

	if (wb == NULL || wt == NULL || tid == -2)
		return 0;
	trc_warmup_part(wb, bid, r, &kb, &b);
	trc_warmup_part(wt, tid, r, &kt, &t);
	if (kb <= 0 || kb != kt || b <= 0 || t <= 0 ||
	    (cp->first > 0 && cp->first != kb))
		return 0;
	cp->first = kb;
	return push(&cp->warm, (double)b / (double)t);
}

/* One label's ratios (name as in base), per rank and summed. */
static int
add_label(struct trc_compratio *c, const struct trc_summary *base,
    const struct trc_summary *target, const struct trc_warmup *wb,
    const struct trc_warmup *wt, const char *name, int32_t bid,
    int32_t tid)
{
	struct cell *cp;
	int64_t b, t, bsum = 0, tsum = 0;
	int32_t r;

	for (r = 0; r < base->nranks; r++) {
		b = comp_of(base, bid, r);
		t = tid == -2 ? 0 : comp_of(target, tid, r);
		if (b <= 0 || t <= 0)
			continue;
		bsum += b;
		tsum += t;
		if ((cp = cell(c, name, r)) == NULL ||
		    push(&cp->all, (double)b / (double)t) < 0 ||
		    add_warm(cp, wb, wt, bid, tid, r) < 0)
			return -1;
	}
	if (bsum > 0 && ((cp = cell(c, name, -1)) == NULL ||
	    push(&cp->all, (double)bsum / (double)tsum) < 0))
		return -1;
	return 0;
}

int
trc_compratio_add(struct trc_compratio *c, const struct trc_summary *base,
    const struct trc_summary *target, const struct trc_warmup *wb,
    const struct trc_warmup *wt)
{
	const char *name;
	int64_t b = 0, t = 0;
	int32_t i, tid, r;

	for (i = 0; i < base->labels.n; i++) {
		name = base->labels.name[i];
		/* A label the target never ran gives no ratio. */
		tid = trc_intern_find(&target->labels, name, strlen(name));
		if (add_label(c, base, target, wb, wt, name, i,
		    tid < 0 ? -2 : tid) < 0)
			return -1;
	}
	if (add_label(c, base, target, wb, wt, "", -1, -1) < 0)
		return -1;
	for (r = 0; r < base->nranks; r++)
		b += base->rank[r].comp;
	for (r = 0; r < target->nranks; r++)
		t += target->rank[r].comp;
	if (b > 0 && t > 0 && push(&c->dflt, (double)b / (double)t) < 0)
		return -1;
	return 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void
row_of(struct trc_compratio_row *row, const char *label, int32_t rank,
    struct samples *s)
{
	qsort(s->v, s->n, sizeof(*s->v), cmp_double);
	row->label = label;
	row->rank = rank;
	row->first = 0;
	row->n = s->n;
	row->min = s->v[0];
	row->max = s->v[s->n - 1];
	/* As the validation's median: the mean of the middle two. */
	row->median = s->n % 2 ? s->v[s->n / 2] :
	    (s->v[s->n / 2 - 1] + s->v[s->n / 2]) / 2;
}

long
trc_compratio_rows(struct trc_compratio *c,
    const struct trc_compratio_row **out)
{
	struct trc_compratio_row *rows;
	struct cell *cp;
	int32_t id, col, empty;
	size_t n = 1, k = 0;
	int pass;

	for (id = 0; id < c->names.n; id++)
		n += 2 * (size_t)c->ncell[id];	/* a warm-up's, a steady one */
	free(c->rows);
	if ((c->rows = rows = calloc(n, sizeof(*rows))) == NULL)
		return -1;
	empty = trc_intern_find(&c->names, "", 0);
	/* Pass 0: the named labels; pass 1: the empty one. */
	for (pass = 0; pass < 2; pass++)
		for (id = 0; id < c->names.n; id++) {
			if ((id == empty) != pass)
				continue;
			for (col = 1; col < c->ncell[id]; col++) {
				cp = &c->cell[id][col];
				if (cp->warm.n > 0) {
					row_of(&rows[k], c->names.name[id],
					    col - 1, &cp->warm);
					rows[k++].first = cp->first;
				}
				if (cp->all.n > 0)
					row_of(&rows[k++], c->names.name[id],
					    col - 1, &cp->all);
			}
			if (c->ncell[id] > 0 && c->cell[id][0].all.n > 0)
				row_of(&rows[k++], c->names.name[id], -1,
				    &c->cell[id][0].all);
		}
	if (c->dflt.n > 0)
		row_of(&rows[k++], NULL, -1, &c->dflt);
	*out = rows;
	return (long)k;
}

void
trc_compratio_free(struct trc_compratio *c)
{
	int32_t id, col;

	if (c == NULL)
		return;
	for (id = 0; id < c->names.n; id++) {
		for (col = 0; col < c->ncell[id]; col++) {
			free(c->cell[id][col].all.v);
			free(c->cell[id][col].warm.v);
		}
		free(c->cell[id]);
	}
	free(c->cell);
	free(c->ncell);
	free(c->dflt.v);
	free(c->rows);
	trc_intern_free(&c->names);
	free(c);
}

/* Warm-up --------------------------------------------------------------- */

#define WARM_POWERS	48	/* up to 2^47 intervals a label and rank */

struct warm_cell {
	int64_t			 n, sum;
	int64_t			 prefix[WARM_POWERS];	/* the sum of the first 2^k */
	struct trc_outlier	 judge;		/* drop */
};

struct trc_warmup {
	double			 fraction;
	int			 drop;		/* the host's delays left out */
	unsigned long long	 ndrop;		/* intervals judged so */
	int64_t			 dropped;	/* and their excess, ns */
	/* Per label + 1 (0 outside every region), the cells by rank in
	 * pages: memory by the ranks present. */
	struct trc_pages	*row;
	size_t			 nrow, caprow;
};

struct trc_warmup *
trc_warmup_new(double fraction, int drop)
{
	struct trc_warmup *w = calloc(1, sizeof(*w));

	if (w != NULL) {
		w->fraction = fraction;
		w->drop = drop;
	}
	return w;
}

void
trc_warmup_free(struct trc_warmup *w)
{
	struct warm_cell *c;
	size_t i, r;

	if (w == NULL)
		return;
	for (i = 0; i < w->nrow; i++) {
		for (r = 0; r < w->row[i].npg * TRC_PAGE; r++)
			if ((c = trc_pages_at(&w->row[i], r)) != NULL)
				trc_outlier_free(&c->judge);
		trc_pages_free(&w->row[i]);
	}
	free(w->row);
	free(w);
}

/* The cell of (label, rank), label -1 outside; NULL when out of memory. */
static struct warm_cell *
warm_cell(struct trc_warmup *w, int32_t label, int32_t rank)
{
	size_t i = (size_t)(label + 1);

	if (i >= w->nrow) {
		if (trc_grow(&w->row, &w->caprow, i + 1, sizeof(*w->row), 4) < 0)
			return NULL;
		for (; w->nrow <= i; w->nrow++) {
			memset(&w->row[w->nrow], 0, sizeof(*w->row));
			w->row[w->nrow].elsize = sizeof(struct warm_cell);
		}
	}
	return trc_pages_get(&w->row[i], (size_t)rank);
}

int
trc_warmup_add(struct trc_warmup *w, struct trc_summary *s,
    const struct trc_event *ev)
{
	const struct trc_rank_sum *rs;
	struct warm_cell *c;
	int64_t before = 0, d, m;
	int32_t label = -1, r = ev->rank;
	int open = 0, past;

	/* The interval ev closes: its rank computing since its last event. */
	if (r >= 0 && r < s->nranks && s->rank[r].events > 0 &&
	    s->rank[r].cur == TRC_ACT_COMP) {
		rs = &s->rank[r];
		open = 1;
		before = rs->comp;
		if (rs->depth > 0)
			label = rs->stack[rs->depth - 1].label;
	}
	if (trc_summary_add(s, ev) < 0)
		return -1;
	/* Nothing to leave out: no cell, no memory per rank. */
	if (!open || (w->fraction <= 0 && !w->drop))
		return 0;
	if ((c = warm_cell(w, label, r)) == NULL)
		return -1;
	d = s->rank[r].comp - before;
	if (w->drop) {
		if ((past = trc_outlier_judge(&c->judge, d, &m)) < 0)
			return -1;
		if (past) {
			/* The host's delay, out of the run's times. */
			s->rank[r].comp -= d - m;
			if (label >= 0)
				s->comp[label][r] -= d - m;
			w->ndrop++;
			w->dropped += d - m;
			d = m;
		}
	}
	c->sum += d;
	c->n++;
	/* n a power of two: the sum of the first n, kept. */
	if ((c->n & (c->n - 1)) == 0 && c->n < (int64_t)1 << WARM_POWERS)
		c->prefix[__builtin_ctzll((unsigned long long)c->n)] = c->sum;
	return 0;
}

/* The largest power of two not over want (>= 1), as an exponent. */
static int
warm_power(double want)
{
	int k;

	for (k = 0; k + 1 < WARM_POWERS &&
	    (double)((int64_t)1 << (k + 1)) <= want; k++)
		;
	return k;
}

void
trc_warmup_part(const struct trc_warmup *w, int32_t label, int32_t rank,
    int64_t *first, int64_t *sum)
{
	const struct warm_cell *c = NULL;
	size_t i = (size_t)(label + 1);
	int k;

	*first = *sum = 0;
	if (i < w->nrow && rank >= 0)
		c = trc_pages_at(&w->row[i], (size_t)rank);
	if (c == NULL || w->fraction * (double)c->n < 1)
		return;
	k = warm_power(w->fraction * (double)c->n);
	*first = (int64_t)1 << k;
	*sum = c->prefix[k];
}

void
trc_warmup_dropped(const struct trc_warmup *w, unsigned long long *n,
    int64_t *ns)
{
	*n = w->ndrop;
	*ns = w->dropped;
}

void
trc_warmup_apply(const struct trc_warmup *w, struct trc_summary *s)
{
	const struct warm_cell *c;
	int32_t j, r;
	size_t i;
	double want;
	int k;

	for (i = 0; i < w->nrow; i++)
		for (j = 0; j < s->npresent; j++) {
			r = s->present[j];
			c = trc_pages_at(&w->row[i], (size_t)r);
			want = c != NULL ? w->fraction * (double)c->n : 0;
			if (want < 1)
				continue;
			k = warm_power(want);
			s->rank[r].comp -= c->prefix[k];
			if (i > 0)
				s->comp[i - 1][r] -= c->prefix[k];
		}
}
