/*
 * waitsome - MPI_Irecv and MPI_Waitsome: rank 0 posts a receive from
 * each sender, then calls MPI_Waitsome until all are done; which ones
 * each call completes depends on what has come.  See nd.h for the two
 * forms (in the stable one each call completes exactly one).
 */
#include "nd.h"

int
main(int argc, char *argv[])
{
	int i, j, k, n, done, idx[ND_MAX], v[ND_MAX], order[2 * ND_MAX];
	MPI_Request r[ND_MAX];

	nd_init(&argc, &argv, "waitsome");
	if (nd_rank == 0) {
		for (k = 1; k < nd_size; k++)
			MPI_Irecv(&v[k - 1], 1, MPI_INT, k, ND_TAG,
			    MPI_COMM_WORLD, &r[k - 1]);
		nd_go_all();
		/* The sources each call completed, calls separated by 0. */
		for (i = done = j = 0; done < nd_size - 1; i++) {
			nd_go_next(i);
			MPI_Waitsome(nd_size - 1, r, &n, idx,
			    MPI_STATUSES_IGNORE);
			for (k = 0; k < n; k++)
				order[j++] = idx[k] + 1;
			order[j++] = 0;
			done += n;
		}
		nd_print("waitsome", order, j);
	} else {
		nd_wait_turn();
		nd_send(ND_TAG);
	}
	MPI_Finalize();
	return 0;
}
