/*
 * trc_race.h - message races from one trace (trc-race(1)).
 *
 * A choice point is where MPI chooses by timing (trc(5), "Choices"): a
 * receive posted with peer=* or tag=*, a probe asking for either, a
 * wait or test that completes any or some of its requests.  It races
 * when a message other than the one taken could have been taken: a
 * send that matches what was asked, is not received by a receive
 * posted before the choice, and does not happen after the choice.
 *
 * Happens-before comes from vector clocks: a rank's own entry counts
 * its choices, a send carries its rank's clock, a receive merges it, a
 * collective merges what its operation carries (everything for
 * allreduce and barrier, the root's for bcast and scatter, everyone's
 * into the root for reduce and gather).  A send happens after choice c
 * of rank r exactly when its clock's entry r has reached c's.
 *
 * Events are taken in stream order; a rank whose receive or
 * collective end comes before what it waits for (skewed clocks, a
 * stream by rank) waits, its later events queued, until it comes.
 * Memory: O(ranks^2) clocks, O(ranks) per message and collective in
 * flight, per queued event, and per open choice (one that a rank
 * which could still send a competitor has not heard of).
 */
#ifndef TRC_RACE_H
#define TRC_RACE_H

#include <stddef.h>
#include <stdint.h>

struct trc_event;

/* A message: its send's line and source, and the request of the
 * choice it concerns (any-of choices), else TRC_NONE. */
struct trc_race_msg {
	long		 line;		/* of the SE; 0 when unknown */
	int32_t		 src;
	int64_t		 req;
	int		 send_req;	/* a send request that could complete */
};

/* A choice point that races, as it is settled. */
struct trc_race_point {
	long		 line;		/* the RB, or the WB of a probe or wait */
	int32_t		 rank;
	const char	*call;		/* recv, irecv, probe, waitany, ... */
	int32_t		 peer, tag, comm;	/* what a receive or probe asked */
	const char	*reqs;		/* what an any-of wait had: "1,2,3" */
	const struct trc_race_msg *took;	/* in request order */
	size_t		 ntook;
	const struct trc_race_msg *could;	/* sorted by line */
	size_t		 ncould;
};

struct trc_race_stats {
	uint64_t	 events, choices, races;
	size_t		 peak_open;	/* choices open at once */
	size_t		 peak_msgs;	/* messages in flight at once */
	size_t		 peak_queued;	/* events queued at once */
};

struct trc_race;

/*
 * Ranks at most, unless the environment's TRC_RACE_MAX says: the
 * clocks take ranks^2 entries (1 GiB at this many), so more is an
 * error, not a machine brought to its knees.
 */
#define TRC_RACE_MAXRANKS	16384

/*
 * name is the trace's name for messages; ranks the header's (0: not
 * known, then collectives on the world need size=).  report is called
 * for each race as it is settled, in line order among those settled
 * together; a non-zero return stops the analysis (trc_race_event and
 * trc_race_end then return 1).  NULL only when out of memory.
 */
struct trc_race	*trc_race_new(const char *name, int32_t ranks,
		    int (*report)(void *, const struct trc_race_point *),
		    void *arg);
/* One event, in stream order: 0, 1 when stopped, -1 on error. */
int		 trc_race_event(struct trc_race *, const struct trc_event *);
/* The end of the stream: settles what is open; 0, 1, or -1. */
int		 trc_race_end(struct trc_race *);
/* "file:line: message" of the error. */
const char	*trc_race_error(const struct trc_race *);
void		 trc_race_stats(const struct trc_race *, struct trc_race_stats *);
void		 trc_race_free(struct trc_race *);

#endif
