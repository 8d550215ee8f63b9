/*
 * msglog.c - message logs and one-rank replay (libtrc-mpi(7),
 * trc-replay(1)), as PHANTOM does: a rank named in TRC_LOG writes to
 * TRC_LOGDIR/rank.R.log everything MPI hands it (statuses, received
 * payloads, probe and test outcomes, collective results); with
 * TRC_REPLAY=log the same program runs alone, and these calls are
 * served from the log instead of the network.
 *
 * The layer sits under the tracer: it defines the PMPI_ entry points
 * that wrap.c calls, so the tracer writes the same events in both runs
 * without knowing, and reaches the MPI library's own through
 * dlsym(RTLD_NEXT).  Recording and replaying are one code path per
 * call: entry() writes or checks the call's key, blob() and payload()
 * copy into the log or out of it, so the two cannot disagree on what a
 * call's entry holds.
 *
 * A log is a sequence of entries: a key (the call and the arguments
 * that decide what comes back: peers, tags, sizes, request kinds),
 * NUL-terminated, then 'B' <u64 length> <bytes> per blob, then 'E'.
 * A log stays plain up to LOG_PLAIN bytes and is gzip-compressed past
 * that; gzread reads either.  Communicators other than MPI_COMM_WORLD
 * and MPI_COMM_SELF, persistent requests, matched probes and
 * nonblocking collectives are not replayed: libtrc-unreplayable.so
 * stops a replay that reaches one.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "trace.h"

#define LOG_PLAIN	(1 << 20)	/* larger logs are compressed */
#define KEYMAX		256

int	 ml_mode;	/* ML_OFF, ML_RECORD, ML_REPLAY */
int	 ml_hold;	/* the tracer's own calls: passed to MPI as they are */

static int	 inside;	/* a call of ours into MPI is under way */
static int	 yield;		/* trc-replay --yield: the core given up at each call */
static char	 path[4096];
static long long nevent;	/* entries written or read */
static int	 fake_rank = -1, fake_size = -1;	/* MPI_COMM_WORLD's, replayed */

/* Recording: entries pile up in lb until written. */
static char	*lb;
static size_t	 llen, lcap;
/*
 * What logging costs, for TRC_LOGSTATS: the time from a call's entry()
 * to its done(), less the time spent in MPI itself, and the bytes.
 */
static int64_t	 t_entry, in_mpi, spent, raw;
static gzFile	 gz;		/* past LOG_PLAIN */

/* Replaying: the current entry, its key and blobs. */
static gzFile	 in;
static char	 rkey[KEYMAX];
static char	*rb;
static size_t	 rlen, rcap, rpos;

#define PASS	(ml_mode == ML_OFF || ml_hold || inside)
#define REC	(ml_mode == ML_RECORD)

/* The MPI library's own function name, looked up once into *slot. */
static void *
real(void **slot, const char *name)
{
	if (*slot == NULL && (*slot = dlsym(RTLD_NEXT, name)) == NULL) {
		fprintf(stderr, "libtrc-mpi: %s not found in the MPI library\n",
		    name);
		abort();
	}
	return *slot;
}

#define REAL(f)	((__typeof__(real_##f))real((void **)&real_##f, #f))
#define DECL(f)	static __typeof__(&f) real_##f

static void __attribute__((format(printf, 1, 2), noreturn))
diverge(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "trc-replay: %s: call %lld: ", path, nevent);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* Recording ----------------------------------------------------------- */

