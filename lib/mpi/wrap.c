/*
 * wrap.c - the C MPI entry points of libtrc-mpi.  Each one writes its
 * events around the PMPI_ call of the same name; see libtrc-mpi(7) for
 * the events each writes.  Calls made while a wrapper runs (by the MPI
 * library itself, or by the Fortran wrappers) are not traced twice.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

#define TRACING	(tr_on && tr_depth == 0)
#define SMALL	64	/* requests handled without malloc */

static char *
attrs(char *p, int peer, int tag, int64_t bytes, int comm)
{
	p = put_peer(p, " peer=", peer);
	p = put_peer(p, " tag=", tag);
	p = put_int(p, " bytes=", bytes);
	if (comm != 0)
		p = put_int(p, " comm=", comm);
	return p;
}

static int64_t
recv_bytes(const MPI_Status *st, MPI_Datatype t)
{
	int n;

	if (PMPI_Get_count(st, t, &n) == MPI_SUCCESS && n != MPI_UNDEFINED)
		return tr_bytes(n, t);
	if (PMPI_Get_count(st, MPI_BYTE, &n) == MPI_SUCCESS && n != MPI_UNDEFINED)
		return n;
	return 0;
}

static char *
put_op(char *p, const char *op)
{
	return op != NULL ? put_str(put_str(p, " op="), op) : p;
}

/* RE for a completed receive: the actual source, tag and size. */
static void
write_re(int64_t t, int64_t req, const char *op, MPI_Comm comm, int cid,
    MPI_Datatype type, const MPI_Status *st)
{
	int cancelled = 0;
	char *p;

	PMPI_Test_cancelled(st, &cancelled);
	if (cancelled)
		return;
	p = ev_start(t, "RE", 0);
	if (req > 0)
		p = put_int(p, " req=", req);
	p = attrs(p, tr_world(comm, st->MPI_SOURCE), st->MPI_TAG,
	    recv_bytes(st, type), cid);
	ev_end(put_op(p, op));
}

/* A collective's begin or end; see write_x below. */
static void write_x(int64_t, const char *kind, const char *op, int64_t bytes,
    int root, int cid, int size, int64_t req);

/*
 * A request completes: a receive writes its RE, a nonblocking
 * collective its XE; a send has left at its SE.
 */
static void
complete(int64_t t, const struct req_info *ri, const MPI_Status *st)
{
	if (ri->kind == RQ_RECV)
		write_re(t, ri->id, ri->op, ri->commh, ri->comm, ri->type, st);
	else if (ri->kind == RQ_COLL)
		write_x(t, "XE", ri->op, ri->bytes, ri->root, ri->comm, 0,
		    ri->id);
}

/* WB or WE with a req= list of the known requests among n. */
static void
write_w(int64_t t, const char *kind, const char *op, int n,
    const struct req_info *ri, const char *known)
{
	char *p;
	int i, first = 1;

	p = ev_start(t, kind, (size_t)n * 22);
	for (i = 0; i < n; i++)
		if (known[i]) {
			p = first ? put_int(p, " req=", ri[i].id) :
			    put_int(p, ",", ri[i].id);
			first = 0;
		}
	ev_end(put_str(put_str(p, " op="), op));
}

/* Point to point ------------------------------------------------------ */

typedef int (*sendfn)(const void *, int, MPI_Datatype, int, int, MPI_Comm);

static int
send_common(const char *call, const char *op, sendfn fn, const void *b,
    int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	int64_t bytes;
	int peer, cid, rc;
	char *p;

	if (!TRACING || dest == MPI_PROC_NULL)
		return fn(b, count, type, dest, tag, comm);
	tr_depth++;
	peer = tr_world(comm, dest);
	cid = tr_comm_id(comm);
	bytes = tr_bytes(count, type);
	p = attrs(ev_start(tr_now(), "SB", 0), peer, tag, bytes, cid);
	ev_end(op != NULL ? put_str(put_str(p, " op="), op) : p);
	tr_delay(call);
	rc = fn(b, count, type, dest, tag, comm);
	p = attrs(ev_start(tr_now(), "SE", 0), peer, tag, bytes, cid);
	ev_end(op != NULL ? put_str(put_str(p, " op="), op) : p);
	tr_depth--;
	return rc;
}

EXPORT int
MPI_Send(const void *b, int count, MPI_Datatype type, int dest, int tag,
    MPI_Comm comm)
{
	return send_common("send", NULL, PMPI_Send, b, count, type, dest, tag, comm);
}

EXPORT int
MPI_Ssend(const void *b, int count, MPI_Datatype type, int dest, int tag,
    MPI_Comm comm)
{
	return send_common("ssend", "ssend", PMPI_Ssend, b, count, type, dest,
	    tag, comm);
}

EXPORT int
MPI_Rsend(const void *b, int count, MPI_Datatype type, int dest, int tag,
    MPI_Comm comm)
{
	return send_common("rsend", "rsend", PMPI_Rsend, b, count, type, dest,
	    tag, comm);
}

EXPORT int
MPI_Bsend(const void *b, int count, MPI_Datatype type, int dest, int tag,
    MPI_Comm comm)
{
	return send_common("bsend", "bsend", PMPI_Bsend, b, count, type, dest,
	    tag, comm);
}

EXPORT int
MPI_Recv(void *b, int count, MPI_Datatype type, int source, int tag,
    MPI_Comm comm, MPI_Status *status)
{
	MPI_Status st;
	int cid, rc;
	char *p;

	if (!TRACING || source == MPI_PROC_NULL)
		return PMPI_Recv(b, count, type, source, tag, comm, status);
	tr_depth++;
	cid = tr_comm_id(comm);
	p = ev_start(tr_now(), "RB", 0);
	ev_end(attrs(p, source == MPI_ANY_SOURCE ? -2 : tr_world(comm, source),
	    tag == MPI_ANY_TAG ? -2 : tag, tr_bytes(count, type), cid));
	tr_delay("recv");
	rc = PMPI_Recv(b, count, type, source, tag, comm, &st);
	if (rc == MPI_SUCCESS)
		write_re(tr_now(), 0, NULL, comm, cid, type, &st);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	tr_depth--;
	return rc;
}

typedef int (*isendfn)(const void *, int, MPI_Datatype, int, int, MPI_Comm,
    MPI_Request *);

static int
isend_common(const char *call, const char *op, isendfn fn, const void *b,
    int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
    MPI_Request *req)
{
	struct req_info ri;
	char *p;
	int rc;

	if (!TRACING || dest == MPI_PROC_NULL)
		return fn(b, count, type, dest, tag, comm, req);
	tr_depth++;
	memset(&ri, 0, sizeof(ri));
	ri.id = tr_req_new();
	ri.peer = tr_world(comm, dest);
	ri.tag = tag;
	ri.comm = tr_comm_id(comm);
	ri.bytes = tr_bytes(count, type);
	ri.type = type;
	ri.commh = comm;
	ri.op = op;
	p = attrs(ev_start(tr_now(), "SB", 0), ri.peer, tag, ri.bytes, ri.comm);
	p = put_int(p, " req=", ri.id);
	ev_end(op != NULL ? put_str(put_str(p, " op="), op) : p);
	tr_delay(call);
	rc = fn(b, count, type, dest, tag, comm, req);
	p = attrs(ev_start(tr_now(), "SE", 0), ri.peer, tag, ri.bytes, ri.comm);
	p = put_int(p, " req=", ri.id);
	ev_end(op != NULL ? put_str(put_str(p, " op="), op) : p);
	if (rc == MPI_SUCCESS)
		tr_req_put(req, &ri);
	tr_depth--;
	return rc;
}

EXPORT int
MPI_Isend(const void *b, int count, MPI_Datatype type, int dest, int tag,
    MPI_Comm comm, MPI_Request *req)
{
	return isend_common("isend", NULL, PMPI_Isend, b, count, type, dest,
	    tag, comm, req);
}

EXPORT int
MPI_Issend(const void *b, int count, MPI_Datatype type, int dest, int tag,
    MPI_Comm comm, MPI_Request *req)
{
	return isend_common("issend", "issend", PMPI_Issend, b, count, type,
	    dest, tag, comm, req);
}

EXPORT int
MPI_Irsend(const void *b, int count, MPI_Datatype type, int dest, int tag,
    MPI_Comm comm, MPI_Request *req)
{
	return isend_common("irsend", "irsend", PMPI_Irsend, b, count, type,
	    dest, tag, comm, req);
}

EXPORT int
MPI_Ibsend(const void *b, int count, MPI_Datatype type, int dest, int tag,
    MPI_Comm comm, MPI_Request *req)
{
	return isend_common("ibsend", "ibsend", PMPI_Ibsend, b, count, type,
	    dest, tag, comm, req);
}

