/*
 * trc-master-worker - a master handing out tasks to workers, receiving
 * their results with MPI_ANY_SOURCE.
 *
 * Rank 0 sends one task to every worker, then receives results in
 * arrival order and gives the next task to whichever worker answered:
 * the classic self-scheduling loop.  Which worker gets which task
 * depends on timing, so the program is unstable: a delay on one worker
 * changes who does what.  With --stable the master hands out tasks
 * round robin and receives each result naming its source, and the
 * event order no longer depends on timing.
 *
 * Task i (from 0) takes w (i + 1) seconds.  Growing costs keep the
 * results of a self-scheduled run at least w apart (checked by
 * simulation for up to 120 tasks and 8 workers), so that an
 * unperturbed run repeats itself and a delay longer than w can change
 * it.  Work is marked as region "task", the master's bookkeeping as
 * "collect".
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

#define PROG	"trc-master-worker"

#define TAG_TASK	1
#define TAG_RESULT	2
#define TAG_STOP	3

static const char usage_line[] =
    "trc-master-worker [--stable] [--tasks tasks] [--work seconds]";

/* Long options without a letter. */
enum { OPT_STABLE = 256, OPT_TASKS, OPT_WORK };

#include "mpiprog.h"

static double
cost(long i, double w)
{
	return w * (i + 1);
}

/* Busy work on the monotonic clock: arrival order follows the costs. */
static double
work(double t)
{
	double until = now() + t, x = 0;
	long i = 0;

	MPI_Pcontrol(1, "task");
	do
		x += sqrt((double)++i);
	while (now() < until);
	MPI_Pcontrol(-1, "task");
	return x;
}

static void
worker(double w)
{
	MPI_Status st;
	double result;
	long task;

	for (;;) {
		MPI_Recv(&task, 1, MPI_LONG, 0, MPI_ANY_TAG, MPI_COMM_WORLD,
		    &st);
		if (st.MPI_TAG == TAG_STOP)
			return;
		result = work(cost(task, w));
		MPI_Send(&result, 1, MPI_DOUBLE, 0, TAG_RESULT, MPI_COMM_WORLD);
	}
}

/* Send task next to worker dst, or stop it when none is left. */
static void
give(int dst, long *next, long ntasks, long *out)
{
	long stop = -1;

	if (*next < ntasks) {
		MPI_Send(next, 1, MPI_LONG, dst, TAG_TASK, MPI_COMM_WORLD);
		(*next)++;
		(*out)++;
	} else
		MPI_Send(&stop, 1, MPI_LONG, dst, TAG_STOP, MPI_COMM_WORLD);
}

static void
master(long ntasks, int stable)
{
	MPI_Status st;
	double result, sum = 0;
	long next = 0, out = 0, *done, j = 0;
	int nw = nranks - 1, src, i;

	if ((done = calloc(nranks, sizeof done[0])) == NULL) {
		fprintf(stderr, "trc-master-worker: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	for (i = 1; i <= nw; i++)
		give(i, &next, ntasks, &out);
	while (out > 0) {
		/* Round robin names the worker whose turn it is. */
		src = stable ? (int)(j++ % nw) + 1 : MPI_ANY_SOURCE;
		MPI_Recv(&result, 1, MPI_DOUBLE, src, TAG_RESULT,
		    MPI_COMM_WORLD, &st);
		out--;
		MPI_Pcontrol(1, "collect");
		sum += result;
		done[st.MPI_SOURCE]++;
		MPI_Pcontrol(-1, "collect");
		give(st.MPI_SOURCE, &next, ntasks, &out);
	}
	printf("tasks %ld, done by workers 1 to %d:", ntasks, nw);
	for (i = 1; i <= nw; i++)
		printf(" %ld", done[i]);
	putchar('\n');
	if (sum < 0)	/* keeps the work from being optimized out */
		printf("%g\n", sum);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "trc-master-worker: <stdout>: write error\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	free(done);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "stable", no_argument, NULL, OPT_STABLE },
		{ "tasks", required_argument, NULL, OPT_TASKS },
		{ "version", no_argument, NULL, 'V' },
		{ "work", required_argument, NULL, OPT_WORK },
		{ NULL, 0, NULL, 0 }
	};
	double w = 0.01;
	long ntasks = 12;
	char *end;
	int c, stable = 0;

	early_options(argc, argv);
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1)
		switch (c) {
		case 'h':
			usage(stdout, 0);
			break;
		case OPT_STABLE:
			stable = 1;
			break;
		case OPT_TASKS:
			errno = 0;
			ntasks = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || errno != 0 ||
			    ntasks < 0 || ntasks > 100000000)
				fail("invalid tasks", optarg);
			break;
		case OPT_WORK:
			errno = 0;
			w = strtod(optarg, &end);
			if (*optarg == '\0' || *end != '\0' || errno != 0 ||
			    !(w >= 0) || w > 1e4)
				fail("invalid seconds", optarg);
			break;
		case 'V':
			if (rank == 0)
				printf("trc-master-worker %s\n",
				    TRC_VERSION_STRING);
			MPI_Finalize();
			return 0;
		default:
			if (rank == 0)
				fprintf(stderr, "trc-master-worker: invalid "
				    "option '%s'\n", argv[optind - 1]);
			usage(stderr, 2);
		}
	if (optind < argc)
		usage(stderr, 2);
	if (nranks < 2) {
		if (rank == 0)
			fprintf(stderr, "trc-master-worker: needs 2 tasks or "
			    "more, not %d\n", nranks);
		MPI_Finalize();
		return 2;
	}
	if (rank == 0)
		master(ntasks, stable);
	else
		worker(w);
	MPI_Finalize();
	return 0;
}
