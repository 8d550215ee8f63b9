/*
 * 3000-lcs: the LCS engine against hand-computed values, against a
 * plain quadratic DP on random strings, and on long strings whose LCS
 * is known by construction.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "trc.h"

static size_t
tok(const char *s, uint32_t *out)
{
	size_t i;

	for (i = 0; s[i] != '\0'; i++)
		out[i] = (unsigned char)s[i];
	return i;
}

static int64_t
dp(const uint32_t *a, size_t n, const uint32_t *b, size_t m)
{
	int64_t *row = calloc((m + 1) * (n + 1), sizeof(*row));
	int64_t r;
	size_t i, j;

#define C(i, j) row[(i) * (m + 1) + (j)]
	for (i = 1; i <= n; i++)
		for (j = 1; j <= m; j++)
			if (a[i - 1] == b[j - 1])
				C(i, j) = C(i - 1, j - 1) + 1;
			else
				C(i, j) = C(i - 1, j) > C(i, j - 1) ?
				    C(i - 1, j) : C(i, j - 1);
	r = C(n, m);
#undef C
	free(row);
	return r;
}

/* Deterministic, so a failure can be replayed. */
static uint64_t rng = 88172645463325252ULL;

static uint32_t
rnd(uint32_t k)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % k);
}

/* The hunks are an alignment: outside them a and b agree in order. */
static int
hunks_align(const uint32_t *a, size_t n, const uint32_t *b, size_t m,
    const struct trc_lcs_hunk *h, long nh, size_t *edits)
{
	size_t x = 0, y = 0;
	long i;

	*edits = 0;
	for (i = 0; i < nh; i++) {
		if (h[i].a < x || h[i].b < y || h[i].a - x != h[i].b - y)
			return 0;
		for (; x < h[i].a; x++, y++)
			if (a[x] != b[y])
				return 0;
		if (h[i].alen == 0 && h[i].blen == 0)
			return 0;
		x += h[i].alen;
		y += h[i].blen;
		*edits += h[i].alen + h[i].blen;
	}
	if (x > n || y > m || n - x != m - y)
		return 0;
	for (; x < n; x++, y++)
		if (a[x] != b[y])
			return 0;
	return 1;
}

struct hand {
	const char *a, *b;
	int64_t lcs;
	const char *why;
} hand[] = {
	{ "ABCBDAB", "BDCABA", 4, "CLRS 15.4: BCBA" },
	{ "AGGTAB", "GXTXAYB", 4, "GTAB" },
	{ "XMJYAUZ", "MZJAWXU", 4, "MJAU" },
	{ "", "ABC", 0, "empty left" },
	{ "ABC", "", 0, "empty right" },
	{ "", "", 0, "both empty" },
	{ "ABC", "ABC", 3, "identical" },
	{ "ABC", "DEF", 0, "disjoint" },
	{ "RCR", "RRC", 2, "Figure 2, task 1, kinds only" },
	{ "CSCSCR", "CSCSCR", 6, "Figure 2, task 2, same on both machines" },
	{ "AAAA", "AA", 2, "repeats" },
	{ "ABABABAB", "BABABABA", 7, "shifted period" },
};

/* trc_lcs_align's hunks, collected. */
struct collect {
	struct trc_lcs_hunk	 h[1024];
	size_t			 n;
	int			 overflow;
};

static void
collect_cb(void *arg, const struct trc_lcs_hunk *h)
{
	struct collect *c = arg;

	if (c->n == 1024)
		c->overflow = 1;
	else
		c->h[c->n++] = *h;
}

