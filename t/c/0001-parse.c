/* Unit tests of the line parser: times, fields, attributes, errors. */
#include <string.h>

#include "tap.h"
#include "trc.h"

static int
parse(const char *line, struct trc_event *ev, char err[TRC_ERRLEN])
{
	err[0] = '\0';
	return trc_parse_line(line, strlen(line), ev, err);
}

/*
 * As the reader parses a line where it lies in its buffer: followed by
 * its newline, then TRC_PARSE_PAD bytes of something else, which the
 * eight-byte loads may read and must not take for the line.
 */
static int
parse_padded(const char *line, struct trc_event *ev, char err[TRC_ERRLEN])
{
	static char buf[1024 + TRC_PARSE_PAD];
	const char *stop;
	size_t n = strlen(line);

	memset(buf, '7', sizeof(buf));
	memcpy(buf, line, n);
	buf[n] = '\n';
	err[0] = '\0';
	if (trc_parse_event(buf, NULL, ev, err, &stop) < 0)
		return -1;
	return stop == buf + n ? 0 : -2;
}

static void
bad(const char *line, const char *want)
{
	struct trc_event ev;
	char err[TRC_ERRLEN];
	int rc = parse(line, &ev, err);

	ok(rc == -1, "rejects \"%s\"", line);
	is_str(err, want, "  with the message");
	rc = parse_padded(line, &ev, err);
	ok(rc == -1 && strcmp(err, want) == 0, "  and so in the reader's buffer");
}

/* A line that parses alike both ways, with its fields as given. */
static void
good(const char *line, int64_t t, int32_t rank, int32_t peer, int32_t tag,
    int64_t bytes, int64_t req, int nattr)
{
	struct trc_event ev;
	char err[TRC_ERRLEN];
	int i;

	for (i = 0; i < 2; i++) {
		if (!ok((i ? parse_padded(line, &ev, err) :
		    parse(line, &ev, err)) == 0, "%s \"%s\"", i ?
		    "  in the reader's buffer" : "parses", line)) {
			printf("# %s\n", err);
			continue;
		}
		ok(ev.t == t && ev.rank == rank && ev.peer == peer &&
		    ev.tag == tag && ev.bytes == bytes && ev.req == req &&
		    ev.nattr == nattr, "  time %lld, rank %d, peer %d, tag %d, "
		    "bytes %lld, req %lld, %d attributes", (long long)t,
		    (int)rank, (int)peer, (int)tag, (long long)bytes,
		    (long long)req, nattr);
	}
}

