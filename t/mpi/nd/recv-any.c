/*
 * recv-any - a wildcard receive: rank 0 takes one message from each
 * sender with MPI_Recv(MPI_ANY_SOURCE).  See nd.h for the two forms.
 */
#include "nd.h"

int
main(int argc, char *argv[])
{
	int i, v, order[ND_MAX];
	MPI_Status st;

	nd_init(&argc, &argv, "recv-any");
	if (nd_rank == 0) {
		nd_go_all();
		for (i = 0; i < nd_size - 1; i++) {
			nd_go_next(i);
			MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, ND_TAG,
			    MPI_COMM_WORLD, &st);
			order[i] = st.MPI_SOURCE;
		}
		nd_print("recv-any", order, nd_size - 1);
	} else {
		nd_wait_turn();
		nd_send(ND_TAG);
	}
	MPI_Finalize();
	return 0;
}
