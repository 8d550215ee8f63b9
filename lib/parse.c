/*
 * parse.c - the stream's lines, parsed from memory with no I/O, no
 * allocation and no locale: fields are split with a byte-class table
 * and numbers are converted by hand.
 */
#include <stdio.h>
#include <string.h>

#include "trc.h"
#include "swar.h"
#if defined(__SSE2__)
#include <immintrin.h>
#endif
#include "fmt/fmt.h"

/* The usual line's window also by AVX-512BW where the CPU has it
 * (chosen at run time): GCC or clang on x86-64. */
#if SWAR_LE && defined(__SSE2__) && defined(__x86_64__) && \
    (defined(__clang__) || __GNUC__ >= 7)
#define TRC_AVX512	1
#else
#define TRC_AVX512	0
#endif
/* With BMI1 and BMI2, which every CPU of AVX-512BW has: a field's bits
 * are cleared and masked by one instruction each. */
#define TRC_AVX512_ISA	"avx512bw,bmi,bmi2"

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


/* An event's fields before its attributes set them. */
static inline void
event_clear(struct trc_event *ev)
{
	ev->peer = ev->tag = ev->root = TRC_NONE;
	ev->comm = 0;
	ev->bytes = ev->req = TRC_NONE;
	ev->reqs.s = ev->fn.s = ev->op.s = "";
	ev->reqs.len = ev->fn.len = ev->op.len = 0;
	ev->nattr = 0;
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
 * The usual line where it is padded (eight readable bytes past any
 * byte of it, as in the reader's buffer), eight bytes at a time.
 * Anything unusual goes to the byte loops, which decide.
 *
 * Short words are told apart by perfect hashes of their bytes as a
 * little-endian integer: the top bits of a product, its multiplier
 * found by search.  Two words of one slot would be one designated
 * initializer given twice, which -Wextra (-Woverride-init) reports.
 */
#define W2(a, b)	((uint32_t)(unsigned char)(a) | \
	(uint32_t)(unsigned char)(b) << 8)
#define KIND_SLOT(w)	((uint32_t)((w) * UINT32_C(1912923437)) >> 28)
#define KIND(a, b, k)	[KIND_SLOT(W2(a, b))] = { W2(a, b), (k) + 1 }

static const struct {
	uint16_t	word;
	unsigned char	kind;	/* + 1; 0: no kind hashes here */
} kinds_hashed[16] = {
	KIND('S', 'B', TRC_SB), KIND('S', 'E', TRC_SE),
	KIND('R', 'B', TRC_RB), KIND('R', 'E', TRC_RE),
	KIND('W', 'B', TRC_WB), KIND('W', 'E', TRC_WE),
	KIND('X', 'B', TRC_XB), KIND('X', 'E', TRC_XE),
	KIND('P', 'B', TRC_PB), KIND('P', 'E', TRC_PE),
	KIND('M', 'K', TRC_MK)
};

/* The kind of the two bytes at p, or -1, with no branch on which. */
static inline int
kind_hashed(const char *p)
{
	uint16_t w;
	unsigned slot;

	memcpy(&w, p, 2);
	slot = KIND_SLOT((uint32_t)w);
	return kinds_hashed[slot].word == w ? kinds_hashed[slot].kind - 1 : -1;
}

/* A key's bytes (up to 5) as a little-endian word, as the loop masks
 * them from its load. */
#define KW(a, b, c, d, e)	((uint64_t)(a) | (uint64_t)(b) << 8 | \
	(uint64_t)(c) << 16 | (uint64_t)(d) << 24 | (uint64_t)(e) << 32)
#define KEY_SLOT(w)	((uint64_t)((w) * UINT64_C(17302195526690376611)) >> 61)
#define KEY(w, k)	[KEY_SLOT(w)] = { (w), (k) }

