/*
 * trc-fit - fit a communication characterization (.fit file) from
 * benchmark measurements "OPERATION BYTES SECONDS".
 *
 * Repetitions of one size are reduced to their median, so that a few
 * slow outliers (an interrupt, a page fault) do not bend the line.
 * The breakpoints come from the data: trc_fit_pieces() tries every
 * segmentation between measured sizes and keeps the one the Bayesian
 * information criterion prefers.  send-late measurements (a send whose
 * receiver is late): against send's they mark the sizes whose sends
 * wait for the receiver, as send-sync lines, and at the others they are
 * fitted, the cost of a send whose receiver is away; not so
 * send-busy's (the receiver polling meanwhile), which mark those of
 * them that the receiver's progress takes, as send-progress lines.
 * Where those lines begin and end the protocol switches: no segment of
 * a point-to-point operation spans such a size.
 * The #load
 * and #cpu lines trc-pingpong writes say whether another job held the
 * cores while it measured: a warning, and with --strict no fit at all.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prog.h"
#include "trc.h"
#include "trc_disturb.h"

static const char usage_line[] =
    "trc-fit [-v] [--loggp] [--penalty penalty] [--points points] "
    "[--segments segments] [--strict] [file ...]";

/* Long options without a letter. */
enum { OPT_LOGGP = 256, OPT_PENALTY, OPT_POINTS, OPT_SEGMENTS, OPT_STRICT };

struct op {
	char			*name;
	struct trc_fit_meas	*m;
	size_t			 n, cap;
};

static struct op *ops;
static size_t nops;
static int disturbed;

static void
usage(int status)
{
	printf("usage: %s\n", usage_line);
	exit(status);
}

static struct op *
getop(const char *name)
{
	size_t i;

	for (i = 0; i < nops; i++)
		if (strcmp(ops[i].name, name) == 0)
			return &ops[i];
	ops = ereallocarray(ops, nops + 1, sizeof(*ops));
	memset(&ops[nops], 0, sizeof(ops[nops]));
	ops[nops].name = estrdup(name);
	return &ops[nops++];
}

/* One line "OPERATION BYTES SECONDS"; -1 with the error on the table. */
static int
measurement(struct trc_table *t, int64_t *bytes, double *sec)
{
	char **f = t->field, *end;

	if (t->nfield != 3)
		return trc_table_fail(t, "expected 'OPERATION BYTES SECONDS'");
	if (f[0][strspn(f[0], "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")] != '\0')
		return trc_table_fail(t, "invalid operation name '%s'", f[0]);
	if (trc_parse_int(f[1], strlen(f[1]), bytes) < 0 || *bytes < 0)
		return trc_table_fail(t, "invalid size '%s'", f[1]);
	*sec = strtod(f[2], &end);
	if (end == f[2] || *end != '\0' || !isfinite(*sec) || *sec <= 0)
		return trc_table_fail(t, "invalid time '%s'", f[2]);
	return 0;
}

/* A sign of disturbed measurements, said as a warning. */
static void
warn_disturbed(void *name, const char *sign)
{
	fprintf(stderr, "%s: warning: %s: the measurements look disturbed: "
	    "%s\n", trc_progname, (const char *)name, sign);
	disturbed++;
}

static void
readfile(const char *path)
{
	struct trc_runcond cond;
	struct trc_table *t;
	struct trc_str lines = { NULL, 0 };
	struct op *op;
	char *buf = NULL;
	size_t n, cap = 0;
	int64_t bytes;
	double sec = 0;
	int rc;

	if ((t = trc_table_open(path)) == NULL)
		die("out of memory");
	t->comments = 1;
	while ((rc = trc_table_next(t)) > 0) {
		if (t->comment != NULL) {
			/* The run's conditions, judged at the end. */
			if (strncmp(t->comment, "#load ", 6) != 0 &&
			    strncmp(t->comment, "#cpu ", 5) != 0)
				continue;
			n = strlen(t->comment);
			if (lines.len + n + 1 > cap) {
				cap = 2 * (lines.len + n + 1);
				buf = ereallocarray(buf, cap, 1);
			}
			memcpy(buf + lines.len, t->comment, n);
			buf[lines.len + n] = '\n';
			lines.len += n + 1;
			continue;
		}
		if (measurement(t, &bytes, &sec) < 0)
			die("%s", trc_table_error(t));
		op = getop(t->field[0]);
		if (op->n == op->cap) {
			op->cap = op->cap ? op->cap * 2 : 64;
			op->m = ereallocarray(op->m, op->cap, sizeof(*op->m));
		}
		op->m[op->n].bytes = bytes;
		op->m[op->n++].sec = sec;
	}
	if (rc < 0)
		die("%s", trc_table_error(t));
	lines.s = buf;
	if (trc_runcond_parse(&lines, &cond) < 0 ||
	    trc_runcond_busy(&cond, warn_disturbed, t->name) < 0)
		die("out of memory");
	trc_runcond_free(&cond);
	free(buf);
	trc_table_close(t);
}

