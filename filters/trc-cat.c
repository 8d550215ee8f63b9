/*
 * trc-cat - validate, select, merge and convert traces.
 *
 * Every input is read by the reader of its format (found by content
 * unless -f names it); the events of all inputs are merged by time with
 * a heap of one head event per input, which is stable because ties go
 * to the earlier input, and written by the writer of --to's format.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trc.h"

static const char usage_line[] =
    "trc-cat [-v] [-f format] [-k kinds] [-o path] [-r ranks] "
    "[--flops rate] [--to format] [file ...]";

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

/* Advance an input to its next selected event; 0 when it is done. */
static int
advance(struct input *in, const struct trc_ranks *ranks, unsigned kinds)
{
	int rc;

	while ((rc = trc_next(in->r, &in->ev)) > 0)
		if ((kinds & (1u << in->ev.kind)) &&
		    (ranks->n == 0 || trc_ranks_has(ranks, in->ev.rank)))
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
		{ "to", required_argument, NULL, 'T' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 }
	};
	struct trc_open_opts opts = { 0 };
	const char *to = "trc", *path = "-", *what;
	const struct trc_header *h;
	struct trc_header out;
	struct trc_ranks ranks = { 0 };
	struct input *inputs, **heap;
	unsigned kinds = ~0u;
	unsigned long long count;
	size_t i, j;
	int c, n, ninputs, reads, writes, verbose = 0, unknown_ranks = 0;

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
		default:
			usage_error(usage_line);
		}
	}
	argc -= optind;
	argv += optind;

	for (i = 0; i < (size_t)argc; i++)
		if (trc_same_file(argv[i], path))
			die("%s: the output is an input: refusing to "
			    "overwrite it", path);
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

	if ((w = trc_out_open(to, path, &out, &opts)) == NULL)
		die("out of memory");
	for (n = 0, i = 0; i < (size_t)ninputs; i++)
		if (advance(&inputs[i], &ranks, kinds))
			heap[n++] = &inputs[i];
	for (c = n / 2 - 1; c >= 0; c--)
		sift_down(heap, n, c);
	while (n > 0) {
		if (trc_out_write(w, &heap[0]->ev) < 0)
			die("%s", trc_out_error(w));
		if (!advance(heap[0], &ranks, kinds))
			heap[0] = heap[--n];
		sift_down(heap, n, 0);
	}
	if (trc_out_close(w) < 0)
		die("%s", trc_out_error(w));
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
