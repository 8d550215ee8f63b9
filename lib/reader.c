/*
 * reader.c - the pull reader: read(2) into one block buffer, lines
 * found with memchr, events parsed in place.  Memory is the buffer,
 * the header's extra lines and one time per rank.  Input in another
 * format is read by that format's reader (lib/fmt/), chosen by the
 * formats' bids on the first bytes; its events get the same checks.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt/fmt.h"

#define BUFSIZE		(1 << 20)
#define MAXEXTRA	(1 << 20)

struct trc_reader {
	void		*fstate;	/* the format's; first, for fmt.h */
	struct trc_src	*src;
	const struct trc_format *fmt;
	struct trc_open_opts opts;
	trc_padded_fn	 parse;		/* the usual line's parser */
	struct trc_drops drops;
	int		 eof;
	int		 failed;
	int		 by_rank;	/* trc_by_rank said yes */
	int		 have_header;
	int		 pending;	/* the first event line is read */
	int		 ready;		/* have_header && !pending, one test */
	char		*buf;
	size_t		 cap;		/* grows with the longest line */
	size_t		 linemax;	/* TRC_LINE_MAX */
	size_t		 start, end;
	size_t		 scanned;	/* no newline in [start, scanned) */
	size_t		 complete;	/* just past the buffer's last newline */
	const char	*line_s;
	size_t		 line_len;
	long		 line;
	char		*name;
	struct trc_header hdr;
	char		*extra;
	size_t		 extralen;
	int64_t		 last_t;
	struct trc_pages rank_last;	/* order=rank: last time of each rank */
	/* A format's events decoded ahead (trc_reader_queue): the next
	 * to yield and the end. */
	const struct trc_brief *q, *qend;
	char		 perr[TRC_ERRLEN];	/* the parser's */
	char		 err[TRC_ERRLEN + 512];
};

_Static_assert(offsetof(struct trc_reader, fstate) == 0,
    "trc_reader_state_inline reads the state first");

/* An event's fields as struct trc_fields lays them out, so that a
 * brief's copy into an event, and the summary's reading of an event as
 * a brief, take them whole. */
#define FIELD_AT(m) (offsetof(struct trc_event, m) - \
	offsetof(struct trc_event, peer) == offsetof(struct trc_fields, m))
_Static_assert(FIELD_AT(peer) && FIELD_AT(tag) && FIELD_AT(comm) &&
    FIELD_AT(root) && FIELD_AT(bytes) && FIELD_AT(req) && FIELD_AT(reqs) &&
    FIELD_AT(fn) && FIELD_AT(op) && offsetof(struct trc_event, op) +
    sizeof(struct trc_str) - offsetof(struct trc_event, peer) ==
    sizeof(struct trc_fields), "an event's fields as struct trc_fields");

static const struct trc_format *
choose(struct trc_reader *r, const char *path)
{
	const struct trc_format *f, *best = trc_formats[0];
	const unsigned char *head;
	size_t n, i;
	int bid, top = 0;

	if (r->opts.format != NULL) {
		if ((f = trc_format_find(r->opts.format)) == NULL)
			trc_fail_at(r, r->name, 0, "unknown format '%s'",
			    r->opts.format);
		else if (f->open == NULL && f != trc_formats[0])
			trc_fail_at(r, r->name, 0, "format '%s' is written, "
			    "not read", f->name);
		return f;
	}
	head = trc_src_head(r->src, &n);
	for (i = 0; (f = trc_formats[i]) != NULL; i++) {
		if (f->open == NULL || f->bid == NULL)
			continue;
		if ((bid = f->bid(path, head, n)) > top) {
			top = bid;
			best = f;
		}
	}
	return best;
}

/* Whether path is the regular file standard output writes to. */
static int
is_stdout(const char *path)
{
	struct stat in, out;

	return fstat(STDOUT_FILENO, &out) == 0 && S_ISREG(out.st_mode) &&
	    stat(path, &in) == 0 && in.st_dev == out.st_dev &&
	    in.st_ino == out.st_ino;
}

