/*
 * sddf.c - Pablo's Self-Defining Data Format, ASCII (R. A. Aydt, "The
 * Pablo Self-Defining Data Format", UIUC): the magic SDDFA, then
 * packets ended by ";;":
 *
 *	/ * "key" "value" ... * / ;;			stream attributes
 *	#40: // "key" "value"
 *	"Message Send" {				a record descriptor
 *		// "Time" "when it left"		(field attributes)
 *		double "Seconds";
 *		int "Processor Number";
 *		char "Procedure"[];
 *	};;
 *	"Message Send" { 0.0125, 3, [7] { "Iterate" } };;	a record
 *
 * A record descriptor says nothing of what its records mean, so they
 * are known by name: a descriptor whose name (lowercased, split into
 * words) has one word of a message send, a receive or a procedure, and
 * maybe one of a begin or an end, maps to the stream; its fields are
 * found by their names, from tables of the names Pablo, PICL and the
 * tools after them used.  Records of other descriptors are counted.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "swar.h"

#define MAXFN		1024
#define MAXNAME		256

enum ttype { T_CHAR, T_INT, T_REAL };

struct field {
	char		*name;		/* as written */
	enum ttype	 type;
	int		 ndims;
};

/* What a descriptor's records are. */
enum role { R_NONE, R_SEND, R_RECV, R_PROC };
enum phase { P_POINT, P_BEGIN, P_END };
enum frole { F_TIME, F_RANK, F_TAG, F_BYTES, F_PEER, F_FN, F_NROLE };

struct desc {
	long		 tag;
	char		*name;
	size_t		 namelen;
	int		 plain;		/* no quote or backslash in the name */
	struct field	*f;
	int		 nf;
	enum role	 role;
	enum phase	 phase;
	int		 at[F_NROLE];	/* field index, -1 none */
	int		 unit;		/* power of ten to nanoseconds */
	int		 fn_abs;	/* an event id: exits are -entry */
	char		*drop;		/* what -v says when not mapped */
	int8_t		*roleat;	/* the role of each field, -1 */
};

/* A rank's open procedures and the message of an open send or receive. */
struct prank {
	char		**stack;
	size_t		 depth, cap;
	int64_t		 speer, stag, sbytes;
	int64_t		 rpeer, rtag, rbytes;
};

enum tok {
	K_EOF, K_STRING, K_NUMBER, K_CHARLIT, K_IDENT, K_PUNCT, K_COMMENT
};

struct sd {
	struct trc_reader *r;
	struct trc_lines *l;
	const char	*path;
	/* the tokenizer: the current line and a token of lookahead */
	char		*s;
	size_t		 len, pos;
	long		 line;
	int		 eof;
	enum tok	 k, pk;
	int		 peeked;
	char		*tb, *ptb;	/* token text (copied) */
	size_t		 tlen, ptlen, tcap, ptcap;
	long		 tline, ptline;
	struct desc	*d;
	int		 nd, capd;
	int		 last;		/* the descriptor read last */
	struct prank	*pr;
	size_t		 npr;
	/* the record being yielded */
	struct desc	*rd;
	long		 rline;
	int		 nev, iev;	/* its events, and the next one */
	int64_t		 t, rank, tag, bytes, peer;
	char		 fn[MAXFN];
	size_t		 fnlen;
	int		 have[F_NROLE];
	struct trc_evbuild eb;
};

/* Names ------------------------------------------------------------------- */

