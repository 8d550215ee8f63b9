/*
 * design.c - regular two-level factorial designs, full and fractional,
 * their defining relation, alias chains and resolution (Montgomery,
 * Design and Analysis of Experiments, ch. 8; Jain ch. 19).
 *
 * Words and points are bit masks over the factors (bit i: letter i).
 * Over GF(2) a design point is a vector and a regular fraction an
 * affine subspace; the level of a word at a point is -1 to the number
 * of its factors that are low there.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"

static int
popcount(uint32_t w)
{
	int n = 0;

	for (; w != 0; w &= w - 1)
		n++;
	return n;
}

int
trc_word_len(uint32_t w)
{
	return popcount(w);
}

int
trc_factor_letter(int i)
{
	if (i < 0 || i >= TRC_MAXFACTORS)
		return '?';
	return 'A' + i + (i >= 'I' - 'A');
}

int
trc_letter_factor(int c)
{
	if (c < 'A' || c > 'Z' || c == 'I')
		return -1;
	return c - 'A' - (c > 'I');
}

char *
trc_word_format(uint32_t w, char *buf)
{
	char *p = buf;
	int i;

	if (w == 0)
		*p++ = 'I';
	for (i = 0; i < TRC_MAXFACTORS; i++)
		if (w & (UINT32_C(1) << i))
			*p++ = trc_factor_letter(i);
	*p = '\0';
	return buf;
}

int
trc_word_cmp(uint32_t a, uint32_t b)
{
	int la = popcount(a), lb = popcount(b);
	uint32_t d;

	if (la != lb)
		return la < lb ? -1 : 1;
	if (a == b)
		return 0;
	/*
	 * Equal lengths: the first letter that differs decides, and the
	 * word holding the lower letter there is first alphabetically.
	 */
	d = a ^ b;
	d &= -d;
	return (a & d) ? -1 : 1;
}

int
trc_word_sign(uint32_t w, uint32_t point)
{
	return popcount(w & ~point) & 1 ? -1 : 1;
}

const char *
trc_roman(int n, char *buf, size_t len)
{
	static const struct { int v; const char *s; } r[] = {
		{ 10, "X" }, { 9, "IX" }, { 5, "V" }, { 4, "IV" }, { 1, "I" }
	};
	size_t at = 0, i;

	if (n <= 0) {
		snprintf(buf, len, "full");
		return buf;
	}
	buf[0] = '\0';
	for (i = 0; i < sizeof r / sizeof r[0]; i++)
		for (; n >= r[i].v; n -= r[i].v)
			at += snprintf(buf + at, at < len ? len - at : 0, "%s",
			    r[i].s);
	return buf;
}

int
trc_design_init(struct trc_design *d, int p, char *err, size_t errlen)
{
	int i;

	memset(d, 0, sizeof *d);
	if (p < 1 || p > TRC_MAXFACTORS)
		return trc_errorf(err, errlen, "%d factors: need 1 to %d", p,
		    TRC_MAXFACTORS);
	d->p = p;
	for (i = 0; i < p; i++)
		d->gsign[i] = 1;
	return 0;
}

void
trc_design_free(struct trc_design *d)
{
	free(d->def);
	free(d->dsign);
	d->def = NULL;
	d->dsign = NULL;
	d->ndef = 0;
}

/* The factor a generator names, or -1 with the message made. */
static int
gen_factor(const struct trc_design *d, const char *g, int c, char *err,
    size_t errlen)
{
	int f = trc_letter_factor(c);

	if (f < 0 || f >= d->p)
		return trc_errorf(err, errlen, "generator '%s': unknown factor '%c'",
		    g, c);
	return f;
}

