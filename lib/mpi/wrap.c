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

/* RE for a completed receive: the actual source, tag and size. */
static void
write_re(int64_t t, int64_t req, MPI_Comm comm, int cid, MPI_Datatype type,
    const MPI_Status *st)
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
	ev_end(p);
}

static void
complete(int64_t t, const struct req_info *ri, const MPI_Status *st)
{
	if (ri->recv)
		write_re(t, ri->id, ri->commh, ri->comm, ri->type, st);
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
		write_re(tr_now(), 0, comm, cid, type, &st);
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
	ri.recv = 1;
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
 * stream's own words for "both at once": SB/SE req=a, RB req=b,
 * WB req=a,b op=sendrecv, RE req=b, WE.
 */
static void
sendrecv_begin(int64_t t, struct req_info ri[2], char known[2])
{
	char *p;

	if (known[0]) {
		p = attrs(ev_start(t, "SB", 0), ri[0].peer, ri[0].tag,
		    ri[0].bytes, ri[0].comm);
		ev_end(put_int(p, " req=", ri[0].id));
		p = attrs(ev_start(t, "SE", 0), ri[0].peer, ri[0].tag,
		    ri[0].bytes, ri[0].comm);
		ev_end(put_int(p, " req=", ri[0].id));
	}
	if (known[1]) {
		p = attrs(ev_start(t, "RB", 0), ri[1].peer, ri[1].tag,
		    ri[1].bytes, ri[1].comm);
		ev_end(put_int(p, " req=", ri[1].id));
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
		ri[0].peer = tr_world(comm, dest);
		ri[0].tag = stag;
		ri[0].bytes = tr_bytes(scount, stype);
		ri[0].comm = tr_comm_id(comm);
	}
	if (known[1]) {
		ri[1].id = tr_req_new();
		ri[1].recv = 1;
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
	int i;

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
		s->known[i] = (char)tr_req_get(&reqs[i], &s->ri[i]);
		s->nknown += s->known[i];
		s->nlive += reqs[i] != MPI_REQUEST_NULL;
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
	struct req_info ri;

	if (!s->known[i])
		return;
	tr_req_take(&s->h[i], &ri);
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
	t0 = tr_now();
	rc = PMPI_Test(req, flag, &s.st[0]);
	if (!*flag)
		tr_poll();
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
		tr_poll();
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
		tr_poll();
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
		tr_poll();
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
	struct req_info ri;

	if (tr_on)
		tr_req_take(req, &ri);
	return PMPI_Request_free(req);
}

/* Probes: WB/WE op=probe|iprobe, the actual source at WE. */
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
	ev_end(put_str(put_str(p, " op="), op));
	p = ev_start(t, "WE", 0);
	p = attrs(p, tr_world(comm, st->MPI_SOURCE), st->MPI_TAG,
	    recv_bytes(st, MPI_BYTE), cid);
	ev_end(put_str(put_str(p, " op="), op));
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
		tr_poll();
	else {
		write_probe(t0, tr_now(), "iprobe", source, tag, comm, &st);
		if (status != MPI_STATUS_IGNORE)
			*status = st;
	}
	tr_depth--;
	return rc;
}

/* Collectives ------------------------------------------------------------ */

/*
 * A collective's begin or end; size > 0 writes size=, which the begin
 * of one on a communicator other than the world carries, so that
 * trc-scale knows how many ranks take part.
 */
static void
write_x(const char *kind, const char *op, int64_t bytes, int root, int cid,
    int size)
{
	char *p;

	p = put_str(put_str(ev_start(tr_now(), kind, 0), " op="), op);
	p = put_int(p, " bytes=", bytes);
	if (root >= 0)
		p = put_int(p, " root=", root);
	if (cid != 0)
		p = put_int(p, " comm=", cid);
	if (size > 0)
		p = put_int(p, " size=", size);
	ev_end(p);
}

#define COLL(op, bytes, root, comm, call) do {				\
	int64_t b_ = (bytes);						\
	int r_ = (root) >= 0 ? tr_world((comm), (root)) : -1;		\
	int c_ = tr_comm_id(comm), rc_;					\
	tr_depth++;							\
	write_x("XB", op, b_, r_, c_, c_ != 0 ? tr_comm_size(comm) : 0); \
	tr_delay(op);							\
	rc_ = (call);							\
	write_x("XE", op, b_, r_, c_, 0);				\
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

static int
comm_size(MPI_Comm c)
{
	int n;

	PMPI_Comm_size(c, &n);
	return n;
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

/* bytes= of the gathers: the block this rank contributes. */
EXPORT int
MPI_Gather(const void *sb, int scount, MPI_Datatype stype, void *rb,
    int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Gather(sb, scount, stype, rb, rcount, rtype, root, comm);
	COLL("gather", sb == MPI_IN_PLACE ? tr_bytes(rcount, rtype) :
	    tr_bytes(scount, stype), root, comm,
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
	COLL("gatherv", sb == MPI_IN_PLACE ?
	    tr_bytes(rcounts[comm_rank(comm)], rtype) : tr_bytes(scount, stype),
	    root, comm, PMPI_Gatherv(sb, scount, stype, rb, rcounts, displs,
	    rtype, root, comm));
}

/* bytes= of the scatters: the block this rank receives. */
EXPORT int
MPI_Scatter(const void *sb, int scount, MPI_Datatype stype, void *rb,
    int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Scatter(sb, scount, stype, rb, rcount, rtype, root,
		    comm);
	COLL("scatter", rb == MPI_IN_PLACE ? tr_bytes(scount, stype) :
	    tr_bytes(rcount, rtype), root, comm,
	    PMPI_Scatter(sb, scount, stype, rb, rcount, rtype, root, comm));
}

EXPORT int
MPI_Scatterv(const void *sb, const int scounts[], const int displs[],
    MPI_Datatype stype, void *rb, int rcount, MPI_Datatype rtype, int root,
    MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Scatterv(sb, scounts, displs, stype, rb, rcount,
		    rtype, root, comm);
	COLL("scatterv", rb == MPI_IN_PLACE ?
	    tr_bytes(scounts[comm_rank(comm)], stype) : tr_bytes(rcount, rtype),
	    root, comm, PMPI_Scatterv(sb, scounts, displs, stype, rb, rcount,
	    rtype, root, comm));
}

EXPORT int
MPI_Allgather(const void *sb, int scount, MPI_Datatype stype, void *rb,
    int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Allgather(sb, scount, stype, rb, rcount, rtype, comm);
	COLL("allgather", sb == MPI_IN_PLACE ? tr_bytes(rcount, rtype) :
	    tr_bytes(scount, stype), -1, comm,
	    PMPI_Allgather(sb, scount, stype, rb, rcount, rtype, comm));
}

EXPORT int
MPI_Allgatherv(const void *sb, int scount, MPI_Datatype stype, void *rb,
    const int rcounts[], const int displs[], MPI_Datatype rtype, MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Allgatherv(sb, scount, stype, rb, rcounts, displs,
		    rtype, comm);
	COLL("allgatherv", sb == MPI_IN_PLACE ?
	    tr_bytes(rcounts[comm_rank(comm)], rtype) : tr_bytes(scount, stype),
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
	COLL("alltoall", sb == MPI_IN_PLACE ? tr_bytes(rcount, rtype) :
	    tr_bytes(scount, stype), -1, comm,
	    PMPI_Alltoall(sb, scount, stype, rb, rcount, rtype, comm));
}

/* alltoallv: the mean block sent to each rank, total / ranks. */
static int64_t
mean_block(const int counts[], MPI_Datatype type, MPI_Comm comm)
{
	int64_t sum = 0;
	int i, n = comm_size(comm);

	for (i = 0; i < n; i++)
		sum += counts[i];
	return tr_bytes(1, type) * sum / (n > 0 ? n : 1);
}

EXPORT int
MPI_Alltoallv(const void *sb, const int scounts[], const int sdispls[],
    MPI_Datatype stype, void *rb, const int rcounts[], const int rdispls[],
    MPI_Datatype rtype, MPI_Comm comm)
{
	if (!TRACING)
		return PMPI_Alltoallv(sb, scounts, sdispls, stype, rb, rcounts,
		    rdispls, rtype, comm);
	COLL("alltoallv", sb == MPI_IN_PLACE ? mean_block(rcounts, rtype, comm) :
	    mean_block(scounts, stype, comm), -1, comm,
	    PMPI_Alltoallv(sb, scounts, sdispls, stype, rb, rcounts, rdispls,
	    rtype, comm));
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

EXPORT int
MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
	int rc = PMPI_Comm_dup(comm, newcomm);

	if (tr_on && rc == MPI_SUCCESS)
		tr_comm_new(comm, newcomm);
	return rc;
}

EXPORT int
MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
	int rc = PMPI_Comm_split(comm, color, key, newcomm);

	if (tr_on && rc == MPI_SUCCESS)
		tr_comm_new(comm, newcomm);
	return rc;
}

EXPORT int
MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
	int rc = PMPI_Comm_create(comm, group, newcomm);

	if (tr_on && rc == MPI_SUCCESS)
		tr_comm_new(comm, newcomm);
	return rc;
}

EXPORT int
MPI_Comm_free(MPI_Comm *comm)
{
	if (tr_on)
		tr_comm_free(*comm);
	return PMPI_Comm_free(comm);
}
