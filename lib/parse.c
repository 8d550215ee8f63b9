/*
 * parse.c - the stream's lines, parsed from memory with no I/O, no
 * allocation and no locale: fields are split with a byte-class table
 * and numbers are converted by hand.
 */
#include <stdio.h>
#include <string.h>

#include "trc.h"
#include "swar.h"
#include "fmt/fmt.h"

static const char *kind_names[TRC_NKINDS] = {
	"SB", "SE", "RB", "RE", "WB", "WE", "XB", "XE", "PB", "PE", "MK"
};

const char *
trc_kind_name(enum trc_kind k)
{
	return (unsigned)k < TRC_NKINDS ? kind_names[k] : "??";
}

/* The kind of two bytes, or -1; inline for the hot path. */
static inline int
kind_of(const char *s)
{
	int base;

	switch (s[0]) {
	case 'S': base = TRC_SB; break;
	case 'R': base = TRC_RB; break;
	case 'W': base = TRC_WB; break;
	case 'X': base = TRC_XB; break;
	case 'P': base = TRC_PB; break;
	case 'M':
		return s[1] == 'K' ? TRC_MK : -1;
	default:
		return -1;
	}
	if (s[1] != 'B' && s[1] != 'E')
		return -1;
	return base + (s[1] == 'E');
}

int
trc_kind_parse(const char *s, size_t len, enum trc_kind *k)
{
	int kind;

	if (len != 2 || (kind = kind_of(s)) < 0)
		return -1;
	*k = (enum trc_kind)kind;
	return 0;
}


/*
 * Byte classes for the one pass over a line.  A line is always followed
 * by its newline or a NUL, so scanning loops stop at C_END without
 * comparing against the line's end.
 */
enum { C_OTHER, C_EQ, C_BLANK, C_END };
static const unsigned char byte_class[256] = {
	[' '] = C_BLANK, ['\t'] = C_BLANK, ['\r'] = C_BLANK, ['='] = C_EQ,
	['\n'] = C_END, ['\0'] = C_END
};

static int
isdigit_c(int c)
{
	return c >= '0' && c <= '9';
}

/*
 * Seconds into nanoseconds: exactly with up to 9 decimals; with more
 * (a picosecond clock), rounded to the nearest nanosecond, a tie (the
 * digits past the 9th a 5 then zeros) to the even one (trc(5)).
 */
int
trc_parse_time(const char *s, size_t len, int64_t *ns)
{
	const char *end = s + len;
	int64_t sec = 0, frac = 0;
	int ndig = 0, nfrac = 0, first = -1, rest = 0;

	for (; s < end && isdigit_c(*s); s++, ndig++) {
		if (sec > INT64_MAX / 1000000000)
			return -1;
		sec = sec * 10 + (*s - '0');
	}
	if (s < end && *s == '.') {
		for (s++; s < end && isdigit_c(*s); s++, nfrac++) {
			if (nfrac < 9)
				frac = frac * 10 + (*s - '0');
			else if (nfrac == 9)
				first = *s - '0';
			else
				rest |= *s != '0';
		}
	}
	if (s != end || ndig + nfrac == 0)
		return -1;
	for (; nfrac < 9; nfrac++)
		frac *= 10;
	if (first > 5 || (first == 5 && (rest || (frac & 1))))
		frac++;		/* may make a whole second: sec * 1e9 + 1e9 */
	if (sec > INT64_MAX / 1000000000 ||
	    (sec == INT64_MAX / 1000000000 && frac > INT64_MAX % 1000000000))
		return -1;
	*ns = sec * 1000000000 + frac;
	return 0;
}

int
trc_parse_int(const char *s, size_t len, int64_t *v)
{
	const char *end = s + len;
	int neg = 0;
	int64_t n = 0;

	if (s < end && *s == '-') {
		neg = 1;
		s++;
	}
	if (s == end)
		return -1;
	for (; s < end; s++) {
		if (!isdigit_c(*s) || n > (INT64_MAX - 9) / 10)
			return -1;
		n = n * 10 + (*s - '0');
	}
	*v = neg ? -n : n;
	return 0;
}

