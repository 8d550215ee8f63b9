/* Unit tests of lib/fit.c: .fit files, evaluation, the segmented fit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_fit.h>

#include "tap.h"
#include "trc.h"
#include "trc_fit.h"

static char path[64];

static struct trc_fit *
load(const char *text, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "w");

	fputs(text, fp);
	fclose(fp);
	err[0] = '\0';
	return trc_fit_load(path, err, errlen);
}

static void
bad(const char *text, const char *want, const char *name)
{
	char err[512], exp[512];
	struct trc_fit *f = load(text, err, sizeof(err));

	snprintf(exp, sizeof(exp), "%s:%s", path, want);
	ok(f == NULL, "%s: rejected", name);
	is_str(err, exp, name);
	trc_fit_free(f);
}

/*
 * The segmentation by the book, as trc_fit_pieces did it before its
 * incremental costs: gsl_fit_wlinear on every segment, then the same
 * dynamic programme and BIC.  O(n^3): small n only.
 */
static size_t
reference(const double *x, const double *y, size_t n, size_t maxseg,
    size_t minpts, double penalty, size_t *cut)
{
	static double cost[41][41], dp[9][41];
	static size_t from[9][41];
	double w[40], c0, c1, v00, v01, v11, chi, best = HUGE_VAL, rss, bic;
	size_t i, j, m, M, bestm = 1;

	for (i = 0; i < n; i++)
		w[i] = 1 / (y[i] * y[i]);
	M = n < 2 * minpts ? 1 : (maxseg < n / minpts ? maxseg : n / minpts);
	for (i = 0; i < n; i++)
		for (j = 0; j <= n; j++) {
			cost[i][j] = HUGE_VAL;
			if (j > i && (j - i >= minpts || M == 1)) {
				gsl_fit_wlinear(x + i, 1, w + i, 1, y + i, 1,
				    j - i, &c0, &c1, &v00, &v01, &v11, &chi);
				cost[i][j] = chi < 0 ? 0 : chi;
			}
		}
	for (m = 0; m <= M; m++)
		for (j = 0; j <= n; j++)
			dp[m][j] = m == 0 && j == 0 ? 0 : HUGE_VAL;
	for (m = 1; m <= M; m++)
		for (j = 1; j <= n; j++)
			for (i = 0; i < j; i++)
				if (dp[m - 1][i] + cost[i][j] < dp[m][j]) {
					dp[m][j] = dp[m - 1][i] + cost[i][j];
					from[m][j] = i;
				}
	for (m = 1; m <= M; m++) {
		if ((rss = dp[m][n]) == HUGE_VAL)
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
	cut[bestm] = n;
	for (m = bestm; m > 0; m--)
		cut[m - 1] = from[m][cut[m]];
	return bestm;
}

int
main(void)
{
	struct trc_fit *f;
	const struct trc_fit_op *op;
	char err[512];
	int fd;

	strcpy(path, "/tmp/trc-1100-XXXXXX");
	if ((fd = mkstemp(path)) < 0)
		return 2;
	close(fd);

	f = load("# a comment\n"
	    "send 0 1024 1e-6 1e-9   # eager\n"
	    "\n"
	    "recv 0 inf 2e-6 0\n"
	    "send 1024 inf 5e-6 5e-10\n", err, sizeof(err));
	ok(f != NULL, "good file loads");
	if (f == NULL)
		printf("# %s\n", err);
	is_int(f ? (long long)f->nop : 0, 2, "two operations");
	op = f ? trc_fit_find(f, "send", 4) : NULL;
	ok(op != NULL && op->nseg == 2, "send has two segments");
	if (op) {
		/* 1e-6 + 1e-9 * 1000 = 2e-6 */
		is_num(trc_fit_eval(op, 1000), 2e-6, 1e-15, "send 1000 bytes");
		/* 1e-6 + 1e-9 * 1023 */
		is_num(trc_fit_eval(op, 1023), 2.023e-6, 1e-15, "send 1023 bytes");
		/* 5e-6 + 5e-10 * 1024 = 5.512e-6 */
		is_num(trc_fit_eval(op, 1024), 5.512e-6, 1e-15, "send 1024 bytes");
		is_int(trc_fit_eval_ns(op, 1 << 20), 529288, "send 1 MiB in ns");
		is_num(trc_fit_eval(op, 0), 1e-6, 1e-15, "send 0 bytes");
	}
	ok(f && trc_fit_find(f, "bcast", 5) == NULL, "absent op not found");
	trc_fit_free(f);

	bad("send 0 1024 1e-6 1e-9\nsend 2048 inf 1e-6 1e-9\n",
	    "2: gap in 'send' sizes: previous row ends at 1024, this one "
	    "starts at 2048", "gap");
	bad("send 0 1024 1e-6 1e-9\nsend 512 inf 1e-6 1e-9\n",
	    "2: overlap in 'send' sizes: previous row ends at 1024, this one "
	    "starts at 512", "overlap");
	bad("send 0 inf 1e-6 1e-9\nsend 0 inf 1e-6 1e-9\n",
	    "2: overlap in 'send' sizes: previous row ends at inf, this one "
	    "starts at 0", "overlap after inf");
	bad("send 8 inf 1e-6 1e-9\n",
	    "1: 'send' sizes must start at 0, not 8", "not from 0");
	bad("recv 0 inf 1 0\nsend 0 64 1e-6 1e-9\nsend 64 128 1 1\n",
	    "3: 'send' sizes end at 128, not 'inf'", "not to inf");
	bad("send 0 inf 1e-6\n",
	    "1: expected 5 fields 'OP LO HI A B', got 4", "short row");
	bad("send 0 inf 1e-6x 0\n", "1: invalid number '1e-6x'", "bad number");
	bad("send -1 inf 1 0\n", "1: invalid size '-1'", "bad size");
	bad("send 0 0 1 0\n", "1: empty size range '0 0'", "empty range");
	bad("se/nd 0 inf 1 0\n", "1: invalid operation name 'se/nd'", "bad name");

	/* send-sync lines: sorted, disjoint, gaps allowed. */
	f = load("send 0 inf 1e-6 0\n"
	    "send-sync 256 4096\n"
	    "send-sync 65536 inf   # rendezvous\n", err, sizeof(err));
	ok(f != NULL && f->nsync == 2, "two send-sync ranges load");
	if (f != NULL) {
		is_int(trc_fit_sync(f, 0), 0, "0 bytes: eager");
		is_int(trc_fit_sync(f, 255), 0, "255 bytes: eager");
		is_int(trc_fit_sync(f, 256), 1, "256 bytes: waits");
		is_int(trc_fit_sync(f, 4095), 1, "4095 bytes: waits");
		is_int(trc_fit_sync(f, 4096), 0, "4096 bytes: eager (gap)");
		is_int(trc_fit_sync(f, 65535), 0, "65535 bytes: eager");
		is_int(trc_fit_sync(f, 1 << 30), 1, "1 GiB: waits");
		is_int(f->nop, 1, "send-sync is no operation");
	}
	trc_fit_free(f);
	f = load("send 0 inf 1e-6 0\n", err, sizeof(err));
	ok(f != NULL && f->nsync == 0 && trc_fit_sync(f, 100) == 0,
	    "a file without send-sync: every send eager");
	trc_fit_free(f);
	bad("", " no operations (rows 'OP LO HI A B')", "empty file");
	bad("# only a comment\n\n", " no operations (rows 'OP LO HI A B')",
	    "comments alone");
	bad("send-sync 0 inf\n", " no operations (rows 'OP LO HI A B')",
	    "send-sync alone");
	bad("send-sync 0 1024\nsend-sync 512 inf\n",
	    "2: overlap in 'send-sync' sizes: previous range ends at 1024, "
	    "this one starts at 512", "send-sync overlap");
	bad("send-sync 0 inf\nsend-sync 0 inf\n",
	    "2: overlap in 'send-sync' sizes: previous range ends at inf, "
	    "this one starts at 0", "send-sync after inf");
	bad("send-sync 64 64\n", "1: empty size range '64 64'",
	    "send-sync empty");
	bad("send-sync x 64\n", "1: invalid size 'x'", "send-sync bad size");
	bad("send-sync 0 64 1\n", "1: expected 5 fields 'OP LO HI A B', got 4",
	    "send-sync with 4 fields");

	/*
	 * Ranges from medians: sizes 1 2 4 8 16 32, waiting (late more
	 * than 2.5 times send) at 4, 8 and 32: [4, 16) and [32, inf).
	 */
	{
		double x[6] = { 1, 2, 4, 8, 16, 32 };
		double a[6] = { 1, 1, 1, 1, 1, 1 };
		double b[6] = { 1, 2.5, 2.6, 5, 1, 9 };
		struct trc_fit_range r[3];
		size_t nr;

		nr = trc_fit_sync_ranges(x, a, b, 6, r);
		is_int(nr, 2, "two waiting runs");
		is_int(r[0].lo, 4, "first from 4");
		is_int(r[0].hi, 16, "to the next eager size, 16");
		is_int(r[1].lo, 32, "second from 32");
		ok(r[1].hi == TRC_FIT_INF, "to inf");
		b[0] = 3;
		nr = trc_fit_sync_ranges(x, a, b, 1, r);
		ok(nr == 1 && r[0].lo == 0 && r[0].hi == TRC_FIT_INF,
		    "a waiting first size starts at 0");
	}

	/*
	 * Progress ranges: the same sizes, late waiting at 4, 8, 16 and
	 * 32, busy (the receiver polling) waiting at 16 and 32 only:
	 * those the receiver's progress takes are [4, 16).  A size whose
	 * late does not wait (2) is none, whatever busy says.
	 */
	{
		double x[6] = { 1, 2, 4, 8, 16, 32 };
		double a[6] = { 1, 1, 1, 1, 1, 1 };
		double late[6] = { 1, 1, 9, 9, 9, 9 };
		double busy[6] = { 1, 9, 1, 2.5, 9, 9 };
		struct trc_fit_range r[3];
		size_t nr;

		nr = trc_fit_progress_ranges(x, a, late, busy, 6, r);
		ok(nr == 1 && r[0].lo == 4 && r[0].hi == 16,
		    "progress: [4, 16), the waiting sizes busy does not wait at");
		busy[4] = busy[5] = 1;
		nr = trc_fit_progress_ranges(x, a, late, busy, 6, r);
		ok(nr == 1 && r[0].lo == 4 && r[0].hi == TRC_FIT_INF,
		    "progress to the last size: to inf");
	}

	/* send-progress lines: of the send-sync sizes, those a receiver's
	 * progress takes; a size outside send-sync is eager all the same. */
	f = load("send 0 inf 1e-6 0\n"
	    "send-sync 256 inf\n"
	    "send-progress 256 4096\n"
	    "send-progress 8192 16384\n"
	    "send-progress 0 100   # not send-sync: no effect\n",
	    err, sizeof(err));
	ok(f == NULL, "send-progress ranges must be sorted too");
	f = load("send 0 inf 1e-6 0\n"
	    "send-sync 256 inf\n"
	    "send-progress 0 100\n"
	    "send-progress 256 4096\n", err, sizeof(err));
	ok(f != NULL && f->nprog == 2, "two send-progress ranges load");
	if (f != NULL) {
		is_int(trc_fit_progress(f, 50), 0, "50 bytes: eager, not send-sync");
		is_int(trc_fit_progress(f, 256), 1, "256 bytes: progress");
		is_int(trc_fit_progress(f, 4095), 1, "4095 bytes: progress");
		is_int(trc_fit_progress(f, 4096), 0, "4096 bytes: its receive");
		is_int(trc_fit_sync(f, 4096), 1, "4096 bytes: waits");
		is_int(f->nop, 1, "send-progress is no operation");
		trc_fit_free(f);
	}
	bad("send 0 inf 1 0\nsend-progress 0 1024\nsend-progress 512 inf\n",
	    "3: overlap in 'send-progress' sizes: previous range ends at "
	    "1024, this one starts at 512", "send-progress overlap");

	/* The fit: exact data from two lines with a jump at 4096. */
	{
		double x[12], y[12];
		struct trc_fit_seg seg[4];
		struct trc_fit_stat st[4];
		size_t n = 0, ns = 0, k;
		int rc;

		for (k = 0; k < 12; k++) {
			x[n] = (double)(1 << k) * 16;	/* 16 .. 32768 */
			y[n] = x[n] < 4096 ? 2e-6 + 1e-9 * x[n] :
			    10e-6 + 0.5e-9 * x[n];
			n++;
		}
		rc = trc_fit_pieces(x, y, n, 4, 3, 3.0, seg, st, &ns, err,
		    sizeof(err));
		is_int(rc, 0, "fit succeeds");
		is_int((long long)ns, 2, "two segments found");
		is_int(seg[0].lo, 0, "first starts at 0");
		is_int(seg[0].hi, 4096, "break at 4096");
		is_int(seg[1].hi, TRC_FIT_INF, "last ends at inf");
		is_num(seg[0].a, 2e-6, 1e-12, "a1");
		is_num(seg[0].b, 1e-9, 1e-15, "b1");
		is_num(seg[1].a, 10e-6, 1e-12, "a2");
		is_num(seg[1].b, 0.5e-9, 1e-15, "b2");
		is_num(st[0].r2, 1, 1e-9, "r2 exact");
		is_int((long long)st[0].npts, 8, "8 sizes below the break");

		/* One line: no cut. */
		for (k = 0; k < n; k++)
			y[k] = 3e-6 + 2e-9 * x[k];
		rc = trc_fit_pieces(x, y, n, 4, 3, 3.0, seg, st, &ns, err,
		    sizeof(err));
		is_int((long long)ns, 1, "a line stays one segment");
		y[3] = -1;
		rc = trc_fit_pieces(x, y, n, 4, 3, 3.0, seg, st, &ns, err,
		    sizeof(err));
		is_int(rc, -1, "a negative time is refused");
	}
	/*
	 * Three exact lines, breaks at the 10th and 22nd sizes (by
	 * construction): found, and each line's coefficients exactly.
	 */
	{
		double x[30], y[30];
		struct trc_fit_seg seg[4];
		struct trc_fit_stat st[4];
		size_t ns = 0, k;

		for (k = 0; k < 30; k++) {
			x[k] = 100.0 * (double)(k + 1);
			y[k] = k < 10 ? 1e-6 + 2e-9 * x[k] : k < 22 ?
			    9e-6 + 1e-9 * x[k] : 30e-6 + 0.25e-9 * x[k];
		}
		is_int(trc_fit_pieces(x, y, 30, 4, 3, 3.0, seg, st, &ns, err,
		    sizeof(err)), 0, "three lines: fit succeeds");
		is_int((long long)ns, 3, "three lines: three segments");
		is_int(seg[0].hi, 1100, "three lines: first break at 1100");
		is_int(seg[1].hi, 2300, "three lines: second at 2300");
		is_num(seg[1].a, 9e-6, 1e-12, "three lines: a2 = 9e-6");
		is_num(seg[2].b, 0.25e-9, 1e-16, "three lines: b3 = 0.25e-9");
	}
	/*
	 * Against the book (gsl_fit_wlinear on every segment): noisy
	 * piecewise data, twelve seeds, the same cuts and coefficients.
	 */
	{
		double x[40], y[40];
		struct trc_fit_seg seg[8];
		struct trc_fit_stat st[8];
		size_t ns, nr, cut[9], k, seed, same = 0, n = 40;
		unsigned long r;

		for (seed = 1; seed <= 12; seed++) {
			r = seed * 2654435761UL;
			for (k = 0; k < n; k++) {
				r = r * 6364136223846793005UL + 1442695040888963407UL;
				x[k] = 64.0 * (double)(k + 1) * (double)(k + 1);
				y[k] = (k < 13 ? 2e-6 + 1e-9 * x[k] : k < 27 ?
				    20e-6 + 0.3e-9 * x[k] : 5e-6 + 0.5e-9 * x[k]) *
				    (1 + 0.1 * ((double)(r >> 33) / 2147483648.0 - 0.5));
			}
			nr = reference(x, y, n, 6, 3, seed % 3 + 1.0, cut);
			if (trc_fit_pieces(x, y, n, 6, 3, seed % 3 + 1.0, seg, st,
			    &ns, err, sizeof(err)) < 0 || ns != nr)
				continue;
			for (k = 0; k < ns; k++) {
				if (seg[k].hi != (k + 1 == ns ? TRC_FIT_INF :
				    (int64_t)x[cut[k + 1]]))
					break;
			}
			same += k == ns;
		}
		is_int((long long)same, 12, "twelve noisy sets: the cuts of "
		    "the gsl_fit_wlinear reference");
	}
	/* Many sizes: quadratic, where cubic took minutes at 6000. */
	{
		size_t n = 6000, k, ns = 0;
		double *x = malloc(n * sizeof(*x)), *y = malloc(n * sizeof(*y));
		struct trc_fit_seg seg[4];
		struct trc_fit_stat st[4];

		for (k = 0; k < n; k++) {
			x[k] = (double)(k + 1) * 8;
			y[k] = x[k] < 24000 ? 2e-6 + 1e-9 * x[k] :
			    15e-6 + 0.5e-9 * x[k];
		}
		is_int(trc_fit_pieces(x, y, n, 4, 3, 3.0, seg, st, &ns, err,
		    sizeof(err)), 0, "6000 sizes: fit succeeds");
		ok(ns == 2 && seg[0].hi == 24000, "6000 sizes: the break at "
		    "24000");
		free(x);
		free(y);
	}
	{
		/* One line, 12 sizes: one segment, unless a cut (a protocol's
		 * switch) at 6000 ends one below it; a cut with fewer than 3
		 * sizes above it, or with room for one segment, is none. */
		double x[12], y[12];
		int64_t c6[] = { 6000 }, c11[] = { 11000 };
		struct trc_fit_seg seg[4];
		struct trc_fit_stat st[4];
		size_t ns = 0, k;

		for (k = 0; k < 12; k++) {
			x[k] = (double)(k + 1) * 1000;
			y[k] = 1e-6 + 1e-10 * x[k];
		}
		is_int(trc_fit_pieces_cut(x, y, 12, 4, 3, 3.0, NULL, 0, seg, st,
		    &ns, err, sizeof(err)), 0, "a line: fit succeeds");
		is_int((int)ns, 1, "  one segment");
		is_int(trc_fit_pieces_cut(x, y, 12, 4, 3, 3.0, c6, 1, seg, st,
		    &ns, err, sizeof(err)), 0, "a line cut at 6000");
		ok(ns == 2 && seg[0].hi == 6000 && seg[1].lo == 6000,
		    "  two segments, the break at the cut");
		ok(ns == 2 && fabs(seg[0].a - 1e-6) < 1e-12 &&
		    fabs(seg[1].b - 1e-10) < 1e-16, "  each the line");
		is_int(trc_fit_pieces_cut(x, y, 12, 4, 3, 3.0, c11, 1, seg, st,
		    &ns, err, sizeof(err)), 0, "a cut at 11000");
		is_int((int)ns, 1, "  two sizes above it: no cut");
		is_int(trc_fit_pieces_cut(x, y, 12, 1, 3, 3.0, c6, 1, seg, st,
		    &ns, err, sizeof(err)), 0, "a cut, one segment allowed");
		is_int((int)ns, 1, "  no cut");
	}
	{
		double v[] = { 5, 1, 100, 2, 3 };

		is_num(trc_fit_median(v, 5), 3, 0, "median of five");
		is_num(trc_fit_median(v, 4), 2.5, 0, "median of four");
	}
	{
		/* Sizes 8 (times 3, 1, 2: median 2), 0 (4, 6: 5), 64 (9). */
		struct trc_fit_meas m[] = { { 8, 3 }, { 0, 4 }, { 64, 9 },
		    { 8, 1 }, { 0, 6 }, { 8, 2 } };
		double x[6], y[6];

		is_int((long long)trc_fit_medians(m, 6, x, y), 3,
		    "medians: three sizes");
		ok(x[0] == 0 && x[1] == 8 && x[2] == 64, "medians: the sizes "
		    "in increasing order");
		ok(y[0] == 5 && y[1] == 2 && y[2] == 9, "medians: 5 (of two), "
		    "2 (of three), 9 (of one)");
	}
	{
		/*
		 * Size 8: 1 2 3 4 5 (q 0.75 at position 3 of 0..4: 4);
		 * size 16: 10 20 30 40 (position 2.25: 30 + 0.25 * 10);
		 * size 64: one time, 7, every quantile.  And a send that
		 * waits on every other repetition, 3 us or 21 us: its
		 * median flips with one more of either, its upper
		 * quartile does not.
		 */
		struct trc_fit_meas m[] = { { 16, 40 }, { 8, 5 }, { 8, 1 },
		    { 64, 7 }, { 16, 10 }, { 8, 4 }, { 16, 30 }, { 8, 2 },
		    { 8, 3 }, { 16, 20 } };
		struct trc_fit_meas w[] = { { 1, 3 }, { 1, 21 }, { 1, 3 },
		    { 1, 21 }, { 1, 3 }, { 1, 21 }, { 1, 3 } };
		struct trc_fit_meas v[] = { { 1, 21 }, { 1, 3 }, { 1, 21 },
		    { 1, 3 }, { 1, 21 }, { 1, 3 }, { 1, 21 } };
		double x[10], y[10];

		is_int((long long)trc_fit_quantiles(m, 10, 0.75, x, y), 3,
		    "quantiles: three sizes");
		ok(x[0] == 8 && y[0] == 4 && x[1] == 16 && y[1] == 32.5 &&
		    x[2] == 64 && y[2] == 7, "quantiles 0.75: 4, 32.5, 7");
		trc_fit_quantiles(m, 10, 0, x, y);
		ok(y[0] == 1 && y[1] == 10 && y[2] == 7,
		    "quantiles 0: the least of each size");
		trc_fit_quantiles(m, 10, 1, x, y);
		ok(y[0] == 5 && y[1] == 40 && y[2] == 7,
		    "quantiles 1: the greatest of each size");
		trc_fit_quantiles(w, 7, 0.5, x, y);
		is_num(y[0], 3, 0, "every other waits, 4 of 7 not: median 3");
		trc_fit_quantiles(w, 7, 0.75, x, y);
		is_num(y[0], 21, 0, "  its upper quartile 21");
		trc_fit_quantiles(v, 7, 0.5, x, y);
		is_num(y[0], 21, 0, "3 of 7 not: median 21");
		trc_fit_quantiles(v, 7, 0.75, x, y);
		is_num(y[0], 21, 0, "  its upper quartile 21 as well");
	}
	{
		double ax[] = { 0, 8, 64, 512 }, ay[] = { 1, 2, 3, 4 };
		double bx[] = { 8, 16, 512, 4096 }, by[] = { 5, 6, 7, 8 };
		double x[4], a[4], b[4];

		is_int((long long)trc_fit_common(ax, ay, 4, bx, by, 4, x, a,
		    b), 2, "common sizes: 8 and 512");
		ok(x[0] == 8 && a[0] == 2 && b[0] == 5 && x[1] == 512 &&
		    a[1] == 4 && b[1] == 7, "common sizes: each with both "
		    "medians");
		is_int((long long)trc_fit_common(ax, ay, 4, bx, by, 0, x, a,
		    b), 0, "common sizes: none with an empty side");
	}
	{
		struct trc_fit_seg seg[] = { { 0, 1024, 1.5e-6, 2e-10, 0 },
		    { 1024, TRC_FIT_INF, 0.25, 1e-9, 0 } };
		struct trc_fit_range r[] = { { 0, 64, 0 },
		    { 4096, TRC_FIT_INF, 0 } };
		char *buf = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&buf, &len);

		trc_fit_write_op(fp, "send", seg, 2);
		trc_fit_write_ranges(fp, "send-sync", r, 2);
		fclose(fp);
		is_str(buf, "send 0 1024 1.5e-06 2e-10\n"
		    "send 1024 inf 0.25 1e-09\n"
		    "send-sync 0 64\nsend-sync 4096 inf\n",
		    "written rows as trc-fit(5) has them");
		free(buf);
	}
	unlink(path);
	return done_testing();
}
