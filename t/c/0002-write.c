/* Unit tests of the writer, the selections and the name table. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "trc.h"

static char *
written(void (*fill)(struct trc_writer *))
{
	static char buf[4096];
	struct trc_writer *w;
	int fd[2];
	ssize_t n;

	if (pipe(fd) < 0)
		abort();
	w = trc_wopen(fd[1]);
	fill(w);
	trc_wflush(w);
	trc_wfree(w);
	close(fd[1]);
	n = read(fd[0], buf, sizeof(buf) - 1);
	close(fd[0]);
	buf[n < 0 ? 0 : n] = '\0';
	return buf;
}

static void
fill_event(struct trc_writer *w)
{
	struct trc_event ev;
	char err[TRC_ERRLEN];
	const char *line = "0.5   3 SE\tpeer=1  tag=7 bytes=4096 x=y";

	trc_parse_line(line, strlen(line), &ev, err);
	trc_write_event(w, &ev);
	trc_write_event_at(w, &ev, 1, "t0=0.500000000");
}

static void
fill_header(struct trc_writer *w)
{
	struct trc_header h = { 1, 8, TRC_ORDER_TIME, { "# hi\n", 5 } };

	trc_write_header(w, &h);
}

int
main(void)
{
	struct trc_ranks sel;
	struct trc_intern in = { 0 };
	unsigned mask;
	char buf[40];
	int i, ids_ok = 1;

	is_str(written(fill_event),
	    "0.500000000 3 SE peer=1 tag=7 bytes=4096 x=y\n"
	    "0.000000001 3 SE peer=1 tag=7 bytes=4096 x=y t0=0.500000000\n",
	    "an event is written canonically, attributes in order");
	is_str(written(fill_header), "#trc 1 ranks=8 order=time\n# hi\n",
	    "a header with its extra lines");

	buf[trc_format_time(buf, 0)] = '\0';
	is_str(buf, "0.000000000", "time 0");
	buf[trc_format_time(buf, 9223372036854775807LL)] = '\0';
	is_str(buf, "9223372036.854775807", "the largest time");
	buf[trc_format_int(buf, -42)] = '\0';
	is_str(buf, "-42", "a negative integer");
	/* the digit counts on each side of the short numbers' bounds */
	buf[trc_format_int(buf, 9)] = '\0';
	is_str(buf, "9", "one digit");
	buf[trc_format_int(buf, 10)] = '\0';
	is_str(buf, "10", "two digits");
	buf[trc_format_int(buf, 999)] = '\0';
	is_str(buf, "999", "three digits");
	buf[trc_format_int(buf, 9999)] = '\0';
	is_str(buf, "9999", "four digits");
	buf[trc_format_int(buf, 10000)] = '\0';
	is_str(buf, "10000", "five digits");
	buf[trc_format_int(buf, 100000)] = '\0';
	is_str(buf, "100000", "six digits");
	buf[trc_format_int(buf, -9223372036854775807LL - 1)] = '\0';
	is_str(buf, "-9223372036854775808", "the least integer");

	/* Durations for people: each in the unit that puts it in [1, 1000). */
	trc_format_duration(buf, 0);
	is_str(buf, "0", "duration 0");
	trc_format_duration(buf, 999);
	is_str(buf, "999 ns", "999 ns stays in ns");
	trc_format_duration(buf, 1000);
	is_str(buf, "1.000 us", "1000 ns is 1 us");
	trc_format_duration(buf, 999999);
	is_str(buf, "999.999 us", "999999 ns in us");
	trc_format_duration(buf, 9999999);
	is_str(buf, "10.000 ms", "9999999 ns rounds to 10 ms");
	trc_format_duration(buf, 999999600);
	is_str(buf, "1.000 s", "999.9996 ms would round to 1000.000: 1 s");
	trc_format_duration(buf, -2500000);
	is_str(buf, "-2.500 ms", "a negative duration");
	trc_format_duration(buf, 7200000000000LL);
	is_str(buf, "7200.000 s", "hours stay in seconds");

	ok(trc_ranks_parse("0,3-5,9", &sel) == 0, "a rank list");
	ok(trc_ranks_has(&sel, 0) && trc_ranks_has(&sel, 4) &&
	    trc_ranks_has(&sel, 9) && !trc_ranks_has(&sel, 1) &&
	    !trc_ranks_has(&sel, 6), "  its members");
	ok(trc_ranks_parse("5-3", &sel) == -1, "a reversed range");
	ok(trc_ranks_parse("1,", &sel) == -1, "a trailing comma");
	ok(trc_ranks_parse("a", &sel) == -1, "not a number");
	ok(trc_kinds_parse("S,RE,MK", &mask) == 0 && mask ==
	    ((1u << TRC_SB) | (1u << TRC_SE) | (1u << TRC_RE) | (1u << TRC_MK)),
	    "a kind list with a family");
	ok(trc_kinds_parse("SB,ZZ", &mask) == -1, "an unknown kind");

	for (i = 0; i < 1000; i++) {
		snprintf(buf, sizeof(buf), "name%d", i);
		ids_ok &= trc_intern(&in, buf, strlen(buf)) == i;
	}
	ok(ids_ok, "1000 names get ids in order");
	ok(trc_intern(&in, "name500", 7) == 500 &&
	    trc_intern_find(&in, "name999", 7) == 999 &&
	    trc_intern_find(&in, "name1000", 8) == -1 &&
	    trc_intern_find(&in, "name99", 6) == 99, "  and are found again");
	trc_intern_free(&in);
	return done_testing();
}
