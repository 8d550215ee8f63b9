/*
 * fmt.h - private to lib/: what a format provides and what it may use.
 *
 * One file per foreign format under lib/fmt/, as libarchive keeps one
 * archive_read_support_format_*.c per format.  Each fills a struct
 * trc_format: a bid from the first bytes, a pull reader that yields
 * struct trc_event through trc_next(), and/or a writer that takes
 * events in time order.  The reader (lib/reader.c) checks every event
 * a format yields as it checks the text stream (ranks, time order), so
 * a format yields valid events or fails.
 */
#ifndef TRC_FMT_PRIVATE_H
#define TRC_FMT_PRIVATE_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "trc.h"
#include "swar.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* src.c: a file or stdin, gzip inflated; the first bytes kept for bids. */
#define TRC_HEADSIZE	4096
struct trc_src;
/* NULL only when out of memory; an open error is kept (trc_src_error). */
struct trc_src	*trc_src_open(const char *path);
/* The first (inflated) bytes of the input, for bids. */
const unsigned char *trc_src_head(const struct trc_src *, size_t *n);
ssize_t		 trc_src_read(struct trc_src *, void *, size_t);
const char	*trc_src_error(const struct trc_src *);	/* NULL: none */
const char	*trc_src_name(const struct trc_src *);
int		 trc_src_gzip(const struct trc_src *);
void		 trc_src_close(struct trc_src *);

/*
 * The first '\n' in [p, end), or NULL: sixteen bytes at a time where
 * SSE2 is (every x86-64), then eight in a register.  Lines of the
 * foreign formats are short (a SimGrid action is 15 bytes), where
 * memchr's call and set-up cost more than the scan; a Paraver record
 * of some 80 bytes took 136 instructions by eights (callgrind), and
 * its reader 3% more CPU time than by sixteens (SDDF's 2.5%).
 */
static inline char *
trc_find_nl(char *p, const char *end)
{
	uint64_t m;
#ifdef __SSE2__
	const __m128i nl = _mm_set1_epi8('\n');
	unsigned k;

	for (; end - p >= 16; p += 16)
		if ((k = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
		    _mm_loadu_si128((const __m128i *)(const void *)p), nl))) !=
		    0)
			return p + __builtin_ctz(k);
#endif
	for (; end - p >= 8; p += 8)
		if ((m = swar_eq(swar_load(p), '\n')) != 0)
#if SWAR_LE
			return p + swar_first(m);
#else
			break;
#endif
	for (; p < end; p++)
		if (*p == '\n')
			return p;
	return NULL;
}

/*
 * parse.c: trc_parse_event(s, NULL, ...) for the reader, which may
 * leave attr[] and reqs empty (nattr 0) when its caller reads fields
 * only (trc_open_opts.fields_only); the checks are the same.
 */
int		 trc_parse_padded(const char *s, struct trc_event *,
		    int fields_only, char err[TRC_ERRLEN], const char **stop);
/* The parser trc_parse_padded calls, for a caller of many lines: one
 * call each, with no choice made again. */
typedef int	(*trc_padded_fn)(const char *s, struct trc_event *,
		    char err[TRC_ERRLEN], const char **stop);
trc_padded_fn	 trc_parse_padded_fn(int fields_only, int no_match);
/* Its usual line by AVX-512BW's 64-byte compares (want 1, the default
 * where the CPU has them) or SSE2's 16-byte ones (0): the width in use
 * after, 1 or 0.  For the tests, which check that both agree. */
int		 trc_parse_wide(int want);

/* lines.c: lines of a text format, NUL-terminated in place, CR dropped. */
struct trc_lines;
struct trc_lines *trc_lines_new(struct trc_src *, int own);
struct trc_lines *trc_lines_open(const char *path);
/* 1 with a line valid until the next call, 0 at the end, -1 on error
 * ("file:line: message" in trc_lines_error). */
int		 trc_lines_next(struct trc_lines *, char **s, size_t *len);
long		 trc_lines_lineno(const struct trc_lines *);
const char	*trc_lines_name(const struct trc_lines *);
const char	*trc_lines_error(const struct trc_lines *);
void		 trc_lines_close(struct trc_lines *);

/*
 * event.c: building an event field by field.  The builder keeps the
 * attribute text (what writers write) and the parsed fields (what
 * tools read) in agreement; its strings live in the builder until the
 * next trc_eb_start().
 */
