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

/* Requests and status arrays between the two languages. */
static MPI_Request *
creqs(MPI_Fint n, const MPI_Fint *f)
{
	MPI_Request *r;
	int i;

	if ((r = malloc((size_t)(n > 0 ? n : 1) * sizeof(*r))) == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		r[i] = PMPI_Request_f2c(f[i]);
	return r;
}

static void
freqs(MPI_Fint n, MPI_Request *r, MPI_Fint *f)
{
	int i;

	for (i = 0; i < n; i++)
		f[i] = PMPI_Request_c2f(r[i]);
	free(r);
}

static MPI_Status *
cstatuses(MPI_Fint n)
{
	return malloc((size_t)(n > 0 ? n : 1) * sizeof(MPI_Status));
}

static void
fstatuses(MPI_Fint n, MPI_Status *c, MPI_Fint *f)
{
	int i;

	if (f != MPI_F_STATUSES_IGNORE)
		for (i = 0; i < n; i++)
			PMPI_Status_c2f(&c[i], f + (size_t)i * FSTATUS);
	free(c);
}

ISENDLIKE(mpi_irsend_, MPI_Irsend)
ISENDLIKE(mpi_ibsend_, MPI_Ibsend)
ISENDLIKE(mpi_send_init_, MPI_Send_init)
ISENDLIKE(mpi_ssend_init_, MPI_Ssend_init)
ISENDLIKE(mpi_rsend_init_, MPI_Rsend_init)
ISENDLIKE(mpi_bsend_init_, MPI_Bsend_init)
ISENDLIKE(mpi_recv_init_, MPI_Recv_init)

EXPORT void
mpi_sendrecv_replace_(void *b, MPI_Fint *count, MPI_Fint *type,
    MPI_Fint *dest, MPI_Fint *stag, MPI_Fint *source, MPI_Fint *rtag,
    MPI_Fint *comm, MPI_Fint *status, MPI_Fint *ierr)
{
	MPI_Status st;

	*ierr = MPI_Sendrecv_replace(cbuf(b), *count, PMPI_Type_f2c(*type),
	    *dest, *stag, *source, *rtag, PMPI_Comm_f2c(*comm),
	    cstatus(status, &st));
	if (*ierr == MPI_SUCCESS)
		fstatus(status, &st);
}

EXPORT void
mpi_probe_(MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *status,
    MPI_Fint *ierr)
{
	MPI_Status st;

	*ierr = MPI_Probe(*source, *tag, PMPI_Comm_f2c(*comm),
	    cstatus(status, &st));
	if (*ierr == MPI_SUCCESS)
		fstatus(status, &st);
}

EXPORT void
mpi_iprobe_(MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *flag,
    MPI_Fint *status, MPI_Fint *ierr)
{
	MPI_Status st;
	int f;

	*ierr = MPI_Iprobe(*source, *tag, PMPI_Comm_f2c(*comm), &f,
	    cstatus(status, &st));
	if (*ierr == MPI_SUCCESS) {
		*flag = f;
		if (f)
			fstatus(status, &st);
	}
}

EXPORT void
mpi_start_(MPI_Fint *req, MPI_Fint *ierr)
{
	MPI_Request r = PMPI_Request_f2c(*req);

	*ierr = MPI_Start(&r);
	*req = PMPI_Request_c2f(r);
}

EXPORT void
mpi_startall_(MPI_Fint *count, MPI_Fint *reqs, MPI_Fint *ierr)
{
	MPI_Request *r;

	if ((r = creqs(*count, reqs)) == NULL) {
		*ierr = MPI_ERR_NO_MEM;
		return;
	}
	*ierr = MPI_Startall(*count, r);
	freqs(*count, r, reqs);
}

EXPORT void
mpi_request_free_(MPI_Fint *req, MPI_Fint *ierr)
{
	MPI_Request r = PMPI_Request_f2c(*req);

	*ierr = MPI_Request_free(&r);
	*req = PMPI_Request_c2f(r);
}

/* Fortran counts requests from 1. */
EXPORT void
mpi_waitany_(MPI_Fint *count, MPI_Fint *reqs, MPI_Fint *index,
    MPI_Fint *status, MPI_Fint *ierr)
{
	MPI_Request *r;
	MPI_Status st;
	int i;

	if ((r = creqs(*count, reqs)) == NULL) {
		*ierr = MPI_ERR_NO_MEM;
		return;
	}
	*ierr = MPI_Waitany(*count, r, &i, cstatus(status, &st));
	freqs(*count, r, reqs);
	if (*ierr == MPI_SUCCESS) {
		*index = i == MPI_UNDEFINED ? MPI_UNDEFINED : i + 1;
		fstatus(status, &st);
	}
}

EXPORT void
mpi_testany_(MPI_Fint *count, MPI_Fint *reqs, MPI_Fint *index,
    MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierr)
{
	MPI_Request *r;
	MPI_Status st;
	int i, f;

	if ((r = creqs(*count, reqs)) == NULL) {
		*ierr = MPI_ERR_NO_MEM;
		return;
	}
	*ierr = MPI_Testany(*count, r, &i, &f, cstatus(status, &st));
	freqs(*count, r, reqs);
	if (*ierr == MPI_SUCCESS) {
		*flag = f;
		*index = i == MPI_UNDEFINED ? MPI_UNDEFINED : i + 1;
		if (f)
			fstatus(status, &st);
	}
}

EXPORT void
mpi_testall_(MPI_Fint *count, MPI_Fint *reqs, MPI_Fint *flag,
    MPI_Fint *statuses, MPI_Fint *ierr)
{
	MPI_Request *r;
	MPI_Status *st;
	int f;

	r = creqs(*count, reqs);
	st = cstatuses(*count);
	if (r == NULL || st == NULL) {
		free(r);
		free(st);
		*ierr = MPI_ERR_NO_MEM;
		return;
	}
	*ierr = MPI_Testall(*count, r, &f, st);
	freqs(*count, r, reqs);
	*flag = f;
	fstatuses(f ? *count : 0, st, statuses);
}

typedef int (*somefn)(int, MPI_Request[], int *, int[], MPI_Status[]);

static void
some(somefn fn, MPI_Fint *count, MPI_Fint *reqs, MPI_Fint *outcount,
    MPI_Fint *indices, MPI_Fint *statuses, MPI_Fint *ierr)
{
	MPI_Request *r;
	MPI_Status *st;
	int *idx, n = 0, i;

	r = creqs(*count, reqs);
	st = cstatuses(*count);
	idx = malloc((size_t)(*count > 0 ? *count : 1) * sizeof(*idx));
	if (r == NULL || st == NULL || idx == NULL) {
		free(r);
		free(st);
		free(idx);
		*ierr = MPI_ERR_NO_MEM;
		return;
	}
	*ierr = fn(*count, r, &n, idx, st);
	freqs(*count, r, reqs);
	*outcount = n;
	for (i = 0; n != MPI_UNDEFINED && i < n; i++)
		indices[i] = idx[i] + 1;
	fstatuses(n == MPI_UNDEFINED ? 0 : n, st, statuses);
	free(idx);
}

EXPORT void
mpi_waitsome_(MPI_Fint *count, MPI_Fint *reqs, MPI_Fint *outcount,
    MPI_Fint *indices, MPI_Fint *statuses, MPI_Fint *ierr)
{
	some(MPI_Waitsome, count, reqs, outcount, indices, statuses, ierr);
}

EXPORT void
mpi_testsome_(MPI_Fint *count, MPI_Fint *reqs, MPI_Fint *outcount,
    MPI_Fint *indices, MPI_Fint *statuses, MPI_Fint *ierr)
{
	some(MPI_Testsome, count, reqs, outcount, indices, statuses, ierr);
}

/* More collectives. */
EXPORT void
mpi_gatherv_(void *sb, MPI_Fint *scount, MPI_Fint *stype, void *rb,
    MPI_Fint *rcounts, MPI_Fint *displs, MPI_Fint *rtype, MPI_Fint *root,
    MPI_Fint *comm, MPI_Fint *ierr)
{
	*ierr = MPI_Gatherv(cbuf(sb), *scount, PMPI_Type_f2c(*stype),
	    cbuf(rb), rcounts, displs, PMPI_Type_f2c(*rtype), *root,
	    PMPI_Comm_f2c(*comm));
}

EXPORT void
mpi_scatterv_(void *sb, MPI_Fint *scounts, MPI_Fint *displs, MPI_Fint *stype,
    void *rb, MPI_Fint *rcount, MPI_Fint *rtype, MPI_Fint *root,
    MPI_Fint *comm, MPI_Fint *ierr)
{
	*ierr = MPI_Scatterv(cbuf(sb), scounts, displs, PMPI_Type_f2c(*stype),
	    cbuf(rb), *rcount, PMPI_Type_f2c(*rtype), *root,
	    PMPI_Comm_f2c(*comm));
}

EXPORT void
mpi_allgatherv_(void *sb, MPI_Fint *scount, MPI_Fint *stype, void *rb,
    MPI_Fint *rcounts, MPI_Fint *displs, MPI_Fint *rtype, MPI_Fint *comm,
    MPI_Fint *ierr)
{
	*ierr = MPI_Allgatherv(cbuf(sb), *scount, PMPI_Type_f2c(*stype),
	    cbuf(rb), rcounts, displs, PMPI_Type_f2c(*rtype),
	    PMPI_Comm_f2c(*comm));
}

EXPORT void
mpi_alltoallv_(void *sb, MPI_Fint *scounts, MPI_Fint *sdispls,
    MPI_Fint *stype, void *rb, MPI_Fint *rcounts, MPI_Fint *rdispls,
    MPI_Fint *rtype, MPI_Fint *comm, MPI_Fint *ierr)
{
	*ierr = MPI_Alltoallv(cbuf(sb), scounts, sdispls, PMPI_Type_f2c(*stype),
	    cbuf(rb), rcounts, rdispls, PMPI_Type_f2c(*rtype),
	    PMPI_Comm_f2c(*comm));
}

EXPORT void
mpi_reduce_scatter_(void *sb, void *rb, MPI_Fint *rcounts, MPI_Fint *type,
    MPI_Fint *op, MPI_Fint *comm, MPI_Fint *ierr)
{
	*ierr = MPI_Reduce_scatter(cbuf(sb), cbuf(rb), rcounts,
	    PMPI_Type_f2c(*type), PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm));
}

