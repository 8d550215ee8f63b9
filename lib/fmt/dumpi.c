/*
 * dumpi.c - SST DUMPI traces as dumpi2ascii prints them: one file per
 * rank, one block per MPI call,
 *
 *	MPI_Isend entering at walltime 1.213593925, cputime ... thread 0.
 *	int count=89
 *	MPI_Datatype datatype=14 (MPI_DOUBLE)
 *	...
 *	MPI_Isend returning at walltime 1.213618170, cputime ... thread 0.
 *
 * Given one file PREFIX-NNNN.EXT, every sibling PREFIX-0000.EXT ... is
 * read, one rank each, and the ranks are merged by time with a tree of
 * one head per rank, so memory grows with the ranks, not the length.
 * Each call is mapped as libtrc-mpi(7) writes it.  Peers are ranks of
 * the call's communicator: the communicators and groups the files
 * build (MPI_Comm_group, MPI_Group_incl, MPI_Comm_create,
 * MPI_Comm_split, ...) translate them to world ranks.  A split needs
 * the colours of every member, so its members are known when all have
 * called it, which the time order of the merge ensures before any
 * member's next call; events are therefore built when they leave the
 * tree, not when their block is read.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "swar.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define MAXARG		48
#define CTAB		256		/* > 2 x the calls read */
#define PRESCAN_BLOCKS	512
#define ENTER		" entering at walltime "
#define RETURN		" returning at walltime "

/*
 * A file read a block at a time: a block (one call) stays in place in
 * the buffer while it is read, so its arguments are not copied.  The
 * buffer starts small, as a run has one per rank, and grows only for a
 * call longer than it.
 *
 * read() rather than mmap, as measured (1 M events in 64 files, CPU
 * time against read()'s in the same runs, on the project's 2-core VM):
 * the files mapped whole 1.54x, setting up page tables costing more
 * than the copy saves, and the mapped pages count in the peak memory,
 * which then grows with the trace; mapped and unmapped every 128 KB
 * 1.58x, each munmap a TLB shootdown.  Buffers of 256 KB (1.16x) and
 * blocks read 64 calls ahead per rank (1.06x) did not help either.
 * The merge takes a block from every rank in turn, so all buffers are
 * in use at once: 64 ranks of 8 KB stay in a 1 MB cache where 64 KB
 * each did not (callgrind's cache model, 1 M events in 64 files: 2.4 M
 * misses of a 1 MB cache with 64 KB, 0.06 M with 8 KB, for 0.7% more
 * instructions).  Timed all the same (2026-11-28, 5 M events in 64
 * files, CPU time of runs in turns, medians of 15), 64 KB took 4% less
 * than 8 KB (0.712 s against 0.745), with an eighth of the read()s:
 * 16 KB 1%, 32 KB 2%, 128 KB as 64 KB.  So each buffer starts at
 * 64 KB, halved down to 8 KB while the ranks' would take more than
 * 4 MB together (64 ranks and fewer have 64 KB).  Reading to the same
 * place in a cache line as the bytes' in the file (the rest of the
 * buffer moved there, not to its front), for the kernel's copy, took
 * as long or longer (0.701 s against 0.728, 11 runs in turns).
 */
#define FBUF		(1 << 13)	/* the least */
#define FBUF_BIG	(1 << 16)	/* the most */
#define FBUF_ALL	(1 << 22)	/* all ranks' together, at most */
#define FBUF_MAX	(1 << 26)
#define FPAD		64		/* newlines past the end: see quick() */

struct fbuf {
	struct trc_src	*src;
	const char	*path;
	char		*buf;
	size_t		 cap, start, end;	/* unread: [start, end) */
	long		 line;			/* lines before start */
	int		 eof;
};

/* A map of int keys (MPI handles) to int64 values, linear probing. */
struct imap {
	int32_t		*k;
	int64_t		*v;
	uint8_t		*used;
	uint32_t	 cap, n;
};

static uint32_t
ihash(int32_t k, uint32_t cap)
{
	return ((uint32_t)k * 2654435761u) & (cap - 1);
}

static int64_t *
imap_get(const struct imap *m, int32_t k)
{
	uint32_t i;

	if (m->cap == 0)
		return NULL;
	for (i = ihash(k, m->cap); m->used[i]; i = (i + 1) & (m->cap - 1))
		if (m->k[i] == k)
			return &m->v[i];
	return NULL;
}

static int
imap_put(struct imap *m, int32_t k, int64_t v)
{
	struct imap g;
	uint32_t i;
	int64_t *p;

	if ((p = imap_get(m, k)) != NULL) {
		*p = v;
		return 0;
	}
	if (2 * (m->n + 1) > m->cap) {
		memset(&g, 0, sizeof(g));
		g.cap = m->cap ? 2 * m->cap : 16;
		g.k = malloc(g.cap * sizeof(*g.k));
		g.v = malloc(g.cap * sizeof(*g.v));
		g.used = calloc(g.cap, 1);
		if (g.k == NULL || g.v == NULL || g.used == NULL) {
			free(g.k);
			free(g.v);
			free(g.used);
			return -1;
		}
		for (i = 0; i < m->cap; i++)
			if (m->used[i])
				(void)imap_put(&g, m->k[i], m->v[i]);
		free(m->k);
		free(m->v);
		free(m->used);
		*m = g;
	}
	for (i = ihash(k, m->cap); m->used[i]; i = (i + 1) & (m->cap - 1))
		;
	m->used[i] = 1;
	m->k[i] = k;
	m->v[i] = v;
	m->n++;
	return 0;
}

/* Removal with backward shift, so that no tombstones pile up. */
static void
imap_del(struct imap *m, int32_t k)
{
	uint32_t i, j, h, mask = m->cap - 1;

	if (m->cap == 0)
		return;
	for (i = ihash(k, m->cap); m->used[i]; i = (i + 1) & mask)
		if (m->k[i] == k)
			break;
	if (!m->used[i])
		return;
	m->used[i] = 0;
	m->n--;
	for (j = (i + 1) & mask; m->used[j]; j = (j + 1) & mask) {
		h = ihash(m->k[j], m->cap);
		/* Move j back to i unless its home lies in (i, j]. */
		if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
			m->k[i] = m->k[j];
			m->v[i] = m->v[j];
			m->used[i] = 1;
			m->used[j] = 0;
			i = j;
		}
	}
}

static void
imap_free(struct imap *m)
{
	free(m->k);
	free(m->v);
	free(m->used);
	memset(m, 0, sizeof(*m));
}

/* Communicators: one instance per communicator of the run. */
enum ikind { I_WORLD, I_SELF, I_LIST, I_ALIAS, I_SPLIT, I_CSUB, I_UNKNOWN };

struct sreg {
	int32_t		 world, color, key;
};

/* The calls of one MPI_Comm_split, found by the key of colour INT32_MIN. */
struct split {
	int32_t		 parent, seq;
	struct sreg	*r;
	int32_t		 n;
	size_t		 cap;
	int		 done;
};

struct inst {
	enum ikind	 k;
	int32_t		 size;		/* -1 until known */
	int32_t		*m;		/* I_LIST: world ranks in comm order */
	int32_t		 parent;	/* I_ALIAS, I_SPLIT, I_CSUB */
	int32_t		 take;		/* I_ALIAS: the first take, -1 all */
	int32_t		 self;		/* I_SELF */
	int32_t		 ndims, *dims;	/* made by MPI_Cart_create */
	int32_t		*remain, color;	/* I_CSUB */
	struct split	*sp;		/* I_SPLIT */
	const char	*why;		/* I_UNKNOWN: the call */
	int32_t		 rank;		/* made where, for messages */
	long		 line;
};

/* Which instance the seq-th creation on parent (colour color) is. */
struct ckey {
	int32_t		 parent, seq, color, inst;
	struct split	*sp;		/* colour INT32_MIN: the split */
};

struct grp {
	int32_t		 n;		/* -1: not known */
	int32_t		*m;
};

/* A request handle and 1 + its index in rq; 0 for none. */
struct rslot {
	int32_t		 h, i;
};

struct reqinfo {
	int64_t		 id, bytes;
	int32_t		 inst, peer, tag;
	int		 recv;
	long		 line;
	int32_t		 next;		/* free list */
};

/* An event to come, built when it leaves the tree. */
struct pev {
	int64_t		 t, bytes, req, polls;
	int32_t		 inst, peer, tag, root;
	uint32_t	 off, n;	/* req list (ids) or fn (str) */
	long		 line;
	const char	*op, *mark;
	uint8_t		 kind, size, list, probe;
};

/* What the merge reads of a rank at every event (rank to qcap) comes
 * first, in one cache line mostly: the tree's ranks take turns. */
struct rank {
	int32_t		 rank;
	struct pev	*q;
	size_t		 qn, qhead, qcap;
	int32_t		 wrank, wsize;	/* from the prescan, -1 none */
	long		 wline;
	char		*path;
	struct trc_src	*src;		/* own; NULL for the reader's */
	struct fbuf	 f;
	int		 done;
	int64_t		 last;		/* the previous call's return */
	long		 lastline;
	int64_t		*ids;
	size_t		 nids, capids;
	char		*str;
	size_t		 nstr, capstr;
	int64_t		 polls, nextreq;
	int32_t		 self;		/* the COMM_SELF instance, -1 */
	struct imap	 comms, groups, types, reqs, seq;
	struct reqinfo	*rq;
	int32_t		 nrq, freerq;
	size_t		 caprq;
	struct rslot	*rdir;		/* RDIR slots, made at the first */
};

/*
 * A rank in the merge's tree of losers, with the time of its next event
 * and its rank, its keys, at hand: the tree's compares read the tree
 * alone.  Each inner node keeps the loser of the match there, the
 * winner goes on up; the rank whose event leaves plays its way back
 * up, one compare a level (log2 of the ranks), where a heap's sift
 * took two.  A rank at its end plays as after all others.  Measured
 * (2026-11-28, 5 M events in 64 files, medians of 15 runs in turns):
 * the tree with a branch a match took as long as the heap (0.4% less),
 * with masks 2% less.  Seven events in ten leave with the next of the
 * same rank as early (the calls' events at their enter and return), so
 * that no match is played again.
 */
struct hent {
	int64_t		 t;		/* the time of rk->q[rk->qhead] */
	int32_t		 rank;		/* rk->rank */
	int32_t		 leaf;		/* d->rk[leaf] */
};

enum slot {
	S_COUNT, S_DATATYPE, S_DEST, S_SOURCE, S_TAG, S_COMM, S_REQUEST,
	S_REQUESTS, S_STATUS, S_INDEX, S_OUTCOUNT, S_INDICES, S_FLAG,
	S_ROOT, S_SENDCOUNT, S_SENDTYPE, S_RECVCOUNT, S_RECVTYPE, S_NSLOT
};

/* An argument line "TYPE NAME=VALUE", in place in the file's buffer. */
struct arg {
	const char	*name, *val;	/* val NUL-terminated */
	uint32_t	 nlen, vlen;
	long		 line;
};

struct block {
	char		 name[96];
	size_t		 nlen;
	int64_t		 t0, t1;
	long		 line0, line1;
	int		 nargs;
	struct arg	 a[MAXARG];
	char		*vend[MAXARG];	/* where each value ends */
	struct arg	*slot[S_NSLOT];
};

#define OPMEMO		16

struct opmemo {
	const char	*op;
	size_t		 n;
};

struct memo {
	char		 s[32];
	uint32_t	 n;		/* 0: none */
	int64_t		 v, h;
};

struct status {
	int64_t		 bytes;
	int32_t		 source, tag;
	int		 cancelled;
};

struct rd {
	struct trc_reader *r;
	struct rank	*rk;
	int32_t		 n;
	struct hent	*tree;		/* [1, k): losers; leaf i at k + i */
	struct hent	 top;		/* the winner */
	int32_t		 k;		/* leaves: a power of 2, >= n */
	int32_t		 nheap;		/* ranks not at their end */
	uint8_t		 ctab[CTAB];
	uint8_t		 clen[CTAB];	/* the calls' name lengths */
	uint64_t	 cw[CTAB][2];	/* their first and last 8 bytes */
	struct block	 b;
	struct inst	*in;
	int32_t		 nin;
	size_t		 capin;
	struct ckey	*ck;
	uint32_t	 capck, nck;
	struct split	**splits;
	size_t		 nsplits, capsplits;
	int64_t		*iv, *iv2;
	size_t		 capiv, capiv2;
	struct status	*st;
	size_t		 capst;
	char		*sbuf;
	size_t		 capsbuf;
	char		*done;
	size_t		 capdone;
	struct reqinfo	**rv;
	size_t		 caprv;
	struct status	**sv;
	size_t		 capsv;
	struct memo	 tmemo, cmemo;	/* datatype, communicator */
	struct trc_evbuild eb;
	size_t		 fbuf;		/* a file's buffer at first */
	struct opmemo	 om[OPMEMO];	/* op= names' lengths: eb_op */
};

static int
nomem(struct rd *d)
{
	return trc_fail_at(d->r, trc_name(d->r), 0, "out of memory");
}

/* Grows *p to hold n elements of size sz; the usual case inline. */
static inline int
grow(void *pp, size_t *cap, size_t n, size_t sz)
{
	return n <= *cap ? 0 : trc_grow(pp, cap, n, sz, 16);
}

/*
 * The arguments the usual calls have get a slot as they are read; with
 * a literal name the slot is found when compiling, so arg(b, "count")
 * is a load.  Other names are looked for in the list.
 */
/* Whether the n bytes at s (n <= 9, a constant) are lit: loads, not a
 * call of memcmp. */
static inline __attribute__((always_inline)) int
same(const char *s, const char *lit, size_t n)
{
	uint64_t a = 0, b = 0;

	memcpy(&a, s, n < 8 ? n : 8);
	memcpy(&b, lit, n < 8 ? n : 8);
	return a == b && (n <= 8 || s[8] == lit[8]);
}

static inline __attribute__((always_inline)) int
slot_of(const char *s, size_t n)
{
	switch (n) {
	case 3:
		return same(s, "tag", 3) ? S_TAG : -1;
	case 4:
		return same(s, "comm", 4) ? S_COMM :
		    same(s, "dest", 4) ? S_DEST :
		    same(s, "flag", 4) ? S_FLAG :
		    same(s, "root", 4) ? S_ROOT : -1;
	case 5:
		return same(s, "count", 5) ? S_COUNT :
		    same(s, "index", 5) ? S_INDEX : -1;
	case 6:
		return same(s, "source", 6) ? S_SOURCE :
		    same(s, "status", 6) ? S_STATUS : -1;
	case 7:
		return same(s, "request", 7) ? S_REQUEST :
		    same(s, "indices", 7) ? S_INDICES : -1;
	case 8:
		return same(s, "datatype", 8) ? S_DATATYPE :
		    same(s, "requests", 8) ? S_REQUESTS :
		    same(s, "outcount", 8) ? S_OUTCOUNT :
		    same(s, "sendtype", 8) ? S_SENDTYPE :
		    same(s, "recvtype", 8) ? S_RECVTYPE : -1;
	case 9:
		return same(s, "sendcount", 9) ? S_SENDCOUNT :
		    same(s, "recvcount", 9) ? S_RECVCOUNT : -1;
	}
	return -1;
}

/* Lines ------------------------------------------------------------------ */

/*
 * What a line of a block is: 'e' entering, 'r' returning (with the
 * name's length and the time), 'a' an argument, or -1 for a call line
 * whose time is not one.  sp is the line's first blank, or NULL.
 */
#define ELEN	(sizeof(ENTER) - 1)
#define RLEN	(sizeof(RETURN) - 1)

/* "S.NNNNNNNNN," as dumpi2ascii prints times, quickly: just past the
 * comma, or NULL. */
static inline __attribute__((always_inline)) const char *
wall_time(const char *p, const char *end, int64_t *t)
{
	int64_t sec = 0, frac = 0;
	int i;
#if SWAR_LE
	uint64_t u;
#endif

	if (p >= end || *p < '0' || *p > '9')
		return NULL;
	for (; p < end && *p >= '0' && *p <= '9'; p++)
		if ((sec = sec * 10 + (*p - '0')) > 9000000000LL)
			return NULL;
	if (end - p < 11 || *p++ != '.')
		return NULL;
#if SWAR_LE
	if (swar_digits8(p, &u) == 0 && p[8] >= '0' && p[8] <= '9' &&
	    p[9] == ',') {
		*t = sec * 1000000000 + (int64_t)u * 10 + (p[8] - '0');
		return p + 10;
	}
#endif
	for (i = 0; i < 9; i++, p++) {
		if (*p < '0' || *p > '9')
			return NULL;
		frac = frac * 10 + (*p - '0');
	}
	if (*p != ',')
		return NULL;
	*t = sec * 1000000000 + frac;
	return p + 1;
}

static int
line_kind(const char *s, size_t len, const char *sp, size_t *nlen,
    int64_t *t)
{
	const char *e, *end = s + len, *p;
	size_t rest;
	int k;

	if (sp == NULL || sp == s)
		return 'a';
	rest = (size_t)(end - sp);
	if (rest > RLEN && sp[1] == 'r' && memcmp(sp, RETURN, RLEN) == 0) {
		k = 'r';
		p = sp + RLEN;
	} else if (rest > ELEN && sp[1] == 'e' &&
	    memcmp(sp, ENTER, ELEN) == 0) {
		k = 'e';
		p = sp + ELEN;
	} else
		return 'a';
	*nlen = (size_t)(sp - s);
	if (wall_time(p, end, t) != NULL)
		return k;
	for (e = p; e < end && *e != ','; e++)
		;
	if (e == end || trc_parse_time(p, (size_t)(e - p), t) < 0)
		return -1;
	return k;
}

static void
show(char *out, size_t cap, const char *s, size_t len)
{
	if (len > cap - 4) {
		memcpy(out, s, cap - 4);
		memcpy(out + cap - 4, "...", 4);
	} else {
		memcpy(out, s, len);
		out[len] = '\0';
	}
}

/* More bytes into f, keeping [f->start, f->end): 0, or -1 on error. */
static int
fb_fill(struct rd *d, struct fbuf *f)
{
	ssize_t n;
	size_t c;
	char *nb;

	if (f->start > 0) {
		memmove(f->buf, f->buf + f->start, f->end - f->start);
		f->end -= f->start;
		f->start = 0;
	}
	if (f->end == f->cap) {
		if ((c = f->cap ? 2 * f->cap : d->fbuf) > FBUF_MAX)
			return trc_fail_at(d->r, f->path, f->line + 1, "call "
			    "longer than %d bytes", FBUF_MAX);
		if ((nb = realloc(f->buf, c + FPAD)) == NULL)
			return nomem(d);
		f->buf = nb;
		f->cap = c;
	}
	if ((n = trc_src_read(f->src, f->buf + f->end, f->cap - f->end)) < 0)
		return trc_fail_at(d->r, f->path, f->line + 1, "%s",
		    trc_src_error(f->src));
	if (n == 0)
		f->eof = 1;
	f->end += (size_t)n;
	memset(f->buf + f->end, '\n', FPAD);
	return 0;
}

/*
 * The first byte a or b or '\n' in [p, end), or end.  A line's first
 * blank (which ends a call's name or an argument's type) and an
 * argument's '=' or '[' are what a block's lines are scanned for,
 * besides their newlines.  Sixteen bytes at a time where SSE2 is (every
 * x86-64), eight in a register elsewhere; never a byte past end.
 */
static inline const char *
find3(const char *p, const char *end, unsigned char a, unsigned char b)
{
	uint64_t x, m;
#ifdef __SSE2__
	const __m128i va = _mm_set1_epi8((char)a), vb = _mm_set1_epi8((char)b);
	const __m128i vn = _mm_set1_epi8('\n');
	__m128i v;
	int k;

	for (; end - p >= 16; p += 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)p);
		k = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
		    _mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)),
		    _mm_cmpeq_epi8(v, vn)));
		if (k != 0)
			return p + __builtin_ctz((unsigned)k);
	}
#endif
	for (; end - p >= 8; p += 8) {
		x = swar_load(p);
		if ((m = swar_eq(x, a) | swar_eq(x, b) | swar_eq(x, '\n')) != 0)
#if SWAR_LE
			return p + swar_first(m);
#else
			break;
#endif
	}
	for (; p < end; p++)
		if (*p == a || *p == b || *p == '\n')
			break;
	return p;
}

/*
 * A line's blank and an argument's '=' or '[' once its newline nl is
 * known: most lie in its first sixteen bytes, which one load and
 * compare find, with no loop (whose exit, at a varying count, is a
 * mispredicted branch).  The load reads [p, p + 16) only where the
 * buffer holds those bytes (e), past the line perhaps, and the mask
 * keeps the line's own.  first_of returns nl when the line has none.
 */
