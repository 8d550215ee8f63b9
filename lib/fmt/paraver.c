/*
 * paraver.c - Paraver traces, read and written: the .prv body with the
 * .pcf (names of event types and values) and .row (names of
 * resources) beside it, as Extrae's mpi2prv and paraver-kernel write
 * them.  trc-formats(5) says what maps to what.
 *
 * Reading.  A record of Extrae's MPI call events (types 50000001-5,
 * value the call's id, 0 its exit) does not say the peer, tag or size
 * of a point-to-point call: the communication record does, written
 * near the send with four times (logical and physical send and
 * receive).  So each rank keeps its events in a queue of slots, some
 * not yet complete, with the calls waiting for their record ("ops");
 * a record completes the send whose call began at its logical send
 * time and the receive whose call began (a blocking receive) or ended
 * (an MPI_Irecv) at its logical receive time.  The output is the
 * merge of the ranks' queues up to the first incomplete slot.  A call
 * whose record has not come when the input is past its end (a send
 * to MPI_PROC_NULL, a message cut off by a chopped trace) is given up
 * and counted, so memory follows the calls and messages in flight.
 *
 * A trace this file wrote says everything itself: each event record
 * carries the trc event, its kind and attributes in trc's own types
 * (91000000 and up, named in the .pcf), before the Extrae-compatible
 * pairs, states and communication records that Paraver shows.  Such a
 * file is read from those types alone, one record one event.
 *
 * Writing.  The body goes to an unlinked temporary file and the
 * communication records, each known only when its receive completes,
 * to another, each with the body offset just past its send's end; the
 * .prv is then the header (which holds the duration) and the body
 * with the records merged in at their offsets, as Extrae places them.
 */
#include <sys/types.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fmt.h"

/* Extrae's types. */
#define X_P2P		50000001
#define X_COLL		50000002
#define X_OTHER		50000003
#define X_RMA		50000004
#define X_IO		50000005
#define X_SSIZE		50100001
#define X_RSIZE		50100002
#define X_ROOT		50100003
#define X_COMM		50100004
#define X_USRFUNC	60000019
#define X_FIRST		40000000	/* Extrae's own types start here */

/* trc's own: type T_BASE + 8 * key + class, T_BASE itself the kind. */
#define T_BASE		91000000
#define T_NKEYS		4096
enum { C_INT, C_ANY, C_TIME, C_STR, C_LIST, C_NCLASS };
static const char *const cls_name[C_NCLASS] = {
	"int", "any", "time", "string", "list"
};
#define NFIXED		16
#define DYNKEY		32	/* the first id of a key not in fixed[] */
static const char *const fixed[NFIXED] = {
	"", "peer", "tag", "bytes", "comm", "root", "size", "req", "op",
	"fn", "depart", "arrive", "polls", "t0", "mark", "iter"
};
static const unsigned char fixedlen[NFIXED] = {
	0, 4, 3, 5, 4, 4, 4, 3, 2, 2, 6, 6, 5, 2, 4, 4
};

/* Extrae's MPI call ids (MPI_EventEncoding.h), for a .prv without .pcf. */
static const struct {
	int		 id;
	const char	*name;
} xcalls[] = {
	{ 1, "MPI_Send" }, { 2, "MPI_Recv" }, { 3, "MPI_Isend" },
	{ 4, "MPI_Irecv" }, { 5, "MPI_Wait" }, { 6, "MPI_Waitall" },
	{ 7, "MPI_Bcast" }, { 8, "MPI_Barrier" }, { 9, "MPI_Reduce" },
	{ 10, "MPI_Allreduce" }, { 11, "MPI_Alltoall" },
	{ 12, "MPI_Alltoallv" }, { 13, "MPI_Gather" }, { 14, "MPI_Gatherv" },
	{ 15, "MPI_Scatter" }, { 16, "MPI_Scatterv" },
	{ 17, "MPI_Allgather" }, { 18, "MPI_Allgatherv" },
	{ 19, "MPI_Comm_rank" }, { 20, "MPI_Comm_size" },
	{ 21, "MPI_Comm_create" }, { 22, "MPI_Comm_dup" },
	{ 23, "MPI_Comm_split" }, { 24, "MPI_Comm_group" },
	{ 25, "MPI_Comm_free" }, { 26, "MPI_Comm_remote_group" },
	{ 27, "MPI_Comm_remote_size" }, { 28, "MPI_Comm_test_inter" },
	{ 29, "MPI_Comm_compare" }, { 30, "MPI_Scan" }, { 31, "MPI_Init" },
	{ 32, "MPI_Finalize" }, { 33, "MPI_Bsend" }, { 34, "MPI_Ssend" },
	{ 35, "MPI_Rsend" }, { 36, "MPI_Ibsend" }, { 37, "MPI_Issend" },
	{ 38, "MPI_Irsend" }, { 39, "MPI_Test" }, { 40, "MPI_Cancel" },
	{ 41, "MPI_Sendrecv" }, { 42, "MPI_Sendrecv_replace" },
	{ 43, "MPI_Cart_create" }, { 44, "MPI_Cart_shift" },
	{ 45, "MPI_Cart_coords" }, { 46, "MPI_Cart_get" },
	{ 47, "MPI_Cart_map" }, { 48, "MPI_Cart_rank" },
	{ 49, "MPI_Cart_sub" }, { 50, "MPI_Cartdim_get" },
	{ 51, "MPI_Dims_create" }, { 52, "MPI_Graph_get" },
	{ 53, "MPI_Graph_map" }, { 54, "MPI_Graph_create" },
	{ 55, "MPI_Graph_neighbors" }, { 56, "MPI_Graphdims_get" },
	{ 57, "MPI_Graph_neighbors_count" }, { 58, "MPI_Topo_test" },
	{ 59, "MPI_Waitany" }, { 60, "MPI_Waitsome" }, { 61, "MPI_Probe" },
	{ 62, "MPI_Iprobe" }, { 80, "MPI_Reduce_scatter" },
	{ 115, "MPI_Request_free" }, { 118, "MPI_Get_count" },
	{ 125, "MPI_Testall" }, { 126, "MPI_Testany" },
	{ 128, "MPI_Testsome" }, { 168, "MPI_Reduce_scatter_block" },
	{ 170, "MPI_Alltoallw" },
};

static const char *
xcall_name(int64_t id)
{
	size_t i;

	for (i = 0; i < sizeof(xcalls) / sizeof(xcalls[0]); i++)
		if (xcalls[i].id == id)
			return xcalls[i].name;
	return NULL;
}

static int
xcall_id(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(xcalls) / sizeof(xcalls[0]); i++)
		if (strcmp(xcalls[i].name, name) == 0)
			return xcalls[i].id;
	return 0;
}

/* What a call does, by its name less "MPI_", in lower case. */
enum role {
	R_OTHER, R_SEND, R_ISEND, R_RECV, R_IRECV, R_SENDRECV, R_WAIT,
	R_TEST, R_COLL, R_INIT, R_FINI
};
static const struct {
	const char	*op;
	enum role	 role;
} roles[] = {
	{ "send", R_SEND }, { "ssend", R_SEND }, { "rsend", R_SEND },
	{ "bsend", R_SEND }, { "isend", R_ISEND }, { "issend", R_ISEND },
	{ "irsend", R_ISEND }, { "ibsend", R_ISEND }, { "recv", R_RECV },
	{ "irecv", R_IRECV }, { "sendrecv", R_SENDRECV },
	{ "sendrecv_replace", R_SENDRECV }, { "wait", R_WAIT },
	{ "waitall", R_WAIT }, { "waitany", R_WAIT }, { "waitsome", R_WAIT },
	{ "test", R_TEST }, { "testall", R_TEST }, { "testany", R_TEST },
	{ "testsome", R_TEST }, { "bcast", R_COLL }, { "barrier", R_COLL },
	{ "reduce", R_COLL }, { "allreduce", R_COLL }, { "alltoall", R_COLL },
	{ "alltoallv", R_COLL }, { "alltoallw", R_COLL }, { "gather", R_COLL },
	{ "gatherv", R_COLL }, { "scatter", R_COLL }, { "scatterv", R_COLL },
	{ "allgather", R_COLL }, { "allgatherv", R_COLL }, { "scan", R_COLL },
	{ "exscan", R_COLL }, { "reduce_scatter", R_COLL },
	{ "reduce_scatter_block", R_COLL }, { "init", R_INIT },
	{ "init_thread", R_INIT }, { "finalize", R_FINI },
};

/* Paraver states the writer uses, with Extrae's numbers and names. */
enum {
	ST_IDLE = 0, ST_RUN = 1, ST_RECV = 3, ST_SEND = 4, ST_WAIT = 8,
	ST_ISEND = 10, ST_COLL = 13
};

/* ---------------------------------------------------------------- */
/* Labels of the .pcf, by (type, value); LBL_TYPE for the type's own. */

#define LBL_TYPE	INT64_MIN

struct lent {
	uint32_t	 type;
	int64_t		 val;
	char		*s;
};

struct labels {
	struct lent	*v;
	size_t		 n, cap;
};

static size_t
lhash(uint32_t type, int64_t val)
{
	uint64_t h = ((uint64_t)type << 32) ^ ((uint64_t)val *
	    0x9e3779b97f4a7c15ull);

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return (size_t)h;
}

static const char *
lbl_get(const struct labels *l, uint32_t type, int64_t val)
{
	size_t i;

	if (l->cap == 0)
		return NULL;
	for (i = lhash(type, val) & (l->cap - 1); l->v[i].s != NULL;
	    i = (i + 1) & (l->cap - 1))
		if (l->v[i].type == type && l->v[i].val == val)
			return l->v[i].s;
	return NULL;
}

static int
lbl_put(struct labels *l, uint32_t type, int64_t val, const char *s,
    size_t len)
{
	struct lent *v, *e;
	size_t i, cap;
	char *c;

	if ((l->n + 1) * 2 > l->cap) {
		cap = l->cap ? 2 * l->cap : 256;
		if ((v = calloc(cap, sizeof(*v))) == NULL)
			return -1;
		for (i = 0; i < l->cap; i++) {
			size_t j;

			if (l->v[i].s == NULL)
				continue;
			for (j = lhash(l->v[i].type, l->v[i].val) & (cap - 1);
			    v[j].s != NULL; j = (j + 1) & (cap - 1))
				;
			v[j] = l->v[i];
		}
		free(l->v);
		l->v = v;
		l->cap = cap;
	}
	if ((c = malloc(len + 1)) == NULL)
		return -1;
	memcpy(c, s, len);
	c[len] = '\0';
	for (i = lhash(type, val) & (l->cap - 1); (e = &l->v[i])->s != NULL;
	    i = (i + 1) & (l->cap - 1))
		if (e->type == type && e->val == val) {
			free(e->s);
			e->s = c;
			return 0;
		}
	e->type = type;
	e->val = val;
	e->s = c;
	l->n++;
	return 0;
}

static void
lbl_free(struct labels *l)
{
	size_t i;

	for (i = 0; i < l->cap; i++)
		free(l->v[i].s);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* ---------------------------------------------------------------- */
/* Numbers. */

/* A decimal integer, optionally negative: 0, or -1 when it is not. */
static int
num(const char *s, size_t len, int64_t *v)
{
	uint64_t u = 0, lim;
	int neg = 0;
	size_t i = 0;

	if (len > 0 && s[0] == '-') {
		neg = 1;
		i = 1;
	}
	if (i == len)
		return -1;
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; i < len; i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (d > 9 || u > (lim - d) / 10)
			return -1;
		u = u * 10 + d;
	}
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}

/* The same, written as trc_format_int writes it (no '+', no leading 0). */
static int
canon_int(const char *s, size_t len, int64_t *v)
{
	size_t i = len > 0 && s[0] == '-';

	if (len == i || (s[i] == '0' && len > i + 1) || (i && s[i] == '0'))
		return -1;
	return num(s, len, v);
}

/* Seconds with exactly 9 decimals, as trc_format_time writes them. */
static int
canon_time(const char *s, size_t len, int64_t *ns)
{
	int64_t sec, frac;

	if (len < 11 || s[len - 10] != '.' ||
	    canon_int(s, len - 10, &sec) < 0 || sec < 0 ||
	    num(s + len - 9, 9, &frac) < 0 || s[len - 9] == '-' ||
	    sec > (INT64_MAX - frac) / 1000000000)
		return -1;
	*ns = sec * 1000000000 + frac;
	return 0;
}

static size_t
fmt_u(char *p, int64_t v)
{
	return trc_format_int(p, v);
}

/* ================================================================ */
/* Reading. */

enum { S_WAIT, S_DONE, S_VOID };	/* a slot's state */

struct wait;

/* One event of a rank, perhaps waiting for what completes it. */
struct slot {
	struct slot	*next;
	int64_t		 t;
	int64_t		 bytes, req, depart, arrive;
	int32_t		 peer, tag, comm, root, size;
	uint8_t		 kind, state, inwait, sub;
	const char	*op, *fn, *mark;
	struct wait	*w;		/* WB, WE: the req= list (and REs) */
	long		 line;
};

/* A receive completed in a wait: an RE before the WE. */
struct done {
	int64_t		 req, bytes, arrive;
	int32_t		 peer, tag;
};

struct wait {
	int		 refs;
	int		 role;
	int64_t		 end;
	struct slot	*wb, *we;
	int64_t		*reqs;
	struct done	*d;		/* REs emitted with the WE */
	size_t		 n, nd, cap;
	struct wait	*next;		/* the rank's waits still open */
	/* a Sendrecv: its halves, -1 pending, 0 void, 1 with a record */
	int		 sa, sb;
	int64_t		 reqa, reqb;
	const char	*name;
};

/* A send or receive call waiting for its communication record. */
struct op {
	struct op	*next;
	int64_t		 key;		/* lsend or lrecv; INT64_MIN: not yet */
	int64_t		 end;		/* the call's end; INT64_MAX: not yet */
	struct slot	*s1, *s2;	/* SB SE, or RB RE */
	struct wait	*sr;		/* a Sendrecv's */
	int64_t		 req;
	int		 role, send, got;
	const char	*name;
	/* from the record */
	int32_t		 peer, tag;
	int64_t		 bytes, phys;
};

/* A record that came before its receive call. */
struct msg {
	struct msg	*next;
	int64_t		 lrecv, precv, bytes;
	int32_t		 src, tag;
};

struct rrank {
	struct slot	*head, *tail;
	struct op	*ops;
	struct msg	*msgs;
	struct wait	*waits;
	int64_t		 last;		/* time of its last event record */
	int64_t		 nreq;
	/* the MPI call in progress */
	int		 open, role;
	uint32_t	 otype;
	int64_t		 obegin;
	const char	*oname;
	struct slot	*xb;		/* valid on its own record only */
	const char	*xop;		/* the collective's, for its XE */
	int64_t		 xbytes;
	int32_t		 xroot, xcomm;
	struct op	*oop;
	struct wait	*ow;
	/* regions: (type, name) */
	struct {
		uint32_t	 type;
		const char	*fn;
	}		*reg;
	size_t		 nreg, capreg;
};

struct tdrop {
	uint32_t	 type;
	unsigned long long n;
};

struct comm {
	int64_t		 id;
	int32_t		 size;
	int		 world;
};

