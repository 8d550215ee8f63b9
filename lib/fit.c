/*
 * fit.c - .fit files (trc-fit(5)) and the segmented fit behind trc-fit.
 *
 * A file is rows "OP LO HI A B": for LO <= bytes < HI an operation OP
 * takes A + B * bytes seconds.  Each operation's rows must tile the
 * sizes from 0 to "inf" in order, so that every size has exactly one
 * cost: a gap or an overlap is an error on the row that makes it.
 * Lines "send-sync LO HI" mark the sizes whose blocking sends wait for
 * the receiver, which trc-fit finds from send-late measurements, and
 * "send-progress LO HI" those of them that any MPI call the receiver
 * waits in takes, not only its receive (send-busy measurements).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "trc.h"


void
trc_fit_free(struct trc_fit *f)
{
	size_t i;

	if (f == NULL)
		return;
	for (i = 0; i < f->nop; i++) {
		free(f->op[i].name);
		free(f->op[i].seg);
	}
	free(f->op);
	free(f->sync);
	free(f->prog);
	free(f);
}

/* Whether bytes lies in one of the n ranges r, sorted and disjoint. */
static int
in_ranges(const struct trc_fit_range *r, size_t n, int64_t bytes)
{
	size_t lo = 0, hi = n, mid;

	/* The last lo <= bytes. */
	if (hi == 0 || bytes < r[0].lo)
		return 0;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (r[mid].lo <= bytes)
			lo = mid;
		else
			hi = mid;
	}
	return bytes < r[lo].hi;
}

int
trc_fit_sync(const struct trc_fit *f, int64_t bytes)
{
	return in_ranges(f->sync, f->nsync, bytes);
}

int
trc_fit_progress(const struct trc_fit *f, int64_t bytes)
{
	return in_ranges(f->sync, f->nsync, bytes) &&
	    in_ranges(f->prog, f->nprog, bytes);
}

/* A send of median t waited when it took u with its receiver away. */
static int
waited(double t, double u)
{
	return u > TRC_FIT_SYNC_RATIO * t && u - t > TRC_FIT_SYNC_MIN;
}

/* Size i's send waits for a receiver late (late[i]) and, with busy,
 * not for one polling (busy[i]). */
static int
waits(const double *send, const double *late, const double *busy, size_t i)
{
	return waited(send[i], late[i]) &&
	    (busy == NULL || !waited(send[i], busy[i]));
}

static size_t
ranges_where(const double *x, const double *send, const double *late,
    const double *busy, size_t n, struct trc_fit_range *r)
{
	size_t i, j, k = 0;
	int in;

	for (i = 0; i < n; i = j) {
		in = waits(send, late, busy, i);
		for (j = i + 1; j < n && waits(send, late, busy, j) == in; j++)
			;
		if (!in)
			continue;
		r[k].lo = i == 0 ? 0 : (int64_t)x[i];
		r[k].hi = j == n ? TRC_FIT_INF : (int64_t)x[j];
		r[k++].line = 0;
	}
	return k;
}

size_t
trc_fit_sync_ranges(const double *x, const double *send, const double *late,
    size_t n, struct trc_fit_range *r)
{
	return ranges_where(x, send, late, NULL, n, r);
}

size_t
trc_fit_progress_ranges(const double *x, const double *send,
    const double *late, const double *busy, size_t n,
    struct trc_fit_range *r)
{
	return ranges_where(x, send, late, busy, n, r);
}

const struct trc_fit_op *
trc_fit_find(const struct trc_fit *f, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < f->nop; i++)
		if (strlen(f->op[i].name) == len &&
		    memcmp(f->op[i].name, name, len) == 0)
			return &f->op[i];
	return NULL;
}