#ifdef __SSE2__
static inline unsigned
mask16(const char *p, const char *nl, __m128i eq1, __m128i eq2)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
	    _mm_cmpeq_epi8(v, eq1), _mm_cmpeq_epi8(v, eq2)));

	return nl - p < 16 ? m & ((1u << (nl - p)) - 1) : m;
}
#endif

/* The first a or b in [s, nl), or nl. */
static inline char *
first_of(char *s, char *nl, const char *e, char a, char b)
{
#ifdef __SSE2__
	unsigned m;

	if (e - s >= 16) {
		if ((m = mask16(s, nl, _mm_set1_epi8(a), _mm_set1_epi8(b))) !=
		    0)
			return s + __builtin_ctz(m);
		if (nl - s <= 16)
			return nl;
		s += 16;
	}
#endif
	(void)e;
	/* find3 stops at nl, the first newline, if nothing before. */
	return (char *)find3(s, nl, (unsigned char)a, (unsigned char)b);
}

/*
 * The next block of a file: 1, 0 at its end, -1 on error.  Lines
 * outside a block (the header or footer dumpi2ascii -H or -F adds) are
 * counted and skipped.  When the buffer ends inside a block, the block
 * moves to the buffer's front and is read again from its first line.
 * Each line's newline is found first, then its fields before it; a
 * call line as dumpi2ascii prints it is told and its time read at
 * once, any other goes to line_kind.
 */
static int
read_block(struct rd *d, struct fbuf *f, struct block *b)
{
	char *s, *eq = NULL, *sp, *nl, *e, tb[64];
	const char *p;
	size_t len, nlen = 0, pos;
	int64_t t = 0;
	long line;
	int k, i, in;
	struct arg *a;

	/* Filled once before any offset from buf, NULL until then. */
	if (f->buf == NULL && fb_fill(d, f) < 0)
		return -1;
again:
	pos = f->start;
	line = f->line;
	in = 0;
	for (;;) {
		s = f->buf + pos;
		e = f->buf + f->end;
		/*
		 * The newline first, by memchr, then the line's fields
		 * between it and s: a prototype of this loop over the
		 * benchmark's 64 files (2026-11-28) took 68 ms against 86
		 * for scans from s for blank, '=' and newline in turn.
		 */
		nl = memchr(s, '\n', (size_t)(e - s));
		sp = first_of(s, nl != NULL ? nl : e, e, ' ', ' ');
		/*
		 * An argument line as dumpi2ascii prints it, "TYPE NAME=VALUE"
		 * with no '[' in NAME and no CR, is told and split here;
		 * any other line goes the long way below, which tells it
		 * the same.
		 */
		if (nl != NULL && in && b->nargs < MAXARG && sp > s &&
		    nl - sp > 3 && !(sp[1] == 'r' && sp[3] == RETURN[3]) &&
		    !(sp[1] == 'e' && sp[2] == ENTER[2]) &&
		    *(eq = first_of(sp + 1, nl, e, '=', '[')) == '=' &&
		    nl[-1] != '\r') {
			a = &b->a[b->nargs];
			a->name = sp + 1;
			a->nlen = (uint32_t)(eq - a->name);
			a->val = eq + 1;
			a->vlen = (uint32_t)(nl - a->val);
			a->line = ++line;
			if ((k = slot_of(a->name, a->nlen)) >= 0 &&
			    b->slot[k] == NULL)
				b->slot[k] = a;
			b->vend[b->nargs++] = nl;
			pos = (size_t)(nl - f->buf) + 1;
			continue;
		}
		if (nl == NULL) {
			if (!f->eof) {
				if (fb_fill(d, f) < 0)
					return -1;
				goto again;
			}
			if (s == e) {
				if (in)
					return trc_fail_at(d->r, f->path,
					    b->line0, "'%s' has no returning "
					    "line (the file ends)", b->name);
				return 0;
			}
			nl = e;		/* a last line without its newline */
		}
		len = (size_t)(nl - s);
		pos = (size_t)(nl - f->buf) + (nl < e);
		line++;
		if (len > 0 && s[len - 1] == '\r')
			len--;
		if (sp >= s + len)
			sp = NULL;
		/* A call line as dumpi2ascii prints it, told and its time
		 * read here; any other goes to line_kind. */
		k = 0;
		if (sp != NULL && sp > s && e - sp > (ptrdiff_t)RLEN) {
			p = NULL;
			if (sp[1] == 'r' && memcmp(sp, RETURN, RLEN) == 0)
				p = wall_time(sp + RLEN, e, &t);
			else if (sp[1] == 'e' && memcmp(sp, ENTER, ELEN) == 0)
				p = wall_time(sp + ELEN, e, &t);
			else
				k = 'a';
			if (p != NULL) {
				k = sp[1];
				nlen = (size_t)(sp - s);
			}
		}
		if (k == 0)
			k = line_kind(s, len, sp, &nlen, &t);
		if (k < 0) {
			show(tb, sizeof(tb), s, len);
			return trc_fail_at(d->r, f->path, line,
			    "invalid time in '%s'", tb);
		}
		if (!in) {
			if (k == 'e') {
				if (nlen >= sizeof(b->name)) {
					show(tb, sizeof(tb), s, len);
					return trc_fail_at(d->r, f->path, line,
					    "invalid entering line '%s'", tb);
				}
				/* Of nlen bytes: a copy of 16 fixed ones, with
				 * fewer instructions, took 6% more CPU time
				 * (2026-11-28, runs in turns), likely as
				 * lookup()'s loads then span two stores. */
				memcpy(b->name, s, nlen);
				b->name[nlen] = '\0';
				b->nlen = nlen;
				b->t0 = t;
				b->line0 = line;
				b->nargs = 0;
				memset(b->slot, 0, sizeof(b->slot));
				in = 1;
				continue;
			}
			if (k == 'r') {
				show(tb, sizeof(tb), s, len);
				return trc_fail_at(d->r, f->path, line,
				    "returning line outside a call '%s'", tb);
			}
			if (len > 0)
				trc_drop(d->r, "lines outside a call");
			f->start = pos;		/* read for good */
			f->line = line;
			continue;
		}
		if (k == 'r') {
			if (nlen != b->nlen || !swar_same(s, b->name, nlen)) {
				show(tb, sizeof(tb), s, nlen);
				return trc_fail_at(d->r, f->path, line,
				    "'%s' returning inside '%s' of line %ld",
				    tb, b->name, b->line0);
			}
			if (t < b->t0)
				return trc_fail_at(d->r, f->path, line,
				    "'%s' returns before it enters", b->name);
			b->t1 = t;
			b->line1 = line;
			for (i = 0; i < b->nargs; i++)
				*b->vend[i] = '\0';
			f->start = pos;
			f->line = line;
			return 1;
		}
		if (k == 'e')
			return trc_fail_at(d->r, f->path, b->line0,
			    "'%s' has no returning line", b->name);
		/* "TYPE NAME=VALUE": NAME without its [dimensions]. */
		if (b->nargs == MAXARG || sp == NULL)
			continue;
		eq = (char *)find3(sp + 1, e, '=', '[');
		if (eq > s + len)
			eq = s + len;
		a = &b->a[b->nargs];
		a->name = sp + 1;
		a->nlen = (uint32_t)(eq - a->name);
		for (; eq < s + len && *eq != '='; eq++)
			;
		if (eq == s + len)
			continue;
		a->val = eq + 1;
		a->vlen = (uint32_t)(s + len - a->val);
		a->line = line;
		if ((k = slot_of(a->name, a->nlen)) >= 0 && b->slot[k] == NULL)
			b->slot[k] = a;
		b->vend[b->nargs++] = s + len;
	}
}

/* Arguments -------------------------------------------------------------- */

static struct arg *
arg_scan(struct block *b, const char *name, size_t n)
{
	int i;

	for (i = 0; i < b->nargs; i++)
		if (b->a[i].nlen == n && b->a[i].name[0] == name[0] &&
		    memcmp(b->a[i].name, name, n) == 0)
			return &b->a[i];
	return NULL;
}

static inline struct arg *
arg_n(struct block *b, const char *name, size_t n)
{
	int sl = slot_of(name, n);

	return sl >= 0 ? b->slot[sl] : arg_scan(b, name, n);
}

#define arg(b, name)	arg_n((b), (name), strlen(name))

/* The argument found where the name is a literal, then parsed. */
#define int_arg(d, rk, name, ...) \
	int_arg_a((d), (rk), arg(&(d)->b, (name)), (name), __VA_ARGS__)
#define count_arg(d, rk, name, ...) \
	count_arg_a((d), (rk), arg(&(d)->b, (name)), (name), __VA_ARGS__)
#define type_arg(d, rk, name, ...) \
	type_arg_a((d), (rk), arg(&(d)->b, (name)), (name), __VA_ARGS__)
#define comm_arg(d, rk, name, ...) \
	comm_arg_a((d), (rk), arg(&(d)->b, (name)), (name), __VA_ARGS__)
#define peer_arg(d, rk, name, ...) \
	peer_arg_a((d), (rk), arg(&(d)->b, (name)), (name), __VA_ARGS__)
#define tag_arg(d, rk, name, ...) \
	tag_arg_a((d), (rk), arg(&(d)->b, (name)), (name), __VA_ARGS__)
#define req_arg(d, rk, name, ...) \
	req_arg_a((d), (rk), arg(&(d)->b, (name)), (name), __VA_ARGS__)
#define newcomm_arg(d, rk, name, ...) \
	newcomm_arg_a((d), (rk), arg(&(d)->b, (name)), (name), __VA_ARGS__)
#define group_arg(d, rk, name, ...) \
	group_arg_a((d), (rk), arg(&(d)->b, (name)), (name), __VA_ARGS__)

static const char *
val(const struct block *b, const struct arg *a)
{
	(void)b;
	return a->val;
}

/* A leading integer, then the end or " (annotation)". */
static int
lead_int(const char *s, int64_t *v, const char **rest)
{
	int neg = 0, nd = 0;
	int64_t n = 0;

	if (*s == '-') {
		neg = 1;
		s++;
	}
	for (; *s >= '0' && *s <= '9'; s++, nd++) {
		if (n > (INT64_MAX - 9) / 10)
			return -1;
		n = n * 10 + (*s - '0');
	}
	if (nd == 0 || (*s != '\0' && *s != ' '))
		return -1;
	*v = neg ? -n : n;
	if (rest != NULL)
		*rest = s;
	return 0;
}

/* A decimal int32 at s: 0 with *end past it, or -1. */
static int
scan_int(const char *s, int64_t *v, const char **end)
{
	int neg = 0, nd = 0;
	int64_t n = 0;

	if (*s == '-') {
		neg = 1;
		s++;
	}
	for (; *s >= '0' && *s <= '9'; s++, nd++)
		if ((n = n * 10 + (*s - '0')) > (int64_t)INT32_MAX + 1)
			return -1;
	if (nd == 0 || (!neg && n > INT32_MAX))
		return -1;
	*v = neg ? -n : n;
	*end = s;
	return 0;
}

/* The text in parentheses after the value, or "". */
static const char *
annotation(const struct arg *a, const char *rest, size_t *len)
{
	const char *o, *c = a->val + a->vlen;

	if (rest == c) {
		*len = 0;
		return "";
	}
	/* " (NAME)" at the end, as dumpi2ascii writes it */
	if (rest[0] == ' ' && rest[1] == '(' && c[-1] == ')' &&
	    c - 1 > rest + 1) {
		*len = (size_t)(c - rest - 3);
		return rest + 2;
	}
	if ((o = strchr(rest, '(')) == NULL || (c = strrchr(o, ')')) == NULL) {
		*len = 0;
		return "";
	}
	*len = (size_t)(c - o - 1);
	return o + 1;
}

static const char *rank_path(struct rd *, struct rank *);

static int
missing(struct rd *d, struct rank *rk, const char *name)
{
	return trc_fail_at(d->r, rank_path(d, rk), d->b.line0,
	    "'%s' has no '%s'", d->b.name, name);
}

static int
bad_value(struct rd *d, struct rank *rk, const struct arg *a,
    const char *what)
{
	char tb[64];

	show(tb, sizeof(tb), val(&d->b, a), a->vlen);
	return trc_fail_at(d->r, rank_path(d, rk), a->line, "invalid %s '%s'",
	    what, tb);
}

/* An int argument: 1, 0 when absent (opt), -1 on error. */
static int
int_arg_a(struct rd *d, struct rank *rk, struct arg *a,
    const char *name, int opt,
    int64_t *v)
{

	if (a == NULL)
		return opt ? 0 : missing(d, rk, name);
	if (lead_int(val(&d->b, a), v, NULL) < 0)
		return bad_value(d, rk, a, name);
	return 1;
}

/* A count or size: not negative, an int as MPI's. */
static int
count_arg_a(struct rd *d, struct rank *rk, struct arg *a,
    const char *name, int64_t *v)
{

	if (a == NULL)
		return missing(d, rk, name);
	if (lead_int(val(&d->b, a), v, NULL) < 0 || *v < 0 || *v > INT32_MAX)
		return bad_value(d, rk, a, name);
	return 0;
}

/* "[1, 2, 3]" into iv (which), "<IGNORED>" as -1 elements. */
static int
int_list(struct rd *d, struct rank *rk, const struct arg *a, const char *what,
    int64_t **out, size_t *n, int which)
{
	const char *s = val(&d->b, a);
	int64_t **vp = which ? &d->iv2 : &d->iv, v;
	size_t *cap = which ? &d->capiv2 : &d->capiv, k = 0;
	const char *e;

	if (s[0] == '<' && strncmp(s, "<IGNORED>", 9) == 0) {
		*out = *vp;
		*n = (size_t)-1;
		return 0;
	}
	if (*s++ != '[')
		return bad_value(d, rk, a, what);
	while (*s == ' ')
		s++;
	if (*s != ']')
		for (;;) {
			if (scan_int(s, &v, &e) < 0)
				return bad_value(d, rk, a, what);
			if (k + 1 > *cap && grow(vp, cap, k + 1,
			    sizeof(**vp)) < 0)
				return nomem(d);
			(*vp)[k++] = v;
			s = e;
			while (*s == ' ')
				s++;
			if (*s == ']')
				break;
			if (*s++ != ',')
				return bad_value(d, rk, a, what);
			while (*s == ' ')
				s++;
		}
	*out = *vp;
	*n = k;
	return 0;
}

/* "[{bytes=712, cancelled=0, source=1, tag=200, error=0}, ...]". */
static int
statuses(struct rd *d, struct rank *rk, const char *name, size_t *n)
{
	struct arg *a;
	const char *s, *k;
	struct status *st;
	size_t i = 0, kl;
	int64_t v;
	const char *e;

	*n = 0;
	if ((a = arg(&d->b, name)) == NULL)
		return 0;
	s = val(&d->b, a);
	if (strncmp(s, "<IGNORED>", 9) == 0)
		return 0;
	if (*s++ != '[')
		return bad_value(d, rk, a, "status");
	for (;;) {
		while (*s == ' ' || *s == ',')
			s++;
		if (*s == ']')
			break;
		if (*s++ != '{')
			return bad_value(d, rk, a, "status");
		if (i + 1 > d->capst && grow(&d->st, &d->capst, i + 1,
		    sizeof(*d->st)) < 0)
			return nomem(d);
		st = &d->st[i];
		st->bytes = st->source = st->tag = -1;
		st->cancelled = 0;
		for (;;) {
			while (*s == ' ' || *s == ',')
				s++;
			if (*s == '}') {
				s++;
				break;
			}
			for (k = s; *s != '=' && *s != '\0'; s++)
				;
			if (*s == '\0')
				return bad_value(d, rk, a, "status");
			kl = (size_t)(s++ - k);
			if (scan_int(s, &v, &e) < 0)
				return bad_value(d, rk, a, "status");
			s = e;
			if (kl == 5 && memcmp(k, "bytes", 5) == 0)
				st->bytes = v;
			else if (kl == 6 && memcmp(k, "source", 6) == 0)
				st->source = (int32_t)v;
			else if (kl == 3 && memcmp(k, "tag", 3) == 0)
				st->tag = (int32_t)v;
			else if (kl == 9 && memcmp(k, "cancelled", 9) == 0)
				st->cancelled = v != 0;
		}
		i++;
	}
	*n = i;
	return 0;
}

/*
 * The last value text of an argument whose meaning does not depend on
 * the file's state (a predefined datatype, MPI_COMM_WORLD): the same
 * text again, as most calls of a run repeat it, means the same.
 */
static inline int
memo_hit(const struct memo *m, const struct arg *a)
{
	return a->vlen == m->n && m->n > 0 && swar_same(a->val, m->s, m->n);
}

static void
memo_set(struct memo *m, const struct arg *a, int64_t v, int64_t h)
{
	if (a->vlen >= sizeof(m->s))
		return;
	memcpy(m->s, a->val, a->vlen);
	m->n = a->vlen;
	m->v = v;
	m->h = h;
}

/* Datatypes -------------------------------------------------------------- */

static const struct {
	const char	*name;
	int		 size;
} builtin[] = {
	/* dumpi's own names; long is taken as 8 bytes (LP64). */
	{ "MPI_2INT", 8 },
	{ "MPI_2INTEGER", 8 },
	{ "MPI_2REAL", 8 },
	{ "MPI_2DOUBLE_PRECISION", 16 },
	{ "MPI_AINT", 8 },
	{ "MPI_BYTE", 1 },
	{ "MPI_CHAR", 1 },
	{ "MPI_CHARACTER", 1 },
	{ "MPI_COMPLEX", 8 },
	{ "MPI_C_BOOL", 1 },
	{ "MPI_C_DOUBLE_COMPLEX", 16 },
	{ "MPI_C_FLOAT_COMPLEX", 8 },
	{ "MPI_DOUBLE", 8 },
	{ "MPI_DOUBLE_COMPLEX", 16 },
	{ "MPI_DOUBLE_INT", 12 },
	{ "MPI_DOUBLE_PRECISION", 8 },
	{ "MPI_FLOAT", 4 },
	{ "MPI_FLOAT_INT", 8 },
	{ "MPI_INT", 4 },
	{ "MPI_INT16_T", 2 },
	{ "MPI_INT32_T", 4 },
	{ "MPI_INT64_T", 8 },
	{ "MPI_INT8_T", 1 },
	{ "MPI_INTEGER", 4 },
	{ "MPI_INTEGER4", 4 },
	{ "MPI_INTEGER8", 8 },
	{ "MPI_LB", 0 },
	{ "MPI_LOGICAL", 4 },
	{ "MPI_LONG", 8 },
	{ "MPI_LONG_DOUBLE", 16 },
	{ "MPI_LONG_DOUBLE_INT", 20 },
	{ "MPI_LONG_INT", 12 },
	{ "MPI_LONG_LONG", 8 },
	{ "MPI_LONG_LONG_INT", 8 },
	{ "MPI_OFFSET", 8 },
	{ "MPI_PACKED", 1 },
	{ "MPI_REAL", 4 },
	{ "MPI_REAL4", 4 },
	{ "MPI_REAL8", 8 },
	{ "MPI_SHORT", 2 },
	{ "MPI_SHORT_INT", 6 },
	{ "MPI_SIGNED_CHAR", 1 },
	{ "MPI_UB", 0 },
	{ "MPI_UINT16_T", 2 },
	{ "MPI_UINT32_T", 4 },
	{ "MPI_UINT64_T", 8 },
	{ "MPI_UINT8_T", 1 },
	{ "MPI_UNSIGNED", 4 },
	{ "MPI_UNSIGNED_CHAR", 1 },
	{ "MPI_UNSIGNED_LONG", 8 },
	{ "MPI_UNSIGNED_LONG_LONG", 8 },
	{ "MPI_UNSIGNED_SHORT", 2 },
	{ "MPI_WCHAR", 4 },
};

