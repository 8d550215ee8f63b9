/*
 * trc.h - libtrc, the one library of the trc toolkit.
 *
 * The library never prints and never exits: errors are kept on the
 * object that met them and read with its *_error() function, already
 * formatted as "file:line: message" for "prog: %s\n".
 *
 * The stream (man/man5/trc.5): one event per line,
 *	TIME RANK KIND key=value ...
 * TIME is decimal seconds with up to 9 fractional digits, held as
 * integer nanoseconds.  Kinds:
 *	SB SE	send call begin and end; the message leaves at SE
 *	RB RE	receive call begin and end; RE completes a receive and
 *		carries the actual source.  An RB with req= posts a
 *		nonblocking receive: it is a point event, and the
 *		receive completes at an RE req=R written inside the
 *		wait that completed it
 *	WB WE	wait or successful test on requests (req=1,2,...)
 *	XB XE	collective (op=, bytes=, root=, comm=)
 *	PB PE	procedure or region (fn=)
 *	MK	marker (an iteration boundary, say)
 * Known attributes are parsed into fields; every attribute, known or
 * not, is also kept as text so that filters pass it through.
 */
#ifndef TRC_H
#define TRC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TRC_VERSION_STRING "0.1"

enum trc_kind {
	TRC_SB, TRC_SE, TRC_RB, TRC_RE, TRC_WB, TRC_WE,
	TRC_XB, TRC_XE, TRC_PB, TRC_PE, TRC_MK,
	TRC_NKINDS
};

/* Field values meaning "not given" and "wildcard". */
#define TRC_NONE	(-1)
#define TRC_ANY		(-2)

#define TRC_MAXATTR	32
#define TRC_MAXLINE	65536	/* what fixed buffers of writers hold */

/*
 * The longest line the stream reader takes: the environment's
 * TRC_LINE_MAX (bytes, or with a suffix k, M or G: KiB, MiB, GiB),
 * else 256 MiB (trc(5)).  Its buffer grows with the longest line.
 * trc_line_max() is 0 with the value, -1 when TRC_LINE_MAX is bad.
 */
#define TRC_LINE_MAX_DEFAULT	((size_t)256 << 20)
int	 trc_line_max(size_t *);
/* The size the environment's variable name gives, as TRC_LINE_MAX,
 * else dflt: 0, or -1 when it is not a positive size. */
int	 trc_env_size(const char *name, size_t dflt, size_t *);

/*
 * The latest time the engines compute (trc-scale(1), trc-perturb(1)):
 * INT64_MAX / 4 ns, 2305843009.213693951 s, so that a sum of a time
 * and three lengths each no longer never wraps the int64 clock.  A
 * length or time past it, or not finite, is TRC_TIME_OVER, which
 * every further sum keeps past TRC_TIME_MAX; the engine refuses an
 * event whose predicted time is past it, naming the event's line.
 */
#define TRC_TIME_MAX	(INT64_MAX / 4)
#define TRC_TIME_OVER	(TRC_TIME_MAX + 1)

/* a + b for a, b >= 0, TRC_TIME_OVER when past TRC_TIME_MAX. */
static inline int64_t
trc_time_add(int64_t a, int64_t b)
{
	if (a > TRC_TIME_MAX || b > TRC_TIME_MAX - a)
		return TRC_TIME_OVER;
	return a + b;
}

struct trc_str {
	const char	*s;
	size_t		 len;
};

struct trc_attr {
	struct trc_str	 key;
	struct trc_str	 val;
};

/*
 * An event's parsed fields, laid out as in struct trc_event from peer
 * to op (asserted in reader.c), and an event in brief: its time, rank
 * and kind, and where such fields lie (trc_next_brief).
 */
struct trc_fields {
	int32_t		 peer, tag, comm, root;
	int64_t		 bytes, req;
	struct trc_str	 reqs, fn, op;
};

struct trc_brief {
	int64_t		 t;
	int32_t		 rank;
	enum trc_kind	 kind;
	const struct trc_fields *f;
};

/*
 * One event.  Strings borrow the reader's buffer and stay valid until
 * the next trc_next() on the same reader.
 */