/* Lowercase words separated by one blank. */
static void
normalize(const char *s, char *out, size_t cap)
{
	size_t n = 0;
	int blank = 0;

	for (; *s != '\0' && n + 2 < cap; s++) {
		if ((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')) {
			if (blank && n > 0)
				out[n++] = ' ';
			out[n++] = *s;
			blank = 0;
		} else if (*s >= 'A' && *s <= 'Z') {
			if (blank && n > 0)
				out[n++] = ' ';
			out[n++] = (char)(*s - 'A' + 'a');
			blank = 0;
		} else
			blank = 1;
	}
	out[n] = '\0';
}

static int
in_list(const char *w, const char *const *list)
{
	for (; *list != NULL; list++)
		if (strcmp(w, *list) == 0)
			return 1;
	return 0;
}

static const char *const send_words[] = {
	"send", "sends", "csend", "isend", "bsend", "ssend", "sent", NULL
};
static const char *const recv_words[] = {
	"recv", "receive", "receives", "crecv", "irecv", "received", NULL
};
static const char *const proc_words[] = {
	"procedure", "function", "routine", "subroutine", "region", "task",
	NULL
};
static const char *const begin_words[] = {
	"begin", "entry", "enter", "start", "entering", NULL
};
static const char *const end_words[] = {
	"end", "exit", "stop", "return", "leave", "leaving", NULL
};
static const char *const quiet_words[] = {
	"message", "msg", "nx", "mpi", "picl", "pvm", "trace", "event",
	"blocking", "call", "record", NULL
};

/* The role of a descriptor by its name; R_NONE when not one of ours. */
static enum role
name_role(const char *name, enum phase *ph)
{
	char n[MAXNAME], *w, *save = NULL;
	enum role role = R_NONE;
	int roles = 0, phases = 0;

	normalize(name, n, sizeof(n));
	*ph = P_POINT;
	for (w = strtok_r(n, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save)) {
		if (in_list(w, send_words))
			role = R_SEND, roles++;
		else if (in_list(w, recv_words))
			role = R_RECV, roles++;
		else if (in_list(w, proc_words))
			role = R_PROC, roles++;
		else if (in_list(w, begin_words))
			*ph = P_BEGIN, phases++;
		else if (in_list(w, end_words))
			*ph = P_END, phases++;
		else if (!in_list(w, quiet_words))
			return R_NONE;
	}
	if (roles != 1 || phases > 1)
		return R_NONE;
	/* A procedure is entered and left, never a point. */
	if (role == R_PROC && *ph == P_POINT)
		return R_NONE;
	return role;
}

/* The field names each role is found by, in order of preference. */
static const char *const time_s[] = {
	"seconds", "timestamp", "time stamp", "time", "clock", "wall time",
	"walltime", "event time", "time seconds", NULL
};
static const char *const time_ms[] = {
	"milliseconds", "msec", "time ms", "timestamp ms", NULL
};
static const char *const time_us[] = {
	"microseconds", "usec", "time us", "timestamp us", NULL
};
static const char *const time_ns[] = {
	"nanoseconds", "nsec", "time ns", "timestamp ns", NULL
};
static const char *const rank_n[] = {
	"processor number", "processor", "processor id", "node",
	"node number", "node id", "rank", "process", "process number",
	"task", "task number", NULL
};
static const char *const tag_n[] = {
	"message type", "msg type", "message tag", "msg tag", "tag", "type",
	NULL
};
static const char *const bytes_n[] = {
	"message length", "msg length", "message size", "msg size",
	"length", "size", "bytes", "byte count", "message bytes", NULL
};
static const char *const dest_n[] = {
	"destination", "dest", "destination node", "dest node",
	"destination processor", "dest processor", "to", "to node",
	"receiver", "receiving node", "partner", "peer", "target", NULL
};
static const char *const source_n[] = {
	"source", "src", "source node", "source processor", "sending node",
	"sender", "from", "from node", "partner", "peer", NULL
};
static const char *const fn_n[] = {
	"procedure", "procedure name", "name", "function", "function name",
	"routine", "routine name", "region", "region name", "procedure index",
	"procedure id", "function id", "task id", NULL
};
static const char *const evid_n[] = {
	"event identifier", "event id", NULL
};

/* The first field of d named as in list, or -1. */
static int
find_field(const struct desc *d, const char *const *list)
{
	char n[MAXNAME];
	int i;

	for (; *list != NULL; list++)
		for (i = 0; i < d->nf; i++) {
			normalize(d->f[i].name, n, sizeof(n));
			if (strcmp(n, *list) == 0)
				return i;
		}
	return -1;
}

/* Maps a descriptor's fields; sets drop when its records are not read. */
static int
map(struct sd *s, struct desc *d)
{
	const char *miss = NULL;
	char what[MAXNAME + 64];
	int i;

	for (i = 0; i < F_NROLE; i++)
		d->at[i] = -1;
	d->role = name_role(d->name, &d->phase);
	d->unit = 9;
	if (d->role != R_NONE) {
		if ((d->at[F_TIME] = find_field(d, time_s)) < 0) {
			if ((d->at[F_TIME] = find_field(d, time_ms)) >= 0)
				d->unit = 6;
			else if ((d->at[F_TIME] = find_field(d, time_us)) >= 0)
				d->unit = 3;
			else if ((d->at[F_TIME] = find_field(d, time_ns)) >= 0)
				d->unit = 0;
		}
		d->at[F_RANK] = find_field(d, rank_n);
		if (d->role == R_PROC) {
			d->at[F_FN] = find_field(d, fn_n);
			if (d->at[F_FN] < 0 &&
			    (d->at[F_FN] = find_field(d, evid_n)) >= 0)
				d->fn_abs = 1;
		} else {
			d->at[F_TAG] = find_field(d, tag_n);
			d->at[F_BYTES] = find_field(d, bytes_n);
			d->at[F_PEER] = find_field(d, d->role == R_SEND ?
			    dest_n : source_n);
		}
		if (d->at[F_TIME] < 0)
			miss = "time";
		else if (d->at[F_RANK] < 0)
			miss = "processor";
		else if (d->role == R_PROC && d->phase == P_BEGIN &&
		    d->at[F_FN] < 0)
			miss = "procedure";
		else if (d->role != R_PROC && d->phase == P_POINT &&
		    d->at[F_PEER] < 0)
			miss = d->role == R_SEND ? "destination" : "source";
		for (i = 0; i < F_NROLE && miss == NULL; i++)
			if (d->at[i] >= 0 && i != F_FN &&
			    d->f[d->at[i]].ndims > 0)
				miss = "scalar";
	}
	free(d->drop);
	d->drop = NULL;
	free(d->roleat);
	if ((d->roleat = malloc((size_t)(d->nf ? d->nf : 1))) == NULL)
		return trc_fail_at(s->r, s->path, 0, "out of memory");
	for (i = 0; i < d->nf; i++)
		d->roleat[i] = -1;
	for (i = 0; i < F_NROLE; i++)
		if (d->at[i] >= 0)
			d->roleat[d->at[i]] = (int8_t)i;
	if (d->role == R_NONE)
		snprintf(what, sizeof(what), "'%s' records", d->name);
	else if (miss != NULL) {
		d->role = R_NONE;
		snprintf(what, sizeof(what), "'%s' records (no %s field)",
		    d->name, miss);
	} else
		return 0;
	if ((d->drop = strdup(what)) == NULL)
		return trc_fail_at(s->r, s->path, 0, "out of memory");
	return 0;
}

/* Tokens ------------------------------------------------------------------ */

static int fail(struct sd *, long, const char *, ...)
    __attribute__((format(printf, 3, 4)));

static int
fail(struct sd *s, long line, const char *fmt, ...)
{
	char m[TRC_ERRLEN + MAXNAME];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m, sizeof(m), fmt, ap);
	va_end(ap);
	return trc_fail_at(s->r, s->path, line, "%s", m);
}

static int
next_line(struct sd *s)
{
	int rc;

	if (s->eof)
		return 0;
	if ((rc = trc_lines_next(s->l, &s->s, &s->len)) < 0)
		return trc_fail_lines(s->r, s->l);
	if (rc == 0) {
		s->eof = 1;
		s->s = NULL;
		s->len = s->pos = 0;
		return 0;
	}
	s->pos = 0;
	s->line = trc_lines_lineno(s->l);
	return 1;
}

