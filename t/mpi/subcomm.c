/*
 * subcomm - collectives on communicators other than the world, for
 * t/4008: 4 ranks split into halves {0, 2} and {1, 3} by parity; each
 * half runs a barrier and an allreduce of one int, the even half one
 * more bcast of 8 bytes; then a world barrier.  The halves are made
 * by one split at once, so their comm= ids must differ.  An argument N
 * repeats the halves' collectives N times (default 1), for runs long
 * enough to time.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char *argv[])
{
	MPI_Comm half;
	int rank, v, s, rep, reps = 1;
	double d = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (argc > 1 && (reps = atoi(argv[1])) < 1) {
		if (rank == 0)
			fprintf(stderr, "subcomm: invalid repetitions '%s'\n",
			    argv[1]);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
	for (rep = 0; rep < reps; rep++) {
		MPI_Barrier(half);
		v = rank;
		MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, half);
		if (rank % 2 == 0)
			MPI_Bcast(&d, 1, MPI_DOUBLE, 0, half);
	}
	MPI_Comm_free(&half);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