struct trc_reader *
trc_open_with(const char *path, const struct trc_open_opts *opts)
{
	struct trc_reader *r;
	int stdin_ = path == NULL || strcmp(path, "-") == 0;

	if ((r = calloc(1, sizeof(*r))) == NULL)
		return NULL;
	if (opts != NULL)
		r->opts = *opts;
	r->parse = trc_parse_padded_fn(r->opts.fields_only,
	    r->opts.no_match);
	r->rank_last.elsize = sizeof(int64_t);
	r->name = strdup(stdin_ ? "<stdin>" : path);
	/* Padded past its end for trc_parse_event's wide loads,
	 * and cleared so that they never read undefined bytes. */
	r->buf = calloc(1, BUFSIZE + TRC_PARSE_PAD);
	r->cap = BUFSIZE;
	if (r->name == NULL || r->buf == NULL ||
	    (r->src = trc_src_open(stdin_ ? NULL : path)) == NULL) {
		trc_close(r);
		return NULL;
	}
	if (trc_src_error(r->src) != NULL) {
		snprintf(r->err, sizeof(r->err), "%s: %s", r->name,
		    trc_src_error(r->src));
		r->failed = 1;
		return r;
	}
	if (!stdin_ && is_stdout(path)) {
		/* trc-scale run.trc >> run.trc would read what it writes. */
		snprintf(r->err, sizeof(r->err), "%s: input file is output "
		    "file", r->name);
		r->failed = 1;
		return r;
	}
	if (trc_line_max(&r->linemax) < 0) {
		snprintf(r->err, sizeof(r->err), "invalid TRC_LINE_MAX '%s'",
		    getenv("TRC_LINE_MAX"));
		r->failed = 1;
		return r;
	}
	r->fmt = choose(r, stdin_ ? NULL : path);
	/*
	 * Text is read(2) into buf, not parsed where the file is mapped:
	 * on a host of nested paging the mapping's page tables cost more
	 * than the copy.  trc-sum on 5 M events: 0.42 s mapped, 0.29 s
	 * read from ext4, 0.21 s from tmpfs (an AMD EPYC guest, 2026-11);
	 * the copy was a tenth of trc-sum's time where mapping won.
	 */
	if (r->failed || r->fmt == trc_formats[0])
		return r;
	/* A foreign format reads its header now; errors wait as above. */
	r->hdr.version = 1;
	r->hdr.order = TRC_ORDER_TIME;
	r->hdr.extra.s = "";
	if (r->fmt->open(r, r->src, &r->opts) == 0)
		r->have_header = 1;
	else if (!r->failed)
		trc_fail_at(r, r->name, 0, "cannot read as %s", r->fmt->name);
	return r;
}

int
trc_line_max(size_t *max)
{
	return trc_env_size("TRC_LINE_MAX", TRC_LINE_MAX_DEFAULT, max);
}

int
trc_env_size(const char *name, size_t dflt, size_t *max)
{
	const char *s = getenv(name);
	uint64_t n = 0, unit = 1;

	*max = dflt;
	if (s == NULL || *s == '\0')
		return 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (n > (UINT64_C(1) << 40))
			return -1;
		n = n * 10 + (uint64_t)(*s - '0');
	}
	switch (*s) {
	case 'k': case 'K': unit = 1 << 10; s++; break;
	case 'm': case 'M': unit = 1 << 20; s++; break;
	case 'g': case 'G': unit = 1 << 30; s++; break;
	}
	/* At most 1 TiB: room to double the buffer in a size_t. */
	if (*s != '\0' || n == 0 || n > (UINT64_C(1) << 40) / unit ||
	    n * unit > SIZE_MAX / 4)
		return -1;
	*max = (size_t)(n * unit);
	return 0;
}