struct trc_event {
	int64_t		 t;	/* nanoseconds */
	int32_t		 rank;
	enum trc_kind	 kind;
	int32_t		 peer;	/* TRC_NONE, TRC_ANY or a rank */
	int32_t		 tag;	/* TRC_NONE, TRC_ANY or a tag */
	int32_t		 comm;	/* 0 (the world) when not given */
	int32_t		 root;	/* TRC_NONE when not given */
	int64_t		 bytes;	/* TRC_NONE when not given */
	int64_t		 req;	/* first request, TRC_NONE when none */
	struct trc_str	 reqs;	/* the whole req= list, "3,5,9" */
	struct trc_str	 fn;	/* fn= label, empty when none */
	struct trc_str	 op;	/* op= name, empty when none */
	int		 nattr;
	struct trc_attr	 attr[TRC_MAXATTR];	/* in input order */
	long		 line;	/* input line number */
};

/* An event's fields, read as struct trc_fields (the layout asserted in
 * reader.c). */
static inline const struct trc_fields *
trc_event_fields(const struct trc_event *ev)
{
	return (const struct trc_fields *)(const void *)&ev->peer;
}

/* How a stream is ordered, from its header's order= attribute. */
enum trc_order {
	TRC_ORDER_TIME,		/* sorted by time, ties in input order */
	TRC_ORDER_RANK,		/* each rank's events together, each in time order */
	TRC_ORDER_NONE		/* no promise */
};

struct trc_header {
	int		 version;
	int32_t		 ranks;		/* 0 when the header does not say */
	enum trc_order	 order;
	struct trc_str	 extra;		/* other "#" lines before the first event */
};

/* parse.c */
const char	*trc_kind_name(enum trc_kind);
int		 trc_kind_parse(const char *, size_t, enum trc_kind *);

/* parsing split from I/O, for tests and other readers. */
int	 trc_parse_time(const char *, size_t, int64_t *);
int	 trc_parse_int(const char *, size_t, int64_t *);
/*
 * Parse one event line (without its newline, which, or a NUL, must
 * follow it in memory) or the "#trc" header line.  They return 0, or
 * -1 with a message such as "invalid time '12x'" in err.
 */
#define TRC_ERRLEN	160
int	 trc_parse_line(const char *, size_t, struct trc_event *, char err[TRC_ERRLEN]);
/* The same for a line that ends at end or, when end is NULL, at the
 * first newline or NUL; *stop is left at the byte that ended it.  With
 * end NULL the line is read 8 to 64 bytes at a time: TRC_PARSE_PAD
 * bytes past its newline or NUL must be readable (a reader's buffer
 * is). */
#define TRC_PARSE_PAD	64
int	 trc_parse_event(const char *s, const char *end, struct trc_event *,
	    char err[TRC_ERRLEN], const char **stop);
int	 trc_parse_header(const char *, size_t, struct trc_header *, char err[TRC_ERRLEN]);
/* The next "#" line of a header's extra lines that begins with prefix
 * (from *at, then past it): its text after the prefix, [*val, *end). */
int	 trc_extra_line(const struct trc_str *, const char **at, const char *prefix,
	    const char **val, const char **end);
/* The value of attribute key, or NULL. */
const struct trc_str *trc_attr_get(const struct trc_event *, const char *key);
/* Iterate a req= list: returns 1 and the next id, 0 at the end. */
int	 trc_reqs_next(struct trc_str *, int64_t *);

