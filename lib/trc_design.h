/*
 * trc_design.h - factors, two-level factorial designs and their
 * effects (Jain, The Art of Computer Systems Performance Analysis,
 * ch. 17-19; Montgomery, Design and Analysis of Experiments, ch. 6-8).
 *
 * Factors are named by letters A, B, ..., H, J, ..., Z (I is the
 * identity, as in the textbooks), at most TRC_MAXFACTORS of them.  A
 * word (an interaction, or a design point) is a bit mask: bit i is
 * the factor with letter trc_factor_letter(i).  For a design point,
 * bit i set means factor i at its high level (+1, delay), clear its
 * low level (-1, no delay).
 */
#ifndef TRC_DESIGN_H
#define TRC_DESIGN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TRC_MAXFACTORS	25
#define TRC_MAXRUNS	(1L << 20)	/* points of one design */

/*
 * A factor: where a delay goes.  The location is an MPI call, on some
 * ranks, inside a region, at some occurrences of the call; the same
 * location syntax as the TRC_DELAY spec of the tracer (trc-factors(5)).
 */
struct trc_factor {
	char		*name;
	char		*call;		/* "send", "allreduce", "pe", "*" */
	char		*ranks;		/* "0:2-3"; NULL: every rank */
	char		*region;	/* NULL: anywhere */
	int64_t		 occ_lo;	/* TRC_NONE: every occurrence */
	int64_t		 occ_hi;	/* INT64_MAX: no end */
	int64_t		 delay;		/* nanoseconds */
	long		 line;		/* in the factor file, 0 if none */
};

struct trc_factors {
	int			 n;
	struct trc_factor	 v[TRC_MAXFACTORS];
};

/*
 * Parse one TRC_DELAY spec, "call=send,ranks=0-1,delay=0.001" (no
 * name).  Returns 0, or -1 with a message in err.
 */
int	 trc_factor_parse_spec(const char *s, size_t len,
	    struct trc_factor *, char *err, size_t errlen);
/*
 * Parse one factor-file line (no newline).  Returns 1 with a factor,
 * 0 for a blank or comment line, -1 with a message in err.
 */
int	 trc_factor_parse_line(const char *line, size_t len,
	    struct trc_factor *, char *err, size_t errlen);
/*
 * Read a factor file ("-" or NULL: stdin).  Returns 0, or -1 with
 * "file:line: message" (or "file: message") in err.
 */
int	 trc_factors_read(const char *path, struct trc_factors *,
	    char *err, size_t errlen);
void	 trc_factor_free(struct trc_factor *);
void	 trc_factors_free(struct trc_factors *);
/*
 * Render one factor as a TRC_DELAY spec, or every factor whose bit is
 * set in high joined by ';'.  As snprintf: returns the length the
 * whole string needs, writes at most len bytes with the NUL.
 */
size_t	 trc_factor_spec(const struct trc_factor *, char *buf, size_t len);
size_t	 trc_delay_spec(const struct trc_factors *, uint32_t high,
	    char *buf, size_t len);
/* Seconds without trailing zeros: "0.001", "2". */
size_t	 trc_format_seconds(char *buf, int64_t ns);

/* Letters. */
int	 trc_factor_letter(int i);	/* 'A'..'Z' without 'I' */
int	 trc_letter_factor(int c);	/* -1 if c names no factor */
/* "ABD", or "I" for the empty word; buf holds TRC_MAXFACTORS + 1. */
char	*trc_word_format(uint32_t w, char *buf);
/* Order of the textbooks: shorter words first, then alphabetical. */
int	 trc_word_cmp(uint32_t, uint32_t);
int	 trc_word_len(uint32_t);

/*
 * A regular two-level design: q base factors in a full factorial,
 * and k = p - q generated factors, each the product of base factors
 * (times -1 for the other half).  Points in standard (Yates) order:
 * the lowest base factor alternates fastest.
 */
struct trc_design {
	int		 p;
	int		 k;
	uint32_t	 gen[TRC_MAXFACTORS];	/* word of base factors, 0 if base */
	int		 gsign[TRC_MAXFACTORS];	/* +1 or -1 */
	int		 nbase;
	int		 base[TRC_MAXFACTORS];	/* base factors, increasing */
	/* The defining relation: 2^k words with signs, I first. */
	uint32_t	*def;
	signed char	*dsign;
	int		 ndef;
};

