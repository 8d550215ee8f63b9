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
	return 0;
}
