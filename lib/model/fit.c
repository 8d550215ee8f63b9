/*
 * fit.c - Mendes' model (trc-scale(1), DESIGN.md section 4): costs
 * from piecewise fits of measurements (trc-fit(5)) on the target, f2,
 * and the base, f1; computation by ratios.
 *
 * A send lasts f2(b)/f1(b) times its recorded length with both fits
 * (what it took beyond f1(b) at most as recorded), f2(b) with the
 * target's alone, as recorded without one; a blocking
 * send of a size the base marks send-sync waited for its receiver, so
 * its length is no cost to scale: f2(b).  One of a size the target
 * marks send-sync is handed over: it ends no earlier than its
 * receiver, ready, plus g2(b); one it marks send-progress too, to its
 * receiver inside any MPI call that waits (the engine's rdv.c).  A
 * receive lasts g2(b), the target's
 * recv (as recorded without one).  Messages leave and arrive at the
 * end of their send, the fits knowing no latency apart from it.  A
 * wait on sends alone is scaled as a send, by the send rows.
 *
 * With the target's recv-late, h2(b), a receive posted after its
 * message came (trc-pingpong(1)), the transfer and the receive's own
 * cost part: the message arrives g2(b) after its send began (recv is
 * timed from there), a receive lasts h2(b), ending at the later of the
 * two, and a handover takes h2(b) from the receiver's readiness.  A
 * collective with a fit of its own costs that on 2 ranks, scaled to
 * more by its algorithm (coll.c); one without keeps its recorded time
 * after the last participant entered.
 *
 * A send or receive after at least TRC_COLD_NS of computation on its
 * rank (trc_p2p's idle) costs the cold fit of its operation where the
 * file has one (send-cold, isend-cold, recv-late-cold: measured after a
 * sweep of the caches): the application's computation evicted the
 * transport's code and data, which the ping-pong's back-to-back calls
 * keep warm; as far from the warm fit to the cold as the rank's calls
 * ran cold on the base (trc_cold_of: the engine shows the model the
 * calls that measure it, learn).  So is a handover's h2(b) when its
 * receiver came to the waiting sender from the computation
 * (sc_handover).  A collective whose
 * last participant came from that much computation since its last
 * collective costs from its warm fit up to its cold one (allreduce-cold
 * ...), as far as it ran on the base (fit_coll).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "model.h"
#include "coll.h"

struct fit {
	struct trc_cpu		 cpu;
	const struct trc_fit	*target;
	struct trc_fit		*own;		/* target, when we read it */
	const struct trc_fit	*base;		/* the caller's */
	const struct trc_fit_op	*t_send, *t_isend, *t_recv, *b_send, *b_isend;
	const struct trc_fit_op	*t_rlate;	/* recv-late, or NULL */
	/* send-late, a send whose receiver is away, or NULL. */
	const struct trc_fit_op	*t_slate, *b_slate;
	const struct trc_fit_op	*t_xchg;	/* exchange, or NULL */
	const struct trc_fit_op	*t_xwait;	/* exchange-wait, or NULL */
	/* The same after a computation (cold), or NULL. */
	const struct trc_fit_op	*t_csend, *t_cisend, *t_crlate, *b_csend,
				*b_cisend;
	struct coll_memo	 memo, cmemo;	/* a collective's, its -cold's */
};

static void
fit_free(void *v)
{
	struct fit *f = v;

	if (f == NULL)
		return;
	trc_cpu_fini(&f->cpu);
	trc_fit_free(f->own);
	free(f);
}