int
trc_design_generator(struct trc_design *d, const char *g, char *err,
    size_t errlen)
{
	const char *s;
	uint32_t w = 0;
	int f, x, i, sign = 1;

	if (g[0] == '\0' || g[1] != '=' || g[2] == '\0')
		return trc_errorf(err, errlen,
		    "invalid generator '%s': want FACTOR=WORD, as D=ABC", g);
	s = g + 2;
	if (*s == '-' || *s == '+')
		sign = *s++ == '-' ? -1 : 1;
	if (*s == '\0')
		return trc_errorf(err, errlen,
		    "invalid generator '%s': want FACTOR=WORD, as D=ABC", g);
	if ((f = gen_factor(d, g, (unsigned char)g[0], err, errlen)) < 0)
		return -1;
	for (; *s != '\0'; s++) {
		if ((x = gen_factor(d, g, (unsigned char)*s, err, errlen)) < 0)
			return -1;
		if (x == f)
			return trc_errorf(err, errlen,
			    "generator '%s': factor '%c' on both sides", g, *s);
		if (w & (UINT32_C(1) << x))
			return trc_errorf(err, errlen,
			    "generator '%s': repeated factor '%c'", g, *s);
		if (d->gen[x] != 0)
			return trc_errorf(err, errlen,
			    "generator '%s': factor '%c' is itself generated",
			    g, *s);
		w |= UINT32_C(1) << x;
	}
	if (d->gen[f] != 0)
		return trc_errorf(err, errlen, "generator '%s': factor '%c' "
		    "generated twice", g, g[0]);
	for (i = 0; i < d->p; i++)
		if (d->gen[i] & (UINT32_C(1) << f))
			return trc_errorf(err, errlen, "generator '%s': factor '%c' "
			    "generates '%c'", g, g[0], trc_factor_letter(i));
	d->gen[f] = w;
	d->gsign[f] = sign;
	d->k++;
	return 0;
}

int
trc_design_finish(struct trc_design *d, char *err, size_t errlen)
{
	int gf[TRC_MAXFACTORS];
	long t, j, n;
	int i;

	d->nbase = 0;
	for (i = j = 0; i < d->p; i++)
		if (d->gen[i] == 0)
			d->base[d->nbase++] = i;
		else
			gf[j++] = i;
	if (d->nbase > 20)
		return trc_errorf(err, errlen, "2^%d runs: at most 2^20", d->nbase);
	n = 1L << d->k;
	free(d->def);
	free(d->dsign);
	d->def = malloc(n * sizeof d->def[0]);
	d->dsign = malloc(n);
	if (d->def == NULL || d->dsign == NULL) {
		trc_design_free(d);
		return trc_errorf(err, errlen, "out of memory");
	}
	/* Every product of the generators' words: I = D ABC = ... */
	for (t = 0; t < n; t++) {
		uint32_t w = 0;
		int s = 1;

		for (j = 0; j < d->k; j++)
			if (t & (1L << j)) {
				w ^= d->gen[gf[j]] | UINT32_C(1) << gf[j];
				s *= d->gsign[gf[j]];
			}
		d->def[t] = w;
		d->dsign[t] = s;
	}
	d->ndef = n;
	return 0;
}

long
trc_design_runs(const struct trc_design *d)
{
	return 1L << d->nbase;
}

uint32_t
trc_design_point(const struct trc_design *d, long i)
{
	uint32_t x = 0;
	int j;

	for (j = 0; j < d->nbase; j++)
		if (i & (1L << j))
			x |= UINT32_C(1) << d->base[j];
	for (j = 0; j < d->p; j++)
		if (d->gen[j] != 0 &&
		    trc_word_sign(d->gen[j], x) * d->gsign[j] > 0)
			x |= UINT32_C(1) << j;
	return x;
}

long
trc_design_index(const struct trc_design *d, uint32_t x)
{
	long i = 0;
	int j;

	for (j = 0; j < d->nbase; j++)
		if (x & (UINT32_C(1) << d->base[j]))
			i |= 1L << j;
	return trc_design_point(d, i) == x ? i : -1;
}

int
trc_design_resolution(const struct trc_design *d)
{
	int r = 0, t, l;

	for (t = 1; t < d->ndef; t++) {
		l = popcount(d->def[t]);
		if (r == 0 || l < r)
			r = l;
	}
	return r;
}

void
trc_design_chain(const struct trc_design *d, long i, struct trc_chain *c)
{
	uint32_t b = 0;
	int j, t, s0;

	for (j = 0; j < d->nbase; j++)
		if (i & (1L << j))
			b |= UINT32_C(1) << d->base[j];
	c->base = b;
	c->n = d->ndef;
	/*
	 * col(b) = s col(b d) for each word d of sign s in the defining
	 * relation; insertion sort puts the textbook's order on them.
	 */
	for (t = 0; t < d->ndef; t++) {
		uint32_t w = b ^ d->def[t];
		int s = d->dsign[t];

		for (j = t; j > 0 && trc_word_cmp(w, c->word[j - 1]) < 0; j--) {
			c->word[j] = c->word[j - 1];
			c->sign[j] = c->sign[j - 1];
		}
		c->word[j] = w;
		c->sign[j] = s;
	}
	s0 = c->sign[0];
	c->bsign = s0;
	for (t = 0; t < c->n; t++)
		c->sign[t] *= s0;
}