struct trc_reader *
trc_open(const char *path)
{
	return trc_open_with(path, NULL);
}

void
trc_close(struct trc_reader *r)
{
	if (r == NULL)
		return;
	if (r->fmt != NULL && r->fmt->close != NULL && r->fstate != NULL)
		r->fmt->close(r->fstate);
	trc_src_close(r->src);
	trc_drops_free(&r->drops);
	free(r->name);
	free(r->buf);
	free(r->extra);
	trc_pages_free(&r->rank_last);
	free(r);
}

const char *
trc_format_name(const struct trc_reader *r)
{
	return r->fmt != NULL ? r->fmt->name : "trc";
}

int
trc_dropped(const struct trc_reader *r, size_t i, const char **what,
    unsigned long long *n)
{
	return trc_drops_get(&r->drops, i, what, n);
}

void
trc_drop(struct trc_reader *r, const char *what)
{
	trc_drops_add(&r->drops, what);
}

struct trc_header *
trc_reader_header(struct trc_reader *r)
{
	return &r->hdr;
}

void *
trc_reader_state(struct trc_reader *r)
{
	return r->fstate;
}

void
trc_reader_set_state(struct trc_reader *r, void *state)
{
	r->fstate = state;
}

void
trc_reader_queue(struct trc_reader *r, const struct trc_brief *q, size_t n)
{
	r->q = q;
	r->qend = q + n;
}

const struct trc_open_opts *
trc_reader_opts(const struct trc_reader *r)
{
	return &r->opts;
}

const char *
trc_error(const struct trc_reader *r)
{
	return r->err;
}

const char *
trc_name(const struct trc_reader *r)
{
	return r->name;
}

long
trc_lineno(const struct trc_reader *r)
{
	return r->line;
}

static int
vfail(struct trc_reader *r, long line, const char *fmt, va_list ap)
{
	int n;

	n = snprintf(r->err, sizeof(r->err), "%s:%ld: ", r->name, line);
	if (n > 0 && (size_t)n < sizeof(r->err))
		vsnprintf(r->err + n, sizeof(r->err) - (size_t)n, fmt, ap);
	r->failed = 1;
	r->q = r->qend;
	return -1;
}

int
trc_fail(struct trc_reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(r, r->line, fmt, ap);
	va_end(ap);
	return -1;
}

static int
fail_at(struct trc_reader *r, long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(r, line, fmt, ap);
	va_end(ap);
	return -1;
}

int
trc_fail_at(struct trc_reader *r, const char *file, long line,
    const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->failed)
		return -1;
	n = line > 0 ? snprintf(r->err, sizeof(r->err), "%s:%ld: ", file, line) :
	    snprintf(r->err, sizeof(r->err), "%s: ", file);
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(r->err))
		vsnprintf(r->err + n, sizeof(r->err) - (size_t)n, fmt, ap);
	va_end(ap);
	r->failed = 1;
	r->q = r->qend;
	return -1;
}

int
trc_fail_lines(struct trc_reader *r, const struct trc_lines *l)
{
	if (r->failed)
		return -1;
	snprintf(r->err, sizeof(r->err), "%s", trc_lines_error(l));
	r->failed = 1;
	r->q = r->qend;
	return -1;
}

static int
too_long(struct trc_reader *r, long line)
{
	return fail_at(r, line, "line longer than %zu bytes (TRC_LINE_MAX)",
	    r->linemax);
}

/*
 * The next line without its newline: 1, 0 at the end, -1 on error.
 * The buffer grows, doubling, to hold the longest line, up to
 * TRC_LINE_MAX; each byte is searched for a newline once.
 */