EXPORT int
MPI_Irecv(void *b, int count, MPI_Datatype type, int source, int tag,
    MPI_Comm comm, MPI_Request *req)
{
	struct req_info ri;
	char *p;
	int rc;

	if (!TRACING || source == MPI_PROC_NULL)
		return PMPI_Irecv(b, count, type, source, tag, comm, req);
	tr_depth++;
	memset(&ri, 0, sizeof(ri));
	ri.id = tr_req_new();
	ri.kind = RQ_RECV;
	ri.peer = source == MPI_ANY_SOURCE ? -2 : tr_world(comm, source);
	ri.tag = tag == MPI_ANY_TAG ? -2 : tag;
	ri.comm = tr_comm_id(comm);
	ri.bytes = tr_bytes(count, type);
	ri.type = type;
	ri.commh = comm;
	p = attrs(ev_start(tr_now(), "RB", 0), ri.peer, ri.tag, ri.bytes, ri.comm);
	ev_end(put_int(p, " req=", ri.id));
	tr_delay("irecv");
	rc = PMPI_Irecv(b, count, type, source, tag, comm, req);
	if (rc == MPI_SUCCESS)
		tr_req_put(req, &ri);
	tr_depth--;
	return rc;
}

/*
 * Sendrecv is written as an Isend, an Irecv and a wait on both, the
 * stream's own words for "both at once", every part with op=sendrecv:
 * SB/SE req=a, RB req=b, WB req=a,b, RE req=b, WE.
 */
static void
sendrecv_begin(int64_t t, struct req_info ri[2], char known[2])
{
	char *p;

	if (known[0]) {
		p = attrs(ev_start(t, "SB", 0), ri[0].peer, ri[0].tag,
		    ri[0].bytes, ri[0].comm);
		ev_end(put_op(put_int(p, " req=", ri[0].id), ri[0].op));
		p = attrs(ev_start(t, "SE", 0), ri[0].peer, ri[0].tag,
		    ri[0].bytes, ri[0].comm);
		ev_end(put_op(put_int(p, " req=", ri[0].id), ri[0].op));
	}
	if (known[1]) {
		p = attrs(ev_start(t, "RB", 0), ri[1].peer, ri[1].tag,
		    ri[1].bytes, ri[1].comm);
		ev_end(put_op(put_int(p, " req=", ri[1].id), ri[1].op));
	}
	write_w(t, "WB", "sendrecv", 2, ri, known);
}

static void
sendrecv_info(struct req_info ri[2], char known[2], int scount,
    MPI_Datatype stype, int dest, int stag, int rcount, MPI_Datatype rtype,
    int source, int rtag, MPI_Comm comm)
{
	memset(ri, 0, 2 * sizeof(ri[0]));
	known[0] = dest != MPI_PROC_NULL;
	known[1] = source != MPI_PROC_NULL;
	if (known[0]) {
		ri[0].id = tr_req_new();
		ri[0].op = "sendrecv";
		ri[0].peer = tr_world(comm, dest);
		ri[0].tag = stag;
		ri[0].bytes = tr_bytes(scount, stype);
		ri[0].comm = tr_comm_id(comm);
	}
	if (known[1]) {
		ri[1].id = tr_req_new();
		ri[1].kind = RQ_RECV;
		ri[1].op = "sendrecv";
		ri[1].peer = source == MPI_ANY_SOURCE ? -2 : tr_world(comm, source);
		ri[1].tag = rtag == MPI_ANY_TAG ? -2 : rtag;
		ri[1].bytes = tr_bytes(rcount, rtype);
		ri[1].comm = tr_comm_id(comm);
		ri[1].type = rtype;
		ri[1].commh = comm;
	}
}

EXPORT int
MPI_Sendrecv(const void *sb, int scount, MPI_Datatype stype, int dest,
    int stag, void *rb, int rcount, MPI_Datatype rtype, int source, int rtag,
    MPI_Comm comm, MPI_Status *status)
{
	struct req_info ri[2];
	MPI_Status st;
	char known[2];
	int64_t t;
	int rc;

	if (!TRACING)
		return PMPI_Sendrecv(sb, scount, stype, dest, stag, rb, rcount,
		    rtype, source, rtag, comm, status);
	tr_depth++;
	sendrecv_info(ri, known, scount, stype, dest, stag, rcount, rtype,
	    source, rtag, comm);
	sendrecv_begin(tr_now(), ri, known);
	tr_delay("sendrecv");
	rc = PMPI_Sendrecv(sb, scount, stype, dest, stag, rb, rcount, rtype,
	    source, rtag, comm, &st);
	t = tr_now();
	if (known[1] && rc == MPI_SUCCESS)
		complete(t, &ri[1], &st);
	write_w(t, "WE", "sendrecv", 2, ri, known);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	tr_depth--;
	return rc;
}

EXPORT int
MPI_Sendrecv_replace(void *b, int count, MPI_Datatype type, int dest,
    int stag, int source, int rtag, MPI_Comm comm, MPI_Status *status)
{
	struct req_info ri[2];
	MPI_Status st;
	char known[2];
	int64_t t;
	int rc;

	if (!TRACING)
		return PMPI_Sendrecv_replace(b, count, type, dest, stag, source,
		    rtag, comm, status);
	tr_depth++;
	sendrecv_info(ri, known, count, type, dest, stag, count, type,
	    source, rtag, comm);
	sendrecv_begin(tr_now(), ri, known);
	tr_delay("sendrecv_replace");
	rc = PMPI_Sendrecv_replace(b, count, type, dest, stag, source, rtag,
	    comm, &st);
	t = tr_now();
	if (known[1] && rc == MPI_SUCCESS)
		complete(t, &ri[1], &st);
	write_w(t, "WE", "sendrecv", 2, ri, known);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	tr_depth--;
	return rc;
}

/* Completion ----------------------------------------------------------- */

/* Per-call scratch for n requests: on the stack when small. */
struct scratch {
	MPI_Request	 hs[SMALL];
	struct req_info	 is[SMALL];
	char		 ks[SMALL];
	MPI_Status	 ss[SMALL];
	int		 xs[SMALL];
	MPI_Request	*h;
	struct req_info	*ri;
	char		*known;
	MPI_Status	*st;
	int		*idx;
	int		 nknown, nlive;
};

static void
scratch_open(struct scratch *s, int n, MPI_Request *reqs)
{
	unsigned round = tr_req_round();
	int i, k;

	if (n <= SMALL) {
		s->h = s->hs, s->ri = s->is, s->known = s->ks;
		s->st = s->ss, s->idx = s->xs;
	} else {
		s->h = malloc((size_t)n * sizeof(*s->h));
		s->ri = malloc((size_t)n * sizeof(*s->ri));
		s->known = malloc((size_t)n);
		s->st = malloc((size_t)n * sizeof(*s->st));
		s->idx = malloc((size_t)n * sizeof(*s->idx));
		if (!s->h || !s->ri || !s->known || !s->st || !s->idx)
			abort();
	}
	s->nknown = s->nlive = 0;
	for (i = 0; i < n; i++) {
		s->h[i] = reqs[i];
		k = tr_req_claim(&reqs[i], round, &s->ri[i]);
		s->known[i] = k == 1;
		s->nknown += s->known[i];
		/* A persistent request not started completes at once. */
		s->nlive += reqs[i] != MPI_REQUEST_NULL && k != 2;
	}
}

static void
scratch_close(struct scratch *s)
{
	if (s->h != s->hs) {
		free(s->h);
		free(s->ri);
		free(s->known);
		free(s->st);
		free(s->idx);
	}
}

/* Finish request i of s: forget it and write its RE. */
static void
finish(struct scratch *s, int i, int64_t t, const MPI_Status *st)
{
	if (!s->known[i])
		return;
	tr_req_take(&s->h[i], s->ri[i].id);
	complete(t, &s->ri[i], st);
}

EXPORT int
MPI_Wait(MPI_Request *req, MPI_Status *status)
{
	struct scratch s;
	int64_t t;
	int rc;

	if (!TRACING || *req == MPI_REQUEST_NULL)
		return PMPI_Wait(req, status);
	tr_depth++;
	scratch_open(&s, 1, req);
	if (s.nlive == 0) {
		tr_depth--;
		return PMPI_Wait(req, status);
	}
	write_w(tr_now(), "WB", "wait", 1, s.ri, s.known);
	tr_delay("wait");
	rc = PMPI_Wait(req, &s.st[0]);
	t = tr_now();
	finish(&s, 0, t, &s.st[0]);
	write_w(t, "WE", "wait", 1, s.ri, s.known);
	if (status != MPI_STATUS_IGNORE)
		*status = s.st[0];
	tr_depth--;
	return rc;
}

