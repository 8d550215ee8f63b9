/*
 * trc_calls.h - the calls a delay can name (call= of a factor or of
 * TRC_DELAY), as libtrc-mpi names them: the op= of their events, or
 * the MPI name lowercase without MPI_.  A list of string literals for
 * the library and the tracer, which is built apart from it.
 */
#ifndef TRC_CALLS_H
#define TRC_CALLS_H

/* Delayed by libtrc-mpi, sorted; "pb" and "pe" are a region's ends. */
#define TRC_CALLS_DELAYED \
	"allgather", "allgatherv", "allreduce", "alltoall", "alltoallv", \
	"alltoallw", "barrier", "bcast", "bsend", "exscan", "gather", \
	"gatherv", "iallgather", "iallgatherv", "iallreduce", "ialltoall", \
	"ialltoallv", "ialltoallw", "ibarrier", "ibcast", "ibsend", \
	"iexscan", "igather", "igatherv", "imrecv", \
	"ineighbor_allgather", "ineighbor_allgatherv", \
	"ineighbor_alltoall", "ineighbor_alltoallv", "ineighbor_alltoallw", \
	"irecv", "ireduce", "ireduce_scatter", "ireduce_scatter_block", \
	"irsend", "iscan", "iscatter", "iscatterv", "isend", "issend", \
	"mprobe", "mrecv", "neighbor_allgather", "neighbor_allgatherv", \
	"neighbor_alltoall", "neighbor_alltoallv", "neighbor_alltoallw", \
	"pb", "pe", "probe", "recv", "reduce", "reduce_scatter", \
	"reduce_scatter_block", "rsend", "scan", "scatter", "scatterv", \
	"send", "sendrecv", "sendrecv_replace", "ssend", "start", "wait", \
	"waitall", "waitany", "waitsome"

/* Traced, never delayed: a delay there would only lengthen a poll. */
#define TRC_CALLS_NOT_DELAYED \
	"improbe", "iprobe", "test", "testall", "testany", "testsome"

#endif
