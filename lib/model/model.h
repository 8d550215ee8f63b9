/*
 * model.h - what the models share (private to lib/model/): the factor K
 * of each computation interval, per label and rank (DESIGN.md section
 * 4, C2 = K C1), from a ratio table or one constant, and the helpers
 * every model's costs use.
 */
#ifndef TRC_MODEL_PRIV_H
#define TRC_MODEL_PRIV_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "coll.h"
#include "trc_model.h"

struct comp_est;
struct trc_fit_op;
struct trc_ratios;
struct trc_str;
struct trc_model_conf;

/* A rank's open regions, innermost last, and its K while valid. */
struct cpu_rank {
	char		*lab;		/* the labels, one after another */
	size_t		 lablen, labcap;
	size_t		*labpos;	/* where each begins */
	size_t		 depth, depthcap;
	double		 k;
	uint8_t		 kvalid, kmatched;
	uint8_t		 started;	/* its first event seen (counted) */
	/* How cold its calls ran on the base: the sum and weight of the
	 * coldness of each measured one (trc_cold_learn). */
	double		 xsum, xn;
	/* --outliers delay or drop: its labels' judges (est.c),
	 * and which one is its current label's, 1 + index, 0: not known. */
	struct comp_est	*est;
	size_t		 nest, estcap, estcur;
};

struct trc_cpu {
	struct trc_ratios	*ratios;	/* NULL: k for all */
	int			 counted;	/* its rows count intervals */
	const struct trc_fit	*base;		/* the base machine, or NULL */
	/* The last collective trc_coll_coldness looked at (its memo's
	 * key) and the base's fits of its op and op-cold, s; w < 0: none. */
	struct coll_memo	 bkey;
	double			 bwarm, bcold;
	/* The base's send, isend and recv-late rows, warm and cold, or
	 * NULL (trc_cold_learn). */
	const struct trc_fit_op	*bop[TRC_LEARN_OPS][2];
	double			 k;
	struct trc_pages	 rk;		/* struct cpu_rank, by rank */
	/* enum trc_outliers; with delay, how many intervals were past
	 * their label's fence and their excess over its median, in all. */
	int			 outliers;
	unsigned long long	 nout;
	int64_t			 outns;
	char			 err[512];
};

/* k d, rounded; d itself when k is 1; TRC_TIME_OVER past the clock. */
static inline int64_t
trc_scale_ns(double k, int64_t d)
{
	double v = k * (double)d;

	if (k == 1 || d > TRC_TIME_MAX)
		return d;
	if (!(v < (double)TRC_TIME_MAX))	/* NaN too */
		return v < 0 ? 0 : TRC_TIME_OVER;
	return v > 0 ? (int64_t)llround(v) : 0;
}

void	 trc_cpu_init(struct trc_cpu *, const struct trc_model_conf *);
void	 trc_cpu_fini(struct trc_cpu *);
int	 trc_cpu_comp_label(struct trc_cpu *, int32_t rank, int64_t d,
	    int64_t *dp);

/*
 * The model ops of the same names (trc_model.h), on a trc_cpu; comp
 * is asked at every interval, so its usual case is inline.
 */
static inline int
trc_cpu_comp(struct trc_cpu *c, int32_t rank, int64_t d, int64_t *dp)
{
	if (c->ratios == NULL && c->outliers == TRC_OUTLIERS_SCALE) {
		*dp = trc_scale_ns(c->k, d);
		return 0;
	}
	return trc_cpu_comp_label(c, rank, d, dp);
}
int	 trc_cpu_region(struct trc_cpu *, int32_t rank,
	    const struct trc_str *fn);
/* The model op outliers (trc_model.h) on a trc_cpu. */
void	 trc_cpu_outliers(const struct trc_cpu *, unsigned long long *n,
	    int64_t *excess);

/*
 * --outliers delay (est.c): the predicted length *dp of rank p's
 * interval d long under its current label l (len bytes), K k: K d, or
 * for an interval past the label's fence K times the label's median
 * plus the rest unscaled (drop: without the rest); then d joins the
 * label's estimates (trc_outlier.h).  -1 out of memory.
 */
struct cpu_rank;
int	 trc_est_comp(struct trc_cpu *, struct cpu_rank *p, const char *l,
	    size_t len, double k, int64_t d, int64_t *dp);
void	 trc_est_free(struct cpu_rank *p);
/* The least predicted length of an interval recorded at least dt long. */
int64_t	 trc_cpu_bound(struct trc_cpu *, int32_t rank, int64_t dt);

/* Seconds to nanoseconds, rounded, negative times as 0, TRC_TIME_OVER
 * past TRC_TIME_MAX or not a number. */
int64_t	 trc_ns(double s);

struct trc_fit;
struct trc_p2p;
/*
 * The base machine's model, the same for every target: 1 when the
 * base fit marks m's size send-sync for a blocking send, which then
 * left when its receiver was ready, no earlier than its SB; 0 when it
 * left at its SE.
 */
int	 trc_base_sync(const struct trc_fit *base, const struct trc_p2p *m);

/*
 * How far from its warm cost to its cold one collective c costs, 0 to
 * 1: 0 unless its last participant came from TRC_COLD_NS of computation
 * since its last collective.  Then as cold as it ran on the base: its
 * recorded cost from the latest entry (c->d) placed between the base's
 * fits of its op and op-cold (trc-pingpong's, after a cache sweep),
 * scaled to its ranks, 0 at or below the warm, 1 at or above the cold;
 * how much of the caches a computation leaves to a collective depends
 * on what it touched, which a trace does not say, and the base run
 * measured it.  Without both fits there, 1, or 0.5 when that
 * participant used the transport since the computation.
 */
struct trc_coll_call;
double	 trc_coll_coldness(struct trc_cpu *, const struct trc_coll_call *c);

/*
 * How cold a rank's point-to-point calls run after a computation, 0
 * (warm) to 1 (as after trc-pingpong's sweep of the caches), as the
 * base run measured it: the mean coldness of the rank's calls the
 * engine showed trc_cold_learn (model ops learn), each placed between
 * the base's warm and cold fits as trc_coll_coldness places a
 * collective, and of the collectives it entered last straight from a
 * computation.  1, the cold fit itself, until one is measured.  How
 * much of the caches a computation evicts depends on what it touched
 * (LAMMPS's sends ran 0.2 of the way over TCP on this toolkit's host),
 * and on the transport too, which this does not know: the heat
 * solver's receives after Iterate ran 0.34 of the way over shared
 * memory and 0.98 over TCP (trc-scale(1)).
 */
double	 trc_cold_of(struct trc_cpu *, int32_t rank);
/* The model op coldness (trc_model.h) on a trc_cpu. */
int	 trc_cold_measured(struct trc_cpu *, int32_t rank, double *x,
	    double *n);
/* The engine's learn op: -1 (cpu->err) out of memory, else 0. */
int	 trc_cold_learn(struct trc_cpu *, const struct trc_p2p *m, int op,
	    int64_t d);
/* Op's fit x of the way from warm to cold, at b bytes (warm alone
 * without cold). */
double	 trc_cold_eval(const struct trc_fit_op *warm,
	    const struct trc_fit_op *cold, double x, int64_t b);

#endif
