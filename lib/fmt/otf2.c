/*
 * otf2.c - OTF2 archives (Score-P, Vampir, Scalasca), read and written
 * through libotf2.  trc-formats(5) says what maps to what.
 *
 * Both directions go through one decoder.  It takes the records of
 * the archive (Enter, Leave, MpiSend, MpiIrecv, ...) one location at
 * a time in time order, keeps a stack of open regions per rank, and
 * turns them into trc events in a queue of slots: a call's begin event
 * is a slot made at its Enter and filled when the records inside the
 * call (the message of an MPI_Send, the completions of a wait, the
 * sizes of a collective) have said what it is.  The output is the
 * queue up to its first unfilled slot, so memory follows the calls in
 * flight, not the length of the trace.
 *
 * Reading.  Each location has its own libotf2 event reader, one record
 * read ahead; the locations are merged by time (ties by location), so
 * an error names the location and the event's position in it.
 *
 * Writing.  Each trc event becomes the records OTF2 has for it (a
 * blocking send is Enter and MpiSend at its SB, Leave at its SE, ...),
 * fed to a decoder of its own: what that decoder makes of the records
 * is what a reader will, so the writer adds to the event's carrying
 * record, as OTF2 attributes named trc:KEY, only the attributes the
 * records do not say (an RB's posted peer, a marker's iter=, a wait's
 * request list when it is not what the wait completed, ...), and the
 * attribute order when it is not the usual one.  The archive reads
 * back equal to the stream, and what other tools see is plain OTF2.
 */
#include <sys/stat.h>
#include <sys/types.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <otf2/otf2.h>

#include "fmt.h"

/* The writer's clock: 2^10 ticks per nanosecond, the events of one
 * nanosecond numbered in stream order below it. */
#define SUBBITS		10
#define SUBMAX		((1u << SUBBITS) - 1)
#define TICKS_PER_S	(UINT64_C(1000000000) << SUBBITS)
#define CHUNK		(256 * 1024)	/* event chunk (OTF2's least) */
#define DEFCHUNK	(4 * 1024 * 1024)
#define POOLCHUNKS	2		/* chunks a writer buffers, then flushes */
#define SLOTEV		4		/* events one slot may hold */
#define NATMAX		12

/* ---- libotf2's messages, kept instead of printed ----------------- */

static char o2msg[256];

static OTF2_ErrorCode
o2error(void *ud, const char *file, uint64_t line, const char *fn,
    OTF2_ErrorCode code, const char *fmt, va_list va)
{
	size_t n;

	(void)ud;
	(void)file;
	(void)line;
	(void)fn;
	if (o2msg[0] != '\0')
		return code;
	if (fmt != NULL && *fmt != '\0')
		vsnprintf(o2msg, sizeof(o2msg), fmt, va);
	/* A system error's message names the file: add why. */
	n = strlen(o2msg);
	if (n == 0 || (code >= OTF2_ERROR_E2BIG && code <= OTF2_ERROR_EXDEV &&
	    n + 4 < sizeof(o2msg)))
		snprintf(o2msg + n, sizeof(o2msg) - n, "%s%s", n ? ": " : "",
		    OTF2_Error_GetDescription(code));
	return code;
}

static void
o2reset(void)
{
	OTF2_Error_RegisterCallback(o2error, NULL);
	o2msg[0] = '\0';
}

/* The first message since o2reset, as "libotf2: could not ...". */
static const char *
o2why(OTF2_ErrorCode code)
{
	static char buf[300];
	size_t n;

	if (o2msg[0] == '\0')
		snprintf(o2msg, sizeof(o2msg), "%s",
		    OTF2_Error_GetDescription(code));
	n = (size_t)snprintf(buf, sizeof(buf), "libotf2: %s", o2msg);
	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	while (n > 9 && (buf[n - 1] == '!' || buf[n - 1] == '.' ||
	    buf[n - 1] == ' ' || buf[n - 1] == '\n'))
		buf[--n] = '\0';
	if (buf[9] >= 'A' && buf[9] <= 'Z' && !(buf[10] >= 'A' &&
	    buf[10] <= 'Z'))
		buf[9] = (char)(buf[9] - 'A' + 'a');
	return buf;
}

/* ---- regions: what an Enter and Leave are ------------------------ */

enum cls {
	K_USER,		/* PB PE */
	K_SEND,		/* blocking sends: SB SE */
	K_ISEND,	/* SB SE req= */
	K_RECV,		/* RB RE */
	K_IRECV,	/* RB req= */
	K_WAIT,		/* waits, tests, probes, sendrecv: WB WE */
	K_COLL,		/* XB XE */
	K_INIT,		/* MPI_Init: MK mark=init at its end */
	K_FINI,		/* MPI_Finalize: MK mark=finalize at its begin */
	K_OTHER		/* another MPI call: counted */
};

struct region {
	char		*name;		/* fn= of a user region */
	char		*op;		/* op=, or NULL */
	enum cls	 cls;
};

/* The descriptions the writer gives its regions, and their classes. */
static const char *const cls_desc[] = {
	"trc region", "trc send", "trc isend", "trc recv", "trc irecv",
	"trc wait", "trc collective"
};
#define NDESC	(sizeof(cls_desc) / sizeof(cls_desc[0]))

static const struct {
	const char	*name;		/* lower case, less "mpi_" */
	enum cls	 cls;
	const char	*op;
	int		 collop;	/* OTF2_COLLECTIVE_OP_*, or -1 */
	int		 role;		/* OTF2_REGION_ROLE_* */
} mpi_calls[] = {
	{ "send", K_SEND, NULL, -1, OTF2_REGION_ROLE_POINT2POINT },
	{ "ssend", K_SEND, "ssend", -1, OTF2_REGION_ROLE_POINT2POINT },
	{ "rsend", K_SEND, "rsend", -1, OTF2_REGION_ROLE_POINT2POINT },
	{ "bsend", K_SEND, "bsend", -1, OTF2_REGION_ROLE_POINT2POINT },
	{ "isend", K_ISEND, NULL, -1, OTF2_REGION_ROLE_POINT2POINT },
	{ "issend", K_ISEND, "issend", -1, OTF2_REGION_ROLE_POINT2POINT },
	{ "irsend", K_ISEND, "irsend", -1, OTF2_REGION_ROLE_POINT2POINT },
	{ "ibsend", K_ISEND, "ibsend", -1, OTF2_REGION_ROLE_POINT2POINT },
	{ "recv", K_RECV, NULL, -1, OTF2_REGION_ROLE_POINT2POINT },
	{ "irecv", K_IRECV, NULL, -1, OTF2_REGION_ROLE_POINT2POINT },
	{ "wait", K_WAIT, "wait", -1, OTF2_REGION_ROLE_FUNCTION },
	{ "waitall", K_WAIT, "waitall", -1, OTF2_REGION_ROLE_FUNCTION },
	{ "waitany", K_WAIT, "waitany", -1, OTF2_REGION_ROLE_FUNCTION },
	{ "waitsome", K_WAIT, "waitsome", -1, OTF2_REGION_ROLE_FUNCTION },
	{ "test", K_WAIT, "test", -1, OTF2_REGION_ROLE_FUNCTION },
	{ "testall", K_WAIT, "testall", -1, OTF2_REGION_ROLE_FUNCTION },
	{ "testany", K_WAIT, "testany", -1, OTF2_REGION_ROLE_FUNCTION },
	{ "testsome", K_WAIT, "testsome", -1, OTF2_REGION_ROLE_FUNCTION },
	{ "probe", K_WAIT, "probe", -1, OTF2_REGION_ROLE_FUNCTION },
	{ "sendrecv", K_WAIT, "sendrecv", -1, OTF2_REGION_ROLE_POINT2POINT },
	{ "sendrecv_replace", K_WAIT, "sendrecv", -1,
	    OTF2_REGION_ROLE_POINT2POINT },
	{ "barrier", K_COLL, "barrier", OTF2_COLLECTIVE_OP_BARRIER,
	    OTF2_REGION_ROLE_BARRIER },
	{ "bcast", K_COLL, "bcast", OTF2_COLLECTIVE_OP_BCAST,
	    OTF2_REGION_ROLE_COLL_ONE2ALL },
	{ "gather", K_COLL, "gather", OTF2_COLLECTIVE_OP_GATHER,
	    OTF2_REGION_ROLE_COLL_ALL2ONE },
	{ "gatherv", K_COLL, "gatherv", OTF2_COLLECTIVE_OP_GATHERV,
	    OTF2_REGION_ROLE_COLL_ALL2ONE },
	{ "scatter", K_COLL, "scatter", OTF2_COLLECTIVE_OP_SCATTER,
	    OTF2_REGION_ROLE_COLL_ONE2ALL },
	{ "scatterv", K_COLL, "scatterv", OTF2_COLLECTIVE_OP_SCATTERV,
	    OTF2_REGION_ROLE_COLL_ONE2ALL },
	{ "allgather", K_COLL, "allgather", OTF2_COLLECTIVE_OP_ALLGATHER,
	    OTF2_REGION_ROLE_COLL_ALL2ALL },
	{ "allgatherv", K_COLL, "allgatherv", OTF2_COLLECTIVE_OP_ALLGATHERV,
	    OTF2_REGION_ROLE_COLL_ALL2ALL },
	{ "alltoall", K_COLL, "alltoall", OTF2_COLLECTIVE_OP_ALLTOALL,
	    OTF2_REGION_ROLE_COLL_ALL2ALL },
	{ "alltoallv", K_COLL, "alltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV,
	    OTF2_REGION_ROLE_COLL_ALL2ALL },
	{ "alltoallw", K_COLL, "alltoallw", OTF2_COLLECTIVE_OP_ALLTOALLW,
	    OTF2_REGION_ROLE_COLL_ALL2ALL },
	{ "allreduce", K_COLL, "allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE,
	    OTF2_REGION_ROLE_COLL_ALL2ALL },
	{ "reduce", K_COLL, "reduce", OTF2_COLLECTIVE_OP_REDUCE,
	    OTF2_REGION_ROLE_COLL_ALL2ONE },
	{ "reduce_scatter", K_COLL, "reduce_scatter",
	    OTF2_COLLECTIVE_OP_REDUCE_SCATTER, OTF2_REGION_ROLE_COLL_ALL2ALL },
	{ "reduce_scatter_block", K_COLL, "reduce_scatter_block",
	    OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK,
	    OTF2_REGION_ROLE_COLL_ALL2ALL },
	{ "scan", K_COLL, "scan", OTF2_COLLECTIVE_OP_SCAN,
	    OTF2_REGION_ROLE_COLL_OTHER },
	{ "exscan", K_COLL, "exscan", OTF2_COLLECTIVE_OP_EXSCAN,
	    OTF2_REGION_ROLE_COLL_OTHER },
	{ "init", K_INIT, NULL, -1, OTF2_REGION_ROLE_FUNCTION },
	{ "init_thread", K_INIT, NULL, -1, OTF2_REGION_ROLE_FUNCTION },
	{ "finalize", K_FINI, NULL, -1, OTF2_REGION_ROLE_FUNCTION },
};
#define NCALLS	(sizeof(mpi_calls) / sizeof(mpi_calls[0]))

static int
mpi_call(const char *lower)
{
	size_t i;

	for (i = 0; i < NCALLS; i++)
		if (strcmp(lower, mpi_calls[i].name) == 0)
			return (int)i;
	return -1;
}

