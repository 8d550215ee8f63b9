/*
 * cluster.c - representative ranks: k-medoids (PAM, Kaufman and
 * Rousseeuw) over the ranks' computation vectors.  PAM's BUILD start
 * is greedy and its SWAP steps take the best strict improvement, ties
 * to the lowest index, so the same distances always give the same
 * groups: there is no random start to seed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "trc_cluster.h"
#include "trc_summary.h"

double *
trc_cluster_vectors(const struct trc_summary *s, int32_t *m)
{
	double *v, inside;
	int32_t r, l, w = s->labels.n + 1;

	*m = w;
	if (s->nranks == 0 ||
	    (v = calloc((size_t)s->nranks * (size_t)w, sizeof(*v))) == NULL)
		return NULL;
	for (r = 0; r < s->nranks; r++) {
		inside = 0;
		for (l = 0; l < s->labels.n; l++) {
			v[(size_t)r * w + l] = s->comp[l][r] / 1e9;
			inside += s->comp[l][r] / 1e9;
		}
		v[(size_t)r * w + w - 1] =
		    s->rank[r].act[TRC_ACT_COMP] / 1e9 - inside;
	}
	return v;
}

double
trc_cluster_euclid(const double *a, const double *b, int32_t m)
{
	double sum = 0;
	int32_t i;

	for (i = 0; i < m; i++)
		sum += (a[i] - b[i]) * (a[i] - b[i]);
	return sqrt(sum);
}

double
trc_cluster_distance(const double *a, const double *b, int32_t m)
{
	double na = 0, nb = 0, big;
	int32_t i;

	for (i = 0; i < m; i++) {
		na += a[i] * a[i];
		nb += b[i] * b[i];
	}
	big = sqrt(na > nb ? na : nb);
	return big > 0 ? trc_cluster_euclid(a, b, m) / big : 0;
}

void
trc_cluster_free(struct trc_cluster *c)
{
	free(c->medoid);
	free(c->group);
	free(c->dist);
	memset(c, 0, sizeof(*c));
}

#define D(i, j)	d[(size_t)(i) * n + (j)]

/*
 * Each point to its nearest medoid (the lowest on a tie; a medoid to
 * its own group, so that none is empty); the cost.
 */
static double
assign(const double *d, int32_t n, const int32_t *med, int32_t k,
    int32_t *group, double *dist)
{
	double cost = 0;
	int32_t i, g;

	for (i = 0; i < n; i++) {
		group[i] = 0;
		dist[i] = D(med[0], i);
		for (g = 1; g < k && med[group[i]] != i; g++)
			if (D(med[g], i) < dist[i] || med[g] == i) {
				group[i] = g;
				dist[i] = D(med[g], i);
			}
		cost += dist[i];
	}
	return cost;
}

static int
is_medoid(const int32_t *med, int32_t k, int32_t i)
{
	int32_t g;

	for (g = 0; g < k; g++)
		if (med[g] == i)
			return 1;
	return 0;
}

static int
cmp_int32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* PAM with k medoids into c (arrays already allocated). */
static void
pam(const double *d, int32_t n, int32_t k, struct trc_cluster *c,
    double *near)
{
	int32_t *med = c->medoid, i, j, g, o, best_g, best_o, have;
	double gain, best, cost, trial, dj, second;

	/* BUILD: the most central point, then each point that lowers the
	 * total distance most. */
	for (i = 0; i < n; i++)
		near[i] = INFINITY;
	for (have = 0; have < k; have++) {
		best = -1;
		best_o = -1;
		for (o = 0; o < n; o++) {
			if (is_medoid(med, have, o))
				continue;
			gain = 0;
			for (j = 0; j < n; j++) {
				dj = D(o, j);
				if (have == 0)
					gain -= dj;
				else if (dj < near[j])
					gain += near[j] - dj;
			}
			if (best_o < 0 || gain > best) {
				best = gain;
				best_o = o;
			}
		}
		med[have] = best_o;
		for (j = 0; j < n; j++)
			if (D(best_o, j) < near[j])
				near[j] = D(best_o, j);
	}

	/* SWAP: the exchange of a medoid and a point that lowers the
	 * cost most, while one does by more than rounding. */
	cost = assign(d, n, med, k, c->group, c->dist);
	for (;;) {
		best = cost;
		best_g = best_o = -1;
		for (g = 0; g < k; g++)
			for (o = 0; o < n; o++) {
				if (is_medoid(med, k, o))
					continue;
				trial = 0;
				for (j = 0; j < n; j++) {
					/* j's nearest medoid other than g. */
					second = INFINITY;
					for (i = 0; i < k; i++)
						if (i != g && D(med[i], j) < second)
							second = D(med[i], j);
					trial += D(o, j) < second ? D(o, j) : second;
				}
				if (trial < best - 1e-12 * (cost > 1 ? cost : 1)) {
					best = trial;
					best_g = g;
					best_o = o;
				}
			}
		if (best_g < 0)
			break;
		med[best_g] = best_o;
		cost = assign(d, n, med, k, c->group, c->dist);
	}
	/* Groups numbered in the order of their representatives. */
	qsort(med, (size_t)k, sizeof(*med), cmp_int32);
	c->cost = assign(d, n, med, k, c->group, c->dist);
}

int
trc_cluster_run(const double *d, int32_t n, int32_t k, double maxdist,
    struct trc_cluster *c)
{
	double *near, worst;
	int32_t i, lo, hi;

	memset(c, 0, sizeof(*c));
	if (n <= 0)
		return 0;
	c->n = n;
	c->medoid = malloc((size_t)n * sizeof(*c->medoid));
	c->group = malloc((size_t)n * sizeof(*c->group));
	c->dist = malloc((size_t)n * sizeof(*c->dist));
	near = malloc((size_t)n * sizeof(*near));
	if (c->medoid == NULL || c->group == NULL || c->dist == NULL ||
	    near == NULL) {
		free(near);
		trc_cluster_free(c);
		return -1;
	}
	lo = hi = k > n ? n : k;
	if (k <= 0) {
		lo = 1;
		hi = n;
	}
	/* The fewest groups within maxdist; n groups always are. */
	for (c->k = lo; c->k <= hi; c->k++) {
		pam(d, n, c->k, c, near);
		worst = 0;
		for (i = 0; i < n; i++)
			if (c->dist[i] > worst)
				worst = c->dist[i];
		if (k > 0 || worst <= maxdist)
			break;
	}
	free(near);
	return 0;
}
