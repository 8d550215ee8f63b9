/*
 * lcs-bench - the LCS engine against diff --minimal on the same files.
 *
 *	lcs-bench gen [-n events] [-p fraction] [-r ranks] [-s seed] dir
 *	lcs-bench lcs dir
 *	lcs-bench diff dir
 *
 * gen writes two trc streams dir/a.trc and dir/b.trc of a halo
 * exchange with wildcard receives, b differing from a in the given
 * fraction of events, and per-rank token files dir/a/R and dir/b/R
 * holding "KIND PEER" per event, the strings trc-stable compares by
 * default.  lcs reads the token files rank by rank and computes the
 * LCS with trc_lcs(); diff runs diff --minimal on each pair.  Both
 * print one line: time, CPU, peak memory, total LCS and distance, so
 * that the answers can be checked against each other.
 */
#define _DEFAULT_SOURCE	/* wait4 */

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "prog.h"
#include "trc.h"

#define USAGE "lcs-bench gen [-n events] [-p fraction] [-r ranks] [-s seed] dir\n" \
	"       lcs-bench lcs dir\n" \
	"       lcs-bench diff dir"

static uint64_t rng = 88172645463325252ULL;

static uint64_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
usage(int status)
{
	fprintf(status ? stderr : stdout, "usage: %s\n", USAGE);
	exit(status);
}

/* One iteration of a rank: a halo exchange in a ring, an allreduce. */
#define SLOTS 13

static int
slot_event(int e, int r, int P, char *kind, int *peer, char *rest, size_t len)
{
	int right = (r + 1) % P, left = (r + P - 1) % P;

	*peer = -1;
	rest[0] = '\0';
	switch (e) {
	case 0: strcpy(kind, "MK"); snprintf(rest, len, " name=iter"); break;
	case 1: strcpy(kind, "PB"); snprintf(rest, len, " fn=Iterate"); break;
	case 2: case 3: strcpy(kind, e == 2 ? "SB" : "SE"); *peer = right;
		snprintf(rest, len, " tag=1 bytes=4096"); break;
	case 4: case 5: strcpy(kind, e == 4 ? "SB" : "SE"); *peer = left;
		snprintf(rest, len, " tag=2 bytes=4096"); break;
	case 6: case 8: strcpy(kind, "RB"); *peer = -2;
		snprintf(rest, len, " tag=* bytes=4096"); break;
	case 7: strcpy(kind, "RE"); *peer = left;
		snprintf(rest, len, " tag=1 bytes=4096"); break;
	case 9: strcpy(kind, "RE"); *peer = right;
		snprintf(rest, len, " tag=2 bytes=4096"); break;
	case 10: strcpy(kind, "PE"); snprintf(rest, len, " fn=Iterate"); break;
	case 11: case 12: strcpy(kind, e == 11 ? "XB" : "XE");
		snprintf(rest, len, " op=allreduce bytes=8"); break;
	}
	return 0;
}

static void
put(FILE *trc, FILE *tok, int64_t t, int r, const char *kind, int peer,
    const char *rest)
{
	char tb[32], pb[16];

	trc_format_time(tb, t);
	if (peer == -2)
		strcpy(pb, "*");
	else
		snprintf(pb, sizeof(pb), "%d", peer);
	if (peer == -1)
		fprintf(trc, "%s %d %s%s\n", tb, r, kind, rest);
	else
		fprintf(trc, "%s %d %s peer=%s%s\n", tb, r, kind, pb, rest);
	fprintf(tok, "%s %s\n", kind, peer == -1 ? "-" : pb);
}