static inline int
tok_put(struct sd *s, const char *p, size_t n)
{
	char *nb;

	if (s->tlen + n + 1 > s->tcap) {
		if ((nb = realloc(s->tb, s->tlen + n + 64)) == NULL)
			return trc_fail_at(s->r, s->path, 0, "out of memory");
		s->tb = nb;
		s->tcap = s->tlen + n + 64;
	}
	memcpy(s->tb + s->tlen, p, n);
	s->tlen += n;
	s->tb[s->tlen] = '\0';
	return 0;
}

static int
is_ident(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_';
}

/* Reads the next token into s->k, s->tb: 0, or -1 on error. */
static int
lex(struct sd *s)
{
	const char *p;
	size_t i;
	int rc;
	char c;

	s->tlen = 0;
	if (tok_put(s, "", 0) < 0)
		return -1;
	for (;;) {
		while (s->s != NULL && s->pos < s->len &&
		    (s->s[s->pos] == ' ' || s->s[s->pos] == '\t'))
			s->pos++;
		if (s->s == NULL || s->pos >= s->len) {
			if ((rc = next_line(s)) < 0)
				return -1;
			if (rc == 0) {
				s->k = K_EOF;
				s->tline = s->line;
				return 0;
			}
			continue;
		}
		p = s->s + s->pos;
		if (p[0] == '/' && s->pos + 1 < s->len && p[1] == '/') {
			s->pos = s->len;	/* an attribute: not read */
			continue;
		}
		break;
	}
	s->tline = s->line;
	p = s->s + s->pos;
	c = *p;
	if (c == '/' && s->pos + 1 < s->len && p[1] == '*') {
		/* Attributes to the closing star-slash, over lines. */
		s->pos += 2;
		for (;;) {
			p = s->s + s->pos;
			for (i = s->pos; i + 1 < s->len; i++)
				if (s->s[i] == '*' && s->s[i + 1] == '/')
					break;
			if (i + 1 < s->len) {
				s->pos = i + 2;
				s->k = K_COMMENT;
				return 0;
			}
			if ((rc = next_line(s)) < 0)
				return -1;
			if (rc == 0)
				return fail(s, s->tline, "attributes not closed "
				    "(the file ends)");
		}
	}
	if (c == '"' || c == '\'') {
		/* The text without quotes; \" and \\ are the character. */
		for (i = s->pos + 1; i < s->len && s->s[i] != c &&
		    s->s[i] != '\\'; i++)
			;
		if (tok_put(s, p + 1, i - s->pos - 1) < 0)
			return -1;
		for (; i < s->len && s->s[i] != c; i++) {
			if (s->s[i] == '\\' && i + 1 < s->len)
				i++;
			if (tok_put(s, s->s + i, 1) < 0)
				return -1;
		}
		if (i >= s->len)
			return fail(s, s->tline, "%s not closed on its line",
			    c == '"' ? "string" : "character");
		s->pos = i + 1;
		s->k = c == '"' ? K_STRING : K_CHARLIT;
		return 0;
	}
	if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.') {
		for (i = s->pos + 1; i < s->len; i++) {
			c = s->s[i];
			if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' ||
			    c == 'E' || ((c == '-' || c == '+') &&
			    (s->s[i - 1] == 'e' || s->s[i - 1] == 'E'))))
				break;
		}
		if (tok_put(s, p, i - s->pos) < 0)
			return -1;
		s->pos = i;
		s->k = K_NUMBER;
		return 0;
	}
	if (is_ident((unsigned char)c)) {
		for (i = s->pos; i < s->len && is_ident((unsigned char)s->s[i]);
		    i++)
			;
		if (tok_put(s, p, i - s->pos) < 0)
			return -1;
		s->pos = i;
		s->k = K_IDENT;
		return 0;
	}
	if (c == '{' || c == '}' || c == '[' || c == ']' || c == ',' ||
	    c == ';' || c == ':' || c == '#' || c == '%') {
		if (tok_put(s, p, 1) < 0)
			return -1;
		s->pos++;
		s->k = K_PUNCT;
		return 0;
	}
	{
		char b[2] = { c, '\0' };

		return fail(s, s->tline, "unexpected character '%s'", b);
	}
}

/* The next token, or the one peeked. */
static int
next_tok(struct sd *s)
{
	char *t;
	size_t c;

	if (s->peeked) {
		s->peeked = 0;
		/* swap the buffers: the peeked token becomes current */
		t = s->tb, s->tb = s->ptb, s->ptb = t;
		c = s->tcap, s->tcap = s->ptcap, s->ptcap = c;
		s->tlen = s->ptlen;
		s->k = s->pk;
		s->tline = s->ptline;
		return 0;
	}
	return lex(s);
}

/* Looks at the token after the current one. */
static int
peek(struct sd *s)
{
	char *t;
	size_t c, n;
	enum tok k;
	long line;

	if (s->peeked)
		return 0;
	/* keep the current token in p*, lex, then swap */
	t = s->tb, s->tb = s->ptb, s->ptb = t;
	c = s->tcap, s->tcap = s->ptcap, s->ptcap = c;
	n = s->tlen, k = s->k, line = s->tline;
	if (lex(s) < 0)
		return -1;
	t = s->tb, s->tb = s->ptb, s->ptb = t;
	c = s->tcap, s->tcap = s->ptcap, s->ptcap = c;
	s->ptlen = s->tlen, s->pk = s->k, s->ptline = s->tline;
	s->tlen = n, s->k = k, s->tline = line;
	s->peeked = 1;
	return 0;
}

static int
is_punct(const struct sd *s, char c)
{
	return s->k == K_PUNCT && s->tb[0] == c;
}

static const char *
shown(const struct sd *s)
{
	return s->k == K_EOF ? "the end of the file" : s->tb;
}