struct trc_evbuild {
	struct trc_event *ev;
	size_t		  len;
	int		  full;
	char		  bad[TRC_ERRLEN];	/* a value the stream rejects */
	char		  buf[TRC_MAXLINE];
};
void	 trc_eb_start(struct trc_evbuild *, struct trc_event *, int64_t t,
	    int32_t rank, enum trc_kind);
/*
 * trc_eb_int(b, key, v): peer, tag, comm, root, bytes, req go to their
 * fields too; TRC_ANY is written "*".  A value of TRC_NONE adds
 * nothing.  Readers call it for every attribute of every event, so it
 * is inline: with a literal key, the key's length and field are known
 * when compiling (strlen and strcmp of literals fold) and the key is
 * copied by a few moves.
 */
enum { TRC_EBF_NONE, TRC_EBF_PEER, TRC_EBF_TAG, TRC_EBF_COMM, TRC_EBF_ROOT,
	TRC_EBF_BYTES, TRC_EBF_REQ };
#define TRC_EB_FIELD(key)						\
	(strcmp((key), "peer") == 0 ? TRC_EBF_PEER :			\
	 strcmp((key), "tag") == 0 ? TRC_EBF_TAG :			\
	 strcmp((key), "comm") == 0 ? TRC_EBF_COMM :			\
	 strcmp((key), "root") == 0 ? TRC_EBF_ROOT :			\
	 strcmp((key), "bytes") == 0 ? TRC_EBF_BYTES :			\
	 strcmp((key), "req") == 0 ? TRC_EBF_REQ : TRC_EBF_NONE)
#define trc_eb_int(b, key, v)						\
	trc_eb_intk((b), (key), strlen(key), TRC_EB_FIELD(key), (v))

/* Room for key=value, the value at most vmax bytes: where the value
 * goes, with "key=" written, or NULL when full. */
static inline __attribute__((always_inline)) char *
trc_eb_slot(struct trc_evbuild *b, const char *key, size_t klen, size_t vmax)
{
	char *k;

	if (b->full || b->ev->nattr == TRC_MAXATTR ||
	    b->len + klen + vmax + 2 > sizeof(b->buf)) {
		b->full = 1;
		return NULL;
	}
	k = b->buf + b->len;
	memcpy(k, key, klen);
	k[klen] = '=';
	return k + klen + 1;
}

/* The attribute whose value lies at val, vlen bytes; its index.  The
 * attributes lie as the text reader leaves them, "k=v k=v", so that
 * writers copy them in one piece. */
static inline __attribute__((always_inline)) int
trc_eb_commit(struct trc_evbuild *b, char *val, size_t klen, size_t vlen)
{
	struct trc_event *ev = b->ev;
	int i = ev->nattr++;

	ev->attr[i].key.s = val - klen - 1;
	ev->attr[i].key.len = klen;
	ev->attr[i].val.s = val;
	ev->attr[i].val.len = vlen;
	val[vlen] = ' ';
	b->len += klen + vlen + 2;
	return i;
}

/*
 * v written at val as trc(5) has it, '*' for TRC_ANY: its length.
 * Numbers below 100 (most ranks, tags, requests) without
 * trc_format_int, which was a third of building a DUMPI event
 * (callgrind, 2026-11-28).
 */
static inline __attribute__((always_inline)) size_t
trc_eb_value(char *val, int64_t v)
{
	static const char dig2[] =
	    "00010203040506070809101112131415161718192021222324"
	    "25262728293031323334353637383940414243444546474849"
	    "50515253545556575859606162636465666768697071727374"
	    "75767778798081828384858687888990919293949596979899";

	if (v == TRC_ANY) {
		val[0] = '*';
		return 1;
	}
	if ((uint64_t)v < 10) {
		val[0] = (char)('0' + v);
		return 1;
	}
	if ((uint64_t)v < 100) {
		memcpy(val, dig2 + 2 * v, 2);
		return 2;
	}
	return trc_format_int(val, v);
}

