/*
 * simgrid.c - SimGrid time-independent (TI) traces, read and written.
 *
 * A TI trace is one line per MPI action, "RANK ACTION ARGS...", with
 * amounts (flops, counts) and no times: one file per rank listed in an
 * index file (one file name per line), or one file for all ranks.  Two
 * dialects exist: the current one (SimGrid 3.20 on: "send DST TAG
 * SIZE", "wait SRC DST TAG", lowercase collectives) and the older one
 * ("send DST SIZE", "wait" without arguments, "Isend", "allReduce").
 *
 * Reading builds a timeline by a small causal replay across ranks: a
 * compute of X flops lasts X / flops seconds, communication costs
 * nothing, a receive completes when its send is made, a collective
 * when its last participant enters.  The ranks advance in the order of
 * their clocks (a heap), so events come out in time order as they are
 * made; memory is the ranks, their open requests and the messages in
 * flight (lib/match.c).
 *
 * Writing turns each rank's events back into actions, the gaps between
 * calls into "compute" amounts (duration times the flop rate).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmt.h"

/* Actions, and the collectives among them (A_BARRIER on). */
enum act {
	A_INIT, A_FINALIZE, A_COMPUTE, A_SLEEP, A_COMM, A_LOCATION,
	A_SEND, A_ISEND, A_RECV, A_IRECV, A_WAIT, A_TEST, A_WAITALL,
	A_SENDRECV,
	A_BARRIER, A_BCAST, A_REDUCE, A_ALLREDUCE, A_ALLTOALL, A_ALLTOALLV,
	A_GATHER, A_GATHERV, A_SCATTER, A_SCATTERV, A_ALLGATHER,
	A_ALLGATHERV, A_REDUCESCATTER, A_SCAN, A_EXSCAN
};

/* The dialects: current (tags) and old (none); names only hint. */
enum { D_NONE, D_CURRENT, D_OLD };

static const struct aname {
	const char	*name;
	enum act	 act;
	int		 hint;
} anames[] = {		/* sorted by strcmp */
	{ "Irecv", A_IRECV, D_OLD },
	{ "Isend", A_ISEND, D_OLD },
	{ "allGather", A_ALLGATHER, D_OLD },
	{ "allGatherV", A_ALLGATHERV, D_OLD },
	{ "allReduce", A_ALLREDUCE, D_OLD },
	{ "allToAll", A_ALLTOALL, D_OLD },
	{ "allToAllV", A_ALLTOALLV, D_OLD },
	{ "allgather", A_ALLGATHER, D_CURRENT },
	{ "allgatherv", A_ALLGATHERV, D_CURRENT },
	{ "allreduce", A_ALLREDUCE, D_CURRENT },
	{ "alltoall", A_ALLTOALL, D_CURRENT },
	{ "alltoallv", A_ALLTOALLV, D_CURRENT },
	{ "barrier", A_BARRIER, D_NONE },
	{ "bcast", A_BCAST, D_NONE },
	{ "comm_dup", A_COMM, D_NONE },
	{ "comm_size", A_COMM, D_NONE },
	{ "comm_split", A_COMM, D_NONE },
	{ "compute", A_COMPUTE, D_NONE },
	{ "exscan", A_EXSCAN, D_CURRENT },
	{ "finalize", A_FINALIZE, D_NONE },
	{ "gather", A_GATHER, D_NONE },
	{ "gatherV", A_GATHERV, D_OLD },
	{ "gatherv", A_GATHERV, D_CURRENT },
	{ "init", A_INIT, D_NONE },
	{ "irecv", A_IRECV, D_CURRENT },
	{ "isend", A_ISEND, D_CURRENT },
	{ "location", A_LOCATION, D_CURRENT },
	{ "recv", A_RECV, D_NONE },
	{ "reduce", A_REDUCE, D_NONE },
	{ "reduceScatter", A_REDUCESCATTER, D_OLD },
	{ "reducescatter", A_REDUCESCATTER, D_CURRENT },
	{ "scan", A_SCAN, D_CURRENT },
	{ "scatter", A_SCATTER, D_NONE },
	{ "scatterV", A_SCATTERV, D_OLD },
	{ "scatterv", A_SCATTERV, D_CURRENT },
	{ "send", A_SEND, D_NONE },
	{ "sendRecv", A_SENDRECV, D_CURRENT },
	{ "sleep", A_SLEEP, D_CURRENT },
	{ "test", A_TEST, D_NONE },
	{ "wait", A_WAIT, D_NONE },
	{ "waitAll", A_WAITALL, D_OLD },
	{ "waitall", A_WAITALL, D_CURRENT },
};
#define NANAMES	(sizeof(anames) / sizeof(anames[0]))

/* op= names of the collectives, from A_BARRIER on, as libtrc-mpi's. */
static const char *const opnames[] = {
	"barrier", "bcast", "reduce", "allreduce", "alltoall", "alltoallv",
	"gather", "gatherv", "scatter", "scatterv", "allgather",
	"allgatherv", "reduce_scatter", "scan", "exscan"
};
#define NOPS	(sizeof(opnames) / sizeof(opnames[0]))

/* Wait-like op= names the reader makes. */
enum { W_WAIT, W_TEST, W_WAITALL, W_SENDRECV };
static const char *const wopnames[] = { "wait", "test", "waitall", "sendrecv" };
static const unsigned char wopnamelen[] = { 4, 4, 7, 8 };

/*
 * Sizes of SimGrid's datatype ids (smpi_datatype.cpp; x86-64).  The
 * old dialect knew 0 to 6, with the same meaning.
 */
static const unsigned char dtsizes[] = {
	8, 4, 1, 2, 8, 4, 1, 8, 1, 1,		/* double ... unsigned char */
	2, 4, 8, 8, 16, 4, 1, 1, 2, 4,		/* unsigned short ... int32 */
	8, 1, 2, 4, 8, 8, 16, 32, 8, 8,		/* int64 ... MPI_Offset */
	8, 16, 16, 8, 8, 8, 16, 16, 4, 4,	/* float_int ... real4 */
	8, 16, 8, 16, 16, 4, 2, 4, 8, 16,	/* real8 ... integer16 */
	32, 1, 8, 16, 32, 0, 0, 1, 8, 8		/* long_double_int ... count */
};
#define NDT	((int)sizeof(dtsizes))

/* The action named s, or NULL. */
static const struct aname *
lookup(const char *s)
{
	size_t i;

	for (i = 0; i < NANAMES; i++)
		if (anames[i].name[0] == s[0] && strcmp(anames[i].name, s) == 0)
			return &anames[i];
	return NULL;
}

/*
 * The same through a reader's hash table, as every line is looked up:
 * a name's first 8 bytes and its length pick one candidate, and only
 * a longer name is compared further.
 */
#define NHASH	256
static uint64_t
namekey(const char *s, size_t *len)
{
	uint64_t k = 0;
	size_t n;

	for (n = 0; n < 8 && s[n] != '\0'; n++)
		k |= (uint64_t)(unsigned char)s[n] << (8 * n);
	while (n < 64 && s[n] != '\0')
		n++;
	*len = n;
	return k;
}

static unsigned
namehash(uint64_t k, size_t len)
{
	k ^= len;
	k *= 0x9e3779b97f4a7c15ULL;
	return (unsigned)(k >> 56);
}

static void
hash_build(signed char *tab)
{
	size_t i, len;
	unsigned h;
	uint64_t k;

	memset(tab, -1, NHASH);
	for (i = 0; i < NANAMES; i++) {
		k = namekey(anames[i].name, &len);
		for (h = namehash(k, len); tab[h % NHASH] >= 0; h++)
			;
		tab[h % NHASH] = (signed char)i;
	}
}

static const struct aname *
hash_lookup(const signed char *tab, const char *s)
{
	const struct aname *a;
	size_t len, alen;
	uint64_t k = namekey(s, &len), ak;
	unsigned h;

	for (h = namehash(k, len); tab[h % NHASH] >= 0; h++) {
		a = &anames[tab[h % NHASH]];
		ak = namekey(a->name, &alen);
		if (ak == k && alen == len &&
		    (len <= 8 || strcmp(a->name + 8, s + 8) == 0))
			return a;
	}
	return NULL;
}

/* Digits only, into a non-negative int64: 0, or -1. */
static int
digits(const char *s, int64_t *v)
{
	int64_t x = 0;

	if (*s == '\0')
		return -1;
	for (; *s != '\0'; s++) {
		if ((unsigned)(*s - '0') > 9 || x > (INT64_MAX - 9) / 10)
			return -1;
		x = 10 * x + (*s - '0');
	}
	*v = x;
	return 0;
}

/* A number as SimGrid reads one (strtod), digits the fast way. */
static int
number(const char *s, double *v)
{
	int64_t i;
	char *end;

	if (digits(s, &i) == 0) {
		*v = (double)i;
		return 0;
	}
	if (*s == '\0' || *s == ' ')
		return -1;
	*v = strtod(s, &end);
	if (*end != '\0' || end == s || !isfinite(*v))
		return -1;
	return 0;
}

/* An optionally signed integer that fits an int32. */
static int
int32tok(const char *s, int32_t *v)
{
	int64_t x;
	int neg = *s == '-';

	if (digits(s + neg, &x) < 0 || x > INT32_MAX)
		return -1;
	*v = (int32_t)(neg ? -x : x);
	return 0;
}

/* The rank field: "N" or, in the oldest traces, "pN". */
static int
rankfield(const char *s, int32_t *r)
{
	int64_t x;

	if (*s == 'p')
		s++;
	if (digits(s, &x) < 0 || x > INT32_MAX)
		return -1;
	*r = (int32_t)x;
	return 0;
}

/* The number of blank-separated fields of s. */
static int
nfields(const char *s)
{
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0')
			return n;
		n++;
		while (*s != '\0' && *s != ' ' && *s != '\t')
			s++;
	}
}

/*
 * Split s into at most max fields in place, NUL-terminated: the count,
 * or -1 when there are more (s is then left as it was).
 */
static int
split(char *s, char **f, int max)
{
	int n = 0, i;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0')
			return n;
		if (n == max) {
			/* Each field so far ended at a blank made NUL. */
			for (i = 0; i < n; i++)
				f[i][strlen(f[i])] = ' ';
			return -1;
		}
		f[n++] = s;
		while (*s != '\0' && *s != ' ' && *s != '\t')
			s++;
		if (*s == '\0')
			return n;
		*s++ = '\0';
	}
}

/* The rank a line starts with ("N" or "pN"): 0, or -1. */
static int
lead_rank(const char *s, int32_t *r)
{
	int64_t x = 0;
	const char *p;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == 'p')
		s++;
	for (p = s; (unsigned)(*p - '0') < 10; p++) {
		if (x > INT32_MAX / 10)
			return -1;
		x = 10 * x + (*p - '0');
	}
	if (p == s || (*p != ' ' && *p != '\t' && *p != '\0') || x > INT32_MAX)
		return -1;
	*r = (int32_t)x;
	return 0;
}

/* Blank or a comment, as SimGrid's reader skips them. */
static int
skipline(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '\0' || *s == '#';
}

/*
 * What a line says of the dialect: decisively (argument counts) or by
 * its name only.  *strong gets D_CURRENT, D_OLD or D_NONE.
 */
static void
evidence(const struct aname *a, int nargs, char **args, int *strong,
    int *weak)
{
	int32_t x;

	*strong = D_NONE;
	*weak = a->hint;
	switch (a->act) {
	case A_WAIT:
	case A_TEST:
		if (nargs == 0)
			*strong = D_OLD;
		else if (nargs >= 3)
			*strong = D_CURRENT;
		break;
	case A_SEND:
	case A_ISEND:
	case A_RECV:
	case A_IRECV:
		if (nargs == 2)
			*strong = D_OLD;
		else if (nargs >= 4)
			*strong = D_CURRENT;
		else if (nargs == 3 && int32tok(args[1], &x) < 0)
			*strong = D_OLD;	/* a size where a tag would be */
		break;
	default:
		break;
	}
}

/* Reading. */

enum rstate { R_READY, R_RECV, R_WAIT, R_COLL, R_DONE };

struct req {
	int64_t		 id;
	int32_t		 src, dst, tag;
	int64_t		 bytes;		/* posted size, TRC_NONE unknown */
	int64_t		 abytes;	/* the message's */
	long		 line;		/* where it was made */
	unsigned char	 recv, done, stored, nulled, inwait;
	unsigned char	 any;		/* posted from any source */
};

/* A receive from any source not matched yet, in the order posted. */
struct wild {
	int64_t		 id;		/* its request, 0 for a recv */
	int32_t		 tag;
	long		 line;
};

struct qline {
	struct qline	*next;
	long		 line;
	char		 s[];
};

/* An event to come, compact until it is yielded. */
struct orec {
	int64_t		 t, bytes, req;
	int32_t		 rank, peer, tag, root;
	long		 line;
	const char	*reqs;		/* a req= list (the rank's wlstr) */
	size_t		 reqlen;
	unsigned char	 kind, op, wop, mark;
};
enum { MK_NONE, MK_INIT, MK_FINALIZE };

