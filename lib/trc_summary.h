/*
 * trc_summary.h - what trc-sum counts, kept apart so that other tools
 * (trc-sum --vs, benchmarks) can use the same numbers.
 */
#ifndef TRC_SUMMARY_H
#define TRC_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

/* The activity of the interval after an event (DESIGN.md section 2). */
enum trc_activity {
	TRC_ACT_COMP, TRC_ACT_SEND, TRC_ACT_RECV, TRC_ACT_WAIT, TRC_ACT_COLL,
	TRC_NACT
};

struct trc_stat {
	int64_t	 n, total, min, max;
	int64_t	 first;		/* the first value */
	double	 dsum, dsq;	/* the sums of the values less it, and of
				 * their squares, ns and ns^2 */
};

/*
 * The coefficient of variation of the values (the standard deviation
 * over the mean, population form), 0 when fewer than 2 or a mean of 0.
 */
double	 trc_stat_cv(const struct trc_stat *);
/* The same of the values after the first, 0 when fewer than 2 of them. */
double	 trc_stat_cv_rest(const struct trc_stat *);

struct trc_region {
	int32_t	 label;
	size_t	 len;		/* of the label's name */
	int64_t	 start;
};

struct trc_rank_sum {
	int64_t			 events, first, last;
	int64_t			 act[TRC_NACT];
	int64_t			 comp;	/* computation on the summary's clock */
	enum trc_activity	 cur;
	int64_t			 call_start;	/* of the open SB, RB, WB or XB */
	struct trc_region	*stack;
	int			 depth, cap;
};

struct trc_op_sum {
	int64_t	 count, bytes, time;
	long	 first;		/* by rank: the line of its first event */
};

#define TRC_SUM_RANKS	1u
#define TRC_SUM_PROCS	2u
#define TRC_SUM_OPS	4u
#define TRC_SUM_SIZES	8u
#define TRC_SUM_ALL	15u	/* the default sections */
#define TRC_SUM_PROFILE	16u
#define TRC_SIZE_BUCKETS 64
#define TRC_RECENT	4	/* names looked up, kept (struct trc_summary) */

struct trc_summary {
	int32_t			 nranks;
	struct trc_rank_sum	*rank;
	struct trc_intern	 labels;	/* procedure labels */
	struct trc_intern	 ops;		/* operation names */
	/* Per label and rank: lifetimes of PB..PE and computation time
	 * with the label innermost (on the clock cpu says); rows grow
	 * with ranks. */
	struct trc_stat		**life;
	int64_t			**comp;
	/* By rank (trc_summary_add_run): each label's first line, so
	 * that labels and operations are listed as they first appear in
	 * the stream however the ranks came (trc_summary_order). */
	long			*label_first;
	int			 by_line;
	int32_t			 cap_ranks;
	/* The ranks that have events, sorted by trc_summary_finish: who
	 * walks the ranks walks these, and the pages of absent ranks in
	 * the arrays above are never touched (memory by ranks present). */
	int32_t			*present;
	int32_t			 npresent, cap_present;
	struct trc_op_sum	*op;
	/* The last operations and labels looked up, as names repeat in
	 * runs or take turns (master-worker's "task" and "collect", the
	 * heat solver's three procedures): compared by length and bytes
	 * before any hashing. */
	struct trc_name_hit {
		const char	*name;	/* interned, NUL-ended */
		size_t		 len;
		int32_t		 id;	/* -1: none yet */
	}			 last_op[TRC_RECENT], last_label[TRC_RECENT];
	/* Sent messages by size: bucket 0 holds 0 bytes, bucket k
	 * holds sizes in [2^(k-1), 2^k). */
	int64_t			 size_count[TRC_SIZE_BUCKETS];
	int64_t			 size_bytes[TRC_SIZE_BUCKETS];
	/* The occurrence the last event completed, for trc_versus:
	 * kind TRC_OCC_PROC (name in labels) or TRC_OCC_OP (in ops). */
	int			 occ_kind;
	int32_t			 occ_name;
	int64_t			 occ_life;
	/* The profile, when asked for: time per (operation, site) key
	 * and rank, keys "op\tsite" (site: the innermost region). */
	int			 profile;
	/* TRC_COMP_CPU, set before the first event: computation is timed
	 * by the events' cpu= where they carry one (trc-ratios), not by
	 * the wall clock; act[] and lifetimes stay on the wall clock. */
	int			 cpu;
	struct trc_intern	 prof_keys;
	int64_t			**prof;
	int32_t			*prof_n;	/* ranks per key row */
	int32_t			 prof_cap;
	const char		*error;
	char			 errbuf[256];
};

/*
 * A row of the profile, as mpiP gives it: an operation (or
 * "computation") at a site (the innermost region, "" outside), its
 * time summed over ranks and its share of the ranks' summed run time,
 * and its spread over the ranks (a rank that never ran it counts 0).
 */