static int64_t
clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void
lflush(int all)
{
	if (llen == 0 || (!all && llen < LOG_PLAIN && gz == NULL))
		return;
	if (gz == NULL && (gz = gzopen(path, "wb1")) == NULL) {
		fprintf(stderr, "libtrc-mpi: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	if (gzwrite(gz, lb, (unsigned)llen) != (int)llen) {
		fprintf(stderr, "libtrc-mpi: %s: write error\n", path);
		exit(2);
	}
	llen = 0;
}

static char *
room(size_t n)
{
	char *p;

	if (llen + n > lcap) {
		while (llen + n > lcap)
			lcap = lcap ? 2 * lcap : 65536;
		if ((p = realloc(lb, lcap)) == NULL) {
			fprintf(stderr, "libtrc-mpi: out of memory for the log\n");
			exit(2);
		}
		lb = p;
	}
	return lb + llen;
}

/* A blob of n bytes, to be filled at once. */
static char *
rec_blob(size_t n)
{
	uint64_t len = n;
	char *p = room(1 + sizeof(len) + n);

	p[0] = 'B';
	memcpy(p + 1, &len, sizeof(len));
	llen += 1 + sizeof(len) + n;
	return p + 1 + sizeof(len);
}

/* Replaying ----------------------------------------------------------- */

static int
rgetc(void)
{
	return gzgetc(in);
}

static void
rread(void *p, size_t n)
{
	if (n > 0 && gzread(in, p, (unsigned)n) != (int)n)
		diverge("the log ends inside an entry");
}

/* The next entry into rkey and rb; 0 at the end of the log. */
static int
rp_next(void)
{
	uint64_t n;
	size_t k = 0;
	int c;

	rlen = rpos = 0;
	if ((c = rgetc()) == -1)
		return 0;
	for (; c != '\0'; c = rgetc()) {
		if (c == -1)
			diverge("the log ends inside an entry");
		if (k < KEYMAX - 1)
			rkey[k++] = (char)c;
	}
	rkey[k] = '\0';
	while ((c = rgetc()) == 'B') {
		rread(&n, sizeof(n));
		if (n > ((uint64_t)1 << 40))
			diverge("the log is damaged (a blob of %llu bytes)",
			    (unsigned long long)n);
		if (rlen + sizeof(n) + n > rcap) {
			while (rlen + sizeof(n) + n > rcap)
				rcap = rcap ? 2 * rcap : 65536;
			if ((rb = realloc(rb, rcap)) == NULL)
				diverge("out of memory");
		}
		memcpy(rb + rlen, &n, sizeof(n));
		rread(rb + rlen + sizeof(n), n);
		rlen += sizeof(n) + n;
	}
	if (c != 'E')
		diverge("the log is damaged (no end of entry)");
	return 1;
}

/* The next blob of the current entry; its length in *n. */
static char *
rp_blob(size_t *n)
{
	uint64_t len;

	if (rpos + sizeof(len) > rlen)
		diverge("'%s': the log holds fewer results than the call "
		    "needs", rkey);
	memcpy(&len, rb + rpos, sizeof(len));
	rpos += sizeof(len) + len;
	*n = len;
	return rb + rpos - len;
}

/* Both ---------------------------------------------------------------- */

/*
 * A call begins: its key is written, or checked against the log's
 * next entry.
 */
static void __attribute__((format(printf, 1, 2)))
entry(const char *fmt, ...)
{
	char key[KEYMAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(key, sizeof(key), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(key))
		n = (int)sizeof(key) - 1;
	nevent++;
	if (REC) {
		t_entry = clock_ns();
		in_mpi = 0;
		memcpy(room((size_t)n + 1), key, (size_t)n + 1);
		llen += (size_t)n + 1;
		return;
	}
	if (!rp_next())
		diverge("the program calls %s after the log's last event", key);
	if (strcmp(key, rkey) != 0)
		diverge("the program calls %s where the log has %s", key, rkey);
	/* A rank of an oversubscribed run gives its core up while it
	 * waits (Open MPI's mpi_yield_when_idle), and the one it shares
	 * the core with comes back to cold caches: replays, which never
	 * wait, yield once a call (4 ranks on 2 cores: 5 k context
	 * switches to 32 k, the full run's 72 k). */
	if (yield)
		sched_yield();
}

/* A call ends. */
static void
done(void)
{
	if (REC) {
		*room(1) = 'E';
		llen++;
		raw += (int64_t)llen;
		lflush(0);
		raw -= (int64_t)llen;
		spent += clock_ns() - t_entry - in_mpi;
	} else if (rpos != rlen)
		diverge("'%s': the log holds more results than the call takes",
		    rkey);
}

/* n bytes at p, into the log or out of it. */
static void
blob(void *p, size_t n)
{
	size_t have;
	char *q;

	if (REC) {
		memcpy(rec_blob(n), p, n);
		return;
	}
	q = rp_blob(&have);
	if (have != n)
		diverge("'%s': %zu bytes logged where the call takes %zu",
		    rkey, have, n);
	memcpy(p, q, n);
}

static void
blob_int(int *v)
{
	blob(v, sizeof(*v));
}

/* The elements a receive brought, from its (logged) status. */
static int
received(const MPI_Status *st, int count, MPI_Datatype t)
{
	int n;

	if (st == NULL || PMPI_Get_count(st, t, &n) != MPI_SUCCESS ||
	    n == MPI_UNDEFINED || n > count)
		return count;
	return n;
}

/*
 * What a receive or a collective left in buf: n elements of t, packed
 * (so any datatype works), n first; st gives n when there is one.
 */
static void
payload(void *buf, int count, MPI_Datatype t, const MPI_Status *st)
{
	int n = received(st, count, t), size = 0, pos = 0;
	size_t have;
	char *p;

	if (REC) {
		if (n > 0 && PMPI_Pack_size(n, t, MPI_COMM_SELF, &size) !=
		    MPI_SUCCESS)
			size = 0;
		p = rec_blob(sizeof(n) + (size_t)size);
		memcpy(p, &n, sizeof(n));
		if (size > 0)
			PMPI_Pack(buf, n, t, p + sizeof(n), size, &pos,
			    MPI_COMM_SELF);
		return;
	}
	p = rp_blob(&have);
	if (have < sizeof(n))
		diverge("'%s': a payload without its count", rkey);
	memcpy(&n, p, sizeof(n));
	if (n > count)
		diverge("'%s': %d elements logged, room for %d", rkey, n, count);
	if (n > 0 && PMPI_Unpack(p + sizeof(n), (int)(have - sizeof(n)), &pos,
	    buf, n, t, MPI_COMM_SELF) != MPI_SUCCESS)
		diverge("'%s': the payload does not unpack", rkey);
}

static void
status(MPI_Status *st)
{
	blob(st, sizeof(*st));
}

static long long
nbytes(int count, MPI_Datatype t)
{
	int size;

	if (t == MPI_DATATYPE_NULL || PMPI_Type_size(t, &size) != MPI_SUCCESS)
		return 0;
	return (long long)count * size;
}

static const char *
cname(MPI_Comm c)
{
	return c == MPI_COMM_WORLD ? "world" : c == MPI_COMM_SELF ? "self" :
	    "other";
}

/* Requests ------------------------------------------------------------ */

/*
 * The live requests, oldest first: a receive's buffer for the payload
 * its completion brings; when replaying, the fake handle given.
 */
struct rq {
	MPI_Request	 h;
	int64_t		 id;	/* from 1, in order of creation */
	int		 recv;
	void		*buf;
	int		 count;
	MPI_Datatype	 type;
};

static struct rq *rqs;
static int	 nrq, caprq;
static int64_t	 lastid;

static struct rq *
rq_find(MPI_Request h)
{
	int i;

	for (i = nrq - 1; i >= 0; i--)
		if (rqs[i].h == h)
			return &rqs[i];
	return NULL;
}

static void
rq_add(MPI_Request h, int recv, void *buf, int count, MPI_Datatype t)
{
	struct rq *p;

	if (nrq == caprq) {
		caprq = caprq ? 2 * caprq : 16;
		if ((p = realloc(rqs, (size_t)caprq * sizeof(*rqs))) == NULL) {
			fprintf(stderr, "libtrc-mpi: out of memory\n");
			exit(2);
		}
		rqs = p;
	}
	rqs[nrq].h = h;
	rqs[nrq].id = ++lastid;
	rqs[nrq].recv = recv;
	rqs[nrq].buf = buf;
	rqs[nrq].count = count;
	rqs[nrq++].type = t;
}

/* Forgets q; a fake handle no other live request shares is freed. */
static void
rq_remove(struct rq *q)
{
	MPI_Request h = q->h;
	int i = (int)(q - rqs);

	memmove(q, q + 1, (size_t)(nrq - i - 1) * sizeof(*q));
	nrq--;
	if (!REC && rq_find(h) == NULL)
		free((void *)h);
}

/*
 * A request made: when recording, whether its handle is one a live
 * request already has (Open MPI gives sends done at once one finished
 * request), so that a replay gives the program, and the tracer, which
 * tells requests by their handles, the same sharing; when replaying,
 * a handle of that sharing.
 */
static MPI_Request
rq_new(MPI_Request h, int recv, void *buf, int count, MPI_Datatype t)
{
	struct rq *q;
	int64_t same = 0;
	int i;

	if (REC && h == MPI_REQUEST_NULL)
		same = -1;
	else if (REC && (q = rq_find(h)) != NULL)
		same = q->id;
	blob(&same, sizeof(same));
	if (same < 0)
		return MPI_REQUEST_NULL;
	if (!REC && same > 0) {
		for (i = 0; i < nrq && rqs[i].id != same; i++)
			;
		if (i == nrq)
			diverge("'%s': the log shares a request no longer live",
			    rkey);
		h = rqs[i].h;
	} else if (!REC && (h = (MPI_Request)malloc(1)) == NULL)
		diverge("out of memory");
	rq_add(h, recv, buf, count, t);
	return h;
}

/* The kind of a request: n null, r receive, s anything else. */
static char
kind(MPI_Request h)
{
	struct rq *q;

	if (h == MPI_REQUEST_NULL)
		return 'n';
	if ((q = rq_find(h)) != NULL)
		return q->recv ? 'r' : 's';
	if (!REC)
		diverge("a request this replay did not make");
	return 's';
}

/* The kinds of n requests, as a key: "rrs", cut at 64. */
static const char *
kinds(int n, const MPI_Request *h)
{
	static char k[72];
	int i;

	for (i = 0; i < n && i < 64; i++)
		k[i] = kind(h[i]);
	strcpy(k + i, i < n ? "..." : "");
	return k;
}

/*
 * Request h has completed with st: its payload, then it is forgotten
 * (replaying, it is set to MPI_REQUEST_NULL as MPI would).
 */
static void
finish(MPI_Request *h, MPI_Request was, const MPI_Status *st)
{
	struct rq *q = rq_find(was);

	if (q == NULL)
		return;
	if (q->recv)
		payload(q->buf, q->count, q->type, st);
	if (!REC)
		*h = MPI_REQUEST_NULL;
	rq_remove(q);
}

/* Start and end --------------------------------------------------------- */

/* Is r in the list "all" or "0,2-5"? */
static int
listed(const char *s, int r)
{
	char *end;
	long lo, hi;

	if (strcmp(s, "all") == 0)
		return 1;
	while (*s != '\0') {
		lo = hi = strtol(s, &end, 10);
		if (end == s)
			return 0;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (r >= lo && r <= hi)
			return 1;
		if (*end != ',')
			return 0;
		s = end + 1;
	}
	return 0;
}

DECL(PMPI_Comm_rank);
DECL(PMPI_Comm_size);

static void
ml_start(void)
{
	const char *list = getenv("TRC_LOG"), *dir = getenv("TRC_LOGDIR");
	const char *rp = getenv("TRC_REPLAY"), *y;
	char key[KEYMAX];
	int r, n;

	if (rp != NULL && *rp != '\0') {
		snprintf(path, sizeof(path), "%s", rp);
		if ((in = gzopen(path, "rb")) == NULL) {
			fprintf(stderr, "trc-replay: %s: %s\n", path,
			    strerror(errno));
			exit(2);
		}
		ml_mode = ML_REPLAY;
		nevent = 1;
		yield = (y = getenv("TRC_REPLAY_YIELD")) != NULL && *y != '\0';
		if (gzread(in, key, 10) != 10 || memcmp(key, "#trclog 1 ", 10) != 0)
			diverge("not a message log");
		gzrewind(in);
		if (!rp_next() || sscanf(rkey, "#trclog 1 rank=%d size=%d", &r,
		    &n) != 2 || r < 0 || n <= r)
			diverge("not a message log");
		fake_rank = r;
		fake_size = n;
		nevent = 0;	/* the program's calls count from 1 */
		return;
	}
	if (list == NULL || *list == '\0')
		return;
	REAL(PMPI_Comm_rank)(MPI_COMM_WORLD, &r);
	REAL(PMPI_Comm_size)(MPI_COMM_WORLD, &n);
	if (!listed(list, r))
		return;
	snprintf(path, sizeof(path), "%s/rank.%d.log",
	    dir != NULL && *dir != '\0' ? dir : ".", r);
	if (access(path, F_OK) == 0 && unlink(path) < 0) {
		fprintf(stderr, "libtrc-mpi: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	ml_mode = ML_RECORD;
	snprintf(key, sizeof(key), "#trclog 1 rank=%d size=%d", r, n);
	entry("%s", key);
	done();
	nevent = 0;
}

DECL(PMPI_Init);
DECL(PMPI_Init_thread);
DECL(PMPI_Finalize);

EXPORT int
PMPI_Init(int *argc, char ***argv)
{
	int rc = REAL(PMPI_Init)(argc, argv);

	if (rc == MPI_SUCCESS)
		ml_start();
	return rc;
}

EXPORT int
PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	int rc = REAL(PMPI_Init_thread)(argc, argv, required, provided);

	if (rc == MPI_SUCCESS)
		ml_start();
	return rc;
}

EXPORT int
PMPI_Finalize(void)
{
	const char *s;
	FILE *f;
	size_t llen0;
	int mode = ml_mode;

	if (mode != ML_OFF) {
		entry("MPI_Finalize");
		done();
	}
	llen0 = llen;	/* what is still unwritten */
	ml_mode = ML_OFF;
	if (mode == ML_RECORD) {
		if (gz != NULL) {
			lflush(1);
			if (gzclose(gz) != Z_OK) {
				fprintf(stderr, "libtrc-mpi: %s: write error\n",
				    path);
				exit(2);
			}
		} else if ((f = fopen(path, "w")) == NULL ||
		    fwrite(lb, 1, llen, f) != llen || fclose(f) == EOF) {
			fprintf(stderr, "libtrc-mpi: %s: %s\n", path,
			    strerror(errno));
			exit(2);
		}
		free(lb);
		lb = NULL;
		if ((s = getenv("TRC_LOGSTATS")) != NULL && *s != '\0')
			fprintf(stderr, "libtrc-mpi: %s: %lld calls, %lld bytes "
			    "logged, %.6f s logging\n", path, nevent,
			    (long long)(raw + (int64_t)llen0), spent / 1e9);
	} else if (mode == ML_REPLAY) {
		if (rp_next())
			diverge("the program ends where the log has %s", rkey);
		gzclose(in);
	}
	return REAL(PMPI_Finalize)();
}

/* MPI_COMM_WORLD as the original run saw it. */
EXPORT int
PMPI_Comm_rank(MPI_Comm c, int *r)
{
	if (ml_mode == ML_REPLAY && c == MPI_COMM_WORLD) {
		*r = fake_rank;
		return MPI_SUCCESS;
	}
	return REAL(PMPI_Comm_rank)(c, r);
}

EXPORT int
PMPI_Comm_size(MPI_Comm c, int *n)
{
	if (ml_mode == ML_REPLAY && c == MPI_COMM_WORLD) {
		*n = fake_size;
		return MPI_SUCCESS;
	}
	return REAL(PMPI_Comm_size)(c, n);
}

/* The tracer does not wrap these: the program calls them directly. */
EXPORT int
MPI_Comm_rank(MPI_Comm c, int *r)
{
	return PMPI_Comm_rank(c, r);
}

EXPORT int
MPI_Comm_size(MPI_Comm c, int *n)
{
	return PMPI_Comm_size(c, n);
}

/* Point to point -------------------------------------------------------- */

/* A call into MPI when recording; a replay skips it. */
#define CALL(f, ...)	do { \
		if (REC) { \
			int64_t t_ = clock_ns(); \
			inside++; \
			rc = REAL(f)(__VA_ARGS__); \
			inside--; \
			in_mpi += clock_ns() - t_; \
		} \
	} while (0)

DECL(PMPI_Send);
DECL(PMPI_Ssend);
DECL(PMPI_Rsend);
DECL(PMPI_Bsend);

/* A send: only its key, so that a replay checks it; it returns at once. */
#define SEND(f, name) \
EXPORT int \
f(const void *b, int count, MPI_Datatype t, int dest, int tag, MPI_Comm c) \
{ \
	int rc = MPI_SUCCESS; \
\
	if (PASS) \
		return REAL(f)(b, count, t, dest, tag, c); \
	entry(name " peer=%d tag=%d bytes=%lld comm=%s", dest, tag, \
	    nbytes(count, t), cname(c)); \
	CALL(f, b, count, t, dest, tag, c); \
	done(); \
	return rc; \
}
SEND(PMPI_Send, "MPI_Send")
SEND(PMPI_Ssend, "MPI_Ssend")
SEND(PMPI_Rsend, "MPI_Rsend")
SEND(PMPI_Bsend, "MPI_Bsend")

DECL(PMPI_Isend);
DECL(PMPI_Issend);
DECL(PMPI_Irsend);
DECL(PMPI_Ibsend);

#define ISEND(f, name) \
EXPORT int \
f(const void *b, int count, MPI_Datatype t, int dest, int tag, MPI_Comm c, \
    MPI_Request *req) \
{ \
	int rc = MPI_SUCCESS; \
\
	if (PASS) \
		return REAL(f)(b, count, t, dest, tag, c, req); \
	entry(name " peer=%d tag=%d bytes=%lld comm=%s", dest, tag, \
	    nbytes(count, t), cname(c)); \
	CALL(f, b, count, t, dest, tag, c, req); \
	*req = rq_new(rc == MPI_SUCCESS ? *req : MPI_REQUEST_NULL, 0, NULL, \
	    0, t); \
	done(); \
	return rc; \
}
ISEND(PMPI_Isend, "MPI_Isend")
ISEND(PMPI_Issend, "MPI_Issend")
ISEND(PMPI_Irsend, "MPI_Irsend")
ISEND(PMPI_Ibsend, "MPI_Ibsend")

DECL(PMPI_Recv);

EXPORT int
PMPI_Recv(void *b, int count, MPI_Datatype t, int src, int tag, MPI_Comm c,
    MPI_Status *st)
{
	MPI_Status s;
	int rc = MPI_SUCCESS;

	if (PASS)
		return REAL(PMPI_Recv)(b, count, t, src, tag, c, st);
	entry("MPI_Recv peer=%d tag=%d bytes=%lld comm=%s", src, tag,
	    nbytes(count, t), cname(c));
	CALL(PMPI_Recv, b, count, t, src, tag, c, &s);
	status(&s);
	payload(b, count, t, &s);
	done();
	if (st != MPI_STATUS_IGNORE)
		*st = s;
	return rc;
}

DECL(PMPI_Irecv);

EXPORT int
PMPI_Irecv(void *b, int count, MPI_Datatype t, int src, int tag, MPI_Comm c,
    MPI_Request *req)
{
	int rc = MPI_SUCCESS;

	if (PASS)
		return REAL(PMPI_Irecv)(b, count, t, src, tag, c, req);
	entry("MPI_Irecv peer=%d tag=%d bytes=%lld comm=%s", src, tag,
	    nbytes(count, t), cname(c));
	CALL(PMPI_Irecv, b, count, t, src, tag, c, req);
	*req = rq_new(rc == MPI_SUCCESS ? *req : MPI_REQUEST_NULL, 1, b, count,
	    t);
	done();
	return rc;
}

DECL(PMPI_Sendrecv);

EXPORT int
PMPI_Sendrecv(const void *sb, int scount, MPI_Datatype stype, int dest,
    int stag, void *rbuf, int rcount, MPI_Datatype rtype, int src, int rtag,
    MPI_Comm c, MPI_Status *st)
{
	MPI_Status s;
	int rc = MPI_SUCCESS;

	if (PASS)
		return REAL(PMPI_Sendrecv)(sb, scount, stype, dest, stag, rbuf,
		    rcount, rtype, src, rtag, c, st);
	entry("MPI_Sendrecv peer=%d tag=%d bytes=%lld from=%d tag=%d "
	    "bytes=%lld comm=%s", dest, stag, nbytes(scount, stype), src, rtag,
	    nbytes(rcount, rtype), cname(c));
	CALL(PMPI_Sendrecv, sb, scount, stype, dest, stag, rbuf, rcount, rtype,
	    src, rtag, c, &s);
	status(&s);
	payload(rbuf, rcount, rtype, &s);
	done();
	if (st != MPI_STATUS_IGNORE)
		*st = s;
	return rc;
}

DECL(PMPI_Sendrecv_replace);

EXPORT int
PMPI_Sendrecv_replace(void *b, int count, MPI_Datatype t, int dest, int stag,
    int src, int rtag, MPI_Comm c, MPI_Status *st)
{
	MPI_Status s;
	int rc = MPI_SUCCESS;

	if (PASS)
		return REAL(PMPI_Sendrecv_replace)(b, count, t, dest, stag, src,
		    rtag, c, st);
	entry("MPI_Sendrecv_replace peer=%d tag=%d from=%d tag=%d bytes=%lld "
	    "comm=%s", dest, stag, src, rtag, nbytes(count, t), cname(c));
	CALL(PMPI_Sendrecv_replace, b, count, t, dest, stag, src, rtag, c, &s);
	status(&s);
	payload(b, count, t, &s);
	done();
	if (st != MPI_STATUS_IGNORE)
		*st = s;
	return rc;
}

DECL(PMPI_Probe);

EXPORT int
PMPI_Probe(int src, int tag, MPI_Comm c, MPI_Status *st)
{
	MPI_Status s;
	int rc = MPI_SUCCESS;

	if (PASS)
		return REAL(PMPI_Probe)(src, tag, c, st);
	entry("MPI_Probe peer=%d tag=%d comm=%s", src, tag, cname(c));
	CALL(PMPI_Probe, src, tag, c, &s);
	status(&s);
	done();
	if (st != MPI_STATUS_IGNORE)
		*st = s;
	return rc;
}

DECL(PMPI_Iprobe);

EXPORT int
PMPI_Iprobe(int src, int tag, MPI_Comm c, int *flag, MPI_Status *st)
{
	MPI_Status s;
	int rc = MPI_SUCCESS;

	if (PASS)
		return REAL(PMPI_Iprobe)(src, tag, c, flag, st);
	entry("MPI_Iprobe peer=%d tag=%d comm=%s", src, tag, cname(c));
	CALL(PMPI_Iprobe, src, tag, c, flag, &s);
	blob_int(flag);
	if (*flag)
		status(&s);
	done();
	if (*flag && st != MPI_STATUS_IGNORE)
		*st = s;
	return rc;
}

/* Completion -------------------------------------------------------------- */

/* Room for n statuses and the handles as they were. */
struct many {
	MPI_Status	*st, st1[8];
	MPI_Request	*was, was1[8];
};

static void
many_open(struct many *m, int n, const MPI_Request *h)
{
	m->st = m->st1;
	m->was = m->was1;
	if (n > 8 && ((m->st = malloc((size_t)n * sizeof(*m->st))) == NULL ||
	    (m->was = malloc((size_t)n * sizeof(*m->was))) == NULL)) {
		fprintf(stderr, "libtrc-mpi: out of memory\n");
		exit(2);
	}
	if (n > 0)
		memcpy(m->was, h, (size_t)n * sizeof(*h));
}

/* The first nw statuses go to the caller's array. */
static void
many_close(struct many *m, MPI_Status *user, int nw)
{
	if (user != MPI_STATUSES_IGNORE && nw > 0)
		memcpy(user, m->st, (size_t)nw * sizeof(*user));
	if (m->st != m->st1)
		free(m->st);
	if (m->was != m->was1)
		free(m->was);
}

DECL(PMPI_Wait);

EXPORT int
PMPI_Wait(MPI_Request *req, MPI_Status *st)
{
	MPI_Request was = *req;
	MPI_Status s;
	int rc = MPI_SUCCESS;

	if (PASS)
		return REAL(PMPI_Wait)(req, st);
	entry("MPI_Wait req=%c", kind(was));
	CALL(PMPI_Wait, req, &s);
	status(&s);
	finish(req, was, &s);
	done();
	if (st != MPI_STATUS_IGNORE)
		*st = s;
	return rc;
}

DECL(PMPI_Test);

EXPORT int
PMPI_Test(MPI_Request *req, int *flag, MPI_Status *st)
{
	MPI_Request was = *req;
	MPI_Status s;
	int rc = MPI_SUCCESS;

	if (PASS)
		return REAL(PMPI_Test)(req, flag, st);
	entry("MPI_Test req=%c", kind(was));
	CALL(PMPI_Test, req, flag, &s);
	blob_int(flag);
	if (*flag) {
		status(&s);
		finish(req, was, &s);
	}
	done();
	if (*flag && st != MPI_STATUS_IGNORE)
		*st = s;
	return rc;
}

DECL(PMPI_Waitall);

EXPORT int
PMPI_Waitall(int n, MPI_Request reqs[], MPI_Status sts[])
{
	struct many m;
	int rc = MPI_SUCCESS, i;

	if (PASS || n <= 0)
		return REAL(PMPI_Waitall)(n, reqs, sts);
	many_open(&m, n, reqs);
	entry("MPI_Waitall n=%d req=%s", n, kinds(n, reqs));
	CALL(PMPI_Waitall, n, reqs, m.st);
	blob(m.st, (size_t)n * sizeof(*m.st));
	for (i = 0; i < n; i++)
		finish(&reqs[i], m.was[i], &m.st[i]);
	done();
	many_close(&m, sts, n);
	return rc;
}

DECL(PMPI_Testall);

EXPORT int
PMPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status sts[])
{
	struct many m;
	int rc = MPI_SUCCESS, i;

	if (PASS || n <= 0)
		return REAL(PMPI_Testall)(n, reqs, flag, sts);
	many_open(&m, n, reqs);
	entry("MPI_Testall n=%d req=%s", n, kinds(n, reqs));
	CALL(PMPI_Testall, n, reqs, flag, m.st);
	blob_int(flag);
	if (*flag) {
		blob(m.st, (size_t)n * sizeof(*m.st));
		for (i = 0; i < n; i++)
			finish(&reqs[i], m.was[i], &m.st[i]);
	}
	done();
	many_close(&m, sts, *flag ? n : 0);
	return rc;
}

DECL(PMPI_Waitany);
DECL(PMPI_Testany);

/* Waitany and Testany: flag, index, then its status and payload. */
static int
any(int test, int n, MPI_Request reqs[], int *index, int *flag,
    MPI_Status *st)
{
	struct many m;
	MPI_Status s;
	int rc = MPI_SUCCESS, one = 1;

	if (flag == NULL)
		flag = &one;
	many_open(&m, n, reqs);
	entry("MPI_%s n=%d req=%s", test ? "Testany" : "Waitany", n,
	    kinds(n, reqs));
	if (test)
		CALL(PMPI_Testany, n, reqs, index, flag, &s);
	else
		CALL(PMPI_Waitany, n, reqs, index, &s);
	blob_int(flag);
	blob_int(index);
	if (*flag) {
		status(&s);
		if (*index >= 0 && *index < n)
			finish(&reqs[*index], m.was[*index], &s);
		if (st != MPI_STATUS_IGNORE)
			*st = s;
	}
	done();
	many_close(&m, MPI_STATUSES_IGNORE, 0);
	return rc;
}

EXPORT int
PMPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *st)
{
	if (PASS)
		return REAL(PMPI_Waitany)(n, reqs, index, st);
	return any(0, n, reqs, index, NULL, st);
}

