/*
 * persist - persistent requests, matched probes and the other points
 * where MPI chooses by timing, on exactly 3 ranks, for
 * t/4011-mpi-persist.t.  Ranks 0 and 2 send, rank 1 receives:
 *	persistent, 3 rounds: 0 -> 1 tag 60 10 ints (MPI_Send_init,
 *	MPI_Start), 2 -> 1 tag 61 10 ints (MPI_Ssend_init, MPI_Startall
 *	of one); rank 1 MPI_Recv_init from any source tag 60 and from 2
 *	tag 61, 16 ints each, MPI_Startall of both, MPI_Waitall; then rank
 *	0 waits once on its request not started, which completes at once
 *	and writes nothing
 *	0 -> 1 tag 62 3 ints, 2 -> 1 tag 63 5 ints: rank 1 takes one with
 *	MPI_Mprobe(any, any) and MPI_Mrecv, the other with an MPI_Improbe
 *	loop and MPI_Imrecv, into 16 ints
 *	after a barrier, 0 -> 1 tag 64 2 ints: MPI_Probe(0, any tag),
 *	MPI_Recv(0, any tag)
 *	0 -> 1 tag 65 and 2 -> 1 tag 66, 1 int, rank 0 late: MPI_Waitany
 *	twice on rank 1's two receives
 *	0 -> 1 tag 67 and 2 -> 1 tag 68, 1 int, rank 2 late: an
 *	MPI_Testsome loop on rank 1's two receives
 * Rank 1 prints how many Improbe and Testsome calls found nothing.
 * An argument N repeats all of it N times (default 1), for runs long
 * enough to time.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void
spin(double sec)
{
	double t = MPI_Wtime();

	while (MPI_Wtime() - t < sec)
		;
}

int
main(int argc, char *argv[])
{
	int rank, size, i, n, flag, done, idx[2], out[16] = { 0 }, a[16],
	    b[16], c[16], rep, reps = 1;
	long improbes = 0, testsomes = 0;
	MPI_Request p[2], r[2];
	MPI_Message m;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 3) {
		if (rank == 0)
			fprintf(stderr, "persist: run on 3 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	if (argc > 1 && (reps = atoi(argv[1])) < 1) {
		if (rank == 0)
			fprintf(stderr, "persist: invalid repetitions '%s'\n",
			    argv[1]);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}

	for (rep = 0; rep < reps; rep++) {
		if (rank == 0)
			MPI_Send_init(out, 10, MPI_INT, 1, 60, MPI_COMM_WORLD, &p[0]);
		else if (rank == 2)
			MPI_Ssend_init(out, 10, MPI_INT, 1, 61, MPI_COMM_WORLD, &p[0]);
		else {
			MPI_Recv_init(a, 16, MPI_INT, MPI_ANY_SOURCE, 60,
			    MPI_COMM_WORLD, &p[0]);
			MPI_Recv_init(b, 16, MPI_INT, 2, 61, MPI_COMM_WORLD, &p[1]);
		}
		for (i = 0; i < 3; i++) {
			if (rank == 0) {
				MPI_Start(&p[0]);
				MPI_Wait(&p[0], MPI_STATUS_IGNORE);
			} else if (rank == 2) {
				MPI_Startall(1, p);
				MPI_Wait(&p[0], MPI_STATUS_IGNORE);
			} else {
				MPI_Startall(2, p);
				MPI_Waitall(2, p, MPI_STATUSES_IGNORE);
			}
		}
		if (rank == 0)
			MPI_Wait(&p[0], MPI_STATUS_IGNORE);
		MPI_Request_free(&p[0]);
		if (rank == 1)
			MPI_Request_free(&p[1]);

		if (rank == 0)
			MPI_Send(out, 3, MPI_INT, 1, 62, MPI_COMM_WORLD);
		else if (rank == 2)
			MPI_Send(out, 5, MPI_INT, 1, 63, MPI_COMM_WORLD);
		else {
			MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &m, &st);
			MPI_Mrecv(c, 16, MPI_INT, &m, &st);
			for (flag = 0; !flag; improbes++)
				MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
				    &flag, &m, &st);
			MPI_Imrecv(c, 16, MPI_INT, &m, &r[0]);
			MPI_Wait(&r[0], &st);
		}
		/* Tag 64 only now: the wildcard probes above cannot take it. */
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0)
			MPI_Send(out, 2, MPI_INT, 1, 64, MPI_COMM_WORLD);
		else if (rank == 1) {
			MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
			MPI_Recv(c, 16, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
		}

		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0) {
			spin(0.05);
			MPI_Send(out, 1, MPI_INT, 1, 65, MPI_COMM_WORLD);
		} else if (rank == 2)
			MPI_Send(out, 1, MPI_INT, 1, 66, MPI_COMM_WORLD);
		else {
			MPI_Irecv(a, 1, MPI_INT, 0, 65, MPI_COMM_WORLD, &r[0]);
			MPI_Irecv(b, 1, MPI_INT, 2, 66, MPI_COMM_WORLD, &r[1]);
			MPI_Waitany(2, r, &idx[0], &st);
			MPI_Waitany(2, r, &idx[0], &st);
		}

		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0)
			MPI_Send(out, 1, MPI_INT, 1, 67, MPI_COMM_WORLD);
		else if (rank == 2) {
			spin(0.05);
			MPI_Send(out, 1, MPI_INT, 1, 68, MPI_COMM_WORLD);
		} else {
			MPI_Irecv(a, 1, MPI_INT, 0, 67, MPI_COMM_WORLD, &r[0]);
			MPI_Irecv(b, 1, MPI_INT, 2, 68, MPI_COMM_WORLD, &r[1]);
			for (done = 0; done < 2; done += n) {
				MPI_Testsome(2, r, &n, idx, MPI_STATUSES_IGNORE);
				if (n == MPI_UNDEFINED)
					break;
				testsomes += n == 0;
			}
		}
	}
	if (rank == 1)
		printf("polls improbe %ld testsome %ld\n", improbes - reps,
		    testsomes);
	MPI_Finalize();
	return 0;
}
