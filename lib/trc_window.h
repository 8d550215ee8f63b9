/*
 * trc_window.h - a time window cut out of a stream (trc-cat --time),
 * kept a valid stream: what is open at the window's start (regions,
 * calls, posted requests, messages in flight, collectives some ranks
 * entered) begins again at its start, and what is open at its end is
 * closed there where the stream can say how.
 */
#ifndef TRC_WINDOW_H
#define TRC_WINDOW_H

#include <stdint.h>

struct trc_event;

/* What the cut did at the edges, for the report. */
struct trc_window_counts {
	/* Start: messages sent before it and received in it, sent again
	 * at the start; receives that ended before it of sends that end
	 * in it; collectives some ranks had left before it, entered
	 * again; regions, calls and posted requests begun again. */
	long	 msg_before, recv_early, coll_before, reopened;
	/* End: messages sent in it and not received in it; receives and
	 * sends completed at the end by a message in the window; ranks
	 * entered at the end into a collective the others had entered;
	 * collectives left incomplete; calls left open; regions closed. */
	long	 msg_after, recv_closed, send_closed, coll_entered,
		 coll_cut, calls_open, closed;
	int	 started, ended;
};

struct trc_window;

/*
 * A window [lo, hi] of a stream of nranks ranks (0: not known; then
 * collectives open at an edge are not completed).  emit gets every
 * event of the cut stream, in time order; its -1 stops the cut.
 */
struct trc_window *trc_window_new(int64_t lo, int64_t hi, int32_t nranks,
	    int (*emit)(void *, const struct trc_event *), void *arg);
/*
 * The next event of a stream sorted by time: 1 while more are wanted,
 * 0 once the window has ended (the rest need not be read), -1 on error
 * (out of memory, or emit's -1) with trc_window_error().
 */
int	 trc_window_add(struct trc_window *, const struct trc_event *);
/* The input ended. */
int	 trc_window_end(struct trc_window *);
const struct trc_window_counts *trc_window_counts(const struct trc_window *);
const char *trc_window_error(const struct trc_window *);
void	 trc_window_free(struct trc_window *);

/*
 * "from-to" or "from,to" in seconds, either side may be left out (0
 * and the end of time): -1 if malformed or from > to.  parse reads one
 * side (trc_parse_time, trc_parse_int).
 */
int	 trc_parse_range(const char *s, int (*parse)(const char *, size_t,
	    int64_t *), int64_t *lo, int64_t *hi);

#endif