double
trc_fit_eval(const struct trc_fit_op *op, int64_t bytes)
{
	size_t lo = 0, hi = op->nseg, mid;
	const struct trc_fit_seg *s;
	double t;

	if (bytes < 0)
		bytes = 0;
	/* The segments tile [0, inf) in order: find the last lo <= bytes. */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (op->seg[mid].lo <= bytes)
			lo = mid;
		else
			hi = mid;
	}
	s = &op->seg[lo];
	t = s->a + s->b * (double)bytes;
	return t > 0 ? t : 0;
}

int64_t
trc_fit_eval_ns(const struct trc_fit_op *op, int64_t bytes)
{
	double t = trc_fit_eval(op, bytes) * 1e9;

	if (!(t < (double)TRC_TIME_MAX))	/* NaN too */
		return TRC_TIME_OVER;
	return (int64_t)llround(t);
}

static int
isname(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '_' || *s == '-'))
			return 0;
	return 1;
}

/* A size: a decimal integer >= 0, or "inf" when inf_ok. */
static int
parse_size(const char *s, int inf_ok, int64_t *v)
{
	int64_t n = 0;

	if (inf_ok && strcmp(s, "inf") == 0) {
		*v = TRC_FIT_INF;
		return 0;
	}
	if (*s == '\0')
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (n > (INT64_MAX - 9) / 10)
			return -1;
		n = n * 10 + (*s - '0');
	}
	*v = n;
	return 0;
}

static int
parse_real(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (end == s || *end != '\0' || errno == ERANGE || !isfinite(*v))
		return -1;
	return 0;
}

void
trc_fit_fmt_size(char *buf, size_t len, int64_t v)
{
	if (v == TRC_FIT_INF)
		snprintf(buf, len, "inf");
	else
		snprintf(buf, len, "%lld", (long long)v);
}

static struct trc_fit_op *
getop(struct trc_fit *f, const char *name)
{
	struct trc_fit_op *op, *p;

	if ((op = (struct trc_fit_op *)trc_fit_find(f, name, strlen(name))))
		return op;
	if ((p = realloc(f->op, (f->nop + 1) * sizeof(*p))) == NULL)
		return NULL;
	f->op = p;
	op = &f->op[f->nop];
	memset(op, 0, sizeof(*op));
	if ((op->name = strdup(name)) == NULL)
		return NULL;
	f->nop++;
	return op;
}

/* A "send-sync LO HI" or "send-progress LO HI" line onto the ranges
 * *rp of *np; 0, or -1 with err set as addrow's. */
static int
addrange(struct trc_fit_range **rp, size_t *np, char **fld, long line,
    char *err, size_t errlen)
{
	struct trc_fit_range r, *p;
	char b1[32], b2[32];

	if (parse_size(fld[1], 0, &r.lo) < 0) {
		trc_errorf(err, errlen, "invalid size '%s'", fld[1]);
		return -1;
	}
	if (parse_size(fld[2], 1, &r.hi) < 0) {
		trc_errorf(err, errlen, "invalid size '%s'", fld[2]);
		return -1;
	}
	if (r.hi <= r.lo) {
		trc_errorf(err, errlen, "empty size range '%s %s'", fld[1], fld[2]);
		return -1;
	}
	if (*np > 0 && r.lo < (*rp)[*np - 1].hi) {
		trc_fit_fmt_size(b1, sizeof(b1), (*rp)[*np - 1].hi);
		trc_fit_fmt_size(b2, sizeof(b2), r.lo);
		trc_errorf(err, errlen, "overlap in '%s' sizes: previous "
		    "range ends at %s, this one starts at %s", fld[0], b1, b2);
		return -1;
	}
	if ((p = realloc(*rp, (*np + 1) * sizeof(*p))) == NULL) {
		trc_errorf(err, errlen, "out of memory");
		return -1;
	}
	r.line = line;
	*rp = p;
	p[(*np)++] = r;
	return 0;
}

