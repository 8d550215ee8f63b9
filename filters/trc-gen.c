/*
 * trc-gen - deterministic synthetic trc streams for tests and
 * benchmarks; the simulation is lib/gen.c.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prog.h"
#include "trc.h"

static const char usage_line[] =
    "trc-gen [-e events] [-i iterations] [-n ranks] "
    "[-p ring | halo | allreduce | master-worker] [-s seed] "
    "[--bytes bytes] [--compute seconds]";

/* Long options without a letter. */
enum { OPT_BYTES = 256, OPT_COMPUTE };

static void
usage(int status)
{
	printf("usage: %s\n", usage_line);
	exit(status);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "bytes", required_argument, NULL, OPT_BYTES },
		{ "compute", required_argument, NULL, OPT_COMPUTE },
		{ NULL, 0, NULL, 0 }
	};
	struct trc_gen_opts o = { TRC_GEN_RING, 4, 10, 4096, 1000000, 1 };
	struct trc_header h;
	struct trc_writer *w;
	struct trc_gen *g;
	char comment[256], line[TRC_GEN_LINE];
	const char *err;
	long long events = 0;
	size_t n;
	double sec;
	int c;

	trc_std_options(argc, argv, usage);
	while ((c = getopt_long(argc, argv, "e:i:n:p:s:", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case OPT_BYTES:
			o.bytes = estrtonum(optarg, 0, 1LL << 40, "byte count");
			break;
		case OPT_COMPUTE:
			sec = estrtod(optarg, "compute time");
			if (sec < 1e-9 || sec > 1000)
				die("invalid compute time '%s'", optarg);
			o.compute_ns = (int64_t)(sec * 1e9);
			break;
		case 'e':
			events = estrtonum(optarg, 1, 1LL << 40, "event count");
			break;
		case 'i':
			o.iterations = estrtonum(optarg, 1, INT32_MAX,
			    "iteration count");
			break;
		case 'n':
			o.ranks = (int32_t)estrtonum(optarg, 1, 1 << 24,
			    "rank count");
			break;
		case 'p':
			if (trc_gen_pattern(optarg, &o.pattern) < 0)
				die("unknown pattern '%s'", optarg);
			break;
		case 's':
			o.seed = (uint64_t)estrtonum(optarg, 0, INT64_MAX, "seed");
			break;
		default:
			usage_error(usage_line);
		}
	}
	if (optind != argc)
		usage_error(usage_line);
	if (events > 0 && (o.iterations = trc_gen_iterations_for(o.pattern,
	    o.ranks, events)) > INT32_MAX)
		die("too many events");
	if ((g = trc_gen_new(&o, &err)) == NULL)
		die("%s", err);

	if ((w = trc_wopen(STDOUT_FILENO)) == NULL)
		die("out of memory");
	memset(&h, 0, sizeof(h));
	h.version = 1;
	h.ranks = o.ranks;
	h.order = TRC_ORDER_TIME;
	h.extra.s = comment;
	h.extra.len = (size_t)snprintf(comment, sizeof(comment),
	    "# trc-gen -p %s -n %ld -i %lld -s %llu --bytes %lld "
	    "--compute %.9g\n",
	    trc_gen_pattern_name(o.pattern), (long)o.ranks,
	    (long long)o.iterations, (unsigned long long)o.seed,
	    (long long)o.bytes, o.compute_ns / 1e9);
	if (trc_write_header(w, &h) < 0)
		die("<stdout>: %s", trc_werror(w));
	while ((n = trc_gen_line(g, line)) > 0) {
		if (n == (size_t)-1)
			die("out of memory");
		if (trc_write_raw(w, line, n) < 0)
			die("<stdout>: %s", trc_werror(w));
	}
	if (trc_wflush(w) < 0)
		die("<stdout>: %s", trc_werror(w));
	trc_wfree(w);
	trc_gen_free(g);
	return 0;
}