static int
expect(struct sd *s, char c, const char *after)
{
	if (next_tok(s) < 0)
		return -1;
	if (!is_punct(s, c))
		return fail(s, s->tline, "expected '%c' %s, found '%s'", c,
		    after, shown(s));
	return 0;
}

/* ";;" ends a packet. */
static int
end_packet(struct sd *s, const char *what)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (next_tok(s) < 0)
			return -1;
		if (!is_punct(s, ';'))
			return fail(s, s->tline, "expected ';' after %s, "
			    "found '%s'", what, shown(s));
	}
	return 0;
}

/* Descriptors ------------------------------------------------------------- */

static void
desc_free(struct desc *d)
{
	int i;

	for (i = 0; i < d->nf; i++)
		free(d->f[i].name);
	free(d->f);
	free(d->name);
	free(d->drop);
	free(d->roleat);
	memset(d, 0, sizeof(*d));
}

/* "#N:" was read: the descriptor that follows. */
static int
descriptor(struct sd *s)
{
	struct desc nd, *d;
	struct field *f;
	char *e;
	long tag;
	int i;

	memset(&nd, 0, sizeof(nd));
	if (next_tok(s) < 0)
		return -1;
	tag = strtol(s->tb, &e, 10);
	if (s->k != K_NUMBER || *e != '\0')
		return fail(s, s->tline, "invalid descriptor tag '%s'",
		    shown(s));
	if (expect(s, ':', "after a descriptor tag") < 0 || next_tok(s) < 0)
		return -1;
	if (s->k != K_STRING)
		return fail(s, s->tline, "expected a record name in quotes, "
		    "found '%s'", shown(s));
	nd.tag = tag;
	/* tlen bytes, not strdup's: a name may hold a NUL (\0 escaped). */
	if ((nd.name = malloc(s->tlen + 1)) == NULL)
		goto nomem;
	memcpy(nd.name, s->tb, s->tlen);
	nd.name[s->tlen] = '\0';
	nd.namelen = s->tlen;
	nd.plain = strpbrk(nd.name, "\"\\") == NULL &&
	    strlen(nd.name) == nd.namelen;
	if (expect(s, '{', "after a record name") < 0)
		goto bad;
	for (;;) {
		if (next_tok(s) < 0)
			goto bad;
		if (is_punct(s, '}'))
			break;
		if (s->k != K_IDENT) {
			fail(s, s->tline, "expected a field type, found "
			    "'%s'", shown(s));
			goto bad;
		}
		if ((f = realloc(nd.f, (size_t)(nd.nf + 1) * sizeof(*f))) ==
		    NULL)
			goto nomem;
		nd.f = f;
		f = &nd.f[nd.nf];
		memset(f, 0, sizeof(*f));
		if (strcmp(s->tb, "char") == 0)
			f->type = T_CHAR;
		else if (strcmp(s->tb, "int") == 0 ||
		    strcmp(s->tb, "long") == 0 ||
		    strcmp(s->tb, "short") == 0 ||
		    strcmp(s->tb, "byte") == 0)
			f->type = T_INT;
		else if (strcmp(s->tb, "double") == 0 ||
		    strcmp(s->tb, "float") == 0)
			f->type = T_REAL;
		else {
			fail(s, s->tline, "unknown field type '%s'", s->tb);
			goto bad;
		}
		if (next_tok(s) < 0)
			goto bad;
		if (s->k != K_STRING) {
			fail(s, s->tline, "expected a field name in quotes, "
			    "found '%s'", shown(s));
			goto bad;
		}
		if ((f->name = strdup(s->tb)) == NULL)
			goto nomem;
		nd.nf++;
		for (;;) {
			if (next_tok(s) < 0)
				goto bad;
			if (is_punct(s, ';'))
				break;
			if (!is_punct(s, '[')) {
				fail(s, s->tline, "expected ';' after field "
				    "'%s', found '%s'", f->name, shown(s));
				goto bad;
			}
			if (expect(s, ']', "in a field's dimensions") < 0)
				goto bad;
			f->ndims++;
		}
	}
	if (end_packet(s, "a record descriptor") < 0)
		goto bad;
	/* A tag or a name defined again is replaced. */
	for (i = 0; i < s->nd; i++)
		if (s->d[i].tag == nd.tag || strcmp(s->d[i].name, nd.name) == 0)
			break;
	if (i == s->nd) {
		if ((d = realloc(s->d, (size_t)(s->nd + 1) * sizeof(*d))) ==
		    NULL)
			goto nomem;
		s->d = d;
		s->nd++;
	} else
		desc_free(&s->d[i]);
	s->d[i] = nd;
	return map(s, &s->d[i]);
nomem:
	trc_fail_at(s->r, s->path, 0, "out of memory");
bad:
	desc_free(&nd);
	return -1;
}

/* Values ------------------------------------------------------------------ */

/* Seconds (times 10^unit ns) as text, exactly, into ns. */
static int
parse_time(const char *p, const char *end, int unit, int64_t *ns)
{
	static const int64_t p10[] = { 1, 10, 100, 1000, 10000, 100000,
	    1000000, 10000000, 100000000, 1000000000 };
	const char *q;
	int64_t m = 0, ip = 0, fp = 0;
	int nd = 0, nf = 0, e = 0, esign = 1, edig = 0, drop = 0, pow;
	int frac = 0;

	/* The usual seconds, "0.001234", without the general case. */
	for (q = p; q < end && *q >= '0' && *q <= '9' && q - p < 10; q++)
		ip = ip * 10 + (*q - '0');
	if (q > p && unit == 9 && q < end && *q == '.') {
		for (q++; q < end && *q >= '0' && *q <= '9' && nf < 9; q++)
			fp = fp * 10 + (*q - '0'), nf++;
		if (q == end) {
			*ns = ip * 1000000000 + fp * p10[9 - nf];
			return 0;
		}
		nf = 0;
	}

	if (p < end && *p == '+')
		p++;
	for (; p < end && ((*p >= '0' && *p <= '9') || (*p == '.' && !frac));
	    p++) {
		if (*p == '.') {
			frac = 1;
			continue;
		}
		nd++;
		if (m > (INT64_MAX - 9) / 10) {
			drop += !frac;	/* digits past 18: only the scale */
			continue;
		}
		m = m * 10 + (*p - '0');
		nf += frac;
	}
	if (nd == 0)
		return -1;
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '-' || *p == '+'))
			esign = *p++ == '-' ? -1 : 1;
		for (; p < end && *p >= '0' && *p <= '9'; p++, edig++)
			if ((e = e * 10 + (*p - '0')) > 400)
				return -1;
		if (edig == 0)
			return -1;
	}
	if (p != end)
		return -1;
	pow = esign * e - nf + drop + unit;
	for (; pow > 0; pow--) {
		if (m > INT64_MAX / 10)
			return -1;
		m *= 10;
	}
	for (; pow < 0; pow++)
		m = pow == -1 ? (m + 5) / 10 : m / 10;
	*ns = m;
	return 0;
}

