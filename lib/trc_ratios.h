/*
 * trc_ratios.h - computation ratio tables (trc-ratios(5)): rows of
 * procedure pattern, rank and ratio; the first row whose PCRE2 pattern
 * matches the whole label and whose rank matches gives the factor K
 * by which a computation interval's duration is multiplied.
 */
#ifndef TRC_RATIOS_H
#define TRC_RATIOS_H

#include <stddef.h>
#include <stdint.h>

enum trc_ratio_mode {
	TRC_RATIO_TIME,		/* numbers multiply durations */
	TRC_RATIO_SPEED		/* numbers are speedups: durations divide */
};

struct trc_ratios;

/*
 * Read a table ("-" or NULL for stdin).  Returns NULL and a message
 * "file:line: ..." in err when it cannot be read or is wrong.
 */
struct trc_ratios *trc_ratios_load(const char *path, char *err, size_t errlen);
void	 trc_ratios_free(struct trc_ratios *);
enum trc_ratio_mode trc_ratios_mode(const struct trc_ratios *);
/*
 * The duration factor K for label[0..len) on rank: returns 1 with *k
 * from the first matching row, 0 with *k = 1 when no row matches, -1
 * when matching failed (message in trc_ratios_error()).  Answers are
 * cached per (label, rank), so PCRE2 runs once per distinct pair.
 * trc_ratios_get gives the steady factor, rows with first=K left out;
 * trc_ratios_next the factor of the pair's next computation interval:
 * a matching first=K row's while fewer than K were taken (a run's
 * warm-up), then the steady one; with take, it counts that interval.
 */
int	 trc_ratios_get(struct trc_ratios *, const char *label, size_t len,
	    int32_t rank, double *k);
int	 trc_ratios_next(struct trc_ratios *, const char *label, size_t len,
	    int32_t rank, int take, double *k);
/* Whether a row has first=K: intervals must be taken, counted. */
int	 trc_ratios_counted(const struct trc_ratios *);
const char *trc_ratios_error(const struct trc_ratios *);
/* Whether its "outliers" line says drop (trc-ratios --outliers drop). */
int	 trc_ratios_drop(const struct trc_ratios *);
/* How many times PCRE2 matched a label so far (for tests). */
unsigned long trc_ratios_nmatch(const struct trc_ratios *);

/*
 * compratio.c: a ratio table measured, for trc-ratios.  Each pair of
 * runs (the same program on the base and on the target) gives, per
 * label and rank, the speed ratio base/target of its computation time
 * with that label innermost, where both are positive; per label the
 * ratio of the times summed over ranks ("all"); the same for the
 * computation outside every region (the empty label); and for all
 * computation, the default.  A row's ratio is the median over pairs.
 */
struct trc_summary;
struct trc_compratio;

struct trc_compratio_row {
	const char	*label;		/* "" outside regions, NULL default */
	int32_t		 rank;		/* -1: all */
	int64_t		 first;		/* a warm-up's: its intervals, else 0 */
	size_t		 n;		/* pairs that gave a ratio */
	double		 median, min, max;
};

struct trc_compratio *trc_compratio_new(void);
struct trc_warmup;
/*
 * Adds one pair's summaries, and with both runs' warm-ups (NULL: none)
 * the ratio of what each left out of (label, rank): its first first
 * intervals, the same on both; -1 when out of memory.
 */
int	 trc_compratio_add(struct trc_compratio *,
	    const struct trc_summary *base, const struct trc_summary *target,
	    const struct trc_warmup *wbase, const struct trc_warmup *wtarget);
/*
 * The rows: per label in order of first appearance, each rank (its
 * warm-up's row, first > 0, before its own), then "all"; then the
 * empty label; then the default.  Valid until the next add or free;
 * -1 when out of memory.
 */
long	 trc_compratio_rows(struct trc_compratio *,
	    const struct trc_compratio_row **);
void	 trc_compratio_free(struct trc_compratio *);

/*
 * A run's warm-up, left out of its ratios: a program's first iterations
 * touch its memory for the first time and fill its caches, which a
 * reduced run of fewer iterations weighs more than the full run does.
 * A trc_warmup feeds a run's events to its summary and notes the
 * computation interval each closed; trc_warmup_apply then takes out of
 * each label's computation on each rank (and outside every region) its
 * first intervals, the largest power of two of them not over fraction
 * of their count: the same intervals on both machines, which run the
 * same program.  Powers of two, so that a label and rank keep a sum
 * per power (memory by labels and ranks, not by the trace's length).
 * With drop, each interval is judged as it closes (trc_outlier.h), and
 * one its host made far longer counts as its label's median: the
 * host's delay is left out of the run's times (trc-ratios --outliers
 * drop, on the base runs).
 */
struct trc_summary;
struct trc_event;
struct trc_warmup;

struct trc_warmup *trc_warmup_new(double fraction, int drop);
/*
 * trc_summary_add(s, ev), noting the interval ev closed: 0, or -1 when
 * the summary failed (trc_summary_error) or memory ran out (NULL there).
 */
int	 trc_warmup_add(struct trc_warmup *, struct trc_summary *,
	    const struct trc_event *);
/* Takes the warm-up out of s's computation times, once. */
void	 trc_warmup_apply(const struct trc_warmup *, struct trc_summary *);
/* What it takes out of (label, rank), label -1 outside every region:
 * the first *first intervals, *sum long; 0 and 0 when none. */
void	 trc_warmup_part(const struct trc_warmup *, int32_t label,
	    int32_t rank, int64_t *first, int64_t *sum);
/* With drop, the intervals judged longer so far and their excess. */
void	 trc_warmup_dropped(const struct trc_warmup *, unsigned long long *n,
	    int64_t *ns);
void	 trc_warmup_free(struct trc_warmup *);

#endif
