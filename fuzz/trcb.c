/*
 * trcb.c - the binary stream's reader (lib/fmt/trcb.c).  Each block
 * carries a checksum of its bytes, which a mutated input would almost
 * never get right: the target writes the right one into every block
 * header it can walk before reading, so that the fuzzer reaches the
 * decoder (and an input replays the same without libFuzzer).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "trcb.h"

#define MAGIC		"\211TRCB\r\n\032"

static int
uvarint(const uint8_t *p, size_t n, size_t *i, uint64_t *v)
{
	unsigned shift = 0;

	*v = 0;
	while (*i < n && shift < 64) {
		*v |= (uint64_t)(p[*i] & 0x7f) << shift;
		if ((p[(*i)++] & 0x80) == 0)
			return 0;
		shift += 7;
	}
	return -1;
}

/* The blocks' checksums made right, as far as the layout can be followed. */
static void
fix_crcs(uint8_t *p, size_t n)
{
	uint64_t v, slen;
	size_t i = 8, crcat;
	uint32_t crc;
	int k;

	if (n < 10 || memcmp(p, MAGIC, 8) != 0)
		return;
	i += 2;		/* version, flags */
	if (uvarint(p, n, &i, &v) < 0 || ++i > n || uvarint(p, n, &i, &v) < 0 ||
	    v > n - i)
		return;
	i += v;		/* ranks, order, the extra header lines */
	while (i < n && p[i] == 'B') {
		i++;
		if (uvarint(p, n, &i, &v) < 0 || uvarint(p, n, &i, &v) < 0 ||
		    ++i > n || uvarint(p, n, &i, &slen) < 0)
			return;
		for (k = 0; k < 4; k++)
			if (uvarint(p, n, &i, &v) < 0)
				return;
		if (n - i < 4)
			return;
		crcat = i;
		i += 4;
		if (slen > n - i)
			slen = n - i;
		crc = trcb_checksum(p + i, (size_t)slen);
		p[crcat] = (uint8_t)crc;
		p[crcat + 1] = (uint8_t)(crc >> 8);
		p[crcat + 2] = (uint8_t)(crc >> 16);
		p[crcat + 3] = (uint8_t)(crc >> 24);
		i += slen;
	}
}

/* Whether event x has the fields f (but reqs and the attributes). */
static int
same_fields(const struct trc_event *x, const struct trc_fields *f)
{
	return x->peer == f->peer && x->tag == f->tag &&
	    x->comm == f->comm && x->root == f->root &&
	    x->bytes == f->bytes && x->req == f->req &&
	    x->fn.len == f->fn.len && x->op.len == f->op.len &&
	    memcmp(x->fn.s, f->fn.s, x->fn.len) == 0 &&
	    memcmp(x->op.s, f->op.s, x->op.len) == 0;
}

/*
 * The input read three times in step: for every field; for the fields
 * only (as trc-sum reads, by r_next_usual's queue); and so, taking the
 * events decoded ahead in brief (trc_next_brief), as trc-sum takes
 * them.  The same events, field by field (but reqs and the
 * attributes, which the others may leave empty: trcb and the text do,
 * the other formats' readers build them all the same), on the same
 * lines, and the same end or error.
 */
static void
fields_agree(const char *path)
{
	struct trc_open_opts fo = { 0 };
	struct trc_reader *a, *b, *c;
	struct trc_event x, y, z;
	const struct trc_brief *brief = NULL;
	size_t nb = 0, ib = 0;
	long line;
	int ra, rb, rc;

	fo.fields_only = 1;
	if ((a = trc_open(path)) == NULL ||
	    (b = trc_open_with(path, &fo)) == NULL ||
	    (c = trc_open_with(path, &fo)) == NULL)
		abort();
	do {
		ra = trc_next(a, &x);
		rb = trc_next(b, &y);
		if (ra != rb || trc_lineno(a) != trc_lineno(b))
			abort();
		if (ra > 0 && (x.t != y.t || x.rank != y.rank ||
		    x.kind != y.kind || x.line != y.line ||
		    !same_fields(&x, trc_event_fields(&y))))
			abort();
		/* c: the next of its briefs, more of them, or trc_next. */
		if (ib == nb)
			ib = 0, nb = trc_next_brief(c, &brief);
		if (ib < nb) {
			line = trc_lineno(c) - (long)(nb - ib - 1);
			if (ra <= 0 || brief[ib].t != x.t ||
			    brief[ib].rank != x.rank ||
			    brief[ib].kind != x.kind || line != x.line ||
			    !same_fields(&x, brief[ib].f))
				abort();
			ib++;
			continue;
		}
		rc = trc_next(c, &z);
		if (rc != ra || (ra > 0 && (z.t != x.t || z.rank != x.rank ||
		    z.kind != x.kind || z.line != x.line ||
		    !same_fields(&x, trc_event_fields(&z)))))
			abort();
	} while (ra > 0);
	if (ra < 0 && (strcmp(trc_error(a), trc_error(b)) != 0 ||
	    strcmp(trc_error(a), trc_error(c)) != 0))
		abort();
	trc_close(a);
	trc_close(b);
	trc_close(c);
}