enum { K_NONE, K_FN, K_OP, K_TAG, K_REQ, K_PEER, K_COMM, K_ROOT, K_BYTES };
static const struct {
	uint64_t	word;
	int		code;
} keys_hashed[8] = {
	KEY(KW('f', 'n', 0, 0, 0), K_FN), KEY(KW('o', 'p', 0, 0, 0), K_OP),
	KEY(KW('t', 'a', 'g', 0, 0), K_TAG), KEY(KW('r', 'e', 'q', 0, 0), K_REQ),
	KEY(KW('p', 'e', 'e', 'r', 0), K_PEER),
	KEY(KW('c', 'o', 'm', 'm', 0), K_COMM),
	KEY(KW('r', 'o', 'o', 't', 0), K_ROOT),
	KEY(KW('b', 'y', 't', 'e', 's'), K_BYTES)
};

/* The bytes of a key of 2 to 5 bytes, the lengths of known ones. */
static const uint64_t kmask[8] = {
	0, 0, 0xFFFF, 0xFFFFFF, 0xFFFFFFFF, 0xFFFFFFFFFF, 0xFFFFFFFFFFFF, 0
};

#if defined(__SSE2__)
/*
 * The known keys with their '=', for the window's loop: a field is one
 * when its first bytes are, as a key has no '='.  Told by their first
 * two bytes, hashed as the kinds; the '=' and the field's end after it
 * then need no search.
 */
#define KEQ_SLOT(w)	((uint32_t)((uint32_t)(uint16_t)(w) * \
	UINT32_C(3017753765)) >> 29)
#define KEQ(a, b, c, d, e, len, k) [KEQ_SLOT(W2(a, b))] = {		\
	KW(a, b, c, d, e) | (uint64_t)'=' << 8 * (len),			\
	(UINT64_C(1) << 8 * ((len) + 1)) - 1, (k), (len) }

static const struct {
	uint64_t	word, mask;	/* "key=", its bytes */
	int		code;
	unsigned	len;
} keys_eq[8] = {
	KEQ('f', 'n', 0, 0, 0, 2, K_FN), KEQ('o', 'p', 0, 0, 0, 2, K_OP),
	KEQ('t', 'a', 'g', 0, 0, 3, K_TAG), KEQ('r', 'e', 'q', 0, 0, 3, K_REQ),
	KEQ('p', 'e', 'e', 'r', 0, 4, K_PEER),
	KEQ('c', 'o', 'm', 'm', 0, 4, K_COMM),
	KEQ('r', 'o', 'o', 't', 0, 4, K_ROOT),
	KEQ('b', 'y', 't', 'e', 's', 5, K_BYTES)
};
#endif

/*
 * Time, rank and kind: the usual time's seven digits, point and nine
 * decimals are two loads.  Anything else goes to fast_head.
 */
static int
head_padded(const char **pp, struct trc_event *ev)
{
	const char *p = *pp;
	uint64_t x, m, sec, frac, rank;
	unsigned n;
	int kind;

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
	if ((kind = kind_hashed(p)) < 0 ||
	    byte_class[(unsigned char)p[2]] < C_BLANK)
		return 0;
	ev->kind = (enum trc_kind)kind;
	ev->t = (int64_t)(sec * 1000000000 + frac);
	ev->rank = (int32_t)rank;
	*pp = p + 2;
	return 1;
}

/* Just past the field p is in: the first blank or end. */
static inline const char *
field_end(const char *p)
{
	uint64_t m;

	/* Every byte above ' ' is C_OTHER or C_EQ, so the first that
	 * may end the field is found eight at a time. */
	while ((m = swar_lt(swar_load(p), ' ' + 1)) == 0)
		p += 8;
	p += swar_first(m);
	while (byte_class[(unsigned char)*p] < C_BLANK)
		p++;
	return p;
}

/*
 * A req= list of plain decimals ("0,1,2"), checked eight bytes at a
 * time and its first taken: 1, or 0 for anything else, which
 * trc_reqs_next then judges.  Its elements are no longer than 18
 * digits when every whole eight bytes of it hold a comma (a run of 19
 * digits would fill eight); a list of longer ones goes there too.
 */
