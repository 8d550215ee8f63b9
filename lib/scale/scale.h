/*
 * scale.h - what the files of the replay engine share (private to
 * lib/scale/; the interface is trc_scale.h).  Mendes, "Performance
 * Prediction by Trace Transformation", section 4; DESIGN.md section 4.
 *
 * Each rank is replayed in its own event order with a predicted clock;
 * what each interval costs, and when a message leaves and arrives, the
 * model says (trc_model.h), called through its table of functions: the
 * engine knows MPI's semantics (matching, blocking, handing a message
 * over, the causality repair, rematching wildcard receives) and
 * nothing of any model.  A rank whose receive completion arrives
 * before its send (clock skew, or a stream not ordered by time), or
 * whose collective still misses participants, is blocked: its later
 * events are held until it can go on.  Predicted times are monotone per
 * rank, so the output is a k-way merge of per-rank queues, released
 * below a watermark: the least predicted time any rank could still
 * produce (trc_reorder.h).
 *
 *	engine.c	trc_scale_new/feed/delay/free, one event's way:
 *			its interval, the handler of its kind; errors
 *	send.c		sends
 *	recv.c		receives, the causality repair
 *	wait.c		waits: the requests they complete, in order
 *	rdv.c		the rendezvous: sends held for their receivers
 *	coll.c		collectives, blocking and not
 *	choice.c	rematch: wildcard receives, waits for any, probes
 *	reqs.c		requests renamed by those choices
 *	hold.c		events held while their rank waits, resumed
 *	output.c	the output, released below the watermark, the least
 *			time any rank may still produce
 *	finish.c	trc_scale_finish: what never matched, deadlocks
 *
 * Names shared between these files start with sc_.
 */
#ifndef TRC_SCALE_PRIV_H
#define TRC_SCALE_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "trc.h"
#include "trc_disturb.h"

enum state { COMP, SEND, RECV, WAIT, COLL };
/* Why a call's end came from another rank (struct rank's woke). */
#define WOKE_WAIT	1	/* a message or a receiver it waited for */
#define WOKE_COLL	2	/* a collective's rounds */
enum block { RUN, BLK_RECV, BLK_COLL, BLK_WILD, BLK_SYNC, BLK_CORE, BLK_TAKE };
/* A blocking send that waits for its receiver: where its end stands. */
enum sync { SYNC_NONE, SYNC_WAIT, SYNC_DONE };

/* An input event held while its rank waits, strings in one block. */
struct held {
	struct held	*next;
	int64_t		 delay;
	long		 line;
	struct trc_event ev;	/* cut after its nattr attributes */
};

/* A nonblocking collective entered and not yet ended on a rank. */
struct nbcoll {
	int64_t		 req;
	struct trc_coll	*c;
};

/* A nonblocking send ended and not yet waited on: its size. */
struct isend {
	int64_t		 req, bytes;
};
/* Sends never waited on (freed requests): past this many, one goes. */
#define ISEND_MAX	4096

/*
 * A receive posted: its request (TRC_NONE when blocking), channel and
 * place in the rank's posting order, which decides which receive a
 * message fitting several goes to.
 */
struct irecv {
	int64_t		 req;
	int64_t		 seq;
	int32_t		 src, tag, comm;	/* TRC_ANY: peer=*, tag=* */
	uint8_t		 done;		/* in a wait's list: completed */
};

/*
 * A request renamed by a choice: what the recording calls rec is the
 * request act of the prediction (a waitany that completed another).
 */
struct ren {
	int64_t		 rec, act;
};

/* What a choice point does with the message it chooses. */
enum chkind { CH_RECV = 1, CH_PROBE };

/* The attributes of an event a choice changed, for its output. */
struct rewrite {
	unsigned	 what;
	int32_t		 peer, tag;
	int64_t		 bytes;
	struct trc_str	 reqs;		/* the req= value */
};
#define RW_PEER		1u
#define RW_TAG		2u
#define RW_BYTES	4u
#define RW_REQS		8u

/*
 * The message a receive completion (or a probe) takes, resolved
 * before its event is processed, or while it is (sc_msg_get).
 */
enum how { RS_NONE, RS_SENT, RS_CHOSEN };	/* by its send, by a choice */
struct resolved {
	int64_t		 tp, base;	/* its arrival, the recorded time */
	int64_t		 sent;		/* its send's recorded SE */
	int64_t		 bytes;
	int64_t		 req;		/* RS_CHOSEN: the request completed */
	int32_t		 src, tag;	/* RS_CHOSEN: its sender and tag */
	uint8_t		 how;		/* enum how */
	uint8_t		 flags;		/* MSG_* */
};

