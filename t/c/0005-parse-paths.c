/*
 * The line parser's paths agree: a line parsed on its own (the byte
 * loops), where it lies padded in a reader's buffer (the 64-byte SIMD
 * path where the machine has one, by SSE2 and, where the CPU has it,
 * by AVX-512BW, else eight bytes at a time), and so for a caller of
 * fields only, must give the same event or the same error; a caller
 * that never matches messages or requests (trc_open_opts.no_match)
 * the same but for peer, tag, comm and root, which it never reads, and
 * req, of which it reads only whether there is one.  Lines are drawn at random from pieces of usual and unusual
 * lines: long ones that cross the 64-byte windows, req= lists, '*',
 * tabs, two blanks, CRs, keys without '=', numbers too long for a
 * field, NUL bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "trc.h"
#include "fmt/fmt.h"

static unsigned long long state = 88172645463325252ULL;

static unsigned
rnd(unsigned n)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (unsigned)(state % n);
}

static const char *const times[] = {
	"0.000000000", "1.234567891", "12345678.000000001", "0.1", "7",
	"123456789.000000000", "0.0000000001", "-1.0", "0.00000000x",
	"3.14159265358", "99.999999999", "0.123456789"
};
static const char *const ranks[] = {
	"0", "7", "63", "1023", "12345678", "123456789", "2147483648", "x", ""
};
static const char *const kinds[] = {
	"SB", "SE", "RB", "RE", "WB", "WE", "XB", "XE", "PB", "PE", "MK",
	"SX", "MB", "S", "SBE"
};
static const char *const attrs[] = {
	"peer=1", "peer=19", "peer=*", "peer=-1", "peer=2147483647",
	"peer=2147483648", "peer=", "tag=0", "tag=12345678", "tag=*",
	"tag=99999999999", "bytes=4096", "bytes=1048576", "bytes=12345678901",
	"bytes=-5", "bytes=4k", "req=0", "req=0,1,2,3,4,5,6,7",
	"req=104,105,106,107,108,109,110,111", "req=1,,2", "req=,1", "req=1,",
	"req=12345678901234567890", "req=1234567890123456789,2",
	"req=123456789012345678,1", "req=-1", "req=7,x", "req=12345678,9",
	"req=123456789,1", "req=1,123456789", "req=-0,1", "req=1,2,",
	"req=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20", "fn=stencil",
	"fn=", "fn=a=b", "op=waitall", "op=allreduce", "comm=3", "comm=*",
	"root=0", "root=x", "iter=0", "cpu=0.000012345", "x=1", "k1=2",
	"verylongkeyname=verylongvalue_with_more_bytes_than_a_window_holds",
	"=3", "noequals", "a==b", "site=0x7f00aa", "PEER=1", "tags=2",
	"fn=12", "op=7", "ab=1", "xyz=5", "bytez=5", "byte=4", "bytess=1",
	"bytes=12345678", "bytes=123456789", "req=12345678", "req=123456789",
	"tag=123456789", "rex=1", "opx=2", "fo=3", "Req=1", "fN=2", "fn=1=2",
	"bytes=0", "req=0"
};
static const char *const blanks[] = {
	" ", " ", " ", " ", " ", " ", " ", " ", "  ", "\t", " \r", "\r"
};

static void
make_line(char *buf, size_t cap)
{
	size_t n = 0;
	int i, nattr;

#define ADD(str) do {							\
	const char *add_ = (str);					\
	size_t len_ = strlen(add_);					\
	if (n + len_ + 2 < cap) {					\
		memcpy(buf + n, add_, len_);				\
		n += len_;						\
	}								\
} while (0)
	ADD(times[rnd(8) ? 11 : rnd(12)]);
	if (rnd(4) == 0)
		buf[n - 1] = (char)('0' + rnd(10));
	ADD(blanks[rnd(10) ? 0 : rnd(12)]);
	ADD(ranks[rnd(4) ? rnd(4) : rnd(9)]);
	ADD(" ");
	ADD(kinds[rnd(8) ? rnd(11) : rnd(15)]);
	nattr = (int)rnd(7);
	for (i = 0; i < nattr; i++) {
		ADD(blanks[rnd(12)]);
		ADD(attrs[rnd(sizeof(attrs) / sizeof(attrs[0]))]);
	}
	if (rnd(20) == 0)
		ADD(" ");
	if (rnd(40) == 0 && n > 0)
		buf[rnd((unsigned)n)] = '\0';	/* a NUL byte inside */
	buf[n] = '\0';
#undef ADD
}

/* Whether two events (or two errors) are the same; attr[] compared
 * only when both kept it, the match keys when match_too (else of req
 * only whether there is one). */
