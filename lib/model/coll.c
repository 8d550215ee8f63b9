/*
 * coll.c - collectives from point-to-point messages (coll.h), costed
 * as Thakur, Rabenseifner and Gropp, "Optimization of Collective
 * Communication Operations in MPICH" (2005) cost them: each round a
 * rank sends one message and receives one, t(b) on the machine, and a
 * reduction adds gamma per byte it combines.  The choice of algorithm
 * follows Open MPI's coll/tuned fixed decision rules, reduced to the
 * algorithms modelled here (trc-scale(1) lists them).
 *
 * p ranks, m the bytes= of the operation, lg = ceil(log2 p), q the
 * largest power of two not above p:
 *	binomial	lg t(m)			(bcast; reduce + lg gamma m)
 *	binomial_grow	sum over k < lg of t(m 2^k)	(gather, scatter)
 *	scatter_allgather  sum over k = 1..lg of t(m / 2^k)
 *			+ (p - 1) t(m / p)	(bcast)
 *	reduce_bcast	2 lg t(m) + lg gamma m	(allreduce)
 *	recdoubling	log2 q (t(m) + gamma m), and for p > q two more
 *			rounds to fold and unfold the rest	(allreduce;
 *			barrier: lg t(0))
 *	bruck		sum over k < lg of t(m min(2^k, p - 2^k))
 *			(allgather; alltoall: lg t(m p / 2))
 *	ring		2 (p - 1) t(m / p) + (p - 1) gamma m / p (allreduce);
 *			(p - 1) t(m)	(allgather)
 *	rabenseifner	sum over k = 1..log2 q of 2 t(m / 2^k) + gamma m / 2^k,
 *			and for p > q the fold and unfold	(allreduce)
 *	pairwise	(p - 1) t(m)	(alltoall)
 */
#include <string.h>

#include "coll.h"

static const char *const names[] = {
	"none", "binomial", "binomial_grow", "scatter_allgather",
	"reduce_bcast", "recursive_doubling", "bruck", "ring",
	"rabenseifner", "pairwise"
};

enum op { BARRIER, BCAST, REDUCE, ALLREDUCE, GATHER, SCATTER, ALLGATHER,
	ALLTOALL, NOP };

static const struct {
	const char	*name;
	enum op		 op;
} ops[] = {
	{ "barrier", BARRIER }, { "bcast", BCAST }, { "reduce", REDUCE },
	{ "allreduce", ALLREDUCE }, { "gather", GATHER },
	{ "gatherv", GATHER }, { "scatter", SCATTER },
	{ "scatterv", SCATTER }, { "allgather", ALLGATHER },
	{ "allgatherv", ALLGATHER }, { "alltoall", ALLTOALL },
	{ "alltoallv", ALLTOALL },
};

static enum op
opof(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strlen(ops[i].name) == len &&
		    memcmp(ops[i].name, s, len) == 0)
			return ops[i].op;
	return NOP;
}

/*
 * Open MPI 4.1's fixed rule for a commutative allreduce, by
 * communicator size and bytes: its algorithms 2 (nonoverlapping, a
 * reduce then a bcast), 3 (recursive doubling), 4 and 5 (ring,
 * segmented ring) and 6 (Rabenseifner).
 */
static enum coll_alg
allreduce(int32_t p, int64_t m)
{
	static const struct {
		int32_t		 below;		/* ranks */
		int		 n;
		struct { int64_t below; enum coll_alg a; } r[8];
	} t[] = {
		{ 4, 7, { { 8, COLL_RING }, { 4096, COLL_RECDOUBLING },
		    { 8192, COLL_RING }, { 16384, COLL_RECDOUBLING },
		    { 65536, COLL_RING }, { 262144, COLL_RING },
		    { INT64_MAX, COLL_RABENSEIFNER } } },
		{ 8, 3, { { 16, COLL_RING }, { 8192, COLL_RECDOUBLING },
		    { INT64_MAX, COLL_RABENSEIFNER } } },
		{ 16, 2, { { 8192, COLL_RECDOUBLING },
		    { INT64_MAX, COLL_RABENSEIFNER } } },
		{ 32, 3, { { 64, COLL_RING }, { 4096, COLL_RECDOUBLING },
		    { INT64_MAX, COLL_RABENSEIFNER } } },
		{ 64, 2, { { 128, COLL_RING },
		    { INT64_MAX, COLL_RABENSEIFNER } } },
		{ 128, 2, { { 262144, COLL_RECDOUBLING },
		    { INT64_MAX, COLL_RABENSEIFNER } } },
		{ 256, 3, { { 131072, COLL_REDUCE_BCAST },
		    { 262144, COLL_RECDOUBLING },
		    { INT64_MAX, COLL_RABENSEIFNER } } },
		{ 512, 2, { { 4096, COLL_REDUCE_BCAST },
		    { INT64_MAX, COLL_RABENSEIFNER } } },
		{ 2048, 3, { { 2048, COLL_REDUCE_BCAST },
		    { 16384, COLL_RECDOUBLING },
		    { INT64_MAX, COLL_RABENSEIFNER } } },
		{ 4096, 4, { { 2048, COLL_REDUCE_BCAST },
		    { 4096, COLL_RING }, { 16384, COLL_RECDOUBLING },
		    { INT64_MAX, COLL_RABENSEIFNER } } },
		{ INT32_MAX, 4, { { 2048, COLL_REDUCE_BCAST },
		    { 16384, COLL_RING }, { 32768, COLL_RECDOUBLING },
		    { INT64_MAX, COLL_RABENSEIFNER } } },
	};
	size_t i;
	int j;

	for (i = 0; p >= t[i].below; i++)
		;
	for (j = 0; m >= t[i].r[j].below; j++)
		;
	/* Both rings hand a count smaller than the ranks to recursive
	 * doubling, and the rule picks them for such counts on purpose
	 * (under 8 bytes on 2 or 3 ranks).  The trace gives bytes, not
	 * the count: elements are taken as 4 bytes (int, float), the
	 * smallest the reductions are usually made on. */
	if (t[i].r[j].a == COLL_RING && m / 4 < p)
		return COLL_RECDOUBLING;
	return t[i].r[j].a;
}