static void
errtok(char err[TRC_ERRLEN], const char *what, const char *s, size_t len)
{
	snprintf(err, TRC_ERRLEN, "%s '%.*s'", what, len > 40 ? 40 : (int)len, s);
}

/* A field that fits in int32_t; "*" means any when allowed. */
static int
parse_small(const struct trc_str *v, int32_t min, int allow_any, int32_t *out)
{
	int64_t n;

	if (allow_any && v->len == 1 && v->s[0] == '*') {
		*out = TRC_ANY;
		return 0;
	}
	if (trc_parse_int(v->s, v->len, &n) < 0 || n < min || n > INT32_MAX)
		return -1;
	*out = (int32_t)n;
	return 0;
}

#define KEY3(s, a, b, c)	((s)[0] == (a) && (s)[1] == (b) && (s)[2] == (c))
#define KEY4(s, a, b, c, d)	(KEY3(s, a, b, c) && (s)[3] == (d))
#define KEY5(s, a, b, c, d, e)	(KEY4(s, a, b, c, d) && (s)[4] == (e))

static int
parse_known(struct trc_event *ev, const struct trc_attr *a, int64_t num,
    char err[TRC_ERRLEN])
{
	const struct trc_str *k = &a->key, *v = &a->val;
	struct trc_str list;
	int64_t n;
	int bad = 0;

	/* num >= 0 is the value already read as a plain decimal. */
	if (num >= 0) {
		switch (k->len) {
		case 3:
			if (KEY3(k->s, 't', 'a', 'g') && num <= INT32_MAX) {
				ev->tag = (int32_t)num;
				return 0;
			}
			if (KEY3(k->s, 'r', 'e', 'q')) {
				ev->reqs = *v;
				ev->req = num;
				return 0;
			}
			break;
		case 4:
			if (KEY4(k->s, 'p', 'e', 'e', 'r') && num <= INT32_MAX) {
				ev->peer = (int32_t)num;
				return 0;
			}
			break;
		case 5:
			if (KEY5(k->s, 'b', 'y', 't', 'e', 's')) {
				ev->bytes = num;
				return 0;
			}
			break;
		}
	}

	switch (k->len) {
	case 2:
		if ((k->s[0] == 'f' && k->s[1] == 'n'))
			ev->fn = *v;
		else if ((k->s[0] == 'o' && k->s[1] == 'p'))
			ev->op = *v;
		return 0;
	case 3:
		if (KEY3(k->s, 't', 'a', 'g'))
			bad = parse_small(v, 0, 1, &ev->tag);
		else if (KEY3(k->s, 'r', 'e', 'q')) {
			ev->reqs = list = *v;
			bad = v->len == 0 || trc_reqs_next(&list, &ev->req) != 1;
			while (!bad && list.len > 0)
				bad = trc_reqs_next(&list, &n) != 1;
		}
		break;
	case 4:
		if (KEY4(k->s, 'p', 'e', 'e', 'r'))
			bad = parse_small(v, 0, 1, &ev->peer);
		else if (KEY4(k->s, 'c', 'o', 'm', 'm'))
			bad = parse_small(v, 0, 0, &ev->comm);
		else if (KEY4(k->s, 'r', 'o', 'o', 't'))
			bad = parse_small(v, 0, 0, &ev->root);
		break;
	case 5:
		if (KEY5(k->s, 'b', 'y', 't', 'e', 's'))
			bad = trc_parse_int(v->s, v->len, &ev->bytes) < 0 ||
			    ev->bytes < 0;
		break;
	}
	if (bad) {
		snprintf(err, TRC_ERRLEN, "invalid %.*s '%.*s'", (int)k->len,
		    k->s, v->len > 40 ? 40 : (int)v->len, v->s);
		return -1;
	}
	return 0;
}

int
trc_attr_field(struct trc_event *ev, const struct trc_attr *a,
    char err[TRC_ERRLEN])
{
	return parse_known(ev, a, -1, err);
}