/* "MPI_Waitall" less its "MPI_", in lower case; NULL when out of memory. */
static char *
lower_call(const char *name)
{
	char *s, *p;

	if ((s = strdup(strncmp(name, "MPI_", 4) == 0 ||
	    strncmp(name, "mpi_", 4) == 0 ? name + 4 : name)) == NULL)
		return NULL;
	for (p = s; *p != '\0'; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return s;
}

/* ---- attributes a record carries for trc ------------------------- */

struct xkv {
	uint32_t	 k, kl, v, vl;	/* offsets into buf */
};

struct xattrs {
	int		 n;
	struct xkv	 a[TRC_MAXATTR];
	int		 has_order;
	uint32_t	 o, ol;		/* the order: keys, "=" an extra */
	char		*buf;
	size_t		 len, cap;
};

static void
x_clear(struct xattrs *x)
{
	x->n = 0;
	x->has_order = 0;
	x->len = 0;
}

static int
x_put(struct xattrs *x, const char *s, size_t n, uint32_t *off)
{
	size_t cap;
	char *p;

	if (x->len + n + 1 > x->cap) {
		for (cap = x->cap ? x->cap : 256; cap < x->len + n + 1; cap *= 2)
			;
		if ((p = realloc(x->buf, cap)) == NULL)
			return -1;
		x->buf = p;
		x->cap = cap;
	}
	memcpy(x->buf + x->len, s, n);
	x->buf[x->len + n] = '\0';
	*off = (uint32_t)x->len;
	x->len += n + 1;
	return 0;
}

/* 0, -1 out of memory, -2 too many. */
static int
x_add(struct xattrs *x, const char *k, size_t kl, const char *v, size_t vl)
{
	struct xkv *a;

	if (x->n == TRC_MAXATTR)
		return -2;
	a = &x->a[x->n];
	if (x_put(x, k, kl, &a->k) < 0 || x_put(x, v, vl, &a->v) < 0)
		return -1;
	a->kl = (uint32_t)kl;
	a->vl = (uint32_t)vl;
	x->n++;
	return 0;
}

/* Appends ",v" to the last value (a list grows element by element). */
static int
x_append(struct xattrs *x, const char *v, size_t vl)
{
	struct xkv *a = &x->a[x->n - 1];
	uint32_t off;
	size_t cap;
	char *p;

	/* The last value ends the buffer: grow it in place. */
	if (a->v + a->vl + 1 != x->len) {
		if (x_put(x, x->buf + a->v, a->vl, &off) < 0)
			return -1;
		a->v = off;
	}
	if (x->len + vl + 1 > x->cap) {
		for (cap = x->cap; cap < x->len + vl + 1; cap *= 2)
			;
		if ((p = realloc(x->buf, cap)) == NULL)
			return -1;
		x->buf = p;
		x->cap = cap;
	}
	x->buf[x->len - 1] = ',';
	memcpy(x->buf + x->len, v, vl);
	x->len += vl;
	x->buf[x->len++] = '\0';
	a->vl += (uint32_t)vl + 1;
	return 0;
}

static struct xattrs *
x_dup(const struct xattrs *x)
{
	struct xattrs *c;

	if ((c = malloc(sizeof(*c))) == NULL)
		return NULL;
	*c = *x;
	c->cap = x->len ? x->len : 1;
	if ((c->buf = malloc(c->cap)) == NULL) {
		free(c);
		return NULL;
	}
	memcpy(c->buf, x->buf, x->len);
	return c;
}

static void
x_free(struct xattrs *x)
{
	if (x != NULL) {
		free(x->buf);
		free(x);
	}
}

/* ---- the attributes an event gets: the records' and the extras ---- */

struct nat {
	int		 n;
	struct {
		const char	*key;
		size_t		 off, len;
	} a[NATMAX];
	char		*buf;
	size_t		 len, cap;
};

static int
nat_grow(struct nat *na, size_t n)
{
	size_t cap;
	char *p;

	if (na->len + n <= na->cap)
		return 0;
	for (cap = na->cap ? na->cap : 256; cap < na->len + n; cap *= 2)
		;
	if ((p = realloc(na->buf, cap)) == NULL)
		return -1;
	na->buf = p;
	na->cap = cap;
	return 0;
}

static int
nat_str(struct nat *na, const char *key, const char *s, size_t len)
{
	if (na->n == NATMAX || nat_grow(na, len + 1) < 0)
		return -1;
	na->a[na->n].key = key;
	na->a[na->n].off = na->len;
	na->a[na->n].len = len;
	memcpy(na->buf + na->len, s, len);
	na->len += len;
	na->n++;
	return 0;
}

static int
nat_int(struct nat *na, const char *key, int64_t v)
{
	char num[24];

	if (v == TRC_ANY)
		return nat_str(na, key, "*", 1);
	return nat_str(na, key, num, trc_format_int(num, v));
}

static int
nat_list(struct nat *na, const char *key, const int64_t *v, size_t n)
{
	size_t i, len = 0, start;

	if (na->n == NATMAX || nat_grow(na, n * 21 + 1) < 0)
		return -1;
	start = na->len;
	for (i = 0; i < n; i++) {
		if (i > 0)
			na->buf[start + len++] = ',';
		len += trc_format_int(na->buf + start + len, v[i]);
	}
	na->a[na->n].key = key;
	na->a[na->n].off = start;
	na->a[na->n].len = len;
	na->len += len;
	na->n++;
	return 0;
}

/* The usual order of attributes, per kind, as libtrc-mpi and trc-gen
 * write them; other keys keep their order after these. */
static int
prio(enum trc_kind kind, const char *k, size_t kl)
{
	static const char *const pt[] = { "peer", "tag", "bytes", "comm",
	    "req", "op", NULL };
	static const char *const w[] = { "req", "peer", "tag", "bytes",
	    "comm", "op", NULL };
	static const char *const x[] = { "op", "bytes", "root", "comm",
	    "size", NULL };
	static const char *const p[] = { "fn", NULL };
	const char *const *t;
	int i;

	switch (kind) {
	case TRC_SB: case TRC_SE: case TRC_RB: case TRC_RE:
		t = pt;
		break;
	case TRC_WB: case TRC_WE:
		t = w;
		break;
	case TRC_XB: case TRC_XE:
		t = x;
		break;
	case TRC_PB: case TRC_PE:
		t = p;
		break;
	default:
		return 100;
	}
	for (i = 0; t[i] != NULL; i++)
		if (strlen(t[i]) == kl && memcmp(t[i], k, kl) == 0)
			return i;
	return 100;
}

/* key=value into the builder, which sets its field as the parser would. */
static void
eb_text(struct trc_evbuild *b, const char *k, size_t kl, const char *v,
    size_t vl)
{
	char key[64];

	if (kl >= sizeof(key)) {
		/* No field has a long name: the text alone. */
		char *big = strndup(k, kl);

		if (big == NULL)
			b->full = 1;
		else
			trc_eb_str(b, big, v, vl);
		free(big);
		return;
	}
	memcpy(key, k, kl);
	key[kl] = '\0';
	trc_eb_str(b, key, v, vl);
}

struct item {
	const char	*k, *v;
	size_t		 kl, vl;
	int		 p;
};

/*
 * The event of kind at t on rank: the records' attributes (na), with
 * the extras of x merged in the usual order, or in x's order.  0, or
 * -1 with a message in err.
 */
static int
build(struct trc_evbuild *b, struct trc_event *ev, const struct nat *na,
    const struct xattrs *x, enum trc_kind kind, int64_t t, int32_t rank,
    char *err, size_t errlen)
{
	struct item it[NATMAX + TRC_MAXATTR], tmp;
	int n = 0, i, j, used[NATMAX] = { 0 }, nx = 0;
	const char *o, *end, *tok;
	size_t tl;

	trc_eb_start(b, ev, t, rank, kind);
	if (x != NULL && x->has_order) {
		o = x->buf + x->o;
		end = o + x->ol;
		while (o < end) {
			for (tok = o; o < end && *o != ' '; o++)
				;
			tl = (size_t)(o - tok);
			if (o < end)
				o++;
			if (tl == 1 && tok[0] == '=') {
				if (nx == x->n)
					goto bad;
				it[n].k = x->buf + x->a[nx].k;
				it[n].kl = x->a[nx].kl;
				it[n].v = x->buf + x->a[nx].v;
				it[n].vl = x->a[nx].vl;
				nx++;
				n++;
				continue;
			}
			for (i = 0; i < na->n; i++)
				if (!used[i] && strlen(na->a[i].key) == tl &&
				    memcmp(na->a[i].key, tok, tl) == 0)
					break;
			if (i == na->n || n == NATMAX + TRC_MAXATTR)
				goto bad;
			used[i] = 1;
			it[n].k = na->a[i].key;
			it[n].kl = tl;
			it[n].v = na->buf + na->a[i].off;
			it[n].vl = na->a[i].len;
			n++;
		}
		if (nx != x->n)
			goto bad;
	} else {
		for (i = 0; i < na->n; i++) {
			it[n].k = na->a[i].key;
			it[n].kl = strlen(na->a[i].key);
			it[n].v = na->buf + na->a[i].off;
			it[n].vl = na->a[i].len;
			it[n].p = prio(kind, it[n].k, it[n].kl);
			n++;
		}
		for (i = 0; x != NULL && i < x->n; i++) {
			it[n].k = x->buf + x->a[i].k;
			it[n].kl = x->a[i].kl;
			it[n].v = x->buf + x->a[i].v;
			it[n].vl = x->a[i].vl;
			it[n].p = prio(kind, it[n].k, it[n].kl);
			n++;
		}
		/* Stable: insertion sort. */
		for (i = 1; i < n; i++)
			for (j = i; j > 0 && it[j - 1].p > it[j].p; j--) {
				tmp = it[j];
				it[j] = it[j - 1];
				it[j - 1] = tmp;
			}
	}
	for (i = 0; i < n; i++)
		eb_text(b, it[i].k, it[i].kl, it[i].v, it[i].vl);
	if (trc_eb_done(b) < 0) {
		snprintf(err, errlen, "%s", trc_eb_error(b) ? trc_eb_error(b) :
		    "event longer than a stream line");
		return -1;
	}
	return 0;
bad:
	snprintf(err, errlen, "attribute order '%.*s' does not fit the "
	    "event", (int)(x->ol > 60 ? 60 : x->ol), x->buf + x->o);
	return -1;
}

/* ---- the decoder: records in, events out --------------------------- */

struct msg {
	int32_t		 peer;		/* world rank, -1 unknown */
	int32_t		 comm;		/* trc's id, 0 the world */
	int32_t		 csize;		/* ranks in the communicator */
	int64_t		 tag;
	uint64_t	 bytes;
	uint64_t	 reqid;		/* OTF2's request id */
};

struct coll {
	int32_t		 comm, csize;
	int32_t		 root;		/* world rank, -1 none */
	int32_t		 me;		/* this rank in the communicator */
	uint64_t	 sent, recvd;
	int		 op;		/* OTF2_CollectiveOp (the writer's) */
};

enum rt {
	R_ENTER, R_LEAVE, R_SEND, R_ISEND, R_RECV, R_IRECV, R_IRECVREQ,
	R_ISENDDONE, R_CANCEL, R_COLLBEGIN, R_COLLEND, R_MARK
};

struct rec {
	enum rt		 type;
	int32_t		 rank;
	int64_t		 t;		/* ns */
	uint32_t	 region;
	struct msg	 m;
	struct coll	 c;
	const struct xattrs *x;		/* the record's trc attributes */
};

struct frame {
	uint32_t	 region;
	int64_t		 t;
	uint64_t	 slot;
	int		 pending;	/* its begin slot not yet filled */
	struct xattrs	*bx;		/* the Enter's trc attributes */
	int		 have_send, have_recv, have_coll, have_req;
	struct msg	 send, recv;
	struct coll	 coll;
	int64_t		 sreq, rreq;	/* trc's requests of the call */
	int64_t		*done;		/* requests a wait completed */
	size_t		 ndone, capdone;
};

struct drank {
	struct frame	*f;
	int		 n, cap;
	int64_t		 nextreq;	/* a foreign archive's numbering */
};

struct slot {
	int		 pending, n, i;
	struct trc_event *ev[SLOTEV];
};

struct rment {
	uint64_t	 id;
	int32_t		 rank, used;
	int64_t		 req;
};

struct dec {
	int		 trc;		/* the archive is trc's own */
	struct region	*reg;
	size_t		 nreg;
	struct drank	*rk;
	size_t		 nrk;
	struct slot	*q;		/* ring of 2^k slots */
	uint64_t	 head, tail;
	size_t		 qcap;
	struct rment	*rm;		/* open addressing, at most half full */
	size_t		 rmcap, rmn;
	struct nat	 na;
	struct trc_evbuild eb;
	struct trc_event ev;
	void		(*drop)(void *, const char *);
	void		*dropctx;
	int		 failed;
	char		 err[256];
};

static int
dfail(struct dec *d, const char *fmt, ...)
{
	va_list ap;

	if (!d->failed) {
		va_start(ap, fmt);
		vsnprintf(d->err, sizeof(d->err), fmt, ap);
		va_end(ap);
		d->failed = 1;
	}
	return -1;
}

static int
dnomem(struct dec *d)
{
	return dfail(d, "out of memory");
}

static void
ddrop(struct dec *d, const char *what)
{
	if (d->drop != NULL)
		d->drop(d->dropctx, what);
}

static void
ddropf(struct dec *d, const char *fmt, const char *name)
{
	char buf[300];

	snprintf(buf, sizeof(buf), fmt, name);
	ddrop(d, buf);
}

static int
dec_ranks(struct dec *d, size_t n)
{
	struct drank *p;
	size_t i, cap;

	if (n <= d->nrk)
		return 0;
	for (cap = d->nrk ? d->nrk : 8; cap < n; cap *= 2)
		;
	if ((p = realloc(d->rk, cap * sizeof(*p))) == NULL)
		return dnomem(d);
	for (i = d->nrk; i < cap; i++) {
		memset(&p[i], 0, sizeof(p[i]));
		p[i].nextreq = 1;
	}
	d->rk = p;
	d->nrk = cap;
	return 0;
}

static void
dec_free(struct dec *d)
{
	size_t i;
	int j;

	for (i = 0; i < d->nrk; i++) {
		for (j = 0; j < d->rk[i].cap; j++) {
			free(d->rk[i].f[j].done);
			x_free(d->rk[i].f[j].bx);
		}
		free(d->rk[i].f);
	}
	free(d->rk);
	for (; d->head < d->tail; d->head++) {
		struct slot *s = &d->q[d->head & (d->qcap - 1)];

		for (j = 0; j < s->n; j++)
			free(s->ev[j]);
	}
	free(d->q);
	free(d->rm);
	free(d->na.buf);
	memset(d, 0, sizeof(*d));
}

/* Requests of a foreign archive, renumbered per rank from 1. */
static size_t
rm_find(const struct dec *d, int32_t rank, uint64_t id)
{
	uint64_t h = (id ^ ((uint64_t)(uint32_t)rank << 40)) *
	    UINT64_C(0x9E3779B97F4A7C15);
	size_t i;

	for (i = (size_t)(h >> 20) & (d->rmcap - 1); d->rm[i].used;
	    i = (i + 1) & (d->rmcap - 1))
		if (d->rm[i].id == id && d->rm[i].rank == rank)
			return i;
	return i;
}

static int
rm_put(struct dec *d, int32_t rank, uint64_t id, int64_t req)
{
	struct rment *old = d->rm;
	size_t oldcap = d->rmcap, i, j;

	if (2 * (d->rmn + 1) > d->rmcap) {
		d->rmcap = oldcap ? 2 * oldcap : 64;
		if ((d->rm = calloc(d->rmcap, sizeof(*d->rm))) == NULL) {
			d->rm = old;
			d->rmcap = oldcap;
			return dnomem(d);
		}
		for (j = 0; j < oldcap; j++)
			if (old[j].used)
				d->rm[rm_find(d, old[j].rank, old[j].id)] = old[j];
		free(old);
	}
	i = rm_find(d, rank, id);
	if (!d->rm[i].used)
		d->rmn++;
	d->rm[i].used = 1;
	d->rm[i].id = id;
	d->rm[i].rank = rank;
	d->rm[i].req = req;
	return 0;
}

/* The request's number, forgotten (it completed): 1, or 0 unknown. */
static int
rm_take(struct dec *d, int32_t rank, uint64_t id, int64_t *req)
{
	size_t i, j, k;

	if (d->rmcap == 0)
		return 0;
	i = rm_find(d, rank, id);
	if (!d->rm[i].used)
		return 0;
	*req = d->rm[i].req;
	/* Backward-shift deletion keeps the probe chains whole. */
	d->rm[i].used = 0;
	d->rmn--;
	for (j = (i + 1) & (d->rmcap - 1); d->rm[j].used;
	    j = (j + 1) & (d->rmcap - 1)) {
		k = rm_find(d, d->rm[j].rank, d->rm[j].id);
		if (k != j) {
			d->rm[k] = d->rm[j];
			d->rm[j].used = 0;
		}
	}
	return 1;
}

/* A new request number for an Isend or Irecv. */
static int64_t
req_new(struct dec *d, int32_t rank, uint64_t id)
{
	int64_t req;

	if (d->trc)
		return (int64_t)id;
	req = d->rk[rank].nextreq++;
	if (rm_put(d, rank, id, req) < 0)
		return -1;
	return req;
}

/* The number of a request that completed. */
static int64_t
req_done(struct dec *d, int32_t rank, uint64_t id)
{
	int64_t req;

	if (d->trc)
		return (int64_t)id;
	if (rm_take(d, rank, id, &req))
		return req;
	return d->rk[rank].nextreq++;
}

/* Slots. */
static uint64_t
slot_new(struct dec *d, int pending)
{
	struct slot *q, *s;
	size_t cap, i;

	if (d->tail - d->head == d->qcap) {
		cap = d->qcap ? 2 * d->qcap : 256;
		if ((q = calloc(cap, sizeof(*q))) == NULL) {
			dnomem(d);
			return UINT64_MAX;
		}
		for (i = 0; d->head + i < d->tail; i++)
			q[(d->head + i) & (cap - 1)] =
			    d->q[(d->head + i) & (d->qcap - 1)];
		free(d->q);
		d->q = q;
		d->qcap = cap;
	}
	s = &d->q[d->tail & (d->qcap - 1)];
	s->pending = pending;
	s->n = s->i = 0;
	return d->tail++;
}

static struct slot *
slot_at(struct dec *d, uint64_t seq)
{
	return &d->q[seq & (d->qcap - 1)];
}

/* The event of d->na and x into slot seq. */
static int
emit(struct dec *d, uint64_t seq, enum trc_kind kind, int64_t t,
    int32_t rank, const struct xattrs *x)
{
	struct trc_event *c;
	struct slot *s;

	if (build(&d->eb, &d->ev, &d->na, x, kind, t, rank, d->err,
	    sizeof(d->err)) < 0) {
		d->failed = 1;
		return -1;
	}
	s = slot_at(d, seq);
	if (s->n == SLOTEV)
		return dfail(d, "internal error: slot full");
	if ((c = trc_event_dup(&d->ev)) == NULL)
		return dnomem(d);
	s->ev[s->n++] = c;
	return 0;
}

/* An event known at once, in a slot of its own. */
static int
point(struct dec *d, enum trc_kind kind, int64_t t, int32_t rank,
    const struct xattrs *x)
{
	uint64_t seq;

	if ((seq = slot_new(d, 0)) == UINT64_MAX)
		return -1;
	return emit(d, seq, kind, t, rank, x);
}

/* The next event out: 1, or 0 when the first slot is not filled. */
static int
dec_pop(struct dec *d, struct trc_event *ev)
{
	struct slot *s;
	int j;

	while (d->head < d->tail) {
		s = slot_at(d, d->head);
		if (s->pending)
			return 0;
		if (s->i < s->n) {
			memcpy(ev, s->ev[s->i], offsetof(struct trc_event, attr) +
			    (size_t)s->ev[s->i]->nattr * sizeof(ev->attr[0]));
			s->i++;
			return 1;
		}
		for (j = 0; j < s->n; j++)
			free(s->ev[j]);
		s->n = 0;
		d->head++;
	}
	return 0;
}

static void
nat_reset(struct dec *d)
{
	d->na.n = 0;
	d->na.len = 0;
}

static int
nat_msg(struct dec *d, const struct msg *m, int64_t req, const char *op)
{
	struct nat *na = &d->na;
	int rc = 0;

	if (m != NULL) {
		if (m->peer >= 0)
			rc |= nat_int(na, "peer", m->peer);
		rc |= nat_int(na, "tag", m->tag);
		if (m->bytes <= INT64_MAX)
			rc |= nat_int(na, "bytes", (int64_t)m->bytes);
		if (m->comm != 0)
			rc |= nat_int(na, "comm", m->comm);
	}
	if (req >= 0)
		rc |= nat_int(na, "req", req);
	if (op != NULL)
		rc |= nat_str(na, "op", op, strlen(op));
	return rc < 0 ? dnomem(d) : 0;
}

static int
nat_op(struct dec *d, const char *op)
{
	return op != NULL && nat_str(&d->na, "op", op, strlen(op)) < 0 ?
	    dnomem(d) : 0;
}

/* A collective's bytes= from Score-P's sizes, as libtrc-mpi counts. */
static int64_t
coll_bytes(const char *op, const struct coll *c)
{
	uint64_t n = c->csize > 0 ? (uint64_t)c->csize : 1, v;
	int64_t me = c->me;

	if (op == NULL)
		v = c->sent;
	else if (strcmp(op, "barrier") == 0)
		v = 0;
	else if (strcmp(op, "bcast") == 0 || strcmp(op, "scatter") == 0 ||
	    strcmp(op, "scatterv") == 0)
		v = c->recvd > 0 ? c->recvd : c->sent / n;
	else if (strcmp(op, "gather") == 0 || strcmp(op, "gatherv") == 0 ||
	    strcmp(op, "reduce") == 0)
		v = c->sent > 0 ? c->sent : c->recvd / n;
	else if (strcmp(op, "reduce_scatter") == 0 ||
	    strcmp(op, "reduce_scatter_block") == 0)
		v = c->sent;
	else if (strcmp(op, "scan") == 0)
		v = me >= 0 && (int64_t)n > me ? c->sent / (n - (uint64_t)me) :
		    c->sent;
	else if (strcmp(op, "exscan") == 0)
		v = me >= 0 && (int64_t)n > me + 1 ?
		    c->sent / (n - (uint64_t)me - 1) :
		    me > 0 ? c->recvd / (uint64_t)me : 0;
	else
		v = c->sent / n;
	return v > INT64_MAX ? -1 : (int64_t)v;
}

static int
nat_coll(struct dec *d, const struct region *g, const struct frame *f,
    int begin)
{
	struct nat *na = &d->na;
	const struct coll *c = &f->coll;
	int64_t bytes;
	int rc = 0;

	if (g->op != NULL)
		rc |= nat_str(na, "op", g->op, strlen(g->op));
	if (f->have_coll) {
		bytes = d->trc ? (c->sent > INT64_MAX ? -1 : (int64_t)c->sent) :
		    coll_bytes(g->op, c);
		if (bytes >= 0)
			rc |= nat_int(na, "bytes", bytes);
		if (c->root >= 0)
			rc |= nat_int(na, "root", c->root);
		if (c->comm != 0)
			rc |= nat_int(na, "comm", c->comm);
		if (begin && !d->trc && c->comm != 0 && c->csize > 0)
			rc |= nat_int(na, "size", c->csize);
	}
	return rc < 0 ? dnomem(d) : 0;
}

static int
nat_done(struct dec *d, const struct frame *f, const char *op)
{
	int rc = 0;

	if (f->ndone > 0)
		rc |= nat_list(&d->na, "req", f->done, f->ndone);
	if (op != NULL)
		rc |= nat_str(&d->na, "op", op, strlen(op));
	return rc < 0 ? dnomem(d) : 0;
}

static int
is_test(const char *op)
{
	return op != NULL && strncmp(op, "test", 4) == 0;
}

static int
is_sendrecv(const struct dec *d, const struct region *g)
{
	return !d->trc && g->cls == K_WAIT && g->op != NULL &&
	    strcmp(g->op, "sendrecv") == 0;
}

/* Fills a call's begin slot from what its records said. */
static int
resolve(struct dec *d, int32_t rank, struct frame *f)
{
	const struct region *g = &d->reg[f->region];
	int64_t two[2];
	size_t n;

	f->pending = 0;
	slot_at(d, f->slot)->pending = 0;
	nat_reset(d);
	switch (g->cls) {
	case K_SEND:
	case K_ISEND:
		if (!f->have_send && !d->trc)
			return 0;
		if (nat_msg(d, f->have_send ? &f->send : NULL,
		    g->cls == K_ISEND && f->have_send ? f->sreq : -1, g->op) < 0)
			return -1;
		return emit(d, f->slot, TRC_SB, f->t, rank, f->bx);
	case K_RECV:
		if (!f->have_recv && !d->trc)
			return 0;
		if (nat_msg(d, f->have_recv ? &f->recv : NULL, -1, NULL) < 0)
			return -1;
		return emit(d, f->slot, TRC_RB, f->t, rank, f->bx);
	case K_IRECV:
		if (!f->have_req && !d->trc)
			return 0;
		if (nat_msg(d, NULL, f->have_req ? f->rreq : -1, NULL) < 0)
			return -1;
		return emit(d, f->slot, TRC_RB, f->t, rank, f->bx);
	case K_WAIT:
		if (is_sendrecv(d, g)) {
			/* libtrc-mpi's shape: an Isend, an Irecv, a wait. */
			f->sreq = f->have_send ? d->rk[rank].nextreq++ : -1;
			f->rreq = f->have_recv ? d->rk[rank].nextreq++ : -1;
			if (f->have_send) {
				if (nat_msg(d, &f->send, f->sreq, NULL) < 0 ||
				    emit(d, f->slot, TRC_SB, f->t, rank, NULL) < 0 ||
				    emit(d, f->slot, TRC_SE, f->t, rank, NULL) < 0)
					return -1;
				nat_reset(d);
			}
			if (f->have_recv) {
				if (nat_msg(d, &f->recv, f->rreq, NULL) < 0 ||
				    emit(d, f->slot, TRC_RB, f->t, rank, NULL) < 0)
					return -1;
				nat_reset(d);
			}
			n = 0;
			if (f->have_send)
				two[n++] = f->sreq;
			if (f->have_recv)
				two[n++] = f->rreq;
			if (n > 0 && nat_list(&d->na, "req", two, n) < 0)
				return dnomem(d);
			if (nat_op(d, g->op) < 0)
				return -1;
			return emit(d, f->slot, TRC_WB, f->t, rank, NULL);
		}
		if (!d->trc && f->ndone == 0 && is_test(g->op)) {
			ddropf(d, "%s call that completed nothing",
			    g->name);
			return 0;
		}
		if (nat_done(d, f, g->op) < 0)
			return -1;
		return emit(d, f->slot, TRC_WB, f->t, rank, f->bx);
	case K_COLL:
		if (nat_coll(d, g, f, 1) < 0)
			return -1;
		return emit(d, f->slot, TRC_XB, f->t, rank, f->bx);
	default:
		return 0;
	}
}

/* The innermost open frame a record belongs to, or -1. */
static int
frame_for(struct dec *d, int32_t rank, unsigned accept)
{
	struct drank *k = &d->rk[rank];
	enum cls c;
	int i;

	for (i = k->n - 1; i >= 0; i--) {
		c = d->reg[k->f[i].region].cls;
		if (accept & (1u << c))
			return i;
		if (c == K_OTHER || c == K_INIT || c == K_FINI)
			return -1;
	}
	return -1;
}

#define B(c)	(1u << (c))

static int
dec_enter(struct dec *d, const struct rec *r)
{
	struct drank *k = &d->rk[r->rank];
	const struct region *g = &d->reg[r->region];
	struct frame *f, *nf;
	int cap;

	if (k->n == k->cap) {
		cap = k->cap ? 2 * k->cap : 8;
		if ((nf = realloc(k->f, (size_t)cap * sizeof(*nf))) == NULL)
			return dnomem(d);
		memset(nf + k->cap, 0, (size_t)(cap - k->cap) * sizeof(*nf));
		k->f = nf;
		k->cap = cap;
	}
	f = &k->f[k->n++];
	f->region = r->region;
	f->t = r->t;
	f->pending = 0;
	f->have_send = f->have_recv = f->have_coll = f->have_req = 0;
	f->sreq = f->rreq = -1;
	f->ndone = 0;
	x_free(f->bx);
	f->bx = NULL;
	nat_reset(d);
	switch (g->cls) {
	case K_USER:
		if (nat_str(&d->na, "fn", g->name, strlen(g->name)) < 0)
			return dnomem(d);
		return point(d, TRC_PB, r->t, r->rank, r->x);
	case K_RECV:
		if (d->trc)
			return point(d, TRC_RB, r->t, r->rank, r->x);
		break;
	case K_INIT:
		return 0;
	case K_FINI:
		if (nat_str(&d->na, "mark", "finalize", 8) < 0)
			return dnomem(d);
		return point(d, TRC_MK, r->t, r->rank, NULL);
	case K_OTHER:
		ddropf(d, "%s call", g->name);
		return 0;
	default:
		break;
	}
	if (r->x != NULL && (r->x->n > 0 || r->x->has_order) &&
	    (f->bx = x_dup(r->x)) == NULL)
		return dnomem(d);
	if ((f->slot = slot_new(d, 1)) == UINT64_MAX)
		return -1;
	f->pending = 1;
	return 0;
}

static int
dec_leave(struct dec *d, const struct rec *r)
{
	struct drank *k = &d->rk[r->rank];
	const struct region *g = &d->reg[r->region];
	struct frame f;
	int i, two;
	int64_t req[2];

	for (i = k->n - 1; i >= 0 && k->f[i].region != r->region; i--)
		;
	nat_reset(d);
	if (i < 0) {
		/* A Leave with no Enter: the end alone. */
		switch (g->cls) {
		case K_USER:
			if (nat_str(&d->na, "fn", g->name, strlen(g->name)) < 0)
				return dnomem(d);
			return point(d, TRC_PE, r->t, r->rank, r->x);
		case K_INIT: case K_FINI: case K_OTHER:
			return 0;
		default:
			break;
		}
		if (!d->trc) {
			ddropf(d, "LEAVE of %s without its ENTER", g->name);
			return 0;
		}
		switch (g->cls) {
		case K_SEND: case K_ISEND:
			return nat_op(d, g->op) < 0 ? -1 :
			    point(d, TRC_SE, r->t, r->rank, r->x);
		case K_RECV:
			return point(d, TRC_RE, r->t, r->rank, r->x);
		case K_WAIT:
			return nat_op(d, g->op) < 0 ? -1 :
			    point(d, TRC_WE, r->t, r->rank, r->x);
		case K_COLL:
			return nat_op(d, g->op) < 0 ? -1 :
			    point(d, TRC_XE, r->t, r->rank, r->x);
		default:
			return 0;
		}
	}
	/* Out of the stack, the frames above it kept in order. */
	f = k->f[i];
	memmove(&k->f[i], &k->f[i + 1], (size_t)(k->n - i - 1) * sizeof(f));
	k->n--;
	k->f[k->n] = f;		/* its buffers stay for reuse */
	if (f.pending && resolve(d, r->rank, &f) < 0)
		return -1;
	nat_reset(d);
	switch (g->cls) {
	case K_USER:
		if (nat_str(&d->na, "fn", g->name, strlen(g->name)) < 0)
			return dnomem(d);
		return point(d, TRC_PE, r->t, r->rank, r->x);
	case K_SEND:
	case K_ISEND:
		if (!f.have_send && !d->trc) {
			ddropf(d, "%s call with no message", g->name);
			return 0;
		}
		if (nat_msg(d, f.have_send ? &f.send : NULL,
		    g->cls == K_ISEND && f.have_send ? f.sreq : -1, g->op) < 0)
			return -1;
		return point(d, TRC_SE, r->t, r->rank, r->x);
	case K_RECV:
		if (!f.have_recv && !d->trc) {
			ddropf(d, "%s call with no message", g->name);
			return 0;
		}
		if (nat_msg(d, f.have_recv ? &f.recv : NULL, -1, NULL) < 0)
			return -1;
		return point(d, TRC_RE, r->t, r->rank, r->x);
	case K_IRECV:
		if (!f.have_req && !d->trc)
			ddropf(d, "%s call with no request", g->name);
		return 0;
	case K_WAIT:
		if (is_sendrecv(d, g)) {
			if (f.have_recv) {
				if (nat_msg(d, &f.recv, f.rreq, NULL) < 0 ||
				    point(d, TRC_RE, r->t, r->rank, NULL) < 0)
					return -1;
				nat_reset(d);
			}
			two = 0;
			if (f.have_send)
				req[two++] = f.sreq;
			if (f.have_recv)
				req[two++] = f.rreq;
			if ((two > 0 && nat_list(&d->na, "req", req,
			    (size_t)two) < 0) || nat_op(d, g->op) < 0)
				return dnomem(d);
			return point(d, TRC_WE, r->t, r->rank, r->x);
		}
		if (!d->trc && f.ndone == 0 && is_test(g->op))
			return 0;
		if (nat_done(d, &f, g->op) < 0)
			return -1;
		return point(d, TRC_WE, r->t, r->rank, r->x);
	case K_COLL:
		if (nat_coll(d, g, &f, 0) < 0)
			return -1;
		return point(d, TRC_XE, r->t, r->rank, r->x);
	case K_INIT:
		if (nat_str(&d->na, "mark", "init", 4) < 0)
			return dnomem(d);
		return point(d, TRC_MK, r->t, r->rank, NULL);
	default:
		return 0;
	}
}

static int
add_done(struct dec *d, int32_t rank, int64_t req)
{
	struct frame *f;
	int64_t *p;
	size_t cap;
	int i;

	if ((i = frame_for(d, rank, B(K_WAIT))) < 0)
		return 0;
	f = &d->rk[rank].f[i];
	if (f->ndone == f->capdone) {
		cap = f->capdone ? 2 * f->capdone : 8;
		if ((p = realloc(f->done, cap * sizeof(*p))) == NULL)
			return dnomem(d);
		f->done = p;
		f->capdone = cap;
	}
	f->done[f->ndone++] = req;
	return 0;
}

/* A message record outside any call: its call's events at its time. */
static int
lone(struct dec *d, const struct rec *r, enum trc_kind b, enum trc_kind e,
    int64_t req)
{
	nat_reset(d);
	if (nat_msg(d, &r->m, req, NULL) < 0 || point(d, b, r->t, r->rank,
	    NULL) < 0)
		return -1;
	return e == TRC_NKINDS ? 0 : point(d, e, r->t, r->rank, r->x);
}

/* One record of one rank, in time order: 0, or -1 with d->err. */
static int
dec_rec(struct dec *d, const struct rec *r)
{
	struct frame *f;
	int64_t req;
	unsigned acc;
	int i;

	if (d->failed)
		return -1;
	switch (r->type) {
	case R_ENTER:
		return dec_enter(d, r);
	case R_LEAVE:
		return dec_leave(d, r);
	case R_SEND:
	case R_ISEND:
		acc = B(K_SEND) | B(K_ISEND) | (d->trc ? 0 : B(K_WAIT));
		if ((i = frame_for(d, r->rank, acc)) < 0) {
			if (d->trc)
				return 0;
			req = r->type == R_ISEND ?
			    req_new(d, r->rank, r->m.reqid) : -1;
			return d->failed ? -1 : lone(d, r, TRC_SB, TRC_SE, req);
		}
		f = &d->rk[r->rank].f[i];
		f->send = r->m;
		f->have_send = 1;
		if (r->type == R_ISEND &&
		    d->reg[f->region].cls == K_ISEND &&
		    (f->sreq = req_new(d, r->rank, r->m.reqid)) < 0 && !d->trc)
			return -1;
		if (f->pending && d->reg[f->region].cls != K_WAIT)
			return resolve(d, r->rank, f);
		return 0;
	case R_RECV:
		acc = B(K_RECV) | (d->trc ? 0 : B(K_WAIT));
		if ((i = frame_for(d, r->rank, acc)) < 0)
			return d->trc ? 0 : lone(d, r, TRC_RB, TRC_RE, -1);
		f = &d->rk[r->rank].f[i];
		f->recv = r->m;
		f->have_recv = 1;
		if (f->pending && d->reg[f->region].cls == K_RECV)
			return resolve(d, r->rank, f);
		return 0;
	case R_IRECVREQ:
		if ((i = frame_for(d, r->rank, B(K_IRECV))) < 0) {
			if (d->trc)
				return 0;
			if ((req = req_new(d, r->rank, r->m.reqid)) < 0)
				return -1;
			nat_reset(d);
			if (nat_int(&d->na, "req", req) < 0)
				return dnomem(d);
			return point(d, TRC_RB, r->t, r->rank, NULL);
		}
		f = &d->rk[r->rank].f[i];
		if ((f->rreq = req_new(d, r->rank, r->m.reqid)) < 0 && !d->trc)
			return -1;
		f->have_req = 1;
		return f->pending ? resolve(d, r->rank, f) : 0;
	case R_IRECV:
		req = req_done(d, r->rank, r->m.reqid);
		if (d->failed)
			return -1;
		nat_reset(d);
		if (nat_msg(d, &r->m, req, NULL) < 0 ||
		    point(d, TRC_RE, r->t, r->rank, r->x) < 0)
			return -1;
		return add_done(d, r->rank, req);
	case R_ISENDDONE:
		req = req_done(d, r->rank, r->m.reqid);
		return d->failed ? -1 : add_done(d, r->rank, req);
	case R_CANCEL:
		rm_take(d, r->rank, r->m.reqid, &req);
		ddrop(d, "MPI_REQUEST_CANCELLED event");
		return 0;
	case R_COLLBEGIN:
		return 0;
	case R_COLLEND:
		if ((i = frame_for(d, r->rank, B(K_COLL))) >= 0) {
			f = &d->rk[r->rank].f[i];
			f->coll = r->c;
			f->have_coll = 1;
		}
		return 0;
	case R_MARK:
		nat_reset(d);
		return point(d, TRC_MK, r->t, r->rank, r->x);
	}
	return 0;
}

/* The end of the records: calls still open are filled as they are. */
static int
dec_end(struct dec *d)
{
	struct drank *k;
	struct frame *f;
	size_t i;
	int j;

	for (i = 0; i < d->nrk; i++) {
		k = &d->rk[i];
		for (j = k->n - 1; j >= 0; j--) {
			f = &k->f[j];
			if (!d->trc && d->reg[f->region].cls != K_USER)
				ddropf(d, "%s call not finished at the end",
				    d->reg[f->region].name);
			if (f->pending && resolve(d, (int32_t)i, f) < 0)
				return -1;
		}
		k->n = 0;
	}
	return 0;
}

/* ================================================================ */
/* Reading. */

enum acls { A_FOREIGN, A_INT, A_TIME, A_TEXT, A_LIST, A_ORDER };

struct odef {			/* what the global definitions say */
	char		**str;
	size_t		  nstr;
	struct {
		uint32_t name, desc;
		int	 paradigm, defined;
	}		 *reg;
	size_t		  nreg;
	struct {
		uint64_t *m;
		uint32_t  n;
		int	  type, paradigm, defined;
	}		 *grp;
	size_t		  ngrp;
	struct {
		uint32_t name, group;
		int	 defined;
	}		 *comm;
	size_t		  ncomm;
	struct {
		uint32_t name, desc;
		int	 type, defined;
	}		 *attr;
	size_t		  nattr;
	struct {
		uint32_t name;
		int	 defined;
	}		 *par;
	size_t		  npar;
	struct {
		uint32_t name, group;
		int	 type;
		uint64_t nev;
	}		 *lg;		/* location groups: type, name */
	size_t		  nlg;
	int		  have_clock;
	uint64_t	  tps, offset;
	uint64_t	  ndef;		/* definitions read, locations aside */
};

struct oloc {			/* a location */
	uint64_t	 id;
	uint32_t	 name, group;
	int		 type;
	uint64_t	 nev;
	int32_t		 rank;		/* -1: not a rank */
	struct rd	*rd;
	OTF2_EvtReader	*er;
	uint64_t	 pos;		/* events read */
	uint64_t	 tick, last;	/* the next record's, the last one's */
	int		 have, eof;
	struct rec	 rec;
	struct xattrs	 x;
};

struct ocomm {			/* a communicator, as ranks */
	int		 defined, self;
	int32_t		 id;		/* trc's */
	int32_t		*world;		/* rank of each member, -1 none */
	uint32_t	 n;
};

struct oattr {
	enum acls	 cls;
	char		*key;
	uint32_t	 index;		/* a list element's */
	int		 type;
	char		*label;		/* "attribute NAME" */
};

struct rd {
	struct trc_reader *r;
	OTF2_Reader	*o;
	const char	*name;
	struct odef	 def;
	struct oloc	*loc;
	size_t		 nloc;
	struct oloc	**heap;
	size_t		 nheap;
	struct ocomm	*comm;
	size_t		 ncomm;
	struct oattr	*attr;
	uint32_t	 marker;	/* the marker parameter, or UNDEFINED */
	int32_t		 nranks;
	struct dec	 dec;
	int		 trc, ended, failed;
	uint64_t	 nout;
	char		*extra;
};

static int
rfail(struct rd *d, const char *fmt, ...)
{
	char buf[TRC_ERRLEN + 256];
	va_list ap;

	if (d->failed)
		return -1;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	d->failed = 1;
	return trc_fail_at(d->r, d->name, 0, "%s", buf);
}

static int
rnomem(struct rd *d)
{
	return rfail(d, "out of memory");
}

/*
 * Grows an array of definitions to hold ref.  The arrays are indexed
 * by id, so their memory follows the largest id: an id is at most
 * DEFSLACK past 4 times the definitions read before it.  OTF2's ids
 * of each kind count from 0 (otf2-print warns of one out of order);
 * one region of id 15204613 alone made the reader take 1.2 GB and
 * 2 s (fuzz/regress/otf2/region-id-15204613).
 */
#define DEFSLACK	65536

static int
def_grow(struct rd *d, void **v, size_t *n, size_t size, uint64_t ref)
{
	size_t cap;
	char *p;

	d->def.ndef++;
	if (ref < *n)
		return 0;
	if (ref >= (1u << 24) || ref > DEFSLACK + 4 * (d->def.ndef - 1))
		return rfail(d, "definition id %llu too large after %llu "
		    "definitions", (unsigned long long)ref,
		    (unsigned long long)d->def.ndef - 1);
	for (cap = *n ? *n : 16; cap <= ref; cap *= 2)
		;
	if ((p = realloc(*v, cap * size)) == NULL)
		return rnomem(d);
	memset(p + *n * size, 0, (cap - *n) * size);
	*v = p;
	*n = cap;
	return 0;
}

#define GROW(d, arr, n, ref) \
	def_grow((d), (void **)&(arr), &(n), sizeof(*(arr)), (ref))

static const char *
dstr(const struct rd *d, uint32_t ref)
{
	if (ref < d->def.nstr && d->def.str[ref] != NULL)
		return d->def.str[ref];
	return "";
}

static OTF2_CallbackCode
cb_string(void *u, OTF2_StringRef self, const char *s)
{
	struct rd *d = u;

	if (GROW(d, d->def.str, d->def.nstr, self) < 0)
		return OTF2_CALLBACK_INTERRUPT;
	free(d->def.str[self]);
	if ((d->def.str[self] = strdup(s)) == NULL) {
		rnomem(d);
		return OTF2_CALLBACK_INTERRUPT;
	}
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
cb_clock(void *u, uint64_t res, uint64_t off, uint64_t len, uint64_t real)
{
	struct rd *d = u;

	(void)len;
	(void)real;
	d->def.have_clock = 1;
	d->def.tps = res;
	d->def.offset = off;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
cb_region(void *u, OTF2_RegionRef self, OTF2_StringRef name,
    OTF2_StringRef canon, OTF2_StringRef desc, OTF2_RegionRole role,
    OTF2_Paradigm paradigm, OTF2_RegionFlag flags, OTF2_StringRef file,
    uint32_t begin, uint32_t end)
{
	struct rd *d = u;

	(void)canon;
	(void)role;
	(void)flags;
	(void)file;
	(void)begin;
	(void)end;
	if (GROW(d, d->def.reg, d->def.nreg, self) < 0)
		return OTF2_CALLBACK_INTERRUPT;
	d->def.reg[self].name = name;
	d->def.reg[self].desc = desc;
	d->def.reg[self].paradigm = paradigm;
	d->def.reg[self].defined = 1;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
cb_group(void *u, OTF2_GroupRef self, OTF2_StringRef name,
    OTF2_GroupType type, OTF2_Paradigm paradigm, OTF2_GroupFlag flags,
    uint32_t n, const uint64_t *members)
{
	struct rd *d = u;

	(void)name;
	(void)flags;
	if (GROW(d, d->def.grp, d->def.ngrp, self) < 0)
		return OTF2_CALLBACK_INTERRUPT;
	free(d->def.grp[self].m);
	d->def.grp[self].m = NULL;
	if (n > 0 && (d->def.grp[self].m = malloc(n * sizeof(*members))) ==
	    NULL) {
		rnomem(d);
		return OTF2_CALLBACK_INTERRUPT;
	}
	if (n > 0)
		memcpy(d->def.grp[self].m, members, n * sizeof(*members));
	d->def.grp[self].n = n;
	d->def.grp[self].type = type;
	d->def.grp[self].paradigm = paradigm;
	d->def.grp[self].defined = 1;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
cb_comm(void *u, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group,
    OTF2_CommRef parent, OTF2_CommFlag flags)
{
	struct rd *d = u;

	(void)parent;
	(void)flags;
	if (GROW(d, d->def.comm, d->def.ncomm, self) < 0)
		return OTF2_CALLBACK_INTERRUPT;
	d->def.comm[self].name = name;
	d->def.comm[self].group = group;
	d->def.comm[self].defined = 1;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
cb_attribute(void *u, OTF2_AttributeRef self, OTF2_StringRef name,
    OTF2_StringRef desc, OTF2_Type type)
{
	struct rd *d = u;

	if (GROW(d, d->def.attr, d->def.nattr, self) < 0)
		return OTF2_CALLBACK_INTERRUPT;
	d->def.attr[self].name = name;
	d->def.attr[self].desc = desc;
	d->def.attr[self].type = type;
	d->def.attr[self].defined = 1;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
cb_parameter(void *u, OTF2_ParameterRef self, OTF2_StringRef name,
    OTF2_ParameterType type)
{
	struct rd *d = u;

	(void)type;
	if (GROW(d, d->def.par, d->def.npar, self) < 0)
		return OTF2_CALLBACK_INTERRUPT;
	d->def.par[self].name = name;
	d->def.par[self].defined = 1;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
cb_lgroup(void *u, OTF2_LocationGroupRef self, OTF2_StringRef name,
    OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef parent,
    OTF2_LocationGroupRef creator)
{
	struct rd *d = u;

	(void)parent;
	(void)creator;
	if (GROW(d, d->def.lg, d->def.nlg, self) < 0)
		return OTF2_CALLBACK_INTERRUPT;
	d->def.lg[self].name = name;
	d->def.lg[self].type = type;
	d->def.lg[self].nev = 1;	/* defined */
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
cb_location(void *u, OTF2_LocationRef self, OTF2_StringRef name,
    OTF2_LocationType type, uint64_t nev, OTF2_LocationGroupRef group)
{
	struct rd *d = u;
	struct oloc *p;
	size_t i;

	for (i = 0; i < d->nloc; i++)
		if (d->loc[i].id == self)
			return OTF2_CALLBACK_SUCCESS;
	if ((d->nloc & (d->nloc - 1)) == 0) {
		if ((p = realloc(d->loc, (d->nloc ? 2 * d->nloc : 4) *
		    sizeof(*p))) == NULL) {
			rnomem(d);
			return OTF2_CALLBACK_INTERRUPT;
		}
		d->loc = p;
	}
	p = &d->loc[d->nloc++];
	memset(p, 0, sizeof(*p));
	p->id = self;
	p->name = name;
	p->type = type;
	p->nev = nev;
	p->group = group;
	p->rank = -1;
	p->rd = d;
	return OTF2_CALLBACK_SUCCESS;
}

static struct oloc *
loc_by_id(struct rd *d, uint64_t id)
{
	size_t i;

	for (i = 0; i < d->nloc; i++)
		if (d->loc[i].id == id)
			return &d->loc[i];
	return NULL;
}

/* The group of MPI's locations (COMM_LOCATIONS), or -1. */
static int64_t
mpi_locations(const struct rd *d)
{
	size_t i;

	for (i = 0; i < d->def.ngrp; i++)
		if (d->def.grp[i].defined &&
		    d->def.grp[i].type == OTF2_GROUP_TYPE_COMM_LOCATIONS &&
		    d->def.grp[i].paradigm == OTF2_PARADIGM_MPI)
			return (int64_t)i;
	return -1;
}

/* Ranks: MPI_COMM_WORLD's members; without MPI, the processes. */
static int
find_ranks(struct rd *d)
{
	int64_t gl = mpi_locations(d), world = -1;
	struct oloc *l;
	uint64_t idx;
	uint32_t i, n;
	size_t c, j;

	if (gl >= 0) {
		for (c = 0; c < d->def.ncomm && world < 0; c++)
			if (d->def.comm[c].defined &&
			    strcmp(dstr(d, d->def.comm[c].name),
			    "MPI_COMM_WORLD") == 0)
				world = (int64_t)c;
		/* A world whose group is not defined: the locations (a
		 * group below ngrp may be undefined too: fuzz/regress/otf2/
		 * world-group-undefined made no ranks of it). */
		if (world >= 0 && (d->def.comm[world].group >= d->def.ngrp ||
		    !d->def.grp[d->def.comm[world].group].defined))
			world = -1;
		n = world >= 0 ? d->def.grp[d->def.comm[world].group].n :
		    d->def.grp[gl].n;
		for (i = 0; i < n; i++) {
			idx = world >= 0 ?
			    d->def.grp[d->def.comm[world].group].m[i] : i;
			if (idx >= d->def.grp[gl].n ||
			    (l = loc_by_id(d, d->def.grp[gl].m[idx])) == NULL)
				return rfail(d, "rank %u of MPI_COMM_WORLD is "
				    "no location", i);
			l->rank = (int32_t)i;
		}
		d->nranks = (int32_t)n;
	} else {
		/* Each process's first location, processes by id. */
		for (c = 0; c < d->def.nlg; c++) {
			if (d->def.lg[c].nev == 0 ||
			    d->def.lg[c].type != OTF2_LOCATION_GROUP_TYPE_PROCESS)
				continue;
			for (j = 0; j < d->nloc; j++)
				if (d->loc[j].group == c)
					break;
			if (j < d->nloc)
				d->loc[j].rank = d->nranks++;
		}
	}
	if (d->nranks == 0)
		return rfail(d, "no MPI ranks or processes in the archive");
	return 0;
}

/*
 * The next number of a property trc wrote ("%d" of what the stream
 * allows, blank-separated) into *v: 0, 1 at the end, -1 when it is
 * anything else or past INT32_MAX.
 */
static int
prop_int(const char **s, int32_t *v)
{
	const char *p = *s;
	int64_t n = 0;

	while (*p == ' ')
		p++;
	*s = p;
	if (*p == '\0')
		return 1;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((n = n * 10 + (*p - '0')) > INT32_MAX)
			return -1;
	if (*p != ' ' && *p != '\0')
		return -1;
	*v = (int32_t)n;
	*s = p;
	return 0;
}

/* A stream's extra header: lines of '#', each ending in a newline. */
static int
header_lines(const char *s)
{
	const char *nl;

	for (; *s != '\0'; s = nl + 1)
		if (*s != '#' || (nl = strchr(s, '\n')) == NULL)
			return 0;
	return 1;
}

/* Communicators as ranks; ids from TRC::COMMS in trc's archives. */
static int
find_comms(struct rd *d, const char *ids)
{
	int64_t gl = mpi_locations(d);
	struct ocomm *oc;
	struct oloc *l;
	uint64_t idx;
	uint32_t i;
	size_t c;
	int32_t v;
	int rc;

	d->ncomm = d->def.ncomm;
	if (d->ncomm > 0 && (d->comm = calloc(d->ncomm, sizeof(*d->comm))) ==
	    NULL)
		return rnomem(d);
	for (c = 0; c < d->ncomm; c++) {
		oc = &d->comm[c];
		if (!d->def.comm[c].defined ||
		    d->def.comm[c].group >= d->def.ngrp ||
		    !d->def.grp[d->def.comm[c].group].defined)
			continue;
		oc->defined = 1;
		if (ids != NULL) {
			/* A communicator defined past the ids: its ref. */
			if ((rc = prop_int(&ids, &v)) < 0)
				return rfail(d, "property TRC::COMMS: invalid "
				    "communicator id '%.40s'", ids);
			oc->id = rc == 0 ? v : (int32_t)c;
		} else
			oc->id = strcmp(dstr(d, d->def.comm[c].name),
			    "MPI_COMM_WORLD") == 0 ? 0 : (int32_t)c + 1;
		if (d->def.grp[d->def.comm[c].group].type ==
		    OTF2_GROUP_TYPE_COMM_SELF) {
			oc->self = 1;
			oc->n = 1;
			continue;
		}
		oc->n = d->def.grp[d->def.comm[c].group].n;
		if (oc->n > 0 && (oc->world = malloc(oc->n *
		    sizeof(*oc->world))) == NULL)
			return rnomem(d);
		for (i = 0; i < oc->n; i++) {
			idx = d->def.grp[d->def.comm[c].group].m[i];
			if (d->def.grp[d->def.comm[c].group].type ==
			    OTF2_GROUP_TYPE_COMM_GROUP && gl >= 0)
				idx = idx < d->def.grp[gl].n ?
				    d->def.grp[gl].m[idx] : UINT64_MAX;
			l = loc_by_id(d, idx);
			oc->world[i] = l != NULL ? l->rank : -1;
		}
	}
	return 0;
}

static int
find_attrs(struct rd *d)
{
	struct oattr *a;
	const char *name, *desc, *p;
	char buf[300];
	size_t i;

	if (d->def.nattr > 0 &&
	    (d->attr = calloc(d->def.nattr, sizeof(*d->attr))) == NULL)
		return rnomem(d);
	for (i = 0; i < d->def.nattr; i++) {
		a = &d->attr[i];
		if (!d->def.attr[i].defined)
			continue;
		name = dstr(d, d->def.attr[i].name);
		desc = dstr(d, d->def.attr[i].desc);
		a->type = d->def.attr[i].type;
		a->cls = A_FOREIGN;
		if (d->trc && strcmp(name, "trc attribute order") == 0 &&
		    a->type == OTF2_TYPE_STRING)
			a->cls = A_ORDER;
		else if (d->trc && strncmp(name, "trc:", 4) == 0 &&
		    name[4] != '\0' && name[4 + strcspn(name + 4,
		    " \t\r\n=")] == '\0') {	/* a key the stream can say */
			if (a->type == OTF2_TYPE_INT64 &&
			    (p = strstr(desc, "list element ")) != NULL) {
				a->cls = A_LIST;
				a->index = (uint32_t)strtoul(p + 13, NULL, 10);
			} else if (a->type == OTF2_TYPE_INT64)
				a->cls = A_INT;
			else if (a->type == OTF2_TYPE_UINT64)
				a->cls = A_TIME;
			else if (a->type == OTF2_TYPE_STRING)
				a->cls = A_TEXT;
		}
		if (a->cls != A_FOREIGN && (a->key = strdup(name + 4)) == NULL)
			return rnomem(d);
		snprintf(buf, sizeof(buf), "attribute %s", name);
		if ((a->label = strdup(buf)) == NULL)
			return rnomem(d);
	}
	return 0;
}

/* The decoder's regions from the definitions. */
static int
find_regions(struct rd *d)
{
	struct region *g;
	const char *name, *desc;
	char *low, *p;
	size_t i, k;
	int c;

	d->dec.nreg = d->def.nreg;
	if (d->dec.nreg > 0 &&
	    (d->dec.reg = calloc(d->dec.nreg, sizeof(*d->dec.reg))) == NULL)
		return rnomem(d);
	for (i = 0; i < d->dec.nreg; i++) {
		g = &d->dec.reg[i];
		if (!d->def.reg[i].defined)	/* no record may name it */
			continue;
		name = dstr(d, d->def.reg[i].name);
		desc = dstr(d, d->def.reg[i].desc);
		g->cls = K_USER;
		for (k = 0; d->trc && k < NDESC; k++)
			if (strcmp(desc, cls_desc[k]) == 0)
				break;
		if ((low = lower_call(name)) == NULL)
			return rnomem(d);
		if (d->trc && k < NDESC) {
			g->cls = (enum cls)k;
			if (g->cls == K_WAIT || g->cls == K_COLL ||
			    ((g->cls == K_SEND || g->cls == K_ISEND) &&
			    strcmp(low, g->cls == K_SEND ? "send" : "isend") != 0)) {
				g->op = low;
				low = NULL;
			}
		} else if (d->def.reg[i].paradigm == OTF2_PARADIGM_MPI ||
		    ((d->def.reg[i].paradigm == OTF2_PARADIGM_UNKNOWN ||
		    d->def.reg[i].paradigm == OTF2_PARADIGM_USER) &&
		    strncmp(name, "MPI_", 4) == 0)) {
			c = mpi_call(low);
			g->cls = c >= 0 ? mpi_calls[c].cls : K_OTHER;
			if (c >= 0 && mpi_calls[c].op != NULL &&
			    (g->op = strdup(mpi_calls[c].op)) == NULL) {
				free(low);
				return rnomem(d);
			}
		}
		free(low);
		if ((g->name = strdup(name)) == NULL)
			return rnomem(d);
		/* A label is one word: blanks and '=' become '_'. */
		if (g->cls == K_USER && !d->trc)
			for (p = g->name; *p != '\0'; p++)
				if (*p == ' ' || *p == '\t' || *p == '=' ||
				    *p == '\n' || *p == '\r')
					*p = '_';
	}
	return 0;
}

/* ---- events of one location ---- */

/*
 * -1, for the helpers' "< 0" tests: OTF2_CALLBACK_INTERRUPT is 1, and
 * returned from here it let peer_of()'s callers go on to index an
 * undefined communicator (fuzz: heap-use-after-free in ev_collend).
 */
static int
lfail(struct oloc *l, const char *fmt, ...)
{
	char buf[TRC_ERRLEN + 64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	rfail(l->rd, "location %llu, event %llu: %s",
	    (unsigned long long)l->id, (unsigned long long)l->pos, buf);
	return -1;
}

/* The trc attributes of a record into l->x; others counted. */
static int
read_attrs(struct oloc *l, OTF2_AttributeList *al)
{
	struct rd *d = l->rd;
	struct xattrs *x = &l->x;
	OTF2_AttributeRef ref;
	OTF2_AttributeValue v;
	OTF2_Type type;
	struct oattr *a;
	uint32_t i, n, off, lastn = 0;
	const char *s;
	char num[32];
	size_t len;
	int rc;

	x_clear(x);
	if (al == NULL || (n = OTF2_AttributeList_GetNumberOfElements(al)) == 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (OTF2_AttributeList_GetAttributeByIndex(al, i, &ref, &type,
		    &v) != OTF2_SUCCESS)
			return lfail(l, "unreadable attribute list");
		if (ref >= d->def.nattr || !d->def.attr[ref].defined)
			return lfail(l, "undefined attribute %u", ref);
		a = &d->attr[ref];
		if (a->cls == A_FOREIGN) {
			trc_drop(d->r, a->label);
			continue;
		}
		if (type != a->type)
			return lfail(l, "%s of the wrong type", a->label);
		s = num;
		switch (a->cls) {
		case A_INT:
		case A_LIST:
			len = trc_format_int(num, v.int64);
			break;
		case A_TIME:
			if (v.uint64 > INT64_MAX)
				return lfail(l, "%s: time out of range",
				    a->label);
			len = trc_format_time(num, (int64_t)v.uint64);
			break;
		default:	/* A_TEXT, A_ORDER */
			if (v.stringRef >= d->def.nstr ||
			    d->def.str[v.stringRef] == NULL)
				return lfail(l, "undefined string %u",
				    v.stringRef);
			s = d->def.str[v.stringRef];
			len = strlen(s);
			break;
		}
		if (a->cls == A_LIST && a->index > 0) {
			/* The next element of the list just begun. */
			if (lastn != a->index || x->n == 0 ||
			    strcmp(x->buf + x->a[x->n - 1].k, a->key) != 0)
				return lfail(l, "%s: list element %u out of "
				    "order", a->label, a->index);
			if (x_append(x, num, len) < 0)
				return lfail(l, "out of memory");
			lastn++;
			continue;
		}
		lastn = a->cls == A_LIST ? 1 : 0;
		if (a->cls == A_ORDER) {
			if (x_put(x, s, len, &off) < 0)
				return lfail(l, "out of memory");
			x->has_order = 1;
			x->o = off;
			x->ol = (uint32_t)len;
			continue;
		}
		if ((rc = x_add(x, a->key, strlen(a->key), s, len)) < 0)
			return lfail(l, rc == -2 ? "more than %d trc attributes" :
			    "out of memory", TRC_MAXATTR);
	}
	return 0;
}

/* Common to every kept record: time, rank, attributes. */
static int
rec_start(struct oloc *l, OTF2_TimeStamp time, uint64_t pos,
    OTF2_AttributeList *al, enum rt type)
{
	struct rd *d = l->rd;
	unsigned __int128 ns;

	l->pos = pos;
	if (l->rank < 0) {
		trc_drop(d->r, "event of a location that is no MPI rank");
		return 1;
	}
	if (time < d->def.offset)
		return lfail(l, "time %llu before the clock's offset %llu",
		    (unsigned long long)time,
		    (unsigned long long)d->def.offset);
	if (time < l->last)
		return lfail(l, "time goes backwards (%llu after %llu)",
		    (unsigned long long)time, (unsigned long long)l->last);
	ns = (unsigned __int128)(time - d->def.offset) * 1000000000u /
	    d->def.tps;
	if (ns > INT64_MAX)
		return lfail(l, "time %llu out of range",
		    (unsigned long long)time);
	if (read_attrs(l, al) < 0)
		return -1;
	l->last = l->tick = time;
	memset(&l->rec, 0, sizeof(l->rec));
	l->rec.type = type;
	l->rec.rank = l->rank;
	l->rec.t = (int64_t)ns;
	l->rec.x = &l->x;
	l->rec.m.peer = -1;
	l->rec.c.root = l->rec.c.me = -1;
	l->have = 1;
	return 0;
}

#define START(type) do {						\
	int rc_ = rec_start(l, time, pos, al, (type));			\
	if (rc_ != 0)							\
		return rc_ < 0 ? OTF2_CALLBACK_INTERRUPT :		\
		    OTF2_CALLBACK_SUCCESS;				\
} while (0)

/* A peer (a rank in comm) as a world rank, comm as trc's id. */
static int
peer_of(struct oloc *l, uint32_t comm, uint32_t peer, struct msg *m,
    const char *what)
{
	struct rd *d = l->rd;
	struct ocomm *c;

	if (comm >= d->ncomm || !d->comm[comm].defined)
		return lfail(l, "undefined communicator %u", comm);
	c = &d->comm[comm];
	m->comm = c->id;
	m->csize = (int32_t)c->n;
	if (peer == OTF2_UNDEFINED_UINT32) {
		m->peer = -1;
		return 0;
	}
	if (c->self) {
		if (peer != 0)
			return lfail(l, "%s %u not in MPI_COMM_SELF", what,
			    peer);
		m->peer = l->rank;
		return 0;
	}
	if (peer >= c->n || c->world[peer] < 0)
		return lfail(l, "%s %u not a rank of communicator '%s'", what,
		    peer, dstr(d, d->def.comm[comm].name));
	m->peer = c->world[peer];
	return 0;
}

static OTF2_CallbackCode
ev_enter(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
    OTF2_AttributeList *al, OTF2_RegionRef region)
{
	struct oloc *l = u;

	(void)loc;
	START(R_ENTER);
	if (region >= l->rd->dec.nreg || !l->rd->def.reg[region].defined) {
		lfail(l, "undefined region %u", region);
		return OTF2_CALLBACK_INTERRUPT;
	}
	l->rec.region = region;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
ev_leave(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
    OTF2_AttributeList *al, OTF2_RegionRef region)
{
	struct oloc *l = u;

	(void)loc;
	START(R_LEAVE);
	if (region >= l->rd->dec.nreg || !l->rd->def.reg[region].defined) {
		lfail(l, "undefined region %u", region);
		return OTF2_CALLBACK_INTERRUPT;
	}
	l->rec.region = region;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
message(struct oloc *l, enum rt type, uint32_t peer, OTF2_CommRef comm,
    uint32_t tag, uint64_t len, uint64_t req)
{
	struct msg *m = &l->rec.m;

	if (peer_of(l, comm, peer, m, type == R_RECV || type == R_IRECV ?
	    "sender" : "receiver") < 0)
		return OTF2_CALLBACK_INTERRUPT;
	m->tag = tag;
	m->bytes = len;
	m->reqid = req;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
ev_send(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
    OTF2_AttributeList *al, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
    uint64_t len)
{
	struct oloc *l = u;

	(void)loc;
	START(R_SEND);
	return message(l, R_SEND, peer, comm, tag, len, 0);
}

static OTF2_CallbackCode
ev_isend(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
    OTF2_AttributeList *al, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
    uint64_t len, uint64_t req)
{
	struct oloc *l = u;

	(void)loc;
	START(R_ISEND);
	return message(l, R_ISEND, peer, comm, tag, len, req);
}

static OTF2_CallbackCode
ev_recv(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
    OTF2_AttributeList *al, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
    uint64_t len)
{
	struct oloc *l = u;

	(void)loc;
	START(R_RECV);
	return message(l, R_RECV, peer, comm, tag, len, 0);
}

static OTF2_CallbackCode
ev_irecv(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
    OTF2_AttributeList *al, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
    uint64_t len, uint64_t req)
{
	struct oloc *l = u;

	(void)loc;
	START(R_IRECV);
	return message(l, R_IRECV, peer, comm, tag, len, req);
}

static OTF2_CallbackCode
ev_request(struct oloc *l, OTF2_TimeStamp time, uint64_t pos,
    OTF2_AttributeList *al, enum rt type, uint64_t req)
{
	START(type);
	l->rec.m.reqid = req;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
ev_irecvreq(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
    OTF2_AttributeList *al, uint64_t req)
{
	(void)loc;
	return ev_request(u, time, pos, al, R_IRECVREQ, req);
}

static OTF2_CallbackCode
ev_isenddone(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
    void *u, OTF2_AttributeList *al, uint64_t req)
{
	(void)loc;
	return ev_request(u, time, pos, al, R_ISENDDONE, req);
}

static OTF2_CallbackCode
ev_cancel(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
    OTF2_AttributeList *al, uint64_t req)
{
	(void)loc;
	return ev_request(u, time, pos, al, R_CANCEL, req);
}

static OTF2_CallbackCode
ev_collbegin(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
    void *u, OTF2_AttributeList *al)
{
	struct oloc *l = u;

	(void)loc;
	START(R_COLLBEGIN);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
ev_collend(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
    OTF2_AttributeList *al, OTF2_CollectiveOp op, OTF2_CommRef comm,
    uint32_t root, uint64_t sent, uint64_t recvd)
{
	struct oloc *l = u;
	struct ocomm *c;
	struct msg m;
	uint32_t i;

	(void)loc;
	START(R_COLLEND);
	if (peer_of(l, comm, root, &m, "root") < 0)
		return OTF2_CALLBACK_INTERRUPT;
	c = &l->rd->comm[comm];
	l->rec.c.op = op;
	l->rec.c.comm = m.comm;
	l->rec.c.csize = m.csize;
	l->rec.c.root = m.peer;
	l->rec.c.sent = sent;
	l->rec.c.recvd = recvd;
	l->rec.c.me = c->self ? 0 : -1;
	for (i = 0; !c->self && i < c->n; i++)
		if (c->world[i] == l->rank) {
			l->rec.c.me = (int32_t)i;
			break;
		}
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
ev_param(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
    OTF2_AttributeList *al, OTF2_ParameterRef par, uint64_t value)
{
	struct oloc *l = u;

	(void)loc;
	(void)value;
	if (par != l->rd->marker) {
		l->pos = pos;
		trc_drop(l->rd->r, "PARAMETER_UINT64 event");
		return OTF2_CALLBACK_SUCCESS;
	}
	START(R_MARK);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
dropped(void *u, uint64_t pos, OTF2_AttributeList *al, const char *what)
{
	struct oloc *l = u;

	(void)al;
	l->pos = pos;
	trc_drop(l->rd->r, what);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
ev_unknown(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
    OTF2_AttributeList *al)
{
	(void)loc;
	(void)time;
	return dropped(u, pos, al, "event of a type libotf2 does not know");
}

/* Records the stream cannot say: counted, by otf2-print's names. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define DROP(T, LABEL, ...)						\
static OTF2_CallbackCode						\
drop_##T(OTF2_LocationRef loc_, OTF2_TimeStamp time_, uint64_t pos_,	\
    void *u_, OTF2_AttributeList *al_, __VA_ARGS__)			\
{									\
	return dropped(u_, pos_, al_, LABEL " event");			\
}
#define DROP0(T, LABEL)							\
static OTF2_CallbackCode						\
drop_##T(OTF2_LocationRef loc_, OTF2_TimeStamp time_, uint64_t pos_,	\
    void *u_, OTF2_AttributeList *al_)					\
{									\
	return dropped(u_, pos_, al_, LABEL " event");			\
}
DROP(BufferFlush, "BUFFER_FLUSH", OTF2_TimeStamp a)
DROP(MeasurementOnOff, "MEASUREMENT_ON_OFF", OTF2_MeasurementMode a)
DROP(MpiRequestTest, "MPI_REQUEST_TEST", uint64_t a)
DROP(OmpFork, "OMP_FORK", uint32_t a)
DROP0(OmpJoin, "OMP_JOIN")
DROP(OmpAcquireLock, "OMP_ACQUIRE_LOCK", uint32_t a, uint32_t b)
DROP(OmpReleaseLock, "OMP_RELEASE_LOCK", uint32_t a, uint32_t b)
DROP(OmpTaskCreate, "OMP_TASK_CREATE", uint64_t a)
DROP(OmpTaskSwitch, "OMP_TASK_SWITCH", uint64_t a)
DROP(OmpTaskComplete, "OMP_TASK_COMPLETE", uint64_t a)
DROP(Metric, "METRIC", OTF2_MetricRef a, uint8_t b, const OTF2_Type *c,
    const OTF2_MetricValue *e)
DROP(ParameterString, "PARAMETER_STRING", OTF2_ParameterRef a,
    OTF2_StringRef b)
DROP(ParameterInt, "PARAMETER_INT64", OTF2_ParameterRef a, int64_t b)
DROP(RmaWinCreate, "RMA_WIN_CREATE", OTF2_RmaWinRef a)
DROP(RmaWinDestroy, "RMA_WIN_DESTROY", OTF2_RmaWinRef a)
DROP0(RmaCollectiveBegin, "RMA_COLLECTIVE_BEGIN")
DROP(RmaCollectiveEnd, "RMA_COLLECTIVE_END", OTF2_CollectiveOp a,
    OTF2_RmaSyncLevel b, OTF2_RmaWinRef c, uint32_t e, uint64_t f,
    uint64_t g)
DROP(RmaGroupSync, "RMA_GROUP_SYNC", OTF2_RmaSyncLevel a, OTF2_RmaWinRef b,
    OTF2_GroupRef c)
DROP(RmaRequestLock, "RMA_REQUEST_LOCK", OTF2_RmaWinRef a, uint32_t b,
    uint64_t c, OTF2_LockType e)
DROP(RmaAcquireLock, "RMA_ACQUIRE_LOCK", OTF2_RmaWinRef a, uint32_t b,
    uint64_t c, OTF2_LockType e)
DROP(RmaTryLock, "RMA_TRY_LOCK", OTF2_RmaWinRef a, uint32_t b, uint64_t c,
    OTF2_LockType e)
DROP(RmaReleaseLock, "RMA_RELEASE_LOCK", OTF2_RmaWinRef a, uint32_t b,
    uint64_t c)
DROP(RmaSync, "RMA_SYNC", OTF2_RmaWinRef a, uint32_t b, OTF2_RmaSyncType c)
DROP(RmaWaitChange, "RMA_WAIT_CHANGE", OTF2_RmaWinRef a)
DROP(RmaPut, "RMA_PUT", OTF2_RmaWinRef a, uint32_t b, uint64_t c,
    uint64_t e)
DROP(RmaGet, "RMA_GET", OTF2_RmaWinRef a, uint32_t b, uint64_t c,
    uint64_t e)
DROP(RmaAtomic, "RMA_ATOMIC", OTF2_RmaWinRef a, uint32_t b,
    OTF2_RmaAtomicType c, uint64_t e, uint64_t f, uint64_t g)
DROP(RmaOpCompleteBlocking, "RMA_OP_COMPLETE_BLOCKING", OTF2_RmaWinRef a,
    uint64_t b)
DROP(RmaOpCompleteNonBlocking, "RMA_OP_COMPLETE_NON_BLOCKING",
    OTF2_RmaWinRef a, uint64_t b)
DROP(RmaOpTest, "RMA_OP_TEST", OTF2_RmaWinRef a, uint64_t b)
DROP(RmaOpCompleteRemote, "RMA_OP_COMPLETE_REMOTE", OTF2_RmaWinRef a,
    uint64_t b)
DROP(ThreadFork, "THREAD_FORK", OTF2_Paradigm a, uint32_t b)
DROP(ThreadJoin, "THREAD_JOIN", OTF2_Paradigm a)
DROP(ThreadTeamBegin, "THREAD_TEAM_BEGIN", OTF2_CommRef a)
DROP(ThreadTeamEnd, "THREAD_TEAM_END", OTF2_CommRef a)
DROP(ThreadAcquireLock, "THREAD_ACQUIRE_LOCK", OTF2_Paradigm a, uint32_t b,
    uint32_t c)
DROP(ThreadReleaseLock, "THREAD_RELEASE_LOCK", OTF2_Paradigm a, uint32_t b,
    uint32_t c)
DROP(ThreadTaskCreate, "THREAD_TASK_CREATE", OTF2_CommRef a, uint32_t b,
    uint32_t c)
DROP(ThreadTaskSwitch, "THREAD_TASK_SWITCH", OTF2_CommRef a, uint32_t b,
    uint32_t c)
DROP(ThreadTaskComplete, "THREAD_TASK_COMPLETE", OTF2_CommRef a, uint32_t b,
    uint32_t c)
DROP(ThreadCreate, "THREAD_CREATE", OTF2_CommRef a, uint64_t b)
DROP(ThreadBegin, "THREAD_BEGIN", OTF2_CommRef a, uint64_t b)
DROP(ThreadWait, "THREAD_WAIT", OTF2_CommRef a, uint64_t b)
DROP(ThreadEnd, "THREAD_END", OTF2_CommRef a, uint64_t b)
DROP(CallingContextEnter, "CALLING_CONTEXT_ENTER", OTF2_CallingContextRef a,
    uint32_t b)
DROP(CallingContextLeave, "CALLING_CONTEXT_LEAVE", OTF2_CallingContextRef a)
DROP(CallingContextSample, "CALLING_CONTEXT_SAMPLE", OTF2_CallingContextRef a,
    uint32_t b, OTF2_InterruptGeneratorRef c)
DROP(IoCreateHandle, "IO_CREATE_HANDLE", OTF2_IoHandleRef a,
    OTF2_IoAccessMode b, OTF2_IoCreationFlag c, OTF2_IoStatusFlag e)
DROP(IoDestroyHandle, "IO_DESTROY_HANDLE", OTF2_IoHandleRef a)
DROP(IoDuplicateHandle, "IO_DUPLICATE_HANDLE", OTF2_IoHandleRef a,
    OTF2_IoHandleRef b, OTF2_IoStatusFlag c)
DROP(IoSeek, "IO_SEEK", OTF2_IoHandleRef a, int64_t b, OTF2_IoSeekOption c,
    uint64_t e)
DROP(IoChangeStatusFlags, "IO_CHANGE_FLAGS", OTF2_IoHandleRef a,
    OTF2_IoStatusFlag b)
DROP(IoDeleteFile, "IO_DELETE_FILE", OTF2_IoParadigmRef a, OTF2_IoFileRef b)
DROP(IoOperationBegin, "IO_OPERATION_BEGIN", OTF2_IoHandleRef a,
    OTF2_IoOperationMode b, OTF2_IoOperationFlag c, uint64_t e, uint64_t f)
DROP(IoOperationTest, "IO_OPERATION_TEST", OTF2_IoHandleRef a, uint64_t b)
DROP(IoOperationIssued, "IO_OPERATION_ISSUED", OTF2_IoHandleRef a,
    uint64_t b)
DROP(IoOperationComplete, "IO_OPERATION_COMPLETE", OTF2_IoHandleRef a,
    uint64_t b, uint64_t c)
DROP(IoOperationCancelled, "IO_OPERATION_CANCELLED", OTF2_IoHandleRef a,
    uint64_t b)
DROP(IoAcquireLock, "IO_ACQUIRE_LOCK", OTF2_IoHandleRef a, OTF2_LockType b)
DROP(IoReleaseLock, "IO_RELEASE_LOCK", OTF2_IoHandleRef a, OTF2_LockType b)
DROP(IoTryLock, "IO_TRY_LOCK", OTF2_IoHandleRef a, OTF2_LockType b)
DROP(ProgramBegin, "PROGRAM_BEGIN", OTF2_StringRef a, uint32_t b,
    const OTF2_StringRef *c)
DROP(ProgramEnd, "PROGRAM_END", int64_t a)
DROP(NonBlockingCollectiveRequest, "NON_BLOCKING_COLLECTIVE_REQUEST",
    uint64_t a)
DROP(NonBlockingCollectiveComplete, "NON_BLOCKING_COLLECTIVE_COMPLETE",
    OTF2_CollectiveOp a, OTF2_CommRef b, uint32_t c, uint64_t e, uint64_t f,
    uint64_t g)
DROP(CommCreate, "COMM_CREATE", OTF2_CommRef a)
DROP(CommDestroy, "COMM_DESTROY", OTF2_CommRef a)
#pragma GCC diagnostic pop

static OTF2_EvtReaderCallbacks *
evt_callbacks(void)
{
	OTF2_EvtReaderCallbacks *cb;

	if ((cb = OTF2_EvtReaderCallbacks_New()) == NULL)
		return NULL;
#define SET(T, fn)	OTF2_EvtReaderCallbacks_Set##T##Callback(cb, fn)
	SET(Unknown, ev_unknown);
	SET(Enter, ev_enter);
	SET(Leave, ev_leave);
	SET(MpiSend, ev_send);
	SET(MpiIsend, ev_isend);
	SET(MpiIsendComplete, ev_isenddone);
	SET(MpiIrecvRequest, ev_irecvreq);
	SET(MpiRecv, ev_recv);
	SET(MpiIrecv, ev_irecv);
	SET(MpiRequestCancelled, ev_cancel);
	SET(MpiCollectiveBegin, ev_collbegin);
	SET(MpiCollectiveEnd, ev_collend);
	SET(ParameterUnsignedInt, ev_param);
#define D(T)	SET(T, drop_##T)
	D(BufferFlush); D(MeasurementOnOff); D(MpiRequestTest);
	D(OmpFork); D(OmpJoin); D(OmpAcquireLock); D(OmpReleaseLock);
	D(OmpTaskCreate); D(OmpTaskSwitch); D(OmpTaskComplete);
	D(Metric); D(ParameterString); D(ParameterInt);
	D(RmaWinCreate); D(RmaWinDestroy); D(RmaCollectiveBegin);
	D(RmaCollectiveEnd); D(RmaGroupSync); D(RmaRequestLock);
	D(RmaAcquireLock); D(RmaTryLock); D(RmaReleaseLock); D(RmaSync);
	D(RmaWaitChange); D(RmaPut); D(RmaGet); D(RmaAtomic);
	D(RmaOpCompleteBlocking); D(RmaOpCompleteNonBlocking);
	D(RmaOpTest); D(RmaOpCompleteRemote);
	D(ThreadFork); D(ThreadJoin); D(ThreadTeamBegin); D(ThreadTeamEnd);
	D(ThreadAcquireLock); D(ThreadReleaseLock); D(ThreadTaskCreate);
	D(ThreadTaskSwitch); D(ThreadTaskComplete); D(ThreadCreate);
	D(ThreadBegin); D(ThreadWait); D(ThreadEnd);
	D(CallingContextEnter); D(CallingContextLeave);
	D(CallingContextSample);
	D(IoCreateHandle); D(IoDestroyHandle); D(IoDuplicateHandle);
	D(IoSeek); D(IoChangeStatusFlags); D(IoDeleteFile);
	D(IoOperationBegin); D(IoOperationTest); D(IoOperationIssued);
	D(IoOperationComplete); D(IoOperationCancelled); D(IoAcquireLock);
	D(IoReleaseLock); D(IoTryLock);
	D(ProgramBegin); D(ProgramEnd);
	D(NonBlockingCollectiveRequest); D(NonBlockingCollectiveComplete);
	D(CommCreate); D(CommDestroy);
#undef D
#undef SET
	return cb;
}

/* The location's next kept record: 0 (or l->eof), -1 on error. */
static int
advance(struct rd *d, struct oloc *l)
{
	OTF2_ErrorCode rc;
	uint64_t n;

	l->have = 0;
	while (!l->have && !l->eof) {
		o2reset();
		rc = OTF2_Reader_ReadLocalEvents(d->o, l->er, 1, &n);
		if (d->failed)
			return -1;
		if (rc != OTF2_SUCCESS)
			return rfail(d, "location %llu, event %llu: cannot read "
			    "the event: %s", (unsigned long long)l->id,
			    (unsigned long long)l->pos + 1, o2why(rc));
		if (n == 0)
			l->eof = 1;
	}
	return 0;
}

static int
before(const struct oloc *a, const struct oloc *b)
{
	return a->tick < b->tick || (a->tick == b->tick && a->id < b->id);
}

static void
heap_down(struct rd *d, size_t i)
{
	struct oloc *e = d->heap[i];
	size_t c;

	for (; (c = 2 * i + 1) < d->nheap; i = c) {
		if (c + 1 < d->nheap && before(d->heap[c + 1], d->heap[c]))
			c++;
		if (!before(d->heap[c], e))
			break;
		d->heap[i] = d->heap[c];
	}
	d->heap[i] = e;
}

/* One record of the earliest location into the decoder. */
static int
step(struct rd *d)
{
	struct oloc *l = d->heap[0];

	if (dec_rec(&d->dec, &l->rec) < 0)
		return rfail(d, "location %llu, event %llu: %s",
		    (unsigned long long)l->id, (unsigned long long)l->pos,
		    d->dec.err);
	if (advance(d, l) < 0)
		return -1;
	if (!l->have)
		d->heap[0] = d->heap[--d->nheap];
	if (d->nheap > 0)
		heap_down(d, 0);
	return 0;
}

static int
next(struct trc_reader *r, struct trc_event *ev)
{
	struct rd *d = trc_reader_state(r);

	for (;;) {
		if (d->failed)
			return -1;
		if (dec_pop(&d->dec, ev)) {
			ev->line = (long)++d->nout;
			return 1;
		}
		if (d->ended)
			return 0;
		if (d->nheap == 0) {
			if (dec_end(&d->dec) < 0)
				return rfail(d, "at the end: %s", d->dec.err);
			d->ended = 1;
			continue;
		}
		if (step(d) < 0)
			return -1;
	}
}

static void
rclose(void *state)
{
	struct rd *d = state;
	size_t i;

	if (d == NULL)
		return;
	if (d->o != NULL) {
		o2reset();
		OTF2_Reader_Close(d->o);
	}
	for (i = 0; i < d->nloc; i++)
		free(d->loc[i].x.buf);
	free(d->loc);
	free(d->heap);
	for (i = 0; i < d->ncomm; i++)
		free(d->comm[i].world);
	free(d->comm);
	for (i = 0; i < d->def.nattr && d->attr != NULL; i++) {
		free(d->attr[i].key);
		free(d->attr[i].label);
	}
	free(d->attr);
	for (i = 0; i < d->dec.nreg; i++) {
		free(d->dec.reg[i].name);
		free(d->dec.reg[i].op);
	}
	free(d->dec.reg);
	dec_free(&d->dec);
	for (i = 0; i < d->def.nstr; i++)
		free(d->def.str[i]);
	free(d->def.str);
	free(d->def.reg);
	for (i = 0; i < d->def.ngrp; i++)
		free(d->def.grp[i].m);
	free(d->def.grp);
	free(d->def.comm);
	free(d->def.attr);
	free(d->def.par);
	free(d->def.lg);
	free(d->extra);
	free(d);
}

static void
rdrop(void *u, const char *what)
{
	trc_drop(u, what);
}

static int
bid(const char *path, const unsigned char *head, size_t n)
{
	size_t len = path != NULL ? strlen(path) : 0;

	/* The anchor: its first record says the byte order, then "OTF2". */
	if (n >= 7 && head[0] == 0x03 && (head[1] == 'B' || head[1] == 'L') &&
	    memcmp(head + 2, "OTF2", 5) == 0)
		return 100;
	/* A location's file, named for the error it will get. */
	if (n >= 3 && head[0] == 0x03 && (head[1] == 'B' || head[1] == 'L') &&
	    len > 4 && (strcmp(path + len - 4, ".evt") == 0 ||
	    strcmp(path + len - 4, ".def") == 0))
		return 60;
	if (len > 5 && strcmp(path + len - 5, ".otf2") == 0)
		return 60;
	return 0;
}

/* A property of the archive, or NULL (free it). */
static char *
property(struct rd *d, const char *name)
{
	char *v = NULL;

	o2reset();
	if (OTF2_Reader_GetProperty(d->o, name, &v) != OTF2_SUCCESS)
		return NULL;
	return v;
}

/*
 * libotf2 (3.0, OTF2_AnchorFile_Load) takes the anchor's number of
 * properties, a uint32, and callocs 2 pointers each before it reads
 * one: a broken anchor makes it ask for up to 64 GiB.  Each property
 * is two strings of at least their NUL, so the count cannot pass half
 * the bytes after it; checked here, as libotf2 will read the file:
 * byte 1 its byte order (0x42 little-endian, 0x23 big), "OTF2", the
 * anchor format, 38 bytes of sizes and counts, three strings, then
 * (format 2 and later) the count.  What libotf2 rejects itself (a
 * short file, another byte order) is left to it.
 */
#define ANCHOR_MAX	(1 << 20)	/* bytes read to find the count */

static int
anchor_check(struct rd *d)
{
	unsigned char *b = NULL, *nul;
	struct stat st;
	uint32_t nprops;
	size_t n = 0, p, k;
	FILE *fp;
	int rc = 0;

	if ((fp = fopen(d->name, "rb")) == NULL)
		return 0;	/* libotf2 says why */
	if (fstat(fileno(fp), &st) < 0 || st.st_size < 0)
		goto out;
	n = (uint64_t)st.st_size < ANCHOR_MAX ? (size_t)st.st_size :
	    ANCHOR_MAX;
	if ((b = malloc(n + 1)) == NULL) {
		rc = rnomem(d);
		goto out;
	}
	n = fread(b, 1, n, fp);
	p = 7 + 1 + 38;
	if (n < p || (b[1] != 0x42 && b[1] != 0x23) || b[7] < 2)
		goto out;
	for (k = 0; k < 3; k++) {	/* machine, creator, description */
		if ((nul = memchr(b + p, '\0', n - p)) == NULL)
			goto out;
		p = (size_t)(nul - b) + 1;
	}
	if (n - p < 4)
		goto out;
	if (b[1] == 0x42)
		nprops = (uint32_t)b[p] | (uint32_t)b[p + 1] << 8 |
		    (uint32_t)b[p + 2] << 16 | (uint32_t)b[p + 3] << 24;
	else
		nprops = (uint32_t)b[p + 3] | (uint32_t)b[p + 2] << 8 |
		    (uint32_t)b[p + 1] << 16 | (uint32_t)b[p] << 24;
	p += 4;
	if (nprops > ((uint64_t)st.st_size - p) / 2)
		rc = rfail(d, "broken anchor file: %lu properties in %llu "
		    "bytes", (unsigned long)nprops,
		    (unsigned long long)st.st_size - p);
out:
	fclose(fp);
	free(b);
	return rc;
}

static int
ropen(struct trc_reader *r, struct trc_src *src,
    const struct trc_open_opts *opts)
{
	struct trc_header *h = trc_reader_header(r);
	const unsigned char *head;
	OTF2_GlobalDefReaderCallbacks *gcb;
	OTF2_GlobalDefReader *gd;
	OTF2_EvtReaderCallbacks *ecb;
	OTF2_DefReader *dr;
	OTF2_ErrorCode rc;
	struct rd *d;
	struct oloc *l;
	uint64_t n;
	size_t i, hn, len;
	char *v, *creator = NULL, buf[512];
	const char *p;

	(void)opts;
	if ((d = calloc(1, sizeof(*d))) == NULL)
		return trc_fail_at(r, trc_src_name(src), 0, "out of memory");
	trc_reader_set_state(r, d);
	d->r = r;
	d->name = trc_src_name(src);
	d->marker = OTF2_UNDEFINED_PARAMETER;
	if (strcmp(d->name, "<stdin>") == 0)
		return rfail(d, "OTF2 is read from an archive's anchor file "
		    "(NAME.otf2), not from standard input");
	head = trc_src_head(src, &hn);
	if (hn < 7 || memcmp(head + 2, "OTF2", 5) != 0) {
		len = strlen(d->name);
		if (len > 4 && (strcmp(d->name + len - 4, ".evt") == 0 ||
		    strcmp(d->name + len - 4, ".def") == 0))
			return rfail(d, "one file of an OTF2 archive: read "
			    "the archive's anchor file (NAME.otf2)");
		return rfail(d, "not an OTF2 anchor file");
	}
	if (anchor_check(d) < 0)
		return -1;
	o2reset();
	if ((d->o = OTF2_Reader_Open(d->name)) == NULL)
		return rfail(d, "cannot open the OTF2 archive: %s",
		    o2why(OTF2_ERROR_FILE_INTERACTION));
	if ((rc = OTF2_Reader_SetSerialCollectiveCallbacks(d->o)) !=
	    OTF2_SUCCESS)
		return rfail(d, "cannot open the OTF2 archive: %s", o2why(rc));
	if ((v = property(d, "TRC::STREAM")) != NULL) {
		d->trc = 1;
		free(v);
	}
	d->dec.trc = d->trc;
	d->dec.drop = rdrop;
	d->dec.dropctx = r;

	/* Global definitions. */
	o2reset();
	if ((gd = OTF2_Reader_GetGlobalDefReader(d->o)) == NULL)
		return rfail(d, "cannot read the definitions: %s",
		    o2why(OTF2_ERROR_FILE_INTERACTION));
	if ((gcb = OTF2_GlobalDefReaderCallbacks_New()) == NULL)
		return rnomem(d);
	OTF2_GlobalDefReaderCallbacks_SetStringCallback(gcb, cb_string);
	OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(gcb, cb_clock);
	OTF2_GlobalDefReaderCallbacks_SetRegionCallback(gcb, cb_region);
	OTF2_GlobalDefReaderCallbacks_SetGroupCallback(gcb, cb_group);
	OTF2_GlobalDefReaderCallbacks_SetCommCallback(gcb, cb_comm);
	OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(gcb, cb_attribute);
	OTF2_GlobalDefReaderCallbacks_SetParameterCallback(gcb, cb_parameter);
	OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(gcb, cb_lgroup);
	OTF2_GlobalDefReaderCallbacks_SetLocationCallback(gcb, cb_location);
	rc = OTF2_Reader_RegisterGlobalDefCallbacks(d->o, gd, gcb, d);
	OTF2_GlobalDefReaderCallbacks_Delete(gcb);
	if (rc == OTF2_SUCCESS) {
		o2reset();
		rc = OTF2_Reader_ReadAllGlobalDefinitions(d->o, gd, &n);
	}
	if (d->failed)
		return -1;
	if (rc != OTF2_SUCCESS)
		return rfail(d, "cannot read the definitions: %s", o2why(rc));
	OTF2_Reader_CloseGlobalDefReader(d->o, gd);
	if (!d->def.have_clock || d->def.tps == 0)
		return rfail(d, "no clock properties in the definitions");
	if (d->nloc == 0)
		return rfail(d, "no locations in the definitions");
	for (i = 0; i < d->def.npar; i++)
		if (d->trc && d->def.par[i].defined &&
		    strcmp(dstr(d, d->def.par[i].name), "trc marker") == 0)
			d->marker = (uint32_t)i;
	if (find_ranks(d) < 0 || find_attrs(d) < 0 || find_regions(d) < 0)
		return -1;
	v = d->trc ? property(d, "TRC::COMMS") : NULL;
	rc = find_comms(d, v) < 0 ? OTF2_ERROR_MEM_ALLOC_FAILED : OTF2_SUCCESS;
	free(v);
	if (rc != OTF2_SUCCESS)
		return -1;
	if (dec_ranks(&d->dec, (size_t)d->nranks) < 0)
		return rfail(d, "%s", d->dec.err);

	/* Local definitions (mappings, clock offsets), then events. */
	for (i = 0; i < d->nloc; i++) {
		o2reset();
		if ((rc = OTF2_Reader_SelectLocation(d->o, d->loc[i].id)) !=
		    OTF2_SUCCESS)
			return rfail(d, "location %llu: %s",
			    (unsigned long long)d->loc[i].id, o2why(rc));
	}
	o2reset();
	if (OTF2_Reader_OpenDefFiles(d->o) == OTF2_SUCCESS) {
		for (i = 0; i < d->nloc; i++) {
			o2reset();
			if ((dr = OTF2_Reader_GetDefReader(d->o,
			    d->loc[i].id)) == NULL)
				continue;
			o2reset();
			rc = OTF2_Reader_ReadAllLocalDefinitions(d->o, dr, &n);
			if (rc != OTF2_SUCCESS)
				return rfail(d, "location %llu: cannot read its "
				    "definitions: %s",
				    (unsigned long long)d->loc[i].id, o2why(rc));
			OTF2_Reader_CloseDefReader(d->o, dr);
		}
		OTF2_Reader_CloseDefFiles(d->o);
	}
	o2reset();
	if ((rc = OTF2_Reader_OpenEvtFiles(d->o)) != OTF2_SUCCESS)
		return rfail(d, "cannot open the event files: %s", o2why(rc));
	if ((ecb = evt_callbacks()) == NULL)
		return rnomem(d);
	if ((d->heap = calloc(d->nloc, sizeof(*d->heap))) == NULL) {
		OTF2_EvtReaderCallbacks_Delete(ecb);
		return rnomem(d);
	}
	for (i = 0; i < d->nloc; i++) {
		l = &d->loc[i];
		o2reset();
		if ((l->er = OTF2_Reader_GetEvtReader(d->o, l->id)) == NULL) {
			if (l->nev == 0)
				continue;
			OTF2_EvtReaderCallbacks_Delete(ecb);
			return rfail(d, "location %llu: cannot open its "
			    "events: %s", (unsigned long long)l->id,
			    o2why(OTF2_ERROR_FILE_INTERACTION));
		}
		OTF2_Reader_RegisterEvtCallbacks(d->o, l->er, ecb, l);
	}
	OTF2_EvtReaderCallbacks_Delete(ecb);
	for (i = 0; i < d->nloc; i++) {
		l = &d->loc[i];
		if (l->er == NULL)
			continue;
		if (advance(d, l) < 0)
			return -1;
		if (l->have) {
			d->heap[d->nheap++] = l;
			for (hn = d->nheap - 1; hn > 0 &&
			    before(d->heap[hn], d->heap[(hn - 1) / 2]);
			    hn = (hn - 1) / 2) {
				l = d->heap[hn];
				d->heap[hn] = d->heap[(hn - 1) / 2];
				d->heap[(hn - 1) / 2] = l;
			}
		}
	}

	/* The header. */
	h->ranks = d->nranks;
	h->order = TRC_ORDER_TIME;
	if (d->trc) {
		if ((v = property(d, "TRC::RANKS")) != NULL) {
			p = v;
			if (prop_int(&p, &h->ranks) != 0 || *p != '\0') {
				rfail(d, "property TRC::RANKS: invalid ranks "
				    "'%.40s'", v);
				free(v);
				return -1;
			}
			free(v);
		}
		/* Written out as it is: a line that is no header line
		 * would make the text stream unreadable. */
		d->extra = property(d, "TRC::HEADER");
		if (d->extra != NULL && !header_lines(d->extra))
			return rfail(d, "property TRC::HEADER: not lines "
			    "beginning with '#'");
	} else {
		o2reset();
		if (OTF2_Reader_GetCreator(d->o, &creator) != OTF2_SUCCESS)
			creator = NULL;
		snprintf(buf, sizeof(buf), "# otf2: %s, %llu ticks per second\n",
		    creator != NULL && *creator != '\0' ? creator :
		    "unknown creator", (unsigned long long)d->def.tps);
		free(creator);
		if ((d->extra = strdup(buf)) == NULL)
			return rnomem(d);
	}
	if (d->extra != NULL) {
		h->extra.s = d->extra;
		h->extra.len = strlen(d->extra);
	}
	return 0;
}

/* ================================================================ */
/* Writing. */

struct wrec {			/* a record to write */
	enum rt		 type;
	uint64_t	 tick;
	uint32_t	 region;
	uint32_t	 peer, comm, tag, root;
	uint64_t	 bytes, req, sent, recvd;
	int		 collop;
};

struct pend {			/* an event until its attributes are known */
	struct trc_event *ev;
	struct wrec	*r;
	int		 nr, cap, carrier;
	struct wrec	 small[3];
};

struct wframe {
	enum cls	 cls;
	uint32_t	 region;
};

struct wrank {
	OTF2_EvtWriter	*w;
	uint64_t	 nev;
	struct wframe	*stk;
	int		 n, cap;
	int64_t		*isend;		/* Isends not yet completed */
	size_t		 nis, capis;
};

struct wregion {
	uint32_t	 name, desc;
	int		 role, paradigm;
};

struct wattr {
	uint32_t	 name, desc;
	int		 type;
};

struct pool {
	void		**c;
	size_t		  n, cap;
};

struct wr {
	struct trc_out	*out;
	OTF2_Archive	*a;
	char		*path;		/* the anchor, for messages */
	/* The archive is written in a temporary directory (stage): the
	 * folder dir itself when it was missing (whole), else one beside
	 * the archive NAME in dir; moved into place when complete. */
	char		*stage, *dir, *name;
	int		 whole;
	int		 failed;
	int32_t		 hdr_ranks, nloc;	/* locations: ranks and peers */
	int32_t		 limit;		/* peers beyond it are not written */
	char		*extra;
	struct wrank	*rk;
	size_t		 caprk;
	struct trc_intern strs;		/* ids are OTF2 string refs */
	struct trc_intern regkeys;	/* class and name */
	struct region	*reg;
	struct wregion	*wreg;
	size_t		 capreg;
	struct trc_intern attrkeys;	/* key, class, index, copy */
	struct wattr	*wattr;
	size_t		 capattr;
	uint32_t	 order_attr;	/* "trc attribute order", or UNDEFINED */
	int32_t		*comms;		/* trc ids by OTF2 ref */
	size_t		 ncomms, capcomms;
	int64_t		 last_ns;
	unsigned	 sub;
	uint64_t	 last_tick;
	struct pend	*q;		/* ring */
	size_t		 qcap, qhead, qn;
	struct dec	 sim;
	OTF2_AttributeList *al;
	uint32_t	 used[TRC_MAXATTR * 2 + 64];
	int		 nused;
	char		*obuf;		/* the order string */
	size_t		 ocap;
};

static int
wfail(struct wr *w, const char *fmt, ...)
{
	char buf[TRC_ERRLEN + 256];
	va_list ap;

	if (w->failed)
		return -1;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	w->failed = 1;
	return trc_out_fail(w->out, "%s: %s", w->path, buf);
}

static int
wnomem(struct wr *w)
{
	return wfail(w, "out of memory");
}

static int
wotf2(struct wr *w, OTF2_ErrorCode rc)
{
	return wfail(w, "cannot write the OTF2 archive: %s", o2why(rc));
}

static OTF2_FlushType
pre_flush(void *u, OTF2_FileType ft, OTF2_LocationRef loc, void *caller,
    bool final)
{
	(void)u;
	(void)ft;
	(void)loc;
	(void)caller;
	(void)final;
	return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_cb = { pre_flush, NULL };

/* A few chunks per event writer, then a flush: memory stays flat. */
static void *
mem_alloc(void *u, OTF2_FileType ft, OTF2_LocationRef loc, void **per,
    uint64_t size)
{
	struct pool *p = *per;
	void **c, *m;
	size_t cap;

	(void)u;
	(void)loc;
	if (p == NULL) {
		if ((p = calloc(1, sizeof(*p))) == NULL)
			return NULL;
		*per = p;
	}
	if (ft == OTF2_FILETYPE_EVENTS && p->n >= POOLCHUNKS)
		return NULL;
	if (p->n == p->cap) {
		cap = p->cap ? 2 * p->cap : 4;
		if ((c = realloc(p->c, cap * sizeof(*c))) == NULL)
			return NULL;
		p->c = c;
		p->cap = cap;
	}
	if ((m = malloc(size)) == NULL)
		return NULL;
	p->c[p->n++] = m;
	return m;
}

static void
mem_free(void *u, OTF2_FileType ft, OTF2_LocationRef loc, void **per,
    bool final)
{
	struct pool *p = *per;
	size_t i;

	(void)u;
	(void)ft;
	(void)loc;
	if (p == NULL)
		return;
	for (i = 0; i < p->n; i++)
		free(p->c[i]);
	p->n = 0;
	if (final) {
		free(p->c);
		free(p);
		*per = NULL;
	}
}

static const OTF2_MemoryCallbacks mem_cb = { mem_alloc, mem_free };

static int32_t
wstr(struct wr *w, const char *s, size_t len)
{
	int32_t id;

	if ((id = trc_intern(&w->strs, s != NULL ? s : "", len)) < 0)
		wnomem(w);
	return id;
}

/* The region of a class and name, defined when new. */
static int64_t
wregion(struct wr *w, enum cls cls, const char *name, size_t len)
{
	char key[TRC_MAXLINE + 8];
	const char *op;
	int32_t id, sname, sdesc;
	struct region *g;
	struct wregion *wg;
	size_t cap;
	int c;
	char *low;

	if (name == NULL)
		name = "";
	if (len > TRC_MAXLINE)
		len = TRC_MAXLINE;
	key[0] = (char)('a' + cls);
	memcpy(key + 1, name, len);
	if ((id = trc_intern_find(&w->regkeys, key, len + 1)) >= 0)
		return id;
	if ((id = trc_intern(&w->regkeys, key, len + 1)) < 0 ||
	    (sname = wstr(w, name, len)) < 0 ||
	    (sdesc = wstr(w, cls_desc[cls], strlen(cls_desc[cls]))) < 0)
		return wnomem(w);
	if ((size_t)id >= w->capreg) {
		cap = w->capreg ? 2 * w->capreg : 32;
		if ((g = realloc(w->reg, cap * sizeof(*g))) == NULL)
			return wnomem(w);
		w->reg = g;
		if ((wg = realloc(w->wreg, cap * sizeof(*wg))) == NULL)
			return wnomem(w);
		w->wreg = wg;
		w->capreg = cap;
	}
	g = &w->reg[id];
	wg = &w->wreg[id];
	memset(g, 0, sizeof(*g));
	g->cls = cls;
	if ((g->name = strndup(name, len)) == NULL)
		return wnomem(w);
	wg->name = (uint32_t)sname;
	wg->desc = (uint32_t)sdesc;
	wg->paradigm = cls == K_USER ? OTF2_PARADIGM_USER : OTF2_PARADIGM_MPI;
	wg->role = cls == K_USER || cls == K_WAIT ? OTF2_REGION_ROLE_FUNCTION :
	    OTF2_REGION_ROLE_POINT2POINT;
	if (cls != K_USER) {
		/* As the reader will see it: the op from the name. */
		if ((low = lower_call(g->name)) == NULL)
			return wnomem(w);
		if (cls == K_COLL && (c = mpi_call(low)) >= 0)
			wg->role = mpi_calls[c].role;
		else if (cls == K_COLL)
			wg->role = OTF2_REGION_ROLE_COLL_OTHER;
		op = cls == K_WAIT || cls == K_COLL ||
		    ((cls == K_SEND || cls == K_ISEND) &&
		    strcmp(low, cls == K_SEND ? "send" : "isend") != 0) ?
		    low : NULL;
		if (op != NULL)
			g->op = low;
		else
			free(low);
	}
	w->sim.reg = w->reg;
	w->sim.nreg = (size_t)id + 1;
	return id;
}

/* A call's region, "MPI_" and the op with its first letter raised. */
static int64_t
wcall(struct wr *w, enum cls cls, const struct trc_str *op, const char *dflt)
{
	char name[TRC_MAXLINE + 8];
	size_t len;

	if (op->len > 0 || (op->s != NULL && op->s[0] == '\0' &&
	    dflt == NULL)) {
		len = op->len < TRC_MAXLINE ? op->len : TRC_MAXLINE;
		memcpy(name, "MPI_", 4);
		memcpy(name + 4, op->s, len);
	} else {
		len = strlen(dflt);
		memcpy(name, "MPI_", 4);
		memcpy(name + 4, dflt, len);
	}
	if (len > 0 && name[4] >= 'a' && name[4] <= 'z')
		name[4] = (char)(name[4] - 'a' + 'A');
	return wregion(w, cls, name, len + 4);
}

static int
has_attr(const struct trc_event *ev, const char *key)
{
	return trc_attr_get(ev, key) != NULL;
}

/* trc's communicator id as an OTF2 ref; the world is 0. */
static int64_t
wcomm(struct wr *w, int32_t id)
{
	size_t i, cap;
	int32_t *p;

	for (i = 0; i < w->ncomms; i++)
		if (w->comms[i] == id)
			return (int64_t)i;
	if (w->ncomms == w->capcomms) {
		cap = w->capcomms ? 2 * w->capcomms : 8;
		if ((p = realloc(w->comms, cap * sizeof(*p))) == NULL)
			return wnomem(w);
		w->comms = p;
		w->capcomms = cap;
	}
	w->comms[w->ncomms] = id;
	return (int64_t)w->ncomms++;
}

static int
wranks(struct wr *w, int32_t rank)
{
	struct wrank *p;
	size_t cap;

	if ((size_t)rank < w->caprk)
		return 0;
	for (cap = w->caprk ? w->caprk : 16; cap <= (size_t)rank; cap *= 2)
		;
	if ((p = realloc(w->rk, cap * sizeof(*p))) == NULL)
		return wnomem(w);
	memset(p + w->caprk, 0, (cap - w->caprk) * sizeof(*p));
	w->rk = p;
	w->caprk = cap;
	if (dec_ranks(&w->sim, cap) < 0)
		return wnomem(w);
	return 0;
}

/* A location for every rank an event, peer or root names. */
static int
wlocation(struct wr *w, int64_t rank)
{
	if (rank >= w->nloc) {
		if (wranks(w, (int32_t)rank) < 0)
			return -1;
		w->nloc = (int32_t)rank + 1;
	}
	return 0;
}

static struct wrec *
wrec_new(struct wr *w, struct pend *p, enum rt type)
{
	struct wrec *r;
	int cap;

	if (p->nr == p->cap) {
		cap = 2 * p->cap;
		if (p->r == p->small) {
			if ((r = malloc((size_t)cap * sizeof(*r))) == NULL) {
				wnomem(w);
				return NULL;
			}
			memcpy(r, p->small, sizeof(p->small));
		} else if ((r = realloc(p->r, (size_t)cap * sizeof(*r))) ==
		    NULL) {
			wnomem(w);
			return NULL;
		}
		p->r = r;
		p->cap = cap;
	}
	r = &p->r[p->nr++];
	memset(r, 0, sizeof(*r));
	r->type = type;
	r->tick = ((uint64_t)p->ev->t << SUBBITS) | w->sub;
	if (w->sub < SUBMAX)
		w->sub++;
	r->root = OTF2_UNDEFINED_UINT32;
	return r;
}

/* The message fields of an event, as OTF2 can hold them. */
static int
wmsg(struct wr *w, struct wrec *r, const struct trc_event *ev)
{
	int64_t c;

	/* Located by write_event, as every rank an event names. */
	r->peer = ev->peer >= 0 && ev->peer < w->limit ? (uint32_t)ev->peer : 0;
	r->tag = ev->tag >= 0 ? (uint32_t)ev->tag : 0;
	r->bytes = ev->bytes >= 0 ? (uint64_t)ev->bytes : 0;
	r->req = ev->req >= 0 ? (uint64_t)ev->req : 0;
	if ((c = wcomm(w, ev->comm)) < 0)
		return -1;
	r->comm = (uint32_t)c;
	return 0;
}

/* The innermost open frame of a class (cls < 0: region), or -1. */
static int
wfind(struct wrank *k, unsigned mask, int64_t region)
{
	int i;

	for (i = k->n - 1; i >= 0; i--)
		if (region >= 0 ? k->stk[i].region == (uint32_t)region :
		    (mask & (1u << k->stk[i].cls)) != 0)
			return i;
	return -1;
}

static void
wpop(struct wrank *k, int i)
{
	memmove(&k->stk[i], &k->stk[i + 1], (size_t)(k->n - i - 1) *
	    sizeof(k->stk[0]));
	k->n--;
}

static int
wpush(struct wr *w, struct wrank *k, enum cls cls, uint32_t region)
{
	struct wframe *p;
	int cap;

	if (k->n == k->cap) {
		cap = k->cap ? 2 * k->cap : 8;
		if ((p = realloc(k->stk, (size_t)cap * sizeof(*p))) == NULL)
			return wnomem(w);
		k->stk = p;
		k->cap = cap;
	}
	k->stk[k->n].cls = cls;
	k->stk[k->n].region = region;
	k->n++;
	return 0;
}

/* The records of an event; p->carrier the one its attributes go on. */
static int
records(struct wr *w, struct pend *p)
{
	const struct trc_event *ev = p->ev;
	struct wrank *k = &w->rk[ev->rank];
	static const struct trc_str none = { NULL, 0 };
	struct trc_str list;
	struct wrec *r;
	int64_t g, req;
	int i, c;
	size_t j;

#define REC(type) do {							\
	if ((r = wrec_new(w, p, (type))) == NULL)			\
		return -1;						\
} while (0)
	switch (ev->kind) {
	case TRC_PB:
		if ((g = wregion(w, K_USER, ev->fn.s, ev->fn.len)) < 0)
			return -1;
		REC(R_ENTER);
		r->region = (uint32_t)g;
		return wpush(w, k, K_USER, (uint32_t)g);
	case TRC_PE:
		if (has_attr(ev, "fn")) {
			if ((g = wregion(w, K_USER, ev->fn.s, ev->fn.len)) < 0)
				return -1;
			i = wfind(k, 0, g);
		} else if ((i = wfind(k, 1u << K_USER, -1)) >= 0)
			g = k->stk[i].region;
		else if ((g = wregion(w, K_USER, "", 0)) < 0)
			return -1;
		REC(R_LEAVE);
		r->region = (uint32_t)g;
		if (i >= 0)
			wpop(k, i);
		return 0;
	case TRC_MK:
		REC(R_MARK);
		return 0;
	case TRC_SB:
		c = ev->req >= 0 ? K_ISEND : K_SEND;
		if ((g = wcall(w, (enum cls)c, has_attr(ev, "op") ? &ev->op :
		    &none, c == K_ISEND ? "isend" : "send")) < 0)
			return -1;
		REC(R_ENTER);
		r->region = (uint32_t)g;
		REC(c == K_ISEND ? R_ISEND : R_SEND);
		if (wmsg(w, r, ev) < 0 || wpush(w, k, (enum cls)c,
		    (uint32_t)g) < 0)
			return -1;
		if (c == K_ISEND) {
			if (k->nis == k->capis) {
				int64_t *is;

				j = k->capis ? 2 * k->capis : 16;
				if ((is = realloc(k->isend, j * sizeof(*is))) ==
				    NULL)
					return wnomem(w);
				k->isend = is;
				k->capis = j;
			}
			k->isend[k->nis++] = ev->req;
		}
		p->carrier = 0;
		return 0;
	case TRC_SE:
		if ((i = wfind(k, 1u << K_SEND | 1u << K_ISEND, -1)) >= 0)
			g = k->stk[i].region;
		else if ((g = wcall(w, ev->req >= 0 ? K_ISEND : K_SEND,
		    has_attr(ev, "op") ? &ev->op : &none,
		    ev->req >= 0 ? "isend" : "send")) < 0)
			return -1;
		REC(R_LEAVE);
		r->region = (uint32_t)g;
		if (i >= 0)
			wpop(k, i);
		return 0;
	case TRC_RB:
		if (ev->req >= 0) {
			if ((g = wregion(w, K_IRECV, "MPI_Irecv", 9)) < 0)
				return -1;
			REC(R_ENTER);
			r->region = (uint32_t)g;
			REC(R_IRECVREQ);
			r->req = (uint64_t)ev->req;
			REC(R_LEAVE);
			r->region = (uint32_t)g;
			p->carrier = 0;
			return 0;
		}
		if ((g = wregion(w, K_RECV, "MPI_Recv", 8)) < 0)
			return -1;
		REC(R_ENTER);
		r->region = (uint32_t)g;
		return wpush(w, k, K_RECV, (uint32_t)g);
	case TRC_RE:
		if (ev->req >= 0) {
			REC(R_IRECV);
			return wmsg(w, r, ev);
		}
		if ((i = wfind(k, 1u << K_RECV, -1)) >= 0) {
			REC(R_RECV);
			if (wmsg(w, r, ev) < 0)
				return -1;
			g = k->stk[i].region;
			wpop(k, i);
		} else if ((g = wregion(w, K_RECV, "MPI_Recv", 8)) < 0)
			return -1;
		REC(R_LEAVE);
		r->region = (uint32_t)g;
		p->carrier = p->nr - 1;
		return 0;
	case TRC_WB:
		if ((g = wcall(w, K_WAIT, has_attr(ev, "op") ? &ev->op : &none,
		    "wait")) < 0)
			return -1;
		REC(R_ENTER);
		r->region = (uint32_t)g;
		return wpush(w, k, K_WAIT, (uint32_t)g);
	case TRC_WE:
		if ((i = wfind(k, 1u << K_WAIT, -1)) >= 0) {
			/* The Isends it completes. */
			list = ev->reqs;
			while (trc_reqs_next(&list, &req) == 1)
				for (j = 0; j < k->nis; j++)
					if (k->isend[j] == req) {
						k->isend[j] = k->isend[--k->nis];
						REC(R_ISENDDONE);
						r->req = (uint64_t)req;
						break;
					}
			g = k->stk[i].region;
			wpop(k, i);
		} else if ((g = wcall(w, K_WAIT, has_attr(ev, "op") ? &ev->op :
		    &none, "wait")) < 0)
			return -1;
		REC(R_LEAVE);
		r->region = (uint32_t)g;
		p->carrier = p->nr - 1;
		return 0;
	case TRC_XB:
		if ((g = wcall(w, K_COLL, has_attr(ev, "op") ? &ev->op : &none,
		    "collective")) < 0)
			return -1;
		REC(R_ENTER);
		r->region = (uint32_t)g;
		REC(R_COLLBEGIN);
		p->carrier = 0;
		return wpush(w, k, K_COLL, (uint32_t)g);
	case TRC_XE:
		if ((i = wfind(k, 1u << K_COLL, -1)) >= 0) {
			REC(R_COLLEND);
			if (wmsg(w, r, ev) < 0)
				return -1;
			r->peer = 0;
			r->sent = r->recvd = r->bytes;
			g = k->stk[i].region;
			if ((c = mpi_call(w->reg[g].op != NULL ?
			    w->reg[g].op : "")) >= 0 && mpi_calls[c].collop >= 0)
				r->collop = mpi_calls[c].collop;
			else
				r->collop = OTF2_COLLECTIVE_OP_BARRIER;
			if (ev->root >= 0 && ev->root < w->limit)
				r->root = (uint32_t)ev->root;
			wpop(k, i);
		} else if ((g = wcall(w, K_COLL, has_attr(ev, "op") ? &ev->op :
		    &none, "collective")) < 0)
			return -1;
		REC(R_LEAVE);
		r->region = (uint32_t)g;
		p->carrier = p->nr - 1;
		return 0;
	default:
		return wfail(w, "internal error: kind %d", ev->kind);
	}
#undef REC
}

/* What the reader's decoder makes of a record. */
static void
to_rec(struct wr *w, const struct trc_event *ev, const struct wrec *wr,
    struct rec *r)
{
	memset(r, 0, sizeof(*r));
	r->type = wr->type;
	r->rank = ev->rank;
	r->t = ev->t;
	r->region = wr->region;
	r->m.peer = (int32_t)wr->peer;
	r->m.comm = wr->comm < w->ncomms ? w->comms[wr->comm] : 0;
	r->m.tag = wr->tag;
	r->m.bytes = wr->bytes;
	r->m.reqid = wr->req;
	r->c.comm = r->m.comm;
	r->c.root = wr->root == OTF2_UNDEFINED_UINT32 ? -1 : (int32_t)wr->root;
	r->c.me = -1;
	r->c.sent = wr->sent;
	r->c.recvd = wr->recvd;
}

/*
 * The attribute definition of a key, class and list index.  OTF2 takes
 * each attribute once per record, so a key that comes again (two
 * lists of one key, say) takes another copy of the definition: the
 * first copy not yet in this record's list; list elements after the
 * first use their first element's copy.
 */
static int64_t
wattr(struct wr *w, const char *k, size_t kl, int type, int cls,
    uint32_t index, size_t *copy)
{
	char key[256], desc[128];
	int32_t id, sname, sdesc;
	struct wattr *a;
	size_t cap, n;
	int i, any = cls != A_LIST || index == 0;

	if (kl > 200)
		kl = 200;
	for (*copy = any ? 0 : *copy;; (*copy)++) {
		/* No key holds '=': the key, then the rest. */
		n = (size_t)snprintf(key, sizeof(key), "%.*s=%d %u %zu",
		    (int)kl, k, cls, index, *copy);
		if ((id = trc_intern_find(&w->attrkeys, key, n)) < 0)
			break;
		if (!any)
			return id;
		for (i = 0; i < w->nused && w->used[i] != (uint32_t)id; i++)
			;
		if (i == w->nused)
			goto found;
	}
	if ((id = trc_intern(&w->attrkeys, key, n)) < 0)
		return wnomem(w);
	if ((size_t)id >= w->capattr) {
		cap = w->capattr ? 2 * w->capattr : 32;
		if ((a = realloc(w->wattr, cap * sizeof(*a))) == NULL)
			return wnomem(w);
		w->wattr = a;
		w->capattr = cap;
	}
	a = &w->wattr[id];
	if (cls == A_ORDER)
		snprintf(key, sizeof(key), "%.*s", (int)kl, k);
	else
		snprintf(key, sizeof(key), "trc:%.*s", (int)kl, k);
	if (cls == A_LIST)
		snprintf(desc, sizeof(desc), "trc attribute, list element %u",
		    index);
	else
		snprintf(desc, sizeof(desc), "trc attribute, %s",
		    cls == A_INT ? "an integer" : cls == A_TIME ?
		    "a time in nanoseconds" : cls == A_ORDER ?
		    "the order of the event's attributes" : "text");
	if ((sname = wstr(w, key, strlen(key))) < 0 ||
	    (sdesc = wstr(w, desc, strlen(desc))) < 0)
		return -1;
	a->name = (uint32_t)sname;
	a->desc = (uint32_t)sdesc;
	a->type = type;
	if (!any)
		return id;
found:
	if (w->nused == (int)(sizeof(w->used) / sizeof(w->used[0])))
		return wfail(w, "internal error: too many attributes");
	w->used[w->nused++] = (uint32_t)id;
	return id;
}

/* A value's class: an integer, a time, a list of integers, or text. */
static int
vclass(const char *v, size_t vl, int64_t *n)
{
	char buf[32];
	const char *p, *end = v + vl, *c;
	int64_t x;

	if (trc_parse_int(v, vl, n) == 0 && trc_format_int(buf, *n) == vl &&
	    memcmp(buf, v, vl) == 0)
		return A_INT;
	if (vl > 0 && memchr(v, '.', vl) != NULL &&
	    trc_parse_time(v, vl, n) == 0 && trc_format_time(buf, *n) == vl &&
	    memcmp(buf, v, vl) == 0)
		return A_TIME;
	if (vl < 3 || memchr(v, ',', vl) == NULL || v[vl - 1] == ',')
		return A_TEXT;
	for (p = v; p < end; p = c + 1) {
		if ((c = memchr(p, ',', (size_t)(end - p))) == NULL)
			c = end;
		if (trc_parse_int(p, (size_t)(c - p), &x) < 0 ||
		    trc_format_int(buf, x) != (size_t)(c - p) ||
		    memcmp(buf, p, (size_t)(c - p)) != 0)
			return A_TEXT;
	}
	return A_LIST;
}

/* One extra attribute into w->al. */
static int
wextra(struct wr *w, const struct trc_attr *a)
{
	const char *v = a->val.s, *p, *end = v + a->val.len, *c;
	OTF2_ErrorCode rc;
	int64_t n, id;
	int32_t sref;
	uint32_t i;
	size_t copy = 0;

	switch (vclass(v, a->val.len, &n)) {
	case A_INT:
		if ((id = wattr(w, a->key.s, a->key.len, OTF2_TYPE_INT64,
		    A_INT, 0, &copy)) < 0)
			return -1;
		rc = OTF2_AttributeList_AddInt64(w->al, (uint32_t)id, n);
		break;
	case A_TIME:
		if ((id = wattr(w, a->key.s, a->key.len, OTF2_TYPE_UINT64,
		    A_TIME, 0, &copy)) < 0)
			return -1;
		rc = OTF2_AttributeList_AddUint64(w->al, (uint32_t)id,
		    (uint64_t)n);
		break;
	case A_LIST:
		rc = OTF2_SUCCESS;
		for (i = 0, p = v; p < end && rc == OTF2_SUCCESS; p = c + 1,
		    i++) {
			if ((c = memchr(p, ',', (size_t)(end - p))) == NULL)
				c = end;
			trc_parse_int(p, (size_t)(c - p), &n);
			if ((id = wattr(w, a->key.s, a->key.len,
			    OTF2_TYPE_INT64, A_LIST, i, &copy)) < 0)
				return -1;
			rc = OTF2_AttributeList_AddInt64(w->al, (uint32_t)id,
			    n);
		}
		break;
	default:
		if ((sref = wstr(w, v, a->val.len)) < 0 ||
		    (id = wattr(w, a->key.s, a->key.len, OTF2_TYPE_STRING,
		    A_TEXT, 0, &copy)) < 0)
			return -1;
		rc = OTF2_AttributeList_AddStringRef(w->al, (uint32_t)id,
		    (uint32_t)sref);
		break;
	}
	return rc == OTF2_SUCCESS ? 0 : wotf2(w, rc);
}

static int
same_str(const struct trc_str *a, const struct trc_str *b)
{
	return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
}

/*
 * The attributes of ev its records do not say (d: what the decoder
 * made of the records) into w->al, and the order when the usual one
 * is not ev's.
 */
static int
wextras(struct wr *w, const struct trc_event *ev, const struct trc_event *d)
{
	int used[TRC_MAXATTR] = { 0 }, native[TRC_MAXATTR], i, j, n;
	struct {
		const struct trc_attr *a;
		int p;
	} it[2 * TRC_MAXATTR], tmp;
	int need_order = 0;
	size_t len, copy;
	int32_t sref;
	int64_t id;
	char *o;

	if (ev->kind != d->kind || ev->t != d->t || ev->rank != d->rank)
		return wfail(w, "internal error: an event reads back as "
		    "another");
	for (i = 0; i < ev->nattr; i++) {
		native[i] = -1;
		for (j = 0; j < d->nattr; j++)
			if (!used[j] && same_str(&ev->attr[i].key,
			    &d->attr[j].key) && same_str(&ev->attr[i].val,
			    &d->attr[j].val)) {
				used[j] = 1;
				native[i] = j;
				break;
			}
	}
	for (j = 0; j < d->nattr; j++)
		if (!used[j])
			need_order = 1;
	if (!need_order) {
		/* The reader's usual order: natives, extras, sorted stably. */
		n = 0;
		for (j = 0; j < d->nattr; j++) {
			it[n].a = &d->attr[j];
			it[n++].p = prio(ev->kind, d->attr[j].key.s,
			    d->attr[j].key.len);
		}
		for (i = 0; i < ev->nattr; i++)
			if (native[i] < 0) {
				it[n].a = &ev->attr[i];
				it[n++].p = prio(ev->kind, ev->attr[i].key.s,
				    ev->attr[i].key.len);
			}
		for (i = 1; i < n; i++)
			for (j = i; j > 0 && it[j - 1].p > it[j].p; j--) {
				tmp = it[j];
				it[j] = it[j - 1];
				it[j - 1] = tmp;
			}
		for (i = 0; i < n && !need_order; i++)
			if (!same_str(&it[i].a->key, &ev->attr[i].key) ||
			    !same_str(&it[i].a->val, &ev->attr[i].val))
				need_order = 1;
	}
	w->nused = 0;
	for (i = 0; i < ev->nattr; i++)
		if (native[i] < 0 && wextra(w, &ev->attr[i]) < 0)
			return -1;
	if (!need_order)
		return 0;
	/* The keys of natives, "=" for the next extra, blank-separated. */
	len = 0;
	for (i = 0; i < ev->nattr; i++) {
		n = native[i] < 0 ? 1 : (int)ev->attr[i].key.len;
		if (len + (size_t)n + 2 > w->ocap) {
			if ((o = realloc(w->obuf, 2 * (len + (size_t)n + 64))) ==
			    NULL)
				return wnomem(w);
			w->obuf = o;
			w->ocap = 2 * (len + (size_t)n + 64);
		}
		if (i > 0)
			w->obuf[len++] = ' ';
		if (native[i] < 0)
			w->obuf[len++] = '=';
		else {
			memcpy(w->obuf + len, ev->attr[i].key.s,
			    ev->attr[i].key.len);
			len += ev->attr[i].key.len;
		}
	}
	if ((id = wattr(w, "trc attribute order", 19, OTF2_TYPE_STRING,
	    A_ORDER, 0, &copy)) < 0 || (sref = wstr(w, w->obuf, len)) < 0)
		return -1;
	o2reset();
	if (OTF2_AttributeList_AddStringRef(w->al, (uint32_t)id,
	    (uint32_t)sref) != OTF2_SUCCESS)
		return wotf2(w, OTF2_ERROR_INVALID_ARGUMENT);
	return 0;
}

static OTF2_EvtWriter *
wevt(struct wr *w, int32_t rank)
{
	struct wrank *k = &w->rk[rank];

	if (k->w == NULL) {
		o2reset();
		if ((k->w = OTF2_Archive_GetEvtWriter(w->a,
		    (OTF2_LocationRef)rank)) == NULL)
			wotf2(w, OTF2_ERROR_FILE_INTERACTION);
	}
	return k->w;
}

/* The records of an event, its attributes on the carrier. */
static int
wput(struct wr *w, const struct pend *p)
{
	OTF2_EvtWriter *ew;
	OTF2_AttributeList *al;
	OTF2_ErrorCode rc = OTF2_SUCCESS;
	const struct wrec *r;
	int i;

	if ((ew = wevt(w, p->ev->rank)) == NULL)
		return -1;
	o2reset();
	for (i = 0; i < p->nr && rc == OTF2_SUCCESS; i++) {
		r = &p->r[i];
		al = i == p->carrier &&
		    OTF2_AttributeList_GetNumberOfElements(w->al) > 0 ?
		    w->al : NULL;
		switch (r->type) {
		case R_ENTER:
			rc = OTF2_EvtWriter_Enter(ew, al, r->tick, r->region);
			break;
		case R_LEAVE:
			rc = OTF2_EvtWriter_Leave(ew, al, r->tick, r->region);
			break;
		case R_SEND:
			rc = OTF2_EvtWriter_MpiSend(ew, al, r->tick, r->peer,
			    r->comm, r->tag, r->bytes);
			break;
		case R_ISEND:
			rc = OTF2_EvtWriter_MpiIsend(ew, al, r->tick, r->peer,
			    r->comm, r->tag, r->bytes, r->req);
			break;
		case R_RECV:
			rc = OTF2_EvtWriter_MpiRecv(ew, al, r->tick, r->peer,
			    r->comm, r->tag, r->bytes);
			break;
		case R_IRECV:
			rc = OTF2_EvtWriter_MpiIrecv(ew, al, r->tick, r->peer,
			    r->comm, r->tag, r->bytes, r->req);
			break;
		case R_IRECVREQ:
			rc = OTF2_EvtWriter_MpiIrecvRequest(ew, al, r->tick,
			    r->req);
			break;
		case R_ISENDDONE:
			rc = OTF2_EvtWriter_MpiIsendComplete(ew, al, r->tick,
			    r->req);
			break;
		case R_COLLBEGIN:
			rc = OTF2_EvtWriter_MpiCollectiveBegin(ew, al, r->tick);
			break;
		case R_COLLEND:
			rc = OTF2_EvtWriter_MpiCollectiveEnd(ew, al, r->tick,
			    (OTF2_CollectiveOp)r->collop, r->comm, r->root,
			    r->sent, r->recvd);
			break;
		case R_MARK:
			rc = OTF2_EvtWriter_ParameterUnsignedInt(ew, al,
			    r->tick, 0, 0);
			break;
		default:
			break;
		}
		w->rk[p->ev->rank].nev++;
		if (r->tick > w->last_tick)
			w->last_tick = r->tick;
	}
	return rc == OTF2_SUCCESS ? 0 : wotf2(w, rc);
}

static void
pend_free(struct pend *p)
{
	free(p->ev);
	if (p->r != p->small)
		free(p->r);
	p->ev = NULL;
	p->r = NULL;
}

/* Events the decoder has made: their records out, with attributes. */
static int
wdrain(struct wr *w)
{
	struct trc_event d;
	struct pend *p;

	while (dec_pop(&w->sim, &d)) {
		if (w->qn == 0)
			return wfail(w, "internal error: an event too many");
		p = &w->q[w->qhead];
		o2reset();
		OTF2_AttributeList_RemoveAllAttributes(w->al);
		if (wextras(w, p->ev, &d) < 0 || wput(w, p) < 0)
			return -1;
		pend_free(p);
		w->qhead = (w->qhead + 1) & (w->qcap - 1);
		w->qn--;
	}
	if (w->sim.failed)
		return wfail(w, "internal error: %s", w->sim.err);
	return 0;
}

static int
write_event(struct trc_out *out, const struct trc_event *ev)
{
	struct wr *w = trc_out_state(out);
	struct pend *p, *q;
	struct rec r;
	size_t cap, i;
	int j;

	if (w->failed)
		return -1;
	if ((uint64_t)ev->t >= (UINT64_MAX >> SUBBITS))
		return wfail(w, "time %lld ns beyond the archive's clock",
		    (long long)ev->t);
	if (ev->t != w->last_ns) {
		w->last_ns = ev->t;
		w->sub = 0;
	}
	/* Every rank the event names located here, and nowhere in
	 * records(): it holds a pointer into w->rk, which a new location
	 * moves (a peer past the ranks so far was a heap-use-after-free,
	 * found by fuzz/writers). */
	if (wlocation(w, ev->rank) < 0 ||
	    (ev->peer >= 0 && ev->peer < w->limit &&
	    wlocation(w, ev->peer) < 0) ||
	    (ev->root >= 0 && ev->root < w->limit &&
	    wlocation(w, ev->root) < 0))
		return -1;
	if (w->qn == w->qcap) {
		cap = w->qcap ? 2 * w->qcap : 256;
		if ((q = calloc(cap, sizeof(*q))) == NULL)
			return wnomem(w);
		for (i = 0; i < w->qn; i++) {
			p = &w->q[(w->qhead + i) & (w->qcap - 1)];
			q[i] = *p;
			if (p->r == p->small)
				q[i].r = q[i].small;
		}
		free(w->q);
		w->q = q;
		w->qcap = cap;
		w->qhead = 0;
	}
	p = &w->q[(w->qhead + w->qn) & (w->qcap - 1)];
	memset(p, 0, sizeof(*p));
	p->r = p->small;
	p->cap = (int)(sizeof(p->small) / sizeof(p->small[0]));
	if ((p->ev = trc_event_dup(ev)) == NULL)
		return wnomem(w);
	w->qn++;
	if (records(w, p) < 0)
		return -1;
	for (j = 0; j < p->nr; j++) {
		to_rec(w, p->ev, &p->r[j], &r);
		if (dec_rec(&w->sim, &r) < 0)
			return wfail(w, "internal error: %s", w->sim.err);
	}
	return wdrain(w);
}

/* "a/b" or "a/b.def" in a new string; NULL when out of memory. */
static char *
path_of(const char *dir, const char *name, const char *suffix)
{
	size_t n = strlen(dir) + strlen(name) + strlen(suffix) + 2;
	char *p;

	if ((p = malloc(n)) != NULL)
		snprintf(p, n, "%s/%s%s", dir, name, suffix);
	return p;
}

/* Removes an OTF2 archive this name holds: its anchor, definitions and
 * directory of location files, nothing else (check: only says whether
 * it could). */
static int
wremove(struct wr *w, const char *dir, const char *name, int check)
{
	char *p = NULL, *f = NULL;
	struct dirent *e;
	struct stat st;
	DIR *dp;
	size_t n;
	int rc = -1;

	if ((p = path_of(dir, name, "")) == NULL)
		return wnomem(w);
	if (stat(p, &st) == 0) {
		if (!S_ISDIR(st.st_mode) || (dp = opendir(p)) == NULL) {
			wfail(w, "%s: in the way of the archive's directory", p);
			goto out;
		}
		/* Only location files: N.evt, N.def. */
		while ((e = readdir(dp)) != NULL) {
			n = strlen(e->d_name);
			if (strcmp(e->d_name, ".") == 0 ||
			    strcmp(e->d_name, "..") == 0)
				continue;
			if (n < 5 || (strcmp(e->d_name + n - 4, ".evt") != 0 &&
			    strcmp(e->d_name + n - 4, ".def") != 0) ||
			    strspn(e->d_name, "0123456789") != n - 4) {
				wfail(w, "%s: not an OTF2 archive's directory "
				    "('%s'), not replaced", p, e->d_name);
				closedir(dp);
				goto out;
			}
		}
		if (check) {
			closedir(dp);
			rc = 0;
			goto out;
		}
		rewinddir(dp);
		while ((e = readdir(dp)) != NULL) {
			if (e->d_name[0] == '.')
				continue;
			free(f);
			if ((f = path_of(p, e->d_name, "")) == NULL) {
				closedir(dp);
				wnomem(w);
				goto out;
			}
			if (unlink(f) < 0) {
				closedir(dp);
				wfail(w, "%s: %s", f, strerror(errno));
				goto out;
			}
		}
		closedir(dp);
		if (rmdir(p) < 0) {
			wfail(w, "%s: %s", p, strerror(errno));
			goto out;
		}
	}
	free(f);
	f = NULL;
	if (check) {
		rc = 0;
		goto out;
	}
	if ((f = path_of(dir, name, ".def")) == NULL) {
		wnomem(w);
		goto out;
	}
	if (unlink(f) < 0 && errno != ENOENT) {
		wfail(w, "%s: %s", f, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	free(p);
	free(f);
	return rc;
}

/* PATH.otf2 names the anchor; any other PATH the directory. */
static int
archive_names(const char *path, char **dir, char **name)
{
	size_t n = strlen(path);
	char *slash;

	*dir = *name = NULL;
	if (n > 5 && strcmp(path + n - 5, ".otf2") == 0) {
		if ((*dir = strdup(path)) == NULL)
			return -1;
		(*dir)[n - 5] = '\0';
		if ((slash = strrchr(*dir, '/')) != NULL) {
			*slash = '\0';
			*name = strdup(slash + 1);
			if (**dir == '\0') {
				free(*dir);
				*dir = strdup("/");
			}
		} else {
			*name = *dir;
			*dir = strdup(".");
		}
	} else {
		*dir = strdup(path);
		*name = strdup("traces");
	}
	if (*dir == NULL || *name == NULL) {
		free(*dir);
		free(*name);
		*dir = *name = NULL;
		return -1;
	}
	return 0;
}

/* The anchor, the definitions, any file of the locations' folder. */
static int
replaces(const char *path, const char *file)
{
	char *dir, *name, *p = NULL;
	int r = 1;	/* not known: refused */

	if (archive_names(path, &dir, &name) < 0)
		return 1;
	if ((p = path_of(dir, name, ".otf2")) == NULL ||
	    (r = trc_same_file(p, file)))
		goto out;
	free(p);
	if ((p = path_of(dir, name, ".def")) == NULL ||
	    (r = trc_same_file(p, file)))
		goto out;
	free(p);
	if ((p = path_of(dir, name, "")) == NULL)
		goto out;
	r = trc_out_names(file, p, "", "");
out:
	free(p);
	free(dir);
	free(name);
	return r;
}

static int
wopen(struct trc_out *out, const char *path, const struct trc_header *h)
{
	struct wr *w;
	char *dir = NULL, *name = NULL, *f = NULL;
	char err[TRC_ERRLEN + 64];
	struct stat st;
	int rc = -1;

	if ((w = calloc(1, sizeof(*w))) == NULL)
		return trc_out_fail(out, "out of memory");
	trc_out_set_state(out, w);
	w->out = out;
	w->order_attr = OTF2_UNDEFINED_ATTRIBUTE;
	w->last_ns = -1;
	if (path == NULL || strcmp(path, "-") == 0)
		return trc_out_fail(out, "OTF2 is an archive of files: name "
		    "its directory with -o");
	if (archive_names(path, &dir, &name) < 0)
		goto nomem;
	if ((w->path = path_of(dir, name, ".otf2")) == NULL)
		goto nomem;
	if (*name == '\0') {
		wfail(w, "no archive name before '.otf2'");
		goto out;
	}
	/* Written whole in a temporary directory, the archive that was
	 * there left until the new one is complete (wcommit). */
	if (stat(dir, &st) < 0) {
		if (errno != ENOENT) {
			wfail(w, "%s: %s", dir, strerror(errno));
			goto out;
		}
		w->whole = 1;
		w->stage = trc_atomic_tmpdir(dir, err, sizeof(err));
	} else if (!S_ISDIR(st.st_mode)) {
		wfail(w, "%s: not a directory", dir);
		goto out;
	} else {
		if (wremove(w, dir, name, 1) < 0)
			goto out;
		free(f);
		if ((f = path_of(dir, name, "")) == NULL)
			goto nomem;
		w->stage = trc_atomic_tmpdir(f, err, sizeof(err));
	}
	if (w->stage == NULL) {
		wfail(w, "%s", err);
		goto out;
	}
	trc_out_staged(out);
	w->dir = dir;
	w->name = name;
	dir = name = NULL;
	o2reset();
	if ((w->a = OTF2_Archive_Open(w->stage, w->name, OTF2_FILEMODE_WRITE,
	    CHUNK,
	    DEFCHUNK, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE)) == NULL) {
		wotf2(w, OTF2_ERROR_FILE_INTERACTION);
		goto out;
	}
	if (OTF2_Archive_SetFlushCallbacks(w->a, &flush_cb, NULL) !=
	    OTF2_SUCCESS ||
	    OTF2_Archive_SetMemoryCallbacks(w->a, &mem_cb, NULL) !=
	    OTF2_SUCCESS ||
	    OTF2_Archive_SetSerialCollectiveCallbacks(w->a) != OTF2_SUCCESS ||
	    OTF2_Archive_SetCreator(w->a, "trc " TRC_VERSION_STRING) !=
	    OTF2_SUCCESS ||
	    OTF2_Archive_SetDescription(w->a, "a trc stream") != OTF2_SUCCESS ||
	    OTF2_Archive_OpenEvtFiles(w->a) != OTF2_SUCCESS ||
	    (w->al = OTF2_AttributeList_New()) == NULL) {
		wotf2(w, OTF2_ERROR_FILE_INTERACTION);
		goto out;
	}
	if (wstr(w, "", 0) < 0 || wcomm(w, 0) < 0)
		goto out;
	w->hdr_ranks = h->ranks;
	w->limit = h->ranks > 0 ? h->ranks : 1 << 16;
	if (h->ranks > 0 && wlocation(w, h->ranks - 1) < 0)
		goto out;
	if (h->extra.len > 0 && (w->extra = strndup(h->extra.s,
	    h->extra.len)) == NULL)
		goto nomem;
	w->sim.trc = 1;
	rc = 0;
	goto out;
nomem:
	if (w->path == NULL)
		trc_out_fail(out, "out of memory");
	else
		wnomem(w);
out:
	free(dir);
	free(name);
	free(f);
	return rc;
}

/*
 * The complete archive into place: the staged folder renamed whole,
 * or the old archive removed (its anchor first: never a mix of the
 * two) and the new one's files moved beside it, its anchor last.
 */
static int
wcommit(struct wr *w)
{
	char err[TRC_ERRLEN + 64], *stage = w->stage, *anchor;
	int rc;

	w->stage = NULL;
	if (w->whole)
		rc = trc_atomic_commit(stage, w->dir, err, sizeof(err));
	else {
		if ((unlink(w->path) < 0 && errno != ENOENT) ||
		    wremove(w, w->dir, w->name, 0) < 0) {
			if (!w->failed)
				wfail(w, "%s", strerror(errno));
			trc_atomic_abort(stage);
			return -1;
		}
		anchor = strrchr(w->path, '/') + 1;
		rc = trc_atomic_commit_into(stage, w->dir, anchor, err,
		    sizeof(err));
	}
	return rc < 0 ? wfail(w, "%s", err) : 0;
}

static int
wclose(struct trc_out *out)
{
	struct wr *w = trc_out_state(out);
	OTF2_GlobalDefWriter *g;
	OTF2_DefWriter *dw;
	OTF2_ErrorCode rc = OTF2_SUCCESS;
	uint64_t *members = NULL;
	int32_t s_mpi, s_machine, s_trc, s_thread, s_world, s_marker, s_empty;
	int32_t *s_rank = NULL, *s_comm = NULL, id;
	char buf[64], *ids = NULL;
	size_t i, len;
	int32_t r;

	if (w->failed)
		return -1;
	if (dec_end(&w->sim) < 0)
		return wfail(w, "internal error: %s", w->sim.err);
	if (wdrain(w) < 0)
		return -1;
	if (w->qn != 0)
		return wfail(w, "internal error: events left");
	for (r = 0; r < w->nloc; r++)
		if (wevt(w, r) == NULL)
			return -1;
	o2reset();
	for (r = 0; r < w->nloc && rc == OTF2_SUCCESS; r++) {
		rc = OTF2_Archive_CloseEvtWriter(w->a, w->rk[r].w);
		w->rk[r].w = NULL;
	}
	if (rc == OTF2_SUCCESS)
		rc = OTF2_Archive_CloseEvtFiles(w->a);
	if (rc != OTF2_SUCCESS)
		return wotf2(w, rc);

	/* Every string first. */
	if ((s_empty = wstr(w, "", 0)) < 0 ||
	    (s_mpi = wstr(w, "MPI", 3)) < 0 ||
	    (s_machine = wstr(w, "machine", 7)) < 0 ||
	    (s_trc = wstr(w, "trc", 3)) < 0 ||
	    (s_thread = wstr(w, "Master thread", 13)) < 0 ||
	    (s_world = wstr(w, "MPI_COMM_WORLD", 14)) < 0 ||
	    (s_marker = wstr(w, "trc marker", 10)) < 0)
		return -1;
	if ((s_rank = calloc((size_t)w->nloc + 1, sizeof(*s_rank))) == NULL ||
	    (s_comm = calloc(w->ncomms + 1, sizeof(*s_comm))) == NULL ||
	    (members = calloc((size_t)w->nloc + 1, sizeof(*members))) == NULL ||
	    (ids = malloc(w->ncomms * 12 + 1)) == NULL)
		goto nomem;
	for (r = 0; r < w->nloc; r++) {
		snprintf(buf, sizeof(buf), "MPI Rank %d", (int)r);
		if ((s_rank[r] = wstr(w, buf, strlen(buf))) < 0)
			goto fail;
		members[r] = (uint64_t)r;
	}
	len = 0;
	for (i = 0; i < w->ncomms; i++) {
		snprintf(buf, sizeof(buf), "comm %d", (int)w->comms[i]);
		if ((s_comm[i] = i == 0 ? s_world : wstr(w, buf,
		    strlen(buf))) < 0)
			goto fail;
		len += (size_t)sprintf(ids + len, "%s%d", i ? " " : "",
		    (int)w->comms[i]);
	}

	o2reset();
	if ((g = OTF2_Archive_GetGlobalDefWriter(w->a)) == NULL) {
		wotf2(w, OTF2_ERROR_FILE_INTERACTION);
		goto fail;
	}
	rc = OTF2_GlobalDefWriter_WriteClockProperties(g, TICKS_PER_S, 0,
	    w->last_tick + 1, OTF2_UNDEFINED_TIMESTAMP);
	for (id = 0; id < w->strs.n && rc == OTF2_SUCCESS; id++)
		rc = OTF2_GlobalDefWriter_WriteString(g, (uint32_t)id,
		    w->strs.name[id]);
	if (rc == OTF2_SUCCESS)
		rc = OTF2_GlobalDefWriter_WriteParadigm(g, OTF2_PARADIGM_MPI,
		    (uint32_t)s_mpi, OTF2_PARADIGM_CLASS_PROCESS);
	if (rc == OTF2_SUCCESS)
		rc = OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0,
		    (uint32_t)s_trc, (uint32_t)s_machine,
		    OTF2_UNDEFINED_SYSTEM_TREE_NODE);
	for (r = 0; r < w->nloc && rc == OTF2_SUCCESS; r++)
		rc = OTF2_GlobalDefWriter_WriteLocationGroup(g, (uint32_t)r,
		    (uint32_t)s_rank[r], OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
		    OTF2_UNDEFINED_LOCATION_GROUP);
	for (r = 0; r < w->nloc && rc == OTF2_SUCCESS; r++)
		rc = OTF2_GlobalDefWriter_WriteLocation(g, (uint64_t)r,
		    (uint32_t)s_thread, OTF2_LOCATION_TYPE_CPU_THREAD,
		    w->rk[r].nev, (uint32_t)r);
	for (i = 0; i < w->sim.nreg && rc == OTF2_SUCCESS; i++)
		rc = OTF2_GlobalDefWriter_WriteRegion(g, (uint32_t)i,
		    w->wreg[i].name, w->wreg[i].name, w->wreg[i].desc,
		    (OTF2_RegionRole)w->wreg[i].role,
		    (OTF2_Paradigm)w->wreg[i].paradigm, OTF2_REGION_FLAG_NONE,
		    OTF2_UNDEFINED_STRING, 0, 0);
	for (id = 0; id < w->attrkeys.n && rc == OTF2_SUCCESS; id++)
		rc = OTF2_GlobalDefWriter_WriteAttribute(g, (uint32_t)id,
		    w->wattr[id].name, w->wattr[id].desc,
		    (OTF2_Type)w->wattr[id].type);
	if (rc == OTF2_SUCCESS)
		rc = OTF2_GlobalDefWriter_WriteParameter(g, 0,
		    (uint32_t)s_marker, OTF2_PARAMETER_TYPE_UINT64);
	if (rc == OTF2_SUCCESS)
		rc = OTF2_GlobalDefWriter_WriteGroup(g, 0, (uint32_t)s_empty,
		    OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
		    OTF2_GROUP_FLAG_NONE, (uint32_t)w->nloc, members);
	if (rc == OTF2_SUCCESS)
		rc = OTF2_GlobalDefWriter_WriteGroup(g, 1, (uint32_t)s_empty,
		    OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
		    OTF2_GROUP_FLAG_NONE, (uint32_t)w->nloc, members);
	for (i = 0; i < w->ncomms && rc == OTF2_SUCCESS; i++)
		rc = OTF2_GlobalDefWriter_WriteComm(g, (uint32_t)i,
		    (uint32_t)s_comm[i], 1, i == 0 ? OTF2_UNDEFINED_COMM : 0,
		    OTF2_COMM_FLAG_NONE);
	if (rc == OTF2_SUCCESS)
		rc = OTF2_Archive_CloseGlobalDefWriter(w->a, g);
	if (rc == OTF2_SUCCESS)
		rc = OTF2_Archive_OpenDefFiles(w->a);
	for (r = 0; r < w->nloc && rc == OTF2_SUCCESS; r++) {
		if ((dw = OTF2_Archive_GetDefWriter(w->a,
		    (OTF2_LocationRef)r)) == NULL)
			rc = OTF2_ERROR_FILE_INTERACTION;
		else
			rc = OTF2_Archive_CloseDefWriter(w->a, dw);
	}
	if (rc == OTF2_SUCCESS)
		rc = OTF2_Archive_CloseDefFiles(w->a);
	snprintf(buf, sizeof(buf), "%d", (int)w->hdr_ranks);
	if (rc == OTF2_SUCCESS)
		rc = OTF2_Archive_SetProperty(w->a, "TRC::STREAM", "1", true);
	if (rc == OTF2_SUCCESS)
		rc = OTF2_Archive_SetProperty(w->a, "TRC::RANKS", buf, true);
	if (rc == OTF2_SUCCESS)
		rc = OTF2_Archive_SetProperty(w->a, "TRC::COMMS", ids, true);
	if (rc == OTF2_SUCCESS && w->extra != NULL)
		rc = OTF2_Archive_SetProperty(w->a, "TRC::HEADER", w->extra,
		    true);
	if (rc == OTF2_SUCCESS) {
		rc = OTF2_Archive_Close(w->a);
		w->a = NULL;
	}
	if (rc != OTF2_SUCCESS)
		wotf2(w, rc);
	else
		wcommit(w);
	goto fail;
nomem:
	wnomem(w);
fail:
	free(s_rank);
	free(s_comm);
	free(members);
	free(ids);
	return w->failed ? -1 : 0;
}

static void
wfree(void *state)
{
	struct wr *w = state;
	size_t i;

	if (w == NULL)
		return;
	if (w->a != NULL) {
		o2reset();
		OTF2_Archive_Close(w->a);
	}
	trc_atomic_abort(w->stage);	/* not complete: nothing of it */
	free(w->dir);
	free(w->name);
	if (w->al != NULL)
		OTF2_AttributeList_Delete(w->al);
	for (i = 0; i < w->qn; i++)
		pend_free(&w->q[(w->qhead + i) & (w->qcap - 1)]);
	free(w->q);
	for (i = 0; i < w->caprk; i++) {
		free(w->rk[i].stk);
		free(w->rk[i].isend);
	}
	free(w->rk);
	for (i = 0; i < w->sim.nreg; i++) {
		free(w->reg[i].name);
		free(w->reg[i].op);
	}
	free(w->reg);
	free(w->wreg);
	free(w->wattr);
	free(w->comms);
	trc_intern_free(&w->strs);
	trc_intern_free(&w->regkeys);
	trc_intern_free(&w->attrkeys);
	dec_free(&w->sim);
	free(w->obuf);
	free(w->extra);
	free(w->path);
	free(w);
}

const struct trc_format trc_format_otf2 = {
	.name = "otf2",
	.bid = bid,
	.open = ropen,
	.next = next,
	.close = rclose,
	.wopen = wopen,
	.write = write_event,
	.wclose = wclose,
	.wfree = wfree,
	.replaces = replaces,
};