static int
reqs_padded(const char *s, size_t len, int64_t *first)
{
	uint64_t x, in, comma, carry = 0, seen = 0;
	size_t i, firstlen = len;
	int64_t n;

	if (len == 0 || s[0] == ',' || s[len - 1] == ',')
		return 0;
	for (i = 0; i < len; i += 8) {
		x = swar_load(s + i);
		in = len - i >= 8 ? SWAR_HIGH :
		    SWAR_HIGH & ((UINT64_C(1) << 8 * (len - i)) - 1);
		comma = swar_eq_exact(x, ',') & in;
		/* Only digits and commas, no two commas side by side. */
		if ((in & ~(swar_digit_exact(x) | comma)) != 0 ||
		    (comma & (comma << 8 | carry)) != 0 ||
		    (comma == 0 && in == SWAR_HIGH))
			return 0;
		if (!seen && comma != 0) {
			firstlen = i + swar_first(comma);
			seen = 1;
		}
		carry = comma >> 56;	/* the last byte's, as the next first's */
	}
	if (firstlen <= 8) {
		*first = (int64_t)swar_value(swar_load(s), (unsigned)firstlen);
		return 1;
	}
	for (n = 0, i = 0; i < firstlen; i++)
		n = n * 10 + (s[i] - '0');
	*first = n;
	return 1;
}

/*
 * The value of the known key code when it is plain: a number written
 * as a decimal of at most 18 digits (num, else -1), any text for fn=
 * and op=, a req= list of such numbers (by reqs_padded when lists, else
 * only num, the list's first element read by the caller).  1 when
 * taken, 0 for parse_known to judge.
 */
static inline __attribute__((always_inline)) int
known_plain(struct trc_event *ev, int code, int64_t num,
    const struct trc_str *val, const int lists)
{
	switch (code) {
	case K_PEER:
		if ((uint64_t)num > INT32_MAX)
			return 0;
		ev->peer = (int32_t)num;
		return 1;
	case K_TAG:
		if ((uint64_t)num > INT32_MAX)
			return 0;
		ev->tag = (int32_t)num;
		return 1;
	case K_BYTES:
		if (num < 0)
			return 0;
		ev->bytes = num;
		return 1;
	case K_REQ:
		if (num < 0 && (!lists ||
		    !reqs_padded(val->s, val->len, &num)))
			return 0;
		ev->req = num;
		ev->reqs = *val;
		return 1;
	case K_FN:
		ev->fn = *val;
		return 1;
	case K_OP:
		ev->op = *val;
		return 1;
	case K_COMM:
		if ((uint64_t)num > INT32_MAX)
			return 0;
		ev->comm = (int32_t)num;
		return 1;
	case K_ROOT:
		if ((uint64_t)num > INT32_MAX)
			return 0;
		ev->root = (int32_t)num;
		return 1;
	}
	return 0;
}

/*
 * The attributes of a padded line: a key up to its '=' in one load and
 * told by its hash, a value of up to 7 digits read in the load that
 * finds its end.  Without fields_only they are kept in attr[] too.
 */
