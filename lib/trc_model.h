/*
 * trc_model.h - the machine model behind trc-scale(1) (DESIGN.md
 * section 4): what each interval of a replayed trace costs on the
 * target machine, and when each message leaves and arrives, as a table
 * of functions a model implements.  The replay engine (lib/scale/)
 * holds the per-rank queues, blocking, matching, causality repair and
 * output order, and calls a model only through this table: it never
 * knows which one it runs.
 *
 * Models (lib/model/):
 *	recorded	every interval as recorded (trc-perturb(1))
 *	fit		Mendes' model: piecewise fits of measurements,
 *			trc-fit(5), with computation ratios
 *	loggp		LogGP parameters, trc-loggp(5), with computation
 *			ratios
 *
 * Times are integer nanoseconds.  Predicted times are on the target's
 * clock; "recorded" times are the input's.
 */
#ifndef TRC_MODEL_H
#define TRC_MODEL_H

#include <stddef.h>
#include <stdint.h>

struct trc_fit;
struct trc_ratios;
struct trc_str;

/* One message, as both its ends see it. */
struct trc_p2p {
	int32_t		 src, dst, tag, comm;
	int64_t		 bytes;
	int		 nonblocking;	/* sent with req= */
	/*
	 * Recorded: the computation on the calling rank since its last
	 * call that used the transport (a send, receive completion, wait,
	 * collective, or an interval with polls=), whose caches the call
	 * finds: a call after TRC_COLD_NS of it runs cold.
	 */
	int64_t		 idle;
	/*
	 * Recorded, a blocking send's: its receiver was in no send,
	 * receive or wait when it began (it computed, or was in another
	 * call), so that the send wrote its message alone (trc-pingpong's
	 * send-late); 0 when it was, or that is not known.
	 */
	int		 away;
};

/* The computation after which a call finds the transport cold. */
#define TRC_COLD_NS	INT64_C(20000)

/* What a recorded call measured, for a model's learn op. */
enum trc_learn_op {
	TRC_LEARN_SEND,		/* a send call, SB to SE */
	TRC_LEARN_ISEND,	/* the same, nonblocking */
	TRC_LEARN_RECV,		/* a receive of a message there already */
	TRC_LEARN_OPS
};

/* A send's end, and when its message leaves and arrives. */
struct trc_xfer {
	int64_t		 end;		/* predicted end of the send call */
	int64_t		 depart;	/* predicted: the message leaves */
	/*
	 * Predicted: the earliest end of the receive that takes it
	 * (with whatever the receiver's side of the transfer costs).
	 */
	int64_t		 arrive;
	/*
	 * Recorded: the earliest time the message can have left on the
	 * base machine, its SB; a receive that ends before it is clock
	 * skew (one that ends before its SE is the protocol: a handover,
	 * or the last bytes of a long eager send written after the
	 * receiver read the first).
	 */
	int64_t		 base;
	/*
	 * The target hands the message over only to a receiver inside
	 * its receive (rendezvous, 1): its arrival, and for a blocking
	 * send its end, wait for the receiver (handover).  Or
	 * (TRC_RDV_PROGRESS) to a receiver inside any MPI call that
	 * waits, whose progress takes the message (Open MPI's shared
	 * memory below its eager limit): a blocking send ends at its
	 * receiver's first such call, or its receive.
	 */
	int		 rdv;
};

#define TRC_RDV_PROGRESS	2

/* A collective instance, once its last participant has entered. */
struct trc_coll_call {
	const char	*op;		/* op=, not terminated */
	size_t		 oplen;
	int64_t		 bytes;		/* bytes= of the XE, 0 when none */
	int32_t		 size;		/* participants */
	int32_t		 comm;
	/*
	 * Recorded: from the latest entry to this participant's end;
	 * negative when it left before (trc-perturb's replay only).
	 */
	int64_t		 d;
	/*
	 * Recorded, of the participant that entered last (predicted): its
	 * computation since its last collective (or interval with polls=),
	 * after TRC_COLD_NS of which the collective runs cold; and since
	 * it last used the transport, as trc_p2p's idle.  A send or
	 * receive after the computation warms the transport's part of the
	 * collective but not its own (the algorithm's code and data): on
	 * this toolkit's host such a collective cost half way between the
	 * warm and the cold (an 8-byte allreduce after a 4 MiB sweep and
	 * a 3856-byte receive: 5.0 us against 0.6 and 10.2 over shared
	 * memory, 20 against 4.9 and 38 over TCP).
	 */
	int64_t		 idle, idle_p2p;
	int32_t		 rank;		/* that participant */
};