/* The sizes of op in x[] and their times' quantile q in y[]; returns
 * how many. */
static size_t
quantiles(struct op *op, double q, double **xp, double **yp)
{
	*xp = ecalloc(op->n, sizeof(**xp));
	*yp = ecalloc(op->n, sizeof(**yp));
	return trc_fit_quantiles(op->m, op->n, q, *xp, *yp);
}

static size_t
medians(struct op *op, double **xp, double **yp)
{
	return quantiles(op, 0.5, xp, yp);
}

/*
 * The sizes whose sends wait for the receiver: those measured by both
 * send and send-late where send-late's upper quartile is more than
 * TRC_FIT_SYNC_RATIO times send's median and TRC_FIT_SYNC_MIN more; with
 * busy (send-busy), those measured by all three where, moreover,
 * send-busy's upper quartile is not.  A quartile, not the median: a
 * size whose sends wait on every other repetition (Open MPI's shared
 * memory from 384 bytes to 3 KiB, its fast box holding one message at
 * a time) waits, and its median flips from run to run.  Returns how
 * many ranges, in a new array *rp, and the sizes compared in *nsizes.
 */
static size_t
ranges(struct op *send, struct op *late, struct op *busy,
    struct trc_fit_range **rp, size_t *nsizes)
{
	double *sx, *sy, *lx, *ly, *bx, *by, *x, *a, *b, *x2, *a2, *c, *b2;
	size_t ns, nl, nb, n, nr;

	ns = medians(send, &sx, &sy);
	nl = quantiles(late, TRC_FIT_SYNC_QUANTILE, &lx, &ly);
	x = ecalloc(ns, sizeof(*x));
	a = ecalloc(ns, sizeof(*a));
	b = ecalloc(ns, sizeof(*b));
	n = trc_fit_common(sx, sy, ns, lx, ly, nl, x, a, b);
	if (n == 0)
		die("send-late: no size measured by send too");
	if (busy != NULL) {
		/* The sizes of all three, each op's medians at them. */
		nb = quantiles(busy, TRC_FIT_SYNC_QUANTILE, &bx, &by);
		x2 = ecalloc(n, sizeof(*x2));
		a2 = ecalloc(n, sizeof(*a2));
		b2 = ecalloc(n, sizeof(*b2));
		c = ecalloc(n, sizeof(*c));
		trc_fit_common(x, a, n, bx, by, nb, x2, a2, c);
		n = trc_fit_common(x, b, n, bx, by, nb, x2, b2, c);
		if (n == 0)
			die("send-busy: no size measured by send and "
			    "send-late too");
		*rp = ecalloc((n + 1) / 2, sizeof(**rp));
		nr = trc_fit_progress_ranges(x2, a2, b2, c, n, *rp);
		free(bx);
		free(by);
		free(x2);
		free(a2);
		free(b2);
		free(c);
	} else {
		*rp = ecalloc((n + 1) / 2, sizeof(**rp));
		nr = trc_fit_sync_ranges(x, a, b, n, *rp);
	}
	*nsizes = n;
	free(sx);
	free(sy);
	free(lx);
	free(ly);
	free(x);
	free(a);
	free(b);
	return nr;
}

/*
 * The sizes whose sends wait (send-sync, [0]) and of those the ones a
 * polling receiver takes (send-progress, [1]), as ranges() gives them:
 * computed once, for the cuts of the fits and for the lines.
 */
struct protocol {
	struct trc_fit_range	*r[2];
	size_t			 nr[2], n[2];
	int			 have[2];
};

