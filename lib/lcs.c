/*
 * lcs.c - longest common subsequence of token strings in linear memory.
 *
 * Two algorithms, because traces compared for stability are usually
 * almost the same and occasionally not at all:
 *
 * - Myers' greedy algorithm (Algorithmica 1, 1986), O((n+m)D) time and
 *   O(n+m) memory: fast when the shortest edit script D is short.  The
 *   alignment uses its middle-snake recursion, as GNU diff does, so it
 *   needs no more memory than the length does.
 * - The bit-parallel algorithm of Allison and Dix (1986) in Hyyro's
 *   form (2004): one bit per token of the shorter string, each token of
 *   the longer one updates the vector with an add, an and and an or,
 *   O(nm/64) time whatever D is.
 *
 * trc_lcs() runs Myers with a work budget equal to what the
 * bit-parallel run would cost and falls back to it when the budget is
 * spent, so it is never much slower than the better of the two.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "trc_lcs.h"

/*
 * Measured: a Myers step (a diagonal, or a slide along one) costs about
 * 8 bit-parallel word steps, its branches and scattered reads being
 * what they are; so Myers gets the steps that take as long as the
 * bit-parallel run would, and the worst case is about twice the better.
 */
#define WORDS_PER_MYERS	8
#define DEFAULT_WINDOW	4096

/*
 * An empty string may come as NULL (a rank without events); offsets
 * from NULL are undefined even when 0, so it becomes a real empty array.
 */
static const uint32_t noevents[1];
#define NONNULL(x)	((x) != NULL ? (x) : noevents)

static size_t
strip_prefix(const uint32_t *a, size_t n, const uint32_t *b, size_t m)
{
	size_t i, lim = n < m ? n : m;

	for (i = 0; i < lim && a[i] == b[i]; i++)
		continue;
	return i;
}

static size_t
strip_suffix(const uint32_t *a, size_t n, const uint32_t *b, size_t m)
{
	size_t i, lim = n < m ? n : m;

	for (i = 0; i < lim && a[n - 1 - i] == b[m - 1 - i]; i++)
		continue;
	return i;
}

int64_t
trc_lcs_myers(const uint32_t *a, size_t n, const uint32_t *b, size_t m,
    uint64_t maxwork, uint64_t *workp)
{
	ptrdiff_t *buf, *fd, N = (ptrdiff_t)n, M = (ptrdiff_t)m;
	ptrdiff_t dmin = -M, dmax = N, fmin = 0, fmax = 0, goal = N - M;
	ptrdiff_t c, d, x, y;
	uint64_t work = 0;
	int64_t r = -1;

	if (n == 0 || m == 0) {
		if (workp != NULL)
			*workp = 0;
		return 0;
	}
	/* Diagonals dmin-1 .. dmax+1, k = x - y. */
	if ((buf = malloc((n + m + 3) * sizeof(*buf))) == NULL)
		return -1;
	fd = buf + M + 1;
	for (x = 0; x < N && x < M && a[x] == b[x]; x++)
		continue;
	work = (uint64_t)x + 1;
	fd[0] = x;
	if (goal == 0 && x == N) {
		r = (int64_t)n;
		goto out;
	}
	for (c = 1;; c++) {
		if (fmin > dmin)
			fd[--fmin - 1] = -1;
		else
			++fmin;
		if (fmax < dmax)
			fd[++fmax + 1] = -1;
		else
			--fmax;
		for (d = fmax; d >= fmin; d -= 2) {
			ptrdiff_t tlo = fd[d - 1], thi = fd[d + 1], x0;

			x0 = tlo < thi ? thi : tlo + 1;
			for (x = x0, y = x0 - d; x < N && y < M && a[x] == b[y];
			    x++, y++)
				continue;
			work += (uint64_t)(x - x0) + 1;
			fd[d] = x;
			if (d == goal && x >= N) {
				r = ((int64_t)n + (int64_t)m - c) / 2;
				goto out;
			}
		}
		if (maxwork != 0 && work > maxwork) {
			r = -2;
			goto out;
		}
	}
out:
	free(buf);
	if (workp != NULL)
		*workp = work;
	return r;
}