/* What a rank is doing, for bound(). */
enum trc_phase {
	TRC_PHASE_COMP,		/* computing */
	TRC_PHASE_SEND,		/* inside a send call */
	TRC_PHASE_RECV		/* in a receive, or in a wait */
};

struct trc_model_conf;

struct trc_model_ops {
	const char	*name;
	/* new: the model's state, or NULL with a message in err. */
	void	*(*new)(const struct trc_model_conf *, char *err,
		    size_t errlen);
	/*
	 * comp: the predicted length *dp of a computation interval of
	 * recorded length d ending now on rank.  Returns 0, 1 when no
	 * ratio row matched its label, -1 on error (error()).
	 */
	int	 (*comp)(void *, int32_t rank, int64_t d, int64_t *dp);
	/* region: a region fn begins on rank (PB), or ends (fn NULL, PE).
	 * Returns 0 or -1 (out of memory). */
	int	 (*region)(void *, int32_t rank, const struct trc_str *fn);
	/*
	 * send: a send call of m predicted to begin at begin, recorded
	 * from sb to se: fills *x.  Returns 0, or -1 on error (error()).
	 */
	int	 (*send)(void *, const struct trc_p2p *m, int64_t begin,
		    int64_t sb, int64_t se, struct trc_xfer *x);
	/*
	 * handover: a rendezvous message (x->rdv) whose send, eager,
	 * would have ended at x->end and left at x->depart meets its
	 * receiver, inside its receive from ready: sets x->end (never
	 * earlier), x->depart and x->arrive.  m->idle is the receiver's
	 * computation before it became ready when that was after x->end
	 * (it came to the sender waiting), 0 when it waited itself.
	 */
	void	 (*handover)(void *, const struct trc_p2p *m, int64_t ready,
		    struct trc_xfer *x);
	/*
	 * exchange: two ranks' blocking sends to each other, each held
	 * for the other (MPI_Irecv, MPI_Send, MPI_Wait on both, the usual
	 * swap of a halo): the end of the send of out, begun at begin,
	 * whose progress takes in, its peer's, begun at peer, meanwhile
	 * (in's receive then costs nothing more); or -1 when the model
	 * has no cost for it, and the engine hands each over alone.  May
	 * be NULL.
	 */
	int64_t	 (*exchange)(void *, const struct trc_p2p *out,
		    const struct trc_p2p *in, int64_t begin, int64_t peer);
	/*
	 * exchange_wait: the same swap where the target sends both
	 * eagerly, each blocking send ending at its own cost: the time
	 * by which the rank has taken m, its peer's message, whose send
	 * began at peer while the rank's own, begun at begin, went (its
	 * send's progress and then its wait's read m as it came); or -1
	 * when the model has no cost for it, and m arrives as a lone
	 * message.  May be NULL.
	 */
	int64_t	 (*exchange_wait)(void *, const struct trc_p2p *m,
		    int64_t begin, int64_t peer);
	/*
	 * learn: a call of m on the base (enum trc_learn_op) after
	 * TRC_COLD_NS of computation, recorded d long, whose length was
	 * the rank's own: a send (the model tells an eager one), or a
	 * receive that began after its message's send had ended.  Seen
	 * before the call is costed.  Returns 0, or -1 on error (error()).
	 * May be NULL.
	 */
	int	 (*learn)(void *, const struct trc_p2p *m, int op, int64_t d);
	/*
	 * coldness: how cold rank's calls ran on the base, 0 to 1, in *x,
	 * and the weight of the calls that measured it in *n (learn):
	 * 0, or -1 when none did.  May be NULL.
	 */
	int	 (*coldness)(void *, int32_t rank, double *x, double *n);
	/*
	 * outliers: how many computation intervals --outliers delay took
	 * as median and delay, and their delays' sum.  May be NULL.
	 */
	void	 (*outliers)(void *, unsigned long long *n, int64_t *excess);
	/*
	 * recv: the end of a receive of m begun at ready, recorded d
	 * long, if its message were there: the engine puts the receive
	 * at the later of this and the message's arrival.
	 */
	int64_t	 (*recv)(void *, const struct trc_p2p *m, int64_t ready,
		    int64_t d);
	/*
	 * wait: the end of the rest of a wait begun (or last completing
	 * a receive) at begin, recorded d long: a wait on sends alone,
	 * sbytes the size of the largest of them that was sent in the
	 * stream, or what follows its receive completions (sbytes -1).
	 */
	int64_t	 (*wait)(void *, int32_t rank, int64_t begin, int64_t d,
		    int64_t sbytes);
	/* coll: a collective's cost after its last participant entered. */
	int64_t	 (*coll)(void *, const struct trc_coll_call *c);
	/*
	 * bound: the least predicted time at which an interval of phase
	 * ph, begun at tp on rank and recorded at least dt long so far,
	 * can end: the output's watermark, which must agree with every
	 * cost above (a send's bound no later than its arrival).
	 */
	int64_t	 (*bound)(void *, int32_t rank, enum trc_phase ph, int64_t tp,
		    int64_t dt);
	/*
	 * poll: what one unsuccessful poll (MPI_Test, MPI_Iprobe, ...)
	 * costs on the target, or -1 when the model does not know.  May
	 * be NULL: the same as -1.
	 */
	int64_t	 (*poll)(void *, int32_t rank);
	const char *(*error)(void *);
	void	 (*free)(void *);
};

