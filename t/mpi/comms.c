/*
 * comms - every way of making a communicator, on exactly 4 ranks, for
 * t/4009-mpi-comms.t.  On the K-th communicator each member calls
 * MPI_Allreduce of K ints (bytes=4K), so the test finds each one's
 * events by size; the groups, in world ranks, are:
 *	 1  MPI_COMM_SELF			{0} {1} {2} {3}
 *	 2  MPI_Comm_dup(world)			{0,1,2,3}
 *	 3  MPI_Comm_split(world, rank / 2)	{0,1} {2,3}
 *	 4  MPI_Comm_split_type(shared)		{0,1,2,3} (one host)
 *	 5  MPI_Comm_create({1,2,3})		{1,2,3}
 *	 6  MPI_Comm_create_group({0,3})	{0,3}
 *	 7  MPI_Cart_create(2 x 2)		{0,1,2,3}
 *	 8  MPI_Cart_sub(rows)			{0,1} {2,3}
 *	 9  MPI_Cart_sub(columns)		{0,2} {1,3}
 *	10  MPI_Graph_create(3 nodes)		{0,1,2}
 *	11  MPI_Dist_graph_create_adjacent	{0,1,2,3}
 *	12  MPI_Dist_graph_create		{0,1,2,3}
 *	13  MPI_Intercomm_create(3's halves)	{0,1} | {2,3}
 *	14  MPI_Intercomm_merge(13)		{0,1,2,3}
 *	15  MPI_Comm_idup(world)		{0,1,2,3}
 *	16  MPI_Comm_idup(3)			{0,1} {2,3}
 *	17  PMPI_Comm_split(world, rank % 2)	{0,2} {1,3}, made unseen
 * Point to point, each 4 bytes: on 8, row rank 0 sends to row rank 1
 * with tag 50 (world 0 -> 1, 2 -> 3); on 13, local rank 0 sends to
 * remote rank 1 with tag 51 (world 0 -> 3, 2 -> 1); on 1, each rank
 * sends itself tag 52.  Last, MPI_Barrier(MPI_COMM_SELF).  An argument
 * N repeats the allreduces, messages and barrier N times (default 1)
 * on the communicators made once, for runs long enough to time.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int in[32], out[32];

static void
sum(MPI_Comm c, int k)
{
	if (c != MPI_COMM_NULL)
		MPI_Allreduce(in, out, k, MPI_INT, MPI_SUM, c);
}

int
main(int argc, char *argv[])
{
	MPI_Comm c[18], merged;
	MPI_Group world, g;
	MPI_Request r[2];
	int rank, size, i, v = 1, w, rep, reps = 1;
	int dims[2] = { 2, 2 }, periods[2] = { 1, 1 }, rows[2] = { 0, 1 },
	    cols[2] = { 1, 0 };
	int gindex[3] = { 2, 4, 6 }, gedges[6] = { 1, 2, 0, 2, 0, 1 };
	int src[1], dst[1], one[1] = { 1 }, three[3] = { 1, 2, 3 },
	    two[2] = { 0, 3 };

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 4) {
		if (rank == 0)
			fprintf(stderr, "comms: run on 4 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	if (argc > 1 && (reps = atoi(argv[1])) < 1) {
		if (rank == 0)
			fprintf(stderr, "comms: invalid repetitions '%s'\n",
			    argv[1]);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	for (i = 0; i < 18; i++)
		c[i] = MPI_COMM_NULL;

	c[1] = MPI_COMM_SELF;
	MPI_Comm_dup(MPI_COMM_WORLD, &c[2]);
	MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &c[3]);
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank,
	    MPI_INFO_NULL, &c[4]);
	MPI_Group_incl(world, 3, three, &g);
	MPI_Comm_create(MPI_COMM_WORLD, g, &c[5]);
	MPI_Group_free(&g);
	if (rank == 0 || rank == 3) {
		MPI_Group_incl(world, 2, two, &g);
		MPI_Comm_create_group(MPI_COMM_WORLD, g, 6, &c[6]);
		MPI_Group_free(&g);
	}
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &c[7]);
	MPI_Cart_sub(c[7], rows, &c[8]);
	MPI_Cart_sub(c[7], cols, &c[9]);
	MPI_Graph_create(MPI_COMM_WORLD, 3, gindex, gedges, 0, &c[10]);
	src[0] = (rank + 3) % 4;
	dst[0] = (rank + 1) % 4;
	/* Weights given: gcc takes MPI_UNWEIGHTED for a short array. */
	MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, src, one, 1, dst,
	    one, MPI_INFO_NULL, 0, &c[11]);
	src[0] = rank;
	MPI_Dist_graph_create(MPI_COMM_WORLD, 1, src, one, dst, one,
	    MPI_INFO_NULL, 0, &c[12]);
	MPI_Intercomm_create(c[3], 0, MPI_COMM_WORLD, rank < 2 ? 2 : 0, 13,
	    &c[13]);
	MPI_Intercomm_merge(c[13], rank >= 2, &merged);
	c[14] = merged;
	MPI_Comm_idup(MPI_COMM_WORLD, &c[15], &r[0]);
	MPI_Comm_idup(c[3], &c[16], &r[1]);
	MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
	/* As a library calling the profiling interface would: no wrapper. */
	PMPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c[17]);

	for (rep = 0; rep < reps; rep++) {
		for (i = 1; i <= 17; i++)
			sum(c[i], i);

		if (rank % 2 == 0)
			MPI_Send(&v, 1, MPI_INT, 1, 50, c[8]);
		else
			MPI_Recv(&v, 1, MPI_INT, 0, 50, c[8], MPI_STATUS_IGNORE);
		if (rank % 2 == 0)
			MPI_Send(&v, 1, MPI_INT, 1, 51, c[13]);
		else
			MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 51, c[13],
			    MPI_STATUS_IGNORE);
		MPI_Sendrecv(&v, 1, MPI_INT, 0, 52, &w, 1, MPI_INT, 0, 52,
		    MPI_COMM_SELF, MPI_STATUS_IGNORE);
		MPI_Barrier(MPI_COMM_SELF);
	}

	for (i = 2; i <= 17; i++)
		if (c[i] != MPI_COMM_NULL)
			MPI_Comm_free(&c[i]);
	MPI_Group_free(&world);
	MPI_Finalize();
	return 0;
}