static int
same(int rc1, const struct trc_event *a, const char *e1, int rc2,
    const struct trc_event *b, const char *e2, int attrs_too,
    int match_too)
{
	int i;

	if (rc1 != rc2)
		return 0;
	if (rc1 < 0)
		return strcmp(e1, e2) == 0;
	if (a->t != b->t || a->rank != b->rank || a->kind != b->kind ||
	    (match_too && (a->peer != b->peer || a->tag != b->tag ||
	    a->comm != b->comm || a->root != b->root)) ||
	    (a->req != b->req && (match_too || a->req < 0 || b->req < 0)) ||
	    a->bytes != b->bytes ||
	    a->fn.len != b->fn.len || memcmp(a->fn.s, b->fn.s, a->fn.len) ||
	    a->op.len != b->op.len || memcmp(a->op.s, b->op.s, a->op.len))
		return 0;
	if (!attrs_too)
		return 1;
	if (a->nattr != b->nattr || a->reqs.len != b->reqs.len ||
	    memcmp(a->reqs.s, b->reqs.s, a->reqs.len))
		return 0;
	for (i = 0; i < a->nattr; i++)
		if (a->attr[i].key.len != b->attr[i].key.len ||
		    a->attr[i].val.len != b->attr[i].val.len ||
		    memcmp(a->attr[i].key.s, b->attr[i].key.s,
		    a->attr[i].key.len) ||
		    memcmp(a->attr[i].val.s, b->attr[i].val.s,
		    a->attr[i].val.len))
			return 0;
	return 1;
}

enum { ALL, FIELDS, SUMS };	/* what a caller reads: SUMS no match keys */

/* The padded parse of the line at p for a caller of what, against the
 * line's own parse: 1 when they agree. */
static int
padded_agrees(const char *p, size_t len, int what, int rc0,
    const struct trc_event *ev0, const char *err0)
{
	static struct trc_event ev;
	char err[TRC_ERRLEN] = "";
	const char *stop;
	int rc, fields_only = what != ALL;

	rc = trc_parse_padded_fn(fields_only, what == SUMS)(p, &ev, err,
	    &stop);
	if (rc == 0 && stop != p + len) {
		rc = -1;	/* as the reader says for a NUL */
		snprintf(err, TRC_ERRLEN, "NUL byte in line");
	}
	if (fields_only && rc == 0 && ev.nattr != 0)
		return 0;
	return same(rc0, ev0, err0, rc, &ev, err, !fields_only, what != SUMS);
}

/*
 * Lines by hand for a caller of no match keys, where a value of 1 to 8
 * digits after the key's '=' is told by the key's length and bytes:
 * the line at p, the event's bytes, whether a req= is there, fn and
 * op, or the error.  Both windows where the CPU has them.
 */
static const struct {
	const char	*line;
	int64_t		 bytes;
	int		 req;
	const char	*fn, *op, *err;
} by_hand[] = {
	{ "1.000000000 3 RE peer=7 tag=1 bytes=4096 req=5", 4096, 1, "", "",
	    NULL },
	{ "1.000000000 3 SE xyz=5 bytez=12 ab=1 rex=3 opx=2 fo=4 byte=9",
	    TRC_NONE, 0, "", "", NULL },
	{ "1.000000000 3 PB fn=12 op=7", TRC_NONE, 0, "12", "7", NULL },
	{ "1.000000000 3 SE bytes=12345678 req=12345678", 12345678, 1, "", "",
	    NULL },
	{ "1.000000000 3 SE bytes=123456789 req=123456789", 123456789, 1, "",
	    "", NULL },
	{ "1.000000000 3 SE tag=123456789 bytes=0", 0, 0, "", "", NULL },
	{ "1.000000000 3 SE Req=1 BYTES=2 fN=3 Op=4", TRC_NONE, 0, "", "",
	    NULL },
	{ "1.000000000 3 SE fn=1=2 op=3=", TRC_NONE, 0, "1=2", "3=", NULL },
	{ "1.000000000 3 SE peer=9999999999", 0, 0, "", "",
	    "invalid peer '9999999999'" },
	{ "1.000000000 3 SE tag=1 =5", 0, 0, "", "",
	    "invalid attribute '=5'" },
	{ "1.000000000 3 SE bytes=12 req=1,x", 0, 0, "", "",
	    "invalid req '1,x'" },
};