static int
builtin_size(const char *s, size_t len)
{
	size_t lo = 0, hi = sizeof(builtin) / sizeof(builtin[0]), mid, n;
	int c;

	/* memcmp, not strncmp: the annotation may hold a NUL byte. */
	while (lo < hi) {
		mid = (lo + hi) / 2;
		n = strlen(builtin[mid].name);
		c = memcmp(builtin[mid].name, s, n < len ? n : len);
		if (c == 0)
			c = n < len ? -1 : n > len;
		if (c == 0)
			return builtin[mid].size;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Sizes of dumpi's datatype numbers 0 to 27, -1 for DATATYPE_ERROR. */
static const int8_t numbered_size[] = {
	-1, 0, 1, 1, 1, 1, 4, 2, 2, 4, 4, 8, 8, 4, 8, 16, 8, 8, 8, 1, 0, 0,
	8, 12, 12, 6, 8, 20
};

/* dumpi's names of its numbers, which the annotation repeats. */
static const char *const numbered_name[] = {
	"MPI_DATATYPE_ERROR", "MPI_DATATYPE_NULL", "MPI_CHAR",
	"MPI_SIGNED_CHAR", "MPI_UNSIGNED_CHAR", "MPI_BYTE", "MPI_WCHAR",
	"MPI_SHORT", "MPI_UNSIGNED_SHORT", "MPI_INT", "MPI_UNSIGNED",
	"MPI_LONG", "MPI_UNSIGNED_LONG", "MPI_FLOAT", "MPI_DOUBLE",
	"MPI_LONG_DOUBLE", "MPI_LONG_LONG_INT", "MPI_UNSIGNED_LONG_LONG",
	"MPI_LONG_LONG", "MPI_PACKED", "MPI_LB", "MPI_UB", "MPI_FLOAT_INT",
	"MPI_DOUBLE_INT", "MPI_LONG_INT", "MPI_SHORT_INT", "MPI_2INT",
	"MPI_LONG_DOUBLE_INT"
};

static int64_t
handle_size(struct rank *rk, int64_t h)
{
	int64_t *p;

	if (h >= 0 && h < (int64_t)sizeof(numbered_size))
		return numbered_size[h];
	return (p = imap_get(&rk->types, (int32_t)h)) != NULL ? *p : -1;
}

/*
 * The size of a datatype argument: 0 with *size (-1 for a user-defined
 * datatype of unknown size), or -1 on error.  *handle is the handle.
 */
static int
type_arg_a(struct rd *d, struct rank *rk, struct arg *a,
    const char *name, int64_t *size,
    int64_t *handle)
{
	const char *rest, *an;
	size_t alen;
	int64_t h, *p;
	int sz;

	if (a == NULL)
		return missing(d, rk, name);
	if (memo_hit(&d->tmemo, a)) {
		if (handle != NULL)
			*handle = d->tmemo.h;
		*size = d->tmemo.v;
		return 0;
	}
	if (lead_int(val(&d->b, a), &h, &rest) < 0)
		return bad_value(d, rk, a, name);
	if (handle != NULL)
		*handle = h;
	an = annotation(a, rest, &alen);
	if (h >= 2 && h < (int64_t)sizeof(numbered_size) &&
	    strlen(numbered_name[h]) == alen &&
	    memcmp(numbered_name[h], an, alen) == 0)
		*size = numbered_size[h];	/* the usual case, quickly */
	else if ((sz = builtin_size(an, alen)) >= 0)
		*size = sz;
	else if (alen == 21 && memcmp(an, "user-defined-datatype", 21) == 0) {
		*size = (p = imap_get(&rk->types, (int32_t)h)) ? *p : -1;
		return 0;	/* not kept: the handle's type may change */
	} else if (alen == 17 && memcmp(an, "MPI_DATATYPE_NULL", 17) == 0)
		*size = 0;
	else if (alen == 18 && memcmp(an, "MPI_DATATYPE_ERROR", 18) == 0)
		*size = -1;
	else
		return trc_fail_at(d->r, rank_path(d, rk), a->line,
		    "unknown datatype '%.*s'", (int)(alen ? alen : a->vlen),
		    alen ? an : val(&d->b, a));
	memo_set(&d->tmemo, a, *size, h);
	return 0;
}

/* count x the size of type, or TRC_NONE (counted) when not known. */
static inline __attribute__((always_inline)) int
bytes_of(struct rd *d, struct rank *rk, const char *count, const char *type,
    int64_t *bytes)
{
	int64_t n, sz;

	if (count_arg(d, rk, count, &n) < 0 ||
	    type_arg(d, rk, type, &sz, NULL) < 0)
		return -1;
	if (sz < 0) {
		trc_drop(d->r, "bytes= of datatypes of unknown size");
		*bytes = TRC_NONE;
	} else
		*bytes = n * sz;
	return 0;
}

/* Communicators and groups ----------------------------------------------- */

static int32_t
inst_new(struct rd *d, struct rank *rk, enum ikind k)
{
	struct inst *in;

	if (grow(&d->in, &d->capin, (size_t)d->nin + 1,
	    sizeof(*d->in)) < 0)
		return -1;
	in = &d->in[d->nin];
	memset(in, 0, sizeof(*in));
	in->k = k;
	in->size = -1;
	in->parent = -1;
	in->take = -1;
	in->rank = rk != NULL ? (int32_t)(rk - d->rk) : 0;	/* its file */
	in->line = d->b.line0;
	return d->nin++;
}

static uint32_t
ckhash(int32_t p, int32_t s, int32_t c, uint32_t cap)
{
	uint32_t h = (uint32_t)p * 2654435761u;

	h ^= (uint32_t)s * 40503u + (h >> 15);
	h ^= (uint32_t)c * 2246822519u + (h >> 13);
	return (h * 2654435761u) & (cap - 1);
}

static struct ckey *
ck_find(struct rd *d, int32_t p, int32_t s, int32_t c)
{
	struct ckey *k;
	uint32_t i;

	if (d->capck == 0)
		return NULL;
	for (i = ckhash(p, s, c, d->capck); (k = &d->ck[i])->inst >= 0;
	    i = (i + 1) & (d->capck - 1))
		if (k->parent == p && k->seq == s && k->color == c)
			return k;
	return k;
}

static int
ck_put(struct rd *d, int32_t p, int32_t s, int32_t c, int32_t inst)
{
	struct ckey *old = d->ck, *k;
	uint32_t i, oldcap = d->capck;

	if (2 * (d->nck + 1) > d->capck) {
		d->capck = oldcap ? 2 * oldcap : 64;
		if ((d->ck = malloc(d->capck * sizeof(*d->ck))) == NULL) {
			d->ck = old;
			d->capck = oldcap;
			return -1;
		}
		for (i = 0; i < d->capck; i++)
			d->ck[i].inst = -1;
		for (i = 0; i < oldcap; i++)
			if (old[i].inst >= 0)
				*ck_find(d, old[i].parent, old[i].seq,
				    old[i].color) = old[i];
		free(old);
	}
	k = ck_find(d, p, s, c);
	k->parent = p;
	k->seq = s;
	k->color = c;
	k->inst = inst;
	k->sp = NULL;
	d->nck++;
	return 0;
}

static int resolve(struct rd *, int32_t);
static int inst_size(struct rd *, int32_t);

/* The world rank of rank local of instance i, or -1 when not known. */
static int32_t
member(struct rd *d, int32_t i, int32_t local)
{
	struct inst *in;

	if (resolve(d, i) < 0)
		return -1;
	in = &d->in[i];
	if (in->k == I_WORLD && in->size < 0)
		return local >= 0 ? local : -1;	/* a world not told */
	if (local < 0 || local >= in->size)
		return -1;
	switch (in->k) {
	case I_WORLD:
		return local;
	case I_SELF:
		return in->self;
	default:
		return in->m[local];
	}
}

static int
cmp_sreg(const void *a, const void *b)
{
	const struct sreg *x = a, *y = b;

	if (x->color != y->color)
		return x->color < y->color ? -1 : 1;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	/* world holds the rank in the parent here */
	return x->world < y->world ? -1 : x->world > y->world;
}

/* A split whose members all called it: every colour's members. */
static int
split_done(struct rd *d, struct split *sp)
{
	int32_t i, j, c, w, pos, size = inst_size(d, sp->parent);
	struct ckey *k;

	/* Sort by colour, key, rank in the parent, as MPI orders them. */
	for (i = 0; i < sp->n; i++) {
		w = sp->r[i].world;
		for (pos = 0; pos < size && member(d, sp->parent, pos) != w;
		    pos++)
			;
		if (pos == size)
			return -1;	/* not a member of the parent */
		sp->r[i].world = pos;
	}
	qsort(sp->r, (size_t)sp->n, sizeof(*sp->r), cmp_sreg);
	for (i = 0; i < sp->n; i = j) {
		c = sp->r[i].color;
		for (j = i; j < sp->n && sp->r[j].color == c; j++)
			;
		if ((k = ck_find(d, sp->parent, sp->seq, c)) == NULL ||
		    k->inst < 0)
			continue;	/* MPI_UNDEFINED: no communicator */
		if (d->in[k->inst].k != I_SPLIT)
			continue;
		if ((d->in[k->inst].m = malloc((size_t)(j - i) *
		    sizeof(int32_t))) == NULL)
			return -1;
		for (w = i; w < j; w++)
			d->in[k->inst].m[w - i] = member(d, sp->parent,
			    sp->r[w].world);
		d->in[k->inst].size = j - i;
		d->in[k->inst].k = I_LIST;
		d->in[k->inst].sp = NULL;
	}
	free(sp->r);
	sp->r = NULL;
	sp->n = sp->cap = 0;
	sp->done = 1;
	return 0;
}

/* Makes instance i's members known: 0, or -1 when they cannot be yet. */
static int
resolve(struct rd *d, int32_t i)
{
	struct inst *in = &d->in[i], *p;
	struct split *sp;
	int32_t j, k, n, *m, q, r, coord, color, stride;

	switch (in->k) {
	case I_WORLD:
	case I_SELF:
	case I_LIST:
		return 0;
	case I_UNKNOWN:
		return -1;
	case I_ALIAS:
		if (resolve(d, in->parent) < 0)
			return -1;
		p = &d->in[in->parent];
		n = in->take >= 0 && in->take < p->size ? in->take : p->size;
		if ((m = malloc((size_t)(n ? n : 1) * sizeof(*m))) == NULL)
			return -1;
		for (j = 0; j < n; j++)
			m[j] = member(d, in->parent, j);
		in = &d->in[i];
		in->m = m;
		in->size = n;
		in->k = I_LIST;
		return 0;
	case I_SPLIT:
		sp = in->sp;
		if (resolve(d, sp->parent) < 0 ||
		    sp->n < inst_size(d, sp->parent))
			return -1;
		if (split_done(d, sp) < 0)
			return -1;
		return d->in[i].k == I_LIST ? 0 : -1;
	case I_CSUB:
		/* Members of the parent grid whose dropped coordinates
		 * give this colour, in the parent's (row-major) order. */
		if (resolve(d, in->parent) < 0)
			return -1;
		p = &d->in[in->parent];
		if ((m = malloc((size_t)(p->size ? p->size : 1) *
		    sizeof(*m))) == NULL)
			return -1;
		for (n = 0, j = 0; j < p->size; j++) {
			color = 0;
			for (q = j, k = p->ndims - 1, stride = 1; k >= 0; k--) {
				coord = q % p->dims[k];
				q /= p->dims[k];
				if (!in->remain[k]) {
					color += coord * stride;
					stride *= p->dims[k];
				}
			}
			if (color == in->color)
				m[n++] = member(d, in->parent, j);
		}
		r = n;
		in = &d->in[i];
		in->m = m;
		in->size = r;
		in->k = I_LIST;
		return 0;
	}
	return -1;
}

static int
inst_size(struct rd *d, int32_t i)
{
	if (resolve(d, i) < 0)
		return -1;
	return d->in[i].size;
}

/* Why instance i's members are not known, for messages. */
static const char *
unknown_why(struct rd *d, int32_t i, char *buf, size_t len)
{
	struct inst *in = &d->in[i];

	while (in->k == I_ALIAS || in->k == I_CSUB)
		in = &d->in[in->parent];
	if (in->k == I_SPLIT)
		snprintf(buf, len, "not every member had called MPI_Comm_split "
		    "(%s:%ld) yet", d->rk[in->rank].path, in->line);
	else
		snprintf(buf, len, "it was made by %s (%s:%ld)",
		    in->why ? in->why : "a call not read",
		    d->rk[in->rank].path, in->line);
	return buf;
}

static int32_t
self_inst(struct rd *d, struct rank *rk)
{
	if (rk->self < 0 && (rk->self = inst_new(d, rk, I_SELF)) >= 0) {
		d->in[rk->self].self = rk->rank;
		d->in[rk->self].size = 1;
	}
	return rk->self;
}

/* The instance of a communicator argument: 0, or -1 on error. */
static int
comm_arg_a(struct rd *d, struct rank *rk, struct arg *a,
    const char *name, int32_t *inst,
    int null_ok)
{
	const char *rest, *an;
	size_t alen;
	int64_t h, *p;

	if (a == NULL)
		return missing(d, rk, name);
	if (memo_hit(&d->cmemo, a)) {
		*inst = 0;
		return 0;
	}
	if (lead_int(val(&d->b, a), &h, &rest) < 0)
		return bad_value(d, rk, a, "communicator");
	an = annotation(a, rest, &alen);
	if (alen == 14 && memcmp(an, "MPI_COMM_WORLD", 14) == 0) {
		*inst = 0;
		memo_set(&d->cmemo, a, 0, h);
	} else if (alen == 13 && memcmp(an, "MPI_COMM_SELF", 13) == 0) {
		if ((*inst = self_inst(d, rk)) < 0)
			return nomem(d);
	} else if (alen == 13 && memcmp(an, "MPI_COMM_NULL", 13) == 0) {
		if (!null_ok)
			return trc_fail_at(d->r, rk->path, a->line,
			    "'%s' on MPI_COMM_NULL", d->b.name);
		*inst = -1;
	} else if ((p = imap_get(&rk->comms, (int32_t)h)) != NULL)
		*inst = (int32_t)*p;
	else
		return trc_fail_at(d->r, rk->path, a->line, "communicator %lld "
		    "not made by a call of this file", (long long)h);
	return 0;
}

/* The handle of a communicator argument made by the call, -1 for NULL. */
static int
newcomm_arg_a(struct rd *d, struct rank *rk, struct arg *a,
    const char *name, int64_t *h)
{
	const char *rest, *an;
	size_t alen;

	if (a == NULL)
		return missing(d, rk, name);
	if (lead_int(val(&d->b, a), h, &rest) < 0)
		return bad_value(d, rk, a, "communicator");
	an = annotation(a, rest, &alen);
	if (alen == 13 && memcmp(an, "MPI_COMM_NULL", 13) == 0)
		*h = -1;
	return 0;
}

static struct grp *
grp_new(int32_t n)
{
	struct grp *g;

	if ((g = malloc(sizeof(*g))) == NULL)
		return NULL;
	g->n = n;
	g->m = NULL;
	if (n > 0 && (g->m = malloc((size_t)n * sizeof(*g->m))) == NULL) {
		free(g);
		return NULL;
	}
	return g;
}

static void
grp_free(struct grp *g)
{
	if (g != NULL)
		free(g->m);
	free(g);
}

static int
grp_put(struct rd *d, struct rank *rk, int64_t h, struct grp *g)
{
	int64_t *p;

	if (g == NULL)
		return nomem(d);
	if ((p = imap_get(&rk->groups, (int32_t)h)) != NULL) {
		grp_free((struct grp *)(intptr_t)*p);
		*p = (int64_t)(intptr_t)g;
		return 0;
	}
	if (imap_put(&rk->groups, (int32_t)h, (int64_t)(intptr_t)g) < 0) {
		grp_free(g);
		return nomem(d);
	}
	return 0;
}

/* A group argument: *g NULL when its members are not known. */
static int
group_arg_a(struct rd *d, struct rank *rk, struct arg *a,
    const char *name, struct grp **g,
    int64_t *handle)
{
	static struct grp empty = { 0, NULL };
	const char *rest, *an;
	size_t alen;
	int64_t h, *p;

	if (a == NULL)
		return missing(d, rk, name);
	if (lead_int(val(&d->b, a), &h, &rest) < 0)
		return bad_value(d, rk, a, "group");
	if (handle != NULL)
		*handle = h;
	an = annotation(a, rest, &alen);
	*g = NULL;
	if (alen == 15 && memcmp(an, "MPI_GROUP_EMPTY", 15) == 0)
		*g = &empty;
	else if ((p = imap_get(&rk->groups, (int32_t)h)) != NULL &&
	    ((struct grp *)(intptr_t)*p)->n >= 0)
		*g = (struct grp *)(intptr_t)*p;
	return 0;
}

static int
in_grp(const struct grp *g, int32_t w)
{
	int32_t i;

	for (i = 0; i < g->n; i++)
		if (g->m[i] == w)
			return 1;
	return 0;
}

/* Requests --------------------------------------------------------------- */

/*
 * The request of a handle: 1 + its index in rq, 0 for none.  A handle
 * has a slot of RDIR by its low bits, unless another live one has it:
 * then it goes to the map.  dumpi numbers the requests in turn, so the
 * few live at once have slots of their own, and a handle is found with
 * one load and compare.  A vector of the handles below 4096, the map
 * for the rest, took 3% more CPU time (2026-11-28, 25,000 requests a
 * rank in 64 files, most in the map: 0.810 s against 0.788, medians
 * of 15 runs in turns).
 */
#define RDIR	1024

static inline int32_t
req_find(const struct rank *rk, int64_t handle)
{
	int32_t k = (int32_t)handle;
	const struct rslot *s;
	int64_t *p;

	if (rk->rdir == NULL)
		return 0;
	s = &rk->rdir[(uint32_t)k & (RDIR - 1)];
	if (s->i != 0 && s->h == k)
		return s->i;
	if (rk->reqs.n == 0)
		return 0;
	return (p = imap_get(&rk->reqs, k)) != NULL ? (int32_t)*p + 1 : 0;
}

/* A handle req_find does not find, bound to rq[i]. */
static int
req_bind(struct rank *rk, int64_t handle, int32_t i)
{
	int32_t k = (int32_t)handle;
	struct rslot *s;

	if (rk->rdir == NULL &&
	    (rk->rdir = calloc(RDIR, sizeof(*rk->rdir))) == NULL)
		return -1;
	s = &rk->rdir[(uint32_t)k & (RDIR - 1)];
	if (s->i != 0)
		return imap_put(&rk->reqs, k, i);
	s->h = k;
	s->i = i + 1;
	return 0;
}

static int
req_new(struct rd *d, struct rank *rk, int64_t handle, struct reqinfo **ri)
{
	int32_t i, had;

	if ((had = req_find(rk, handle)) != 0)
		i = had - 1;	/* a handle reused: the old one is gone */
	else if (rk->freerq >= 0) {
		i = rk->freerq;
		rk->freerq = rk->rq[i].next;
	} else {
		if (grow(&rk->rq, &rk->caprq, (size_t)rk->nrq + 1,
		    sizeof(*rk->rq)) < 0)
			return nomem(d);
		i = rk->nrq++;
	}
	if (!had && req_bind(rk, handle, i) < 0)
		return nomem(d);
	*ri = &rk->rq[i];
	memset(*ri, 0, sizeof(**ri));
	(*ri)->id = ++rk->nextreq;
	return 0;
}

static struct reqinfo *
req_get(struct rank *rk, int64_t handle)
{
	int32_t i = req_find(rk, handle);

	return i != 0 ? &rk->rq[i - 1] : NULL;
}

static void
req_done(struct rank *rk, int64_t handle)
{
	int32_t i = req_find(rk, handle), k = (int32_t)handle;
	struct rslot *s;

	if (i == 0)
		return;
	rk->rq[i - 1].next = rk->freerq;
	rk->freerq = i - 1;
	s = &rk->rdir[(uint32_t)k & (RDIR - 1)];
	if (s->i != 0 && s->h == k)
		s->i = 0;
	else
		imap_del(&rk->reqs, k);
}

/* The one request argument "[8]", or *h = -1 for "<IGNORED>". */
static int
req_arg_a(struct rd *d, struct rank *rk, struct arg *a,
    const char *name, int64_t *h)
{
	int64_t *v;
	size_t n;

	if (a == NULL)
		return missing(d, rk, name);
	/* "[N]" with N of one to four digits, as dumpi numbers requests:
	 * read here, not by the list's loop. */
	if (a->val[0] == '[' && a->vlen >= 3 && a->vlen <= 6 &&
	    a->val[a->vlen - 1] == ']') {
		const char *p = a->val + 1, *e = a->val + a->vlen - 1;
		int64_t x = 0;

		for (; p < e && *p >= '0' && *p <= '9'; p++)
			x = x * 10 + (*p - '0');
		if (p == e) {
			*h = x;
			return 0;
		}
	}
	if (int_list(d, rk, a, "request", &v, &n, 1) < 0)
		return -1;
	*h = n == 1 ? v[0] : -1;
	return 0;
}

/* Events ----------------------------------------------------------------- */

/* Not inlined, and set by memset and stores: inline, from a constant
 * pev, with add_id inline too, took 4% more CPU time (2026-11-28, 15
 * runs in turns, 0.808 s against 0.776). */
static struct pev *
add(struct rd *d, struct rank *rk, int64_t t, enum trc_kind k)
{
	struct pev *p;

	if (grow(&rk->q, &rk->qcap, rk->qn + 1, sizeof(*rk->q)) < 0) {
		nomem(d);
		return NULL;
	}
	p = &rk->q[rk->qn++];
	memset(p, 0, sizeof(*p));
	p->t = t;
	p->kind = (uint8_t)k;
	p->inst = -1;
	p->peer = p->tag = p->root = TRC_NONE;
	p->bytes = p->req = TRC_NONE;
	p->line = d->b.line0;
	p->polls = rk->polls;
	rk->polls = 0;
	return p;
}

static int
add_id(struct rd *d, struct rank *rk, struct pev *p, int64_t id)
{
	if (grow(&rk->ids, &rk->capids, rk->nids + 1, sizeof(*rk->ids)) < 0)
		return nomem(d);
	if (!p->list) {
		p->list = 1;
		p->off = (uint32_t)rk->nids;
		p->n = 0;
	}
	rk->ids[rk->nids++] = id;
	p->n++;
	return 0;
}

static int
add_str(struct rd *d, struct rank *rk, struct pev *p, const char *s,
    size_t n)
{
	if (grow(&rk->str, &rk->capstr, rk->nstr + n, 1) < 0)
		return nomem(d);
	memcpy(rk->str + rk->nstr, s, n);
	p->off = (uint32_t)rk->nstr;
	p->n = (uint32_t)n;
	rk->nstr += n;
	return 0;
}

/* Call handlers ---------------------------------------------------------- */

static int
drop_call(struct rd *d)
{
	char what[128];

	snprintf(what, sizeof(what), "%s calls", d->b.name);
	trc_drop(d->r, what);
	return 0;
}

/*
 * The head peer and tag arguments share: an int32 and the annotation
 * after it, which tells a wildcard ("-1 (MPI_ANY_SOURCE)").  0, or -1
 * when the argument is missing or not an int.
 */
static int
annotated_arg(struct rd *d, struct rank *rk, struct arg *a,
    const char *name, int64_t *v, const char **an, size_t *alen)
{
	const char *rest;

	if (a == NULL)
		return missing(d, rk, name);
	if (lead_int(val(&d->b, a), v, &rest) < 0 || *v < INT32_MIN ||
	    *v > INT32_MAX)
		return bad_value(d, rk, a, name);
	if (rest == a->val + a->vlen) {
		*alen = 0;	/* a plain number, as most are */
		*an = "";
	} else
		*an = annotation(a, rest, alen);
	return 0;
}

/* peer: a rank of inst, or MPI_ANY_SOURCE (-1, annotated) */
static int
peer_arg_a(struct rd *d, struct rank *rk, struct arg *a,
    const char *name, int32_t *peer,
    int *null)
{
	const char *an;
	size_t alen;
	int64_t v;

	if (annotated_arg(d, rk, a, name, &v, &an, &alen) < 0)
		return -1;
	*null = 0;
	if (alen == 14 && memcmp(an, "MPI_ANY_SOURCE", 14) == 0)
		*peer = TRC_ANY;
	else if (v < 0)
		*null = 1;	/* MPI_PROC_NULL, whatever its value: dumpi
				 * prints Open MPI's -2 as "(MPI_ROOT)" */
	else
		*peer = (int32_t)v;
	return 0;
}

/* tag: not negative, or MPI_ANY_TAG (annotated) */
static int
tag_arg_a(struct rd *d, struct rank *rk, struct arg *a,
    const char *name, int32_t *tag)
{
	const char *an;
	size_t alen;
	int64_t v;

	if (annotated_arg(d, rk, a, name, &v, &an, &alen) < 0)
		return -1;
	if (alen == 11 && memcmp(an, "MPI_ANY_TAG", 11) == 0)
		*tag = TRC_ANY;
	else if (v < 0)
		return bad_value(d, rk, a, name);
	else
		*tag = (int32_t)v;
	return 0;
}

static void
null_peer(struct rd *d)
{
	char what[128];

	snprintf(what, sizeof(what), "%s on MPI_PROC_NULL", d->b.name);
	trc_drop(d->r, what);
}

/* The events of a send whose arguments are read (h_send, quick). */
static int
send_events(struct rd *d, struct rank *rk, const char *op, int nb,
    int64_t bytes, int32_t peer, int32_t tag, int32_t inst, int64_t h)
{
	struct block *b = &d->b;
	struct reqinfo *ri = NULL;
	struct pev *p;
	int i;

	if (nb) {
		if (req_new(d, rk, h, &ri) < 0)
			return -1;
		ri->inst = inst;
		ri->peer = peer;
		ri->tag = tag;
		ri->bytes = bytes;
		ri->line = b->line0;
	}
	for (i = 0; i < 2; i++) {
		if ((p = add(d, rk, i ? b->t1 : b->t0, i ? TRC_SE : TRC_SB)) ==
		    NULL)
			return -1;
		p->inst = inst;
		p->peer = peer;
		p->tag = tag;
		p->bytes = bytes;
		p->req = ri != NULL ? ri->id : TRC_NONE;
		p->op = op;
	}
	return 0;
}

/* Send, Bsend, Ssend, Rsend; Isend ... when nb. */
static int
h_send(struct rd *d, struct rank *rk, const char *op, int nb)
{
	int64_t bytes, h = -1;
	int32_t inst, peer = 0, tag;
	int null;

	if (bytes_of(d, rk, "count", "datatype", &bytes) < 0 ||
	    peer_arg(d, rk, "dest", &peer, &null) < 0 ||
	    tag_arg(d, rk, "tag", &tag) < 0 ||
	    comm_arg(d, rk, "comm", &inst, 0) < 0 ||
	    (nb && req_arg(d, rk, "request", &h) < 0))
		return -1;
	if (null || peer == TRC_ANY) {
		null_peer(d);
		return 0;
	}
	return send_events(d, rk, op, nb, bytes, peer, tag, inst, h);
}

/* The RE of a completed receive: from its status when there is one. */
static int
add_re(struct rd *d, struct rank *rk, int64_t t, const struct reqinfo *ri,
    const struct status *st)
{
	struct pev *p;

	if (st != NULL && st->cancelled)
		return 0;
	if ((p = add(d, rk, t, TRC_RE)) == NULL)
		return -1;
	p->req = ri->id > 0 ? ri->id : TRC_NONE;
	p->inst = ri->inst;
	if (st != NULL && st->source >= 0) {
		p->peer = st->source;
		p->tag = st->tag >= 0 ? st->tag : ri->tag;
		p->bytes = st->bytes >= 0 ? st->bytes : ri->bytes;
		return 0;
	}
	if (ri->peer == TRC_ANY || ri->tag == TRC_ANY)
		return trc_fail_at(d->r, rk->path, d->b.line0, "'%s' completes "
		    "a receive posted with %s at line %ld without a status: "
		    "the %s is not known", d->b.name, ri->peer == TRC_ANY ?
		    "MPI_ANY_SOURCE" : "MPI_ANY_TAG", ri->line,
		    ri->peer == TRC_ANY ? "source" : "tag");
	p->peer = ri->peer;
	p->tag = ri->tag;
	p->bytes = ri->bytes;
	return 0;
}

/*
 * The RB of a receive whose arguments are read (h_recv, quick), and
 * its request: a new one when nb, else *ri as given.
 */
static int
recv_begin(struct rd *d, struct rank *rk, int nb, struct reqinfo **ri,
    int64_t bytes, int32_t peer, int32_t tag, int32_t inst, int64_t h)
{
	struct pev *p;

	if (nb) {
		if (req_new(d, rk, h, ri) < 0)
			return -1;
	} else
		memset(*ri, 0, sizeof(**ri));
	(*ri)->recv = 1;
	(*ri)->inst = inst;
	(*ri)->peer = peer;
	(*ri)->tag = tag;
	(*ri)->bytes = bytes;
	(*ri)->line = d->b.line0;
	if ((p = add(d, rk, d->b.t0, TRC_RB)) == NULL)
		return -1;
	p->inst = inst;
	p->peer = peer;
	p->tag = tag;
	p->bytes = bytes;
	p->req = nb ? (*ri)->id : TRC_NONE;
	return 0;
}

static int
h_recv(struct rd *d, struct rank *rk, int nb)
{
	struct block *b = &d->b;
	struct reqinfo one, *ri = &one;
	int64_t bytes, h = -1;
	int32_t inst, peer = 0, tag;
	size_t nst;
	int null;

	if (bytes_of(d, rk, "count", "datatype", &bytes) < 0 ||
	    peer_arg(d, rk, "source", &peer, &null) < 0 ||
	    tag_arg(d, rk, "tag", &tag) < 0 ||
	    comm_arg(d, rk, "comm", &inst, 0) < 0 ||
	    (nb && req_arg(d, rk, "request", &h) < 0))
		return -1;
	if (null) {
		null_peer(d);
		return 0;
	}
	if (recv_begin(d, rk, nb, &ri, bytes, peer, tag, inst, h) < 0)
		return -1;
	if (nb)
		return 0;
	if (statuses(d, rk, "status", &nst) < 0)
		return -1;
	return add_re(d, rk, b->t1, ri, nst ? &d->st[0] : NULL);
}

/*
 * Waits and tests: WB with the known requests, an RE for each receive
 * completed (in the order of the list), WE with the completed ones.
 * done[i] says whether request i completed, st the status of each
 * completion (by list index), or NULL.
 */
static int
complete(struct rd *d, struct rank *rk, const char *op, const int64_t *h,
    size_t n, const char *done, struct status *const *st, int all_in_we)
{
	struct block *b = &d->b;
	struct reqinfo *ri, **rv;
	struct pev *wb, *we;
	size_t i, known = 0;
	char what[128];

	if (n > d->caprv && grow(&d->rv, &d->caprv, n, sizeof(*d->rv)) < 0)
		return nomem(d);
	rv = d->rv;
	for (i = 0; i < n; i++)
		known += (rv[i] = req_get(rk, h[i])) != NULL;
	if (known == 0) {
		snprintf(what, sizeof(what), "%s on no traced request",
		    b->name);
		trc_drop(d->r, what);
		for (i = 0; i < n; i++)
			if (done[i])
				req_done(rk, h[i]);
		return 0;
	}
	if ((wb = add(d, rk, b->t0, TRC_WB)) == NULL)
		return -1;
	wb->op = op;
	for (i = 0; i < n; i++)
		if ((ri = rv[i]) != NULL && add_id(d, rk, wb, ri->id) < 0)
			return -1;
	/* REs in list order; wb may move as the queue grows. */
	for (i = 0; i < n; i++)
		if (done[i] && (ri = rv[i]) != NULL && ri->recv &&
		    add_re(d, rk, b->t1, ri, st != NULL ? st[i] : NULL) < 0)
			return -1;
	if ((we = add(d, rk, b->t1, TRC_WE)) == NULL)
		return -1;
	we->op = op;
	for (i = 0; i < n; i++)
		if ((all_in_we || done[i]) && (ri = rv[i]) != NULL &&
		    add_id(d, rk, we, ri->id) < 0)
			return -1;
	for (i = 0; i < n; i++)
		if (done[i])
			req_done(rk, h[i]);
	return 0;
}

/* A scratch vector of flags and one of status pointers. */
static int
scratch(struct rd *d, size_t n, char **done, struct status ***stp)
{
	if (grow(&d->done, &d->capdone, n + 1, 1) < 0 ||
	    grow(&d->sv, &d->capsv, n + 1, sizeof(*d->sv)) < 0)
		return -1;
	memset(d->done, 0, n + 1);
	memset(d->sv, 0, (n + 1) * sizeof(*d->sv));
	*done = d->done;
	*stp = d->sv;
	return 0;
}

enum wkind { W_ONE, W_ALL, W_ANY, W_SOME };

static int
h_wait(struct rd *d, struct rank *rk, enum wkind wk, int test,
    const char *op)
{
	struct block *b = &d->b;
	struct status **sv;
	struct arg *a;
	int64_t *hv, one[1], flag = 1, index, out, *ix;
	size_t n, nix, nst, i;
	char *done;

	if (wk == W_ONE) {
		if (req_arg(d, rk, "request", &one[0]) < 0)
			return -1;
		hv = one;
		n = 1;
	} else {
		if ((a = arg(b, "requests")) == NULL)
			return missing(d, rk, "requests");
		if (int_list(d, rk, a, "requests", &hv, &n, 1) < 0)
			return -1;
		if (n == (size_t)-1)
			n = 0;
	}
	if (test && int_arg(d, rk, "flag", wk == W_SOME, &flag) < 0)
		return -1;
	if (scratch(d, n, &done, &sv) < 0)
		return nomem(d);
	switch (wk) {
	case W_ONE:
	case W_ALL:
		if (statuses(d, rk, wk == W_ONE ? "status" : "statuses",
		    &nst) < 0)
			return -1;
		for (i = 0; i < n; i++) {
			done[i] = flag != 0;
			sv[i] = i < nst ? &d->st[i] : NULL;
		}
		break;
	case W_ANY:
		if (int_arg(d, rk, "index", 0, &index) < 0 ||
		    statuses(d, rk, "status", &nst) < 0)
			return -1;
		if (flag && index >= 0 && (size_t)index < n) {
			done[index] = 1;
			sv[index] = nst ? &d->st[0] : NULL;
		} else
			flag = 0;
		break;
	case W_SOME:
		if (int_arg(d, rk, "outcount", 0, &out) < 0)
			return -1;
		flag = out > 0;
		if (flag) {
			if ((a = arg(b, "indices")) == NULL)
				return missing(d, rk, "indices");
			if (int_list(d, rk, a, "indices", &ix, &nix, 0) < 0 ||
			    statuses(d, rk, "statuses", &nst) < 0)
				return -1;
			if (nix == (size_t)-1 || (int64_t)nix != out)
				return bad_value(d, rk, a, "indices");
			for (i = 0; i < nix; i++) {
				if (ix[i] < 0 || (size_t)ix[i] >= n)
					return bad_value(d, rk, a, "indices");
				done[ix[i]] = 1;
				sv[ix[i]] = i < nst ? &d->st[i] : NULL;
			}
		}
		break;
	}
	if (test && !flag) {
		rk->polls++;	/* an unsuccessful test, as libtrc-mpi counts */
		return 0;
	}
	if (!test && !flag && wk != W_ALL && wk != W_ONE) {
		/* MPI_UNDEFINED: nothing was active */
		return complete(d, rk, op, hv, n, done, sv, 0);
	}
	return complete(d, rk, op, hv, n, done, sv,
	    wk == W_ONE || wk == W_ALL);
}

static int
h_sendrecv(struct rd *d, struct rank *rk, int replace)
{
	struct block *b = &d->b;
	struct reqinfo rs, rr;
	struct pev *p;
	int64_t sbytes, rbytes;
	int32_t inst, dest = 0, src = 0, stag, rtag;
	int snull, rnull;
	size_t nst;

	if (replace) {
		if (bytes_of(d, rk, "count", "datatype", &sbytes) < 0)
			return -1;
		rbytes = sbytes;
	} else if (bytes_of(d, rk, "sendcount", "sendtype", &sbytes) < 0 ||
	    bytes_of(d, rk, "recvcount", "recvtype", &rbytes) < 0)
		return -1;
	if (peer_arg(d, rk, "dest", &dest, &snull) < 0 ||
	    tag_arg(d, rk, "sendtag", &stag) < 0 ||
	    peer_arg(d, rk, "source", &src, &rnull) < 0 ||
	    tag_arg(d, rk, "recvtag", &rtag) < 0 ||
	    comm_arg(d, rk, "comm", &inst, 0) < 0 ||
	    statuses(d, rk, "status", &nst) < 0)
		return -1;
	snull |= dest == TRC_ANY;
	if (snull && rnull) {
		null_peer(d);
		return 0;
	}
	memset(&rs, 0, sizeof(rs));
	memset(&rr, 0, sizeof(rr));
	if (!snull) {
		rs.id = ++rk->nextreq;
		if ((p = add(d, rk, b->t0, TRC_SB)) == NULL)
			return -1;
		p->inst = inst, p->peer = dest, p->tag = stag;
		p->bytes = sbytes, p->req = rs.id;
		if ((p = add(d, rk, b->t0, TRC_SE)) == NULL)
			return -1;
		p->inst = inst, p->peer = dest, p->tag = stag;
		p->bytes = sbytes, p->req = rs.id;
	}
	if (!rnull) {
		rr.id = ++rk->nextreq;
		rr.recv = 1, rr.inst = inst, rr.peer = src, rr.tag = rtag;
		rr.bytes = rbytes, rr.line = b->line0;
		if ((p = add(d, rk, b->t0, TRC_RB)) == NULL)
			return -1;
		p->inst = inst, p->peer = src, p->tag = rtag;
		p->bytes = rbytes, p->req = rr.id;
	}
	if ((p = add(d, rk, b->t0, TRC_WB)) == NULL)
		return -1;
	p->op = "sendrecv";
	if ((!snull && add_id(d, rk, p, rs.id) < 0) ||
	    (!rnull && add_id(d, rk, p, rr.id) < 0))
		return -1;
	if (!rnull && add_re(d, rk, b->t1, &rr, nst ? &d->st[0] : NULL) < 0)
		return -1;
	if ((p = add(d, rk, b->t1, TRC_WE)) == NULL)
		return -1;
	p->op = "sendrecv";
	if ((!snull && add_id(d, rk, p, rs.id) < 0) ||
	    (!rnull && add_id(d, rk, p, rr.id) < 0))
		return -1;
	return 0;
}

static int
h_probe(struct rd *d, struct rank *rk, int test)
{
	struct block *b = &d->b;
	struct pev *p;
	int64_t flag = 1;
	int32_t inst, src = 0, tag;
	size_t nst;
	int null;

	if (peer_arg(d, rk, "source", &src, &null) < 0 ||
	    tag_arg(d, rk, "tag", &tag) < 0 ||
	    comm_arg(d, rk, "comm", &inst, 0) < 0 ||
	    (test && int_arg(d, rk, "flag", 0, &flag) < 0) ||
	    statuses(d, rk, "status", &nst) < 0)
		return -1;
	if (null) {
		null_peer(d);
		return 0;
	}
	if (!flag) {
		rk->polls++;
		return 0;
	}
	if ((p = add(d, rk, b->t0, TRC_WB)) == NULL)
		return -1;
	p->probe = 1, p->inst = inst, p->peer = src, p->tag = tag;
	p->op = test ? "iprobe" : "probe";
	if ((p = add(d, rk, b->t1, TRC_WE)) == NULL)
		return -1;
	p->probe = 1, p->inst = inst, p->peer = src, p->tag = tag;
	p->op = test ? "iprobe" : "probe";
	if (nst && d->st[0].source >= 0) {
		p->peer = d->st[0].source;
		p->tag = d->st[0].tag;
		p->bytes = d->st[0].bytes;
	}
	return 0;
}

enum coll {
	C_BARRIER, C_BCAST, C_REDUCE, C_ALLREDUCE, C_GATHER, C_GATHERV,
	C_SCATTER, C_SCATTERV, C_ALLGATHER, C_ALLGATHERV, C_ALLTOALL,
	C_ALLTOALLV, C_ALLTOALLW, C_REDUCE_SCATTER, C_SCAN, C_EXSCAN
};

static const char *const coll_op[] = {
	"barrier", "bcast", "reduce", "allreduce", "gather", "gatherv",
	"scatter", "scatterv", "allgather", "allgatherv", "alltoall",
	"alltoallv", "alltoallw", "reduce_scatter", "scan", "exscan"
};

/* The sum of an int list argument. */
static int
list_sum(struct rd *d, struct rank *rk, const char *name, int64_t *sum,
    size_t *n)
{
	struct arg *a;
	int64_t *v;
	size_t i;

	if ((a = arg(&d->b, name)) == NULL)
		return missing(d, rk, name);
	if (int_list(d, rk, a, name, &v, n, 0) < 0)
		return -1;
	if (*n == (size_t)-1)
		return bad_value(d, rk, a, name);
	for (*sum = 0, i = 0; i < *n; i++) {
		if (v[i] < 0)
			return bad_value(d, rk, a, name);
		*sum += v[i];
	}
	return 0;
}

static int
h_coll(struct rd *d, struct rank *rk, enum coll c)
{
	struct block *b = &d->b;
	struct pev *p;
	int64_t bytes = 0, sz, sum, root = TRC_NONE;
	int32_t inst;
	size_t n;
	int i;

	switch (c) {
	case C_BARRIER:
		break;
	case C_BCAST:
	case C_REDUCE:
	case C_ALLREDUCE:
	case C_SCAN:
	case C_EXSCAN:
		if (bytes_of(d, rk, "count", "datatype", &bytes) < 0)
			return -1;
		break;
	case C_GATHER:
	case C_GATHERV:
	case C_ALLGATHER:
	case C_ALLGATHERV:
	case C_ALLTOALL:
		if (bytes_of(d, rk, "sendcount", "sendtype", &bytes) < 0)
			return -1;
		break;
	case C_SCATTER:
	case C_SCATTERV:
		if (bytes_of(d, rk, "recvcount", "recvtype", &bytes) < 0)
			return -1;
		break;
	case C_ALLTOALLV:
	case C_ALLTOALLW:
		/* the mean block sent to each rank */
		if (list_sum(d, rk, "sendcounts", &sum, &n) < 0)
			return -1;
		if (c == C_ALLTOALLV) {
			if (type_arg(d, rk, "sendtype", &sz, NULL) < 0)
				return -1;
		} else
			sz = 1;	/* counts are bytes for alltoallw's types */
		if (sz < 0) {
			trc_drop(d->r, "bytes= of datatypes of unknown size");
			bytes = TRC_NONE;
		} else
			bytes = n > 0 ? sum * sz / (int64_t)n : 0;
		break;
	case C_REDUCE_SCATTER:
		if (list_sum(d, rk, "recvcounts", &sum, &n) < 0 ||
		    type_arg(d, rk, "datatype", &sz, NULL) < 0)
			return -1;
		if (sz < 0) {
			trc_drop(d->r, "bytes= of datatypes of unknown size");
			bytes = TRC_NONE;
		} else
			bytes = sum * sz;
		break;
	}
	if (comm_arg(d, rk, "comm", &inst, 0) < 0)
		return -1;
	if (c == C_BCAST || c == C_REDUCE || c == C_GATHER ||
	    c == C_GATHERV || c == C_SCATTER || c == C_SCATTERV) {
		if (int_arg(d, rk, "root", 0, &root) < 0)
			return -1;
		if (root < 0 || root > INT32_MAX)
			return bad_value(d, rk, arg(b, "root"), "root");
	}
	for (i = 0; i < 2; i++) {
		if ((p = add(d, rk, i ? b->t1 : b->t0, i ? TRC_XE : TRC_XB)) ==
		    NULL)
			return -1;
		p->op = coll_op[c];
		p->bytes = bytes;
		p->root = (int32_t)root;
		p->inst = inst;
		p->size = i == 0 && inst != 0;
	}
	return 0;
}

/* Communicator and group constructors. */

/* The sequence number of this creation on parent, for this rank. */
static int
next_seq(struct rd *d, struct rank *rk, int32_t parent, int32_t *seq)
{
	int64_t *p;

	if ((p = imap_get(&rk->seq, parent)) != NULL) {
		*seq = (int32_t)++*p;
		return 0;
	}
	*seq = 0;
	if (imap_put(&rk->seq, parent, 0) < 0)
		return nomem(d);
	return 0;
}

/* The instance of the seq-th creation (colour c) on parent, made new. */
static int
creation(struct rd *d, struct rank *rk, int32_t parent, int32_t seq,
    int32_t c, enum ikind k, int32_t *inst, int *isnew)
{
	struct ckey *key = ck_find(d, parent, seq, c);

	if (key != NULL && key->inst >= 0) {
		*inst = key->inst;
		*isnew = 0;
		return 0;
	}
	if ((*inst = inst_new(d, rk, k)) < 0 ||
	    ck_put(d, parent, seq, c, *inst) < 0)
		return nomem(d);
	*isnew = 1;
	return 0;
}

static int
bind_comm(struct rd *d, struct rank *rk, int64_t h, int32_t inst)
{
	if (h >= 0 && imap_put(&rk->comms, (int32_t)h, inst) < 0)
		return nomem(d);
	return 0;
}

static int
h_comm_dup(struct rd *d, struct rank *rk)
{
	int32_t parent, seq, inst;
	int64_t h;
	int isnew;

	if (comm_arg(d, rk, "oldcomm", &parent, 0) < 0 ||
	    newcomm_arg(d, rk, "newcomm", &h) < 0 ||
	    next_seq(d, rk, parent, &seq) < 0 ||
	    creation(d, rk, parent, seq, 0, I_ALIAS, &inst, &isnew) < 0)
		return -1;
	if (isnew)
		d->in[inst].parent = parent;
	drop_call(d);
	return bind_comm(d, rk, h, inst);
}

static int
h_comm_create(struct rd *d, struct rank *rk)
{
	struct grp *g;
	int32_t parent, seq, inst;
	int64_t h;
	int isnew;

	if (comm_arg(d, rk, "oldcomm", &parent, 0) < 0 ||
	    group_arg(d, rk, "group", &g, NULL) < 0 ||
	    newcomm_arg(d, rk, "newcomm", &h) < 0 ||
	    next_seq(d, rk, parent, &seq) < 0)
		return -1;
	drop_call(d);
	if (h < 0)
		return 0;	/* not a member */
	if (creation(d, rk, parent, seq, 0, g ? I_LIST : I_UNKNOWN, &inst,
	    &isnew) < 0)
		return -1;
	if (isnew && g != NULL) {
		if ((d->in[inst].m = malloc((size_t)(g->n ? g->n : 1) *
		    sizeof(int32_t))) == NULL)
			return nomem(d);
		memcpy(d->in[inst].m, g->m, (size_t)g->n * sizeof(int32_t));
		d->in[inst].size = g->n;
	} else if (isnew)
		d->in[inst].why = "MPI_Comm_create of a group not known";
	return bind_comm(d, rk, h, inst);
}

static int
h_comm_split(struct rd *d, struct rank *rk)
{
	struct ckey *key;
	struct split *sp;
	int32_t parent, seq, inst, c;
	int64_t h, color, k;
	int isnew;

	if (comm_arg(d, rk, "oldcomm", &parent, 0) < 0 ||
	    int_arg(d, rk, "color", 0, &color) < 0 ||
	    int_arg(d, rk, "key", 0, &k) < 0 ||
	    newcomm_arg(d, rk, "newcomm", &h) < 0 ||
	    next_seq(d, rk, parent, &seq) < 0)
		return -1;
	drop_call(d);
	/* The split's registrations hang on the key of colour INT32_MIN. */
	key = ck_find(d, parent, seq, INT32_MIN);
	if (key == NULL || key->inst < 0) {
		if (grow(&d->splits, &d->capsplits, d->nsplits + 1,
		    sizeof(*d->splits)) < 0 ||
		    (sp = calloc(1, sizeof(*sp))) == NULL)
			return nomem(d);
		d->splits[d->nsplits++] = sp;
		sp->parent = parent;
		sp->seq = seq;
		if (ck_put(d, parent, seq, INT32_MIN, 0) < 0)
			return nomem(d);
		key = ck_find(d, parent, seq, INT32_MIN);
		key->sp = sp;
	}
	sp = key->sp;
	if (sp->done)
		return trc_fail_at(d->r, rk->path, d->b.line0, "MPI_Comm_split "
		    "by more ranks than its communicator has");
	c = h < 0 ? INT32_MIN + 1 : (int32_t)color;
	if (grow(&sp->r, &sp->cap, (size_t)sp->n + 1,
	    sizeof(*sp->r)) < 0)
		return nomem(d);
	sp->r[sp->n].world = rk->rank;
	sp->r[sp->n].color = c;
	sp->r[sp->n].key = (int32_t)k;
	sp->n++;
	if (h < 0)
		return 0;
	if (creation(d, rk, parent, seq, c, I_SPLIT, &inst, &isnew) < 0)
		return -1;
	if (isnew) {
		d->in[inst].sp = sp;
		d->in[inst].parent = parent;
	}
	return bind_comm(d, rk, h, inst);
}

static int
h_cart_create(struct rd *d, struct rank *rk)
{
	struct arg *a;
	int32_t parent, seq, inst, prod = 1;
	int64_t h, *v;
	size_t n, i;
	int isnew;

	if (comm_arg(d, rk, "oldcomm", &parent, 0) < 0 ||
	    newcomm_arg(d, rk, "newcomm", &h) < 0 ||
	    next_seq(d, rk, parent, &seq) < 0)
		return -1;
	if ((a = arg(&d->b, "dims")) == NULL)
		return missing(d, rk, "dims");
	if (int_list(d, rk, a, "dims", &v, &n, 0) < 0)
		return -1;
	if (n == (size_t)-1 || n == 0)
		return bad_value(d, rk, a, "dims");
	for (i = 0; i < n; i++) {
		if (v[i] <= 0 || prod > INT32_MAX / v[i])
			return bad_value(d, rk, a, "dims");
		prod *= (int32_t)v[i];
	}
	drop_call(d);
	if (h < 0)
		return 0;
	if (creation(d, rk, parent, seq, 0, I_ALIAS, &inst, &isnew) < 0)
		return -1;
	if (isnew) {
		/* Ranks kept in order: no MPI library here reorders. */
		d->in[inst].parent = parent;
		d->in[inst].take = prod;
		if ((d->in[inst].dims = malloc(n * sizeof(int32_t))) == NULL)
			return nomem(d);
		for (i = 0; i < n; i++)
			d->in[inst].dims[i] = (int32_t)v[i];
		d->in[inst].ndims = (int32_t)n;
	}
	return bind_comm(d, rk, h, inst);
}

static int
h_cart_sub(struct rd *d, struct rank *rk)
{
	struct arg *a;
	struct inst *p;
	int32_t parent, seq, inst, color = 0, stride = 1, me, q, k;
	int64_t h, *v;
	size_t n;
	int isnew;

	if (comm_arg(d, rk, "oldcomm", &parent, 0) < 0 ||
	    newcomm_arg(d, rk, "newcomm", &h) < 0 ||
	    next_seq(d, rk, parent, &seq) < 0)
		return -1;
	if ((a = arg(&d->b, "remain_dims")) == NULL)
		return missing(d, rk, "remain_dims");
	if (int_list(d, rk, a, "remain_dims", &v, &n, 0) < 0)
		return -1;
	drop_call(d);
	if (h < 0)
		return 0;
	p = &d->in[parent];
	if (p->dims == NULL || (size_t)p->ndims != n || resolve(d, parent) < 0) {
		if (creation(d, rk, parent, seq, -1, I_UNKNOWN, &inst,
		    &isnew) < 0)
			return -1;
		d->in[inst].why = "MPI_Cart_sub of a communicator not known";
		return bind_comm(d, rk, h, inst);
	}
	p = &d->in[parent];
	for (me = 0; me < p->size && member(d, parent, me) != rk->rank; me++)
		;
	for (q = me, k = p->ndims - 1; k >= 0; k--) {
		if (!v[k]) {
			color += (q % p->dims[k]) * stride;
			stride *= p->dims[k];
		}
		q /= p->dims[k];
	}
	if (creation(d, rk, parent, seq, color, I_CSUB, &inst, &isnew) < 0)
		return -1;
	if (isnew) {
		d->in[inst].parent = parent;
		d->in[inst].color = color;
		if ((d->in[inst].remain = malloc(n * sizeof(int32_t))) == NULL)
			return nomem(d);
		for (k = 0; k < (int32_t)n; k++)
			d->in[inst].remain[k] = v[k] != 0;
	}
	return bind_comm(d, rk, h, inst);
}

/* Constructors whose members are not read: an error when used. */
static int
h_comm_unknown(struct rd *d, struct rank *rk, const char *parentarg,
    const char *why)
{
	int32_t parent, seq, inst;
	int64_t h;
	int isnew;

	if (newcomm_arg(d, rk, "newcomm", &h) < 0 ||
	    comm_arg(d, rk, parentarg, &parent, 0) < 0 ||
	    next_seq(d, rk, parent, &seq) < 0)
		return -1;
	drop_call(d);
	if (h < 0)
		return 0;
	if (creation(d, rk, parent, seq, -3, I_UNKNOWN, &inst, &isnew) < 0)
		return -1;
	if (isnew)
		d->in[inst].why = why;
	return bind_comm(d, rk, h, inst);
}

static int
h_comm_free(struct rd *d, struct rank *rk)
{
	struct arg *a;
	int64_t h;

	drop_call(d);
	if ((a = arg(&d->b, "comm")) == NULL)
		return missing(d, rk, "comm");
	if (lead_int(val(&d->b, a), &h, NULL) < 0)
		return bad_value(d, rk, a, "communicator");
	imap_del(&rk->comms, (int32_t)h);
	return 0;
}

static int
h_comm_group(struct rd *d, struct rank *rk)
{
	struct grp *g;
	int32_t inst, i, n;
	int64_t h;

	drop_call(d);
	if (comm_arg(d, rk, "comm", &inst, 0) < 0 ||
	    int_arg(d, rk, "group", 0, &h) < 0)
		return -1;
	if ((n = inst_size(d, inst)) < 0)
		return grp_put(d, rk, h, grp_new(-1));
	if ((g = grp_new(n)) == NULL)
		return nomem(d);
	for (i = 0; i < n; i++)
		g->m[i] = member(d, inst, i);
	return grp_put(d, rk, h, g);
}

enum gop { G_INCL, G_EXCL, G_UNION, G_INTER, G_DIFF };

static int
h_group(struct rd *d, struct rank *rk, enum gop op)
{
	struct grp *a = NULL, *b2 = NULL, *g;
	struct arg *ra;
	int64_t nh, *v = NULL;
	size_t n = 0, i;
	int32_t k;

	drop_call(d);
	if (op == G_INCL || op == G_EXCL) {
		if (group_arg(d, rk, "group", &a, NULL) < 0)
			return -1;
		if ((ra = arg(&d->b, "ranks")) == NULL)
			return missing(d, rk, "ranks");
		if (int_list(d, rk, ra, "ranks", &v, &n, 0) < 0)
			return -1;
		if (n == (size_t)-1)
			n = 0;
		for (i = 0; a != NULL && i < n; i++)
			if (v[i] < 0 || v[i] >= a->n)
				return bad_value(d, rk, ra, "ranks");
	} else if (group_arg(d, rk, "group1", &a, NULL) < 0 ||
	    group_arg(d, rk, "group2", &b2, NULL) < 0)
		return -1;
	if (int_arg(d, rk, "newgroup", 0, &nh) < 0)
		return -1;
	if (a == NULL || ((op == G_UNION || op == G_INTER || op == G_DIFF) &&
	    b2 == NULL))
		return grp_put(d, rk, nh, grp_new(-1));
	if ((g = grp_new(a->n + (b2 ? b2->n : 0) + (int32_t)n)) == NULL)
		return nomem(d);
	g->n = 0;
	switch (op) {
	case G_INCL:
		for (i = 0; i < n; i++)
			g->m[g->n++] = a->m[v[i]];
		break;
	case G_EXCL:
		for (k = 0; k < a->n; k++) {
			for (i = 0; i < n && v[i] != k; i++)
				;
			if (i == n)
				g->m[g->n++] = a->m[k];
		}
		break;
	case G_UNION:
		for (k = 0; k < a->n; k++)
			g->m[g->n++] = a->m[k];
		for (k = 0; k < b2->n; k++)
			if (!in_grp(a, b2->m[k]))
				g->m[g->n++] = b2->m[k];
		break;
	case G_INTER:
	case G_DIFF:
		for (k = 0; k < a->n; k++)
			if (in_grp(b2, a->m[k]) == (op == G_INTER))
				g->m[g->n++] = a->m[k];
		break;
	}
	return grp_put(d, rk, nh, g);
}

static int
h_group_free(struct rd *d, struct rank *rk)
{
	int64_t h, *p;

	drop_call(d);
	if (int_arg(d, rk, "group", 0, &h) < 0)
		return -1;
	if ((p = imap_get(&rk->groups, (int32_t)h)) != NULL) {
		grp_free((struct grp *)(intptr_t)*p);
		imap_del(&rk->groups, (int32_t)h);
	}
	return 0;
}

/* Datatype constructors: the new type's size when it can be told. */
enum tkind { T_CONTIG, T_VECTOR, T_INDEXED, T_BLOCK, T_STRUCT, T_DUP,
	T_SUBARRAY, T_SIZE, T_FREE };

static int
h_type(struct rd *d, struct rank *rk, enum tkind k)
{
	struct arg *a;
	int64_t cnt = 1, bl = 1, old = 0, h, sum = 0, *v, *tv, sz;
	size_t n, i;
	const char *lens;

	drop_call(d);
	switch (k) {
	case T_FREE:
		if (type_arg(d, rk, "datatype", &sz, &h) < 0)
			return -1;
		imap_del(&rk->types, (int32_t)h);
		return 0;
	case T_SIZE:
		if (type_arg(d, rk, "datatype", &sz, &h) < 0 ||
		    int_arg(d, rk, "size", 0, &sz) < 0)
			return -1;
		if (imap_put(&rk->types, (int32_t)h, sz) < 0)
			return nomem(d);
		return 0;
	case T_CONTIG:
		if (count_arg(d, rk, "count", &cnt) < 0)
			return -1;
		break;
	case T_VECTOR:
		if (count_arg(d, rk, "count", &cnt) < 0 ||
		    count_arg(d, rk, "blocklength", &bl) < 0)
			return -1;
		break;
	case T_BLOCK:
		if (count_arg(d, rk, "count", &cnt) < 0 ||
		    count_arg(d, rk, "blocklength", &bl) < 0)
			return -1;
		break;
	case T_INDEXED:
		lens = arg(&d->b, "blocklengths") ? "blocklengths" : "lengths";
		if (list_sum(d, rk, lens, &cnt, &n) < 0)
			return -1;
		break;
	case T_STRUCT:
		lens = arg(&d->b, "blocklengths") ? "blocklengths" : "lengths";
		if ((a = arg(&d->b, lens)) == NULL)
			return missing(d, rk, lens);
		if (int_list(d, rk, a, lens, &v, &n, 0) < 0)
			return -1;
		if ((a = arg(&d->b, "oldtypes")) == NULL)
			return missing(d, rk, "oldtypes");
		if (int_list(d, rk, a, "oldtypes", &tv, &i, 1) < 0)
			return -1;
		if (n == (size_t)-1 || i != n)
			return bad_value(d, rk, a, "oldtypes");
		/* oldtypes are bare handles, sized by dumpi's numbering. */
		for (i = 0; i < n; i++) {
			if ((sz = handle_size(rk, tv[i])) < 0 || v[i] < 0) {
				sum = -1;
				break;
			}
			sum += v[i] * sz;
		}
		goto put;
	case T_DUP:
		break;
	case T_SUBARRAY:
		if ((a = arg(&d->b, "subsizes")) == NULL)
			return missing(d, rk, "subsizes");
		if (int_list(d, rk, a, "subsizes", &v, &n, 0) < 0)
			return -1;
		for (i = 0; n != (size_t)-1 && i < n; i++)
			cnt *= v[i] >= 0 ? v[i] : 0;
		break;
	}
	if (type_arg(d, rk, "oldtype", &old, NULL) < 0)
		return -1;
	sum = old < 0 ? -1 : cnt * bl * old;
put:
	if (int_arg(d, rk, "newtype", 0, &h) < 0)
		return -1;
	if (imap_put(&rk->types, (int32_t)h, sum) < 0)
		return nomem(d);
	return 0;
}

static int
h_function(struct rd *d, struct rank *rk, int enter)
{
	struct block *b = &d->b;
	struct arg *a;
	struct pev *p;
	const char *s, *q, *e;
	char num[24];
	size_t len;
	int64_t addr;

	if ((a = arg(b, "fn")) == NULL)
		return missing(d, rk, "fn");
	s = val(b, a);
	if (lead_int(s, &addr, &q) < 0)
		return bad_value(d, rk, a, "fn");
	/* int fn=ADDR ("name"); "(null)" when dumpi had no name */
	if ((s = strchr(q, '"')) != NULL && (e = strrchr(s + 1, '"')) != NULL &&
	    e > s + 1 && !(e - s - 1 == 6 && memcmp(s + 1, "(null)", 6) == 0)) {
		s++;
		len = (size_t)(e - s);
	} else {
		len = trc_format_int(num, addr);
		s = num;
	}
	if ((p = add(d, rk, b->t0, enter ? TRC_PB : TRC_PE)) == NULL)
		return -1;
	return add_str(d, rk, p, s, len);
}

static int
h_world_size(struct rd *d, struct rank *rk)
{
	int64_t n;
	int32_t inst;

	drop_call(d);
	if (comm_arg(d, rk, "comm", &inst, 0) < 0 ||
	    int_arg(d, rk, "size", 0, &n) < 0)
		return -1;
	if (inst == 0 && n > 0 && n <= INT32_MAX)
		d->in[0].size = (int32_t)n;
	return 0;
}

static int
h_mark(struct rd *d, struct rank *rk, int init)
{
	struct pev *p;

	if ((p = add(d, rk, init ? d->b.t1 : d->b.t0, TRC_MK)) == NULL)
		return -1;
	p->mark = init ? "init" : "finalize";
	return 0;
}

/* The table of calls read, by name. */
enum call {
	X_ALLGATHER, X_ALLGATHERV, X_ALLREDUCE, X_ALLTOALL, X_ALLTOALLV,
	X_ALLTOALLW, X_BARRIER, X_BCAST, X_BSEND, X_CART_CREATE, X_CART_SUB,
	X_COMM_CREATE, X_COMM_DUP, X_COMM_FREE, X_COMM_GROUP, X_COMM_SPLIT,
	X_EXSCAN, X_FINALIZE, X_GATHER, X_GATHERV, X_GRAPH_CREATE,
	X_GROUP_DIFF, X_GROUP_EXCL, X_GROUP_FREE, X_GROUP_INCL, X_GROUP_INTER,
	X_GROUP_UNION, X_IBSEND, X_INIT, X_INIT_THREAD, X_INTERCOMM_CREATE,
	X_INTERCOMM_MERGE, X_IPROBE, X_IRECV, X_IRSEND, X_ISEND, X_ISSEND,
	X_PROBE, X_RECV, X_REDUCE, X_REDUCE_SCATTER, X_REQUEST_FREE,
	X_RSEND, X_SCAN, X_SCATTER, X_SCATTERV, X_SEND, X_SENDRECV,
	X_SENDRECV_REPLACE, X_SSEND, X_TEST, X_TESTALL, X_TESTANY,
	X_TESTSOME, X_TYPE_CONTIGUOUS, X_TYPE_CREATE_HINDEXED,
	X_TYPE_CREATE_HVECTOR, X_TYPE_CREATE_INDEXED_BLOCK,
	X_TYPE_CREATE_RESIZED, X_TYPE_CREATE_STRUCT, X_TYPE_CREATE_SUBARRAY,
	X_TYPE_DUP, X_TYPE_FREE, X_TYPE_HINDEXED, X_TYPE_HVECTOR,
	X_TYPE_INDEXED, X_TYPE_SIZE, X_TYPE_STRUCT, X_TYPE_VECTOR, X_WAIT,
	X_WAITALL, X_WAITANY, X_WAITSOME, X_FUNC_ENTER, X_FUNC_EXIT,
	X_OTHER
};

static const struct {
	const char	*name;
	enum call	 c;
} calls[] = {
	{ "Function_enter", X_FUNC_ENTER },
	{ "Function_exit", X_FUNC_EXIT },
	{ "MPI_Allgather", X_ALLGATHER },
	{ "MPI_Allgatherv", X_ALLGATHERV },
	{ "MPI_Allreduce", X_ALLREDUCE },
	{ "MPI_Alltoall", X_ALLTOALL },
	{ "MPI_Alltoallv", X_ALLTOALLV },
	{ "MPI_Alltoallw", X_ALLTOALLW },
	{ "MPI_Barrier", X_BARRIER },
	{ "MPI_Bcast", X_BCAST },
	{ "MPI_Bsend", X_BSEND },
	{ "MPI_Cart_create", X_CART_CREATE },
	{ "MPI_Cart_sub", X_CART_SUB },
	{ "MPI_Comm_create", X_COMM_CREATE },
	{ "MPI_Comm_dup", X_COMM_DUP },
	{ "MPI_Comm_free", X_COMM_FREE },
	{ "MPI_Comm_group", X_COMM_GROUP },
	{ "MPI_Comm_split", X_COMM_SPLIT },
	{ "MPI_Exscan", X_EXSCAN },
	{ "MPI_Finalize", X_FINALIZE },
	{ "MPI_Gather", X_GATHER },
	{ "MPI_Gatherv", X_GATHERV },
	{ "MPI_Graph_create", X_GRAPH_CREATE },
	{ "MPI_Group_difference", X_GROUP_DIFF },
	{ "MPI_Group_excl", X_GROUP_EXCL },
	{ "MPI_Group_free", X_GROUP_FREE },
	{ "MPI_Group_incl", X_GROUP_INCL },
	{ "MPI_Group_intersection", X_GROUP_INTER },
	{ "MPI_Group_union", X_GROUP_UNION },
	{ "MPI_Ibsend", X_IBSEND },
	{ "MPI_Init", X_INIT },
	{ "MPI_Init_thread", X_INIT_THREAD },
	{ "MPI_Intercomm_create", X_INTERCOMM_CREATE },
	{ "MPI_Intercomm_merge", X_INTERCOMM_MERGE },
	{ "MPI_Iprobe", X_IPROBE },
	{ "MPI_Irecv", X_IRECV },
	{ "MPI_Irsend", X_IRSEND },
	{ "MPI_Isend", X_ISEND },
	{ "MPI_Issend", X_ISSEND },
	{ "MPI_Probe", X_PROBE },
	{ "MPI_Recv", X_RECV },
	{ "MPI_Reduce", X_REDUCE },
	{ "MPI_Reduce_scatter", X_REDUCE_SCATTER },
	{ "MPI_Request_free", X_REQUEST_FREE },
	{ "MPI_Rsend", X_RSEND },
	{ "MPI_Scan", X_SCAN },
	{ "MPI_Scatter", X_SCATTER },
	{ "MPI_Scatterv", X_SCATTERV },
	{ "MPI_Send", X_SEND },
	{ "MPI_Sendrecv", X_SENDRECV },
	{ "MPI_Sendrecv_replace", X_SENDRECV_REPLACE },
	{ "MPI_Ssend", X_SSEND },
	{ "MPI_Test", X_TEST },
	{ "MPI_Testall", X_TESTALL },
	{ "MPI_Testany", X_TESTANY },
	{ "MPI_Testsome", X_TESTSOME },
	{ "MPI_Type_contiguous", X_TYPE_CONTIGUOUS },
	{ "MPI_Type_create_hindexed", X_TYPE_CREATE_HINDEXED },
	{ "MPI_Type_create_hvector", X_TYPE_CREATE_HVECTOR },
	{ "MPI_Type_create_indexed_block", X_TYPE_CREATE_INDEXED_BLOCK },
	{ "MPI_Type_create_resized", X_TYPE_CREATE_RESIZED },
	{ "MPI_Type_create_struct", X_TYPE_CREATE_STRUCT },
	{ "MPI_Type_create_subarray", X_TYPE_CREATE_SUBARRAY },
	{ "MPI_Type_dup", X_TYPE_DUP },
	{ "MPI_Type_free", X_TYPE_FREE },
	{ "MPI_Type_hindexed", X_TYPE_HINDEXED },
	{ "MPI_Type_hvector", X_TYPE_HVECTOR },
	{ "MPI_Type_indexed", X_TYPE_INDEXED },
	{ "MPI_Type_size", X_TYPE_SIZE },
	{ "MPI_Type_struct", X_TYPE_STRUCT },
	{ "MPI_Type_vector", X_TYPE_VECTOR },
	{ "MPI_Wait", X_WAIT },
	{ "MPI_Waitall", X_WAITALL },
	{ "MPI_Waitany", X_WAITANY },
	{ "MPI_Waitsome", X_WAITSOME },
};

#define NCALLS	(sizeof(calls) / sizeof(calls[0]))

/*
 * A call's name hashed from its length and its first and last eight
 * bytes (every name is longer than seven): a few loads, not a loop.
 */
static inline uint32_t
words_hash(uint64_t a, uint64_t z, size_t n)
{
	return (uint32_t)(((a ^ z * 0x9e3779b97f4a7c15u ^ n) *
	    0xff51afd7ed558ccdu) >> 40);
}

static uint32_t
name_hash(const char *s, size_t n)
{
	uint64_t a = 0, z = 0;
	size_t i;

	if (n >= 8) {
		memcpy(&a, s, 8);
		memcpy(&z, s + n - 8, 8);
	} else
		for (i = 0; i < n; i++)
			a = a << 8 | (unsigned char)s[i];
	return words_hash(a, z, n);
}

/* The table of calls by hash, 1 + index, filled once at open. */
static void
calls_index(struct rd *d)
{
	uint32_t i, j;

	for (i = 0; i < NCALLS; i++) {
		d->clen[i] = (uint8_t)strlen(calls[i].name);
		if (d->clen[i] >= 8) {
			memcpy(&d->cw[i][0], calls[i].name, 8);
			memcpy(&d->cw[i][1], calls[i].name + d->clen[i] - 8, 8);
		}
		for (j = name_hash(calls[i].name, d->clen[i]) & (CTAB - 1);
		    d->ctab[j]; j = (j + 1) & (CTAB - 1))
			;
		d->ctab[j] = (uint8_t)(i + 1);
	}
}

/*
 * A name of 8 to 16 bytes, as most are, is its first and last eight:
 * those words are its hash's and are compared with the call's, with no
 * call of memcmp.
 */
static enum call
lookup(const struct rd *d, const char *name, size_t n)
{
	uint64_t a, z;
	uint32_t j, c;

	if (n >= 8 && n <= 16) {
		memcpy(&a, name, 8);
		memcpy(&z, name + n - 8, 8);
		for (j = words_hash(a, z, n) & (CTAB - 1);
		    (c = d->ctab[j]) != 0; j = (j + 1) & (CTAB - 1))
			if (d->clen[c - 1] == n && d->cw[c - 1][0] == a &&
			    d->cw[c - 1][1] == z)
				return calls[c - 1].c;
		return X_OTHER;
	}
	for (j = name_hash(name, n) & (CTAB - 1); (c = d->ctab[j]) != 0;
	    j = (j + 1) & (CTAB - 1))
		if (d->clen[c - 1] == n &&
		    memcmp(calls[c - 1].name, name, n) == 0)
			return calls[c - 1].c;
	return X_OTHER;
}

/* A send call's op= (none for MPI_Send and MPI_Isend), and in *nb
 * whether it is nonblocking. */
static const char *
send_kind(enum call c, int *nb)
{
	*nb = c == X_ISEND || c == X_IBSEND || c == X_ISSEND ||
	    c == X_IRSEND;
	switch (c) {
	case X_BSEND:	return "bsend";
	case X_SSEND:	return "ssend";
	case X_RSEND:	return "rsend";
	case X_IBSEND:	return "ibsend";
	case X_ISSEND:	return "issend";
	case X_IRSEND:	return "irsend";
	default:	return NULL;
	}
}

static int
handle(struct rd *d, struct rank *rk)
{
	const char *op;
	enum call c;
	int nb;

	switch ((c = lookup(d, d->b.name, d->b.nlen))) {
	case X_SEND:
	case X_BSEND:
	case X_SSEND:
	case X_RSEND:
	case X_ISEND:
	case X_IBSEND:
	case X_ISSEND:
	case X_IRSEND:
		op = send_kind(c, &nb);
		return h_send(d, rk, op, nb);
	case X_RECV:		return h_recv(d, rk, 0);
	case X_IRECV:		return h_recv(d, rk, 1);
	case X_WAIT:		return h_wait(d, rk, W_ONE, 0, "wait");
	case X_WAITALL:		return h_wait(d, rk, W_ALL, 0, "waitall");
	case X_WAITANY:		return h_wait(d, rk, W_ANY, 0, "waitany");
	case X_WAITSOME:	return h_wait(d, rk, W_SOME, 0, "waitsome");
	case X_TEST:		return h_wait(d, rk, W_ONE, 1, "test");
	case X_TESTALL:		return h_wait(d, rk, W_ALL, 1, "testall");
	case X_TESTANY:		return h_wait(d, rk, W_ANY, 1, "testany");
	case X_TESTSOME:	return h_wait(d, rk, W_SOME, 1, "testsome");
	case X_SENDRECV:	return h_sendrecv(d, rk, 0);
	case X_SENDRECV_REPLACE: return h_sendrecv(d, rk, 1);
	case X_PROBE:		return h_probe(d, rk, 0);
	case X_IPROBE:		return h_probe(d, rk, 1);
	case X_BARRIER:		return h_coll(d, rk, C_BARRIER);
	case X_BCAST:		return h_coll(d, rk, C_BCAST);
	case X_REDUCE:		return h_coll(d, rk, C_REDUCE);
	case X_ALLREDUCE:	return h_coll(d, rk, C_ALLREDUCE);
	case X_GATHER:		return h_coll(d, rk, C_GATHER);
	case X_GATHERV:		return h_coll(d, rk, C_GATHERV);
	case X_SCATTER:		return h_coll(d, rk, C_SCATTER);
	case X_SCATTERV:	return h_coll(d, rk, C_SCATTERV);
	case X_ALLGATHER:	return h_coll(d, rk, C_ALLGATHER);
	case X_ALLGATHERV:	return h_coll(d, rk, C_ALLGATHERV);
	case X_ALLTOALL:	return h_coll(d, rk, C_ALLTOALL);
	case X_ALLTOALLV:	return h_coll(d, rk, C_ALLTOALLV);
	case X_ALLTOALLW:	return h_coll(d, rk, C_ALLTOALLW);
	case X_REDUCE_SCATTER:	return h_coll(d, rk, C_REDUCE_SCATTER);
	case X_SCAN:		return h_coll(d, rk, C_SCAN);
	case X_EXSCAN:		return h_coll(d, rk, C_EXSCAN);
	case X_INIT:
	case X_INIT_THREAD:	return h_mark(d, rk, 1);
	case X_FINALIZE:	return h_mark(d, rk, 0);
	case X_FUNC_ENTER:	return h_function(d, rk, 1);
	case X_FUNC_EXIT:	return h_function(d, rk, 0);
	case X_COMM_DUP:	return h_comm_dup(d, rk);
	case X_COMM_CREATE:	return h_comm_create(d, rk);
	case X_COMM_SPLIT:	return h_comm_split(d, rk);
	case X_COMM_FREE:	return h_comm_free(d, rk);
	case X_COMM_GROUP:	return h_comm_group(d, rk);
	case X_CART_CREATE:	return h_cart_create(d, rk);
	case X_CART_SUB:	return h_cart_sub(d, rk);
	case X_GRAPH_CREATE:
		return h_comm_unknown(d, rk, "oldcomm", "MPI_Graph_create");
	case X_INTERCOMM_CREATE:
		return h_comm_unknown(d, rk, "localcomm",
		    "MPI_Intercomm_create");
	case X_INTERCOMM_MERGE:
		return h_comm_unknown(d, rk, "comm", "MPI_Intercomm_merge");
	case X_GROUP_INCL:	return h_group(d, rk, G_INCL);
	case X_GROUP_EXCL:	return h_group(d, rk, G_EXCL);
	case X_GROUP_UNION:	return h_group(d, rk, G_UNION);
	case X_GROUP_INTER:	return h_group(d, rk, G_INTER);
	case X_GROUP_DIFF:	return h_group(d, rk, G_DIFF);
	case X_GROUP_FREE:	return h_group_free(d, rk);
	case X_TYPE_CONTIGUOUS:	return h_type(d, rk, T_CONTIG);
	case X_TYPE_VECTOR:
	case X_TYPE_HVECTOR:
	case X_TYPE_CREATE_HVECTOR: return h_type(d, rk, T_VECTOR);
	case X_TYPE_INDEXED:
	case X_TYPE_HINDEXED:
	case X_TYPE_CREATE_HINDEXED: return h_type(d, rk, T_INDEXED);
	case X_TYPE_CREATE_INDEXED_BLOCK: return h_type(d, rk, T_BLOCK);
	case X_TYPE_STRUCT:
	case X_TYPE_CREATE_STRUCT: return h_type(d, rk, T_STRUCT);
	case X_TYPE_DUP:
	case X_TYPE_CREATE_RESIZED: return h_type(d, rk, T_DUP);
	case X_TYPE_CREATE_SUBARRAY: return h_type(d, rk, T_SUBARRAY);
	case X_TYPE_SIZE:	return h_type(d, rk, T_SIZE);
	case X_TYPE_FREE:	return h_type(d, rk, T_FREE);
	case X_REQUEST_FREE: {
		int64_t h;

		drop_call(d);
		if (req_arg(d, rk, "request", &h) < 0)
			return -1;
		req_done(rk, h);
		return 0;
	}
	case X_OTHER:
		/* Standard input learns its world's size as it goes. */
		if (d->in[0].size < 0 && strcmp(d->b.name, "MPI_Comm_size") == 0)
			return h_world_size(d, rk);
		return drop_call(d);
	}
	return drop_call(d);
}

/* The usual blocks ------------------------------------------------------- */

/*
 * Most blocks are of a few calls that dumpi2ascii prints the same way
 * every time: the arguments in the call's order, plain numbers,
 * predefined datatypes, MPI_COMM_WORLD.  quick() reads such a block
 * in one pass over its bytes, each line's fixed words compared whole
 * (no scan for its blank and '='), and makes its events at once: no
 * argument list, no slots, no NULs written.  A block that departs from
 * that form in any way is left untouched to read_block() and handle(),
 * which read it from its start and tell what is wrong with it; what
 * quick() takes, they would make the same of.  The buffer ends in FPAD
 * newlines (fb_fill), so that its scans stop there; a block whose last
 * newline is one of those is not whole in the buffer: see partial().
 */

/* Whether the n bytes at p are l's (n a constant): loads, no call. */
static inline __attribute__((always_inline)) int
lit(const char *p, const char *l, size_t n)
{
	uint64_t a = 0, b = 0, x = 0;
	size_t i;

	if (n < 8) {
		memcpy(&a, p, n);
		memcpy(&b, l, n);
		return a == b;
	}
	for (i = 0; i + 8 < n; i += 8) {
		memcpy(&a, p + i, 8);
		memcpy(&b, l + i, 8);
		x |= a ^ b;
	}
	memcpy(&a, p + n - 8, 8);
	memcpy(&b, l + n - 8, 8);
	return (x | (a ^ b)) == 0;
}
#define LIT(p, l)	lit((p), (l), sizeof(l) - 1)

#if SWAR_LE
/* How many digits (0 to 8) begin the word x, and their value: as
 * swar_digits(), which is not inlined where it is called this often. */
static inline __attribute__((always_inline)) unsigned
digits(uint64_t x, uint64_t *v)
{
	uint64_t m = swar_lt(x, '0') | (((x + SWAR_ONES * (127 - '9')) | x) &
	    SWAR_HIGH);
	unsigned n = m ? (unsigned)__builtin_ctzll(m) >> 3 : 8;

	if (n == 0)
		return 0;
	x <<= 8 * (8 - n);
	x = (x & 0x0F0F0F0F0F0F0F0Fu) * 2561 >> 8;
	x = (x & 0x00FF00FF00FF00FFu) * 6553601 >> 16;
	*v = (x & 0x0000FFFF0000FFFFu) * 42949672960001u >> 32;
	return n;
}
#endif

/* A number of 1 to 8 digits at p: past it, or NULL (longer ones go the
 * long way). */
static inline __attribute__((always_inline)) const char *
num(const char *p, int64_t *v)
{
#if SWAR_LE
	uint64_t u;
	unsigned n = digits(swar_load(p), &u);

	if (n == 0 || (n == 8 && p[8] >= '0' && p[8] <= '9'))
		return NULL;
	*v = (int64_t)u;
	return p + n;
#else
	int64_t x = 0;
	int n;

	for (n = 0; n < 8 && p[n] >= '0' && p[n] <= '9'; n++)
		x = x * 10 + (p[n] - '0');
	if (n == 0 || (n == 8 && p[8] >= '0' && p[8] <= '9'))
		return NULL;
	*v = x;
	return p + n;
#endif
}

/* The first newline from p on: the buffer's padding holds one. */
static inline const char *
newline(const char *p)
{
#ifdef __SSE2__
	const __m128i vn = _mm_set1_epi8('\n');
	unsigned m;

	for (;; p += 16)
		if ((m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
		    _mm_loadu_si128((const __m128i *)(const void *)p), vn))) !=
		    0)
			return p + __builtin_ctz(m);
#else
	while (*p != '\n')
		p++;
	return p;
#endif
}

