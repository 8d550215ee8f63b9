/*
 * trc-ratios - a computation ratio table (trc-ratios(5)) from runs of
 * the same program on the base and on the target: the median over the
 * pairs of each label's and rank's speed ratio base/target.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prog.h"
#include "trc.h"
#include "trc_disturb.h"
#include "trc_ratios.h"
#include "trc_summary.h"

static const char usage_line[] =
    "trc-ratios [-f format] [--flops rate] [--outliers scale|drop] "
    "[--spread percent] [--strict] [--wall] [--warmup fraction] "
    "base target [base target ...]";

enum { OPT_FLOPS = 256, OPT_OUTLIERS, OPT_SPREAD, OPT_STRICT, OPT_WALL,
	OPT_WARMUP };

static struct trc_open_opts opts;
static int disturbed;
static double warmup;
static int drop;			/* --outliers drop */
static unsigned long long ndrop;	/* the base runs' intervals judged */
static int64_t dropped;			/* and their excess, ns */

/* A sign of a disturbed run, said as a warning. */
static void
warn_disturbed(void *name, const char *sign)
{
	fprintf(stderr, "%s: warning: %s: the run looks disturbed: %s\n",
	    trc_progname, (const char *)name, sign);
	disturbed++;
}

static void
usage(int status)
{
	printf("usage: %s\n", usage_line);
	exit(status);
}

/* A run's reader, its header read. */
static struct trc_reader *
open_run(const char *path, const struct trc_header **h)
{
	struct trc_reader *r;

	if ((r = trc_open_with(path, &opts)) == NULL)
		die("out of memory");
	if ((*h = trc_get_header(r)) == NULL)
		die("%s", trc_error(r));
	return r;
}

/*
 * The summary of one run, its computation timed by cpu= when cpu is
 * set, its host's delays left out with base and --outliers drop, its
 * signs of disturbance said, then its warm-up left out of its
 * computation (--warmup), and kept in *wp; closes r.
 */
static struct trc_summary *
summarize(struct trc_reader *r, const struct trc_header *h, int cpu,
    int base, struct trc_warmup **wp)
{
	struct trc_runcond cond;
	struct trc_summary *s;
	struct trc_warmup *w = NULL;
	struct trc_event ev;
	unsigned long long n;
	int64_t ns;
	int rc;

	if ((s = trc_summary_new()) == NULL ||
	    (w = trc_warmup_new(warmup, base && drop)) == NULL ||
	    trc_runcond_parse(&h->extra, &cond) < 0)
		die("out of memory");
	s->cpu = cpu;
	while ((rc = trc_next(r, &ev)) > 0)
		if (trc_warmup_add(w, s, &ev) < 0)
			break;
	if (rc < 0)
		die("%s", trc_error(r));
	if (rc > 0 && trc_summary_error(s) == NULL)
		die("out of memory");
	if (trc_summary_error(s) != NULL)
		die("%s:%ld: %s", trc_name(r), trc_lineno(r),
		    trc_summary_error(s));
	if (trc_summary_finish(s) < 0)
		die("%s: %s", trc_name(r), trc_summary_error(s));
	if (trc_disturbed(&cond, s, warn_disturbed, (void *)trc_name(r)) < 0)
		die("out of memory");
	trc_warmup_apply(w, s);
	trc_warmup_dropped(w, &n, &ns);
	ndrop += n;
	dropped += ns;
	*wp = w;
	trc_runcond_free(&cond);
	trc_close(r);
	return s;
}

/*
 * A label as a pattern that matches it alone: metacharacters escaped,
 * and the empty label as "()", which matches only the empty string.
 */
