/*
 * 1105-polls.c - lib/model/polls.c alone: which #clock lines declare
 * cpu= and pollt=, the attributes read from an event, and the split of
 * an interval into work the model scales and time added unscaled,
 * each computed by hand (trc-scale(1), Polling and CPU time).
 */
#include <string.h>

#include "tap.h"
#include "trc.h"

static int
declared(const char *extra)
{
	struct trc_header h;

	memset(&h, 0, sizeof(h));
	h.extra.s = extra;
	h.extra.len = strlen(extra);
	return trc_comp_declared(&h);
}

static int
parse(const char *line, struct trc_event *ev)
{
	char err[TRC_ERRLEN];

	return trc_parse_line(line, strlen(line), ev, err);
}

/* A model whose poll costs 500 ns, and one that knows none. */
static int64_t
poll500(void *v, int32_t rank)
{
	(void)v;
	(void)rank;
	return 500;
}

int
main(void)
{
	struct trc_model_ops ops;
	struct trc_model m = { &ops, NULL }, none = trc_model_recorded;
	struct trc_event ev;
	struct trc_comp c;
	int64_t w, x;
	char err[TRC_ERRLEN];

	is_int(declared(""), 0, "no extra lines: nothing declared");
	is_int(declared("#clock source=realtime origin=1.5\n"), 0,
	    "an old #clock line: nothing");
	is_int(declared("#clock source=realtime origin=1.5 pollt=wall"),
	    TRC_COMP_POLLT, "pollt=wall, last line without a newline");
	is_int(declared("#tracer x\n#clock source=monotonic cpu=thread "
	    "pollt=wall\n"), TRC_COMP_CPU | TRC_COMP_POLLT,
	    "both, on the second line");
	is_int(declared("#other cpu=thread pollt=wall\n"), 0,
	    "on another line: nothing");
	is_int(declared("#clockwork cpu=thread\n"), 0,
	    "#clockwork is not #clock");
	is_int(declared("#clock source=realtime xcpu=1\n"), 0,
	    "xcpu= is not cpu=");

	parse("0.000020000 1 WB req=1 op=test polls=5 pollt=0.000010000 "
	    "cpu=0.000015000", &ev);
	ok(trc_comp_recorded(&ev, TRC_COMP_CPU | TRC_COMP_POLLT, 19000, &c,
	    err, sizeof(err)) == 0 && c.d == 19000 && c.cpu == 15000 &&
	    c.polls == 5 && c.pollt == 10000 && c.pollcpu == -1,
	    "all three read, no pollcpu=");
	ok(trc_comp_recorded(&ev, TRC_COMP_POLLT, 19000, &c, err,
	    sizeof(err)) == 0 && c.cpu == -1 && c.polls == 5,
	    "cpu= not declared: not read");
	ok(trc_comp_recorded(&ev, TRC_COMP_CPU, 19000, &c, err,
	    sizeof(err)) == 0 && c.cpu == 15000 && c.polls == 0 &&
	    c.pollt == 0, "pollt= not declared: no polls");
	ok(trc_comp_recorded(&ev, TRC_COMP_POLLT, 9999, &c, err,
	    sizeof(err)) < 0, "pollt= over the interval: an error");
	is_str(err, "pollt= longer than its interval", "  its message");
	parse("0.1 0 MK polls=2", &ev);
	ok(trc_comp_recorded(&ev, TRC_COMP_POLLT, 1000, &c, err,
	    sizeof(err)) == 0 && c.polls == 2 && c.pollt == 0,
	    "polls= without pollt= (an older tracer): no time");
	parse("0.000020000 1 WB req=1 polls=5 pollt=0.00001 pollcpu=0.000004 "
	    "cpu=0.000015", &ev);
	ok(trc_comp_recorded(&ev, TRC_COMP_CPU | TRC_COMP_POLLT, 19000, &c,
	    err, sizeof(err)) == 0 && c.pollcpu == 4000, "pollcpu= read");
	parse("0.000020000 1 WB req=1 pollcpu=x cpu=0.000015", &ev);
	ok(trc_comp_recorded(&ev, TRC_COMP_CPU, 19000, &c, err,
	    sizeof(err)) < 0, "a bad pollcpu=: an error");
	is_str(err, "invalid pollcpu 'x'", "  its message");

	memset(&ops, 0, sizeof(ops));
	ops.poll = poll500;
	c.d = 19000;
	c.cpu = -1;
	c.polls = 5;
	c.pollt = 10000;
	c.pollcpu = -1;
	trc_comp_split(&m, TRC_POLL_WAIT, 0, &c, &w, &x);
	ok(w == 9000 && x == 0, "wait: work 19 - 10 = 9 us, nothing added");
	trc_comp_split(&m, TRC_POLL_COST, 0, &c, &w, &x);
	ok(w == 9000 && x == 2500, "cost: work 9 us, 5 x 500 ns added");
	trc_comp_split(&none, TRC_POLL_COST, 0, &c, &w, &x);
	ok(w == 9000 && x == 10000,
	    "cost, no poll cost known: the polls as recorded");
	trc_comp_split(&m, TRC_POLL_COMP, 0, &c, &w, &x);
	ok(w == 19000 && x == 0, "comp: all 19 us work");
	c.cpu = 12000;
	trc_comp_split(&m, TRC_POLL_WAIT, 0, &c, &w, &x);
	ok(w == 2000 && x == 0, "cpu 12 us less 10 us of polls: 2 us");
	c.cpu = 8000;
	trc_comp_split(&m, TRC_POLL_WAIT, 0, &c, &w, &x);
	ok(w == 0 && x == 0, "polls over the CPU time: no work, never < 0");
	c.pollcpu = 3000;
	trc_comp_split(&m, TRC_POLL_WAIT, 0, &c, &w, &x);
	ok(w == 5000 && x == 0,
	    "pollcpu=: the polls' CPU time, 8 - 3 = 5 us, not their wall time");
	trc_comp_split(&none, TRC_POLL_COST, 0, &c, &w, &x);
	ok(w == 5000 && x == 3000,
	    "cost, no poll cost known: the polls' CPU time kept");
	c.cpu = -1;
	trc_comp_split(&m, TRC_POLL_WAIT, 0, &c, &w, &x);
	ok(w == 9000, "pollcpu= without cpu=: the wall clock's, 19 - 10");
	c.cpu = 8000;
	c.pollcpu = -1;
	c.polls = 0;
	c.pollt = 0;
	trc_comp_split(&m, TRC_POLL_COST, 0, &c, &w, &x);
	ok(w == 8000 && x == 0, "no polls: the CPU time");
	return done_testing();
}