/* Open addressing from token to slot, for the bit-parallel masks. */
struct tokmap {
	uint32_t	*key;
	int32_t		*slot;		/* -1: empty */
	size_t		 mask;
};

static size_t
tok_hash(uint32_t t)
{
	return (size_t)((t * UINT32_C(2654435761)) ^ (t >> 15));
}

static int32_t
tok_find(const struct tokmap *tm, uint32_t t)
{
	size_t i;

	for (i = tok_hash(t) & tm->mask; tm->slot[i] >= 0; i = (i + 1) & tm->mask)
		if (tm->key[i] == t)
			return tm->slot[i];
	return -1;
}

int64_t
trc_lcs_bitpar(const uint32_t *a, size_t n, const uint32_t *b, size_t m)
{
	const uint32_t *s, *t;
	struct tokmap tm = { NULL, NULL, 0 };
	uint64_t *V = NULL, *dense = NULL, *pmask = NULL;
	uint32_t *cnt = NULL, *lastw = NULL, *npair = NULL, *pword = NULL;
	int32_t *denseidx = NULL, *tokslot = NULL;
	size_t *pstart = NULL;
	size_t slen, tlen, nw, i, j, nslot = 0, ndense = 0, cap;
	int64_t r = -1, zeros;

	if (n == 0 || m == 0)
		return 0;
	/* The vector side is the shorter: less memory, same time. */
	if (n <= m) {
		s = a; slen = n; t = b; tlen = m;
	} else {
		s = b; slen = m; t = a; tlen = n;
	}
	nw = (slen + 63) / 64;
	for (cap = 16; cap < 2 * slen; cap *= 2)
		continue;
	tm.mask = cap - 1;
	if ((tm.key = malloc(cap * sizeof(*tm.key))) == NULL ||
	    (tm.slot = malloc(cap * sizeof(*tm.slot))) == NULL ||
	    (tokslot = malloc(slen * sizeof(*tokslot))) == NULL)
		goto out;
	memset(tm.slot, 0xff, cap * sizeof(*tm.slot));
	for (i = 0; i < slen; i++) {
		size_t h;

		for (h = tok_hash(s[i]) & tm.mask; tm.slot[h] >= 0 &&
		    tm.key[h] != s[i]; h = (h + 1) & tm.mask)
			continue;
		if (tm.slot[h] < 0) {
			tm.key[h] = s[i];
			tm.slot[h] = (int32_t)nslot++;
		}
		tokslot[i] = tm.slot[h];
	}
	if ((cnt = calloc(nslot, sizeof(*cnt))) == NULL ||
	    (denseidx = malloc(nslot * sizeof(*denseidx))) == NULL ||
	    (lastw = malloc(nslot * sizeof(*lastw))) == NULL ||
	    (npair = calloc(nslot, sizeof(*npair))) == NULL ||
	    (pstart = malloc((nslot + 1) * sizeof(*pstart))) == NULL)
		goto out;
	for (i = 0; i < slen; i++)
		cnt[tokslot[i]]++;
	/*
	 * A token frequent enough to touch every word gets a full mask;
	 * at most 64 do, so masks take at most slen words.  The others
	 * keep (word, bits) pairs and update only the words they touch.
	 */
	for (i = 0; i < nslot; i++) {
		denseidx[i] = cnt[i] >= nw ? (int32_t)ndense++ : -1;
		lastw[i] = UINT32_MAX;
	}
	if ((dense = calloc(ndense * nw + 1, sizeof(*dense))) == NULL)
		goto out;
	for (i = 0; i < slen; i++) {
		int32_t k = tokslot[i];

		if (denseidx[k] >= 0)
			dense[(size_t)denseidx[k] * nw + i / 64] |=
			    UINT64_C(1) << (i % 64);
		else if (lastw[k] != i / 64) {
			lastw[k] = (uint32_t)(i / 64);
			npair[k]++;
		}
	}
	pstart[0] = 0;
	for (i = 0; i < nslot; i++)
		pstart[i + 1] = pstart[i] + npair[i];
	if ((pword = malloc((pstart[nslot] + 1) * sizeof(*pword))) == NULL ||
	    (pmask = calloc(pstart[nslot] + 1, sizeof(*pmask))) == NULL)
		goto out;
	for (i = 0; i < nslot; i++) {
		npair[i] = 0;
		lastw[i] = UINT32_MAX;
	}
	for (i = 0; i < slen; i++) {
		int32_t k = tokslot[i];
		size_t p;

		if (denseidx[k] >= 0)
			continue;
		if (lastw[k] != i / 64) {
			lastw[k] = (uint32_t)(i / 64);
			p = pstart[k] + npair[k]++;
			pword[p] = (uint32_t)(i / 64);
		} else
			p = pstart[k] + npair[k] - 1;
		pmask[p] |= UINT64_C(1) << (i % 64);
	}
	free(tokslot);
	tokslot = NULL;

	if ((V = malloc(nw * sizeof(*V))) == NULL)
		goto out;
	memset(V, 0xff, nw * sizeof(*V));
	for (j = 0; j < tlen; j++) {
		int32_t k = tok_find(&tm, t[j]);
		uint64_t carry = 0, v, u, sum, sum2;

		if (k < 0)
			continue;	/* matches nothing: V stays */
		if (denseidx[k] >= 0) {
			const uint64_t *M = dense + (size_t)denseidx[k] * nw;

			for (i = 0; i < nw; i++) {
				v = V[i];
				u = v & M[i];
				sum = v + u;
				sum2 = sum + carry;
				carry = (sum < v) | (sum2 < sum);
				V[i] = sum2 | (v & ~M[i]);
			}
		} else {
			size_t p, pos = 0;

			for (p = pstart[k]; p < pstart[k + 1]; p++) {
				size_t w = pword[p];

				/* Words without bits only pass a carry on. */
				for (; carry && pos < w; pos++) {
					v = V[pos];
					V[pos] = (v + 1) | v;
					carry = v + 1 == 0;
				}
				v = V[w];
				u = v & pmask[p];
				sum = v + u;
				sum2 = sum + carry;
				carry = (sum < v) | (sum2 < sum);
				V[w] = sum2 | (v & ~pmask[p]);
				pos = w + 1;
			}
			for (; carry && pos < nw; pos++) {
				v = V[pos];
				V[pos] = (v + 1) | v;
				carry = v + 1 == 0;
			}
		}
	}
	/* The LCS is the number of zero bits among the first slen. */
	zeros = 0;
	for (i = 0; i < nw; i++) {
		uint64_t w = ~V[i];

		if (i == nw - 1 && slen % 64 != 0)
			w &= (UINT64_C(1) << (slen % 64)) - 1;
		zeros += __builtin_popcountll(w);
	}
	r = zeros;
out:
	free(tm.key);
	free(tm.slot);
	free(tokslot);
	free(cnt);
	free(denseidx);
	free(lastw);
	free(npair);
	free(pstart);
	free(pword);
	free(pmask);
	free(dense);
	free(V);
	return r;
}

