/*
 * fortran.c - the Fortran entry points of libtrc-mpi (mpif.h and
 * "use mpi", gfortran's lowercase name with one trailing underscore).
 * Open MPI's own Fortran bindings call PMPI_* directly, so without
 * these a Fortran program would be traced as if it made no calls.
 * Each converts its handles and calls the C wrapper, which traces.
 */
#include <stdlib.h>

#include "trace.h"

/* MPI_STATUS_SIZE: Open MPI's Fortran status is the C one as integers. */
#define FSTATUS	(sizeof(MPI_Status) / sizeof(MPI_Fint))

/* Open MPI's Fortran sentinels, addresses of common blocks in libmpi. */
extern int mpi_fortran_in_place_ __attribute__((weak));
extern int mpi_fortran_bottom_ __attribute__((weak));

static void *
cbuf(void *b)
{
	if (b == (void *)&mpi_fortran_in_place_)
		return MPI_IN_PLACE;
	if (b == (void *)&mpi_fortran_bottom_)
		return MPI_BOTTOM;
	return b;
}

static MPI_Status *
cstatus(MPI_Fint *f, MPI_Status *c)
{
	return f == MPI_F_STATUS_IGNORE ? MPI_STATUS_IGNORE : c;
}

static void
fstatus(MPI_Fint *f, MPI_Status *c)
{
	if (f != MPI_F_STATUS_IGNORE)
		PMPI_Status_c2f(c, f);
}

EXPORT void
mpi_init_(MPI_Fint *ierr)
{
	*ierr = MPI_Init(NULL, NULL);
}

EXPORT void
mpi_init_thread_(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
	int p;

	*ierr = MPI_Init_thread(NULL, NULL, *required, &p);
	*provided = p;
}

EXPORT void
mpi_finalize_(MPI_Fint *ierr)
{
	*ierr = MPI_Finalize();
}

EXPORT void
mpi_abort_(MPI_Fint *comm, MPI_Fint *code, MPI_Fint *ierr)
{
	*ierr = MPI_Abort(PMPI_Comm_f2c(*comm), *code);
}

#define SENDLIKE(fname, cname)						\
EXPORT void								\
fname(void *b, MPI_Fint *count, MPI_Fint *type, MPI_Fint *dest,	\
    MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *ierr)			\
{									\
	*ierr = cname(cbuf(b), *count, PMPI_Type_f2c(*type), *dest,	\
	    *tag, PMPI_Comm_f2c(*comm));				\
}
SENDLIKE(mpi_send_, MPI_Send)
SENDLIKE(mpi_ssend_, MPI_Ssend)
SENDLIKE(mpi_rsend_, MPI_Rsend)
SENDLIKE(mpi_bsend_, MPI_Bsend)

#define ISENDLIKE(fname, cname)						\
EXPORT void								\
fname(void *b, MPI_Fint *count, MPI_Fint *type, MPI_Fint *dest,	\
    MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *req, MPI_Fint *ierr)	\
{									\
	MPI_Request r;							\
	*ierr = cname(cbuf(b), *count, PMPI_Type_f2c(*type), *dest,	\
	    *tag, PMPI_Comm_f2c(*comm), &r);				\
	if (*ierr == MPI_SUCCESS)					\
		*req = PMPI_Request_c2f(r);				\
}
ISENDLIKE(mpi_isend_, MPI_Isend)
ISENDLIKE(mpi_issend_, MPI_Issend)
ISENDLIKE(mpi_irecv_, MPI_Irecv)

EXPORT void
mpi_recv_(void *b, MPI_Fint *count, MPI_Fint *type, MPI_Fint *source,
    MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *status, MPI_Fint *ierr)
{
	MPI_Status st;

	*ierr = MPI_Recv(cbuf(b), *count, PMPI_Type_f2c(*type), *source, *tag,
	    PMPI_Comm_f2c(*comm), cstatus(status, &st));
	if (*ierr == MPI_SUCCESS)
		fstatus(status, &st);
}

EXPORT void
mpi_sendrecv_(void *sb, MPI_Fint *scount, MPI_Fint *stype, MPI_Fint *dest,
    MPI_Fint *stag, void *rb, MPI_Fint *rcount, MPI_Fint *rtype,
    MPI_Fint *source, MPI_Fint *rtag, MPI_Fint *comm, MPI_Fint *status,
    MPI_Fint *ierr)
{
	MPI_Status st;

	*ierr = MPI_Sendrecv(cbuf(sb), *scount, PMPI_Type_f2c(*stype), *dest,
	    *stag, cbuf(rb), *rcount, PMPI_Type_f2c(*rtype), *source, *rtag,
	    PMPI_Comm_f2c(*comm), cstatus(status, &st));
	if (*ierr == MPI_SUCCESS)
		fstatus(status, &st);
}

EXPORT void
mpi_wait_(MPI_Fint *req, MPI_Fint *status, MPI_Fint *ierr)
{
	MPI_Request r = PMPI_Request_f2c(*req);
	MPI_Status st;

	*ierr = MPI_Wait(&r, cstatus(status, &st));
	if (*ierr == MPI_SUCCESS) {
		*req = PMPI_Request_c2f(r);
		fstatus(status, &st);
	}
}