static int
attrs_padded(const char *p, struct trc_event *ev, int fields_only,
    char err[TRC_ERRLEN], const char **stop)
{
	const struct trc_attr *const full = ev->attr + TRC_MAXATTR;
	struct trc_attr *a = ev->attr, one;
	struct trc_str val;
	const char *key, *eq;
	uint64_t x, m, kw;
	size_t klen;
	int64_t num;
	unsigned n, slot;

	for (;; a++) {
		if (*p == ' ' && byte_class[(unsigned char)p[1]] == C_OTHER)
			p++;	/* the usual one blank before a key */
		else {
			if (*p == '\n')	/* the usual end */
				break;
			while (byte_class[(unsigned char)*p] == C_BLANK)
				p++;
			if (byte_class[(unsigned char)*p] == C_END)
				break;
		}
		key = p;
		/* The first byte at or below '=' ends a usual key. */
		x = swar_load(p);
		if ((m = swar_lt(x, '=' + 1)) != 0 && p[swar_first(m)] == '=')
			p += swar_first(m);
		else
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
		/* The value: digits to a blank are a number as they come. */
		x = swar_load(p);
		if ((m = swar_nondigit(x)) != 0) {
			n = swar_first(m);
			if (n > 0 && byte_class[(unsigned char)p[n]] >= C_BLANK) {
				num = (int64_t)swar_value(x, n);
				p += n;
			} else {
				num = -1;
				p = field_end(p + n);
			}
		} else {
			for (num = 0; isdigit_c(*p) &&
			    num < 100000000000000000LL; p++)
				num = num * 10 + (*p - '0');
			if (byte_class[(unsigned char)*p] < C_BLANK) {
				num = -1;
				p = field_end(p);
			}
		}
		if (a == full) {
			snprintf(err, TRC_ERRLEN, "more than %d attributes",
			    TRC_MAXATTR);
			return -1;
		}
		val.s = eq + 1;
		val.len = (size_t)(p - val.s);
		if (!fields_only) {
			a->key.s = key;
			a->key.len = klen;
			a->val = val;
		}
		if (klen > 5)
			continue;	/* no known key */
		kw = swar_load(key) & kmask[klen];
		slot = (unsigned)KEY_SLOT(kw);
		if (keys_hashed[slot].word != kw)
			continue;
		if (known_plain(ev, keys_hashed[slot].code, num, &val, 1))
			continue;
		/* '*', and what is not a plain value: as the byte loop
		 * takes them. */
		one.key.s = key;
		one.key.len = klen;
		one.val = val;
		if (parse_known(ev, &one, num, err) < 0)
			return -1;
	}
	ev->nattr = fields_only ? 0 : (int)(a - ev->attr);
	*stop = p;
	return 0;
}
#endif

#if SWAR_LE && defined(__SSE2__)
/* The 64 bytes at p as three masks, bit i for byte i. */
struct window {
	uint64_t	ends;	/* bytes up to ' ': what ends a field */
	uint64_t	eqs;	/* '=' */
	uint64_t	nondigits;
};

static inline __attribute__((always_inline)) void
window_at(const char *p, struct window *w)
{
	const __m128i blank = _mm_set1_epi8(' '), equals = _mm_set1_epi8('='),
	    zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
	__m128i v, d;
	uint64_t ends, eqs, digits;

#define CHUNK(i) do {							\
	v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * (i))); \
	d = _mm_sub_epi8(v, zero);					\
	ends |= (uint64_t)(unsigned)_mm_movemask_epi8(			\
	    _mm_cmpeq_epi8(_mm_min_epu8(v, blank), v)) << 16 * (i);	\
	eqs |= (uint64_t)(unsigned)_mm_movemask_epi8(			\
	    _mm_cmpeq_epi8(v, equals)) << 16 * (i);			\
	digits |= (uint64_t)(unsigned)_mm_movemask_epi8(		\
	    _mm_cmpeq_epi8(_mm_min_epu8(d, nine), d)) << 16 * (i);	\
} while (0)
	/* Sentinels: every search finds a bit, the last byte's: a field
	 * that seems to end there may go on past the window. */
	ends = eqs = UINT64_C(1) << 63;
	digits = 0;
	CHUNK(0);
	CHUNK(1);
	CHUNK(2);
	CHUNK(3);
#undef CHUNK
	w->ends = ends;
	w->eqs = eqs;
	w->nondigits = ~digits;
}

#if TRC_AVX512
/* The same three masks from one 64-byte load, where the CPU has
 * AVX-512BW: its compares give the masks themselves. */
static inline __attribute__((target(TRC_AVX512_ISA))) void
window_at512(const char *p, struct window *w)
{
	const __m512i v = _mm512_loadu_si512((const void *)p);

	w->ends = _mm512_cmple_epu8_mask(v, _mm512_set1_epi8(' ')) |
	    UINT64_C(1) << 63;
	w->eqs = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('=')) |
	    UINT64_C(1) << 63;
	w->nondigits = ~_mm512_cmplt_epu8_mask(_mm512_sub_epi8(v,
	    _mm512_set1_epi8('0')), _mm512_set1_epi8(10));
}
#endif

