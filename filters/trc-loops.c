/*
 * trc-loops - compress a stream into loops (ScalaTrace's RSDs and
 * PRSDs), or expand the compressed description back into the stream.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prog.h"
#include "trc.h"

static const char usage_line[] =
    "trc-loops [-x] [-f format] [--flops rate] [--histogram buckets | "
    "--lossless] [--window nodes] [file]";

enum { OPT_FLOPS = 256, OPT_HISTOGRAM, OPT_LOSSLESS, OPT_WINDOW };

static void
usage(int status)
{
	printf("usage: %s\n", usage_line);
	exit(status);
}

static void
expand(const char *path)
{
	struct trc_unloop *u;
	struct trc_writer *w;
	const char *line;
	size_t len;
	int rc;

	if ((u = trc_unloop_open(path)) == NULL || (w = trc_wopen(1)) == NULL)
		die("out of memory");
	if (trc_unloop_header(u) == NULL)
		die("%s", trc_unloop_error(u));
	if (trc_write_header(w, trc_unloop_header(u)) < 0)
		die("<stdout>: %s", trc_werror(w));
	while ((rc = trc_unloop_next(u, &line, &len)) > 0)
		if (trc_write_raw(w, line, len) < 0)
			die("<stdout>: %s", trc_werror(w));
	if (rc < 0) {
		trc_wflush(w);
		die("%s", trc_unloop_error(u));
	}
	if (trc_wflush(w) < 0)
		die("<stdout>: %s", trc_werror(w));
	trc_wfree(w);
	trc_unloop_free(u);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "expand", no_argument, NULL, 'x' },
		{ "flops", required_argument, NULL, OPT_FLOPS },
		{ "format", required_argument, NULL, 'f' },
		{ "histogram", required_argument, NULL, OPT_HISTOGRAM },
		{ "lossless", no_argument, NULL, OPT_LOSSLESS },
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ NULL, 0, NULL, 0 }
	};
	struct trc_open_opts opts = { 0 };
	struct trc_loops_opts lo = { 0 };
	struct trc_reader *r;
	struct trc_loops *L;
	const struct trc_header *h;
	struct trc_event ev;
	const char *path;
	int c, rc, x = 0;

	trc_std_options(argc, argv, usage);
	while ((c = getopt_long(argc, argv, "f:x", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			trc_opt_format(&opts, optarg);
			break;
		case OPT_FLOPS:
			trc_opt_flops(&opts, optarg);
			break;
		case OPT_HISTOGRAM:
			lo.histogram = (int)estrtonum(optarg, 1,
			    TRC_LOOPS_MAXHIST, "histogram");
			if ((lo.histogram & (lo.histogram - 1)) != 0)
				die("invalid histogram '%s' (want a power of "
				    "two from 1 to %d)", optarg,
				    TRC_LOOPS_MAXHIST);
			break;
		case OPT_LOSSLESS:
			lo.lossless = 1;
			break;
		case OPT_WINDOW:
			lo.window = (int)estrtonum(optarg, 2, 1 << 16, "window");
			break;
		case 'x':
			x = 1;
			break;
		default:
			usage_error(usage_line);
		}
	}
	/* A histogram is of statistics, which lossless keeps none of. */
	if (argc - optind > 1 || (lo.histogram && (lo.lossless || x)))
		usage_error(usage_line);
	path = optind < argc ? argv[optind] : "-";
	if (x) {
		expand(path);
		fshut_stdout();
		return 0;
	}
	if ((r = trc_open_with(path, &opts)) == NULL)
		die("out of memory");
	if ((h = trc_get_header(r)) == NULL)
		die("%s", trc_error(r));
	if ((L = trc_loops_new(h, &lo)) == NULL)
		die("out of memory");
	if (trc_loops_error(L)[0] != '\0')
		die("%s: %s", trc_name(r), trc_loops_error(L));
	while ((rc = trc_next(r, &ev)) > 0)
		if (trc_loops_add(L, &ev) < 0)
			die("%s:%ld: %s", trc_name(r), ev.line,
			    trc_loops_error(L));
	if (rc < 0)
		die("%s", trc_error(r));
	if (trc_loops_write(L, stdout) < 0 && trc_loops_error(L)[0] != '\0')
		die("%s", trc_loops_error(L));
	trc_loops_free(L);
	trc_close(r);
	fshut_stdout();
	return 0;
}