EXPORT int
PMPI_Testany(int n, MPI_Request reqs[], int *index, int *flag,
    MPI_Status *st)
{
	if (PASS)
		return REAL(PMPI_Testany)(n, reqs, index, flag, st);
	return any(1, n, reqs, index, flag, st);
}

DECL(PMPI_Waitsome);
DECL(PMPI_Testsome);

static int
some(int test, int n, MPI_Request reqs[], int *outcount, int idx[],
    MPI_Status sts[])
{
	struct many m;
	int rc = MPI_SUCCESS, i, k;

	many_open(&m, n, reqs);
	entry("MPI_%s n=%d req=%s", test ? "Testsome" : "Waitsome", n,
	    kinds(n, reqs));
	if (test)
		CALL(PMPI_Testsome, n, reqs, outcount, idx, m.st);
	else
		CALL(PMPI_Waitsome, n, reqs, outcount, idx, m.st);
	blob_int(outcount);
	k = *outcount;
	if (k < 0 || k > n)
		k = 0;
	blob(idx, (size_t)k * sizeof(*idx));
	blob(m.st, (size_t)k * sizeof(*m.st));
	for (i = 0; i < k; i++)
		if (idx[i] >= 0 && idx[i] < n)
			finish(&reqs[idx[i]], m.was[idx[i]], &m.st[i]);
	done();
	many_close(&m, sts, k);
	return rc;
}

