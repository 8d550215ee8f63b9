/*
 * waitany - MPI_Irecv and MPI_Waitany: rank 0 posts a receive from
 * each sender, then completes them one at a time with MPI_Waitany,
 * which chooses among those whose message has come.  See nd.h for the
 * two forms.
 */
#include "nd.h"

int
main(int argc, char *argv[])
{
	int i, k, idx, v[ND_MAX], order[ND_MAX];
	MPI_Request r[ND_MAX];

	nd_init(&argc, &argv, "waitany");
	if (nd_rank == 0) {
		for (k = 1; k < nd_size; k++)
			MPI_Irecv(&v[k - 1], 1, MPI_INT, k, ND_TAG,
			    MPI_COMM_WORLD, &r[k - 1]);
		nd_go_all();
		for (i = 0; i < nd_size - 1; i++) {
			nd_go_next(i);
			MPI_Waitany(nd_size - 1, r, &idx, MPI_STATUS_IGNORE);
			order[i] = idx + 1;
		}
		nd_print("waitany", order, nd_size - 1);
	} else {
		nd_wait_turn();
		nd_send(ND_TAG);
	}
	MPI_Finalize();
	return 0;
}
