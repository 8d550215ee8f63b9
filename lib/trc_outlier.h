/*
 * trc_outlier.h - the judge of a label's computation intervals that the
 * host made longer (outlier.c): trc-scale's --outliers delay and drop
 * on the base trace, trc-ratios' --outliers drop on the base runs.
 */
#ifndef TRC_OUTLIER_H
#define TRC_OUTLIER_H

#include <stdint.h>

/*
 * One label's intervals on one rank: their lower quartile and median,
 * estimated as they come (P-squared, GSL's running quantiles), so a
 * few numbers however long the run.  Zeroed memory is an empty one.
 */
struct trc_outlier {
	unsigned long long	 n;
	void			*q[2];	/* gsl_rstat_quantile_workspace */
};

/*
 * Judge an interval of length d (ns) against those before it, then
 * count it in: 1 and its label's median in *median when it is past the
 * fence, 0 when not, -1 out of memory (nothing counted).
 */
int	trc_outlier_judge(struct trc_outlier *, int64_t d, int64_t *median);
void	trc_outlier_free(struct trc_outlier *);

#endif
