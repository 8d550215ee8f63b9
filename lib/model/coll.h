/*
 * coll.h - collectives built from point-to-point messages (private to
 * lib/model/): the algorithm an MPI library picks for an operation, a
 * rank count and a size, and its cost in rounds of messages, so that
 * a collective's cost grows with the ranks as the library's does.
 */
#ifndef TRC_MODEL_COLL_H
#define TRC_MODEL_COLL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A machine's point-to-point costs, in seconds. */
struct coll_net {
	/* One message of bytes between two ranks, from the sender's
	 * call to the end of the receiver's. */
	double	 (*msg)(const void *arg, double bytes);
	const void	*arg;
	double		 gamma;		/* reducing, per byte */
};

enum coll_alg {
	COLL_NONE,		/* not a collective modelled here */
	COLL_BINOMIAL,		/* binomial tree, the whole buffer a round */
	COLL_BINOMIAL_GROW,	/* binomial gather or scatter: blocks double */
	COLL_SCATTER_ALLGATHER,	/* binomial scatter, ring allgather */
	COLL_REDUCE_BCAST,	/* binomial reduce, then binomial bcast */
	COLL_RECDOUBLING,	/* recursive doubling (dissemination) */
	COLL_BRUCK,		/* Bruck: ceil(log2 p) rounds of growing blocks */
	COLL_RING,		/* p - 1 rounds (twice for allreduce) of m / p */
	COLL_RABENSEIFNER,	/* recursive halving, then doubling */
	COLL_PAIRWISE		/* p - 1 exchanges of one block */
};

/*
 * The algorithm for op[0..len) ("allreduce", "bcast", ...; a v-variant
 * as its operation) on p ranks with bytes= bytes, or COLL_NONE.
 */
enum coll_alg trc_coll_alg(const char *op, size_t len, int32_t p,
	    int64_t bytes);
const char *trc_coll_alg_name(enum coll_alg);
/* Its cost in seconds on net, -1 for COLL_NONE. */
double	 trc_coll_cost(const struct coll_net *, const char *op, size_t len,
	    int32_t p, int64_t bytes);

/*
 * The last collective a model costed: every participant of an
 * instance asks the same, one after another.
 */
struct coll_memo {
	char		 op[24];
	size_t		 oplen;		/* 0: none yet */
	int64_t		 bytes;
	int32_t		 size;
	int64_t		 ns;		/* its cost, -1: the model knows none */
};

/* 1 with the cost in *ns when m holds op, bytes and size, else 0. */
static inline int
trc_coll_memo_get(const struct coll_memo *m, const char *op, size_t len,
    int64_t bytes, int32_t size, int64_t *ns)
{
	if (m->oplen != len || m->bytes != bytes || m->size != size ||
	    len == 0 || memcmp(m->op, op, len) != 0)
		return 0;
	*ns = m->ns;
	return 1;
}

static inline void
trc_coll_memo_put(struct coll_memo *m, const char *op, size_t len,
    int64_t bytes, int32_t size, int64_t ns)
{
	if (len > sizeof(m->op))
		return;
	memcpy(m->op, op, len);
	m->oplen = len;
	m->bytes = bytes;
	m->size = size;
	m->ns = ns;
}

#endif