static int
read_line(struct trc_reader *r)
{
	char *nl, *p;
	size_t from, was, n2;
	ssize_t n;

	for (;;) {
		from = r->scanned > r->start ? r->scanned : r->start;
		nl = memchr(r->buf + from, '\n', r->end - from);
		if (nl != NULL) {
			r->line_s = r->buf + r->start;
			r->line_len = (size_t)(nl - r->line_s);
			r->start += r->line_len + 1;
			r->line++;
			if (r->line_len > r->linemax)
				return too_long(r, r->line);
			return 1;
		}
		r->scanned = r->end;
		if (r->end - r->start > r->linemax)
			return too_long(r, r->line + 1);
		if (r->eof) {
			if (r->end > r->start)
				return fail_at(r, r->line + 1,
				    "truncated last line (no newline at end)");
			return 0;
		}
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->scanned = r->end;
		r->complete = r->start = 0;
		if (r->end == r->cap) {
			/* One line fills the buffer: room for a longer one,
			 * its newline and the NUL a parser may look at. */
			n2 = r->cap * 2 < r->linemax + 2 ? r->cap * 2 :
			    r->linemax + 2;
			if ((p = realloc(r->buf, n2 + TRC_PARSE_PAD)) == NULL)
				return fail_at(r, r->line + 1, "out of memory "
				    "for a line of over %zu bytes", r->end);
			/* The new part and the pad cleared, as at the open. */
			memset(p + r->cap, 0, n2 + TRC_PARSE_PAD - r->cap);
			r->buf = p;
			r->cap = n2;
		}
		was = r->end;
		n = trc_src_read(r->src, r->buf + r->end, r->cap - r->end);
		if (n < 0)
			return fail_at(r, r->line + 1, "%s",
			    trc_src_error(r->src));
		if (n == 0)
			r->eof = 1;
		r->end += (size_t)n;
		for (r->complete = r->end; r->complete > was &&
		    r->buf[r->complete - 1] != '\n'; r->complete--)
			;
		if (r->complete == was)
			r->complete = r->start;	/* no newline before was */
	}
}

static int
blank_line(const char *s, size_t len)
{
	for (; len > 0; s++, len--)
		if (*s != ' ' && *s != '\t' && *s != '\r')
			return 0;
	return 1;
}

/* Reads "#trc" and the "#" lines after it, up to the first event. */
static int
read_header(struct trc_reader *r)
{
	char err[TRC_ERRLEN];
	char *p;
	int rc;

	rc = read_line(r);
	if (rc < 0)
		return -1;
	if (rc == 0)
		return fail_at(r, 1, "missing '#trc' header (empty input)");
	if (trc_parse_header(r->line_s, r->line_len, &r->hdr, err) < 0)
		return fail_at(r, r->line, "%s", err);
	while ((rc = read_line(r)) > 0) {
		if (blank_line(r->line_s, r->line_len))
			continue;
		if (r->line_s[0] != '#') {
			r->pending = 1;
			break;
		}
		if (r->extralen + r->line_len + 1 > MAXEXTRA)
			return fail_at(r, r->line, "header longer than %d bytes",
			    MAXEXTRA);
		if ((p = realloc(r->extra, r->extralen + r->line_len + 1)) == NULL)
			return fail_at(r, r->line, "out of memory");
		r->extra = p;
		memcpy(r->extra + r->extralen, r->line_s, r->line_len);
		r->extralen += r->line_len;
		r->extra[r->extralen++] = '\n';
	}
	if (rc < 0)
		return -1;
	r->hdr.extra.s = r->extra ? r->extra : "";
	r->hdr.extra.len = r->extralen;
	r->have_header = 1;
	r->ready = !r->pending;
	return 0;
}

const struct trc_header *
trc_get_header(struct trc_reader *r)
{
	if (r->failed || (!r->have_header && read_header(r) < 0))
		return NULL;
	return &r->hdr;
}

static int
check_rank_order(struct trc_reader *r, const struct trc_event *ev)
{
	int64_t *last;

	/* In pages: memory by the ranks present, not the largest. */
	if ((last = trc_pages_get(&r->rank_last, (size_t)ev->rank)) == NULL)
		return trc_fail(r, "out of memory");
	if (ev->t < *last)
		return -1;
	*last = ev->t;
	return 0;
}

