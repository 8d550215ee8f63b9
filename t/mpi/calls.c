/*
 * calls.c - every call libtrc-mpi wraps, on exactly 3 ranks, with
 * known peers, tags and sizes; t/4002-mpi-calls.t checks the trace.
 * Tag T is used by one exchange only.  Rank 0 prints the number of
 * unsuccessful polls it made, which the trace must fold into polls=.
 * An argument N repeats everything but the split communicator's
 * message N times (default 1), for runs long enough to time.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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
	int rank, size, i, flag, idx, n, done, in[64], out[64], cnt[3], dsp[3];
	int rep, reps = 1;
	long tests = 0, testalls = 0, iprobes = 0, testanys = 0, testsomes = 0;
	double d[8] = { 0 };
	char c[64] = { 0 };
	MPI_Request r[2];
	MPI_Status st;
	MPI_Comm even;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 3) {
		if (rank == 0)
			fprintf(stderr, "calls: run on 3 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	if (argc > 1 && (reps = atoi(argv[1])) < 1) {
		if (rank == 0)
			fprintf(stderr, "calls: invalid repetitions '%s'\n",
			    argv[1]);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	for (i = 0; i < 64; i++)
		out[i] = rank * 100 + i;

	for (rep = 0; rep < reps; rep++) {
		MPI_Pcontrol(1, "Outer");
		MPI_Pcontrol(1, "Inner");
		MPI_Pcontrol(-1, "Inner");
		MPI_Pcontrol(-1, "Outer");

		/* Send, Recv: 0 -> 1, 25 ints (100 bytes), tag 10. */
		if (rank == 0)
			MPI_Send(out, 25, MPI_INT, 1, 10, MPI_COMM_WORLD);
		else if (rank == 1)
			MPI_Recv(in, 25, MPI_INT, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		/* Ssend: 1 -> 2, 8 doubles, tag 11. */
		if (rank == 1)
			MPI_Ssend(d, 8, MPI_DOUBLE, 2, 11, MPI_COMM_WORLD);
		else if (rank == 2)
			MPI_Recv(d, 8, MPI_DOUBLE, 1, 11, MPI_COMM_WORLD, &st);
		/* Rsend: 0 -> 2, 3 chars, tag 12, into a posted Irecv. */
		if (rank == 2)
			MPI_Irecv(c, 3, MPI_CHAR, 0, 12, MPI_COMM_WORLD, &r[0]);
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0)
			MPI_Rsend(c, 3, MPI_CHAR, 2, 12, MPI_COMM_WORLD);
		else if (rank == 2)
			MPI_Wait(&r[0], &st);
		/* Wildcards: 1 and 2 send 16 bytes (tags 13, 14) to 0, which
		 * receives from any source with any tag into 64 bytes. */
		if (rank == 0) {
			MPI_Recv(c, 64, MPI_CHAR, MPI_ANY_SOURCE, MPI_ANY_TAG,
			    MPI_COMM_WORLD, &st);
			MPI_Recv(c, 64, MPI_CHAR, MPI_ANY_SOURCE, MPI_ANY_TAG,
			    MPI_COMM_WORLD, &st);
		} else
			MPI_Send(c, 16, MPI_CHAR, 0, 12 + rank, MPI_COMM_WORLD);
		/* Both taken before any other message to 0: else rank 2's
		 * Sendrecv below could reach 0 before rank 1's send, and
		 * the second wildcard receive take it (the run then hung,
		 * 3 ranks on 2 cores, once in a clean clone's make check). */
		MPI_Barrier(MPI_COMM_WORLD);
		/* Sendrecv around the ring: 5 ints to rank + 1, tag 15. */
		MPI_Sendrecv(out, 5, MPI_INT, (rank + 1) % 3, 15, in, 5, MPI_INT,
		    (rank + 2) % 3, 15, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		/* Isend, Irecv, Waitall: 0 -> 1 (8 ints, tag 16), 2 -> 1 (tag 17),
		 * rank 1's first receive from any source. */
		if (rank == 0) {
			MPI_Isend(out, 8, MPI_INT, 1, 16, MPI_COMM_WORLD, &r[0]);
			MPI_Waitall(1, r, MPI_STATUSES_IGNORE);
		} else if (rank == 1) {
			MPI_Irecv(in, 8, MPI_INT, MPI_ANY_SOURCE, 16, MPI_COMM_WORLD, &r[0]);
			MPI_Irecv(in + 8, 8, MPI_INT, 2, 17, MPI_COMM_WORLD, &r[1]);
			MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
		} else {
			MPI_Isend(out, 8, MPI_INT, 1, 17, MPI_COMM_WORLD, &r[0]);
			MPI_Wait(&r[0], MPI_STATUS_IGNORE);
		}
		/* Waitany on rank 1: from 0 (tag 18) and 2 (tag 19), 4 ints. */
		if (rank == 1) {
			MPI_Irecv(in, 4, MPI_INT, 0, 18, MPI_COMM_WORLD, &r[0]);
			MPI_Irecv(in + 4, 4, MPI_INT, 2, 19, MPI_COMM_WORLD, &r[1]);
			MPI_Waitany(2, r, &idx, &st);
			MPI_Waitany(2, r, &idx, &st);
		} else
			MPI_Send(out, 4, MPI_INT, 1, 18 + rank / 2, MPI_COMM_WORLD);
		/* Waitsome on rank 2: from 0 (tag 20) and 1 (tag 21), 2 ints. */
		if (rank == 2) {
			int ids[2];
			MPI_Irecv(in, 2, MPI_INT, 0, 20, MPI_COMM_WORLD, &r[0]);
			MPI_Irecv(in + 2, 2, MPI_INT, 1, 21, MPI_COMM_WORLD, &r[1]);
			for (done = 0; done < 2; done += n)
				MPI_Waitsome(2, r, &n, ids, MPI_STATUSES_IGNORE);
		} else
			MPI_Send(out, 2, MPI_INT, 2, 20 + rank, MPI_COMM_WORLD);
		/* Test polling on rank 0: rank 1 sends 6 ints, tag 22, late. */
		if (rank == 0) {
			MPI_Irecv(in, 6, MPI_INT, 1, 22, MPI_COMM_WORLD, &r[0]);
			for (flag = 0; !flag; tests++)
				MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
			tests--;
		} else if (rank == 1) {
			spin(0.02);
			MPI_Send(out, 6, MPI_INT, 0, 22, MPI_COMM_WORLD);
		}
		/* Testall on rank 0: 2 (tag 23) and 1 (tag 24), 1 int each. */
		if (rank == 0) {
			MPI_Irecv(in, 1, MPI_INT, 2, 23, MPI_COMM_WORLD, &r[0]);
			MPI_Irecv(in + 1, 1, MPI_INT, 1, 24, MPI_COMM_WORLD, &r[1]);
			for (flag = 0; !flag; testalls++)
				MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE);
			testalls--;
		} else {
			spin(0.01);
			MPI_Send(out, 1, MPI_INT, 0, 25 - rank, MPI_COMM_WORLD);
		}
		/* Probe on rank 1: 2 sends 12 bytes, tag 25. */
		if (rank == 1) {
			MPI_Probe(MPI_ANY_SOURCE, 25, MPI_COMM_WORLD, &st);
			MPI_Recv(c, 64, MPI_CHAR, st.MPI_SOURCE, 25, MPI_COMM_WORLD, &st);
		} else if (rank == 2)
			MPI_Send(c, 12, MPI_CHAR, 1, 25, MPI_COMM_WORLD);
		/* Iprobe polling on rank 2: 0 sends 7 bytes, tag 26, late. */
		if (rank == 2) {
			for (flag = 0; !flag; iprobes++)
				MPI_Iprobe(0, 26, MPI_COMM_WORLD, &flag, &st);
			iprobes--;
			MPI_Recv(c, 7, MPI_CHAR, 0, 26, MPI_COMM_WORLD, &st);
		} else if (rank == 0) {
			spin(0.01);
			MPI_Send(c, 7, MPI_CHAR, 2, 26, MPI_COMM_WORLD);
		}
		/* Testany on 1 (from 0, tag 27), Testsome on 2 (from 1, tag 28). */
		if (rank == 1) {
			MPI_Irecv(in, 3, MPI_INT, 0, 27, MPI_COMM_WORLD, &r[0]);
			for (flag = 0; !flag; testanys++)
				MPI_Testany(1, r, &idx, &flag, MPI_STATUS_IGNORE);
			testanys--;
			spin(0.01);
			MPI_Send(out, 3, MPI_INT, 2, 28, MPI_COMM_WORLD);
		} else if (rank == 0) {
			spin(0.01);
			MPI_Send(out, 3, MPI_INT, 1, 27, MPI_COMM_WORLD);
		} else {
			int ids[1];
			MPI_Irecv(in, 3, MPI_INT, 1, 28, MPI_COMM_WORLD, &r[0]);
			for (n = 0; n == 0; testsomes++)
				MPI_Testsome(1, r, &n, ids, MPI_STATUSES_IGNORE);
			testsomes--;
		}

		/* Collectives: sizes in bytes are in the comments. */
		MPI_Barrier(MPI_COMM_WORLD);					/* 0 */
		MPI_Bcast(in, 10, MPI_INT, 1, MPI_COMM_WORLD);			/* 40 root 1 */
		MPI_Reduce(d, d + 4, 3, MPI_DOUBLE, MPI_SUM, 2, MPI_COMM_WORLD);	/* 24 root 2 */
		MPI_Allreduce(out, in, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);	/* 16 */
		MPI_Gather(out, 2, MPI_INT, in, 2, MPI_INT, 0, MPI_COMM_WORLD);	/* 8 root 0 */
		for (i = 0; i < 3; i++)
			cnt[i] = i + 1, dsp[i] = 8 * i;
		MPI_Gatherv(out, rank + 1, MPI_INT, in, cnt, dsp, MPI_INT, 0,
		    MPI_COMM_WORLD);						/* 4(r+1) root 0 */
		MPI_Scatter(out, 3, MPI_INT, in, 3, MPI_INT, 1, MPI_COMM_WORLD);	/* 12 root 1 */
		MPI_Scatterv(out, cnt, dsp, MPI_INT, in, rank + 1, MPI_INT, 2,
		    MPI_COMM_WORLD);						/* 4(r+1) root 2 */
		MPI_Allgather(out, 1, MPI_INT, in, 1, MPI_INT, MPI_COMM_WORLD);	/* 4 */
		MPI_Allgatherv(out, rank + 1, MPI_INT, in, cnt, dsp, MPI_INT,
		    MPI_COMM_WORLD);						/* 4(r+1) */
		MPI_Alltoall(out, 2, MPI_INT, in, 2, MPI_INT, MPI_COMM_WORLD);	/* 8 */
		{
			int sc[3], sd[3], rc[3], rd[3];
			for (i = 0; i < 3; i++) {
				sc[i] = rank + 1, sd[i] = 8 * i;
				rc[i] = i + 1, rd[i] = 8 * i;
			}
			MPI_Alltoallv(out, sc, sd, MPI_INT, in, rc, rd, MPI_INT,
			    MPI_COMM_WORLD);					/* 4(r+1) */
		}
	}

	/* A split communicator {0, 2}: world 2 sends 4 bytes, tag 29. */
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &even);
	if (rank == 2)
		MPI_Send(c, 4, MPI_CHAR, 0, 29, even);
	else if (rank == 0)
		MPI_Recv(c, 4, MPI_CHAR, MPI_ANY_SOURCE, 29, even, &st);
	MPI_Comm_free(&even);

	if (rank == 0)
		printf("polls test %ld testall %ld\n", tests, testalls);
	fflush(stdout);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 1)
		printf("polls testany %ld\n", testanys);
	fflush(stdout);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 2)
		printf("polls iprobe %ld testsome %ld\n", iprobes, testsomes);
	fflush(stdout);
	MPI_Finalize();
	return 0;
}