struct rk {
	struct trc_lines *lines;	/* per-rank file, or NULL */
	const char	*fname;
	struct qline	*qhead, *qtail, *cur;	/* one file: lines waiting */
	int64_t		 now;
	enum rstate	 state;
	int		 dtsize;	/* the default datatype's */
	long		 bline;		/* the blocked action's line */
	enum act	 bact;
	int32_t		 bpeer, btag;
	int64_t		 bbytes;
	int64_t		 nextreq;
	struct req	*rq;		/* open requests, stored ones in order */
	size_t		 nrq, caprq;
	struct wild	*wild;		/* from any source, unmatched */
	size_t		 nwild, capwild;
	int64_t		*wl;		/* what a wait waits for, in order */
	size_t		 nwl, capwl, wleft;
	size_t		 wloff, wllen;	/* its req= list in wlstr */
	char		*wlstr;
	int64_t		 wlfirst;	/* the list's first id */
	size_t		 wlcap;
	int		 wop;
	int		 defer;		/* drec comes first */
	struct orec	 drec;
	int		 inheap;
	int		 present;	/* it has actions */
};

struct sg {
	int32_t		 n;		/* ranks: the largest number + 1 */
	/* Per rank, in pages (lib/pages.c): memory follows the ranks
	 * present and the peers named, not the largest rank number. */
	struct trc_pages rkp;
	int32_t		*present;	/* the ranks with actions, in order */
	int32_t		 npresent, cappresent;
	struct trc_lines *shared;	/* one file for all ranks */
	char		*sharedname;
	char		*tmpname;	/* stdin spooled */
	double		 flops;
	int		 dialect, weak;
	const char	*dfile;		/* where the dialect was decided */
	long		 dline;
	char		**f;		/* fields of the line in progress */
	int		 capf;
	int32_t		*heap;
	int32_t		 nheap;
	int32_t		 cur;		/* the earliest ready rank, kept out */
	struct trc_match *mt;
	/* the open collective */
	int		 cop;		/* -1: none */
	int32_t		 carrived, cfirst;
	long		 cline;
	int32_t		*cwho;
	int64_t		*cdur;
	/* events made, not yet yielded */
	struct orec	*out;
	size_t		 head, nout, capout;	/* capout a power of 2 */
	struct trc_evbuild eb;
	struct trc_event prev;		/* the last SB yielded, for its SE */
	int		 prevok;
	signed char	 names[NHASH];
	char		 hdr[64];
};

/* Rank k's state: a rank with actions, or a peer rank_arg() took. */
#define RK(g, k)	((struct rk *)trc_pages_at(&(g)->rkp, (size_t)(k)))

static void
sg_free(void *state)
{
	struct sg *g = state;
	struct qline *q, *qn;
	struct rk *rk;
	size_t i;

	if (g == NULL)
		return;
	for (i = 0; i < g->rkp.npg * TRC_PAGE; i++) {
		if ((rk = trc_pages_at(&g->rkp, i)) == NULL) {
			i |= TRC_PAGE - 1;	/* the next page */
			continue;
		}
		trc_lines_close(rk->lines);
		for (q = rk->qhead; q != NULL; q = qn) {
			qn = q->next;
			free(q);
		}
		free(rk->cur);
		free(rk->rq);
		free(rk->wild);
		free(rk->wl);
		free(rk->wlstr);
		free((char *)rk->fname);
	}
	trc_pages_free(&g->rkp);
	free(g->present);
	trc_lines_close(g->shared);
	free(g->sharedname);
	if (g->tmpname != NULL) {
		unlink(g->tmpname);
		free(g->tmpname);
	}
	free(g->f);
	free(g->heap);
	trc_match_free(g->mt);
	free(g->cwho);
	free(g->cdur);
	free(g->out);
	free(g);
}

/* Heap of ready ranks, earliest clock first, ties by rank. */
static int
hless(const struct sg *g, int32_t a, int32_t b)
{
	return RK(g, a)->now < RK(g, b)->now ||
	    (RK(g, a)->now == RK(g, b)->now && a < b);
}

static void
hpush(struct sg *g, int32_t r)
{
	int32_t i, p;

	RK(g, r)->inheap = 1;
	for (i = g->nheap++; i > 0; i = p) {
		p = (i - 1) / 2;
		if (!hless(g, r, g->heap[p]))
			break;
		g->heap[i] = g->heap[p];
	}
	g->heap[i] = r;
}

static int32_t
hpop(struct sg *g)
{
	int32_t top = g->heap[0], last, i, c;

	last = g->heap[--g->nheap];
	for (i = 0; (c = 2 * i + 1) < g->nheap; i = c) {
		if (c + 1 < g->nheap && hless(g, g->heap[c + 1], g->heap[c]))
			c++;
		if (!hless(g, g->heap[c], last))
			break;
		g->heap[i] = g->heap[c];
	}
	g->heap[i] = last;
	RK(g, top)->inheap = 0;
	return top;
}

/* A new event record, all fields "not given". */
static struct orec *
emit(struct trc_reader *r, struct sg *g, int32_t rank, int kind)
{
	struct orec *o, *nv;
	size_t cap, i;

	if (g->nout == g->capout) {
		cap = g->capout ? 2 * g->capout : 256;
		if ((nv = malloc(cap * sizeof(*nv))) == NULL) {
			trc_fail_at(r, RK(g, rank)->fname, 0, "out of memory");
			return NULL;
		}
		for (i = 0; i < g->nout; i++)
			nv[i] = g->out[(g->head + i) & (g->capout - 1)];
		free(g->out);
		g->out = nv;
		g->head = 0;
		g->capout = cap;
	}
	o = &g->out[(g->head + g->nout++) & (g->capout - 1)];
	memset(o, 0, sizeof(*o));
	o->t = RK(g, rank)->now;
	o->rank = rank;
	o->kind = (unsigned char)kind;
	o->peer = o->tag = o->root = TRC_NONE;
	o->bytes = o->req = TRC_NONE;
	return o;
}