EXPORT int
MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[])
{
	struct scratch s;
	int64_t t;
	int i, rc;

	if (!TRACING || n <= 0)
		return PMPI_Waitall(n, reqs, statuses);
	tr_depth++;
	scratch_open(&s, n, reqs);
	if (s.nlive == 0) {
		scratch_close(&s);
		tr_depth--;
		return PMPI_Waitall(n, reqs, statuses);
	}
	write_w(tr_now(), "WB", "waitall", n, s.ri, s.known);
	tr_delay("waitall");
	rc = PMPI_Waitall(n, reqs, s.st);
	t = tr_now();
	for (i = 0; i < n; i++)
		finish(&s, i, t, &s.st[i]);
	write_w(t, "WE", "waitall", n, s.ri, s.known);
	if (statuses != MPI_STATUSES_IGNORE)
		memcpy(statuses, s.st, (size_t)n * sizeof(*statuses));
	scratch_close(&s);
	tr_depth--;
	return rc;
}

EXPORT int
MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status)
{
	struct scratch s;
	char one[1];
	int64_t t;
	int rc;

	if (!TRACING || n <= 0)
		return PMPI_Waitany(n, reqs, index, status);
	tr_depth++;
	scratch_open(&s, n, reqs);
	if (s.nlive == 0) {
		scratch_close(&s);
		tr_depth--;
		return PMPI_Waitany(n, reqs, index, status);
	}
	write_w(tr_now(), "WB", "waitany", n, s.ri, s.known);
	tr_delay("waitany");
	rc = PMPI_Waitany(n, reqs, index, &s.st[0]);
	t = tr_now();
	if (*index != MPI_UNDEFINED) {
		finish(&s, *index, t, &s.st[0]);
		one[0] = s.known[*index];
		write_w(t, "WE", "waitany", 1, &s.ri[*index], one);
	} else
		write_w(t, "WE", "waitany", 0, s.ri, s.known);
	if (status != MPI_STATUS_IGNORE)
		*status = s.st[0];
	scratch_close(&s);
	tr_depth--;
	return rc;
}

/*
 * Sort the n completions of waitsome or testsome (s->idx, s->st) into
 * the order of the request list: trc(5) promises the RE lines of a wait
 * in the order of its req= list, whatever order MPI reports them in.
 */
static void
sort_some(struct scratch *s, int n)
{
	MPI_Status st;
	int i, j, x;

	for (i = 1; i < n; i++) {
		x = s->idx[i];
		st = s->st[i];
		for (j = i; j > 0 && s->idx[j - 1] > x; j--) {
			s->idx[j] = s->idx[j - 1];
			s->st[j] = s->st[j - 1];
		}
		s->idx[j] = x;
		s->st[j] = st;
	}
}

/* The WE of waitsome and testsome: only the completed requests. */
static void
write_some(int64_t t, const char *op, struct scratch *s, int outcount)
{
	struct req_info *ri;
	char *known;
	int i;

	ri = malloc((size_t)(outcount > 0 ? outcount : 1) * sizeof(*ri));
	known = malloc((size_t)(outcount > 0 ? outcount : 1));
	if (ri == NULL || known == NULL)
		abort();
	for (i = 0; i < outcount; i++) {
		ri[i] = s->ri[s->idx[i]];
		known[i] = s->known[s->idx[i]];
	}
	write_w(t, "WE", op, outcount, ri, known);
	free(ri);
	free(known);
}

EXPORT int
MPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int indices[],
    MPI_Status statuses[])
{
	struct scratch s;
	int64_t t;
	int i, rc;

	if (!TRACING || n <= 0)
		return PMPI_Waitsome(n, reqs, outcount, indices, statuses);
	tr_depth++;
	scratch_open(&s, n, reqs);
	if (s.nlive == 0) {
		scratch_close(&s);
		tr_depth--;
		return PMPI_Waitsome(n, reqs, outcount, indices, statuses);
	}
	write_w(tr_now(), "WB", "waitsome", n, s.ri, s.known);
	tr_delay("waitsome");
	rc = PMPI_Waitsome(n, reqs, outcount, s.idx, s.st);
	t = tr_now();
	for (i = 0; *outcount != MPI_UNDEFINED && i < *outcount; i++) {
		indices[i] = s.idx[i];
		if (statuses != MPI_STATUSES_IGNORE)
			statuses[i] = s.st[i];
	}
	if (*outcount != MPI_UNDEFINED)
		sort_some(&s, *outcount);
	for (i = 0; *outcount != MPI_UNDEFINED && i < *outcount; i++)
		finish(&s, s.idx[i], t, &s.st[i]);
	write_some(t, "waitsome", &s, *outcount == MPI_UNDEFINED ? 0 : *outcount);
	scratch_close(&s);
	tr_depth--;
	return rc;
}

EXPORT int
MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
	struct scratch s;
	int64_t t0, t;
	int rc;

	if (!TRACING || *req == MPI_REQUEST_NULL)
		return PMPI_Test(req, flag, status);
	tr_depth++;
	scratch_open(&s, 1, req);
	if (s.nlive == 0) {
		tr_depth--;
		return PMPI_Test(req, flag, status);
	}
	t0 = tr_now();
	rc = PMPI_Test(req, flag, &s.st[0]);
	if (!*flag)
		tr_poll(t0);
	else {
		t = tr_now();
		write_w(t0, "WB", "test", 1, s.ri, s.known);
		finish(&s, 0, t, &s.st[0]);
		write_w(t, "WE", "test", 1, s.ri, s.known);
		if (status != MPI_STATUS_IGNORE)
			*status = s.st[0];
	}
	tr_depth--;
	return rc;
}

EXPORT int
MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
	struct scratch s;
	int64_t t0, t;
	int i, rc;

	if (!TRACING || n <= 0)
		return PMPI_Testall(n, reqs, flag, statuses);
	tr_depth++;
	scratch_open(&s, n, reqs);
	t0 = tr_now();
	rc = PMPI_Testall(n, reqs, flag, s.st);
	if (!*flag)
		tr_poll(t0);
	else if (s.nlive > 0) {
		t = tr_now();
		write_w(t0, "WB", "testall", n, s.ri, s.known);
		for (i = 0; i < n; i++)
			finish(&s, i, t, &s.st[i]);
		write_w(t, "WE", "testall", n, s.ri, s.known);
	}
	if (*flag && statuses != MPI_STATUSES_IGNORE)
		memcpy(statuses, s.st, (size_t)n * sizeof(*statuses));
	scratch_close(&s);
	tr_depth--;
	return rc;
}

EXPORT int
MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag,
    MPI_Status *status)
{
	struct scratch s;
	char one[1];
	int64_t t0, t;
	int rc;

	if (!TRACING || n <= 0)
		return PMPI_Testany(n, reqs, index, flag, status);
	tr_depth++;
	scratch_open(&s, n, reqs);
	t0 = tr_now();
	rc = PMPI_Testany(n, reqs, index, flag, &s.st[0]);
	if (!*flag)
		tr_poll(t0);
	else if (*index != MPI_UNDEFINED) {
		t = tr_now();
		write_w(t0, "WB", "testany", n, s.ri, s.known);
		finish(&s, *index, t, &s.st[0]);
		one[0] = s.known[*index];
		write_w(t, "WE", "testany", 1, &s.ri[*index], one);
	}
	if (*flag && status != MPI_STATUS_IGNORE)
		*status = s.st[0];
	scratch_close(&s);
	tr_depth--;
	return rc;
}

EXPORT int
MPI_Testsome(int n, MPI_Request reqs[], int *outcount, int indices[],
    MPI_Status statuses[])
{
	struct scratch s;
	int64_t t0, t;
	int i, rc;

	if (!TRACING || n <= 0)
		return PMPI_Testsome(n, reqs, outcount, indices, statuses);
	tr_depth++;
	scratch_open(&s, n, reqs);
	t0 = tr_now();
	rc = PMPI_Testsome(n, reqs, outcount, s.idx, s.st);
	if (*outcount == 0)
		tr_poll(t0);
	else if (*outcount != MPI_UNDEFINED) {
		t = tr_now();
		write_w(t0, "WB", "testsome", n, s.ri, s.known);
		for (i = 0; i < *outcount; i++) {
			indices[i] = s.idx[i];
			if (statuses != MPI_STATUSES_IGNORE)
				statuses[i] = s.st[i];
		}
		sort_some(&s, *outcount);
		for (i = 0; i < *outcount; i++)
			finish(&s, s.idx[i], t, &s.st[i]);
		write_some(t, "testsome", &s, *outcount);
	}
	scratch_close(&s);
	tr_depth--;
	return rc;
}

