/*
 * replay-data - what each rank receives decides what it does, and each
 * rank prints a sum of all it received, for t/4020-mpi-replay.t: a
 * replayed rank (trc-replay) must print the same line, and make the
 * same calls, as in the full run, so the log must serve the right
 * payloads through every kind of receive it supports.
 *
 * Rank 0 sends every other rank k = rank + 1 (MPI_Send); rank r then
 * sends rank 0 k messages of tag 10 + i (MPI_Isend, MPI_Waitall), which
 * rank 0 takes with MPI_ANY_SOURCE (MPI_Recv, then MPI_Irecv and
 * MPI_Wait); then MPI_Allreduce, MPI_Bcast, MPI_Gather, MPI_Scatter,
 * MPI_Allgather, MPI_Alltoall, MPI_Sendrecv around the ring, and an
 * MPI_Iprobe, MPI_Test loop on the last message.
 */
#include <mpi.h>
#include <stdio.h>

int
main(int argc, char *argv[])
{
	MPI_Request req[8];
	MPI_Status st;
	double sum = 0;
	int rank, size, k, i, j, v, flag, got[64], all[64], mine[64];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size > 64)
		MPI_Abort(MPI_COMM_WORLD, 2);
	if (rank == 0) {
		for (i = 1; i < size; i++) {
			k = i + 1;
			MPI_Send(&k, 1, MPI_INT, i, 1, MPI_COMM_WORLD);
		}
		for (i = 1; i < size; i++)
			for (j = 0; j < i + 1; j++) {
				if (j % 2 == 0)
					MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE,
					    MPI_ANY_TAG, MPI_COMM_WORLD, &st);
				else {
					MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE,
					    MPI_ANY_TAG, MPI_COMM_WORLD, &req[0]);
					MPI_Wait(&req[0], &st);
				}
				sum += v * (st.MPI_SOURCE + 1) + st.MPI_TAG;
			}
	} else {
		MPI_Recv(&k, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		sum += k;
		for (i = 0; i < k && i < 8; i++) {
			mine[i] = 100 * rank + i;
			MPI_Isend(&mine[i], 1, MPI_INT, 0, 10 + i, MPI_COMM_WORLD,
			    &req[i]);
		}
		MPI_Waitall(i, req, MPI_STATUSES_IGNORE);
	}
	v = rank * rank;
	MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	sum += v;
	v = rank == 0 ? 4242 : 0;
	MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
	sum += v;
	v = 7 * rank;
	MPI_Gather(&v, 1, MPI_INT, got, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (rank == 0)
		for (i = 0; i < size; i++)
			sum += got[i] * (i + 1);
	for (i = 0; i < size; i++)
		all[i] = 3 * i + 1;
	MPI_Scatter(all, 1, MPI_INT, &v, 1, MPI_INT, 0, MPI_COMM_WORLD);
	sum += v;
	v = rank + 5;
	MPI_Allgather(&v, 1, MPI_INT, got, 1, MPI_INT, MPI_COMM_WORLD);
	for (i = 0; i < size; i++)
		sum += got[i] * (i + 2);
	for (i = 0; i < size; i++)
		mine[i] = 10 * rank + i;
	MPI_Alltoall(mine, 1, MPI_INT, got, 1, MPI_INT, MPI_COMM_WORLD);
	for (i = 0; i < size; i++)
		sum += got[i] * (i + 3);
	v = rank;
	MPI_Sendrecv(&v, 1, MPI_INT, (rank + 1) % size, 2, &j, 1, MPI_INT,
	    (rank + size - 1) % size, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	sum += 11 * j;
	/* The last message, waited for by polling. */
	if (rank == 1)
		MPI_Send(&rank, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
	if (rank == 0 && size > 1) {
		do
			MPI_Iprobe(1, 3, MPI_COMM_WORLD, &flag, &st);
		while (!flag);
		MPI_Irecv(&v, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &req[0]);
		do
			MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
		while (!flag);
		sum += 13 * v;
	}
	printf("rank %d received %.0f\n", rank, sum);
	MPI_Finalize();
	return 0;
}