static void
put_pattern(const char *label)
{
	const char *p;
	int n = 0;

	if (label == NULL) {
		n = printf(".*");
	} else if (*label == '\0') {
		n = printf("()");
	} else
		for (p = label; *p; p++)
			n += strchr("\\^$.|?*+()[]{}", *p) != NULL ?
			    printf("\\%c", *p) : printf("%c", *p);
	printf("%*s", n < 12 ? 12 - n : 1, "");
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "flops", required_argument, NULL, OPT_FLOPS },
		{ "format", required_argument, NULL, 'f' },
		{ "outliers", required_argument, NULL, OPT_OUTLIERS },
		{ "spread", required_argument, NULL, OPT_SPREAD },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "wall", no_argument, NULL, OPT_WALL },
		{ "warmup", required_argument, NULL, OPT_WARMUP },
		{ NULL, 0, NULL, 0 }
	};
	const struct trc_compratio_row *rows, *w;
	const struct trc_header *hb, *ht;
	struct trc_reader *rb, *rt;
	struct trc_summary *base, *target;
	struct trc_warmup *wb, *wt;
	struct trc_compratio *cr;
	double spread_max = 10, spread;
	long nrows, i;
	int c, npairs, strict = 0, wall = 0, cpu, ncpu = 0;

	trc_std_options(argc, argv, usage);
	while ((c = getopt_long(argc, argv, "f:", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			trc_opt_format(&opts, optarg);
			break;
		case OPT_FLOPS:
			trc_opt_flops(&opts, optarg);
			break;
		case OPT_OUTLIERS:
			if (strcmp(optarg, "scale") == 0)
				drop = 0;
			else if (strcmp(optarg, "drop") == 0)
				drop = 1;
			else
				die("invalid outliers mode '%s' (want 'scale' "
				    "or 'drop')", optarg);
			break;
		case OPT_SPREAD:
			spread_max = estrtod(optarg, "spread");
			if (!(spread_max >= 0))
				die("invalid spread '%s'", optarg);
			break;
		case OPT_STRICT:
			strict = 1;
			break;
		case OPT_WALL:
			wall = 1;
			break;
		case OPT_WARMUP:
			warmup = estrtod(optarg, "warm-up fraction");
			if (!(warmup >= 0 && warmup < 1))
				die("invalid warm-up fraction '%s' (want 0 to "
				    "below 1)", optarg);
			break;
		default:
			usage_error(usage_line);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 2 || argc % 2 != 0)
		usage_error(usage_line);
	if ((cr = trc_compratio_new()) == NULL)
		die("out of memory");
	npairs = argc / 2;
	for (i = 0; i < npairs; i++) {
		/* A pair is timed on one clock: CPU time when both runs
		 * carry it (as trc-scale times computation), else wall. */
		rb = open_run(argv[2 * i], &hb);
		rt = open_run(argv[2 * i + 1], &ht);
		cpu = !wall && (trc_comp_declared(hb) & trc_comp_declared(ht) &
		    TRC_COMP_CPU);
		ncpu += cpu;
		base = summarize(rb, hb, cpu, 1, &wb);
		target = summarize(rt, ht, cpu, 0, &wt);
		if (trc_compratio_add(cr, base, target, wb, wt) < 0)
			die("out of memory");
		trc_summary_free(base);
		trc_summary_free(target);
		trc_warmup_free(wb);
		trc_warmup_free(wt);
	}
	if ((nrows = trc_compratio_rows(cr, &rows)) < 0)
		die("out of memory");
	if (nrows == 0)
		die("%s, %s: no computation measured on both", argv[0], argv[1]);
	printf("# computation speed ratios base/target: the median of %d "
	    "pair%s (trc-ratios(1))\n", npairs, npairs == 1 ? "" : "s");
	if (ncpu == npairs)
		printf("# computation timed by its CPU time (cpu=)\n");
	else if (ncpu > 0)
		printf("# computation timed by its CPU time (cpu=) in %d of "
		    "the pairs, by the wall clock in the others\n", ncpu);
	if (warmup > 0)
		printf("# warm-up left out: each label's first intervals on "
		    "each rank, a power of two up to %g%% of them (--warmup),\n"
		    "# and given a row of its own, first=N\n", 100 * warmup);
	if (drop)
		printf("# the base runs' intervals past their label's fence "
		    "counted as its median (--outliers drop):\n"
		    "# %llu of them, %.9f s left out\n", ndrop,
		    (double)dropped / 1e9);
	printf("mode speed\n");
	if (drop)
		printf("outliers drop\n");
	for (i = 0; i < nrows; i++) {
		w = &rows[i];
		spread = 100 * (w->max - w->min) / w->median;
		put_pattern(w->label);
		if (w->rank < 0)
			printf("all  ");
		else
			printf("%-4ld ", (long)w->rank);
		if (w->first > 0)
			printf("%-10.6g first=%-5lld # warm-up: its first %lld "
			    "intervals, ", w->median, (long long)w->first,
			    (long long)w->first);
		else
			printf("%-10.6g # ", w->median);
		printf("%zu pair%s, spread %.1f%% (%.6g to %.6g)%s\n",
		    w->n, w->n == 1 ? "" : "s", spread, w->min,
		    w->max, w->label == NULL ? ", all computation" :
		    *w->label == '\0' ? ", outside every region" : "");
		/* A warm-up's first touch of memory varies from run to run:
		 * its spread is said, not warned of. */
		if (spread > spread_max && w->first == 0) {
			char rk[24];

			if (w->rank < 0)
				strcpy(rk, "all");
			else
				snprintf(rk, sizeof(rk), "%ld", (long)w->rank);
			fprintf(stderr, "trc-ratios: warning: %s%s rank %s: "
			    "the ratios spread %.1f%% over %zu pairs, more "
			    "than %g%%\n", w->label == NULL ? "all computation" :
			    *w->label == '\0' ? "outside every region" :
			    "label ", w->label == NULL ? "" : w->label, rk,
			    spread, w->n, spread_max);
		}
	}
	trc_compratio_free(cr);
	fshut_stdout();
	if (disturbed > 0 && strict) {
		fprintf(stderr, "%s: ratios from a disturbed run measure the "
		    "disturbance (--strict)\n", trc_progname);
		return 2;
	}
	return 0;
}
