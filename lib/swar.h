/*
 * swar.h - private to lib/: eight bytes of text at a time in a 64-bit
 * register (SIMD within a register), for the parsers' hot loops.
 *
 * swar_eq(x, c) has the high bit of each byte of x equal to c set; the
 * lowest set bit is exact (a borrow only marks bytes above a true
 * match), so the first match is swar_first() of it.  Byte 0 is the
 * first in memory: where the machine is not little-endian, swar_first
 * and swar_digits8 are left out (SWAR_LE is 0) and the callers take
 * their byte loops.
 */
#ifndef TRC_SWAR_H
#define TRC_SWAR_H

#include <stdint.h>
#include <string.h>

#define SWAR_ONES	0x0101010101010101u
#define SWAR_HIGH	0x8080808080808080u

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SWAR_LE		1
#else
#define SWAR_LE		0
#endif

static inline uint64_t
swar_load(const char *p)
{
	uint64_t x;

	memcpy(&x, p, 8);
	return x;
}

static inline uint64_t
swar_eq(uint64_t x, unsigned char c)
{
	x ^= SWAR_ONES * c;
	return (x - SWAR_ONES) & ~x & SWAR_HIGH;
}

/* The high bit of each byte of x below n (n <= 128) set, the lowest
 * exact as swar_eq's. */
static inline uint64_t
swar_lt(uint64_t x, unsigned char n)
{
	return (x - SWAR_ONES * n) & ~x & SWAR_HIGH;
}

/* The high bit of each byte of x that is not an ASCII digit set, the
 * lowest exact (a carry or borrow only marks bytes above a true one). */
static inline uint64_t
swar_nondigit(uint64_t x)
{
	return swar_lt(x, '0') | (((x + SWAR_ONES * (127 - '9')) | x) & SWAR_HIGH);
}

/* The high bit of every byte of x equal to c set, every one exact: no
 * carry crosses a byte (the low seven bits are added apart). */
static inline uint64_t
swar_eq_exact(uint64_t x, unsigned char c)
{
	uint64_t t = x ^ (SWAR_ONES * c);

	return ~(((t & ~SWAR_HIGH) + ~SWAR_HIGH) | t) & SWAR_HIGH;
}

/* The high bit of every byte of x that is an ASCII digit set, every
 * one exact as swar_eq_exact's. */
static inline uint64_t
swar_digit_exact(uint64_t x)
{
	uint64_t low = x & ~SWAR_HIGH;

	return (low + SWAR_ONES * (0x80 - '0')) &
	    ~(low + SWAR_ONES * (0x7F - '9')) & ~x & SWAR_HIGH;
}

#if SWAR_LE
/* The index of the first byte marked in a nonzero mask. */
static inline unsigned
swar_first(uint64_t mask)
{
	return (unsigned)__builtin_ctzll(mask) >> 3;
}

/*
 * The eight ASCII digits at p as a number (Lemire's
 * parse_eight_digits_unrolled): 0, or -1 when one is not a digit.
 */
static inline int
swar_digits8(const char *p, uint64_t *v)
{
	uint64_t x = swar_load(p);

	if ((x & 0xF0F0F0F0F0F0F0F0u) != 0x3030303030303030u ||
	    ((x + 0x0606060606060606u) & 0xF0F0F0F0F0F0F0F0u) !=
	    0x3030303030303030u)
		return -1;
	x = (x & 0x0F0F0F0F0F0F0F0Fu) * 2561 >> 8;
	x = (x & 0x00FF00FF00FF00FFu) * 6553601 >> 16;
	*v = (x & 0x0000FFFF0000FFFFu) * 42949672960001u >> 32;
	return 0;
}

/* The value of the n digits (1 to 8) first in x, as swar_digits8's.
 * It and the helpers below are always inlined: gcc left swar_count and
 * swar_value calls in the Paraver reader's long fast path, 3% of its
 * instructions. */
static inline __attribute__((always_inline)) uint64_t
swar_value(uint64_t x, unsigned n)
{
	x <<= 8 * (8 - n);	/* the bytes before them: leading zeros */
	x = (x & 0x0F0F0F0F0F0F0F0Fu) * 2561 >> 8;
	x = (x & 0x00FF00FF00FF00FFu) * 6553601 >> 16;
	return (x & 0x0000FFFF0000FFFFu) * 42949672960001u >> 32;
}

/* The value of the n digits (1 to 4) first in the 32-bit word x: two
 * steps of swar_value's three. */
static inline __attribute__((always_inline)) uint32_t
swar_value4(uint32_t x, unsigned n)
{
	x <<= 8 * (4 - n);
	x = (x & 0x0F0F0F0Fu) * 2561 >> 8;
	return (x & 0x00FF00FFu) * 6553601 >> 16;
}

/* The four ASCII digits at p as a number: 0, or -1 when one is not a
 * digit (swar_digits8's test in 32 bits). */
static inline __attribute__((always_inline)) int
swar_digits4(const char *p, uint32_t *v)
{
	uint32_t x;

	memcpy(&x, p, 4);
	if (((x & 0xF0F0F0F0u) | ((x + 0x06060606u) & 0xF0F0F0F0u) >> 4) !=
	    0x33333333u)
		return -1;
	*v = swar_value4(x, 4);
	return 0;
}

/* How many ASCII digits (0 to 8) begin the eight bytes at p, the
 * eight bytes in *x (for swar_value). */
static inline __attribute__((always_inline)) unsigned
swar_count(const char *p, uint64_t *x)
{
	uint64_t m;

	*x = swar_load(p);
	m = swar_nondigit(*x);
	return m ? swar_first(m) : 8;
}

/* How many ASCII digits (0 to 8) begin the eight bytes at p, and the
 * value of those (0 for none). */
static inline unsigned
swar_digits(const char *p, uint64_t *v)
{
	uint64_t x = swar_load(p), m = swar_nondigit(x);
	unsigned n = m ? swar_first(m) : 8;

	*v = n ? swar_value(x, n) : 0;
	return n;
}
#endif

/*
 * n bytes from s to d, most often a few (a key, a value, a name):
 * fixed-size moves, which the compiler inlines (it would make a call
 * of memcpy for a length it does not know, or of a byte loop).
 */
static inline __attribute__((always_inline)) void
swar_copy(char *d, const char *s, size_t n)
{
	if (n > 16) {
		memcpy(d, s, n);
		return;
	}
	if (n >= 8) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n > 0) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	}
}

/*
 * Whether the n bytes at a and b are the same, both n bytes long at
 * least: by words of 8 or 4 bytes, the last overlapping the one before,
 * so that no byte past n is read.  A byte loop cost some 4 instructions
 * a byte (a quarter of trc-sum on trcb went to names), and a call of
 * memcmp more for names this short (the summary's labels, DUMPI's
 * argument names).
 */
static inline int
swar_same(const char *a, const char *b, size_t n)
{
	uint64_t x, y;
	uint32_t u, v, w, z;
	size_t i;

	if (n >= 8) {
		for (i = 0; i + 8 < n; i += 8) {
			memcpy(&x, a + i, 8);
			memcpy(&y, b + i, 8);
			if (x != y)
				return 0;
		}
		memcpy(&x, a + n - 8, 8);
		memcpy(&y, b + n - 8, 8);
		return x == y;
	}
	if (n >= 4) {
		memcpy(&u, a, 4);
		memcpy(&v, b, 4);
		memcpy(&w, a + n - 4, 4);
		memcpy(&z, b + n - 4, 4);
		return ((u ^ v) | (w ^ z)) == 0;
	}
	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

#endif