int
trc_reqs_next(struct trc_str *list, int64_t *id)
{
	const char *p = list->s, *end = p + list->len;
	int64_t n = 0;
	int neg = 0;

	if (list->len == 0)
		return 0;
	/* An element as trc_parse_int reads it, up to the comma, in the
	 * one pass that finds the comma. */
	if (*p == '-') {
		neg = 1;
		p++;
	}
	if (p == end || *p == ',')
		return -1;
	for (; p < end && *p != ','; p++) {
		if (!isdigit_c(*p) || n > (INT64_MAX - 9) / 10)
			return -1;
		n = n * 10 + (*p - '0');
	}
	*id = neg ? -n : n;
	if (*id < 0)
		return -1;
	if (p == end) {
		list->s = end;
		list->len = 0;
	} else {
		list->s = p + 1;
		list->len = (size_t)(end - p - 1);
		if (list->len == 0)
			return -1;
	}
	return 1;
}

/* Splits the next blank-separated field; returns 0 at the end. */
static int
next_field(const char **p, const char *end, struct trc_str *f)
{
	const char *s = *p;

	while (s < end && byte_class[(unsigned char)*s] == C_BLANK)
		s++;
	if (s == end)
		return 0;
	f->s = s;
	while (s < end && byte_class[(unsigned char)*s] != C_BLANK)
		s++;
	f->len = (size_t)(s - f->s);
	*p = s;
	return 1;
}

/* Time, rank and kind when they are plain; 0 to take the slow path. */
static int
fast_head(const char **pp, struct trc_event *ev)
{
	const char *p = *pp, *start;
	int64_t sec = 0, frac = 0, rank = 0;
	int nfrac = 0, kind;

	/* At most 9 digits each, checked as they come: more could wrap
	 * before a check after the loop (the slow path says what is
	 * wrong). */
	for (start = p; isdigit_c(*p); p++) {
		if (p - start == 9)
			return 0;
		sec = sec * 10 + (*p - '0');
	}
	if (p == start)
		return 0;
	if (*p == '.') {
		for (start = ++p; isdigit_c(*p); p++) {
			if (p - start == 9)
				return 0;
			frac = frac * 10 + (*p - '0');
		}
		nfrac = (int)(p - start);
	}
	if (*p++ != ' ')
		return 0;
	for (start = p; isdigit_c(*p); p++) {
		if (p - start == 9)
			return 0;
		rank = rank * 10 + (*p - '0');
	}
	if (p == start || *p++ != ' ')
		return 0;
	/* The kind's two bytes before the one after them: a line may end
	 * right after the rank, at the end of the buffer. */
	if ((kind = kind_of(p)) < 0 || byte_class[(unsigned char)p[2]] < C_BLANK)
		return 0;
	ev->kind = (enum trc_kind)kind;
	while (nfrac++ < 9)
		frac *= 10;
	ev->t = sec * 1000000000 + frac;
	ev->rank = (int32_t)rank;
	*pp = p + 2;
	return 1;
}

#if SWAR_LE
/*
 * fast_head eight bytes at a time, where the line is padded (eight
 * readable bytes past any byte of it): the usual time's nine decimals
 * are two loads.  Anything else goes to fast_head.
 */
static int
fast_head_swar(const char **pp, struct trc_event *ev)
{
	const char *p = *pp;
	uint64_t x, m, sec, frac, rank;
	unsigned n;
	int kind;

	/* The usual time: up to 7 digits, a point and 9 decimals. */
	x = swar_load(p);
	if ((m = swar_nondigit(x)) == 0 || (n = swar_first(m)) == 0 ||
	    p[n] != '.' || swar_digits8(p + n + 1, &frac) < 0 ||
	    !isdigit_c(p[n + 9]) || p[n + 10] != ' ')
		return fast_head(pp, ev);
	sec = swar_value(x, n);
	frac = frac * 10 + (uint64_t)(p[n + 9] - '0');
	p += n + 11;
	/* The rank: up to 7 digits and a blank. */
	x = swar_load(p);
	if ((m = swar_nondigit(x)) == 0 || (n = swar_first(m)) == 0 ||
	    p[n] != ' ')
		return 0;
	rank = swar_value(x, n);
	p += n + 1;
	if ((kind = kind_of(p)) < 0 || byte_class[(unsigned char)p[2]] < C_BLANK)
		return 0;
	ev->kind = (enum trc_kind)kind;
	ev->t = (int64_t)(sec * 1000000000 + frac);
	ev->rank = (int32_t)rank;
	*pp = p + 2;
	return 1;
}
#endif

