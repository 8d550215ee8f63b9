/*
 * 2002-runs: a run table read back (lib/runs.c), with every value
 * worked out by hand from the table below, and its error messages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "trc.h"

static char path[] = "/tmp/trc-2002-runs.XXXXXX";
static char err[512];

/* The table into the test's file. */
static void
table(const char *text)
{
	FILE *fp = fopen(path, "w");

	if (fp == NULL || fputs(text, fp) == EOF || fclose(fp) == EOF) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
}

/* Reading (and, when design, the design) fails with want after path. */
static void
fails(const char *text, int design, const char *want, const char *name)
{
	struct trc_runs rs;
	struct trc_design d;
	char full[512];
	long r;
	int rc;

	table(text);
	snprintf(full, sizeof full, "%s%s", path, want);
	err[0] = '\0';
	rc = trc_runs_read(&rs, path, err, sizeof err);
	if (design && rc == 0) {
		rc = trc_runs_design(&rs, &d, &r, err, sizeof err);
		if (rc == 0)
			trc_design_free(&d);
		trc_runs_free(&rs);
	}
	is_int(rc, -1, name);
	is_str(err, full, "  the message");
}

int
main(void)
{
	struct trc_runs rs;
	struct trc_design d;
	struct trc_effects e;
	struct trc_effect_rank rk[4];
	const struct trc_place *pl;
	double sum[4];
	long r, nhigh, nknown, i, n;
	long long fired;
	int fd;

	if ((fd = mkstemp(path)) == -1) {
		printf("Bail out! mkstemp\n");
		return 1;
	}
	close(fd);

	/*
	 * A 2^2 with a repeat of the baseline (std 0) in the middle: it
	 * goes after the design's runs.  Distances by point: (1) 0, a 2,
	 * b 0, ab 2, so q0 = 4 / 4 = 1, qA = (-0 + 2 - 0 + 2) / 4 = 1,
	 * qB = (-0 - 2 + 0 + 2) / 4 = 0, qAB = (0 - 2 - 0 + 2) / 4 = 0.
	 */
	table("run\tstd\tA\tB\tchoice\tfired\tdistance\ttime\n"
	    "r1\t1\t-1\t-1\t-\t-\t0\t1.5\n"
	    "r2\t2\t+1\t-1\t0:send:a.c:12\t3\t2\t2\n"
	    "r3\t0\t-\t-\t1:recv:b.c:20\t?\t1\t1\n"
	    "r4\t3\t-1\t+1\t-\t0\t0\t1\n"
	    "r5\t4\t+\t1\t0:send:a.c:9\t4,0\t2\t3\n");
	if (trc_runs_read(&rs, path, err, sizeof err) == -1) {
		printf("Bail out! %s\n", err);
		return 1;
	}
	is_int(rs.p, 2, "2 factors");
	is_int(rs.nresp, 2, "2 responses: distance, time");
	is_int(trc_runs_response(&rs, "time"), 1, "time is response 1");
	is_int(trc_runs_response(&rs, "A"), -1, "a factor is no response");
	is_int(rs.n, 4, "4 runs in the design");
	is_int(rs.nextra, 1, "1 outside it");
	is_str(rs.id[2], "r4", "the design's runs in the table's order");
	is_str(rs.id[4], "r3", "the run outside last");
	is_int(rs.pt[3], 3, "r5: A and B high");
	is_num(rs.resp[4 * 2 + 1], 1, 0, "r3's time moved with it");
	is_int(rs.fired[1 * TRC_MAXFACTORS + 0], 3, "r2: A made 3 delays");
	is_int(rs.fired[4 * TRC_MAXFACTORS + 0], -1, "r3: ? is unknown");
	trc_runs_fired(&rs, 0, &nhigh, &nknown, &fired);
	ok(nhigh == 2 && nknown == 2 && fired == 7, "A: 2 runs high, 3 + 4 "
	    "delays");
	trc_runs_fired(&rs, 1, &nhigh, &nknown, &fired);
	ok(nhigh == 2 && nknown == 2 && fired == 0, "B: 2 runs high, none "
	    "made");

	if (trc_runs_design(&rs, &d, &r, err, sizeof err) == -1) {
		printf("Bail out! %s\n", err);
		return 1;
	}
	ok(d.p == 2 && d.k == 0 && r == 1, "a full 2^2, one replication");
	trc_runs_point_sums(&rs, &d, 0, sum);
	ok(sum[0] == 0 && sum[1] == 2 && sum[2] == 0 && sum[3] == 2,
	    "distance by point: 0 2 0 2, the baseline repeat left out");
	if (trc_runs_effects(&rs, &d, r, 0, &e, err, sizeof err) == -1) {
		printf("Bail out! %s\n", err);
		return 1;
	}
	ok(e.q[0] == 1 && e.q[1] == 1 && e.zero[2] && e.zero[3],
	    "q0 = 1, qA = 1, qB = qAB = 0");
	n = trc_effects_rank(&e, rk);
	ok(n == 1 && rk[0].i == 1 && rk[0].ss == 4, "ranked: A alone, "
	    "SS = 4 x 1^2 = 4");
	trc_effects_free(&e);

	/* r5 differs first at line 9; only r3 differs without delay. */
	pl = trc_runs_first_difference(&rs, 0, 0);
	ok(pl != NULL && pl->rank == 0 && strcmp(pl->call, "send") == 0 &&
	    strcmp(pl->where, "a.c:9") == 0, "first difference: rank 0 "
	    "send a.c:9");
	for (i = 0, n = 0; pl != NULL && i < rs.n + rs.nextra; i++)
		n += trc_runs_differs_at(&rs, i, 0, 0, pl) ? i : 100;
	is_int(n, 3 + 4 * 100, "  run r5 alone differs there");
	pl = trc_runs_first_difference(&rs, 0, 1);
	ok(pl != NULL && pl->rank == 1 && pl->line == 20 &&
	    strcmp(pl->where, "b.c:20") == 0, "without delay: rank 1 b.c:20");
	trc_design_free(&d);
	trc_runs_free(&rs);

	fails("A\tA\ty\n+\t+\t1\n", 0, ":1: duplicate column 'A'",
	    "a column twice");
	fails("A\tC\ty\n+\t+\t1\n", 0, ":1: no column for factor 'B'",
	    "a factor missing");
	fails("A\ty\n2\t5\n", 0, ":2: invalid level '2' in column 'A'",
	    "a level not +-1");
	fails("A\ty\n+\t5\t6\n", 0, ":2: expected 2 fields, found 3",
	    "a field too many");
	fails("A\tfired\ty\n+\t-\t1\n", 0, ":2: invalid count '-' in column "
	    "'fired' (want - with no factor high, ?, or a count per factor "
	    "high)", "- with a factor high");
	fails("A\tB\tfired\ty\n+\t+\t3\t1\n", 0, ":2: invalid count '3' in "
	    "column 'fired' (want - with no factor high, ?, or a count per "
	    "factor high)", "one count for two factors high");
	fails("A\tchoice\ty\n+\t0:send:a.c\t1\n", 0, ":2: invalid choice "
	    "point '0:send:a.c' in column 'choice'", "a choice point "
	    "without a line");
	fails("std\tA\ty\n0\t+\t1\n", 0, ":2: a run outside the design "
	    "(std 0) with a factor high", "std 0 with delay");
	fails("A\ty\n", 0, ": no runs", "a header alone");
	fails("std\tA\ty\n0\t-\t1\n", 1, ": no runs in the design, only "
	    "runs outside it (std 0)", "only repeats of the baseline");
	fails("A\ty\n+\t1\n-\t1\n-\t2\n", 1, ": unbalanced replication: "
	    "2 runs at point 1, 1 at point 2", "unbalanced");

	unlink(path);
	return done_testing();
}