EXPORT int
MPI_Request_free(MPI_Request *req)
{
	if (tr_on)
		tr_req_forget(req);
	return PMPI_Request_free(req);
}

/*
 * Probes: WB peer= tag= op=NAME with what was asked (peer=* and tag=*
 * for the wildcards), WE peer= tag= bytes= op=NAME with the message
 * found: the choice the library made.
 */
static void
write_probe(int64_t t0, int64_t t, const char *op, int source, int tag,
    MPI_Comm comm, const MPI_Status *st)
{
	int cid = tr_comm_id(comm);
	char *p;

	p = ev_start(t0, "WB", 0);
	p = put_peer(p, " peer=", source == MPI_ANY_SOURCE ? -2 :
	    tr_world(comm, source));
	p = put_peer(p, " tag=", tag == MPI_ANY_TAG ? -2 : tag);
	if (cid != 0)
		p = put_int(p, " comm=", cid);
	ev_end(put_op(p, op));
	p = ev_start(t, "WE", 0);
	p = attrs(p, tr_world(comm, st->MPI_SOURCE), st->MPI_TAG,
	    recv_bytes(st, MPI_BYTE), cid);
	ev_end(put_op(p, op));
}

EXPORT int
MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	MPI_Status st;
	int64_t t0;
	int rc;

	if (!TRACING || source == MPI_PROC_NULL)
		return PMPI_Probe(source, tag, comm, status);
	tr_depth++;
	t0 = tr_now();
	tr_delay("probe");
	rc = PMPI_Probe(source, tag, comm, &st);
	write_probe(t0, tr_now(), "probe", source, tag, comm, &st);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	tr_depth--;
	return rc;
}

EXPORT int
MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
	MPI_Status st;
	int64_t t0;
	int rc;

	if (!TRACING || source == MPI_PROC_NULL)
		return PMPI_Iprobe(source, tag, comm, flag, status);
	tr_depth++;
	t0 = tr_now();
	rc = PMPI_Iprobe(source, tag, comm, flag, &st);
	if (!*flag)
		tr_poll(t0);
	else {
		write_probe(t0, tr_now(), "iprobe", source, tag, comm, &st);
		if (status != MPI_STATUS_IGNORE)
			*status = st;
	}
	tr_depth--;
	return rc;
}

/* A matched probe: the message's receive will say what was asked. */
static void
keep_message(MPI_Message m, int source, int tag, MPI_Comm comm)
{
	struct msg_info mi;

	if (m == MPI_MESSAGE_NULL || m == MPI_MESSAGE_NO_PROC)
		return;
	mi.peer = source == MPI_ANY_SOURCE ? -2 : tr_world(comm, source);
	mi.tag = tag == MPI_ANY_TAG ? -2 : tag;
	mi.comm = tr_comm_id(comm);
	mi.commh = comm;
	tr_msg_put(m, &mi);
}

EXPORT int
MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message,
    MPI_Status *status)
{
	MPI_Status st;
	int64_t t0;
	int rc;

	if (!TRACING || source == MPI_PROC_NULL)
		return PMPI_Mprobe(source, tag, comm, message, status);
	tr_depth++;
	t0 = tr_now();
	tr_delay("mprobe");
	rc = PMPI_Mprobe(source, tag, comm, message, &st);
	if (rc == MPI_SUCCESS) {
		write_probe(t0, tr_now(), "mprobe", source, tag, comm, &st);
		keep_message(*message, source, tag, comm);
	}
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	tr_depth--;
	return rc;
}

EXPORT int
MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag,
    MPI_Message *message, MPI_Status *status)
{
	MPI_Status st;
	int64_t t0;
	int rc;

	if (!TRACING || source == MPI_PROC_NULL)
		return PMPI_Improbe(source, tag, comm, flag, message, status);
	tr_depth++;
	t0 = tr_now();
	rc = PMPI_Improbe(source, tag, comm, flag, message, &st);
	if (rc == MPI_SUCCESS && !*flag)
		tr_poll(t0);
	else if (rc == MPI_SUCCESS) {
		write_probe(t0, tr_now(), "improbe", source, tag, comm, &st);
		keep_message(*message, source, tag, comm);
		if (status != MPI_STATUS_IGNORE)
			*status = st;
	}
	tr_depth--;
	return rc;
}

/*
 * The receive of a matched message is posted with what its probe asked
 * (peer=* when it asked for any source), as if the probe and the
 * receive were one receive, which in effect they are.
 */
EXPORT int
MPI_Mrecv(void *b, int count, MPI_Datatype type, MPI_Message *message,
    MPI_Status *status)
{
	struct msg_info mi;
	MPI_Status st;
	int rc;
	char *p;

	if (!TRACING || !tr_msg_take(*message, &mi))
		return PMPI_Mrecv(b, count, type, message, status);
	tr_depth++;
	p = attrs(ev_start(tr_now(), "RB", 0), mi.peer, mi.tag,
	    tr_bytes(count, type), mi.comm);
	ev_end(put_op(p, "mrecv"));
	tr_delay("mrecv");
	rc = PMPI_Mrecv(b, count, type, message, &st);
	if (rc == MPI_SUCCESS)
		write_re(tr_now(), 0, "mrecv", mi.commh, mi.comm, type, &st);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	tr_depth--;
	return rc;
}

EXPORT int
MPI_Imrecv(void *b, int count, MPI_Datatype type, MPI_Message *message,
    MPI_Request *req)
{
	struct msg_info mi;
	struct req_info ri;
	int rc;
	char *p;

	if (!TRACING || !tr_msg_take(*message, &mi))
		return PMPI_Imrecv(b, count, type, message, req);
	tr_depth++;
	memset(&ri, 0, sizeof(ri));
	ri.id = tr_req_new();
	ri.kind = RQ_RECV;
	ri.op = "imrecv";
	ri.peer = mi.peer;
	ri.tag = mi.tag;
	ri.comm = mi.comm;
	ri.bytes = tr_bytes(count, type);
	ri.type = type;
	ri.commh = mi.commh;
	p = attrs(ev_start(tr_now(), "RB", 0), ri.peer, ri.tag, ri.bytes,
	    ri.comm);
	ev_end(put_op(put_int(p, " req=", ri.id), ri.op));
	tr_delay("imrecv");
	rc = PMPI_Imrecv(b, count, type, message, req);
	if (rc == MPI_SUCCESS)
		tr_req_put(req, &ri);
	tr_depth--;
	return rc;
}

/* Persistent requests ---------------------------------------------------- */

/*
 * An *_init call writes nothing and keeps the request's parameters;
 * each MPI_Start then posts it as an Isend or an Irecv would, with a
 * new req= and op=start, and the call that completes it writes what
 * an Isend's or an Irecv's would.
 */
static int
pinit(int recv, int rc, int count, MPI_Datatype type, int peer, int tag,
    MPI_Comm comm, MPI_Request *req)
{
	struct req_info ri;

	if (!tr_on || rc != MPI_SUCCESS || peer == MPI_PROC_NULL)
		return rc;
	tr_depth++;
	memset(&ri, 0, sizeof(ri));
	ri.kind = recv ? RQ_RECV : RQ_SEND;
	ri.persistent = 1;
	ri.op = "start";
	ri.peer = recv && peer == MPI_ANY_SOURCE ? -2 : tr_world(comm, peer);
	ri.tag = recv && tag == MPI_ANY_TAG ? -2 : tag;
	ri.comm = tr_comm_id(comm);
	ri.bytes = tr_bytes(count, type);
	ri.type = type;
	ri.commh = comm;
	tr_req_put(req, &ri);
	tr_depth--;
	return rc;
}

EXPORT int
MPI_Send_init(const void *b, int count, MPI_Datatype type, int dest, int tag,
    MPI_Comm comm, MPI_Request *req)
{
	return pinit(0, PMPI_Send_init(b, count, type, dest, tag, comm, req),
	    count, type, dest, tag, comm, req);
}

EXPORT int
MPI_Ssend_init(const void *b, int count, MPI_Datatype type, int dest, int tag,
    MPI_Comm comm, MPI_Request *req)
{
	return pinit(0, PMPI_Ssend_init(b, count, type, dest, tag, comm, req),
	    count, type, dest, tag, comm, req);
}

EXPORT int
MPI_Rsend_init(const void *b, int count, MPI_Datatype type, int dest, int tag,
    MPI_Comm comm, MPI_Request *req)
{
	return pinit(0, PMPI_Rsend_init(b, count, type, dest, tag, comm, req),
	    count, type, dest, tag, comm, req);
}