EXPORT void
mpi_reduce_scatter_block_(void *sb, void *rb, MPI_Fint *rcount,
    MPI_Fint *type, MPI_Fint *op, MPI_Fint *comm, MPI_Fint *ierr)
{
	*ierr = MPI_Reduce_scatter_block(cbuf(sb), cbuf(rb), *rcount,
	    PMPI_Type_f2c(*type), PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm));
}

#define SCANLIKE(fname, cname)						\
EXPORT void								\
fname(void *sb, void *rb, MPI_Fint *count, MPI_Fint *type,		\
    MPI_Fint *op, MPI_Fint *comm, MPI_Fint *ierr)			\
{									\
	*ierr = cname(cbuf(sb), cbuf(rb), *count, PMPI_Type_f2c(*type),	\
	    PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm));			\
}
SCANLIKE(mpi_scan_, MPI_Scan)
SCANLIKE(mpi_exscan_, MPI_Exscan)

EXPORT void
mpi_ibarrier_(MPI_Fint *comm, MPI_Fint *req, MPI_Fint *ierr)
{
	MPI_Request r;

	*ierr = MPI_Ibarrier(PMPI_Comm_f2c(*comm), &r);
	if (*ierr == MPI_SUCCESS)
		*req = PMPI_Request_c2f(r);
}