/* The value of the n digits (1 to 8) at p, which are digits. */
static inline __attribute__((always_inline)) uint64_t
digits_value(const char *p, unsigned n)
{
	uint32_t x;

	if (n > 4)
		return swar_value(swar_load(p), n);
	memcpy(&x, p, 4);
	return swar_value4(x, n);
}

#if TRC_AVX512
#define WINDOW(p, w)	(wide ? window_at512(p, w) : window_at(p, w))
#else
#define WINDOW(p, w)	window_at(p, w)
#endif

/*
 * The first element of a req= list of n bytes (0 < n < 64) from masks
 * of its digits and commas, bit i for byte i: the value when the list
 * is plain decimals of at most 8 digits ("0,1,2"), else -1 for
 * parse_known to judge.
 */
static inline __attribute__((always_inline)) int64_t
reqs_first(const char *s, unsigned n, uint64_t digits, uint64_t commas)
{
	const uint64_t in = (UINT64_C(1) << n) - 1;
	uint64_t run;

	digits &= in;
	commas &= in;
	/* run: bit i set when bytes i to i + 7 are all digits. */
	run = digits & digits >> 1;
	run &= run >> 2;
	run &= run >> 4;
	if ((digits | commas) != in || (commas & (commas >> 1)) != 0 ||
	    (commas & (1 | UINT64_C(1) << (n - 1))) != 0 ||
	    (run & digits >> 8) != 0)
		return -1;
	return (int64_t)digits_value(s,
	    (unsigned)__builtin_ctzll(commas | UINT64_C(1) << n));
}

/* reqs_first of the list at s, a line's padded bytes, its masks made
 * apart from the window's loop: only lists need them. */
static int64_t __attribute__((noinline))
reqs_window(const char *s, unsigned n)
{
	const __m128i comma = _mm_set1_epi8(','), zero = _mm_set1_epi8('0'),
	    nine = _mm_set1_epi8(9);
	uint64_t digits = 0, commas = 0;
	__m128i v, d;
	unsigned i;

	for (i = 0; i < n; i += 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		d = _mm_sub_epi8(v, zero);
		digits |= (uint64_t)(unsigned)_mm_movemask_epi8(
		    _mm_cmpeq_epi8(_mm_min_epu8(d, nine), d)) << i;
		commas |= (uint64_t)(unsigned)_mm_movemask_epi8(
		    _mm_cmpeq_epi8(v, comma)) << i;
	}
	return reqs_first(s, n, digits, commas);
}

#if TRC_AVX512
static int64_t __attribute__((noinline, target(TRC_AVX512_ISA)))
reqs_window512(const char *s, unsigned n)
{
	const __m512i v = _mm512_loadu_si512((const void *)s);

	return reqs_first(s, n, _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v,
	    _mm512_set1_epi8('0')), _mm512_set1_epi8(10)),
	    _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(',')));
}
#define REQS(s, n)	(wide ? reqs_window512(s, n) : reqs_window(s, n))
#else
#define REQS(s, n)	reqs_window(s, n)
#endif

/*
 * The usual line read 64 bytes at a time, by SSE2 or, wide, AVX-512BW
 * (window_at512): the masks of a window bound every field with no byte
 * loop, and each field is read from one load.  1 with the event, or 0
 * for anything else (tabs, two blanks, a field unlike the usual, an
 * invalid value), which the eight-byte path decides.  A window starts
 * where the newline is not before it, so the caller's padding covers
 * its 64 bytes.  Made four times, fields_only and wide constant in
 * each, and apart from the rest, so that the loop keeps its variables
 * in registers.
 */