EXPORT int
MPI_Bsend_init(const void *b, int count, MPI_Datatype type, int dest, int tag,
    MPI_Comm comm, MPI_Request *req)
{
	return pinit(0, PMPI_Bsend_init(b, count, type, dest, tag, comm, req),
	    count, type, dest, tag, comm, req);
}

EXPORT int
MPI_Recv_init(void *b, int count, MPI_Datatype type, int source, int tag,
    MPI_Comm comm, MPI_Request *req)
{
	return pinit(1, PMPI_Recv_init(b, count, type, source, tag, comm, req),
	    count, type, source, tag, comm, req);
}

/* Start one request: SB, SE around the call, or a point RB. */
static int
start_one(MPI_Request *req)
{
	struct req_info ri;
	int rc;
	char *p;

	if (tr_req_find(req, &ri) != 2)
		return PMPI_Start(req);
	ri.id = tr_req_new();
	if (ri.kind == RQ_RECV) {
		p = attrs(ev_start(tr_now(), "RB", 0), ri.peer, ri.tag,
		    ri.bytes, ri.comm);
		ev_end(put_op(put_int(p, " req=", ri.id), ri.op));
		tr_delay("start");
		rc = PMPI_Start(req);
	} else {
		p = attrs(ev_start(tr_now(), "SB", 0), ri.peer, ri.tag,
		    ri.bytes, ri.comm);
		ev_end(put_op(put_int(p, " req=", ri.id), ri.op));
		tr_delay("start");
		rc = PMPI_Start(req);
		p = attrs(ev_start(tr_now(), "SE", 0), ri.peer, ri.tag,
		    ri.bytes, ri.comm);
		ev_end(put_op(put_int(p, " req=", ri.id), ri.op));
	}
	if (rc == MPI_SUCCESS)
		tr_req_put(req, &ri);
	return rc;
}

EXPORT int
MPI_Start(MPI_Request *req)
{
	int rc;

	if (!TRACING)
		return PMPI_Start(req);
	tr_depth++;
	rc = start_one(req);
	tr_depth--;
	return rc;
}

/*
 * MPI_Startall is MPI_Start of each request in turn, which the
 * standard allows it to be: each has its events and its delay.
 */
EXPORT int
MPI_Startall(int n, MPI_Request reqs[])
{
	int i, rc = MPI_SUCCESS;

	if (!TRACING)
		return PMPI_Startall(n, reqs);
	tr_depth++;
	for (i = 0; i < n && rc == MPI_SUCCESS; i++)
		rc = start_one(&reqs[i]);
	tr_depth--;
	return rc;
}

/* Collectives ------------------------------------------------------------ */

/*
 * A collective's begin or end at t; size > 0 writes size=, which the
 * begin of one on a communicator other than the world carries, so that
 * trc-scale knows how many ranks take part; req > 0 writes req=, which
 * a nonblocking one's carries (first on its XE, as on an RE).
 */
static void
write_x(int64_t t, const char *kind, const char *op, int64_t bytes, int root,
    int cid, int size, int64_t req)
{
	char *p;

	p = ev_start(t, kind, 0);
	if (req > 0 && kind[1] == 'E')
		p = put_int(p, " req=", req);
	p = put_int(put_op(p, op), " bytes=", bytes);
	if (root >= 0)
		p = put_int(p, " root=", root);
	if (cid != 0)
		p = put_int(p, " comm=", cid);
	if (size > 0)
		p = put_int(p, " size=", size);
	if (req > 0 && kind[1] == 'B')
		p = put_int(p, " req=", req);
	ev_end(p);
}

#define COLL(op, bytes, root, comm, call) do {				\
	int64_t b_ = (bytes);						\
	int r_ = tr_root((comm), (root));				\
	int c_ = tr_comm_id(comm), rc_;					\
	tr_depth++;							\
	write_x(tr_now(), "XB", op, b_, r_, c_,				\
	    c_ != 0 ? tr_comm_size(comm) : 0, 0);			\
	tr_delay(op);							\
	rc_ = (call);							\
	write_x(tr_now(), "XE", op, b_, r_, c_, 0, 0);			\
	tr_depth--;							\
	return rc_;							\
} while (0)

/*
 * A nonblocking collective enters the collective at its call, a point
 * XB ... req=R (collectives on a communicator come in one order on all
 * its members, blocking or not), and ends at an XE req=R inside the
 * wait or test that completes it, as a nonblocking receive does.
 */
static void
icoll_post(struct req_info *ri, const char *op, int64_t bytes, int root,
    MPI_Comm comm)
{
	memset(ri, 0, sizeof(*ri));
	ri->id = tr_req_new();
	ri->kind = RQ_COLL;
	ri->op = op;
	ri->bytes = bytes;
	ri->root = tr_root(comm, root);
	ri->comm = tr_comm_id(comm);
	write_x(tr_now(), "XB", op, bytes, ri->root, ri->comm,
	    ri->comm != 0 ? tr_comm_size(comm) : 0, ri->id);
	tr_delay(op);
}

#define ICOLL(op, bytes, root, comm, req, call) do {			\
	struct req_info ri_;						\
	int rc_;							\
	tr_depth++;							\
	icoll_post(&ri_, op, (bytes), (root), (comm));			\
	rc_ = (call);							\
	if (rc_ == MPI_SUCCESS)						\
		tr_req_put((req), &ri_);				\
	tr_depth--;							\
	return rc_;							\
} while (0)

static int
comm_rank(MPI_Comm c)
{
	int r;

	PMPI_Comm_rank(c, &r);
	return r;
}

/* The ranks a rank sends a block to: the other group's, if two. */
static int
comm_peers(MPI_Comm c)
{
	int inter, n;

	PMPI_Comm_test_inter(c, &inter);
	if (inter)
		PMPI_Comm_remote_size(c, &n);
	else
		PMPI_Comm_size(c, &n);
	return n;
}

/* A topology's neighbours a rank sends to. */
static int
out_degree(MPI_Comm c)
{
	int topo = MPI_UNDEFINED, n = 0, in, w;

	PMPI_Topo_test(c, &topo);
	if (topo == MPI_CART) {
		PMPI_Cartdim_get(c, &n);
		n *= 2;
	} else if (topo == MPI_GRAPH)
		PMPI_Graph_neighbors_count(c, comm_rank(c), &n);
	else if (topo == MPI_DIST_GRAPH)
		PMPI_Dist_graph_neighbors_count(c, &in, &n, &w);
	return n;
}

/*
 * bytes= of each collective (libtrc-mpi(7)), the same for its
 * nonblocking form.  Gathers: the block this rank contributes.
 */
static int64_t
b_gather(const void *sb, int scount, MPI_Datatype stype, int rcount,
    MPI_Datatype rtype)
{
	return sb == MPI_IN_PLACE ? tr_bytes(rcount, rtype) :
	    tr_bytes(scount, stype);
}

static int64_t
b_gatherv(const void *sb, int scount, MPI_Datatype stype,
    const int rcounts[], MPI_Datatype rtype, MPI_Comm comm)
{
	return sb == MPI_IN_PLACE ? tr_bytes(rcounts[comm_rank(comm)], rtype) :
	    tr_bytes(scount, stype);
}

/* Scatters: the block this rank receives. */
static int64_t
b_scatter(const void *rb, int scount, MPI_Datatype stype, int rcount,
    MPI_Datatype rtype)
{
	return rb == MPI_IN_PLACE ? tr_bytes(scount, stype) :
	    tr_bytes(rcount, rtype);
}

static int64_t
b_scatterv(const void *rb, const int scounts[], MPI_Datatype stype,
    int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
	return rb == MPI_IN_PLACE ? tr_bytes(scounts[comm_rank(comm)], stype) :
	    tr_bytes(rcount, rtype);
}

/* The v and w forms of alltoall: the mean block over n ranks. */
static int64_t
mean_block(const int counts[], MPI_Datatype type, int n)
{
	int64_t sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += counts[i];
	return n > 0 ? tr_bytes(1, type) * sum / n : 0;
}

static int64_t
mean_wblock(const int counts[], const MPI_Datatype types[], int n)
{
	int64_t sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += tr_bytes(counts[i], types[i]);
	return n > 0 ? sum / n : 0;
}

static int64_t
b_alltoallv(const void *sb, const int scounts[], MPI_Datatype stype,
    const int rcounts[], MPI_Datatype rtype, int n)
{
	return sb == MPI_IN_PLACE ? mean_block(rcounts, rtype, n) :
	    mean_block(scounts, stype, n);
}

static int64_t
b_alltoallw(const void *sb, const int scounts[], const MPI_Datatype stypes[],
    const int rcounts[], const MPI_Datatype rtypes[], int n)
{
	return sb == MPI_IN_PLACE ? mean_wblock(rcounts, rtypes, n) :
	    mean_wblock(scounts, stypes, n);
}