static int
gen(int argc, char **argv)
{
	long long n = 10000000, P = 64;
	double p = 0.0001;
	char path[4096], kind[4], rest[64];
	FILE *ta, *tb, **ka, **kb;
	uint64_t thresh;
	long long iters, it, r, nedit = 0;
	int c, e, peer;

	while ((c = getopt(argc, argv, "n:p:r:s:")) != -1) {
		switch (c) {
		case 'n': n = estrtonum(optarg, 1, 1LL << 40, "event count"); break;
		case 'p': p = estrtod(optarg, "fraction"); break;
		case 'r': P = estrtonum(optarg, 2, 4096, "rank count"); break;
		case 's': rng += (uint64_t)estrtonum(optarg, 0, 1LL << 62, "seed"); break;
		default: usage(2);
		}
	}
	if (optind != argc - 1 || p < 0 || p > 1)
		usage(2);
	thresh = (uint64_t)(p * 18446744073709551615.0);
	iters = (n + P * SLOTS - 1) / (P * SLOTS);
	snprintf(path, sizeof(path), "%s/a", argv[optind]);
	mkdir(argv[optind], 0777);
	mkdir(path, 0777);
	snprintf(path, sizeof(path), "%s/b", argv[optind]);
	mkdir(path, 0777);
	snprintf(path, sizeof(path), "%s/a.trc", argv[optind]);
	if ((ta = fopen(path, "w")) == NULL)
		die("%s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/b.trc", argv[optind]);
	if ((tb = fopen(path, "w")) == NULL)
		die("%s: %s", path, strerror(errno));
	ka = ecalloc((size_t)P, sizeof(*ka));
	kb = ecalloc((size_t)P, sizeof(*kb));
	for (r = 0; r < P; r++) {
		snprintf(path, sizeof(path), "%s/a/%lld", argv[optind], r);
		if ((ka[r] = fopen(path, "w")) == NULL)
			die("%s: %s", path, strerror(errno));
		snprintf(path, sizeof(path), "%s/b/%lld", argv[optind], r);
		if ((kb[r] = fopen(path, "w")) == NULL)
			die("%s: %s", path, strerror(errno));
	}
	fprintf(ta, "#trc 1 ranks=%lld\n", P);
	fprintf(tb, "#trc 1 ranks=%lld\n", P);
	for (it = 0; it < iters; it++)
		for (e = 0; e < SLOTS; e++)
			for (r = 0; r < P; r++) {
				int64_t t = ((it * SLOTS + e) * 1000 + r) * 10;

				slot_event(e, (int)r, (int)P, kind, &peer,
				    rest, sizeof(rest));
				put(ta, ka[r], t, (int)r, kind, peer, rest);
				if (rnd() >= thresh) {
					put(tb, kb[r], t, (int)r, kind, peer, rest);
					continue;
				}
				nedit++;
				switch (rnd() % 3) {
				case 0:		/* lost */
					break;
				case 1:		/* an extra event before it */
					put(tb, kb[r], t, (int)r, "MK", -1,
					    " name=extra");
					put(tb, kb[r], t, (int)r, kind, peer, rest);
					break;
				default:	/* another peer, or another event */
					if (peer >= 0)
						put(tb, kb[r], t, (int)r, kind,
						    (peer + 1 + (int)(rnd() % (P - 1))) % P,
						    rest);
					else
						put(tb, kb[r], t, (int)r, "MK", -1,
						    " name=changed");
					break;
				}
			}
	if (fclose(ta) || fclose(tb))
		die("write error");
	for (r = 0; r < P; r++)
		if (fclose(ka[r]) || fclose(kb[r]))
			die("write error");
	free(ka);
	free(kb);
	printf("gen: %lld ranks, %lld events, %lld edits (%.4f%%)\n", P,
	    iters * SLOTS * P, nedit, 100.0 * nedit / (iters * SLOTS * P));
	return 0;
}

/* Lines interned to tokens, as diff hashes lines to equivalence classes. */
struct intern {
	char		**key;
	uint32_t	*id;
	size_t		 mask, n;
};

static uint32_t
intern(struct intern *in, const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	for (i = h & in->mask; in->key[i] != NULL; i = (i + 1) & in->mask)
		if (strlen(in->key[i]) == len && memcmp(in->key[i], s, len) == 0)
			return in->id[i];
	if (2 * (in->n + 1) > in->mask)
		die("too many distinct lines");
	in->key[i] = emalloc(len + 1);
	memcpy(in->key[i], s, len);
	in->key[i][len] = '\0';
	in->id[i] = (uint32_t)in->n++;
	return in->id[i];
}

/* Reads a token file into *v; returns the count, -1 when missing. */
static long
readtok(const char *path, struct intern *in, uint32_t **v, size_t *cap)
{
	FILE *fp;
	char *line = NULL;
	size_t lcap = 0, n = 0;
	ssize_t len;

	if ((fp = fopen(path, "r")) == NULL)
		return -1;
	while ((len = getline(&line, &lcap, fp)) > 0) {
		if (line[len - 1] == '\n')
			len--;
		if (n == *cap) {
			*cap = *cap ? 2 * *cap : 4096;
			*v = ereallocarray(*v, *cap, sizeof(**v));
		}
		(*v)[n++] = intern(in, line, (size_t)len);
	}
	free(line);
	fclose(fp);
	return (long)n;
}

static double
cpu_self(struct rusage *ru)
{
	getrusage(RUSAGE_SELF, ru);
	return ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 +
	    ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6;
}

