/*
 * polling.c - two ranks that wait by polling (issue 10): each step,
 * rank 0 computes, sends rank 1 a small message and waits for the
 * reply with an MPI_Irecv completed by an MPI_Test loop; rank 1 waits
 * for it with an MPI_Iprobe loop, receives it, computes and replies.
 * Every unsuccessful poll is followed by a little work, so a rank
 * spends the other's computation polling, as programs that overlap
 * do.  The work is counted in loop iterations, never timed, so that it
 * is the same computation on any transport.
 *
 * usage: polling [steps [work [little]]]
 *	steps	steps (200), work: iterations per step and rank
 *	(200000), little: iterations after each unsuccessful poll (300)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

/* n dependent multiply-adds: computation the compiler cannot drop. */
static void
work(long n)
{
	double x = sink;
	long i;

	for (i = 0; i < n; i++)
		x = x * 0.999999 + 1e-6;
	sink = x;
}

int
main(int argc, char *argv[])
{
	long steps = 200, n = 200000, little = 300, s;
	double buf[8] = { 0 }, t0;
	MPI_Request req;
	int rank, flag;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (argc > 1)
		steps = atol(argv[1]);
	if (argc > 2)
		n = atol(argv[2]);
	if (argc > 3)
		little = atol(argv[3]);
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	for (s = 0; s < steps; s++) {
		if (rank == 0) {
			work(n);
			MPI_Send(buf, 8, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD);
			MPI_Irecv(buf, 8, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD,
			    &req);
			for (;;) {
				MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
				if (flag)
					break;
				work(little);
			}
		} else if (rank == 1) {
			for (;;) {
				MPI_Iprobe(0, 1, MPI_COMM_WORLD, &flag,
				    MPI_STATUS_IGNORE);
				if (flag)
					break;
				work(little);
			}
			MPI_Recv(buf, 8, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD,
			    MPI_STATUS_IGNORE);
			work(n);
			MPI_Send(buf, 8, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
		}
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		printf("%.6f\n", MPI_Wtime() - t0);
	MPI_Finalize();
	return 0;
}
