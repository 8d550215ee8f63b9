/*
 * probe - MPI_Probe(MPI_ANY_SOURCE), then MPI_Recv from the source the
 * probe found, as a master handing out work does: the probe chooses,
 * the receive only follows.  See nd.h for the two forms.
 */
#include "nd.h"

int
main(int argc, char *argv[])
{
	int i, v, order[ND_MAX];
	MPI_Status st;

	nd_init(&argc, &argv, "probe");
	if (nd_rank == 0) {
		nd_go_all();
		for (i = 0; i < nd_size - 1; i++) {
			nd_go_next(i);
			MPI_Probe(MPI_ANY_SOURCE, ND_TAG, MPI_COMM_WORLD, &st);
			MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, ND_TAG,
			    MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			order[i] = st.MPI_SOURCE;
		}
		nd_print("probe", order, nd_size - 1);
	} else {
		nd_wait_turn();
		nd_send(ND_TAG);
	}
	MPI_Finalize();
	return 0;
}
