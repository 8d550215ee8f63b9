/*
 * chrome.c - the Chrome trace-event JSON format (chrome://tracing,
 * Perfetto's legacy JSON importer), written.
 *
 * One process, one thread (track) per rank.  Every call and region is
 * a complete slice ("ph":"X") written at its end, when its duration is
 * known; markers are instant events; every message is a flow, an "s"
 * bound to the send's slice and an "f" bound to the slice of the call
 * that completed the receive, written when lib/match.c pairs the two.
 * Memory is the open slices of each rank and the messages in flight.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"

struct slice {
	int64_t		 t;		/* begin */
	size_t		 name;		/* offset of its name in names */
	unsigned char	 kind;		/* the begin's kind */
};

struct crank {
	struct slice	*st;		/* open slices, innermost last */
	size_t		 nst, capst;
	char		*names;		/* their names, NUL-separated */
	size_t		 nlen, ncap;
	int64_t		 last;		/* the rank's last time */
	int		 seen;
};

struct chrome {
	int			 fd;
	char			*name;
	struct trc_writer	*w;
	struct crank		*rk;
	int32_t			 n, cap;
	struct trc_match	*mt;
	int64_t			 flows;
	int			 first;		/* no event written yet */
	char			 buf[TRC_MAXLINE + 1024];
};

static void
c_free(void *state)
{
	struct chrome *c = state;
	int32_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->n; i++) {
		free(c->rk[i].st);
		free(c->rk[i].names);
	}
	free(c->rk);
	trc_match_free(c->mt);
	trc_wfree(c->w);
	if (c->fd > 1)
		close(c->fd);
	free(c->name);
	free(c);
}

static int
c_out(struct trc_out *out, struct chrome *c, const char *s, size_t n)
{
	if (trc_write_raw(c->w, s, n) < 0)
		return trc_out_fail(out, "%s: %s", c->name, trc_werror(c->w));
	return 0;
}