#if SWAR_LE
/* A known key's bytes as a little-endian word, as keyword() makes it. */
#define KW(a, b, c, d, e)	((uint64_t)(a) | (uint64_t)(b) << 8 | \
	(uint64_t)(c) << 16 | (uint64_t)(d) << 24 | (uint64_t)(e) << 32)

/*
 * A req= list of plain decimals ("0,1,2"), checked and its first taken
 * in one pass: 1, or 0 for anything else (trc_reqs_next says).
 */
static int
reqs_plain(const char *s, size_t len, int64_t *first)
{
	const char *end = s + len;
	int64_t n = 0;
	int digits = 0, elems = 0;

	for (; s < end; s++) {
		if (isdigit_c(*s)) {
			if (++digits > 18)
				return 0;
			if (elems == 0)
				n = n * 10 + (*s - '0');
		} else if (*s == ',' && digits > 0) {
			digits = 0;
			elems++;
		} else
			return 0;
	}
	if (digits == 0)
		return 0;
	*first = n;
	return 1;
}

/*
 * The attributes of a padded line, eight bytes at a time: the key up
 * to its '=' in one load, known keys told apart by that word, a value
 * of up to 7 digits read in the same load that finds its end.
 * Anything unusual goes through parse_known, as the byte loop does.
 */
static int
attrs_padded(const char *p, struct trc_event *ev, char err[TRC_ERRLEN],
    const char **stop)
{
	/* The bytes of a key of 2 to 5 bytes, the lengths of known ones. */
	static const uint64_t kmask[8] = {
		0, 0, 0xFFFF, 0xFFFFFF, 0xFFFFFFFF, 0xFFFFFFFFFF, 0, 0
	};
	const char *key, *eq;
	struct trc_attr *a = ev->attr;
	uint64_t x, m, u, kw;
	size_t klen;
	int64_t num;
	unsigned k;

	for (;; a++) {
		if (*p == ' ')	/* the usual one blank */
			p++;
		while (byte_class[(unsigned char)*p] == C_BLANK)
			p++;
		if (byte_class[(unsigned char)*p] == C_END)
			break;
		key = p;
		/* Every byte above '=' is C_OTHER: the first that may not
		 * be is found eight at a time. */
		x = swar_load(p);
		if ((m = swar_lt(x, '=' + 1)) == 0) {
			do
				p += 8;
			while ((m = swar_lt(swar_load(p), '=' + 1)) == 0);
		}
		p += swar_first(m);
		if (*p != '=')
			while (byte_class[(unsigned char)*p] == C_OTHER)
				p++;
		if (*p != '=' || p == key) {
			while (byte_class[(unsigned char)*p] < C_BLANK)
				p++;
			errtok(err, "invalid attribute", key,
			    (size_t)(p - key));
			return -1;
		}
		eq = p++;
		klen = (size_t)(eq - key);
		num = -1;
		if ((k = swar_digits(p, &u)) < 8) {
			p += k;
			if (k > 0 && byte_class[(unsigned char)*p] >= C_BLANK)
				num = (int64_t)u;
		} else {
			for (num = 0; isdigit_c(*p) &&
			    num < 100000000000000000LL; p++)
				num = num * 10 + (*p - '0');
			if (byte_class[(unsigned char)*p] < C_BLANK)
				num = -1;
		}
		if (byte_class[(unsigned char)*p] < C_BLANK) {
			/* Every byte above ' ' is below C_BLANK. */
			while ((m = swar_lt(swar_load(p), ' ' + 1)) == 0)
				p += 8;
			p += swar_first(m);
			while (byte_class[(unsigned char)*p] < C_BLANK)
				p++;
		}
		if (a == ev->attr + TRC_MAXATTR) {
			snprintf(err, TRC_ERRLEN, "more than %d attributes",
			    TRC_MAXATTR);
			return -1;
		}
		a->key.s = key;
		a->key.len = klen;
		a->val.s = eq + 1;
		a->val.len = (size_t)(p - eq - 1);
		kw = x & kmask[klen & 7];
		if (klen > 5 || kw == 0)
			continue;	/* no known key */
		if (num >= 0 && num <= INT32_MAX) {
			if (kw == KW('p', 'e', 'e', 'r', 0)) {
				ev->peer = (int32_t)num;
				continue;
			}
			if (kw == KW('t', 'a', 'g', 0, 0)) {
				ev->tag = (int32_t)num;
				continue;
			}
		}
		if (num >= 0) {
			if (kw == KW('b', 'y', 't', 'e', 's')) {
				ev->bytes = num;
				continue;
			}
			if (kw == KW('r', 'e', 'q', 0, 0)) {
				ev->reqs = a->val;
				ev->req = num;
				continue;
			}
		}
		if (kw == KW('f', 'n', 0, 0, 0))
			ev->fn = a->val;
		else if (kw == KW('o', 'p', 0, 0, 0))
			ev->op = a->val;
		else if (kw == KW('r', 'e', 'q', 0, 0) &&
		    reqs_plain(a->val.s, a->val.len, &ev->req)) {
			ev->reqs = a->val;
		} else if ((kw == KW('t', 'a', 'g', 0, 0) ||
		    kw == KW('r', 'e', 'q', 0, 0) ||
		    kw == KW('p', 'e', 'e', 'r', 0) ||
		    kw == KW('c', 'o', 'm', 'm', 0) ||
		    kw == KW('r', 'o', 'o', 't', 0) ||
		    kw == KW('b', 'y', 't', 'e', 's')) &&
		    parse_known(ev, a, num, err) < 0)
			return -1;
	}
	ev->nattr = (int)(a - ev->attr);
	*stop = p;
	return 0;
}