/* The blank that ends the name of 1 to 31 bytes at s, or NULL. */
static inline const char *
name_end(const char *s)
{
	unsigned k;
#ifdef __SSE2__
	const __m128i vb = _mm_set1_epi8(' '), vn = _mm_set1_epi8('\n');
	__m128i v;
	unsigned m;

	v = _mm_loadu_si128((const __m128i *)(const void *)s);
	m = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, vb),
	    _mm_cmpeq_epi8(v, vn)));
	if (m == 0) {
		v = _mm_loadu_si128((const __m128i *)(const void *)(s + 16));
		m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
		    _mm_cmpeq_epi8(v, vb), _mm_cmpeq_epi8(v, vn))) << 16;
		if (m == 0)
			return NULL;
	}
	k = (unsigned)__builtin_ctz(m);
#else
	for (k = 0; k < 32 && s[k] != ' ' && s[k] != '\n'; k++)
		;
#endif
	return k > 0 && k < 32 && s[k] == ' ' ? s + k : NULL;
}

/* "N (NAME)", the value of a predefined datatype, then its newline:
 * past that, with the type's size, or NULL.  The memo as type_arg_a's. */
static const char *
q_type(struct rd *d, const char *p, int64_t *size)
{
	const char *nl = newline(p), *q, *an;
	size_t n = (size_t)(nl - p), alen;
	int64_t h;

	if (n == d->tmemo.n && n > 0 && swar_same(p, d->tmemo.s, n)) {
		*size = d->tmemo.v;
		return nl + 1;
	}
	if ((q = num(p, &h)) == NULL || h < 2 ||
	    h >= (int64_t)sizeof(numbered_size) || q[0] != ' ' ||
	    q[1] != '(' || nl[-1] != ')' || nl - 1 <= q + 1)
		return NULL;
	an = q + 2;
	alen = (size_t)(nl - 1 - an);
	if (strlen(numbered_name[h]) != alen ||
	    memcmp(numbered_name[h], an, alen) != 0)
		return NULL;
	*size = numbered_size[h];
	if (n < sizeof(d->tmemo.s)) {
		memcpy(d->tmemo.s, p, n);
		d->tmemo.n = (uint32_t)n;
		d->tmemo.v = *size;
		d->tmemo.h = h;
	}
	return nl + 1;
}

