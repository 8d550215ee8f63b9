/*
 * trc_scale.h - the transform engine of trc-scale(1) and of offline
 * perturbation (DESIGN.md sections 4 and 5): it replays each rank of a
 * stream in its own event order with a predicted clock and writes the
 * events, retimed, sorted by predicted time.
 *
 * What each interval costs on the target, and when each message
 * leaves and arrives, is asked of a model (trc_model.h), which the
 * engine never looks inside.  The engine holds the MPI semantics:
 * matching, a blocking send the model hands over ending no earlier
 * than its receiver is ready, the causality repair (a receive
 * completion no earlier than its message's arrival), a collective
 * completing at its latest participant's predicted begin plus its
 * cost, and the output's order.  A caller may add a delay before any
 * event of a rank (trc_scale_delay), and may ask that every choice
 * point (a wildcard receive, a wait for any, a probe) take the message
 * that now arrives first instead of the one recorded (rematch), so
 * that a perturbed run can be predicted from one trace.
 *
 * Memory is bounded by ranks, messages in flight and the events whose
 * predicted time another rank may still precede; never by the length
 * of the stream.
 */
#ifndef TRC_SCALE_H
#define TRC_SCALE_H

#include <stddef.h>
#include <stdint.h>

struct trc_model;
struct trc_header;
struct trc_event;
struct trc_writer;

struct trc_scale_conf {
	/* The costs (trc_model.h), NULL: every interval as recorded. */
	const struct trc_model	*model;
	/*
	 * Re-time with the recorded costs and decide every choice point
	 * again (trc-perturb(1)): receives posted with peer=* or tag=*,
	 * the receives of waits and tests for any or some, probes and the
	 * receive of what they saw each take the message that now arrives
	 * first, a candidate keeping the lateness that explains the
	 * recorded choice; the events that complete them get its peer=,
	 * tag=, bytes= and req=.  A receive, probe or collective end the
	 * recording has before its message or last participant keeps that
	 * lead, so that no delay reproduces the input exactly.
	 */
	int			 rematch;
	/*
	 * What a computation interval's unsuccessful polls are (enum
	 * trc_poll_mode; 0, computation, keeps the stream's lengths), and
	 * whether its cpu= is its computation time, each when the #clock
	 * line declares it (trc(5)).
	 */
	int			 poll;
	int			 cpu;
	/*
	 * The cores the target gives the ranks, when fewer than the
	 * ranks (0: one each): computation intervals share them (cores.c).
	 */
	int32_t			 cores;
	/* With cores, rank r bound to core r mod cores (--bound), not
	 * moved to whichever is free. */
	int			 bound;
	/*
	 * Predict the run as traced: with cpu=, the tracer's own time
	 * that cpu= leaves out (the header's #own line, trc(5)) is put
	 * back after each predicted event, a reading of the CPU clock
	 * wherever the tracer on the target would make one.
	 */
	int			 traced;
	/*
	 * With bound cores shared by ranks, what the core's passing from
	 * one rank to another costs (ns, 0: nothing): at a computation
	 * after another rank's on the core, at the end of a call that
	 * waited for another rank, and at each round of a collective.
	 */
	int64_t			 switch_ns;
	const char		*outname;	/* for write errors; NULL: "<stdout>" */
};

/* What happened so far, for -v. */
struct trc_scale_stats {
	unsigned long long	 events;	/* written */
	unsigned long long	 repaired;	/* RE moved later by their send */
	int64_t			 repair_ns;	/* by this much in all */
	unsigned long long	 skew;		/* RE read before their send */
	unsigned long long	 unlabelled;	/* intervals without a ratio row */
	/* --outliers delay or drop: intervals taken as median and delay,
	 * and the delays' sum (the model's outliers op). */
	unsigned long long	 outliers;
	int64_t			 outlier_ns;
	unsigned long long	 held;		/* events held while their rank waited */
	size_t			 maxheld;	/* at most at once */
	size_t			 maxqueued;	/* output waiting, at most */
	unsigned long long	 rematched;	/* RE and probes given another message */
	int64_t			 delay_ns;	/* added by trc_scale_delay */
	unsigned long long	 synced;	/* sends that waited for the receiver */
	int64_t			 sync_ns;	/* by this much in all */
	unsigned long long	 unstuck;	/* of them, let go from a receiver held elsewhere */
	unsigned long long	 exchanged;	/* of those, sends to a receiver sending back */
	unsigned long long	 xwaits;	/* receives of an eager exchange (exchange_wait) */
	unsigned long long	 xlate;		/* of them, the later sender's after its send */
	unsigned long long	 away;		/* blocking sends begun with the receiver away */
	unsigned long long	 took;		/* receives that took the next message too (recv.c) */
	unsigned long long	 takeheld;	/* receives that waited to see it */
	unsigned long long	 switches;	/* --switch: core switches added */
	int			 own_missing;	/* --traced, cpu=, no #own line */
	unsigned long long	 own_reads;	/* --traced: readings put back */
	int64_t			 own_ns;	/* their time and the lines' */
	/*
	 * At the end: how cold the ranks' calls ran on the base (the
	 * model's coldness), over the cold_ranks ranks measured, the
	 * weight of their calls in cold_calls: the least (of rank
	 * cold_rmin), the most (cold_rmax), the mean over the ranks.
	 */
	int32_t			 cold_ranks, cold_rmin, cold_rmax;
	double			 cold_calls, cold_min, cold_max, cold_mean;
};

struct trc_scale;

/* The messages in flight at most: TRC_MSG_MAX (trc_match.h). */

/*
 * An engine for the stream of header h read from name, writing to w,
 * to which it writes the output header (h with order=time) first.
 * NULL when out of memory.
 */
struct trc_scale *trc_scale_new(const struct trc_scale_conf *,
	    const struct trc_header *h, const char *name, struct trc_writer *w);
/*
 * The next event of the input.  Returns 0, or -1 with the message in
 * trc_scale_error(), "file:line: message".  Events are written as soon
 * as no rank can still produce an earlier one.
 */
int	 trc_scale_feed(struct trc_scale *, const struct trc_event *);
/*
 * Hold rank up by ns nanoseconds before its next event fed: the
 * interval that ends at that event grows by ns (less what a later
 * causality wait absorbs), and every later event of the rank moves.
 * Delays add up; ns <= 0 is ignored.
 */
void	 trc_scale_delay(struct trc_scale *, int32_t rank, int64_t ns);
/*
 * The input ended: write everything left and check for what never
 * matched.  Returns the number of errors (receives without a send,
 * collectives never completed), each described by trc_scale_diag(), or
 * -1 with trc_scale_error() when writing failed.
 */
int	 trc_scale_finish(struct trc_scale *);
/*
 * The i-th diagnostic of trc_scale_finish(), "file:line: message"
 * (warnings start the message with "warning: "); NULL past the last.
 */
const char *trc_scale_diag(const struct trc_scale *, size_t i);
const char *trc_scale_error(const struct trc_scale *);
const struct trc_scale_stats *trc_scale_stats(const struct trc_scale *);
void	 trc_scale_free(struct trc_scale *);

#endif
