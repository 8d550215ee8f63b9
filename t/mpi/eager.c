/*
 * eager.c - sends that complete at once, waited for together: Open MPI
 * hands each of them the same request handle over shared memory, and
 * the tracer must still tell them apart (t/4027).  Rank 0 sends rank 1
 * eight 4-byte messages, tags 1 to 8, two at a time, and waits for
 * each pair with Waitall (with a send to MPI_PROC_NULL between them),
 * Waitany twice, Testall until done, Waitsome until done.
 */
#include <mpi.h>
#include <stdio.h>

int
main(int argc, char **argv)
{
	MPI_Request q[3];
	int rank, x = 0, b[8], i, flag, n, idx[3];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Isend(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &q[0]);
		MPI_Isend(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
		    &q[1]);
		MPI_Isend(&x, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &q[2]);
		MPI_Waitall(3, q, MPI_STATUSES_IGNORE);

		MPI_Isend(&x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &q[0]);
		MPI_Isend(&x, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, &q[1]);
		for (i = 0; i < 2; i++)
			MPI_Waitany(2, q, &n, MPI_STATUS_IGNORE);

		MPI_Isend(&x, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &q[0]);
		MPI_Isend(&x, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, &q[1]);
		do
			MPI_Testall(2, q, &flag, MPI_STATUSES_IGNORE);
		while (!flag);

		MPI_Isend(&x, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &q[0]);
		MPI_Isend(&x, 1, MPI_INT, 1, 8, MPI_COMM_WORLD, &q[1]);
		for (i = 0; i < 2; i += n > 0 ? n : 0) {
			MPI_Waitsome(2, q, &n, idx, MPI_STATUSES_IGNORE);
			if (n == MPI_UNDEFINED)
				break;
		}
	} else if (rank == 1) {
		for (i = 0; i < 8; i++)
			MPI_Recv(&b[i], 1, MPI_INT, 0, i + 1, MPI_COMM_WORLD,
			    MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
