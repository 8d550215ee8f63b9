/*
 * micro.h - what the MPI micro-benchmarks of benchmarks/ (coldcoll.c,
 * wake.c, behind.c) share: the host's monotonic clock, one for every
 * process of a host, and the order of doubles for qsort.
 */
#ifndef MICRO_H
#define MICRO_H

#include <time.h>

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#endif
