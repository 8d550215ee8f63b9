/*
 * writers.c - every writer of lib/fmt/ fed the events of a fuzzed text
 * stream (at most MAXEV of them), and what reads back read: trc and
 * trcb must give the stream back event for event (trc-formats(5)), the
 * others must at least read back or fail with a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#define MAXEV	2000
/* OTF2 and SimGrid write a file per rank: past this many ranks a run
 * measures the file system (0.6 ms an openat here), not the writer,
 * whose per-rank paths a few ranks exercise as well. */
#define MAXFILES	64
/* Paraver and Dimemas name every task of ranks= in their headers and
 * records, tens of bytes a task (Paraver keeps about 100 a task):
 * past this many a header's ranks= (200000001 in a campaign's input)
 * makes gigabytes and measures the disk.  t/0250 writes 500,000
 * Dimemas tasks. */
#define MAXTASKS	4096

static struct trc_event *evs[MAXEV];
static size_t nev;

static void
clear(void)
{
	while (nev > 0)
		free(evs[--nev]);
}

/* Owned copies, through the text: formats keep no pointer into ours. */
static struct trc_event *
dup_event(const struct trc_event *ev)
{
	size_t need = trc_event_maxlen(ev, 0) + 1, len;
	struct trc_event *c;
	char err[TRC_ERRLEN], *buf;

	if ((c = malloc(sizeof(*c) + need)) == NULL)
		abort();
	buf = (char *)(c + 1);
	len = trc_format_event(buf, ev, ev->t, NULL, 0);
	if (trc_parse_line(buf, len - 1, c, err) < 0)
		abort();
	c->line = ev->line;
	return c;
}

static int
same(const struct trc_event *a, const struct trc_event *b)
{
	int i;

	if (a->t != b->t || a->rank != b->rank || a->kind != b->kind ||
	    a->nattr != b->nattr)
		return 0;
	for (i = 0; i < a->nattr; i++)
		if (a->attr[i].key.len != b->attr[i].key.len ||
		    a->attr[i].val.len != b->attr[i].val.len ||
		    memcmp(a->attr[i].key.s, b->attr[i].key.s,
		    a->attr[i].key.len) != 0 ||
		    memcmp(a->attr[i].val.s, b->attr[i].val.s,
		    a->attr[i].val.len) != 0)
			return 0;
	return 1;
}

static void
write_as(const char *fmt, const struct trc_header *h)
{
	char name[64];
	const char *path;
	struct trc_out *o;
	struct trc_reader *r;
	struct trc_event ev;
	int exact, ok, rc;
	size_t i;

	snprintf(name, sizeof(name), "out.%s", fmt);
	path = fuzz_path(name);
	if ((o = trc_out_open(fmt, path, h, NULL)) == NULL)
		abort();
	for (i = 0, ok = 1; i < nev && ok; i++)
		ok = trc_out_write(o, evs[i]) == 0;
	ok = ok && trc_out_close(o) == 0;
	if (!ok && trc_out_error(o)[0] == '\0')
		abort();
	trc_out_free(o);
	exact = strcmp(fmt, "trc") == 0 || strncmp(fmt, "trcb", 4) == 0;
	if (!ok || strcmp(fmt, "chrome") == 0 || strcmp(fmt, "dimemas") == 0)
		return;
	if (fuzz_read(path, strcmp(fmt, "otf2") == 0 ? "otf2" : NULL) < 0 &&
	    exact)
		abort();
	if (!exact)
		return;
	/* What was written reads back as itself. */
	if ((r = trc_open(path)) == NULL || trc_get_header(r) == NULL)
		abort();
	for (i = 0; (rc = trc_next(r, &ev)) > 0; i++)
		if (i >= nev || !same(&ev, evs[i])) {
			fprintf(stderr, "fuzz: %s: event %zu reads back "
			    "otherwise\n", fmt, i);
			abort();
		}
	if (rc < 0 || i != nev)
		abort();
	trc_close(r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	struct trc_open_opts opts = { .format = "trc" };
	const struct trc_header *hp;
	struct trc_header h;
	struct trc_reader *r;
	struct trc_event ev;
	const char *name, *only;
	int reads, writes, rc;
	int32_t nranks;
	size_t i;

	if ((r = trc_open_with(fuzz_file("in.trc", data, n), &opts)) == NULL)
		abort();
	if ((hp = trc_get_header(r)) == NULL) {
		trc_close(r);
		return 0;
	}
	h = *hp;
	while (nev < MAXEV && (rc = trc_next(r, &ev)) > 0)
		evs[nev++] = dup_event(&ev);
	/* A stream that fails is written up to its error, as trc-cat does. */
	/* FUZZ_WRITERS="trcb prv" limits the formats, to look at one. */
	only = getenv("FUZZ_WRITERS");
	for (i = 0, nranks = h.ranks; i < nev; i++)
		if (evs[i]->rank >= nranks)
			nranks = evs[i]->rank + 1;
	for (i = 0; trc_format_info(i, &name, &reads, &writes) == 1; i++)
		if (writes && (only == NULL || strstr(only, name) != NULL) &&
		    (nranks <= MAXFILES || (strcmp(name, "otf2") != 0 &&
		    strcmp(name, "simgrid") != 0)) &&
		    (nranks <= MAXTASKS || (strcmp(name, "prv") != 0 &&
		    strcmp(name, "dimemas") != 0)))
			write_as(name, &h);
	trc_close(r);
	clear();
	return 0;
}
