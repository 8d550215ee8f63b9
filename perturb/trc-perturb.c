/*
 * trc-perturb - a perturbation run predicted offline from one trace
 * (DESIGN.md section 5): the delays of TRC_DELAY specs added where the
 * tracer would insert them (lib/perturb.c), every rank re-timed by the
 * transform engine of trc-scale (lib/scale/), and every choice point
 * (wildcard receives, waits and tests for any, probes) given the
 * message that now arrives first.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prog.h"
#include "trc.h"

static const char usage_line[] =
    "trc-perturb [-v] [-d delay] [-f format] [--check factors] "
    "[--flops rate] [file]";

/* Long options without a letter. */
enum { OPT_CHECK = 256, OPT_FLOPS };

static void
usage(int status)
{
	printf("usage: %s\n", usage_line);
	exit(status);
}

/*
 * --check: where each factor of a factor file would fire in the trace,
 * alone, and why one never would: a table on stdout, a warning per
 * factor that cannot match all it asks; exit 1 when one never fires.
 */
static int
check(const char *ffile, struct trc_reader *rd)
{
	struct trc_factors fs = { 0 };
	struct trc_perturb *pt;
	const struct trc_perturb_tally *t;
	const struct trc_header *h;
	struct trc_event ev;
	char err[TRC_ERRLEN + 64], why[256], spec[1024];
	int64_t before, after;
	int i, rc, w, never = 0;

	if (trc_factors_read(ffile, &fs, err, sizeof err) == -1)
		die("%s", err);
	if ((pt = trc_perturb_new()) == NULL)
		die("out of memory");
	for (i = 0; i < fs.n; i++)
		if (trc_perturb_add(pt, &fs.v[i]) < 0)
			die("out of memory");
	if ((h = trc_get_header(rd)) == NULL)
		die("%s", trc_error(rd));
	while ((rc = trc_next(rd, &ev)) > 0)
		if (trc_perturb_event(pt, &ev, &before, &after) < 0)
			die("out of memory");
	if (rc < 0)
		die("%s", trc_error(rd));
	printf("factor\tcalls\tfired\tspec\n");
	for (i = 0; i < fs.n; i++) {
		t = trc_perturb_tally(pt, (size_t)i);
		w = trc_perturb_why(pt, (size_t)i, h->ranks, why, sizeof why);
		trc_factor_spec(&fs.v[i], spec, sizeof spec);
		printf("%s\t%llu\t%llu\t%s\n", fs.v[i].name, t->calls,
		    t->fired, spec);
		if (w > 0)
			fprintf(stderr, "%s: %s:%ld: factor %s %s in %s: %s\n",
			    trc_progname, ffile, fs.v[i].line, fs.v[i].name,
			    w == 2 ? "never fires" : "fires only in part",
			    trc_name(rd), why);
		never |= w == 2;
	}
	trc_perturb_free(pt);
	trc_factors_free(&fs);
	trc_close(rd);
	fshut_stdout();
	return never;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "check", required_argument, NULL, OPT_CHECK },
		{ "delay", required_argument, NULL, 'd' },
		{ "flops", required_argument, NULL, OPT_FLOPS },
		{ "format", required_argument, NULL, 'f' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 }
	};
	struct trc_scale_conf conf = { 0 };
	struct trc_open_opts opts = { 0 };
	const struct trc_scale_stats *st;
	const struct trc_header *h;
	struct trc_perturb *pt;
	struct trc_reader *rd;
	struct trc_writer *w;
	struct trc_scale *sc;
	struct trc_event ev;
	const char *d, *ffile = NULL;
	char err[TRC_ERRLEN + 64], tbuf[32];
	int64_t before, after;
	int c, rc, verbose = 0, errors;
	size_t i;

	trc_std_options(argc, argv, usage);
	if ((pt = trc_perturb_new()) == NULL)
		die("out of memory");
	while ((c = getopt_long(argc, argv, "d:f:hv", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (trc_perturb_parse(pt, optarg, err, sizeof err) < 0)
				die("invalid delay '%s': %s", optarg, err);
			break;
		case OPT_CHECK:
			ffile = optarg;
			break;
		case 'f':
			trc_opt_format(&opts, optarg);
			break;
		case OPT_FLOPS:
			trc_opt_flops(&opts, optarg);
			break;
		case 'h':
			usage(0);
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			usage_error(usage_line);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage_error(usage_line);
	if ((rd = trc_open_with(argc > 0 ? argv[0] : "-", &opts)) == NULL)
		die("out of memory");
	if (ffile != NULL) {
		trc_perturb_free(pt);
		return check(ffile, rd);
	}
	if ((w = trc_wopen(STDOUT_FILENO)) == NULL)
		die("out of memory");
	if ((h = trc_get_header(rd)) == NULL)
		die("%s", trc_error(rd));
	/* Costs as recorded: only the delays and their consequences move. */
	conf.model = &trc_model_recorded;
	conf.rematch = 1;
	if ((sc = trc_scale_new(&conf, h, trc_name(rd), w)) == NULL)
		die("out of memory");
	while ((rc = trc_next(rd, &ev)) > 0) {
		if (trc_perturb_event(pt, &ev, &before, &after) < 0)
			die("out of memory");
		if (before > 0)
			trc_scale_delay(sc, ev.rank, before);
		if (trc_scale_feed(sc, &ev) < 0) {
			trc_wflush(w);
			die("%s", trc_scale_error(sc));
		}
		if (after > 0)
			trc_scale_delay(sc, ev.rank, after);
	}
	if (rc < 0) {
		trc_wflush(w);
		die("%s", trc_error(rd));
	}
	if ((errors = trc_scale_finish(sc)) < 0)
		die("%s", trc_scale_error(sc));
	for (i = 0; (d = trc_scale_diag(sc, i)) != NULL; i++)
		fprintf(stderr, "%s: %s\n", trc_progname, d);
	if (trc_wflush(w) < 0)
		die("<stdout>: %s", trc_werror(w));
	if (verbose) {
		st = trc_scale_stats(sc);
		tbuf[trc_format_time(tbuf, trc_perturb_total(pt))] = '\0';
		fprintf(stderr, "%s: %llu delay%s, %s s in all; %llu events, "
		    "%llu given another message\n",
		    trc_progname, trc_perturb_count(pt),
		    trc_perturb_count(pt) == 1 ? "" : "s", tbuf, st->events,
		    st->rematched);
	}
	if (errors > 0)
		exit(2);
	trc_scale_free(sc);
	trc_perturb_free(pt);
	trc_wfree(w);
	trc_close(rd);
	fshut_stdout();
	return 0;
}