int
main(void)
{
	static struct collect col;
	int bad_a = 0;
	uint32_t a[512], b[512];
	struct trc_lcs_hunk h[64];
	struct trc_lcs_stat st;
	size_t i, n, m, edits;
	int bad_l = 0, bad_m = 0, bad_b = 0, bad_h = 0, trials = 0;
	long nh;

	for (i = 0; i < sizeof(hand) / sizeof(hand[0]); i++) {
		n = tok(hand[i].a, a);
		m = tok(hand[i].b, b);
		is_int(trc_lcs(a, n, b, m, &st), hand[i].lcs, hand[i].why);
		is_int(st.d, (int64_t)(n + m) - 2 * hand[i].lcs,
		    "d = n + m - 2 LCS");
		is_int(trc_lcs_myers(a, n, b, m, 0, NULL), hand[i].lcs,
		    "Myers alone");
		is_int(trc_lcs_bitpar(a, n, b, m), hand[i].lcs,
		    "bit-parallel alone");
	}

	/* Figure 2 with kind and peer: task 1 gets A's then B's message,
	 * or B's then A's: R2 C R3 against R3 R2 C, LCS R2 C. */
	a[0] = 2; a[1] = 100; a[2] = 3;
	b[0] = 3; b[1] = 2; b[2] = 100;
	is_int(trc_lcs(a, 3, b, 3, NULL), 2, "Figure 2 task 1, kind and peer");

	n = tok("ABCDEF", a);
	m = tok("ABXDEF", b);
	nh = trc_lcs_hunks(a, n, b, m, 0, h, 64);
	ok(nh == 1 && h[0].a == 2 && h[0].alen == 1 && h[0].b == 2 &&
	    h[0].blen == 1, "one substitution is one hunk at 2");
	n = tok("ABCDEF", a);
	m = tok("ABDEFG", b);
	nh = trc_lcs_hunks(a, n, b, m, 0, h, 64);
	ok(nh == 2 && h[0].a == 2 && h[0].alen == 1 && h[0].blen == 0 &&
	    h[1].a == 6 && h[1].alen == 0 && h[1].b == 5 && h[1].blen == 1,
	    "a deletion at 2 and an insertion at the end");
	nh = trc_lcs_hunks(a, n, b, m, 0, h, 1);
	ok(nh == 1 && h[0].a == 2, "max 1 keeps the first hunk");

	/* Random small strings against the DP. */
	for (trials = 0; trials < 3000; trials++) {
		uint32_t k = (uint32_t[]){ 2, 3, 4, 26, 1000 }[trials % 5];
		int64_t want, got;

		n = rnd(trials < 2000 ? 40 : 300);
		m = rnd(trials < 2000 ? 40 : 300);
		for (i = 0; i < n; i++)
			a[i] = rnd(k);
		if (trials % 3 == 0) {
			/* similar strings: b is a with a few edits */
			m = 0;
			for (i = 0; i < n && m < 500; i++) {
				if (rnd(20) == 0)
					continue;
				if (rnd(20) == 0)
					b[m++] = rnd(k);
				b[m++] = a[i];
			}
		} else
			for (i = 0; i < m; i++)
				b[i] = rnd(k);
		want = dp(a, n, b, m);
		got = trc_lcs(a, n, b, m, &st);
		bad_l += got != want || st.d != (int64_t)(n + m) - 2 * want;
		bad_m += trc_lcs_myers(a, n, b, m, 0, NULL) != want;
		bad_b += trc_lcs_bitpar(a, n, b, m) != want;
		nh = trc_lcs_hunks(a, n, b, m, 0, h, 64);
		if (nh < 64)
			bad_h += !hunks_align(a, n, b, m, h, nh, &edits) ||
			    edits != (size_t)(n + m - 2 * want);
		/* The whole alignment: n - LCS of a, m - LCS of b. */
		col.n = 0;
		col.overflow = 0;
		bad_a += trc_lcs_align(a, n, b, m, collect_cb, &col) != 0 ||
		    col.overflow || !hunks_align(a, n, b, m, col.h,
		    (long)col.n, &edits) || edits != (size_t)(n + m - 2 * want);
	}
	is_int(bad_a, 0, "trc_lcs_align is a minimal alignment on 3000 random pairs");
	is_int(bad_l, 0, "trc_lcs equals the DP on 3000 random pairs");
	is_int(bad_m, 0, "Myers equals the DP on 3000 random pairs");
	is_int(bad_b, 0, "bit-parallel equals the DP on 3000 random pairs");
	is_int(bad_h, 0, "hunks are minimal alignments on 3000 random pairs");

	/* A tiny budget makes Myers give up with -2. */
	n = tok("ABCDEFGHIJ", a);
	m = tok("JIHGFEDCBA", b);
	is_int(trc_lcs_myers(a, n, b, m, 5, NULL), -2, "Myers gives up at budget");

	{
		/* Long strings, LCS known by construction: delete k tokens
		 * of a and insert fresh tokens that match nothing, so
		 * LCS = n - k exactly. */
		size_t N = 200000, k = 0, j;
		uint32_t *A = malloc(N * sizeof(*A)), *B = malloc(2 * N * sizeof(*B));
		uint32_t fresh = 1u << 30;

		for (i = 0; i < N; i++)
			A[i] = (uint32_t)(i % 7) + (rnd(50) == 0 ? rnd(5) : 0);
		for (i = j = 0; i < N; i++) {
			if (rnd(10000) == 0) {
				k++;
				B[j++] = fresh++;
				continue;
			}
			B[j++] = A[i];
			if (rnd(10000) == 0)
				B[j++] = fresh++;
		}
		is_int(trc_lcs(A, N, B, j, &st), (int64_t)(N - k),
		    "200000 tokens, 0.01% edits: LCS = n - deletions");
		ok(st.algo == TRC_LCS_MYERS, "similar strings take Myers");
		is_int(trc_lcs_bitpar(A, N, B, j), (int64_t)(N - k),
		    "bit-parallel agrees on 200000 tokens");
		nh = trc_lcs_hunks(A, N, B, j, 0, h, 64);
		ok(nh > 0 && hunks_align(A, N, B, j, h, nh < 64 ? nh : 0, &edits),
		    "hunks of the long strings align");

		/* Far apart: random strings, bit-parallel must take over. */
		for (i = 0; i < 20000; i++) {
			A[i] = rnd(4);
			B[i] = rnd(4);
		}
		{
			int64_t want = dp(A, 2000, B, 2000);

			is_int(trc_lcs(A, 2000, B, 2000, &st), want,
			    "random 2000 x 2000 over 4 tokens equals the DP");
			ok(st.algo == TRC_LCS_BITPAR, "and takes the bit-parallel path");
		}
		nh = trc_lcs_hunks(A, 20000, B, 20000, 500, h, 64);
		ok(nh > 0 && h[0].a == st.prefix && h[0].b == st.prefix,
		    "windowed hunks start at the first difference");
		free(A);
		free(B);
	}
	return done_testing();
}
