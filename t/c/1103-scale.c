/*
 * Unit tests of lib/scale/ through its API: delays added before
 * chosen events, and wildcard receives re-matched in arrival order.
 * Expected streams are worked out by hand in the comments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "trc.h"

/* Rank 0 receives twice from any source; ranks 1 and 2 race to it. */
static const char race[] =
    "#trc 1 ranks=3\n"
    "0.000000000 0 RB peer=* tag=5 bytes=8\n"		/* event 0 */
    "0.000000000 1 MK\n"				/* 1 */
    "0.000000000 2 MK\n"				/* 2 */
    "0.001000000 1 SB peer=0 tag=5 bytes=8\n"		/* 3 */
    "0.001000000 1 SE peer=0 tag=5 bytes=8\n"		/* 4 */
    "0.002000000 2 SB peer=0 tag=5 bytes=16\n"		/* 5 */
    "0.002000000 2 SE peer=0 tag=5 bytes=16\n"		/* 6 */
    "0.003000000 0 RE peer=1 tag=5 bytes=8\n"		/* 7 */
    "0.003000000 0 RB peer=* tag=5 bytes=8\n"		/* 8 */
    "0.004000000 0 RE peer=2 tag=5 bytes=16\n";		/* 9 */

struct delay {
	int	 before;	/* input event index */
	int32_t	 rank;
	int64_t	 ns;
};

static char tmpl[] = "/tmp/trc-scale-test.XXXXXX";
static char diag0[256];		/* the first diagnostic of the last run */

/*
 * Run the engine on input; returns the output, header first, or NULL; *errors gets trc_scale_finish()'s answer.  fill adds that many
 * MK events of rank 2 after event fillat, 1 ns apart from fillt.
 */
static char *
run(const char *input, int rematch, const struct delay *d, size_t nd,
    int fill, int fillat, int64_t fillt, int *errors, unsigned long long
    *nrematched)
{
	struct trc_scale_conf conf;
	struct trc_reader *rd;
	struct trc_writer *w;
	struct trc_scale *s;
	struct trc_event ev;
	const struct trc_header *h;
	char in[64], outp[64], *buf, *nl;
	FILE *f;
	size_t i, len;
	long sz;
	int fd, ofd, k = 0, j;

	snprintf(in, sizeof(in), "%s", tmpl);
	snprintf(outp, sizeof(outp), "%s", tmpl);
	if ((fd = mkstemp(in)) < 0 || (ofd = mkstemp(outp)) < 0)
		return NULL;
	f = fdopen(fd, "w");
	/* The input, with fill MK lines after event fillat. */
	for (const char *p = input; *p != '\0'; p = nl + 1) {
		nl = strchr(p, '\n');
		fwrite(p, 1, (size_t)(nl - p + 1), f);
		if (*p != '#' && k++ == fillat)
			for (j = 0; j < fill; j++)
				fprintf(f, "0.%09lld 2 MK\n",
				    (long long)(fillt + j));
	}
	fclose(f);
	memset(&conf, 0, sizeof(conf));
	conf.rematch = rematch;
	rd = trc_open(in);
	w = trc_wopen(ofd);
	h = trc_get_header(rd);
	s = trc_scale_new(&conf, h, "race.trc", w);
	for (k = 0; trc_next(rd, &ev) > 0; k++) {
		for (i = 0; i < nd; i++)
			if (d[i].before == k)
				trc_scale_delay(s, d[i].rank, d[i].ns);
		if (trc_scale_feed(s, &ev) < 0) {
			printf("# %s\n", trc_scale_error(s));
			return NULL;
		}
	}
	*errors = trc_scale_finish(s);
	snprintf(diag0, sizeof(diag0), "%s", trc_scale_diag(s, 0) ?
	    trc_scale_diag(s, 0) : "");
	*nrematched = trc_scale_stats(s)->rematched;
	trc_wflush(w);
	trc_scale_free(s);
	trc_wfree(w);
	trc_close(rd);
	f = fopen(outp, "r");
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)sz + 1);
	len = fread(buf, 1, (size_t)sz, f);
	buf[len] = '\0';
	fclose(f);
	close(ofd);
	unlink(in);
	unlink(outp);
	return buf;
}