enum coll_alg
trc_coll_alg(const char *s, size_t len, int32_t p, int64_t m)
{
	switch (opof(s, len)) {
	case BARRIER:
		return COLL_RECDOUBLING;
	case BCAST:
		/* Open MPI picks scatter_allgather only for large buffers
		 * on many ranks; every tree it picks otherwise (binomial,
		 * k-nomial, binary, split binary, chain, linear) is taken
		 * as binomial. */
		return p >= 16 && m >= 1048576 ? COLL_SCATTER_ALLGATHER :
		    COLL_BINOMIAL;
	case REDUCE:
		return COLL_BINOMIAL;
	case ALLREDUCE:
		return allreduce(p, m);
	case GATHER:
	case SCATTER:
		return COLL_BINOMIAL_GROW;
	case ALLGATHER:
		/* Recursive doubling (Bruck on other counts) below 50000
		 * bytes in all, ring (or neighbour exchange) above. */
		return m * p < 50000 ? COLL_BRUCK : COLL_RING;
	case ALLTOALL:
		return p >= 16 && m < 512 ? COLL_BRUCK : COLL_PAIRWISE;
	case NOP:
		break;
	}
	return COLL_NONE;
}

const char *
trc_coll_alg_name(enum coll_alg a)
{
	return names[a];
}

int
trc_coll_rounds(int32_t p)
{
	int k = 0;

	while (k < 31 && ((int32_t)1 << k) < p)
		k++;
	return k;
}

double
trc_coll_cost(const struct coll_net *n, const char *s, size_t len, int32_t p,
    int64_t bytes)
{
	enum op op = opof(s, len);
	enum coll_alg a = trc_coll_alg(s, len, p, bytes);
	double m = (double)(bytes > 0 ? bytes : 0), t = 0, g, red;
	int lg, lq, k;
	int32_t q;

	if (a == COLL_NONE)
		return -1;
	if (p <= 1)
		return 0;
	lg = trc_coll_rounds(p);
	lq = (((int32_t)1 << lg) == p) ? lg : lg - 1;
	q = (int32_t)1 << lq;
	red = op == REDUCE || op == ALLREDUCE ? n->gamma : 0;
	if (op == BARRIER)
		m = 0;
	switch (a) {
	case COLL_NONE:
		break;
	case COLL_BINOMIAL:
		t = lg * (n->msg(n->arg, m) + red * m);
		break;
	case COLL_BINOMIAL_GROW:
		for (k = 0; k < lg; k++)
			t += n->msg(n->arg, m * (double)((int64_t)1 << k));
		break;
	case COLL_SCATTER_ALLGATHER:
		for (k = 1; k <= lg; k++)
			t += n->msg(n->arg, m / (double)((int64_t)1 << k));
		t += (p - 1) * n->msg(n->arg, m / p);
		break;
	case COLL_REDUCE_BCAST:
		t = lg * (2 * n->msg(n->arg, m) + red * m);
		break;
	case COLL_RECDOUBLING:
		if (op == BARRIER) {
			t = lg * n->msg(n->arg, 0);
			break;
		}
		t = lq * (n->msg(n->arg, m) + red * m);
		if (p > q)
			t += 2 * n->msg(n->arg, m) + red * m;
		break;
	case COLL_BRUCK:
		if (op == ALLTOALL) {
			t = lg * n->msg(n->arg, m * p / 2);
			break;
		}
		for (k = 0; k < lg; k++) {
			g = (double)((int64_t)1 << k);
			if (g > p - g)
				g = p - g;
			t += n->msg(n->arg, m * g);
		}
		break;
	case COLL_RING:
		if (op == ALLGATHER)
			t = (p - 1) * n->msg(n->arg, m);
		else
			t = 2 * (p - 1) * n->msg(n->arg, m / p) +
			    (p - 1) * red * m / p;
		break;
	case COLL_RABENSEIFNER:
		for (k = 1; k <= lq; k++) {
			g = m / (double)((int64_t)1 << k);
			t += 2 * n->msg(n->arg, g) + red * g;
		}
		if (p > q)
			t += 2 * n->msg(n->arg, m) + red * m;
		break;
	case COLL_PAIRWISE:
		t = (p - 1) * n->msg(n->arg, m);
		break;
	}
	return t;
}