static void *
fit_new(const struct trc_model_conf *conf, char *err, size_t errlen)
{
	struct fit *f;

	if (conf->set != NULL && *conf->set != '\0') {
		snprintf(err, errlen, "model 'fit' has no parameters to set");
		return NULL;
	}
	if ((f = calloc(1, sizeof(*f))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	trc_cpu_init(&f->cpu, conf);
	if (conf->fit == NULL && conf->path != NULL &&
	    (f->own = trc_fit_load(conf->path, err, errlen)) == NULL) {
		fit_free(f);
		return NULL;
	}
	f->target = conf->fit != NULL ? conf->fit : f->own;
	f->base = conf->base;
	if (f->target != NULL) {
		f->t_send = trc_fit_find(f->target, "send", 4);
		f->t_isend = trc_fit_find(f->target, "isend", 5);
		f->t_recv = trc_fit_find(f->target, "recv", 4);
		f->t_rlate = trc_fit_find(f->target, "recv-late", 9);
		f->t_slate = trc_fit_find(f->target, "send-late", 9);
		f->t_xchg = trc_fit_find(f->target, "exchange", 8);
		f->t_xwait = trc_fit_find(f->target, "exchange-wait", 13);
		f->t_csend = trc_fit_find(f->target, "send-cold", 9);
		f->t_cisend = trc_fit_find(f->target, "isend-cold", 10);
		f->t_crlate = trc_fit_find(f->target, "recv-late-cold", 14);
	}
	if (f->base != NULL) {
		f->b_send = trc_fit_find(f->base, "send", 4);
		f->b_slate = trc_fit_find(f->base, "send-late", 9);
		f->b_isend = trc_fit_find(f->base, "isend", 5);
		f->b_csend = trc_fit_find(f->base, "send-cold", 9);
		f->b_cisend = trc_fit_find(f->base, "isend-cold", 10);
	}
	return f;
}

static int
fit_comp(void *v, int32_t rank, int64_t d, int64_t *dp)
{
	return trc_cpu_comp(&((struct fit *)v)->cpu, rank, d, dp);
}

static int
fit_region(void *v, int32_t rank, const struct trc_str *fn)
{
	return trc_cpu_region(&((struct fit *)v)->cpu, rank, fn);
}

/*
 * A send recorded d long on the base, whose fits cost v2 and v1: d
 * v2 / v1, the paper's rule, but what d holds beyond v1 no more than
 * as recorded.  That excess is time the base spent elsewhere (another
 * job on the core, progress on other messages), no cost of the
 * network, and a target 30 times slower would turn a 10 us preemption
 * into 300 us.
 */
static int64_t
scaled(double v2, double v1, int64_t d)
{
	int64_t n1 = trc_ns(v1), n2 = trc_ns(v2), s = trc_scale_ns(v2 / v1, d);

	if (d > n1 && s > n2 + (d - n1))
		s = n2 + (d - n1);
	return s;
}

/*
 * Op's cost at m's size, seconds: after TRC_COLD_NS of computation on
 * rank, the transport's code and data out of the caches, as far from
 * its warm fit to its cold one (where the file has one) as the rank's
 * calls ran cold on the base (trc_cold_of).
 */
static double
warmth(struct fit *f, const struct trc_fit_op *warm,
    const struct trc_fit_op *cold, const struct trc_p2p *m, int32_t rank)
{
	if (cold == NULL || m->idle < TRC_COLD_NS)
		return trc_fit_eval(warm, m->bytes);
	return trc_cold_eval(warm, cold, trc_cold_of(&f->cpu, rank), m->bytes);
}

static int
fit_learn(void *v, const struct trc_p2p *m, int op, int64_t d)
{
	return trc_cold_learn(&((struct fit *)v)->cpu, m, op, d);
}

static int
fit_coldness(void *v, int32_t rank, double *x, double *n)
{
	return trc_cold_measured(&((struct fit *)v)->cpu, rank, x, n);
}

static void
fit_outliers(void *v, unsigned long long *n, int64_t *excess)
{
	trc_cpu_outliers(&((struct fit *)v)->cpu, n, excess);
}

/*
 * A blocking send's cost, seconds, by its fits warm and cold (warmth),
 * and when its receiver was away (trc_p2p's away) and late, the
 * send-late fit at a size whose sends do not wait, is there, less by
 * what send-late costs below warm send: over TCP loopback at 24 KiB
 * 5.0 us against 6.8, the receiver waiting in its receive reading the
 * socket as the sender writes.
 */
static double
send_cost(struct fit *f, const struct trc_fit_op *warm,
    const struct trc_fit_op *cold, const struct trc_fit_op *late,
    const struct trc_p2p *m)
{
	double t = warmth(f, warm, cold, m, m->src), d;

	if (late == NULL || !m->away || (d = trc_fit_eval(warm, m->bytes) -
	    trc_fit_eval(late, m->bytes)) <= 0 || d >= t)
		return t;
	return t - d;
}

static int
fit_send(void *v, const struct trc_p2p *m, int64_t begin, int64_t sb,
    int64_t se, struct trc_xfer *x)
{
	struct fit *f = v;
	const struct trc_fit_op *w2 = f->t_send, *c2 = f->t_csend,
	    *w1 = f->b_send, *c1 = f->b_csend, *l2 = NULL, *l1 = NULL;
	int64_t b = m->bytes, end;
	double v1;

	/* send-late where the machine's sends of the size do not wait. */
	if (!m->nonblocking && f->t_slate && !trc_fit_sync(f->target, b))
		l2 = f->t_slate;
	if (!m->nonblocking && f->b_slate && !trc_fit_sync(f->base, b))
		l1 = f->b_slate;
	if (m->nonblocking) {
		if (f->t_isend) {
			w2 = f->t_isend;
			c2 = f->t_cisend;
		}
		if (f->b_isend) {
			w1 = f->b_isend;
			c1 = f->b_cisend;
		}
	}
	/* Scaled, by the send-late rows of both files or of neither. */
	if (w2 && trc_base_sync(f->base, m))
		end = begin + trc_ns(send_cost(f, w2, c2, l2, m));
	else if (w2 && w1 && (v1 = send_cost(f, w1, c1, l2 ? l1 : NULL,
	    m)) > 0)
		end = begin + scaled(send_cost(f, w2, c2, l1 ? l2 : NULL, m),
		    v1, se - sb);
	else if (w2)
		end = begin + trc_ns(send_cost(f, w2, c2, l2, m));
	else
		end = begin + (se - sb);
	x->end = x->depart = x->arrive = end;
	if (f->t_rlate != NULL && f->t_recv != NULL &&
	    begin + trc_fit_eval_ns(f->t_recv, b) > end)
		x->arrive = begin + trc_fit_eval_ns(f->t_recv, b);
	x->base = sb;
	x->rdv = m->nonblocking || f->target == NULL ||
	    !trc_fit_sync(f->target, b) ? 0 :
	    trc_fit_progress(f->target, b) ? TRC_RDV_PROGRESS : 1;
	return 0;
}

/*
 * The receiver's share of a transfer: h2(b), cold after a computation
 * (m's idle: the receiver's when its receive found the sender waiting;
 * 0, warm, when the sender found it waiting in the transport), else
 * g2(b), else 0.
 */
static int64_t
handover_ns(struct fit *f, const struct trc_p2p *m)
{
	if (f->t_rlate != NULL)
		return trc_ns(warmth(f, f->t_rlate, f->t_crlate, m, m->dst));
	return f->t_recv ? trc_fit_eval_ns(f->t_recv, m->bytes) : 0;
}

static void
fit_handover(void *v, const struct trc_p2p *m, int64_t ready,
    struct trc_xfer *x)
{
	int64_t se = ready + handover_ns(v, m);

	if (se > x->end)
		x->end = se;
	x->depart = x->arrive = x->end;
}

/* What going x of the way from warm to cold adds to op at b bytes, no
 * less than 0. */
static double
colder(const struct trc_fit_op *warm, const struct trc_fit_op *cold,
    double x, int64_t b)
{
	double d;

	if (warm == NULL)
		return 0;
	d = trc_cold_eval(warm, cold, x, b) - trc_fit_eval(warm, b);
	return d > 0 ? d : 0;
}

/*
 * An exchange: the target's exchange fit (trc-pingpong's, both ranks
 * warm) from the later begin, and after a computation as much more as
 * a send and a late receive cost colder, as cold as the rank's calls
 * ran on the base.
 */
static int64_t
fit_exchange(void *v, const struct trc_p2p *out, const struct trc_p2p *in,
    int64_t begin, int64_t peer)
{
	struct fit *f = v;
	double t, x;

	if (f->t_xchg == NULL)
		return -1;
	t = trc_fit_eval(f->t_xchg, out->bytes);
	if (out->idle >= TRC_COLD_NS) {
		x = trc_cold_of(&f->cpu, out->src);
		t += colder(f->t_send, f->t_csend, x, out->bytes) +
		    colder(f->t_rlate, f->t_crlate, x, in->bytes);
	}
	return (begin > peer ? begin : peer) + trc_ns(t);
}

/*
 * An eager exchange: the target's exchange-wait fit (trc-pingpong's,
 * both ranks warm, from the send's begin to the end of the wait) from
 * the later begin, warm as a lone message's arrival (fit_send) is.
 */
static int64_t
fit_exchange_wait(void *v, const struct trc_p2p *m, int64_t begin,
    int64_t peer)
{
	struct fit *f = v;

	if (f->t_xwait == NULL)
		return -1;
	return (begin > peer ? begin : peer) +
	    trc_fit_eval_ns(f->t_xwait, m->bytes);
}

static int64_t
fit_recv(void *v, const struct trc_p2p *m, int64_t ready, int64_t d)
{
	struct fit *f = v;

	if (f->t_rlate != NULL)
		return ready + trc_ns(warmth(f, f->t_rlate, f->t_crlate, m,
		    m->dst));
	return ready + (f->t_recv ? trc_fit_eval_ns(f->t_recv, m->bytes) : d);
}

/*
 * A wait on sends alone completes them: the rest of a send that its
 * call (an MPI_Isend, or the send half of an MPI_Sendrecv, which the
 * tracer writes as a point) left to do.  With both fits it is scaled
 * as a send is, by the send rows at the largest size, f2(b)/f1(b)
 * (beyond f1(b) at most as recorded); kept as recorded without them,
 * or when the base marks the size send-sync (its wait held the
 * receiver's).  The rest of a wait after its receive completions keeps
 * its recorded length.
 */
static int64_t
fit_wait(void *v, int32_t rank, int64_t begin, int64_t d, int64_t sbytes)
{
	struct fit *f = v;
	double v1;

	(void)rank;
	if (sbytes < 0 || f->t_send == NULL || f->b_send == NULL ||
	    trc_fit_sync(f->base, sbytes) ||
	    (v1 = trc_fit_eval(f->b_send, sbytes)) <= 0)
		return begin + d;
	return begin + scaled(trc_fit_eval(f->t_send, sbytes), v1, d);
}

/* One message of b bytes, which scales a collective to more ranks. */
static double
fit_msg(const void *arg, double b)
{
	const struct fit *f = arg;
	const struct trc_fit_op *op = f->t_recv ? f->t_recv : f->t_send;

	return op ? trc_fit_eval(op, (int64_t)llround(b)) : 1e-6;
}

/*
 * A collective's fitted cost was measured on 2 ranks (trc-pingpong):
 * on p it is multiplied by what its algorithm costs on p ranks over
 * what it costs on 2, in messages of the fitted recv; that of its op,
 * or of op-cold (allreduce-cold ...), each remembered in its memo for
 * the next participant; -1 without the fit.
 */
static int64_t
coll_fitted(struct fit *f, struct coll_memo *memo, int cold,
    const struct trc_coll_call *c)
{
	const struct trc_fit_op *op = NULL;
	struct coll_net net = { fit_msg, f, 0 };
	char name[64];
	double a2, ap;
	int64_t ns;
	int n;

	if (trc_coll_memo_get(memo, c->op, c->oplen, c->bytes, c->size, &ns))
		return ns;
	if (!cold)
		op = trc_fit_find(f->target, c->op, c->oplen);
	else if ((n = snprintf(name, sizeof(name), "%.*s-cold", (int)c->oplen,
	    c->op)) > 0 && (size_t)n < sizeof(name))
		op = trc_fit_find(f->target, name, (size_t)n);
	if (op == NULL)
		ns = -1;
	else if (c->size == 2 ||
	    (a2 = trc_coll_cost(&net, c->op, c->oplen, 2, c->bytes)) <= 0 ||
	    (ap = trc_coll_cost(&net, c->op, c->oplen, c->size, c->bytes)) < 0)
		ns = trc_fit_eval_ns(op, c->bytes);
	else
		ns = trc_ns(trc_fit_eval(op, c->bytes) * ap / a2);
	trc_coll_memo_put(memo, c->op, c->oplen, c->bytes, c->size, ns);
	return ns;
}

/*
 * The target's fit of the collective; after a computation, from it to
 * its cold fit where the file has one, as far as trc_coll_coldness
 * says.
 */
static int64_t
fit_coll(void *v, const struct trc_coll_call *c)
{
	struct fit *f = v;
	int64_t ns, cns;

	if (f->target == NULL)
		return c->d;
	ns = coll_fitted(f, &f->memo, 0, c);
	if (c->idle >= TRC_COLD_NS &&
	    (cns = coll_fitted(f, &f->cmemo, 1, c)) >= 0)
		ns = ns < 0 ? cns : ns + (int64_t)llround(
		    trc_coll_coldness(&f->cpu, c) * (double)(cns - ns));
	return ns < 0 ? c->d : ns;
}

static int64_t
fit_bound(void *v, int32_t rank, enum trc_phase ph, int64_t tp, int64_t dt)
{
	struct fit *f = v;

	switch (ph) {
	case TRC_PHASE_COMP:
		return tp + trc_cpu_bound(&f->cpu, rank, dt);
	case TRC_PHASE_SEND:
		/* A fitted cost may be shorter than the recorded. */
		return f->t_send == NULL && f->t_isend == NULL ? tp + dt : tp;
	case TRC_PHASE_RECV:
		/* A wait on sends may be scaled shorter (fit_wait). */
		return f->t_recv == NULL &&
		    (f->t_send == NULL || f->b_send == NULL) ? tp + dt : tp;
	}
	return tp;
}

/* An unsuccessful poll: the target's "poll" row (trc-fit(5)). */
static int64_t
fit_poll(void *v, int32_t rank)
{
	struct fit *f = v;
	const struct trc_fit_op *op;

	(void)rank;
	if (f->target == NULL ||
	    (op = trc_fit_find(f->target, "poll", 4)) == NULL)
		return -1;
	return trc_fit_eval_ns(op, 0);
}

static const char *
fit_error(void *v)
{
	return ((struct fit *)v)->cpu.err;
}

const struct trc_model_ops trc_model_fit_ops = {
	.name = "fit",
	.new = fit_new,
	.comp = fit_comp,
	.region = fit_region,
	.learn = fit_learn,
	.coldness = fit_coldness,
	.outliers = fit_outliers,
	.send = fit_send,
	.handover = fit_handover,
	.exchange = fit_exchange,
	.exchange_wait = fit_exchange_wait,
	.recv = fit_recv,
	.wait = fit_wait,
	.coll = fit_coll,
	.bound = fit_bound,
	.poll = fit_poll,
	.error = fit_error,
	.free = fit_free,
};