/* "int count=N\nMPI_Datatype datatype=T (NAME)\n", as bytes_of's. */
static const char *
q_buffer(struct rd *d, const char *p, int64_t *bytes)
{
	int64_t n, sz;

	if (!LIT(p, "int count=") || (p = num(p + 10, &n)) == NULL ||
	    *p != '\n' || !LIT(p + 1, "MPI_Datatype datatype=") ||
	    (p = q_type(d, p + 23, &sz)) == NULL)
		return NULL;
	*bytes = n * sz;
	return p;
}

/* "MPI_Comm comm=N (NAME)\n": MPI_COMM_WORLD, or one the file made, as
 * comm_arg_a's (with its memo). */
static const char *
q_comm(struct rd *d, struct rank *rk, const char *p, int32_t *inst)
{
	const char *nl, *q, *an;
	size_t n, alen;
	int64_t h, *v;

	if (!LIT(p, "MPI_Comm comm="))
		return NULL;
	p += 14;
	nl = newline(p);
	n = (size_t)(nl - p);
	if (n == d->cmemo.n && n > 0 && swar_same(p, d->cmemo.s, n)) {
		*inst = 0;
		return nl + 1;
	}
	if ((q = num(p, &h)) == NULL || q[0] != ' ' || q[1] != '(' ||
	    nl[-1] != ')' || nl - 1 <= q + 1)
		return NULL;
	an = q + 2;
	alen = (size_t)(nl - 1 - an);
	if (alen == 14 && memcmp(an, "MPI_COMM_WORLD", 14) == 0) {
		*inst = 0;
		if (n < sizeof(d->cmemo.s)) {
			memcpy(d->cmemo.s, p, n);
			d->cmemo.n = (uint32_t)n;
			d->cmemo.v = 0;
			d->cmemo.h = h;
		}
	} else if (alen == 17 && memcmp(an, "user-defined-comm", 17) == 0 &&
	    (v = imap_get(&rk->comms, (int32_t)h)) != NULL)
		*inst = (int32_t)*v;
	else
		return NULL;
	return nl + 1;
}