int64_t
trc_lcs(const uint32_t *a, size_t n, const uint32_t *b, size_t m,
    struct trc_lcs_stat *st)
{
	struct trc_lcs_stat dummy;
	size_t p, q, sn, lo, hi;
	uint64_t budget, work = 0;
	int64_t r;

	a = NONNULL(a);
	b = NONNULL(b);
	if (st == NULL)
		st = &dummy;
	memset(st, 0, sizeof(*st));
	p = strip_prefix(a, n, b, m);
	q = strip_suffix(a + p, n - p, b + p, m - p);
	st->prefix = p;
	st->suffix = q;
	a += p;
	b += p;
	n -= p + q;
	m -= p + q;
	if (n == 0 || m == 0) {
		st->algo = TRC_LCS_TRIVIAL;
		st->d = (int64_t)(n + m);
		return (int64_t)(p + q);
	}
	lo = n < m ? n : m;
	hi = n < m ? m : n;
	sn = (lo + 63) / 64;
	budget = (uint64_t)sn * hi / WORDS_PER_MYERS + n + m;
	r = trc_lcs_myers(a, n, b, m, budget, &work);
	st->work = work;
	st->algo = TRC_LCS_MYERS;
	if (r == -2) {
		st->algo = TRC_LCS_BITPAR;
		r = trc_lcs_bitpar(a, n, b, m);
		st->work += (uint64_t)sn * hi;
	}
	if (r < 0)
		return -1;
	st->d = (int64_t)(n + m) - 2 * r;
	return r + (int64_t)(p + q);
}