EXPORT void
mpi_ibcast_(void *b, MPI_Fint *count, MPI_Fint *type, MPI_Fint *root,
    MPI_Fint *comm, MPI_Fint *req, MPI_Fint *ierr)
{
	MPI_Request r;

	*ierr = MPI_Ibcast(cbuf(b), *count, PMPI_Type_f2c(*type), *root,
	    PMPI_Comm_f2c(*comm), &r);
	if (*ierr == MPI_SUCCESS)
		*req = PMPI_Request_c2f(r);
}

EXPORT void
mpi_iallreduce_(void *sb, void *rb, MPI_Fint *count, MPI_Fint *type,
    MPI_Fint *op, MPI_Fint *comm, MPI_Fint *req, MPI_Fint *ierr)
{
	MPI_Request r;

	*ierr = MPI_Iallreduce(cbuf(sb), cbuf(rb), *count, PMPI_Type_f2c(*type),
	    PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm), &r);
	if (*ierr == MPI_SUCCESS)
		*req = PMPI_Request_c2f(r);
}

/*
 * Communicators: without these a Fortran program's communicators would
 * be made unseen and their ids agree only by their members' hash.
 */
/* c by address: the call that sets it is fcomm's other argument. */
static void
fcomm(int rc, const MPI_Comm *c, MPI_Fint *newcomm, MPI_Fint *ierr)
{
	*ierr = rc;
	if (rc == MPI_SUCCESS)
		*newcomm = PMPI_Comm_c2f(*c);
}

EXPORT void
mpi_comm_dup_(MPI_Fint *comm, MPI_Fint *newcomm, MPI_Fint *ierr)
{
	MPI_Comm c;

	fcomm(MPI_Comm_dup(PMPI_Comm_f2c(*comm), &c), &c, newcomm, ierr);
}

EXPORT void
mpi_comm_split_(MPI_Fint *comm, MPI_Fint *color, MPI_Fint *key,
    MPI_Fint *newcomm, MPI_Fint *ierr)
{
	MPI_Comm c;

	fcomm(MPI_Comm_split(PMPI_Comm_f2c(*comm), *color, *key, &c), &c,
	    newcomm, ierr);
}

EXPORT void
mpi_comm_split_type_(MPI_Fint *comm, MPI_Fint *type, MPI_Fint *key,
    MPI_Fint *info, MPI_Fint *newcomm, MPI_Fint *ierr)
{
	MPI_Comm c;

	fcomm(MPI_Comm_split_type(PMPI_Comm_f2c(*comm), *type, *key,
	    PMPI_Info_f2c(*info), &c), &c, newcomm, ierr);
}