/* A peer or tag, "N" or "-1 (any)" for TRC_ANY, then its newline. */
static inline const char *
q_peer(const char *p, int32_t *v, const char *any, size_t anylen)
{
	int64_t x;

	if (p[0] == '-') {
		if (memcmp(p, any, anylen) != 0)
			return NULL;
		*v = TRC_ANY;
		return p + anylen;
	}
	if ((p = num(p, &x)) == NULL || *p != '\n')
		return NULL;
	*v = (int32_t)x;
	return p + 1;
}
#define ANY_SOURCE	"-1 (MPI_ANY_SOURCE)\n"
#define ANY_TAG		"-1 (MPI_ANY_TAG)\n"

/* "MPI_Request request=[N]\n" */
static inline const char *
q_req(const char *p, int64_t *h)
{
	if (!LIT(p, "MPI_Request request=[") || (p = num(p + 21, h)) == NULL ||
	    p[0] != ']' || p[1] != '\n')
		return NULL;
	return p + 2;
}

/* The usual calls told by their name's first and last eight bytes, the
 * rest by lookup(): a few compares, not a hash and a probe. */
static inline __attribute__((always_inline)) uint64_t
w8(const char *s)
{
	uint64_t x;

	memcpy(&x, s, 8);
	return x;
}

static inline __attribute__((always_inline)) enum call
usual(const struct rd *d, const char *s, size_t n)
{
	uint64_t a, z;

	if (n < 8 || n > 16)
		return lookup(d, s, n);
	a = w8(s);
	z = w8(s + n - 8);
#define NAMED(lit) (n == sizeof(lit) - 1 && a == w8(lit) && \
	z == w8(&(lit)[sizeof(lit) - 9]))
	if (NAMED("MPI_Isend"))
		return X_ISEND;
	if (NAMED("MPI_Irecv"))
		return X_IRECV;
	if (NAMED("MPI_Waitall"))
		return X_WAITALL;
	if (NAMED("Function_enter"))
		return X_FUNC_ENTER;
	if (NAMED("Function_exit"))
		return X_FUNC_EXIT;
	if (NAMED("MPI_Send"))
		return X_SEND;
	if (NAMED("MPI_Recv"))
		return X_RECV;
	if (NAMED("MPI_Wait"))
		return X_WAIT;