/* An integer (or a real with no fraction) as text. */
static int
parse_int(const char *p, const char *end, int64_t *v)
{
	int64_t n = 0;
	int neg = 0, nd = 0;

	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	for (; p < end && *p >= '0' && *p <= '9'; p++, nd++) {
		if (n > (INT64_MAX - 9) / 10)
			return -1;
		n = n * 10 + (*p - '0');
	}
	if (p < end && *p == '.')
		for (p++; p < end && *p == '0'; p++)
			;
	if (nd == 0 || p != end)
		return -1;
	*v = neg ? -n : n;
	return 0;
}

/* The number t..end of field i (role k) kept: 0, or -1 if invalid. */
static int
scalar(struct sd *s, const struct desc *d, int k, const char *t,
    const char *end)
{
	int64_t v;

	if (k == F_TIME)
		return parse_time(t, end, d->unit, &s->t);
	if (parse_int(t, end, &v) < 0)
		return -1;
	if (k == F_FN) {
		if (d->fn_abs && v < 0)
			v = -v;
		s->fnlen = trc_format_int(s->fn, v);
		return 0;
	}
	if (v < 0 || (k != F_BYTES && v > INT32_MAX - 2))
		return -1;
	if (k == F_RANK)
		s->rank = v;
	else if (k == F_TAG)
		s->tag = v;
	else if (k == F_BYTES)
		s->bytes = v;
	else
		s->peer = v;
	return 0;
}

/* The role of field i of d, or -1. */
static int
role_of(const struct desc *d, int i)
{
	return d->role == R_NONE ? -1 : d->roleat[i];
}

static int
bad_value(struct sd *s, const struct desc *d, int i)
{
	return fail(s, s->tline, "invalid %s '%s'", d->f[i].name, shown(s));
}

/* The procedure name, blanks and '=' made '_' as libtrc-mpi does. */
static void
fn_add(struct sd *s, const char *t, size_t n)
{
	size_t i;

	for (i = 0; i < n && s->fnlen + 1 < sizeof(s->fn); i++)
		s->fn[s->fnlen++] = t[i] == ' ' || t[i] == '\t' ||
		    t[i] == '=' ? '_' : t[i];
}

/* An array value: [n]...{ ... } with nested braces, or a string. */
static int
array(struct sd *s, const struct desc *d, int i, int keep)
{
	int depth = 0, first = 1;

	if (s->k == K_STRING) {
		if (keep)
			fn_add(s, s->tb, s->tlen);
		return 0;
	}
	while (is_punct(s, '[')) {
		if (next_tok(s) < 0)
			return -1;
		if (s->k != K_NUMBER)
			return bad_value(s, d, i);
		if (expect(s, ']', "after an array dimension") < 0 ||
		    next_tok(s) < 0)
			return -1;
	}
	if (!is_punct(s, '{'))
		return bad_value(s, d, i);
	for (depth = 1; depth > 0; ) {
		if (next_tok(s) < 0)
			return -1;
		if (s->k == K_EOF)
			return fail(s, s->tline, "field '%s' not closed (the "
			    "file ends)", d->f[i].name);
		if (is_punct(s, '{'))
			depth++;
		else if (is_punct(s, '}'))
			depth--;
		else if (keep && (s->k == K_STRING || s->k == K_CHARLIT) &&
		    (first || s->k == K_CHARLIT)) {
			fn_add(s, s->tb, s->tlen);
			first = 0;
		} else if (keep && s->k == K_NUMBER && first &&
		    d->f[i].type != T_CHAR) {
			fn_add(s, s->tb, s->tlen);
			first = 0;
		}
	}
	return 0;
}

/* A record "name" { v, ... };; whose name was read: its values. */
static int
record(struct sd *s, struct desc *d)
{
	int i, k;

	for (k = 0; k < F_NROLE; k++)
		s->have[k] = 0;
	s->fnlen = 0;
	if (expect(s, '{', "after a record name") < 0)
		return -1;
	for (i = 0; i < d->nf; i++) {
		if (next_tok(s) < 0)
			return -1;
		if (s->k == K_EOF)
			return fail(s, s->tline, "record '%s' not closed (the "
			    "file ends)", d->name);
		if (is_punct(s, '}'))
			return trc_fail_at(s->r, s->path, s->tline, "record "
			    "'%s' has %d values, its descriptor %d fields",
			    d->name, i, d->nf);
		k = role_of(d, i);
		if (d->f[i].ndims > 0) {
			if (array(s, d, i, k == F_FN) < 0)
				return -1;
			if (k == F_FN)
				s->have[k] = 1;
		} else if (s->k == K_CHARLIT) {
			if (k == F_FN) {
				fn_add(s, s->tb, s->tlen);
				s->have[k] = 1;
			} else if (k >= 0)
				return bad_value(s, d, i);
		} else if (s->k == K_NUMBER) {
			if (k >= 0) {
				if (scalar(s, d, k, s->tb, s->tb + s->tlen) < 0)
					return bad_value(s, d, i);
				s->have[k] = 1;
			}
		} else
			return bad_value(s, d, i);
		if (next_tok(s) < 0)
			return -1;
		if (i + 1 < d->nf && !is_punct(s, ',')) {
			if (is_punct(s, '}'))
				return trc_fail_at(s->r, s->path, s->tline,
				    "record '%s' has %d values, its "
				    "descriptor %d fields", d->name, i + 1,
				    d->nf);
			return fail(s, s->tline, "expected ',' after a value "
			    "of '%s', found '%s'", d->name, shown(s));
		}
	}
	if (!is_punct(s, '}')) {
		if (is_punct(s, ','))
			return trc_fail_at(s->r, s->path, s->tline, "record "
			    "'%s' has more values than its descriptor's %d "
			    "fields", d->name, d->nf);
		return fail(s, s->tline, "expected '}' after the values of "
		    "'%s', found '%s'", d->name, shown(s));
	}
	return end_packet(s, "a record");
}