struct rd {
	struct trc_reader *r;
	struct trc_lines *l;
	const char	*name;
	struct labels	 lbl;
	struct trc_intern names;	/* region names made up */
	int64_t		 mult;		/* ns per time unit */
	int64_t		 tmax;		/* INT64_MAX / mult: times past it overflow */
	int32_t		 ntask;		/* of application 1: the ranks */
	int32_t		 napp;
	int32_t		*apptasks;
	int32_t		**threads;	/* per application, per task */
	struct comm	*comms;
	size_t		 ncomm, capcomm;
	int		 mode;		/* -1 not yet known, 0 Extrae, 1 trc */
	int		 eof;
	struct rrank	*rk;
	int64_t		 w;		/* the latest event time read */
	int64_t		 deadline;	/* the earliest give-up time */
	struct slot	*free;
	struct tdrop	*td;
	size_t		 ntd, captd;
	struct slot	*emitting;	/* a WE whose REs are being written */
	int		 emitrank;
	struct trc_evbuild eb;
	char		 txt[TRC_MAXLINE];
	char		*extra;
	size_t		 extralen;
	char		*keyname[T_NKEYS];
};

static void
tdrop(struct rd *d, uint32_t type)
{
	size_t i, cap;
	struct tdrop *p;

	for (i = 0; i < d->ntd; i++)
		if (d->td[i].type == type) {
			d->td[i].n++;
			return;
		}
	if (d->ntd == d->captd) {
		cap = d->captd ? 2 * d->captd : 16;
		if ((p = realloc(d->td, cap * sizeof(*p))) == NULL)
			return;
		d->td = p;
		d->captd = cap;
	}
	d->td[d->ntd].type = type;
	d->td[d->ntd++].n = 1;
}

static void
tdrop_flush(struct trc_reader *r, struct rd *d)
{
	char what[160];
	const char *l;
	unsigned long long k;
	size_t i;

	for (i = 0; i < d->ntd; i++) {
		l = lbl_get(&d->lbl, d->td[i].type, LBL_TYPE);
		if (l != NULL) {
			/* the name, less a description after it */
			const char *e1 = strstr(l, " ("), *e2 = strstr(l, " [");
			size_t n = strlen(l);

			if (e1 != NULL && (size_t)(e1 - l) < n)
				n = (size_t)(e1 - l);
			if (e2 != NULL && (size_t)(e2 - l) < n)
				n = (size_t)(e2 - l);
			snprintf(what, sizeof(what), "event type %lu (%.*s)",
			    (unsigned long)d->td[i].type, (int)(n > 100 ? 100 :
			    n), l);
		} else
			snprintf(what, sizeof(what), "event type %lu",
			    (unsigned long)d->td[i].type);
		for (k = 0; k < d->td[i].n; k++)
			trc_drop(r, what);
	}
	d->ntd = 0;
}

/* A call's name: the .pcf's, else Extrae's table, else made up. */
static const char *
call_name(struct rd *d, uint32_t type, int64_t id)
{
	const char *s;
	char buf[48];
	int32_t k;

	if ((s = lbl_get(&d->lbl, type, id)) != NULL)
		return s;
	if ((type == X_P2P || type == X_COLL || type == X_OTHER) &&
	    (s = xcall_name(id)) != NULL)
		return s;
	snprintf(buf, sizeof(buf), "MPI call %lu:%lld", (unsigned long)type,
	    (long long)id);
	if ((k = trc_intern(&d->names, buf, strlen(buf))) < 0)
		return "MPI call";
	return d->names.name[k];
}

/* The role and op name ("isend") of a call named "MPI_Isend". */
static enum role
call_role(struct rd *d, const char *name, const char **op)
{
	char buf[64];
	size_t i, n;
	int32_t k;

	*op = "";
	if (strncmp(name, "MPI_", 4) != 0)
		return R_OTHER;
	name += 4;
	for (n = 0; name[n] != '\0' && n < sizeof(buf) - 1; n++)
		buf[n] = (char)(name[n] >= 'A' && name[n] <= 'Z' ?
		    name[n] - 'A' + 'a' : name[n]);
	buf[n] = '\0';
	for (i = 0; i < sizeof(roles) / sizeof(roles[0]); i++)
		if (strcmp(roles[i].op, buf) == 0) {
			if ((k = trc_intern(&d->names, buf, n)) >= 0)
				*op = d->names.name[k];
			return roles[i].role;
		}
	return R_OTHER;
}

/* ---- slots ---- */

static struct slot *
slot_new(struct rd *d, struct rrank *k, int64_t t, enum trc_kind kind,
    long line)
{
	struct slot *s;

	if ((s = d->free) != NULL)
		d->free = s->next;
	else if ((s = malloc(sizeof(*s))) == NULL)
		return NULL;
	memset(s, 0, sizeof(*s));
	s->t = t;
	s->kind = (uint8_t)kind;
	s->state = S_WAIT;
	s->bytes = s->req = TRC_NONE;
	s->depart = s->arrive = TRC_NONE;
	s->peer = s->tag = s->root = TRC_NONE;
	s->size = TRC_NONE;
	s->op = s->fn = s->mark = "";
	s->line = line;
	if (k->tail != NULL)
		k->tail->next = s;
	else
		k->head = s;
	k->tail = s;
	return s;
}

static void
wait_unref(struct wait *w)
{
	if (w != NULL && --w->refs == 0) {
		free(w->reqs);
		free(w->d);
		free(w);
	}
}

static void
slot_pop(struct rd *d, struct rrank *k)
{
	struct slot *s = k->head;

	k->head = s->next;
	if (k->head == NULL)
		k->tail = NULL;
	wait_unref(s->w);
	s->next = d->free;
	d->free = s;
}

static int
wait_addreq(struct wait *w, int64_t req, const struct done *dn)
{
	size_t cap;
	void *p;

	if (w->n == w->cap) {
		cap = w->cap ? 2 * w->cap : 8;
		if ((p = realloc(w->reqs, cap * sizeof(*w->reqs))) == NULL)
			return -1;
		w->reqs = p;
		if ((p = realloc(w->d, cap * sizeof(*w->d))) == NULL)
			return -1;
		w->d = p;
		w->cap = cap;
	}
	w->reqs[w->n++] = req;
	if (dn != NULL)
		w->d[w->nd++] = *dn;
	return 0;
}

static void
set_deadline(struct rd *d, int64_t t)
{
	if (t < d->deadline)
		d->deadline = t;
}

/* ---- header ---- */

static int
hfail(struct trc_reader *r, struct rd *d, const char *what)
{
	return trc_fail_at(r, d->name, 1, "invalid Paraver header: %s", what);
}

/* A number at *p up to one of stop; *p left on the stop byte. */
static int
hnum(char **p, const char *stop, int64_t *v)
{
	char *s = *p;

	while (**p != '\0' && strchr(stop, **p) == NULL)
		(*p)++;
	if (**p == '\0' && strchr(stop, '\0') == NULL)
		return -1;
	return num(s, (size_t)(*p - s), v) < 0 || *v < 0 ? -1 : 0;
}

static int
parse_header(struct trc_reader *r, struct rd *d, char *h)
{
	char *p, *dur, *u;
	int64_t v, n, nt, i, j, th, node;

	if (strncmp(h, "#Paraver ", 9) != 0 ||
	    (p = strchr(h, ')')) == NULL || p[1] != ':')
		return trc_fail_at(r, d->name, 1, "not a Paraver trace "
		    "(no '#Paraver (date):' header)");
	dur = p + 2;
	if ((p = strchr(dur, ':')) == NULL)
		return hfail(r, d, "no resource list");
	*p++ = '\0';
	d->mult = 1000;
	if ((u = strchr(dur, '_')) != NULL) {
		if (strcmp(u, "_ns") == 0)
			d->mult = 1;
		else if (strcmp(u, "_us") == 0)
			d->mult = 1000;
		else if (strcmp(u, "_ms") == 0)
			d->mult = 1000000;
		else
			return trc_fail_at(r, d->name, 1,
			    "invalid time unit '%s'", u);
		*u = '\0';
	}
	d->tmax = INT64_MAX / d->mult;
	if (num(dur, strlen(dur), &v) < 0 || v < 0)
		return trc_fail_at(r, d->name, 1, "invalid trace duration '%s'",
		    dur);
	/* Resources: 0, N, or N(cpus,...). */
	if (hnum(&p, ":(", &n) < 0)
		return hfail(r, d, "bad number of nodes");
	if (*p == '(') {
		for (i = 0; i < n; i++) {
			p++;
			if (hnum(&p, i + 1 < n ? "," : ")", &v) < 0)
				return hfail(r, d, "bad list of cpus");
		}
		if (*p++ != ')')
			return hfail(r, d, "bad list of cpus");
	}
	if (*p++ != ':')
		return hfail(r, d, "bad resource list");
	if (hnum(&p, ":", &n) < 0 || n == 0 || n > 1000000)
		return hfail(r, d, "bad number of applications");
	p++;
	d->napp = (int32_t)n;
	if ((d->apptasks = calloc((size_t)n, sizeof(*d->apptasks))) == NULL ||
	    (d->threads = calloc((size_t)n, sizeof(*d->threads))) == NULL)
		return trc_fail_at(r, d->name, 1, "out of memory");
	for (i = 0; i < n; i++) {
		if (hnum(&p, "(", &nt) < 0 || nt == 0 || nt > 10000000)
			return hfail(r, d, "bad number of tasks");
		d->apptasks[i] = (int32_t)nt;
		if ((d->threads[i] = calloc((size_t)nt, sizeof(int32_t))) ==
		    NULL)
			return trc_fail_at(r, d->name, 1, "out of memory");
		for (j = 0; j < nt; j++) {
			p++;
			if (hnum(&p, ":", &th) < 0 || th == 0 ||
			    th > INT32_MAX)
				return hfail(r, d, "bad number of threads");
			p++;
			if (hnum(&p, j + 1 < nt ? "," : ")", &node) < 0)
				return hfail(r, d, "bad node of a task");
			d->threads[i][j] = (int32_t)th;
		}
		if (*p++ != ')')
			return hfail(r, d, "bad task list");
		if (i + 1 < n && *p != ':' && *p != ',')
			return hfail(r, d, "bad application list");
		if (*p != '\0')
			p++;
	}
	if (*p != '\0' && (num(p, strlen(p), &v) < 0 || v < 0))
		return hfail(r, d, "bad number of communicators");
	d->ntask = d->apptasks[0];
	return 0;
}

/* ---- the .pcf ---- */

static char *
trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	return s;
}

/* The first word of s as a number, s left past the blanks after it. */
static int
word_num(char **s, int64_t *v)
{
	char *p = *s;

	while (*p != '\0' && *p != ' ' && *p != '\t')
		p++;
	if (num(*s, (size_t)(p - *s), v) < 0)
		return -1;
	while (*p == ' ' || *p == '\t')
		p++;
	*s = p;
	return 0;
}

static int
add_extra(struct rd *d, const char *s)
{
	size_t n = strlen(s);
	char *p;

	if ((p = realloc(d->extra, d->extralen + n + 2)) == NULL)
		return -1;
	d->extra = p;
	memcpy(p + d->extralen, s, n);
	d->extralen += n;
	p[d->extralen++] = '\n';
	p[d->extralen] = '\0';
	return 0;
}

static int
read_pcf(struct trc_reader *r, struct rd *d, const char *path)
{
	struct trc_lines *l;
	enum { NONE, TYPES, VALUES, OTHER } sec = NONE;
	uint32_t types[256];
	size_t ntypes = 0, i, len;
	int64_t a, b;
	char *s, *line;
	int rc;

	if (access(path, F_OK) != 0)
		return 0;
	if ((l = trc_lines_open(path)) == NULL)
		return trc_fail_at(r, path, 0, "out of memory");
	while ((rc = trc_lines_next(l, &line, &len)) > 0) {
		if (strncmp(line, "#trc-extra ", 11) == 0) {
			/* Written out before the events, as it is. */
			if (line[11] != '#') {
				rc = trc_fail_at(r, path, trc_lines_lineno(l),
				    "'#trc-extra' holds no '#' line");
				goto out;
			}
			if (add_extra(d, line + 11) < 0)
				goto nomem;
			continue;
		}
		s = trim(line);
		if (*s == '#')
			continue;
		if (*s == '\0') {
			if (sec == VALUES)
				sec = NONE;
			continue;
		}
		if (strcmp(s, "EVENT_TYPE") == 0) {
			sec = TYPES;
			ntypes = 0;
			continue;
		}
		if (strcmp(s, "VALUES") == 0 && sec == TYPES) {
			sec = VALUES;
			continue;
		}
		if (*s >= 'A' && *s <= 'Z') {
			sec = OTHER;
			continue;
		}
		if (sec == TYPES) {
			if (word_num(&s, &a) < 0 || word_num(&s, &b) < 0 ||
			    b < 0 || b > UINT32_MAX) {
				rc = trc_fail_at(r, path, trc_lines_lineno(l),
				    "invalid event type line");
				goto out;
			}
			if (ntypes < sizeof(types) / sizeof(types[0]))
				types[ntypes++] = (uint32_t)b;
			if (lbl_put(&d->lbl, (uint32_t)b, LBL_TYPE, s,
			    strlen(s)) < 0)
				goto nomem;
		} else if (sec == VALUES) {
			if (word_num(&s, &a) < 0) {
				rc = trc_fail_at(r, path, trc_lines_lineno(l),
				    "invalid event value line");
				goto out;
			}
			for (i = 0; i < ntypes; i++)
				if (lbl_put(&d->lbl, types[i], a, s,
				    strlen(s)) < 0)
					goto nomem;
		}
	}
	if (rc < 0)
		rc = trc_fail_lines(r, l);
out:
	trc_lines_close(l);
	return rc < 0 ? -1 : 0;
nomem:
	trc_lines_close(l);
	return trc_fail_at(r, path, 0, "out of memory");
}

/* ---- records ---- */

#define MAXF	512

/* Splits s at ':' in place: the number of fields, -1 past MAXF. */
static int
split(char *s, char **f, size_t *fl)
{
	int n = 0;
	char *c;

	for (;;) {
		if (n == MAXF)
			return -1;
		f[n] = s;
		c = strchr(s, ':');
		fl[n] = c != NULL ? (size_t)(c - s) : strlen(s);
		n++;
		if (c == NULL)
			return n;
		*c = '\0';
		s = c + 1;
	}
}

static int
field(struct trc_reader *r, struct rd *d, char **f, size_t *fl, int i,
    int64_t *v)
{
	if (num(f[i], fl[i], v) < 0)
		return trc_fail_at(r, d->name, trc_lines_lineno(d->l),
		    "invalid number '%.*s' in field %d", (int)(fl[i] > 40 ?
		    40 : fl[i]), f[i], i + 1);
	return 0;
}

static int
ftime_(struct trc_reader *r, struct rd *d, char **f, size_t *fl, int i,
    int64_t *t)
{
	if (field(r, d, f, fl, i, t) < 0)
		return -1;
	if (*t < 0 || *t > d->tmax)
		return trc_fail_at(r, d->name, trc_lines_lineno(d->l),
		    "invalid time '%.*s' in field %d", (int)fl[i], f[i], i + 1);
	*t *= d->mult;
	return 0;
}

/*
 * cpu:appl:task:thread at f[i..i+3]: 1 with the rank for a first
 * thread of application 1, 0 for another (counted), -1 on error.
 */