#undef NAMED
	return lookup(d, s, n);
}

/*
 * Whether the block at the buffer's start is cut by its end where
 * read_block() would fill the buffer before anything else: a first line
 * with no newline, or a call's entering line, then lines none of which
 * is a call's, the last with no newline.  Then fill() fills it and
 * quick() reads the block, which read_block() would read otherwise (a
 * block in 20 or so: some 3% of the CPU time of the benchmark); a read
 * error is told where and when read_block() would tell it.
 */
static int
partial(struct rank *rk)
{
	const struct fbuf *f = &rk->f;
	const char *s = f->buf + f->start, *e = f->buf + f->end, *p, *sp;
	int64_t t;

	if ((p = newline(s)) >= e)
		return 1;
	if ((sp = name_end(s)) == NULL || !LIT(sp, ENTER) ||
	    wall_time(sp + ELEN, e, &t) == NULL)
		return 0;
	for (s = p + 1; (p = newline(s)) < e; s = p + 1)
		if ((sp = first_of((char *)s, (char *)p, e, ' ', ' ')) < p &&
		    sp > s && (LIT(sp, ENTER) || LIT(sp, RETURN)))
			return 0;
	return 1;
}

/*
 * The block at the buffer's start, when it is one of the usual: 1 with
 * its events made, 0 when it is not (nothing read), -1 on error.
 */
static int
quick(struct rd *d, struct rank *rk)
{
	struct fbuf *f = &rk->f;
	struct block *b = &d->b;
	struct reqinfo one, *ri = &one;
	struct status **sv;
	struct pev *pv;
	const char *s, *e, *p, *sp, *q, *fn = NULL, *op = NULL;
	char *done;
	int64_t t0, t1, bytes = 0, h = -1, x, *hv;
	int32_t inst = 0, peer = 0, tag = 0;
	size_t nlen, n = 0, i;
	long args;
	int nb = 0;
	enum call c;

	s = f->buf + f->start;
	e = f->buf + f->end;
	/* The block's lines but its first, which the next loads need at
	 * once: read 63 other ranks' blocks ago, they have left the
	 * first-level cache, and are fetched here side by side, not one
	 * by one as the parse reaches them.  Prefetching the next block
	 * at the end of this one instead, to be in cache when the rank
	 * next comes, did not help (1% less CPU time, within the runs'
	 * spread; 2026-11-28). */
	__builtin_prefetch(s + 64);
	__builtin_prefetch(s + 128);
	__builtin_prefetch(s + 192);
	__builtin_prefetch(s + 256);
	if ((sp = name_end(s)) == NULL || !LIT(sp, ENTER) ||
	    (p = wall_time(sp + ELEN, e, &t0)) == NULL ||
	    (p = newline(p)) >= e || t0 < rk->last)
		return 0;
	p++;
	nlen = (size_t)(sp - s);
	switch ((c = usual(d, s, nlen))) {
	case X_SEND:
	case X_BSEND:
	case X_SSEND:
	case X_RSEND:
	case X_ISEND:
	case X_IBSEND:
	case X_ISSEND:
	case X_IRSEND:
		/* a send to a rank: count, datatype, dest, tag, comm[, request] */
		op = send_kind(c, &nb);
		if ((p = q_buffer(d, p, &bytes)) == NULL ||
		    !LIT(p, "int dest=") || (p = num(p + 9, &x)) == NULL ||
		    *p != '\n' || !LIT(p + 1, "int tag=") ||
		    (p = q_peer(p + 9, &tag, ANY_TAG, sizeof(ANY_TAG) - 1)) ==
		    NULL || tag == TRC_ANY || (p = q_comm(d, rk, p, &inst)) ==
		    NULL || (nb && (p = q_req(p, &h)) == NULL))
			return 0;
		peer = (int32_t)x;
		args = 5 + nb;
		break;
	case X_RECV:
	case X_IRECV:
		/* count, datatype, source, tag, comm, request or status */
		nb = c == X_IRECV;
		if ((p = q_buffer(d, p, &bytes)) == NULL ||
		    !LIT(p, "int source=") || (p = q_peer(p + 11, &peer,
		    ANY_SOURCE, sizeof(ANY_SOURCE) - 1)) == NULL ||
		    !LIT(p, "int tag=") || (p = q_peer(p + 8, &tag, ANY_TAG,
		    sizeof(ANY_TAG) - 1)) == NULL ||
		    (p = q_comm(d, rk, p, &inst)) == NULL)
			return 0;
		if (nb) {
			if ((p = q_req(p, &h)) == NULL)
				return 0;
		} else if (LIT(p, "MPI_Status status=<IGNORED>\n"))
			p += 28;
		else
			return 0;
		args = 6;
		break;
	case X_WAIT:
		/* request, status ignored */
		if ((p = q_req(p, &x)) == NULL ||
		    !LIT(p, "MPI_Status status=<IGNORED>\n"))
			return 0;
		p += 28;
		if (grow(&d->iv2, &d->capiv2, 1, sizeof(*d->iv2)) < 0)
			return 0;
		d->iv2[0] = x;
		n = 1;
		args = 2;
		break;
	case X_WAITALL:
		/* count, requests, statuses ignored */
		if (!LIT(p, "int count=") || (p = num(p + 10, &x)) == NULL ||
		    *p != '\n' || !LIT(p + 1, "MPI_Request requests[") ||
		    (p = num(p + 22, &x)) == NULL || !LIT(p, "]=["))
			return 0;
		for (p += 3;; p += 2) {
			if ((p = num(p, &x)) == NULL)
				return 0;
			if (n + 1 > d->capiv2 && grow(&d->iv2, &d->capiv2,
			    n + 1, sizeof(*d->iv2)) < 0)
				return 0;
			d->iv2[n++] = x;
			if (p[0] != ',' || p[1] != ' ')
				break;
		}
		if (p[0] != ']' || p[1] != '\n' ||
		    !LIT(p + 2, "MPI_Status statuses[") ||
		    (p = num(p + 22, &x)) == NULL ||
		    !LIT(p, "]=<IGNORED>\n"))
			return 0;
		p += 12;
		args = 3;
		break;
	case X_FUNC_ENTER:
	case X_FUNC_EXIT:
		/* int fn=ADDR ("name"), as h_function reads it */
		if (!LIT(p, "int fn=") || (p = num(p + 7, &x)) == NULL ||
		    !LIT(p, " (\""))
			return 0;
		fn = p + 3;
		q = find3(fn, e + 16, '"', '\0');
		if (q[0] != '"' || q[1] != ')' || q[2] != '\n' || q == fn ||
		    (q - fn == 6 && memcmp(fn, "(null)", 6) == 0))
			return 0;
		n = (size_t)(q - fn);
		p = q + 3;
		args = 1;
		break;
	default:
		return 0;
	}
	/* The returning line: the same name, not before the entering. */
	if (!swar_same(p, s, nlen) || !LIT(p + nlen, RETURN) ||
	    (q = wall_time(p + nlen + RLEN, e, &t1)) == NULL || t1 < t0 ||
	    (q = newline(q)) >= e)
		return 0;

	/* 32 bytes, the longest name taken, rather than nlen: moves, not
	 * a call. */
	memcpy(b->name, s, 32);
	b->name[nlen] = '\0';
	b->nlen = nlen;
	b->t0 = t0;
	b->t1 = t1;
	b->line0 = f->line + 1;
	b->line1 = f->line + 2 + args;
	b->nargs = 0;
	f->start = (size_t)(q + 1 - f->buf);
	f->line = b->line1;
	rk->last = t1;
	rk->lastline = b->line0;
	switch (c) {
	case X_RECV:
	case X_IRECV:
		if (recv_begin(d, rk, nb, &ri, bytes, peer, tag, inst, h) < 0)
			return -1;
		if (!nb && add_re(d, rk, t1, ri, NULL) < 0)
			return -1;
		return 1;
	case X_WAIT:
	case X_WAITALL:
		if (scratch(d, n, &done, &sv) < 0)
			return nomem(d);
		for (i = 0; i < n; i++)
			done[i] = 1;
		hv = d->iv2;
		return complete(d, rk, c == X_WAIT ? "wait" : "waitall", hv, n,
		    done, sv, 1) < 0 ? -1 : 1;
	case X_FUNC_ENTER:
	case X_FUNC_EXIT:
		if ((pv = add(d, rk, t0, c == X_FUNC_ENTER ? TRC_PB :
		    TRC_PE)) == NULL || add_str(d, rk, pv, fn, n) < 0)
			return -1;
		return 1;
	default:
		return send_events(d, rk, op, nb, bytes, peer, tag, inst, h) < 0 ?
		    -1 : 1;
	}
}

/* Reading ---------------------------------------------------------------- */

static const char *
rank_path(struct rd *d, struct rank *rk)
{
	(void)d;
	return rk->path;
}

/* Reads blocks of rk until one gives events or the file ends. */
static int
fill(struct rd *d, struct rank *rk)
{
	int rc;

	rk->qn = rk->qhead = 0;
	rk->nids = rk->nstr = 0;
	while (rk->qn == 0 && !rk->done) {
		if (rk->f.buf != NULL && ((rc = quick(d, rk)) != 0 ||
		    (!rk->f.eof && partial(rk) && (rc = fb_fill(d, &rk->f) < 0 ?
		    -1 : quick(d, rk)) != 0))) {
			if (rc < 0)
				return -1;
			continue;
		}
		if ((rc = read_block(d, &rk->f, &d->b)) < 0)
			return -1;
		if (rc == 0) {
			rk->done = 1;
			if (rk->lastline == 0)
				return trc_fail_at(d->r, rk->path, 0, "no MPI "
				    "call in the file (not dumpi2ascii output)");
			break;
		}
		if (d->b.t0 < rk->last) {
			char a[32], b[32];

			a[trc_format_time(a, d->b.t0)] = '\0';
			b[trc_format_time(b, rk->last)] = '\0';
			return trc_fail_at(d->r, rk->path, d->b.line0, "'%s' "
			    "enters at %s, before the call of line %ld returned "
			    "(%s)", d->b.name, a, rk->lastline, b);
		}
		rk->last = d->b.t1;
		rk->lastline = d->b.line0;
		if (handle(d, rk) < 0)
			return -1;
	}
	return 0;
}

static inline int
before(const struct hent *a, const struct hent *b)
{
	return a->t < b->t || (a->t == b->t && a->rank < b->rank);
}

/* After all others: the key of a rank at its end. */
static inline void
hent_end(struct hent *x)
{
	x->t = INT64_MAX;
	x->rank = INT32_MAX;
}

static int
world_of(struct rd *d, struct rank *rk, const struct pev *p, int32_t local,
    const char *what, int32_t *w)
{
	char why[512];

	if ((*w = member(d, p->inst, local)) >= 0)
		return 0;
	if (resolve(d, p->inst) == 0)
		return trc_fail_at(d->r, rk->path, p->line, "%s %d is not a "
		    "rank of the communicator (%d ranks)", what, local,
		    inst_size(d, p->inst));
	return trc_fail_at(d->r, rk->path, p->line, "%s %d cannot be told as "
	    "a world rank: %s", what, local, unknown_why(d, p->inst, why,
	    sizeof(why)));
}

/*
 * op= from the reader's own names, which are words the stream takes
 * (trc_eb_word).  Their lengths are remembered by address: a call of
 * strlen and one of memcpy an event took 2% more CPU time (2026-11-28,
 * 64 files: 0.740 s against 0.728, medians of 15 runs in turns).
 */
static inline void
eb_op(struct rd *d, struct trc_evbuild *eb, const char *op)
{
	struct opmemo *m = &d->om[((uintptr_t)op >> 3) & (OPMEMO - 1)];

	if (m->op != op) {
		m->op = op;
		m->n = strlen(op);
	}
	trc_eb_word(eb, "op", 2, TRC_EBW_OP, op, m->n, 0);
}

/*
 * req= of a list of the reader's request ids (positive numbers), made
 * in place with its fields: 0, or -1 when the room for n ids of any
 * length is not left (the caller then makes it apart).
 */
static int
eb_reqs(struct trc_evbuild *eb, const int64_t *id, uint32_t n)
{
	struct trc_event *ev = eb->ev;
	uint32_t i;
	char *v, *s;

	if (eb->full || ev->nattr == TRC_MAXATTR ||
	    eb->len + 3 + (size_t)n * 21 + 2 > sizeof(eb->buf))
		return -1;
	v = trc_eb_slot(eb, "req", 3, (size_t)n * 21);
	for (s = v, i = 0; i < n; i++) {
		if (i > 0)
			*s++ = ',';
		s += trc_format_int(s, id[i]);
	}
	(void)trc_eb_commit(eb, v, 3, (size_t)(s - v));
	ev->req = id[0];
	ev->reqs.s = v;		/* not attr[k].val: see trc_eb_intk */
	ev->reqs.len = (size_t)(s - v);
	return 0;
}

/* A peer or root as a world rank: most are the world's already. */
static inline int
world(struct rd *d, struct rank *rk, const struct pev *p, int32_t local,
    const char *what, int32_t *w)
{
	if (local == TRC_ANY || local == TRC_NONE ||
	    (p->inst == 0 && local < d->n)) {
		*w = local;
		return 0;
	}
	return world_of(d, rk, p, local, what, w);
}

/*
 * key=v as trc_eb_intk() makes it, without its checks for room: for
 * the few attributes of a message's event, just after trc_eb_start(),
 * which fit in the builder whatever their values.  The builder's checks
 * were a good part of building an event (callgrind, 2026-11-28).
 */
static inline __attribute__((always_inline)) void
eb_put(struct trc_evbuild *eb, const char *key, size_t klen, int64_t v,
    int req)
{
	struct trc_event *ev = eb->ev;
	struct trc_attr *a;
	char *k, *val;
	size_t n;

	if (v == TRC_NONE)
		return;
	k = eb->buf + eb->len;
	memcpy(k, key, klen);
	k[klen] = '=';
	val = k + klen + 1;
	n = trc_eb_value(val, v);
	val[n] = ' ';
	a = &ev->attr[ev->nattr++];
	a->key.s = k;
	a->key.len = klen;
	a->val.s = val;
	a->val.len = n;
	eb->len += klen + n + 2;
	if (req) {
		/* From val and n: see trc_eb_intk. */
		ev->req = v;
		ev->reqs.s = val;
		ev->reqs.len = n;
	}
}
#define EB_PUT(eb, key, v)	eb_put((eb), (key), sizeof(key) - 1, (v), 0)
#define EB_REQ(eb, v)		eb_put((eb), "req", 3, (v), 1)

/* The event p of rank rk, with world ranks. */
static int
build(struct rd *d, struct rank *rk, const struct pev *p,
    struct trc_event *ev)
{
	struct trc_evbuild *eb = &d->eb;
	char *s;
	int32_t peer, root, size;
	uint32_t i;
	size_t len;

	if (world(d, rk, p, p->peer, "peer", &peer) < 0 ||
	    world(d, rk, p, p->root, "root", &root) < 0)
		return -1;
	trc_eb_start(eb, ev, p->t, rk->rank, (enum trc_kind)p->kind);
	if (p->polls > 0)
		trc_eb_int(eb, "polls", p->polls);
	switch (p->kind) {
	case TRC_SB:
	case TRC_SE:
	case TRC_RB:
		/* At most six attributes of 28 bytes: room in the builder. */
		EB_PUT(eb, "peer", peer);
		EB_PUT(eb, "tag", p->tag);
		EB_PUT(eb, "bytes", p->bytes);
		if (p->inst > 0)
			EB_PUT(eb, "comm", p->inst);
		EB_REQ(eb, p->req);
		ev->peer = peer;
		ev->tag = p->tag;
		ev->bytes = p->bytes;
		ev->comm = p->inst > 0 ? p->inst : 0;
		if (p->op != NULL)
			eb_op(d, eb, p->op);
		break;
	case TRC_RE:
		EB_REQ(eb, p->req);
		EB_PUT(eb, "peer", peer);
		EB_PUT(eb, "tag", p->tag);
		EB_PUT(eb, "bytes", p->bytes);
		if (p->inst > 0)
			EB_PUT(eb, "comm", p->inst);
		ev->peer = peer;
		ev->tag = p->tag;
		ev->bytes = p->bytes;
		ev->comm = p->inst > 0 ? p->inst : 0;
		break;
	case TRC_WB:
	case TRC_WE:
		if (p->probe) {
			trc_eb_int(eb, "peer", peer);
			trc_eb_int(eb, "tag", p->tag);
			trc_eb_int(eb, "bytes", p->bytes);
			if (p->inst > 0)
				trc_eb_int(eb, "comm", p->inst);
		} else if (p->list && p->n > 0 && eb_reqs(eb, rk->ids + p->off,
		    p->n) < 0) {
			/* Longer than the room a list of any ids takes:
			 * made apart, to be measured. */
			if (grow(&d->sbuf, &d->capsbuf, (size_t)p->n * 21,
			    1) < 0)
				return nomem(d);
			for (s = d->sbuf, i = 0; i < p->n; i++) {
				if (i > 0)
					*s++ = ',';
				s += trc_format_int(s, rk->ids[p->off + i]);
			}
			trc_eb_str(eb, "req", d->sbuf, (size_t)(s - d->sbuf));
		}
		eb_op(d, eb, p->op);
		break;
	case TRC_XB:
	case TRC_XE:
		eb_op(d, eb, p->op);
		trc_eb_int(eb, "bytes", p->bytes);
		trc_eb_int(eb, "root", root);
		if (p->inst > 0)
			trc_eb_int(eb, "comm", p->inst);
		if (p->size) {
			if ((size = inst_size(d, p->inst)) > 0)
				trc_eb_int(eb, "size", size);
			else
				trc_drop(d->r, "size= of collectives on "
				    "communicators not known");
		}
		break;
	case TRC_MK:
		trc_eb_str(eb, "mark", p->mark, strlen(p->mark));
		break;
	case TRC_PB:
	case TRC_PE:
		len = p->n;
		trc_eb_str(eb, "fn", rk->str + p->off, len);
		break;
	}
	if (trc_eb_done(eb) < 0)
		return trc_fail_at(d->r, rk->path, p->line, "%s",
		    trc_eb_error(eb) ? trc_eb_error(eb) :
		    "event too long for the stream");
	ev->line = p->line;
	return 0;
}

