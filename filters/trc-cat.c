/*
 * trc-cat - validate, select and merge trc streams.
 *
 * Every input is read by the reader of its format; the events of all
 * inputs are merged by time with a heap of one head event per input,
 * which is stable because ties go to the earlier input.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trc.h"

static const char usage_line[] =
    "trc-cat [-f format] [-k kinds] [-r ranks] [file ...]";

struct input {
	struct trc_reader	*r;
	struct trc_event	 ev;
	int			 idx;
};

/* One reader per input format; only the trc stream so far. */
static const struct format {
	const char	*name;
	struct trc_reader *(*open)(const char *);
} formats[] = {
	{ "trc", trc_open },
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

static struct trc_writer *w;

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
		trc_wflush(w);	/* what was good is kept */
		die("%s", trc_error(in->r));
	}
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "kind", required_argument, NULL, 'k' },
		{ "rank", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 }
	};
	const struct format *fmt = &formats[0];
	const struct trc_header *h;
	struct trc_header out;
	struct trc_ranks ranks = { 0 };
	struct input *inputs, **heap;
	unsigned kinds = ~0u;
	size_t i;
	int c, n, ninputs;

	trc_std_options(argc, argv, usage);
	while ((c = getopt_long(argc, argv, "f:k:r:", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
				if (strcmp(optarg, formats[i].name) == 0)
					break;
			if (i == sizeof(formats) / sizeof(formats[0]))
				die("unknown format '%s'", optarg);
			fmt = &formats[i];
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

	ninputs = argc > 0 ? argc : 1;
	inputs = ecalloc((size_t)ninputs, sizeof(*inputs));
	heap = ecalloc((size_t)ninputs, sizeof(*heap));
	memset(&out, 0, sizeof(out));
	out.version = 1;
	out.order = TRC_ORDER_TIME;
	for (i = 0; i < (size_t)ninputs; i++) {
		inputs[i].idx = (int)i;
		if ((inputs[i].r = fmt->open(argc > 0 ? argv[i] : "-")) == NULL)
			die("out of memory");
		if ((h = trc_get_header(inputs[i].r)) == NULL)
			die("%s", trc_error(inputs[i].r));
		if (h->ranks > out.ranks)
			out.ranks = h->ranks;
		if (ninputs == 1)
			out.order = h->order;
		else if (h->order != TRC_ORDER_TIME)
			out.order = TRC_ORDER_NONE;
		if (i == 0)
			out.extra = h->extra;
	}

	if ((w = trc_wopen(STDOUT_FILENO)) == NULL)
		die("out of memory");
	if (trc_write_header(w, &out) < 0)
		die("<stdout>: %s", trc_werror(w));
	for (n = 0, i = 0; i < (size_t)ninputs; i++)
		if (advance(&inputs[i], &ranks, kinds))
			heap[n++] = &inputs[i];
	for (c = n / 2 - 1; c >= 0; c--)
		sift_down(heap, n, c);
	while (n > 0) {
		if (trc_write_event(w, &heap[0]->ev) < 0)
			die("<stdout>: %s", trc_werror(w));
		if (!advance(heap[0], &ranks, kinds))
			heap[0] = heap[--n];
		sift_down(heap, n, 0);
	}
	if (trc_wflush(w) < 0)
		die("<stdout>: %s", trc_werror(w));
	trc_wfree(w);
	for (i = 0; i < (size_t)ninputs; i++)
		trc_close(inputs[i].r);
	free(inputs);
	free(heap);
	return 0;
}
