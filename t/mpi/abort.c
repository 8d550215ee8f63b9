/*
 * abort.c - a run that dies mid-way, after some events, on 2 ranks:
 * "abort" makes rank 1 call MPI_Abort(3) while rank 0 waits in a
 * receive; "signal" makes rank 1 kill itself with SIGSEGV;
 * "noexit" returns from main without MPI_Finalize on every rank;
 * "hang" never ends, for a run that must be stopped from outside (rank
 * 0 makes the file TRC_TEST_READY names, when set, once round its loop).
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int
main(int argc, char *argv[])
{
	const char *ready = getenv("TRC_TEST_READY");
	int rank, i, x = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (i = 0; i < 5; i++) {
		MPI_Pcontrol(1, "Step");
		MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		MPI_Pcontrol(-1, "Step");
	}
	if (argc > 1 && strcmp(argv[1], "noexit") == 0)
		return 0;
	while (argc > 1 && strcmp(argv[1], "hang") == 0) {
		struct timespec ms = { 0, 1000000 };
		FILE *f;

		MPI_Pcontrol(1, "Hang");
		MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		nanosleep(&ms, NULL);
		MPI_Pcontrol(-1, "Hang");
		/* Once round the loop: the file TRC_TEST_READY names, for a
		 * test that stops the run only then. */
		if (rank == 0 && ready != NULL) {
			if ((f = fopen(ready, "w")) != NULL)
				fclose(f);
			ready = NULL;
		}
	}
	if (rank == 1) {
		if (argc > 1 && strcmp(argv[1], "signal") == 0)
			raise(SIGSEGV);
		MPI_Abort(MPI_COMM_WORLD, 3);
	}
	MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