static int
where(struct trc_reader *r, struct rd *d, char **f, size_t *fl, int i,
    int32_t *rank)
{
	int64_t cpu, app, task, th;
	long line = trc_lines_lineno(d->l);

	if (field(r, d, f, fl, i, &cpu) < 0 ||
	    field(r, d, f, fl, i + 1, &app) < 0 ||
	    field(r, d, f, fl, i + 2, &task) < 0 ||
	    field(r, d, f, fl, i + 3, &th) < 0)
		return -1;
	if (app < 1 || app > d->napp)
		return trc_fail_at(r, d->name, line, "application %lld out of "
		    "range (the header has %ld)", (long long)app,
		    (long)d->napp);
	if (task < 1 || task > d->apptasks[app - 1])
		return trc_fail_at(r, d->name, line, "task %lld out of range "
		    "(application %lld has %ld)", (long long)task,
		    (long long)app, (long)d->apptasks[app - 1]);
	if (th < 1 || th > d->threads[app - 1][task - 1])
		return trc_fail_at(r, d->name, line, "thread %lld out of "
		    "range (task %lld of application %lld has %ld)",
		    (long long)th, (long long)task, (long long)app,
		    (long)d->threads[app - 1][task - 1]);
	*rank = (int32_t)(task - 1);
	return app == 1 && th == 1 ? 1 : 0;
}

static int
nfields(struct trc_reader *r, struct rd *d, const char *what, int n,
    int want)
{
	if (n < 0)
		return trc_fail_at(r, d->name, trc_lines_lineno(d->l),
		    "%s record with more than %d fields", what, MAXF);
	if (n != want)
		return trc_fail_at(r, d->name, trc_lines_lineno(d->l),
		    "%s record with %d fields (want %d)", what, n, want);
	return 0;
}

/* c:appl:id:n:task...: the world is the one with every task of appl 1. */
static int
communicator(struct trc_reader *r, struct rd *d, char **f, size_t *fl, int n)
{
	int64_t app, id, cnt, t;
	struct comm *c;
	size_t cap;
	int i, all = 1;

	if (n < 4)
		return trc_fail_at(r, d->name, trc_lines_lineno(d->l),
		    "communicator record with %d fields (want at least 4)", n);
	if (field(r, d, f, fl, 1, &app) < 0 || field(r, d, f, fl, 2, &id) < 0 ||
	    field(r, d, f, fl, 3, &cnt) < 0)
		return -1;
	if (cnt != n - 4)
		return trc_fail_at(r, d->name, trc_lines_lineno(d->l),
		    "communicator record with %d tasks (it says %lld)", n - 4,
		    (long long)cnt);
	for (i = 4; i < n; i++) {
		if (field(r, d, f, fl, i, &t) < 0)
			return -1;
		if (t != i - 3)
			all = 0;
	}
	if (app != 1)
		return 0;
	if (d->ncomm == d->capcomm) {
		cap = d->capcomm ? 2 * d->capcomm : 16;
		if ((c = realloc(d->comms, cap * sizeof(*c))) == NULL)
			return trc_fail_at(r, d->name, 0, "out of memory");
		d->comms = c;
		d->capcomm = cap;
	}
	c = &d->comms[d->ncomm++];
	c->id = id;
	c->size = (int32_t)cnt;
	c->world = all && cnt == d->ntask;
	return 0;
}

/* An Extrae communicator id as trc's comm=, and its size (or NONE). */
static int32_t
trc_comm(struct rd *d, int64_t id, int32_t *size)
{
	size_t i;

	*size = TRC_NONE;
	for (i = 0; i < d->ncomm; i++)
		if (d->comms[i].id == id) {
			if (d->comms[i].world)
				return 0;
			*size = d->comms[i].size;
			break;
		}
	return id > INT32_MAX ? INT32_MAX : (int32_t)id;
}

/* ---- matching a communication record to its calls ---- */

static struct op *
op_new(struct rrank *k, int role, int send, int64_t key)
{
	struct op *o, **pp;

	if ((o = calloc(1, sizeof(*o))) == NULL)
		return NULL;
	o->role = role;
	o->send = send;
	o->key = key;
	o->end = INT64_MAX;
	o->req = TRC_NONE;
	for (pp = &k->ops; *pp != NULL; pp = &(*pp)->next)
		;
	*pp = o;
	return o;
}

static void
op_unlink(struct rrank *k, struct op *o)
{
	struct op **pp;

	for (pp = &k->ops; *pp != NULL; pp = &(*pp)->next)
		if (*pp == o) {
			*pp = o->next;
			return;
		}
}

static void sr_check(struct rd *, struct wait *);
static void waits_try(struct rd *, struct rrank *, int force);

/* The record's values go into the op's slots. */
static void
op_fill(struct rd *d, struct rrank *k, struct op *o)
{
	struct slot *s;
	int i;

	o->got = 1;
	for (i = 0; i < 2; i++) {
		if ((s = i ? o->s2 : o->s1) == NULL)
			continue;
		s->peer = o->peer;
		s->tag = o->tag;
		s->bytes = o->bytes;
		if (i == 1 && o->phys != s->t) {
			if (o->send)
				s->depart = o->phys;
			else
				s->arrive = o->phys;
		}
		if (s->state == S_WAIT)
			s->state = S_DONE;
	}
	if (o->sr != NULL) {
		if (o->send)
			o->sr->sa = 1;
		else
			o->sr->sb = 1;
		sr_check(d, o->sr);
	}
	if (o->role == R_IRECV)
		waits_try(d, k, 0);	/* o stays until a wait takes it */
	else if (o->end != INT64_MAX) {
		op_unlink(k, o);	/* its call has ended: done */
		free(o);
	}
}

/* No record came: the op's events are not in the stream. */
static void
op_void(struct trc_reader *r, struct rrank *k, struct op *o)
{
	char what[128];

	if (o->s1 != NULL)
		o->s1->state = S_VOID;
	if (o->s2 != NULL)
		o->s2->state = S_VOID;
	if (o->role == R_SENDRECV)
		snprintf(what, sizeof(what), "%s %s with no communication "
		    "record", o->name, o->send ? "send" : "receive");
	else
		snprintf(what, sizeof(what), "%s call with no communication "
		    "record", o->name);
	trc_drop(r, what);
	op_unlink(k, o);
	if (o->sr != NULL) {
		if (o->send)
			o->sr->sa = 0;
		else
			o->sr->sb = 0;
		sr_check(NULL, o->sr);
	}
	free(o);
}

/* The claimed message's values into a receive op. */
static void
msg_to_op(struct rd *d, struct rrank *k, struct op *o, const struct msg *m)
{
	o->peer = m->src;
	o->tag = m->tag;
	o->bytes = m->bytes;
	o->phys = m->precv;
	op_fill(d, k, o);
}

/* A receive op now has its key: a record waiting for it is claimed. */
static void
op_claim(struct rd *d, struct rrank *k, struct op *o)
{
	struct msg **pp, *m;

	for (pp = &k->msgs; (m = *pp) != NULL; pp = &m->next)
		if (m->lrecv == o->key) {
			*pp = m->next;
			msg_to_op(d, k, o, m);
			free(m);
			return;
		}
}

static int
comm_record(struct trc_reader *r, struct rd *d, char **f, size_t *fl, int n)
{
	int64_t ls, ps, lr, pr, size, tag;
	int32_t src, dst, tg;
	struct rrank *ks, *kr;
	struct op *o, *so = NULL, *ro = NULL;
	struct msg *m;
	int a, b;

	if (nfields(r, d, "communication", n, 15) < 0 ||
	    (a = where(r, d, f, fl, 1, &src)) < 0 ||
	    ftime_(r, d, f, fl, 5, &ls) < 0 || ftime_(r, d, f, fl, 6, &ps) < 0 ||
	    (b = where(r, d, f, fl, 7, &dst)) < 0 ||
	    ftime_(r, d, f, fl, 11, &lr) < 0 ||
	    ftime_(r, d, f, fl, 12, &pr) < 0 ||
	    field(r, d, f, fl, 13, &size) < 0 ||
	    field(r, d, f, fl, 14, &tag) < 0)
		return -1;
	if (size < 0)
		return trc_fail_at(r, d->name, trc_lines_lineno(d->l),
		    "invalid size '%.*s' in field 14", (int)fl[13], f[13]);
	if (d->mode == 1)
		return 0;
	if (!a || !b) {
		trc_drop(r, "communication record of another application "
		    "or thread");
		return 0;
	}
	ks = &d->rk[src];
	kr = &d->rk[dst];
	for (o = ks->ops; o != NULL; o = o->next)
		if (o->send && !o->got && o->key == ls) {
			so = o;
			break;
		}
	if (so == NULL) {
		trc_drop(r, "communication record with no send call");
		return 0;
	}
	tg = tag < INT32_MIN || tag > INT32_MAX ? INT32_MAX : (int32_t)tag;
	so->peer = dst;
	so->tag = tg;
	so->bytes = size;
	so->phys = ps;
	op_fill(d, ks, so);	/* so may be gone */
	for (o = kr->ops; o != NULL; o = o->next)
		if (!o->send && !o->got && o->key == lr) {
			ro = o;
			break;
		}
	if (ro != NULL) {
		struct msg mm = { NULL, lr, pr, size, src, tg };

		msg_to_op(d, kr, ro, &mm);
		return 0;
	}
	if ((m = calloc(1, sizeof(*m))) == NULL)
		return trc_fail_at(r, d->name, 0, "out of memory");
	m->lrecv = lr;
	m->precv = pr;
	m->bytes = size;
	m->src = src;
	m->tag = tg;
	m->next = kr->msgs;
	kr->msgs = m;
	set_deadline(d, lr);
	return 0;
}

/* ---- waits ---- */

static struct wait *
wait_new(int refs)
{
	struct wait *w;

	if ((w = calloc(1, sizeof(*w))) == NULL)
		return NULL;
	w->refs = refs;
	w->end = INT64_MAX;
	return w;
}

/* A Sendrecv's WB and WE once both halves are known. */
static void
sr_check(struct rd *d, struct wait *w)
{
	(void)d;
	if (w->sa < 0 || w->sb < 0 || w->end == INT64_MAX || w->n > 0)
		return;
	if (w->sa)
		wait_addreq(w, w->reqa, NULL);
	if (w->sb)
		wait_addreq(w, w->reqb, NULL);
	if (w->wb->state == S_WAIT)
		w->wb->state = S_DONE;
	if (w->we->state == S_WAIT)
		w->we->state = S_DONE;
}

/*
 * The rank's ended waits take the Irecvs completed at their end: at
 * once when every Irecv posted has its record, else (force) when the
 * input is past the wait's end.
 */
static void
waits_try(struct rd *d, struct rrank *k, int force)
{
	struct wait *w;
	struct op *o, *nx;
	struct done dn;
	int unknown = 0;

	for (o = k->ops; o != NULL; o = o->next)
		if (o->role == R_IRECV && !o->got)
			unknown = 1;
	while ((w = k->waits) != NULL && w->end != INT64_MAX) {
		if (unknown && !(force && d->w > w->end))
			return;
		k->waits = w->next;
		for (o = k->ops; o != NULL; o = nx) {
			nx = o->next;
			if (o->role != R_IRECV || !o->got || o->phys > w->end)
				continue;
			if (o->phys == w->end) {
				dn.req = o->req;
				dn.bytes = o->bytes;
				dn.peer = o->peer;
				dn.tag = o->tag;
				dn.arrive = TRC_NONE;
				wait_addreq(w, o->req, &dn);
			} else
				trc_drop(d->r, "receive completed in no wait");
			op_unlink(k, o);
			free(o);
		}
		if (w->n == 0 && w->role == R_TEST) {
			w->wb->state = S_VOID;
			w->we->state = S_VOID;
		} else {
			w->wb->state = S_DONE;
			w->we->state = S_DONE;
		}
		wait_unref(w);	/* the list's reference */
	}
}

/* ---- MPI calls ---- */

static int
nomem(struct rd *d)
{
	return trc_fail_at(d->r, d->name, 0, "out of memory");
}

/* Fills slot s (the call's second event) from an op with its record. */
static void
fill_second(struct op *o, struct slot *s)
{
	s->peer = o->peer;
	s->tag = o->tag;
	s->bytes = o->bytes;
	if (o->phys != s->t) {
		if (o->send)
			s->depart = o->phys;
		else
			s->arrive = o->phys;
	}
	s->state = S_DONE;
}

static int
call_begin(struct rd *d, int32_t rank, int64_t t, uint32_t type, int64_t id,
    long line)
{
	struct rrank *k = &d->rk[rank];
	struct slot *s, *se, *rb;
	struct op *o, *o2;
	struct wait *w;
	const char *name, *op;
	char what[96];
	enum role role;

	name = call_name(d, type, id);
	if (k->open)
		return trc_fail_at(d->r, d->name, line, "%s begins inside %s",
		    name, k->oname);
	role = call_role(d, name, &op);
	k->open = 1;
	k->otype = type;
	k->oname = name;
	k->role = role;
	k->obegin = t;
	k->oop = NULL;
	k->ow = NULL;
	k->xb = NULL;
	switch (role) {
	case R_SEND:
	case R_ISEND:
		if ((s = slot_new(d, k, t, TRC_SB, line)) == NULL ||
		    (o = op_new(k, role, 1, t)) == NULL)
			return nomem(d);
		o->s1 = s;
		o->name = name;
		if (role == R_ISEND)
			s->req = o->req = ++k->nreq;
		if (strcmp(op, "send") != 0 && strcmp(op, "isend") != 0)
			s->op = op;
		k->oop = o;
		break;
	case R_RECV:
		if ((s = slot_new(d, k, t, TRC_RB, line)) == NULL ||
		    (o = op_new(k, role, 0, t)) == NULL)
			return nomem(d);
		o->s1 = s;
		o->name = name;
		k->oop = o;
		op_claim(d, k, o);
		break;
	case R_IRECV:
		if ((s = slot_new(d, k, t, TRC_RB, line)) == NULL ||
		    (o = op_new(k, role, 0, INT64_MIN)) == NULL)
			return nomem(d);
		o->s1 = s;
		o->name = name;
		s->req = o->req = ++k->nreq;
		k->oop = o;
		break;
	case R_SENDRECV:
		if ((w = wait_new(2)) == NULL ||
		    (s = slot_new(d, k, t, TRC_SB, line)) == NULL ||
		    (se = slot_new(d, k, t, TRC_SE, line)) == NULL ||
		    (rb = slot_new(d, k, t, TRC_RB, line)) == NULL ||
		    (w->wb = slot_new(d, k, t, TRC_WB, line)) == NULL ||
		    (o = op_new(k, role, 1, t)) == NULL ||
		    (o2 = op_new(k, role, 0, t)) == NULL)
			return nomem(d);
		w->role = role;
		w->sa = w->sb = -1;
		w->reqa = s->req = se->req = ++k->nreq;
		w->reqb = rb->req = ++k->nreq;
		w->wb->op = "sendrecv";
		w->wb->w = w;
		o->s1 = s;
		o->s2 = se;
		o->sr = w;
		o->end = t;		/* Extrae's physical send is its begin */
		o->name = o2->name = name;
		o2->s1 = rb;
		o2->sr = w;
		k->ow = w;
		k->oop = o2;
		set_deadline(d, t);
		op_claim(d, k, o2);
		break;
	case R_WAIT:
	case R_TEST:
		if ((w = wait_new(3)) == NULL ||
		    (s = slot_new(d, k, t, TRC_WB, line)) == NULL)
			return nomem(d);
		w->role = role;
		w->wb = s;
		w->name = name;
		s->w = w;
		s->op = op;
		k->ow = w;
		break;
	case R_COLL:
		if ((s = slot_new(d, k, t, TRC_XB, line)) == NULL)
			return nomem(d);
		s->op = op;
		s->comm = 0;
		s->bytes = 0;
		k->xb = s;
		break;
	case R_INIT:
		break;
	case R_FINI:
		if ((s = slot_new(d, k, t, TRC_MK, line)) == NULL)
			return nomem(d);
		s->mark = "finalize";
		s->state = S_DONE;
		break;
	case R_OTHER:
		snprintf(what, sizeof(what), "%s call", name);
		trc_drop(d->r, what);
		break;
	}
	return 0;
}