EXPORT int
PMPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int idx[],
    MPI_Status sts[])
{
	if (PASS || n <= 0)
		return REAL(PMPI_Waitsome)(n, reqs, outcount, idx, sts);
	return some(0, n, reqs, outcount, idx, sts);
}

EXPORT int
PMPI_Testsome(int n, MPI_Request reqs[], int *outcount, int idx[],
    MPI_Status sts[])
{
	if (PASS || n <= 0)
		return REAL(PMPI_Testsome)(n, reqs, outcount, idx, sts);
	return some(1, n, reqs, outcount, idx, sts);
}

DECL(PMPI_Request_free);

EXPORT int
PMPI_Request_free(MPI_Request *req)
{
	MPI_Request was = *req;
	struct rq *q;
	int rc = MPI_SUCCESS;

	if (PASS)
		return REAL(PMPI_Request_free)(req);
	entry("MPI_Request_free req=%c", kind(was));
	CALL(PMPI_Request_free, req);
	if ((q = rq_find(was)) != NULL) {
		if (!REC)
			*req = MPI_REQUEST_NULL;
		rq_remove(q);
	}
	done();
	return rc;
}

/* Collectives -------------------------------------------------------------- */

static int
rank_in(MPI_Comm c)
{
	int r;

	PMPI_Comm_rank(c, &r);
	return r;
}