static int
fail(struct trc_reader *r, struct sg *g, int32_t rank, long line,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int
fail(struct trc_reader *r, struct sg *g, int32_t rank, long line,
    const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return trc_fail_at(r, RK(g, rank)->fname, line, "%s", msg);
}

/*
 * The next action line of rank k, split into g->f: the field count
 * (rank and name included), 0 at the end of the rank, -1 on error.
 */
static int
next_line(struct trc_reader *r, struct sg *g, int32_t k, long *lineno)
{
	struct rk *rk = RK(g, k);
	struct qline *q;
	char *s;
	size_t len;
	int32_t who;
	int n, rc;

	for (;;) {
		if (rk->lines != NULL) {
			if ((rc = trc_lines_next(rk->lines, &s, &len)) < 0)
				return trc_fail_lines(r, rk->lines);
			if (rc == 0)
				return 0;
			*lineno = trc_lines_lineno(rk->lines);
		} else if (rk->qhead != NULL) {
			free(rk->cur);
			rk->cur = q = rk->qhead;
			if ((rk->qhead = q->next) == NULL)
				rk->qtail = NULL;
			s = q->s;
			*lineno = q->line;
		} else {
			/* One file: read on, keeping others' lines. */
			for (;;) {
				if ((rc = trc_lines_next(g->shared, &s, &len)) < 0)
					return trc_fail_lines(r, g->shared);
				if (rc == 0)
					return 0;
				if (skipline(s))
					continue;
				while (*s == ' ' || *s == '\t')
					s++;
				*lineno = trc_lines_lineno(g->shared);
				if (lead_rank(s, &who) < 0 || who >= g->n ||
				    RK(g, who) == NULL)
					break;	/* the pre-pass said it is fine */
				if (who == k)
					break;
				if ((q = malloc(sizeof(*q) + len + 1)) == NULL)
					return fail(r, g, k, *lineno,
					    "out of memory");
				q->next = NULL;
				q->line = *lineno;
				memcpy(q->s, s, strlen(s) + 1);
				if (RK(g, who)->qtail != NULL)
					RK(g, who)->qtail->next = q;
				else
					RK(g, who)->qhead = q;
				RK(g, who)->qtail = q;
			}
		}
		if (skipline(s))
			continue;
		if ((n = split(s, g->f, g->capf)) < 0) {
			char **nf;

			n = nfields(s);
			if ((nf = realloc(g->f, (size_t)n * sizeof(*nf))) == NULL)
				return fail(r, g, k, *lineno, "out of memory");
			g->f = nf;
			g->capf = n;
			n = split(s, g->f, g->capf);
		}
		return n;
	}
}

/* Requests. */

static struct req *
req_new(struct trc_reader *r, struct sg *g, int32_t k, long line)
{
	struct rk *rk = RK(g, k);
	struct req *nv;
	size_t cap;

	if (rk->nrq == rk->caprq) {
		cap = rk->caprq ? 2 * rk->caprq : 8;
		if ((nv = realloc(rk->rq, cap * sizeof(*nv))) == NULL) {
			fail(r, g, k, line, "out of memory");
			return NULL;
		}
		rk->rq = nv;
		rk->caprq = cap;
	}
	nv = &rk->rq[rk->nrq++];
	memset(nv, 0, sizeof(*nv));
	nv->id = ++rk->nextreq;
	nv->stored = 1;
	nv->line = line;
	return nv;
}

static struct req *
req_find(struct rk *rk, int64_t id)
{
	size_t i;

	for (i = 0; i < rk->nrq; i++)
		if (rk->rq[i].id == id)
			return &rk->rq[i];
	return NULL;
}

static void
req_del(struct rk *rk, struct req *q)
{
	size_t i = (size_t)(q - rk->rq);

	memmove(q, q + 1, (rk->nrq - i - 1) * sizeof(*q));
	rk->nrq--;
}

/* Move a stored request to the end of the order, as a re-add does. */
static struct req *
req_to_end(struct rk *rk, struct req *q)
{
	struct req tmp = *q;

	req_del(rk, q);
	rk->rq[rk->nrq++] = tmp;
	return &rk->rq[rk->nrq - 1];
}

static int
wl_add(struct trc_reader *r, struct sg *g, int32_t k, int64_t id, long line)
{
	struct rk *rk = RK(g, k);
	int64_t *nv;
	size_t cap;

	if (rk->nwl == rk->capwl) {
		cap = rk->capwl ? 2 * rk->capwl : 8;
		if ((nv = realloc(rk->wl, cap * sizeof(*nv))) == NULL)
			return fail(r, g, k, line, "out of memory");
		rk->wl = nv;
		rk->capwl = cap;
	}
	rk->wl[rk->nwl++] = id;
	return 0;
}

/*
 * The end of a wait at time t: its receives, then WE.  The requests it
 * waited for are in wl in the order of rq (storage order, or made so).
 */
static int
finish_wait(struct trc_reader *r, struct sg *g, int32_t k, int64_t t)
{
	struct rk *rk = RK(g, k);
	struct orec *o;
	struct req *q;
	size_t i, j;

	if (t > rk->now)
		rk->now = t;
	for (i = 0; i < rk->nrq; i++) {
		q = &rk->rq[i];
		if (!q->inwait || !q->recv)
			continue;
		if ((o = emit(r, g, k, TRC_RE)) == NULL)
			return -1;
		o->peer = q->src;
		o->tag = q->tag;
		o->bytes = q->abytes;
		o->req = q->id;
		o->line = rk->bline;
	}
	if ((o = emit(r, g, k, TRC_WE)) == NULL)
		return -1;
	o->reqs = rk->wlstr;
	o->reqlen = rk->wllen;
	o->req = rk->wlfirst;
	o->wop = (unsigned char)rk->wop;
	o->line = rk->bline;
	for (i = j = 0; i < rk->nrq; i++)
		if (!rk->rq[i].inwait)
			rk->rq[j++] = rk->rq[i];
	rk->nrq = j;
	rk->nwl = 0;
	rk->state = R_READY;
	return 0;
}

/* A message from src of bytes reaches the receive m at time t. */
static int
deliver(struct trc_reader *r, struct sg *g, const struct trc_msg *m,
    int64_t bytes, int64_t t)
{
	struct rk *rk = RK(g, m->dst);
	struct orec *o;
	struct req *q;

	if (m->aux == 0) {		/* a blocking recv */
		rk->now = t > rk->now ? t : rk->now;
		if ((o = emit(r, g, m->dst, TRC_RE)) == NULL)
			return -1;
		o->peer = m->src;
		o->tag = m->tag;
		o->bytes = bytes;
		o->line = rk->bline;
		rk->state = R_READY;
		hpush(g, m->dst);
		return 0;
	}
	if ((q = req_find(rk, m->aux)) == NULL)
		return fail(r, g, m->dst, m->line, "internal error: lost request");
	q->done = 1;
	q->abytes = bytes;
	if (rk->state == R_WAIT && q->inwait && --rk->wleft == 0) {
		if (finish_wait(r, g, m->dst, t) < 0)
			return -1;
		hpush(g, m->dst);
	}
	return 0;
}

/*
 * Begin a wait of kind op on the requests in rk->wl (in the order of
 * rq): its WB, and its end now when nothing is to come.
 */
static int
wait_begin(struct trc_reader *r, struct sg *g, int32_t k, long line, int op)
{
	struct rk *rk = RK(g, k);
	struct orec *o;
	struct req *q;
	size_t i, need = 21 * rk->nwl + 1;
	char *p;

	if (need > rk->wlcap) {
		if ((p = realloc(rk->wlstr, 2 * need)) == NULL)
			return fail(r, g, k, line, "out of memory");
		rk->wlstr = p;
		rk->wlcap = 2 * need;
	}
	for (p = rk->wlstr, i = 0; i < rk->nwl; i++) {
		if (i > 0)
			*p++ = ',';
		p += trc_format_int(p, rk->wl[i]);
	}
	rk->wllen = (size_t)(p - rk->wlstr);
	rk->wlfirst = rk->nwl > 0 ? rk->wl[0] : TRC_NONE;
	rk->wop = op;
	if ((o = emit(r, g, k, TRC_WB)) == NULL)
		return -1;
	o->reqs = rk->wlstr;
	o->reqlen = rk->wllen;
	o->req = rk->wlfirst;
	o->wop = (unsigned char)op;
	o->line = line;
	rk->wleft = 0;
	rk->bline = line;
	for (i = 0; i < rk->nwl; i++) {
		q = req_find(rk, rk->wl[i]);
		q->stored = 0;
		q->inwait = 1;
		if (q->recv && !q->done)
			rk->wleft++;
	}
	if (rk->wleft == 0)
		return finish_wait(r, g, k, rk->now);
	rk->state = R_WAIT;
	return 0;
}

/* Argument parsing, with the messages of trc-formats(5). */

static int
need(struct trc_reader *r, struct sg *g, int32_t k, long line,
    const char *name, int nargs, int want)
{
	if (nargs >= want)
		return 0;
	return fail(r, g, k, line, "'%s' needs %d argument%s, has %d", name,
	    want, want == 1 ? "" : "s", nargs);
}

static int
count_arg(struct trc_reader *r, struct sg *g, int32_t k, long line,
    const char *s, int64_t *v)
{
	double d;

	*v = 0;
	if (number(s, &d) < 0 || d < 0 || d >= 9e15)
		return fail(r, g, k, line, "invalid size '%s'", s);
	*v = (int64_t)d;
	return 0;
}

static int
rank_arg(struct trc_reader *r, struct sg *g, int32_t k, long line,
    const char *s, const char *what, int32_t *v)
{
	if (int32tok(s, v) < 0)
		return fail(r, g, k, line, "invalid %s '%s'", what, s);
	if (*v < 0)
		return fail(r, g, k, line, "%s '%s' is not a rank", what, s);
	if (*v >= g->n)
		return fail(r, g, k, line, "%s %ld out of range (%ld ranks)",
		    what, (long)*v, (long)g->n);
	if (trc_pages_get(&g->rkp, (size_t)*v) == NULL)
		return fail(r, g, k, line, "out of memory");
	return 0;
}

static int
tag_arg(struct trc_reader *r, struct sg *g, int32_t k, long line,
    const char *s, int32_t *v)
{
	if (int32tok(s, v) < 0 || *v < 0)
		return fail(r, g, k, line, "invalid tag '%s'", s);
	return 0;
}

/* The size of datatype argument i, or the rank's default if absent. */
static int
dt_arg(struct trc_reader *r, struct sg *g, int32_t k, long line,
    int nargs, char **args, int i, int *size)
{
	int64_t id;

	*size = RK(g, k)->dtsize;
	if (i >= nargs || strcmp(args[i], "-1") == 0)
		return 0;
	if (digits(args[i], &id) < 0 || id >= NDT)
		return fail(r, g, k, line, "unknown datatype '%s'", args[i]);
	*size = dtsizes[id];
	return 0;
}

static int
flops_arg(struct trc_reader *r, struct sg *g, int32_t k, long line,
    const char *name, const char *s, int64_t *ns)
{
	double d;

	*ns = 0;
	if (number(s, &d) < 0 || d < 0)
		return fail(r, g, k, line, "invalid amount '%s'", s);
	if (d == 0) {
		*ns = 0;
		return 0;
	}
	if (!(g->flops > 0))
		return fail(r, g, k, line, "%s needs --flops", name);
	d = d / g->flops * 1e9;
	if (d > 9e18)
		return fail(r, g, k, line, "amount '%s' too large", s);
	*ns = llround(d);
	return 0;
}

/*
 * Whether this rank's sends, receives and waits carry tags (current
 * dialect): 1, 0, or -1 when the line contradicts the dialect known.
 */
static int
tags_at(struct trc_reader *r, struct sg *g, int32_t k, long line,
    const struct aname *a, int nargs, char **args)
{
	static const char *const dname[] = { "", "current", "old" };
	int strong, weak;

	evidence(a, nargs, args, &strong, &weak);
	if (g->dialect == D_NONE) {
		g->dialect = strong != D_NONE ? strong :
		    g->weak != D_NONE ? g->weak :
		    weak != D_NONE ? weak : D_CURRENT;
		g->dfile = RK(g, k)->fname;
		g->dline = line;
	} else if (strong != D_NONE && strong != g->dialect)
		return fail(r, g, k, line, "'%s' with %d argument%s is the "
		    "%s dialect, but %s:%ld is the %s one", a->name, nargs,
		    nargs == 1 ? "" : "s", dname[strong], g->dfile, g->dline,
		    dname[g->dialect]);
	return g->dialect == D_CURRENT;
}

/*
 * Receives from any source (a negative source, MPI_ANY_SOURCE).  Such
 * a receive takes, of the sends to its rank with its tag, the one the
 * replay makes first: one already made and waiting when it is posted,
 * else the next made, unless a receive naming that source was posted
 * before it (MPI's order of posted receives).
 */
static int
wild_post(struct trc_reader *r, struct sg *g, int32_t k, long line,
    int64_t id, int32_t tag)
{
	struct rk *rk = RK(g, k);
	struct wild *nv;
	size_t cap;

	if (rk->nwild == rk->capwild) {
		cap = rk->capwild ? 2 * rk->capwild : 4;
		if ((nv = realloc(rk->wild, cap * sizeof(*nv))) == NULL)
			return fail(r, g, k, line, "out of memory");
		rk->wild = nv;
		rk->capwild = cap;
	}
	rk->wild[rk->nwild].id = id;
	rk->wild[rk->nwild].tag = tag;
	rk->wild[rk->nwild++].line = line;
	return 0;
}

/*
 * A send m (src, dst, tag, bytes) is made: 1 when a receive from any
 * source at dst takes it (delivered), 0 when it goes to the matching
 * table, -1 on error.
 */
static int
wild_send(struct trc_reader *r, struct sg *g, const struct trc_msg *m,
    int64_t t)
{
	struct rk *rk = RK(g, m->dst);
	struct trc_msg named, recv;
	struct req *q;
	size_t i;

	for (i = 0; i < rk->nwild; i++)
		if (rk->wild[i].tag == m->tag)
			break;
	if (i == rk->nwild)
		return 0;
	if (trc_match_peek_recv(g->mt, m->src, m->dst, m->tag, m->comm,
	    &named) && named.line < rk->wild[i].line)
		return 0;	/* posted first, it takes the message */
	memset(&recv, 0, sizeof(recv));
	recv.src = m->src;
	recv.dst = m->dst;
	recv.tag = m->tag;
	recv.aux = rk->wild[i].id;
	recv.line = rk->wild[i].line;
	memmove(rk->wild + i, rk->wild + i + 1,
	    (rk->nwild - i - 1) * sizeof(*rk->wild));
	rk->nwild--;
	if (recv.aux != 0) {
		if ((q = req_find(rk, recv.aux)) == NULL)
			return fail(r, g, m->dst, recv.line,
			    "internal error: lost request");
		q->src = m->src;
	}
	return deliver(r, g, &recv, m->bytes, t) < 0 ? -1 : 1;
}

/* Actions. */

static int
p2p(struct trc_reader *r, struct sg *g, int32_t k, long line,
    const struct aname *a, int nargs, char **args)
{
	struct rk *rk = RK(g, k);
	int send = a->act == A_SEND || a->act == A_ISEND;
	int nb = a->act == A_ISEND || a->act == A_IRECV;
	struct trc_msg m, peer;
	struct orec *o;
	struct req *q = NULL;
	int64_t count = 0, bytes;
	int32_t other = 0, tag = 0;
	double d;
	int tags, dt, i;

	if ((tags = tags_at(r, g, k, line, a, nargs, args)) < 0 ||
	    need(r, g, k, line, a->name, nargs, tags ? 3 : 2) < 0)
		return -1;
	if (!send && int32tok(args[0], &other) == 0 && other < 0)
		other = TRC_ANY;	/* MPI_ANY_SOURCE: by the replay */
	else if (rank_arg(r, g, k, line, args[0], send ? "destination" :
	    "source", &other) < 0)
		return -1;
	if (tags && tag_arg(r, g, k, line, args[1], &tag) < 0)
		return -1;
	i = tags ? 2 : 1;
	if (!send && number(args[i], &d) == 0 && d < 0)
		count = -1;		/* size unknown: the message's */
	else if (count_arg(r, g, k, line, args[i], &count) < 0)
		return -1;
	if (dt_arg(r, g, k, line, nargs, args, i + 1, &dt) < 0)
		return -1;
	bytes = count < 0 ? TRC_NONE : count * dt;
	if (nb && (q = req_new(r, g, k, line)) == NULL)
		return -1;
	memset(&m, 0, sizeof(m));
	m.src = send ? k : other;
	m.dst = send ? other : k;
	m.tag = tag;
	m.bytes = bytes;
	m.val = rk->now;
	m.line = line;
	if (q != NULL) {
		q->recv = !send;
		q->any = other == TRC_ANY;
		q->src = m.src;
		q->dst = m.dst;
		q->tag = tag;
		q->bytes = bytes;
		q->done = send;
		q->abytes = bytes;
		m.aux = q->id;
	}
	for (i = 0; i < (send ? 2 : 1); i++) {
		if ((o = emit(r, g, k, i == 0 ? (send ? TRC_SB : TRC_RB) :
		    TRC_SE)) == NULL)
			return -1;
		o->peer = other;
		o->tag = tag;
		o->bytes = bytes;
		o->req = q != NULL ? q->id : TRC_NONE;
		o->line = line;
	}
	if (send) {
		if ((i = wild_send(r, g, &m, rk->now)) != 0)
			return i < 0 ? -1 : 0;
		switch (trc_match_send(g->mt, &m, &peer)) {
		case -1:
			return fail(r, g, k, line, "out of memory");
		case 1:
			return deliver(r, g, &peer, bytes, rk->now);
		}
		return 0;
	}
	if (other == TRC_ANY) {
		if (!trc_match_peek_any(g->mt, k, tag, 0, &peer)) {
			if (wild_post(r, g, k, line, q != NULL ? q->id : 0,
			    tag) < 0)
				return -1;
			goto blocked;
		}
		if (trc_match_take(g->mt, &peer) < 0)
			return fail(r, g, k, line, "internal error: lost send");
		other = peer.src;
		if (q != NULL)
			q->src = other;
		i = 1;
	} else
		i = trc_match_recv(g->mt, &m, &peer);
	switch (i) {
	case -1:
		return fail(r, g, k, line, "out of memory");
	case 1:			/* the message is there */
		if (q != NULL) {
			q->done = 1;
			q->abytes = peer.bytes;
			return 0;
		}
		if ((o = emit(r, g, k, TRC_RE)) == NULL)
			return -1;
		o->peer = other;
		o->tag = tag;
		o->bytes = peer.bytes;
		o->line = line;
		return 0;
	}
blocked:
	if (q == NULL) {
		rk->state = R_RECV;
		rk->bline = line;
		rk->bpeer = other;
		rk->btag = tag;
	}
	return 0;
}

static int
wait_or_test(struct trc_reader *r, struct sg *g, int32_t k, long line,
    const struct aname *a, int nargs, char **args)
{
	struct rk *rk = RK(g, k);
	struct req *q = NULL;
	int32_t src = 0, dst = 0, tag = 0;
	size_t i;
	int tags, test = a->act == A_TEST;

	if ((tags = tags_at(r, g, k, line, a, nargs, args)) < 0)
		return -1;
	if (tags && need(r, g, k, line, a->name, nargs, 3) < 0)
		return -1;
	if (tags && int32tok(args[0], &src) == 0 && src < 0)
		src = TRC_ANY;
	else if (tags && rank_arg(r, g, k, line, args[0], "source", &src) < 0)
		return -1;
	if (tags && (rank_arg(r, g, k, line, args[1], "destination", &dst) < 0 ||
	    tag_arg(r, g, k, line, args[2], &tag) < 0))
		return -1;
	for (i = 0; i < rk->nrq; i++)
		if (rk->rq[i].stored)
			break;
	if (i == rk->nrq) {
		if (test) {
			trc_drop(r, "tests with no request");
			return 0;
		}
		return fail(r, g, k, line, "'%s' not preceded by any irecv "
		    "or isend", a->name);
	}
	if (tags) {	/* the oldest request of (src, dst, tag) */
		for (i = 0; i < rk->nrq; i++)
			if (rk->rq[i].stored && (rk->rq[i].src == src ||
			    (rk->rq[i].any && (src == TRC_ANY ||
			    rk->rq[i].src == TRC_ANY))) &&
			    rk->rq[i].dst == dst && rk->rq[i].tag == tag) {
				q = &rk->rq[i];
				break;
			}
	} else {	/* the newest request, as the old replay popped */
		for (i = rk->nrq; i-- > 0; )
			if (rk->rq[i].stored) {
				q = &rk->rq[i];
				break;
			}
	}
	if (q == NULL) {
		trc_drop(r, test ? "tests that match no request" :
		    "waits that match no request");
		return 0;
	}
	if (q->nulled) {	/* a test completed it */
		if (test)
			req_to_end(rk, q);
		else
			req_del(rk, q);
		return 0;
	}
	if (test && !q->done) {
		req_to_end(rk, q);	/* pushed back for a later wait */
		trc_drop(r, "tests that complete nothing");
		return 0;
	}
	if (test) {
		/* Completed: a null request stays for the next wait. */
		struct req done = *q;

		q = req_to_end(rk, q);
		if ((q = req_new(r, g, k, line)) == NULL)
			return -1;
		rk->nextreq--;
		*q = done;
		q->id = -q->id;		/* not a live id any more */
		q->nulled = 1;
		q = req_find(rk, done.id);
	}
	rk->nwl = 0;
	if (wl_add(r, g, k, q->id, line) < 0)
		return -1;
	return wait_begin(r, g, k, line, test ? W_TEST : W_WAIT);
}

static int
waitall(struct trc_reader *r, struct sg *g, int32_t k, long line)
{
	struct rk *rk = RK(g, k);
	size_t i, j;

	rk->nwl = 0;
	for (i = 0; i < rk->nrq; i++)
		if (rk->rq[i].stored && !rk->rq[i].nulled &&
		    wl_add(r, g, k, rk->rq[i].id, line) < 0)
			return -1;
	/* The storage is emptied, null requests too. */
	for (i = j = 0; i < rk->nrq; i++)
		if (!rk->rq[i].nulled)
			rk->rq[j++] = rk->rq[i];
	rk->nrq = j;
	if (rk->nwl == 0) {
		trc_drop(r, "waitalls with no request");
		return 0;
	}
	return wait_begin(r, g, k, line, W_WAITALL);
}

static int
sendrecv(struct trc_reader *r, struct sg *g, int32_t k, long line,
    const struct aname *a, int nargs, char **args)
{
	struct rk *rk = RK(g, k);
	struct trc_msg m, peer;
	struct orec *o;
	struct req *q;
	int64_t scount = 0, rcount = 0, sbytes, rbytes, ida, idb;
	int32_t dst = 0, src = 0;
	int dt1, dt2, i;

	if (need(r, g, k, line, a->name, nargs, 4) < 0 ||
	    count_arg(r, g, k, line, args[0], &scount) < 0 ||
	    rank_arg(r, g, k, line, args[1], "destination", &dst) < 0 ||
	    count_arg(r, g, k, line, args[2], &rcount) < 0)
		return -1;
	if (int32tok(args[3], &src) == 0 && src < 0)
		src = TRC_ANY;		/* MPI_ANY_SOURCE: by the replay */
	else if (rank_arg(r, g, k, line, args[3], "source", &src) < 0)
		return -1;
	if (dt_arg(r, g, k, line, nargs, args, 4, &dt1) < 0 ||
	    dt_arg(r, g, k, line, nargs, args, 5, &dt2) < 0)
		return -1;
	sbytes = scount * dt1;
	rbytes = rcount * dt2;
	/* An isend, an irecv and a wait on both, as libtrc-mpi writes. */
	if ((q = req_new(r, g, k, line)) == NULL)
		return -1;
	q->stored = 0;
	q->src = k;
	q->dst = dst;
	q->done = 1;
	ida = q->id;
	for (i = 0; i < 2; i++) {
		if ((o = emit(r, g, k, i ? TRC_SE : TRC_SB)) == NULL)
			return -1;
		o->peer = dst;
		o->tag = 0;
		o->bytes = sbytes;
		o->req = ida;
		o->line = line;
	}
	memset(&m, 0, sizeof(m));
	m.src = k;
	m.dst = dst;
	m.bytes = sbytes;
	m.line = line;
	if ((i = wild_send(r, g, &m, rk->now)) < 0)
		return -1;
	switch (i == 1 ? 0 : trc_match_send(g->mt, &m, &peer)) {
	case -1:
		return fail(r, g, k, line, "out of memory");
	case 1:
		if (deliver(r, g, &peer, sbytes, rk->now) < 0)
			return -1;
	}
	if ((q = req_new(r, g, k, line)) == NULL)
		return -1;
	q->stored = 0;
	q->recv = 1;
	q->any = src == TRC_ANY;
	q->src = src;
	q->dst = k;
	q->bytes = rbytes;
	idb = q->id;
	if ((o = emit(r, g, k, TRC_RB)) == NULL)
		return -1;
	o->peer = src;
	o->tag = 0;
	o->bytes = rbytes;
	o->req = idb;
	o->line = line;
	m.src = src;
	m.dst = k;
	m.bytes = rbytes;
	m.aux = idb;
	if (src == TRC_ANY) {
		if ((i = trc_match_peek_any(g->mt, k, 0, 0, &peer)) == 1) {
			if (trc_match_take(g->mt, &peer) < 0)
				return fail(r, g, k, line, "internal error: "
				    "lost send");
			req_find(rk, idb)->src = peer.src;
		} else if (wild_post(r, g, k, line, idb, 0) < 0)
			return -1;
	} else
		i = trc_match_recv(g->mt, &m, &peer);
	switch (i) {
	case -1:
		return fail(r, g, k, line, "out of memory");
	case 1:
		q = req_find(rk, idb);
		q->done = 1;
		q->abytes = peer.bytes;
	}
	rk->nwl = 0;
	if (wl_add(r, g, k, ida, line) < 0 || wl_add(r, g, k, idb, line) < 0)
		return -1;
	return wait_begin(r, g, k, line, W_SENDRECV);
}

/* The size of a counts vector of the ranks (alltoallv, gatherv, ...). */
static int
counts(struct trc_reader *r, struct sg *g, int32_t k, long line,
    char **args, int64_t *sum, int64_t *mine)
{
	int64_t c = 0;
	int32_t i;

	*sum = 0;
	for (i = 0; i < g->n; i++) {
		if (count_arg(r, g, k, line, args[i], &c) < 0)
			return -1;
		*sum += c;
		if (i == k)
			*mine = c;
	}
	return 0;
}

static int
root_arg(struct trc_reader *r, struct sg *g, int32_t k, long line,
    int nargs, char **args, int i, int32_t *root)
{
	*root = 0;
	if (i >= nargs)
		return 0;
	if (int32tok(args[i], root) < 0 || *root < 0 || *root >= g->n)
		return fail(r, g, k, line, "invalid root '%s'", args[i]);
	return 0;
}

static int
collective(struct trc_reader *r, struct sg *g, int32_t k, long line,
    const struct aname *a, int nargs, char **args)
{
	struct rk *rk = RK(g, k);
	struct orec *o;
	int64_t c1 = 0, c2 = 0, sum = 0, mine = 0, bytes = 0, dur = 0;
	int32_t root = TRC_NONE, n = g->n, i, w;
	int dt1 = 1, dt2 = 1, op = (int)(a->act - A_BARRIER), rooted = 0;

	switch (a->act) {
	case A_BARRIER:
		break;
	case A_BCAST:
		if (need(r, g, k, line, a->name, nargs, 1) < 0 ||
		    count_arg(r, g, k, line, args[0], &c1) < 0 ||
		    root_arg(r, g, k, line, nargs, args, 1, &root) < 0 ||
		    dt_arg(r, g, k, line, nargs, args, 2, &dt1) < 0)
			return -1;
		bytes = c1 * dt1;
		rooted = 1;
		break;
	case A_REDUCE:
	case A_ALLREDUCE:
	case A_SCAN:
	case A_EXSCAN:
		rooted = a->act == A_REDUCE;
		if (need(r, g, k, line, a->name, nargs, 2) < 0 ||
		    count_arg(r, g, k, line, args[0], &c1) < 0 ||
		    flops_arg(r, g, k, line, a->name, args[1], &dur) < 0 ||
		    (rooted && root_arg(r, g, k, line, nargs, args, 2,
		    &root) < 0) ||
		    dt_arg(r, g, k, line, nargs, args, rooted ? 3 : 2, &dt1) < 0)
			return -1;
		bytes = c1 * dt1;
		break;
	case A_ALLTOALL:
	case A_ALLGATHER:
	case A_GATHER:
	case A_SCATTER:
		rooted = a->act == A_GATHER || a->act == A_SCATTER;
		i = rooted ? 3 : 2;
		if (need(r, g, k, line, a->name, nargs, 2) < 0 ||
		    count_arg(r, g, k, line, args[0], &c1) < 0 ||
		    count_arg(r, g, k, line, args[1], &c2) < 0 ||
		    (rooted && root_arg(r, g, k, line, nargs, args, 2,
		    &root) < 0) ||
		    dt_arg(r, g, k, line, nargs, args, i, &dt1) < 0 ||
		    dt_arg(r, g, k, line, nargs, args, i + 1, &dt2) < 0)
			return -1;
		/* What this rank sends, or for a scatter receives. */
		bytes = a->act == A_SCATTER ? c2 * dt2 : c1 * dt1;
		break;
	case A_ALLTOALLV:
		if (need(r, g, k, line, a->name, nargs, 2 * n + 2) < 0 ||
		    count_arg(r, g, k, line, args[0], &c1) < 0 ||
		    counts(r, g, k, line, args + 1, &sum, &mine) < 0 ||
		    count_arg(r, g, k, line, args[n + 1], &c2) < 0 ||
		    counts(r, g, k, line, args + n + 2, &c2, &mine) < 0 ||
		    dt_arg(r, g, k, line, nargs, args, 2 * n + 2, &dt1) < 0)
			return -1;
		bytes = sum * dt1 / n;	/* the mean block sent to a rank */
		break;
	case A_GATHERV:
	case A_ALLGATHERV:
		rooted = a->act == A_GATHERV;
		if (need(r, g, k, line, a->name, nargs, n + 1) < 0 ||
		    count_arg(r, g, k, line, args[0], &c1) < 0 ||
		    counts(r, g, k, line, args + 1, &sum, &mine) < 0)
			return -1;
		i = n + 1;
		if (rooted) {
			if (root_arg(r, g, k, line, nargs, args, i++, &root) < 0)
				return -1;
		} else if (nargs > n + 3 && nargs <= 2 * n + 1)
			i = nargs;	/* displacements, default datatypes */
		if (dt_arg(r, g, k, line, nargs, args, i, &dt1) < 0 ||
		    dt_arg(r, g, k, line, nargs, args, i + 1, &dt2) < 0)
			return -1;
		bytes = c1 * dt1;
		break;
	case A_SCATTERV:
		if (need(r, g, k, line, a->name, nargs, n + 1) < 0 ||
		    counts(r, g, k, line, args, &sum, &mine) < 0 ||
		    count_arg(r, g, k, line, args[n], &c2) < 0 ||
		    root_arg(r, g, k, line, nargs, args, n + 1, &root) < 0 ||
		    dt_arg(r, g, k, line, nargs, args, n + 2, &dt1) < 0 ||
		    dt_arg(r, g, k, line, nargs, args, n + 3, &dt2) < 0)
			return -1;
		bytes = c2 * dt2;
		rooted = 1;
		break;
	case A_REDUCESCATTER:
		if (need(r, g, k, line, a->name, nargs, n + 1) < 0 ||
		    counts(r, g, k, line, args, &sum, &mine) < 0 ||
		    flops_arg(r, g, k, line, a->name, args[n], &dur) < 0 ||
		    dt_arg(r, g, k, line, nargs, args, n + 1, &dt1) < 0)
			return -1;
		bytes = mine * dt1;	/* the block this rank receives */
		break;
	default:
		return fail(r, g, k, line, "internal error: not a collective");
	}
	if (!rooted)
		root = TRC_NONE;
	if (g->cop >= 0 && g->cop != op)
		return fail(r, g, k, line, "'%s' where rank %ld entered '%s' "
		    "(%s:%ld)", a->name, (long)g->cfirst, opnames[g->cop],
		    RK(g, g->cfirst)->fname, g->cline);
	if ((o = emit(r, g, k, TRC_XB)) == NULL)
		return -1;
	o->op = (unsigned char)op;
	o->bytes = bytes;
	o->root = root;
	o->line = line;
	rk->drec = *o;
	rk->drec.kind = TRC_XE;
	if (g->cop < 0) {
		g->cop = op;
		g->cfirst = k;
		g->cline = line;
	}
	g->cwho[g->carrived] = k;
	g->cdur[g->carrived++] = dur;
	rk->bline = line;
	rk->bact = a->act;
	if (g->carrived < n) {
		rk->state = R_COLL;
		return 0;
	}
	/* The last one is in: everyone leaves now, or after its flops. */
	for (i = 0; i < n; i++) {
		w = g->cwho[i];
		RK(g, w)->now = rk->now + g->cdur[i];
		RK(g, w)->state = R_READY;
		if (g->cdur[i] == 0) {
			if ((o = emit(r, g, w, TRC_XE)) == NULL)
				return -1;
			RK(g, w)->drec.t = o->t;
			*o = RK(g, w)->drec;
		} else
			RK(g, w)->defer = 1;
		if (w != k)
			hpush(g, w);
	}
	g->cop = -1;
	g->carrived = 0;
	return 0;
}

/* One action of rank k (fields in g->f): 0, or -1. */
static int
action(struct trc_reader *r, struct sg *g, int32_t k, int nf, long line)
{
	struct rk *rk = RK(g, k);
	const struct aname *a;
	struct orec *o;
	char **args = g->f + 2;
	int nargs = nf - 2;
	int64_t ns;
	int32_t who;

	if (rankfield(g->f[0], &who) < 0)
		return fail(r, g, k, line, "invalid rank '%s'", g->f[0]);
	if (who != k)
		return fail(r, g, k, line, "rank %ld in the file of rank %ld",
		    (long)who, (long)k);
	if (nf < 2)
		return fail(r, g, k, line, "missing action");
	if ((a = hash_lookup(g->names, g->f[1])) == NULL)
		return fail(r, g, k, line, "unknown action '%s'", g->f[1]);
	switch (a->act) {
	case A_INIT:
	case A_FINALIZE:
		if ((o = emit(r, g, k, TRC_MK)) == NULL)
			return -1;
		o->mark = a->act == A_INIT ? MK_INIT : MK_FINALIZE;
		o->line = line;
		if (a->act == A_INIT)	/* MPI_DOUBLE if it has an argument */
			rk->dtsize = nargs > 0 ? 8 : 1;
		return 0;
	case A_COMPUTE:
		if (need(r, g, k, line, a->name, nargs, 1) < 0 ||
		    flops_arg(r, g, k, line, a->name, args[0], &ns) < 0)
			return -1;
		rk->now += ns;
		return 0;
	case A_SLEEP:
		if (need(r, g, k, line, a->name, nargs, 1) < 0)
			return -1;
		{
			double d;

			if (number(args[0], &d) < 0 || d < 0 || d > 9e9)
				return fail(r, g, k, line,
				    "invalid duration '%s'", args[0]);
			rk->now += llround(d * 1e9);
		}
		trc_drop(r, "sleeps (read as computation)");
		return 0;
	case A_COMM:
		trc_drop(r, "communicator actions (comm_size, comm_split, "
		    "comm_dup)");
		return 0;
	case A_LOCATION:
		trc_drop(r, "location actions");
		return 0;
	case A_SEND:
	case A_ISEND:
	case A_RECV:
	case A_IRECV:
		return p2p(r, g, k, line, a, nargs, args);
	case A_WAIT:
	case A_TEST:
		return wait_or_test(r, g, k, line, a, nargs, args);
	case A_WAITALL:
		return waitall(r, g, k, line);
	case A_SENDRECV:
		return sendrecv(r, g, k, line, a, nargs, args);
	default:
		return collective(r, g, k, line, a, nargs, args);
	}
}

/* Run the earliest ready rank one action on: 1, 0 when none is ready. */
static int
step(struct trc_reader *r, struct sg *g)
{
	struct rk *rk;
	struct orec *o;
	int32_t k;
	long line = 0;
	int nf;

	if (g->cur >= 0) {
		k = g->cur;
		g->cur = -1;
	} else if (g->nheap > 0)
		k = hpop(g);
	else
		return 0;
	rk = RK(g, k);
	if (rk->defer) {
		rk->defer = 0;
		if ((o = emit(r, g, k, TRC_XE)) == NULL)
			return -1;
		rk->drec.t = o->t;
		*o = rk->drec;
	} else {
		if ((nf = next_line(r, g, k, &line)) < 0)
			return -1;
		if (nf == 0) {
			rk->state = R_DONE;
			return 1;
		}
		if (action(r, g, k, nf, line) < 0)
			return -1;
	}
	if (rk->state == R_READY) {
		/* Still the earliest: it goes on without the heap. */
		if (g->nheap == 0 || !hless(g, g->heap[0], k))
			g->cur = k;
		else
			hpush(g, k);
	}
	return 1;
}

/* No rank can go on: the end, or a deadlock to report. */
static int
finish(struct trc_reader *r, struct sg *g)
{
	struct rk *rk;
	struct req *q;
	int32_t k, j, i, pi;
	size_t x;

	for (pi = 0; pi < g->npresent; pi++) {
		k = g->present[pi];
		rk = RK(g, k);
		switch (rk->state) {
		case R_RECV:
			if (rk->bpeer == TRC_ANY)
				return fail(r, g, k, rk->bline, "recv from any "
				    "rank (tag %ld) never matched by a send",
				    (long)rk->btag);
			return fail(r, g, k, rk->bline, "recv from rank %ld "
			    "(tag %ld) never matched by a send",
			    (long)rk->bpeer, (long)rk->btag);
		case R_WAIT:
			for (x = 0; x < rk->nwl; x++)
				if ((q = req_find(rk, rk->wl[x])) != NULL &&
				    q->recv && !q->done && q->src == TRC_ANY)
					return fail(r, g, k, rk->bline,
					    "%s never completes: no send for "
					    "its receive from any rank (tag "
					    "%ld)", wopnames[rk->wop],
					    (long)q->tag);
				else if (q != NULL && q->recv && !q->done)
					return fail(r, g, k, rk->bline,
					    "%s never completes: no send for "
					    "its receive from rank %ld (tag %ld)",
					    wopnames[rk->wop], (long)q->src,
					    (long)q->tag);
			break;
		case R_COLL:
			for (j = 0; j < g->n; j++) {
				for (i = 0; i < g->carrived; i++)
					if (g->cwho[i] == j)
						break;
				if (i == g->carrived)
					break;
			}
			return fail(r, g, k, rk->bline, "%s never completes: "
			    "rank %ld does not enter it", opnames[g->cop],
			    (long)j);
		default:
			for (x = 0; x < rk->nrq; x++)
				if (rk->rq[x].recv && !rk->rq[x].done &&
				    rk->rq[x].src == TRC_ANY)
					return fail(r, g, k, rk->rq[x].line,
					    "irecv from any rank (tag %ld) "
					    "never matched by a send",
					    (long)rk->rq[x].tag);
				else if (rk->rq[x].recv && !rk->rq[x].done)
					return fail(r, g, k, rk->rq[x].line,
					    "irecv from "
					    "rank %ld (tag %ld) never matched "
					    "by a send", (long)rk->rq[x].src,
					    (long)rk->rq[x].tag);
		}
	}
	return 0;
}

static int
sg_next(struct trc_reader *r, struct trc_event *ev)
{
	struct sg *g = trc_reader_state(r);
	struct orec *o;
	int rc;

	while (g->nout == 0) {
		if ((rc = step(r, g)) < 0)
			return -1;
		if (rc == 0)
			return finish(r, g) < 0 ? -1 : 0;
	}
	o = &g->out[g->head];
	g->head = (g->head + 1) & (g->capout - 1);
	g->nout--;
	if (o->kind == TRC_SE && g->prevok && g->prev.rank == o->rank &&
	    g->prev.peer == o->peer && g->prev.tag == o->tag &&
	    g->prev.bytes == o->bytes && g->prev.req == o->req) {
		/* As its SB, whose text is still in the builder. */
		memcpy(ev, &g->prev, offsetof(struct trc_event, attr) +
		    (size_t)g->prev.nattr * sizeof(ev->attr[0]));
		ev->kind = TRC_SE;
		ev->t = o->t;
		ev->line = o->line;
		g->prevok = 0;
		return 1;
	}
	g->prevok = 0;
	trc_eb_start(&g->eb, ev, o->t, o->rank, (enum trc_kind)o->kind);
	switch (o->kind) {
	case TRC_MK:
		trc_eb_str(&g->eb, "mark", o->mark == MK_INIT ? "init" :
		    "finalize", o->mark == MK_INIT ? 4 : 8);
		break;
	case TRC_WB:
	case TRC_WE:
		/* The list wait_begin() wrote, its first id in req. */
		if (o->reqlen > 0)
			trc_eb_word(&g->eb, "req", 3, TRC_EBW_REQS, o->reqs,
			    o->reqlen, o->req);
		else
			trc_eb_str(&g->eb, "req", o->reqs, o->reqlen);
		trc_eb_word(&g->eb, "op", 2, TRC_EBW_OP, wopnames[o->wop],
		    wopnamelen[o->wop], 0);
		break;
	case TRC_XB:
	case TRC_XE:
		trc_eb_word(&g->eb, "op", 2, TRC_EBW_OP, opnames[o->op],
		    strlen(opnames[o->op]), 0);
		trc_eb_int(&g->eb, "bytes", o->bytes);
		trc_eb_int(&g->eb, "root", o->root);
		break;
	default:
		trc_eb_int(&g->eb, "peer", o->peer);
		trc_eb_int(&g->eb, "tag", o->tag);
		trc_eb_int(&g->eb, "bytes", o->bytes);
		trc_eb_int(&g->eb, "req", o->req);
	}
	if (trc_eb_done(&g->eb) < 0)
		return fail(r, g, o->rank, o->line, "%s",
		    trc_eb_error(&g->eb) ? trc_eb_error(&g->eb) :
		    "event too long");
	ev->line = o->line;
	if (o->kind == TRC_SB) {
		memcpy(&g->prev, ev, offsetof(struct trc_event, attr) +
		    (size_t)ev->nattr * sizeof(ev->attr[0]));
		g->prevok = 1;
	}
	return 1;
}

/* Opening: an index of per-rank files, or one file for all ranks. */

/* The dialect evidence of the lines of buf[0..n) (a head, or a line). */
static void
scan_dialect(struct sg *g, const char *fname, const char *buf, size_t n,
    long firstline, int whole)
{
	char line[1024], *f[8];
	const struct aname *a;
	const char *p = buf, *e = buf + n, *nl;
	size_t len;
	long ln = firstline;
	int nf, strong, weak;

	for (; p < e && g->dialect == D_NONE; p = nl + 1, ln++) {
		if ((nl = memchr(p, '\n', (size_t)(e - p))) == NULL) {
			if (!whole)
				break;	/* a line cut by the head's end */
			nl = e;
		}
		len = (size_t)(nl - p);
		if (len >= sizeof(line) || skipline(p))
			continue;	/* a long line is a collective's */
		memcpy(line, p, len);
		line[len] = '\0';
		if ((nf = split(line, f, 8)) < 2)
			continue;
		if ((a = lookup(f[1])) == NULL)
			continue;
		evidence(a, nf - 2, f + 2, &strong, &weak);
		if (strong != D_NONE) {
			g->dialect = strong;
			g->dfile = fname;
			g->dline = ln;
		} else if (g->weak == D_NONE)
			g->weak = weak;
	}
}

/* Whether a line is a TI action line ("0 init", "p3 compute 5"). */
static int
ti_line(const char *s, size_t len)
{
	char name[32];
	const char *p = s, *e = s + len;
	size_t n;
	int32_t r;

	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (*p == 'p')
		p++;
	if (p == e || (unsigned)(*p - '0') > 9)
		return 0;
	while (p < e && (unsigned)(*p - '0') < 10)
		p++;
	if (p == e || (*p != ' ' && *p != '\t'))
		return 0;
	(void)r;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	for (n = 0; p < e && *p != ' ' && *p != '\t' && *p != '\r'; p++) {
		if (n + 1 == sizeof(name))
			return 0;
		name[n++] = *p;
	}
	name[n] = '\0';
	return lookup(name) != NULL;
}

/* The first line of a head that is neither blank nor a comment. */
static const char *
first_line(const unsigned char *head, size_t n, size_t *len)
{
	const char *p = (const char *)head, *e = p + n, *nl;

	for (; p < e; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(e - p))) == NULL)
			nl = e;
		*len = (size_t)(nl - p);
		if (*len > 0 && p[*len - 1] == '\r')
			(*len)--;
		while (*len > 0 && (*p == ' ' || *p == '\t')) {
			p++;
			(*len)--;
		}
		if (*len > 0 && *p != '#')
			return p;
	}
	return NULL;
}