/* The collective begun on this record, with the sizes that followed. */
struct xattr {
	int64_t		 ssize, rsize, comm;
	int		 root, have;
};

static void
coll_done(struct rd *d, int32_t rank, struct xattr *x)
{
	struct rrank *k = &d->rk[rank];
	struct slot *s = k->xb;
	int32_t size;

	if (s == NULL)
		return;
	if (strcmp(s->op, "scatter") == 0 || strcmp(s->op, "scatterv") == 0)
		s->bytes = x->rsize;
	else
		s->bytes = x->ssize > 0 ? x->ssize : x->rsize;
	if (x->root)
		s->root = rank;
	if (x->comm != TRC_NONE) {
		s->comm = trc_comm(d, x->comm, &size);
		if (s->comm != 0)
			s->size = size;
	}
	s->state = S_DONE;
	k->xop = s->op;
	k->xbytes = s->bytes;
	k->xroot = s->root;
	k->xcomm = s->comm;
	k->xb = NULL;
}

static int
call_end(struct rd *d, int32_t rank, int64_t t, long line)
{
	struct rrank *k = &d->rk[rank];
	struct slot *s;
	struct op *o = k->oop;
	struct wait *w = k->ow;
	struct wait **pp;

	if (!k->open) {
		trc_drop(d->r, "MPI call exit with no call begun");
		return 0;
	}
	k->open = 0;
	switch (k->role) {
	case R_SEND:
	case R_ISEND:
		if ((s = slot_new(d, k, t, TRC_SE, line)) == NULL)
			return nomem(d);
		if (o == NULL)		/* given up already */
			s->state = S_VOID;
		else {
			s->req = o->req;
			s->op = o->s1 != NULL && !o->got ? o->s1->op :
			    s->op;
			o->s2 = s;
			o->end = t;
			if (o->got) {
				fill_second(o, s);
				op_unlink(k, o);
				free(o);
			} else
				set_deadline(d, t);
		}
		break;
	case R_RECV:
		if ((s = slot_new(d, k, t, TRC_RE, line)) == NULL)
			return nomem(d);
		if (o == NULL)
			s->state = S_VOID;
		else {
			o->s2 = s;
			o->end = t;
			if (o->got) {
				fill_second(o, s);
				op_unlink(k, o);
				free(o);
			} else
				set_deadline(d, t);
		}
		break;
	case R_IRECV:
		if (o != NULL) {
			o->key = t;
			o->end = t;
			op_claim(d, k, o);
		}
		break;
	case R_SENDRECV:
		if ((s = slot_new(d, k, t, TRC_RE, line)) == NULL ||
		    (w->we = slot_new(d, k, t, TRC_WE, line)) == NULL)
			return nomem(d);
		w->we->op = "sendrecv";
		w->we->w = w;
		w->end = t;
		if (o == NULL || w->sb == 0)
			s->state = S_VOID;
		else {
			s->req = w->reqb;
			o->s2 = s;
			o->end = t;
			if (o->got) {
				fill_second(o, s);
				op_unlink(k, o);
				free(o);
			} else
				set_deadline(d, t);
		}
		sr_check(d, w);
		break;
	case R_WAIT:
	case R_TEST:
		if ((s = slot_new(d, k, t, TRC_WE, line)) == NULL)
			return nomem(d);
		s->op = w->wb->op;
		s->w = w;
		w->we = s;
		w->end = t;
		for (pp = &k->waits; *pp != NULL; pp = &(*pp)->next)
			;
		*pp = w;
		set_deadline(d, t);
		waits_try(d, k, 0);
		break;
	case R_COLL:
		if ((s = slot_new(d, k, t, TRC_XE, line)) == NULL)
			return nomem(d);
		s->op = k->xop;
		s->bytes = k->xbytes;
		s->root = k->xroot;
		s->comm = k->xcomm;
		s->state = S_DONE;
		break;
	case R_INIT:
		if ((s = slot_new(d, k, t, TRC_MK, line)) == NULL)
			return nomem(d);
		s->mark = "init";
		s->state = S_DONE;
		break;
	default:
		break;
	}
	k->oop = NULL;
	k->ow = NULL;
	return 0;
}

/* A region's name: the value's label, else the type's and the value. */
static const char *
region_name(struct rd *d, uint32_t type, int64_t v)
{
	const char *l;
	char buf[256];
	size_t i, n;
	int32_t id;

	if ((l = lbl_get(&d->lbl, type, v)) != NULL)
		n = (size_t)snprintf(buf, sizeof(buf), "%s", l);
	else if ((l = lbl_get(&d->lbl, type, LBL_TYPE)) != NULL)
		n = (size_t)snprintf(buf, sizeof(buf), "%s:%lld", l,
		    (long long)v);
	else
		n = (size_t)snprintf(buf, sizeof(buf), "%lu:%lld",
		    (unsigned long)type, (long long)v);
	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	for (i = 0; i < n; i++)
		if (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '=')
			buf[i] = '_';
	if (n == 0)
		buf[n++] = '_';
	if ((id = trc_intern(&d->names, buf, n)) < 0)
		return NULL;
	return d->names.name[id];
}

static int
region(struct rd *d, int32_t rank, int64_t t, uint32_t type, int64_t v,
    long line)
{
	struct rrank *k = &d->rk[rank];
	struct slot *s;
	const char *fn;
	size_t i, cap;
	void *p;

	if (v != 0) {
		if ((fn = region_name(d, type, v)) == NULL ||
		    (s = slot_new(d, k, t, TRC_PB, line)) == NULL)
			return nomem(d);
		s->fn = fn;
		s->state = S_DONE;
		if (k->nreg == k->capreg) {
			cap = k->capreg ? 2 * k->capreg : 8;
			if ((p = realloc(k->reg, cap * sizeof(*k->reg))) == NULL)
				return nomem(d);
			k->reg = p;
			k->capreg = cap;
		}
		k->reg[k->nreg].type = type;
		k->reg[k->nreg++].fn = fn;
		return 0;
	}
	for (i = k->nreg; i > 0; i--)
		if (k->reg[i - 1].type == type)
			break;
	if (i == 0) {
		trc_drop(d->r, "user function or event exit with no entry");
		return 0;
	}
	if ((s = slot_new(d, k, t, TRC_PE, line)) == NULL)
		return nomem(d);
	s->fn = k->reg[i - 1].fn;
	s->state = S_DONE;
	memmove(&k->reg[i - 1], &k->reg[i], (k->nreg - i) * sizeof(*k->reg));
	k->nreg--;
	return 0;
}

/* An Extrae event record of a first thread of application 1. */
static int
event_pairs(struct rd *d, char **f, size_t *fl, int n, int32_t rank,
    int64_t t)
{
	long line = trc_lines_lineno(d->l);
	struct xattr x = { 0, 0, TRC_NONE, 0, 0 };
	int64_t type, v;
	int i, coll = 0;

	for (i = 6; i + 1 < n; i += 2) {
		if (field(d->r, d, f, fl, i, &type) < 0 ||
		    field(d->r, d, f, fl, i + 1, &v) < 0)
			return -1;
		if (type < 0 || type > UINT32_MAX)
			return trc_fail_at(d->r, d->name, line,
			    "invalid event type '%.*s'", (int)fl[i], f[i]);
		switch (type) {
		case X_P2P:
		case X_COLL:
		case X_OTHER:
		case X_RMA:
		case X_IO:
			if (v != 0) {
				if (call_begin(d, rank, t, (uint32_t)type, v,
				    line) < 0)
					return -1;
				coll = d->rk[rank].role == R_COLL;
			} else if (call_end(d, rank, t, line) < 0)
				return -1;
			break;
		case X_SSIZE:
		case X_RSIZE:
		case X_ROOT:
		case X_COMM:
			if (!coll) {
				tdrop(d, (uint32_t)type);
				break;
			}
			if (type == X_SSIZE)
				x.ssize = v;
			else if (type == X_RSIZE)
				x.rsize = v;
			else if (type == X_ROOT)
				x.root = v != 0;
			else
				x.comm = v;
			break;
		default:
			if (type == X_USRFUNC || (type < X_FIRST && type > 0)) {
				if (region(d, rank, t, (uint32_t)type, v,
				    line) < 0)
					return -1;
			} else
				tdrop(d, (uint32_t)type);
		}
	}
	if (coll)
		coll_done(d, rank, &x);
	return 0;
}

/* Give up what cannot come any more, now that the input is past d->w. */
static void
settle(struct rd *d, int all)
{
	struct rrank *k;
	struct op *o, *nx;
	struct msg **pp, *m;
	struct wait *w;
	int64_t next = INT64_MAX;
	int32_t i;

	if (!all && d->w <= d->deadline)
		return;
	for (i = 0; i < d->ntask; i++) {
		k = &d->rk[i];
		for (o = k->ops; o != NULL; o = nx) {
			nx = o->next;
			if (o->got)
				continue;
			if (all || (o->role != R_IRECV && o->end < d->w))
				op_void(d->r, k, o);
			else if (o->role != R_IRECV && o->end != INT64_MAX &&
			    o->end < next)
				next = o->end;
		}
		for (pp = &k->msgs; (m = *pp) != NULL;) {
			if (all || m->lrecv < d->w) {
				trc_drop(d->r, "communication record with no "
				    "receive call");
				*pp = m->next;
				free(m);
				continue;
			}
			if (m->lrecv < next)
				next = m->lrecv;
			pp = &m->next;
		}
		waits_try(d, k, 1);
		for (w = k->waits; w != NULL; w = w->next)
			if (w->end < next)
				next = w->end;
	}
	d->deadline = next;
}

/* ---- explicit records: a trace this file wrote ---- */

static const char *
key_name(struct rd *d, int key)
{
	const char *l, *e;
	char *c;
	int cl;

	if (key < NFIXED)
		return key > 0 ? fixed[key] : NULL;
	if (d->keyname[key] != NULL)
		return d->keyname[key];
	for (cl = 0; cl < C_NCLASS; cl++)
		if ((l = lbl_get(&d->lbl, (uint32_t)(T_BASE + 8 * key + cl),
		    LBL_TYPE)) != NULL && strncmp(l, "trc attribute ", 14) == 0)
			break;
	if (cl == C_NCLASS)
		return NULL;
	l += 14;
	e = strchr(l, ' ');
	if (e == NULL)
		e = l + strlen(l);
	/* A key as the stream's reader splits it: "w(s=tring" would read
	 * back as w(s with the value "tring=...", and a CR in a key is a
	 * blank to it (libFuzzer, both). */
	if (e == l || l + strcspn(l, "=\t\r") < e)
		return NULL;
	if ((c = malloc((size_t)(e - l) + 1)) == NULL)
		return NULL;
	memcpy(c, l, (size_t)(e - l));
	c[e - l] = '\0';
	d->keyname[key] = c;
	return c;
}

static void
add_attr(struct trc_evbuild *b, const char *key, const char *val, size_t len,
    int isint, int64_t v)
{
	struct trc_event *ev = b->ev;
	int field = strcmp(key, "peer") == 0 || strcmp(key, "tag") == 0 ||
	    strcmp(key, "comm") == 0 || strcmp(key, "root") == 0 ||
	    strcmp(key, "bytes") == 0 || strcmp(key, "req") == 0;

	/* In range, the field as it is; else as the parser judges it. */
	if (field && isint && v >= 0 && (v <= INT32_MAX ||
	    strcmp(key, "bytes") == 0 || strcmp(key, "req") == 0)) {
		trc_eb_int(b, key, v);
		return;
	}
	trc_eb_str(b, key, val, len);
	if (!field || !isint)
		return;
	/* -1 and -2 as written, the fields as the parser sets them */
	if (strcmp(key, "peer") == 0)
		ev->peer = (int32_t)v;
	else if (strcmp(key, "tag") == 0)
		ev->tag = (int32_t)v;
	else if (strcmp(key, "comm") == 0)
		ev->comm = (int32_t)v;
	else if (strcmp(key, "root") == 0)
		ev->root = (int32_t)v;
	else if (strcmp(key, "bytes") == 0)
		ev->bytes = v;
}

static int
explicit_event(struct rd *d, char **f, size_t *fl, int n, int32_t rank,
    int64_t t, struct trc_event *ev)
{
	long line = trc_lines_lineno(d->l);
	struct trc_evbuild *b = &d->eb;
	int64_t type, v, kind, type2, v2;
	const char *kn, *s;
	char num_[32];
	size_t len;
	int i, key, cl;

	if (field(d->r, d, f, fl, 7, &kind) < 0)
		return -1;
	if (kind < 0 || kind >= TRC_NKINDS)
		return trc_fail_at(d->r, d->name, line, "invalid trc kind %lld",
		    (long long)kind);
	trc_eb_start(b, ev, t, rank, (enum trc_kind)kind);
	for (i = 8; i + 1 < n; i += 2) {
		if (field(d->r, d, f, fl, i, &type) < 0 ||
		    field(d->r, d, f, fl, i + 1, &v) < 0)
			return -1;
		if (type < T_BASE + 8 || type >= T_BASE + 8 * T_NKEYS)
			break;
		key = (int)((type - T_BASE) / 8);
		cl = (int)((type - T_BASE) % 8);
		if ((kn = key_name(d, key)) == NULL)
			return trc_fail_at(d->r, d->name, line, "trc attribute "
			    "type %lld has no name a key can be (is the .pcf "
			    "missing?)",
			    (long long)type);
		switch (cl) {
		case C_INT:
			len = trc_format_int(num_, v);
			add_attr(b, kn, num_, len, 1, v);
			break;
		case C_ANY:
			add_attr(b, kn, "*", 1, 0, 0);
			if (strcmp(kn, "peer") == 0)
				ev->peer = TRC_ANY;
			else if (strcmp(kn, "tag") == 0)
				ev->tag = TRC_ANY;
			break;
		case C_TIME:
			if (v < 0)
				return trc_fail_at(d->r, d->name, line,
				    "invalid time %lld of trc attribute %s",
				    (long long)v, kn);
			/* as a string, so that a field (bytes) given a time
			 * is judged as the parser judges it */
			len = trc_format_time(num_, v);
			add_attr(b, kn, num_, len, 0, 0);
			break;
		case C_STR:
			if ((s = lbl_get(&d->lbl, (uint32_t)type, v)) == NULL)
				return trc_fail_at(d->r, d->name, line,
				    "value %lld of trc attribute %s has no "
				    "label (is the .pcf missing?)",
				    (long long)v, kn);
			add_attr(b, kn, s, strlen(s), 0, 0);
			break;
		case C_LIST:
			len = trc_format_int(d->txt, v);
			while (i + 3 < n && fl[i + 2] == fl[i] &&
			    memcmp(f[i + 2], f[i], fl[i]) == 0) {
				if (field(d->r, d, f, fl, i + 2, &type2) < 0 ||
				    field(d->r, d, f, fl, i + 3, &v2) < 0)
					return -1;
				if (len + 24 > sizeof(d->txt))
					return trc_fail_at(d->r, d->name, line,
					    "list of trc attribute %s too "
					    "long", kn);
				d->txt[len++] = ',';
				len += trc_format_int(d->txt + len, v2);
				i += 2;
			}
			add_attr(b, kn, d->txt, len, 0, 0);
			break;
		default:
			return trc_fail_at(d->r, d->name, line,
			    "invalid trc attribute type %lld", (long long)type);
		}
	}
	if (trc_eb_done(b) < 0)
		return trc_fail_at(d->r, d->name, line, "%s", trc_eb_error(b) ?
		    trc_eb_error(b) : "too many attributes");
	ev->line = line;
	return 1;
}

