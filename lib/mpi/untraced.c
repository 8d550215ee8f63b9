/*
 * untraced.c - calls the tracer does not trace, counted: each rank
 * counts its calls of every function of untraced.list (one-sided
 * communication, file I/O, dynamic processes, ...), which are neither
 * in the trace nor delayed; at MPI_Finalize the counts are summed on
 * rank 0 and the trace's header names the calls made, so that
 * trc-record can warn about them.  A counter costs one relaxed atomic
 * add before the call goes on to PMPI.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "trace.h"

/* The calls of each function, on this rank (on rank 0, at the end, all). */
static int64_t calls[128];

#define TR_UNTRACED_COUNT(i) \
	__atomic_add_fetch(&calls[i], 1, __ATOMIC_RELAXED)

#include "untraced.h"

_Static_assert(TR_UNTRACED_N <= sizeof calls / sizeof calls[0],
    "untraced.list outgrew the counters");

void
tr_untraced_reduce(void)
{
	int64_t all[TR_UNTRACED_N];

	PMPI_Reduce(calls, all, TR_UNTRACED_N, MPI_INT64_T, MPI_SUM, 0,
	    MPI_COMM_WORLD);
	if (tr_rank == 0)
		memcpy(calls, all, sizeof all);
}

void
tr_untraced_header(FILE *f)
{
	int i;

	for (i = 0; i < TR_UNTRACED_N; i++)
		if (calls[i] > 0)
			fprintf(f, "#untraced %s calls=%lld\n",
			    tr_untraced_name[i], (long long)calls[i]);
}
