/*
 * trc-cat - validate, select, merge and convert traces.
 *
 * Every input is read by the reader of its format (found by content
 * unless -f names it); the events of all inputs are merged by time with
 * a heap of one head event per input, which is stable because ties go
 * to the earlier input, and written by the writer of --to's format.
 * --time cuts the merged stream to a window (lib/window.c) before the
 * ranks and kinds are selected, so that the cut sees every message.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prog.h"
#include "trc.h"
#include "trc_window.h"

static const char usage_line[] =
    "trc-cat [-v] [-f format] [-k kinds] [-o path] [-r ranks] "
    "[--flops rate] [--time times] [--to format] [file ...]";

struct input {
	struct trc_reader	*r;
	struct trc_event	 ev;
	int			 idx;
};

static void
usage(int status)
{
	printf("usage: %s\n", usage_line);
	exit(status);
}

static int
before(const struct input *a, const struct input *b)
{
	return a->ev.t < b->ev.t || (a->ev.t == b->ev.t && a->idx < b->idx);
}

static void
sift_down(struct input **heap, int n, int i)
{
	struct input *tmp;
	int c;

	for (; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && before(heap[c + 1], heap[c]))
			c++;
		if (!before(heap[c], heap[i]))
			break;
		tmp = heap[c];
		heap[c] = heap[i];
		heap[i] = tmp;
	}
}

static struct trc_out *w;
static struct trc_ranks ranks;
static unsigned kinds = ~0u;

static int
selected(const struct trc_event *ev)
{
	return (kinds & (1u << ev->kind)) &&
	    (ranks.n == 0 || trc_ranks_has(&ranks, ev->rank));
}

/* The window's output: selected, then written. */
static int
put(void *arg, const struct trc_event *ev)
{
	(void)arg;
	return selected(ev) ? trc_out_write(w, ev) : 0;
}