/*
 * The alignment: the divide and conquer of Myers' section 4b, as in
 * GNU diff's diffseq.h with its heuristics off, so the script is minimal.
 */
struct align {
	const uint32_t	*a, *b;
	ptrdiff_t	*fd, *bd;
	size_t		 base;		/* added to every a and b index */
	struct trc_lcs_hunk *h;
	size_t		 max, nh;
	int		 stop;
	/* trc_lcs_align: every hunk goes to cb instead of h. */
	void		(*cb)(void *, const struct trc_lcs_hunk *);
	void		*arg;
};

static void
emit(struct align *al, ptrdiff_t x0, ptrdiff_t x1, ptrdiff_t y0, ptrdiff_t y1)
{
	struct trc_lcs_hunk *last;

	if (al->stop)
		return;
	if (al->cb != NULL) {
		struct trc_lcs_hunk h;

		h.a = (size_t)x0 + al->base;
		h.alen = (size_t)(x1 - x0);
		h.b = (size_t)y0 + al->base;
		h.blen = (size_t)(y1 - y0);
		al->cb(al->arg, &h);
		return;
	}
	last = al->nh > 0 ? &al->h[al->nh - 1] : NULL;
	if (last != NULL && last->a + last->alen == (size_t)x0 + al->base &&
	    last->b + last->blen == (size_t)y0 + al->base) {
		last->alen += (size_t)(x1 - x0);
		last->blen += (size_t)(y1 - y0);
		return;
	}
	if (al->nh == al->max) {
		al->stop = 1;
		return;
	}
	al->h[al->nh].a = (size_t)x0 + al->base;
	al->h[al->nh].alen = (size_t)(x1 - x0);
	al->h[al->nh].b = (size_t)y0 + al->base;
	al->h[al->nh].blen = (size_t)(y1 - y0);
	al->nh++;
}

/* The middle snake of a[xoff..xlim) and b[yoff..ylim), both nonempty. */
static void
middle(struct align *al, ptrdiff_t xoff, ptrdiff_t xlim, ptrdiff_t yoff,
    ptrdiff_t ylim, ptrdiff_t *xmid, ptrdiff_t *ymid)
{
	const uint32_t *a = al->a, *b = al->b;
	ptrdiff_t *fd = al->fd, *bd = al->bd;
	ptrdiff_t dmin = xoff - ylim, dmax = xlim - yoff;
	ptrdiff_t fmid = xoff - yoff, bmid = xlim - ylim;
	ptrdiff_t fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;
	ptrdiff_t d, x, y, tlo, thi, x0;
	int odd = (fmid - bmid) & 1;

	fd[fmid] = xoff;
	bd[bmid] = xlim;
	for (;;) {
		if (fmin > dmin)
			fd[--fmin - 1] = -1;
		else
			++fmin;
		if (fmax < dmax)
			fd[++fmax + 1] = -1;
		else
			--fmax;
		for (d = fmax; d >= fmin; d -= 2) {
			tlo = fd[d - 1];
			thi = fd[d + 1];
			x0 = tlo < thi ? thi : tlo + 1;
			for (x = x0, y = x0 - d; x < xlim && y < ylim &&
			    a[x] == b[y]; x++, y++)
				continue;
			fd[d] = x;
			if (odd && bmin <= d && d <= bmax && bd[d] <= x) {
				*xmid = x;
				*ymid = y;
				return;
			}
		}
		if (bmin > dmin)
			bd[--bmin - 1] = PTRDIFF_MAX;
		else
			++bmin;
		if (bmax < dmax)
			bd[++bmax + 1] = PTRDIFF_MAX;
		else
			--bmax;
		for (d = bmax; d >= bmin; d -= 2) {
			tlo = bd[d - 1];
			thi = bd[d + 1];
			x0 = tlo < thi ? tlo : thi - 1;
			for (x = x0, y = x0 - d; xoff < x && yoff < y &&
			    a[x - 1] == b[y - 1]; x--, y--)
				continue;
			bd[d] = x;
			if (!odd && fmin <= d && d <= fmax && x <= fd[d]) {
				*xmid = x;
				*ymid = y;
				return;
			}
		}
	}
}