static int
size_of(MPI_Comm c)
{
	int n;

	PMPI_Comm_size(c, &n);
	return n;
}

DECL(PMPI_Barrier);

EXPORT int
PMPI_Barrier(MPI_Comm c)
{
	int rc = MPI_SUCCESS;

	if (PASS)
		return REAL(PMPI_Barrier)(c);
	entry("MPI_Barrier comm=%s", cname(c));
	CALL(PMPI_Barrier, c);
	done();
	return rc;
}

DECL(PMPI_Bcast);

EXPORT int
PMPI_Bcast(void *b, int count, MPI_Datatype t, int root, MPI_Comm c)
{
	int rc = MPI_SUCCESS;

	if (PASS)
		return REAL(PMPI_Bcast)(b, count, t, root, c);
	entry("MPI_Bcast bytes=%lld root=%d comm=%s", nbytes(count, t), root,
	    cname(c));
	CALL(PMPI_Bcast, b, count, t, root, c);
	if (rank_in(c) != root)
		payload(b, count, t, NULL);
	done();
	return rc;
}

DECL(PMPI_Reduce);

EXPORT int
PMPI_Reduce(const void *sb, void *b, int count, MPI_Datatype t, MPI_Op op,
    int root, MPI_Comm c)
{
	int rc = MPI_SUCCESS;

	if (PASS)
		return REAL(PMPI_Reduce)(sb, b, count, t, op, root, c);
	entry("MPI_Reduce bytes=%lld root=%d comm=%s", nbytes(count, t), root,
	    cname(c));
	CALL(PMPI_Reduce, sb, b, count, t, op, root, c);
	if (rank_in(c) == root)
		payload(b, count, t, NULL);
	done();
	return rc;
}

