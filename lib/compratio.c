/*
 * compratio.c - computation speed ratios measured from pairs of runs
 * (trc_ratios.h), the method's first step: Mendes measures them on a
 * reduced problem run on both machines.
 */
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "trc_ratios.h"
#include "trc_summary.h"

/* The ratios one row collected, one per pair. */
struct samples {
	double	*v;
	size_t	 n, cap;
};

/*
 * Rows by label id (in names) and rank + 1 (0 is "all"); label id
 * "outside" is the empty label, and dflt the default row.
 */
struct trc_compratio {
	struct trc_intern	 names;
	struct samples		**cell;		/* [label][rank + 1] */
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

/* The samples of (label, rank), rank -1 for all; NULL when out of memory. */
static struct samples *
cell(struct trc_compratio *c, const char *label, int32_t rank)
{
	int32_t id, col = rank + 1;

	if ((id = trc_intern(&c->names, label, strlen(label))) < 0)
		return NULL;
	if (id >= c->cap) {
		int32_t cap = c->cap ? 2 * c->cap : 8;
		struct samples **p = realloc(c->cell, (size_t)cap * sizeof(*p));
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
		struct samples *p;

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

/* One label's ratios (name as in base), per rank and summed. */
static int
add_label(struct trc_compratio *c, const struct trc_summary *base,
    const struct trc_summary *target, const char *name, int32_t bid,
    int32_t tid)
{
	struct samples *sp;
	int64_t b, t, bsum = 0, tsum = 0;
	int32_t r;

	for (r = 0; r < base->nranks; r++) {
		b = comp_of(base, bid, r);
		t = tid == -2 ? 0 : comp_of(target, tid, r);
		if (b <= 0 || t <= 0)
			continue;
		bsum += b;
		tsum += t;
		if ((sp = cell(c, name, r)) == NULL ||
		    push(sp, (double)b / (double)t) < 0)
			return -1;
	}
	if (bsum > 0 && ((sp = cell(c, name, -1)) == NULL ||
	    push(sp, (double)bsum / (double)tsum) < 0))
		return -1;
	return 0;
}

int
trc_compratio_add(struct trc_compratio *c, const struct trc_summary *base,
    const struct trc_summary *target)
{
	const char *name;
	int64_t b = 0, t = 0;
	int32_t i, tid, r;

	for (i = 0; i < base->labels.n; i++) {
		name = base->labels.name[i];
		/* A label the target never ran gives no ratio. */
		tid = trc_intern_find(&target->labels, name, strlen(name));
		if (add_label(c, base, target, name, i, tid < 0 ? -2 : tid) < 0)
			return -1;
	}
	if (add_label(c, base, target, "", -1, -1) < 0)
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
	int32_t id, col, empty;
	size_t n = 1, k = 0;
	int pass;

	for (id = 0; id < c->names.n; id++)
		n += (size_t)c->ncell[id];
	free(c->rows);
	if ((c->rows = rows = calloc(n, sizeof(*rows))) == NULL)
		return -1;
	empty = trc_intern_find(&c->names, "", 0);
	/* Pass 0: the named labels; pass 1: the empty one. */
	for (pass = 0; pass < 2; pass++)
		for (id = 0; id < c->names.n; id++) {
			if ((id == empty) != pass)
				continue;
			for (col = 1; col < c->ncell[id]; col++)
				if (c->cell[id][col].n > 0)
					row_of(&rows[k++], c->names.name[id],
					    col - 1, &c->cell[id][col]);
			if (c->ncell[id] > 0 && c->cell[id][0].n > 0)
				row_of(&rows[k++], c->names.name[id], -1,
				    &c->cell[id][0]);
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
		for (col = 0; col < c->ncell[id]; col++)
			free(c->cell[id][col].v);
		free(c->cell[id]);
	}
	free(c->cell);
	free(c->ncell);
	free(c->dflt.v);
	free(c->rows);
	trc_intern_free(&c->names);
	free(c);
}