EXPORT int
MPI_Barrier(MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Barrier(comm);
	COLL("barrier", 0, -1, comm, PMPI_Barrier(comm));
}

EXPORT int
MPI_Bcast(void *b, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Bcast(b, count, type, root, comm);
	COLL("bcast", tr_bytes(count, type), root, comm,
	    PMPI_Bcast(b, count, type, root, comm));
}

EXPORT int
MPI_Reduce(const void *sb, void *rb, int count, MPI_Datatype type, MPI_Op op,
    int root, MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Reduce(sb, rb, count, type, op, root, comm);
	COLL("reduce", tr_bytes(count, type), root, comm,
	    PMPI_Reduce(sb, rb, count, type, op, root, comm));
}

EXPORT int
MPI_Allreduce(const void *sb, void *rb, int count, MPI_Datatype type,
    MPI_Op op, MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Allreduce(sb, rb, count, type, op, comm);
	COLL("allreduce", tr_bytes(count, type), -1, comm,
	    PMPI_Allreduce(sb, rb, count, type, op, comm));
}

EXPORT int
MPI_Gather(const void *sb, int scount, MPI_Datatype stype, void *rb,
    int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Gather(sb, scount, stype, rb, rcount, rtype, root, comm);
	COLL("gather", b_gather(sb, scount, stype, rcount, rtype), root, comm,
	    PMPI_Gather(sb, scount, stype, rb, rcount, rtype, root, comm));
}

EXPORT int
MPI_Gatherv(const void *sb, int scount, MPI_Datatype stype, void *rb,
    const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
    MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Gatherv(sb, scount, stype, rb, rcounts, displs,
		    rtype, root, comm);
	COLL("gatherv", b_gatherv(sb, scount, stype, rcounts, rtype, comm),
	    root, comm, PMPI_Gatherv(sb, scount, stype, rb, rcounts, displs,
	    rtype, root, comm));
}

EXPORT int
MPI_Scatter(const void *sb, int scount, MPI_Datatype stype, void *rb,
    int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Scatter(sb, scount, stype, rb, rcount, rtype, root,
		    comm);
	COLL("scatter", b_scatter(rb, scount, stype, rcount, rtype), root,
	    comm, PMPI_Scatter(sb, scount, stype, rb, rcount, rtype, root,
	    comm));
}

EXPORT int
MPI_Scatterv(const void *sb, const int scounts[], const int displs[],
    MPI_Datatype stype, void *rb, int rcount, MPI_Datatype rtype, int root,
    MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Scatterv(sb, scounts, displs, stype, rb, rcount,
		    rtype, root, comm);
	COLL("scatterv", b_scatterv(rb, scounts, stype, rcount, rtype, comm),
	    root, comm, PMPI_Scatterv(sb, scounts, displs, stype, rb, rcount,
	    rtype, root, comm));
}

EXPORT int
MPI_Allgather(const void *sb, int scount, MPI_Datatype stype, void *rb,
    int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Allgather(sb, scount, stype, rb, rcount, rtype, comm);
	COLL("allgather", b_gather(sb, scount, stype, rcount, rtype), -1, comm,
	    PMPI_Allgather(sb, scount, stype, rb, rcount, rtype, comm));
}

EXPORT int
MPI_Allgatherv(const void *sb, int scount, MPI_Datatype stype, void *rb,
    const int rcounts[], const int displs[], MPI_Datatype rtype, MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Allgatherv(sb, scount, stype, rb, rcounts, displs,
		    rtype, comm);
	COLL("allgatherv", b_gatherv(sb, scount, stype, rcounts, rtype, comm),
	    -1, comm, PMPI_Allgatherv(sb, scount, stype, rb, rcounts, displs,
	    rtype, comm));
}

/* bytes= of alltoall: the block sent to each rank. */
EXPORT int
MPI_Alltoall(const void *sb, int scount, MPI_Datatype stype, void *rb,
    int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Alltoall(sb, scount, stype, rb, rcount, rtype, comm);
	COLL("alltoall", b_gather(sb, scount, stype, rcount, rtype), -1, comm,
	    PMPI_Alltoall(sb, scount, stype, rb, rcount, rtype, comm));
}

EXPORT int
MPI_Alltoallv(const void *sb, const int scounts[], const int sdispls[],
    MPI_Datatype stype, void *rb, const int rcounts[], const int rdispls[],
    MPI_Datatype rtype, MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Alltoallv(sb, scounts, sdispls, stype, rb, rcounts,
		    rdispls, rtype, comm);
	COLL("alltoallv", b_alltoallv(sb, scounts, stype, rcounts, rtype,
	    comm_peers(comm)), -1, comm, PMPI_Alltoallv(sb, scounts, sdispls,
	    stype, rb, rcounts, rdispls, rtype, comm));
}

EXPORT int
MPI_Alltoallw(const void *sb, const int scounts[], const int sdispls[],
    const MPI_Datatype stypes[], void *rb, const int rcounts[],
    const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Alltoallw(sb, scounts, sdispls, stypes, rb, rcounts,
		    rdispls, rtypes, comm);
	COLL("alltoallw", b_alltoallw(sb, scounts, stypes, rcounts, rtypes,
	    comm_peers(comm)), -1, comm, PMPI_Alltoallw(sb, scounts, sdispls,
	    stypes, rb, rcounts, rdispls, rtypes, comm));
}

/* bytes= of reduce_scatter: the block this rank receives. */
EXPORT int
MPI_Reduce_scatter(const void *sb, void *rb, const int rcounts[],
    MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Reduce_scatter(sb, rb, rcounts, type, op, comm);
	COLL("reduce_scatter", tr_bytes(rcounts[comm_rank(comm)], type), -1,
	    comm, PMPI_Reduce_scatter(sb, rb, rcounts, type, op, comm));
}

EXPORT int
MPI_Reduce_scatter_block(const void *sb, void *rb, int rcount,
    MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Reduce_scatter_block(sb, rb, rcount, type, op, comm);
	COLL("reduce_scatter_block", tr_bytes(rcount, type), -1, comm,
	    PMPI_Reduce_scatter_block(sb, rb, rcount, type, op, comm));
}

EXPORT int
MPI_Scan(const void *sb, void *rb, int count, MPI_Datatype type, MPI_Op op,
    MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Scan(sb, rb, count, type, op, comm);
	COLL("scan", tr_bytes(count, type), -1, comm,
	    PMPI_Scan(sb, rb, count, type, op, comm));
}

EXPORT int
MPI_Exscan(const void *sb, void *rb, int count, MPI_Datatype type, MPI_Op op,
    MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Exscan(sb, rb, count, type, op, comm);
	COLL("exscan", tr_bytes(count, type), -1, comm,
	    PMPI_Exscan(sb, rb, count, type, op, comm));
}

/*
 * Neighbourhood collectives: the block contributed (allgather) or sent
 * to each neighbour (alltoall), the mean one for the v and w forms.
 */
EXPORT int
MPI_Neighbor_allgather(const void *sb, int scount, MPI_Datatype stype,
    void *rb, int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Neighbor_allgather(sb, scount, stype, rb, rcount,
		    rtype, comm);
	COLL("neighbor_allgather", tr_bytes(scount, stype), -1, comm,
	    PMPI_Neighbor_allgather(sb, scount, stype, rb, rcount, rtype,
	    comm));
}

EXPORT int
MPI_Neighbor_allgatherv(const void *sb, int scount, MPI_Datatype stype,
    void *rb, const int rcounts[], const int displs[], MPI_Datatype rtype,
    MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Neighbor_allgatherv(sb, scount, stype, rb, rcounts,
		    displs, rtype, comm);
	COLL("neighbor_allgatherv", tr_bytes(scount, stype), -1, comm,
	    PMPI_Neighbor_allgatherv(sb, scount, stype, rb, rcounts, displs,
	    rtype, comm));
}

EXPORT int
MPI_Neighbor_alltoall(const void *sb, int scount, MPI_Datatype stype,
    void *rb, int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Neighbor_alltoall(sb, scount, stype, rb, rcount,
		    rtype, comm);
	COLL("neighbor_alltoall", tr_bytes(scount, stype), -1, comm,
	    PMPI_Neighbor_alltoall(sb, scount, stype, rb, rcount, rtype,
	    comm));
}

EXPORT int
MPI_Neighbor_alltoallv(const void *sb, const int scounts[],
    const int sdispls[], MPI_Datatype stype, void *rb, const int rcounts[],
    const int rdispls[], MPI_Datatype rtype, MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Neighbor_alltoallv(sb, scounts, sdispls, stype, rb,
		    rcounts, rdispls, rtype, comm);
	COLL("neighbor_alltoallv", mean_block(scounts, stype,
	    out_degree(comm)), -1, comm, PMPI_Neighbor_alltoallv(sb, scounts,
	    sdispls, stype, rb, rcounts, rdispls, rtype, comm));
}