/* ---- the fast path of explicit records ---- */

/*
 * A number up to ':' or the end, of at most 18 digits (so it cannot
 * overflow): 0, or -1 for anything else, left to the slow path.
 */
static inline __attribute__((always_inline)) int
pnum(const char **pp, const char *end, int64_t *v)
{
	static const uint64_t pow10[8] = { 1, 10, 100, 1000, 10000, 100000,
	    1000000, 10000000 };
	const char *p = *pp, *d;
	uint64_t u = 0, x, y;
	unsigned n, m;
	int neg;

	if ((unsigned)(p[0] - '0') <= 9) {
		/* one or two digits, as most cpus, tasks, threads and
		 * values are */
		if (p[1] == ':' || p[1] == '\0') {
			*v = p[0] - '0';
			*pp = p + 1;
			return 0;
		}
		if ((unsigned)(p[1] - '0') <= 9 && (p[2] == ':' || p[2] == '\0')) {
			*v = (p[0] - '0') * 10 + (p[1] - '0');
			*pp = p + 2;
			return 0;
		}
#if SWAR_LE
		/* more, as times and sizes are: eight at a time, where
		 * the line holds the bytes read (the loop for the rest) */
		if (end - p >= 8) {
			n = swar_count(p, &x);
			if (n < 8) {
				if (p[n] != ':' && p[n] != '\0')
					return -1;
				*v = (int64_t)swar_value(x, n);
				*pp = p + n;
				return 0;
			}
			if (end - p >= 16 && (m = swar_count(p + 8, &y)) < 8 &&
			    (p[8 + m] == ':' || p[8 + m] == '\0')) {
				u = swar_value(x, 8) * pow10[m];
				*v = (int64_t)(m ? u + swar_value(y, m) : u);
				*pp = p + 8 + m;
				return 0;
			}
		}
#endif
	}
	neg = *p == '-';
	d = p += neg;
	while ((unsigned)(*p - '0') <= 9)
		u = u * 10 + (unsigned)(*p++ - '0');
	if (p == d || p - d > 18 || (*p != ':' && *p != '\0'))
		return -1;
	*v = neg ? -(int64_t)u : (int64_t)u;
	*pp = p;
	return 0;
}

/*
 * A type of eight digits and its ':', as all of trc's own are
 * ("9100kkkc", T_BASE + 8 * key + class: the last four digits alone
 * are converted), or pnum's number.
 */
static inline __attribute__((always_inline)) int
ptype(const char **pp, const char *end, int64_t *v)
{
#if SWAR_LE
	const char *p = *pp;
	uint32_t low;
	uint64_t u;

	if (end - p >= 9 && p[8] == ':') {
		if (memcmp(p, "9100", 4) == 0 && swar_digits4(p + 4, &low) == 0) {
			*v = 91000000 + (int64_t)low;
			*pp = p + 8;
			return 0;
		}
		if (swar_digits8(p, &u) == 0) {
			*v = (int64_t)u;
			*pp = p + 8;
			return 0;
		}
	}
#endif
	return pnum(pp, end, v);
}

/* Is class cl the one this file's writer gives key (a field's key)? */
static int
usual_class(int key, int cl)
{
	switch (key) {
	case 1: case 2:			/* peer, tag: a number or * */
		return cl == C_INT || cl == C_ANY;
	case 3: case 4: case 5:		/* bytes, comm, root: a number */
		return cl == C_INT;
	case 7:				/* req: one or a list */
		return cl == C_INT || cl == C_LIST;
	case 8: case 9:			/* op, fn */
		return cl == C_STR;
	}
	return 1;
}

/*
 * An event record of a trace this file wrote, built in place: 1 with
 * the event, 0 to leave the record to record() (which says what is
 * wrong with it, or reads what this does not).
 */
static int
fast_event(struct rd *d, const char *s, size_t slen, struct trc_event *ev)
{
	const char *p = s + 2, *q, *e = s + slen;
	int64_t cpu, app, task, th, t, type, v, kind;
	size_t n = 0, len, i;
	struct trc_attr *a;
	const char *kn, *lab;
	int key, cl;

	if (pnum(&p, e, &cpu) < 0 || *p++ != ':' || pnum(&p, e, &app) < 0 ||
	    *p++ != ':' || pnum(&p, e, &task) < 0 || *p++ != ':' ||
	    pnum(&p, e, &th) < 0 || *p++ != ':' || pnum(&p, e, &t) < 0 ||
	    *p++ != ':' || ptype(&p, e, &type) < 0 || *p++ != ':' ||
	    pnum(&p, e, &kind) < 0)
		return 0;
	if (app != 1 || th != 1 || task < 1 || task > d->ntask ||
	    th > d->threads[0][task - 1] || type != T_BASE || kind < 0 ||
	    kind >= TRC_NKINDS || t < 0 || t > d->tmax)
		return 0;
	t *= d->mult;
	if (t < d->w)
		return 0;
	memset(ev, 0, offsetof(struct trc_event, attr));
	ev->t = t;
	ev->rank = (int32_t)(task - 1);
	ev->kind = (enum trc_kind)kind;
	ev->peer = ev->tag = ev->root = TRC_NONE;
	ev->bytes = ev->req = TRC_NONE;
	ev->fn.s = ev->op.s = ev->reqs.s = "";
	while (*p == ':') {
		const char *vs;

		q = p + 1;
		if (ptype(&q, e, &type) < 0 || *q++ != ':')
			return 0;
		vs = q;
		if (pnum(&q, e, &v) < 0)
			return 0;
		if (type < T_BASE + 8 || type >= T_BASE + 8 * T_NKEYS)
			break;
		key = (int)((type - T_BASE) / 8);
		cl = (int)((type - T_BASE) % 8);
		/* A field in a class this file's writer never gives it
		 * (op=4096): the general path sets it as the parser does. */
		if (!usual_class(key, cl))
			return 0;
		if (ev->nattr == TRC_MAXATTR || n + 64 > sizeof(d->txt) ||
		    (kn = key < NFIXED ? (key ? fixed[key] : NULL) :
		    d->keyname[key]) == NULL)
			return 0;
		a = &ev->attr[ev->nattr];
		a->key.s = kn;
		a->key.len = key < NFIXED ? fixedlen[key] : strlen(kn);
		a->val.s = d->txt + n;
		switch (cl) {
		case C_INT:
			/* as written, unless it is not as trc writes it */
			if ((vs[0] != '0' || q - vs == 1) &&
			    (vs[0] != '-' || vs[1] != '0')) {
				a->val.s = vs;
				a->val.len = (size_t)(q - vs);
				goto set;
			}
			len = trc_format_int(d->txt + n, v);
			break;
		case C_ANY:
			d->txt[n] = '*';
			len = 1;
			v = TRC_ANY;
			break;
		case C_TIME:
			if (v < 0)
				return 0;
			len = trc_format_time(d->txt + n, v);
			break;
		case C_STR:
			if ((lab = lbl_get(&d->lbl, (uint32_t)type, v)) == NULL ||
			    (len = strlen(lab)) + n + 1 > sizeof(d->txt))
				return 0;
			memcpy(d->txt + n, lab, len);
			/* One word, as trc_eb_strk() makes it. */
			for (i = 0; i < len; i++)
				if (d->txt[n + i] == ' ' ||
				    d->txt[n + i] == '\t' ||
				    d->txt[n + i] == '\r')
					d->txt[n + i] = '_';
			break;
		case C_LIST:
			/* A negative request: the general path says so. */
			if (key == 7 && v < 0)
				return 0;
			len = trc_format_int(d->txt + n, v);
			if (key == 7)
				ev->req = v;
			for (;;) {
				int64_t t2, v2;

				p = q;
				if (*p != ':')
					break;
				q = p + 1;
				if (ptype(&q, e, &t2) < 0 || t2 != type)
					break;
				if (*q++ != ':' || pnum(&q, e, &v2) < 0 ||
				    (key == 7 && v2 < 0) ||
				    n + len + 24 > sizeof(d->txt))
					return 0;
				d->txt[n + len++] = ',';
				len += trc_format_int(d->txt + n + len, v2);
			}
			q = p;
			break;
		default:
			return 0;
		}
		a->val.len = len;
		d->txt[n + len] = '\0';
		n += len + 1;
set:
		/* A field out of its range: the general path says why. */
		if (cl == C_INT && key >= 1 && key <= 7 && key != 6 &&
		    (v < 0 || (key != 3 && key != 7 && v > INT32_MAX)))
			return 0;
		ev->nattr++;
		switch (key) {
		case 1:
			ev->peer = (int32_t)v;
			break;
		case 2:
			ev->tag = (int32_t)v;
			break;
		case 3:
			ev->bytes = v;
			break;
		case 4:
			ev->comm = (int32_t)v;
			break;
		case 5:
			ev->root = (int32_t)v;
			break;
		case 7:
			if (cl == C_INT)
				ev->req = v;
			ev->reqs = a->val;
			break;
		case 8:
			ev->op = a->val;
			break;
		case 9:
			ev->fn = a->val;
			break;
		}
		p = q;
	}
	/* the rest, Extrae's pairs, is for Paraver */
	d->w = t;
	ev->line = trc_lines_lineno(d->l);
	return 1;
}

/* ---- the pull loop ---- */

/* One record: 1 with an event (explicit mode), 0 read, -1 error. */
static int
record(struct rd *d, char *s, struct trc_event *ev)
{
	char *f[MAXF];
	size_t fl[MAXF];
	char a[32], b[32];
	long line = trc_lines_lineno(d->l);
	int64_t t, t2, v;
	int32_t rank;
	int n, in;

	switch (s[0]) {
	case '\0':
	case '#':
		return 0;
	case '1':
	case '2':
	case '3':
	case 'c':
	case 'C':
		break;
	case 'i':
	case 'I':
		trc_drop(d->r, "intercommunicator record");
		return 0;
	case '4':
		trc_drop(d->r, "global communication record");
		return 0;
	default:
		return trc_fail_at(d->r, d->name, line,
		    "unknown record type '%c'", s[0]);
	}
	if (s[1] != ':')
		return trc_fail_at(d->r, d->name, line,
		    "unknown record type '%.*s'", (int)strcspn(s, ":"), s);
	n = split(s, f, fl);
	switch (s[0]) {
	case 'c':
	case 'C':
		if (n < 0)
			return nfields(d->r, d, "communicator", n, 0);
		return d->mode == 1 ? 0 : communicator(d->r, d, f, fl, n);
	case '3':
		return comm_record(d->r, d, f, fl, n);
	case '1':
		if (nfields(d->r, d, "state", n, 8) < 0 ||
		    (in = where(d->r, d, f, fl, 1, &rank)) < 0 ||
		    ftime_(d->r, d, f, fl, 5, &t) < 0 ||
		    ftime_(d->r, d, f, fl, 6, &t2) < 0 ||
		    field(d->r, d, f, fl, 7, &v) < 0)
			return -1;
		if (t2 < t)
			return trc_fail_at(d->r, d->name, line,
			    "state ends before it begins");
		if (d->mode != 1) {
			if (in)
				trc_drop(d->r, "state record");
			else
				goto other;
		}
		return 0;
	}
	/* '2' */
	if (n < 0)
		return nfields(d->r, d, "event", n, 0);
	if (n < 8 || n % 2 != 0)
		return trc_fail_at(d->r, d->name, line, n < 8 ?
		    "event record with %d fields (want at least 8)" :
		    "event record with %d fields (want type:value pairs)", n);
	if ((in = where(d->r, d, f, fl, 1, &rank)) < 0 ||
	    ftime_(d->r, d, f, fl, 5, &t) < 0 || field(d->r, d, f, fl, 6, &v) < 0)
		return -1;
	if (t < d->w) {
		a[trc_format_time(a, t)] = '\0';
		b[trc_format_time(b, d->w)] = '\0';
		return trc_fail_at(d->r, d->name, line,
		    "event record out of time order ('%s' after '%s')", a, b);
	}
	d->w = t;
	if (d->mode < 0)
		d->mode = v == T_BASE;
	if (d->mode == 1) {
		if (v != T_BASE)
			return trc_fail_at(d->r, d->name, line, "event record "
			    "with no trc kind in a trace written by trc");
		if (!in)
			goto other;
		return explicit_event(d, f, fl, n, rank, t, ev);
	}
	if (!in)
		goto other;
	if (event_pairs(d, f, fl, n, rank, t) < 0)
		return -1;
	settle(d, 0);
	return 0;
other:
	{
		int64_t app, th;
		char what[64];

		num(f[2], fl[2], &app);
		num(f[4], fl[4], &th);
		if (app != 1)
			snprintf(what, sizeof(what), "record of application %lld",
			    (long long)app);
		else
			snprintf(what, sizeof(what), "record of a thread other "
			    "than the first");
		trc_drop(d->r, what);
	}
	if (s[0] == '2')
		settle(d, 0);
	return 0;
}

static size_t
reqlist(char *buf, size_t cap, const struct wait *w)
{
	size_t i, n = 0;

	for (i = 0; i < w->n && n + 24 < cap; i++) {
		if (i > 0)
			buf[n++] = ',';
		n += trc_format_int(buf + n, w->reqs[i]);
	}
	return n;
}