static void
compareseq(struct align *al, ptrdiff_t xoff, ptrdiff_t xlim, ptrdiff_t yoff,
    ptrdiff_t ylim)
{
	const uint32_t *a = al->a, *b = al->b;
	ptrdiff_t xmid, ymid;

	if (al->stop)
		return;
	while (xoff < xlim && yoff < ylim && a[xoff] == b[yoff])
		xoff++, yoff++;
	while (xoff < xlim && yoff < ylim && a[xlim - 1] == b[ylim - 1])
		xlim--, ylim--;
	if (xoff == xlim) {
		if (yoff < ylim)
			emit(al, xoff, xoff, yoff, ylim);
	} else if (yoff == ylim)
		emit(al, xoff, xlim, yoff, yoff);
	else {
		middle(al, xoff, xlim, yoff, ylim, &xmid, &ymid);
		compareseq(al, xoff, xmid, yoff, ymid);
		compareseq(al, xmid, xlim, ymid, ylim);
	}
}

long
trc_lcs_hunks(const uint32_t *a, size_t n, const uint32_t *b, size_t m,
    size_t window, struct trc_lcs_hunk *h, size_t max)
{
	struct align al;
	ptrdiff_t *buf;
	size_t p, q, sn, lo, hi, wn, wm;
	uint64_t budget;
	int64_t r;
	int cut = 0;

	a = NONNULL(a);
	b = NONNULL(b);
	if (max == 0)
		return 0;
	if (window == 0)
		window = DEFAULT_WINDOW;
	p = strip_prefix(a, n, b, m);
	q = strip_suffix(a + p, n - p, b + p, m - p);
	wn = n - p - q;
	wm = m - p - q;
	if (wn > 0 && wm > 0) {
		lo = wn < wm ? wn : wm;
		hi = wn < wm ? wm : wn;
		sn = (lo + 63) / 64;
		budget = (uint64_t)sn * hi / WORDS_PER_MYERS + wn + wm;
		r = trc_lcs_myers(a + p, wn, b + p, wm, budget, NULL);
		if (r == -1)
			return -1;
		if (r == -2) {
			/* Too far apart: align the first differences only. */
			cut = 1;
			wn = n - p < window ? n - p : window;
			wm = m - p < window ? m - p : window;
		}
	}
	memset(&al, 0, sizeof(al));
	al.a = a + p;
	al.b = b + p;
	al.base = p;
	al.h = h;
	al.max = max;
	if ((buf = malloc(2 * (wn + wm + 3) * sizeof(*buf))) == NULL)
		return -1;
	al.fd = buf + wm + 1;
	al.bd = al.fd + (wn + wm + 3);
	compareseq(&al, 0, (ptrdiff_t)wn, 0, (ptrdiff_t)wm);
	free(buf);
	/* A hunk that runs into a cut window edge may be an artefact. */
	while (cut && al.nh > 1) {
		struct trc_lcs_hunk *l = &al.h[al.nh - 1];

		if ((wn < n - p && l->a + l->alen == p + wn) ||
		    (wm < m - p && l->b + l->blen == p + wm))
			al.nh--;
		else
			break;
	}
	return (long)al.nh;
}

int
trc_lcs_align(const uint32_t *a, size_t n, const uint32_t *b, size_t m,
    void (*cb)(void *, const struct trc_lcs_hunk *), void *arg)
{
	struct align al;
	ptrdiff_t *buf;
	size_t p, wn, wm;

	a = NONNULL(a);
	b = NONNULL(b);
	p = strip_prefix(a, n, b, m);
	wn = n - p;
	wm = m - p;
	memset(&al, 0, sizeof(al));
	al.a = a + p;
	al.b = b + p;
	al.base = p;
	al.cb = cb;
	al.arg = arg;
	if ((buf = malloc(2 * (wn + wm + 3) * sizeof(*buf))) == NULL)
		return -1;
	al.fd = buf + wm + 1;
	al.bd = al.fd + (wn + wm + 3);
	compareseq(&al, 0, (ptrdiff_t)wn, 0, (ptrdiff_t)wm);
	free(buf);
	return 0;
}