EXPORT void
mpi_comm_create_(MPI_Fint *comm, MPI_Fint *group, MPI_Fint *newcomm,
    MPI_Fint *ierr)
{
	MPI_Comm c;

	fcomm(MPI_Comm_create(PMPI_Comm_f2c(*comm), PMPI_Group_f2c(*group),
	    &c), &c, newcomm, ierr);
}

EXPORT void
mpi_comm_create_group_(MPI_Fint *comm, MPI_Fint *group, MPI_Fint *tag,
    MPI_Fint *newcomm, MPI_Fint *ierr)
{
	MPI_Comm c;

	fcomm(MPI_Comm_create_group(PMPI_Comm_f2c(*comm),
	    PMPI_Group_f2c(*group), *tag, &c), &c, newcomm, ierr);
}

/* Fortran LOGICAL arrays: gfortran's .true. is 1, any nonzero is true. */
static int *
clogicals(MPI_Fint n, const MPI_Fint *f)
{
	int *c, i;

	if ((c = malloc((size_t)(n > 0 ? n : 1) * sizeof(*c))) != NULL)
		for (i = 0; i < n; i++)
			c[i] = f[i] != 0;
	return c;
}

EXPORT void
mpi_cart_create_(MPI_Fint *comm, MPI_Fint *ndims, MPI_Fint *dims,
    MPI_Fint *periods, MPI_Fint *reorder, MPI_Fint *newcomm, MPI_Fint *ierr)
{
	MPI_Comm c;
	int *p;

	if ((p = clogicals(*ndims, periods)) == NULL) {
		*ierr = MPI_ERR_NO_MEM;
		return;
	}
	fcomm(MPI_Cart_create(PMPI_Comm_f2c(*comm), *ndims, dims, p,
	    *reorder != 0, &c), &c, newcomm, ierr);
	free(p);
}

EXPORT void
mpi_cart_sub_(MPI_Fint *comm, MPI_Fint *remain, MPI_Fint *newcomm,
    MPI_Fint *ierr)
{
	MPI_Comm c, cc = PMPI_Comm_f2c(*comm);
	int n = 0, *p;

	PMPI_Cartdim_get(cc, &n);
	if ((p = clogicals(n, remain)) == NULL) {
		*ierr = MPI_ERR_NO_MEM;
		return;
	}
	fcomm(MPI_Cart_sub(cc, p, &c), &c, newcomm, ierr);
	free(p);
}

EXPORT void
mpi_graph_create_(MPI_Fint *comm, MPI_Fint *nnodes, MPI_Fint *index,
    MPI_Fint *edges, MPI_Fint *reorder, MPI_Fint *newcomm, MPI_Fint *ierr)
{
	MPI_Comm c;

	fcomm(MPI_Graph_create(PMPI_Comm_f2c(*comm), *nnodes, index, edges,
	    *reorder != 0, &c), &c, newcomm, ierr);
}

EXPORT void
mpi_intercomm_create_(MPI_Fint *local, MPI_Fint *lleader, MPI_Fint *peer,
    MPI_Fint *rleader, MPI_Fint *tag, MPI_Fint *newcomm, MPI_Fint *ierr)
{
	MPI_Comm c;

	fcomm(MPI_Intercomm_create(PMPI_Comm_f2c(*local), *lleader,
	    PMPI_Comm_f2c(*peer), *rleader, *tag, &c), &c, newcomm, ierr);
}

EXPORT void
mpi_intercomm_merge_(MPI_Fint *comm, MPI_Fint *high, MPI_Fint *newcomm,
    MPI_Fint *ierr)
{
	MPI_Comm c;

	fcomm(MPI_Intercomm_merge(PMPI_Comm_f2c(*comm), *high != 0, &c), &c,
	    newcomm, ierr);
}

EXPORT void
mpi_comm_idup_(MPI_Fint *comm, MPI_Fint *newcomm, MPI_Fint *req,
    MPI_Fint *ierr)
{
	MPI_Request r;
	MPI_Comm c;

	fcomm(MPI_Comm_idup(PMPI_Comm_f2c(*comm), &c, &r), &c, newcomm, ierr);
	if (*ierr == MPI_SUCCESS)
		*req = PMPI_Request_c2f(r);
}

EXPORT void
mpi_comm_free_(MPI_Fint *comm, MPI_Fint *ierr)
{
	MPI_Comm c = PMPI_Comm_f2c(*comm);

	*ierr = MPI_Comm_free(&c);
	if (*ierr == MPI_SUCCESS)
		*comm = PMPI_Comm_c2f(c);
}