/* A collective whose every member receives count elements into b. */
#define ALLRED(f, name) \
DECL(f); \
EXPORT int \
f(const void *sb, void *b, int count, MPI_Datatype t, MPI_Op op, MPI_Comm c) \
{ \
	int rc = MPI_SUCCESS; \
\
	if (PASS) \
		return REAL(f)(sb, b, count, t, op, c); \
	entry(name " bytes=%lld comm=%s", nbytes(count, t), cname(c)); \
	CALL(f, sb, b, count, t, op, c); \
	payload(b, count, t, NULL); \
	done(); \
	return rc; \
}
ALLRED(PMPI_Allreduce, "MPI_Allreduce")
ALLRED(PMPI_Scan, "MPI_Scan")
ALLRED(PMPI_Exscan, "MPI_Exscan")

DECL(PMPI_Reduce_scatter_block);

EXPORT int
PMPI_Reduce_scatter_block(const void *sb, void *b, int count, MPI_Datatype t,
    MPI_Op op, MPI_Comm c)
{
	int rc = MPI_SUCCESS;

	if (PASS)
		return REAL(PMPI_Reduce_scatter_block)(sb, b, count, t, op, c);
	entry("MPI_Reduce_scatter_block bytes=%lld comm=%s", nbytes(count, t),
	    cname(c));
	CALL(PMPI_Reduce_scatter_block, sb, b, count, t, op, c);
	payload(b, count, t, NULL);
	done();
	return rc;
}

