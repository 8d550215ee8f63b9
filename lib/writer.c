/*
 * writer.c - a buffered writer that formats numbers by hand (four
 * times faster than printf) and reports the first failed write.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trc.h"
#include "swar.h"

#define WBUFSIZE	(1 << 18)

struct trc_writer {
	int	 fd;
	int	 failed;
	size_t	 len;
	char	 err[128];
	char	 buf[WBUFSIZE];
};

struct trc_writer *
trc_wopen(int fd)
{
	struct trc_writer *w;

	if ((w = malloc(sizeof(*w))) == NULL)
		return NULL;
	w->fd = fd;
	w->failed = 0;
	w->len = 0;
	w->err[0] = '\0';
	return w;
}

const char *
trc_werror(const struct trc_writer *w)
{
	return w->err;
}

static int
flush(struct trc_writer *w)
{
	size_t off = 0;
	ssize_t n;

	while (!w->failed && off < w->len) {
		n = write(w->fd, w->buf + off, w->len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(w->err, sizeof(w->err), "write error: %s",
			    n < 0 ? strerror(errno) : "short write");
			w->failed = 1;
			break;
		}
		off += (size_t)n;
	}
	w->len = 0;
	return w->failed ? -1 : 0;
}

int
trc_write_raw(struct trc_writer *w, const char *s, size_t len)
{
	size_t n;

	while (len > 0) {
		if (w->len == WBUFSIZE && flush(w) < 0)
			return -1;
		n = WBUFSIZE - w->len;
		if (n > len)
			n = len;
		memcpy(w->buf + w->len, s, n);
		w->len += n;
		s += n;
		len -= n;
	}
	return w->failed ? -1 : 0;
}

/* Decimal digits of v, right-aligned ending at end; returns the start. */
static char *
utoa_end(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	return end;
}

static const char digits2[] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

size_t
trc_format_int(char *out, int64_t v)
{
	uint64_t u, x;
	size_t n = 0, d;
	char *p;

	if ((uint64_t)v < 10000) {
		/* Most numbers are short (ranks, tags, request ids, sizes):
		 * their digits by pairs, without a loop. */
		if (v < 10) {
			out[0] = (char)('0' + v);
			return 1;
		}
		if (v < 100) {
			memcpy(out, digits2 + 2 * v, 2);
			return 2;
		}
		if (v < 1000) {
			out[0] = (char)('0' + v / 100);
			memcpy(out + 1, digits2 + 2 * (v % 100), 2);
			return 3;
		}
		memcpy(out, digits2 + 2 * (v / 100), 2);
		memcpy(out + 2, digits2 + 2 * (v % 100), 2);
		return 4;
	}
	if (v < 0) {
		out[n++] = '-';
		u = (uint64_t)0 - (uint64_t)v;
	} else
		u = (uint64_t)v;
	/* The digits go straight to their places: no copy.  Most numbers
	 * are short (ranks, tags, sizes): their length by comparisons. */
	if (u < 10000)
		d = u < 10 ? 1 : u < 100 ? 2 : u < 1000 ? 3 : 4;
	else
		for (d = 5, x = u / 100000; x != 0; x /= 10)
			d++;
	p = out + n + d;
	while (u >= 10) {
		p -= 2;
		memcpy(p, digits2 + 2 * (u % 100), 2);
		u /= 100;
	}
	if (p > out + n)
		*--p = (char)('0' + u);
	return n + d;
}


size_t
trc_format_time(char *out, int64_t t)
{
	char *o = out;
	uint64_t u, sec;
	uint32_t f;
	int i;

	if (t < 0) {
		*o++ = '-';
		u = (uint64_t)0 - (uint64_t)t;
	} else
		u = (uint64_t)t;
	sec = u / 1000000000;
	f = (uint32_t)(u % 1000000000);
	if (sec < 10)
		*o++ = (char)('0' + sec);
	else
		o += trc_format_int(o, (int64_t)sec);
	*o++ = '.';
	/* Nine digits, two at a time from the right. */
	o[8] = (char)('0' + f % 10);
	f /= 10;
	for (i = 6; i >= 0; i -= 2) {
		memcpy(o + i, digits2 + 2 * (f % 100), 2);
		f /= 100;
	}
	return (size_t)(o + 9 - out);
}

size_t
trc_event_maxlen(const struct trc_event *ev, size_t xlen)
{
	size_t need = 64 + xlen;
	int i;

	for (i = 0; i < ev->nattr; i++)
		need += ev->attr[i].key.len + ev->attr[i].val.len + 2;
	return need;
}

/*
 * The length of the attributes' text when they lie in one piece as
 * "k=v k=v" (as the reader leaves them, single blanks between), else 0.
 */
static size_t
plain_attrs(const struct trc_event *ev)
{
	const struct trc_attr *a = ev->attr;
	int i;

	for (i = 0; i < ev->nattr; i++) {
		if (a[i].val.s != a[i].key.s + a[i].key.len + 1 ||
		    a[i].key.s[a[i].key.len] != '=')
			return 0;
		if (i > 0 && (a[i].key.s != a[i - 1].val.s +
		    a[i - 1].val.len + 1 || a[i].key.s[-1] != ' '))
			return 0;
	}
	return (size_t)(a[i - 1].val.s + a[i - 1].val.len - a[0].key.s);
}

