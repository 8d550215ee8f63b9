/*
 * unreplayable.c - libtrc-unreplayable.so, preloaded by trc-replay(1)
 * after libtrc-mpi.so: the MPI calls whose results a message log does
 * not hold (msglog.c) stop a replay with their name, instead of
 * reaching the lone process's MPI library, which would answer them for
 * a run of one.  Without mpi.h on purpose: a stub never reads its
 * arguments, so one signature serves every call.
 */
#include <stdio.h>
#include <stdlib.h>

#define EXPORT	__attribute__((visibility("default")))

static void __attribute__((noreturn))
unreplayable(const char *call)
{
	const char *log = getenv("TRC_REPLAY");

	fprintf(stderr, "trc-replay: %s: %s cannot be replayed (a message "
	    "log holds no results for it)\n", log != NULL ? log : "-", call);
	exit(2);
}

#define STUB(f) \
	EXPORT int MPI_##f(void); \
	EXPORT int PMPI_##f(void); \
	int MPI_##f(void) { unreplayable("MPI_" #f); } \
	int PMPI_##f(void) { unreplayable("MPI_" #f); }

/* Matched probes, persistent requests, cancellation. */
STUB(Mprobe) STUB(Improbe) STUB(Mrecv) STUB(Imrecv)
STUB(Send_init) STUB(Ssend_init) STUB(Rsend_init) STUB(Bsend_init)
STUB(Recv_init) STUB(Start) STUB(Startall) STUB(Cancel)
STUB(Request_get_status)
/* Collectives with per-rank counts, neighbourhoods, nonblocking ones. */
STUB(Gatherv) STUB(Scatterv) STUB(Allgatherv) STUB(Alltoallv)
STUB(Alltoallw) STUB(Reduce_scatter)
STUB(Neighbor_allgather) STUB(Neighbor_allgatherv) STUB(Neighbor_alltoall)
STUB(Neighbor_alltoallv) STUB(Neighbor_alltoallw)
STUB(Ibarrier) STUB(Ibcast) STUB(Ireduce) STUB(Iallreduce) STUB(Igather)
STUB(Igatherv) STUB(Iscatter) STUB(Iscatterv) STUB(Iallgather)
STUB(Iallgatherv) STUB(Ialltoall) STUB(Ialltoallv) STUB(Ialltoallw)
STUB(Ireduce_scatter) STUB(Ireduce_scatter_block) STUB(Iscan) STUB(Iexscan)
STUB(Ineighbor_allgather) STUB(Ineighbor_allgatherv)
STUB(Ineighbor_alltoall) STUB(Ineighbor_alltoallv)
STUB(Ineighbor_alltoallw)
/* New communicators: a replay knows only the world and itself. */
STUB(Comm_dup) STUB(Comm_dup_with_info) STUB(Comm_idup) STUB(Comm_split)
STUB(Comm_split_type) STUB(Comm_create) STUB(Comm_create_group)
STUB(Cart_create) STUB(Cart_sub) STUB(Graph_create) STUB(Dist_graph_create)
STUB(Dist_graph_create_adjacent) STUB(Intercomm_create)
STUB(Intercomm_merge) STUB(Comm_spawn) STUB(Comm_spawn_multiple)
STUB(Comm_connect) STUB(Comm_accept) STUB(Comm_join)
/* One-sided communication and MPI-IO. */
STUB(Win_create) STUB(Win_allocate) STUB(Win_allocate_shared)
STUB(Win_create_dynamic) STUB(File_open)