char *
trc_chain_format(const struct trc_chain *c, char *buf, size_t len)
{
	char w[TRC_MAXFACTORS + 1];
	size_t at = 0;
	int t;

	if (len > 0)
		buf[0] = '\0';
	for (t = 0; t < c->n && at < len; t++)
		at += snprintf(buf + at, len - at, "%s%s%s",
		    t > 0 ? " = " : "", c->sign[t] < 0 ? "-" : "",
		    trc_word_format(c->word[t], w));
	return buf;
}

int
trc_design_from_points(struct trc_design *d, int p, const uint32_t *pts,
    long n, char *err, size_t errlen)
{
	uint32_t row[TRC_MAXFACTORS], v, x0;
	int piv[TRC_MAXFACTORS], q = 0, f, j;
	long i, m;
	char *seen;

	if (trc_design_init(d, p, err, errlen) == -1)
		return -1;
	if (n < 1)
		return trc_errorf(err, errlen, "no runs");
	x0 = pts[0];
	/*
	 * Reduced row echelon form of the points' differences, each row
	 * led by its lowest factor: the pivots are then the first factors
	 * that vary independently, the base of the design.
	 */
	for (i = 1; i < n; i++) {
		v = pts[i] ^ x0;
		for (j = 0; j < q; j++)
			if (v & (UINT32_C(1) << piv[j]))
				v ^= row[j];
		if (v == 0)
			continue;
		piv[q] = __builtin_ctz(v);
		for (j = 0; j < q; j++)
			if (row[j] & (UINT32_C(1) << piv[q]))
				row[j] ^= v;
		row[q++] = v;
	}
	if (q > 20)
		return trc_errorf(err, errlen, "2^%d runs: at most 2^20", q);
	for (f = 0; f < p; f++) {
		uint32_t w = 0;

		for (j = 0; j < q; j++)
			if (piv[j] == f)
				break;
		if (j < q)
			continue;
		for (j = 0; j < q; j++)
			if (row[j] & (UINT32_C(1) << f))
				w |= UINT32_C(1) << piv[j];
		if (w == 0)
			return trc_errorf(err, errlen, "factor '%c' has one level "
			    "in every run", trc_factor_letter(f));
		d->gen[f] = w;
		d->gsign[f] = trc_word_sign(UINT32_C(1) << f, x0) *
		    trc_word_sign(w, x0);
		d->k++;
	}
	if (trc_design_finish(d, err, errlen) == -1)
		return -1;
	/* Every combination of the base factors must be there. */
	m = trc_design_runs(d);
	if ((seen = calloc(m, 1)) == NULL) {
		trc_design_free(d);
		return trc_errorf(err, errlen, "out of memory");
	}
	for (i = 0; i < n; i++)
		seen[trc_design_index(d, pts[i])] = 1;
	for (i = 0; i < m && seen[i]; i++)
		;
	free(seen);
	if (i < m) {
		char w[TRC_MAXFACTORS + 1];
		uint32_t x = trc_design_point(d, i);
		int bits = 0;

		for (j = 0; j < d->nbase; j++)
			if (x & (UINT32_C(1) << d->base[j]))
				w[bits++] = trc_factor_letter(d->base[j]);
		w[bits] = '\0';
		trc_design_free(d);
		return trc_errorf(err, errlen, "not a two-level factorial design: "
		    "no run at point %ld of the %ld (high: %s)", i + 1, m,
		    bits ? w : "none");
	}
	return 0;
}

uint64_t
trc_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

uint64_t
trc_random_below(uint64_t *state, uint64_t n)
{
	uint64_t x, lim;

	/* Reject the top partial block so every value is equally likely. */
	lim = UINT64_MAX - UINT64_MAX % n;
	do
		x = trc_splitmix64(state);
	while (x >= lim);
	return x % n;
}