/*
 * The file an index line names: as written when absolute, else in the
 * index's folder, else (as smpirun reads it) in the working directory.
 * A new string, or NULL when out of memory.
 */
static char *
resolve(const char *index, const char *name)
{
	const char *slash;
	char *p;
	size_t d;

	if (name[0] == '/' || index == NULL ||
	    (slash = strrchr(index, '/')) == NULL)
		return strdup(name);
	d = (size_t)(slash - index) + 1;
	if ((p = malloc(d + strlen(name) + 1)) == NULL)
		return NULL;
	memcpy(p, index, d);
	strcpy(p + d, name);
	if (access(p, F_OK) == 0 || access(name, F_OK) < 0)
		return p;
	free(p);
	return strdup(name);
}

static int
bid(const char *path, const unsigned char *head, size_t n)
{
	const unsigned char *h2;
	struct trc_src *s;
	const char *line;
	char name[PATH_MAX], *file;
	size_t len, n2;
	int b = 0;

	if ((line = first_line(head, n, &len)) == NULL)
		return 0;
	if (ti_line(line, len))
		return 80;
	/* An index: its first line names a TI file. */
	if (len >= sizeof(name) || memchr(line, ' ', len) != NULL)
		return 0;
	memcpy(name, line, len);
	name[len] = '\0';
	if ((file = resolve(path, name)) == NULL)
		return 0;
	if ((s = trc_src_open(file)) != NULL && trc_src_error(s) == NULL) {
		h2 = trc_src_head(s, &n2);
		if ((line = first_line(h2, n2, &len)) != NULL &&
		    ti_line(line, len))
			b = 85;
	}
	trc_src_close(s);
	free(file);
	return b;
}