/* The send-sync lines ([0]), or the send-progress lines ([1]). */
static void
syncranges(const struct protocol *pr, int busy, int verbose)
{
	const char *name = busy ? "send-progress" : "send-sync";
	const struct trc_fit_range *r = pr->r[busy];
	size_t n = pr->n[busy], nr = pr->nr[busy], k;
	char lo[32], hi[32];

	if (busy)
		printf("# send-progress: of those, sizes whose blocking sends "
		    "end once the receiver is in any MPI call that waits "
		    "(send-busy's upper quartile not over %g times send's "
		    "median and %g s more, %zu sizes): %zu range%s\n",
		    TRC_FIT_SYNC_RATIO, TRC_FIT_SYNC_MIN, n, nr,
		    nr == 1 ? "" : "s");
	else
		printf("# send-sync: sizes whose blocking sends wait for the "
		    "receiver (send-late's upper quartile over %g times "
		    "send's median and %g s more, %zu sizes): %zu range%s\n",
		    TRC_FIT_SYNC_RATIO, TRC_FIT_SYNC_MIN, n, nr,
		    nr == 1 ? "" : "s");
	trc_fit_write_ranges(stdout, name, r, nr);
	for (k = 0; verbose && k < nr; k++) {
		trc_fit_fmt_size(lo, sizeof(lo), r[k].lo);
		trc_fit_fmt_size(hi, sizeof(hi), r[k].hi);
		fprintf(stderr, "%s: %s [%s, %s)\n", trc_progname, name, lo,
		    hi);
	}
}

static struct op *
findop(const char *name)
{
	size_t i;

	for (i = 0; i < nops; i++)
		if (strcmp(ops[i].name, name) == 0)
			return &ops[i];
	return NULL;
}

/*
 * occ, a collective's cold overhead: the median over the OCC_SIZES
 * smallest sizes both measured of OP-cold's median less OP's (0 when
 * less), so that one size measured astray (a cold allreduce of 1 byte
 * at 0.6 us among 9.6 us ones, once) does not decide it.  1 when both
 * are measured, else 0.
 */
#define OCC_SIZES	5
static int
cold_coll(const char *name)
{
	struct op *warm, *cold;
	char cname[32];
	double *wx, *wy, *cx, *cy, *x, *a, *b, d[OCC_SIZES], t;
	size_t nw, nc, n, m;

	snprintf(cname, sizeof(cname), "%s-cold", name);
	if ((warm = findop(name)) == NULL || (cold = findop(cname)) == NULL)
		return 0;
	nw = medians(warm, &wx, &wy);
	nc = medians(cold, &cx, &cy);
	x = ecalloc(nw, sizeof(*x));
	a = ecalloc(nw, sizeof(*a));
	b = ecalloc(nw, sizeof(*b));
	if ((n = trc_fit_common(wx, wy, nw, cx, cy, nc, x, a, b)) == 0)
		die("%s: no size measured by %s too", cname, name);
	for (m = 0; m < n && m < OCC_SIZES; m++)
		d[m] = b[m] - a[m];
	t = trc_fit_median(d, m);
	printf("# occ: %s less %s, the median over %zu sizes from %lld "
	    "bytes\n", cname, name, m, (long long)x[0]);
	printf("occ %.9g\n", t > 0 ? t : 0);
	free(wx);
	free(wy);
	free(cx);
	free(cy);
	free(x);
	free(a);
	free(b);
	return 1;
}

/*
 * --loggp: LogGP parameters (trc-loggp(5)) from recv, isend and, for
 * the eager limit, the sizes whose sends wait for the receiver: every
 * size from the first of a range that runs to the largest is taken as
 * handed over by a rendezvous; oc from isend-cold, occ from
 * allreduce-cold (else barrier-cold), when measured.
 */