/* Allgather and Alltoall: rcount elements from every member. */
#define ALLGATHER(f, name) \
DECL(f); \
EXPORT int \
f(const void *sb, int scount, MPI_Datatype stype, void *b, int rcount, \
    MPI_Datatype rtype, MPI_Comm c) \
{ \
	int rc = MPI_SUCCESS; \
\
	if (PASS) \
		return REAL(f)(sb, scount, stype, b, rcount, rtype, c); \
	entry(name " bytes=%lld comm=%s", nbytes(rcount, rtype), cname(c)); \
	CALL(f, sb, scount, stype, b, rcount, rtype, c); \
	payload(b, rcount * size_of(c), rtype, NULL); \
	done(); \
	return rc; \
}
ALLGATHER(PMPI_Allgather, "MPI_Allgather")
ALLGATHER(PMPI_Alltoall, "MPI_Alltoall")

DECL(PMPI_Gather);

EXPORT int
PMPI_Gather(const void *sb, int scount, MPI_Datatype stype, void *b,
    int rcount, MPI_Datatype rtype, int root, MPI_Comm c)
{
	int rc = MPI_SUCCESS, me = rank_in(c);

	if (PASS)
		return REAL(PMPI_Gather)(sb, scount, stype, b, rcount, rtype,
		    root, c);
	entry("MPI_Gather bytes=%lld root=%d comm=%s", me == root ?
	    nbytes(rcount, rtype) : nbytes(scount, stype), root, cname(c));
	CALL(PMPI_Gather, sb, scount, stype, b, rcount, rtype, root, c);
	if (me == root)
		payload(b, rcount * size_of(c), rtype, NULL);
	done();
	return rc;
}

DECL(PMPI_Scatter);

EXPORT int
PMPI_Scatter(const void *sb, int scount, MPI_Datatype stype, void *b,
    int rcount, MPI_Datatype rtype, int root, MPI_Comm c)
{
	int rc = MPI_SUCCESS;

	if (PASS)
		return REAL(PMPI_Scatter)(sb, scount, stype, b, rcount, rtype,
		    root, c);
	entry("MPI_Scatter bytes=%lld root=%d comm=%s", nbytes(rcount, rtype),
	    root, cname(c));
	CALL(PMPI_Scatter, sb, scount, stype, b, rcount, rtype, root, c);
	if (b != MPI_IN_PLACE)
		payload(b, rcount, rtype, NULL);
	done();
	return rc;
}

