/*
 * trc-cluster - representative ranks: the ranks of a trace grouped by
 * their computation time per procedure, one representative per group,
 * and each rank's distance from it (PHANTOM replays only those).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "prog.h"
#include "trc.h"
#include "trc_cluster.h"
#include "trc_summary.h"

/* Ranks at most, unless TRC_CLUSTER_MAX says: distances of 512 MB. */
#define CLUSTER_MAX	8192

static const char usage_line[] =
    "trc-cluster [-f format] [-n groups] [--radius distance] "
    "[--flops rate] [file]";

enum { OPT_RADIUS = 256, OPT_FLOPS };

static struct trc_open_opts opts;

static void
usage(int status)
{
	printf("usage: %s\n", usage_line);
	exit(status);
}

/* The members of group g as a rank list, "0,2-5". */
static void
put_members(const struct trc_cluster *c, int32_t g)
{
	int32_t i, j;
	int first = 1;

	for (i = 0; i < c->n; i = j) {
		if (c->group[i] != g) {
			j = i + 1;
			continue;
		}
		for (j = i + 1; j < c->n && c->group[j] == g; j++)
			;
		printf("%s%ld", first ? "" : ",", (long)i);
		if (j - 1 > i)
			printf("-%ld", (long)(j - 1));
		first = 0;
	}
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "radius", required_argument, NULL, OPT_RADIUS },
		{ "flops", required_argument, NULL, OPT_FLOPS },
		{ "format", required_argument, NULL, 'f' },
		{ "groups", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	const struct trc_header *h;
	struct trc_reader *r;
	struct trc_summary *s;
	size_t nmax;
	struct trc_cluster cl;
	struct trc_event ev;
	double *v, *d, maxdist = 0.05;
	int32_t n, m, i, j, g, size;
	long k = 0;
	int c, rc;

	trc_std_options(argc, argv, usage);
	while ((c = getopt_long(argc, argv, "f:n:", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			trc_opt_format(&opts, optarg);
			break;
		case 'n':
			k = (long)estrtonum(optarg, 1, INT32_MAX, "group count");
			break;
		case OPT_RADIUS:
			maxdist = estrtod(optarg, "radius");
			if (!(maxdist >= 0))
				die("invalid radius '%s'", optarg);
			break;
		case OPT_FLOPS:
			trc_opt_flops(&opts, optarg);
			break;
		default:
			usage_error(usage_line);
		}
	}
	if (argc - optind > 1)
		usage_error(usage_line);
	if (trc_env_size("TRC_CLUSTER_MAX", CLUSTER_MAX, &nmax) < 0 ||
	    nmax > INT32_MAX)
		die("invalid TRC_CLUSTER_MAX '%s'", getenv("TRC_CLUSTER_MAX"));
	if ((r = trc_open_with(optind < argc ? argv[optind] : "-",
	    &opts)) == NULL || (s = trc_summary_new()) == NULL)
		die("out of memory");
	/* The distances take 8 bytes a pair of ranks: past the cap, an
	 * error as soon as the header or an event shows it. */
	if ((h = trc_get_header(r)) == NULL)
		die("%s", trc_error(r));
	if ((size_t)h->ranks > nmax)
		die("%s:1: ranks=%ld: more than %zu ranks to cluster "
		    "(TRC_CLUSTER_MAX)", trc_name(r), (long)h->ranks, nmax);
	while ((rc = trc_next(r, &ev)) > 0) {
		if ((size_t)ev.rank >= nmax)
			die("%s:%ld: rank %ld: more than %zu ranks to cluster "
			    "(TRC_CLUSTER_MAX)", trc_name(r), ev.line,
			    (long)ev.rank, nmax);
		if (trc_summary_add(s, &ev) < 0)
			break;
	}
	if (rc < 0)
		die("%s", trc_error(r));
	if (trc_summary_error(s) != NULL)
		die("%s:%ld: %s", trc_name(r), trc_lineno(r),
		    trc_summary_error(s));
	if (trc_summary_finish(s) < 0)
		die("%s: %s", trc_name(r), trc_summary_error(s));
	if ((n = s->nranks) == 0)
		die("%s: no events", trc_name(r));
	if ((v = trc_cluster_vectors(s, &m)) == NULL ||
	    (d = malloc((size_t)n * (size_t)n * sizeof(*d))) == NULL)
		die("out of memory");
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			d[(size_t)i * n + j] = trc_cluster_distance(
			    v + (size_t)i * m, v + (size_t)j * m, m);
	if (trc_cluster_run(d, n, (int32_t)k, maxdist, &cl) < 0)
		die("out of memory");

	printf("# representative ranks: %ld group%s of %ld rank%s by "
	    "computation per procedure (trc-cluster(1))\n", (long)cl.k,
	    cl.k == 1 ? "" : "s", (long)n, n == 1 ? "" : "s");
	for (g = 0; g < cl.k; g++) {
		for (size = 0, i = 0; i < n; i++)
			size += cl.group[i] == g;
		printf("#group %ld representative=%ld size=%ld ranks=",
		    (long)g, (long)cl.medoid[g], (long)size);
		put_members(&cl, g);
		putchar('\n');
	}
	printf("rank\tgroup\trepresentative\tdistance\tseconds\n");
	for (i = 0; i < n; i++) {
		g = cl.group[i];
		printf("%ld\t%ld\t%ld\t%.6f\t%.9f\n", (long)i, (long)g,
		    (long)cl.medoid[g], cl.dist[i], trc_cluster_euclid(
		    v + (size_t)cl.medoid[g] * m, v + (size_t)i * m, m));
	}
	trc_cluster_free(&cl);
	free(d);
	free(v);
	trc_summary_free(s);
	trc_close(r);
	fshut_stdout();
	return 0;
}