/* error.c: formats a message into err (when errlen > 0); returns -1. */
int	 trc_errorf(char *err, size_t errlen, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/*
 * table.c: small text files of blank-separated fields; a field that
 * starts with '#' begins a comment.  Fields are split in place and
 * last until the next trc_table_next().  With comments set, a line
 * that is only a comment comes back too, with no fields and comment
 * pointing at its '#' (else comment is NULL).
 */
struct trc_table {
	FILE	 *fp;
	char	 *name;
	char	 *line;
	size_t	  cap;
	long	  lineno;
	char	**field;
	int	  nfield, capfield;
	int	  comments;
	char	 *comment;
	int	  failed;
	char	  err[320];
};
/* NULL only when out of memory; an open error is kept for _next. */
struct trc_table *trc_table_open(const char *path);
/* 1 with the next line's fields, 0 at the end, -1 on error. */
int	 trc_table_next(struct trc_table *);
/* Keeps "file:line: message" for the current line; returns -1. */
int	 trc_table_fail(struct trc_table *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
const char *trc_table_error(const struct trc_table *);
void	 trc_table_close(struct trc_table *);

/* select.c: rank lists "0,3-5" and kind lists "SB,RE" or "S" (SB and SE). */
#define TRC_MAXRANGES	64
struct trc_ranks {
	int	 n;
	int32_t	 lo[TRC_MAXRANGES], hi[TRC_MAXRANGES];
};
int	 trc_ranks_parse(const char *, struct trc_ranks *);
int	 trc_ranks_has(const struct trc_ranks *, int32_t);
int	 trc_kinds_parse(const char *, unsigned *mask);	/* bit 1<<kind */

/* reader.c: a pull reader over a file or stdin ("-" or NULL). */
struct trc_reader;
struct trc_reader	*trc_open(const char *path);
/* Returns 1 with an event, 0 at the end, -1 on error. */
int			 trc_next(struct trc_reader *, struct trc_event *);
/*
 * For a caller of fields only (trc_open_opts.fields_only): after
 * trc_next returned an event, the events a reader decoded ahead with
 * it, many at a time and not copied (trcb).  *ev points at the next k,
 * k returned; 0 when none is ready (call trc_next: it also reports any
 * error).  Each is checked as trc_next checks an event, has no
 * attributes (nattr 0), and lies on the line after the one before:
 * trc_lineno is then the last one's.  They and their strings last
 * until the next call of either on the same reader.
 */
size_t			 trc_next_brief(struct trc_reader *,
			    const struct trc_brief **ev);
/*
 * By rank, for a caller of fields only that needs each rank's events
 * in their order but not the ranks' events interleaved as the stream
 * has them (trc-sum): trc_by_rank, before the first event, says
 * whether the stream can be read so (trcb: 1), else 0 and nothing
 * changes.  Then trc_next_run, and never trc_next, gives the events in
 * batches, each of one rank: 1 with a batch, 0 at the end, -1 on error
 * (trc_error).  Event i of a batch is on line line0 + place[i] of the
 * text; the reader checks what trc_next checks, each error reported
 * at the block's end and the first in stream order.  A caller's own
 * error at event i, trc_run_fail, is reported so too: the events after
 * it in stream order are not given, those before still are, and
 * trc_next_run then fails with the first error.  A batch's events and
 * their strings last until the next call; events whose f is the same
 * have the same fields, as far as the caller reads them (trc-sum knows
 * a name by its fields' place).
 */
struct trc_run {
	const struct trc_brief	*b;
	size_t			 n;
	const uint32_t		*place;
	long			 line0;
};
int			 trc_by_rank(struct trc_reader *);
int			 trc_next_run(struct trc_reader *, struct trc_run *);
void			 trc_run_fail(struct trc_reader *, const struct trc_run *,
			    size_t i, const char *msg);
const struct trc_header	*trc_get_header(struct trc_reader *);
const char		*trc_error(const struct trc_reader *);
const char		*trc_name(const struct trc_reader *);
long			 trc_lineno(const struct trc_reader *);
void			 trc_close(struct trc_reader *);
/* Report an error found by a caller at the reader's current line. */
int			 trc_fail(struct trc_reader *, const char *fmt, ...)
			    __attribute__((format(printf, 2, 3)));

/*
 * Formats (lib/fmt/, trc-formats(5)): every reader above reads every
 * format it knows, found by content unless named; gzip-compressed
 * input is inflated.  trc_open(path) is trc_open_with(path, NULL).
 */
struct trc_open_opts {
	const char	*format;	/* a name, or NULL: by content */
	double		 flops;		/* flop/s for SimGrid compute, 0: none */
	/* The caller reads only the parsed fields (t, rank, kind, peer,
	 * tag, comm, root, bytes, req, fn, op, line), never attr[] or
	 * reqs: a reader that would have to make their text (trcb) may
	 * leave them empty (nattr 0).  Tools that write events out or
	 * look up other attributes leave it 0. */
	int		 fields_only;
	/* With fields_only, the caller never matches messages or
	 * requests (trc-sum): it never reads peer, tag, comm or root, and
	 * of req only whether it is TRC_NONE.  A reader may leave the
	 * four unset (any value) and give req any value >= 0 when there
	 * is one, their values checked all the same: the text's usual
	 * line then converts three numbers fewer a message, 8% of
	 * trc-sum's time. */
	int		 no_match;
};
struct trc_reader	*trc_open_with(const char *path, const struct trc_open_opts *);
/* The name of the format being read ("trc", "prv", ...). */
const char		*trc_format_name(const struct trc_reader *);
/* What the input held that the stream cannot say, counted per kind of
 * record: 1 with the i-th count, 0 past the last. */
int			 trc_dropped(const struct trc_reader *, size_t i,
			    const char **what, unsigned long long *n);
/* Whether name (or an alias) is a format, and what it does: 0 or -1. */
int			 trc_format_lookup(const char *name, int *reads,
			    int *writes);
/* The i-th known format: 1, 0 past the last. */
int			 trc_format_info(size_t i, const char **name,
			    int *reads, int *writes);

/*
 * out.c: a writer of any format with a writer (trc, prv, otf2, ...),
 * taking events in time order.  NULL only when out of memory; an
 * open error is kept and returned by the first trc_out_write or
 * trc_out_close.  PATH "-" or NULL is stdout where a format is one
 * file.
 */
struct trc_out;
struct trc_out	*trc_out_open(const char *format, const char *path,
		    const struct trc_header *, const struct trc_open_opts *);
int		 trc_out_write(struct trc_out *, const struct trc_event *);
/* Finishes the files: 0, or -1 with trc_out_error(). */
int		 trc_out_close(struct trc_out *);
/* Whether writing format to path would replace file (an input): 1,
 * for any of the files the format makes of path. */
int		 trc_out_replaces(const char *format, const char *path,
		    const char *file);
const char	*trc_out_error(const struct trc_out *);
/* Whether the files go to temporary names renamed at the close (a
 * regular file in a format of one file, Paraver's three, Dimemas'
 * file, an OTF2 archive or SimGrid's files staged in a temporary
 * directory): not closed, they are never written. */
int		 trc_out_atomic(const struct trc_out *);
int		 trc_out_dropped(const struct trc_out *, size_t i,
		    const char **what, unsigned long long *n);
void		 trc_out_free(struct trc_out *);

/*
 * atomic.c: a file written whole or not at all, under a temporary
 * name beside it (NAME.tmpXXXXXX) renamed into place when complete.
 * trc_atomic_wanted: whether path is a regular file or absent (a
 * device, pipe or link is written where it is).  trc_atomic_tmp: the
 * temporary file, created empty; NULL with err.  _commit renames it
 * to path (0, or -1 with err, the temporary removed); _abort removes
 * it; _cleanup removes every one not yet renamed (die() calls it).
 * trc_atomic_tmpdir: a temporary directory beside path, for an output
 * of many files; _commit renames it whole to path, _commit_into moves
 * what it holds into the directory dir (last, when named, at the end)
 * and removes it, failed or not; _abort removes it and what it holds.
 * Each takes tmp over (frees it).
 * trc_same_file: 1 when a and b name one existing file.
 */
int	 trc_atomic_wanted(const char *path);
char	*trc_atomic_tmp(const char *path, char *err, size_t errlen);
int	 trc_atomic_commit(char *tmp, const char *path, char *err,
	    size_t errlen);
char	*trc_atomic_tmpdir(const char *path, char *err, size_t errlen);
int	 trc_atomic_commit_into(char *tmp, const char *dir, const char *last,
	    char *err, size_t errlen);
void	 trc_atomic_abort(char *tmp);
void	 trc_atomic_cleanup(void);
int	 trc_same_file(const char *a, const char *b);

/* writer.c: a buffered writer on a file descriptor. */
struct trc_writer;
struct trc_writer	*trc_wopen(int fd);
int	 trc_write_header(struct trc_writer *, const struct trc_header *);
int	 trc_write_event(struct trc_writer *, const struct trc_event *);
/* As trc_write_event with its time replaced and text appended. */
int	 trc_write_event_at(struct trc_writer *, const struct trc_event *,
	    int64_t t, const char *extra);
int	 trc_write_raw(struct trc_writer *, const char *, size_t);
/*
 * Format an event as trc_write_event_at does, extra[0..xlen) appended,
 * into a caller's buffer of at least trc_event_maxlen() bytes; returns
 * the length written, newline included.
 */
size_t	 trc_event_maxlen(const struct trc_event *, size_t xlen);
size_t	 trc_format_event(char *, const struct trc_event *, int64_t t,
	    const char *extra, size_t xlen);
/* Formats t as seconds with 9 decimals, or an integer; returns the length. */
size_t	 trc_format_time(char *, int64_t);
size_t	 trc_format_int(char *, int64_t);
/*
 * Formats a duration for people: ns, us, ms or s, whichever puts it in
 * [1, 1000), with 3 decimals ("61 ns", "1.234 ms"; 0 is "0"), so that a value
 * under a microsecond is not printed as 0; returns the length.  buf
 * holds at least TRC_DURLEN bytes.
 */
#define TRC_DURLEN 32
size_t	 trc_format_duration(char *buf, int64_t ns);
/* Writes out the buffer; -1 if this or any earlier write failed. */
int	 trc_wflush(struct trc_writer *);
const char *trc_werror(const struct trc_writer *);
void	 trc_wfree(struct trc_writer *);

/* intern.c: a table of names, each with a small id in order of arrival. */
struct trc_intern {
	char	**name;
	int32_t	  n, cap;
	int32_t	 *hash;		/* open addressing: id + 1, 0 when free */
	uint32_t  hcap;
};
/* The id of s, added when new; -1 when out of memory. */
int32_t	 trc_intern(struct trc_intern *, const char *s, size_t len);
/* The id of s, or -1 when absent. */
int32_t	 trc_intern_find(const struct trc_intern *, const char *s, size_t len);
void	 trc_intern_free(struct trc_intern *);

/*
 * pages.c: an array indexed by rank whose elements, zeroed, come in
 * pages of TRC_PAGE as ranks are asked for: memory follows the ranks
 * present (a page each block of TRC_PAGE rank numbers in use, and a
 * pointer each block up to the largest), not the largest rank.
 */
#define TRC_PAGE_SHIFT	10
#define TRC_PAGE	((size_t)1 << TRC_PAGE_SHIFT)
struct trc_pages {
	void	**pg;
	size_t	  npg;		/* pages the table holds: ranks < npg * TRC_PAGE */
	size_t	  elsize;
};
/* Element i, allocated with its page when new; NULL when out of memory. */
void	*trc_pages_get(struct trc_pages *, size_t i);
/* Element i, or NULL when its page was never asked for. */
static inline void *
trc_pages_at(const struct trc_pages *p, size_t i)
{
	size_t k = i >> TRC_PAGE_SHIFT;

	if (k >= p->npg || p->pg[k] == NULL)
		return NULL;
	return (char *)p->pg[k] + (i & (TRC_PAGE - 1)) * p->elsize;
}
void	 trc_pages_free(struct trc_pages *);
/*
 * Room for need elements of size bytes in the array at *pp of *cap,
 * doubling from first: 0, or -1 when out of memory or past size_t.
 */
int	 trc_grow(void *pp, size_t *cap, size_t need, size_t size,
	    size_t first);

/* gen.c: synthetic streams of simulated programs, for trc-gen. */
enum trc_gen_pattern {
	TRC_GEN_RING, TRC_GEN_HALO, TRC_GEN_ALLREDUCE, TRC_GEN_MASTER_WORKER
};
struct trc_gen_opts {
	enum trc_gen_pattern	 pattern;
	int32_t			 ranks;
	int64_t			 iterations;	/* tasks per worker */
	int64_t			 bytes;		/* per message */
	int64_t			 compute_ns;	/* mean per step */
	uint64_t		 seed;
};
#define TRC_GEN_LINE	256
struct trc_gen;
/* NULL with a message in *err on bad options or no memory. */
struct trc_gen	*trc_gen_new(const struct trc_gen_opts *, const char **err);
/* The next event's line, newline included: its length, 0 at the end,
 * (size_t)-1 when out of memory. */
size_t		 trc_gen_line(struct trc_gen *, char line[TRC_GEN_LINE]);
void		 trc_gen_free(struct trc_gen *);
int		 trc_gen_pattern(const char *, enum trc_gen_pattern *);
const char	*trc_gen_pattern_name(enum trc_gen_pattern);
/* Iterations that make at least about this many events. */
int64_t		 trc_gen_iterations_for(enum trc_gen_pattern, int32_t ranks,
		    int64_t events);


#include "trc_summary.h"
#include "trc_fit.h"
#include "trc_ratios.h"
#include "trc_match.h"
#include "trc_design.h"
#include "trc_lcs.h"
#include "trc_graph.h"
#include "trc_perturb.h"
#include "trc_model.h"
#include "trc_scale.h"
#include "trc_loops.h"

#endif