static inline int check(struct trc_reader *, const struct trc_event *);
static int text_next(struct trc_reader *, struct trc_event *);

static int text_fast(struct trc_reader *, struct trc_event *);
static int format_next(struct trc_reader *, struct trc_event *);

/* The text's next event or a format's, each by a jump: apart, each
 * function saves only the registers its own path needs. */
int
trc_next(struct trc_reader *r, struct trc_event *ev)
{
	const struct trc_brief *q;

	if (r->fmt == trc_formats[0])
		return text_fast(r, ev);
	if ((q = r->q) < r->qend) {
		/* An event decoded ahead: copied in, checked as any. */
		r->q = q + 1;
		ev->t = q->t;
		ev->rank = q->rank;
		ev->kind = q->kind;
		memcpy(&ev->peer, q->f, sizeof(*q->f));
		ev->nattr = 0;
		ev->line = ++r->line;
		return check(r, ev);
	}
	return format_next(r, ev);
}

int
trc_by_rank(struct trc_reader *r)
{
	if (!r->by_rank && !r->failed && r->fmt != NULL &&
	    r->fmt->by_rank != NULL)
		r->by_rank = r->fmt->by_rank(r);
	return r->by_rank;
}

int
trc_next_run(struct trc_reader *r, struct trc_run *run)
{
	if (r->failed)
		return -1;
	if (!r->by_rank)
		return trc_fail(r, "not read by rank (trc_by_rank)");
	if (r->fmt->next_run(r, run) > 0)
		return 1;
	return r->failed ? -1 : 0;
}

int
trc_summary_add_runs(struct trc_summary *s, struct trc_reader *r)
{
	struct trc_run run;
	size_t done;
	int rc;

	if (r->failed)
		return -1;
	if (!r->by_rank)
		return trc_fail(r, "not read by rank (trc_by_rank)");
	if (r->fmt->sum_runs != NULL && !s->cpu)
		return r->fmt->sum_runs(r, s) < 0 || r->failed ? -1 : 0;
	while ((rc = trc_next_run(r, &run)) > 0)
		if (trc_summary_add_run(s, &run, 0, &done) < 0)
			trc_run_fail(r, &run, done, trc_summary_error(s));
	return rc;
}

void
trc_run_fail(struct trc_reader *r, const struct trc_run *run, size_t i,
    const char *msg)
{
	if (r->by_rank && !r->failed)
		r->fmt->run_fail(r, run, i, msg);
}

size_t
trc_next_brief(struct trc_reader *r, const struct trc_brief **ev)
{
	const struct trc_brief *q = r->q, *e;
	int64_t last = r->last_t;
	int32_t ranks = r->hdr.ranks > 0 ? r->hdr.ranks : INT32_MAX;

	/* check()'s checks of time order and ranks; an event that fails
	 * them, or any of a stream ordered by rank (each rank's last time
	 * kept apart), is left to trc_next. */
	if (r->hdr.order == TRC_ORDER_TIME) {
		for (e = q; e < r->qend && e->t >= last && e->rank < ranks; e++)
			last = e->t;
		r->last_t = last;
	} else if (r->hdr.order == TRC_ORDER_NONE) {
		for (e = q; e < r->qend && e->rank < ranks; e++)
			;
	} else
		return 0;
	r->line += e - q;
	r->q = e;
	*ev = q;
	return (size_t)(e - q);
}

static int __attribute__((noinline))
format_next(struct trc_reader *r, struct trc_event *ev)
{
	int rc;

	if (r->failed)
		return -1;
	if (r->by_rank)
		return trc_fail(r, "read by rank (trc_next_run), not in "
		    "stream order");
	if ((rc = r->fmt->next(r, ev)) <= 0)
		return r->failed ? -1 : rc;
	r->line = ev->line;
	return check(r, ev);
}