static void
loggp(int verbose)
{
	struct trc_loggp_fit p;
	struct trc_fit_range *r;
	struct op *recv, *isend, *send, *late, *cold;
	double *x, *y, *ix, *iy, *cx, *cy;
	int64_t eager = TRC_FIT_INF;
	size_t n, nr, ns;
	char err[256], buf[32];

	if ((recv = findop("recv")) == NULL)
		die("--loggp needs recv measurements");
	if ((isend = findop("isend")) == NULL)
		die("--loggp needs isend measurements");
	send = findop("send");
	late = findop("send-late");
	if (late != NULL && send == NULL)
		die("send-late needs send measurements");
	if (late != NULL) {
		nr = ranges(send, late, NULL, &r, &ns);
		if (nr > 0 && r[nr - 1].hi == TRC_FIT_INF)
			eager = r[nr - 1].lo > 0 ? r[nr - 1].lo - 1 : 0;
		free(r);
	}
	n = medians(recv, &x, &y);
	medians(isend, &ix, &iy);
	if (trc_loggp_fit(x, y, n, iy[0], eager, &p, err, sizeof(err)) < 0)
		die("%s", err);
	trc_fit_fmt_size(buf, sizeof(buf), p.eager);
	printf("# trc-fit --loggp: LogGP parameters from recv (%zu sizes up "
	    "to the eager limit, %zu beyond) and isend of %lld bytes\n",
	    p.neager, p.nrdv, (long long)ix[0]);
	printf("L %.9g\no %.9g\nG %.9g\neager %s\n", p.L, p.o, p.G, buf);
	if (p.nrdv >= 2)
		printf("R %.9g\n", p.R);
	else
		printf("# R: fewer than 2 sizes beyond the eager limit\n");
	if ((cold = findop("isend-cold")) != NULL) {
		medians(cold, &cx, &cy);
		printf("# oc: isend-cold less isend of %lld bytes\n",
		    (long long)ix[0]);
		if (cx[0] != ix[0])
			die("isend-cold's smallest size is not isend's");
		printf("oc %.9g\n", cy[0] > iy[0] ? cy[0] - iy[0] : 0);
		free(cx);
		free(cy);
	}
	if (!cold_coll("allreduce"))
		cold_coll("barrier");
	printf("# g: not measured by trc-pingpong\n");
	if (verbose)
		fprintf(stderr, "%s: L %.3g s, o %.3g s, G %.3g s/byte, "
		    "eager %s, R %.3g s\n", trc_progname, p.L, p.o, p.G, buf,
		    p.R);
	free(x);
	free(y);
	free(ix);
	free(iy);
}