#endif

/*
 * The event at s, which ends at end or, when end is NULL, at the first
 * newline or NUL; *stop is left at the byte that ended it.
 */
int
trc_parse_event(const char *s, const char *end, struct trc_event *ev,
    char err[TRC_ERRLEN], const char **stop)
{
	const char *p = s, *eq;
	struct trc_str f;
	struct trc_attr *a;
	int64_t n, num;
#if SWAR_LE
	const int padded = end == NULL;
#endif

	ev->peer = ev->tag = ev->root = TRC_NONE;
	ev->comm = 0;
	ev->bytes = ev->req = TRC_NONE;
	ev->reqs.s = ev->fn.s = ev->op.s = "";
	ev->reqs.len = ev->fn.len = ev->op.len = 0;
	ev->nattr = 0;

	/* Fast path for the usual "SEC.NANOS RANK KIND", checked exactly
	 * by the general code below whenever it does not apply. */
#if SWAR_LE
	if (padded ? fast_head_swar(&p, ev) : fast_head(&p, ev))
		goto attributes;
#else
	if (fast_head(&p, ev))
		goto attributes;
#endif
	p = s;
	if (end == NULL)	/* the slow path needs the end */
		for (end = s; byte_class[(unsigned char)*end] != C_END; end++)
			;
	if (!next_field(&p, end, &f)) {
		snprintf(err, TRC_ERRLEN, "empty event line");
		return -1;
	}
	if (trc_parse_time(f.s, f.len, &ev->t) < 0) {
		if (f.s[0] == '-' && trc_parse_time(f.s + 1, f.len - 1, &n) == 0)
			errtok(err, "negative time", f.s, f.len);
		else
			errtok(err, "invalid time", f.s, f.len);
		return -1;
	}
	if (!next_field(&p, end, &f)) {
		snprintf(err, TRC_ERRLEN, "missing rank");
		return -1;
	}
	if (trc_parse_int(f.s, f.len, &n) < 0 || n < 0 || n > INT32_MAX) {
		errtok(err, "invalid rank", f.s, f.len);
		return -1;
	}
	ev->rank = (int32_t)n;
	if (!next_field(&p, end, &f)) {
		snprintf(err, TRC_ERRLEN, "missing kind");
		return -1;
	}
	if (trc_kind_parse(f.s, f.len, &ev->kind) < 0) {
		errtok(err, "unknown kind", f.s, f.len);
		return -1;
	}
attributes:
#if SWAR_LE
	if (padded)
		return attrs_padded(p, ev, err, stop);
#endif
	for (;;) {
		while (byte_class[(unsigned char)*p] == C_BLANK)
			p++;
		if (byte_class[(unsigned char)*p] == C_END)
			break;
		/* The key ends at the first '='; a value of digits only is
		 * read as it is scanned. */
		f.s = p;
		while (byte_class[(unsigned char)*p] == C_OTHER)
			p++;
		eq = *p == '=' ? p : NULL;
		num = -1;
		if (eq != NULL) {
			for (num = 0, p++; isdigit_c(*p) &&
			    num < 100000000000000000LL; p++)
				num = num * 10 + (*p - '0');
			if (p == eq + 1 || byte_class[(unsigned char)*p] < C_BLANK)
				num = -1;
		}
		while (byte_class[(unsigned char)*p] < C_BLANK)
			p++;
		f.len = (size_t)(p - f.s);
		if (eq == NULL || eq == f.s) {
			errtok(err, "invalid attribute", f.s, f.len);
			return -1;
		}
		if (ev->nattr == TRC_MAXATTR) {
			snprintf(err, TRC_ERRLEN, "more than %d attributes",
			    TRC_MAXATTR);
			return -1;
		}
		a = &ev->attr[ev->nattr++];
		a->key.s = f.s;
		a->key.len = (size_t)(eq - f.s);
		a->val.s = eq + 1;
		a->val.len = f.len - a->key.len - 1;
		if (parse_known(ev, a, num, err) < 0)
			return -1;
	}
	*stop = p;
	return 0;
}