static int __attribute__((noinline))
text_fast(struct trc_reader *r, struct trc_event *ev)
{
	const char *s, *stop;

	if (r->failed)
		return -1;
	/* The usual line, a whole one in the buffer, is parsed where it
	 * is: the parser finds its newline, so no memchr first.  The rest
	 * (the header, a line the buffer does not hold whole, comments,
	 * errors) is out of line, so that this path keeps to registers. */
	s = r->buf + r->start;
	if (!r->ready || r->start >= r->complete || (unsigned)(*s - '0') >= 10)
		return text_next(r, ev);
	r->line++;
	if (r->parse(s, ev, r->perr, &stop) < 0)
		return trc_fail(r, "%s", r->perr);
	if (*stop != '\n')
		return trc_fail(r, "NUL byte in line");
	if ((size_t)(stop - s) > r->linemax)
		return too_long(r, r->line);
	r->start = (size_t)(stop + 1 - r->buf);
	ev->line = r->line;
	return check(r, ev);
}

/* The next event of the text stream, but for the usual line. */
static int __attribute__((noinline))
text_next(struct trc_reader *r, struct trc_event *ev)
{
	char err[TRC_ERRLEN];
	int rc;

	if (!r->have_header && read_header(r) < 0)
		return -1;
	if (!r->pending && r->start < r->complete &&
	    (unsigned)(r->buf[r->start] - '0') < 10)
		return trc_next(r, ev);
	for (;;) {
		if (r->pending) {
			r->pending = 0;
			r->ready = 1;
		} else if ((rc = read_line(r)) <= 0)
			return rc;
		if (r->line_len == 0 || r->line_s[0] == '#' ||
		    blank_line(r->line_s, r->line_len))
			continue;
		break;
	}
	if (trc_parse_line(r->line_s, r->line_len, ev, err) < 0)
		return trc_fail(r, "%s", err);
	ev->line = r->line;
	return check(r, ev);
}

/* check()'s verdict when it finds fault, or for the order by rank. */
static int __attribute__((noinline))
check_slow(struct trc_reader *r, const struct trc_event *ev)
{
	char a[24], b[24];

	if (r->hdr.ranks > 0 && ev->rank >= r->hdr.ranks)
		return trc_fail(r, "rank %ld out of range (ranks=%ld)",
		    (long)ev->rank, (long)r->hdr.ranks);
	switch (r->hdr.order) {
	case TRC_ORDER_TIME:
		if (ev->t < r->last_t) {
			a[trc_format_time(a, ev->t)] = '\0';
			b[trc_format_time(b, r->last_t)] = '\0';
			return trc_fail(r, "time goes backwards ('%s' after '%s')",
			    a, b);
		}
		r->last_t = ev->t;
		break;
	case TRC_ORDER_RANK:
		if (check_rank_order(r, ev) < 0) {
			if (r->failed)
				return -1;
			a[trc_format_time(a, ev->t)] = '\0';
			b[trc_format_time(b, *(int64_t *)trc_pages_at(&r->rank_last,
			    (size_t)ev->rank))] = '\0';
			return trc_fail(r, "time goes backwards on rank %ld "
			    "('%s' after '%s')", (long)ev->rank, a, b);
		}
		break;
	case TRC_ORDER_NONE:
		break;
	}
	return 1;
}

/* What every event must be, whatever its format: the usual case, a
 * time-ordered stream in order, inline. */
static inline int
check(struct trc_reader *r, const struct trc_event *ev)
{
	if (r->hdr.order == TRC_ORDER_TIME && ev->t >= r->last_t &&
	    (r->hdr.ranks <= 0 || ev->rank < r->hdr.ranks)) {
		r->last_t = ev->t;
		return 1;
	}
	return check_slow(r, ev);
}