size_t
trc_format_event(char *out, const struct trc_event *ev, int64_t t,
    const char *extra, size_t xlen)
{
	char num[32], *p;
	char *o = out;
	size_t n;
	int i;

	o += trc_format_time(o, t);
	*o++ = ' ';
	p = utoa_end(num + sizeof(num), (uint64_t)ev->rank);
	memcpy(o, p, (size_t)(num + sizeof(num) - p));
	o += num + sizeof(num) - p;
	*o++ = ' ';
	memcpy(o, trc_kind_name(ev->kind), 2);
	o += 2;
	if (ev->nattr > 0 && (n = plain_attrs(ev)) > 0) {
		/* As they were read: one copy. */
		*o++ = ' ';
		memcpy(o, ev->attr[0].key.s, n);
		o += n;
	} else
		for (i = 0; i < ev->nattr; i++) {
			*o++ = ' ';
			swar_copy(o, ev->attr[i].key.s, ev->attr[i].key.len);
			o += ev->attr[i].key.len;
			*o++ = '=';
			swar_copy(o, ev->attr[i].val.s, ev->attr[i].val.len);
			o += ev->attr[i].val.len;
		}
	if (xlen > 0) {
		*o++ = ' ';
		memcpy(o, extra, xlen);
		o += xlen;
	}
	*o++ = '\n';
	return (size_t)(o - out);
}

/* An event longer than the buffer (trc(5) lines have no fixed
 * length), written a piece at a time. */
static int
write_long(struct trc_writer *w, const struct trc_event *ev, int64_t t,
    const char *extra, size_t xlen)
{
	struct trc_event head = *ev;
	char buf[96];
	size_t n;
	int i;

	head.nattr = 0;
	n = trc_format_event(buf, &head, t, NULL, 0) - 1;	/* no newline */
	if (trc_write_raw(w, buf, n) < 0)
		return -1;
	for (i = 0; i < ev->nattr; i++)
		if (trc_write_raw(w, " ", 1) < 0 ||
		    trc_write_raw(w, ev->attr[i].key.s, ev->attr[i].key.len) < 0 ||
		    trc_write_raw(w, "=", 1) < 0 ||
		    trc_write_raw(w, ev->attr[i].val.s, ev->attr[i].val.len) < 0)
			return -1;
	if (xlen > 0 && (trc_write_raw(w, " ", 1) < 0 ||
	    trc_write_raw(w, extra, xlen) < 0))
		return -1;
	return trc_write_raw(w, "\n", 1);
}

int
trc_write_event_at(struct trc_writer *w, const struct trc_event *ev,
    int64_t t, const char *extra)
{
	size_t need, xlen;

	xlen = extra != NULL ? strlen(extra) : 0;
	need = trc_event_maxlen(ev, xlen);
	if (need > WBUFSIZE)
		return write_long(w, ev, t, extra, xlen);
	if (need > WBUFSIZE - w->len && flush(w) < 0)
		return -1;
	w->len += trc_format_event(w->buf + w->len, ev, t, extra, xlen);
	return w->failed ? -1 : 0;
}

int
trc_write_event(struct trc_writer *w, const struct trc_event *ev)
{
	return trc_write_event_at(w, ev, ev->t, NULL);
}

int
trc_write_header(struct trc_writer *w, const struct trc_header *h)
{
	static const char *orders[] = { "time", "rank", "none" };
	char line[96];
	int n;

	if (h->ranks > 0)
		n = snprintf(line, sizeof(line), "#trc 1 ranks=%ld order=%s\n",
		    (long)h->ranks, orders[h->order]);
	else
		n = snprintf(line, sizeof(line), "#trc 1 order=%s\n",
		    orders[h->order]);
	if (trc_write_raw(w, line, (size_t)n) < 0)
		return -1;
	return h->extra.len > 0 ? trc_write_raw(w, h->extra.s, h->extra.len) : 0;
}

int
trc_wflush(struct trc_writer *w)
{
	return flush(w);
}

void
trc_wfree(struct trc_writer *w)
{
	free(w);
}

size_t
trc_format_duration(char *buf, int64_t ns)
{
	static const char *const unit[] = { "us", "ms", "s" };
	double v = (double)ns, a = v < 0 ? -v : v;
	int u;

	if (ns == 0)
		return (size_t)snprintf(buf, TRC_DURLEN, "0");
	if (a < 1000)
		return (size_t)snprintf(buf, TRC_DURLEN, "%lld ns",
		    (long long)ns);
	for (u = 0, v /= 1000, a /= 1000; a >= 999.9995 && u < 2; u++)
		v /= 1000, a /= 1000;
	return (size_t)snprintf(buf, TRC_DURLEN, "%.3f %s", v, unit[u]);
}
