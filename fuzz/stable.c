/*
 * stable.c - trc-stable's comparison (lib/graph.c, lib/lcs.c,
 * lib/choice.c) of two fuzzed streams: the input is a line of options
 * (the key fields, "kind,peer,tag,fn,bytes" or part, and a region
 * label to split at, or none), stream A, a line "%%", stream B.  The
 * distance of a graph to itself is 0, and the distance of two is no
 * more than the larger event count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "trc_choice.h"

#define NHUNKS	8

static void
count(void *arg, int32_t rank, int side, size_t idx)
{
	(void)rank;
	(void)idx;
	((uint64_t *)arg)[side]++;
}

static int
load(const char *path, struct trc_graph *g, struct trc_dict *dict,
    const char *split)
{
	struct trc_open_opts opts = { .format = "trc" };
	struct trc_reader *r;
	int rc;

	memset(g, 0, sizeof(*g));
	if ((r = trc_open_with(path, &opts)) == NULL)
		abort();
	if ((rc = trc_graph_read(g, r, dict, split)) < 0 &&
	    trc_error(r)[0] == '\0')
		abort();
	trc_close(r);
	return rc;
}

static void
compare(const struct trc_graph *a, const struct trc_graph *b, int same)
{
	struct trc_graph_diff d;
	struct trc_rank_cmp c;
	struct trc_lcs_hunk h[NHUNKS];
	uint64_t un[2] = { 0, 0 };
	int32_t r, nr = a->nranks > b->nranks ? a->nranks : b->nranks;

	if (trc_graph_unmatched(a, b, &d, count, un) < 0)
		abort();
	if (d.d > d.n || un[0] != d.unmatched[0] || un[1] != d.unmatched[1] ||
	    (same && (d.d != 0 || !d.identical)))
		abort();
	for (r = 0; r < nr && r < 64; r++) {
		const struct trc_rank *x = trc_graph_rank(a, r);
		const struct trc_rank *y = trc_graph_rank(b, r);

		if (trc_rank_compare(a, b, r, 0, &c, NULL, NULL) < 0 ||
		    trc_rank_compare(a, b, r, 1, &c, NULL, NULL) < 0)
			abort();
		if (c.lcs > c.na || c.lcs > c.nb || (same && c.d != 0))
			abort();
		if (trc_lcs_hunks(x->tok, x->n, y->tok, y->n, 0, h, NHUNKS) < 0)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	const uint8_t *a, *b;
	size_t an, bn;
	struct trc_graph ga, gb;
	struct trc_dict *dict;
	struct trc_reader *ra, *rb;
	struct trc_choice_diff cd;
	struct trc_open_opts opts = { .format = "trc" };
	char key[64], split[64], err[512], buf[512];
	const char *l;
	unsigned fields;
	int ka, kb;

	l = fuzz_line(&data, &n);
	key[0] = split[0] = '\0';
	sscanf(l, "%63s %63s", key, split);
	if (trc_key_parse(key, &fields) < 0)
		fields = TRC_KEY_DEFAULT;
	fuzz_split(data, n, &a, &an, &b, &bn);
	fuzz_file("a.trc", a, an);
	fuzz_file("b.trc", b, bn);
	if ((dict = trc_dict_new(fields)) == NULL)
		abort();
	ka = load(fuzz_path("a.trc"), &ga, dict, split[0] ? split : NULL);
	kb = load(fuzz_path("b.trc"), &gb, dict, split[0] ? split : NULL);
	if (ka == 0)
		compare(&ga, &ga, 1);
	if (ka == 0 && kb == 0)
		compare(&ga, &gb, 0);
	trc_graph_free(&ga);
	trc_graph_free(&gb);
	trc_dict_free(dict);
	/* --choice: the first choice point that differs. */
	if ((ra = trc_open_with(fuzz_path("a.trc"), &opts)) == NULL ||
	    (rb = trc_open_with(fuzz_path("b.trc"), &opts)) == NULL)
		abort();
	if (trc_choice_diff(ra, rb, &cd, err, sizeof(err)) == 1) {
		trc_choice_diff_format(&cd, "a.trc", "b.trc", buf, sizeof(buf));
		trc_choice_diff_free(&cd);
	}
	trc_close(ra);
	trc_close(rb);
	return 0;
}