/* Advance an input to its next selected event; 0 when it is done. */
static int
advance(struct input *in, int all)
{
	int rc;

	while ((rc = trc_next(in->r, &in->ev)) > 0)
		if (all || selected(&in->ev))
			return 1;
	if (rc < 0) {
		/* What was good is kept on a stream; a file written whole
		 * or not at all is not replaced (die removes it). */
		if (!trc_out_atomic(w))
			trc_out_close(w);
		die("%s", trc_error(in->r));
	}
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "flops", required_argument, NULL, 'F' },
		{ "format", required_argument, NULL, 'f' },
		{ "kind", required_argument, NULL, 'k' },
		{ "output", required_argument, NULL, 'o' },
		{ "rank", required_argument, NULL, 'r' },
		{ "time", required_argument, NULL, 'W' },
		{ "to", required_argument, NULL, 'T' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 }
	};
	struct trc_open_opts opts = { 0 };
	const char *to = "trc", *path = "-", *what;
	const struct trc_header *h;
	struct trc_header out;
	struct input *inputs, **heap;
	struct trc_window *win = NULL;
	const struct trc_window_counts *wc;
	unsigned long long count;
	int64_t lo = 0, hi = INT64_MAX;
	size_t i, j;
	int c, n, ninputs, reads, writes, verbose = 0, unknown_ranks = 0;
	int window = 0, rc;
	const char *range = NULL;

	trc_std_options(argc, argv, usage);
	while ((c = getopt_long(argc, argv, "f:k:o:r:v", longopts, NULL)) != -1) {
		switch (c) {
		case 'F':
			trc_opt_flops(&opts, optarg);
			break;
		case 'f':
			trc_opt_format(&opts, optarg);
			break;
		case 'o':
			path = optarg;
			break;
		case 'T':
			if (trc_format_lookup(optarg, &reads, &writes) < 0)
				die("unknown format '%s'", optarg);
			if (!writes)
				die("format '%s' is read, not written", optarg);
			to = optarg;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'k':
			if (trc_kinds_parse(optarg, &kinds) < 0)
				die("invalid kind list '%s'", optarg);
			break;
		case 'r':
			if (trc_ranks_parse(optarg, &ranks) < 0)
				die("invalid rank list '%s'", optarg);
			break;
		case 'W':
			if (trc_parse_range(optarg, trc_parse_time, &lo,
			    &hi) < 0)
				die("invalid time range '%s'", optarg);
			window = 1;
			range = optarg;
			break;
		default:
			usage_error(usage_line);
		}
	}
	argc -= optind;
	argv += optind;

	/* Any file the output makes, for formats of many files. */
	for (i = 0; i < (size_t)argc; i++)
		if (trc_out_replaces(to, path, argv[i]))
			die("%s: the output is an input: refusing to "
			    "overwrite it", argv[i]);
	ninputs = argc > 0 ? argc : 1;
	inputs = ecalloc((size_t)ninputs, sizeof(*inputs));
	heap = ecalloc((size_t)ninputs, sizeof(*heap));
	memset(&out, 0, sizeof(out));
	out.version = 1;
	out.order = TRC_ORDER_TIME;
	for (i = 0; i < (size_t)ninputs; i++) {
		inputs[i].idx = (int)i;
		if ((inputs[i].r = trc_open_with(argc > 0 ? argv[i] : "-",
		    &opts)) == NULL)
			die("out of memory");
		if ((h = trc_get_header(inputs[i].r)) == NULL)
			die("%s", trc_error(inputs[i].r));
		/* A header without ranks= says nothing of its ranks: nor
		 * can the merged one, which streams before it has seen
		 * them all. */
		if (h->ranks <= 0)
			unknown_ranks = 1;
		else if (h->ranks > out.ranks)
			out.ranks = h->ranks;
		if (ninputs == 1)
			out.order = h->order;
		else if (h->order != TRC_ORDER_TIME)
			out.order = TRC_ORDER_NONE;
		if (i == 0)
			out.extra = h->extra;
	}
	if (unknown_ranks)
		out.ranks = 0;

	/* Edges are found in time: a window needs the merge sorted. */
	if (window && out.order != TRC_ORDER_TIME)
		die("--time needs streams sorted by time (order=time): "
		    "sort -s -n -k1,1 first");
	if ((w = trc_out_open(to, path, &out, &opts)) == NULL)
		die("out of memory");
	if (window && (win = trc_window_new(lo, hi, out.ranks, put,
	    NULL)) == NULL)
		die("out of memory");
	for (n = 0, i = 0; i < (size_t)ninputs; i++)
		if (advance(&inputs[i], window))
			heap[n++] = &inputs[i];
	for (c = n / 2 - 1; c >= 0; c--)
		sift_down(heap, n, c);
	while (n > 0) {
		if (window) {
			if ((rc = trc_window_add(win, &heap[0]->ev)) < 0)
				die("%s", *trc_out_error(w) ? trc_out_error(w) :
				    trc_window_error(win));
			if (rc == 0)
				break;	/* past the window */
		} else if (trc_out_write(w, &heap[0]->ev) < 0)
			die("%s", trc_out_error(w));
		if (!advance(heap[0], window))
			heap[0] = heap[--n];
		sift_down(heap, n, 0);
	}
	if (window && n == 0 && trc_window_end(win) < 0)
		die("%s", trc_window_error(win));
	if (trc_out_close(w) < 0)
		die("%s", trc_out_error(w));
	/* What crosses an edge is said: the cut changed it. */
	if (window) {
		wc = trc_window_counts(win);
		if (wc->msg_before > 0)
			fprintf(stderr, "%s: --time %s: %ld messages sent "
			    "before the window and received in it, sent at "
			    "its start\n", trc_progname, range,
			    wc->msg_before);
		if (wc->recv_early > 0)
			fprintf(stderr, "%s: --time %s: %ld messages "
			    "received before the window whose send ends in "
			    "it, left without their receive\n", trc_progname,
			    range, wc->recv_early);
		if (wc->coll_before > 0)
			fprintf(stderr, "%s: --time %s: %ld collective "
			    "calls left before the window by ranks whose "
			    "partners enter in it, made again at its start\n",
			    trc_progname, range, wc->coll_before);
		if (wc->msg_after > 0)
			fprintf(stderr, "%s: --time %s: %ld messages sent "
			    "in the window and not received in it\n",
			    trc_progname, range, wc->msg_after);
		if (wc->recv_closed + wc->send_closed > 0)
			fprintf(stderr, "%s: --time %s: %ld receives and "
			    "%ld sends whose other end is in the window ended "
			    "at its end\n", trc_progname, range,
			    wc->recv_closed, wc->send_closed);
		if (wc->coll_entered > 0)
			fprintf(stderr, "%s: --time %s: %ld ranks entered "
			    "at the window's end a collective the others had "
			    "entered\n", trc_progname, range,
			    wc->coll_entered);
		if (wc->coll_cut > 0)
			fprintf(stderr, "%s: --time %s: %ld collectives "
			    "not entered by every participant in the window\n",
			    trc_progname, range, wc->coll_cut);
		if (wc->calls_open > 0)
			fprintf(stderr, "%s: --time %s: %ld calls left "
			    "open at the window's end\n", trc_progname,
			    range, wc->calls_open);
		trc_window_free(win);
	}
	/* What a format could not say is counted, never silently lost. */
	for (i = 0; verbose && i < (size_t)ninputs; i++)
		for (j = 0; trc_dropped(inputs[i].r, j, &what, &count); j++)
			fprintf(stderr, "%s: %s: %llu %s not in the stream\n",
			    trc_progname, trc_name(inputs[i].r), count, what);
	for (j = 0; verbose && trc_out_dropped(w, j, &what, &count); j++)
		fprintf(stderr, "%s: %s: %llu %s not written\n", trc_progname,
		    path, count, what);
	trc_out_free(w);
	for (i = 0; i < (size_t)ninputs; i++)
		trc_close(inputs[i].r);
	free(inputs);
	free(heap);
	return 0;
}