EXPORT int
MPI_Neighbor_alltoallw(const void *sb, const int scounts[],
    const MPI_Aint sdispls[], const MPI_Datatype stypes[], void *rb,
    const int rcounts[], const MPI_Aint rdispls[],
    const MPI_Datatype rtypes[], MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Neighbor_alltoallw(sb, scounts, sdispls, stypes, rb,
		    rcounts, rdispls, rtypes, comm);
	COLL("neighbor_alltoallw", mean_wblock(scounts, stypes,
	    out_degree(comm)), -1, comm, PMPI_Neighbor_alltoallw(sb, scounts,
	    sdispls, stypes, rb, rcounts, rdispls, rtypes, comm));
}

/* Nonblocking collectives ------------------------------------------------ */

EXPORT int
MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
	if (!TRACING)
		return PMPI_Ibarrier(comm, req);
	ICOLL("ibarrier", 0, -1, comm, req, PMPI_Ibarrier(comm, req));
}

EXPORT int
MPI_Ibcast(void *b, int count, MPI_Datatype type, int root, MPI_Comm comm,
    MPI_Request *req)
{
	if (!TRACING)
		return PMPI_Ibcast(b, count, type, root, comm, req);
	ICOLL("ibcast", tr_bytes(count, type), root, comm, req,
	    PMPI_Ibcast(b, count, type, root, comm, req));
}

EXPORT int
MPI_Ireduce(const void *sb, void *rb, int count, MPI_Datatype type,
    MPI_Op op, int root, MPI_Comm comm, MPI_Request *req)
{
	if (!TRACING)
		return PMPI_Ireduce(sb, rb, count, type, op, root, comm, req);
	ICOLL("ireduce", tr_bytes(count, type), root, comm, req,
	    PMPI_Ireduce(sb, rb, count, type, op, root, comm, req));
}

EXPORT int
MPI_Iallreduce(const void *sb, void *rb, int count, MPI_Datatype type,
    MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
	if (!TRACING)
		return PMPI_Iallreduce(sb, rb, count, type, op, comm, req);
	ICOLL("iallreduce", tr_bytes(count, type), -1, comm, req,
	    PMPI_Iallreduce(sb, rb, count, type, op, comm, req));
}

EXPORT int
MPI_Igather(const void *sb, int scount, MPI_Datatype stype, void *rb,
    int rcount, MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req)
{
	if (!TRACING)
		return PMPI_Igather(sb, scount, stype, rb, rcount, rtype, root,
		    comm, req);
	ICOLL("igather", b_gather(sb, scount, stype, rcount, rtype), root,
	    comm, req, PMPI_Igather(sb, scount, stype, rb, rcount, rtype, root,
	    comm, req));
}

EXPORT int
MPI_Igatherv(const void *sb, int scount, MPI_Datatype stype, void *rb,
    const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
    MPI_Comm comm, MPI_Request *req)
{
	if (!TRACING)
		return PMPI_Igatherv(sb, scount, stype, rb, rcounts, displs,
		    rtype, root, comm, req);
	ICOLL("igatherv", b_gatherv(sb, scount, stype, rcounts, rtype, comm),
	    root, comm, req, PMPI_Igatherv(sb, scount, stype, rb, rcounts,
	    displs, rtype, root, comm, req));
}

EXPORT int
MPI_Iscatter(const void *sb, int scount, MPI_Datatype stype, void *rb,
    int rcount, MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req)
{
	if (!TRACING)
		return PMPI_Iscatter(sb, scount, stype, rb, rcount, rtype, root,
		    comm, req);
	ICOLL("iscatter", b_scatter(rb, scount, stype, rcount, rtype), root,
	    comm, req, PMPI_Iscatter(sb, scount, stype, rb, rcount, rtype,
	    root, comm, req));
}

EXPORT int
MPI_Iscatterv(const void *sb, const int scounts[], const int displs[],
    MPI_Datatype stype, void *rb, int rcount, MPI_Datatype rtype, int root,
    MPI_Comm comm, MPI_Request *req)
{
	if (!TRACING)
		return PMPI_Iscatterv(sb, scounts, displs, stype, rb, rcount,
		    rtype, root, comm, req);
	ICOLL("iscatterv", b_scatterv(rb, scounts, stype, rcount, rtype, comm),
	    root, comm, req, PMPI_Iscatterv(sb, scounts, displs, stype, rb,
	    rcount, rtype, root, comm, req));
}

EXPORT int
MPI_Iallgather(const void *sb, int scount, MPI_Datatype stype, void *rb,
    int rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
	if (!TRACING)
		return PMPI_Iallgather(sb, scount, stype, rb, rcount, rtype,
		    comm, req);
	ICOLL("iallgather", b_gather(sb, scount, stype, rcount, rtype), -1,
	    comm, req, PMPI_Iallgather(sb, scount, stype, rb, rcount, rtype,
	    comm, req));
}

EXPORT int
MPI_Iallgatherv(const void *sb, int scount, MPI_Datatype stype, void *rb,
    const int rcounts[], const int displs[], MPI_Datatype rtype,
    MPI_Comm comm, MPI_Request *req)
{
	if (!TRACING)
		return PMPI_Iallgatherv(sb, scount, stype, rb, rcounts, displs,
		    rtype, comm, req);
	ICOLL("iallgatherv", b_gatherv(sb, scount, stype, rcounts, rtype,
	    comm), -1, comm, req, PMPI_Iallgatherv(sb, scount, stype, rb,
	    rcounts, displs, rtype, comm, req));
}

EXPORT int
MPI_Ialltoall(const void *sb, int scount, MPI_Datatype stype, void *rb,
    int rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
	if (!TRACING)
		return PMPI_Ialltoall(sb, scount, stype, rb, rcount, rtype,
		    comm, req);
	ICOLL("ialltoall", b_gather(sb, scount, stype, rcount, rtype), -1,
	    comm, req, PMPI_Ialltoall(sb, scount, stype, rb, rcount, rtype,
	    comm, req));
}

EXPORT int
MPI_Ialltoallv(const void *sb, const int scounts[], const int sdispls[],
    MPI_Datatype stype, void *rb, const int rcounts[], const int rdispls[],
    MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
	if (!TRACING)
		return PMPI_Ialltoallv(sb, scounts, sdispls, stype, rb, rcounts,
		    rdispls, rtype, comm, req);
	ICOLL("ialltoallv", b_alltoallv(sb, scounts, stype, rcounts, rtype,
	    comm_peers(comm)), -1, comm, req, PMPI_Ialltoallv(sb, scounts,
	    sdispls, stype, rb, rcounts, rdispls, rtype, comm, req));
}

EXPORT int
MPI_Ialltoallw(const void *sb, const int scounts[], const int sdispls[],
    const MPI_Datatype stypes[], void *rb, const int rcounts[],
    const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm,
    MPI_Request *req)
{
	if (!TRACING)
		return PMPI_Ialltoallw(sb, scounts, sdispls, stypes, rb, rcounts,
		    rdispls, rtypes, comm, req);
	ICOLL("ialltoallw", b_alltoallw(sb, scounts, stypes, rcounts, rtypes,
	    comm_peers(comm)), -1, comm, req, PMPI_Ialltoallw(sb, scounts,
	    sdispls, stypes, rb, rcounts, rdispls, rtypes, comm, req));
}

EXPORT int
MPI_Ireduce_scatter(const void *sb, void *rb, const int rcounts[],
    MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
	if (!TRACING)
		return PMPI_Ireduce_scatter(sb, rb, rcounts, type, op, comm,
		    req);
	ICOLL("ireduce_scatter", tr_bytes(rcounts[comm_rank(comm)], type), -1,
	    comm, req, PMPI_Ireduce_scatter(sb, rb, rcounts, type, op, comm,
	    req));
}

EXPORT int
MPI_Ireduce_scatter_block(const void *sb, void *rb, int rcount,
    MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
	if (!TRACING)
		return PMPI_Ireduce_scatter_block(sb, rb, rcount, type, op,
		    comm, req);
	ICOLL("ireduce_scatter_block", tr_bytes(rcount, type), -1, comm, req,
	    PMPI_Ireduce_scatter_block(sb, rb, rcount, type, op, comm, req));
}

EXPORT int
MPI_Iscan(const void *sb, void *rb, int count, MPI_Datatype type, MPI_Op op,
    MPI_Comm comm, MPI_Request *req)
{
	if (!TRACING)
		return PMPI_Iscan(sb, rb, count, type, op, comm, req);
	ICOLL("iscan", tr_bytes(count, type), -1, comm, req,
	    PMPI_Iscan(sb, rb, count, type, op, comm, req));
}

