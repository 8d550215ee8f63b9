/*
 * trc-effects - effects and allocation of variation of a two-level
 * design's responses, and the stability verdict.
 *
 * The input is the run table of trc-design -t with response columns
 * appended.  The design (full or fractional, and its alias chains) is
 * recovered from the factor levels themselves, so any regular
 * two-level table will do, in any run order, with replications.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

#include "trc.h"

static const char usage_line[] =
    "trc-effects [--confidence confidence] [--distance column] "
    "[--factors factors] [--force] [file]";

/* Long options without a letter. */
enum { OPT_CONFIDENCE = 256, OPT_DISTANCE, OPT_FACTORS, OPT_FORCE };

enum { COL_ID, COL_FACTOR, COL_RESPONSE, COL_CHOICE, COL_FIRED, COL_LIMIT };

struct col {
	char	*name;
	int	 kind;
	int	 factor;	/* letter index, for COL_FACTOR */
	int	 resp;		/* response index, for COL_RESPONSE */
};

/* A run's first differing choice point, from the choice column. */
struct place {
	char	*text;		/* "RANK:CALL:FILE:LINE", NULL for "-" */
	long	 rank, line;
	char	*buf;	/* text split: */
	char	*call, *where;	/* "CALL", "FILE:LINE" */
};

static struct col *cols;
static int ncols, nresp, p, have_choice, have_fired, have_limit;
static uint32_t *pts;		/* per run */
static double *resp;		/* per run, nresp each */
static struct place *places;	/* per run, with a choice column */
static char **runids;		/* per run: the run column, or the row */
static char *outside;		/* per run: std 0, a repeat of the baseline */
static long long *fired;	/* per run, per factor: delays made, -1 unknown */
static char *limited;		/* per run: stopped by its time limit */
static long nruns;		/* in the design */
static long nextra;		/* after them: repeats of the baseline */
static char *fname;

static void
usage(int status)
{
	printf("usage: %s\n", usage_line);
	exit(status);
}

static void
header(char **fv, int n, long lineno)
{
	int i, j, f;
	uint32_t seen = 0;

	cols = ecalloc(n, sizeof cols[0]);
	ncols = n;
	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			if (strcmp(cols[j].name, fv[i]) == 0)
				die("%s:%ld: duplicate column '%s'", fname,
				    lineno, fv[i]);
		cols[i].name = estrdup(fv[i]);
		f = fv[i][1] == '\0' ? trc_letter_factor(
		    (unsigned char)fv[i][0]) : -1;
		if (strcmp(fv[i], "run") == 0 || strcmp(fv[i], "std") == 0)
			cols[i].kind = COL_ID;
		else if (strcmp(fv[i], "choice") == 0) {
			cols[i].kind = COL_CHOICE;
			have_choice = 1;
		} else if (strcmp(fv[i], "fired") == 0) {
			cols[i].kind = COL_FIRED;
			have_fired = 1;
		} else if (strcmp(fv[i], "limit") == 0) {
			cols[i].kind = COL_LIMIT;
			have_limit = 1;
		}
		else if (f >= 0) {
			cols[i].kind = COL_FACTOR;
			cols[i].factor = f;
			seen |= UINT32_C(1) << f;
			if (f + 1 > p)
				p = f + 1;
		} else {
			cols[i].kind = COL_RESPONSE;
			cols[i].resp = nresp++;
		}
	}
	if (p == 0)
		die("%s:%ld: no factor columns (A, B, ...)", fname, lineno);
	for (f = 0; f < p; f++)
		if (!(seen & (UINT32_C(1) << f)))
			die("%s:%ld: no column for factor '%c'", fname, lineno,
			    trc_factor_letter(f));
	if (nresp == 0)
		die("%s:%ld: no response columns", fname, lineno);
}

/* "RANK:CALL:FILE:LINE" into pl; 0, or -1 when it is not one. */
static int
place_parse(const char *s, struct place *pl)
{
	char *t, *c, *w, *l, *end;

	memset(pl, 0, sizeof *pl);
	if (strcmp(s, "-") == 0)
		return 0;
	t = estrdup(s);
	c = strchr(t, ':');
	w = c != NULL ? strchr(c + 1, ':') : NULL;
	l = w != NULL ? strrchr(w + 1, ':') : NULL;
	if (l == NULL || c == t || w == c + 1 || l == w + 1)
		goto bad;
	*c++ = '\0';
	*w++ = '\0';
	errno = 0;
	pl->rank = strtol(t, &end, 10);
	if (*end != '\0' || errno != 0 || pl->rank < 0 || *t == '-' ||
	    *t == '+')
		goto bad;
	pl->line = strtol(l + 1, &end, 10);
	if (*end != '\0' || errno != 0 || pl->line <= 0 || l[1] == '-' ||
	    l[1] == '+')
		goto bad;
	pl->buf = t;
	pl->call = c;
	pl->where = w;
	pl->text = estrdup(s);
	return 0;
bad:
	free(t);
	return -1;
}

