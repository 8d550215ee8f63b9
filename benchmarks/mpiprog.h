/*
 * mpiprog.h - what the MPI programs of benchmarks/ share: usage and
 * errors that let MPI finish first, numeric options, a clock, and
 * --help and --version answered before MPI_Init.  A program defines
 * PROG, its name, and usage_line, its usage without "usage: ", then
 * includes this once.
 */
#ifndef MPIPROG_H
#define MPIPROG_H

#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "help.h"	/* build/help.h, from the man pages */

static int rank, nranks;

/*
 * Open MPI keeps memory until exit that LeakSanitizer reports as
 * leaks; in a sanitizer build they are not this program's.
 */
const char *__asan_default_options(void);
const char *
__asan_default_options(void)
{
	return "detect_leaks=0";
}

static inline void
usage(FILE *f, int status)
{
	if (rank == 0)
		fprintf(f, "usage: %s\n", usage_line);
	MPI_Finalize();
	exit(status);
}

/* "PROG: msg" from the first rank, and exit 2. */
static inline void
fail_msg(const char *msg)
{
	if (rank == 0)
		fprintf(stderr, "%s: %s\n", PROG, msg);
	MPI_Finalize();
	exit(2);
}

/* "PROG: msg 'arg'" from the first rank, and exit 2. */
static inline void
fail(const char *msg, const char *arg)
{
	char line[256];

	snprintf(line, sizeof(line), "%s '%s'", msg, arg);
	fail_msg(line);
}

static inline void
fail_invalid(const char *what, const char *arg)
{
	char msg[128];

	snprintf(msg, sizeof(msg), "invalid %s", what);
	fail(msg, arg);
}

static inline long
number(const char *s, long min, long max, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || v < min || v > max)
		fail_invalid(what, s);
	return v;
}

/* A decimal from 0 to max (seconds, a tolerance), or the exit 2. */
static inline double
decimal(const char *s, double max, const char *what)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || errno != 0 || !(v >= 0) || !(v <= max))
		fail_invalid(what, s);
	return v;
}

static inline double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * --help and --version before MPI_Init: without mpirun there is
 * nothing to start, and under mpirun only the first rank speaks.
 */
static inline void
early_options(int argc, char *argv[])
{
	const char *r = getenv("OMPI_COMM_WORLD_RANK");
	int i, speak;

	if (r == NULL)
		r = getenv("PMI_RANK");
	speak = r == NULL || strcmp(r, "0") == 0;
	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "-h") == 0 ||
		    strcmp(argv[i], "--help") == 0) {
			if (speak) {
				printf("usage: %s\n", usage_line);
				for (size_t k = 0; trc_help_table[k] != NULL;
				    k += 2)
					if (strcmp(trc_help_table[k], PROG) == 0 &&
					    *trc_help_table[k + 1] != '\0')
						printf("options:\n%s",
						    trc_help_table[k + 1]);
			}
		} else if (strcmp(argv[i], "--version") == 0) {
			if (speak)
				printf("%s %s\n", PROG, TRC_VERSION_STRING);
		} else
			continue;
		exit(fflush(stdout) != 0 || ferror(stdout) ? 2 : 0);
	}
}

#endif
