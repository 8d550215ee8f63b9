/*
 * trc_hostcond.h - the conditions a run met on its host, as trc(5)'s
 * #load and #cpu lines say them: the load average and the steal time
 * at its start and end, read by one process, and each rank's CPU time
 * against the wall time between the two.  Written by libtrc-mpi into a
 * trace's header and by trc-pingpong into its measurements; read back
 * and judged by trc_disturb.h.  Nothing here needs the rest of lib/,
 * so that the tracer and trc-pingpong link this file alone.
 */
#ifndef TRC_HOSTCOND_H
#define TRC_HOSTCOND_H

#include <stdint.h>
#include <stdio.h>

struct trc_hostcond {
	double		 load;		/* 1-minute load average, -1 unknown */
	long long	 steal, total;	/* /proc/stat ticks, -1 unknown */
};

/* The host's load average and steal and total CPU ticks, now. */
void	 trc_hostcond_read(struct trc_hostcond *);
/* This process's CPU time in ns. */
int64_t	 trc_process_cpu(void);
/* "#load start=... end=... cpus=N steal=P\n" for a run between the two. */
void	 trc_hostcond_write(FILE *, const struct trc_hostcond *start,
	    const struct trc_hostcond *end);
/* "#cpu rank=R cpu=S wall=S\n", times in ns. */
void	 trc_cpu_write(FILE *, long rank, int64_t cpu, int64_t wall);
/*
 * "#own reads=N read=S events=M line=S skip=S\n": the tracer's own time
 * that cpu= leaves out, from histograms of nbins bins (the last holds
 * what is past it) of its readings of the CPU clock, read_bin ns wide,
 * and of its events' lines, line_bin ns wide: their counts and
 * medians; skip_ns is how long it goes between readings at least.
 */
void	 trc_own_write(FILE *, const int64_t *reads, int64_t read_bin,
	    const int64_t *lines, int64_t line_bin, int nbins, int64_t skip_ns);

#endif