/*
 * A blocking send the model hands over, held for its receiver (the
 * rendezvous): SYNC_WAIT, at its eager times; SYNC_DONE, its receive
 * has set its end.
 */
struct rdv {
	struct trc_xfer	 x;
	int32_t		 dst, tag, comm;	/* SYNC_WAIT: its message */
	uint8_t		 state;		/* enum sync, of the SE being processed */
	/* x.rdv TRC_RDV_PROGRESS, held while its receiver runs: on the
	 * receiver's progw list, 1 + the next rank on it (0: the last). */
	uint8_t		 onlist;
	int32_t		 pnext;
};

/*
 * A rank's last blocking send that the target sends eagerly, begun
 * while a receive of its peer's was posted: its half of an eager
 * exchange (recv.c).
 */
struct xsend {
	int64_t		 sent;		/* its recorded SE, the message's rs.sent */
	int64_t		 begin, end;	/* its predicted SB and SE */
	int32_t		 dst;
	uint8_t		 on;
};

/*
 * A rank's last call that sends to another rank: a send's SB, or a
 * collective's XB (any of its ranks may receive from it).  A receive
 * of its previous message, begun after it, takes it too (recv.c).
 */
struct next_msg {
	/* Its predicted time; TRC_TIME_MAX + 1 once a receive took the
	 * send's message (of another tag, say): none takes it then. */
	int64_t		 tp;
	int64_t		 t;		/* its recorded time */
	int64_t		 bytes;
	int32_t		 dst;		/* the send's peer, or -1 */
	int32_t		 comm;
};

struct rank {
	int64_t		 t, tp;		/* last original, predicted time */
	/* trc_p2p's idle after the last event, and before this one. */
	int64_t		 idle, idle_now;
	/* trc_coll_call's: a send or receive does not warm the caches for
	 * a collective (its algorithm's code and data, the operation). */
	int64_t		 coll_idle, coll_idle_now;
	int64_t		 delay;		/* before the next event fed */
	/* --traced: the tracer's own time before the next event processed,
	 * and when its last reading of the CPU clock ended (-1: none). */
	int64_t		 own_due, own_readt;
	/* --switch: how the rank's event being processed ended a wait on
	 * another rank (WOKE_*), and a collective's rounds. */
	unsigned	 woke;
	int32_t		 woke_rounds;
	struct held	*hhead, *htail;
	struct trc_coll	*coll;
	int32_t		 nextwaiter;	/* ranks blocked on one collective,
					 * or on a core's holder */
	int32_t		 took_src;	/* took_ns: whose message */
	int64_t		 xb_tp;		/* its last blocking XB's time */
	uint32_t	 upass;		/* unstick: the pass that walked it */
	int32_t		 uwalk;		/* and the walk, by its first rank */
	uint8_t		 seen, state, blocked;
	uint8_t		 core_wait;	/* its XE waits for the core's holder */
	uint8_t		 took_coll;	/* took_ns: of a collective */
	/*
	 * As fed (the input in time order): whether the rank is in a
	 * blocking point-to-point call; of its last blocking SB fed,
	 * whether its peer was in none (trc_p2p's away), and that SB's
	 * time's low 32 bits in away_t (below, in a hole of the struct).
	 */
	uint8_t		 in_p2p, away;
	struct resolved	 rs;
	struct rdv	 sync;
	struct xsend	 xs;
	struct next_msg	 nx;
	/* A receive took took_src's next message too: the call that
	 * receives that one (a collective, or a receive from took_src)
	 * is the shorter by took_ns (0: none). */
	int64_t		 took_ns;
	/*
	 * BLK_TAKE: a blocking receive waiting to see whether its sender
	 * begins its next message before the receive's begin, take_base
	 * (recv.c, take_hold).  takew: 1 + the first rank waiting so on
	 * this one, take_next the next on the same sender; take_seen:
	 * woken, its receive goes on.
	 */
	int32_t		 takew, take_next;
	int64_t		 take_base;
	uint8_t		 take_seen;
	/* 1 + the first rank whose held send this one's progress takes
	 * when it waits in a call (x.rdv TRC_RDV_PROGRESS), 0: none. */
	int32_t		 progw;
	struct irecv	 rb;		/* the last blocking RB */
	/*
	 * BLK_WILD, a choice point (rematch): what it chooses among (ch,
	 * or with ch_any the receives of its wait's list not done), and
	 * the message the recording chose, at time ch_t.
	 */
	struct irecv	 ch;
	uint8_t		 ch_kind, ch_any;
	int32_t		 ch_p0, ch_t0, ch_c0;
	int64_t		 ch_t;
	/* What rematch() found for it in its last pass. */
	struct trc_msg	 pk_msg;
	int64_t		 pk_key, pk_req, pk_minv;
	uint8_t		 pk_found, pk_is0;
	/* A probe in progress: what it asked. */
	uint8_t		 probing;
	int32_t		 pb_src, pb_tag, pb_comm;
	/*
	 * A probe that saw another message than recorded: the receive
	 * the recording has for (pr_p0, pr_t0) takes (pr_src, pr_tag).
	 */
	uint8_t		 pr_on;
	int32_t		 pr_p0, pr_t0, pr_comm, pr_src, pr_tag;
	struct ren	*ren;		/* requests renamed by choices */
	size_t		 nren, rencap;
	struct ren	*wsub;		/* in the wait in progress */
	size_t		 nwsub, wsubcap;
	int64_t		 nextseq;	/* receives posted */
	struct irecv	*ir;		/* nonblocking receives not completed */
	size_t		 nir, ircap;
	struct nbcoll	*nb;		/* nonblocking collectives not ended */
	size_t		 nnb, nbcap;
	struct isend	*is;		/* nonblocking sends not waited on */
	size_t		 nis, iscap;
	/*
	 * Of the wait in progress, the largest send of its req= list (-1:
	 * none), and whether it has completed a receive: a wait on sends
	 * alone is the sends' cost (the model's wait).
	 */
	int64_t		 wsbytes;
	uint8_t		 wrecv;
	uint32_t	 away_t;	/* away's SB time, low 32 bits */
	/*
	 * The wait in progress: the receives of its req= list, in its
	 * order, which is the order of their RE lines (trc(5)); those
	 * before wcur are done.  wall: every one completes (wait,
	 * waitall, test, testall, sendrecv), so the next RE is wcur's.
	 */
	struct irecv	*wl;
	size_t		 nwl, wlcap, wcur;
	uint8_t		 wall;
};