/* Returns 0, or -1 with err set (without the "file:line: " prefix). */
static int
addrow(struct trc_fit *f, char **fld, long line, char *err, size_t errlen)
{
	struct trc_fit_op *op;
	struct trc_fit_seg s, *p;
	char b1[32], b2[32];

	if (!isname(fld[0])) {
		trc_errorf(err, errlen, "invalid operation name '%s'", fld[0]);
		return -1;
	}
	if (parse_size(fld[1], 0, &s.lo) < 0) {
		trc_errorf(err, errlen, "invalid size '%s'", fld[1]);
		return -1;
	}
	if (parse_size(fld[2], 1, &s.hi) < 0) {
		trc_errorf(err, errlen, "invalid size '%s'", fld[2]);
		return -1;
	}
	if (s.hi <= s.lo) {
		trc_errorf(err, errlen, "empty size range '%s %s'", fld[1], fld[2]);
		return -1;
	}
	if (parse_real(fld[3], &s.a) < 0) {
		trc_errorf(err, errlen, "invalid number '%s'", fld[3]);
		return -1;
	}
	if (parse_real(fld[4], &s.b) < 0) {
		trc_errorf(err, errlen, "invalid number '%s'", fld[4]);
		return -1;
	}
	s.line = line;
	if ((op = getop(f, fld[0])) == NULL) {
		trc_errorf(err, errlen, "out of memory");
		return -1;
	}
	if (op->nseg == 0 && s.lo != 0) {
		trc_errorf(err, errlen, "'%s' sizes must start at 0, not %lld",
		    op->name, (long long)s.lo);
		return -1;
	}
	if (op->nseg > 0) {
		int64_t prev = op->seg[op->nseg - 1].hi;

		if (s.lo != prev) {
			trc_fit_fmt_size(b1, sizeof(b1), prev);
			trc_fit_fmt_size(b2, sizeof(b2), s.lo);
			trc_errorf(err, errlen, "%s in '%s' sizes: previous row "
			    "ends at %s, this one starts at %s",
			    s.lo > prev ? "gap" : "overlap", op->name, b1, b2);
			return -1;
		}
	}
	if ((p = realloc(op->seg, (op->nseg + 1) * sizeof(*p))) == NULL) {
		trc_errorf(err, errlen, "out of memory");
		return -1;
	}
	op->seg = p;
	op->seg[op->nseg++] = s;
	op->lastline = line;
	return 0;
}

struct trc_fit *
trc_fit_load(const char *path, char *err, size_t errlen)
{
	struct trc_fit *f = NULL;
	struct trc_table *t;
	const struct trc_fit_op *op;
	char msg[256];
	size_t i;

	if ((t = trc_table_open(path)) == NULL ||
	    (f = calloc(1, sizeof(*f))) == NULL) {
		trc_errorf(err, errlen, "%s: out of memory", path);
		goto fail;
	}
	while (trc_table_next(t) > 0) {
		if (t->nfield == 3 && strcmp(t->field[0], "send-sync") == 0) {
			if (addrange(&f->sync, &f->nsync, t->field, t->lineno,
			    msg, sizeof(msg)) < 0)
				trc_table_fail(t, "%s", msg);
			continue;
		}
		if (t->nfield == 3 &&
		    strcmp(t->field[0], "send-progress") == 0) {
			if (addrange(&f->prog, &f->nprog, t->field, t->lineno,
			    msg, sizeof(msg)) < 0)
				trc_table_fail(t, "%s", msg);
			continue;
		}
		if (t->nfield != 5)
			trc_table_fail(t, "expected 5 fields 'OP LO HI A B', "
			    "got %d", t->nfield);
		else if (addrow(f, t->field, t->lineno, msg, sizeof(msg)) < 0)
			trc_table_fail(t, "%s", msg);
	}
	if (t->failed) {
		trc_errorf(err, errlen, "%s", trc_table_error(t));
		goto fail;
	}
	/* Empty, or send-sync lines alone: no cost for anything. */
	if (f->nop == 0) {
		trc_errorf(err, errlen, "%s: no operations (rows 'OP LO HI "
		    "A B')", t->name);
		goto fail;
	}
	for (i = 0; i < f->nop; i++) {
		op = &f->op[i];
		if (op->seg[op->nseg - 1].hi != TRC_FIT_INF) {
			trc_errorf(err, errlen, "%s:%ld: '%s' sizes end at %lld, "
			    "not 'inf'", t->name, op->lastline, op->name,
			    (long long)op->seg[op->nseg - 1].hi);
			goto fail;
		}
	}
	trc_table_close(t);
	return f;
fail:
	trc_table_close(t);
	trc_fit_free(f);
	return NULL;
}