static int
by_hand_agrees(int i)
{
	static char buf[256 + TRC_PARSE_PAD];
	struct trc_event ev;
	char err[TRC_ERRLEN] = "";
	const char *stop;
	size_t len = strlen(by_hand[i].line);
	int rc;

	memset(buf, '7', sizeof(buf));
	memcpy(buf + 3, by_hand[i].line, len);
	buf[3 + len] = '\n';
	rc = trc_parse_padded_fn(1, 1)(buf + 3, &ev, err, &stop);
	if (by_hand[i].err != NULL)
		return rc < 0 && strcmp(err, by_hand[i].err) == 0;
	return rc == 0 && stop == buf + 3 + len && ev.t == 1000000000 &&
	    ev.rank == 3 && ev.bytes == by_hand[i].bytes &&
	    (ev.req >= 0) == by_hand[i].req &&
	    ev.fn.len == strlen(by_hand[i].fn) &&
	    memcmp(ev.fn.s, by_hand[i].fn, ev.fn.len) == 0 &&
	    ev.op.len == strlen(by_hand[i].op) &&
	    memcmp(ev.op.s, by_hand[i].op, ev.op.len) == 0;
}

int
main(void)
{
	static char line[512], padded[512 + TRC_PARSE_PAD];
	static struct trc_event ev[2];
	static const char *const how[2] = { "SSE2", "AVX-512BW" };
	char err[2][TRC_ERRLEN];
	const char *stop;
	int rc[2], i, w, widths, bad = 0, errors = 0;
	int fields_bad[2] = { 0, 0 }, all_bad[2] = { 0, 0 };
	int sums_bad[2] = { 0, 0 };
	size_t len, shift;

	/* Both windows where the CPU has AVX-512BW, else the one. */
	widths = 1 + trc_parse_wide(1);
	for (i = 0; i < 200000; i++) {
		make_line(line, sizeof(line) - 64);
		len = strlen(line);
		err[0][0] = err[1][0] = '\0';
		rc[0] = trc_parse_line(line, len, &ev[0], err[0]);
		/* Padded as in a reader's buffer: the line at any offset,
		 * its newline, then other lines' bytes. */
		shift = rnd(16);
		memset(padded, rnd(2) ? '7' : ' ', sizeof(padded));
		memcpy(padded + shift, line, len);
		padded[shift + len] = '\n';
		rc[1] = trc_parse_event(padded + shift, NULL, &ev[1], err[1],
		    &stop);
		if (rc[1] == 0 && stop != padded + shift + len) {
			rc[1] = -1;	/* as the reader says for a NUL */
			snprintf(err[1], TRC_ERRLEN, "NUL byte in line");
		}
		errors += rc[0] < 0;
		if (!same(rc[0], &ev[0], err[0], rc[1], &ev[1], err[1], 1, 1)) {
			if (bad++ < 5)
				printf("# differ: \"%s\": %d '%s' / %d '%s'\n",
				    line, rc[0], err[0], rc[1], err[1]);
		}
		for (w = 0; w < widths; w++) {
			trc_parse_wide(w);
			if (!padded_agrees(padded + shift, len, FIELDS, rc[0],
			    &ev[0], err[0]) && fields_bad[w]++ < 5)
				printf("# %s, fields only, differs: \"%s\"\n",
				    how[w], line);
			if (!padded_agrees(padded + shift, len, ALL, rc[0],
			    &ev[0], err[0]) && all_bad[w]++ < 5)
				printf("# %s, all fields, differs: \"%s\"\n",
				    how[w], line);
			if (!padded_agrees(padded + shift, len, SUMS, rc[0],
			    &ev[0], err[0]) && sums_bad[w]++ < 5)
				printf("# %s, no match keys, differs: \"%s\"\n",
				    how[w], line);
		}
	}
	ok(bad == 0, "200000 random lines: padded and unpadded parses agree "
	    "(%d differ)", bad);
	for (w = 0; w < 2; w++) {
		if (w == widths) {
			skip(3, "this CPU has no %s", how[w]);
			break;
		}
		ok(fields_bad[w] == 0, "and so by %s for a caller of fields "
		    "only (%d differ)", how[w], fields_bad[w]);
		ok(all_bad[w] == 0, "and so by %s for a caller of all fields "
		    "(%d differ)", how[w], all_bad[w]);
		ok(sums_bad[w] == 0, "and so by %s for a caller of no match "
		    "keys, errors included (%d differ)", how[w], sums_bad[w]);
	}
	for (w = 0; w < 2; w++) {
		if (w == widths) {
			skip(1, "this CPU has no %s", how[w]);
			break;
		}
		trc_parse_wide(w);
		for (i = 0, bad = 0; i < (int)(sizeof(by_hand) /
		    sizeof(by_hand[0])); i++)
			if (!by_hand_agrees(i) && bad++ < 5)
				printf("# %s, by hand, differs: \"%s\"\n",
				    how[w], by_hand[i].line);
		ok(bad == 0, "by %s, lines by hand for a caller of no match "
		    "keys: values after the key's '=' told by its length",
		    how[w]);
	}
	/* The draw must exercise both outcomes to mean anything. */
	ok(errors > 20000 && errors < 180000, "both valid and invalid lines "
	    "drawn (%d invalid)", errors);
	return done_testing();
}
