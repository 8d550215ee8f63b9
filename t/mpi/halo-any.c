/*
 * halo-any - a ring halo exchange whose two receives are posted with
 * MPI_ANY_SOURCE and completed in one MPI_Waitall, the program of
 * issue 11 whose trace trc-perturb once changed with no delay at all
 * (t/4015).  Which neighbour's message the first receive takes depends
 * on timing; the program works either way.  Argument: iterations
 * (default 20).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char *argv[])
{
	double in[2][100], out[2][100], x = 0;
	MPI_Request r[4];
	int rank, size, i, it, n = argc > 1 ? atoi(argv[1]) : 20;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (i = 0; i < 100; i++)
		out[0][i] = out[1][i] = rank;
	for (it = 0; it < n; it++) {
		MPI_Irecv(in[0], 100, MPI_DOUBLE, MPI_ANY_SOURCE, 1,
		    MPI_COMM_WORLD, &r[0]);
		MPI_Irecv(in[1], 100, MPI_DOUBLE, MPI_ANY_SOURCE, 1,
		    MPI_COMM_WORLD, &r[1]);
		MPI_Isend(out[0], 100, MPI_DOUBLE, (rank + 1) % size, 1,
		    MPI_COMM_WORLD, &r[2]);
		MPI_Isend(out[1], 100, MPI_DOUBLE, (rank + size - 1) % size, 1,
		    MPI_COMM_WORLD, &r[3]);
		MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
		/* Work that differs by rank, so that arrivals interleave. */
		for (i = 0; i < 20000 * (1 + rank % 3); i++)
			x += in[i % 2][i % 100] * 1e-9;
	}
	if (x < 0)
		printf("%g\n", x);
	MPI_Finalize();
	return 0;
}