/* A full factorial in p factors. */
int	 trc_design_init(struct trc_design *, int p, char *err, size_t errlen);
/*
 * Add a generator "D=ABC" or "D=-ABC".  Returns 0, or -1 with a
 * message in err (the design is unchanged).
 */
int	 trc_design_generator(struct trc_design *, const char *,
	    char *err, size_t errlen);
/* Compute the defining relation; call after the last generator. */
int	 trc_design_finish(struct trc_design *, char *err, size_t errlen);
void	 trc_design_free(struct trc_design *);
long	 trc_design_runs(const struct trc_design *);
/* The point (mask of factors at +1) of run i, 0-based, standard order. */
uint32_t trc_design_point(const struct trc_design *, long i);
/* The standard-order index of a point, or -1 if not in the design. */
long	 trc_design_index(const struct trc_design *, uint32_t point);
/* Shortest word of the defining relation; 0 for a full factorial. */
int	 trc_design_resolution(const struct trc_design *);
/* "III", "IV", ...; "full" for 0. */
const char *trc_roman(int, char *buf, size_t len);
/*
 * The design whose points are the given ones, with the lowest
 * factors as base, for a run table read back.  Fails unless the
 * points form a regular fraction (every combination of the base
 * factors once).  Points may repeat.
 */
int	 trc_design_from_points(struct trc_design *, int p,
	    const uint32_t *pts, long n, char *err, size_t errlen);

/* Sign of word w at a point: the product of its factors' levels. */
int	 trc_word_sign(uint32_t w, uint32_t point);

/*
 * Alias chains: one per word of the base factors (the effect of the
 * chain, in standard order: I, A, B, AB, C, ...).  A chain's words are
 * sorted by trc_word_cmp; word[0] names the chain; sign[j] is the sign
 * of word j relative to word[0]: column(word[0]) = sign[j] column(word[j]).
 */
struct trc_chain {
	uint32_t	 base;		/* the word of base factors */
	int		 bsign;		/* column(base) = bsign column(word[0]) */
	int		 n;
	uint32_t	*word;
	signed char	*sign;
};
/* Chain i, 0 <= i < runs; storage for 2^k words is the caller's. */
void	 trc_design_chain(const struct trc_design *, long i,
	    struct trc_chain *);
/* "A = BCD = -ACE"; returns buf. */
char	*trc_chain_format(const struct trc_chain *, char *buf, size_t len);

/* splitmix64: the same numbers on every machine. */
uint64_t trc_splitmix64(uint64_t *state);
/* Uniform in [0, n), without modulo bias. */
uint64_t trc_random_below(uint64_t *state, uint64_t n);

/*
 * Effects by the sign-table method with allocation of variation
 * (Jain ch. 17-18).  For a design with runs() points, each with r
 * replications: y[i * r + j] is replication j of standard-order point
 * i.  Effect i belongs to chain i (q[0] is the mean).
 */
struct trc_effects {
	long		 m;	/* points */
	long		 r;	/* replications */
	double		*q;	/* m effects, q[0] the grand mean */
	double		*ss;	/* m sums of squares, ss[0] unused (0) */
	double		 sst;	/* total variation, about the mean */
	double		 sse;	/* error (within replications) */
	double		 se;	/* standard deviation of errors, 0 if r = 1 */
	double		 sq;	/* standard deviation of each effect */
	long		 df;	/* error degrees of freedom m (r - 1) */
	int		*zero;	/* m flags: effect exactly zero */
};
int	 trc_effects_compute(const struct trc_design *, long r,
	    const double *y, struct trc_effects *, char *err, size_t errlen);
void	 trc_effects_free(struct trc_effects *);

/* The effects to rank: chain i, or -1 for the error term. */
struct trc_effect_rank {
	long		 i;
	double		 ss;
};
/*
 * The effects not exactly zero, and the error term when replications
 * differ, into rank (room for m): largest sum of squares first, ties
 * in chain order with the error first.  Returns how many.
 */