/* The target's cores, when the ranks share them (cores.c): all of
 * them, or with --bound one of them, the core of some ranks. */
struct sc_cores {
	struct sc_step {
		int64_t		 t;
		int32_t		 busy;	/* ranks computing from t on */
	}			*st;
	size_t			 n, cap;
	int32_t			 ncores;	/* 0: one per rank */
	int32_t			 last;		/* --switch: rank + 1 that
						 * last took it, 0 none */
	/* --bound: the rank that holds it past a collective's end, until
	 * it waits in a call (at held_until; -1: not yet); the ranks whose
	 * ends are to wait for that, and 1 + the first of them blocked, 0
	 * none. */
	int32_t			 holder, pending, held_waiters;
	int64_t			 held_until;
};

struct trc_scale {
	struct trc_scale_conf	 conf;
	struct trc_scale_stats	 st;
	const char		*name;
	const char		*outname;
	struct trc_writer	*w;
	struct trc_match	*mt;
	/* The model, which the engine calls and never asks about. */
	const struct trc_model_ops *mo;
	void			*ms;
	int32_t			 hdr_ranks;
	int			 timeorder;
	/* TRC_COMP_*: what the #clock line says computation may lose. */
	int			 compflags;
	struct trc_own		 own;		/* --traced, with cpu=; */
	int			 owned;		/* 0: nothing to put back */
	int			 failed;
	struct trc_pages	 rkp;		/* struct rank, by rank */
	size_t			 msgmax;	/* TRC_MSG_MAX */
	size_t			 nrk, nseen;	/* nrk: above every rank */
	int64_t			 tin;		/* time of the last event fed */
	unsigned long long	 nfed, nextwm;
	size_t			 curheld;	/* events held now */
	int32_t			*work;		/* ranks to resume */
	size_t			 nwork, workcap;
	struct trc_reorder	*out;		/* the output, in time order */
	size_t			 nwild;		/* ranks in BLK_WILD */
	size_t			 nsyncw;	/* ranks in BLK_SYNC */
	size_t			 ntakew;	/* ranks in BLK_TAKE */
	struct sc_cores		 cores;
	struct sc_cores		*bound;		/* --bound: core r mod n */
	uint32_t		 upass;		/* unstick's passes */
	struct trc_event	 tmp;		/* a held event, rebuilt */
	char			**diag;
	size_t			 ndiag, diagcap;
	char			*lbuf;		/* a req= list rewritten */
	size_t			 lcap;
	char			 err[TRC_ERRLEN + 512];
};

