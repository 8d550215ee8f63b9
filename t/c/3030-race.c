/*
 * Unit tests of lib/race.c: what a race point holds, stopping, stats,
 * races settled while the stream goes on, memory that does not grow
 * with the choices, and errors named by line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "trc.h"
#include "trc_race.h"

struct seen {
	int		 n, stop_at;
	long		 line[4], took[4], could[4][4];
	int32_t		 rank[4], src[4][4];
	size_t		 ncould[4];
	char		 call[4][16];
};

static int
keep(void *arg, const struct trc_race_point *pt)
{
	struct seen *s = arg;
	size_t k;
	int i = s->n++;

	if (i < 4) {
		s->line[i] = pt->line;
		s->rank[i] = pt->rank;
		s->took[i] = pt->ntook > 0 ? pt->took[0].line : -1;
		s->ncould[i] = pt->ncould;
		snprintf(s->call[i], sizeof(s->call[i]), "%s", pt->call);
		for (k = 0; k < pt->ncould && k < 4; k++) {
			s->could[i][k] = pt->could[k].line;
			s->src[i][k] = pt->could[k].src;
		}
	}
	return s->stop_at > 0 && s->n >= s->stop_at;
}

static long line_no;

/* Feeds "RANK KIND attrs" as the next line, at time line_no ns. */
static int
feed(struct trc_race *rs, const char *what)
{
	char buf[256], err[TRC_ERRLEN];
	struct trc_event ev;
	int n;

	line_no++;
	n = snprintf(buf, sizeof(buf), "0.%09ld %s", line_no, what);
	if (trc_parse_line(buf, (size_t)n, &ev, err) < 0) {
		printf("# %s: %s\n", what, err);
		return -1;
	}
	ev.line = line_no;
	return trc_race_event(rs, &ev);
}

int
main(void)
{
	struct trc_race_stats st;
	struct trc_race *rs;
	struct seen s;
	char buf[128];
	int i, rc, early;

	/* Rank 0 takes 1's message with a wildcard; 2's was sent freely. */
	memset(&s, 0, sizeof(s));
	rs = trc_race_new("x", 3, keep, &s);
	line_no = 1;
	rc = feed(rs, "0 RB peer=* tag=5 bytes=4");
	rc |= feed(rs, "1 SE peer=0 tag=5 bytes=4");
	rc |= feed(rs, "2 SE peer=0 tag=5 bytes=4");
	rc |= feed(rs, "0 RE peer=1 tag=5 bytes=4");
	rc |= feed(rs, "0 RB peer=2 tag=5 bytes=4");
	rc |= feed(rs, "0 RE peer=2 tag=5 bytes=4");
	is_int(rc, 0, "events taken");
	is_int(s.n, 0, "nothing settled before the end");
	is_int(trc_race_end(rs), 0, "end");
	is_int(s.n, 1, "one race");
	ok(s.line[0] == 2 && s.rank[0] == 0 && strcmp(s.call[0], "recv") == 0,
	    "at line 2, rank 0, recv");
	is_int(s.took[0], 3, "took line 3's message");
	ok(s.ncould[0] == 1 && s.could[0][0] == 4 && s.src[0][0] == 2,
	    "could take line 4's, from 2");
	trc_race_stats(rs, &st);
	ok(st.choices == 1 && st.races == 1 && st.events == 6,
	    "stats: 1 choice, 1 race, 6 events");
	is_int((long long)st.peak_msgs, 2, "two messages in flight at most");
	trc_race_free(rs);

	/*
	 * 3000 wildcard receives of rank 0, each racing with rank 2's next
	 * message, rank 0 telling both senders after each: races are
	 * printed while the stream goes on, the open choices stay few, and
	 * a report that asks to stop stops.
	 */
	memset(&s, 0, sizeof(s));
	s.stop_at = 1500;
	rs = trc_race_new("y", 3, keep, &s);
	line_no = 1;
	rc = feed(rs, "2 SE peer=0 tag=5 bytes=4");
	early = -1;
	for (i = 0; i < 3000 && rc == 0; i++) {
		rc |= feed(rs, "1 SE peer=0 tag=5 bytes=4");
		rc |= feed(rs, "0 RB peer=* tag=5 bytes=4");
		rc |= feed(rs, "0 RE peer=1 tag=5 bytes=4");
		rc |= feed(rs, "0 RB peer=2 tag=5 bytes=4");
		rc |= feed(rs, "0 RE peer=2 tag=5 bytes=4");
		rc |= feed(rs, "0 SE peer=1 tag=6 bytes=4");
		rc |= feed(rs, "0 SE peer=2 tag=6 bytes=4");
		rc |= feed(rs, "1 RE peer=0 tag=6 bytes=4");
		rc |= feed(rs, "2 RE peer=0 tag=6 bytes=4");
		if (rc == 0)
			rc |= feed(rs, "2 SE peer=0 tag=5 bytes=4");
		if (early < 0 && s.n > 0)
			early = i;
	}
	ok(early > 0 && early < 2100, "races printed while reading (first at "
	    "iteration %d)", early);
	is_int(rc, 1, "the report asked to stop: 1");
	is_int(s.n, 1500, "stopped at the 1500th race");
	is_int(feed(rs, "0 RB peer=* tag=5 bytes=4"), 1, "stopped stays stopped");
	trc_race_stats(rs, &st);
	ok(st.peak_open < 2100, "open choices stay few (%zu)", st.peak_open);
	trc_race_free(rs);

	/* Errors: a receive without a send, named at the end. */
	rs = trc_race_new("z.trc", 2, keep, &s);
	line_no = 1;
	rc = feed(rs, "0 RB peer=1 tag=5 bytes=4");
	rc |= feed(rs, "0 RE peer=1 tag=5 bytes=4");
	is_int(rc, 0, "a receive waits for its send");
	is_int(trc_race_end(rs), -1, "end: -1");
	is_str(trc_race_error(rs), "z.trc:3: receive from 1 tag 5 has no send",
	    "named by line");
	trc_race_free(rs);

	/* A collective on a communicator without size=. */
	rs = trc_race_new("w.trc", 0, NULL, NULL);
	line_no = 1;
	is_int(feed(rs, "0 XB op=barrier bytes=0"), -1, "a world collective "
	    "without ranks=");
	snprintf(buf, sizeof(buf), "%s", trc_race_error(rs));
	is_str(buf, "w.trc:2: collective needs the header's ranks= or size=",
	    "named by line");
	trc_race_free(rs);
	return done_testing();
}