/* A model: its table and its state. */
struct trc_model {
	const struct trc_model_ops	*ops;
	void				*state;
};

/* What a model is built from. */
struct trc_model_conf {
	const char		*path;		/* its file, or NULL */
	const struct trc_fit	*fit;		/* fit: the target, read already */
	const char		*set;		/* "NAME=VALUE,...", or NULL */
	const struct trc_fit	*base;		/* the base machine, or NULL */
	struct trc_ratios	*ratios;	/* K per label and rank, or NULL */
	double			 cpu_ratio;	/* K when ratios is NULL; 0: 1 */
	int			 outliers;	/* enum trc_outliers */
};

/*
 * What an interval far longer than its label's usual ones is
 * (trc-scale(1), --outliers): computation, scaled as any (scale), its
 * label's median length of computation followed by a delay the host
 * added, which the target does not scale (delay), or that computation
 * alone, the delay the base host's (drop).
 */
enum trc_outliers {
	TRC_OUTLIERS_SCALE,
	TRC_OUTLIERS_DELAY,
	TRC_OUTLIERS_DROP
};

/*
 * A model by name ("fit", "loggp", "recorded"), built from conf, which
 * must outlive it (base and ratios stay the caller's).  NULL with a
 * message in err when the name is unknown, its file cannot be read or
 * is wrong ("file:line: ..."), or out of memory.
 */
struct trc_model *trc_model_new(const char *name,
	    const struct trc_model_conf *conf, char *err, size_t errlen);
void	 trc_model_free(struct trc_model *);
const char *trc_model_error(const struct trc_model *);
/* Every interval as recorded: the engine's model when given none. */
extern const struct trc_model trc_model_recorded;

/*
 * What the tracer recorded of a computation interval besides its
 * length (trc(5)), read only when the stream's #clock line declares it
 * (trc_comp_declared()), and how much of it the model scales (polls.c).
 */
#define TRC_COMP_CPU	1	/* cpu=: the thread's CPU time */
#define TRC_COMP_POLLT	2	/* pollt=: the time inside polls= */

/* What to make of the unsuccessful polls in an interval. */
enum trc_poll_mode {
	TRC_POLL_COMP,		/* computation, as recorded */
	TRC_POLL_WAIT,		/* waiting: free, the receive repairs it */
	TRC_POLL_COST		/* each costs the target's poll */
};

struct trc_comp {
	int64_t		 d;		/* its length on the wall clock */
	int64_t		 cpu;		/* cpu=, or -1 */
	int64_t		 polls;		/* polls=, 0 when none */
	int64_t		 pollt;		/* pollt=, 0 when none */
	int64_t		 pollcpu;	/* pollcpu=, or -1 */
};

struct trc_header;
struct trc_event;
/* ceil(log2 p): the rounds of a binomial tree or of recursive
 * doubling on p ranks (lib/model/coll.c). */
int	 trc_coll_rounds(int32_t p);

/* TRC_COMP_* of the header's #clock line. */
int	 trc_comp_declared(const struct trc_header *);

/*
 * The interval of wall length d that ev ends, as the flags declare:
 * 0, or -1 with a message in err (a bad value, pollt= over d).
 */
int	 trc_comp_recorded(const struct trc_event *ev, int flags, int64_t d,
	    struct trc_comp *, char *err, size_t errlen);
/*
 * How much of c the model scales as computation (*work: its CPU time
 * when known, less its polls' unless mode is TRC_POLL_COMP), and what
 * is added unscaled (*extra: for TRC_POLL_COST its polls at the
 * target's poll cost, or as recorded when the model knows none).
 */
void	 trc_comp_split(const struct trc_model *, int mode, int32_t rank,
	    const struct trc_comp *c, int64_t *work, int64_t *extra);

#endif
