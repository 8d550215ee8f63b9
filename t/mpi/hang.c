/*
 * hang - rank 0 waits up to a second for rank 1's message, polling
 * with MPI_Iprobe, and hangs when it has not come: a program that a
 * delay before rank 1's send makes hang, for trc-experiment -T
 * (t/2043).
 */
#include <mpi.h>
#include <time.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	int rank, flag = 0, x = 7;
	double t0;
	struct timespec ms = { 0, 1000000 };

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 1)
		MPI_Send(&x, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
	else if (rank == 0) {
		t0 = MPI_Wtime();
		while (!flag && MPI_Wtime() - t0 < 1.0) {
			MPI_Iprobe(1, 3, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
			nanosleep(&ms, NULL);
		}
		if (!flag)
			for (;;)
				sleep(1);
		MPI_Recv(&x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD,
		    MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