/*
 * The fired column of a run whose factors x are high: "-" (none high),
 * "?" (not known), or the delays each high factor made, in letter
 * order, as "12,0".  Returns 0, or -1 when it is not one of those.
 */
static int
fired_parse(const char *s, uint32_t x, long long *v)
{
	char *end;
	int f;

	for (f = 0; f < TRC_MAXFACTORS; f++)
		v[f] = -1;
	if (strcmp(s, "?") == 0)
		return 0;
	if (strcmp(s, "-") == 0)
		return x == 0 ? 0 : -1;
	for (f = 0; f < p; f++) {
		if (!(x & (UINT32_C(1) << f)))
			continue;
		if (*s < '0' || *s > '9')
			return -1;
		errno = 0;
		v[f] = strtoll(s, &end, 10);
		if (errno != 0)
			return -1;
		s = end;
		if (*s == ',' && (x >> f) > 1)
			s++;
	}
	return *s == '\0' && x != 0 ? 0 : -1;
}

static void
row(char **fv, int n, long lineno)
{
	static long cap;
	uint32_t x = 0;
	double *y;
	char *end, buf[32];
	const char *fs = NULL;
	int i;

	if (n != ncols)
		die("%s:%ld: expected %d fields, found %d", fname, lineno,
		    ncols, n);
	if (nruns == cap) {
		cap = cap ? cap * 2 : 64;
		pts = ereallocarray(pts, cap, sizeof pts[0]);
		resp = ereallocarray(resp, cap, nresp * sizeof resp[0]);
		places = ereallocarray(places, cap, sizeof places[0]);
		runids = ereallocarray(runids, cap, sizeof runids[0]);
		outside = ereallocarray(outside, cap, sizeof outside[0]);
		fired = ereallocarray(fired, cap, TRC_MAXFACTORS *
		    sizeof fired[0]);
		limited = ereallocarray(limited, cap, sizeof limited[0]);
	}
	outside[nruns] = 0;
	limited[nruns] = 0;
	y = resp + nruns * nresp;
	memset(&places[nruns], 0, sizeof places[0]);
	snprintf(buf, sizeof buf, "%ld", nruns + 1);
	runids[nruns] = estrdup(buf);
	for (i = 0; i < n; i++) {
		const char *s = fv[i];

		switch (cols[i].kind) {
		case COL_ID:
			if (strcmp(cols[i].name, "run") == 0) {
				free(runids[nruns]);
				runids[nruns] = estrdup(s);
			} else
				outside[nruns] = strcmp(s, "0") == 0;
			break;
		case COL_CHOICE:
			if (place_parse(s, &places[nruns]) == -1)
				die("%s:%ld: invalid choice point '%s' in column "
				    "'%s'", fname, lineno, s, cols[i].name);
			break;
		case COL_FIRED:
			fs = s;
			break;
		case COL_LIMIT:
			if (strcmp(s, "0") != 0 && strcmp(s, "1") != 0)
				die("%s:%ld: invalid limit '%s' in column '%s' "
				    "(want 0 or 1)", fname, lineno, s,
				    cols[i].name);
			limited[nruns] = s[0] == '1';
			break;
		case COL_FACTOR:
			if (strcmp(s, "+1") == 0 || strcmp(s, "1") == 0 ||
			    strcmp(s, "+") == 0)
				x |= UINT32_C(1) << cols[i].factor;
			else if (strcmp(s, "-1") != 0 && strcmp(s, "-") != 0)
				die("%s:%ld: invalid level '%s' in column "
				    "'%s'", fname, lineno, s, cols[i].name);
			break;
		case COL_RESPONSE:
			errno = 0;
			y[cols[i].resp] = strtod(s, &end);
			if (*end != '\0' || errno == ERANGE ||
			    !isfinite(y[cols[i].resp]))
				die("%s:%ld: invalid number '%s' in column "
				    "'%s'", fname, lineno, s, cols[i].name);
			break;
		}
	}
	if (outside[nruns] && x != 0)
		die("%s:%ld: a run outside the design (std 0) with a factor "
		    "high", fname, lineno);
	if (fired_parse(fs != NULL ? fs : "?", x, fired + nruns *
	    TRC_MAXFACTORS) == -1)
		die("%s:%ld: invalid count '%s' in column 'fired' (want - "
		    "with no factor high, ?, or a count per factor high)",
		    fname, lineno, fs);
	pts[nruns++] = x;
}

