/* Unit tests of lib/match.c: FIFO pairing both ways, leftovers, collectives. */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "trc.h"

static struct trc_msg
msg(int32_t src, int32_t dst, int32_t tag, int32_t comm, int64_t val, long line)
{
	struct trc_msg m;

	memset(&m, 0, sizeof(m));
	m.src = src;
	m.dst = dst;
	m.tag = tag;
	m.comm = comm;
	m.val = val;
	m.line = line;
	return m;
}

/* trc_match_heads' callback: the lines of the heads seen, summed. */
static int
sum_lines(void *arg, const struct trc_msg *m)
{
	*(long *)arg += m->line;
	return 0;
}

static int
stop_at_2(void *arg, const struct trc_msg *m)
{
	(void)arg;
	return m->src == 2 ? 7 : 0;
}

int
main(void)
{
	struct trc_match *mt = trc_match_new();
	struct trc_msg m, p, *left;
	struct trc_coll *c0, *c1, *c2, *d0;
	size_t n, maxp = 0;
	long i;
	int rc;

	/* A prefetch is a hint: on an empty table too it changes nothing. */
	trc_match_prefetch(mt, 0, 1, 7, 0);
	is_int(trc_match_peek(mt, 0, 1, 7, 0, &p), 0, "prefetch adds no send");

	/* Two sends on one channel, then their receives: FIFO. */
	m = msg(0, 1, 7, 0, 100, 1);
	is_int(trc_match_send(mt, &m, &p), 0, "first send waits");
	m = msg(0, 1, 7, 0, 200, 2);
	is_int(trc_match_send(mt, &m, &p), 0, "second send waits");
	is_int((long long)trc_match_pending(mt), 2, "two pending");
	trc_match_prefetch(mt, 0, 1, 7, 0);
	ok(trc_match_peek(mt, 0, 1, 7, 0, &p) == 1 && p.val == 100,
	    "after a prefetch the oldest send is still first");
	m = msg(0, 1, 7, 0, -1, 3);
	rc = trc_match_recv(mt, &m, &p);
	ok(rc == 1 && p.val == 100 && p.line == 1 && p.send == 1,
	    "first receive pairs with the first send");
	rc = trc_match_recv(mt, &m, &p);
	ok(rc == 1 && p.val == 200 && p.line == 2, "second with the second");
	is_int((long long)trc_match_pending(mt), 0, "nothing pending");

	/*
	 * The heads of every channel to a rank: the oldest send of each,
	 * not the others, nor a channel of receives, nor another rank's.
	 */
	{
		struct trc_match *h = trc_match_new();
		long sum = 0;

		m = msg(1, 0, 7, 0, 10, 1);
		trc_match_send(h, &m, &p);
		m = msg(1, 0, 7, 0, 20, 2);
		trc_match_send(h, &m, &p);
		m = msg(2, 0, 8, 0, 30, 4);
		trc_match_send(h, &m, &p);
		m = msg(1, 0, 9, 3, 40, 8);
		trc_match_send(h, &m, &p);
		m = msg(1, 5, 7, 0, 50, 16);
		trc_match_send(h, &m, &p);
		m = msg(3, 0, 7, 0, 0, 32);
		trc_match_recv(h, &m, &p);
		is_int(trc_match_heads(h, 0, sum_lines, &sum), 0,
		    "heads: every one seen");
		is_int(sum, 1 + 4 + 8, "heads: the oldest send of each channel");
		is_int(trc_match_heads(h, 0, stop_at_2, NULL), 7,
		    "heads: the callback stops the walk");
		sum = 0;
		trc_match_heads(h, 6, sum_lines, &sum);
		is_int(sum, 0, "heads: none to a rank nothing is sent to");
		trc_match_free(h);
	}

	/* Receive first (clock skew, rank-ordered streams). */
	m = msg(2, 3, 5, 0, 11, 10);
	is_int(trc_match_recv(mt, &m, &p), 0, "receive before its send waits");
	m = msg(2, 3, 5, 0, 22, 11);
	is_int(trc_match_recv(mt, &m, &p), 0, "second receive waits");
	m = msg(2, 3, 5, 0, 33, 12);
	rc = trc_match_send(mt, &m, &p);
	ok(rc == 1 && p.val == 11 && p.line == 10 && p.send == 0,
	    "send pairs with the oldest waiting receive");
	/* Another tag, another comm, another direction: other channels. */
	m = msg(2, 3, 6, 0, 0, 13);
	is_int(trc_match_send(mt, &m, &p), 0, "other tag does not pair");
	m = msg(2, 3, 5, 1, 0, 14);
	is_int(trc_match_send(mt, &m, &p), 0, "other comm does not pair");
	m = msg(3, 2, 5, 0, 0, 15);
	is_int(trc_match_send(mt, &m, &p), 0, "reverse direction does not pair");
	m = msg(2, 3, 5, 0, 44, 16);
	rc = trc_match_send(mt, &m, &p);
	ok(rc == 1 && p.val == 22, "second waiting receive pairs");

	/* Leftovers: 13, 14, 15, sorted by line, with their side. */
	left = trc_match_leftovers(mt, &n);
	is_int((long long)n, 3, "three unmatched");
	ok(n == 3 && left[0].line == 13 && left[1].line == 14 &&
	    left[2].line == 15 && left[0].send && left[0].tag == 6,
	    "unmatched sorted by line");
	free(left);
	is_int((long long)trc_match_pending(mt), 0, "leftovers empty the table");

	/* A long exchange with a few in flight: nothing accumulates. */
	for (i = 0; i < 1000000; i++) {
		m = msg((int32_t)(i % 64), (int32_t)((i + 1) % 64), 1, 0, i, i);
		if (trc_match_send(mt, &m, &p) < 0)
			break;
		if (trc_match_pending(mt) > maxp)
			maxp = trc_match_pending(mt);
		if (i >= 8) {
			long j = i - 8;

			m = msg((int32_t)(j % 64), (int32_t)((j + 1) % 64), 1,
			    0, 0, j);
			if (trc_match_recv(mt, &m, &p) != 1 || p.val != j)
				break;
		}
	}
	is_int(i, 1000000, "a million messages pair in order");
	is_int((long long)maxp, 9, "at most 9 in flight");
	left = trc_match_leftovers(mt, &n);
	is_int((long long)n, 8, "the last 8 unreceived");
	free(left);

	/* Collectives: instance k is each rank's k-th on the comm. */
	c0 = trc_coll_enter(mt, 0, 0, 100);
	c1 = trc_coll_enter(mt, 0, 1, 101);
	ok(c0 != NULL && c0 == c1 && c0->arrived == 2 && c0->seq == 0,
	    "ranks 0 and 1 share instance 0");
	d0 = trc_coll_enter(mt, 0, 0, 102);
	ok(d0 != c0 && d0->seq == 1 && d0->arrived == 1,
	    "rank 0's second collective is instance 1");
	c2 = trc_coll_enter(mt, 0, 2, 103);
	ok(c2 == c0 && c0->arrived == 3, "rank 2 joins instance 0");
	ok(trc_coll_enter(mt, 5, 2, 104)->seq == 0,
	    "another comm counts apart");
	is_int((long long)trc_coll_pending(mt), 3, "three instances open");
	trc_coll_release(mt, c0);
	is_int((long long)trc_coll_pending(mt), 2, "released");
	ok(trc_coll_oldest(mt)->line == 102, "oldest open instance");
	trc_match_free(mt);
	return done_testing();
}
