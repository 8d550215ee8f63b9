/*
 * trc_disturb.h - is a run disturbed?  The tracer's header lines (the
 * host's load and steal time, each rank's CPU time against wall time,
 * trc(5)) and a run's summary are read for signs that another job held
 * its cores: a prediction from such a run predicts the other job.
 */
#ifndef TRC_DISTURB_H
#define TRC_DISTURB_H

#include <stdint.h>

struct trc_str;
struct trc_summary;

/* The #load and #cpu lines; -1 (or 0 ranks) where not given. */
struct trc_runcond {
	double	 load[2];	/* at the start and the end */
	long	 cpus;		/* 0 when not given */
	double	 steal;		/* percent */
	int32_t	 n;		/* ranks of cpu and wall */
	int64_t	*cpu, *wall;	/* ns, per rank, -1 unknown */
};

/* A rank on a CPU for less of its computation's time than this. */
#define TRC_DISTURB_CPU		0.75
/* One procedure's lifetimes on a rank, after the first, varying more
 * than this (cv). */
#define TRC_DISTURB_CV		1.0
/* A run's wall time over this many times its busiest rank's CPU time. */
#define TRC_DISTURB_WALL	2.0
/* The host's CPU time stolen by a hypervisor, in percent. */
#define TRC_DISTURB_STEAL	10.0

/* Reads the header's extra lines; 0, or -1 when out of memory. */
int	 trc_runcond_parse(const struct trc_str *extra, struct trc_runcond *);
void	 trc_runcond_free(struct trc_runcond *);

/*
 * The tracer's own time that cpu= leaves out (the #own line): each
 * reading of the CPU clock, made at an event once skip has passed since
 * the last one ended, and each event's line.
 */
struct trc_own {
	int64_t		 read;		/* a reading, ns */
	int64_t		 line;		/* an event's line, ns */
	int64_t		 skip;		/* the least time between readings */
};
/* The extra lines' #own line in *o: 1, 0 when they have none, -1 when
 * it lacks a value or has an invalid one. */
int	 trc_own_parse(const struct trc_str *extra, struct trc_own *);
/*
 * Calls say(arg, sign) for each sign of a disturbed run, a sentence
 * naming the rank and the procedure; returns how many, or -1 when out
 * of memory.  Procedures are judged only when they take 2% or more of
 * their rank's time (TRC_VS_MINOR) and occur 3 times or more, by their
 * lifetimes after the first (warm-up).
 */
int	 trc_disturbed(const struct trc_runcond *, const struct trc_summary *,
	    void (*say)(void *, const char *), void *arg);
/*
 * The same for a run whose ranks never wait off a CPU (trc-pingpong's
 * measurements: they poll, spin or sweep), from its #load and #cpu
 * lines alone: a rank on a CPU for less than TRC_DISTURB_CPU of its
 * wall time (of 10 ms or more), and steal time.  Returns how many.
 */
int	 trc_runcond_busy(const struct trc_runcond *,
	    void (*say)(void *, const char *), void *arg);

#endif
