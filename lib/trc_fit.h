/*
 * trc_fit.h - communication characterizations (.fit files, trc-fit(5)):
 * per operation, its time as a piecewise-linear function of message
 * size, and the segmented least-squares fit that trc-fit uses to
 * build them from benchmark measurements.
 */
#ifndef TRC_FIT_H
#define TRC_FIT_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* The HI of a last segment: no upper bound ("inf" in the file). */
#define TRC_FIT_INF	INT64_MAX

/* t(bytes) = a + b * bytes seconds, for lo <= bytes < hi. */
struct trc_fit_seg {
	int64_t		 lo, hi;
	double		 a, b;
	long		 line;		/* in the file, 0 when fitted */
};

struct trc_fit_op {
	char			*name;
	struct trc_fit_seg	*seg;
	size_t			 nseg;
	long			 lastline;
};

/* Sizes lo <= bytes < hi, with the line that gave them (0: fitted). */
struct trc_fit_range {
	int64_t		 lo, hi;
	long		 line;
};

struct trc_fit {
	struct trc_fit_op	*op;
	size_t			 nop;
	/*
	 * The "send-sync LO HI" lines: the sizes whose blocking sends end
	 * only when the receiver takes the message, in increasing order,
	 * not overlapping.
	 */
	struct trc_fit_range	*sync;
	size_t			 nsync;
	/*
	 * The "send-progress LO HI" lines: of those sizes, the ones whose
	 * blocking sends end once the receiver is inside any MPI call
	 * that waits (its progress takes the message), not only its
	 * receive; as sync's.
	 */
	struct trc_fit_range	*prog;
	size_t			 nprog;
};

/*
 * Read a .fit file ("-" or NULL for stdin).  Returns NULL and a
 * message "file:line: ..." in err when it cannot be read or is wrong.
 */
struct trc_fit	*trc_fit_load(const char *path, char *err, size_t errlen);
void		 trc_fit_free(struct trc_fit *);
/* The operation named name[0..len), or NULL. */
const struct trc_fit_op *trc_fit_find(const struct trc_fit *,
		    const char *name, size_t len);
/* 1 when a blocking send of bytes waits for its receiver, else 0. */
int		 trc_fit_sync(const struct trc_fit *, int64_t bytes);
/* 1 when it waits, but only until its receiver is in any MPI call that
 * waits, not its receive alone: a send-sync and send-progress size. */
int		 trc_fit_progress(const struct trc_fit *, int64_t bytes);
/* Seconds for a message of bytes (negative sizes count as 0, negative times as 0). */
double		 trc_fit_eval(const struct trc_fit_op *, int64_t bytes);
/* The same in integer nanoseconds, rounded. */
int64_t		 trc_fit_eval_ns(const struct trc_fit_op *, int64_t bytes);

/* How well one fitted segment matches the points it covers. */
struct trc_fit_stat {
	size_t		 npts;		/* distinct sizes in the segment */
	double		 r2;		/* coefficient of determination */
	double		 rrms;		/* RMS of the relative residuals */
};

/*
 * Fit a piecewise-linear function to points (x[i], y[i]), x strictly
 * increasing, y > 0: each segment by least squares on relative error
 * (weights 1/y^2), the breakpoints between measured sizes chosen by
 * dynamic programming over all segmentations of at most maxseg
 * segments of at least minpts points each, the number of segments by
 * the Bayesian information criterion with its penalty multiplied by
 * penalty (3 is a good choice, see fit.c).  Fills seg[0..*nseg) and st
 * (both of room maxseg).  Returns 0, or -1 with a message in err.
 */
int	 trc_fit_pieces(const double *x, const double *y, size_t n,
	    int maxseg, int minpts, double penalty, struct trc_fit_seg *seg,
	    struct trc_fit_stat *st, size_t *nseg, char *err, size_t errlen);
/*
 * The same, no segment spanning any of the ncut sizes cut[], ascending
 * (a protocol's switch: a segment ends below each and the next begins
 * at the first size at or above it), of those with minpts sizes on
 * either side and between them, when all of them leave room in
 * maxseg; else none.
 */
int	 trc_fit_pieces_cut(const double *x, const double *y, size_t n,
	    int maxseg, int minpts, double penalty, const int64_t *cut,
	    size_t ncut, struct trc_fit_seg *seg, struct trc_fit_stat *st,
	    size_t *nseg, char *err, size_t errlen);

