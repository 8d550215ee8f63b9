/*
 * trc_summary.h - what trc-sum counts, kept apart so that other tools
 * (trc-sum --vs, benchmarks) can use the same numbers.
 */
#ifndef TRC_SUMMARY_H
#define TRC_SUMMARY_H

#include <stdint.h>

/* The activity of the interval after an event (DESIGN.md section 2). */
enum trc_activity {
	TRC_ACT_COMP, TRC_ACT_SEND, TRC_ACT_RECV, TRC_ACT_WAIT, TRC_ACT_COLL,
	TRC_NACT
};

struct trc_stat {
	int64_t	 n, total, min, max;
};

struct trc_region {
	int32_t	 label;
	int64_t	 start;
};

struct trc_rank_sum {
	int64_t			 events, first, last;
	int64_t			 act[TRC_NACT];
	enum trc_activity	 cur;
	int64_t			 call_start;	/* of the open SB, RB, WB or XB */
	struct trc_region	*stack;
	int			 depth, cap;
};

struct trc_op_sum {
	int64_t	 count, bytes, time;
};

#define TRC_SUM_RANKS	1u
#define TRC_SUM_PROCS	2u
#define TRC_SUM_OPS	4u
#define TRC_SUM_SIZES	8u
#define TRC_SUM_ALL	15u
#define TRC_SIZE_BUCKETS 64

struct trc_summary {
	int32_t			 nranks;
	struct trc_rank_sum	*rank;
	struct trc_intern	 labels;	/* procedure labels */
	struct trc_intern	 ops;		/* operation names */
	/* Per label and rank: lifetimes of PB..PE and computation time
	 * with the label innermost; rows grow with ranks. */
	struct trc_stat		**life;
	int64_t			**comp;
	int32_t			 cap_ranks;
	struct trc_op_sum	*op;
	/* Sent messages by size: bucket 0 holds 0 bytes, bucket k
	 * holds sizes in [2^(k-1), 2^k). */
	int64_t			 size_count[TRC_SIZE_BUCKETS];
	int64_t			 size_bytes[TRC_SIZE_BUCKETS];
	const char		*error;
	char			 errbuf[256];
};

struct trc_summary *trc_summary_new(void);
/* Adds one event; -1 with trc_summary_error() on inconsistent input. */
int	 trc_summary_add(struct trc_summary *, const struct trc_event *);
/* Checks that every region is closed; -1 with the error if not. */
int	 trc_summary_finish(struct trc_summary *);
const char *trc_summary_error(const struct trc_summary *);
void	 trc_summary_free(struct trc_summary *);
/* Parses "ranks,procs,ops,sizes" into TRC_SUM_* bits. */
int	 trc_summary_sections(const char *, unsigned *);

#endif
