/*
 * trcb.c - the binary stream (trc-formats(5), TRCB): the text stream's
 * events in blocks of varints, byte by byte as the man page says.
 *
 * Each block stands alone (its strings, its per-rank times), so that a
 * reader can skip one from its header alone, and so that memory is a
 * block and a little per rank, never the trace.  Within a block an
 * event's time is a delta from its rank's previous event, and its
 * attributes are coded against the previous event of the same rank
 * and kind: in a loop most events repeat them (mode SAME) or change a
 * value or two (mode VALUES), which is where the size goes.  Values
 * that the text would write back differently (not canonical decimals)
 * are kept as strings, so trc -> trcb -> trc gives the same bytes.
 *
 * A block's events are grouped by rank, each with its place in the
 * stream: a reader that needs each rank's order only (trc-sum, by
 * rank) takes one rank's at a time, its state and the caller's for
 * that rank in the caches; a reader of the stream (trc_next) puts them
 * back in order by their places.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "fmt.h"
#include "../trcb.h"
#include "../summary_add.h"

#define MAGIC		"\211TRCB\r\n\032"
#define MAGICLEN	8
/* 1: two slots per kind, CRC-32; 2: blocks of 64 Ki events at most;
 * 3: blocks of up to 1 Mi events, in stream order; 4: each block's
 * events grouped by rank, its strings up front; 5: mode values says
 * which values it codes (a mask), not each value of the slot */
#define VERSION		5
#define ENDMAGIC	"TRCBEND\n"
/*
 * A block holds up to RANK_EVENTS events a rank, so that each rank's
 * attribute lists, stated again at a block's start (mode keys), are a
 * few of its events however many ranks share the block: at least
 * BLOCK_EVENTS, at most BLOCK_EVENTS_MAX.  It is closed past
 * BLOCK_BYTES bytes of code an event (16 MiB at most).  On 512 ranks,
 * blocks of 64 Ki events stated a sixth of the events again.  2048
 * rather than 1024: a by-rank reader's run then holds twice as many
 * events for its one restatement (trc-sum 11 to 15% faster on halo, on
 * 64 ranks as on 512), which costs stream-order readers, whose block
 * no longer stays in a 1 MiB L2 on 64 ranks, up to 5% (trc-formats(5)).
 */
#define RANK_EVENTS	2048
#define BLOCK_EVENTS	65536
#define BLOCK_EVENTS_MAX (1 << 20)
#define BLOCK_BYTES	16
/* One event's code, at most: its text is at most TRC_MAXLINE, and a
 * list element of 2 bytes of text ("0,") codes in 10 at worst. */
#define EVENT_MAX	(6 * TRC_MAXLINE)
/* The code of a block of at most ev events, at most: a writer's first
 * buffer (RAW_FIRST), and what a reader takes (RAW_MAX). */
#define RAW_FOR(ev)	((uint64_t)(ev) * BLOCK_BYTES + EVENT_MAX)
#define RAW_FIRST	RAW_FOR(BLOCK_EVENTS)
#define RAW_MAX		RAW_FOR(BLOCK_EVENTS_MAX)
#define MAXEXTRA	(1 << 20)
/* Zero bytes after a block's code, so that a reader may look a few
 * bytes past an event before it knows where the event ends. */
#define PAD		16
/* No place: a run before its first event, a reader with no error. */
#define NO_PLACE	UINT32_MAX
#define INBUF		65536		/* a reader's buffer of input */
#define ZSTD_LEVEL	3
/* Attribute lists kept per rank and kind: a loop's few forms of an
 * event (the receives from each neighbour) each keep their own, so
 * that most events repeat one whole (mode SAME) and cost no decoding. */
#define NSLOTS		8
/* The index of slot which of kind k in struct rstate: the slots 0 of
 * every kind, what most events use, side by side in two cache lines
 * rather than one line each (a rank's pointers are 704 bytes). */
#define SLOT(k, which)	((which) * TRC_NKINDS + (k))
/* Events decoded ahead for a caller of fields only (r_next_usual,
 * r_run_usual). */
#define QUEUE		256

enum { CODEC_RAW, CODEC_ZSTD };
enum { MODE_NONE, MODE_SAME, MODE_VALUES, MODE_KEYS };
/* V_SAME, 0: version 4's value as the slot predicts it, no longer
 * coded (mode values' mask says which values are). */
enum { V_SAME, V_INT, V_ANY, V_REF, V_NEW, V_BIGINT, V_LIST };
#define LIST_MAX	(TRC_MAXLINE / 2)	/* elements of a list, at most */
/* The attributes the reader parses into fields; K_NOKEY, a string that
 * is no key (empty, or with '='), in the reader's table of codes. */
enum { K_OTHER, K_PEER, K_TAG, K_COMM, K_ROOT, K_BYTES, K_REQ, K_FN, K_OP,
	K_NOKEY };

/*
 * A value as coded: an integer, "*", a string of the block or a list
 * of integers ("4,5,6,7", the req= of a wait).  What a reader of
 * fields reads first (i, type, code) in front.  The reader keeps a
 * value's text apart (struct slot's txt).  In a slot, an integer or
 * a list has a step: what it last moved by (every element of a list
 * by the same), which the next event of the slot is predicted to
 * move by again (a request id, an iteration number).
 */
struct val {
	int64_t		 i;
	unsigned char	 type;		/* V_INT, V_ANY, V_REF, V_LIST */
	unsigned char	 code;		/* reader: K_* of the key */
	uint16_t	 ln, lcap;	/* V_LIST: at most LIST_MAX */
	/* reader: an integer's largest value valid in its field,
	 * UINT64_MAX >> lim (int_field_ok's; set with the key) */
	unsigned char	 lim;
	int32_t		 key;
	int32_t		 sid;
	int64_t		*lv;		/* V_LIST */
	int64_t		 step;		/* in a slot */
};

/* The reader's text of a value, which only a caller of text needs. */
struct vtext {
	char		*s;
	size_t		 cap;
};

/*
 * The previous event of one rank and kind in this block: what the next
 * one is coded against.  The reader also keeps its text and fields,
 * which an event of mode SAME takes as they are.  One allocation holds
 * the slot and its values, what decoding an event reads, in a few
 * adjacent cache lines rather than three scattered blocks; the text
 * (attr, txt) is apart, untouched by a caller of fields only.
 */
struct slot {
	uint32_t	 gen;		/* the block it belongs to */
	uint32_t	 used;		/* writer: when last used */
	uint32_t	 queued;	/* reader: the batch that queued it */
	uint32_t	 qfirst;	/* reader, by rank: from which event */
	/* reader: bit i, value i sets a field the caller may read (not
	 * an unknown key, nor one no_match leaves unread): a slot
	 * queued may change in the others. */
	uint32_t	 visible;
	int		 n, cap;
	int		 dupknown;	/* reader: a known key twice */
	uint32_t	 stepping;	/* reader: bit i, v[i].step != 0 */
	/* reader: of those, the integers whose field step_fields sets
	 * (neither a label nor an operation, no key twice) */
	uint32_t	 stepfast;
	/* reader: events of mode same whose steps were put off (their
	 * fields the caller's never read): the values of stepping are
	 * each pending steps behind, which slot_settle makes good before
	 * anything reads them; safe, how many may be put off with no
	 * value leaving its field's range (0: not known; step_defer). */
	uint32_t	 pending, safe;
	/* The event's fields, as struct trc_event lays them out, so that
	 * they are copied whole (fields_copy) or pointed at (the briefs of
	 * r_next_usual and r_run_usual). */
	struct trc_fields f;
	/*
	 * reader, for a caller of fields only (values_int): whether every
	 * value is an integer, of no label nor operation, no key twice,
	 * eight at most; then which values are of a field of 32 bits
	 * (peer tag comm root) or 64 (bytes req), and of those the ones
	 * the caller reads (visible), each the field sel[i] of the four
	 * or the two (field32, field64).
	 */
	unsigned char	 intok, m32, m64, v32, v64;
	unsigned char	 sel[8];
	struct trc_attr	*attr;		/* reader */
	struct vtext	*txt;		/* reader */
	struct val	 v[];		/* cap of them */
};

_Static_assert(sizeof(struct trc_fields) == 80, "fields_copy copies 80 bytes");

struct rstate {
	uint32_t	 gen;		/* last_t belongs to this block */
	int64_t		 last_t;
	struct slot	*slot[NSLOTS * TRC_NKINDS];
	uint32_t	 clock;		/* writer: the slots' use, in order */
	/* writer: the rank's first and last event in the block, how many
	 * and their code as stored but the first's time (w_block) */
	uint32_t	 first, last, count, bytes;
};

static void
slot_free(struct slot *s)
{
	int i;

	if (s == NULL)
		return;
	for (i = 0; i < s->cap; i++) {
		free(s->v[i].lv);
		if (s->txt != NULL)
			free(s->txt[i].s);
	}
	free(s->txt);
	free(s->attr);
	free(s);
}

/* The states of ranks below n, the only ones made (rank_state): a
 * page's others, never touched, stay so (a page is 1024 ranks, 720
 * KiB, where a trace has 64). */
static void
ranks_free(struct trc_pages *p, size_t n)
{
	struct rstate *rs;
	size_t pg, i;
	int k;

	for (pg = 0; pg < p->npg; pg++)
		for (i = 0; p->pg[pg] != NULL && i < TRC_PAGE &&
		    pg * TRC_PAGE + i < n; i++) {
			rs = (struct rstate *)p->pg[pg] + i;
			for (k = 0; k < NSLOTS * TRC_NKINDS; k++)
				slot_free(rs->slot[k]);
		}
	trc_pages_free(p);
}

/* Room for n list elements, the old ones kept: 0 or -1. */
static int
list_room(struct val *v, size_t n)
{
	int64_t *p;

	if (n <= v->lcap)
		return 0;
	if ((p = realloc(v->lv, n * sizeof(*p))) == NULL)
		return -1;
	v->lv = p;
	v->lcap = (uint16_t)n;
	return 0;
}

#ifndef TRCB_WRITER_ONLY
/* Room for n bytes of text: 0 or -1. */
static int
text_room(struct vtext *v, size_t n)
{
	char *p;

	if (n <= v->cap)
		return 0;
	if (n < 32)
		n = 32;
	if ((p = realloc(v->s, n)) == NULL)
		return -1;
	v->s = p;
	v->cap = n;
	return 0;
}
#endif

/* A slot's value moved on by its step (modulo 2^64, as differences). */
static inline void
val_advance(struct val *v)
{
	uint32_t j;

	if (v->type == V_INT)
		v->i = (int64_t)((uint64_t)v->i + (uint64_t)v->step);
	else
		for (j = 0; j < v->ln; j++)
			v->lv[j] = (int64_t)((uint64_t)v->lv[j] +
			    (uint64_t)v->step);
}

/* The step of new value v after old (a slot's value): 0 but between
 * two integers, or two lists as long whose elements all moved alike. */
static int64_t
val_step(const struct val *v, const struct val *old)
{
	int64_t d;
	uint32_t j;

	if (v->type == V_INT && old->type == V_INT)
		return (int64_t)((uint64_t)v->i - (uint64_t)old->i);
	if (v->type != V_LIST || old->type != V_LIST || v->ln != old->ln)
		return 0;
	d = (int64_t)((uint64_t)v->lv[0] - (uint64_t)old->lv[0]);
	for (j = 1; j < v->ln; j++)
		if ((int64_t)((uint64_t)v->lv[j] - (uint64_t)old->lv[j]) != d)
			return 0;
	return d;
}

static int
val_equal(const struct val *a, const struct val *b)
{
	if (a->type != b->type)
		return 0;
	switch (a->type) {
	case V_INT:
		return a->i == b->i;
	case V_REF:
		return a->sid == b->sid;
	case V_LIST:
		return a->ln == b->ln &&
		    memcmp(a->lv, b->lv, a->ln * sizeof(a->lv[0])) == 0;
	}
	return 1;
}

/* Whether v is what the slot's value old predicts: old moved by its
 * step. */
static int
val_predicted(const struct val *v, const struct val *old)
{
	uint32_t j;

	if (old->step == 0)
		return val_equal(v, old);
	if (v->type != old->type)
		return 0;
	if (v->type == V_INT)
		return (uint64_t)v->i == (uint64_t)old->i + (uint64_t)old->step;
	if (v->ln != old->ln)
		return 0;
	for (j = 0; j < v->ln; j++)
		if ((uint64_t)v->lv[j] != (uint64_t)old->lv[j] +
		    (uint64_t)old->step)
			return 0;
	return 1;
}

/*
 * The state of rank r, made zeroed when new; NULL when out of memory.
 * In pages (trc_pages): memory by the ranks present, not the largest.
 */
static inline struct rstate *
rank_state(struct trc_pages *p, int32_t r, size_t *n)
{
	struct rstate *rs;

	if ((size_t)r >= *n)
		*n = (size_t)r + 1;	/* for ranks_free */
	if ((rs = trc_pages_at(p, (size_t)r)) != NULL)
		return rs;
	p->elsize = sizeof(struct rstate);
	return trc_pages_get(p, (size_t)r);
}

/* The slot of a rank and kind with room for n values, or NULL. */
static struct slot *
slot_get(struct rstate *rs, int k, int n, int reader)
{
	struct slot *s = rs->slot[k];
	size_t size;
	int cap;

	if (s != NULL && n <= s->cap)
		return s;
	/* Made anew: a slot that grows holds nothing worth keeping. */
	slot_free(s);
	rs->slot[k] = NULL;
	cap = n < 4 ? 4 : n;
	/* On a cache line's start, so that a slot of four values (what
	 * most events have) spans five lines (320 bytes), not six. */
	size = (sizeof(*s) + (size_t)cap * sizeof(s->v[0]) + 63) & ~(size_t)63;
	if ((s = aligned_alloc(64, size)) == NULL)
		return NULL;
	memset(s, 0, size);
	if (reader && ((s->attr = calloc((size_t)cap,
	    sizeof(*s->attr))) == NULL || (s->txt = calloc((size_t)cap,
	    sizeof(*s->txt))) == NULL)) {
		slot_free(s);
		return NULL;
	}
	s->cap = cap;
	rs->slot[k] = s;
	return s;
}

/*
 * A block's checksum (trc-formats(5)): the stored bytes as 64-bit
 * little-endian words, the last padded with zeros; a is their sum and
 * b the sum of a after each word, both modulo 2^64 (Fletcher's sums,
 * a word wide); the checksum is a ^ b folded to 32 bits.  A byte
 * changed changes a, two words swapped change b, and it costs two
 * additions every 8 bytes where CRC-32 cost a table look-up a byte.
 */
uint32_t
trcb_checksum(const unsigned char *p, size_t n)
{
	uint64_t a = 0, b = 0, w;
	size_t i, k;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
#if !(defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
		for (w = 0, k = 8; k-- > 0;)
			w = w << 8 | p[i + k];
#endif
		a += w;
		b += a;
	}
	if (i < n) {
		for (w = 0, k = n - i; k-- > 0;)
			w = w << 8 | p[i + k];
		a += w;
		b += a;
	}
	a ^= b;
	return (uint32_t)a ^ (uint32_t)(a >> 32);
}

static size_t
put_uvarint(unsigned char *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (unsigned char)v;
	return n;
}