/* Rank k has actions: its state, and its place in g->present. */
static int
add_present(struct sg *g, int32_t k)
{
	struct rk *rk;
	int32_t *nv, cap;

	if ((rk = trc_pages_get(&g->rkp, (size_t)k)) == NULL)
		return -1;
	if (rk->present)
		return 0;
	if (g->npresent == g->cappresent) {
		cap = g->cappresent ? 2 * g->cappresent : 64;
		if ((nv = realloc(g->present, (size_t)cap * sizeof(*nv))) ==
		    NULL)
			return -1;
		g->present = nv;
		g->cappresent = cap;
	}
	rk->present = 1;
	rk->dtsize = 1;		/* MPI_BYTE until an init says */
	g->present[g->npresent++] = k;
	return 0;
}

static int
cmp_rank(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* The heap and the open collective, for the ranks present. */
static int
alloc_ranks(struct trc_reader *r, struct sg *g, const char *name)
{
	size_t n = (size_t)g->npresent + 1;
	int32_t i;

	qsort(g->present, (size_t)g->npresent, sizeof(*g->present), cmp_rank);
	if ((g->heap = calloc(n, sizeof(*g->heap))) == NULL ||
	    (g->cwho = calloc(n, sizeof(*g->cwho))) == NULL ||
	    (g->cdur = calloc(n, sizeof(*g->cdur))) == NULL)
		return trc_fail_at(r, name, 0, "out of memory");
	for (i = 0; i < g->npresent; i++)
		hpush(g, g->present[i]);
	return 0;
}

/*
 * One file for all ranks: a first pass finds the ranks (the largest
 * plus one) and the dialect; standard input is kept in a temporary
 * file for the second.
 */
static int
open_one(struct trc_reader *r, struct sg *g, struct trc_src *src,
    const char *path)
{
	struct trc_lines *l;
	const char *name = path != NULL ? path : "<stdin>";
	char *s, *dir;
	size_t len;
	int32_t who, max = -1, i;
	int rc, fd = -1;
	FILE *fp = NULL;

	if ((g->sharedname = strdup(name)) == NULL)
		return trc_fail_at(r, name, 0, "out of memory");
	if (path != NULL)
		l = trc_lines_open(path);
	else {
		l = trc_lines_new(src, 0);
		dir = getenv("TMPDIR");
		if (dir == NULL || *dir == '\0')
			dir = "/tmp";
		if ((g->tmpname = malloc(strlen(dir) + 32)) == NULL)
			return trc_fail_at(r, name, 0, "out of memory");
		sprintf(g->tmpname, "%s/trc-simgrid.XXXXXX", dir);
		if ((fd = mkstemp(g->tmpname)) < 0 ||
		    (fp = fdopen(fd, "w")) == NULL) {
			rc = errno;
			if (fd >= 0)
				close(fd);
			trc_lines_close(l);
			return trc_fail_at(r, name, 0, "%s: %s", g->tmpname,
			    strerror(rc));
		}
	}
	if (l == NULL) {
		if (fp != NULL)
			fclose(fp);
		return trc_fail_at(r, name, 0, "out of memory");
	}
	while ((rc = trc_lines_next(l, &s, &len)) > 0) {
		if (fp != NULL && (fwrite(s, 1, len, fp) != len ||
		    putc('\n', fp) == EOF))
			break;
		if (skipline(s))
			continue;
		if (lead_rank(s, &who) < 0) {
			while (*s == ' ' || *s == '\t')
				s++;
			s[strcspn(s, " \t")] = '\0';
			trc_fail_at(r, name, trc_lines_lineno(l),
			    "invalid rank '%s'", s);
			rc = -2;
			break;
		}
		if (who > max)
			max = who;
		if (add_present(g, who) < 0) {
			trc_fail_at(r, name, 0, "out of memory");
			rc = -2;
			break;
		}
		if (g->dialect == D_NONE)
			scan_dialect(g, g->sharedname, s, len,
			    trc_lines_lineno(l), 1);
	}
	if (rc == -1)
		trc_fail_lines(r, l);
	trc_lines_close(l);
	if (fp != NULL && (fclose(fp) == EOF || rc == 1) && rc != -2) {
		trc_fail_at(r, name, 0, "%s: %s", g->tmpname, strerror(errno));
		rc = -1;
	}
	if (rc < 0)
		return -1;
	if (max < 0)
		return trc_fail_at(r, name, 0, "no action");
	if (max == INT32_MAX)
		return trc_fail_at(r, name, 0, "too many ranks");
	g->n = max + 1;
	if (alloc_ranks(r, g, name) < 0)
		return -1;
	for (i = 0; i < g->npresent; i++)
		if ((RK(g, g->present[i])->fname = strdup(name)) == NULL)
			return trc_fail_at(r, name, 0, "out of memory");
	if (path != NULL && src != NULL && strcmp(trc_src_name(src), path) == 0)
		g->shared = trc_lines_new(src, 0);
	else
		g->shared = trc_lines_open(path != NULL ? path : g->tmpname);
	if (g->shared == NULL)
		return trc_fail_at(r, name, 0, "out of memory");
	return 0;
}

/* An index: one per-rank file a line (one line: one file for all). */
static int
open_index(struct trc_reader *r, struct sg *g, struct trc_src *src,
    const char *path)
{
	const char *name = path != NULL ? path : "<stdin>";
	const unsigned char *head;
	struct trc_lines *l;
	struct trc_src *s;
	char **files = NULL, **nv, *line, *file, *p;
	long *lines = NULL, *nl;
	size_t len, nfiles = 0, cap = 0, hn, i;
	int rc;

	if ((l = trc_lines_new(src, 0)) == NULL)
		return trc_fail_at(r, name, 0, "out of memory");
	while ((rc = trc_lines_next(l, &line, &len)) > 0) {
		while (*line == ' ' || *line == '\t')
			line++;
		for (p = line + strlen(line); p > line &&
		    (p[-1] == ' ' || p[-1] == '\t'); p--)
			;
		*p = '\0';
		if (*line == '\0')
			continue;
		if (nfiles == cap) {
			cap = cap ? 2 * cap : 64;
			nv = realloc(files, cap * sizeof(*nv));
			if (nv != NULL)
				files = nv;
			nl = realloc(lines, cap * sizeof(*nl));
			if (nl != NULL)
				lines = nl;
			if (nv == NULL || nl == NULL) {
				rc = -2;
				break;
			}
		}
		lines[nfiles] = trc_lines_lineno(l);
		if ((files[nfiles] = strdup(line)) == NULL) {
			rc = -2;
			break;
		}
		nfiles++;
	}
	if (rc == -1)
		trc_fail_lines(r, l);
	else if (rc == -2)
		trc_fail_at(r, name, 0, "out of memory");
	trc_lines_close(l);
	if (rc == 0 && nfiles == 0)
		trc_fail_at(r, name, 0, "empty index");
	if (rc < 0 || nfiles == 0)
		goto out;
	if (nfiles > INT32_MAX / 2) {
		trc_fail_at(r, name, 0, "too many files");
		goto out;
	}
	if (nfiles == 1) {	/* one shared trace, as smpirun reads it */
		if ((file = resolve(path, files[0])) == NULL)
			rc = trc_fail_at(r, name, 0, "out of memory");
		else if (access(file, R_OK) < 0)
			rc = trc_fail_at(r, name, lines[0], "cannot open '%s': "
			    "%s%s", files[0], strerror(errno), path == NULL ?
			    " (an index on standard input names files from "
			    "the current directory, not its own)" : "");
		else
			rc = open_one(r, g, NULL, file);
		free(file);
		goto out;
	}
	g->n = (int32_t)nfiles;
	for (i = 0; i < nfiles; i++)
		if (add_present(g, (int32_t)i) < 0) {
			rc = trc_fail_at(r, name, 0, "out of memory");
			goto out;
		}
	if (alloc_ranks(r, g, name) < 0) {
		rc = -1;
		goto out;
	}
	for (i = 0; i < nfiles; i++) {
		if ((file = resolve(path, files[i])) == NULL) {
			rc = trc_fail_at(r, name, 0, "out of memory");
			break;
		}
		RK(g, i)->fname = file;
		if ((s = trc_src_open(file)) == NULL) {
			rc = trc_fail_at(r, name, 0, "out of memory");
			break;
		}
		if (trc_src_error(s) != NULL) {
			rc = trc_fail_at(r, name, lines[i], "cannot open '%s': "
			    "%s%s", files[i], trc_src_error(s), path == NULL ?
			    " (an index on standard input names files from "
			    "the current directory, not its own)" : "");
			trc_src_close(s);
			break;
		}
		head = trc_src_head(s, &hn);
		if (g->dialect == D_NONE)
			scan_dialect(g, file, (const char *)head, hn, 1,
			    hn < TRC_HEADSIZE);
		if ((RK(g, i)->lines = trc_lines_new(s, 1)) == NULL) {
			trc_src_close(s);
			rc = trc_fail_at(r, name, 0, "out of memory");
			break;
		}
	}
out:
	for (i = 0; i < nfiles; i++)
		free(files[i]);
	free(files);
	free(lines);
	return rc < 0 ? -1 : 0;
}

static int
sg_open(struct trc_reader *r, struct trc_src *src,
    const struct trc_open_opts *opts)
{
	static const char extra_fmt[] = "#clock source=simgrid flops=%.17g\n";
	struct trc_header *h;
	struct sg *g;
	const unsigned char *head;
	const char *line, *path;
	size_t n, len;
	int rc;

	if ((g = calloc(1, sizeof(*g))) == NULL)
		return trc_fail_at(r, trc_src_name(src), 0, "out of memory");
	trc_reader_set_state(r, g);
	g->flops = opts != NULL ? opts->flops : 0;
	g->cop = -1;
	g->cur = -1;
	g->rkp.elsize = sizeof(struct rk);
	hash_build(g->names);
	g->capf = 64;
	if ((g->f = malloc((size_t)g->capf * sizeof(*g->f))) == NULL ||
	    (g->mt = trc_match_new()) == NULL)
		return trc_fail_at(r, trc_src_name(src), 0, "out of memory");
	path = strcmp(trc_src_name(src), "<stdin>") == 0 ? NULL :
	    trc_src_name(src);
	head = trc_src_head(src, &n);
	if ((line = first_line(head, n, &len)) != NULL && !ti_line(line, len))
		rc = open_index(r, g, src, path);
	else
		rc = open_one(r, g, src, path);
	if (rc < 0)
		return -1;
	h = trc_reader_header(r);
	h->ranks = g->n;
	h->order = TRC_ORDER_TIME;
	if (g->flops > 0) {
		snprintf(g->hdr, sizeof(g->hdr), extra_fmt, g->flops);
		h->extra.s = g->hdr;
		h->extra.len = strlen(g->hdr);
	}
	return 0;
}

/* Writing. */

#define WFLUSH		(1 << 16)	/* a rank's text written at this size */
#define MAXOPEN		256		/* rank files kept open at once */

struct wreq {
	int64_t		 id;
	int32_t		 src, dst, tag;
	int64_t		 bytes;
	unsigned char	 recv, hole;	/* hole: its irecv line is to come */
};

enum { WW_NONE, WW_WAIT, WW_WAITALL, WW_TEST, WW_MANY, WW_SENDRECV,
	WW_PROBE };

struct wrank {
	char		*buf;		/* text not yet written */
	size_t		 len, cap;
	size_t		*holes;		/* offsets where irecv lines go */
	int64_t		*holereq;
	size_t		 nholes, capholes;
	struct wreq	*rq;
	size_t		 nrq, caprq;
	int64_t		 last;		/* where computation starts again */
	int64_t		 rbytes;	/* a blocking receive's posted size */
	int		 wop;		/* the open wait's kind */
	int		 fd;		/* its file, -1 when closed */
	int		 created, wrote;
};

struct wsg {
	int		 onefile;
	int		 fd;		/* one file */
	char		*index;		/* per-rank: the index */
	char		*base;		/* per-rank: BASE_RANK.txt */
	/* Written in a temporary directory beside the index (stage),
	 * under these names, and moved to dir when all are complete. */
	char		*stage, *dir, *windex, *wbase;
	double		 flops;
	int32_t		 ranks;		/* from the header, 0 unknown */
	struct wrank	*rk;
	int32_t		 n, cap;
	int		 nopen;
	char		*obuf;		/* one file: text to write */
	size_t		 olen;
	char		 num[64];
};

static void
w_free(void *state)
{
	struct wsg *w = state;
	int32_t i;

	if (w == NULL)
		return;
	for (i = 0; i < w->n; i++) {
		if (w->rk[i].fd >= 0)
			close(w->rk[i].fd);
		free(w->rk[i].buf);
		free(w->rk[i].holes);
		free(w->rk[i].holereq);
		free(w->rk[i].rq);
	}
	if (w->fd > 1)
		close(w->fd);
	trc_atomic_abort(w->stage);	/* not complete: none of them */
	free(w->rk);
	free(w->index);
	free(w->base);
	free(w->dir);
	free(w->windex);
	free(w->wbase);
	free(w->obuf);
	free(w);
}

static int
w_open(struct trc_out *out, const char *path, const struct trc_header *h)
{
	struct wsg *w;
	char err[TRC_ERRLEN + 64];
	const char *slash;
	size_t n, d;

	if ((w = calloc(1, sizeof(*w))) == NULL)
		return trc_out_fail(out, "out of memory");
	trc_out_set_state(out, w);
	w->flops = trc_out_opts(out)->flops;
	if (!(w->flops > 0))
		return trc_out_fail(out, "writing simgrid needs --flops");
	w->ranks = h != NULL ? h->ranks : 0;
	w->fd = 1;
	if (path == NULL || strcmp(path, "-") == 0) {
		w->onefile = 1;
		if ((w->obuf = malloc(2 * WFLUSH)) == NULL)
			return trc_out_fail(out, "out of memory");
		return 0;
	}
	n = strlen(path);
	if (n > 4 && strcmp(path + n - 4, ".txt") == 0)
		n -= 4;
	if ((w->index = strdup(path)) == NULL ||
	    (w->base = malloc(n + 1)) == NULL)
		return trc_out_fail(out, "out of memory");
	memcpy(w->base, path, n);
	w->base[n] = '\0';
	if (!trc_atomic_wanted(path)) {	/* a device: written in place */
		if ((w->windex = strdup(w->index)) == NULL ||
		    (w->wbase = strdup(w->base)) == NULL)
			return trc_out_fail(out, "out of memory");
		return 0;
	}
	slash = strrchr(path, '/');
	d = slash != NULL ? (size_t)(slash - path) : 0;
	if ((w->stage = trc_atomic_tmpdir(path, err, sizeof(err))) == NULL)
		return trc_out_fail(out, "%s", err);
	trc_out_staged(out);
	if ((w->dir = slash == path ? strdup("/") : slash != NULL ?
	    strndup(path, d) : strdup(".")) == NULL ||
	    (w->windex = malloc(strlen(w->stage) + strlen(path) + 2)) ==
	    NULL || (w->wbase = malloc(strlen(w->stage) + n + 2)) == NULL)
		return trc_out_fail(out, "out of memory");
	sprintf(w->windex, "%s/%s", w->stage, slash ? slash + 1 : path);
	sprintf(w->wbase, "%s/%.*s", w->stage, (int)(n - (slash ? d + 1 : 0)),
	    slash ? slash + 1 : path);
	return 0;
}

static struct wrank *
w_rank(struct trc_out *out, struct wsg *w, int32_t r)
{
	struct wrank *nv;
	int32_t cap, i;

	if (r >= w->n) {
		if (r >= w->cap) {
			cap = w->cap ? w->cap : 64;
			while (cap <= r)
				cap *= 2;
			if ((nv = realloc(w->rk, (size_t)cap * sizeof(*nv))) ==
			    NULL) {
				trc_out_fail(out, "out of memory");
				return NULL;
			}
			w->rk = nv;
			w->cap = cap;
		}
		for (i = w->n; i <= r; i++) {
			memset(&w->rk[i], 0, sizeof(w->rk[i]));
			w->rk[i].fd = -1;
		}
		w->n = r + 1;
	}
	return &w->rk[r];
}

/* Room for n more bytes of rank text. */
static char *
w_room(struct trc_out *out, struct wrank *k, size_t n)
{
	if (trc_grow(&k->buf, &k->cap, k->len + n, 1, 4096) < 0) {
		trc_out_fail(out, "out of memory");
		return NULL;
	}
	return k->buf + k->len;
}

static char *
put(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

static char *
putnum(char *p, int64_t v)
{
	*p++ = ' ';
	return p + trc_format_int(p, v);
}

static int
w_write(struct trc_out *out, int fd, const char *name, const char *s,
    size_t n)
{
	ssize_t k;

	while (n > 0) {
		if ((k = write(fd, s, n)) < 0) {
			if (errno == EINTR)
				continue;
			return trc_out_fail(out, "%s: %s", name, strerror(errno));
		}
		s += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Rank r's file: its final name, or (tmp) the one it is written as. */
static void
w_filename(const struct wsg *w, int32_t r, int tmp, char *buf, size_t n)
{
	snprintf(buf, n, "%s_%ld.txt", tmp ? w->wbase : w->base, (long)r);
}

/* Write what rank r has before its first hole (all of it: force). */
static int
w_flush(struct trc_out *out, struct wsg *w, int32_t r, int force)
{
	struct wrank *k = &w->rk[r];
	char name[PATH_MAX + 32], wname[2 * PATH_MAX + 32];
	size_t n = k->nholes > 0 ? k->holes[0] : k->len;
	int flags;

	if (n == 0 || (!force && n < WFLUSH && !w->onefile))
		return 0;
	if (w->onefile) {
		if (w->olen + n > 2 * WFLUSH) {
			if (w_write(out, w->fd, "<stdout>", w->obuf, w->olen) < 0)
				return -1;
			w->olen = 0;
		}
		if (n > 2 * WFLUSH) {
			if (w_write(out, w->fd, "<stdout>", k->buf, n) < 0)
				return -1;
		} else {
			memcpy(w->obuf + w->olen, k->buf, n);
			w->olen += n;
		}
	} else {
		w_filename(w, r, 0, name, sizeof(name));
		w_filename(w, r, 1, wname, sizeof(wname));
		if (k->fd < 0) {
			flags = O_WRONLY | O_CREAT | (k->created ? O_APPEND :
			    O_TRUNC);
			if ((k->fd = open(wname, flags, 0666)) < 0)
				return trc_out_fail(out, "%s: %s", name,
				    strerror(errno));
			k->created = 1;
			w->nopen++;
		}
		if (w_write(out, k->fd, name, k->buf, n) < 0)
			return -1;
		if (w->nopen > MAXOPEN) {
			close(k->fd);
			k->fd = -1;
			w->nopen--;
		}
	}
	k->wrote = 1;
	memmove(k->buf, k->buf + n, k->len - n);
	k->len -= n;
	for (size_t i = 0; i < k->nholes; i++)
		k->holes[i] -= n;
	return 0;
}

/* The computation since the rank's last call, as a compute action. */
static int
w_compute(struct trc_out *out, struct wsg *w, int32_t r, struct wrank *k,
    int64_t t)
{
	double amount;
	char *p;
	int n;

	if (t <= k->last)
		return 0;
	amount = (double)(t - k->last) * w->flops / 1e9;
	k->last = t;
	if ((p = w_room(out, k, 64)) == NULL)
		return -1;
	p += trc_format_int(p, r);
	p = put(p, " compute ");
	if (amount == floor(amount) && amount < 9e15)
		p += trc_format_int(p, (int64_t)amount);
	else
		p += (n = snprintf(p, 32, "%.17g", amount)) > 0 ? n : 0;
	*p++ = '\n';
	k->len = (size_t)(p - k->buf);
	return 0;
}

static struct wreq *
w_req(struct wrank *k, int64_t id)
{
	size_t i;

	for (i = 0; i < k->nrq; i++)
		if (k->rq[i].id == id)
			return &k->rq[i];
	return NULL;
}

/* An irecv line for q, at p (room for 128 bytes). */
static char *
w_irecv(char *p, int32_t r, const struct wreq *q)
{
	p += trc_format_int(p, r);
	p = put(p, " irecv");
	p = putnum(p, q->src);
	p = putnum(p, q->tag);
	p = putnum(p, q->bytes < 0 ? 0 : q->bytes);
	p = put(p, " 6\n");
	return p;
}

static int
w_hole(struct trc_out *out, struct wrank *k, int64_t id)
{
	size_t cap;
	void *p;

	if (k->nholes == k->capholes) {
		cap = k->capholes ? 2 * k->capholes : 4;
		if ((p = realloc(k->holes, cap * sizeof(*k->holes))) == NULL)
			return trc_out_fail(out, "out of memory");
		k->holes = p;
		if ((p = realloc(k->holereq, cap * sizeof(*k->holereq))) == NULL)
			return trc_out_fail(out, "out of memory");
		k->holereq = p;
		k->capholes = cap;
	}
	k->holes[k->nholes] = k->len;
	k->holereq[k->nholes++] = id;
	return 0;
}

/* Fill the hole of request q with its irecv line. */
static int
w_fill(struct trc_out *out, int32_t r, struct wrank *k, struct wreq *q)
{
	char line[160];
	size_t i, n, off;

	for (i = 0; i < k->nholes && k->holereq[i] != q->id; i++)
		;
	if (i == k->nholes)
		return 0;
	n = (size_t)(w_irecv(line, r, q) - line);
	if (w_room(out, k, n) == NULL)
		return -1;
	off = k->holes[i];
	memmove(k->buf + off + n, k->buf + off, k->len - off);
	memcpy(k->buf + off, line, n);
	k->len += n;
	memmove(&k->holes[i], &k->holes[i + 1], (k->nholes - i - 1) *
	    sizeof(*k->holes));
	memmove(&k->holereq[i], &k->holereq[i + 1], (k->nholes - i - 1) *
	    sizeof(*k->holereq));
	k->nholes--;
	for (; i < k->nholes; i++)
		k->holes[i] += n;
	q->hole = 0;
	return 0;
}

static int
w_addreq(struct trc_out *out, struct wrank *k, const struct trc_event *ev,
    int recv)
{
	struct wreq *q;
	size_t cap;
	void *p;

	if (k->nrq == k->caprq) {
		cap = k->caprq ? 2 * k->caprq : 8;
		if ((p = realloc(k->rq, cap * sizeof(*k->rq))) == NULL)
			return trc_out_fail(out, "out of memory");
		k->rq = p;
		k->caprq = cap;
	}
	q = &k->rq[k->nrq++];
	memset(q, 0, sizeof(*q));
	q->id = ev->req;
	q->recv = (unsigned char)recv;
	q->src = recv ? ev->peer : ev->rank;
	q->dst = recv ? ev->rank : ev->peer;
	q->tag = ev->tag < 0 ? 0 : ev->tag;
	q->bytes = ev->bytes;
	q->hole = recv && (ev->peer == TRC_ANY || ev->tag == TRC_ANY);
	return 0;
}

/* The waits of a WE: one line for all, or one per request. */
static int
w_waits(struct trc_out *out, int32_t r, struct wrank *k,
    const struct trc_event *ev)
{
	struct trc_str list = ev->reqs;
	struct wreq *q;
	int64_t id;
	size_t n = 0, i;
	char *p;

	if (k->wop == WW_PROBE) {
		trc_out_drop(out, "probes");
		return 0;
	}
	while (trc_reqs_next(&list, &id) == 1)
		if (w_req(k, id) != NULL)
			n++;
	/* waitall when it waits for every open request, else waits. */
	if (k->wop == WW_WAITALL && n == k->nrq && n > 0) {
		if ((p = w_room(out, k, 32)) == NULL)
			return -1;
		p += trc_format_int(p, r);
		p = put(p, " waitall\n");
		k->len = (size_t)(p - k->buf);
		k->nrq = 0;
		return 0;
	}
	if (k->wop == WW_MANY || (k->wop == WW_WAITALL && n > 0))
		trc_out_drop(out, "waits on some requests (written as waits)");
	else if (k->wop == WW_SENDRECV)
		trc_out_drop(out, "sendrecvs (written as isend, irecv and "
		    "waits)");
	list = ev->reqs;
	while (trc_reqs_next(&list, &id) == 1) {
		if ((q = w_req(k, id)) == NULL) {
			trc_out_drop(out, "waits on unknown requests");
			continue;
		}
		if ((p = w_room(out, k, 128)) == NULL)
			return -1;
		p += trc_format_int(p, r);
		p = put(p, k->wop == WW_TEST ? " test" : " wait");
		p = putnum(p, q->src);
		p = putnum(p, q->dst);
		p = putnum(p, q->tag);
		*p++ = '\n';
		k->len = (size_t)(p - k->buf);
		i = (size_t)(q - k->rq);
		memmove(q, q + 1, (k->nrq - i - 1) * sizeof(*q));
		k->nrq--;
	}
	return 0;
}

/* A collective's line; 0 when the op has no TI action (dropped). */
static int
w_coll(struct trc_out *out, struct wsg *w, int32_t r, struct wrank *k,
    const struct trc_event *ev)
{
	static const struct { const char *op, *name; int form; } colls[] = {
		/* form: 0 none, 1 B ROOT, 2 B 0 ROOT, 3 B 0, 4 B B,
		 * 5 B B ROOT, 6 alltoallv, 7 gatherv, 8 allgatherv,
		 * 9 scatterv, 10 reduce_scatter */
		{ "barrier", "barrier", 0 }, { "bcast", "bcast", 1 },
		{ "reduce", "reduce", 2 }, { "allreduce", "allreduce", 3 },
		{ "scan", "scan", 3 }, { "exscan", "exscan", 3 },
		{ "alltoall", "alltoall", 4 }, { "allgather", "allgather", 4 },
		{ "gather", "gather", 5 }, { "scatter", "scatter", 5 },
		{ "alltoallv", "alltoallv", 6 }, { "gatherv", "gatherv", 7 },
		{ "allgatherv", "allgatherv", 8 }, { "scatterv", "scatterv", 9 },
		{ "reduce_scatter", "reducescatter", 10 },
	};
	int64_t b = ev->bytes < 0 ? 0 : ev->bytes;
	int64_t root = ev->root < 0 ? 0 : ev->root;
	int32_t n = w->ranks, i;
	size_t c;
	int form;
	char *p;

	for (c = 0; c < sizeof(colls) / sizeof(colls[0]); c++)
		if (ev->op.len == strlen(colls[c].op) &&
		    memcmp(ev->op.s, colls[c].op, ev->op.len) == 0)
			break;
	if (c == sizeof(colls) / sizeof(colls[0])) {
		trc_out_drop(out, "collectives with no SimGrid action");
		return 0;
	}
	if (ev->comm != 0) {
		trc_out_drop(out, "collectives on communicators other than "
		    "the world");
		return 0;
	}
	form = colls[c].form;
	if (form >= 6 && n <= 0) {
		trc_out_drop(out, "v collectives in a stream without ranks=");
		return 0;
	}
	if ((p = w_room(out, k, 64 + (form >= 6 ? 2 * 21 * (size_t)n : 0))) ==
	    NULL)
		return -1;
	p += trc_format_int(p, r);
	*p++ = ' ';
	p = put(p, colls[c].name);
	switch (form) {
	case 1:
		p = putnum(putnum(p, b), root);
		p = put(p, " 6");
		break;
	case 2:
		p = putnum(putnum(putnum(p, b), 0), root);
		p = put(p, " 6");
		break;
	case 3:
		p = putnum(putnum(p, b), 0);
		p = put(p, " 6");
		break;
	case 4:
		p = putnum(putnum(p, b), b);
		p = put(p, " 6 6");
		break;
	case 5:
		p = putnum(putnum(putnum(p, b), b), root);
		p = put(p, " 6 6");
		break;
	case 6:
		p = putnum(p, b * n);
		for (i = 0; i < n; i++)
			p = putnum(p, b);
		p = putnum(p, b * n);
		for (i = 0; i < n; i++)
			p = putnum(p, b);
		p = put(p, " 6 6");
		break;
	case 7:
	case 8:
		p = putnum(p, b);
		for (i = 0; i < n; i++)
			p = putnum(p, b);
		if (form == 7)
			p = putnum(p, root);
		p = put(p, " 6 6");
		break;
	case 9:
		for (i = 0; i < n; i++)
			p = putnum(p, b);
		p = putnum(putnum(p, b), root);
		p = put(p, " 6 6");
		break;
	case 10:
		for (i = 0; i < n; i++)
			p = putnum(p, b);
		p = putnum(p, 0);
		p = put(p, " 6");
		break;
	}
	*p++ = '\n';
	k->len = (size_t)(p - k->buf);
	return 0;
}

static int
opis(const struct trc_event *ev, const char *s)
{
	return ev->op.len == strlen(s) && memcmp(ev->op.s, s, ev->op.len) == 0;
}

static int
w_event(struct trc_out *out, const struct trc_event *ev)
{
	struct wsg *w = trc_out_state(out);
	struct wrank *k;
	const struct trc_str *mark;
	struct wreq *q;
	int32_t r = ev->rank;
	char *p;

	if ((k = w_rank(out, w, r)) == NULL)
		return -1;
	switch (ev->kind) {
	case TRC_MK:
		mark = trc_attr_get(ev, "mark");
		if (mark == NULL || !((mark->len == 4 &&
		    memcmp(mark->s, "init", 4) == 0) || (mark->len == 8 &&
		    memcmp(mark->s, "finalize", 8) == 0))) {
			trc_out_drop(out, "markers");
			return 0;
		}
		if (w_compute(out, w, r, k, ev->t) < 0 ||
		    (p = w_room(out, k, 32)) == NULL)
			return -1;
		p += trc_format_int(p, r);
		p = put(p, mark->len == 4 ? " init\n" : " finalize\n");
		k->len = (size_t)(p - k->buf);
		break;
	case TRC_PB:
	case TRC_PE:
		trc_out_drop(out, "region events");
		return 0;
	case TRC_SB:
		if (w_compute(out, w, r, k, ev->t) < 0)
			return -1;
		if (ev->peer < 0) {
			trc_out_drop(out, "sends without a destination");
			return 0;
		}
		if (ev->op.len > 0)
			trc_out_drop(out, "send modes (written as send)");
		if (ev->comm != 0)
			trc_out_drop(out, "communicators of point-to-point "
			    "calls");
		if (ev->req != TRC_NONE && w_addreq(out, k, ev, 0) < 0)
			return -1;
		if ((p = w_room(out, k, 128)) == NULL)
			return -1;
		p += trc_format_int(p, r);
		p = put(p, ev->req != TRC_NONE ? " isend" : " send");
		p = putnum(p, ev->peer);
		p = putnum(p, ev->tag < 0 ? 0 : ev->tag);
		p = putnum(p, ev->bytes < 0 ? 0 : ev->bytes);
		p = put(p, " 6\n");
		k->len = (size_t)(p - k->buf);
		break;
	case TRC_RB:
		if (w_compute(out, w, r, k, ev->t) < 0)
			return -1;
		if (ev->comm != 0)
			trc_out_drop(out, "communicators of point-to-point "
			    "calls");
		if (ev->req == TRC_NONE) {	/* written at its RE */
			k->rbytes = ev->bytes;
			break;
		}
		if (w_addreq(out, k, ev, 1) < 0)
			return -1;
		q = &k->rq[k->nrq - 1];
		if (q->hole) {
			if (w_hole(out, k, q->id) < 0)
				return -1;
		} else {
			if ((p = w_room(out, k, 160)) == NULL)
				return -1;
			k->len = (size_t)(w_irecv(p, r, q) - k->buf);
		}
		k->last = ev->t;
		break;
	case TRC_RE:
		if (ev->req != TRC_NONE) {	/* inside a wait */
			if ((q = w_req(k, ev->req)) != NULL && q->hole) {
				q->src = ev->peer;
				q->tag = ev->tag < 0 ? 0 : ev->tag;
				if (q->bytes < 0)
					q->bytes = ev->bytes;
				if (w_fill(out, r, k, q) < 0)
					return -1;
			}
			break;
		}
		if ((p = w_room(out, k, 128)) == NULL)
			return -1;
		p += trc_format_int(p, r);
		p = put(p, " recv");
		p = putnum(p, ev->peer < 0 ? 0 : ev->peer);
		p = putnum(p, ev->tag < 0 ? 0 : ev->tag);
		p = putnum(p, k->rbytes >= 0 ? k->rbytes :
		    ev->bytes < 0 ? 0 : ev->bytes);
		p = put(p, " 6\n");
		k->len = (size_t)(p - k->buf);
		k->rbytes = TRC_NONE;
		k->last = ev->t;
		break;
	case TRC_WB:
		if (w_compute(out, w, r, k, ev->t) < 0)
			return -1;
		k->wop = opis(ev, "waitall") ? WW_WAITALL :
		    opis(ev, "sendrecv") ? WW_SENDRECV :
		    opis(ev, "waitany") || opis(ev, "waitsome") ? WW_MANY :
		    opis(ev, "test") || opis(ev, "testall") ||
		    opis(ev, "testany") || opis(ev, "testsome") ? WW_TEST :
		    opis(ev, "probe") || opis(ev, "iprobe") ? WW_PROBE : WW_WAIT;
		break;
	case TRC_WE:
		if (w_waits(out, r, k, ev) < 0)
			return -1;
		k->wop = WW_NONE;
		k->last = ev->t;
		break;
	case TRC_XB:
		if (w_compute(out, w, r, k, ev->t) < 0 ||
		    w_coll(out, w, r, k, ev) < 0)
			return -1;
		break;
	case TRC_SE:
	case TRC_XE:
		k->last = ev->t;
		break;
	default:
		break;
	}
	return w_flush(out, w, r, 0);
}

static int
w_close(struct trc_out *out)
{
	struct wsg *w = trc_out_state(out);
	struct wrank *k;
	char name[PATH_MAX + 32], wname[2 * PATH_MAX + 32], *slash;
	char err[TRC_ERRLEN + 64];
	int32_t r, n;
	FILE *fp;
	int fd, rc;

	n = w->ranks > w->n ? w->ranks : w->n;
	if (n > 0 && w_rank(out, w, n - 1) == NULL)
		return -1;
	for (r = 0; r < n; r++) {
		k = &w->rk[r];
		if (k->nholes > 0)
			trc_out_drop(out, "irecvs from any source never "
			    "completed");
		k->nholes = 0;
		if (w_flush(out, w, r, 1) < 0)
			return -1;
		if (k->fd >= 0) {
			if (close(k->fd) < 0) {
				w_filename(w, r, 0, name, sizeof(name));
				k->fd = -1;
				return trc_out_fail(out, "%s: %s", name,
				    strerror(errno));
			}
			k->fd = -1;
			w->nopen--;
		}
		if (!w->onefile && !k->created) {	/* a rank with nothing */
			w_filename(w, r, 0, name, sizeof(name));
			w_filename(w, r, 1, wname, sizeof(wname));
			if ((fd = open(wname, O_WRONLY | O_CREAT | O_TRUNC,
			    0666)) < 0 || close(fd) < 0)
				return trc_out_fail(out, "%s: %s", name,
				    strerror(errno));
			k->created = 1;
		}
	}
	if (w->onefile)
		return w_write(out, w->fd, "<stdout>", w->obuf, w->olen);
	if ((fp = fopen(w->windex, "w")) == NULL)
		return trc_out_fail(out, "%s: %s", w->index, strerror(errno));
	for (r = 0; r < n; r++) {
		w_filename(w, r, 0, name, sizeof(name));
		slash = strrchr(name, '/');
		fprintf(fp, "%s\n", slash != NULL ? slash + 1 : name);
	}
	if (ferror(fp) | (fclose(fp) == EOF))
		return trc_out_fail(out, "%s: %s", w->index, strerror(errno));
	/* All complete: moved into place, the index (what a reader
	 * opens) last. */
	if (w->stage != NULL) {
		slash = strrchr(w->windex, '/');
		rc = trc_atomic_commit_into(w->stage, w->dir, slash + 1, err,
		    sizeof(err));
		w->stage = NULL;
		if (rc < 0)
			return trc_out_fail(out, "%s", err);
	}
	return 0;
}

/* The index, and BASE_N.txt beside it. */
static int
replaces(const char *path, const char *file)
{
	const char *slash = strrchr(path, '/'), *fs = strrchr(file, '/');
	size_t n = strlen(path), np, nf;
	char *dir, *prefix;
	int r;

	if (trc_same_file(path, file))
		return 1;
	if (n > 4 && strcmp(path + n - 4, ".txt") == 0)
		n -= 4;
	dir = slash == path ? strdup("/") : slash != NULL ?
	    strndup(path, (size_t)(slash - path)) : strdup(".");
	np = n - (slash != NULL ? (size_t)(slash - path) + 1 : 0);
	if (dir == NULL || (prefix = malloc(np + 2)) == NULL) {
		free(dir);
		return 1;	/* not known: refused */
	}
	sprintf(prefix, "%.*s_", (int)np, slash != NULL ? slash + 1 : path);
	r = trc_out_names(file, dir, prefix, ".txt");
	/* Only a rank's number between them. */
	fs = fs != NULL ? fs + 1 : file;
	nf = strlen(fs);
	if (r && (nf <= np + 5 ||
	    strspn(fs + np + 1, "0123456789") != nf - np - 5))
		r = 0;
	free(dir);
	free(prefix);
	return r;
}

const struct trc_format trc_format_simgrid = {
	.name = "simgrid",
	.alias = "ti",
	.bid = bid,
	.open = sg_open,
	.next = sg_next,
	.close = sg_free,
	.wopen = w_open,
	.write = w_event,
	.wclose = w_close,
	.wfree = w_free,
	.replaces = replaces,
};
