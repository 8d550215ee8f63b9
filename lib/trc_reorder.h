/*
 * trc_reorder.h - a time-sorted output queue: events come in at new
 * times, in any order, and go out to a writer sorted by those times
 * (ties in the order they came) once the caller says that nothing
 * earlier can still come, as trc-scale's replay engine says with its
 * watermark.  It knows nothing of ranks or models.
 *
 * Each event is formatted when queued, with t0= its recorded time
 * added, into 64 KB chunks taken in turn and given back when their
 * last record is written, so memory follows the events queued and no
 * record is ever moved.
 */
#ifndef TRC_REORDER_H
#define TRC_REORDER_H

#include <stddef.h>
#include <stdint.h>

struct trc_event;
struct trc_writer;

struct trc_reorder;

/* A queue writing to w; NULL when out of memory. */
struct trc_reorder *trc_reorder_new(struct trc_writer *w);
/*
 * Queue event e at time t, with t0=t0 after its attributes unless it
 * has a t0= of its own.  Returns 0, or -1 when out of memory.
 */
int	 trc_reorder_put(struct trc_reorder *, const struct trc_event *e,
	    int64_t t, int64_t t0);
/*
 * Write every queued event earlier than wm, sorted.  Returns 0, -1
 * when out of memory, or -2 when writing failed (trc_werror() of the
 * writer says why).
 */
int	 trc_reorder_release(struct trc_reorder *, int64_t wm);
/* The most events queued at once so far. */
size_t	 trc_reorder_peak(const struct trc_reorder *);
/* Frees the queue and whatever it still holds, unwritten. */
void	 trc_reorder_free(struct trc_reorder *);

#endif
