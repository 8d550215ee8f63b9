/*
 * sendrecv - MPI_Sendrecv around a ring and nothing else (no MPI_Isend,
 * no MPI_Irecv), for t/4012-mpi-sendrecv.t: on each of N ranks, 4
 * calls sending 25 ints (100 bytes) to rank + 1 with tag 70 and
 * receiving as many from rank - 1, then one MPI_Sendrecv_replace of 10
 * ints (40 bytes) the same way with tag 71.  An argument N repeats
 * the five calls N times (default 1), for runs long enough to time.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char *argv[])
{
	int rank, size, i, a[25] = { 0 }, b[25], rep, reps = 1;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 1 && (reps = atoi(argv[1])) < 1) {
		if (rank == 0)
			fprintf(stderr, "sendrecv: invalid repetitions '%s'\n",
			    argv[1]);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	for (rep = 0; rep < reps; rep++) {
		for (i = 0; i < 4; i++)
			MPI_Sendrecv(a, 25, MPI_INT, (rank + 1) % size, 70, b,
			    25, MPI_INT, (rank + size - 1) % size, 70,
			    MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Sendrecv_replace(a, 10, MPI_INT, (rank + 1) % size, 71,
		    (rank + size - 1) % size, 71, MPI_COMM_WORLD,
		    MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
