/*
 * trc-scale - predict a trace on another machine by transforming its
 * timestamps (Mendes, "Performance Prediction by Trace Transformation",
 * section 4; DESIGN.md section 4).  The transform is lib/scale/, the
 * machine models lib/model/.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prog.h"
#include "trc.h"
#include "trc_disturb.h"
#include "trc_summary.h"

static const char usage_line[] =
    "trc-scale [-v] [-b base.fit] [-c target.fit | --model name[:file]] "
    "[-f format] [--cores cores [--bound]] [--cpu ratios | --cpu-ratio ratio] "
    "[--flops rate] [--outliers scale|delay|drop] "
    "[--poll wait|cost|comp] [--set name=value,...] [--strict] "
    "[--switch seconds] [--traced] [--wall] "
    "[file]";

/* Long options without a letter. */
enum { OPT_BOUND = 256, OPT_CORES, OPT_CPU, OPT_CPU_RATIO, OPT_FLOPS, OPT_MODEL,
	OPT_OUTLIERS, OPT_POLL, OPT_SET, OPT_STRICT, OPT_SWITCH, OPT_TRACED, OPT_WALL };

/* A sign of a disturbed base run, said as a warning. */
static void
warn_disturbed(void *name, const char *sign)
{
	fprintf(stderr, "%s: warning: %s: the run looks disturbed: %s\n",
	    trc_progname, (const char *)name, sign);
}

static void
usage(int status)
{
	printf("usage: %s\n", usage_line);
	exit(status);
}

