/*
 * wake.c - when a rank that shares its core takes a message (trc-scale
 * --bound): rank 0, alone on core 1, computes D and sends 8 bytes to
 * rank 1, which waits in MPI_Recv on core 0; with 3 ranks, rank 2
 * computes 2 D on core 0 meanwhile.  Rank 1's latency, from the send's
 * begin to its receive's end (CLOCK_MONOTONIC, one host), the median
 * of the repetitions (the argument, 200), for D of 100 us and 1 ms.
 * Run with mpi_yield_when_idle, as Open MPI runs ranks that outnumber
 * the cores: alone on its core the receiver takes the message at once;
 * beside a computing rank, only when that rank's computation ends.
 */
#define _GNU_SOURCE	/* sched_setaffinity() */
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "micro.h"

static int reps = 200;
static volatile double sink;	/* the computation's result, kept */

/* Computes, touching no memory, for s seconds. */
static void
compute(double s)
{
	double t0 = now(), x = 1;
	int i;

	while (now() - t0 < s)
		for (i = 0; i < 100; i++)
			x = x * 1.0000001 + 1e-9;
	sink = x;
}

int
main(int argc, char **argv)
{
	static const double delays[] = { 100e-6, 1e-3 };
	double *lat, sent;
	cpu_set_t set;
	size_t k;
	int rank, size, i;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 1 && (reps = atoi(argv[1])) < 1) {
		if (rank == 0)
			fprintf(stderr, "usage: wake [repetitions]\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	if (size < 2 || size > 3 || (lat = calloc((size_t)reps,
	    sizeof(*lat))) == NULL) {
		if (rank == 0)
			fprintf(stderr, "wake: 2 or 3 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	CPU_ZERO(&set);
	CPU_SET(rank == 0 ? 1 : 0, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		if (rank == 0)
			fprintf(stderr, "wake: needs cores 0 and 1\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	for (k = 0; k < sizeof(delays) / sizeof(delays[0]); k++) {
		for (i = -5; i < reps; i++) {
			MPI_Barrier(MPI_COMM_WORLD);
			if (rank == 0) {
				compute(delays[k]);
				sent = now();
				MPI_Send(&sent, 1, MPI_DOUBLE, 1, 0,
				    MPI_COMM_WORLD);
			} else if (rank == 1) {
				MPI_Recv(&sent, 1, MPI_DOUBLE, 0, 0,
				    MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				if (i >= 0)
					lat[i] = now() - sent;
			} else
				compute(2 * delays[k]);
		}
		if (rank == 1) {
			qsort(lat, (size_t)reps, sizeof(*lat), cmp);
			printf("%d ranks, sent after %4.0f us: taken %7.1f us "
			    "later (median of %d)\n", size, delays[k] * 1e6,
			    lat[reps / 2] * 1e6, reps);
			fflush(stdout);
		}
	}
	free(lat);
	MPI_Finalize();
	return 0;
}