long	 trc_effects_rank(const struct trc_effects *, struct trc_effect_rank *);
/*
 * The half-width factor of a conf% (0 < conf < 100) confidence interval
 * of an effect with df error degrees of freedom: Student's t quantile
 * at 0.5 + conf/200 (Jain 18.5).  NAN when there is none.
 */
double	 trc_effects_t(double conf, long df);

/*
 * A run table read back: the table of trc-design -t with response
 * columns appended, in any run order, with replications (trc-effects'
 * input, trc-effects(1)).  Columns are told apart by name: run and std
 * identify a run, A, B, ... are factor levels (+1, 1, + high; -1, -
 * low), choice, fired and limit are what trc-experiment adds, and
 * every other column is a response.
 */
enum trc_runcol_kind {
	TRC_RUNCOL_ID, TRC_RUNCOL_FACTOR, TRC_RUNCOL_RESPONSE,
	TRC_RUNCOL_CHOICE, TRC_RUNCOL_FIRED, TRC_RUNCOL_LIMIT
};
struct trc_runcol {
	char		*name;
	int		 kind;
	int		 factor;	/* letter index, for a factor */
	int		 resp;		/* response index, for a response */
};
/* A run's first differing choice point, from the choice column. */
struct trc_place {
	char		*text;		/* "RANK:CALL:FILE:LINE", NULL for "-" */
	long		 rank, line;
	char		*buf;		/* text split: */
	char		*call, *where;	/* "CALL", "FILE:LINE" */
};
/*
 * The runs of the design come first, in the table's order, then the
 * nextra runs outside it (std 0): repeats of the baseline without
 * delay, which a fraction without that point needs.  The arrays hold
 * an entry per run, n + nextra of them; resp holds nresp per run.
 */
struct trc_runs {
	char		*name;		/* the file, "<stdin>" */
	struct trc_runcol *col;
	int		 ncol, nresp, p;	/* p: factors */
	int		 have_choice, have_fired, have_limit;
	long		 n;		/* runs in the design */
	long		 nextra;	/* after them: repeats of the baseline */
	long		 cap;
	uint32_t	*pt;		/* factors high */
	double		*resp;
	struct trc_place *place;	/* zero without a choice column */
	char		**id;		/* the run column, or the row number */
	char		*outside;	/* std 0 */
	long long	*fired;		/* [i * TRC_MAXFACTORS + factor]:
					   delays made, -1 unknown */
	char		*limited;	/* stopped by its time limit */
};
/*
 * Read a run table ("-": stdin).  Returns 0, or -1 with "file:line:
 * message" (or "file: message") in err and nothing to free.
 */
int	 trc_runs_read(struct trc_runs *, const char *path, char *err,
	    size_t errlen);
void	 trc_runs_free(struct trc_runs *);
/* The index of the response column name, or -1. */
int	 trc_runs_response(const struct trc_runs *, const char *name);
/*
 * The design the runs' points form, and r, the runs at each point.
 * Fails (with "file: message") unless every point has as many.
 */
int	 trc_runs_design(const struct trc_runs *, struct trc_design *,
	    long *r, char *err, size_t errlen);
/* The effects on response resp (trc_effects_compute). */
int	 trc_runs_effects(const struct trc_runs *, const struct trc_design *,
	    long r, int resp, struct trc_effects *, char *err, size_t errlen);
/*
 * Of the runs with factor f high: how many, how many say the delays
 * f made (the fired column), and the sum of those.
 */
void	 trc_runs_fired(const struct trc_runs *, int f, long *nhigh,
	    long *nknown, long long *sum);
/* Response resp summed over each point's runs, in standard order. */
void	 trc_runs_point_sums(const struct trc_runs *,
	    const struct trc_design *, int resp, double *sum);
/*
 * The earliest first differing choice point (by line, then text) of
 * the runs, design or not, whose response resp is not 0 (and with no
 * factor high when base); NULL when none says one.
 */
const struct trc_place *trc_runs_first_difference(const struct trc_runs *,
	    int resp, int base);
/* Whether run i is one of those and first differs at pl. */
int	 trc_runs_differs_at(const struct trc_runs *, long i, int resp,
	    int base, const struct trc_place *pl);

#endif
