/*
 * trc_loops.h - loop compression of a stream (loops.c, trc-loops(1),
 * trc-loops(5)): ScalaTrace's regular section descriptors.  Each
 * rank's events become a program of event templates and loops, found
 * in a window of the rank's last nodes; ranks whose programs are the
 * same, peers written relative to the rank, share one; times are kept
 * per template as statistics or, losslessly, every one.
 */
#ifndef TRC_LOOPS_H
#define TRC_LOOPS_H

#define TRC_LOOPS_WINDOW	64	/* nodes of a rank compared, default */
#define TRC_LOOPS_MAXHIST	64	/* histogram buckets a doubling, at most */

struct trc_loops_opts {
	int	 lossless;	/* every time and value, not statistics */
	int	 window;	/* 0: TRC_LOOPS_WINDOW */
	int	 fixed_peers;	/* no @p, @w: every peer as a rank's offset */
	int	 histogram;	/* buckets a doubling of the times kept as
				 * statistics (a power of two), 0: none */
};

struct trc_loops;
/* NULL only when out of memory. */
struct trc_loops *trc_loops_new(const struct trc_header *,
		    const struct trc_loops_opts *);
/* Events of one stream in its order: 0, or -1 with trc_loops_error(). */
int		 trc_loops_add(struct trc_loops *, const struct trc_event *);
/* The compressed description: 0, or -1 on a write error. */
int		 trc_loops_write(struct trc_loops *, FILE *);
const char	*trc_loops_error(const struct trc_loops *);
void		 trc_loops_free(struct trc_loops *);

/* A histogram's bucket: the values from lo up to the next bucket
 * start (trc-loops(5)), how many, and their sum. */
struct trc_loops_bucket {
	int64_t		 lo, n, sum;
};

/*
 * The compressed program read back, for a generator (trc-bench): a
 * rank's program is a list of nodes, each an event template (tmpl >=
 * 0, its text from trc_loops_template()) or a loop of count runs of
 * its body.  A template node's data on its rank: dt, the times since
 * the rank's event before, and one series per @v or @p of the
 * template.  Valid until the next trc_loops_add() or the free.
 */
struct trc_loops_series {
	int64_t		 n, first, last, stride, sum, min, max;
	double		 ksum;		/* sum of i * value i, i from 0 */
	int		 arith;		/* first + i * stride so far */
	int		 exact;		/* kept whole, statistics or not */
	int64_t		*v;		/* every value (lossless, exact) */
	size_t		 cap;
	struct trc_loops_bucket *hb;	/* the times' histogram, by lo */
	size_t		 nh, caph;
};

struct trc_loops_leaf {
	struct trc_loops_series	 dt;
	int			 nv;
	struct trc_loops_series	*v;	/* the template's @v, in order */
};

struct trc_loops_node {
	int32_t		 sid;		/* structure id */
	int32_t		 tmpl;		/* a leaf's template, or -1 */
	int64_t		 count;		/* a loop's */
	struct trc_loops_node **body;
	int		 nbody;
	struct trc_loops_leaf *d;	/* a leaf's */
};

/* One more than the highest rank seen. */
int32_t		 trc_loops_nranks(const struct trc_loops *);
const char	*trc_loops_template(const struct trc_loops *, int32_t tmpl);
/* Rank r's program, *n nodes; NULL when the rank has no events. */
struct trc_loops_node *const *trc_loops_program(const struct trc_loops *,
		    int32_t r, size_t *n);
/*
 * The ranks that share one program, as trc_loops_write() groups
 * them: group[r] for every r below trc_loops_nranks(), -1 for a rank
 * without events; returns the number of groups, -1 when out of memory.
 */
int32_t		 trc_loops_groups(struct trc_loops *, int32_t *group);

/*
 * Expansion: the compressed description read whole, then the stream
 * it describes, one text line at a time, in time order.
 */
struct trc_unloop;
/* NULL only when out of memory; an error is kept for _next. */
struct trc_unloop *trc_unloop_open(const char *path);
/* The header of the stream, or NULL on error. */
const struct trc_header *trc_unloop_header(struct trc_unloop *);
/* 1 with the next event's line (newline included, valid until the
 * next call), 0 at the end, -1 on error. */
int		 trc_unloop_next(struct trc_unloop *, const char **line,
		    size_t *len);
const char	*trc_unloop_error(const struct trc_unloop *);
void		 trc_unloop_free(struct trc_unloop *);

#endif