/* The descriptor of a record name, or NULL. */
static struct desc *
desc_of(struct sd *s, const char *name, size_t len)
{
	int i;

	if (s->last >= 0 && s->last < s->nd &&
	    s->d[s->last].namelen == len &&
	    memcmp(s->d[s->last].name, name, len) == 0)
		return &s->d[s->last];
	for (i = 0; i < s->nd; i++)
		if (s->d[i].namelen == len &&
		    memcmp(s->d[i].name, name, len) == 0) {
			s->last = i;
			return &s->d[i];
		}
	return NULL;
}

static const char *
blanks(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/*
 * A record alone on its line with plain values, read in place: the
 * usual case, without the tokens.  1 when read (its descriptor in
 * *dp), 0 to leave the line to the tokens (which also say what is
 * wrong with it), -1 on error.
 */
static int
quick(struct sd *s, struct desc **dp)
{
	const char *p, *e, *q, *t;
	struct desc *d;
	int64_t v;
	uint64_t u;
	unsigned n;
	int i, k, rc;

	if (s->peeked || (s->s != NULL && s->pos < s->len))
		return 0;
	if ((rc = next_line(s)) <= 0)
		return rc;
	p = blanks(s->s, e = s->s + s->len);
	if (p == e || *p != '"')
		return 0;
	/* The name: the last record's, else each descriptor's, tried in
	 * place (the byte after it a quote), else scanned. */
	for (q = NULL, i = s->last >= 0 && s->last < s->nd ? -1 : 0;
	    i < s->nd; i++) {
		d = &s->d[i < 0 ? s->last : i];
		if (d->plain && (size_t)(e - p) > d->namelen + 1 &&
		    p[1 + d->namelen] == '"' &&
		    swar_same(p + 1, d->name, d->namelen)) {
			s->last = (int)(d - s->d);
			q = p + 1 + d->namelen;
			break;
		}
	}
	if (q == NULL) {
		for (q = p + 1; q < e && *q != '"' && *q != '\\'; q++)
			;
		if (q == e || *q != '"' ||
		    (d = desc_of(s, p + 1, (size_t)(q - p - 1))) == NULL)
			return 0;
	}
	p = blanks(q + 1, e);
	if (p == e || *p++ != '{')
		return 0;
	for (k = 0; k < F_NROLE; k++)
		s->have[k] = 0;
	s->fnlen = 0;
	for (i = 0; i < d->nf; i++) {
		p = blanks(p, e);
		k = role_of(d, i);
		if (d->f[i].ndims == 0) {
			if (k > F_TIME && k != F_FN && p < e &&
			    *p >= '0' && *p <= '9') {
				/* a count, a rank, a tag: digits, at once;
				 * up to seven in a word where it lies in
				 * the line */
				t = p;
#if SWAR_LE
				if (e - p >= 8 && (n = swar_count(p, &u)) <
				    8) {
					/* one or two, as most are, without
					 * the word's multiplications */
					v = n == 1 ? p[0] - '0' : n == 2 ?
					    (p[0] - '0') * 10 + (p[1] - '0') :
					    (int64_t)swar_value(u, n);
					p += n;
				} else
#endif
				for (v = 0; p < e && *p >= '0' &&
				    *p <= '9' && p - t < 10; p++)
					v = v * 10 + (*p - '0');
				if (p < e && *p != ',' && *p != '}' &&
				    *p != ' ' && *p != '\t')
					return 0;
				if (k != F_BYTES && v > INT32_MAX - 2)
					return 0;
				if (k == F_RANK)
					s->rank = v;
				else if (k == F_TAG)
					s->tag = v;
				else if (k == F_BYTES)
					s->bytes = v;
				else
					s->peer = v;
				s->have[k] = 1;
				goto next;
			}
			if (k == F_TIME && d->unit == 9 && p < e &&
			    *p >= '0' && *p <= '9') {
				/* seconds "S.FFFFFFFFF", in one pass */
				int64_t sec = 0, f = 0;
				int nf = 0;

				for (t = p; p < e && *p >= '0' && *p <= '9' &&
				    p - t < 10; p++)
					sec = sec * 10 + (*p - '0');
#if SWAR_LE
				/* nine digits, as trc writes them: a word
				 * and one */
				if (e - p >= 10 && *p == '.' &&
				    swar_digits8(p + 1, &u) == 0 &&
				    (unsigned)(p[9] - '0') <= 9) {
					f = (int64_t)u * 10 + (p[9] - '0');
					nf = 9;
					p += 10;
				} else
#endif
				if (p < e && *p == '.')
					for (p++; p < e && *p >= '0' &&
					    *p <= '9' && nf < 9; p++, nf++)
						f = f * 10 + (*p - '0');
				if (p == e || *p == ',' || *p == '}' ||
				    *p == ' ' || *p == '\t') {
					for (; nf < 9; nf++)
						f *= 10;
					s->t = sec * 1000000000 + f;
					s->have[k] = 1;
					goto next;
				}
				p = t;		/* the general case */
			}
			for (t = p; p < e && *p != ',' && *p != '}' &&
			    *p != ' ' && *p != '\t'; p++)
				;
			if (p == t || !((*t >= '0' && *t <= '9') ||
			    *t == '-' || *t == '+' || *t == '.'))
				return 0;
			if (k >= 0) {
				if (scalar(s, d, k, t, p) < 0)
					return 0;
				s->have[k] = 1;
			}
		} else {
			/* "text" or [n] { "text" } */
			if (p < e && *p == '[') {
				for (p++; p < e && *p >= '0' && *p <= '9'; p++)
					;
				if (p == e || *p++ != ']')
					return 0;
				p = blanks(p, e);
				if (p == e || *p++ != '{')
					return 0;
				p = blanks(p, e);
				t = p;
			} else
				t = NULL;
			if (p == e || *p != '"')
				return 0;
			for (q = p + 1; q < e && *q != '"' && *q != '\\'; q++)
				;
			if (q == e || *q != '"')
				return 0;
			if (k == F_FN) {
				fn_add(s, p + 1, (size_t)(q - p - 1));
				s->have[k] = 1;
			}
			p = q + 1;
			if (t != NULL) {
				p = blanks(p, e);
				if (p == e || *p++ != '}')
					return 0;
			}
		}
next:
		p = blanks(p, e);
		if (i + 1 < d->nf && (p == e || *p++ != ','))
			return 0;
	}
	if (p == e || *p++ != '}')
		return 0;
	p = blanks(p, e);
	if (e - p < 2 || p[0] != ';' || p[1] != ';' || blanks(p + 2, e) != e)
		return 0;
	s->pos = s->len;
	s->tline = s->line;
	*dp = d;
	return 1;
}

/* Events ------------------------------------------------------------------ */

static struct prank *
prank(struct sd *s, int64_t rank)
{
	struct prank *p;
	size_t n;

	if ((size_t)rank >= s->npr) {
		for (n = s->npr ? s->npr : 16; n <= (size_t)rank; n *= 2)
			;
		if ((p = realloc(s->pr, n * sizeof(*p))) == NULL)
			return NULL;
		memset(p + s->npr, 0, (n - s->npr) * sizeof(*p));
		for (; s->npr < n; s->npr++)
			p[s->npr].speer = p[s->npr].stag = p[s->npr].sbytes =
			    p[s->npr].rpeer = p[s->npr].rtag =
			    p[s->npr].rbytes = TRC_NONE;
		s->pr = p;
	}
	return &s->pr[rank];
}

/* The record read, made ready: how many events it gives. */
static int
prepare(struct sd *s, struct desc *d, long line)
{
	struct prank *p;
	char *f, **st;
	size_t c;

	if ((p = prank(s, s->rank)) == NULL)
		return trc_fail_at(s->r, s->path, 0, "out of memory");
	if (!s->have[F_TAG])
		s->tag = TRC_NONE;
	if (!s->have[F_BYTES])
		s->bytes = TRC_NONE;
	if (!s->have[F_PEER])
		s->peer = TRC_NONE;
	switch (d->role) {
	case R_SEND:
	case R_RECV:
		/* A begin says what it says; its end takes what it lacks
		 * from it. */
		if (d->phase == P_BEGIN) {
			if (d->role == R_SEND)
				p->speer = s->peer, p->stag = s->tag,
				    p->sbytes = s->bytes;
			else
				p->rpeer = s->peer, p->rtag = s->tag,
				    p->rbytes = s->bytes;
			return 1;
		}
		if (d->phase == P_END) {
			if (!s->have[F_PEER])
				s->peer = d->role == R_SEND ? p->speer :
				    p->rpeer;
			if (!s->have[F_TAG])
				s->tag = d->role == R_SEND ? p->stag : p->rtag;
			if (!s->have[F_BYTES])
				s->bytes = d->role == R_SEND ? p->sbytes :
				    p->rbytes;
			if (s->peer < 0)
				return trc_fail_at(s->r, s->path, line, "'%s' "
				    "of processor %lld: no %s field, and no "
				    "begin said it", d->name, (long long)s->rank,
				    d->role == R_SEND ? "destination" :
				    "source");
			/* a begin says it for one end */
			if (d->role == R_SEND)
				p->speer = p->stag = p->sbytes = TRC_NONE;
			else
				p->rpeer = p->rtag = p->rbytes = TRC_NONE;
		}
		/* A message without tags: all match as tag 0. */
		if (s->tag < 0)
			s->tag = 0;
		return d->phase == P_POINT ? 2 : 1;
	case R_PROC:
		if (d->phase == P_BEGIN) {
			if (p->depth == p->cap) {
				c = p->cap ? 2 * p->cap : 8;
				if ((st = realloc(p->stack, c * sizeof(*st))) ==
				    NULL)
					return trc_fail_at(s->r, s->path, 0,
					    "out of memory");
				p->stack = st;
				p->cap = c;
			}
			if ((f = malloc(s->fnlen + 1)) == NULL)
				return trc_fail_at(s->r, s->path, 0,
				    "out of memory");
			memcpy(f, s->fn, s->fnlen);
			f[s->fnlen] = '\0';
			p->stack[p->depth++] = f;
			return 1;
		}
		if (p->depth == 0)
			return trc_fail_at(s->r, s->path, line, "'%s' of "
			    "processor %lld with no procedure entered",
			    d->name, (long long)s->rank);
		f = p->stack[p->depth - 1];
		if (!s->have[F_FN]) {
			s->fnlen = strlen(f);
			memcpy(s->fn, f, s->fnlen);
		} else if (strlen(f) != s->fnlen ||
		    memcmp(f, s->fn, s->fnlen) != 0) {
			s->fn[s->fnlen] = '\0';
			return trc_fail_at(s->r, s->path, line, "'%s' of "
			    "processor %lld leaves '%s' while '%s' is open",
			    d->name, (long long)s->rank, s->fn, f);
		}
		free(f);
		p->depth--;
		return 1;
	case R_NONE:
		break;
	}
	return 0;
}

static void
build(struct sd *s, struct trc_event *ev, long line)
{
	struct desc *d = s->rd;
	enum trc_kind k;
	int second = s->iev++ > 0;

	if (d->role == R_PROC)
		k = d->phase == P_BEGIN ? TRC_PB : TRC_PE;
	else if (d->role == R_SEND)
		k = d->phase == P_BEGIN || (d->phase == P_POINT && !second) ?
		    TRC_SB : TRC_SE;
	else
		k = d->phase == P_BEGIN || (d->phase == P_POINT && !second) ?
		    TRC_RB : TRC_RE;
	trc_eb_start(&s->eb, ev, s->t, (int32_t)s->rank, k);
	if (d->role == R_PROC)
		trc_eb_str(&s->eb, "fn", s->fn, s->fnlen);
	else {
		trc_eb_int(&s->eb, "peer", s->peer);
		trc_eb_int(&s->eb, "tag", s->tag);
		trc_eb_int(&s->eb, "bytes", s->bytes);
	}
	(void)trc_eb_done(&s->eb);
	ev->line = line;
}

static int
next_sddf(struct trc_reader *r, struct trc_event *ev)
{
	struct sd *s = trc_reader_state(r);
	struct desc *d;
	long line;
	int n, rc;

	if (s->iev < s->nev) {
		build(s, ev, s->rline);
		return 1;
	}
	for (;;) {
		if ((rc = quick(s, &d)) < 0)
			return -1;
		if (rc == 1) {
			line = s->line;
			goto read;
		}
		if (next_tok(s) < 0)
			return -1;
		line = s->tline;
		if (s->k == K_EOF)
			return 0;
		if (s->k == K_COMMENT) {
			/* stream attributes, then ";;" */
			if (peek(s) < 0)
				return -1;
			if (s->pk == K_PUNCT && s->ptb[0] == ';' &&
			    (next_tok(s) < 0 || expect(s, ';',
			    "after attributes") < 0))
				return -1;
			continue;
		}
		if (is_punct(s, '#')) {
			if (descriptor(s) < 0)
				return -1;
			continue;
		}
		if (is_punct(s, '%')) {
			/* a command packet: to its ";;" */
			do {
				if (next_tok(s) < 0)
					return -1;
				if (s->k == K_EOF)
					return fail(s, line, "command not "
					    "closed (the file ends)");
			} while (!(is_punct(s, ';') && (peek(s) == 0 &&
			    s->pk == K_PUNCT && s->ptb[0] == ';')));
			if (next_tok(s) < 0)
				return -1;
			trc_drop(r, "SDDF command packets");
			continue;
		}
		if (s->k != K_STRING)
			return fail(s, line, "expected a record or a "
			    "descriptor, found '%s'", shown(s));
		if ((d = desc_of(s, s->tb, s->tlen)) == NULL)
			return fail(s, line, "record '%s' has no descriptor",
			    s->tb);
		if (record(s, d) < 0)
			return -1;
read:
		if (d->role == R_NONE) {
			trc_drop(r, d->drop);
			continue;
		}
		if ((n = prepare(s, d, line)) < 0)
			return -1;
		s->rd = d;
		s->nev = n;
		s->iev = 0;
		s->rline = line;
		build(s, ev, line);
		return 1;
	}
}

static void
sd_free(void *state)
{
	struct sd *s = state;
	size_t i, j;
	int k;

	if (s == NULL)
		return;
	trc_lines_close(s->l);
	for (k = 0; k < s->nd; k++)
		desc_free(&s->d[k]);
	free(s->d);
	for (i = 0; i < s->npr; i++) {
		for (j = 0; j < s->pr[i].depth; j++)
			free(s->pr[i].stack[j]);
		free(s->pr[i].stack);
	}
	free(s->pr);
	free(s->tb);
	free(s->ptb);
	free(s);
}

static int
open_sddf(struct trc_reader *r, struct trc_src *src,
    const struct trc_open_opts *opts)
{
	struct trc_header *h = trc_reader_header(r);
	struct sd *s;

	(void)opts;
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return -1;
	trc_reader_set_state(r, s);
	s->r = r;
	s->path = trc_src_name(src);
	s->last = -1;
	if ((s->l = trc_lines_new(src, 0)) == NULL)
		return trc_fail_at(r, s->path, 0, "out of memory");
	if (lex(s) < 0)
		return -1;
	if (s->k == K_IDENT && strcmp(s->tb, "SDDFB") == 0)
		return trc_fail_at(r, s->path, s->tline, "binary SDDF (SDDFB) "
		    "is not read: convert it to ASCII (SDDFA)");
	if (s->k != K_IDENT || strcmp(s->tb, "SDDFA") != 0)
		return trc_fail_at(r, s->path, s->tline, "not SDDF: 'SDDFA' "
		    "expected first, found '%s'", shown(s));
	h->ranks = 0;		/* SDDF does not say */
	h->order = TRC_ORDER_TIME;
	return 0;
}

/* The magic SDDFA (ASCII) or SDDFB (binary, refused with a message). */
static int
bid(const char *path, const unsigned char *head, size_t n)
{
	(void)path;
	while (n > 0 && (*head == ' ' || *head == '\t' || *head == '\n' ||
	    *head == '\r'))
		head++, n--;
	return n >= 5 && (memcmp(head, "SDDFA", 5) == 0 ||
	    memcmp(head, "SDDFB", 5) == 0) ? 100 : 0;
}

const struct trc_format trc_format_sddf = {
	.name = "sddf",
	.alias = "pablo",
	.bid = bid,
	.open = open_sddf,
	.next = next_sddf,
	.close = sd_free,
};