static struct trc_fit *
loadfit(const char *path)
{
	struct trc_fit *f;
	char err[512];

	if ((f = trc_fit_load(path, err, sizeof(err))) == NULL)
		die("%s", err);
	return f;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "base", required_argument, NULL, 'b' },
		{ "bound", no_argument, NULL, OPT_BOUND },
		{ "comm", required_argument, NULL, 'c' },
		{ "cores", required_argument, NULL, OPT_CORES },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "cpu-ratio", required_argument, NULL, OPT_CPU_RATIO },
		{ "flops", required_argument, NULL, OPT_FLOPS },
		{ "format", required_argument, NULL, 'f' },
		{ "model", required_argument, NULL, OPT_MODEL },
		{ "outliers", required_argument, NULL, OPT_OUTLIERS },
		{ "poll", required_argument, NULL, OPT_POLL },
		{ "set", required_argument, NULL, OPT_SET },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "switch", required_argument, NULL, OPT_SWITCH },
		{ "traced", no_argument, NULL, OPT_TRACED },
		{ "verbose", no_argument, NULL, 'v' },
		{ "wall", no_argument, NULL, OPT_WALL },
		{ NULL, 0, NULL, 0 }
	};
	struct trc_scale_conf conf = { 0 };
	struct trc_model_conf mconf = { 0 };
	struct trc_model *model;
	struct trc_open_opts opts = { 0 };
	struct trc_fit *target = NULL, *base = NULL;
	const struct trc_scale_stats *st;
	const struct trc_header *h;
	struct trc_reader *rd;
	struct trc_writer *w;
	struct trc_scale *sc;
	struct trc_event ev;
	const char *d;
	char err[512], tbuf[32], *mname = NULL, *colon;
	struct trc_summary *sum = NULL;
	struct trc_runcond cond;
	int c, rc, verbose = 0, errors, strict = 0, summing = 1, disturbed = 0;
	int outliers_given = 0;
	size_t i;

	conf.poll = TRC_POLL_WAIT;
	conf.cpu = 1;
	trc_std_options(argc, argv, usage);
	while ((c = getopt_long(argc, argv, "b:c:f:hv", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case 'b':
			mconf.base = base = loadfit(optarg);
			break;
		case 'c':
			if (mname != NULL)
				usage_error(usage_line);
			mname = estrdup("fit");
			mconf.fit = target = loadfit(optarg);
			break;
		case 'f':
			trc_opt_format(&opts, optarg);
			break;
		case 'h':
			usage(0);
			break;
		case OPT_BOUND:
			conf.bound = 1;
			break;
		case OPT_CORES:
			conf.cores = (int32_t)estrtonum(optarg, 1, INT32_MAX,
			    "cores");
			break;
		case OPT_CPU_RATIO:
			mconf.cpu_ratio = estrtod(optarg, "ratio");
			if (!(mconf.cpu_ratio > 0))
				die("invalid ratio '%s'", optarg);
			break;
		case OPT_CPU:
			if ((mconf.ratios = trc_ratios_load(optarg, err,
			    sizeof(err))) == NULL)
				die("%s", err);
			break;
		case OPT_FLOPS:
			trc_opt_flops(&opts, optarg);
			break;
		case 'v':
			verbose = 1;
			break;
		case OPT_MODEL:
			if (mname != NULL)
				usage_error(usage_line);
			mname = estrdup(optarg);
			if ((colon = strchr(mname, ':')) != NULL) {
				*colon = '\0';
				mconf.path = colon + 1;
			}
			/* A fit is read here, as -c reads it. */
			if (strcmp(mname, "fit") == 0 && mconf.path != NULL)
				mconf.fit = target = loadfit(mconf.path);
			break;
		case OPT_OUTLIERS:
			outliers_given = 1;
			if (strcmp(optarg, "scale") == 0)
				mconf.outliers = TRC_OUTLIERS_SCALE;
			else if (strcmp(optarg, "delay") == 0)
				mconf.outliers = TRC_OUTLIERS_DELAY;
			else if (strcmp(optarg, "drop") == 0)
				mconf.outliers = TRC_OUTLIERS_DROP;
			else
				die("invalid outliers mode '%s'", optarg);
			break;
		case OPT_POLL:
			if (strcmp(optarg, "wait") == 0)
				conf.poll = TRC_POLL_WAIT;
			else if (strcmp(optarg, "cost") == 0)
				conf.poll = TRC_POLL_COST;
			else if (strcmp(optarg, "comp") == 0)
				conf.poll = TRC_POLL_COMP;
			else
				die("invalid poll mode '%s'", optarg);
			break;
		case OPT_STRICT:
			strict = 1;
			break;
		case OPT_SWITCH:
			if (trc_parse_time(optarg, strlen(optarg),
			    &conf.switch_ns) < 0)
				die("invalid switch time '%s'", optarg);
			break;
		case OPT_TRACED:
			conf.traced = 1;
			break;
		case OPT_WALL:
			conf.cpu = 0;
			break;
		case OPT_SET:
			if (mconf.set != NULL)
				usage_error(usage_line);
			mconf.set = optarg;
			break;
		default:
			usage_error(usage_line);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1 || (mconf.cpu_ratio > 0 && mconf.ratios != NULL))
		usage_error(usage_line);
	/* A table measured without the base runs' delays asks for the
	 * same of the base trace, unless told otherwise. */
	if (!outliers_given && mconf.ratios != NULL &&
	    trc_ratios_drop(mconf.ratios))
		mconf.outliers = TRC_OUTLIERS_DROP;
	if (conf.bound && conf.cores == 0)
		die("--bound needs --cores");
	if (conf.switch_ns > 0 && !conf.bound)
		die("--switch needs --bound");
	if (base != NULL && mname == NULL)
		die("--base needs --comm");
	if ((model = trc_model_new(mname != NULL ? mname : "fit", &mconf, err,
	    sizeof(err))) == NULL)
		die("%s", err);
	conf.model = model;

	if ((rd = trc_open_with(argc > 0 ? argv[0] : "-", &opts)) == NULL ||
	    (w = trc_wopen(STDOUT_FILENO)) == NULL)
		die("out of memory");
	if ((h = trc_get_header(rd)) == NULL)
		die("%s", trc_error(rd));
	if ((sc = trc_scale_new(&conf, h, trc_name(rd), w)) == NULL ||
	    (sum = trc_summary_new()) == NULL ||
	    trc_runcond_parse(&h->extra, &cond) < 0)
		die("out of memory");
	if (trc_scale_stats(sc)->own_missing)
		fprintf(stderr, "%s: warning: %s: --traced: no #own line in "
		    "the header, nothing to put back\n", trc_progname,
		    trc_name(rd));
	while ((rc = trc_next(rd, &ev)) > 0) {
		if (trc_scale_feed(sc, &ev) < 0) {
			trc_wflush(w);
			die("%s", trc_scale_error(sc));
		}
		/* The base's own statistics, for signs of a disturbed
		 * run; a stream they cannot follow is not judged. */
		if (summing && trc_summary_add(sum, &ev) < 0)
			summing = 0;
	}
	if (rc < 0) {
		trc_wflush(w);
		die("%s", trc_error(rd));
	}
	if ((errors = trc_scale_finish(sc)) < 0)
		die("%s", trc_scale_error(sc));
	for (i = 0; (d = trc_scale_diag(sc, i)) != NULL; i++)
		fprintf(stderr, "%s: %s\n", trc_progname, d);
	if (summing && trc_summary_finish(sum) == 0 &&
	    (disturbed = trc_disturbed(&cond, sum, warn_disturbed,
	    (void *)trc_name(rd))) < 0)
		die("out of memory");
	if (trc_wflush(w) < 0)
		die("<stdout>: %s", trc_werror(w));
	st = trc_scale_stats(sc);
	if (verbose || st->skew > 0)
		fprintf(stderr, "%s: %s%llu receive completion%s in the input "
		    "before %s send (clock skew), repaired\n", trc_progname,
		    verbose ? "" : "warning: ", st->skew, st->skew == 1 ? "" :
		    "s", st->skew == 1 ? "its" : "their");
	if (verbose) {
		tbuf[trc_format_time(tbuf, st->repair_ns)] = '\0';
		fprintf(stderr, "%s: %llu events, %llu receive completions "
		    "repaired, total delay %s s\n", trc_progname, st->events,
		    st->repaired, tbuf);
		tbuf[trc_format_time(tbuf, st->sync_ns)] = '\0';
		fprintf(stderr, "%s: %llu sends waited for their receiver, "
		    "total delay %s s, %llu let go from a receiver held "
		    "elsewhere, %llu of them exchanges\n", trc_progname,
		    st->synced, tbuf, st->unstuck, st->exchanged);
		fprintf(stderr, "%s: %llu receives of an eager exchange, "
		    "%llu of them the later sender's after its send, "
		    "%llu that took their sender's next message too, "
		    "%llu held to see it\n", trc_progname, st->xwaits,
		    st->xlate, st->took, st->takeheld);
		fprintf(stderr, "%s: %llu blocking sends begun with their "
		    "receiver in no send, receive or wait\n", trc_progname,
		    st->away);
		if (conf.switch_ns > 0)
			fprintf(stderr, "%s: %llu switches of a core between "
			    "ranks (--switch)\n", trc_progname, st->switches);
		if (st->own_ns > 0) {
			tbuf[trc_format_time(tbuf, st->own_ns)] = '\0';
			fprintf(stderr, "%s: the tracer's own time put back "
			    "(--traced): %llu readings of the CPU clock, %s s "
			    "with the lines\n", trc_progname, st->own_reads,
			    tbuf);
		}
		if (st->cold_ranks > 0)
			fprintf(stderr, "%s: calls after a computation ran "
			    "%.2f (rank %ld) to %.2f (rank %ld) of the way from "
			    "warm to cold on the base, mean %.2f over %ld "
			    "rank%s, %.0f call%s measured\n", trc_progname,
			    st->cold_min, (long)st->cold_rmin, st->cold_max,
			    (long)st->cold_rmax, st->cold_mean,
			    (long)st->cold_ranks, st->cold_ranks == 1 ? "" :
			    "s", st->cold_calls, st->cold_calls == 1 ? "" :
			    "s");
		if (mconf.outliers != TRC_OUTLIERS_SCALE) {
			int drop = mconf.outliers == TRC_OUTLIERS_DROP;

			tbuf[trc_format_time(tbuf, st->outlier_ns)] = '\0';
			fprintf(stderr, "%s: %llu computation interval%s past "
			    "its label's fence (--outliers %s), %s s %s\n",
			    trc_progname, st->outliers,
			    st->outliers == 1 ? "" : "s",
			    drop ? "drop" : "delay", tbuf,
			    drop ? "dropped" : "of delay unscaled");
		}
		fprintf(stderr, "%s: %llu events held at most %zu at once, "
		    "%llu computation intervals without a ratio row\n",
		    trc_progname, st->held, st->maxheld, st->unlabelled);
		fprintf(stderr, "%s: at most %zu events waiting for output\n",
		    trc_progname, st->maxqueued);
	}
	if (disturbed > 0 && strict) {
		fprintf(stderr, "%s: %s: a disturbed base run predicts the "
		    "disturbance (--strict)\n", trc_progname, trc_name(rd));
		exit(2);
	}
	if (errors > 0)
		exit(2);
	trc_summary_free(sum);
	trc_runcond_free(&cond);
	trc_scale_free(sc);
	trc_wfree(w);
	trc_close(rd);
	trc_model_free(model);
	free(mname);
	trc_fit_free(target);
	trc_fit_free(base);
	trc_ratios_free(mconf.ratios);
	fshut_stdout();
	return 0;
}
