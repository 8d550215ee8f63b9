/*
 * trc-effects - effects and allocation of variation of a two-level
 * design's responses, and the stability verdict.
 *
 * The input is the run table of trc-design -t with response columns
 * appended.  The design (full or fractional, and its alias chains) is
 * recovered from the factor levels themselves, so any regular
 * two-level table will do, in any run order, with replications.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "prog.h"
#include "trc.h"

static const char usage_line[] =
    "trc-effects [--confidence confidence] [--distance column] "
    "[--factors factors] [--force] [file]";

/* Long options without a letter. */
enum { OPT_CONFIDENCE = 256, OPT_DISTANCE, OPT_FACTORS, OPT_FORCE };

static void
usage(int status)
{
	printf("usage: %s\n", usage_line);
	exit(status);
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

	for (j = 0; j < fs->n; j++)
		if (w & (UINT32_C(1) << j)) {
			printf("%s%s", first ? "\t" : sep, fs->v[j].name);
			first = 0;
		}
}

/*
 * Where the runs that differ (distance not 0; only those without
 * delay when base) first differ from the baseline: the earliest of
 * their first differing choice points, and the runs that share it.
 */
static void
where(const struct trc_runs *rs, int dresp, int base)
{
	const struct trc_place *best;
	long i, n = 0;

	printf("first differing choice point: ");
	if ((best = trc_runs_first_difference(rs, dresp, base)) == NULL) {
		printf("none\n");
		return;
	}
	printf("rank %ld %s %s (run", best->rank, best->call, best->where);
	for (i = 0; i < rs->n + rs->nextra; i++)
		n += trc_runs_differs_at(rs, i, dresp, base, best);
	printf("%s", n > 1 ? "s" : "");
	for (i = 0; i < rs->n + rs->nextra; i++)
		if (trc_runs_differs_at(rs, i, dresp, base, best))
			printf(" %s", rs->id[i]);
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
	struct trc_runs rs;
	struct trc_design d;
	struct trc_effects *ef;
	struct trc_chain ch;
	struct trc_effect_rank *rk;
	char err[1024], b1[32], b2[32], b3[32], b4[32], *cbuf;
	const char *dcol = "distance", *ffile = NULL;
	double conf = 90, t = 0, *psum;
	long m, r, i, j, nrk;
	size_t clen;
	int c, k, p, dresp, unstable = 0, force = 0;
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
	if (ffile != NULL && trc_factors_read(ffile, &fs, err,
	    sizeof err) == -1)
		die("%s", err);

	if (trc_runs_read(&rs, argc > 0 ? argv[0] : "-", err, sizeof err) == -1)
		die("%s", err);
	p = rs.p;
	if (ffile != NULL && fs.n != p)
		die("%s: %d factors, but %s has %d", ffile, fs.n, rs.name, p);
	dresp = trc_runs_response(&rs, dcol);
	if (trc_runs_design(&rs, &d, &r, err, sizeof err) == -1)
		die("%s", err);
	m = trc_design_runs(&d);
	if (r > 1) {
		t = trc_effects_t(conf, m * (r - 1));
		if (!isfinite(t))
			die("no t quantile for %g%% confidence", conf);
	}

	/* Alias chains, named by their first word, made when needed. */
	ch.word = ereallocarray(NULL, d.ndef, sizeof ch.word[0]);
	ch.sign = emalloc(d.ndef);
	clen = (size_t)d.ndef * (TRC_MAXFACTORS + 4) + 1;
	cbuf = emalloc(clen);

	ef = ecalloc(rs.nresp, sizeof ef[0]);
	printf("design: 2^");
	if (d.k > 0)
		printf("(%d-%d)", p, d.k);
	else
		printf("%d", p);
	printf(", %ld points, %ld replication%s, resolution %s\n", m, r,
	    r > 1 ? "s" : "", trc_roman(trc_design_resolution(&d), b1,
	    sizeof b1));
	if (rs.nextra > 0)
		printf("# %ld run%s without delay, outside the design: "
		    "repeats of the baseline\n", rs.nextra,
		    rs.nextra > 1 ? "s" : "");
	for (k = 0; k < rs.ncol; k++) {
		struct trc_effects *e;

		if (rs.col[k].kind != TRC_RUNCOL_RESPONSE)
			continue;
		e = &ef[rs.col[k].resp];
		if (trc_runs_effects(&rs, &d, r, rs.col[k].resp, e, err,
		    sizeof err) == -1)
			die("%s", err);
		printf("\nresponse: %s\n", rs.col[k].name);
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
	if (rs.have_fired) {
		printf("\ndelays made (factor, runs at its high level, "
		    "delays):\n");
		for (k = 0; k < p; k++) {
			long nhigh, nknown;
			long long sum;

			trc_runs_fired(&rs, k, &nhigh, &nknown, &sum);
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
	if (rs.have_limit) {
		long nlim = 0;

		for (i = 0; i < rs.n + rs.nextra; i++)
			nlim += rs.limited[i];
		if (nlim > 0) {
			printf("\nruns stopped by their time limit, never "
			    "stable:");
			for (i = 0; i < rs.n + rs.nextra; i++)
				if (rs.limited[i])
					printf(" %s", rs.id[i]);
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

		for (i = 0; i < rs.n + rs.nextra; i++) {
			int differs = rs.resp[i * rs.nresp + dresp] != 0 ||
			    rs.limited[i];

			unstable |= differs;
			if (rs.pt[i] == 0) {
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
			    "one)", rs.name, trc_factor_letter(k),
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
			if (rs.have_choice)
				where(&rs, dresp, 1);
		} else {
			printf("\nverdict: unstable under perturbation: ");
			if (nbase > 0)
				printf("0 of %ld repeated baseline runs "
				    "differ\n", nbase);
			else
				printf("no run without delay repeats the "
				    "baseline\n");
			rk = ereallocarray(NULL, m, sizeof rk[0]);
			nrk = trc_effects_rank(e, rk);
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
			psum = ereallocarray(NULL, m, sizeof psum[0]);
			trc_runs_point_sums(&rs, &d, dresp, psum);
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
			if (rs.have_choice)
				where(&rs, dresp, 0);
		}
	}

	free(ch.word);
	free(ch.sign);
	for (k = 0; k < rs.nresp; k++)
		trc_effects_free(&ef[k]);
	free(ef);
	free(cbuf);
	trc_runs_free(&rs);
	trc_design_free(&d);
	trc_factors_free(&fs);
	fshut_stdout();
	return unstable;
}