static void
readall(const char *path)
{
	struct trc_table *t;
	int rc, have_header = 0;

	if ((t = trc_table_open(path)) == NULL)
		die("out of memory");
	fname = estrdup(t->name);
	while ((rc = trc_table_next(t)) > 0)
		if (!have_header) {
			header(t->field, t->nfield, t->lineno);
			have_header = 1;
		} else
			row(t->field, t->nfield, t->lineno);
	if (rc < 0)
		die("%s", trc_table_error(t));
	if (!have_header)
		die("%s: no header row", fname);
	if (nruns == 0)
		die("%s: no runs", fname);
	trc_table_close(t);
}

static const char *
num(char *buf, double v)
{
	snprintf(buf, 32, "%.8g", v);
	return buf;
}

static const char *
pct(char *buf, double ss, double sst)
{
	if (sst > 0)
		snprintf(buf, 32, "%.2f", 100 * ss / sst);
	else
		snprintf(buf, 32, "-");
	return buf;
}

/* Names of the factors of a word, from the factor file. */
static void
names(const struct trc_factors *fs, uint32_t w, const char *sep)
{
	int j, first = 1;

	for (j = 0; j < p; j++)
		if (w & (UINT32_C(1) << j)) {
			printf("%s%s", first ? "\t" : sep, fs->v[j].name);
			first = 0;
		}
}

struct rank {
	long	 i;
	double	 ss;
};

static int
by_ss(const void *a, const void *b)
{
	const struct rank *x = a, *y = b;

	if (x->ss != y->ss)
		return x->ss > y->ss ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * Runs outside the design (std 0), without delay: repeats of the
 * baseline that a design without that point (a fraction such as C=AB)
 * needs, as trc-experiment adds them.  Moved after the design's runs,
 * each set in its order.
 */
static void
apart(void)
{
	uint32_t *p2 = ereallocarray(NULL, nruns, sizeof p2[0]);
	struct place *pl2 = ereallocarray(NULL, nruns, sizeof pl2[0]);
	char **id2 = ereallocarray(NULL, nruns, sizeof id2[0]);
	double *r2 = ereallocarray(NULL, nruns, nresp * sizeof r2[0]);
	long long *f2 = ereallocarray(NULL, nruns, TRC_MAXFACTORS *
	    sizeof f2[0]);
	char *l2 = ereallocarray(NULL, nruns, sizeof l2[0]);
	long i, k, n = 0;
	int pass;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < nruns; i++) {
			if (outside[i] != pass)
				continue;
			p2[n] = pts[i];
			pl2[n] = places[i];
			id2[n] = runids[i];
			l2[n] = limited[i];
			memcpy(f2 + n * TRC_MAXFACTORS, fired + i *
			    TRC_MAXFACTORS, TRC_MAXFACTORS * sizeof f2[0]);
			for (k = 0; k < nresp; k++)
				r2[n * nresp + k] = resp[i * nresp + k];
			nextra += pass;
			n++;
		}
	memcpy(pts, p2, nruns * sizeof p2[0]);
	memcpy(places, pl2, nruns * sizeof pl2[0]);
	memcpy(runids, id2, nruns * sizeof id2[0]);
	memcpy(resp, r2, nruns * nresp * sizeof r2[0]);
	memcpy(fired, f2, nruns * TRC_MAXFACTORS * sizeof f2[0]);
	memcpy(limited, l2, nruns * sizeof l2[0]);
	nruns -= nextra;
	free(f2);
	free(l2);
	free(p2);
	free(pl2);
	free(id2);
	free(r2);
}

/*
 * Where the runs that differ (distance not 0; only those without
 * delay when base) first differ from the baseline: the earliest of
 * their first differing choice points, and the runs that share it.
 */