/* An event as the by-rank reader must give it: no_match leaves peer,
 * tag, comm and root unread and req only its sign; strings hashed. */
struct seen {
	int64_t		 t, bytes;
	long		 line;
	int32_t		 rank;
	int		 kind, req_none;
	uint64_t	 fn, op;
};

static uint64_t
hash(const struct trc_str *s)
{
	uint64_t h = 1469598103934665603ull;
	size_t i;

	for (i = 0; i < s->len; i++)
		h = (h ^ (unsigned char)s->s[i]) * 1099511628211ull;
	return h ^ s->len;
}

static void
seen_set(struct seen *e, int64_t t, int32_t rank, int kind, long line,
    const struct trc_fields *f)
{
	e->t = t;
	e->rank = rank;
	e->kind = kind;
	e->line = line;
	e->bytes = f->bytes;
	e->req_none = f->req == TRC_NONE;
	e->fn = hash(&f->fn);
	e->op = hash(&f->op);
}

/*
 * The input read by rank (trc_by_rank), as trc-sum reads it: each
 * event it gives is the event of the stream on its line, each rank's
 * in order; all of them when the stream reads to its end, and the
 * stream read in order fails exactly when this does.
 */
static void
by_rank_agrees(const char *path)
{
	struct trc_open_opts fo = { 0 };
	struct trc_reader *a, *d;
	struct trc_event x;
	struct trc_run run;
	struct seen *ev = NULL, got, *e;
	struct { int32_t rank; long line; } *last = NULL;
	size_t n = 0, cap = 0, given = 0, i, k, nlast = 0;
	long first = 0, prev;
	int ra, rd;

	fo.fields_only = 1;
	fo.no_match = 1;
	if ((a = trc_open_with(path, &fo)) == NULL ||
	    (d = trc_open_with(path, &fo)) == NULL)
		abort();
	if (!trc_by_rank(d)) {
		/* Other formats, and a stream refused before its events. */
		trc_close(a);
		trc_close(d);
		return;
	}
	while ((ra = trc_next(a, &x)) > 0) {
		if (n == cap && (ev = realloc(ev, (cap = cap ? 2 * cap : 256) *
		    sizeof(*ev))) == NULL)
			abort();
		if (n == 0)
			first = x.line;
		if (x.line != first + (long)n)
			abort();
		seen_set(&ev[n++], x.t, x.rank, x.kind, x.line,
		    trc_event_fields(&x));
	}
	while ((rd = trc_next_run(d, &run)) > 0)
		for (i = 0; i < run.n; i++) {
			seen_set(&got, run.b[i].t, run.b[i].rank,
			    run.b[i].kind, run.line0 + (long)run.place[i],
			    run.b[i].f);
			if (got.rank != run.b[0].rank || got.rank < 0)
				abort();
			/* Each rank's lines go up: its last line, looked
			 * up among the ranks seen (few, any numbers). */
			for (k = 0; k < nlast && last[k].rank != got.rank; k++)
				;
			if (k == nlast) {
				if ((last = realloc(last, (nlast + 1) *
				    sizeof(*last))) == NULL)
					abort();
				last[nlast].rank = got.rank;
				last[nlast++].line = 0;
			}
			prev = last[k].line;
			if (got.line <= prev)
				abort();
			last[k].line = got.line;
			given++;
			/* Where the stream read in order got to it. */
			if (got.line - first >= (long)n || got.line < first)
				continue;
			e = &ev[got.line - first];
			if (e->t != got.t || e->rank != got.rank ||
			    e->kind != got.kind || e->bytes != got.bytes ||
			    e->req_none != got.req_none || e->fn != got.fn ||
			    e->op != got.op)
				abort();
		}
	if ((ra < 0) != (rd < 0) || (ra == 0 && given != n))
		abort();
	trc_close(a);
	trc_close(d);
	free(ev);
	free(last);
}