/*
 * A send of a size waits for the receiver when its time with the
 * receiver late (send-late, the receiver at least 4 send times and 20
 * us late) is more than this many times its time with the receiver
 * waiting, and longer by more than TRC_FIT_SYNC_MIN seconds, half the
 * least delay: a send of 50 ns that a loaded host once stretches to
 * 200 ns did not wait 20 us.  Its time late is the quantile
 * TRC_FIT_SYNC_QUANTILE of its repetitions, the waiting one's the
 * median: a size whose sends wait in a quarter of them or more waits
 * (trc-fit(1)).
 */
#define TRC_FIT_SYNC_RATIO	2.5
#define TRC_FIT_SYNC_MIN	10e-6
#define TRC_FIT_SYNC_QUANTILE	0.75

/*
 * From the median send time send[i] and send-late time late[i] (its
 * quantile TRC_FIT_SYNC_QUANTILE) of each size x[i] (increasing), the
 * ranges of sizes whose sends wait for the receiver, cut between
 * measured sizes as segments are (the first
 * range of a run that starts at x[0] starts at 0, one that runs to the
 * last size ends at TRC_FIT_INF).  Fills r (room for (n + 1) / 2) and
 * returns how many.
 */
size_t	 trc_fit_sync_ranges(const double *x, const double *send,
	    const double *late, size_t n, struct trc_fit_range *r);
/* The same where, moreover, the send does not wait for a receiver that
 * polls (busy[i], send-busy's quantile at x[i], as the same rule
 * judges): the send-progress ranges. */
size_t	 trc_fit_progress_ranges(const double *x, const double *send,
	    const double *late, const double *busy, size_t n,
	    struct trc_fit_range *r);

/* LogGP parameters (trc-loggp(5)) fitted from measurements. */
struct trc_loggp_fit {
	double		 L, o, G, R;		/* seconds, seconds per byte */
	int64_t		 eager;			/* TRC_FIT_INF: no limit */
	size_t		 neager, nrdv;		/* sizes each side of it */
};

/*
 * LogGP parameters from the median recv time y[i] of each size x[i]
 * (increasing; the receiver waiting: L + 2o + G b, plus 2L + 2o + R
 * for a size handed over by a rendezvous), the overhead o (the median
 * isend of the smallest size) and the eager limit: a line through the
 * eager sizes gives L + 2o and G, one through the others, when there
 * are two, G and the rendezvous's R (no less than -(2L + 2o): a
 * handover costs nothing at least).  Returns 0, or -1 with a message
 * in err.
 */
int	 trc_loggp_fit(const double *x, const double *y, size_t n, double o,
	    int64_t eager, struct trc_loggp_fit *p, char *err, size_t errlen);

/* The median of v[0..n), n > 0; sorts v. */
double	 trc_fit_median(double *v, size_t n);

/* One benchmark measurement: a message of bytes took sec seconds. */
struct trc_fit_meas {
	int64_t		 bytes;
	double		 sec;
};

/*
 * The distinct sizes of m[0..n) in x[], increasing, and the median time
 * of each in y[] (so that a few slow repetitions do not bend a fit);
 * x and y hold n.  Sorts m.  Returns how many sizes.
 */
size_t	 trc_fit_medians(struct trc_fit_meas *m, size_t n, double *x,
	    double *y);
/*
 * The same with the quantile q (0 to 1) of each size's times: the
 * value q of the way from its least to its greatest, between the two
 * nearest (0.5 is the median above).
 */
size_t	 trc_fit_quantiles(struct trc_fit_meas *m, size_t n, double q,
	    double *x, double *y);

/*
 * The sizes two operations both measured: of sizes ax[0..na) with
 * medians ay[] and bx[0..nb) with by[] (each increasing), the common
 * sizes in x[] with a's median in a[] and b's in b[] (each with room
 * for the smaller count).  Returns how many.
 */
size_t	 trc_fit_common(const double *ax, const double *ay, size_t na,
	    const double *bx, const double *by, size_t nb, double *x,
	    double *a, double *b);

/*
 * Writes the rows "OP LO HI A B" of one operation's segments, or the
 * lines "NAME LO HI" of ranges (send-sync, send-progress), as
 * trc-fit(5) has them; -1 with errno when the stream fails.
 */
int	 trc_fit_write_op(FILE *, const char *name,
	    const struct trc_fit_seg *, size_t nseg);
int	 trc_fit_write_ranges(FILE *, const char *name,
	    const struct trc_fit_range *, size_t nr);

/* A size as trc-fit(5) writes it ("inf" for TRC_FIT_INF) into buf. */
void	 trc_fit_fmt_size(char *buf, size_t len, int64_t v);

#endif
