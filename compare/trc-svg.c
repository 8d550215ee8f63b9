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

static struct trc_reader *
open_input(const char *path)
{
	struct trc_reader *rd;

	if ((rd = trc_open_with(path, &ropts)) == NULL)
		die("out of memory");
	return rd;
}

/* Reads a whole stream into run of tl. */
static void
read_run(struct trc_timeline *tl, int run, const char *path)
{
	struct trc_reader *rd = open_input(path);
	const struct trc_header *h;
	struct trc_event ev;
	int rc;

	while ((rc = trc_next(rd, &ev)) > 0)
		if (trc_timeline_add(tl, run, &ev) < 0)
			die("%s:%ld: %s", trc_name(rd), ev.line,
			    trc_timeline_error(tl));
	if (rc < 0)
		die("%s", trc_error(rd));
	h = trc_get_header(rd);
	if (trc_timeline_end(tl, run, h ? h->ranks : 0) < 0)
		die("%s: %s", trc_name(rd), trc_timeline_error(tl));
	trc_close(rd);
}

/* "a-b", either may be left out, in seconds; a window of some time. */
static int
parse_window(const char *s, int64_t *lo, int64_t *hi)
{
	return trc_parse_range(s, trc_parse_time, lo, hi) < 0 || *lo == *hi ?
	    -1 : 0;
}

/* ---- --diff: trc-stable's comparison, drawn ---- */

/* The indexes of one rank's unmatched events in each run, ascending. */
struct unmatched {
	size_t	*idx[2];
	size_t	 n[2], cap[2];
};

static void
push(struct unmatched *u, int run, size_t i)
{
	if (u->n[run] == u->cap[run]) {
		u->cap[run] = u->cap[run] ? 2 * u->cap[run] : 16;
		u->idx[run] = ereallocarray(u->idx[run], u->cap[run],
		    sizeof(size_t));
	}
	u->idx[run][u->n[run]++] = i;
}

static void
unmatched_cb(void *arg, int32_t rank, int side, size_t idx)
{
	push(&((struct unmatched *)arg)[rank], side, idx);
}

/* Marks run's unmatched events, reading its file again. */
static void
mark_run(struct trc_timeline *tl, int run, const char *path,
    const struct unmatched *u, int32_t nranks)
{
	struct trc_reader *rd = open_input(path);
	struct trc_event ev;
	size_t *cnt, *next;
	int rc;

	cnt = ecalloc((size_t)nranks + 1, sizeof(*cnt));
	next = ecalloc((size_t)nranks + 1, sizeof(*next));
	while ((rc = trc_next(rd, &ev)) > 0) {
		const struct unmatched *ur;
		size_t c;

		if (ev.rank >= nranks)
			continue;
		ur = &u[ev.rank];
		c = cnt[ev.rank]++;
		if (next[ev.rank] < ur->n[run] &&
		    ur->idx[run][next[ev.rank]] == c) {
			if (trc_timeline_mark(tl, run, ev.rank, ev.t, 0) < 0 ||
			    (next[ev.rank] == 0 &&
			    trc_timeline_mark(tl, run, ev.rank, ev.t, 1) < 0))
				die("%s", trc_timeline_error(tl));
			next[ev.rank]++;
		}
	}
	if (rc < 0)
		die("%s", trc_error(rd));
	trc_close(rd);
	free(cnt);
	free(next);
}

/*
 * Compares the graphs as trc-stable does and marks what its alignment
 * leaves unmatched; writes the title.  Returns the distance.
 */
static uint64_t
diff(struct trc_timeline *tl, const char *pa, const char *pb, unsigned key,
    char *title, size_t tlen)
{
	struct trc_dict *dict;
	struct trc_graph g[2];
	struct trc_graph_diff gd;
	struct unmatched *u;
	struct trc_reader *rd;
	int32_t nranks, r;
	int i;

	if (strcmp(pa, "-") == 0 || strcmp(pb, "-") == 0)
		die("--diff reads its inputs twice: give files, not stdin");
	if ((dict = trc_dict_new(key)) == NULL)
		die("out of memory");
	for (i = 0; i < 2; i++) {
		rd = open_input(i ? pb : pa);
		memset(&g[i], 0, sizeof(g[i]));
		if (trc_graph_read(&g[i], rd, dict, NULL) < 0)
			die("%s", trc_error(rd));
		trc_close(rd);
	}
	nranks = g[0].nranks > g[1].nranks ? g[0].nranks : g[1].nranks;
	u = ecalloc((size_t)nranks + 1, sizeof(*u));
	if (trc_graph_unmatched(&g[0], &g[1], &gd, unmatched_cb, u) < 0)
		die("out of memory");
	for (i = 0; i < 2; i++)
		trc_graph_free(&g[i]);
	trc_dict_free(dict);
	mark_run(tl, 0, pa, u, nranks);
	mark_run(tl, 1, pb, u, nranks);
	for (r = 0; r < nranks; r++) {
		free(u[r].idx[0]);
		free(u[r].idx[1]);
	}
	free(u);
	snprintf(title, tlen, "%s against %s: distance %llu, similarity %.6f "
	    "(%llu of %llu events)%s", pb, pa, (unsigned long long)gd.d,
	    gd.n ? (double)gd.lcs / (double)gd.n : 1.0,
	    (unsigned long long)gd.lcs, (unsigned long long)gd.n,
	    gd.identical ? ", identical" : "");
	return gd.d;
}