static inline __attribute__((always_inline)) void
trc_eb_intk(struct trc_evbuild *b, const char *key, size_t klen, int field,
    int64_t v)
{
	struct trc_event *ev = b->ev;
	size_t n;
	char *val;

	if (v == TRC_NONE || (val = trc_eb_slot(b, key, klen, 21)) == NULL)
		return;
	n = trc_eb_value(val, v);
	(void)trc_eb_commit(b, val, klen, n);
	switch (field) {
	case TRC_EBF_PEER:	ev->peer = (int32_t)v; break;
	case TRC_EBF_TAG:	ev->tag = (int32_t)v; break;
	case TRC_EBF_COMM:	ev->comm = (int32_t)v; break;
	case TRC_EBF_ROOT:	ev->root = (int32_t)v; break;
	case TRC_EBF_BYTES:	ev->bytes = v; break;
	case TRC_EBF_REQ:
		/* From val and n, not a copy of attr[i].val: a 16-byte
		 * load of the two 8-byte stores just made waits for them
		 * (no store forwarding), a stall perf shows in every
		 * event's build. */
		ev->req = v;
		ev->reqs.s = val;
		ev->reqs.len = n;
		break;
	}
}
/*
 * key=s for a value the reader made itself and knows the stream takes
 * as it is: a word (op=, fn=, no blank in it), or a req= list of ids
 * of which first is the first.  Its field is set as the parser sets
 * it, without trc_eb_strk's scan for blanks and its parse again (which
 * were a tenth of reading a SimGrid trace of waits).
 */
enum { TRC_EBW_OP, TRC_EBW_FN, TRC_EBW_REQS };
static inline __attribute__((always_inline)) void
trc_eb_word(struct trc_evbuild *b, const char *key, size_t klen, int field,
    const char *s, size_t len, int64_t first)
{
	struct trc_event *ev = b->ev;
	char *val;

	if ((val = trc_eb_slot(b, key, klen, len)) == NULL)
		return;
	swar_copy(val, s, len);
	(void)trc_eb_commit(b, val, klen, len);
	switch (field) {
	case TRC_EBW_OP:	ev->op.s = val; ev->op.len = len; break;
	case TRC_EBW_FN:	ev->fn.s = val; ev->fn.len = len; break;
	case TRC_EBW_REQS:
		ev->req = first;
		ev->reqs.s = val;
		ev->reqs.len = len;
		break;
	}
}

/*
 * Any value a field has (fn, op, req, peer=007, ...) goes to the field
 * as the text parser sets it; one the parser would reject makes
 * trc_eb_done() fail with trc_eb_error().  Blanks, newlines and NULs in
 * s become '_': a value is one word of the line.
 */
void	 trc_eb_strk(struct trc_evbuild *, const char *key, size_t klen,
	    const char *s, size_t len);
#define trc_eb_str(b, key, s, len)					\
	trc_eb_strk((b), (key), strlen(key), (s), (len))
void	 trc_eb_time(struct trc_evbuild *, const char *key, int64_t ns);
/* 0, or -1 when the attributes did not fit (TRC_MAXATTR, TRC_MAXLINE)
 * or a value is invalid. */
int	 trc_eb_done(struct trc_evbuild *);
/* Why trc_eb_done() failed, "invalid peer 'x'"; NULL when not for a value. */
const char *trc_eb_error(const struct trc_evbuild *);

/* parse.c: sets the field of a known attribute as the parser does:
 * 0, or -1 with "invalid KEY 'VALUE'" in err. */
int	 trc_attr_field(struct trc_event *, const struct trc_attr *,
	    char err[TRC_ERRLEN]);

/*
 * A queue of owned copies of events, earliest time first, ties in the
 * order pushed: for formats whose records hold events of later times
 * (a Paraver communication record) or whose files are per rank.
 */
struct trc_evq;
struct trc_evq	*trc_evq_new(void);
int		 trc_evq_push(struct trc_evq *, const struct trc_event *);
size_t		 trc_evq_len(const struct trc_evq *);
/* The earliest time; INT64_MAX when empty. */
int64_t		 trc_evq_min(const struct trc_evq *);
/* The earliest event, whose strings stay valid until the next pop. */
int		 trc_evq_pop(struct trc_evq *, struct trc_event *);
void		 trc_evq_free(struct trc_evq *);
/* A deep copy in one allocation (free() it); NULL when out of memory. */
struct trc_event *trc_event_dup(const struct trc_event *);

/* Counts of records a format could not say, by what they are. */
struct trc_drop {
	char			*what;
	unsigned long long	 n;
};
struct trc_drops {
	struct trc_drop	*v;
	size_t		 n, cap;
};
void	 trc_drops_add(struct trc_drops *, const char *what);
int	 trc_drops_get(const struct trc_drops *, size_t i, const char **what,
	    unsigned long long *n);
void	 trc_drops_free(struct trc_drops *);

