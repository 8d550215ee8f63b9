/*
 * coldcoll.c - how cold a collective runs after a computation: rank 0
 * of 2 touches K bytes (0 to 8 MiB, a line every 64 bytes) while rank
 * 1 waits in an 8-byte MPI_Allreduce, then enters it; the allreduce's
 * time from the last entry to the last end (on the host's clock, as
 * trc-pingpong times collectives: rank 0's own time also held how far
 * apart the barrier left the two, 2.9 us against 0.2 here after no
 * computation), the median of the repetitions (the argument, 200), for
 * each K, with and without a 3856-byte receive (trc-heat's halo)
 * between the computation and the allreduce.  trc-scale(1)'s cold
 * collectives rest on these figures.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "micro.h"

#define MAXK	(8u << 20)

static int reps = 200;

static double
median(double *v)
{
	qsort(v, (size_t)reps, sizeof(*v), cmp);
	return v[reps / 2];
}

int
main(int argc, char **argv)
{
	static const size_t sizes[] = { 0, 64 << 10, 256 << 10, 512 << 10,
	    1 << 20, 2 << 20, 4 << 20, 8 << 20 };
	static char msg[3856];
	double *coll = NULL, *comp = NULL, *in = NULL, *out = NULL;
	volatile char *big;
	double v = 1, s, a, b;
	size_t j, k;
	int rank, recv, i;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (argc > 1 && ((reps = atoi(argv[1])) < 1 || reps > 100000)) {
		if (rank == 0)
			fprintf(stderr, "usage: coldcoll [repetitions]\n");
		MPI_Finalize();
		return 2;
	}
	if ((big = malloc(MAXK)) == NULL ||
	    (coll = malloc((size_t)reps * sizeof(*coll))) == NULL ||
	    (comp = malloc((size_t)reps * sizeof(*comp))) == NULL ||
	    (in = malloc(2 * (size_t)reps * sizeof(*in))) == NULL ||
	    (out = malloc(2 * (size_t)reps * sizeof(*out))) == NULL)
		MPI_Abort(MPI_COMM_WORLD, 2);
	memset((char *)big, 1, MAXK);
	if (rank == 0)
		printf("%-8s %9s %14s %14s\n", "receive", "KiB", "computing us",
		    "allreduce us");
	for (recv = 0; recv < 2; recv++)
		for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			for (i = 0; i < reps; i++) {
				MPI_Barrier(MPI_COMM_WORLD);
				if (rank == 1 && recv)
					MPI_Send(msg, sizeof(msg), MPI_CHAR, 0,
					    1, MPI_COMM_WORLD);
				a = MPI_Wtime();
				if (rank == 0) {
					for (j = 0; j < sizes[k]; j += 64)
						big[j]++;
					if (recv)
						MPI_Recv(msg, sizeof(msg),
						    MPI_CHAR, 1, 1,
						    MPI_COMM_WORLD,
						    MPI_STATUS_IGNORE);
				}
				b = MPI_Wtime();
				in[i] = now();
				MPI_Allreduce(&v, &s, 1, MPI_DOUBLE, MPI_SUM,
				    MPI_COMM_WORLD);
				in[reps + i] = now();
				comp[i] = b - a;
			}
			MPI_Reduce(in, out, 2 * reps, MPI_DOUBLE, MPI_MAX, 0,
			    MPI_COMM_WORLD);
			for (i = 0; i < reps; i++)
				coll[i] = out[reps + i] - out[i];
			if (rank == 0)
				printf("%-8s %9zu %14.1f %14.2f\n",
				    recv ? "after" : "none", sizes[k] >> 10,
				    median(comp) * 1e6, median(coll) * 1e6);
		}
	free((void *)big);
	free(coll);
	free(comp);
	free(in);
	free(out);
	MPI_Finalize();
	return 0;
}
