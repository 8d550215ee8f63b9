/*
 * trc-svg - pictures of traces: a space-time diagram of a run, two
 * runs side by side (--vs) or where two runs differ (--diff), and
 * charts of summaries (--chart), as standalone SVG.
 *
 * The picture is built in memory and written only when whole: with -o
 * to a temporary file renamed at the end, so that a failure never
 * leaves an empty or broken picture behind with exit 0.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prog.h"
#include "trc.h"
#include "trc_svg.h"
#include "trc_window.h"

static const char usage_line[] =
    "trc-svg [-f format] [-o file] [-r ranks] [--chart chart] [--diff] "
    "[--equal key] [--flops rate] [--time times] [--title title] "
    "[--vs observed] [--width pixels] [file ...]";

/* Long options without a letter. */
enum { OPT_CHART = 256, OPT_DIFF, OPT_EQUAL, OPT_FLOPS, OPT_TIME, OPT_TITLE,
	OPT_VS, OPT_WIDTH };

static struct trc_open_opts ropts;

static void
usage(int status)
{
	printf("usage: %s\n", usage_line);
	exit(status);
}

/* "a-b", either may be left out, in seconds; a window of some time. */
static int
parse_window(const char *s, int64_t *lo, int64_t *hi)
{
	return trc_parse_range(s, trc_parse_time, lo, hi) < 0 || *lo == *hi ?
	    -1 : 0;
}

static void
read_run(struct trc_timeline *tl, int run, const char *path)
{
	char err[1024];

	if (trc_timeline_read(tl, run, path, &ropts, err, sizeof(err)) < 0)
		die("%s", err);
}

/* The chart asked for, drawn into svg. */
static void
draw_chart(const char *chart, const char *in, const char *observed,
    const char *title, struct trc_svg *svg)
{
	struct trc_chart c;
	char err[1024];
	int rc;

	if (strcmp(chart, "ratios") == 0)
		rc = trc_chart_ratios_of(&c, in, observed, &ropts, err,
		    sizeof(err));
	else if (strcmp(chart, "effects") == 0)
		rc = trc_chart_effects_of(&c, in, err, sizeof(err));
	else
		rc = trc_chart_trace(&c, chart, in, &ropts, err, sizeof(err));
	if (rc < 0)
		die("%s", err);
	if (title)
		c.title = title;
	if (trc_svg_chart(svg, &c) < 0)
		die("out of memory");
	trc_chart_free(&c);
}

/* ---- output ---- */

static void
write_all(int fd, const char *buf, size_t len, const char *name)
{
	ssize_t n;

	while (len > 0) {
		if ((n = write(fd, buf, len)) < 0) {
			if (errno == EINTR)
				continue;
			die("%s: write error: %s", name, strerror(errno));
		}
		buf += n;
		len -= (size_t)n;
	}
}

