/*
 * trc_perturb.h - where the delays of a perturbation run fall in a
 * recorded stream (DESIGN.md section 5): the TRC_DELAY specs of
 * libtrc-mpi(7) matched against the events of a trace as the tracer
 * matches them against the calls of a run, so that a trace can be
 * perturbed offline (trc-perturb(1)).
 *
 * The tracer delays a call after writing its begin event and before
 * calling MPI, so the delay of a call lengthens the interval that ends
 * at the rank's next event; the delay of a region's end (call=pe) falls
 * before its PE.  Each spec counts, on each rank, the calls it matches
 * (call, ranks, open region) for occ=.  The call of an event:
 *	SB		send, or its op= (ssend, rsend, bsend)
 *	SB req=		isend, or its op= (issend, irsend, ibsend, start)
 *	RB		recv, or its op= (mrecv)
 *	RB req=		irecv, or its op= (imrecv, start)
 *	WB		its op=: wait, waitall, waitany, waitsome, probe,
 *			mprobe; sendrecv for both sendrecv and
 *			sendrecv_replace
 *	XB		its op=, the collective, blocking or not
 *	PB, PE		pb, pe
 * Tests, iprobe and improbe are never delayed.  MPI_Sendrecv writes SB,
 * SE and RB with req= and op=sendrecv at one time and then WB
 * op=sendrecv, the call.  Traces from before its parts said op= (and
 * from other tracers) are read so too: an SB req= whose SE has the
 * same time, and an RB req= followed at the same time by that WB, are
 * its parts, not an isend or an irecv.  So the call of an SB req= or an
 * RB req= is known only at the rank's next event, which is where its
 * delay goes anyway.
 *
 * Memory: the specs, and per rank a counter per spec and the open
 * regions.
 */
#ifndef TRC_PERTURB_H
#define TRC_PERTURB_H

#include <stddef.h>
#include <stdint.h>

struct trc_event;
struct trc_factor;
struct trc_perturb;

struct trc_perturb *trc_perturb_new(void);
/*
 * Add delay specs, "call=send,ranks=1,delay=0.2;call=pe,delay=1"
 * (trc-factors(5)); an empty string adds none.  Returns 0, or -1 with a
 * message in err ("spec 2: ..." when there are several).
 */
int	 trc_perturb_parse(struct trc_perturb *, const char *specs,
	    char *err, size_t errlen);
/* Add one factor's location and delay.  Returns 0, or -1 (no memory). */
int	 trc_perturb_add(struct trc_perturb *, const struct trc_factor *);
/*
 * The next event of a rank, each rank's events in their order: *before
 * is the delay to add before it (the delay of the rank's previous call,
 * known now, or of a region's end), *after the delay to add after it,
 * before the rank's next event.  Returns 0, or -1 when out of memory.
 */
int	 trc_perturb_event(struct trc_perturb *, const struct trc_event *,
	    int64_t *before, int64_t *after);
/*
 * What one spec (in the order added) has matched so far, stage by
 * stage, so that a spec that never fires can say why.
 */
struct trc_perturb_tally {
	unsigned long long calls;	/* its call on its ranks */
	unsigned long long inregion;	/* of them, in its region */
	unsigned long long fired;	/* of them, in its occ=: delays */
	int64_t		 most;		/* inregion on one rank, at most */
	int		 opened;	/* its region= opened on some rank */
};

size_t	 trc_perturb_nspecs(const struct trc_perturb *);
const struct trc_perturb_tally *trc_perturb_tally(const struct trc_perturb *,
	    size_t);
/*
 * Why spec i, after a whole trace of nranks ranks (0: unknown), never
 * fired or fired less than it asks: 0 with buf "" when nothing is
 * wrong, 1 when only part of it cannot match (ranks beyond the trace,
 * occurrences beyond the calls made), 2 when it never fired; buf says
 * why, as "no call isend on any rank in the trace".
 */
int	 trc_perturb_why(const struct trc_perturb *, size_t i, int32_t nranks,
	    char *buf, size_t len);
/* Delays matched so far, and their sum in nanoseconds. */
unsigned long long trc_perturb_count(const struct trc_perturb *);
int64_t	 trc_perturb_total(const struct trc_perturb *);
void	 trc_perturb_free(struct trc_perturb *);

#endif
