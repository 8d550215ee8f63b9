/*
 * Unit tests of what the format readers share: the event builder
 * (fields and attribute text agree, as the parser would make them),
 * owned copies, the time-ordered queue, and dropped-record counts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "fmt/fmt.h"

/* The event formatted as the writer would write it. */
static const char *
text(const struct trc_event *ev)
{
	static char buf[TRC_MAXLINE + 256];
	size_t n;

	n = trc_format_event(buf, ev, ev->t, NULL, 0);
	buf[n - 1] = '\0';
	return buf;
}

int
main(void)
{
	static struct trc_evbuild b;
	struct trc_event ev, parsed, *dup, out;
	struct trc_evq *q;
	struct trc_drops d = { 0 };
	const char *what;
	unsigned long long n;
	char err[TRC_ERRLEN], line[512];
	int64_t ts[] = { 50, 10, 30, 10, 20, 10 }, last;
	int i, ranks[6], ok_order;

	trc_eb_start(&b, &ev, 1500000000, 3, TRC_RB);
	trc_eb_int(&b, "peer", TRC_ANY);
	trc_eb_int(&b, "tag", 7);
	trc_eb_int(&b, "bytes", 4096);
	trc_eb_int(&b, "root", TRC_NONE);	/* adds nothing */
	trc_eb_str(&b, "req", "4,9", 3);
	trc_eb_str(&b, "fn", "IterEdge", 8);
	trc_eb_time(&b, "arrive", 1600000001);
	is_int(trc_eb_done(&b), 0, "builder: done");
	is_str(text(&ev), "1.500000000 3 RB peer=* tag=7 bytes=4096 req=4,9 "
	    "fn=IterEdge arrive=1.600000001", "builder: the text");
	/* The fields are what the parser reads from that text. */
	strcpy(line, text(&ev));
	trc_parse_line(line, strlen(line), &parsed, err);
	is_int(ev.peer, parsed.peer, "builder: peer as parsed");
	is_int(ev.tag, parsed.tag, "builder: tag as parsed");
	is_int(ev.bytes, parsed.bytes, "builder: bytes as parsed");
	is_int(ev.req, parsed.req, "builder: first request as parsed");
	is_int(ev.root, TRC_NONE, "builder: root not given");
	is_int(ev.comm, 0, "builder: comm 0 when not given");
	ok(ev.reqs.len == 3 && memcmp(ev.reqs.s, "4,9", 3) == 0,
	    "builder: the request list");
	ok(ev.fn.len == 8 && memcmp(ev.fn.s, "IterEdge", 8) == 0,
	    "builder: fn");

	/* Attributes past TRC_MAXATTR make the event fail, not shrink. */
	trc_eb_start(&b, &ev, 0, 0, TRC_MK);
	for (i = 0; i <= TRC_MAXATTR; i++)
		trc_eb_int(&b, "x", i);
	is_int(trc_eb_done(&b), -1, "builder: too many attributes fail");

	/* A copy outlives the builder. */
	trc_eb_start(&b, &ev, 42, 1, TRC_XB);
	trc_eb_str(&b, "op", "allreduce", 9);
	trc_eb_int(&b, "comm", 5);
	trc_eb_int(&b, "root", 0);
	dup = trc_event_dup(&ev);
	trc_eb_start(&b, &ev, 0, 0, TRC_MK);
	trc_eb_str(&b, "fn", "overwritten", 11);
	is_str(text(dup), "0.000000042 1 XB op=allreduce comm=5 root=0",
	    "dup: a deep copy");
	ok(dup->op.len == 9 && memcmp(dup->op.s, "allreduce", 9) == 0,
	    "dup: op field");
	free(dup);

	/* The queue: earliest first, ties in the order pushed. */
	q = trc_evq_new();
	for (i = 0; i < 6; i++) {
		trc_eb_start(&b, &ev, ts[i], i, TRC_MK);
		trc_eb_int(&b, "i", i);
		trc_evq_push(q, &ev);
	}
	is_int((long long)trc_evq_len(q), 6, "queue: six held");
	is_int(trc_evq_min(q), 10, "queue: the earliest time");
	ok_order = 1;
	last = -1;
	for (i = 0; trc_evq_pop(q, &out); i++) {
		ranks[i] = out.rank;
		if (out.t < last)
			ok_order = 0;
		last = out.t;
	}
	ok(ok_order && i == 6, "queue: times never go back");
	ok(ranks[0] == 1 && ranks[1] == 3 && ranks[2] == 5,
	    "queue: equal times in push order (1 3 5)");
	ok(ranks[3] == 4 && ranks[4] == 2 && ranks[5] == 0,
	    "queue: then 20, 30, 50");
	is_int(trc_evq_min(q), INT64_MAX, "queue: empty");
	trc_evq_free(q);

	trc_drops_add(&d, "state record");
	trc_drops_add(&d, "counter");
	trc_drops_add(&d, "state record");
	ok(trc_drops_get(&d, 0, &what, &n) && strcmp(what, "state record") == 0 &&
	    n == 2, "drops: counted per kind");
	ok(trc_drops_get(&d, 1, &what, &n) && n == 1, "drops: second kind");
	ok(!trc_drops_get(&d, 2, &what, &n), "drops: two kinds");
	trc_drops_free(&d);
	return done_testing();
}
