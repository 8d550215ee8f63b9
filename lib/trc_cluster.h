/*
 * trc_cluster.h - representative ranks (trc-cluster): ranks grouped by
 * their per-procedure computation, as PHANTOM chooses the few processes
 * it replays, by k-medoids (PAM) with a deterministic start.
 */
#ifndef TRC_CLUSTER_H
#define TRC_CLUSTER_H

#include <stdint.h>

struct trc_summary;

struct trc_cluster {
	int32_t	 n;		/* points (ranks) */
	int32_t	 k;		/* groups */
	int32_t	*medoid;	/* [k] each group's representative, ascending */
	int32_t	*group;		/* [n] the group of each point */
	double	*dist;		/* [n] its distance from its representative */
	double	 cost;		/* the sum of dist */
};

/*
 * The computation vectors of a summary: for every rank, the computation
 * time of each label (innermost region) and, last, of the time outside
 * every region; *m is set to the labels + 1.  A new array of nranks * m
 * seconds (free it), NULL when out of memory or empty.
 */
double	*trc_cluster_vectors(const struct trc_summary *, int32_t *m);

/*
 * The relative distance of two vectors of m: |a - b| / max(|a|, |b|)
 * (Euclidean norms), 0 when both are 0; from 0 (the same) to sqrt 2.
 */
double	 trc_cluster_distance(const double *a, const double *b, int32_t m);

/* |a - b|, in the vectors' unit. */
double	 trc_cluster_euclid(const double *a, const double *b, int32_t m);

/*
 * Groups n points with the n * n distance matrix d: k groups
 * (1 <= k <= n), or, with k 0, the fewest groups that keep every point
 * within maxdist of its representative.  Ties go to the lowest index,
 * so the answer depends on d alone.  0, or -1 when out of memory.
 */
int	 trc_cluster_run(const double *d, int32_t n, int32_t k, double maxdist,
	    struct trc_cluster *);
void	 trc_cluster_free(struct trc_cluster *);

#endif