/*
 * The ranks, in pages as they come (trc_pages): RK() is a rank the
 * engine has met, sc_rk_peek() any rank, one never met reading as
 * zeros.  A loop over the ranks skips the pages never asked for: RK_SKIP
 * goes on with the next rank from i on whose page exists.  Any call that
 * may meet a new rank (sc_getrank, sc_sync_done, a handler) may move
 * the pages' index, not the ranks: a struct rank * stays valid.
 */
#define RK(s, r)	((struct rank *)(s)->rkp.pg[(size_t)(r) >> TRC_PAGE_SHIFT] + \
			    ((size_t)(r) & (TRC_PAGE - 1)))
#define RK_AT(s, r)	((struct rank *)trc_pages_at(&(s)->rkp, (size_t)(r)))
#define RK_SKIP(s, i)	if (RK_AT(s, i) == NULL) { (i) |= TRC_PAGE - 1; continue; }

/*
 * What a message carries from its send to its receive, in the match
 * table's three payload words: val, its predicted arrival (for one the
 * target hands over, MSG_RDV, the earliest it can leave, its arrival
 * known only when its receiver is ready); aux, the recorded time
 * before which a receive of it is clock skew, with two flags; aux2,
 * its send's recorded end, with the third.
 */
#define MSG_RDV		1u	/* handed over to a ready receiver */
#define MSG_HELD	2u	/* and its sender, blocking, held until then */
#define MSG_TAKEN	4u	/* its receiver took it in an earlier call */

static inline void
sc_msg_put(struct trc_msg *m, int64_t t, int64_t base, int64_t sent,
    unsigned flags)
{
	m->val = t;
	m->aux = base * 4 + (int64_t)(flags & 3);
	m->aux2 = sent * 2 + ((flags & MSG_TAKEN) != 0);
}

static inline void
sc_msg_get(const struct trc_msg *m, int64_t *t, int64_t *base, int64_t *sent,
    uint8_t *flags)
{
	*t = m->val;
	*flags = (uint8_t)((m->aux & 3) | (m->aux2 & 1 ? MSG_TAKEN : 0));
	*base = (m->aux - (m->aux & 3)) / 4;
	*sent = (m->aux2 - (m->aux2 & 1)) / 2;
}

/* A model's times, kept no further than TRC_TIME_OVER. */
static inline void
sc_clamp_xfer(struct trc_xfer *x)
{
	if (x->end > TRC_TIME_OVER)
		x->end = TRC_TIME_OVER;
	if (x->depart > TRC_TIME_OVER)
		x->depart = TRC_TIME_OVER;
	if (x->arrive > TRC_TIME_OVER)
		x->arrive = TRC_TIME_OVER;
}

static inline int64_t
sc_bytes_of(const struct trc_event *ev)
{
	return ev->bytes > 0 ? ev->bytes : 0;
}

