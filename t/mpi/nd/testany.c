/*
 * testany - MPI_Irecv and a loop of MPI_Testany: rank 0 posts a
 * receive from each sender, then polls them with MPI_Testany until one
 * completes, once per sender; which one a successful test completes
 * depends on what has come.  See nd.h for the two forms.
 */
#include "nd.h"

int
main(int argc, char *argv[])
{
	int i, k, idx, flag, v[ND_MAX], order[ND_MAX];
	MPI_Request r[ND_MAX];

	nd_init(&argc, &argv, "testany");
	if (nd_rank == 0) {
		for (k = 1; k < nd_size; k++)
			MPI_Irecv(&v[k - 1], 1, MPI_INT, k, ND_TAG,
			    MPI_COMM_WORLD, &r[k - 1]);
		nd_go_all();
		for (i = 0; i < nd_size - 1; i++) {
			nd_go_next(i);
			do
				MPI_Testany(nd_size - 1, r, &idx, &flag,
				    MPI_STATUS_IGNORE);
			while (!flag);
			order[i] = idx + 1;
		}
		nd_print("testany", order, nd_size - 1);
	} else {
		nd_wait_turn();
		nd_send(ND_TAG);
	}
	MPI_Finalize();
	return 0;
}