/* ---- charts ---- */

static void
chart_summary(const char *kind, const char *path, struct trc_svg *svg,
    const char *title)
{
	struct trc_reader *rd = open_input(path);
	struct trc_summary *sum;
	struct trc_event ev;
	struct trc_chart c;
	int rc;

	if ((sum = trc_summary_new()) == NULL)
		die("out of memory");
	while ((rc = trc_next(rd, &ev)) > 0)
		if (trc_summary_add(sum, &ev) < 0)
			die("%s:%ld: %s", trc_name(rd), ev.line,
			    trc_summary_error(sum));
	if (rc < 0)
		die("%s", trc_error(rd));
	if (sum->nranks == 0)
		die("%s: no events", trc_name(rd));
	if (trc_summary_finish(sum) < 0)
		die("%s: %s", trc_name(rd), trc_summary_error(sum));
	if ((strcmp(kind, "procs") == 0 ? trc_chart_procs(&c, sum) :
	    trc_chart_sizes(&c, sum)) < 0)
		die("%s: %s", trc_name(rd), strcmp(kind, "procs") == 0 ?
		    "nothing to chart" : "no messages sent");
	if (title)
		c.title = title;
	if (trc_svg_chart(svg, &c) < 0)
		die("out of memory");
	trc_chart_free(&c);
	trc_summary_free(sum);
	trc_close(rd);
}

static void
chart_ratios(const char *predicted, const char *observed, struct trc_svg *svg,
    const char *title)
{
	struct trc_reader *r[2];
	struct trc_summary *sum[2];
	struct trc_versus *v;
	struct trc_chart c;
	int i;

	for (i = 0; i < 2; i++) {
		r[i] = open_input(i == TRC_PREDICTED ? predicted : observed);
		if ((sum[i] = trc_summary_new()) == NULL)
			die("out of memory");
	}
	if ((v = trc_versus_new()) == NULL)
		die("out of memory");
	trc_versus_read(v, r, sum);
	for (i = 0; i < 2; i++)
		if (sum[i]->nranks == 0)
			die("%s: no events", trc_name(r[i]));
	if (trc_chart_ratios(&c, v) < 0)
		die("no procedure or operation paired with an observed "
		    "lifetime above 0");
	if (title)
		c.title = title;
	if (trc_svg_chart(svg, &c) < 0)
		die("out of memory");
	trc_chart_free(&c);
	for (i = 0; i < 2; i++) {
		trc_summary_free(sum[i]);
		trc_close(r[i]);
	}
	trc_versus_free(v);
}

static void
chart_effects(const char *path, struct trc_svg *svg, const char *title)
{
	struct trc_effects_reader *er;
	struct trc_chart c;
	FILE *fp;
	char *line = NULL, err[256];
	const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	size_t cap = 0;
	ssize_t len;

	if (strcmp(path, "-") == 0)
		fp = stdin;
	else if ((fp = fopen(path, "r")) == NULL)
		die("%s: cannot open: %s", path, strerror(errno));
	if ((er = trc_effects_reader_new()) == NULL)
		die("out of memory");
	while ((len = getline(&line, &cap, fp)) >= 0) {
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (trc_effects_reader_line(er, line, err, sizeof(err)) < 0)
			die("%s:%s", name, err);
	}
	if (ferror(fp))
		die("%s: read error", name);
	if (trc_chart_effects(&c, er, err, sizeof(err)) < 0)
		die("%s: %s", name, err);
	if (title)
		c.title = title;
	if (trc_svg_chart(svg, &c) < 0)
		die("out of memory");
	trc_chart_free(&c);
	trc_effects_reader_free(er);
	free(line);
	if (fp != stdin)
		fclose(fp);
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
	struct trc_ranks ranks;
	struct trc_timeline *tl;
	struct trc_svg svg;
	const char *out = NULL, *chart = NULL, *observed = NULL, *title = NULL;
	char tbuf[1024];
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
			chart_ratios(in, observed, &svg, title);
		} else if (observed != NULL)
			die("--vs goes with --chart ratios only");
		else if (strcmp(chart, "effects") == 0)
			chart_effects(in, &svg, title);
		else
			chart_summary(chart, in, &svg, title);
		put(&svg, out);
		trc_svg_free(&svg);
		return 0;
	}

	o.nruns = isdiff || observed ? 2 : 1;
	o.diff = isdiff;
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
		diff(tl, argv[0], argv[1], key, tbuf, sizeof(tbuf));
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