/* Whether the summaries a and b hold the same numbers. */
static int
sums_same(const struct trc_summary *a, const struct trc_summary *b)
{
	const struct trc_rank_sum *x, *y;
	int32_t i, r;

	if (a->nranks != b->nranks || a->npresent != b->npresent ||
	    a->labels.n != b->labels.n || a->ops.n != b->ops.n ||
	    memcmp(a->size_count, b->size_count, sizeof(a->size_count)) ||
	    memcmp(a->size_bytes, b->size_bytes, sizeof(a->size_bytes)))
		return 0;
	for (i = 0; i < a->ops.n; i++)
		if (strcmp(a->ops.name[i], b->ops.name[i]) ||
		    a->op[i].count != b->op[i].count ||
		    a->op[i].bytes != b->op[i].bytes ||
		    a->op[i].time != b->op[i].time ||
		    a->op[i].first != b->op[i].first)
			return 0;
	for (i = 0; i < a->labels.n; i++)
		if (strcmp(a->labels.name[i], b->labels.name[i]) ||
		    a->label_first[i] != b->label_first[i])
			return 0;
	for (r = 0; r < a->nranks; r++) {
		x = &a->rank[r];
		y = &b->rank[r];
		if (x->events != y->events || x->first != y->first ||
		    x->last != y->last || x->comp != y->comp ||
		    x->cur != y->cur || x->depth != y->depth ||
		    memcmp(x->act, y->act, sizeof(x->act)))
			return 0;
		for (i = 0; i < a->labels.n; i++)
			if (a->comp[i][r] != b->comp[i][r] ||
			    a->life[i][r].n != b->life[i][r].n ||
			    a->life[i][r].total != b->life[i][r].total ||
			    a->life[i][r].min != b->life[i][r].min ||
			    a->life[i][r].max != b->life[i][r].max)
				return 0;
	}
	return 1;
}

/*
 * The summary of the input by rank as trc-sum takes it
 * (trc_summary_add_runs: trcb hands each event over as it decodes it)
 * and as trc_next_run gives the runs to trc_summary_add_run: the same
 * numbers, or the same error.
 */
static void
sum_agrees(const char *path)
{
	struct trc_open_opts fo = { 0 };
	struct trc_reader *a, *d;
	struct trc_summary *sa, *sd;
	struct trc_run run;
	size_t done;
	int ra, rd;

	fo.fields_only = 1;
	fo.no_match = 1;
	if ((a = trc_open_with(path, &fo)) == NULL ||
	    (d = trc_open_with(path, &fo)) == NULL ||
	    (sa = trc_summary_new()) == NULL ||
	    (sd = trc_summary_new()) == NULL)
		abort();
	if (trc_by_rank(a) && trc_by_rank(d)) {
		ra = trc_summary_add_runs(sa, a);
		while ((rd = trc_next_run(d, &run)) > 0)
			if (trc_summary_add_run(sd, &run, 0, &done) < 0)
				trc_run_fail(d, &run, done,
				    trc_summary_error(sd));
		if (ra != rd || (ra < 0 && strcmp(trc_error(a),
		    trc_error(d)) != 0) || (ra == 0 && !sums_same(sa, sd)))
			abort();
	}
	trc_summary_free(sa);
	trc_summary_free(sd);
	trc_close(a);
	trc_close(d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	uint8_t *copy;

	if ((copy = malloc(n + 1)) == NULL)
		abort();
	memcpy(copy, data, n);
	fix_crcs(copy, n);
	fuzz_file("in.trcb", copy, n);
	free(copy);
	/* By content, as every tool reads it. */
	fuzz_read(fuzz_path("in.trcb"), NULL);
	fields_agree(fuzz_path("in.trcb"));
	by_rank_agrees(fuzz_path("in.trcb"));
	sum_agrees(fuzz_path("in.trcb"));
	return 0;
}
