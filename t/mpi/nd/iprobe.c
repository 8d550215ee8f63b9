/*
 * iprobe - a polling loop of MPI_Iprobe(MPI_ANY_SOURCE) until a
 * message is there, then MPI_Recv from its source.  See nd.h for the
 * two forms.
 */
#include "nd.h"

int
main(int argc, char *argv[])
{
	int i, v, flag, order[ND_MAX];
	MPI_Status st;

	nd_init(&argc, &argv, "iprobe");
	if (nd_rank == 0) {
		nd_go_all();
		for (i = 0; i < nd_size - 1; i++) {
			nd_go_next(i);
			do
				MPI_Iprobe(MPI_ANY_SOURCE, ND_TAG,
				    MPI_COMM_WORLD, &flag, &st);
			while (!flag);
			MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, ND_TAG,
			    MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			order[i] = st.MPI_SOURCE;
		}
		nd_print("iprobe", order, nd_size - 1);
	} else {
		nd_wait_turn();
		nd_send(ND_TAG);
	}
	MPI_Finalize();
	return 0;
}
