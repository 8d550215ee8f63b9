/* Unit tests of lib/ratios.c: ratio tables, anchoring, first match, cache. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "trc.h"

static char path[64];

static struct trc_ratios *
load(const char *text, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "w");

	fputs(text, fp);
	fclose(fp);
	err[0] = '\0';
	return trc_ratios_load(path, err, errlen);
}

static void
bad(const char *text, const char *want, const char *name)
{
	char err[512], exp[512];
	struct trc_ratios *t = load(text, err, sizeof(err));

	snprintf(exp, sizeof(exp), "%s:%s", path, want);
	ok(t == NULL, "%s: rejected", name);
	is_str(err, exp, name);
	trc_ratios_free(t);
}

static double
get(struct trc_ratios *t, const char *label, int32_t rank, int *m)
{
	double k = -1;

	*m = trc_ratios_get(t, label, strlen(label), rank, &k);
	return k;
}

int
main(void)
{
	struct trc_ratios *t;
	char err[512];
	double k;
	unsigned long n;
	int fd, m, i;

	strcpy(path, "/tmp/trc-1101-XXXXXX");
	if ((fd = mkstemp(path)) < 0)
		return 2;
	close(fd);

	/* The paper's Table 1: speed ratios iPSC/2 -> iPSC/860. */
	t = load("# Mendes, Table 1\n"
	    "mode speed\n"
	    "IterEdge   0 14.2\n"
	    "IterEdge   1 14.4\n"
	    "Converged  0 8.5\n"
	    "Converged  1 7.8\n"
	    "Iterate    0 21.3\n"
	    "Iterate    1 20.9\n"
	    "Iter.*     all 10   # any other Iter... label\n"
	    "Iterate    * 99     # never reached: the row above wins\n",
	    err, sizeof(err));
	ok(t != NULL, "Table 1 loads");
	if (t == NULL) {
		printf("# %s\n", err);
		return done_testing();
	}
	ok(trc_ratios_mode(t) == TRC_RATIO_SPEED, "speed mode");
	is_num(get(t, "IterEdge", 0, &m), 1 / 14.2, 1e-15, "IterEdge rank 0: 1/14.2");
	is_int(m, 1, "matched");
	is_num(get(t, "IterEdge", 1, &m), 1 / 14.4, 1e-15, "IterEdge rank 1: 1/14.4");
	is_num(get(t, "Converged", 1, &m), 1 / 7.8, 1e-15, "Converged rank 1");
	is_num(get(t, "Iterate", 0, &m), 1 / 21.3, 1e-15, "Iterate rank 0");
	/* Rank 2 has no rank row: the first 'all' row that matches wins. */
	is_num(get(t, "Iterate", 2, &m), 1 / 10.0, 1e-15, "Iterate rank 2: Iter.* row, not the later one");
	/* Anchored: "Iter.*" must cover the whole label. */
	is_num(get(t, "MyIterate", 0, &m), 1, 0, "unanchored substring does not match");
	is_int(m, 0, "no row matched");
	is_num(get(t, "", 0, &m), 1, 0, "empty label: no row");
	is_num(get(t, "IterEdgeX", 0, &m), 1 / 10.0, 1e-15, "IterEdgeX: only Iter.* covers it");

	/* The cache: repeated lookups never run PCRE2 again. */
	n = trc_ratios_nmatch(t);
	for (i = 0; i < 1000; i++) {
		get(t, "IterEdge", 0, &m);
		get(t, "Iterate", 2, &m);
		get(t, "MyIterate", 0, &m);
	}
	is_int((long long)trc_ratios_nmatch(t), (long long)n, "cached lookups run no PCRE2");
	/* Many distinct pairs: the table grows and keeps every answer. */
	for (i = 0; i < 5000; i++)
		get(t, "Converged", i, &m);
	is_num(get(t, "Converged", 0, &m), 1 / 8.5, 1e-15, "after growth: Converged rank 0");
	is_num(get(t, "Converged", 4999, &m), 1, 0, "Converged rank 4999: no row");
	trc_ratios_free(t);

	t = load("mode time\n.* all 0.5\n", err, sizeof(err));
	ok(t != NULL && trc_ratios_mode(t) == TRC_RATIO_TIME, "time mode");
	if (t) {
		k = get(t, "anything", 7, &m);
		is_num(k, 0.5, 0, "time mode multiplies by the number itself");
		k = get(t, "", 7, &m);
		is_num(k, 0.5, 0, ".* matches the empty label");
	}
	trc_ratios_free(t);

	/* first=K rows: the first K intervals of a pair, counted by next
	 * with take; get gives the steady row alone; next without take
	 * does not count. */
	t = load("mode time\nA 0 1 first=2\nA 0 0.25 first=3\nA all 0.5\n"
	    "B 0 2 first=1\n", err, sizeof(err));
	ok(t != NULL && trc_ratios_counted(t), "first= rows: the table counts");
	if (t) {
		double v[5];
		int i2, rc = 0;

		for (i2 = 0; i2 < 5; i2++)
			rc |= trc_ratios_next(t, "A", 1, 0, 1, &v[i2]) != 1;
		ok(!rc && v[0] == 1 && v[1] == 1 && v[2] == 0.25 &&
		    v[3] == 0.5 && v[4] == 0.5,
		    "A on rank 0: 1, 1 (first=2), 0.25 (first=3), 0.5 after");
		ok(trc_ratios_next(t, "A", 1, 1, 1, &k) == 1 && k == 0.5,
		    "A on rank 1: its own count, no first= row: 0.5");
		ok(trc_ratios_get(t, "A", 1, 0, &k) == 1 && k == 0.5,
		    "get: the steady row");
		ok(trc_ratios_next(t, "B", 1, 0, 0, &k) == 1 && k == 2 &&
		    trc_ratios_next(t, "B", 1, 0, 0, &k) == 1 && k == 2,
		    "next without take does not count: B's first interval twice");
		ok(trc_ratios_next(t, "B", 1, 0, 1, &k) == 1 && k == 2 &&
		    trc_ratios_next(t, "B", 1, 0, 1, &k) == 0 && k == 1,
		    "B: 2 for its first, then no row (1, unmatched)");
	}
	trc_ratios_free(t);
	t = load("mode speed\nA 0 4\n", err, sizeof(err));
	ok(t != NULL && !trc_ratios_counted(t), "no first= row: nothing counted");
	trc_ratios_free(t);

	bad("mode speed\nIter(Edge 0 14.2\n",
	    "2: bad pattern 'Iter(Edge': missing closing parenthesis at offset 9",
	    "bad pattern");
	bad("IterEdge 0 14.2\n",
	    "1: row before the 'mode speed' or 'mode time' line", "row before mode");
	bad("# empty\n", "1: no 'mode speed' or 'mode time' line", "no mode");
	bad("mode fast\n", "1: invalid mode 'fast' (want 'speed' or 'time')", "bad mode");
	bad("mode time\nmode speed\n", "2: second 'mode' line", "two modes");
	bad("mode time\nx 0\n", "2: expected 'PATTERN RANK RATIO [first=N]', got 2 fields", "short row");
	bad("mode time\nx 0 1 first=2 y\n", "2: expected 'PATTERN RANK RATIO [first=N]', got 5 fields", "long row");
	bad("mode time\nx 0 1 first=0\n", "2: invalid field 'first=0' (want first=N, N >= 1)", "first=0");
	bad("mode time\nx 0 1 first=\n", "2: invalid field 'first=' (want first=N, N >= 1)", "first= empty");
	bad("mode time\nx 0 1 first=-3\n", "2: invalid field 'first=-3' (want first=N, N >= 1)", "first negative");
	bad("mode time\nx 0 1 first=2x\n", "2: invalid field 'first=2x' (want first=N, N >= 1)", "first=2x");
	bad("mode time\nx 0 1 last=2\n", "2: invalid field 'last=2' (want first=N, N >= 1)", "not first=");
	bad("mode time\nx r1 2\n", "2: invalid rank 'r1'", "bad rank");
	bad("mode time\nx -1 2\n", "2: invalid rank '-1'", "negative rank");
	bad("mode time\nx 1 0\n", "2: invalid ratio '0'", "zero ratio");
	bad("mode time\nx 1 2x\n", "2: invalid ratio '2x'", "bad ratio");
	unlink(path);
	return done_testing();
}