int
main(void)
{
	struct trc_event ev;
	struct trc_header h;
	struct trc_str list;
	char err[TRC_ERRLEN];
	int64_t v;

	/* Times are exact integer nanoseconds, whatever the decimals. */
	ok(trc_parse_time("1.5", 3, &v) == 0 && v == 1500000000, "1.5 s");
	ok(trc_parse_time("0.000000001", 11, &v) == 0 && v == 1, "1 ns");
	ok(trc_parse_time("12", 2, &v) == 0 && v == 12000000000LL, "no point");
	ok(trc_parse_time(".25", 3, &v) == 0 && v == 250000000, "no integer part");
	ok(trc_parse_time("3.", 2, &v) == 0 && v == 3000000000LL, "bare point");
	ok(trc_parse_time("9223372035.999999999", 20, &v) == 0 &&
	    v == 9223372035999999999LL, "largest time");
	ok(trc_parse_time("9223372037", 10, &v) == -1, "overflow");
	ok(trc_parse_time("9223372036.854775808", 20, &v) == -1, "overflow by 1 ns");
	ok(trc_parse_time("9223372036.854775807", 20, &v) == 0 && v == INT64_MAX, "INT64_MAX ns");
	/* Past 9 decimals: to the nearest ns, a tie to the even one. */
	ok(trc_parse_time("0.0000000001", 12, &v) == 0 && v == 0,
	    "ten decimals: 0.1 ns is 0");
	ok(trc_parse_time("0.0000000006", 12, &v) == 0 && v == 1,
	    "0.6 ns is 1");
	ok(trc_parse_time("0.0000000005", 12, &v) == 0 && v == 0,
	    "0.5 ns: a tie, to the even 0");
	ok(trc_parse_time("0.0000000015", 12, &v) == 0 && v == 2,
	    "1.5 ns: a tie, to the even 2");
	ok(trc_parse_time("0.00000000050000000000000000001", 31, &v) == 0 &&
	    v == 1, "0.5 ns and a little: 1");
	ok(trc_parse_time("1.999999999500", 14, &v) == 0 &&
	    v == 2000000000, "1.9999999995 s: to 2 s, the even ns");
	ok(trc_parse_time("0.06666666666666666666666666666666666666666666666666"
	    "666666666666666666666666666666666666666666666666660", 103, &v) ==
	    0 && v == 66666667, "a 100-digit fraction: 66666667 ns");
	ok(trc_parse_time("9223372036.8547758074", 21, &v) == 0 &&
	    v == INT64_MAX, "INT64_MAX ns and 0.4 ns");
	ok(trc_parse_time("9223372036.8547758075", 21, &v) == -1,
	    "rounded past INT64_MAX: overflow");
	ok(trc_parse_time("1e3", 3, &v) == -1, "no exponent");
	ok(trc_parse_time("inf", 3, &v) == -1, "no inf");
	ok(trc_parse_time("nan", 3, &v) == -1, "no nan");
	ok(trc_parse_time(".", 1, &v) == -1, "a point alone");
	ok(trc_parse_time("", 0, &v) == -1, "empty");
	/* 0.1 + 0.2 drifts in binary floating point, not here. */
	{
		int64_t a, b, c;

		trc_parse_time("0.1", 3, &a);
		trc_parse_time("0.2", 3, &b);
		trc_parse_time("0.3", 3, &c);
		ok(a + b == c, "0.1 + 0.2 == 0.3 exactly");
	}

	ok(parse("0.001250000 0 SE peer=1 tag=7 bytes=4096 foo=bar", &ev, err) == 0,
	    "a send end parses");
	is_int(ev.t, 1250000, "  time");
	is_int(ev.rank, 0, "  rank");
	is_int(ev.kind, TRC_SE, "  kind");
	is_int(ev.peer, 1, "  peer");
	is_int(ev.tag, 7, "  tag");
	is_int(ev.bytes, 4096, "  bytes");
	is_int(ev.comm, 0, "  comm defaults to 0");
	is_int(ev.req, TRC_NONE, "  no request");
	is_int(ev.nattr, 4, "  four attributes kept");
	ok(ev.attr[3].key.len == 3 && memcmp(ev.attr[3].key.s, "foo", 3) == 0 &&
	    ev.attr[3].val.len == 3 && memcmp(ev.attr[3].val.s, "bar", 3) == 0,
	    "  the unknown one as text");
	ok(trc_attr_get(&ev, "foo") != NULL && trc_attr_get(&ev, "baz") == NULL,
	    "  trc_attr_get");

	ok(parse("  2\t3  RB peer=* tag=* bytes=8 req=5  ", &ev, err) == 0,
	    "blanks and tabs anywhere");
	is_int(ev.t, 2000000000, "  time");
	is_int(ev.peer, TRC_ANY, "  wildcard source");
	is_int(ev.tag, TRC_ANY, "  wildcard tag");
	is_int(ev.req, 5, "  request");

	ok(parse("1 0 WE req=3,5,9 op=waitall", &ev, err) == 0, "a request list");
	list = ev.reqs;
	ok(trc_reqs_next(&list, &v) == 1 && v == 3 &&
	    trc_reqs_next(&list, &v) == 1 && v == 5 &&
	    trc_reqs_next(&list, &v) == 1 && v == 9 &&
	    trc_reqs_next(&list, &v) == 0, "  iterates 3, 5, 9");
	ok(ev.op.len == 7 && memcmp(ev.op.s, "waitall", 7) == 0, "  op");

	ok(parse("1 2 XB op=allreduce bytes=8 root=0 comm=3", &ev, err) == 0,
	    "a collective");
	ok(ev.root == 0 && ev.comm == 3 && ev.bytes == 8, "  root, comm, bytes");
	ok(parse("1 2 PB fn=IterEdge", &ev, err) == 0 && ev.fn.len == 8 &&
	    memcmp(ev.fn.s, "IterEdge", 8) == 0, "a region label");
	ok(parse("1 2 MK", &ev, err) == 0 && ev.kind == TRC_MK, "a marker");
	ok(parse("1 2 PB fn=", &ev, err) == 0 && ev.fn.len == 0, "an empty value");

	/* Fields of every length about the eight bytes read at once. */
	good("0.123456789 7 SB peer=3 tag=12345678 bytes=123456789",
	    123456789, 7, 3, 12345678, 123456789, TRC_NONE, 3);
	good("12345678.5 99999999 RE req=1,2,3 peer=*",
	    12345678500000000LL, 99999999, TRC_ANY, TRC_NONE, TRC_NONE, 1, 2);
	good("123456789.000000001 123456789 SE peer=1 tag=1",
	    123456789000000001LL, 123456789, 1, 1, TRC_NONE, TRC_NONE, 2);
	good("1.12345678 0 MK averyveryverylongkey=x12 n=00000000000000000001",
	    1123456780, 0, TRC_NONE, TRC_NONE, TRC_NONE, TRC_NONE, 2);
	good("3 4 XB bytes=1234567890123456789 op=allreduce",
	    3000000000LL, 4, TRC_NONE, TRC_NONE, 1234567890123456789LL,
	    TRC_NONE, 2);
	good("0.5\t1\tSB\tpeer=2", 500000000, 1, 2, TRC_NONE, TRC_NONE,
	    TRC_NONE, 1);
	good("0.5 1 MK k\303\251y=\303\251 peer=0012345678",
	    500000000, 1, 12345678, TRC_NONE, TRC_NONE, TRC_NONE, 2);
	good("7. 2 WE req=10,20,30,40,50,60,70,80,90 op=waitall",
	    7000000000LL, 2, TRC_NONE, TRC_NONE, TRC_NONE, 10, 2);
	good("0.000000001 0 SB bytes=12345678 tag=0", 1, 0, TRC_NONE, 0,
	    12345678, TRC_NONE, 2);
	/* Times about the two loads of the usual form; lists read in one
	 * pass or, when unusual, element by element; keys near the known
	 * ones' lengths and bytes. */
	good("1234567.123456789 12 SB peer=1 tag=2 bytes=3",
	    1234567123456789LL, 12, 1, 2, 3, TRC_NONE, 3);
	good("1.1234567890 3 SB peer=1", 1123456789, 3, 1, TRC_NONE,
	    TRC_NONE, TRC_NONE, 1);
	good("0.000001 3 WE req=0,1,2,3,4,5 op=waitall", 1000, 3, TRC_NONE,
	    TRC_NONE, TRC_NONE, 0, 2);
	good("0.5 0 WE req=7,1234567890123456789", 500000000, 0, TRC_NONE,
	    TRC_NONE, TRC_NONE, 7, 1);
	good("0.5 0 WE req=-0,3", 500000000, 0, TRC_NONE, TRC_NONE,
	    TRC_NONE, 0, 1);
	good("0.5 1 MK peers=1 peer2=3 ta=4 tags=5 byte=6 bytesx=7 p=8",
	    500000000, 1, TRC_NONE, TRC_NONE, TRC_NONE, TRC_NONE, 7);
	good("0.5 1 SE tag=2147483647 peer=0 bytes=00000000012", 500000000,
	    1, 0, 2147483647, 12, TRC_NONE, 3);
	bad("0.5 1 WB req=,1", "invalid req ',1'");
	bad("0.5 1 WB req=1,-2", "invalid req '1,-2'");
	bad("0.5 1 WB req=1,2x", "invalid req '1,2x'");
	bad("0.5 1 SB tag=2147483648", "invalid tag '2147483648'");
	bad("0.5 1 SB root=-1", "invalid root '-1'");
	bad("0.5 1 SB peer=1 =2", "invalid attribute '=2'");
	bad("1.1234567891x 0 SB", "invalid time '1.1234567891x'");
	bad("0.5 1 SB peer=12x", "invalid peer '12x'");
	bad("0.5 1 SB peer=123456789012", "invalid peer '123456789012'");
	bad("0.5 1 WB req=1,,2", "invalid req '1,,2'");
	bad("0.5 1 WB req=-3", "invalid req '-3'");

	bad("12x 0 SB", "invalid time '12x'");
	bad("-1.5 0 SB", "negative time '-1.5'");
	bad("inf 0 SB", "invalid time 'inf'");
	bad("nan 0 SB", "invalid time 'nan'");
	bad("1.5", "missing rank");
	bad("1.5 x SB", "invalid rank 'x'");
	bad("1.5 -1 SB", "invalid rank '-1'");
	bad("1.5 0", "missing kind");
	bad("1.5 0 XX", "unknown kind 'XX'");
	bad("1.5 0 SBX", "unknown kind 'SBX'");
	bad("1.5 0 SB peer", "invalid attribute 'peer'");
	bad("1.5 0 SB =3", "invalid attribute '=3'");
	bad("1.5 0 SB peer=x", "invalid peer 'x'");
	bad("1.5 0 SB bytes=-4", "invalid bytes '-4'");
	bad("1.5 0 SB tag=99999999999", "invalid tag '99999999999'");
	bad("1.5 0 SB comm=*", "invalid comm '*'");
	bad("1.5 0 WB req=1,", "invalid req '1,'");
	bad("1.5 0 WB req=", "invalid req ''");
	bad("", "empty event line");
	{
		char line[600];
		int i;

		strcpy(line, "1 0 MK");
		for (i = 0; i <= TRC_MAXATTR; i++)
			strcat(line, " k=v");
		bad(line, "more than 32 attributes");
	}

	ok(trc_parse_header("#trc 1 ranks=4 order=rank clock=s", 33, &h, err) == 0 &&
	    h.ranks == 4 && h.order == TRC_ORDER_RANK, "a header");
	ok(trc_parse_header("#trc 1", 6, &h, err) == 0 && h.ranks == 0 &&
	    h.order == TRC_ORDER_TIME, "a bare header");
	ok(trc_parse_header("#trc 2", 6, &h, err) == -1, "version 2 rejected");
	is_str(err, "unsupported stream version '2'", "  with the message");
	ok(trc_parse_header("# trc 1", 7, &h, err) == -1, "not a header");
	is_str(err, "missing '#trc' header", "  with the message");
	ok(trc_parse_header("#trc 1 ranks=0", 14, &h, err) == -1, "ranks=0");
	ok(trc_parse_header("#trc 1 order=random", 19, &h, err) == -1, "bad order");

	/* The header's extra lines by prefix: in order, a line no longer
	 * than the prefix passed over, the last line without its newline. */
	{
		static const char text[] = "#own\n#cpu rank=0\n#own a=1\n"
		    "#ownx\n#own b=2";
		struct trc_str x = { text, sizeof(text) - 1 }, none = { NULL, 0 };
		const char *at = NULL, *v, *e;

		ok(trc_extra_line(&x, &at, "#own ", &v, &e) == 1 &&
		    e - v == 3 && memcmp(v, "a=1", 3) == 0 && *e == '\n',
		    "extra lines: the first with the prefix and more");
		ok(trc_extra_line(&x, &at, "#own ", &v, &e) == 1 &&
		    e - v == 3 && memcmp(v, "b=2", 3) == 0 &&
		    e == text + sizeof(text) - 1, "  then the next, the last");
		ok(trc_extra_line(&x, &at, "#own ", &v, &e) == 0 &&
		    at == text + sizeof(text) - 1, "  then the end");
		at = NULL;
		ok(trc_extra_line(&x, &at, "#cpu ", &v, &e) == 1 &&
		    e - v == 6 && memcmp(v, "rank=0", 6) == 0,
		    "  another prefix from the start");
		at = NULL;
		ok(trc_extra_line(&none, &at, "#", &v, &e) == 0 &&
		    trc_extra_line(NULL, &at, "#", &v, &e) == 0,
		    "  no extra lines");
	}

	return done_testing();
}
