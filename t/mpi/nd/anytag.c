/*
 * anytag - MPI_Recv(MPI_ANY_SOURCE, MPI_ANY_TAG): each sender sends
 * two messages, tags 10 + rank then 20 + rank, and rank 0 takes
 * 2 x (N - 1) messages with a receive that names neither source nor
 * tag, telling them apart by the tag it got.  With one source fixed,
 * MPI_ANY_TAG alone chooses nothing: messages from one sender match in
 * the order sent.  The stable form (see nd.h) lets one sender go
 * before every second receive: the two receives that follow can each
 * take only one message, the second message of that sender queued
 * behind its first.  Rank 0 prints the tags in the order taken.
 */
#include "nd.h"

int
main(int argc, char *argv[])
{
	int i, v, order[2 * ND_MAX];
	MPI_Status st;

	nd_init(&argc, &argv, "anytag");
	if (nd_rank == 0) {
		nd_go_all();
		for (i = 0; i < 2 * (nd_size - 1); i++) {
			if (i % 2 == 0)
				nd_go_next(i / 2);
			MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
			    MPI_COMM_WORLD, &st);
			order[i] = st.MPI_TAG;
		}
		nd_print("anytag", order, 2 * (nd_size - 1));
	} else {
		nd_wait_turn();
		nd_send(10 + nd_rank);
		nd_send(20 + nd_rank);
	}
	MPI_Finalize();
	return 0;
}
