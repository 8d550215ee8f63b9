/*
 * trc_lcs.h - longest common subsequence of two token strings.
 *
 * Callers map events to uint32 tokens; equal tokens are equal events.
 * Memory is linear in the string lengths, never quadratic.  trc_lcs()
 * strips the common prefix and suffix, runs Myers' O((n+m)D) greedy
 * algorithm while its work stays below what the bit-parallel algorithm
 * would cost, and switches to the bit-parallel one (Allison-Dix,
 * Hyyro; O(nm/64) time) when the strings turn out to be far apart.
 */
#ifndef TRC_LCS_H
#define TRC_LCS_H

#include <stddef.h>
#include <stdint.h>

enum trc_lcs_algo {
	TRC_LCS_TRIVIAL,	/* one side empty after stripping */
	TRC_LCS_MYERS,
	TRC_LCS_BITPAR
};

struct trc_lcs_stat {
	size_t		 prefix;	/* common prefix stripped */
	size_t		 suffix;	/* common suffix stripped */
	enum trc_lcs_algo algo;		/* the algorithm that gave the answer */
	int64_t		 d;		/* insertions + deletions, n + m - 2 LCS */
	uint64_t	 work;		/* inner steps done, of both algorithms */
};

/*
 * The length of a longest common subsequence of a[0..n) and b[0..m),
 * or -1 when memory ran out.  st may be NULL.
 */
int64_t	 trc_lcs(const uint32_t *a, size_t n, const uint32_t *b, size_t m,
	    struct trc_lcs_stat *st);

/*
 * Myers' greedy algorithm alone, without stripping: the LCS length, -1
 * when memory ran out, -2 when more than maxwork steps would be needed
 * (0 means no limit).  *work, if not NULL, gets the steps done.
 */
int64_t	 trc_lcs_myers(const uint32_t *a, size_t n, const uint32_t *b,
	    size_t m, uint64_t maxwork, uint64_t *work);

/* The bit-parallel algorithm alone: the LCS length or -1. */
int64_t	 trc_lcs_bitpar(const uint32_t *a, size_t n, const uint32_t *b,
	    size_t m);

/*
 * One hunk of an alignment: a[a .. a+alen) is replaced by
 * b[b .. b+blen); one of the lengths may be 0.
 */
struct trc_lcs_hunk {
	size_t		 a, alen;
	size_t		 b, blen;
};

/*
 * The first hunks, at most max, of an alignment of a and b, in order.
 * It is a shortest edit script (the middle-snake recursion of diff)
 * when the strings are similar; when Myers' work would exceed the
 * budget, it aligns a window of the first window tokens after the
 * common prefix instead, so the first differences are still right
 * though later hunks may not be minimal.  window 0 means 4096.
 * Returns the number of hunks, or -1 when memory ran out.
 */
long	 trc_lcs_hunks(const uint32_t *a, size_t n, const uint32_t *b,
	    size_t m, size_t window, struct trc_lcs_hunk *h, size_t max);

/*
 * The whole alignment, a shortest edit script (no window, so it may
 * take O((n+m)D) time): cb gets every hunk in order, adjacent hunks
 * possibly split.  The events of a and b in no hunk are the common
 * subsequence, so the hunks hold n - LCS events of a and m - LCS of b.
 * Returns 0, or -1 when memory ran out.
 */
int	 trc_lcs_align(const uint32_t *a, size_t n, const uint32_t *b,
	    size_t m, void (*cb)(void *, const struct trc_lcs_hunk *),
	    void *arg);

#endif