static int
c_open(struct trc_out *out, const char *path, const struct trc_header *h)
{
	static const char head[] = "{\"traceEvents\":[\n"
	    "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,"
	    "\"args\":{\"name\":\"trc\"}}";
	struct chrome *c;
	int stdout_ = path == NULL || strcmp(path, "-") == 0;

	(void)h;
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return trc_out_fail(out, "out of memory");
	trc_out_set_state(out, c);
	c->fd = 1;
	if ((c->name = strdup(stdout_ ? "<stdout>" : path)) == NULL ||
	    (c->mt = trc_match_new()) == NULL)
		return trc_out_fail(out, "out of memory");
	if (!stdout_ &&
	    (c->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0)
		return trc_out_fail(out, "%s: %s", path, strerror(errno));
	if ((c->w = trc_wopen(c->fd)) == NULL)
		return trc_out_fail(out, "out of memory");
	return c_out(out, c, head, sizeof(head) - 1);
}

/* Microseconds with three decimals, from nanoseconds. */
static char *
put_us(char *p, int64_t ns)
{
	int64_t us = ns / 1000, frac = ns % 1000;

	p += trc_format_int(p, us);
	*p++ = '.';
	*p++ = (char)('0' + frac / 100);
	*p++ = (char)('0' + frac / 10 % 10);
	*p++ = (char)('0' + frac % 10);
	return p;
}

static char *
put_s(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

/* A JSON string's body (no quotes): at most 6 bytes per input byte. */
static char *
put_json(char *p, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char ch;

	for (; n > 0; s++, n--) {
		ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\') {
			*p++ = '\\';
			*p++ = (char)ch;
		} else if (ch < 0x20) {
			p = put_s(p, "\\u00");
			*p++ = hex[ch >> 4];
			*p++ = hex[ch & 15];
		} else
			*p++ = (char)ch;
	}
	return p;
}

static struct crank *
c_rank(struct trc_out *out, struct chrome *c, int32_t r)
{
	struct crank *nv;
	int32_t cap;
	char *p;

	if (r >= c->cap) {
		cap = c->cap ? c->cap : 64;
		while (cap <= r)
			cap *= 2;
		if ((nv = realloc(c->rk, (size_t)cap * sizeof(*nv))) == NULL) {
			trc_out_fail(out, "out of memory");
			return NULL;
		}
		memset(nv + c->cap, 0, (size_t)(cap - c->cap) * sizeof(*nv));
		c->rk = nv;
		c->cap = cap;
	}
	if (r >= c->n)
		c->n = r + 1;
	if (!c->rk[r].seen) {
		c->rk[r].seen = 1;
		p = c->buf;
		p = put_s(p, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,"
		    "\"tid\":");
		p += trc_format_int(p, r);
		p = put_s(p, ",\"args\":{\"name\":\"rank ");
		p += trc_format_int(p, r);
		p = put_s(p, "\"}},\n{\"name\":\"thread_sort_index\",\"ph\":\"M\","
		    "\"pid\":0,\"tid\":");
		p += trc_format_int(p, r);
		p = put_s(p, ",\"args\":{\"sort_index\":");
		p += trc_format_int(p, r);
		p = put_s(p, "}}");
		if (c_out(out, c, c->buf, (size_t)(p - c->buf)) < 0)
			return NULL;
	}
	return &c->rk[r];
}

static int
c_push(struct trc_out *out, struct crank *k, const struct trc_event *ev,
    const char *name, size_t len)
{
	struct slice *s;
	size_t cap;
	char *p;

	if (k->nst == k->capst) {
		cap = k->capst ? 2 * k->capst : 8;
		if ((s = realloc(k->st, cap * sizeof(*s))) == NULL)
			return trc_out_fail(out, "out of memory");
		k->st = s;
		k->capst = cap;
	}
	if (k->nlen + len + 1 > k->ncap) {
		cap = k->ncap ? k->ncap : 256;
		while (cap < k->nlen + len + 1)
			cap *= 2;
		if ((p = realloc(k->names, cap)) == NULL)
			return trc_out_fail(out, "out of memory");
		k->names = p;
		k->ncap = cap;
	}
	s = &k->st[k->nst++];
	s->t = ev->t;
	s->kind = (unsigned char)ev->kind;
	s->name = k->nlen;
	memcpy(k->names + k->nlen, name, len);
	k->names[k->nlen + len] = '\0';
	k->nlen += len + 1;
	return 0;
}

/* A complete slice from t0 to t, with the attributes of ev as args. */
static int
c_slice(struct trc_out *out, struct chrome *c, int32_t r, const char *name,
    size_t nlen, const char *cat, int64_t t0, int64_t t,
    const struct trc_event *ev)
{
	char *p = c->buf;
	int i;

	p = put_s(p, ",\n{\"name\":\"");
	p = put_json(p, name, nlen > 1024 ? 1024 : nlen);
	p = put_s(p, "\",\"cat\":\"");
	p = put_s(p, cat);
	p = put_s(p, "\",\"ph\":\"X\",\"pid\":0,\"tid\":");
	p += trc_format_int(p, r);
	p = put_s(p, ",\"ts\":");
	p = put_us(p, t0);
	p = put_s(p, ",\"dur\":");
	p = put_us(p, t - t0);
	if (ev != NULL && ev->nattr > 0) {
		p = put_s(p, ",\"args\":{");
		for (i = 0; i < ev->nattr; i++) {
			/* Bounded: the buffer holds a whole stream line. */
			if (i > 0)
				*p++ = ',';
			*p++ = '"';
			p = put_json(p, ev->attr[i].key.s,
			    ev->attr[i].key.len > 1024 ? 1024 : ev->attr[i].key.len);
			p = put_s(p, "\":\"");
			p = put_json(p, ev->attr[i].val.s,
			    ev->attr[i].val.len > 4096 ? 4096 : ev->attr[i].val.len);
			*p++ = '"';
			if ((size_t)(p - c->buf) > sizeof(c->buf) / 2) {
				trc_out_drop(out, "slice arguments cut short");
				break;
			}
		}
		*p++ = '}';
	}
	*p++ = '}';
	return c_out(out, c, c->buf, (size_t)(p - c->buf));
}

/* The slice that ev (an end) closes, written, and popped. */
static int
c_pop(struct trc_out *out, struct chrome *c, int32_t r, struct crank *k,
    const struct trc_event *ev, const char *cat)
{
	struct slice *s;
	int rc;

	if (k->nst == 0) {
		trc_out_drop(out, "ends without their begins");
		return 0;
	}
	s = &k->st[--k->nst];
	rc = c_slice(out, c, r, k->names + s->name, strlen(k->names + s->name),
	    cat, s->t, ev->t, ev);
	k->nlen = s->name;
	return rc;
}

/* A flow from the send slice begun at ts on src to the receive's. */
static int
c_flow(struct trc_out *out, struct chrome *c, int32_t src, int64_t ts,
    int32_t dst, int64_t tr)
{
	char *p = c->buf;
	int64_t id = ++c->flows;

	p = put_s(p, ",\n{\"name\":\"message\",\"cat\":\"msg\",\"ph\":\"s\","
	    "\"id\":");
	p += trc_format_int(p, id);
	p = put_s(p, ",\"pid\":0,\"tid\":");
	p += trc_format_int(p, src);
	p = put_s(p, ",\"ts\":");
	p = put_us(p, ts);
	p = put_s(p, "},\n{\"name\":\"message\",\"cat\":\"msg\",\"ph\":\"f\","
	    "\"bp\":\"e\",\"id\":");
	p += trc_format_int(p, id);
	p = put_s(p, ",\"pid\":0,\"tid\":");
	p += trc_format_int(p, dst);
	p = put_s(p, ",\"ts\":");
	p = put_us(p, tr);
	*p++ = '}';
	return c_out(out, c, c->buf, (size_t)(p - c->buf));
}

/* The name of a call's slice. */
static const char *
callname(const struct trc_event *ev, size_t *len)
{
	const char *s;

	if (ev->op.len > 0) {
		*len = ev->op.len;
		return ev->op.s;
	}
	switch (ev->kind) {
	case TRC_SB:
	case TRC_SE:
		s = ev->req != TRC_NONE ? "isend" : "send";
		break;
	case TRC_RB:
	case TRC_RE:
		s = ev->req != TRC_NONE ? "irecv" : "recv";
		break;
	case TRC_WB:
	case TRC_WE:
		s = "wait";
		break;
	default:
		s = "collective";
	}
	*len = strlen(s);
	return s;
}

static int
c_event(struct trc_out *out, const struct trc_event *ev)
{
	struct chrome *c = trc_out_state(out);
	struct crank *k;
	struct trc_msg m, peer;
	const char *name;
	size_t len;
	char *p;
	int32_t r = ev->rank;

	if ((k = c_rank(out, c, r)) == NULL)
		return -1;
	k->last = ev->t;
	memset(&m, 0, sizeof(m));
	switch (ev->kind) {
	case TRC_PB:
		return c_push(out, k, ev, ev->fn.s, ev->fn.len);
	case TRC_PE:
		return c_pop(out, c, r, k, ev, "region");
	case TRC_SB:
	case TRC_WB:
	case TRC_XB:
		name = callname(ev, &len);
		return c_push(out, k, ev, name, len);
	case TRC_RB:
		if (ev->req == TRC_NONE) {
			name = callname(ev, &len);
			return c_push(out, k, ev, name, len);
		}
		/* A posted nonblocking receive: a call of no duration. */
		return c_slice(out, c, r, "irecv", 5, "mpi", ev->t, ev->t, ev);
	case TRC_SE:
		/* The message leaves: its flow starts at the send's slice. */
		m.src = r;
		m.dst = ev->peer;
		m.tag = ev->tag;
		m.comm = ev->comm;
		m.val = k->nst > 0 ? k->st[k->nst - 1].t : ev->t;
		switch (trc_match_send(c->mt, &m, &peer)) {
		case -1:
			return trc_out_fail(out, "out of memory");
		case 1:
			if (c_flow(out, c, r, m.val, peer.dst, peer.val) < 0)
				return -1;
		}
		return c_pop(out, c, r, k, ev, "mpi");
	case TRC_RE:
		/* It ends in the slice of the receive or of its wait. */
		m.src = ev->peer;
		m.dst = r;
		m.tag = ev->tag;
		m.comm = ev->comm;
		m.val = k->nst > 0 ? k->st[k->nst - 1].t : ev->t;
		switch (trc_match_recv(c->mt, &m, &peer)) {
		case -1:
			return trc_out_fail(out, "out of memory");
		case 1:
			if (c_flow(out, c, peer.src, peer.val, r, m.val) < 0)
				return -1;
		}
		if (ev->req != TRC_NONE)
			return 0;
		return c_pop(out, c, r, k, ev, "mpi");
	case TRC_WE:
	case TRC_XE:
		return c_pop(out, c, r, k, ev, "mpi");
	case TRC_MK:
		p = c->buf;
		p = put_s(p, ",\n{\"name\":\"");
		if (ev->nattr > 0) {
			p = put_json(p, ev->attr[0].key.s,
			    ev->attr[0].key.len > 1024 ? 1024 :
			    ev->attr[0].key.len);
			*p++ = '=';
			p = put_json(p, ev->attr[0].val.s,
			    ev->attr[0].val.len > 1024 ? 1024 :
			    ev->attr[0].val.len);
		} else
			p = put_s(p, "marker");
		p = put_s(p, "\",\"cat\":\"marker\",\"ph\":\"i\",\"s\":\"t\","
		    "\"pid\":0,\"tid\":");
		p += trc_format_int(p, r);
		p = put_s(p, ",\"ts\":");
		p = put_us(p, ev->t);
		*p++ = '}';
		return c_out(out, c, c->buf, (size_t)(p - c->buf));
	default:
		return 0;
	}
}

static int
c_close(struct trc_out *out)
{
	static const char tail[] = "\n],\"displayTimeUnit\":\"ns\"}\n";
	struct chrome *c = trc_out_state(out);
	struct crank *k;
	struct slice *s;
	size_t i, n;
	int32_t r;

	for (r = 0; r < c->n; r++) {
		k = &c->rk[r];
		while (k->nst > 0) {	/* cut at the rank's last event */
			trc_out_drop(out, "calls or regions never ended");
			s = &k->st[--k->nst];
			if (c_slice(out, c, r, k->names + s->name,
			    strlen(k->names + s->name), s->kind == TRC_PB ?
			    "region" : "mpi", s->t, k->last, NULL) < 0)
				return -1;
		}
	}
	if ((n = trc_match_pending(c->mt)) > 0)
		for (i = 0; i < n; i++)
			trc_out_drop(out, "message ends never paired (no flow)");
	if (c_out(out, c, tail, sizeof(tail) - 1) < 0)
		return -1;
	if (trc_wflush(c->w) < 0)
		return trc_out_fail(out, "%s: %s", c->name, trc_werror(c->w));
	if (c->fd > 1) {
		if (close(c->fd) < 0) {
			c->fd = -1;
			return trc_out_fail(out, "%s: %s", c->name,
			    strerror(errno));
		}
		c->fd = -1;
	}
	return 0;
}

const struct trc_format trc_format_chrome = {
	.name = "chrome",
	.alias = "json",
	.wopen = c_open,
	.write = c_event,
	.wclose = c_close,
	.wfree = c_free,
};