EXPORT void
mpi_test_(MPI_Fint *req, MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierr)
{
	MPI_Request r = PMPI_Request_f2c(*req);
	MPI_Status st;
	int f;

	*ierr = MPI_Test(&r, &f, cstatus(status, &st));
	if (*ierr == MPI_SUCCESS) {
		*flag = f;
		*req = PMPI_Request_c2f(r);
		if (f)
			fstatus(status, &st);
	}
}

EXPORT void
mpi_waitall_(MPI_Fint *count, MPI_Fint *reqs, MPI_Fint *statuses,
    MPI_Fint *ierr)
{
	MPI_Request *r;
	MPI_Status *st;
	int i, n = *count;

	r = malloc((size_t)(n > 0 ? n : 1) * sizeof(*r));
	st = malloc((size_t)(n > 0 ? n : 1) * sizeof(*st));
	if (r == NULL || st == NULL) {
		free(r);
		free(st);
		*ierr = MPI_ERR_NO_MEM;
		return;
	}
	for (i = 0; i < n; i++)
		r[i] = PMPI_Request_f2c(reqs[i]);
	*ierr = MPI_Waitall(n, r, st);
	for (i = 0; i < n; i++) {
		reqs[i] = PMPI_Request_c2f(r[i]);
		if (statuses != MPI_F_STATUSES_IGNORE)
			PMPI_Status_c2f(&st[i], statuses + (size_t)i * FSTATUS);
	}
	free(r);
	free(st);
}

EXPORT void
mpi_barrier_(MPI_Fint *comm, MPI_Fint *ierr)
{
	*ierr = MPI_Barrier(PMPI_Comm_f2c(*comm));
}

EXPORT void
mpi_bcast_(void *b, MPI_Fint *count, MPI_Fint *type, MPI_Fint *root,
    MPI_Fint *comm, MPI_Fint *ierr)
{
	*ierr = MPI_Bcast(cbuf(b), *count, PMPI_Type_f2c(*type), *root,
	    PMPI_Comm_f2c(*comm));
}

EXPORT void
mpi_reduce_(void *sb, void *rb, MPI_Fint *count, MPI_Fint *type,
    MPI_Fint *op, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr)
{
	*ierr = MPI_Reduce(cbuf(sb), cbuf(rb), *count, PMPI_Type_f2c(*type),
	    PMPI_Op_f2c(*op), *root, PMPI_Comm_f2c(*comm));
}

EXPORT void
mpi_allreduce_(void *sb, void *rb, MPI_Fint *count, MPI_Fint *type,
    MPI_Fint *op, MPI_Fint *comm, MPI_Fint *ierr)
{
	*ierr = MPI_Allreduce(cbuf(sb), cbuf(rb), *count, PMPI_Type_f2c(*type),
	    PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm));
}

EXPORT void
mpi_gather_(void *sb, MPI_Fint *scount, MPI_Fint *stype, void *rb,
    MPI_Fint *rcount, MPI_Fint *rtype, MPI_Fint *root, MPI_Fint *comm,
    MPI_Fint *ierr)
{
	*ierr = MPI_Gather(cbuf(sb), *scount, PMPI_Type_f2c(*stype), cbuf(rb),
	    *rcount, PMPI_Type_f2c(*rtype), *root, PMPI_Comm_f2c(*comm));
}

EXPORT void
mpi_scatter_(void *sb, MPI_Fint *scount, MPI_Fint *stype, void *rb,
    MPI_Fint *rcount, MPI_Fint *rtype, MPI_Fint *root, MPI_Fint *comm,
    MPI_Fint *ierr)
{
	*ierr = MPI_Scatter(cbuf(sb), *scount, PMPI_Type_f2c(*stype), cbuf(rb),
	    *rcount, PMPI_Type_f2c(*rtype), *root, PMPI_Comm_f2c(*comm));
}

EXPORT void
mpi_allgather_(void *sb, MPI_Fint *scount, MPI_Fint *stype, void *rb,
    MPI_Fint *rcount, MPI_Fint *rtype, MPI_Fint *comm, MPI_Fint *ierr)
{
	*ierr = MPI_Allgather(cbuf(sb), *scount, PMPI_Type_f2c(*stype),
	    cbuf(rb), *rcount, PMPI_Type_f2c(*rtype), PMPI_Comm_f2c(*comm));
}

EXPORT void
mpi_alltoall_(void *sb, MPI_Fint *scount, MPI_Fint *stype, void *rb,
    MPI_Fint *rcount, MPI_Fint *rtype, MPI_Fint *comm, MPI_Fint *ierr)
{
	*ierr = MPI_Alltoall(cbuf(sb), *scount, PMPI_Type_f2c(*stype),
	    cbuf(rb), *rcount, PMPI_Type_f2c(*rtype), PMPI_Comm_f2c(*comm));
}