/* Drop rank 2's MK lines after the first, which only fill the stream. */
static char *
unfill(char *s)
{
	char *o = s, *p = s, *nl;
	int mk = 0;

	for (; *p != '\0'; p = nl + 1) {
		nl = strchr(p, '\n');
		if (strstr(p, " 2 MK ") != NULL && strstr(p, " 2 MK ") < nl &&
		    mk++ > 0)
			continue;
		memmove(o, p, (size_t)(nl - p + 1));
		o += nl - p + 1;
	}
	*o = '\0';
	return s;
}

int
main(void)
{
	struct delay d1 = { 3, 1, 4000000 };	/* 4 ms before rank 1's SB */
	unsigned long long nre;
	int errors;
	char *out;

	/*
	 * No delay: whether re-matched or not, every time is kept (K = 1,
	 * no fit) and each RE keeps its peer: rank 1's message (SE at
	 * 1 ms) arrives before rank 2's (2 ms).
	 */
	out = run(race, 1, NULL, 0, 0, -1, 0, &errors, &nre);
	is_str(out,
	    "#trc 1 ranks=3 order=time\n"
	    "0.000000000 0 RB peer=* tag=5 bytes=8 t0=0.000000000\n"
	    "0.000000000 1 MK t0=0.000000000\n"
	    "0.000000000 2 MK t0=0.000000000\n"
	    "0.001000000 1 SB peer=0 tag=5 bytes=8 t0=0.001000000\n"
	    "0.001000000 1 SE peer=0 tag=5 bytes=8 t0=0.001000000\n"
	    "0.002000000 2 SB peer=0 tag=5 bytes=16 t0=0.002000000\n"
	    "0.002000000 2 SE peer=0 tag=5 bytes=16 t0=0.002000000\n"
	    "0.003000000 0 RE peer=1 tag=5 bytes=8 t0=0.003000000\n"
	    "0.003000000 0 RB peer=* tag=5 bytes=8 t0=0.003000000\n"
	    "0.004000000 0 RE peer=2 tag=5 bytes=16 t0=0.004000000\n",
	    "rematch without delay: the stream as it was, t0= added");
	is_int(errors, 0, "no errors");
	is_int((long long)nre, 0, "nothing re-matched");
	free(out);

	/*
	 * 4 ms before rank 1's SB, recorded matching kept: SB' = SE' =
	 * 1 + 4 = 5 ms.  Rank 0's first RE waits for it: max(0 + 3, 5) =
	 * 5 ms; the RB after it 5 ms; the second RE max(5 + 1, 2) = 6 ms.
	 */
	out = run(race, 0, &d1, 1, 0, -1, 0, &errors, &nre);
	is_str(out,
	    "#trc 1 ranks=3 order=time\n"
	    "0.000000000 0 RB peer=* tag=5 bytes=8 t0=0.000000000\n"
	    "0.000000000 1 MK t0=0.000000000\n"
	    "0.000000000 2 MK t0=0.000000000\n"
	    "0.002000000 2 SB peer=0 tag=5 bytes=16 t0=0.002000000\n"
	    "0.002000000 2 SE peer=0 tag=5 bytes=16 t0=0.002000000\n"
	    "0.005000000 1 SB peer=0 tag=5 bytes=8 t0=0.001000000\n"
	    "0.005000000 1 SE peer=0 tag=5 bytes=8 t0=0.001000000\n"
	    "0.005000000 0 RE peer=1 tag=5 bytes=8 t0=0.003000000\n"
	    "0.005000000 0 RB peer=* tag=5 bytes=8 t0=0.003000000\n"
	    "0.006000000 0 RE peer=2 tag=5 bytes=16 t0=0.004000000\n",
	    "delay, recorded matching: the first receive waits for rank 1");
	free(out);

	/*
	 * The same delay, re-matched: rank 2's message (2 ms) now arrives
	 * before rank 1's (5 ms), so the first RE takes it, at
	 * max(0 + 3, 2) = 3 ms with peer=2 and its bytes=16; the RB at
	 * 3 ms; the second RE takes rank 1's, max(3 + 1, 5) = 5 ms, peer=1.
	 * Rank 1's SB and SE at 5 ms were produced before that RE.
	 */
	out = run(race, 1, &d1, 1, 0, -1, 0, &errors, &nre);
	is_str(out,
	    "#trc 1 ranks=3 order=time\n"
	    "0.000000000 0 RB peer=* tag=5 bytes=8 t0=0.000000000\n"
	    "0.000000000 1 MK t0=0.000000000\n"
	    "0.000000000 2 MK t0=0.000000000\n"
	    "0.002000000 2 SB peer=0 tag=5 bytes=16 t0=0.002000000\n"
	    "0.002000000 2 SE peer=0 tag=5 bytes=16 t0=0.002000000\n"
	    "0.003000000 0 RE peer=2 tag=5 bytes=16 t0=0.003000000\n"
	    "0.003000000 0 RB peer=* tag=5 bytes=8 t0=0.003000000\n"
	    "0.005000000 1 SB peer=0 tag=5 bytes=8 t0=0.001000000\n"
	    "0.005000000 1 SE peer=0 tag=5 bytes=8 t0=0.001000000\n"
	    "0.005000000 0 RE peer=1 tag=5 bytes=8 t0=0.004000000\n",
	    "delay, re-matched: the wildcard receives swap their sources");
	is_int(errors, 0, "no errors");
	is_int((long long)nre, 2, "two receives re-matched");
	free(out);

	/*
	 * The same with 6000 MK events of rank 2 between the RB at 3 ms
	 * and the last RE, 1 ns apart from 3.5 ms: the first receive is
	 * re-matched while the stream still runs (the watermark pass
	 * every 4096 + ranks events), not at its end.  Without the fill
	 * the output is the same.
	 */
	out = run(race, 1, &d1, 1, 6000, 8, 3500000, &errors, &nre);
	is_str(unfill(out),
	    "#trc 1 ranks=3 order=time\n"
	    "0.000000000 0 RB peer=* tag=5 bytes=8 t0=0.000000000\n"
	    "0.000000000 1 MK t0=0.000000000\n"
	    "0.000000000 2 MK t0=0.000000000\n"
	    "0.002000000 2 SB peer=0 tag=5 bytes=16 t0=0.002000000\n"
	    "0.002000000 2 SE peer=0 tag=5 bytes=16 t0=0.002000000\n"
	    "0.003000000 0 RE peer=2 tag=5 bytes=16 t0=0.003000000\n"
	    "0.003000000 0 RB peer=* tag=5 bytes=8 t0=0.003000000\n"
	    "0.005000000 1 SB peer=0 tag=5 bytes=8 t0=0.001000000\n"
	    "0.005000000 1 SE peer=0 tag=5 bytes=8 t0=0.001000000\n"
	    "0.005000000 0 RE peer=1 tag=5 bytes=8 t0=0.004000000\n",
	    "re-matched in the middle of a long stream");
	is_int((long long)nre, 2, "two receives re-matched");
	free(out);

	/*
	 * A wildcard receive whose message never comes: an error naming
	 * its line and tag.
	 */
	{
		static const char lone[] =
		    "#trc 1 ranks=2\n"
		    "0.000000000 0 RB peer=* tag=9 bytes=8\n"
		    "0.001000000 0 RE peer=1 tag=9 bytes=8\n"
		    "0.002000000 1 MK\n";
		out = run(lone, 1, NULL, 0, 0, -1, 0, &errors, &nre);
		is_int(errors, 1, "unmatched wildcard receive: one error");
		is_str(diag0, "race.trc:3: receive from any rank tag 9 comm 0 "
		    "has no matching send", "named by its line");
		free(out);
	}
	return done_testing();
}