static int
lcs(const char *dir)
{
	struct intern in;
	struct rusage ru;
	struct trc_lcs_stat st;
	uint32_t *a = NULL, *b = NULL;
	size_t acap = 0, bcap = 0;
	char path[4096];
	long na, nb, r;
	size_t i;
	int64_t L, tn = 0, tm = 0, tl = 0, td = 0, nalgo[3] = { 0, 0, 0 };
	double t0 = now(), c0 = cpu_self(&ru), cpu;

	in.mask = (1 << 20) - 1;
	in.n = 0;
	in.key = ecalloc(in.mask + 1, sizeof(*in.key));
	in.id = ecalloc(in.mask + 1, sizeof(*in.id));
	for (r = 0;; r++) {
		snprintf(path, sizeof(path), "%s/a/%ld", dir, r);
		if ((na = readtok(path, &in, &a, &acap)) < 0)
			break;
		snprintf(path, sizeof(path), "%s/b/%ld", dir, r);
		if ((nb = readtok(path, &in, &b, &bcap)) < 0)
			die("%s: missing", path);
		if ((L = trc_lcs(a, (size_t)na, b, (size_t)nb, &st)) < 0)
			die("out of memory");
		nalgo[st.algo]++;
		tn += na;
		tm += nb;
		tl += L;
		td += (na > nb ? na : nb) - L;
	}
	if (r == 0)
		die("%s/a/0: missing", dir);
	cpu = cpu_self(&ru) - c0;
	printf("lcs ranks=%ld n=%lld m=%lld lcs=%lld d=%lld wall=%.2f cpu=%.2f"
	    " maxrss_kb=%ld myers=%lld bitpar=%lld\n", r, (long long)tn,
	    (long long)tm, (long long)tl, (long long)td, now() - t0,
	    cpu, ru.ru_maxrss, (long long)nalgo[TRC_LCS_MYERS],
	    (long long)nalgo[TRC_LCS_BITPAR]);
	for (i = 0; i <= in.mask; i++)
		free(in.key[i]);
	free(in.key);
	free(in.id);
	free(a);
	free(b);
	return 0;
}

static long
count_lines(const char *path)
{
	FILE *fp;
	long n = 0;
	int c;

	if ((fp = fopen(path, "r")) == NULL)
		return -1;
	while ((c = getc(fp)) != EOF)
		n += c == '\n';
	fclose(fp);
	return n;
}

static int
diffrun(const char *dir)
{
	char pa[4096], pb[4096], buf[1 << 16];
	struct rusage ru;
	long r, na, nb, maxrss = 0;
	int64_t tn = 0, tm = 0, tl = 0, td = 0, dels;
	double wall = 0, cpu = 0, t0;

	for (r = 0;; r++) {
		FILE *fp;
		int fd[2], status;
		pid_t pid;

		snprintf(pa, sizeof(pa), "%s/a/%ld", dir, r);
		snprintf(pb, sizeof(pb), "%s/b/%ld", dir, r);
		if ((na = count_lines(pa)) < 0)
			break;
		if ((nb = count_lines(pb)) < 0)
			die("%s: missing", pb);
		if (pipe(fd) == -1)
			die("pipe: %s", strerror(errno));
		t0 = now();
		if ((pid = fork()) == -1)
			die("fork: %s", strerror(errno));
		if (pid == 0) {
			dup2(fd[1], 1);
			close(fd[0]);
			close(fd[1]);
			execlp("diff", "diff", "--minimal", pa, pb, (char *)NULL);
			_exit(127);
		}
		close(fd[1]);
		if ((fp = fdopen(fd[0], "r")) == NULL)
			die("fdopen: %s", strerror(errno));
		dels = 0;
		while (fgets(buf, sizeof(buf), fp) != NULL)
			dels += buf[0] == '<';
		fclose(fp);
		if (wait4(pid, &status, 0, &ru) == -1)
			die("wait: %s", strerror(errno));
		wall += now() - t0;
		if (!WIFEXITED(status) || WEXITSTATUS(status) > 1)
			die("diff failed on %s", pa);
		cpu += ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		    ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
		if (ru.ru_maxrss > maxrss)
			maxrss = ru.ru_maxrss;
		tn += na;
		tm += nb;
		tl += na - dels;
		td += (na > nb ? na : nb) - (na - dels);
	}
	if (r == 0)
		die("%s/a/0: missing", dir);
	printf("diff ranks=%ld n=%lld m=%lld lcs=%lld d=%lld wall=%.2f cpu=%.2f"
	    " maxrss_kb=%ld\n", r, (long long)tn, (long long)tm, (long long)tl,
	    (long long)td, wall, cpu, maxrss);
	return 0;
}

int
main(int argc, char **argv)
{
	trc_setprogname(argv[0]);
	if (argc > 1 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0))
		usage(0);
	trc_std_options(argc, argv, usage);
	if (argc < 2)
		usage(2);
	if (strcmp(argv[1], "gen") == 0)
		return gen(argc - 1, argv + 1);
	if (argc != 3)
		usage(2);
	if (strcmp(argv[1], "lcs") == 0)
		lcs(argv[2]);
	else if (strcmp(argv[1], "diff") == 0)
		diffrun(argv[2]);
	else
		usage(2);
	fshut_stdout();
	return 0;
}
