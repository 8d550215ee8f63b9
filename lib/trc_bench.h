/*
 * trc_bench.h - a benchmark from a trace (bench.c, trc-bench(1)): one
 * C11 and MPI program that makes the traced MPI calls, rank by rank,
 * with the same peers, tags, sizes, communicators and requests, and
 * busy-waits the recorded computation between them.  Each rank's
 * calls are compressed into loops (trc_loops.h), so the program
 * stays small when the run repeats itself.
 */
#ifndef TRC_BENCH_H
#define TRC_BENCH_H

struct trc_ratios;

struct trc_bench_opts {
	int		 deterministic;	/* wildcards become what they took */
	int		 window;	/* trc-loops' window, 0: its default */
	int		 wall;		/* wall-clock computation, never cpu= */
	int		 conceptual;	/* a coNCePTuaL program, not C */
	double		 cpu_ratio;	/* every computation times this; 0: 1 */
	struct trc_ratios *ratios;	/* or a ratio table; NULL: none */
	const char	*name;		/* the trace's, for the comment */
};

struct trc_bench;
/* NULL only when out of memory; an error is kept for trc_bench_add. */
struct trc_bench *trc_bench_new(const struct trc_header *,
		    const struct trc_bench_opts *);
/* The stream's events in its order: 0, or -1 with trc_bench_error(). */
int		 trc_bench_add(struct trc_bench *, const struct trc_event *);
/* The program: 0, or -1 with trc_bench_error() (empty on a write
 * error, which the caller finds on the stream). */
int		 trc_bench_write(struct trc_bench *, FILE *);
const char	*trc_bench_error(const struct trc_bench *);
void		 trc_bench_free(struct trc_bench *);

#endif