struct trc_profile_row {
	char		 op[64];
	const char	*site;
	int64_t		 total, max, min;
	double		 mean, percent;
};

#define TRC_OCC_NONE	0
#define TRC_OCC_PROC	1
#define TRC_OCC_OP	2

struct trc_summary *trc_summary_new(void);
/* Adds one event; -1 with trc_summary_error() on inconsistent input. */
int	 trc_summary_add(struct trc_summary *, const struct trc_event *);
/* Adds n events in brief (trc_next_brief), for a summary without cpu
 * (s->cpu 0); *done of them before any error, whose occ_* is only the
 * last one's.  0, or -1 as trc_summary_add. */
int	 trc_summary_add_brief(struct trc_summary *, const struct trc_brief *,
	    size_t n, size_t *done);
/* Adds events i >= from of run (trc_next_run), each rank's in its
 * order, the ranks in any: *done as trc_summary_add_brief's, the
 * count from run->b; occ_* is not kept (trc_versus reads events).  A
 * summary takes runs or events, not both. */
int	 trc_summary_add_run(struct trc_summary *, const struct trc_run *,
	    size_t from, size_t *done);
/* Adds every run of a reader read by rank (trc_by_rank said 1), as
 * trc_next_run gives them and trc_summary_add_run takes them, a
 * summary's error at an event given back (trc_run_fail): trc_next_run's
 * return at the end, 0, or -1 with trc_error.  A reader that can hands
 * each event over as it decodes it (trcb). */
struct trc_reader;
int	 trc_summary_add_runs(struct trc_summary *, struct trc_reader *);
/* The ids of the labels (ops 0) or operations (1) in the order they
 * first appear in the stream, in a new array (free it); NULL when out
 * of memory. */
int32_t	*trc_summary_order(const struct trc_summary *, int ops);
/* Checks that every region is closed; -1 with the error if not. */
int	 trc_summary_finish(struct trc_summary *);
const char *trc_summary_error(const struct trc_summary *);
void	 trc_summary_free(struct trc_summary *);
/* Parses "ranks,procs,ops,sizes,profile" into TRC_SUM_* bits. */
int	 trc_summary_sections(const char *, unsigned *);
/*
 * The profile's rows, largest total first, in a new array of *n (free
 * it); s must have had s->profile set before its first event.  NULL
 * with *n 0 when out of memory or empty.
 */
struct trc_profile_row *trc_summary_profile(const struct trc_summary *s,
	    size_t *n);

/*
 * versus.c: the lifetimes of a predicted and an observed run paired
 * occurrence by occurrence, per procedure or operation and rank, as
 * the paper's Table 2 compares them.
 */
struct trc_pair {
	int64_t	 n;		/* occurrences paired */
	int64_t	 nratio;	/* of them with an observed lifetime > 0 */
	double	 ratio_sum;	/* sum of predicted / observed over those */
	int64_t	 pred, obs;	/* total lifetimes paired */
	int64_t	 unpaired[2];	/* left over at the end, per side */
	/* FIFO of lifetimes one side has and the other not yet. */
	int64_t	*queue;
	int	 side, head, len, cap;
};

struct trc_versus {
	struct trc_intern	 names;		/* "P:label" and "O:op" */
	struct trc_pair		**pair;		/* [name][rank] */
	int32_t			 nranks, cap_ranks;
	int64_t			 first[2], last[2];	/* run span per side */
	int64_t			 pending;
	int64_t			 occurrences[2];
	char			 err[TRC_ERRLEN + 512];	/* trc_versus_read's */
};

#define TRC_PREDICTED	0
#define TRC_OBSERVED	1

struct trc_versus *trc_versus_new(void);
/* Adds what ev completed on side (from s, which was just fed ev). */
int	 trc_versus_add(struct trc_versus *, int side,
	    const struct trc_summary *s, const struct trc_event *ev);
/* Counts what stayed unpaired; call once at the end. */
void	 trc_versus_finish(struct trc_versus *);
/* Reads the predicted (r[0]) and observed (r[1]) runs to their ends,
 * each through its summary sum[i], into v, and finishes v: 0, or -1
 * at a reader's or a summary's error, in v->err ("file:line: ..."). */
int	 trc_versus_read(struct trc_versus *, struct trc_reader *r[2],
	    struct trc_summary *sum[2]);
void	 trc_versus_free(struct trc_versus *);
/* Name i's summed predicted and observed lifetimes over all ranks. */
void	 trc_versus_sums(const struct trc_versus *, int32_t i, int64_t *pred,
	    int64_t *obs);
/*
 * The share of the observed time that obs takes on nranks ranks of a
 * run that spans span: obs / (nranks span), 0 when that is 0.  A row
 * below TRC_VS_MINOR is minor: its ratio moves the total little.
 */
double	 trc_versus_share(int64_t obs, int32_t nranks, int64_t span);
#define TRC_VS_MINOR	0.02

#endif