static inline __attribute__((always_inline)) int
line_window(const char *s, struct trc_event *ev, const int fields_only,
    const int no_match, const int wide, char err[TRC_ERRLEN],
    const char **stop)
{
	struct trc_attr *a = ev->attr, one;
	struct trc_str val;
	struct window w;
	const char *base = s;
	uint64_t kw, sec, frac;
	int64_t num;
	unsigned b, k, e, klen, n, slot;
	int kind, code, plain;

	WINDOW(s, &w);
	/* The time: 1 to 8 digits, a point, 9 digits and a blank. */
	n = (unsigned)__builtin_ctzll(w.nondigits | UINT64_C(1) << 63);
	b = (unsigned)__builtin_ctzll(w.ends);
	if (n - 1 >= 8 || s[n] != '.' || b != n + 10 || s[b] != ' ' ||
	    (w.nondigits >> (n + 1) & 0x1FF) != 0)
		return 0;
	sec = digits_value(s, n);
	frac = swar_value(swar_load(s + n + 1), 8) * 10 +
	    (uint64_t)(s[n + 9] - '0');
	ev->t = (int64_t)(sec * 1000000000 + frac);
	/* The rank: 1 to 8 digits and a blank. */
	w.ends &= w.ends - 1;
	k = b + 1;
	b = (unsigned)__builtin_ctzll(w.ends);
	n = b - k;
	if (n - 1 >= 8 || s[b] != ' ' ||
	    (w.nondigits >> k & ((UINT64_C(1) << n) - 1)) != 0)
		return 0;
	ev->rank = (int32_t)digits_value(s + k, n);
	/* The kind: two bytes and a blank or the end. */
	w.ends &= w.ends - 1;
	k = b + 1;
	b = (unsigned)__builtin_ctzll(w.ends);
	if (b != k + 2 || (kind = kind_hashed(s + k)) < 0)
		return 0;
	ev->kind = (enum trc_kind)kind;

	/* The attributes, key=value each, one blank before each. */
	while (base[b] == ' ') {
		w.ends &= w.ends - 1;
		k = b + 1;
		b = (unsigned)__builtin_ctzll(w.ends);
		if (b == 63) {
			/* The window's end: the next from this field on. */
			if (k == 0)
				return 0;	/* a field of 63 bytes or more */
			base += k;
			WINDOW(base, &w);
			k = 0;
			b = (unsigned)__builtin_ctzll(w.ends);
			if (b == 63)
				return 0;
		}
		if (a == ev->attr + TRC_MAXATTR)
			return 0;
		kw = swar_load(base + k);
		if (no_match) {
			/*
			 * The key up to the field's first '=': fn= and op=
			 * are told by their bytes, any value theirs.  Of a
			 * value of 1 to 8 digits, a match key's, an unknown
			 * key's or tag='s, nothing is kept, and the key need
			 * not be told: only req= and bytes= are, by their
			 * lengths and bytes.  The rest as below.
			 */
			klen = (unsigned)__builtin_ctzll(w.eqs >> k);
			e = k + klen;
			n = b - e - 1;
			if (klen == 2 && (uint32_t)kw << 8 ==
			    (uint32_t)KW(0, 'f', 'n', '=', 0)) {
				ev->fn.s = base + e + 1;
				ev->fn.len = n;
				a++;
				continue;
			}
			if (klen == 2 && (uint32_t)kw << 8 ==
			    (uint32_t)KW(0, 'o', 'p', '=', 0)) {
				ev->op.s = base + e + 1;
				ev->op.len = n;
				a++;
				continue;
			}
			if (klen - 1 < b - k - 1 && n - 1 < 8 &&
			    (w.nondigits >> (e + 1) &
			    ((UINT64_C(1) << n) - 1)) == 0) {
				a++;
				if (klen == 3 && (uint32_t)kw ==
				    (uint32_t)KW('r', 'e', 'q', '=', 0))
					ev->req = 0;
				else if (klen == 5 && (kw & kmask[6]) ==
				    (KW('b', 'y', 't', 'e', 's') |
				    (uint64_t)'=' << 40))
					ev->bytes = (int64_t)digits_value(
					    base + e + 1, n);
				continue;
			}
		}
		slot = KEQ_SLOT(kw);
		if ((kw & keys_eq[slot].mask) != keys_eq[slot].word) {
			/* No known key: its '=' anywhere after its first
			 * byte (the mask's last bit is set: the search
			 * ends). */
			klen = (unsigned)__builtin_ctzll(w.eqs >> k);
			if (klen == 0 || klen >= b - k)
				return 0;	/* no key, or no '=' */
			if (!fields_only) {
				a->key.s = base + k;
				a->key.len = klen;
				a->val.s = base + k + klen + 1;
				a->val.len = b - k - klen - 1;
			}
			a++;
			continue;
		}
		klen = keys_eq[slot].len;
		code = keys_eq[slot].code;
		e = k + klen;
		val.s = base + e + 1;
		val.len = b - e - 1;
		if (!fields_only) {
			a->key.s = base + k;
			a->key.len = klen;
			a->val = val;
		}
		a++;
		/* A value of 1 to 8 digits is a plain decimal. */
		n = (unsigned)val.len;
		plain = n - 1 < 8 &&
		    (w.nondigits >> (e + 1) & ((UINT64_C(1) << n) - 1)) == 0;
		num = plain ? (int64_t)digits_value(val.s, n) : -1;
		if (num < 0 && code == K_REQ && n > 0)
			num = REQS(val.s, n);
		if (known_plain(ev, code, num, &val, 0))
			continue;
		one.key.s = base + k;
		one.key.len = e - k;
		one.val = val;
		if (parse_known(ev, &one, num, err) < 0)
			return 0;
	}
	if (base[b] != '\n' || b == 63)
		return 0;
	ev->nattr = fields_only ? 0 : (int)(a - ev->attr);
	*stop = base + b;
	return 1;
}