double
trc_fit_median(double *v, size_t n)
{
	gsl_sort(v, 1, n);
	return gsl_stats_median_from_sorted_data(v, 1, n);
}

static int
bysize_time(const void *a, const void *b)
{
	const struct trc_fit_meas *x = a, *y = b;

	if (x->bytes != y->bytes)
		return (x->bytes > y->bytes) - (x->bytes < y->bytes);
	return (x->sec > y->sec) - (x->sec < y->sec);
}

size_t
trc_fit_medians(struct trc_fit_meas *m, size_t n, double *x, double *y)
{
	return trc_fit_quantiles(m, n, 0.5, x, y);
}

size_t
trc_fit_quantiles(struct trc_fit_meas *m, size_t n, double q, double *x,
    double *y)
{
	const struct trc_fit_meas *a;
	size_t i, j, k = 0, lo;
	double f;

	/* Sorted by time within a size too: the quantile lies q of the
	 * way from the first to the last, between two neighbours (the
	 * median of an even count their mean, to the bit). */
	qsort(m, n, sizeof(*m), bysize_time);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && m[j].bytes == m[i].bytes; j++)
			;
		f = q * (double)(j - i - 1);
		lo = (size_t)f;
		f -= (double)lo;
		a = m + i + lo;
		x[k] = (double)m[i].bytes;
		y[k++] = i + lo + 1 < j ? (1 - f) * a[0].sec + f * a[1].sec :
		    a[0].sec;
	}
	return k;
}

size_t
trc_fit_common(const double *ax, const double *ay, size_t na,
    const double *bx, const double *by, size_t nb, double *x, double *a,
    double *b)
{
	size_t i = 0, j = 0, n = 0;

	while (i < na && j < nb)
		if (ax[i] < bx[j])
			i++;
		else if (bx[j] < ax[i])
			j++;
		else {
			x[n] = ax[i];
			a[n] = ay[i++];
			b[n++] = by[j++];
		}
	return n;
}

int
trc_fit_write_op(FILE *fp, const char *name, const struct trc_fit_seg *seg,
    size_t nseg)
{
	char lo[32], hi[32];
	size_t k;

	for (k = 0; k < nseg; k++) {
		trc_fit_fmt_size(lo, sizeof(lo), seg[k].lo);
		trc_fit_fmt_size(hi, sizeof(hi), seg[k].hi);
		if (fprintf(fp, "%s %s %s %.9g %.9g\n", name, lo, hi, seg[k].a,
		    seg[k].b) < 0)
			return -1;
	}
	return 0;
}

int
trc_fit_write_ranges(FILE *fp, const char *name,
    const struct trc_fit_range *r, size_t nr)
{
	char lo[32], hi[32];
	size_t k;

	for (k = 0; k < nr; k++) {
		trc_fit_fmt_size(lo, sizeof(lo), r[k].lo);
		trc_fit_fmt_size(hi, sizeof(hi), r[k].hi);
		if (fprintf(fp, "%s %s %s\n", name, lo, hi) < 0)
			return -1;
	}
	return 0;
}

/*
 * Fit points [i, j) on relative error; returns the weighted residual
 * sum of squares, or -1 when GSL fails.
 */