EXPORT int
MPI_Iexscan(const void *sb, void *rb, int count, MPI_Datatype type,
    MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
	if (!TRACING)
		return PMPI_Iexscan(sb, rb, count, type, op, comm, req);
	ICOLL("iexscan", tr_bytes(count, type), -1, comm, req,
	    PMPI_Iexscan(sb, rb, count, type, op, comm, req));
}

EXPORT int
MPI_Ineighbor_allgather(const void *sb, int scount, MPI_Datatype stype,
    void *rb, int rcount, MPI_Datatype rtype, MPI_Comm comm,
    MPI_Request *req)
{
	if (!TRACING)
		return PMPI_Ineighbor_allgather(sb, scount, stype, rb, rcount,
		    rtype, comm, req);
	ICOLL("ineighbor_allgather", tr_bytes(scount, stype), -1, comm, req,
	    PMPI_Ineighbor_allgather(sb, scount, stype, rb, rcount, rtype,
	    comm, req));
}

EXPORT int
MPI_Ineighbor_allgatherv(const void *sb, int scount, MPI_Datatype stype,
    void *rb, const int rcounts[], const int displs[], MPI_Datatype rtype,
    MPI_Comm comm, MPI_Request *req)
{
	if (!TRACING)
		return PMPI_Ineighbor_allgatherv(sb, scount, stype, rb, rcounts,
		    displs, rtype, comm, req);
	ICOLL("ineighbor_allgatherv", tr_bytes(scount, stype), -1, comm, req,
	    PMPI_Ineighbor_allgatherv(sb, scount, stype, rb, rcounts, displs,
	    rtype, comm, req));
}

EXPORT int
MPI_Ineighbor_alltoall(const void *sb, int scount, MPI_Datatype stype,
    void *rb, int rcount, MPI_Datatype rtype, MPI_Comm comm,
    MPI_Request *req)
{
	if (!TRACING)
		return PMPI_Ineighbor_alltoall(sb, scount, stype, rb, rcount,
		    rtype, comm, req);
	ICOLL("ineighbor_alltoall", tr_bytes(scount, stype), -1, comm, req,
	    PMPI_Ineighbor_alltoall(sb, scount, stype, rb, rcount, rtype,
	    comm, req));
}

EXPORT int
MPI_Ineighbor_alltoallv(const void *sb, const int scounts[],
    const int sdispls[], MPI_Datatype stype, void *rb, const int rcounts[],
    const int rdispls[], MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
	if (!TRACING)
		return PMPI_Ineighbor_alltoallv(sb, scounts, sdispls, stype, rb,
		    rcounts, rdispls, rtype, comm, req);
	ICOLL("ineighbor_alltoallv", mean_block(scounts, stype,
	    out_degree(comm)), -1, comm, req, PMPI_Ineighbor_alltoallv(sb,
	    scounts, sdispls, stype, rb, rcounts, rdispls, rtype, comm, req));
}

EXPORT int
MPI_Ineighbor_alltoallw(const void *sb, const int scounts[],
    const MPI_Aint sdispls[], const MPI_Datatype stypes[], void *rb,
    const int rcounts[], const MPI_Aint rdispls[],
    const MPI_Datatype rtypes[], MPI_Comm comm, MPI_Request *req)
{
	if (!TRACING)
		return PMPI_Ineighbor_alltoallw(sb, scounts, sdispls, stypes, rb,
		    rcounts, rdispls, rtypes, comm, req);
	ICOLL("ineighbor_alltoallw", mean_wblock(scounts, stypes,
	    out_degree(comm)), -1, comm, req, PMPI_Ineighbor_alltoallw(sb,
	    scounts, sdispls, stypes, rb, rcounts, rdispls, rtypes, comm, req));
}

/* Regions, life cycle, communicators ------------------------------------- */

/*
 * MPI_Pcontrol(1, "name") opens region name, MPI_Pcontrol(-1, "name")
 * closes it; other levels are passed on untouched.
 */
EXPORT int
MPI_Pcontrol(const int level, ...)
{
	const char *name;
	va_list ap;

	if (TRACING && (level == 1 || level == -1)) {
		va_start(ap, level);
		name = va_arg(ap, const char *);
		va_end(ap);
		tr_depth++;
		tr_region(level == 1, name);
		tr_depth--;
	}
	return MPI_SUCCESS;
}

EXPORT int
MPI_Init(int *argc, char ***argv)
{
	int rc = PMPI_Init(argc, argv);

	if (rc == MPI_SUCCESS)
		tr_init();
	return rc;
}

EXPORT int
MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	int rc = PMPI_Init_thread(argc, argv, required, provided);

	if (rc == MPI_SUCCESS)
		tr_init();
	return rc;
}

EXPORT int
MPI_Finalize(void)
{
	tr_finalize();
	return PMPI_Finalize();
}

EXPORT int
MPI_Abort(MPI_Comm comm, int errorcode)
{
	tr_abort(errorcode);
	return PMPI_Abort(comm, errorcode);
}

/*
 * Every call that makes a communicator gives it its comm= id (trace.c),
 * a broadcast among its members; MPI_COMM_SELF and communicators made
 * otherwise take theirs when first used.
 */
static int
made(int rc, MPI_Comm *newcomm)
{
	if (tr_on && rc == MPI_SUCCESS)
		tr_comm_new(newcomm);
	return rc;
}

EXPORT int
MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
	return made(PMPI_Comm_dup(comm, newcomm), newcomm);
}

EXPORT int
MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
	return made(PMPI_Comm_dup_with_info(comm, info, newcomm), newcomm);
}

EXPORT int
MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
	return made(PMPI_Comm_split(comm, color, key, newcomm), newcomm);
}

EXPORT int
MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info,
    MPI_Comm *newcomm)
{
	return made(PMPI_Comm_split_type(comm, type, key, info, newcomm),
	    newcomm);
}

EXPORT int
MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
	return made(PMPI_Comm_create(comm, group, newcomm), newcomm);
}

EXPORT int
MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag,
    MPI_Comm *newcomm)
{
	return made(PMPI_Comm_create_group(comm, group, tag, newcomm), newcomm);
}

EXPORT int
MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[],
    const int periods[], int reorder, MPI_Comm *newcomm)
{
	return made(PMPI_Cart_create(comm, ndims, dims, periods, reorder,
	    newcomm), newcomm);
}

EXPORT int
MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
	return made(PMPI_Cart_sub(comm, remain_dims, newcomm), newcomm);
}

EXPORT int
MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[],
    const int edges[], int reorder, MPI_Comm *newcomm)
{
	return made(PMPI_Graph_create(comm, nnodes, index, edges, reorder,
	    newcomm), newcomm);
}

EXPORT int
MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[],
    const int degrees[], const int destinations[], const int weights[],
    MPI_Info info, int reorder, MPI_Comm *newcomm)
{
	return made(PMPI_Dist_graph_create(comm, n, sources, degrees,
	    destinations, weights, info, reorder, newcomm), newcomm);
}

EXPORT int
MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree,
    const int sources[], const int sourceweights[], int outdegree,
    const int destinations[], const int destweights[], MPI_Info info,
    int reorder, MPI_Comm *newcomm)
{
	return made(PMPI_Dist_graph_create_adjacent(comm, indegree, sources,
	    sourceweights, outdegree, destinations, destweights, info, reorder,
	    newcomm), newcomm);
}

EXPORT int
MPI_Intercomm_create(MPI_Comm local, int local_leader, MPI_Comm peer,
    int remote_leader, int tag, MPI_Comm *newcomm)
{
	return made(PMPI_Intercomm_create(local, local_leader, peer,
	    remote_leader, tag, newcomm), newcomm);
}

EXPORT int
MPI_Intercomm_merge(MPI_Comm comm, int high, MPI_Comm *newcomm)
{
	return made(PMPI_Intercomm_merge(comm, high, newcomm), newcomm);
}

EXPORT int
MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *req)
{
	int rc = PMPI_Comm_idup(comm, newcomm, req);

	if (tr_on && rc == MPI_SUCCESS)
		tr_comm_idup(comm, newcomm);
	return rc;
}

EXPORT int
MPI_Comm_free(MPI_Comm *comm)
{
	if (tr_on)
		tr_comm_free(*comm);
	return PMPI_Comm_free(comm);
}

EXPORT int
MPI_Comm_disconnect(MPI_Comm *comm)
{
	if (tr_on)
		tr_comm_free(*comm);
	return PMPI_Comm_disconnect(comm);
}
