/*
 * trc-fig1 - the program fragment of Mendes' Figure 1.
 *
 * Three tasks.  Tasks 1 and 2 compute (modules A and B) and send a
 * message to task 0, which receives the two messages in whatever order
 * they arrive (MPI_ANY_SOURCE) and does extra work (module C) when the
 * message came from task 1.  Which message arrives first depends on
 * the speeds of A and B: the program is unstable, and a delay before
 * task 1's send changes its execution graph.  With --stable the
 * receives name their source, task 1 then task 2, and the event order
 * no longer depends on timing: the stable form of section 3.2.1.
 *
 * The modules are marked as regions A, B and C for the tracer with
 * MPI_Pcontrol.  Work is a busy loop on the monotonic clock, so that
 * the arrival order follows the times given, not the scheduler.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trc.h"

#define PROG	"trc-fig1"

#define TAG	7

static const char usage_line[] =
    "trc-fig1 [-A seconds] [-B seconds] [-C seconds] [-i iterations] "
    "[--stable]";

/* Long options without a letter. */
enum { OPT_STABLE = 256 };

#include "mpiprog.h"

/* A module: computation for about t seconds, as region name. */
static double
work(const char *name, double t)
{
	double until = now() + t, x = 0;
	long i = 0;

	MPI_Pcontrol(1, name);
	do
		x += sqrt((double)++i);
	while (now() < until);
	MPI_Pcontrol(-1, name);
	return x;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "stable", no_argument, NULL, OPT_STABLE },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	double ta = 0.01, tb = 0.05, tc = 0.005, sink = 0, payload;
	long iters = 5, it, first1 = 0;
	char *end;
	int c, stable = 0, k, src;
	MPI_Status st;

	early_options(argc, argv);
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	opterr = 0;
	while ((c = getopt_long(argc, argv, "A:B:C:hi:", longopts, NULL))
	    != -1)
		switch (c) {
		case 'A':
			ta = decimal(optarg, 1e4, "seconds");
			break;
		case 'B':
			tb = decimal(optarg, 1e4, "seconds");
			break;
		case 'C':
			tc = decimal(optarg, 1e4, "seconds");
			break;
		case 'h':
			usage(stdout, 0);
			break;
		case 'i':
			errno = 0;
			iters = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || errno != 0 ||
			    iters < 1 || iters > 1000000)
				fail("invalid iterations", optarg);
			break;
		case OPT_STABLE:
			stable = 1;
			break;
		case 'V':
			if (rank == 0)
				printf("trc-fig1 %s\n", TRC_VERSION_STRING);
			MPI_Finalize();
			return 0;
		default:
			if (rank == 0)
				fprintf(stderr, "trc-fig1: invalid option '%s'\n",
				    argv[optind - 1]);
			usage(stderr, 2);
		}
	if (optind < argc)
		usage(stderr, 2);
	if (nranks != 3) {
		if (rank == 0)
			fprintf(stderr, "trc-fig1: needs 3 tasks, not %d\n",
			    nranks);
		MPI_Finalize();
		return 2;
	}

	for (it = 0; it < iters; it++) {
		/* Every iteration starts together, so only A and B race. */
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0) {
			for (k = 0; k < 2; k++) {
				src = stable ? k + 1 : MPI_ANY_SOURCE;
				MPI_Recv(&payload, 1, MPI_DOUBLE, src, TAG,
				    MPI_COMM_WORLD, &st);
				if (k == 0 && st.MPI_SOURCE == 1)
					first1++;
				if (st.MPI_SOURCE == 1)
					sink += work("C", tc);
			}
		} else {
			payload = work(rank == 1 ? "A" : "B",
			    rank == 1 ? ta : tb);
			MPI_Send(&payload, 1, MPI_DOUBLE, 0, TAG,
			    MPI_COMM_WORLD);
		}
	}
	if (rank == 0) {
		printf("iterations %ld: task 1 first %ld, task 2 first %ld\n",
		    iters, first1, iters - first1);
		if (sink < 0)	/* keeps the work from being optimized out */
			printf("%g\n", sink);
		if (fflush(stdout) != 0 || ferror(stdout)) {
			fprintf(stderr, "trc-fig1: <stdout>: write error\n");
			MPI_Abort(MPI_COMM_WORLD, 2);
		}
	}
	MPI_Finalize();
	return 0;
}