/* engine.c */
/* "file:line: message" in s->err, s failed; returns -1. */
int	 sc_fail(struct trc_scale *, long line, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
int	 sc_nomem(struct trc_scale *);
int	 sc_past_clock(struct trc_scale *, long line, const char *what);
int	 sc_too_many(struct trc_scale *);
const struct rank *sc_rk_peek(const struct trc_scale *, int32_t r);
struct rank *sc_getrank(struct trc_scale *, int32_t r);
int	 sc_wake(struct trc_scale *, int32_t r);
int	 sc_comp(struct trc_scale *, int32_t r, int64_t base, int64_t d,
	    long line, int64_t *tp);
int	 sc_process(struct trc_scale *, int32_t r, const struct trc_event *ev,
	    int64_t delay);

/*
 * The handlers of sc_process(): each returns 0 with the event's
 * predicted time in *tp, 1 when its rank must wait (the event is not
 * consumed), -1 on error.  base is the predicted time of the rank's
 * last event plus any delay, d the recorded length of the interval
 * that ends; rw takes the attributes a choice changed.
 */
int	 sc_send_end(struct trc_scale *, int32_t r, const struct trc_event *ev,
	    int64_t base, int64_t d, int64_t *tp);
int	 sc_recv_end(struct trc_scale *, int32_t r, const struct trc_event *ev,
	    int64_t base, int64_t d, int64_t *tp, struct rewrite *rw);
/*
 * Rank q's event was processed, or q waits (blocked): the receives held
 * to see its next call that may go on are woken (recv.c); at the
 * input's end, all of them, and run (_all).  0, or -1.
 */
int	 sc_take_release(struct trc_scale *, int32_t q, int blocked);
int	 sc_take_release_all(struct trc_scale *);
int	 sc_probe_end(struct trc_scale *, int32_t r,
	    const struct trc_event *ev, int64_t base, int64_t d, int64_t *tp,
	    struct rewrite *rw);
int	 sc_coll_end(struct trc_scale *, int32_t r, const struct trc_event *ev,
	    int64_t base, int64_t *tp);
int	 sc_wait_end(struct trc_scale *, int32_t r, const struct trc_event *ev,
	    int64_t base, int64_t d, int64_t *tp, struct rewrite *rw);
/* Begins, at tp: what the rank does from now on; 0, or -1. */
void	 sc_send_begin(struct trc_scale *, int32_t r,
	    const struct trc_event *ev);
int	 sc_recv_begin(struct trc_scale *, int32_t r,
	    const struct trc_event *ev, struct rewrite *rw);
int	 sc_wait_begin(struct trc_scale *, int32_t r,
	    const struct trc_event *ev, struct rewrite *rw);
int	 sc_coll_begin(struct trc_scale *, int32_t r,
	    const struct trc_event *ev, int64_t tp);

/* output.c */
/* Queue e at tp, with t0= the time of ev (e itself or a copy). */
int	 sc_emit(struct trc_scale *, const struct trc_event *ev,
	    const struct trc_event *e, int64_t tp);
int	 sc_emit_rewritten(struct trc_scale *, const struct trc_event *ev,
	    const struct rewrite *rw, int64_t tp);
int	 sc_release(struct trc_scale *, int64_t wm);
int64_t	 sc_lower_bound(struct trc_scale *, struct rank *, int32_t i,
	    int deep);
int64_t	 sc_watermark(struct trc_scale *);

/* send.c */
void	 sc_p2p_of(struct trc_p2p *, int32_t src, int32_t dst,
	    const struct trc_event *ev);
/* Whether the model learns from ev, a call of mp's (send.c). */
int	 sc_learns(const struct trc_scale *, const struct trc_event *ev,
	    const struct trc_p2p *mp);
int	 sc_physical(struct trc_scale *, const struct trc_event *ev,
	    const char *key, int64_t *t);

/* recv.c */
struct irecv *sc_find_irecv(struct rank *, int64_t req);
int64_t	 sc_lead_of(const struct trc_scale *, const struct rank *, int64_t t,
	    int same);

/* wait.c */
int	 sc_isend_put(struct trc_scale *, struct rank *, int64_t req,
	    int64_t bytes);
long	 sc_wait_next(struct trc_scale *, struct rank *,
	    const struct trc_event *ev, int64_t req);

/* choice.c */
int	 sc_choice_recv(struct trc_scale *, struct rank *,
	    const struct trc_event *ev, int64_t req);
int	 sc_choose_now(struct trc_scale *, int32_t r);
int	 sc_rematch(struct trc_scale *, int end);

/* reqs.c */
int64_t	 sc_map_req(const struct rank *, int64_t rec);
int	 sc_complete_req(struct trc_scale *, struct rank *, int64_t rec,
	    int64_t act);
int	 sc_map_list(struct trc_scale *, const struct rank *,
	    const struct trc_event *ev, struct rewrite *rw);

/* hold.c */
int	 sc_hold(struct trc_scale *, struct rank *, const struct trc_event *ev,
	    int64_t delay);
int	 sc_resume(struct trc_scale *);

/* rdv.c */
void	 sc_handover(struct trc_scale *, const struct trc_p2p *m,
	    int64_t ready, int64_t idle, struct trc_xfer *x, int held);
int	 sc_sync_done(struct trc_scale *, int32_t src, int64_t se);
int32_t	 sc_waits_for(const struct rank *);
int	 sc_unstick(struct trc_scale *, int end);
int	 sc_progress(struct trc_scale *, int32_t r);

/* cores.c */
struct sc_cores *sc_cores_of(struct trc_scale *, int32_t rank);
int	 sc_cores_place(struct sc_cores *, int64_t start, int64_t w,
	    int64_t *end);
int64_t	 sc_cores_free_at(const struct sc_cores *, int64_t t);
void	 sc_cores_prune(struct trc_scale *);
void	 sc_cores_coll_done(struct trc_scale *, const struct trc_coll *);
int	 sc_cores_coll_end(struct trc_scale *, int32_t rank, int64_t *tp);
int	 sc_cores_give_up(struct trc_scale *, int32_t rank, int64_t tp);
int	 sc_cores_let_go(struct trc_scale *);
int	 sc_cores_init(struct trc_scale *, const struct trc_scale_conf *);
void	 sc_cores_free(struct trc_scale *);


#endif