static double
segfit(const double *x, const double *y, const double *w, size_t i, size_t j,
    double *a, double *b)
{
	double c0, c1, cov00, cov01, cov11, chisq;

	if (j - i == 1) {
		*a = y[i];
		*b = 0;
		return 0;
	}
	if (gsl_fit_wlinear(x + i, 1, w + i, 1, y + i, 1, j - i, &c0, &c1,
	    &cov00, &cov01, &cov11, &chisq) != GSL_SUCCESS || !isfinite(c0) ||
	    !isfinite(c1) || !isfinite(chisq))
		return -1;
	*a = c0;
	*b = c1;
	return chisq < 0 ? 0 : chisq;
}

static void
segstat(const double *x, const double *y, size_t i, size_t j, double a,
    double b, struct trc_fit_stat *st)
{
	double mean = 0, ssres = 0, sstot = 0, rel = 0, r;
	size_t k;

	for (k = i; k < j; k++)
		mean += y[k];
	mean /= (double)(j - i);
	for (k = i; k < j; k++) {
		r = y[k] - (a + b * x[k]);
		ssres += r * r;
		sstot += (y[k] - mean) * (y[k] - mean);
		rel += (r / y[k]) * (r / y[k]);
	}
	st->npts = j - i;
	st->r2 = sstot > 0 ? 1 - ssres / sstot : (ssres > 0 ? 0 : 1);
	st->rrms = sqrt(rel / (double)(j - i));
}

/*
 * A weighted least-squares line through points added one at a time,
 * by West's update of the weighted means and co-moments (Commun. ACM
 * 22(9), 1979): O(1) a point and as stable as the two-pass sums of
 * gsl_fit_wlinear, so that the costs of all O(n^2) segments take
 * O(n^2) time, not O(n^3).
 */
struct wline {
	double	 w, mx, my, cxx, cxy, cyy;
};

static void
wline_add(struct wline *l, double x, double y, double w)
{
	double dx = x - l->mx, dy = y - l->my;

	l->w += w;
	l->mx += w / l->w * dx;
	l->my += w / l->w * dy;
	l->cxx += w * dx * (x - l->mx);
	l->cxy += w * dx * (y - l->my);
	l->cyy += w * dy * (y - l->my);
}

/* Whether l's line is above zero at x0 and at x1. */
static int
wline_positive(const struct wline *l, double x0, double x1)
{
	double b = l->cxx > 0 ? l->cxy / l->cxx : 0;

	return l->my + b * (x0 - l->mx) > 0 && l->my + b * (x1 - l->mx) > 0;
}

/* What a segment not above zero adds to its cost (relative squared
 * errors, each point's at most about 1 on usual data). */
#define NEGATIVE_COST	1e12

/* The weighted residual sum of squares, gsl_fit_wlinear's chisq. */
static double
wline_rss(const struct wline *l)
{
	double c;

	if (!(l->cxx > 0))
		return 0;	/* one point */
	c = l->cyy - l->cxy * l->cxy / l->cxx;
	return c > 0 ? c : 0;
}

int
trc_fit_pieces(const double *x, const double *y, size_t n, int maxseg,
    int minpts, double penalty, struct trc_fit_seg *seg, struct trc_fit_stat *st,
    size_t *nseg, char *err, size_t errlen)
{
	return trc_fit_pieces_cut(x, y, n, maxseg, minpts, penalty, NULL, 0,
	    seg, st, nseg, err, errlen);
}

/* Of the n sizes x[], the first at or above c. */
static size_t
first_at(const double *x, size_t n, int64_t c)
{
	size_t i;

	for (i = 0; i < n && x[i] < (double)c; i++)
		;
	return i;
}