static int
bysize(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The sizes where the protocol switches, ascending: where the
 * send-sync and send-progress ranges begin and end (the same size
 * twice, or 0, trc_fit_pieces_cut passes over).  Returns how many, in
 * a new array *cp.
 */
static size_t
switches(const struct protocol *pr, int64_t **cp)
{
	size_t k, nc = 0;
	int i;

	*cp = ecalloc(2 * (pr->nr[0] + pr->nr[1]) + 1, sizeof(**cp));
	for (i = 0; i < 2; i++)
		for (k = 0; k < pr->nr[i]; k++) {
			(*cp)[nc++] = pr->r[i][k].lo;
			if (pr->r[i][k].hi != TRC_FIT_INF)
				(*cp)[nc++] = pr->r[i][k].hi;
		}
	qsort(*cp, nc, sizeof(**cp), bysize);
	return nc;
}

/* An operation whose cost the protocol's switch changes: a
 * point-to-point one (trc-pingpong's), warm or cold. */
static int
p2p(const char *name)
{
	static const char *const p[] = { "send", "recv", "recv-late",
	    "isend", "exchange", "exchange-wait", "send-late" };
	size_t k, len = strlen(name);

	if (len > 5 && strcmp(name + len - 5, "-cold") == 0)
		len -= 5;
	for (k = 0; k < sizeof(p) / sizeof(p[0]); k++)
		if (strlen(p[k]) == len && strncmp(p[k], name, len) == 0)
			return 1;
	return 0;
}

/*
 * Fit op's medians, but those at sizes in the nskip ranges skip[]; with
 * none left, nothing.
 */
static void
fitop(struct op *op, int maxseg, int minpts, double penalty,
    const int64_t *cuts, size_t ncut, const struct trc_fit_range *skip,
    size_t nskip, int verbose)
{
	struct trc_fit_seg *seg;
	struct trc_fit_stat *st;
	double *x, *y;
	size_t n, nseg, i, j, k;
	char err[256], lo[32], hi[32];

	n = medians(op, &x, &y);
	for (i = j = 0; i < n; i++) {
		for (k = 0; k < nskip && !((double)skip[k].lo <= x[i] &&
		    x[i] < (double)skip[k].hi); k++)
			;
		if (k == nskip) {
			x[j] = x[i];
			y[j++] = y[i];
		}
	}
	if ((n = j) == 0) {
		free(x);
		free(y);
		return;
	}
	seg = ecalloc((size_t)maxseg, sizeof(*seg));
	st = ecalloc((size_t)maxseg, sizeof(*st));
	if (!p2p(op->name))
		ncut = 0;
	if (trc_fit_pieces_cut(x, y, n, maxseg, minpts, penalty, cuts, ncut,
	    seg, st, &nseg, err, sizeof(err)) < 0)
		die("%s: %s", op->name, err);
	printf("# %s: %zu measurements, %zu sizes%s, %zu segment%s\n",
	    op->name, op->n, n, nskip > 0 ? " outside send-sync" : "", nseg,
	    nseg == 1 ? "" : "s");
	for (k = 0; k < nseg; k++) {
		trc_fit_fmt_size(lo, sizeof(lo), seg[k].lo);
		trc_fit_fmt_size(hi, sizeof(hi), seg[k].hi);
		printf("# %s %s %s: %zu sizes, r2 %.6f, relative rms %.4g\n",
		    op->name, lo, hi, st[k].npts, st[k].r2, st[k].rrms);
		if (verbose)
			fprintf(stderr, "%s: %s [%s, %s): %zu sizes, r2 %.6f, "
			    "relative rms %.4g\n", trc_progname, op->name, lo,
			    hi, st[k].npts, st[k].r2, st[k].rrms);
	}
	trc_fit_write_op(stdout, op->name, seg, nseg);
	free(x);
	free(y);
	free(seg);
	free(st);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "loggp", no_argument, NULL, OPT_LOGGP },
		{ "penalty", required_argument, NULL, OPT_PENALTY },
		{ "points", required_argument, NULL, OPT_POINTS },
		{ "segments", required_argument, NULL, OPT_SEGMENTS },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 }
	};
	double penalty = 3;
	int c, maxseg = 4, minpts = 3, verbose = 0, lgp = 0, strict = 0;
	struct protocol pr;
	int64_t *cuts;
	size_t i, ncut;

	trc_std_options(argc, argv, usage);
	while ((c = getopt_long(argc, argv, "hv", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(0);
			break;
		case OPT_SEGMENTS:
			maxseg = (int)estrtonum(optarg, 1, 16, "segment count");
			break;
		case OPT_POINTS:
			minpts = (int)estrtonum(optarg, 2, 1000, "point count");
			break;
		case OPT_PENALTY:
			penalty = estrtod(optarg, "penalty");
			if (penalty < 0)
				die("invalid penalty '%s'", optarg);
			break;
		case 'v':
			verbose = 1;
			break;
		case OPT_LOGGP:
			lgp = 1;
			break;
		case OPT_STRICT:
			strict = 1;
			break;
		default:
			usage_error(usage_line);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		readfile("-");
	for (; argc > 0; argc--, argv++)
		readfile(*argv);
	if (nops == 0)
		die("no measurements");
	if (disturbed > 0 && strict) {
		fprintf(stderr, "%s: nothing written: a fit of disturbed "
		    "measurements measures the disturbance (--strict)\n",
		    trc_progname);
		return 2;
	}
	if (lgp) {
		loggp(verbose);
		fshut_stdout();
		return 0;
	}
	printf("# trc-fit: OP LO HI A B, t = A + B * bytes seconds "
	    "for LO <= bytes < HI\n");
	/* The protocol first: its switches cut the fits. */
	memset(&pr, 0, sizeof(pr));
	for (i = 0; i < 2 && findop("send") != NULL &&
	    findop("send-late") != NULL; i++)
		if ((pr.have[i] = i == 0 || findop("send-busy") != NULL))
			pr.nr[i] = ranges(findop("send"), findop("send-late"),
			    i ? findop("send-busy") : NULL, &pr.r[i], &pr.n[i]);
	ncut = switches(&pr, &cuts);
	for (i = 0; i < nops; i++)
		if (strcmp(ops[i].name, "send-late") != 0 &&
		    strcmp(ops[i].name, "send-busy") != 0)
			fitop(&ops[i], maxseg, minpts, penalty, cuts, ncut,
			    NULL, 0, verbose);
	/* A send whose receiver is away, at the sizes that do not wait. */
	if (pr.have[0])
		fitop(findop("send-late"), maxseg, minpts, penalty, cuts, ncut,
		    pr.r[0], pr.nr[0], verbose);
	free(cuts);
	if (findop("send-busy") != NULL && findop("send-late") == NULL)
		die("send-busy needs send-late measurements");
	if (findop("send-late") != NULL && findop("send") == NULL)
		die("send-late needs send measurements");
	for (i = 0; i < 2; i++)
		if (pr.have[i])
			syncranges(&pr, (int)i, verbose);
	free(pr.r[0]);
	free(pr.r[1]);
	fshut_stdout();
	return 0;
}