static int parse_event(const char *, const char *, struct trc_event *, int,
    char [TRC_ERRLEN], const char **);

/* A padded line, the usual one by line_window, any other by parse_event
 * (again from the start: line_window may have set some fields).  Made
 * six times below, fields_only, no_match and wide constant in each. */
static inline __attribute__((always_inline)) int
padded(const char *s, struct trc_event *ev, const int fields_only,
    const int no_match, const int wide, char err[TRC_ERRLEN],
    const char **stop)
{
	if (no_match) {
		/* Only what the caller reads (trc_open_opts.no_match):
		 * line_window sets nattr, parse_event clears it all. */
		ev->bytes = ev->req = TRC_NONE;
		ev->fn.s = ev->op.s = "";
		ev->fn.len = ev->op.len = 0;
	} else
		event_clear(ev);
	if (line_window(s, ev, fields_only, no_match, wide, err, stop))
		return 0;
	return parse_event(s, NULL, ev, fields_only, err, stop);
}

static int __attribute__((noinline))
padded_fields(const char *s, struct trc_event *ev, char err[TRC_ERRLEN],
    const char **stop)
{
	return padded(s, ev, 1, 0, 0, err, stop);
}

static int __attribute__((noinline))
padded_all(const char *s, struct trc_event *ev, char err[TRC_ERRLEN],
    const char **stop)
{
	return padded(s, ev, 0, 0, 0, err, stop);
}

/* Fields only, match keys' values not kept (trc_open_opts.no_match):
 * trc-sum's, whose summaries never read them. */
static int __attribute__((noinline))
padded_sums(const char *s, struct trc_event *ev, char err[TRC_ERRLEN],
    const char **stop)
{
	return padded(s, ev, 1, 1, 0, err, stop);
}

#if TRC_AVX512
static int __attribute__((noinline, target(TRC_AVX512_ISA)))
padded_fields512(const char *s, struct trc_event *ev, char err[TRC_ERRLEN],
    const char **stop)
{
	return padded(s, ev, 1, 0, 1, err, stop);
}