static int
build(struct rd *d, int32_t rank, struct slot *s, struct trc_event *ev)
{
	struct trc_evbuild *b = &d->eb;
	const struct done *dn;
	size_t n;

	/* A call whose name was lost (fuzz/pending/paraver): said, not
	 * dereferenced; how it is lost is not found yet. */
	if (s->op == NULL)
		return trc_fail_at(d->r, d->name, s->line, "a call without "
		    "its name");
	if (s->sub < (s->w != NULL ? s->w->nd : 0) && s->kind == TRC_WE) {
		/* the receives the wait completed, before it */
		dn = &s->w->d[s->sub++];
		trc_eb_start(b, ev, s->t, rank, TRC_RE);
		trc_eb_int(b, "req", dn->req);
		trc_eb_int(b, "peer", dn->peer);
		trc_eb_int(b, "tag", dn->tag);
		trc_eb_int(b, "bytes", dn->bytes);
		ev->line = s->line;
		return 0;
	}
	trc_eb_start(b, ev, s->t, rank, (enum trc_kind)s->kind);
	switch (s->kind) {
	case TRC_SB:
	case TRC_SE:
	case TRC_RB:
	case TRC_RE:
		if (s->kind == TRC_RE && s->req != TRC_NONE)
			trc_eb_int(b, "req", s->req);
		trc_eb_int(b, "peer", s->peer);
		trc_eb_int(b, "tag", s->tag);
		trc_eb_int(b, "bytes", s->bytes);
		if (s->kind != TRC_RE)
			trc_eb_int(b, "req", s->req);
		if (s->op[0] != '\0')
			trc_eb_str(b, "op", s->op, strlen(s->op));
		if (s->depart != TRC_NONE)
			trc_eb_time(b, "depart", s->depart);
		if (s->arrive != TRC_NONE)
			trc_eb_time(b, "arrive", s->arrive);
		break;
	case TRC_WB:
	case TRC_WE:
		if (s->w != NULL && s->w->n > 0) {
			n = reqlist(d->txt, sizeof(d->txt), s->w);
			trc_eb_str(b, "req", d->txt, n);
		}
		trc_eb_str(b, "op", s->op, strlen(s->op));
		break;
	case TRC_XB:
	case TRC_XE:
		trc_eb_str(b, "op", s->op, strlen(s->op));
		trc_eb_int(b, "bytes", s->bytes);
		trc_eb_int(b, "root", s->root);
		if (s->comm != 0)
			trc_eb_int(b, "comm", s->comm);
		if (s->kind == TRC_XB)
			trc_eb_int(b, "size", s->size);
		break;
	case TRC_PB:
	case TRC_PE:
		trc_eb_str(b, "fn", s->fn, strlen(s->fn));
		break;
	case TRC_MK:
		trc_eb_str(b, "mark", s->mark, strlen(s->mark));
		break;
	}
	s->sub = 255;
	ev->line = s->line;
	if (trc_eb_done(b) < 0)
		return trc_fail_at(d->r, d->name, s->line, "%s", trc_eb_error(b) ?
		    trc_eb_error(b) : "too many attributes");
	return 0;
}

/*
 * The earliest complete slot not after any incomplete one: 1 with it
 * built into ev, 0 when none can go yet.
 */
static int
emit(struct rd *d, struct trc_event *ev)
{
	struct rrank *k;
	struct slot *s;
	int64_t block = INT64_MAX, best = INT64_MAX;
	int32_t i, r = -1;

	if ((s = d->emitting) != NULL) {
		k = &d->rk[d->emitrank];
		if (build(d, d->emitrank, s, ev) < 0)
			return -1;
		if (s->sub == 255) {
			d->emitting = NULL;
			slot_pop(d, k);
		}
		return 1;
	}
	for (i = 0; i < d->ntask; i++) {
		k = &d->rk[i];
		while ((s = k->head) != NULL && s->state == S_VOID)
			slot_pop(d, k);
		if (s == NULL)
			continue;
		if (s->state == S_WAIT) {
			if (s->t < block)
				block = s->t;
		} else if (s->t < best) {
			best = s->t;
			r = i;
		}
	}
	if (r < 0 || best > block)
		return 0;
	k = &d->rk[r];
	s = k->head;
	if (build(d, r, s, ev) < 0)
		return -1;
	if (s->sub == 255)
		slot_pop(d, k);
	else {
		d->emitting = s;
		d->emitrank = r;
	}
	return 1;
}

/* The end of the input: what waits for a record gets none. */
static void
finish(struct rd *d)
{
	struct rrank *k;
	struct slot *s;
	struct op *o, *nx;
	char what[96];
	int32_t i;

	for (i = 0; i < d->ntask; i++) {
		k = &d->rk[i];
		if (k->open && (k->role == R_WAIT || k->role == R_TEST ||
		    k->role == R_SENDRECV) && k->ow != NULL) {
			/* a wait cut off by the end of the trace */
			snprintf(what, sizeof(what), "%s call unfinished at "
			    "the end", k->oname);
			trc_drop(d->r, what);
			k->ow->wb->state = S_VOID;
			if (k->role != R_SENDRECV)
				wait_unref(k->ow);	/* the WE's */
			wait_unref(k->ow);		/* the list's */
			k->ow = NULL;
		}
	}
	d->w = INT64_MAX;
	for (i = 0; i < d->ntask; i++)
		waits_try(d, &d->rk[i], 1);
	settle(d, 1);
	for (i = 0; i < d->ntask; i++) {
		k = &d->rk[i];
		for (o = k->ops; o != NULL; o = nx) {
			nx = o->next;
			trc_drop(d->r, "receive completed in no wait");
			op_unlink(k, o);
			free(o);
		}
		for (s = k->head; s != NULL; s = s->next)
			if (s->state == S_WAIT) {
				s->state = S_VOID;
				trc_drop(d->r, "event left incomplete");
			}
	}
}

static int
next(struct trc_reader *r, struct trc_event *ev)
{
	struct rd *d = trc_reader_state(r);
	char *s;
	size_t len;
	int rc;

	for (;;) {
		if (d->mode != 1 && (rc = emit(d, ev)) != 0)
			return rc;
		if (d->eof) {
			if (d->ntd > 0)
				tdrop_flush(r, d);
			return 0;
		}
		rc = trc_lines_next(d->l, &s, &len);
		if (rc < 0)
			return trc_fail_lines(r, d->l);
		if (rc == 0) {
			d->eof = 1;
			if (d->mode != 1)
				finish(d);
			continue;
		}
		if (d->mode == 1) {
			/* the states and records Paraver shows are not read */
			if (s[0] == '1' || s[0] == '3' || s[0] == 'c' ||
			    s[0] == 'C' || s[0] == '#' || s[0] == '\0')
				continue;
			if (s[0] == '2' && (rc = fast_event(d, s, len, ev)) != 0)
				return rc;
		}
		if ((rc = record(d, s, ev)) != 0)
			return rc;
	}
}

static void
rclose(void *state)
{
	struct rd *d = state;
	struct slot *s;
	struct op *o;
	struct msg *m;
	struct wait *w;
	int32_t i;

	if (d == NULL)
		return;
	for (i = 0; d->rk != NULL && i < d->ntask; i++) {
		struct rrank *k = &d->rk[i];

		while (k->head != NULL)
			slot_pop(d, k);
		while ((o = k->ops) != NULL) {
			k->ops = o->next;
			free(o);
		}
		while ((m = k->msgs) != NULL) {
			k->msgs = m->next;
			free(m);
		}
		while ((w = k->waits) != NULL) {
			k->waits = w->next;
			wait_unref(w);
		}
		if (k->open && k->ow != NULL) {
			if (k->role != R_SENDRECV)
				wait_unref(k->ow);
			wait_unref(k->ow);
		}
		free(k->reg);
	}
	while ((s = d->free) != NULL) {
		d->free = s->next;
		free(s);
	}
	for (i = 0; d->threads != NULL && i < d->napp; i++)
		free(d->threads[i]);
	for (i = 0; i < T_NKEYS; i++)
		free(d->keyname[i]);
	free(d->threads);
	free(d->apptasks);
	free(d->rk);
	free(d->comms);
	free(d->td);
	free(d->extra);
	lbl_free(&d->lbl);
	trc_intern_free(&d->names);
	trc_lines_close(d->l);
	free(d);
}

static int
bid(const char *path, const unsigned char *head, size_t n)
{
	(void)path;
	return n >= 10 && memcmp(head, "#Paraver (", 10) == 0 ? 100 : 0;
}

/* The .pcf beside a .prv or .prv.gz; NULL when the name is neither. */
static char *
pcf_path(const char *prv)
{
	size_t n = strlen(prv), cut;
	char *p;

	if (n > 7 && strcmp(prv + n - 7, ".prv.gz") == 0)
		cut = n - 7;
	else if (n > 4 && strcmp(prv + n - 4, ".prv") == 0)
		cut = n - 4;
	else
		return NULL;
	if ((p = malloc(cut + 5)) == NULL)
		return NULL;
	memcpy(p, prv, cut);
	memcpy(p + cut, ".pcf", 5);
	return p;
}

static int
ropen(struct trc_reader *r, struct trc_src *src,
    const struct trc_open_opts *opts)
{
	struct trc_header *h = trc_reader_header(r);
	struct rd *d;
	char *s, *pcf;
	size_t len;
	int rc;

	(void)opts;
	if ((d = calloc(1, sizeof(*d))) == NULL)
		return trc_fail_at(r, trc_src_name(src), 0, "out of memory");
	trc_reader_set_state(r, d);
	d->r = r;
	d->mode = -1;
	d->deadline = INT64_MAX;
	if ((d->l = trc_lines_new(src, 0)) == NULL)
		return trc_fail_at(r, trc_src_name(src), 0, "out of memory");
	d->name = trc_lines_name(d->l);
	if ((rc = trc_lines_next(d->l, &s, &len)) < 0)
		return trc_fail_lines(r, d->l);
	if (rc == 0)
		return trc_fail_at(r, d->name, 1, "empty Paraver trace");
	if (parse_header(r, d, s) < 0)
		return -1;
	if ((d->rk = calloc((size_t)d->ntask, sizeof(*d->rk))) == NULL)
		return nomem(d);
	if ((pcf = pcf_path(d->name)) != NULL) {
		rc = read_pcf(r, d, pcf);
		free(pcf);
		if (rc < 0)
			return -1;
	}
	h->ranks = d->ntask;
	h->order = TRC_ORDER_TIME;
	if (d->extra != NULL) {
		h->extra.s = d->extra;
		h->extra.len = d->extralen;
	}
	return 0;
}

/* ================================================================ */
/* Writing. */

#define WBUF	(1 << 18)

struct wrank {
	int64_t		 since;		/* the state's begin */
	int		 state;
	int64_t		 sb, rb;	/* the last SB, blocking RB */
	int		 wpair, xpair;	/* the wait, collective wrote a pair */
	struct {
		int64_t	 req, t;
	}		*ir;		/* Irecvs posted: their RB times */
	size_t		 nir, capir;
};

/* A message from its send's end until its record is written. */
struct wmsg {
	uint64_t	 off;
	int64_t		 lsend, psend, lrecv, precv, bytes;
	int32_t		 src, dst, tag;
	int		 done;
};

struct wcomm {
	int32_t		 comm;
	uint8_t		*in;		/* by rank */
	size_t		 cap;
};

struct wr {
	struct trc_out	*out;
	char		*base, *prv;
	int		 fd, bfd, cfd;
	char		*bbuf, *cbuf;
	size_t		 blen, clen;
	uint64_t	 boff;		/* body bytes so far */
	int		 failed;
	int32_t		 ranks, seen;
	struct wrank	*rk;
	size_t		 caprk;
	int64_t		 end;
	struct trc_intern keys, strs;
	uint8_t		 used[T_NKEYS];	/* classes used, by key */
	uint8_t		*isfn;		/* by string id */
	size_t		 capfn;
	struct trc_match *mt;
	struct wmsg	*q;
	size_t		 qcap, qhead, qn;
	int64_t		 qseq;		/* the sequence number of q[qhead] */
	struct wcomm	*comms;
	size_t		 ncomms;
	char		*extra;
	char		*line;
	size_t		 len, cap;
};

static int
wfail(struct wr *w, const char *name)
{
	if (!w->failed)
		trc_out_fail(w->out, "%s: write error: %s", name,
		    strerror(errno));
	w->failed = 1;
	return -1;
}