static int
next(struct trc_reader *r, struct trc_event *ev)
{
	struct rd *d = trc_reader_state(r);
	struct hent x, *n;
	struct rank *rk;
	uint64_t xt, xr, yt, yr, ct, cr, m;
	int32_t i;

	if (d->nheap == 0)
		return 0;
	x = d->top;
	rk = &d->rk[x.leaf];
	if (build(d, rk, &rk->q[rk->qhead], ev) < 0)
		return -1;
	if (++rk->qhead == rk->qn && fill(d, rk) < 0)
		return -1;
	if (rk->qn == 0) {
		d->nheap--;
		hent_end(&x);
	} else {
		x.t = rk->q[rk->qhead].t;
		if (x.t == d->top.t)
			return 1;	/* still first: no replay */
	}
	/*
	 * Masks, not branches (which the compiler makes of ?:): who wins
	 * a match is a coin's toss to the branch predictor.  The key is
	 * moved as two words, t and rank with leaf.
	 */
	xt = (uint64_t)x.t;
	xr = (uint64_t)(uint32_t)x.rank | (uint64_t)(uint32_t)x.leaf << 32;
	for (i = (d->k + x.leaf) >> 1; i > 0; i >>= 1) {
		n = &d->tree[i];
		yt = (uint64_t)n->t;
		yr = (uint64_t)(uint32_t)n->rank |
		    (uint64_t)(uint32_t)n->leaf << 32;
		m = -(uint64_t)((n->t < (int64_t)xt) | ((n->t == (int64_t)xt) &
		    (n->rank < (int32_t)(uint32_t)xr)));
		ct = (xt ^ yt) & m;
		cr = (xr ^ yr) & m;
		n->t = (int64_t)(yt ^ ct);
		n->rank = (int32_t)(uint32_t)(yr ^ cr);
		n->leaf = (int32_t)((yr ^ cr) >> 32);
		xt ^= ct;
		xr ^= cr;
	}
	x.t = (int64_t)xt;
	x.rank = (int32_t)(uint32_t)xr;
	x.leaf = (int32_t)(xr >> 32);
	d->top = x;
	if (d->nheap > 0) {
		rk = &d->rk[x.leaf];
		/* The next event's, while this one is written: another
		 * rank's queue, out of cache as often as not.  The rank's
		 * first cache lines too, with the event's address kept
		 * apart so as not to wait for them, took the same time
		 * (2026-11-28, 15 runs in turns). */
		__builtin_prefetch(&rk->q[rk->qhead]);
	}
	return 1;
}

/* The tree of the ranks' first events: each match's loser kept, its
 * winner on to the next, from the leaves up.  w has 2k entries. */
static void
tree_make(struct rd *d, struct hent *w)
{
	struct rank *rk;
	int32_t i, k = d->k;

	for (i = 0; i < k; i++) {
		w[k + i].leaf = i;
		if (i < d->n && (rk = &d->rk[i])->qn > 0) {
			w[k + i].t = rk->q[0].t;
			w[k + i].rank = rk->rank;
			d->nheap++;
		} else
			hent_end(&w[k + i]);
	}
	for (i = k - 1; i > 0; i--)
		if (before(&w[2 * i + 1], &w[2 * i])) {
			w[i] = w[2 * i + 1];
			d->tree[i] = w[2 * i];
		} else {
			w[i] = w[2 * i];
			d->tree[i] = w[2 * i + 1];
		}
	d->top = w[1];
}

/* Opening ---------------------------------------------------------------- */

static void
rank_free(struct rank *rk)
{
	uint32_t i;

	free(rk->f.buf);
	trc_src_close(rk->src);
	free(rk->path);
	free(rk->q);
	free(rk->ids);
	free(rk->str);
	free(rk->rq);
	free(rk->rdir);
	for (i = 0; i < rk->groups.cap; i++)
		if (rk->groups.used[i])
			grp_free((struct grp *)(intptr_t)rk->groups.v[i]);
	imap_free(&rk->comms);
	imap_free(&rk->groups);
	imap_free(&rk->types);
	imap_free(&rk->reqs);
	imap_free(&rk->seq);
}

static void
rd_free(void *state)
{
	struct rd *d = state;
	int32_t i;

	if (d == NULL)
		return;
	for (i = 0; i < d->n; i++)
		rank_free(&d->rk[i]);
	free(d->rk);
	free(d->tree);
	for (i = 0; i < (int32_t)d->nsplits; i++) {
		free(d->splits[i]->r);
		free(d->splits[i]);
	}
	free(d->splits);
	for (i = 0; i < d->nin; i++) {
		free(d->in[i].m);
		free(d->in[i].dims);
		free(d->in[i].remain);
	}
	free(d->in);
	free(d->ck);
	free(d->iv);
	free(d->iv2);
	free(d->st);
	free(d->sbuf);
	free(d->done);
	free(d->sv);
	free(d->rv);
	free(d);
}

/*
 * The first MPI_Comm_rank and MPI_Comm_size of MPI_COMM_WORLD in a
 * file, looked for before its first communication.
 */
static int
prescan(struct rd *d, struct rank *rk, struct fbuf *f)
{
	struct block *b = &d->b;
	struct arg *a;
	const char *rest, *an;
	size_t alen;
	int64_t v;
	int i, rc, world;
	enum call c;

	rk->wrank = rk->wsize = -1;
	for (i = 0; i < PRESCAN_BLOCKS; i++) {
		if ((rc = read_block(d, f, b)) <= 0)
			return rc;
		c = lookup(d, b->name, b->nlen);
		if (strcmp(b->name, "MPI_Comm_rank") != 0 &&
		    strcmp(b->name, "MPI_Comm_size") != 0) {
			if (c != X_INIT && c != X_INIT_THREAD &&
			    c != X_OTHER && c != X_FUNC_ENTER &&
			    c != X_FUNC_EXIT)
				return 0;
			continue;
		}
		world = (a = arg(b, "comm")) != NULL &&
		    lead_int(val(b, a), &v, &rest) == 0 &&
		    (an = annotation(a, rest, &alen)) != NULL && alen == 14 &&
		    memcmp(an, "MPI_COMM_WORLD", 14) == 0;
		if (!world)
			continue;
		if (b->name[9] == 'r') {
			if (int_arg(d, rk, "rank", 0, &v) < 0)
				return -1;
			if (v < 0 || v > INT32_MAX)
				return bad_value(d, rk, arg(b, "rank"), "rank");
			rk->wrank = (int32_t)v;
			rk->wline = b->line0;
			if (rk->wsize >= 0)
				return 0;
		} else if (rk->wsize < 0) {
			if (int_arg(d, rk, "size", 0, &v) < 0)
				return -1;
			if (v <= 0 || v > INT32_MAX)
				return bad_value(d, rk, arg(b, "size"), "size");
			rk->wsize = (int32_t)v;
			if (rk->wrank >= 0)
				return 0;
		}
	}
	return 0;
}

/* Whether w is in s[0..n). */
static int
has(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w), i;

	for (i = 0; i + k <= n; i++)
		if (s[i] == w[0] && memcmp(s + i, w, k) == 0)
			return 1;
	return 0;
}

/*
 * Standard input cannot be read twice: its rank and world size from
 * the first MPI_Comm_rank and MPI_Comm_size of MPI_COMM_WORLD in its
 * first bytes, when they are there.
 */
static void
head_scan(const char *h, size_t n, int32_t *rank, int32_t *size)
{
	const char *e = h + n, *nl, *call = NULL;
	long v;
	int world = 0;

	for (; h < e; h = nl + 1) {
		if ((nl = memchr(h, '\n', (size_t)(e - h))) == NULL)
			break;
		if (strncmp(h, "MPI_Comm_rank entering ", 23) == 0 ||
		    strncmp(h, "MPI_Comm_size entering ", 23) == 0) {
			call = h;
			world = 0;
		} else if (call != NULL && strncmp(h, "MPI_Comm comm=", 14) == 0)
			world = has(h, (size_t)(nl - h), "(MPI_COMM_WORLD)");
		else if (call != NULL && world &&
		    (strncmp(h, "int rank=", 9) == 0 ||
		    strncmp(h, "int size=", 9) == 0)) {
			v = strtol(h + 9, NULL, 10);
			if (h[4] == 'r' && *rank < 0 && v >= 0 && v < INT32_MAX)
				*rank = (int32_t)v;
			if (h[4] == 's' && *size < 0 && v > 0 && v < INT32_MAX)
				*size = (int32_t)v;
			call = NULL;
		} else if (has(h, (size_t)(nl - h), RETURN))
			call = NULL;
	}
}

/* PREFIX-NNNN.EXT: where the digits are, or 0. */
static int
numbered(const char *base, size_t *dash, size_t *nd)
{
	size_t i, j;

	for (i = strlen(base); i-- > 0; ) {
		if (base[i] != '-')
			continue;
		for (j = i + 1; base[j] >= '0' && base[j] <= '9'; j++)
			;
		if (j > i + 1 && j - i - 1 <= 9 &&
		    (base[j] == '.' || base[j] == '\0')) {
			*dash = i;
			*nd = j - i - 1;
			return 1;
		}
	}
	return 0;
}

static char *
sibling(const char *dir, const char *base, size_t dash, size_t nd, long k)
{
	const char *ext = base + dash + 1 + nd;
	size_t n = strlen(dir) + dash + nd + strlen(ext) + 16;
	char *p;

	if ((p = malloc(n)) == NULL)
		return NULL;
	snprintf(p, n, "%s%.*s-%0*ld%s", dir, (int)dash, base, (int)nd, k,
	    ext);
	return p;
}

/*
 * The rank files of path: every PREFIX-NNNN.EXT in its folder with as
 * many digits, numbered from 0 without a gap; path alone when it has
 * no number or no file 0 exists.  *count files, names in *names.
 */
static int
rank_files(struct rd *d, const char *path, char ***names, int32_t *count)
{
	const char *slash = strrchr(path, '/'), *base, *ext, *s;
	char *dir, **v = NULL, *have = NULL;
	size_t dash, nd, dl, i;
	long k, max = -1;
	struct dirent *e;
	DIR *dp;

	base = slash ? slash + 1 : path;
	dl = (size_t)(base - path);
	if ((dir = malloc(dl + 1)) == NULL)
		return nomem(d);
	memcpy(dir, path, dl);
	dir[dl] = '\0';
	*count = 1;
	if (!numbered(base, &dash, &nd) ||
	    (dp = opendir(dl ? dir : ".")) == NULL)
		goto alone;
	ext = base + dash + 1 + nd;
	while ((e = readdir(dp)) != NULL) {
		s = e->d_name;
		if (strncmp(s, base, dash + 1) != 0)
			continue;
		for (s += dash + 1, i = 0; i < nd && s[i] >= '0' && s[i] <= '9';
		    i++)
			;
		if (i != nd || strcmp(s + nd, ext) != 0)
			continue;
		k = strtol(s, NULL, 10);
		if (k > max) {
			char *nh = realloc(have, (size_t)k + 1);

			if (nh == NULL) {
				closedir(dp);
				free(have);
				free(dir);
				return nomem(d);
			}
			memset(nh + max + 1, 0, (size_t)(k - max));
			have = nh;
			max = k;
		}
		have[k] = 1;
	}
	closedir(dp);
	if (max < 0 || !have[0]) {
		free(have);
		goto alone;
	}
	for (k = 0; k <= max; k++)
		if (!have[k]) {
			char *miss = sibling(dir, base, dash, nd, k);
			char *first = sibling("", base, dash, nd, 0);
			char *last = sibling("", base, dash, nd, max);

			if (miss && first && last)
				trc_fail_at(d->r, miss, 0, "rank file missing "
				    "(%s to %s found)", first, last);
			else
				nomem(d);
			free(miss);
			free(first);
			free(last);
			free(have);
			free(dir);
			return -1;
		}
	free(have);
	if ((v = calloc((size_t)max + 1, sizeof(*v))) == NULL) {
		free(dir);
		return nomem(d);
	}
	for (k = 0; k <= max; k++)
		if ((v[k] = sibling(dir, base, dash, nd, k)) == NULL) {
			while (k-- > 0)
				free(v[k]);
			free(v);
			free(dir);
			return nomem(d);
		}
	free(dir);
	*names = v;
	*count = (int32_t)max + 1;
	return 0;
alone:
	free(dir);
	if ((v = calloc(1, sizeof(*v))) == NULL ||
	    (v[0] = strdup(path)) == NULL) {
		free(v);
		return nomem(d);
	}
	*names = v;
	return 0;
}

/* Whether name is the reader's own file (the same path string). */
static int
same_file(const char *a, const char *b)
{
	return strcmp(a, b) == 0;
}

static int
open_dumpi(struct trc_reader *r, struct trc_src *src,
    const struct trc_open_opts *opts)
{
	struct trc_header *h = trc_reader_header(r);
	const char *path = trc_src_name(src);
	struct trc_src *ps;
	struct fbuf pf;
	const char *head;
	size_t hn;
	struct rank *rk;
	struct hent *w;
	struct rd *d;
	char **names = NULL;
	int32_t i, j, n = 0, nn = 0, wsize = -1, wfile = -1, stdin_;
	int rc = -1;

	(void)opts;
	if ((d = calloc(1, sizeof(*d))) == NULL)
		return -1;
	trc_reader_set_state(r, d);
	d->r = r;
	calls_index(d);
	stdin_ = strcmp(path, "<stdin>") == 0;
	if (stdin_) {
		if ((names = calloc(1, sizeof(*names))) == NULL)
			goto fail_nomem;
		nn = 1;
		if ((names[0] = strdup(path)) == NULL)
			goto fail_nomem;
		n = 1;
	} else if (rank_files(d, path, &names, &n) < 0)
		goto out;
	nn = n;
	for (d->fbuf = FBUF_BIG; d->fbuf > FBUF &&
	    (size_t)n * d->fbuf > FBUF_ALL; d->fbuf /= 2)
		;
	for (d->k = 1; d->k < n; d->k *= 2)
		;
	if ((d->rk = calloc((size_t)n, sizeof(*d->rk))) == NULL ||
	    (d->tree = calloc((size_t)d->k, sizeof(*d->tree))) == NULL)
		goto fail_nomem;
	d->n = n;
	for (i = 0; i < n; i++) {
		rk = &d->rk[i];
		rk->path = names[i];
		names[i] = NULL;
		rk->rank = i;
		rk->self = -1;
		rk->freerq = -1;
		rk->wrank = rk->wsize = -1;
	}
	/* World ranks and size, from each file's first calls. */
	for (i = 0; i < n && !stdin_; i++) {
		rk = &d->rk[i];
		if ((ps = trc_src_open(rk->path)) == NULL)
			goto fail_nomem;
		if (trc_src_error(ps) != NULL) {
			trc_fail_at(r, rk->path, 0, "%s", trc_src_error(ps));
			trc_src_close(ps);
			goto out;
		}
		memset(&pf, 0, sizeof(pf));
		pf.src = ps;
		pf.path = rk->path;
		rc = prescan(d, rk, &pf);
		free(pf.buf);
		trc_src_close(ps);
		if (rc < 0)
			goto out;
		rc = -1;
		if (rk->wsize >= 0 && wsize < 0) {
			wsize = rk->wsize;
			wfile = i;
		}
	}
	if (n > 1 && wsize >= 0 && wsize != n) {
		trc_fail_at(r, d->rk[wfile].path, 0, "MPI_COMM_WORLD has %d "
		    "ranks, %d rank files found", wsize, n);
		goto out;
	}
	if (n == 1 && d->rk[0].wrank >= 0) {
		/* A file alone: its rank of a world of wsize. */
		d->rk[0].rank = d->rk[0].wrank;
		n = wsize > d->rk[0].wrank ? wsize : d->rk[0].wrank + 1;
	} else
		for (i = 0; i < n; i++) {
			rk = &d->rk[i];
			if (rk->wrank < 0)
				continue;
			if (rk->wrank >= n) {
				trc_fail_at(r, rk->path, rk->wline, "rank %d "
				    "of MPI_COMM_WORLD out of range (%d rank "
				    "files)", rk->wrank, n);
				goto out;
			}
			rk->rank = rk->wrank;
		}
	for (i = 0; i < d->n; i++)
		for (j = i + 1; j < d->n; j++)
			if (d->rk[i].rank == d->rk[j].rank) {
				trc_fail_at(r, d->rk[j].path, d->rk[j].wline,
				    "rank %d of MPI_COMM_WORLD is also %s's",
				    d->rk[j].rank, d->rk[i].path);
				goto out;
			}
	if (stdin_) {
		head = (const char *)trc_src_head(src, &hn);
		head_scan(head, hn, &d->rk[0].wrank, &wsize);
		if (d->rk[0].wrank >= 0)
			d->rk[0].rank = d->rk[0].wrank;
		if (wsize > d->rk[0].rank)
			n = wsize;
	}
	/* Standard input may not tell its world's size: then no ranks=,
	 * and the size from MPI_Comm_size when it comes. */
	h->ranks = stdin_ && wsize <= d->rk[0].rank ? 0 : n;
	h->order = TRC_ORDER_TIME;
	/* The world. */
	if (inst_new(d, NULL, I_WORLD) != 0)
		goto fail_nomem;
	d->in[0].size = h->ranks > 0 ? n : -1;
	for (i = 0; i < d->n; i++) {
		rk = &d->rk[i];
		rk->f.path = rk->path;
		if (stdin_ || same_file(rk->path, path))
			rk->f.src = src;
		else if ((rk->f.src = rk->src = trc_src_open(rk->path)) ==
		    NULL)
			goto fail_nomem;
		else if (trc_src_error(rk->src) != NULL) {
			trc_fail_at(r, rk->path, 0, "%s",
			    trc_src_error(rk->src));
			goto out;
		}
	}
	for (i = 0; i < d->n; i++) {
		rk = &d->rk[i];
		if (fill(d, rk) < 0)
			goto out;
	}
	if ((w = calloc(2 * (size_t)d->k, sizeof(*w))) == NULL)
		goto fail_nomem;
	tree_make(d, w);
	free(w);
	rc = 0;
	goto out;
fail_nomem:
	trc_fail_at(r, path, 0, "out of memory");
out:
	if (names != NULL) {
		for (i = 0; i < nn; i++)
			free(names[i]);
		free(names);
	}
	return rc;
}

/*
 * dumpi2ascii's first line is a call entering: "MPI_Init entering at
 * walltime ..." (or a header with -H, then such a line).
 */
static int
bid(const char *path, const unsigned char *head, size_t n)
{
	const char *s = (const char *)head, *end = s + n, *nl, *sp;
	int lines;

	(void)path;
	for (lines = 0; s < end && lines < 16; lines++, s = nl + 1) {
		if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
			nl = end;
		sp = memchr(s, ' ', (size_t)(nl - s));
		if (sp != NULL && (size_t)(nl - sp) > strlen(ENTER) &&
		    memcmp(sp, ENTER, strlen(ENTER)) == 0 &&
		    memchr(sp, ',', (size_t)(nl - sp)) != NULL)
			return 90;
	}
	return 0;
}

const struct trc_format trc_format_dumpi = {
	.name = "dumpi",
	.bid = bid,
	.open = open_dumpi,
	.next = next,
	.close = rd_free,
};