int
trc_parse_line(const char *s, size_t len, struct trc_event *ev, char err[TRC_ERRLEN])
{
	const char *stop;

	if (trc_parse_event(s, s + len, ev, err, &stop) < 0)
		return -1;
	if (stop != s + len) {
		snprintf(err, TRC_ERRLEN, "NUL byte in line");
		return -1;
	}
	return 0;
}

const struct trc_str *
trc_attr_get(const struct trc_event *ev, const char *key)
{
	size_t klen = strlen(key);
	int i;

	for (i = 0; i < ev->nattr; i++)
		if (ev->attr[i].key.len == klen &&
		    memcmp(ev->attr[i].key.s, key, klen) == 0)
			return &ev->attr[i].val;
	return NULL;
}

int
trc_parse_header(const char *s, size_t len, struct trc_header *h, char err[TRC_ERRLEN])
{
	const char *p = s, *end = s + len, *eq;
	struct trc_str f, k, v;
	int64_t n;

	h->version = 0;
	h->ranks = 0;
	h->order = TRC_ORDER_TIME;
	if (!next_field(&p, end, &f) || f.len != 4 || memcmp(f.s, "#trc", 4) != 0) {
		snprintf(err, TRC_ERRLEN, "missing '#trc' header");
		return -1;
	}
	if (!next_field(&p, end, &f) || trc_parse_int(f.s, f.len, &n) < 0) {
		snprintf(err, TRC_ERRLEN, "missing stream version after '#trc'");
		return -1;
	}
	if (n != 1) {
		errtok(err, "unsupported stream version", f.s, f.len);
		return -1;
	}
	h->version = 1;
	while (next_field(&p, end, &f)) {
		eq = memchr(f.s, '=', f.len);
		if (eq == NULL)
			continue;	/* free text is allowed */
		k.s = f.s;
		k.len = (size_t)(eq - f.s);
		v.s = eq + 1;
		v.len = f.len - k.len - 1;
		if (k.len == 5 && memcmp(k.s, "ranks", 5) == 0) {
			if (trc_parse_int(v.s, v.len, &n) < 0 || n < 1 ||
			    n > INT32_MAX) {
				errtok(err, "invalid ranks", v.s, v.len);
				return -1;
			}
			h->ranks = (int32_t)n;
		} else if (k.len == 5 && memcmp(k.s, "order", 5) == 0) {
			if (v.len == 4 && memcmp(v.s, "time", 4) == 0)
				h->order = TRC_ORDER_TIME;
			else if (v.len == 4 && memcmp(v.s, "rank", 4) == 0)
				h->order = TRC_ORDER_RANK;
			else if (v.len == 4 && memcmp(v.s, "none", 4) == 0)
				h->order = TRC_ORDER_NONE;
			else {
				errtok(err, "invalid order", v.s, v.len);
				return -1;
			}
		}
	}
	return 0;
}
