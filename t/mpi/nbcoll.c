/*
 * nbcoll - the collectives added in issue 11, blocking and not, on
 * exactly 3 ranks, for t/4010-mpi-nbcoll.t.  Sizes (bytes= on rank r):
 *	scan, iscan			2 ints		8
 *	exscan, iexscan			3 ints		12
 *	reduce_scatter(_block), i...	{1,2,3} ints	4 (r + 1); block 2: 8
 *	alltoallw, ialltoallw		to rank i: i + 1 of {int, double,
 *					int}[i]: (4 + 16 + 12) / 3 = 10
 *	on a periodic ring (MPI_Cart_create of 3; neighbours r - 1, r + 1):
 *	neighbor_allgather		1 int		4
 *	neighbor_allgatherv		3 ints		12
 *	neighbor_alltoall		2 ints		8
 *	neighbor_alltoallv		{1, 5} ints	(4 + 20) / 2 = 12
 *	neighbor_alltoallw		{int, double}	(4 + 8) / 2 = 6
 *	ibarrier 0; ibcast root 1, 5 ints 20; ireduce root 2, 6 ints 24;
 *	iallreduce 7 ints 28 (these four at once, one MPI_Waitall)
 *	igather root 0, 1 int 4 (MPI_Wait); igatherv root 0, r + 1 ints
 *	(MPI_Wait); iscatter root 1, 2 ints 8 (an MPI_Test loop); iscatterv
 *	root 2, r + 1 ints and iallgather 3 ints 12 (MPI_Waitany twice);
 *	iallgatherv r + 1 ints (an MPI_Waitsome loop); ialltoall 2 ints 8;
 *	ialltoallv {1,2,3} ints (4 + 8 + 12) / 3 = 8; the rest of the
 *	nonblocking ones at once, one MPI_Waitall.
 * Then rank 0 posts an MPI_Ibarrier and sends rank 1 an int with tag
 * 80, which rank 1 receives before it enters the barrier; rank 0 prints
 * the number of unsuccessful tests of the iscatter.  An argument N
 * repeats all of it, on the one ring, N times (default 1), for runs
 * long enough to time.
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
	int rank, size, i, n, idx, flag, done, r1, r2, dims[1] = { 3 },
	    periods[1] = { 1 }, rep, reps = 1;
	int in[256] = { 0 }, out[64] = { 0 }, bc[8], c123[3] = { 1, 2, 3 },
	    d123[3] = { 0, 8, 24 }, cnt[3], dsp[3], ones[3] = { 1, 1, 1 },
	    threes[2] = { 3, 3 }, d03[2] = { 0, 3 },
	    wcount[3], wdispl[3], rwcount[3], rwdispl[3], nc[2], nd[2],
	    rnc[2], rnd[2], idxs[8];
	long tests = 0;
	MPI_Datatype wtype[3], rwtype[3], ntype[2], rntype[2];
	MPI_Aint nad[2], rnad[2];
	MPI_Request r[16];
	MPI_Comm ring;
	double buf[64] = { 0 }, rbuf[64] = { 0 };

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 3) {
		if (rank == 0)
			fprintf(stderr, "nbcoll: run on 3 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	if (argc > 1 && (reps = atoi(argv[1])) < 1) {
		if (rank == 0)
			fprintf(stderr, "nbcoll: invalid repetitions '%s'\n",
			    argv[1]);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
	/* alltoallw: rank i gets i + 1 elements of type {int, double, int}[i] */
	wtype[0] = wtype[2] = MPI_INT;
	wtype[1] = MPI_DOUBLE;
	for (i = 0; i < 3; i++) {
		wcount[i] = i + 1;
		wdispl[i] = 64 * i;
		rwcount[i] = rank + 1;
		rwtype[i] = wtype[rank];
		rwdispl[i] = 64 * i;
		cnt[i] = rank + 1;
		dsp[i] = 8 * i;
	}
	/* neighbour alltoallv: 1 int to r - 1, 5 to r + 1; w: an int to
	 * r - 1, a double to r + 1 */
	nc[0] = 1, nc[1] = 5, nd[0] = 0, nd[1] = 8;
	rnc[0] = 5, rnc[1] = 1, rnd[0] = 0, rnd[1] = 8;
	ntype[0] = MPI_INT, ntype[1] = MPI_DOUBLE;
	rntype[0] = MPI_DOUBLE, rntype[1] = MPI_INT;
	nad[0] = 0, nad[1] = 8, rnad[0] = 0, rnad[1] = 8;

	for (rep = 0; rep < reps; rep++) {
		MPI_Scan(out, in, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		MPI_Exscan(out, in, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		MPI_Reduce_scatter(out, in, c123, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		MPI_Reduce_scatter_block(out, in, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		MPI_Alltoallw(buf, wcount, wdispl, wtype, rbuf, rwcount, rwdispl,
		    rwtype, MPI_COMM_WORLD);
		MPI_Neighbor_allgather(out, 1, MPI_INT, in, 1, MPI_INT, ring);
		MPI_Neighbor_allgatherv(out, 3, MPI_INT, in, threes, d03, MPI_INT,
		    ring);
		MPI_Neighbor_alltoall(out, 2, MPI_INT, in, 2, MPI_INT, ring);
		MPI_Neighbor_alltoallv(out, nc, nd, MPI_INT, in, rnc, rnd, MPI_INT,
		    ring);
		MPI_Neighbor_alltoallw(buf, ones, nad, ntype, rbuf, ones, rnad, rntype,
		    ring);

		MPI_Ibarrier(MPI_COMM_WORLD, &r[0]);
		MPI_Ibcast(bc, 5, MPI_INT, 1, MPI_COMM_WORLD, &r[1]);
		MPI_Ireduce(out, in, 6, MPI_INT, MPI_SUM, 2, MPI_COMM_WORLD, &r[2]);
		MPI_Iallreduce(out, in + 32, 7, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[3]);
		MPI_Waitall(4, r, MPI_STATUSES_IGNORE);

		MPI_Igather(out, 1, MPI_INT, in, 1, MPI_INT, 0, MPI_COMM_WORLD, &r[0]);
		MPI_Wait(&r[0], MPI_STATUS_IGNORE);
		MPI_Igatherv(out, rank + 1, MPI_INT, in, c123, d123, MPI_INT, 0,
		    MPI_COMM_WORLD, &r[0]);
		MPI_Wait(&r[0], MPI_STATUS_IGNORE);
		/* Rank 1, the root, comes late: rank 0's tests find nothing. */
		if (rank == 1)
			spin(0.05);
		MPI_Iscatter(out, 2, MPI_INT, in, 2, MPI_INT, 1, MPI_COMM_WORLD, &r[0]);
		for (flag = 0; !flag; tests++)
			MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
		MPI_Iscatterv(out, c123, d123, MPI_INT, in, rank + 1, MPI_INT, 2,
		    MPI_COMM_WORLD, &r[0]);
		MPI_Iallgather(out, 3, MPI_INT, in + 32, 3, MPI_INT, MPI_COMM_WORLD,
		    &r[1]);
		MPI_Waitany(2, r, &idx, MPI_STATUS_IGNORE);
		MPI_Waitany(2, r, &idx, MPI_STATUS_IGNORE);
		MPI_Iallgatherv(out, rank + 1, MPI_INT, in, c123, d123, MPI_INT,
		    MPI_COMM_WORLD, &r[0]);
		for (done = 0; done < 1; done += n)
			MPI_Waitsome(1, r, &n, idxs, MPI_STATUSES_IGNORE);
		/* At once: each receives into its own part of in. */
		MPI_Ialltoall(out, 2, MPI_INT, in, 2, MPI_INT, MPI_COMM_WORLD, &r[0]);
		MPI_Ialltoallv(out, c123, d123, MPI_INT, in + 8, cnt, dsp, MPI_INT,
		    MPI_COMM_WORLD, &r[1]);
		MPI_Ialltoallw(buf, wcount, wdispl, wtype, rbuf, rwcount, rwdispl,
		    rwtype, MPI_COMM_WORLD, &r[2]);
		MPI_Ireduce_scatter(out, in + 32, c123, MPI_INT, MPI_SUM,
		    MPI_COMM_WORLD, &r[3]);
		MPI_Ireduce_scatter_block(out, in + 40, 2, MPI_INT, MPI_SUM,
		    MPI_COMM_WORLD, &r[4]);
		MPI_Iscan(out, in + 48, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[5]);
		MPI_Iexscan(out, in + 56, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[6]);
		MPI_Ineighbor_allgather(out, 1, MPI_INT, in + 64, 1, MPI_INT, ring,
		    &r[7]);
		MPI_Ineighbor_allgatherv(out, 3, MPI_INT, in + 72, threes, d03,
		    MPI_INT, ring, &r[8]);
		MPI_Ineighbor_alltoall(out, 2, MPI_INT, in + 80, 2, MPI_INT, ring,
		    &r[9]);
		MPI_Ineighbor_alltoallv(out, nc, nd, MPI_INT, in + 88, rnc, rnd,
		    MPI_INT, ring, &r[10]);
		MPI_Ineighbor_alltoallw(buf + 32, ones, nad, ntype, rbuf + 32, ones,
		    rnad, rntype, ring, &r[11]);
		MPI_Waitall(12, r, MPI_STATUSES_IGNORE);

		/* A barrier that does not block: rank 1 enters it only after the
		 * message rank 0 sends after entering it. */
		r1 = r2 = rank;
		if (rank == 0) {
			MPI_Ibarrier(MPI_COMM_WORLD, &r[0]);
			MPI_Send(&r1, 1, MPI_INT, 1, 80, MPI_COMM_WORLD);
		} else if (rank == 1) {
			MPI_Recv(&r2, 1, MPI_INT, 0, 80, MPI_COMM_WORLD,
			    MPI_STATUS_IGNORE);
			MPI_Ibarrier(MPI_COMM_WORLD, &r[0]);
		} else
			MPI_Ibarrier(MPI_COMM_WORLD, &r[0]);
		MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	}

	if (rank == 0)
		printf("polls iscatter %ld\n", tests - reps);
	MPI_Comm_free(&ring);
	MPI_Finalize();
	return 0;
}
