/*
 * onesided - one-sided communication, which libtrc-mpi counts but does
 * not trace (issue 12): on two ranks, each makes a window, fences it
 * twice and frees it; rank 1 puts into rank 0's window three times
 * between the fences.  Then one traced barrier.  For t/4020.
 */
#include <mpi.h>

int
main(int argc, char *argv[])
{
	int rank, i, buf[3] = { 0, 0, 0 }, x = 5;
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Win_create(buf, sizeof buf, sizeof buf[0], MPI_INFO_NULL,
	    MPI_COMM_WORLD, &win);
	MPI_Win_fence(0, win);
	if (rank == 1)
		for (i = 0; i < 3; i++)
			MPI_Put(&x, 1, MPI_INT, 0, i, 1, MPI_INT, win);
	MPI_Win_fence(0, win);
	MPI_Win_free(&win);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return buf[0] + buf[1] + buf[2] == (rank == 0 ? 15 : 0) ? 0 : 1;
}