static int
writeall(int fd, const char *p, size_t n)
{
	ssize_t k;

	while (n > 0) {
		if ((k = write(fd, p, n)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (k == 0) {
			errno = ENOSPC;
			return -1;
		}
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static int
line_need(struct wr *w, size_t n)
{
	if (trc_grow(&w->line, &w->cap, w->len + n, 1, 4096) < 0)
		return trc_out_fail(w->out, "out of memory");
	return 0;
}

static void
put_s(struct wr *w, const char *s, size_t n)
{
	memcpy(w->line + w->len, s, n);
	w->len += n;
}

static void
put_n(struct wr *w, int64_t v)
{
	w->len += fmt_u(w->line + w->len, v);
}

/* ":type:value" */
static void
put_pair(struct wr *w, int64_t type, int64_t v)
{
	w->line[w->len++] = ':';
	put_n(w, type);
	w->line[w->len++] = ':';
	put_n(w, v);
}

/* The line to the body temporary. */
static int
body_line(struct wr *w)
{
	w->line[w->len++] = '\n';
	if (w->blen + w->len > WBUF) {
		if (writeall(w->bfd, w->bbuf, w->blen) < 0)
			return wfail(w, w->prv);
		w->blen = 0;
	}
	if (w->len > WBUF) {
		if (writeall(w->bfd, w->line, w->len) < 0)
			return wfail(w, w->prv);
	} else {
		memcpy(w->bbuf + w->blen, w->line, w->len);
		w->blen += w->len;
	}
	w->boff += w->len;
	w->len = 0;
	return 0;
}

static int
grow_ranks(struct wr *w, int32_t rank)
{
	size_t cap, i;
	struct wrank *p;

	if ((size_t)rank < w->caprk)
		return 0;
	for (cap = w->caprk ? w->caprk : 64; cap <= (size_t)rank; cap *= 2)
		;
	if ((p = realloc(w->rk, cap * sizeof(*p))) == NULL)
		return trc_out_fail(w->out, "out of memory");
	for (i = w->caprk; i < cap; i++) {
		memset(&p[i], 0, sizeof(p[i]));
		p[i].state = ST_RUN;
	}
	w->rk = p;
	w->caprk = cap;
	return 0;
}

/* "1:cpu:1:task:1:begin:end:state" */
static int
state_line(struct wr *w, int32_t rank, int64_t begin, int64_t end, int st)
{
	if (line_need(w, 160) < 0)
		return -1;
	w->len = 0;
	put_s(w, "1:", 2);
	put_n(w, rank + 1);
	put_s(w, ":1:", 3);
	put_n(w, rank + 1);
	put_s(w, ":1:", 3);
	put_n(w, begin);
	w->line[w->len++] = ':';
	put_n(w, end);
	w->line[w->len++] = ':';
	put_n(w, st);
	return body_line(w);
}

static int
set_state(struct wr *w, int32_t rank, int64_t t, int st)
{
	struct wrank *k = &w->rk[rank];

	if (st == k->state)
		return 0;
	if (t > k->since && state_line(w, rank, k->since, t, k->state) < 0)
		return -1;
	k->state = st;
	k->since = t;
	return 0;
}

/* A message's record to the communication temporary, with its offset. */
static int
comm_out(struct wr *w, const struct wmsg *m)
{
	char buf[512];
	size_t n = 0;

	if (m->dst >= w->ranks && m->dst >= w->seen) {
		trc_out_drop(w->out, "message to a rank not in the trace");
		return 0;
	}
	memcpy(buf, &m->off, 8);
	n = 12;
	memcpy(buf + n, "3:", 2);
	n += 2;
	n += fmt_u(buf + n, m->src + 1);
	memcpy(buf + n, ":1:", 3);
	n += 3;
	n += fmt_u(buf + n, m->src + 1);
	memcpy(buf + n, ":1:", 3);
	n += 3;
	n += fmt_u(buf + n, m->lsend);
	buf[n++] = ':';
	n += fmt_u(buf + n, m->psend);
	buf[n++] = ':';
	n += fmt_u(buf + n, m->dst + 1);
	memcpy(buf + n, ":1:", 3);
	n += 3;
	n += fmt_u(buf + n, m->dst + 1);
	memcpy(buf + n, ":1:", 3);
	n += 3;
	n += fmt_u(buf + n, m->lrecv);
	buf[n++] = ':';
	n += fmt_u(buf + n, m->precv);
	buf[n++] = ':';
	n += fmt_u(buf + n, m->bytes);
	buf[n++] = ':';
	n += fmt_u(buf + n, m->tag);
	buf[n++] = '\n';
	{
		uint32_t len = (uint32_t)(n - 12);

		memcpy(buf + 8, &len, 4);
	}
	if (w->clen + n > WBUF) {
		if (writeall(w->cfd, w->cbuf, w->clen) < 0)
			return wfail(w, w->prv);
		w->clen = 0;
	}
	memcpy(w->cbuf + w->clen, buf, n);
	w->clen += n;
	return 0;
}

/* Records written in their sends' order, as far as they are known. */
static int
q_flush(struct wr *w, int all)
{
	struct wmsg *m;

	while (w->qn > 0) {
		m = &w->q[w->qhead];
		if (!m->done && !all)
			break;
		if (m->done) {
			if (comm_out(w, m) < 0)
				return -1;
		} else
			trc_out_drop(w->out, "message with no receive "
			    "(no communication record)");
		w->qhead = (w->qhead + 1) % w->qcap;
		w->qn--;
		w->qseq++;
	}
	return 0;
}

static struct wmsg *
q_at(struct wr *w, int64_t seq)
{
	if (seq < w->qseq || seq >= w->qseq + (int64_t)w->qn)
		return NULL;
	return &w->q[(w->qhead + (size_t)(seq - w->qseq)) % w->qcap];
}

static int
q_push(struct wr *w, const struct wmsg *m, int64_t *seq)
{
	struct wmsg *p;
	size_t cap, i;

	if (w->qn == w->qcap) {
		cap = w->qcap ? 2 * w->qcap : 256;
		if ((p = malloc(cap * sizeof(*p))) == NULL)
			return trc_out_fail(w->out, "out of memory");
		for (i = 0; i < w->qn; i++)
			p[i] = w->q[(w->qhead + i) % w->qcap];
		free(w->q);
		w->q = p;
		w->qcap = cap;
		w->qhead = 0;
	}
	*seq = w->qseq + (int64_t)w->qn;
	w->q[(w->qhead + w->qn++) % w->qcap] = *m;
	return 0;
}

/* The time of attribute key, or dflt. */
static int64_t
attr_time(const struct trc_event *ev, const char *key, int64_t dflt)
{
	const struct trc_str *v = trc_attr_get(ev, key);
	int64_t t;

	if (v == NULL || trc_parse_time(v->s, v->len, &t) < 0)
		return dflt;
	return t;
}

static int
messages(struct wr *w, const struct trc_event *ev)
{
	struct wrank *k = &w->rk[ev->rank];
	struct trc_msg m, peer;
	struct wmsg wm, *p;
	int64_t seq = 0, lrecv;
	size_t i;
	int rc;

	memset(&m, 0, sizeof(m));
	if (ev->kind == TRC_SE && ev->peer >= 0) {
		memset(&wm, 0, sizeof(wm));
		wm.off = w->boff;
		wm.lsend = k->sb <= ev->t ? k->sb : ev->t;
		wm.psend = attr_time(ev, "depart", ev->t);
		wm.bytes = ev->bytes > 0 ? ev->bytes : 0;
		wm.src = ev->rank;
		wm.dst = ev->peer;
		wm.tag = ev->tag >= 0 ? ev->tag : 0;
		if (q_push(w, &wm, &seq) < 0)
			return -1;
		m.src = ev->rank;
		m.dst = ev->peer;
		m.tag = ev->tag;
		m.comm = ev->comm;
		m.bytes = ev->bytes;
		m.val = seq;
		m.send = 1;
		if ((rc = trc_match_send(w->mt, &m, &peer)) < 0)
			return trc_out_fail(w->out, "out of memory");
		if (rc == 1 && (p = q_at(w, seq)) != NULL) {
			p->lrecv = peer.val;
			p->precv = peer.aux;
			p->done = 1;
		}
	} else if (ev->kind == TRC_RE && ev->peer >= 0) {
		lrecv = ev->t;
		if (ev->req != TRC_NONE) {
			for (i = 0; i < k->nir; i++)
				if (k->ir[i].req == ev->req) {
					lrecv = k->ir[i].t;
					k->ir[i] = k->ir[--k->nir];
					break;
				}
		} else if (k->rb <= ev->t)
			lrecv = k->rb;
		m.src = ev->peer;
		m.dst = ev->rank;
		m.tag = ev->tag;
		m.comm = ev->comm;
		m.bytes = ev->bytes;
		m.val = lrecv;
		m.aux = attr_time(ev, "arrive", ev->t);
		if ((rc = trc_match_recv(w->mt, &m, &peer)) < 0)
			return trc_out_fail(w->out, "out of memory");
		if (rc == 1 && (p = q_at(w, peer.val)) != NULL) {
			p->lrecv = m.val;
			p->precv = m.aux;
			p->done = 1;
		}
	}
	return q_flush(w, 0);
}

/* The value of an attribute as trc's types say it: its class. */
static int
classify(const char *s, size_t len, int64_t *v)
{
	size_t i, j;
	int64_t x;
	int commas = 0;

	if (len == 1 && s[0] == '*')
		return C_ANY;
	if (canon_int(s, len, v) == 0)
		return C_INT;
	if (canon_time(s, len, v) == 0)
		return C_TIME;
	for (i = 0; i < len; i = j + 1) {
		for (j = i; j < len && s[j] != ','; j++)
			;
		if (canon_int(s + i, j - i, &x) < 0)
			return C_STR;
		if (j < len)
			commas++;
	}
	return commas > 0 && s[len - 1] != ',' ? C_LIST : C_STR;
}

static int32_t
str_id(struct wr *w, const char *s, size_t len)
{
	int32_t id = trc_intern(&w->strs, s, len);

	if (id < 0)
		trc_out_fail(w->out, "out of memory");
	return id < 0 ? -1 : id + 1;
}

/* Extrae's id of a call "MPI_" + op, the op capitalized. */
static int
op_call(const char *op, size_t len)
{
	char name[64];

	if (len == 0 || len > 40)
		return 0;
	memcpy(name, "MPI_", 4);
	memcpy(name + 4, op, len);
	name[4] = (char)(op[0] >= 'a' && op[0] <= 'z' ? op[0] - 'a' + 'A' :
	    op[0]);
	name[4 + len] = '\0';
	return xcall_id(name);
}

static int
extrae_pairs(struct wr *w, const struct trc_event *ev)
{
	struct wrank *k = &w->rk[ev->rank];
	const char *op = ev->op.s;
	size_t ol = ev->op.len;
	int id;
	int32_t sid;

	switch (ev->kind) {
	case TRC_SB:
		if (ev->req != TRC_NONE)
			id = ol == 6 && memcmp(op, "issend", 6) == 0 ? 37 :
			    ol == 6 && memcmp(op, "irsend", 6) == 0 ? 38 :
			    ol == 6 && memcmp(op, "ibsend", 6) == 0 ? 36 : 3;
		else
			id = ol == 5 && memcmp(op, "ssend", 5) == 0 ? 34 :
			    ol == 5 && memcmp(op, "rsend", 5) == 0 ? 35 :
			    ol == 5 && memcmp(op, "bsend", 5) == 0 ? 33 : 1;
		put_pair(w, X_P2P, id);
		break;
	case TRC_SE:
		put_pair(w, X_P2P, 0);
		break;
	case TRC_RB:
		if (ev->req != TRC_NONE) {
			put_pair(w, X_P2P, 4);
			put_pair(w, X_P2P, 0);
		} else
			put_pair(w, X_P2P, 2);
		break;
	case TRC_RE:
		if (ev->req == TRC_NONE)
			put_pair(w, X_P2P, 0);
		break;
	case TRC_WB:
		if ((id = op_call(op, ol)) == 0 || id == 41 ||
		    (id != 5 && id != 6 && id != 39 && (id < 59 || id > 62) &&
		    id != 125 && id != 126 && id != 128))
			id = 5;
		put_pair(w, X_P2P, id);
		k->wpair = 1;
		break;
	case TRC_WE:
		if (k->wpair)
			put_pair(w, X_P2P, 0);
		k->wpair = 0;
		break;
	case TRC_XB:
		k->xpair = 0;
		if ((id = op_call(op, ol)) == 0 || ((id < 7 || id > 18) &&
		    id != 30 && id != 80 && id != 168 && id != 170))
			break;
		put_pair(w, X_COLL, id);
		put_pair(w, X_SSIZE, ev->bytes > 0 ? ev->bytes : 0);
		put_pair(w, X_RSIZE, ev->bytes > 0 ? ev->bytes : 0);
		put_pair(w, X_COMM, ev->comm >= 0 ? ev->comm + 1 : 0);
		if (ev->root >= 0 && ev->root == ev->rank)
			put_pair(w, X_ROOT, 1);
		k->xpair = 1;
		break;
	case TRC_XE:
		if (k->xpair)
			put_pair(w, X_COLL, 0);
		k->xpair = 0;
		break;
	case TRC_PB:
		if ((sid = str_id(w, ev->fn.s, ev->fn.len)) < 0)
			return -1;
		if ((size_t)sid >= w->capfn) {
			size_t cap = w->capfn ? 2 * w->capfn : 256;
			uint8_t *p;

			while (cap <= (size_t)sid)
				cap *= 2;
			if ((p = realloc(w->isfn, cap)) == NULL)
				return trc_out_fail(w->out, "out of memory");
			memset(p + w->capfn, 0, cap - w->capfn);
			w->isfn = p;
			w->capfn = cap;
		}
		w->isfn[sid] = 1;
		put_pair(w, X_USRFUNC, sid);
		break;
	case TRC_PE:
		put_pair(w, X_USRFUNC, 0);
		break;
	default:
		break;
	}
	return 0;
}

static int
comm_member(struct wr *w, int32_t comm, int32_t rank)
{
	struct wcomm *c = NULL, *p;
	size_t i, cap;
	uint8_t *in;

	for (i = 0; i < w->ncomms; i++)
		if (w->comms[i].comm == comm)
			c = &w->comms[i];
	if (c == NULL) {
		if ((p = realloc(w->comms, (w->ncomms + 1) * sizeof(*p))) ==
		    NULL)
			return trc_out_fail(w->out, "out of memory");
		w->comms = p;
		c = &p[w->ncomms++];
		memset(c, 0, sizeof(*c));
		c->comm = comm;
	}
	if ((size_t)rank >= c->cap) {
		for (cap = c->cap ? c->cap : 64; cap <= (size_t)rank; cap *= 2)
			;
		if ((in = realloc(c->in, cap)) == NULL)
			return trc_out_fail(w->out, "out of memory");
		memset(in + c->cap, 0, cap - c->cap);
		c->in = in;
		c->cap = cap;
	}
	c->in[rank] = 1;
	return 0;
}

static int
wwrite(struct trc_out *out, const struct trc_event *ev)
{
	struct wr *w = trc_out_state(out);
	const struct trc_attr *a;
	struct wrank *k;
	int64_t v, x;
	int32_t kid, tk;
	size_t i, j, need;
	int cl, st;

	if (w->failed)
		return -1;
	if (grow_ranks(w, ev->rank) < 0)
		return -1;
	if (ev->rank >= w->seen)
		w->seen = ev->rank + 1;
	if (ev->t > w->end)
		w->end = ev->t;
	k = &w->rk[ev->rank];
	need = 128;
	for (i = 0; i < (size_t)ev->nattr; i++)
		need += 32 * (ev->attr[i].val.len + 1);
	if (line_need(w, need) < 0)
		return -1;
	w->len = 0;
	put_s(w, "2:", 2);
	put_n(w, ev->rank + 1);
	put_s(w, ":1:", 3);
	put_n(w, ev->rank + 1);
	put_s(w, ":1:", 3);
	put_n(w, ev->t);
	put_pair(w, T_BASE, ev->kind);
	for (i = 0; i < (size_t)ev->nattr; i++) {
		a = &ev->attr[i];
		if ((kid = trc_intern(&w->keys, a->key.s, a->key.len)) < 0)
			return trc_out_fail(out, "out of memory");
		tk = kid < NFIXED ? kid : kid - NFIXED + DYNKEY;
		if (tk >= T_NKEYS)
			return trc_out_fail(out, "more than %d attribute names",
			    T_NKEYS - DYNKEY);
		cl = classify(a->val.s, a->val.len, &v);
		w->used[tk] |= (uint8_t)(1u << cl);
		switch (cl) {
		case C_ANY:
			v = 0;
			break;
		case C_STR:
			if ((v = str_id(w, a->val.s, a->val.len)) < 0)
				return -1;
			break;
		case C_LIST:
			for (j = 0; j < a->val.len; j++) {
				size_t e = j;

				while (e < a->val.len && a->val.s[e] != ',')
					e++;
				num(a->val.s + j, e - j, &x);
				put_pair(w, T_BASE + 8 * tk + cl, x);
				j = e;
			}
			continue;
		}
		put_pair(w, T_BASE + 8 * tk + cl, v);
	}
	if (extrae_pairs(w, ev) < 0 || body_line(w) < 0)
		return -1;
	/* the state it begins, and what follows for messages */
	switch (ev->kind) {
	case TRC_SB:
		k->sb = ev->t;
		st = ev->req != TRC_NONE ? ST_ISEND : ST_SEND;
		break;
	case TRC_RB:
		if (ev->req != TRC_NONE) {
			if (k->nir == k->capir) {
				size_t cap = k->capir ? 2 * k->capir : 16;
				void *p = realloc(k->ir, cap * sizeof(*k->ir));

				if (p == NULL)
					return trc_out_fail(out,
					    "out of memory");
				k->ir = p;
				k->capir = cap;
			}
			k->ir[k->nir].req = ev->req;
			k->ir[k->nir++].t = ev->t;
			st = k->state;
		} else {
			k->rb = ev->t;
			st = ST_RECV;
		}
		break;
	case TRC_RE:
		st = ev->req != TRC_NONE ? k->state : ST_RUN;
		break;
	case TRC_WB:
		st = ST_WAIT;
		break;
	case TRC_XB:
		if (ev->comm != 0 && comm_member(w, ev->comm, ev->rank) < 0)
			return -1;
		st = ST_COLL;
		break;
	case TRC_SE:
	case TRC_WE:
	case TRC_XE:
		st = ST_RUN;
		break;
	default:
		st = k->state;
	}
	if (set_state(w, ev->rank, ev->t, st) < 0)
		return -1;
	return messages(w, ev);
}

static int
wtemp(struct wr *w, int *fd)
{
	size_t n = strlen(w->prv);
	char *t;

	if ((t = malloc(n + 8)) == NULL)
		return trc_out_fail(w->out, "out of memory");
	memcpy(t, w->prv, n);
	memcpy(t + n, ".XXXXXX", 8);
	if ((*fd = mkstemp(t)) < 0) {
		trc_out_fail(w->out, "%s: %s", t, strerror(errno));
		free(t);
		return -1;
	}
	unlink(t);
	free(t);
	return 0;
}

static void
wfree(void *state)
{
	struct wr *w = state;
	size_t i;

	if (w == NULL)
		return;
	if (w->fd >= 0)
		close(w->fd);
	if (w->bfd >= 0)
		close(w->bfd);
	if (w->cfd >= 0)
		close(w->cfd);
	for (i = 0; i < w->caprk; i++)
		free(w->rk[i].ir);
	for (i = 0; i < w->ncomms; i++)
		free(w->comms[i].in);
	free(w->comms);
	free(w->rk);
	free(w->q);
	free(w->isfn);
	free(w->line);
	free(w->bbuf);
	free(w->cbuf);
	free(w->base);
	free(w->prv);
	free(w->extra);
	trc_intern_free(&w->keys);
	trc_intern_free(&w->strs);
	trc_match_free(w->mt);
	free(w);
}

static int
wopen(struct trc_out *out, const char *path, const struct trc_header *h)
{
	struct wr *w;
	const char *name;
	size_t n;
	int i;

	if ((w = calloc(1, sizeof(*w))) == NULL)
		return trc_out_fail(out, "out of memory");
	trc_out_set_state(out, w);
	w->out = out;
	w->fd = w->bfd = w->cfd = -1;
	if (path == NULL || strcmp(path, "-") == 0)
		return trc_out_fail(out, "the prv format writes three files "
		    "(.prv, .pcf, .row): give -o PATH");
	n = strlen(path);
	if (n > 4 && strcmp(path + n - 4, ".prv") == 0)
		n -= 4;
	if ((w->base = malloc(n + 1)) == NULL ||
	    (w->prv = malloc(n + 5)) == NULL ||
	    (w->bbuf = malloc(WBUF)) == NULL ||
	    (w->cbuf = malloc(WBUF)) == NULL ||
	    (w->mt = trc_match_new()) == NULL)
		return trc_out_fail(out, "out of memory");
	memcpy(w->base, path, n);
	w->base[n] = '\0';
	memcpy(w->prv, path, n);
	memcpy(w->prv + n, ".prv", 5);
	/* Each of the three files under a temporary name until all are
	 * complete (trc_out_part): a failed run leaves none of them. */
	if ((name = trc_out_part(out, w->prv)) == NULL)
		return -1;
	if ((w->fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0)
		return trc_out_fail(out, "%s: %s", w->prv, strerror(errno));
	if (wtemp(w, &w->bfd) < 0 || wtemp(w, &w->cfd) < 0)
		return -1;
	for (i = 0; i < NFIXED; i++)
		if (trc_intern(&w->keys, fixed[i], strlen(fixed[i])) < 0)
			return trc_out_fail(out, "out of memory");
	w->ranks = h->ranks;
	if (h->extra.len > 0) {
		if ((w->extra = malloc(h->extra.len + 1)) == NULL)
			return trc_out_fail(out, "out of memory");
		memcpy(w->extra, h->extra.s, h->extra.len);
		w->extra[h->extra.len] = '\0';
	}
	return 0;
}

/* A small text file written whole through stdio. */
static FILE *
wfile(struct wr *w, const char *ext, char **name)
{
	size_t n = strlen(w->base);
	const char *tmp;
	FILE *fp;

	if ((*name = malloc(n + strlen(ext) + 1)) == NULL) {
		trc_out_fail(w->out, "out of memory");
		return NULL;
	}
	memcpy(*name, w->base, n);
	strcpy(*name + n, ext);
	if ((tmp = trc_out_part(w->out, *name)) == NULL)
		return NULL;
	if ((fp = fopen(tmp, "w")) == NULL)
		trc_out_fail(w->out, "%s: %s", *name, strerror(errno));
	return fp;
}

static int
wfinish(struct wr *w, FILE *fp, char *name)
{
	int bad = ferror(fp);

	if (fclose(fp) != 0 || bad) {
		if (!w->failed)
			trc_out_fail(w->out, "%s: write error: %s", name,
			    strerror(errno ? errno : EIO));
		w->failed = 1;
	}
	free(name);
	return w->failed ? -1 : 0;
}

static const char *const kind_names[TRC_NKINDS] = {
	"SB", "SE", "RB", "RE", "WB", "WE", "XB", "XE", "PB", "PE", "MK"
};

static int
write_pcf(struct wr *w)
{
	static const int p2p[] = { 1, 2, 3, 4, 5, 6, 33, 34, 35, 36, 37, 38,
	    39, 59, 60, 61, 62, 125, 126, 128 };
	static const int coll[] = { 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
	    18, 30, 80, 168, 170 };
	char *name;
	const char *e, *s;
	FILE *fp;
	size_t i;
	int k, c, any;

	if ((fp = wfile(w, ".pcf", &name)) == NULL)
		return -1;
	for (s = w->extra; s != NULL && *s != '\0'; s = e + 1) {
		if ((e = strchr(s, '\n')) == NULL)
			e = s + strlen(s);
		fprintf(fp, "#trc-extra %.*s\n", (int)(e - s), s);
		if (*e == '\0')
			break;
	}
	fputs("DEFAULT_OPTIONS\n\n"
	    "LEVEL               THREAD\n"
	    "UNITS               NANOSEC\n"
	    "LOOK_BACK           100\n"
	    "SPEED               1\n"
	    "FLAG_ICONS          ENABLED\n"
	    "NUM_OF_STATE_COLORS 1000\n"
	    "YMAX_SCALE          37\n\n\n"
	    "DEFAULT_SEMANTIC\n\n"
	    "THREAD_FUNC          State As Is\n\n\n"
	    "STATES\n"
	    "0    Idle\n1    Running\n3    Waiting a message\n"
	    "4    Blocking Send\n8    Wait/WaitAll\n10    Immediate Send\n"
	    "13    Group Communication\n\n\n"
	    "STATES_COLOR\n"
	    "0    {117,195,255}\n1    {0,0,255}\n3    {255,0,0}\n"
	    "4    {255,0,174}\n8    {235,0,0}\n10    {255,0,255}\n"
	    "13    {255,144,26}\n\n\n", fp);
	fprintf(fp, "EVENT_TYPE\n9   %d    MPI Point-to-point\nVALUES\n",
	    X_P2P);
	for (i = 0; i < sizeof(p2p) / sizeof(p2p[0]); i++)
		fprintf(fp, "%d   %s\n", p2p[i], xcall_name(p2p[i]));
	fputs("0   Outside MPI\n\n\n", fp);
	fprintf(fp, "EVENT_TYPE\n9   %d    MPI Collective Comm\nVALUES\n",
	    X_COLL);
	for (i = 0; i < sizeof(coll) / sizeof(coll[0]); i++)
		fprintf(fp, "%d   %s\n", coll[i], xcall_name(coll[i]));
	fputs("0   Outside MPI\n\n\n", fp);
	fprintf(fp, "EVENT_TYPE\n"
	    "1    %d    Send Size in MPI Global OP\n"
	    "1    %d    Recv Size in MPI Global OP\n"
	    "1    %d    Root in MPI Global OP\n"
	    "1    %d    Communicator in MPI Global OP\n\n\n",
	    X_SSIZE, X_RSIZE, X_ROOT, X_COMM);
	fprintf(fp, "EVENT_TYPE\n0    %d    User function\nVALUES\n0      End\n",
	    X_USRFUNC);
	for (i = 1; i < w->capfn && i <= (size_t)w->strs.n; i++)
		if (w->isfn[i])
			fprintf(fp, "%zu      %s\n", i, w->strs.name[i - 1]);
	fputs("\n\n", fp);
	fprintf(fp, "EVENT_TYPE\n0    %d    trc kind\nVALUES\n", T_BASE);
	for (k = 0; k < TRC_NKINDS; k++)
		fprintf(fp, "%d      %s\n", k, kind_names[k]);
	fputs("\n\n", fp);
	/* numbers, then strings with their values */
	for (any = 0, k = 1; k < T_NKEYS; k++)
		for (c = 0; c < C_NCLASS; c++) {
			int kid = k < NFIXED ? k : k - DYNKEY + NFIXED;

			if (c == C_STR || !(w->used[k] & (1u << c)))
				continue;
			if (!any++)
				fputs("EVENT_TYPE\n", fp);
			fprintf(fp, "0    %d    trc attribute %s %s\n",
			    T_BASE + 8 * k + c, w->keys.name[kid],
			    cls_name[c]);
		}
	if (any)
		fputs("\n\n", fp);
	for (any = 0, k = 1; k < T_NKEYS; k++) {
		int kid = k < NFIXED ? k : k - DYNKEY + NFIXED;

		if (!(w->used[k] & (1u << C_STR)))
			continue;
		if (!any++)
			fputs("EVENT_TYPE\n", fp);
		fprintf(fp, "0    %d    trc attribute %s %s\n",
		    T_BASE + 8 * k + C_STR, w->keys.name[kid], cls_name[C_STR]);
	}
	if (any) {
		fputs("VALUES\n", fp);
		for (i = 0; i < (size_t)w->strs.n; i++)
			fprintf(fp, "%zu      %s\n", i + 1, w->strs.name[i]);
		fputs("\n\n", fp);
	}
	return wfinish(w, fp, name);
}

static int
write_row(struct wr *w, int32_t n)
{
	char *name;
	FILE *fp;
	int32_t i;

	if ((fp = wfile(w, ".row", &name)) == NULL)
		return -1;
	fprintf(fp, "LEVEL CPU SIZE %ld\n", (long)n);
	for (i = 0; i < n; i++)
		fprintf(fp, "%ld.trc\n", (long)i + 1);
	fputs("\nLEVEL NODE SIZE 1\ntrc\n\n", fp);
	fprintf(fp, "LEVEL THREAD SIZE %ld\n", (long)n);
	for (i = 0; i < n; i++)
		fprintf(fp, "THREAD 1.%ld.1\n", (long)i + 1);
	return wfinish(w, fp, name);
}

/* The header, then the body with the records merged in at their offsets. */
static int
write_prv(struct wr *w, int32_t n)
{
	char *buf;
	FILE *fp;
	time_t now = time(NULL);
	struct tm tm;
	uint64_t off = 0, at;
	uint32_t len;
	size_t i, have, got, ncomm = 1, cpos, cend;
	ssize_t k;
	int32_t r, m;

	if ((fp = fdopen(w->fd, "w")) == NULL)
		return trc_out_fail(w->out, "%s: %s", w->prv, strerror(errno));
	w->fd = -1;
	localtime_r(&now, &tm);
	for (i = 0; i < w->ncomms; i++)
		if (w->comms[i].comm > 0)
			ncomm++;
	fprintf(fp, "#Paraver (%02d/%02d/%04d at %02d:%02d):%lld_ns:1(%ld):1:"
	    "%ld(", tm.tm_mday, tm.tm_mon + 1, tm.tm_year + 1900, tm.tm_hour,
	    tm.tm_min, (long long)w->end, (long)n, (long)n);
	for (r = 0; r < n; r++)
		fputs(r ? ",1:1" : "1:1", fp);
	fprintf(fp, "),%zu\nc:1:1:%ld", ncomm, (long)n);
	for (r = 0; r < n; r++)
		fprintf(fp, ":%ld", (long)r + 1);
	fputc('\n', fp);
	for (i = 0; i < w->ncomms; i++) {
		if (w->comms[i].comm <= 0)
			continue;
		for (m = 0, r = 0; r < n && (size_t)r < w->comms[i].cap; r++)
			m += w->comms[i].in[r];
		fprintf(fp, "c:1:%ld:%ld", (long)w->comms[i].comm + 1, (long)m);
		for (r = 0; r < n && (size_t)r < w->comms[i].cap; r++)
			if (w->comms[i].in[r])
				fprintf(fp, ":%ld", (long)r + 1);
		fputc('\n', fp);
	}
	if ((buf = malloc(2 * WBUF)) == NULL) {
		fclose(fp);
		return trc_out_fail(w->out, "out of memory");
	}
	/* the records' temporary, read in blocks: cpos..cend in buf+WBUF */
	cpos = cend = 0;
	if (lseek(w->bfd, 0, SEEK_SET) < 0 || lseek(w->cfd, 0, SEEK_SET) < 0)
		goto ioerr;
	for (;;) {
		/* the next record, if any */
		if (cend - cpos < 12 || (memcpy(&len, buf + WBUF + cpos + 8, 4),
		    cend - cpos < 12 + (size_t)len)) {
			memmove(buf + WBUF, buf + WBUF + cpos, cend - cpos);
			cend -= cpos;
			cpos = 0;
			k = read(w->cfd, buf + WBUF + cend, WBUF - cend);
			if (k < 0)
				goto ioerr;
			cend += (size_t)k;
		}
		if (cend - cpos >= 12) {
			memcpy(&at, buf + WBUF + cpos, 8);
			memcpy(&len, buf + WBUF + cpos + 8, 4);
		} else
			at = UINT64_MAX;
		/* the body up to it */
		while (off < at) {
			have = at - off < WBUF ? (size_t)(at - off) : WBUF;
			if ((k = read(w->bfd, buf, have)) < 0)
				goto ioerr;
			if (k == 0)
				break;
			got = (size_t)k;
			if (fwrite(buf, 1, got, fp) != got)
				goto werr;
			off += got;
		}
		if (at == UINT64_MAX)
			break;
		if (fwrite(buf + WBUF + cpos + 12, 1, len, fp) != len)
			goto werr;
		cpos += 12 + len;
	}
	free(buf);
	if (fclose(fp) != 0)
		return wfail(w, w->prv);
	return 0;
ioerr:
	trc_out_fail(w->out, "%s: %s", w->prv, strerror(errno));
	free(buf);
	fclose(fp);
	return -1;
werr:
	free(buf);
	fclose(fp);
	return wfail(w, w->prv);
}

static int
wclose(struct trc_out *out)
{
	struct wr *w = trc_out_state(out);
	struct trc_msg *left;
	size_t n, i;
	int32_t r, nr;

	if (w->failed)
		return -1;
	nr = w->ranks > w->seen ? w->ranks : w->seen;
	if (nr == 0)
		nr = 1;
	if (grow_ranks(w, nr - 1) < 0)
		return -1;
	for (r = 0; r < nr; r++)
		if (w->end > w->rk[r].since &&
		    state_line(w, r, w->rk[r].since, w->end, w->rk[r].state) < 0)
			return -1;
	if (q_flush(w, 1) < 0)
		return -1;
	left = trc_match_leftovers(w->mt, &n);
	for (i = 0; left != NULL && i < n; i++)
		if (!left[i].send)
			trc_out_drop(out, "receive with no send "
			    "(no communication record)");
	free(left);
	if (w->blen > 0 && writeall(w->bfd, w->bbuf, w->blen) < 0)
		return wfail(w, w->prv);
	if (w->clen > 0 && writeall(w->cfd, w->cbuf, w->clen) < 0)
		return wfail(w, w->prv);
	w->blen = w->clen = 0;
	if (write_prv(w, nr) < 0 || write_pcf(w) < 0 || write_row(w, nr) < 0)
		return -1;
	return 0;
}

/* PATH.prv (or PATH itself), its .pcf and .row. */
static int
replaces(const char *path, const char *file)
{
	static const char *const ext[] = { ".prv", ".pcf", ".row" };
	size_t n = strlen(path), i;
	int r = 0;
	char *p;

	if (n > 4 && strcmp(path + n - 4, ".prv") == 0)
		n -= 4;
	if ((p = malloc(n + 5)) == NULL)
		return 1;	/* not known: refused */
	memcpy(p, path, n);
	for (i = 0; i < 3; i++) {
		memcpy(p + n, ext[i], 5);
		r |= trc_same_file(p, file);
	}
	free(p);
	return r;
}

const struct trc_format trc_format_prv = {
	.name = "prv",
	.alias = "paraver",
	.bid = bid,
	.open = ropen,
	.next = next,
	.close = rclose,
	.wopen = wopen,
	.write = wwrite,
	.wclose = wclose,
	.wfree = wfree,
	.replaces = replaces,
};
