/*
 * trc_choice.h - the choice points of a trace, and the first one where
 * two traces differ.
 *
 * A choice point is where MPI chooses by timing (trc(5), "Choices"):
 * a receive posted with peer=* or tag=* (its RB, settled by its RE), a
 * probe asking for either (WB op=probe, iprobe, mprobe or improbe,
 * settled by its WE), a wait or test that completes any or some of
 * its requests (WB op=waitany, waitsome, testany or testsome, settled
 * by its WE).  An Mrecv's receive is not one: its probe chose.
 *
 * Each rank's choice points are numbered in the order the calls were
 * made (the RB or WB), and two traces are compared choice by choice on
 * each rank: the k-th of a rank in one against the k-th of that rank in
 * the other.  Two differ when the call, what it asked or what it took
 * differ, or when one trace has no k-th choice on that rank.  The first
 * difference is the earliest in the first trace's order (its line);
 * one that only the second trace has comes after every other.
 *
 * Memory: per rank, the choice points posted and not yet settled (the
 * wildcard receives in flight) and, while the two traces are read side
 * by side, those one trace has reached and the other not yet.
 */
#ifndef TRC_CHOICE_H
#define TRC_CHOICE_H

#include <stddef.h>
#include <stdint.h>

struct trc_event;
struct trc_reader;

#define TRC_CHOICE_CALL	16

struct trc_choice {
	int32_t	 rank;
	long	 index;		/* among the rank's choice points, from 1 */
	long	 line;		/* the RB, or the WB of a probe or wait */
	long	 end;		/* the RE or WE that settled it; 0: never */
	char	 call[TRC_CHOICE_CALL];	/* recv, irecv, probe, waitany, ... */
	char	*asked;		/* "peer=* tag=7", "req=1,2" */
	char	*took;		/* "peer=1 tag=7", "req=2"; "" when never settled */
};

struct trc_choices;

/* name is the trace's name for messages; NULL only when out of memory. */
struct trc_choices *trc_choices_new(const char *name);
/* One event, in stream order: 0, or -1 on error. */
int		 trc_choices_event(struct trc_choices *, const struct trc_event *);
/* The end of the stream: what was never settled becomes ready; 0 or -1. */
int		 trc_choices_end(struct trc_choices *);
/*
 * The next choice point ready, each rank's in call order (one is ready
 * when it and every earlier one of its rank are settled): 1, the
 * strings then the caller's (trc_choice_clear); 0 when none is ready.
 */
int		 trc_choices_next(struct trc_choices *, struct trc_choice *);
const char	*trc_choices_error(const struct trc_choices *);
void		 trc_choices_free(struct trc_choices *);
void		 trc_choice_clear(struct trc_choice *);

/* The first difference: a or b has line 0 when its trace has none. */
struct trc_choice_diff {
	struct trc_choice a, b;
};

/*
 * Reads both traces to their end, side by side: 1 with the first
 * difference, 0 when every choice point is the same, -1 with a
 * message in err (the readers' "file:line: message" when they fail).
 */
int		 trc_choice_diff(struct trc_reader *a, struct trc_reader *b,
		    struct trc_choice_diff *, char *err, size_t errlen);
void		 trc_choice_diff_free(struct trc_choice_diff *);
/*
 * "rank 0 recv a.trc:9 took peer=1 tag=7, b.trc:9 took peer=2 tag=7":
 * the rank, the call and the line of the first trace's choice, what it
 * took, and the second's (with its call when that differs); a trace
 * without that choice shows as "b.trc: none".  Returns the length it
 * needed, as snprintf does.
 */
size_t		 trc_choice_diff_format(const struct trc_choice_diff *,
		    const char *name_a, const char *name_b, char *buf,
		    size_t len);

#endif