static void
put(const struct trc_svg *svg, const char *out)
{
	char *tmp, err[512];
	int fd;

	if (svg->failed || svg->len == 0)
		die("out of memory");
	if (out == NULL || strcmp(out, "-") == 0) {
		write_all(STDOUT_FILENO, svg->buf, svg->len, "<stdout>");
		return;
	}
	if (!trc_atomic_wanted(out)) {	/* a device or a pipe */
		if ((fd = open(out, O_WRONLY | O_TRUNC)) < 0)
			die("%s: %s", out, strerror(errno));
		write_all(fd, svg->buf, svg->len, out);
		if (close(fd) < 0)
			die("%s: write error: %s", out, strerror(errno));
		return;
	}
	if ((tmp = trc_atomic_tmp(out, err, sizeof(err))) == NULL)
		die("%s: cannot create: %s", out, err + strlen(out) + 2);
	if ((fd = open(tmp, O_WRONLY)) < 0)
		die("%s: %s", out, strerror(errno));
	write_all(fd, svg->buf, svg->len, out);
	if (close(fd) < 0)
		die("%s: write error: %s", out, strerror(errno));
	if (trc_atomic_commit(tmp, out, err, sizeof(err)) < 0)
		die("%s", err);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "chart", required_argument, NULL, OPT_CHART },
		{ "diff", no_argument, NULL, OPT_DIFF },
		{ "equal", required_argument, NULL, OPT_EQUAL },
		{ "flops", required_argument, NULL, OPT_FLOPS },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "rank", required_argument, NULL, 'r' },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "title", required_argument, NULL, OPT_TITLE },
		{ "vs", required_argument, NULL, OPT_VS },
		{ "width", required_argument, NULL, OPT_WIDTH },
		{ NULL, 0, NULL, 0 }
	};
	struct trc_tl_opts o;
	size_t msgmax;
	struct trc_ranks ranks;
	struct trc_timeline *tl;
	struct trc_svg svg;
	const char *out = NULL, *chart = NULL, *observed = NULL, *title = NULL;
	char tbuf[1024], err[1024];
	unsigned key = TRC_KEY_DEFAULT;
	int c, isdiff = 0;

	memset(&o, 0, sizeof(o));
	memset(&svg, 0, sizeof(svg));
	trc_std_options(argc, argv, usage);
	while ((c = getopt_long(argc, argv, "f:o:r:", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_CHART:
			if (strcmp(optarg, "procs") != 0 &&
			    strcmp(optarg, "sizes") != 0 &&
			    strcmp(optarg, "ratios") != 0 &&
			    strcmp(optarg, "effects") != 0)
				die("invalid chart '%s' (procs, sizes, ratios "
				    "or effects)", optarg);
			chart = optarg;
			break;
		case OPT_DIFF:
			isdiff = 1;
			break;
		case OPT_EQUAL:
			if (trc_key_parse(optarg, &key) < 0)
				die("invalid key '%s'", optarg);
			break;
		case 'f':
			trc_opt_format(&ropts, optarg);
			break;
		case OPT_FLOPS:
			trc_opt_flops(&ropts, optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 'r':
			if (trc_ranks_parse(optarg, &ranks) < 0)
				die("invalid ranks '%s'", optarg);
			o.select = 1;
			o.ranks = &ranks;
			break;
		case OPT_TIME:
			if (parse_window(optarg, &o.from, &o.to) < 0)
				die("invalid time range '%s'", optarg);
			o.window = 1;
			break;
		case OPT_TITLE:
			title = optarg;
			break;
		case OPT_VS:
			observed = optarg;
			break;
		case OPT_WIDTH:
			o.width = (int)estrtonum(optarg, 200, 20000, "width");
			break;
		default:
			usage_error(usage_line);
		}
	}
	argc -= optind;
	argv += optind;
	if (isdiff + (observed != NULL) > 1)
		die("--diff and --vs exclude each other");
	if (isdiff ? argc != 2 : argc > 1)
		usage_error(usage_line);
	for (c = 0; c < argc; c++)
		if (trc_same_file(argv[c], out))
			die("%s: the output is an input: refusing to "
			    "overwrite it", out);
	if (trc_same_file(observed, out))
		die("%s: the output is an input: refusing to overwrite it",
		    out);

	if (chart != NULL) {
		const char *in = argc > 0 ? argv[0] : "-";

		if (isdiff || o.window || o.select || o.width)
			die("--chart takes none of --diff, --time, -r, --width");
		if (strcmp(chart, "ratios") == 0) {
			if (observed == NULL)
				die("--chart ratios needs --vs observed");
		} else if (observed != NULL)
			die("--vs goes with --chart ratios only");
		draw_chart(chart, in, observed, title, &svg);
		put(&svg, out);
		trc_svg_free(&svg);
		return 0;
	}

	o.nruns = isdiff || observed ? 2 : 1;
	o.diff = isdiff;
	if (trc_env_size("TRC_LANES_MAX", TRC_LANES_MAX_DEFAULT,
	    &o.lanes_max) < 0)
		die("invalid TRC_LANES_MAX '%s'", getenv("TRC_LANES_MAX"));
	if (trc_msg_max(&msgmax) < 0)
		die("invalid TRC_MSG_MAX '%s'", getenv("TRC_MSG_MAX"));
	if (observed) {
		o.run_name[TRC_PREDICTED] = "predicted";
		o.run_name[TRC_OBSERVED] = "observed";
	} else if (isdiff) {
		o.run_name[0] = "a";
		o.run_name[1] = "b";
	}
	if ((tl = trc_timeline_new(&o)) == NULL)
		die("out of memory");
	if (isdiff) {
		struct trc_graph_diff gd;

		if (strcmp(argv[0], "-") == 0 || strcmp(argv[1], "-") == 0)
			die("--diff reads its inputs twice: give files, not "
			    "stdin");
		if (trc_timeline_diff(tl, argv[0], argv[1], key, &ropts, &gd,
		    err, sizeof(err)) < 0)
			die("%s", err);
		snprintf(tbuf, sizeof(tbuf), "%s against %s: distance %llu, "
		    "similarity %.6f (%llu of %llu events)%s", argv[1], argv[0],
		    (unsigned long long)gd.d,
		    gd.n ? (double)gd.lcs / (double)gd.n : 1.0,
		    (unsigned long long)gd.lcs, (unsigned long long)gd.n,
		    gd.identical ? ", identical" : "");
		read_run(tl, 0, argv[0]);
		read_run(tl, 1, argv[1]);
	} else if (observed) {
		const char *pred = argc > 0 ? argv[0] : "-";
		int64_t sp, so;

		read_run(tl, TRC_PREDICTED, pred);
		read_run(tl, TRC_OBSERVED, observed);
		sp = trc_timeline_span(tl, TRC_PREDICTED);
		so = trc_timeline_span(tl, TRC_OBSERVED);
		snprintf(tbuf, sizeof(tbuf), "predicted %s: %.6f s, observed "
		    "%s: %.6f s, error %+.1f%%", strcmp(pred, "-") ? pred :
		    "<stdin>", sp / 1e9, observed, so / 1e9,
		    so > 0 ? 100.0 * (double)(sp - so) / (double)so : 0.0);
	} else {
		const char *in = argc > 0 ? argv[0] : "-";

		read_run(tl, 0, in);
		snprintf(tbuf, sizeof(tbuf), "%s: %.6f s",
		    strcmp(in, "-") ? in : "<stdin>",
		    trc_timeline_span(tl, 0) / 1e9);
	}
	if (trc_timeline_svg(tl, title ? title : tbuf, &svg) < 0)
		die("%s", trc_timeline_error(tl));
	trc_timeline_free(tl);
	put(&svg, out);
	trc_svg_free(&svg);
	return 0;
}