int
trc_fit_pieces_cut(const double *x, const double *y, size_t n, int maxseg,
    int minpts, double penalty, const int64_t *cuts, size_t ncut,
    struct trc_fit_seg *seg, struct trc_fit_stat *st, size_t *nseg,
    char *err, size_t errlen)
{
	double *w = NULL, *dp = NULL, a, b, bic, best, c;
	size_t *from = NULL, i, j, k, m, M, bestm, cut[64], at[64], nat = 0;
	struct wline l;
	int rc = -1;

	gsl_set_error_handler_off();
	if (n == 0 || maxseg < 1 || minpts < 2 || maxseg > 60 ||
	    !(penalty >= 0)) {
		trc_errorf(err, errlen, "nothing to fit");
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!(y[i] > 0) || (i > 0 && !(x[i] > x[i - 1])) ||
		    !isfinite(x[i]) || !isfinite(1 / (y[i] * y[i]))) {
			trc_errorf(err, errlen, "sizes must increase and times "
			    "be positive");
			return -1;
		}
	/* Too few sizes to cut: one segment through all of them. */
	if (n < (size_t)minpts * 2 || maxseg == 1)
		M = 1;
	else
		M = (size_t)maxseg < n / (size_t)minpts ?
		    (size_t)maxseg : n / (size_t)minpts;
	/* The cuts (ascending), as the index of the first size at or
	 * above each, minpts sizes from the ends and from each other. */
	for (k = 0; M > 1 && k < ncut && nat < 63; k++) {
		i = first_at(x, n, cuts[k]);
		if (i >= (size_t)minpts && n - i >= (size_t)minpts &&
		    (nat == 0 || i >= at[nat - 1] + (size_t)minpts))
			at[nat++] = i;
	}
	if (nat + 1 > M)
		nat = 0;
	w = malloc(n * sizeof(*w));
	dp = malloc((M + 1) * (n + 1) * sizeof(*dp));
	from = malloc((M + 1) * (n + 1) * sizeof(*from));
	if (w == NULL || dp == NULL || from == NULL) {
		trc_errorf(err, errlen, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++)
		w[i] = 1 / (y[i] * y[i]);
	/* dp[m][j]: least cost of points 0..j-1 in m segments. */
	for (m = 0; m <= M; m++)
		for (j = 0; j <= n; j++)
			dp[m * (n + 1) + j] = (m == 0 && j == 0) ? 0 : HUGE_VAL;
	/*
	 * The last segment is points i..j-1, grown leftwards from j so
	 * that each is one update of the one before; one point alone, or
	 * fewer than minpts when cutting, is no segment.
	 */
	for (j = 1; j <= n; j++) {
		memset(&l, 0, sizeof(l));
		for (i = j; i-- > 0;) {
			wline_add(&l, x[i], y[i], w[i]);
			if (j - i < (size_t)minpts && M > 1)
				continue;
			if (M == 1 && (i != 0 || j != n))
				continue;
			for (k = 0; k < nat && !(i < at[k] && at[k] < j); k++)
				;
			if (k < nat)
				continue;	/* across a protocol's switch */
			c = wline_rss(&l);
			/* A segment whose line is not above zero at the
			 * ends of its sizes (to the next segment's first)
			 * would cost a message nothing or less there: a
			 * dip at one size (shared memory's recv-late-cold
			 * of 3 KiB at 1 us between 5 and 16 us) drew a
			 * line to -1.7 us at 3856 bytes.  Such a cut is
			 * taken only when every other is worse. */
			if (!wline_positive(&l, x[i], j < n ? x[j] : x[n - 1]))
				c += NEGATIVE_COST;
			for (m = 1; m <= M; m++) {
				double t = dp[(m - 1) * (n + 1) + i] + c;

				if (t < dp[m * (n + 1) + j]) {
					dp[m * (n + 1) + j] = t;
					from[m * (n + 1) + j] = i;
				}
			}
		}
	}
	/*
	 * BIC: n log(RSS/n) + p (3m - 1) log n, two coefficients a
	 * segment and one breakpoint between two.  Plain BIC (p = 1)
	 * undercounts a breakpoint that was searched for over every
	 * candidate size: on straight-line data with 2% noise it cut
	 * half the time in our trials, p = 3 about once in a hundred.
	 * Relative residuals below 1e-6 count as exact, so noiseless data
	 * do not reward extra cuts either.
	 */
	best = HUGE_VAL;
	bestm = 1;
	for (m = 1; m <= M; m++) {
		double rss = dp[m * (n + 1) + n];

		if (rss == HUGE_VAL)
			continue;
		if (rss < (double)n * 1e-12)
			rss = (double)n * 1e-12;
		bic = (double)n * log(rss / (double)n) +
		    (double)(3 * m - 1) * log((double)n) * penalty;
		if (bic < best) {
			best = bic;
			bestm = m;
		}
	}
	if (best == HUGE_VAL) {
		trc_errorf(err, errlen, "no segmentation fits");
		goto out;
	}
	cut[bestm] = n;
	for (m = bestm; m > 0; m--)
		cut[m - 1] = from[m * (n + 1) + cut[m]];
	for (k = 0; k < bestm; k++) {
		i = cut[k];
		j = cut[k + 1];
		if (segfit(x, y, w, i, j, &a, &b) < 0) {
			trc_errorf(err, errlen, "least-squares fit failed");
			goto out;
		}
		seg[k].lo = k == 0 ? 0 : (int64_t)x[i];
		seg[k].hi = j == n ? TRC_FIT_INF : (int64_t)x[j];
		seg[k].a = a;
		seg[k].b = b;
		seg[k].line = 0;
		segstat(x, y, i, j, a, b, &st[k]);
	}
	*nseg = bestm;
	rc = 0;
out:
	free(w);
	free(dp);
	free(from);
	return rc;
}

/* A line through points [i, j) on relative error, as a segment. */
static int
line(const double *x, const double *y, size_t i, size_t j, double *a,
    double *b)
{
	double *w;
	size_t k;
	int rc;

	if ((w = malloc(j * sizeof(*w))) == NULL)
		return -1;
	for (k = i; k < j; k++)
		w[k] = 1 / (y[k] * y[k]);
	rc = segfit(x, y, w, i, j, a, b) < 0 ? -1 : 0;
	free(w);
	return rc;
}

int
trc_loggp_fit(const double *x, const double *y, size_t n, double o,
    int64_t eager, struct trc_loggp_fit *p, char *err, size_t errlen)
{
	double a1, b1, a2, b2;
	size_t i, ne;

	gsl_set_error_handler_off();
	for (i = 0; i < n; i++)
		if (!(y[i] > 0) || (i > 0 && !(x[i] > x[i - 1])))
			return trc_errorf(err, errlen, "sizes must increase "
			    "and times be positive");
	for (ne = 0; ne < n && (eager == TRC_FIT_INF || x[ne] <= eager); ne++)
		;
	if (ne < 2)
		return trc_errorf(err, errlen, "recv: %zu size%s up to the "
		    "eager limit, 2 needed", ne, ne == 1 ? "" : "s");
	if (line(x, y, 0, ne, &a1, &b1) < 0)
		return trc_errorf(err, errlen, "recv: the fit failed");
	memset(p, 0, sizeof(*p));
	p->o = o;
	p->eager = eager;
	p->neager = ne;
	p->nrdv = n - ne;
	p->L = a1 - 2 * o > 0 ? a1 - 2 * o : 0;
	p->G = b1 > 0 ? b1 : 0;
	if (n - ne >= 2) {
		if (line(x, y, ne, n, &a2, &b2) < 0)
			return trc_errorf(err, errlen, "recv: the fit failed");
		/* Large messages set the bandwidth; the step between the
		 * lines is the handshake, 2L + 2o, and R. */
		p->G = b2 > 0 ? b2 : 0;
		p->R = a2 - a1 - 2 * p->L - 2 * o;
		if (p->R < -(2 * p->L + 2 * o))
			p->R = -(2 * p->L + 2 * o);
	}
	return 0;
}
