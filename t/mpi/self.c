/*
 * self - MPI_Barrier(MPI_COMM_SELF) and nothing else, the smallest
 * program whose trace every tool refused (issue 11), for t/4009.  An
 * argument N makes it N barriers (default 1), for runs long enough to
 * time.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char *argv[])
{
	int rank, rep, reps = 1;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (argc > 1 && (reps = atoi(argv[1])) < 1) {
		if (rank == 0)
			fprintf(stderr, "self: invalid repetitions '%s'\n",
			    argv[1]);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	for (rep = 0; rep < reps; rep++)
		MPI_Barrier(MPI_COMM_SELF);
	MPI_Finalize();
	return 0;
}