/*
 * A format.  bid returns how sure it is that the input is its own,
 * 0 (not mine) to 100 (magic bytes), from the path and the first
 * inflated bytes.  Readers set the header with trc_reader_header()
 * in open and keep their state with trc_reader_set_state().
 */
struct trc_out;
struct trc_format {
	const char	*name;
	const char	*alias;		/* another name, or NULL */
	int		(*bid)(const char *path, const unsigned char *head,
			    size_t n);
	int		(*open)(struct trc_reader *, struct trc_src *,
			    const struct trc_open_opts *);
	int		(*next)(struct trc_reader *, struct trc_event *);
	/* By rank (trc_by_rank), where a format can: on before the first
	 * event (1, else 0), then each rank's events in turn, and the
	 * caller's error at one of them. */
	int		(*by_rank)(struct trc_reader *);
	int		(*next_run)(struct trc_reader *, struct trc_run *);
	void		(*run_fail)(struct trc_reader *, const struct trc_run *,
			    size_t i, const char *msg);
	/* By rank, every run into a summary without cpu=, as next_run
	 * and trc_summary_add_run would (trc_summary_add_runs); NULL:
	 * those two. */
	int		(*sum_runs)(struct trc_reader *, struct trc_summary *);
	void		(*close)(void *state);
	int		(*wopen)(struct trc_out *, const char *path,
			    const struct trc_header *);
	int		(*write)(struct trc_out *, const struct trc_event *);
	int		(*wclose)(struct trc_out *);	/* finish the files */
	void		(*wfree)(void *state);
	/* Whether writing to path replaces file (NULL: path is file). */
	int		(*replaces)(const char *path, const char *file);
};

/* formats.c: the table, "trc" first. */
extern const struct trc_format *const trc_formats[];
const struct trc_format *trc_format_find(const char *name);

/* reader.c, for formats. */
struct trc_header *trc_reader_header(struct trc_reader *);
void		*trc_reader_state(struct trc_reader *);
/*
 * The same inline, for a format's next, called for every event: the
 * state is the reader's first member (reader.c asserts it), and a
 * pointer to a structure, converted, points to its first member.
 */
static inline void *
trc_reader_state_inline(struct trc_reader *r)
{
	return *(void **)(void *)r;
}
void		 trc_reader_set_state(struct trc_reader *, void *);
const struct trc_open_opts *trc_reader_opts(const struct trc_reader *);
/*
 * Events a format decoded ahead, for a caller of fields only: each its
 * time, rank and kind, and where its fields lie (struct trc_fields),
 * unchanged until the format's next is called again; each of no
 * attributes (nattr 0) and on the line after the one before (the first
 * after the event the format's next just returned).  trc_next and
 * trc_next_brief yield them, checked as any event, before the format's
 * next is called again; their strings must last until then.  A failure
 * drops those not yet yielded.
 */
void		 trc_reader_queue(struct trc_reader *, const struct trc_brief *,
		    size_t n);
/* "file:line: message" at any file and line (line 0: "file: message"). */
int		 trc_fail_at(struct trc_reader *, const char *file, long line,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The error of a trc_lines, as the reader's. */
int		 trc_fail_lines(struct trc_reader *, const struct trc_lines *);
/* Count one record the stream cannot say, by what it is (-v). */
void		 trc_drop(struct trc_reader *, const char *what);

/* out.c, for writers. */
/*
 * The name to write a further file of the output under: a temporary
 * name beside path, renamed to it when trc_out_close() succeeds and
 * removed otherwise (atomic.c), or path itself when it is not a
 * regular file.  NULL, with the error set, when it cannot be made.
 */
#define TRC_OUT_PARTS	4
const char	*trc_out_part(struct trc_out *, const char *path);
/* The writer writes its files whole or not at all by itself (in a
 * temporary directory): trc_out_atomic() says so. */
void		 trc_out_staged(struct trc_out *);
/* Whether file is dir/NAME with NAME starting with prefix and ending
 * with suffix, for replaces. */
int		 trc_out_names(const char *file, const char *dir,
		    const char *prefix, const char *suffix);
void		*trc_out_state(struct trc_out *);
void		 trc_out_set_state(struct trc_out *, void *);
const struct trc_open_opts *trc_out_opts(const struct trc_out *);
int		 trc_out_fail(struct trc_out *, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));
void		 trc_out_drop(struct trc_out *, const char *what);

#endif