static void
where(int dresp, int base)
{
	const struct place *best = NULL;
	long i, n = 0, ntot = nruns + nextra;

	for (i = 0; i < ntot; i++) {
		const struct place *pl = &places[i];

		if (resp[i * nresp + dresp] == 0 || (base && pts[i] != 0) ||
		    pl->text == NULL)
			continue;
		if (best == NULL || pl->line < best->line ||
		    (pl->line == best->line && strcmp(pl->text,
		    best->text) < 0))
			best = pl;
	}
	printf("first differing choice point: ");
	if (best == NULL) {
		printf("none\n");
		return;
	}
	printf("rank %ld %s %s (run", best->rank, best->call, best->where);
	for (i = 0; i < ntot; i++)
		if (places[i].text != NULL && strcmp(places[i].text,
		    best->text) == 0 && resp[i * nresp + dresp] != 0 &&
		    (!base || pts[i] == 0))
			n++;
	printf("%s", n > 1 ? "s" : "");
	for (i = 0; i < ntot; i++)
		if (places[i].text != NULL && strcmp(places[i].text,
		    best->text) == 0 && resp[i * nresp + dresp] != 0 &&
		    (!base || pts[i] == 0))
			printf(" %s", runids[i]);
	printf(")\n");
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "confidence", required_argument, NULL, OPT_CONFIDENCE },
		{ "distance", required_argument, NULL, OPT_DISTANCE },
		{ "factors", required_argument, NULL, OPT_FACTORS },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ NULL, 0, NULL, 0 }
	};
	struct trc_factors fs = { 0 };
	struct trc_design d;
	struct trc_effects *ef;
	struct trc_chain ch;
	struct rank *rk;
	char err[512], b1[32], b2[32], b3[32], b4[32], *cbuf;
	const char *dcol = "distance", *ffile = NULL;
	double conf = 90, t = 0, *y, *psum;
	long m, r, i, j, *cnt, *fill, nrk;
	size_t clen;
	int c, k, dresp = -1, unstable = 0, force = 0;
	uint32_t never = 0;

	trc_std_options(argc, argv, usage);
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_CONFIDENCE:
			conf = estrtod(optarg, "confidence");
			if (!(conf > 0 && conf < 100))
				die("invalid confidence '%s' (want a "
				    "percentage between 0 and 100)", optarg);
			break;
		case OPT_DISTANCE:
			dcol = optarg;
			break;
		case OPT_FACTORS:
			ffile = optarg;
			break;
		case OPT_FORCE:
			force = 1;
			break;
		default:
			usage_error(usage_line);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage_error(usage_line);
	gsl_set_error_handler_off();
	if (ffile != NULL && trc_factors_read(ffile, &fs, err,
	    sizeof err) == -1)
		die("%s", err);

	readall(argc > 0 ? argv[0] : "-");
	if (ffile != NULL && fs.n != p)
		die("%s: %d factors, but %s has %d", ffile, fs.n, fname, p);
	for (k = 0; k < ncols; k++)
		if (cols[k].kind == COL_RESPONSE &&
		    strcmp(cols[k].name, dcol) == 0)
			dresp = cols[k].resp;

	apart();
	if (nruns == 0)
		die("%s: no runs in the design, only runs outside it (std 0)",
		    fname);
	if (trc_design_from_points(&d, p, pts, nruns, err, sizeof err) == -1)
		die("%s: %s", fname, err);
	m = trc_design_runs(&d);
	cnt = ecalloc(m, sizeof cnt[0]);
	for (i = 0; i < nruns; i++)
		cnt[trc_design_index(&d, pts[i])]++;
	r = cnt[0];
	for (i = 1; i < m; i++)
		if (cnt[i] != r)
			die("%s: unbalanced replication: %ld runs at point 1, "
			    "%ld at point %ld", fname, r, cnt[i], i + 1);
	if (r > 1) {
		t = gsl_cdf_tdist_Pinv(0.5 + conf / 200, (double)m * (r - 1));
		if (!isfinite(t))
			die("no t quantile for %g%% confidence", conf);
	}

	/* Alias chains, named by their first word, made when needed. */
	ch.word = ereallocarray(NULL, d.ndef, sizeof ch.word[0]);
	ch.sign = emalloc(d.ndef);
	clen = (size_t)d.ndef * (TRC_MAXFACTORS + 4) + 1;
	cbuf = emalloc(clen);

	/* Each response: y in standard order, replications together. */
	ef = ecalloc(nresp, sizeof ef[0]);
	y = ereallocarray(NULL, nruns, sizeof y[0]);
	fill = ecalloc(m, sizeof fill[0]);
	printf("design: 2^");
	if (d.k > 0)
		printf("(%d-%d)", p, d.k);
	else
		printf("%d", p);
	printf(", %ld points, %ld replication%s, resolution %s\n", m, r,
	    r > 1 ? "s" : "", trc_roman(trc_design_resolution(&d), b1,
	    sizeof b1));
	if (nextra > 0)
		printf("# %ld run%s without delay, outside the design: "
		    "repeats of the baseline\n", nextra, nextra > 1 ? "s" : "");
	for (k = 0; k < ncols; k++) {
		struct trc_effects *e;
		int ri = cols[k].resp;

		if (cols[k].kind != COL_RESPONSE)
			continue;
		e = &ef[ri];
		memset(fill, 0, m * sizeof fill[0]);
		for (i = 0; i < nruns; i++) {
			long x = trc_design_index(&d, pts[i]);

			y[x * r + fill[x]++] = resp[i * nresp + ri];
		}
		if (trc_effects_compute(&d, r, y, e, err, sizeof err) == -1)
			die("%s", err);
		printf("\nresponse: %s\n", cols[k].name);
		if (r > 1)
			printf("effect\testimate\tci_low\tci_high\tsum_sq\t"
			    "percent\taliases\n");
		else
			printf("effect\testimate\tsum_sq\tpercent\taliases\n");
		for (i = 0; i < m; i++) {
			trc_design_chain(&d, i, &ch);
			printf("%s\t%s", i ? trc_word_format(ch.word[0],
			    b1) : "mean", num(b2, e->q[i]));
			if (r > 1)
				printf("\t%s\t%s", num(b3, e->q[i] - t * e->sq),
				    num(b4, e->q[i] + t * e->sq));
			if (i == 0)
				printf("\t-\t-");
			else
				printf("\t%s\t%s", num(b3, e->ss[i]),
				    pct(b4, e->ss[i], e->sst));
			printf("\t%s\n", trc_chain_format(&ch, cbuf, clen));
		}
		if (r > 1)
			printf("error\t-\t-\t-\t%s\t%s\t-\n", num(b3, e->sse),
			    pct(b4, e->sse, e->sst));
		printf("total\t-\t%s%s\t%s\t-\n", r > 1 ? "-\t-\t" : "",
		    num(b3, e->sst), e->sst > 0 ? "100.00" : "-");
		if (r > 1)
			printf("# s_e = %s with %ld degrees of freedom, s_q = "
			    "%s, %g%% confidence intervals\n", num(b1, e->se),
			    e->df, num(b2, e->sq), conf);
	}

	/*
	 * The delays each factor made in the runs where it is high: one
	 * that made none was never tested, whatever its effects say.
	 */
	if (have_fired) {
		printf("\ndelays made (factor, runs at its high level, "
		    "delays):\n");
		for (k = 0; k < p; k++) {
			long nhigh = 0, nknown = 0;
			long long sum = 0, v;

			for (i = 0; i < nruns; i++) {
				if (!(pts[i] & (UINT32_C(1) << k)))
					continue;
				nhigh++;
				if ((v = fired[i * TRC_MAXFACTORS + k]) >= 0) {
					nknown++;
					sum += v;
				}
			}
			printf("\t%c\t%ld\t", trc_factor_letter(k), nhigh);
			if (nknown == 0)
				printf("?");
			else
				printf("%lld%s", sum, nknown < nhigh ? "+?" : "");
			if (ffile != NULL)
				printf("\t%s", fs.v[k].name);
			putchar('\n');
			if (nknown == nhigh && nhigh > 0 && sum == 0)
				never |= UINT32_C(1) << k;
		}
	}
	if (have_limit) {
		long nlim = 0;

		for (i = 0; i < nruns + nextra; i++)
			nlim += limited[i];
		if (nlim > 0) {
			printf("\nruns stopped by their time limit, never "
			    "stable:");
			for (i = 0; i < nruns + nextra; i++)
				if (limited[i])
					printf(" %s", runids[i]);
			putchar('\n');
		}
	}

	/*
	 * The verdict: stable when no run's graph differs from the
	 * baseline.  When runs without delay, repeats of the baseline,
	 * differ, the program is unstable by itself and the effects are
	 * noise: no ranking.  Else the effects on the distance that are
	 * not zero, largest share of its variation first.
	 */
	if (dresp >= 0) {
		struct trc_effects *e = &ef[dresp];
		long nbase = 0, nbdiff = 0;

		for (i = 0; i < nruns + nextra; i++) {
			int differs = resp[i * nresp + dresp] != 0 ||
			    limited[i];

			unstable |= differs;
			if (pts[i] == 0) {
				nbase++;
				nbdiff += differs;
			}
		}
		if (!unstable && never != 0 && !force) {
			/* A stable verdict would rest on delays never made. */
			for (k = 0; !(never & (UINT32_C(1) << k)); k++)
				;
			fflush(stdout);
			die("%s: factor %c%s%s%s made no delay in its runs: "
			    "no verdict of stable rests on it (--force gives "
			    "one)", fname, trc_factor_letter(k),
			    ffile != NULL ? " (" : "",
			    ffile != NULL ? fs.v[k].name : "",
			    ffile != NULL ? ")" : "");
		} else if (!unstable) {
			printf("\nverdict: stable under every perturbation\n");
			for (k = 0; k < p; k++)
				if (never & (UINT32_C(1) << k)) {
					printf("forced: factor %c",
					    trc_factor_letter(k));
					if (ffile != NULL)
						printf(" (%s)", fs.v[k].name);
					printf(" made no delay\n");
				}
		}
		else if (nbdiff > 0) {
			printf("\nverdict: unstable without perturbation: "
			    "%ld of %ld repeated baseline runs differ\n",
			    nbdiff, nbase);
			if (have_choice)
				where(dresp, 1);
		} else {
			printf("\nverdict: unstable under perturbation: ");
			if (nbase > 0)
				printf("0 of %ld repeated baseline runs "
				    "differ\n", nbase);
			else
				printf("no run without delay repeats the "
				    "baseline\n");
			rk = ereallocarray(NULL, m + 1, sizeof rk[0]);
			psum = ecalloc(m, sizeof psum[0]);
			for (i = 1, nrk = 0; i < m; i++)
				if (!e->zero[i]) {
					rk[nrk].i = i;
					rk[nrk++].ss = e->ss[i];
				}
			if (e->sse > 0) {
				rk[nrk].i = -1;
				rk[nrk++].ss = e->sse;
			}
			qsort(rk, nrk, sizeof rk[0], by_ss);
			if (nrk == 0)
				printf("the distance is %s in every run: no "
				    "factor changes it\n", num(b1, e->q[0]));
			for (j = 0; j < nrk; j++) {
				i = rk[j].i;
				if (i < 0) {
					printf("error\t%s\treplications "
					    "differ\n", pct(b1, e->sse, e->sst));
					continue;
				}
				trc_design_chain(&d, i, &ch);
				printf("%s\t%s", trc_chain_format(&ch, cbuf,
				    clen), pct(b1, e->ss[i], e->sst));
				if (ffile != NULL)
					names(&fs, ch.word[0], " x ");
				putchar('\n');
			}
			free(rk);
			/*
			 * The effects share a run's distance among all the
			 * effects whose columns it touches; the runs that
			 * differ say plainly which settings did it.
			 */
			printf("runs that change the graph (factors high, "
			    "mean distance):\n");
			for (i = 0; i < nruns; i++)
				psum[trc_design_index(&d, pts[i])] +=
				    resp[i * nresp + dresp];
			for (i = 0; i < m; i++) {
				uint32_t x = trc_design_point(&d, i);

				if (psum[i] == 0)
					continue;
				printf("\t%s\t%s", x ? trc_word_format(x, b1) :
				    "none", num(b2, psum[i] / r));
				if (ffile != NULL && x != 0)
					names(&fs, x, " ");
				putchar('\n');
			}
			free(psum);
			if (have_choice)
				where(dresp, 0);
		}
	}

	free(ch.word);
	free(ch.sign);
	for (k = 0; k < nresp; k++)
		trc_effects_free(&ef[k]);
	for (k = 0; k < ncols; k++)
		free(cols[k].name);
	free(ef);
	free(cbuf);
	free(y);
	free(fill);
	free(cnt);
	free(cols);
	for (i = 0; i < nruns + nextra; i++) {
		free(places[i].text);
		free(places[i].buf);
		free(runids[i]);
	}
	free(places);
	free(runids);
	free(outside);
	free(fired);
	free(limited);
	free(pts);
	free(resp);
	trc_design_free(&d);
	trc_factors_free(&fs);
	fshut_stdout();
	return unstable;
}