static int __attribute__((noinline, target(TRC_AVX512_ISA)))
padded_all512(const char *s, struct trc_event *ev, char err[TRC_ERRLEN],
    const char **stop)
{
	return padded(s, ev, 0, 0, 1, err, stop);
}

static int __attribute__((noinline, target(TRC_AVX512_ISA)))
padded_sums512(const char *s, struct trc_event *ev, char err[TRC_ERRLEN],
    const char **stop)
{
	return padded(s, ev, 1, 1, 1, err, stop);
}
#endif
#endif

/*
 * The event at s, which ends at end or, when end is NULL, at the first
 * newline or NUL; *stop is left at the byte that ended it.
 */
static int
parse_event(const char *s, const char *end, struct trc_event *ev,
    int fields_only, char err[TRC_ERRLEN], const char **stop)
{
	const char *p = s, *eq;
	struct trc_str f;
	struct trc_attr *a;
	int64_t n, num;
#if SWAR_LE
	const int padded = end == NULL;
#endif

	event_clear(ev);
	/* Fast path for the usual "SEC.NANOS RANK KIND", checked exactly
	 * by the general code below whenever it does not apply. */
#if SWAR_LE
	if (padded ? head_padded(&p, ev) : fast_head(&p, ev))
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
		return attrs_padded(p, ev, fields_only, err, stop);
#else
	(void)fields_only;
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
trc_parse_event(const char *s, const char *end, struct trc_event *ev,
    char err[TRC_ERRLEN], const char **stop)
{
	return parse_event(s, end, ev, 0, err, stop);
}

#if TRC_AVX512
static int wide = -1;	/* AVX-512BW's window in use: -1 until chosen */
#endif

int
trc_parse_wide(int want)
{
#if TRC_AVX512
	wide = want && __builtin_cpu_supports("avx512bw") &&
	    __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
	return wide;
#else
	(void)want;
	return 0;
#endif
}

#if !(SWAR_LE && defined(__SSE2__))
static int
padded_fields(const char *s, struct trc_event *ev, char err[TRC_ERRLEN],
    const char **stop)
{
	return parse_event(s, NULL, ev, 1, err, stop);
}

static int
padded_all(const char *s, struct trc_event *ev, char err[TRC_ERRLEN],
    const char **stop)
{
	return parse_event(s, NULL, ev, 0, err, stop);
}

static int
padded_sums(const char *s, struct trc_event *ev, char err[TRC_ERRLEN],
    const char **stop)
{
	return parse_event(s, NULL, ev, 1, err, stop);
}
#endif

trc_padded_fn
trc_parse_padded_fn(int fields_only, int no_match)
{
#if TRC_AVX512
	if (wide < 0)
		trc_parse_wide(1);
	if (wide)
		return !fields_only ? padded_all512 : no_match ?
		    padded_sums512 : padded_fields512;
#endif
	return !fields_only ? padded_all : no_match ? padded_sums :
	    padded_fields;
}

int
trc_parse_padded(const char *s, struct trc_event *ev, int fields_only,
    char err[TRC_ERRLEN], const char **stop)
{
	return trc_parse_padded_fn(fields_only, 0)(s, ev, err, stop);
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

/*
 * The header's extra lines, one prefix at a time: *at is NULL to begin
 * and past the line found after.  A line no longer than its prefix has
 * nothing to say and is passed over.  1 when found, 0 at the end.
 */
int
trc_extra_line(const struct trc_str *extra, const char **at,
    const char *prefix, const char **val, const char **end)
{
	const char *p, *last, *eol;
	size_t n = strlen(prefix);

	if (extra == NULL || extra->s == NULL)
		return 0;
	last = extra->s + extra->len;
	for (p = *at ? *at : extra->s; p < last; p = eol + 1) {
		if ((eol = memchr(p, '\n', (size_t)(last - p))) == NULL)
			eol = last;
		if ((size_t)(eol - p) > n && memcmp(p, prefix, n) == 0) {
			*val = p + n;
			*end = eol;
			*at = eol + 1;
			return 1;
		}
	}
	*at = last;
	return 0;
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
