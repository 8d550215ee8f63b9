/*
 * trc_match.h - message matching.  A send (SE) is paired with its
 * receive completion (RE) by (source, destination, tag, communicator)
 * in FIFO order, as MPI's non-overtaking rule pairs them, whichever of
 * the two the stream shows first.  Collectives are paired by
 * (communicator, per-communicator sequence number): the k-th
 * collective a rank enters on a communicator is instance k.  Memory is
 * bounded by the messages and collectives in flight.
 */
#ifndef TRC_MATCH_H
#define TRC_MATCH_H

#include <stddef.h>
#include <stdint.h>

/* One message end, with three payload words for the caller. */
struct trc_msg {
	int32_t		 src, dst, tag, comm;
	int64_t		 bytes;
	int64_t		 val;		/* e.g. the predicted time of SE */
	int64_t		 aux;		/* e.g. a send sequence number */
	int64_t		 aux2;		/* e.g. the recorded time of SE */
	long		 line;
	int		 send;		/* 1 for a send, 0 for a receive */
};

struct trc_coll {
	int32_t		 comm;
	int64_t		 seq;
	int32_t		 arrived;	/* participants that entered */
	int32_t		 left;		/* participants the caller let go */
	int64_t		 val, aux;	/* the caller's, 0 at first */
	int64_t		 idle, idle_p2p;	/* the caller's, 0 at first */
	int32_t		 last;		/* the caller's, 0 at first */
	int32_t		 size;		/* the caller's: participants due */
	void		*user;		/* the caller's, NULL at first */
	long		 line;		/* where the first one entered */
	int32_t		 rank;		/* which rank that was */
};

struct trc_match;

struct trc_match *trc_match_new(void);
void	 trc_match_free(struct trc_match *);
/*
 * A send leaves (m->send is ignored).  When a receive of the same
 * channel is waiting, returns 1 with the oldest one in *peer and
 * forgets both; else queues the send and returns 0.  -1: no memory.
 */
int	 trc_match_send(struct trc_match *, const struct trc_msg *m,
	    struct trc_msg *peer);
/* A receive completes: the same, the other way round. */
int	 trc_match_recv(struct trc_match *, const struct trc_msg *m,
	    struct trc_msg *peer);
/*
 * The oldest send waiting on channel (src, dst, tag, comm): returns 1
 * with it in *m, left in place, or 0 when none waits.
 */
int	 trc_match_peek(const struct trc_match *, int32_t src, int32_t dst,
	    int32_t tag, int32_t comm, struct trc_msg *m);
/* The same for the oldest receive waiting on the channel. */
int	 trc_match_peek_recv(const struct trc_match *, int32_t src,
	    int32_t dst, int32_t tag, int32_t comm, struct trc_msg *m);
/*
 * A hint: trc_match_peek() of that channel comes soon, so its slot is
 * fetched into the cache now.
 */
void	 trc_match_prefetch(const struct trc_match *, int32_t src,
	    int32_t dst, int32_t tag, int32_t comm);
/*
 * Of the sends waiting for a receive at dst with tag (TRC_ANY: any)
 * and comm, the one with the least val: returns 1 with it in *m, left
 * in place, or 0 when there is none.  For receives from any source
 * matched in arrival order.  It looks at every channel in flight.
 */
int	 trc_match_peek_any(const struct trc_match *, int32_t dst,
	    int32_t tag, int32_t comm, struct trc_msg *m);
/*
 * Call fn with the oldest send of every channel to dst that holds
 * sends, in no order, until fn returns non-zero; returns that, or 0.
 * For choices among messages by rules of the caller's: it looks at
 * every channel in flight.
 */
int	 trc_match_heads(const struct trc_match *, int32_t dst,
	    int (*fn)(void *, const struct trc_msg *), void *arg);
/*
 * Forget the oldest send of m's channel, as a receive that took it
 * would: returns 0, or -1 when that channel holds no send.
 */
int	 trc_match_take(struct trc_match *, const struct trc_msg *m);
/*
 * The newest send waiting on m's channel takes m's val and aux (a send
 * whose end was known only later): returns 0, or -1 when that channel
 * holds no send.
 */
int	 trc_match_set(struct trc_match *, const struct trc_msg *m);
/* Messages waiting for their other end. */
size_t	 trc_match_pending(const struct trc_match *);
/*
 * What is left unmatched, sorted by line, in a new array of *n
 * (free() it); the table is emptied.  NULL with *n = 0 when none or
 * out of memory (then *n = (size_t)-1).
 */
struct trc_msg *trc_match_leftovers(struct trc_match *, size_t *n);
/*
 * The message waiting longest, the least line of the channels' oldest
 * (for a limit's error): 1 with it in *m, 0 when none.  It looks at
 * every channel in flight.
 */
int	 trc_match_oldest(const struct trc_match *, struct trc_msg *m);

/*
 * The messages in flight (sent and not yet received, or received and
 * not yet sent, in the order read) at most: the environment's
 * TRC_MSG_MAX, else this; past it an error names the oldest.  The
 * tools that match messages (trc-scale, trc-perturb, trc-stable,
 * trc-graph, trc-race, trc-svg) keep to it.
 */
#define TRC_MSG_MAX_DEFAULT	((size_t)4 << 20)
/* TRC_MSG_MAX or the default in *max: 0, or -1 when it is invalid. */
int	 trc_msg_max(size_t *max);
/*
 * More than a cap wait: the error naming the one waiting longest, as
 * "send to rank 1 tag 0 comm 0 still unmatched with 4194305 messages
 * in flight (TRC_MSG_MAX)", into err; returns its line.
 */
long	 trc_match_too_many(const struct trc_match *, char *err, size_t len);

/*
 * rank enters its next collective on comm: returns the instance,
 * created by the first participant, with arrived counted; NULL when
 * out of memory.
 */
struct trc_coll *trc_coll_enter(struct trc_match *, int32_t comm,
	    int32_t rank, long line);
/* The caller is done with an instance: it is freed. */
void	 trc_coll_release(struct trc_match *, struct trc_coll *);
/* Collective instances not yet released. */
size_t	 trc_coll_pending(const struct trc_match *);
/* The oldest unreleased instance (by first line), or NULL. */
const struct trc_coll *trc_coll_oldest(const struct trc_match *);

#endif