static uint64_t
zig(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

#ifndef TRCB_WRITER_ONLY
static int64_t
unzig(uint64_t u)
{
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}
#endif

#ifndef TRCB_WRITER_ONLY
static int
key_code(const char *s, size_t len)
{
	switch (len) {
	case 2:
		return memcmp(s, "fn", 2) == 0 ? K_FN :
		    memcmp(s, "op", 2) == 0 ? K_OP : K_OTHER;
	case 3:
		return memcmp(s, "tag", 3) == 0 ? K_TAG :
		    memcmp(s, "req", 3) == 0 ? K_REQ : K_OTHER;
	case 4:
		return memcmp(s, "peer", 4) == 0 ? K_PEER :
		    memcmp(s, "comm", 4) == 0 ? K_COMM :
		    memcmp(s, "root", 4) == 0 ? K_ROOT : K_OTHER;
	case 5:
		return memcmp(s, "bytes", 5) == 0 ? K_BYTES : K_OTHER;
	}
	return K_OTHER;
}
#endif

/* ---- Writer ---- */

struct ientry {
	uint64_t	 off;
	uint32_t	 nev;
	int64_t		 tmin, tmax;
	int32_t		 rlo, rhi;
};

/* An event of the block being filled: its time, where its code (head,
 * slot, attributes) lies in raw, and the next event of its rank. */
struct wev {
	int64_t		 t;
	uint32_t	 off, len;
	uint32_t	 next;
};

struct trcb_writer {
	int		 fd;
	char		*name;
	int		 zstd;
	uint64_t	 off;		/* bytes written */
	/* The events' code in stream order, then the block as stored:
	 * its strings, its runs, each rank's events with their places
	 * and times. */
	unsigned char	*raw, *out;
	size_t		 rawlen, rawcap, outcap;
	struct wev	*ev;
	int32_t		*ranks_in;	/* the block's ranks */
	size_t		 nranks_in, capranks_in;
	/* The block's size as stored, at most: closed past BLOCK_BYTES
	 * of it an event. */
	uint64_t	 size;
	uint32_t	 ranks;		/* ranks seen */
	/* A block's events, at most; it is closed past BLOCK_BYTES of
	 * code each too. */
	uint32_t	 maxev;
	unsigned char	*zbuf;
	size_t		 zcap;
	ZSTD_CCtx	*cctx;
	struct trc_intern strs;
	int32_t		 nsized;	/* strings counted in size */
	uint32_t	 gen;
	uint32_t	 nev;
	int64_t		 tmin, tmax;
	int32_t		 rlo, rhi;
	struct trc_pages rs;		/* struct rstate, by rank */
	size_t		 nrs;		/* ranks below it have one */
	struct ientry	*index;
	size_t		 nindex, capindex;
	int64_t		*ltmp;		/* the lists of the event at hand */
	int		 failed;
	char		 err[256];
};

static int
w_fail(struct trcb_writer *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int
w_fail(struct trcb_writer *w, const char *fmt, ...)
{
	va_list ap;

	if (w->failed)
		return -1;
	va_start(ap, fmt);
	vsnprintf(w->err, sizeof(w->err), fmt, ap);
	va_end(ap);
	w->failed = 1;
	return -1;
}

void
trcb_wfree(struct trcb_writer *w)
{
	if (w == NULL)
		return;
	free(w->name);
	free(w->raw);
	free(w->out);
	free(w->ev);
	free(w->ranks_in);
	free(w->zbuf);
	ZSTD_freeCCtx(w->cctx);
	trc_intern_free(&w->strs);
	ranks_free(&w->rs, w->nrs);
	free(w->index);
	free(w->ltmp);
	free(w);
}

static int
w_bytes(struct trcb_writer *w, const void *buf, size_t n)
{
	const char *p = buf;
	ssize_t k;

	while (n > 0) {
		k = write(w->fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return w_fail(w, "%s: write error: %s", w->name,
			    k < 0 ? strerror(errno) : "short write");
		p += k;
		n -= (size_t)k;
		w->off += (uint64_t)k;
	}
	return 0;
}

/* The block's event arrays for maxev events: 0, or -1. */
static int
w_room(struct trcb_writer *w)
{
	struct wev *ev;

	if ((ev = realloc(w->ev, w->maxev * sizeof(*ev))) == NULL)
		return -1;
	w->ev = ev;
	return 0;
}

/*
 * A writer of the binary stream on fd, named name in messages: NULL
 * only when out of memory.  An error is kept (trcb_werror) and
 * returned by the first call that fails.
 */
struct trcb_writer *
trcb_wopen(int fd, const char *name, const struct trc_header *h, int zstd)
{
	unsigned char head[32];
	struct trcb_writer *w;
	size_t n = 0;

	if ((w = calloc(1, sizeof(*w))) == NULL)
		return NULL;
	w->fd = fd;
	w->zstd = zstd;
	/* Grown as the ranks call for larger blocks. */
	w->rawcap = RAW_FIRST;
	w->maxev = BLOCK_EVENTS;
	if ((w->name = strdup(name)) == NULL ||
	    (w->raw = malloc(w->rawcap)) == NULL || w_room(w) < 0 ||
	    (w->ltmp = malloc(LIST_MAX * sizeof(*w->ltmp))) == NULL) {
		trcb_wfree(w);
		return NULL;
	}
	if (zstd && (w->cctx = ZSTD_createCCtx()) == NULL) {
		trcb_wfree(w);
		return NULL;
	}
	if (h->extra.len > MAXEXTRA) {
		w_fail(w, "%s: header longer than %d bytes", w->name, MAXEXTRA);
		return w;
	}
	memcpy(head, MAGIC, MAGICLEN);
	n = MAGICLEN;
	head[n++] = VERSION;
	head[n++] = 0;			/* flags */
	n += put_uvarint(head + n, (uint64_t)(h->ranks > 0 ? h->ranks : 0));
	head[n++] = (unsigned char)h->order;
	n += put_uvarint(head + n, h->extra.len);
	if (w_bytes(w, head, n) == 0)
		w_bytes(w, h->extra.s, h->extra.len);
	return w;
}

const char *
trcb_werror(const struct trcb_writer *w)
{
	return w->err;
}

static size_t
uvarint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static int
cmp_int32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/*
 * The block's code as stored, into out: its strings, then its runs
 * (each rank's count and size, then each rank's events, a place, the
 * head and slot, a time and the attributes).  Its length.
 */
static size_t
w_block(struct trcb_writer *w)
{
	unsigned char *p = w->out;
	const struct wev *e;
	struct rstate *rs;
	uint32_t i, prev;
	int64_t last;
	size_t k, len, hl;
	int32_t j;

	p += put_uvarint(p, (uint64_t)w->strs.n);
	for (j = 0; j < w->strs.n; j++) {
		len = strlen(w->strs.name[j]);
		p += put_uvarint(p, len);
		memcpy(p, w->strs.name[j], len);
		p += len;
	}
	qsort(w->ranks_in, w->nranks_in, sizeof(*w->ranks_in), cmp_int32);
	p += put_uvarint(p, w->nranks_in);
	/* The run table: each rank's first time is after the block's
	 * least, known only now. */
	for (k = 0; k < w->nranks_in; k++) {
		rs = trc_pages_at(&w->rs, (size_t)w->ranks_in[k]);
		p += put_uvarint(p, (uint64_t)w->ranks_in[k]);
		p += put_uvarint(p, rs->count);
		p += put_uvarint(p, rs->bytes + uvarint_len(zig((int64_t)
		    ((uint64_t)w->ev[rs->first].t - (uint64_t)w->tmin))));
	}
	for (k = 0; k < w->nranks_in; k++) {
		rs = trc_pages_at(&w->rs, (size_t)w->ranks_in[k]);
		last = w->tmin;
		for (prev = 0, i = rs->first;; i = e->next) {
			e = &w->ev[i];
			/* The head, then the place unless it follows the
			 * rank's event before (bit 6), the slot, the time. */
			*p++ = (unsigned char)(w->raw[e->off] |
			    (i == prev ? 0x40 : 0));
			if (i != prev)
				p += put_uvarint(p, i - prev);
			hl = w->raw[e->off] & 0x80 ? 2 : 1;
			if (hl == 2)
				*p++ = w->raw[e->off + 1];
			p += put_uvarint(p, zig((int64_t)((uint64_t)e->t -
			    (uint64_t)last)));
			memcpy(p, w->raw + e->off + hl, e->len - hl);
			p += e->len - hl;
			prev = i + 1;
			last = e->t;
			if (i == rs->last)
				break;
		}
	}
	return (size_t)(p - w->out);
}

/* Writes the block being filled, if any, and starts a new one. */
static int
w_flush(struct trcb_writer *w)
{
	unsigned char head[80];
	const unsigned char *stored;
	struct ientry *e;
	size_t n = 0, slen, rawlen, zn;
	uint32_t crc;
	int codec = CODEC_RAW;

	if (w->nev == 0)
		return 0;
	if (w->outcap < w->size) {
		free(w->out);
		if ((w->out = malloc(w->size)) == NULL) {
			w->outcap = 0;
			return w_fail(w, "out of memory");
		}
		w->outcap = w->size;
	}
	stored = w->out;
	slen = rawlen = w_block(w);
	if (w->zstd) {
		if (w->zcap < ZSTD_compressBound(rawlen)) {
			free(w->zbuf);
			w->zcap = ZSTD_compressBound(rawlen);
			if ((w->zbuf = malloc(w->zcap)) == NULL) {
				w->zcap = 0;
				return w_fail(w, "out of memory");
			}
		}
		zn = ZSTD_compressCCtx(w->cctx, w->zbuf, w->zcap, w->out,
		    rawlen, ZSTD_LEVEL);
		if (ZSTD_isError(zn))
			return w_fail(w, "%s: zstd: %s", w->name,
			    ZSTD_getErrorName(zn));
		if (zn < rawlen) {
			codec = CODEC_ZSTD;
			stored = w->zbuf;
			slen = zn;
		}
	}
	if (w->nindex == w->capindex) {
		w->capindex = w->capindex ? 2 * w->capindex : 64;
		if ((e = realloc(w->index, w->capindex * sizeof(*e))) == NULL)
			return w_fail(w, "out of memory");
		w->index = e;
	}
	e = &w->index[w->nindex++];
	e->off = w->off;
	e->nev = w->nev;
	e->tmin = w->tmin;
	e->tmax = w->tmax;
	e->rlo = w->rlo;
	e->rhi = w->rhi;
	head[n++] = 'B';
	n += put_uvarint(head + n, w->nev);
	n += put_uvarint(head + n, rawlen);
	head[n++] = (unsigned char)codec;
	n += put_uvarint(head + n, slen);
	n += put_uvarint(head + n, zig(w->tmin));
	n += put_uvarint(head + n, (uint64_t)w->tmax - (uint64_t)w->tmin);
	n += put_uvarint(head + n, (uint64_t)w->rlo);
	n += put_uvarint(head + n, (uint64_t)(w->rhi - w->rlo));
	crc = trcb_checksum(stored, slen);
	head[n++] = (unsigned char)crc;
	head[n++] = (unsigned char)(crc >> 8);
	head[n++] = (unsigned char)(crc >> 16);
	head[n++] = (unsigned char)(crc >> 24);
	if (w_bytes(w, head, n) < 0 || w_bytes(w, stored, slen) < 0)
		return -1;
	w->nev = 0;
	w->rawlen = 0;
	w->nranks_in = 0;
	trc_intern_free(&w->strs);
	w->nsized = 0;
	return 0;
}

/* An integer as trc_format_int writes it back: 0, or -1. */
static int
canonical_int(const char *s, size_t len, int64_t *i)
{
	char num[24];

	return len > 0 && len < 21 && trc_parse_int(s, len, i) == 0 &&
	    trc_format_int(num, *i) == len && memcmp(num, s, len) == 0 ? 0 : -1;
}

/*
 * Classifies a value as the reader will rebuild it, lists into
 * ltmp + *lused; -1 on a NUL byte, -2 when out of memory.
 */
static int
w_value(struct trcb_writer *w, const struct trc_str *s, struct val *v,
    size_t *lused)
{
	const char *p, *end = s->s + s->len, *comma;
	size_t n = 0;

	if (s->len == 1 && s->s[0] == '*') {
		v->type = V_ANY;
		return 0;
	}
	if (canonical_int(s->s, s->len, &v->i) == 0) {
		v->type = V_INT;
		return 0;
	}
	if (s->len > 2 && memchr(s->s, ',', s->len) != NULL) {
		v->lv = w->ltmp + *lused;
		for (p = s->s; p <= end; p = comma + 1) {
			if ((comma = memchr(p, ',', (size_t)(end - p))) == NULL)
				comma = end;
			if (*lused + n == LIST_MAX ||
			    canonical_int(p, (size_t)(comma - p), &v->lv[n]) < 0)
				break;
			n++;
			if (comma == end) {
				v->type = V_LIST;
				v->ln = (uint16_t)n;
				*lused += n;
				return 0;
			}
		}
	}
	v->type = V_REF;
	if (memchr(s->s, '\0', s->len) != NULL)
		return -1;
	return (v->sid = trc_intern(&w->strs, s->s, s->len)) < 0 ? -2 : 0;
}

/* String sid, of the block's table, as shift bits over type_ref. */
static unsigned char *
w_string(unsigned char *p, int32_t sid, int shift, unsigned type_ref)
{
	return p + put_uvarint(p, ((uint64_t)sid << shift) | type_ref);
}

static unsigned char *
w_val(unsigned char *p, const struct val *v, const struct val *old)
{
	uint64_t u;
	int64_t base;
	uint32_t j;

	switch (v->type) {
	case V_INT:
		u = zig((int64_t)((uint64_t)v->i - (uint64_t)(old != NULL &&
		    old->type == V_INT ? old->i : 0)));
		if (u < ((uint64_t)1 << 60))
			return p + put_uvarint(p, u << 3 | V_INT);
		*p++ = V_BIGINT;
		return p + put_uvarint(p, u);
	case V_ANY:
		*p++ = V_ANY;
		return p;
	case V_LIST:
		/* Each element against the old list's, else the one before. */
		p += put_uvarint(p, (uint64_t)v->ln << 3 | V_LIST);
		for (j = 0; j < v->ln; j++) {
			base = old != NULL && old->type == V_LIST && j < old->ln ?
			    old->lv[j] : j > 0 ? v->lv[j - 1] : 0;
			p += put_uvarint(p, zig((int64_t)((uint64_t)v->lv[j] -
			    (uint64_t)base)));
		}
		return p;
	default:
		return w_string(p, v->sid, 3, V_REF);
	}
}

/* The slot takes the event's values, those it predicted by moving on,
 * the others with their new steps (none after mode keys): 0, or -1
 * when out of memory. */
static int
w_keep(struct slot *sl, const struct val *v, int n, int keys)
{
	int64_t step;
	int i;

	for (i = 0; i < n; i++) {
		if (!keys && val_predicted(&v[i], &sl->v[i])) {
			val_advance(&sl->v[i]);
			continue;
		}
		step = keys ? 0 : val_step(&v[i], &sl->v[i]);
		sl->v[i].step = step;
		sl->v[i].key = v[i].key;
		sl->v[i].type = v[i].type;
		sl->v[i].sid = v[i].sid;
		sl->v[i].i = v[i].i;
		if (v[i].type == V_LIST) {
			if (list_room(&sl->v[i], v[i].ln) < 0)
				return -1;
			memcpy(sl->v[i].lv, v[i].lv, v[i].ln * sizeof(v[i].lv[0]));
			sl->v[i].ln = v[i].ln;
		}
	}
	sl->n = n;
	return 0;
}

int
trcb_write(struct trcb_writer *w, const struct trc_event *ev)
{
	struct val v[TRC_MAXATTR];
	struct rstate *rs;
	struct slot *sl;
	struct wev *e;
	unsigned char *p;
	size_t lused = 0, textlen = 0, len;
	uint64_t mask;
	int i, mode, rc, which, best, free_, changed, fewest;

	if (w->failed)
		return -1;
	if (ev->nattr < 0 || ev->nattr > TRC_MAXATTR ||
	    (unsigned)ev->kind >= TRC_NKINDS || ev->rank < 0)
		return w_fail(w, "%s: invalid event", w->name);
	if ((rs = rank_state(&w->rs, ev->rank, &w->nrs)) == NULL)
		return w_fail(w, "out of memory");
	/* A rank not seen before (no block has it): room for more events
	 * a block. */
	if (rs->gen == 0 && w->ranks < BLOCK_EVENTS_MAX / RANK_EVENTS &&
	    ++w->ranks * RANK_EVENTS > w->maxev) {
		w->maxev = w->ranks * RANK_EVENTS;
		if (w_room(w) < 0)
			return w_fail(w, "out of memory");
	}
	/* Room for the event's code, grown as the blocks grow. */
	if (w->rawcap < w->rawlen + EVENT_MAX) {
		unsigned char *raw;
		size_t cap = 2 * w->rawcap;

		if (cap > RAW_MAX)
			cap = RAW_MAX;
		if ((raw = realloc(w->raw, cap)) == NULL)
			return w_fail(w, "out of memory");
		w->raw = raw;
		w->rawcap = cap;
	}
	if (w->nev == 0) {
		w->gen++;
		w->tmin = w->tmax = ev->t;
		w->rlo = w->rhi = ev->rank;
		w->size = 10;		/* the counts of strings and runs */
	}
	for (i = 0; i < ev->nattr; i++) {
		textlen += ev->attr[i].key.len + ev->attr[i].val.len + 2;
		if (textlen > TRC_MAXLINE)
			return w_fail(w, "%s: event longer than "
			    "%d bytes", w->name, TRC_MAXLINE);
		if (ev->attr[i].key.len == 0 ||
		    memchr(ev->attr[i].key.s, '\0', ev->attr[i].key.len) != NULL)
			rc = -1;
		else if ((v[i].key = trc_intern(&w->strs, ev->attr[i].key.s,
		    ev->attr[i].key.len)) < 0)
			rc = -2;
		else
			rc = w_value(w, &ev->attr[i].val, &v[i], &lused);
		if (rc == -1)
			return w_fail(w, "%s: invalid attribute on an "
			    "event at time %lld", w->name, (long long)ev->t);
		if (rc < 0)
			return w_fail(w, "out of memory");
	}

	/*
	 * Against the slot of this rank and kind with the same keys and
	 * the fewest other values.  A form that differs in two values or
	 * more (a receive from another neighbour), or in one string (a
	 * procedure's label among a program's few), takes a free slot of
	 * its own, so that it repeats whole next time; one integer
	 * changed (a marker's iteration, a message's size) is coded
	 * against the slot it changes.
	 */
	best = free_ = -1;
	fewest = TRC_MAXATTR + 1;
	for (which = 0; ev->nattr > 0 && which < NSLOTS; which++) {
		sl = rs->slot[SLOT(ev->kind, which)];
		if (sl == NULL || sl->gen != w->gen) {
			if (free_ < 0)
				free_ = which;
			continue;
		}
		if (sl->n != ev->nattr)
			continue;
		for (i = 0; i < ev->nattr && sl->v[i].key == v[i].key; i++)
			;
		if (i < ev->nattr)
			continue;
		for (changed = 0, i = 0; i < ev->nattr; i++)
			changed += !val_predicted(&v[i], &sl->v[i]);
		if (changed < fewest) {
			fewest = changed;
			best = which;
			if (changed == 0)
				break;
		}
	}
	if (best >= 0 && fewest == 1 && free_ >= 0) {
		sl = rs->slot[SLOT(ev->kind, best)];
		for (i = 0; val_predicted(&v[i], &sl->v[i]); i++)
			;
		if (v[i].type == V_REF)
			best = -1;
	}
	if (best >= 0 && fewest >= 2 && free_ >= 0)
		best = -1;
	if (ev->nattr == 0) {
		mode = MODE_NONE;
		which = 0;
	} else if (best < 0) {
		/* A free slot, else the one used least recently. */
		mode = MODE_KEYS;
		if ((which = free_) < 0)
			for (which = 0, i = 1; i < NSLOTS; i++)
				if (rs->slot[SLOT(ev->kind, i)]->used <
				    rs->slot[SLOT(ev->kind, which)]->used)
					which = i;
	} else {
		mode = fewest == 0 ? MODE_SAME : MODE_VALUES;
		which = best;
	}
	sl = NULL;
	if (mode != MODE_NONE) {
		if ((sl = slot_get(rs, SLOT(ev->kind, which), ev->nattr,
		    0)) == NULL)
			return w_fail(w, "out of memory");
		sl->used = ++rs->clock;
	}

	p = w->raw + w->rawlen;
	*p++ = (unsigned char)(ev->kind | mode << 4 | (which > 0) << 7);
	if (which > 0)
		*p++ = (unsigned char)which;
	if (mode == MODE_VALUES) {
		/* Which values are coded, then each: the others are as
		 * the slot predicts them. */
		for (mask = 0, i = 0; i < ev->nattr; i++)
			if (!val_predicted(&v[i], &sl->v[i]))
				mask |= (uint64_t)1 << i;
		p += put_uvarint(p, mask);
		for (i = 0; i < ev->nattr; i++)
			if (mask >> i & 1)
				p = w_val(p, &v[i], &sl->v[i]);
	} else if (mode == MODE_KEYS) {
		p += put_uvarint(p, (uint64_t)ev->nattr);
		for (i = 0; i < ev->nattr; i++) {
			p = w_string(p, v[i].key, 0, 0);
			p = w_val(p, &v[i], NULL);
		}
	}
	if (mode != MODE_NONE) {
		if (w_keep(sl, v, ev->nattr, mode == MODE_KEYS) < 0)
			return w_fail(w, "out of memory");
		sl->gen = w->gen;
	}
	e = &w->ev[w->nev];
	e->t = ev->t;
	e->off = (uint32_t)w->rawlen;
	e->len = (uint32_t)(p - (w->raw + w->rawlen));
	w->rawlen = (size_t)(p - w->raw);
	/* Its size as stored (w_block): its code, its place unless it
	 * follows the rank's event before, its time after that event's;
	 * a rank's first is after the block's least time, not yet known
	 * (10 bytes at most), and adds a row to the run table (15). */
	if (rs->gen == w->gen) {
		w->ev[rs->last].next = w->nev;
		len = e->len + (w->nev > rs->last + 1 ?
		    uvarint_len(w->nev - rs->last - 1) : 0) +
		    uvarint_len(zig((int64_t)((uint64_t)ev->t -
		    (uint64_t)rs->last_t)));
		rs->count++;
		rs->bytes += (uint32_t)len;
		w->size += len;
	} else {
		if (w->nranks_in == w->capranks_in) {
			int32_t *r;
			size_t cap = w->capranks_in ? 2 * w->capranks_in : 64;

			if ((r = realloc(w->ranks_in, cap * sizeof(*r))) == NULL)
				return w_fail(w, "out of memory");
			w->ranks_in = r;
			w->capranks_in = cap;
		}
		w->ranks_in[w->nranks_in++] = ev->rank;
		rs->first = w->nev;
		rs->count = 1;
		rs->bytes = e->len + (w->nev > 0 ? uvarint_len(w->nev) : 0);
		w->size += rs->bytes + 10 + 15;
	}
	rs->last = w->nev;
	for (; w->nsized < w->strs.n; w->nsized++) {
		len = strlen(w->strs.name[w->nsized]);
		w->size += uvarint_len(len) + len;
	}
	rs->gen = w->gen;
	rs->last_t = ev->t;
	if (ev->t < w->tmin)
		w->tmin = ev->t;
	if (ev->t > w->tmax)
		w->tmax = ev->t;
	if (ev->rank < w->rlo)
		w->rlo = ev->rank;
	if (ev->rank > w->rhi)
		w->rhi = ev->rank;
	/* Closed under RAW_MAX: an event's code is at most EVENT_MAX. */
	if (++w->nev >= w->maxev ||
	    w->size >= (uint64_t)w->maxev * BLOCK_BYTES)
		return w_flush(w);
	return 0;
}

/* Writes the last block, the index and the end; fd stays open. */
int
trcb_wclose(struct trcb_writer *w)
{
	unsigned char *buf, *p;
	const struct ientry *e;
	uint64_t ioff, prev_off = 0;
	int64_t prev_t = 0;
	size_t i;
	int rc, k;

	if (w->failed || w_flush(w) < 0)
		return -1;
	/* The index: 50 bytes an entry at most, written in pieces. */
	ioff = w->off;
	if ((buf = malloc(64 * 1024)) == NULL)
		return w_fail(w, "out of memory");
	p = buf;
	*p++ = 'I';
	p += put_uvarint(p, w->nindex);
	for (i = 0; i < w->nindex; i++) {
		e = &w->index[i];
		p += put_uvarint(p, e->off - prev_off);
		p += put_uvarint(p, e->nev);
		p += put_uvarint(p, zig((int64_t)((uint64_t)e->tmin -
		    (uint64_t)prev_t)));
		p += put_uvarint(p, (uint64_t)e->tmax - (uint64_t)e->tmin);
		p += put_uvarint(p, (uint64_t)e->rlo);
		p += put_uvarint(p, (uint64_t)(e->rhi - e->rlo));
		prev_off = e->off;
		prev_t = e->tmin;
		if (p - buf > 60 * 1024) {
			if (w_bytes(w, buf, (size_t)(p - buf)) < 0) {
				free(buf);
				return -1;
			}
			p = buf;
		}
	}
	for (k = 0; k < 8; k++)
		*p++ = (unsigned char)(ioff >> (8 * k));
	memcpy(p, ENDMAGIC, 8);
	p += 8;
	rc = w_bytes(w, buf, (size_t)(p - buf));
	free(buf);
	return rc;
}

#ifndef TRCB_WRITER_ONLY
/* ---- Reader ---- */

/* A rank's events in a block: where the next lies, where they end, how
 * many are left, and the place of the last one read (NO_PLACE before
 * the first). */
struct run {
	uint32_t	 pos, end;
	uint32_t	 left;
	uint32_t	 place;
	int32_t		 rank;
	unsigned	 head;		/* in stream order: the next event's */
	struct rstate	*rs;
};

#define NO_TIME		UINT64_MAX

struct rtrcb {
	struct trc_src	*src;
	const char	*name;
	/* The input's bytes read into in (a block's code, read
	 * straight into its buffer, passes by: r_copy). */
	unsigned char	*in;
	size_t		 inpos, inlen;
	uint64_t	 off;		/* of in[0] in the file */
	int		 in_eof;
	unsigned char	*stored, *raw;
	size_t		 storedcap, rawcap;
	ZSTD_DCtx	*dctx;
	char		*arena;		/* the block's strings, NUL-ended */
	size_t		 arenalen, arenacap;
	struct trc_str	*strs;
	unsigned char	*scode;		/* K_* of each string */
	size_t		 nstrs, capstrs;
	unsigned long	 block;		/* its number, from 1 */
	uint64_t	 block_off;
	uint32_t	 gen;
	uint32_t	 nev, left;
	int64_t		 tmin, tmax;
	int32_t		 rlo, rhi;
	size_t		 pos, rawlen;
	struct trc_pages rs;		/* struct rstate, by rank */
	size_t		 nrs;		/* ranks below it have one */
	/* The block's runs, one a rank: each a cursor over its events. */
	struct run	*runs;
	uint32_t	 nruns, capruns;
	/* In stream order (trc_next): the place of the next event, and
	 * the run that holds each place, + 1 (0: none yet); a run whose
	 * next place is still to be read, + 1. */
	uint32_t	 place, unplaced;
	uint32_t	*owner;
	/* By rank (trc_by_rank): the run at hand; each place's time
	 * (NO_TIME: none yet), for the block's time order, or in a
	 * block of less than 2^31 - 2 ns (tnarrow) its time less tmin,
	 * plus 1, in 32 bits (0: none yet) in tplace32; the places of
	 * the events in q; the first error's place and message,
	 * reported at the block's end. */
	int		 by_rank;
	uint32_t	 run_at;
	int		 tnarrow;
	uint64_t	*tplace;
	uint32_t	*tplace32;
	uint32_t	*qplace;
	struct trc_fields *fcopy;	/* by rank: unqueue's copies */
	const struct trc_fields *vcopy;	/* by rank: values_fast's event's */
	uint32_t	 ncopy;
	uint32_t	 pend;
	char		 pend_msg[TRC_ERRLEN];
	int64_t		 last_t;	/* by rank: the blocks before's last */
	uint32_t	 placecap;
	long		 lines;		/* the header's lines */
	long		 line0;		/* the block's first event's */
	long		 line;		/* the event's line in the text */
	int		 fields_only;	/* no text of values, no attr[] */
	unsigned	 hidden;	/* 1 << K_*: fields the caller never reads */
	/* r_next's usual event: its head h one with fast_mode[h] (its
	 * mode + 1; 0: any other). */
	unsigned char	 fast_mode[256];
	unsigned	 bad_value;	/* r_values: the invalid one */
	uint32_t	 at_place;	/* the event being decoded, for r_bad */
	struct trc_brief *q;		/* the usual events' loops', QUEUE */
	uint32_t	 batch;		/* their calls, as slot->queued */
	uint32_t	 at;		/* by rank: the event values_fast reads */
	/* By rank into a summary (r_sum_runs): its run's kinds' last
	 * fields, and whether values_fast changed a label's or an
	 * operation's text. */
	struct kind_hit	*kc;
	int		 vnames;
	int		 done;
	uint64_t	 blocks_read, events_read;
	char		*hextra;	/* the header's extra lines */
};

static void
r_close(void *state)
{
	struct rtrcb *r = state;

	if (r == NULL)
		return;
	free(r->in);
	free(r->stored);
	free(r->raw);
	ZSTD_freeDCtx(r->dctx);
	free(r->arena);
	free(r->strs);
	free(r->scode);
	ranks_free(&r->rs, r->nrs);
	free(r->hextra);
	free(r->q);
	free(r->runs);
	free(r->owner);
	free(r->tplace);
	free(r->qplace);
	free(r->fcopy);
	free(r);
}

static int
bid(const char *path, const unsigned char *head, size_t n)
{
	(void)path;
	return n >= MAGICLEN && memcmp(head, MAGIC, MAGICLEN) == 0 ? 100 : 0;
}

/* "file: offset O: message" or "file: block B at offset O: message". */
static int
r_fail(struct trc_reader *tr, struct rtrcb *r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int
r_fail(struct trc_reader *tr, struct rtrcb *r, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (r->block > 0)
		return trc_fail_at(tr, r->name, 0, "block %lu at offset %llu: %s",
		    r->block, (unsigned long long)r->block_off, msg);
	return trc_fail_at(tr, r->name, 0, "offset %llu: %s",
	    (unsigned long long)(r->off + r->inpos), msg);
}

/* At least n bytes buffered: 1, 0 when the input ends first, -1 error. */
static int
r_fill(struct trc_reader *tr, struct rtrcb *r, size_t n)
{
	ssize_t got;

	while (r->inlen - r->inpos < n) {
		if (r->in_eof)
			return 0;
		if (r->inpos > 0) {
			memmove(r->in, r->in + r->inpos, r->inlen - r->inpos);
			r->off += r->inpos;
			r->inlen -= r->inpos;
			r->inpos = 0;
		}
		got = trc_src_read(r->src, r->in + r->inlen, INBUF - r->inlen);
		if (got < 0)
			return trc_fail_at(tr, r->name, 0, "%s",
			    trc_src_error(r->src));
		if (got == 0)
			r->in_eof = 1;
		r->inlen += (size_t)got;
	}
	return 1;
}

static int
r_byte(struct trc_reader *tr, struct rtrcb *r, const char *what, unsigned *c)
{
	int rc;

	*c = 0;
	if ((rc = r_fill(tr, r, 1)) <= 0)
		return rc < 0 ? -1 : r_fail(tr, r, "truncated %s", what);
	*c = r->in[r->inpos++];
	return 0;
}

static int
r_uvarint(struct trc_reader *tr, struct rtrcb *r, const char *what,
    uint64_t *v)
{
	unsigned c, shift;

	*v = 0;
	for (shift = 0;; shift += 7) {
		if (r_byte(tr, r, what, &c) < 0)
			return -1;
		if (shift == 63 && c > 1)
			return r_fail(tr, r, "bad varint in %s", what);
		*v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return 0;
	}
}

/* From the input into dst; -1 when it ends first. */
static int
r_copy(struct trc_reader *tr, struct rtrcb *r, void *dst, size_t n,
    const char *what)
{
	unsigned char *d = dst;
	ssize_t got;
	size_t k;
	int rc;

	while (n > 0) {
		if (r->inpos == r->inlen && n >= INBUF && !r->in_eof) {
			/* A block's code, read straight where it goes
			 * rather than through in. */
			r->off += r->inlen;
			r->inpos = r->inlen = 0;
			if ((got = trc_src_read(r->src, d, n)) < 0)
				return trc_fail_at(tr, r->name, 0, "%s",
				    trc_src_error(r->src));
			if (got == 0)
				r->in_eof = 1;
			r->off += (uint64_t)got;
			d += got;
			n -= (size_t)got;
			continue;
		}
		if ((rc = r_fill(tr, r, 1)) <= 0)
			return rc < 0 ? -1 : r_fail(tr, r, "truncated %s", what);
		k = r->inlen - r->inpos;
		if (k > n)
			k = n;
		memcpy(d, r->in + r->inpos, k);
		r->inpos += k;
		d += k;
		n -= k;
	}
	return 0;
}

static int
r_open(struct trc_reader *tr, struct trc_src *src,
    const struct trc_open_opts *opts)
{
	struct trc_header *h = trc_reader_header(tr);
	unsigned char magic[MAGICLEN];
	struct rtrcb *r;
	uint64_t ranks, len;
	unsigned version, flags, order;
	const char *p, *nl;
	unsigned long k;
	int i;

	if ((r = calloc(1, sizeof(*r))) == NULL)
		return trc_fail_at(tr, trc_src_name(src), 0, "out of memory");
	trc_reader_set_state(tr, r);
	r->fields_only = opts != NULL && opts->fields_only;
	r->hidden = 1u << K_OTHER;
	if (r->fields_only && opts->no_match)
		r->hidden |= 1u << K_PEER | 1u << K_TAG | 1u << K_COMM |
		    1u << K_ROOT | 1u << K_REQ;
	for (i = 0; i < 256; i++)
		r->fast_mode[i] = (i & 15) >= TRC_NKINDS ||
		    (i >> 4 & 3) == MODE_KEYS ||
		    ((i >> 4 & 3) == MODE_NONE && (i & 0x80)) ? 0 :
		    (unsigned char)((i >> 4 & 3) + 1);
	r->src = src;
	r->name = trc_src_name(src);
	/* Read, never mapped: a block is read once, and mapping windows of
	 * the file (their pages put in and taken out of the page tables)
	 * cost more, in the kernel and out of it: 7% of trc-sum's time on
	 * trcb (10 M events, trc-gen's patterns). */
	if ((r->in = malloc(INBUF)) == NULL ||
	    (r->raw = malloc(RAW_FIRST + PAD)) == NULL ||
	    (r->fields_only &&
	    (r->q = malloc(QUEUE * sizeof(*r->q))) == NULL))
		return trc_fail_at(tr, r->name, 0, "out of memory");
	if (r_copy(tr, r, magic, MAGICLEN, "header") < 0)
		return -1;
	if (memcmp(magic, MAGIC, MAGICLEN) != 0)
		return trc_fail_at(tr, r->name, 0, "not a trcb stream (bad magic)");
	if (r_byte(tr, r, "header", &version) < 0)
		return -1;
	if (version >= 1 && version < VERSION)
		return trc_fail_at(tr, r->name, 0, "trcb version %u is no "
		    "longer read (convert it with the trc-cat that wrote it)",
		    version);
	if (version != VERSION)
		return trc_fail_at(tr, r->name, 0, "unsupported trcb version %u",
		    version);
	/* Grown to a block's code when larger. */
	r->rawcap = RAW_FIRST;
	r->pend = NO_PLACE;
	if (r_byte(tr, r, "header", &flags) < 0 ||
	    r_uvarint(tr, r, "header", &ranks) < 0 ||
	    r_byte(tr, r, "header", &order) < 0 ||
	    r_uvarint(tr, r, "header", &len) < 0)
		return -1;
	if (flags != 0)
		return r_fail(tr, r, "unknown header flags %u", flags);
	if (ranks > INT32_MAX)
		return r_fail(tr, r, "invalid ranks %llu",
		    (unsigned long long)ranks);
	if (order > TRC_ORDER_NONE)
		return r_fail(tr, r, "invalid order %u", order);
	if (len > MAXEXTRA)
		return r_fail(tr, r, "header longer than %d bytes", MAXEXTRA);
	if ((r->hextra = malloc(len + 1)) == NULL)
		return trc_fail_at(tr, r->name, 0, "out of memory");
	if (r_copy(tr, r, r->hextra, len, "header") < 0)
		return -1;
	r->hextra[len] = '\0';
	if (len > 0 && r->hextra[len - 1] != '\n')
		return r_fail(tr, r, "header lines do not end in a newline");
	/* Written out before the events: '#' lines, as the text's (the
	 * text's line numbers: its first is "#trc"). */
	for (p = r->hextra, k = 2; p < r->hextra + len; p = nl + 1, k++) {
		nl = memchr(p, '\n', (size_t)(r->hextra + len - p));
		if (*p != '#')
			return r_fail(tr, r, "header line %lu does not begin "
			    "with '#'", k);
	}
	h->ranks = (int32_t)ranks;
	h->order = (enum trc_order)order;
	h->extra.s = r->hextra;
	h->extra.len = len;
	/* Events are on the lines the text form would give them. */
	r->line = 1;
	for (len = 0; len < h->extra.len; len++)
		r->line += r->hextra[len] == '\n';
	r->lines = r->line;
	return 0;
}

/* The index and the end: checked against what was read, then EOF. */
static int
r_index(struct trc_reader *tr, struct rtrcb *r)
{
	unsigned char tail[16];
	uint64_t n, i, v, nev = 0, off = 0, ioff;
	int k;

	ioff = r->off + r->inpos - 1;
	if (r_uvarint(tr, r, "index", &n) < 0)
		return -1;
	if (n != r->blocks_read)
		return r_fail(tr, r, "index lists %llu blocks, not %llu",
		    (unsigned long long)n,
		    (unsigned long long)r->blocks_read);
	for (i = 0; i < n; i++) {
		if (r_uvarint(tr, r, "index", &v) < 0)
			return -1;
		off += v;
		if (r_uvarint(tr, r, "index", &v) < 0)
			return -1;
		nev += v;
		for (k = 0; k < 4; k++)
			if (r_uvarint(tr, r, "index", &v) < 0)
				return -1;
	}
	if (nev != r->events_read)
		return r_fail(tr, r, "index counts %llu events, not %llu",
		    (unsigned long long)nev,
		    (unsigned long long)r->events_read);
	if (r_copy(tr, r, tail, 16, "end") < 0)
		return -1;
	for (v = 0, k = 7; k >= 0; k--)
		v = v << 8 | tail[k];
	if (memcmp(tail + 8, ENDMAGIC, 8) != 0 || v != ioff)
		return r_fail(tr, r, "bad end of stream");
	if ((k = r_fill(tr, r, 1)) != 0)
		return k < 0 ? -1 : r_fail(tr, r, "data after the end");
	(void)off;
	r->done = 1;
	return 0;
}

static int r_runs(struct trc_reader *, struct rtrcb *);

/* Reads the next block into raw: 1, 0 at the end, -1 on error. */
static int __attribute__((noinline))
r_block(struct trc_reader *tr, struct rtrcb *r)
{
	uint64_t nev, rawlen, slen, tmin, tspan, rlo, rspan;
	unsigned char crcb[4];
	unsigned c, codec;
	uint32_t crc;
	size_t zn;
	unsigned char *p;
	int rc;

	r->block = 0;
	if ((rc = r_fill(tr, r, 1)) < 0)
		return -1;
	if (rc == 0)
		return r_fail(tr, r, "truncated stream (no index and end)");
	c = r->in[r->inpos++];
	if (c == 'I') {
		return r_index(tr, r) < 0 ? -1 : 0;
	}
	r->block_off = r->off + r->inpos - 1;
	if (c != 'B')
		return r_fail(tr, r, "bad block marker 0x%02x", c);
	r->block = (unsigned long)r->blocks_read + 1;
	if (r_uvarint(tr, r, "block header", &nev) < 0 ||
	    r_uvarint(tr, r, "block header", &rawlen) < 0 ||
	    r_byte(tr, r, "block header", &codec) < 0 ||
	    r_uvarint(tr, r, "block header", &slen) < 0 ||
	    r_uvarint(tr, r, "block header", &tmin) < 0 ||
	    r_uvarint(tr, r, "block header", &tspan) < 0 ||
	    r_uvarint(tr, r, "block header", &rlo) < 0 ||
	    r_uvarint(tr, r, "block header", &rspan) < 0 ||
	    r_copy(tr, r, crcb, 4, "block header") < 0)
		return -1;
	if (nev == 0 || nev > BLOCK_EVENTS_MAX)
		return r_fail(tr, r, "invalid event count %llu",
		    (unsigned long long)nev);
	if (rawlen > RAW_MAX)
		return r_fail(tr, r, "block of %llu bytes, more than %llu",
		    (unsigned long long)rawlen,
		    (unsigned long long)RAW_MAX);
	if (codec > CODEC_ZSTD)
		return r_fail(tr, r, "unknown codec %u", codec);
	if (codec == CODEC_RAW ? slen != rawlen :
	    slen > ZSTD_compressBound((size_t)RAW_MAX))
		return r_fail(tr, r, "invalid stored size %llu",
		    (unsigned long long)slen);
	if (rlo > INT32_MAX || rspan > INT32_MAX - rlo)
		return r_fail(tr, r, "invalid rank range");
	r->tmin = unzig(tmin);
	r->tmax = (int64_t)((uint64_t)r->tmin + tspan);
	/* No time is negative, as in the text. */
	if (r->tmin < 0 || r->tmax < r->tmin)
		return r_fail(tr, r, "invalid time range");
	r->rlo = (int32_t)rlo;
	r->rhi = (int32_t)(rlo + rspan);
	if (rawlen > r->rawcap) {
		free(r->raw);
		if ((r->raw = malloc(rawlen + PAD)) == NULL) {
			r->rawcap = 0;
			return trc_fail_at(tr, r->name, 0, "out of memory");
		}
		r->rawcap = rawlen;
	}
	if (codec == CODEC_RAW)
		p = r->raw;
	else {
		if (slen > r->storedcap) {
			free(r->stored);
			if ((r->stored = malloc(slen)) == NULL)
				return trc_fail_at(tr, r->name, 0, "out of memory");
			r->storedcap = slen;
		}
		p = r->stored;
	}
	if (r_copy(tr, r, p, slen, "block") < 0)
		return -1;
	crc = trcb_checksum(p, slen);
	if (crc != ((uint32_t)crcb[0] | (uint32_t)crcb[1] << 8 |
	    (uint32_t)crcb[2] << 16 | (uint32_t)crcb[3] << 24))
		return r_fail(tr, r, "checksum mismatch");
	if (codec == CODEC_ZSTD) {
		if (r->dctx == NULL && (r->dctx = ZSTD_createDCtx()) == NULL)
			return trc_fail_at(tr, r->name, 0, "out of memory");
		zn = ZSTD_decompressDCtx(r->dctx, r->raw, r->rawcap, p, slen);
		if (ZSTD_isError(zn))
			return r_fail(tr, r, "corrupt zstd data: %s",
			    ZSTD_getErrorName(zn));
		if (zn != rawlen)
			return r_fail(tr, r, "zstd data of %zu bytes, not %llu",
			    zn, (unsigned long long)rawlen);
	}
	/* Strings of the block: at most one per byte, and their NULs. */
	if (2 * rawlen + 16 > r->arenacap) {
		free(r->arena);
		r->arenacap = 2 * (size_t)rawlen + 16;
		if ((r->arena = malloc(r->arenacap)) == NULL) {
			r->arenacap = 0;
			return trc_fail_at(tr, r->name, 0, "out of memory");
		}
	}
	memset(r->raw + rawlen, 0, PAD);
	r->arenalen = 0;
	r->nstrs = 0;
	r->rawlen = (size_t)rawlen;
	r->pos = 0;
	r->nev = r->left = (uint32_t)nev;
	r->gen++;
	r->blocks_read++;
	r->line0 = r->lines + (long)r->events_read + 1;
	/* Counted here, not per event: the index is read only after
	 * every event of every block (r_next_block). */
	r->events_read += nev;
	return r_runs(tr, r) < 0 ? -1 : 1;
}

/* A varint at p, before end: past it, or NULL when bad or cut. */
static inline const unsigned char *
get_uvarint(const unsigned char *p, const unsigned char *end, uint64_t *v)
{
	unsigned shift;

	*v = 0;
	for (shift = 0; p < end; shift += 7) {
		if (shift == 63 && *p > 1)
			return NULL;
		*v |= (uint64_t)(*p & 0x7f) << shift;
		if (!(*p++ & 0x80))
			return p;
	}
	return NULL;
}

/* A varint of the block at pos. */
static inline int
b_uvarint(struct rtrcb *r, uint64_t *v)
{
	const unsigned char *p = r->raw + r->pos, *end = r->raw + r->rawlen;
	unsigned shift;

	if (p < end && *p < 0x80) {
		*v = *p;
		r->pos++;
		return 0;
	}
	*v = 0;
	for (shift = 0; p < end; shift += 7) {
		if (shift == 63 && *p > 1)
			return -1;
		*v |= (uint64_t)(*p & 0x7f) << shift;
		if (!(*p++ & 0x80)) {
			r->pos = (size_t)(p - r->raw);
			return 0;
		}
	}
	return -1;
}

/* Whether p[0..n) can be a word of a text line: no blank, newline, NUL. */
static int
is_word(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' ||
		    p[i] == '\n' || p[i] == '\0')
			return 0;
	return 1;
}

static int
b_string(struct rtrcb *r, uint64_t len, int32_t *sid)
{
	struct trc_str *s;
	unsigned char *c;

	/* The writer takes its strings from text: one word each. */
	if (len > r->rawlen - r->pos || len > TRC_MAXLINE ||
	    !is_word(r->raw + r->pos, (size_t)len))
		return -1;
	if (r->nstrs == r->capstrs) {
		r->capstrs = r->capstrs ? 2 * r->capstrs : 256;
		if ((s = realloc(r->strs, r->capstrs * sizeof(*s))) == NULL)
			return -2;
		r->strs = s;
		if ((c = realloc(r->scode, r->capstrs)) == NULL)
			return -2;
		r->scode = c;
	}
	s = &r->strs[r->nstrs];
	s->s = r->arena + r->arenalen;
	s->len = (size_t)len;
	memcpy(r->arena + r->arenalen, r->raw + r->pos, (size_t)len);
	r->arena[r->arenalen + len] = '\0';
	r->arenalen += (size_t)len + 1;
	r->pos += (size_t)len;
	/* Whether it may be a key, judged once a block, not at each
	 * key of mode keys (a memchr each: 0.6% of trc-sum's
	 * instructions on halo of 512 ranks, whose blocks state each
	 * rank's slots again). */
	r->scode[r->nstrs] = len == 0 || memchr(s->s, '=', s->len) != NULL ?
	    K_NOKEY : (unsigned char)key_code(s->s, s->len);
	*sid = (int32_t)r->nstrs++;
	return 0;
}

/*
 * The value of v coded against what v holds (have_old) or nothing:
 * 1, or -1 bad, -2 out of memory.  Code 0 (version 4's same) is bad:
 * a value as the slot predicts it is not coded (r_values' mask).
 */
static int
b_val(struct rtrcb *r, struct val *v, int have_old)
{
	uint64_t c, u, j;
	int64_t base, step;
	uint32_t oldn;
	int oldlist, common = 1;

	if (b_uvarint(r, &c) < 0)
		return -1;
	switch (c & 7) {
	case V_INT:
	case V_BIGINT:
		if ((c & 7) == V_BIGINT) {
			if (c != V_BIGINT || b_uvarint(r, &c) < 0)
				return -1;
		} else
			c >>= 3;
		/* The step: the difference from an integer before. */
		v->step = have_old && v->type == V_INT ? unzig(c) : 0;
		base = have_old && v->type == V_INT ? v->i : 0;
		v->i = (int64_t)((uint64_t)unzig(c) + (uint64_t)base);
		v->type = V_INT;
		return 1;
	case V_ANY:
		if (c != V_ANY)
			return -1;
		v->type = V_ANY;
		v->step = 0;
		return 1;
	case V_REF:
		if ((c >> 3) >= r->nstrs)
			return -1;
		v->type = V_REF;
		v->sid = (int32_t)(c >> 3);
		v->step = 0;
		return 1;
	case V_LIST:
		if ((c >> 3) < 2 || (c >> 3) > LIST_MAX)
			return -1;
		oldlist = have_old && v->type == V_LIST;
		oldn = oldlist ? v->ln : 0;
		if (list_room(v, c >> 3) < 0)
			return -2;
		/* The step: the one difference of every element from the
		 * old list's, when it is as long. */
		step = 0;
		for (j = 0; j < c >> 3; j++) {
			if (b_uvarint(r, &u) < 0)
				return -1;
			base = j < oldn ? v->lv[j] : j > 0 ? v->lv[j - 1] : 0;
			v->lv[j] = (int64_t)((uint64_t)unzig(u) + (uint64_t)base);
			if (j == 0)
				step = unzig(u);
			else if (unzig(u) != step)
				common = 0;
		}
		v->step = common && oldlist && oldn == c >> 3 ? step : 0;
		v->type = V_LIST;
		v->ln = (uint16_t)(c >> 3);
		return 1;
	}
	return -1;
}

/* The text of value i of a slot: 0, or -2 when out of memory. */
static int
b_text(struct rtrcb *r, struct slot *s, int i)
{
	struct val *v = &s->v[i];
	struct vtext *x = &s->txt[i];
	struct trc_attr *a = &s->attr[i];
	size_t n;
	uint32_t j;

	a->key = r->strs[v->key];
	switch (v->type) {
	case V_INT:
		if (text_room(x, 24) < 0)
			return -2;
		a->val.len = trc_format_int(x->s, v->i);
		break;
	case V_LIST:
		if (text_room(x, (size_t)v->ln * 21) < 0)
			return -2;
		for (n = 0, j = 0; j < v->ln; j++) {
			n += trc_format_int(x->s + n, v->lv[j]);
			x->s[n++] = ',';
		}
		a->val.len = n - 1;
		break;
	case V_ANY:
		a->val.s = "*";
		a->val.len = 1;
		return 0;
	default:
		a->val = r->strs[v->sid];
		return 0;
	}
	x->s[a->val.len] = '\0';
	a->val.s = x->s;
	return 0;
}

static void
fields_clear(struct slot *s)
{
	s->f.peer = s->f.tag = s->f.root = TRC_NONE;
	s->f.comm = 0;
	s->f.bytes = s->f.req = TRC_NONE;
	s->f.reqs.s = s->f.fn.s = s->f.op.s = "";
	s->f.reqs.len = s->f.fn.len = s->f.op.len = 0;
}

/* The field of known value i, as parse.c reads its text: 0 or -1.
 * Without text (fields_only), a number's text is not made: reqs is
 * left empty. */
static inline __attribute__((always_inline)) int
b_field(struct slot *s, int i, int code, int text)
{
	const struct val *v = &s->v[i];
	const struct trc_str *val = &s->attr[i].val;
	struct trc_str list;
	int64_t n;
	uint32_t j;

	switch (code) {
	case K_FN:
		s->f.fn = *val;
		return 0;
	case K_OP:
		s->f.op = *val;
		return 0;
	case K_REQ:
		if (v->type == V_INT || v->type == V_LIST) {
			/* Its text only when made (not for a caller of
			 * fields only, whose slot's text is not read). */
			if (text)
				s->f.reqs = *val;
			else
				s->f.reqs.s = "", s->f.reqs.len = 0;
			if (v->type == V_INT)
				s->f.req = v->i;
			else
				for (s->f.req = v->lv[0], j = 1; j < v->ln; j++)
					if (v->lv[j] < 0)
						return -1;
			return s->f.req < 0 ? -1 : 0;
		}
		s->f.reqs = list = *val;
		if (val->len == 0 || trc_reqs_next(&list, &s->f.req) != 1)
			return -1;
		while (list.len > 0)
			if (trc_reqs_next(&list, &n) != 1)
				return -1;
		return 0;
	}
	if (v->type == V_INT)
		n = v->i;
	else if (v->type == V_ANY)
		n = TRC_ANY;
	else if (v->type == V_LIST || trc_parse_int(val->s, val->len, &n) < 0)
		return -1;
	if (code == K_BYTES) {
		s->f.bytes = n;
		return n < 0 ? -1 : 0;
	}
	if (n == TRC_ANY && v->type == V_ANY && (code == K_PEER || code == K_TAG))
		;
	else if (n < 0 || n > INT32_MAX)
		return -1;
	if (code == K_PEER)
		s->f.peer = (int32_t)n;
	else if (code == K_TAG)
		s->f.tag = (int32_t)n;
	else if (code == K_COMM)
		s->f.comm = (int32_t)n;
	else
		s->f.root = (int32_t)n;
	return 0;
}

/*
 * Whether value v (of key code) needs its text: always, but for a
 * caller of fields only, just where a field is taken from the text (a
 * label, an operation, a number not written as a canonical one).
 */
static inline int
needs_text(const struct rtrcb *r, const struct val *v, int code)
{
	return !r->fields_only || code == K_FN || code == K_OP ||
	    (v->type != V_INT && v->type != V_LIST);
}

/*
 * Value i of slot sl changed (a new value, or moved by its step): its
 * field and text made again.  0, or -2 out of memory, -3 an invalid
 * field (its index in r->bad_value).  A number for fields only sets
 * its field and makes no text.
 */
static inline int
r_changed(struct rtrcb *r, struct slot *sl, int i)
{
	struct val *v = &sl->v[i];
	int code = v->code;

	if (r->fields_only && !sl->dupknown && v->type == V_INT)
		switch (code) {
		case K_OTHER:
			return 0;
		case K_PEER:
		case K_TAG:
		case K_COMM:
		case K_ROOT:
			if ((uint64_t)v->i > INT32_MAX)
				break;
			*(code == K_PEER ? &sl->f.peer : code == K_TAG ?
			    &sl->f.tag : code == K_COMM ? &sl->f.comm :
			    &sl->f.root) = (int32_t)v->i;
			return 0;
		case K_BYTES:
			if (v->i < 0)
				break;
			sl->f.bytes = v->i;
			return 0;
		case K_REQ:
			if (v->i < 0)
				break;
			sl->f.req = v->i;
			if (sl->f.reqs.len != 0) {
				sl->f.reqs.s = "";
				sl->f.reqs.len = 0;
			}
			return 0;
		}
	if (needs_text(r, v, code) && b_text(r, sl, i) < 0)
		return -2;
	if (code != K_OTHER && !sl->dupknown &&
	    b_field(sl, i, code, !r->fields_only) < 0) {
		r->bad_value = (unsigned)i;
		return -3;
	}
	return 0;
}

/*
 * The values of an event of mode VALUES against its slot sl: the mask
 * of those it codes, then each of them, the others as the slot
 * predicts them; what changed, each field and text made again.  0, or
 * -1 bad, else as r_changed.  The usual change, an int's delta in one
 * or two bytes, is read here as b_val would read it, from a local
 * cursor.
 */
static int
r_values(struct rtrcb *r, struct slot *sl)
{
	const unsigned char *p, *end = r->raw + r->rawlen;
	struct val *v;
	uint32_t stepping = 0, stepfast = 0;
	uint64_t d, mask;
	unsigned c;
	size_t at = r->pos;
	int i, n = sl->n, rc;

	/* 1 or more, of the slot's n values (32 at most); a bad one is
	 * reported at its byte. */
	if (b_uvarint(r, &mask) < 0 || mask == 0 || mask >> n != 0) {
		r->pos = at;
		return -1;
	}
	p = r->raw + r->pos;
	for (i = 0; i < n; i++) {
		v = &sl->v[i];
		c = p < end ? *p : 0x80;	/* past the end: b_val fails */
		if (!(mask >> i & 1)) {
			/* What the slot predicts: its value moved by its step. */
			if (v->step == 0)
				continue;
			val_advance(v);
		} else if ((c & 7) == V_INT && v->type == V_INT && (c < 0x80 ||
		    (p + 1 < end && p[1] < 0x80))) {
			if (c < 0x80) {
				d = c >> 3;
				p++;
			} else {
				d = ((c & 0x7f) | (uint64_t)p[1] << 7) >> 3;
				p += 2;
			}
			v->step = unzig(d);
			v->i = (int64_t)((uint64_t)v->i + (uint64_t)v->step);
		} else {
			r->pos = (size_t)(p - r->raw);
			if ((rc = b_val(r, v, 1)) < 0)
				return rc;
			p = r->raw + r->pos;
		}
		stepping |= (uint32_t)(v->step != 0) << i;
		stepfast |= (uint32_t)(v->step != 0 && (v->type == V_INT ||
		    (v->type == V_LIST && v->code == K_REQ)) &&
		    v->code != K_FN && v->code != K_OP && !sl->dupknown) << i;
		if ((rc = r_changed(r, sl, i)) < 0) {
			r->pos = (size_t)(p - r->raw);
			return rc;
		}
	}
	sl->stepping = stepping;
	sl->stepfast = stepfast;
	r->pos = (size_t)(p - r->raw);
	return 0;
}

/* An event of mode SAME on a slot whose values step: each moved on. */
static int
r_steps(struct rtrcb *r, struct slot *sl)
{
	uint32_t m;
	int i, rc;

	for (m = sl->stepping; m != 0; m &= m - 1) {
		i = __builtin_ctz(m);
		val_advance(&sl->v[i]);
		if ((rc = r_changed(r, sl, i)) < 0)
			return rc;
	}
	return 0;
}

/* "what (event E of the block, byte B)", B at p: -1. */
static int __attribute__((noinline))
r_bad(struct trc_reader *tr, struct rtrcb *r, const unsigned char *p,
    const char *what)
{
	if (p != NULL)
		r->pos = (size_t)(p - r->raw);
	return r_fail(tr, r, "%s (event %lu of the block, byte %zu)", what,
	    (unsigned long)r->at_place + 1, r->pos);
}

/*
 * Run c's next event's head and place, at its cursor: the cursor past
 * them, at its slot or time, and c->head and c->place set.  0, or -1
 * with the reader failed.
 */
static int
r_head_place(struct trc_reader *tr, struct rtrcb *r, struct run *c)
{
	uint64_t u = 0;

	r->pos = c->pos;
	r->at_place = c->place + 1;
	if (c->pos >= c->end)
		return r_bad(tr, r, NULL, "truncated event");
	c->head = r->raw[r->pos++];
	/* Bit 6: it follows the rank's event before; else the places
	 * between, 1 at least, follow. */
	if ((!(c->head & 0x40) && (b_uvarint(r, &u) < 0 || u == 0)) ||
	    r->pos > c->end || u >= (uint64_t)(r->nev - (c->place + 1)))
		return r_bad(tr, r, NULL, "bad place");
	c->place += 1 + (uint32_t)u;
	c->pos = (uint32_t)r->pos;
	r->at_place = c->place;
	return 0;
}

/*
 * The block's strings and runs, after its header: each run's cursor
 * set, at its first event's place (in stream order, its place read
 * and owned) or before it (by rank).  0, or -1 with the reader failed.
 */
static int
r_runs(struct trc_reader *tr, struct rtrcb *r)
{
	uint64_t n, u, rank, count, bytes, sum = 0;
	size_t at;
	struct run *c;
	int32_t sid;
	uint32_t i;
	void *p;

	if (b_uvarint(r, &n) < 0 || n > r->rawlen)
		return r_fail(tr, r, "bad string table");
	for (i = 0; i < n; i++) {
		/* A value may be empty ("a="), a key not (r_attrs). */
		if (b_uvarint(r, &u) < 0)
			return r_fail(tr, r, "bad string table");
		switch (b_string(r, u, &sid)) {
		case -1:
			return r_fail(tr, r, "bad string table");
		case -2:
			return trc_fail_at(tr, r->name, 0, "out of memory");
		}
	}
	if (b_uvarint(r, &n) < 0 || n == 0 || n > r->nev)
		return r_fail(tr, r, "bad run table");
	if (n > r->capruns) {
		if ((p = realloc(r->runs, n * sizeof(*r->runs))) == NULL)
			return trc_fail_at(tr, r->name, 0, "out of memory");
		r->runs = p;
		r->capruns = (uint32_t)n;
	}
	if (r->nev > r->placecap) {
		free(r->owner);
		free(r->tplace);
		r->owner = NULL;
		r->tplace = NULL;
		if (r->by_rank)
			p = r->tplace = malloc(r->nev * sizeof(*r->tplace));
		else
			p = r->owner = malloc(r->nev * sizeof(*r->owner));
		if (p == NULL) {
			r->placecap = 0;
			return trc_fail_at(tr, r->name, 0, "out of memory");
		}
		r->placecap = r->nev;
	}
	r->nruns = (uint32_t)n;
	/* Ranks in order, each once, in the block's range; every event
	 * two bytes at least (a head, a time). */
	for (i = 0, at = 0; i < n; i++) {
		c = &r->runs[i];
		if (b_uvarint(r, &rank) < 0 || b_uvarint(r, &count) < 0 ||
		    b_uvarint(r, &bytes) < 0 ||
		    rank < (uint64_t)r->rlo || rank > (uint64_t)r->rhi ||
		    (i > 0 && rank <= (uint64_t)c[-1].rank) ||
		    count == 0 || count > r->nev - sum ||
		    bytes < 2 * count || bytes > r->rawlen - at)
			return r_fail(tr, r, "bad run table");
		sum += count;
		at += (size_t)bytes;
		c->rank = (int32_t)rank;
		c->left = (uint32_t)count;
		c->end = (uint32_t)bytes;	/* for now */
		c->place = NO_PLACE;
		if ((c->rs = rank_state(&r->rs, c->rank, &r->nrs)) == NULL)
			return trc_fail_at(tr, r->name, 0, "out of memory");
	}
	if (sum != r->nev)
		return r_fail(tr, r, "runs of %llu events, not %lu",
		    (unsigned long long)sum, (unsigned long)r->nev);
	if (at != r->rawlen - r->pos)
		return r_fail(tr, r, "runs of %zu bytes, not %zu", at,
		    r->rawlen - r->pos);
	for (i = 0, at = r->pos; i < n; i++) {
		c = &r->runs[i];
		c->pos = (uint32_t)at;
		at += c->end;
		c->end = (uint32_t)at;
	}
	if (r->by_rank) {
		/*
		 * Half the bytes to clear, write and read again where the
		 * times allow: on 512 ranks a block's places are 4 MB of
		 * 64-bit times, out of the caches, each event's store a
		 * line of its own (its rank's places 512 apart).
		 */
		r->tplace32 = (uint32_t *)r->tplace;
		if ((r->tnarrow = (uint64_t)r->tmax - (uint64_t)r->tmin <
		    0x7ffffffe))
			memset(r->tplace32, 0, r->nev * sizeof(*r->tplace32));
		else
			memset(r->tplace, 0xff, r->nev * sizeof(*r->tplace));
		r->run_at = 0;
		return 0;
	}
	memset(r->owner, 0, r->nev * sizeof(*r->owner));
	r->place = 0;
	for (i = 0; i < n; i++) {
		c = &r->runs[i];
		if (r_head_place(tr, r, c) < 0)
			return -1;
		if (r->owner[c->place] != 0)
			return r_bad(tr, r, NULL, "two events at one place");
		r->owner[c->place] = i + 1;
	}
	r->unplaced = 0;
	return 0;
}

/* The next block when the one read is done: 1, 0 at the end, -1. */
static int __attribute__((noinline))
r_next_block(struct trc_reader *tr, struct rtrcb *r)
{
	r->nev = 0;
	if (r->done)
		return 0;
	return r_block(tr, r);
}

/* The steps put off on slot sl (fast_fields), made good: each value
 * that steps moved on by pending steps at once, modulo 2^64. */
static void __attribute__((noinline))
slot_catch_up(struct slot *sl)
{
	struct val *v;
	uint64_t d;
	uint32_t m, j;

	for (m = sl->stepping; m != 0; m &= m - 1) {
		v = &sl->v[__builtin_ctz(m)];
		d = (uint64_t)v->step * sl->pending;
		if (v->type == V_INT)
			v->i = (int64_t)((uint64_t)v->i + d);
		else {
			for (j = 0; j < v->ln; j++)
				v->lv[j] = (int64_t)((uint64_t)v->lv[j] + d);
			sl->f.req = v->lv[0];	/* step_reqs' */
		}
	}
	sl->pending = 0;
}

/* Slot sl as it is, its steps put off made good, before anything reads
 * or changes its values, steps or fields: none may be put off until
 * step_defer has judged them again. */
static inline __attribute__((always_inline)) void
slot_settle(struct slot *sl)
{
	if (sl->pending != 0)
		slot_catch_up(sl);
	sl->safe = 0;
}

/* Slot sl's plan for values_int, after its keys or values changed. */
static void
slot_plan(const struct rtrcb *r, struct slot *sl)
{
	static const unsigned char sel[] = {
		[K_PEER] = 0, [K_TAG] = 1, [K_COMM] = 2, [K_ROOT] = 3,
		[K_BYTES] = 0, [K_REQ] = 1,
	};
	const struct val *v;
	unsigned b;
	int i;

	sl->intok = sl->m32 = sl->m64 = sl->v32 = sl->v64 = 0;
	if (!r->fields_only || sl->n > 8 || sl->dupknown)
		return;
	for (i = 0; i < sl->n; i++) {
		v = &sl->v[i];
		b = 1u << i;
		if (v->type != V_INT || v->code == K_FN || v->code == K_OP)
			return;
		if (v->code == K_BYTES || v->code == K_REQ)
			sl->m64 |= b;
		else if (v->code != K_OTHER)
			sl->m32 |= b;
		sl->v[i].lim = v->code == K_OTHER ? 0 : sl->m64 & b ? 1 : 33;
		sl->sel[i] = v->code == K_OTHER ? 0 : sel[v->code];
	}
	sl->v32 = sl->m32 & sl->visible;
	sl->v64 = sl->m64 & sl->visible;
	sl->intok = 1;
}

/*
 * The attributes of an event of mode values or keys, or of mode same
 * on a slot whose values step, at r->pos, into slot number which of
 * rs: 0, or -1 with the reader failed.  Out of r_next's way: the
 * usual event repeats its slot as it is.
 */
static int __attribute__((noinline))
r_attrs(struct trc_reader *tr, struct rtrcb *r, struct rstate *rs,
    unsigned which, unsigned mode)
{
	struct slot *sl = rs->slot[which];
	uint64_t u, n;
	unsigned seen;
	int i, rc = 0, code, all;
	const char *what = "bad attribute";

	if (sl != NULL)
		slot_settle(sl);
	if (mode == MODE_SAME || mode == MODE_VALUES) {
		if (sl == NULL || sl->gen != r->gen)
			goto bad;
		/* Only what changed is made again. */
		if (mode == MODE_VALUES)
			rc = r_values(r, sl);
		else if (sl->stepping != 0)
			rc = r_steps(r, sl);
		if (rc < 0) {
			if (rc != -3)
				goto val;
			i = (int)r->bad_value;
			goto invalid;
		}
		all = sl->dupknown && (mode == MODE_VALUES || sl->stepping);
	} else {
		if (b_uvarint(r, &n) < 0 || n == 0 || n > TRC_MAXATTR)
			goto bad;
		if ((sl = slot_get(rs, (int)which, (int)n, 1)) == NULL)
			goto nomem;
		sl->gen = 0;
		for (i = 0; i < (int)n; i++) {
			if (b_uvarint(r, &u) < 0 || u >= r->nstrs)
				goto bad;
			sl->v[i].key = (int32_t)u;
			sl->v[i].code = r->scode[sl->v[i].key];
			/* int_field_ok's: UINT64_MAX >> lim at most */
			sl->v[i].lim = sl->v[i].code == K_OTHER ? 0 :
			    sl->v[i].code == K_BYTES ||
			    sl->v[i].code == K_REQ ? 1 : 33;
			if (sl->v[i].code == K_NOKEY)
				goto bad;
			if ((rc = b_val(r, &sl->v[i], 0)) < 0)
				goto val;
			if (needs_text(r, &sl->v[i], r->scode[sl->v[i].key]) &&
			    b_text(r, sl, i) < 0)
				goto nomem;
		}
		sl->n = (int)n;
		sl->gen = r->gen;
		sl->stepping = sl->stepfast = 0;
		sl->visible = 0;
		for (seen = 0, sl->dupknown = 0, i = 0; i < sl->n; i++) {
			code = r->scode[sl->v[i].key];
			if (code != K_OTHER && (seen & 1u << code))
				sl->dupknown = 1;
			seen |= 1u << code;
			sl->visible |= (uint32_t)!(r->hidden & 1u << code) << i;
		}
		all = 1;
	}
	if (all) {
		/* Every field again, later attributes winning as in text. */
		fields_clear(sl);
		for (i = 0; i < sl->n; i++)
			if ((code = r->scode[sl->v[i].key]) != K_OTHER &&
			    b_field(sl, i, code, !r->fields_only) < 0)
				goto invalid;
	}
	if (mode != MODE_SAME)
		slot_plan(r, sl);
	return 0;
invalid:
	sl->gen = 0;
	if (b_text(r, sl, i) < 0)	/* not made when fields_only */
		goto nomem;
	return r_fail(tr, r, "invalid %s '%.40s' (line %ld)",
	    sl->attr[i].key.s, sl->attr[i].val.s, r->line + 1);
nomem:
	return trc_fail_at(tr, r->name, 0, "out of memory");
val:
	if (rc == -2)
		goto nomem;
	what = "bad attribute value";
bad:
	return r_bad(tr, r, NULL, what);
}

/*
 * Mode same on a slot whose stepping values are all integers of
 * fields or req= lists, for a caller of fields only: each moved on
 * and its field set where the caller reads it, in the usual events'
 * loops rather than through r_attrs.
 * 0, or -1 when one would be invalid: each is checked before it moves,
 * those moved are moved back (the fields set do not matter, r_attrs
 * sets them again on its way to the error), and r_attrs says which.
 */
static int __attribute__((noinline))
step_reqs(struct slot *sl, struct val *v)
{
	uint64_t step = (uint64_t)v->step, neg = 0, *lv = (uint64_t *)v->lv;
	uint32_t j, n = v->ln;

	/* A wait's req= (r_values lets no other list here): every
	 * element moves, none may fall under 0.  Moved first, their
	 * signs or'ed, and moved back if one did: one loop and no branch
	 * an element (a check's loop and val_advance's were 103
	 * instructions a wait of 6 to 8 requests, this one 69). */
	for (j = 0; j < n; j++)
		neg |= lv[j] += step;
	if ((int64_t)neg < 0) {
		for (j = 0; j < n; j++)
			lv[j] -= step;
		return -1;
	}
	sl->f.req = v->lv[0];
	return 0;
}

static inline __attribute__((always_inline)) int
step_fields(struct slot *sl)
{
	struct val *v;
	uint32_t m, k, i;
	int64_t x;

	slot_settle(sl);
	for (m = sl->stepping; m != 0; m &= m - 1) {
		i = (uint32_t)__builtin_ctz(m);
		v = &sl->v[i];
		if (v->type == V_LIST) {
			if (step_reqs(sl, v) < 0)
				goto undo;
			continue;
		}
		x = (int64_t)((uint64_t)v->i + (uint64_t)v->step);
		/* int_field_ok, by the value's limit (r_attrs) */
		if ((uint64_t)x > UINT64_MAX >> v->lim)
			goto undo;
		v->i = x;
		/* A field the caller never reads (no_match's request,
		 * a peer or a tag) is left as it was. */
		if (!(sl->visible >> i & 1))
			continue;
		switch (v->code) {
		case K_PEER:
		case K_TAG:
		case K_COMM:
		case K_ROOT:
			*(v->code == K_PEER ? &sl->f.peer : v->code == K_TAG ?
			    &sl->f.tag : v->code == K_COMM ? &sl->f.comm :
			    &sl->f.root) = (int32_t)x;
			break;
		case K_BYTES:
			sl->f.bytes = x;
			break;
		case K_REQ:
			sl->f.req = x;
			break;
		}
	}
	return 0;
undo:
	/* The ones moved: those below m's lowest bit. */
	for (k = sl->stepping & ((m & -m) - 1); k != 0; k &= k - 1) {
		v = &sl->v[__builtin_ctz(k)];
		v->step = (int64_t)(0 - (uint64_t)v->step);
		val_advance(v);
		v->step = (int64_t)(0 - (uint64_t)v->step);
	}
	return -1;
}

/*
 * How many steps of slot sl, all of integers or req= lists whose fields
 * the caller never reads (no_match's requests, an iteration number),
 * may be put off with none leaving its field's range as step_fields
 * judges it (a size or request under 0, a peer past 32 bits): 0 when
 * none, or one is read; at most 2^31 - 1.
 */
static uint32_t
slot_safe(const struct slot *sl)
{
	const struct val *v;
	uint64_t s, mag, room, lim, n, best = INT32_MAX;
	int64_t lo, hi;
	uint32_t m, j;

	if (sl->stepfast != sl->stepping || (sl->stepping & sl->visible))
		return 0;
	for (m = sl->stepping; m != 0; m &= m - 1) {
		v = &sl->v[__builtin_ctz(m)];
		s = (uint64_t)v->step;
		mag = (int64_t)s < 0 ? 0 - s : s;
		if (v->type == V_INT) {
			if (v->lim == 0)
				continue;	/* any integer */
			lim = UINT64_MAX >> v->lim;
			if ((uint64_t)v->i > lim)
				return 0;
			room = (int64_t)s < 0 ? (uint64_t)v->i :
			    lim - (uint64_t)v->i;
		} else {
			/* A list (step_reqs'): no element under 0. */
			for (lo = hi = v->lv[0], j = 1; j < v->ln; j++) {
				lo = v->lv[j] < lo ? v->lv[j] : lo;
				hi = v->lv[j] > hi ? v->lv[j] : hi;
			}
			if (lo < 0)
				return 0;
			room = (int64_t)s < 0 ? (uint64_t)lo :
			    (uint64_t)INT64_MAX - (uint64_t)hi;
		}
		if ((n = room / mag) < best)
			best = n;
	}
	return (uint32_t)best;
}

/*
 * Mode same on slot sl, whose values step, the steps put off before it
 * (sl->pending) used up: those made good, and this one put off too when
 * slot_safe allows, else taken now by step_fields.  0, or -1 as
 * step_fields.  The steps of such a slot, a request id a loop, were a
 * tenth of trc-sum's instructions on halo.
 */
static int __attribute__((noinline))
step_defer(struct slot *sl)
{
	slot_settle(sl);
	if ((sl->safe = slot_safe(sl)) > 0) {
		sl->pending = 1;
		return 0;
	}
	return step_fields(sl);
}

/* The fields an event without attributes has. */
static const struct slot no_fields = { .f = {
	.peer = TRC_NONE, .tag = TRC_NONE, .comm = 0, .root = TRC_NONE,
	.bytes = TRC_NONE, .req = TRC_NONE,
	.reqs = { "", 0 }, .fn = { "", 0 }, .op = { "", 0 }
} };

/* Fields f into ev's, 16 bytes at a time: one memcpy of them all is a
 * call of the library's. */
static inline void
fields_copy(int32_t *peer, const struct trc_fields *f)
{
	char *d = (char *)peer;
	const char *s = (const char *)f;

	memcpy(d, s, 16);
	memcpy(d + 16, s + 16, 16);
	memcpy(d + 32, s + 32, 16);
	memcpy(d + 48, s + 48, 16);
	memcpy(d + 64, s + 64, 16);
}

/*
 * The fields of slot sl into ev just after r_attrs or step_fields set
 * some: field by field, each as wide as it is (volatile).  A wide load
 * of two fields, as the compiler would make, stalls on the narrow
 * store of one just made (a step, a new peer): a quarter of r_next's
 * time, measured.
 */
static inline void
fields_copy_narrow(struct trc_event *ev, const volatile struct slot *vs)
{
	ev->peer = vs->f.peer;
	ev->tag = vs->f.tag;
	ev->comm = vs->f.comm;
	ev->root = vs->f.root;
	ev->bytes = vs->f.bytes;
	ev->req = vs->f.req;
	ev->reqs.s = vs->f.reqs.s;
	ev->reqs.len = vs->f.reqs.len;
	ev->fn.s = vs->f.fn.s;
	ev->fn.len = vs->f.fn.len;
	ev->op.s = vs->f.op.s;
	ev->op.len = vs->f.op.len;
}

/*
 * The event at run c's cursor, its head and place read (c->head,
 * r->at_place), read and checked whatever it is: its time and head into
 * *tp and *headp, its slot into *slp (NULL: no attributes).  0, or -1
 * with the reader failed.  Out of the usual events' way (the queue of
 * them is empty), inline in its two callers: 30 instructions an event
 * fewer in trc-cat (callgrind), whose every event it reads.
 */
static inline __attribute__((always_inline)) int
r_event(struct trc_reader *tr, struct rtrcb *r, struct run *c, int64_t *tp,
    unsigned *headp, struct slot **slp)
{
	const unsigned char *p = r->raw + c->pos, *q, *end = r->raw + c->end;
	struct rstate *rs = c->rs;
	struct slot *sl;
	unsigned head = c->head, mode, which;
	uint64_t u;
	int64_t t;

	mode = head >> 4 & 3;
	if ((head & 15) >= TRC_NKINDS || (mode == MODE_NONE && (head & 0x80)))
		return r_bad(tr, r, p, "bad event head");
	which = 0;
	if (head & 0x80) {
		/* The slot, 1 to NSLOTS - 1 (0 is said by bit 7 clear). */
		if (p >= end || (which = *p) == 0 || which >= NSLOTS)
			return r_bad(tr, r, p, "bad event head");
		p++;
	}
	which = SLOT(head & 15, which);
	/* A time of one byte or two, the usual, before any other. */
	if (p < end && *p < 0x80)
		u = *p++;
	else if (p + 1 < end && p[1] < 0x80) {
		u = (uint64_t)(*p & 0x7f) | (uint64_t)p[1] << 7;
		p += 2;
	} else if ((q = get_uvarint(p, end, &u)) == NULL)
		return r_bad(tr, r, p, "bad time");
	else
		p = q;
	r->pos = (size_t)(p - r->raw);
	/* A rank's first time in the block is after the block's least. */
	t = (int64_t)((uint64_t)(rs->gen == r->gen ? rs->last_t : r->tmin) +
	    (uint64_t)unzig(u));
	if (t < r->tmin || t > r->tmax)
		return r_bad(tr, r, NULL, "time outside the block's range");
	sl = mode == MODE_NONE ? NULL : rs->slot[which];
	if (mode == MODE_NONE || (mode == MODE_SAME && sl != NULL &&
	    sl->gen == r->gen && sl->stepping == 0))
		;	/* a slot as it was, or none */
	else if (mode != MODE_SAME || sl == NULL || sl->gen != r->gen ||
	    !r->fields_only || sl->stepfast != sl->stepping ||
	    step_fields(sl) < 0) {
		if (r_attrs(tr, r, rs, which, mode) < 0)
			return -1;
		sl = rs->slot[which];
	}
	if (r->pos > c->end)
		return r_bad(tr, r, NULL, "event past its rank's run");
	rs->gen = r->gen;
	rs->last_t = t;
	c->pos = (uint32_t)r->pos;
	c->left--;
	*tp = t;
	*headp = head;
	*slp = sl;
	return 0;
}

/*
 * In stream order: the head and place of run c's next event read and
 * the place owned, or the run's end checked after its last: 0, or -1
 * with the reader failed.
 */
static int __attribute__((noinline))
r_place(struct trc_reader *tr, struct rtrcb *r, struct run *c)
{
	r->pos = c->pos;
	r->at_place = c->place;		/* the run's last, if it is */
	if (c->left == 0)
		return c->pos == c->end ? 0 :
		    r_bad(tr, r, NULL, "bytes after a rank's last event");
	if (r_head_place(tr, r, c) < 0)
		return -1;
	if (r->owner[c->place] != 0)
		return r_bad(tr, r, NULL, "two events at one place");
	r->owner[c->place] = (uint32_t)(c - r->runs) + 1;
	return 0;
}

/*
 * In stream order: run k's (c's) next head and place at s, before
 * end, the usual ones (the place after the rank's event before, or of
 * one byte), read and the place owned: past them, or NULL (nothing
 * changed) for r_place.
 */
static inline __attribute__((always_inline)) const unsigned char *
place_fast(struct rtrcb *r, struct run *c, uint32_t k,
    const unsigned char *s, const unsigned char *end)
{
	uint32_t np;

	if (s >= end)
		return NULL;
	if (*s & 0x40)
		np = c->place + 1;
	else if (s + 1 < end && s[1] - 1u < 0x7f)
		np = c->place + 1 + s[1];
	else
		return NULL;
	if (np >= r->nev || r->owner[np] != 0)
		return NULL;
	r->owner[np] = k;
	c->place = np;
	c->head = *s;
	return s + (*s & 0x40 ? 1 : 2);
}

/*
 * The next event in stream order, any: r_next's way for all but the
 * usual one, read by r_event from the run that holds its place.
 */
static int __attribute__((noinline))
r_next_any(struct trc_reader *tr, struct trc_event *ev)
{
	struct rtrcb *r = trc_reader_state_inline(tr);
	const unsigned char *s;
	struct run *c;
	/* Set by r_event, inline (the compiler sees no path to them
	 * unset but for its errors). */
	struct slot *sl = NULL;
	unsigned head = 0;
	uint32_t k;
	int64_t t = 0;
	int rc;

	if (r->unplaced != 0) {
		c = &r->runs[r->unplaced - 1];
		r->unplaced = 0;
		if (r_place(tr, r, c) < 0)
			return -1;
	}
	if (r->left == 0 && (rc = r_next_block(tr, r)) <= 0)
		return rc;
	r->at_place = r->place;
	/* The places are in range and each claimed once as read, so a
	 * place no run holds is one another claimed twice, further on. */
	if (r->owner[r->place] == 0)
		return r_fail(tr, r, "no event at place %lu of the block, "
		    "two at another", (unsigned long)r->place);
	c = &r->runs[r->owner[r->place] - 1];
	if (r_event(tr, r, c, &t, &head, &sl) < 0)
		return -1;
	ev->t = t;
	ev->rank = c->rank;
	ev->kind = (enum trc_kind)(head & 15);
	if (sl == NULL) {
		fields_copy(&ev->peer, &no_fields.f);
		ev->nattr = 0;
	} else {
		fields_copy_narrow(ev, sl);
		if (r->fields_only)
			ev->nattr = 0;
		else {
			ev->nattr = sl->n;
			memcpy(ev->attr, sl->attr,
			    (size_t)sl->n * sizeof(ev->attr[0]));
		}
	}
	ev->line = ++r->line;
	r->place++;
	r->left--;
	/* Its run's next place: the usual one here, else with the next
	 * event (r_place). */
	k = (uint32_t)(c - r->runs) + 1;
	if (c->left > 0 && (s = place_fast(r, c, k, r->raw + c->pos,
	    r->raw + c->end)) != NULL)
		c->pos = (uint32_t)(s - r->raw);
	else if (c->left > 0 || c->pos != c->end)
		r->unplaced = k;
	return 1;
}

/*
 * Whether integer x may be the field of key code (as r_changed and
 * b_field judge it for a caller of fields only): 0 for a label or an
 * operation, whose field is text.
 */
static inline int
int_field_ok(int code, int64_t x)
{
	switch (code) {
	case K_OTHER:
		return 1;
	case K_BYTES:
	case K_REQ:
		return x >= 0;
	case K_FN:
	case K_OP:
		return 0;
	}
	return (uint64_t)x <= INT32_MAX;
}

/*
 * By rank: slot sl, queued in this batch, is about to change before
 * event i: the events queued from it take a copy of its fields, and
 * it is queued no more.  0, or -1 when the copies are used up.
 */
static inline __attribute__((always_inline)) int
unqueue_inline(struct rtrcb *r, struct slot *sl, uint32_t i)
{
	struct trc_fields *cp;
	uint32_t j;

	if (r->ncopy == QUEUE)
		return -1;
	cp = &r->fcopy[r->ncopy++];
	*cp = sl->f;
	for (j = sl->qfirst; j < i; j++)
		if (r->q[j].f == &sl->f)
			r->q[j].f = cp;
	sl->queued = 0;
	return 0;
}

/* Out of line for fast_fields' stepping slots, in the usual events'
 * loop; values_fast takes unqueue_inline and stays a leaf. */
static int __attribute__((noinline))
unqueue(struct rtrcb *r, struct slot *sl, uint32_t i)
{
	return unqueue_inline(r, sl, i);
}

/* Value x of key code, of type (V_INT, V_REF or V_ANY; a string's
 * text val), into its field of f, as values_fast has checked it. */
static inline __attribute__((always_inline)) void
put_field(struct trc_fields *f, int code, unsigned type, int64_t x,
    const struct trc_str *val)
{
	switch (code) {
	case K_PEER:
		f->peer = type == V_ANY ? TRC_ANY : (int32_t)x;
		break;
	case K_TAG:
		f->tag = type == V_ANY ? TRC_ANY : (int32_t)x;
		break;
	case K_COMM:
		f->comm = (int32_t)x;
		break;
	case K_ROOT:
		f->root = (int32_t)x;
		break;
	case K_BYTES:
		f->bytes = x;
		break;
	case K_REQ:
		f->req = x;
		f->reqs.s = "";
		f->reqs.len = 0;
		break;
	case K_FN:
		f->fn = *val;
		break;
	case K_OP:
		f->op = *val;
		break;
	}
}

/*
 * A value's first byte and its delta, of one to three bytes (the
 * values of one event fit, PAD past the block's end), into *u: the
 * byte after it, or NULL when longer (the slow path's).
 */
static inline __attribute__((always_inline)) const unsigned char *
value3(const unsigned char *p, uint64_t *u)
{
	if (p[0] < 0x80) {
		*u = p[0];
		return p + 1;
	}
	if (p[1] < 0x80) {
		*u = (p[0] & 0x7fu) | (uint64_t)p[1] << 7;
		return p + 2;
	}
	if (p[2] < 0x80) {
		*u = (p[0] & 0x7fu) | (uint64_t)(p[1] & 0x7f) << 7 |
		    (uint64_t)p[2] << 14;
		return p + 3;
	}
	return NULL;
}

/* values_fast's forbid: not a value's bit (8 at most): by rank, where
 * unqueue and copies are allowed. */
#define COPY_OK		(1u << 31)

/*
 * The values of an event of mode values at p, for a caller of fields
 * only, when its mask is one byte and each value it codes is an
 * integer's new delta on an integer, of a field or of none, a string of
 * the block for a label, an operation or no field, or "*" for a peer or
 * tag, each in one to three bytes (a message's size from 8 to 30000
 * bytes takes three), no key twice: as r_values (b_val, r_changed,
 * b_text, b_field) reads them, every new value checked before any is
 * kept. One of forbid (a slot queued in this batch, where the caller
 * looks) about to change: with COPY_OK (by rank), the events queued
 * from it take a copy of its fields first (unqueue, before event
 * r->at); else the batch ends there.  With COPY_OK, r->vcopy is the
 * event's own copy of its fields when it took one (below), else NULL.
 * Past them, or NULL (the slot unchanged) for r_event to read. Out of
 * the usual events' loops: their registers are the event's.
 */
static const unsigned char * __attribute__((noinline))
values_fast(struct rtrcb *r, struct slot *sl, const unsigned char *p,
    const unsigned char *end, uint32_t forbid)
{
	int64_t x[8], step[8];
	unsigned char type[8];
	uint32_t stepping = 0, moved = 0, m, mask;
	struct trc_fields *cp;
	struct trc_attr *a;
	struct val *v;
	uint64_t u;
	int i, n = sl->n;

	/* n + 1 bytes there: the mask and a value's 3 bytes each, at most
	 * 1 + 3n, read no further than 2n past them (PAD). */
	if (n > 8 || sl->dupknown || end - p <= n)
		return NULL;
	slot_settle(sl);
	/* The values coded, 1 or more of n, in one byte; else r_values'. */
	if ((mask = *p++) - 1 >= 0x7f || mask >> n != 0)
		return NULL;
	for (i = 0; i < n; i++) {
		v = &sl->v[i];
		if (!(mask >> i & 1)) {
			if (v->step == 0)
				continue;	/* as it was */
			if (v->type != V_INT)
				return NULL;
			step[i] = v->step;
			type[i] = V_INT;
		} else {
			if ((p = value3(p, &u)) == NULL)
				return NULL;
			step[i] = 0;
			switch (type[i] = u & 7) {
			case V_INT:
				if (v->type != V_INT)
					return NULL;
				step[i] = unzig(u >> 3);
				break;
			case V_REF:
				if (u >> 3 >= r->nstrs || (v->code != K_OTHER &&
				    v->code != K_FN && v->code != K_OP))
					return NULL;
				x[i] = (int64_t)(u >> 3);
				break;
			case V_ANY:
				if (u != V_ANY || (v->code != K_PEER &&
				    v->code != K_TAG))
					return NULL;
				break;
			default:
				return NULL;
			}
		}
		if (type[i] == V_INT) {
			x[i] = (int64_t)((uint64_t)v->i + (uint64_t)step[i]);
			if (!int_field_ok(v->code, x[i]))
				return NULL;
		}
		moved |= 1u << i;
		stepping |= (uint32_t)(step[i] != 0) << i;
	}
	/* Past the run's end: read no further than PAD (above). */
	if (p > end)
		return NULL;
	if ((moved & forbid) &&
	    (!(forbid & COPY_OK) || unqueue_inline(r, sl, r->at) < 0))
		return NULL;
	/*
	 * By rank, a field the caller reads changed (a size among many,
	 * LAMMPS's): it will likely change again under the events queued
	 * from the slot, so this one takes a copy, which costs less than
	 * unqueue's search for it at the slot's next.  Taken before the
	 * values are stored and then stored into both: a copy loaded
	 * wide just after a field's narrow store stalls on it (store to
	 * load forwarding fails), 12% of this function's time, measured.
	 */
	cp = NULL;
	if ((forbid & COPY_OK) && (moved & sl->visible) &&
	    r->ncopy < QUEUE) {
		cp = &r->fcopy[r->ncopy++];
		*cp = sl->f;
	}
	for (m = moved; m != 0; m &= m - 1) {
		v = &sl->v[i = __builtin_ctz(m)];
		v->step = step[i];
		if (type[i] == V_INT)
			v->i = x[i];
		else {
			/* A string or "*": its text is the field's (b_text). */
			r->vnames = 1;
			v->type = type[i];
			sl->intok = 0;
			a = &sl->attr[i];
			a->key = r->strs[v->key];
			if (type[i] == V_REF) {
				v->sid = (int32_t)x[i];
				a->val = r->strs[v->sid];
			} else {
				a->val.s = "*";
				a->val.len = 1;
			}
		}
		put_field(&sl->f, v->code, type[i], x[i], &sl->attr[i].val);
		if (cp != NULL)
			put_field(cp, v->code, type[i], x[i], &sl->attr[i].val);
	}
	/* Every value that steps is an integer of a field here. */
	sl->stepping = sl->stepfast = stepping;
	r->vcopy = cp;
	return p;
}

/* Field k of f's peer tag comm root, and of its bytes req. */
static inline int32_t *
field32(struct trc_fields *f, unsigned k)
{
	return k < 2 ? (k ? &f->tag : &f->peer) : (k == 2 ? &f->comm :
	    &f->root);
}

static inline int64_t *
field64(struct trc_fields *f, unsigned k)
{
	return k ? &f->req : &f->bytes;
}

/*
 * values_fast for a slot of integers (sl->intok), by rank: each value
 * the mask codes an integer's new delta in one to three bytes, each
 * other moved by its step when it has one; anything else is
 * values_fast's.  One loop over the values that move: the mask's, then
 * a loop of those that step, was 11% slower on LAMMPS than the loop
 * over every value of version 4 (its trip counts, one or two by the
 * slot, mispredicted); this one, 7% faster (medians of 11 runs).  The
 * same checks, the same slot and fields after, with no value's type to
 * look at, and the fields stored where slot_plan said, the caller's
 * only: on LAMMPS's trace (two thirds of its events of mode values, a
 * size changed, a request stepping), trc-sum 12 to 16% faster (medians
 * of 9 and 15 runs in turns). Tried and dropped, measured on that trace
 * and trc-heat's: the time's delta read without a branch (four bytes,
 * the end by the stop bits), 3.5% slower on LAMMPS, 5% on allreduce;
 * the place's gap without a branch, 5% and 12% (trc-heat) slower; this
 * function out of line, 3% slower on LAMMPS.
 */
static inline __attribute__((always_inline)) const unsigned char *
values_int(struct rtrcb *r, struct slot *sl, const unsigned char *p,
    const unsigned char *end, uint32_t forbid, const int copy)
{
	int64_t x[8], d[8];
	uint32_t moved, mask, stepping = sl->stepping, m, i;
	uint32_t n = (uint32_t)sl->n;
	uint64_t u;
	struct trc_fields *cp;
	struct val *v;

	/* As values_fast: n + 1 bytes there, the mask in one byte. */
	if ((size_t)(end - p) <= n)
		return NULL;
	slot_settle(sl);
	if ((mask = *p++) - 1 >= 0x7f || mask >> n != 0)
		return NULL;
	/* The values that move, those coded (an integer's delta) and
	 * those that step: the work is theirs, not the slot's. */
	moved = mask | stepping;
	for (m = moved; m != 0; m &= m - 1) {
		v = &sl->v[i = (uint32_t)__builtin_ctz(m)];
		if (!(mask >> i & 1))
			d[i] = v->step;
		else if ((*p & 7) != V_INT || (p = value3(p, &u)) == NULL)
			return NULL;
		else
			d[i] = unzig(u >> 3);
		x[i] = (int64_t)((uint64_t)v->i + (uint64_t)d[i]);
		/* int_field_ok: 32 bits of a peer, tag, comm or root, no
		 * size or request under 0. */
		if ((uint64_t)x[i] > UINT64_MAX >> v->lim)
			return NULL;
	}
	if (p > end)
		return NULL;
	if ((moved & forbid) && unqueue_inline(r, sl, r->at) < 0)
		return NULL;
	cp = NULL;
	if (copy && (moved & sl->visible) && r->ncopy < QUEUE) {
		cp = &r->fcopy[r->ncopy++];
		*cp = sl->f;
	}
	for (stepping = 0, m = moved; m != 0; m &= m - 1) {
		v = &sl->v[i = (uint32_t)__builtin_ctz(m)];
		v->i = x[i];
		v->step = d[i];
		stepping |= (uint32_t)(d[i] != 0) << i;
	}
	for (m = moved & sl->v32; m != 0; m &= m - 1) {
		i = (uint32_t)__builtin_ctz(m);
		*field32(&sl->f, sl->sel[i]) = (int32_t)x[i];
		if (cp != NULL)
			*field32(cp, sl->sel[i]) = (int32_t)x[i];
	}
	for (m = moved & sl->v64; m != 0; m &= m - 1) {
		i = (uint32_t)__builtin_ctz(m);
		*field64(&sl->f, sl->sel[i]) = x[i];
		if (cp != NULL)
			*field64(cp, sl->sel[i]) = x[i];
	}
	sl->stepping = sl->stepfast = stepping;
	if (copy)
		r->vcopy = cp;
	return p;
}

/* Who takes the usual events fast_fields reads: trc_next's queue in
 * stream order, trc_next_run's batch of one rank, or the summary as
 * each is decoded (r_sum_runs: nothing queued, no copy). */
enum { TAKE_STREAM, TAKE_RUN, TAKE_SUMMARY };

/*
 * The fields of a usual event (its head, mode and slot which, its
 * attributes at s, before end), where they lie: in its slot, changed
 * only here, once each value is known to be usual, and marked queued
 * in batch; a slot queued already, which the event would change, ends
 * the batch (taker, above: by rank, event i of it).  Past the
 * attributes, or NULL (nothing changed).
 */
static inline __attribute__((always_inline)) const unsigned char *
fast_fields(struct rtrcb *r, struct rstate *rs, unsigned head,
    unsigned mode, unsigned which, const unsigned char *s,
    const unsigned char *end, uint32_t gen, uint32_t batch, uint32_t i,
    int taker, const struct trc_fields **f)
{
	const int by_rank = taker != TAKE_STREAM;
	struct slot *sl;

	if (mode == MODE_NONE) {
		*f = &no_fields.f;
		return s;
	}
	if ((sl = rs->slot[SLOT(head & 15, which)]) == NULL ||
	    sl->gen != gen)
		return NULL;
	/* A slot queued in this batch may change where the caller does
	 * not look (a marker's iteration, a request id for trc-sum);
	 * elsewhere, by rank, those queued from it take a copy of its
	 * fields, else the batch ends. */
	if (mode == MODE_VALUES) {
		if (taker == TAKE_RUN)
			r->at = i;
		if (taker == TAKE_SUMMARY && sl->intok)
			s = values_int(r, sl, s, end, 0, 0);
		else if (by_rank && sl->intok)
			s = values_int(r, sl, s, end, sl->queued != batch ?
			    0 : sl->visible, 1);
		else if (taker == TAKE_SUMMARY) {
			/* The summary knows a name by its fields' place:
			 * changed in place, no longer. */
			r->vnames = 0;
			if ((s = values_fast(r, sl, s, end, 0)) != NULL &&
			    r->vnames)
				sum_run_forget(r->kc);
		} else
			s = values_fast(r, sl, s, end, (sl->queued != batch ?
			    0 : sl->visible) | (by_rank ? COPY_OK : 0));
		if (s == NULL)
			return NULL;
		/* Its own copy: the slot is not queued by it. */
		if (taker == TAKE_RUN && r->vcopy != NULL) {
			*f = r->vcopy;
			return s;
		}
	} else if (sl->stepping != 0) {
		/* Integers of fields that step (request ids): put off
		 * while safe, where the caller never reads them. */
		if (sl->pending < sl->safe)
			sl->pending++;
		else if (sl->stepfast != sl->stepping ||
		    (taker != TAKE_SUMMARY && sl->queued == batch &&
		    (sl->stepping & sl->visible) &&
		    (!by_rank || unqueue(r, sl, i) < 0)) ||
		    step_defer(sl) < 0)
			return NULL;
	}
	if (taker == TAKE_SUMMARY) {
		*f = &sl->f;
		return s;
	}
	if (sl->queued != batch) {
		if (by_rank)
			sl->qfirst = i;
		sl->queued = batch;
	}
	*f = &sl->f;
	return s;
}

/* The slot and time of a usual event of head head at p (past its
 * place): past them, or NULL. */
static inline __attribute__((always_inline)) const unsigned char *
fast_head(const struct rtrcb *r, const unsigned char *p, unsigned head,
    unsigned *mode, unsigned *which, uint64_t *u)
{
	uint64_t v;
	unsigned c;

	if ((*mode = r->fast_mode[head]) == 0)
		return NULL;
	(*mode)--;
	*which = 0;
	if ((head & 0x80) && (*which = *p++) - 1 >= NSLOTS - 1)
		return NULL;
	/* The time's delta, at most five bytes (35 bits, 34 s), each
	 * byte at its shift: a loop's shift by a count cost twice the
	 * instructions a byte. */
	if ((c = *p++) < 0x80) {
		*u = c;
		return p;
	}
	v = c & 0x7f;
	if ((c = *p++) < 0x80) {
		*u = v | (uint64_t)c << 7;
		return p;
	}
	v |= (uint64_t)(c & 0x7f) << 7;
	if ((c = *p++) < 0x80) {
		*u = v | (uint64_t)c << 14;
		return p;
	}
	v |= (uint64_t)(c & 0x7f) << 14;
	if ((c = *p++) < 0x80) {
		*u = v | (uint64_t)c << 21;
		return p;
	}
	v |= (uint64_t)(c & 0x7f) << 21;
	if ((c = *p++) < 0x80) {
		*u = v | (uint64_t)c << 28;
		return p;
	}
	return NULL;
}

/*
 * The usual events in stream order, for a caller of fields only: of a
 * rank seen before in the block, a time of up to five bytes, and no
 * attributes (mode none), a slot as it was or whose integers step
 * (mode same), or a few values changed (mode values, values_fast).  As
 * many as follow, up to QUEUE, are decoded in one loop into r->q, each
 * from the run that holds its place (r->owner), its time, rank, kind
 * and its slot's fields, which stay as they are until the queue is
 * done: the first into ev, the others queued for trc_next
 * (trc_reader_queue).  At any other, or any doubt, the loop stops
 * there, for r_next_any to read when the queue is done; at the first,
 * it reads it now.  A run's next place of one byte is read and owned
 * here, any other by r_next_any (r->unplaced).
 *
 * Tried and measured worse (trc-sum, 10 M events, paired runs, in
 * version 3's blocks of stream order): the time read without a branch
 * (eight bytes at once, the varint's end by its stop bits), 3-4% more
 * CPU time; the next event's slot prefetched, 0-12% more; the slots of
 * the eighth event ahead prefetched, 25% more; step_fields out of
 * line, 2-3% more; a queue of 8, 4-9% more than of 64.
 */
static int __attribute__((noinline))
r_next_usual(struct trc_reader *tr, struct trc_event *ev)
{
	struct rtrcb *r = trc_reader_state_inline(tr);
	const unsigned char *raw = r->raw, *s, *p, *end;
	const struct trc_fields *f;
	struct trc_brief *q = r->q, *qe, *qlast;
	struct run *runs = r->runs, *c;
	const uint32_t *owner = r->owner;
	struct rstate *rs;
	unsigned head, which, mode;
	uint64_t u;
	uint32_t gen = r->gen, k, batch, place = r->place, unplaced = 0;
	int64_t t, tmin = r->tmin;
	uint64_t tspan = (uint64_t)r->tmax - (uint64_t)r->tmin;

	/* Never 0, a slot's at first. */
	if ((batch = ++r->batch) == 0)
		batch = r->batch = 1;
	qlast = q + (r->left < QUEUE ? r->left : QUEUE);
	for (qe = q; qe < qlast;) {
		if ((k = owner[place]) == 0)
			break;
		c = &runs[k - 1];
		end = raw + c->end;
		head = c->head;
		if ((s = fast_head(r, raw + c->pos, head, &mode, &which,
		    &u)) == NULL || s > end)
			break;
		rs = c->rs;
		if (rs->gen != gen)
			break;
		t = (int64_t)((uint64_t)rs->last_t + (uint64_t)unzig(u));
		if ((uint64_t)t - (uint64_t)tmin > tspan ||
		    (s = fast_fields(r, rs, head, mode, which, s, end, gen,
		    batch, 0, TAKE_STREAM, &f)) == NULL)
			break;
		qe->t = t;
		qe->rank = c->rank;
		qe->kind = (enum trc_kind)(head & 15);
		qe->f = f;
		qe++;
		rs->last_t = t;
		c->left--;
		place++;
		/* The run's next head and place, else r_place's. */
		if (c->left > 0 && (p = place_fast(r, c, k, s, end)) != NULL)
			s = p;
		else if (c->left > 0 || s != end)
			unplaced = k;
		c->pos = (uint32_t)(s - raw);
		if (unplaced != 0)
			break;
	}
	if ((k = (uint32_t)(qe - q)) == 0)
		return r_next_any(tr, ev);
	r->unplaced = unplaced;
	r->place = place;
	r->left -= k;
	ev->t = q->t;
	ev->rank = q->rank;
	ev->kind = q->kind;
	fields_copy(&ev->peer, q->f);
	ev->nattr = 0;
	ev->line = r->line + 1;
	r->line += k;
	trc_reader_queue(tr, q + 1, k - 1);
	return 1;
}

/*
 * The next event: by r_next_usual where it may be the usual one (for a
 * caller of fields only, a run's place read), else by r_next_any.
 * Apart, so that a reader of text (trc-cat) pays no register saved for
 * a way it never takes.
 */
static int
r_next(struct trc_reader *tr, struct trc_event *ev)
{
	const struct rtrcb *r = trc_reader_state_inline(tr);

	if (r->left == 0 || r->unplaced != 0 || !r->fields_only)
		return r_next_any(tr, ev);
	return r_next_usual(tr, ev);
}

/* ---- By rank: each rank's events in turn (trc_by_rank) ---- */

/* An error found by rank at place: kept when it is the first so far,
 * in stream order, and reported at the block's end. */
static void
r_pend(struct rtrcb *r, uint32_t place, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void
r_pend(struct rtrcb *r, uint32_t place, const char *fmt, ...)
{
	va_list ap;

	if (place >= r->pend)
		return;
	va_start(ap, fmt);
	vsnprintf(r->pend_msg, sizeof(r->pend_msg), fmt, ap);
	va_end(ap);
	r->pend = place;
}

/*
 * The usual events of run c (a place of one byte before each, then as
 * r_next_usual reads them), up to QUEUE, into r->q and their places
 * into r->qplace: how many.  The run's first event in the block, an
 * event placed at or after an error, or a time that goes back, is
 * r_run_any's.
 */
static inline __attribute__((always_inline)) size_t
run_usual(struct rtrcb *r, struct run *c, const int narrow)
{
	const unsigned char *raw = r->raw, *p = raw + c->pos, *s;
	const unsigned char *end = raw + c->end;
	const struct trc_fields *f;
	struct rstate *rs = c->rs;
	struct trc_brief *q = r->q;
	uint32_t *qplace = r->qplace;
	uint64_t *tplace = r->tplace;
	uint32_t *tplace32 = r->tplace32;
	uint64_t tbase = (uint64_t)r->tmin - 1;
	unsigned head, which, mode;
	uint64_t u;
	uint32_t batch, place = c->place, np, lim, i, n, gen = r->gen;
	/* The run's first event, r_run_any's, is in the block's range;
	 * each next one, a delta of at most 35 bits on, is past tmin:
	 * only tmax is to check. */
	int64_t t, d, last = rs->last_t, tmax = r->tmax;
	int32_t rank = c->rank;

	if (rs->gen != r->gen)
		return 0;
	if ((batch = ++r->batch) == 0)
		batch = r->batch = 1;
	r->ncopy = 0;
	/* Places at or past an error, or past the block, are not usual. */
	lim = r->pend < r->nev ? r->pend : r->nev;
	n = c->left < QUEUE ? c->left : QUEUE;
	for (i = 0; i < n; i++) {
		/* The head, then the place unless it follows (bit 6). */
		head = *p;
		if (head & 0x40) {
			np = place + 1;
			s = p + 1;
		} else if (p[1] - 1u < 0x7f) {
			np = place + 1 + p[1];
			s = p + 2;
		} else if (p[1] >= 0x80 && p[2] < 0x80) {
			np = place + 1 + ((p[1] & 0x7fu) | (uint32_t)p[2] << 7);
			s = p + 3;
		} else
			break;
		/* A place given twice: r_block_end. */
		if (np >= lim)
			break;
		/* A delta under 0 (u odd) is r_run_any's. */
		if ((s = fast_head(r, s, head, &mode, &which, &u)) ==
		    NULL || s > end || (u & 1))
			break;
		d = (int64_t)(u >> 1);
		/* At most 2^63 - 1 + 2^35: no wrap unsigned. */
		u = (uint64_t)last + (uint64_t)d;
		if (u > (uint64_t)tmax || (s = fast_fields(r, rs, head, mode,
		    which, s, end, gen, batch, i, TAKE_RUN, &f)) == NULL)
			break;
		t = (int64_t)u;
		q[i].t = t;
		q[i].rank = rank;
		q[i].kind = (enum trc_kind)(head & 15);
		q[i].f = f;
		qplace[i] = np;
		if (narrow)
			tplace32[np] = (uint32_t)((uint64_t)t - tbase);
		else
			tplace[np] = (uint64_t)t;
		last = t;
		place = np;
		p = s;
	}
	rs->last_t = last;
	c->place = place;
	c->pos = (uint32_t)(p - raw);
	c->left -= i;
	return i;
}

/* run_usual, one loop for each width of the places' times: no test of
 * it an event. */
static size_t __attribute__((noinline))
r_run_usual(struct rtrcb *r, struct run *c)
{
	return r->tnarrow ? run_usual(r, c, 1) : run_usual(r, c, 0);
}

/*
 * Run c's next event, any, read by r_event: 1 when queued, 0 when
 * placed at or after an error (read, not given), -1 with the reader
 * failed.  Each rank's range and order is checked here, at its first
 * event in the block (order=rank) and where its time goes back.
 */
static int __attribute__((noinline))
r_run_any(struct trc_reader *tr, struct rtrcb *r, struct run *c)
{
	const struct trc_header *h = trc_reader_header(tr);
	struct rstate *rs = c->rs;
	struct slot *sl = NULL;
	char a[24], b[24];
	unsigned head = 0;
	uint32_t np;
	int64_t t = 0, before = rs->last_t;
	int seen = rs->gen != 0, first = rs->gen != r->gen;

	if (r_head_place(tr, r, c) < 0)
		return -1;
	np = c->place;
	if (r->tnarrow ? r->tplace32[np] != 0 : r->tplace[np] != NO_TIME)
		return r_bad(tr, r, NULL, "two events at one place");
	r->line = r->line0 + (long)np - 1;	/* r_attrs says line + 1 */
	if (r_event(tr, r, c, &t, &head, &sl) < 0)
		return -1;
	if (first && h->ranks > 0 && c->rank >= h->ranks)
		r_pend(r, np, "rank %ld out of range (ranks=%ld)",
		    (long)c->rank, (long)h->ranks);
	if (h->order == TRC_ORDER_RANK && seen && t < before) {
		a[trc_format_time(a, t)] = '\0';
		b[trc_format_time(b, before)] = '\0';
		r_pend(r, np, "time goes backwards on rank %ld ('%s' after "
		    "'%s')", (long)c->rank, a, b);
	}
	if (r->tnarrow)
		r->tplace32[np] = (uint32_t)((uint64_t)t - (uint64_t)r->tmin + 1);
	else
		r->tplace[np] = (uint64_t)t;
	if (np >= r->pend)
		return 0;
	r->q[0].t = t;
	r->q[0].rank = c->rank;
	r->q[0].kind = (enum trc_kind)(head & 15);
	r->q[0].f = sl != NULL ? &sl->f : &no_fields.f;
	r->qplace[0] = np;
	return 1;
}

/* By rank: the first place without an event, a place given twice. */
static int __attribute__((noinline))
r_hole(struct trc_reader *tr, struct rtrcb *r)
{
	uint32_t i;

	for (i = 0; r->tnarrow ? r->tplace32[i] != 0 :
	    r->tplace[i] != NO_TIME; i++)
		;
	r->pos = 0;
	return r_fail(tr, r, "no event at place %lu of the block, two at "
	    "another", (unsigned long)i);
}

/* A place's time, by rank, in the block (r->tplace, r->tplace32); -1
 * when it has none yet. */
static inline int64_t
place_time(const struct rtrcb *r, uint32_t i)
{
	if (!r->tnarrow)
		return (int64_t)r->tplace[i];	/* NO_TIME reads as -1 */
	return r->tplace32[i] == 0 ? -1 :
	    (int64_t)((uint64_t)r->tmin + r->tplace32[i] - 1);
}

/* By rank, the block done: its time order checked (order=time), then
 * the first error: 0, or -1 with it reported. */
static int __attribute__((noinline))
r_block_end(struct trc_reader *tr, struct rtrcb *r)
{
	const uint64_t *tp = r->tplace, *q;
	const uint32_t *tw = r->tplace32, *w;
	char a[24], b[24];
	int64_t t = 0, prev = r->last_t;
	uint32_t i, pw, end = r->pend < r->nev ? r->pend : r->nev;

	/*
	 * Every place before the first error has its event: the counts
	 * sum to the block's, so a place without one is a place given
	 * twice, which r_run_usual does not look for (the load of its
	 * time's line before the store: 5% of trc-sum's time on halo).
	 * In a stream ordered by time the order's loop finds the first:
	 * a place without a time reads as -1, before the one before it,
	 * as times are never negative (place 0 is looked at first).
	 */
	if (end > 0 && place_time(r, 0) < 0)
		return r_hole(tr, r);
	if (trc_reader_header(tr)->order != TRC_ORDER_TIME) {
		for (i = 0; i < end; i++)
			if (place_time(r, i) < 0)
				return r_hole(tr, r);
	} else {
		/*
		 * Four times at a time, the signs of their differences
		 * or'ed (no difference of times from -1 to 2^63 - 1 wraps to
		 * 0 or more; of 32-bit ones from 0, none, to 2^31 - 1, none
		 * wraps either): a loop of one compare and branch a time
		 * was 8 instructions an event.  The first one back is
		 * then found one at a time.
		 */
		i = 0;
		if (!r->tnarrow) {
			for (q = tp; q + 4 <= tp + end; q += 4) {
				if ((int64_t)((q[0] - (uint64_t)prev) |
				    (q[1] - q[0]) | (q[2] - q[1]) |
				    (q[3] - q[2])) < 0)
					break;
				prev = (int64_t)q[3];
			}
			i = (uint32_t)(q - tp);
		} else if (prev <= r->tmax) {
			/* The time before, in the block's terms: one
			 * before tmin passes whatever follows. */
			pw = prev < r->tmin ? 0 :
			    (uint32_t)((uint64_t)prev - (uint64_t)r->tmin + 1);
			for (w = tw; w + 4 <= tw + end; w += 4) {
				if ((int32_t)((w[0] - pw) | (w[1] - w[0]) |
				    (w[2] - w[1]) | (w[3] - w[2])) < 0)
					break;
				pw = w[3];
			}
			if ((i = (uint32_t)(w - tw)) > 0)
				prev = place_time(r, i - 1);
		}
		for (; i < end; i++) {
			t = place_time(r, i);
			if (t < prev)
				break;
			prev = t;
		}
		if (i < end) {
			if (t < 0)
				return r_hole(tr, r);
			a[trc_format_time(a, t)] = '\0';
			b[trc_format_time(b, prev)] = '\0';
			r_pend(r, i, "time goes backwards ('%s' after '%s')", a,
			    b);
		}
		r->last_t = prev;
	}
	if (r->pend != NO_PLACE)
		return trc_fail_at(tr, r->name, r->line0 + (long)r->pend, "%s",
		    r->pend_msg);
	return 0;
}

/*
 * By rank, run k begun: what the runs after it read and write at their
 * start in the block (their forms stated again, mode keys) asked of
 * memory ahead, so that it is in the caches when needed: the slots'
 * table of run k + 3, the slots of run k + 2, and the slots' attributes
 * (a label's text, an operation's) and req= lists of run k + 1, each
 * from lines asked for one run before.  On 512 ranks (two to three MB
 * of slots) they are out of the caches by then, and r_attrs stalled on
 * each line in turn; asked at the run's own start, too late.  Inline:
 * a function of prefetches alone has no effect gcc keeps the call of.
 */
static inline __attribute__((always_inline)) void
rank_prefetch(const struct rtrcb *r, uint32_t k)
{
	const struct rstate *rs;
	const struct slot *sl;
	size_t j, off;
	int i;

	if (k + 3 < r->nruns)
		for (off = 0; off < sizeof(*rs); off += 64)
			__builtin_prefetch((const char *)r->runs[k + 3].rs +
			    off);
	/* A slot of four values, what most have (slot_get), not its cap:
	 * read, it would be a miss of its own before the others. */
	if (k + 2 < r->nruns)
		for (rs = r->runs[k + 2].rs, j = 0; j < NSLOTS * TRC_NKINDS;
		    j++)
			if ((sl = rs->slot[j]) != NULL)
				for (off = 0; off < sizeof(struct slot) +
				    4 * sizeof(struct val); off += 64)
					__builtin_prefetch((const char *)sl +
					    off, 1);
	if (k + 1 < r->nruns)
		for (rs = r->runs[k + 1].rs, j = 0; j < NSLOTS * TRC_NKINDS;
		    j++)
			if ((sl = rs->slot[j]) != NULL) {
				__builtin_prefetch(sl->attr, 1);
				__builtin_prefetch((const char *)sl->attr + 64,
				    1);
				for (i = 0; i < sl->n && i < 4; i++)
					if (sl->v[i].type == V_LIST)
						__builtin_prefetch(sl->v[i].lv,
						    1);
			}
}

/*
 * By rank, the next run with events left in *cp (1), past the runs
 * done, to the next block where this one is: 0 at the end of the
 * input, -1 with the reader failed.  Inline in both by-rank loops
 * (r_next_run, r_sum_runs), whose code it leaves as it was.
 */
static inline __attribute__((always_inline)) int
r_run_ready(struct trc_reader *tr, struct rtrcb *r, struct run **cp)
{
	struct run *c;
	int rc;

	for (;;) {
		while (r->run_at < r->nruns && r->runs[r->run_at].left == 0) {
			c = &r->runs[r->run_at];
			if (c->pos != c->end) {
				r->at_place = c->place;
				r->pos = c->pos;
				r_bad(tr, r, NULL,
				    "bytes after a rank's last event");
				return -1;
			}
			r->run_at++;
		}
		if (r->nev > 0 && r->run_at < r->nruns)
			break;
		if (r->nev > 0 && r_block_end(tr, r) < 0)
			return -1;
		if ((rc = r_next_block(tr, r)) <= 0)
			return rc;
	}
	c = &r->runs[r->run_at];
	/* Fewer ranks' slots stay in the caches (64 ranks' in 200 KB),
	 * where asking costs 0.6% more instructions (allreduce). */
	if (r->nruns >= 128 && c->rs->gen != r->gen)
		rank_prefetch(r, r->run_at);
	*cp = c;
	return 1;
}

static int
r_next_run(struct trc_reader *tr, struct trc_run *out)
{
	struct rtrcb *r = trc_reader_state_inline(tr);
	struct run *c;
	size_t n;
	int rc;

	for (;;) {
		if ((rc = r_run_ready(tr, r, &c)) <= 0)
			return rc;
		if ((n = r_run_usual(r, c)) == 0) {
			if ((rc = r_run_any(tr, r, c)) < 0)
				return -1;
			n = (size_t)rc;
		}
		if (n > 0) {
			out->b = r->q;
			out->n = n;
			out->place = r->qplace;
			out->line0 = r->line0;
			return 1;
		}
	}
}

/*
 * By rank into summary sm (trc_summary_add_runs): run_usual's loop, each
 * event handed to the summary as it is decoded rather than queued, so
 * that neither stores the batch nor reads it back, and a slot changed
 * under events already taken needs no copy.  Any other event (the run's
 * first in the block, a slot stated again: on 512 ranks, every 45th)
 * is read by r_run_any and handed over here, the usual ones after it
 * taken on in the same call.  How many events were read, or -1 with
 * the reader failed; at the summary's error, the event's place is the
 * reader's error (r_pend), as trc_run_fail makes it.  The rank has its
 * row already.
 */
static inline __attribute__((always_inline)) long
sum_usual(struct trc_reader *tr, struct rtrcb *r, struct run *c,
    struct trc_summary *sm, const int narrow)
{
	const unsigned char *raw, *p, *s, *end;
	const struct trc_fields *f;
	struct rstate *rs;
	uint64_t *tplace;
	uint32_t *tplace32;
	uint64_t tbase;
	unsigned head, which, mode;
	uint64_t u;
	uint32_t place, np, lim, i = 0, i0 = 0, n, gen;
	int64_t t, d, last, tmax;
	long line0;
	struct sum_run sr;
	struct kind_hit kc[KIND_HITS];
	struct trc_run run;
	int64_t sink;
	size_t failed = 0, done;
	int rc;

	n = c->left < QUEUE ? c->left : QUEUE;
	sum_run_begin(sm, &sr, c->rank, kc, &sink);
	r->kc = kc;
	for (;;) {
		/* The loop's state taken anew after the calls below:
		 * kept across them, it took the usual events' registers
		 * (5% more instructions on trc-heat, the call in the
		 * loop). */
		raw = r->raw;
		p = raw + c->pos;
		end = raw + c->end;
		rs = c->rs;
		tplace = r->tplace;
		tplace32 = r->tplace32;
		tbase = (uint64_t)r->tmin - 1;
		place = c->place;
		gen = r->gen;
		last = rs->last_t;
		tmax = r->tmax;
		line0 = r->line0;
		lim = r->pend < r->nev ? r->pend : r->nev;
		if (rs->gen != gen || i == n)
			goto any;
		for (; i < n; i++) {
			/* run_usual's place, written again: as one inline
			 * function both loops moved and this one took 2 to
			 * 8% longer (2026-11-30, twice). */
			head = *p;
			if (head & 0x40) {
				np = place + 1;
				s = p + 1;
			} else if (p[1] - 1u < 0x7f) {
				np = place + 1 + p[1];
				s = p + 2;
			} else if (p[1] >= 0x80 && p[2] < 0x80) {
				np = place + 1 + ((p[1] & 0x7fu) |
				    (uint32_t)p[2] << 7);
				s = p + 3;
			} else
				goto any;
			if (np >= lim)
				goto end;
			if ((s = fast_head(r, s, head, &mode, &which, &u)) ==
			    NULL || s > end || (u & 1))
				goto any;
			d = (int64_t)(u >> 1);
			u = (uint64_t)last + (uint64_t)d;
			if (u > (uint64_t)tmax || (s = fast_fields(r, rs, head,
			    mode, which, s, end, gen, 0, i, TAKE_SUMMARY, &f)) ==
			    NULL)
				goto any;
			t = (int64_t)u;
			if (narrow)
				tplace32[np] = (uint32_t)((uint64_t)t - tbase);
			else
				tplace[np] = (uint64_t)t;
			last = t;
			place = np;
			p = s;
			if (sum_run_event(sm, &sr, t, (enum trc_kind)(head & 15),
			    f, line0 + (long)np) < 0) {
				r_pend(r, np, "%s", trc_summary_error(sm));
				failed = 1;
				i++;
				goto end;
			}
		}
		goto end;
any:
		if (i == n)
			goto end;
		/* The usual events' run ended, the cursor back in c; the
		 * event read by r_run_any (0: placed at or after an error,
		 * read, not given) and taken as r_sum_runs takes it. */
		sum_run_end(&sr, i - i0);
		rs->last_t = last;
		c->place = place;
		c->pos = (uint32_t)(p - raw);
		c->left -= i - i0;
		r->kc = NULL;
		if ((rc = r_run_any(tr, r, c)) < 0)
			return -1;
		i++;
		if (rc > 0) {
			run.b = r->q;
			run.n = 1;
			run.place = r->qplace;
			run.line0 = r->line0;
			if (trc_summary_add_run(sm, &run, 0, &done) < 0) {
				r_pend(r, run.place[0], "%s",
				    trc_summary_error(sm));
				return i;
			}
		}
		i0 = i;
		sum_run_begin(sm, &sr, c->rank, kc, &sink);
		r->kc = kc;
	}
end:
	sum_run_end(&sr, i - i0 - failed);
	r->kc = NULL;
	rs->last_t = last;
	c->place = place;
	c->pos = (uint32_t)(p - raw);
	c->left -= i - i0;
	return i;
}

static long __attribute__((noinline))
r_sum_usual(struct trc_reader *tr, struct rtrcb *r, struct run *c,
    struct trc_summary *sm)
{
	return r->tnarrow ? sum_usual(tr, r, c, sm, 1) :
	    sum_usual(tr, r, c, sm, 0);
}

/*
 * By rank, every run into summary sm, as trc_next_run gives them and
 * trc_summary_add_run takes them, the usual events of a rank the
 * summary has a row for handed over as decoded (sum_usual): 0 at the
 * end, -1 on error, the first in stream order.
 */
static int
r_sum_runs(struct trc_reader *tr, struct trc_summary *sm)
{
	struct rtrcb *r = trc_reader_state_inline(tr);
	struct trc_run run;
	struct run *c;
	size_t n, done;
	int rc;

	for (;;) {
		if ((rc = r_run_ready(tr, r, &c)) <= 0)
			return rc;
		if (c->rank < sm->nranks && sm->rank[c->rank].events > 0) {
			if ((rc = (int)r_sum_usual(tr, r, c, sm)) < 0)
				return -1;
			if (rc > 0)
				continue;
		}
		/* A rank's first event, or one placed at or after an
		 * error. */
		if ((n = r_run_usual(r, c)) == 0) {
			if ((rc = r_run_any(tr, r, c)) < 0)
				return -1;
			n = (size_t)rc;
		}
		if (n > 0) {
			run.b = r->q;
			run.n = n;
			run.place = r->qplace;
			run.line0 = r->line0;
			if (trc_summary_add_run(sm, &run, 0, &done) < 0)
				r_pend(r, run.place[done], "%s",
				    trc_summary_error(sm));
		}
	}
}

/* The caller's error at event i of the run it was given. */
static void
r_run_fail(struct trc_reader *tr, const struct trc_run *run, size_t i,
    const char *msg)
{
	r_pend(trc_reader_state_inline(tr), run->place[i], "%s", msg);
}

/* By rank, when asked before the first event, of a caller of fields
 * only: 1, else 0. */
static int
r_by_rank(struct trc_reader *tr)
{
	struct rtrcb *r = trc_reader_state_inline(tr);

	if (!r->fields_only || r->blocks_read > 0 || r->by_rank)
		return r->by_rank;
	if ((r->qplace = malloc(QUEUE * sizeof(*r->qplace))) == NULL ||
	    (r->fcopy = malloc(QUEUE * sizeof(*r->fcopy))) == NULL)
		return 0;
	r->by_rank = 1;
	return 1;
}

/* ---- The format: trcb_writer on a file or stdout ---- */

struct wout {
	int			 fd;
	char			*name;
	struct trcb_writer	*w;
};

static void
wo_free(void *state)
{
	struct wout *o = state;

	if (o == NULL)
		return;
	if (o->fd > 1)
		close(o->fd);
	trcb_wfree(o->w);
	free(o->name);
	free(o);
}

static int
wo_open(struct trc_out *out, const char *path, const struct trc_header *h,
    int zstd)
{
	struct wout *o;
	int stdout_ = path == NULL || strcmp(path, "-") == 0;

	if ((o = calloc(1, sizeof(*o))) == NULL)
		return trc_out_fail(out, "out of memory");
	trc_out_set_state(out, o);
	o->fd = 1;
	if ((o->name = strdup(stdout_ ? "<stdout>" : path)) == NULL)
		return trc_out_fail(out, "out of memory");
	if (!stdout_ &&
	    (o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0)
		return trc_out_fail(out, "%s: %s", path, strerror(errno));
	if ((o->w = trcb_wopen(o->fd, o->name, h, zstd)) == NULL)
		return trc_out_fail(out, "out of memory");
	if (trcb_werror(o->w)[0] != '\0')
		return trc_out_fail(out, "%s", trcb_werror(o->w));
	return 0;
}

static int
wo_open_raw(struct trc_out *out, const char *path, const struct trc_header *h)
{
	return wo_open(out, path, h, 0);
}

static int
wo_open_zstd(struct trc_out *out, const char *path, const struct trc_header *h)
{
	return wo_open(out, path, h, 1);
}

static int
wo_write(struct trc_out *out, const struct trc_event *ev)
{
	struct wout *o = trc_out_state(out);

	if (trcb_write(o->w, ev) < 0)
		return trc_out_fail(out, "%s", trcb_werror(o->w));
	return 0;
}

static int
wo_close(struct trc_out *out)
{
	struct wout *o = trc_out_state(out);
	int rc;

	if (trcb_wclose(o->w) < 0)
		return trc_out_fail(out, "%s", trcb_werror(o->w));
	if (o->fd > 1) {
		rc = close(o->fd);
		o->fd = -1;
		if (rc < 0)
			return trc_out_fail(out, "%s: %s", o->name,
			    strerror(errno));
	}
	return 0;
}

const struct trc_format trc_format_trcb = {
	.name = "trcb",
	.bid = bid,
	.open = r_open,
	.next = r_next,
	.by_rank = r_by_rank,
	.next_run = r_next_run,
	.run_fail = r_run_fail,
	.sum_runs = r_sum_runs,
	.close = r_close,
	.wopen = wo_open_raw,
	.write = wo_write,
	.wclose = wo_close,
	.wfree = wo_free,
};

/* The same stream with each block compressed by zstd when it gains. */
const struct trc_format trc_format_trcbz = {
	.name = "trcb-zstd",
	.alias = "trcbz",
	.bid = bid,
	.open = r_open,
	.next = r_next,
	.by_rank = r_by_rank,
	.next_run = r_next_run,
	.run_fail = r_run_fail,
	.sum_runs = r_sum_runs,
	.close = r_close,
	.wopen = wo_open_zstd,
	.write = wo_write,
	.wclose = wo_close,
	.wfree = wo_free,
};

#endif /* TRCB_WRITER_ONLY */
