/*
 * engine.c - the replay engine's interface (trc_scale.h) and one
 * event's way through it: sc_process() checks its time, works out the
 * interval it ends, and hands it to the handler of its kind; an event
 * whose rank must wait is held (hold.c) and processed again when the
 * rank is woken.  Every 4096 events or so the watermark lets the
 * output go (trc_reorder.h).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "trc_reorder.h"
#include "scale.h"

int
sc_fail(struct trc_scale *s, long line, const char *fmt, ...)
{
	char msg[TRC_ERRLEN + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(s->err, sizeof(s->err), "%s:%ld: %s", s->name, line, msg);
	s->failed = 1;
	return -1;
}

/*
 * A time past TRC_TIME_MAX (trc.h): every time the engine keeps is
 * at most that, and every length a model returns at most
 * TRC_TIME_OVER, so that their sums never wrap before this check.
 */
int
sc_past_clock(struct trc_scale *s, long line, const char *what)
{
	char a[24];

	a[trc_format_time(a, TRC_TIME_MAX)] = '\0';
	return sc_fail(s, line, "%s past the clock's limit of %s s", what, a);
}

/*
 * More messages wait for their other end than TRC_MSG_MAX allows: an
 * error that names the one waiting longest, likely never matched.
 */
int
sc_too_many(struct trc_scale *s)
{
	struct trc_msg m;

	if (!trc_match_oldest(s->mt, &m))
		return sc_nomem(s);
	return sc_fail(s, m.line, "%s %s rank %ld tag %ld comm %ld still unmatched "
	    "with %zu messages in flight (TRC_MSG_MAX)", m.send ? "send" :
	    "receive", m.send ? "to" : "from", (long)(m.send ? m.dst : m.src),
	    (long)m.tag, (long)m.comm, trc_match_pending(s->mt));
}

int
sc_nomem(struct trc_scale *s)
{
	snprintf(s->err, sizeof(s->err), "out of memory");
	s->failed = 1;
	return -1;
}

static const struct rank rk_none;

const struct rank *
sc_rk_peek(const struct trc_scale *s, int32_t r)
{
	const struct rank *p;

	if (r < 0 || (p = trc_pages_at(&s->rkp, (size_t)r)) == NULL)
		return &rk_none;
	return p;
}

struct rank *
sc_getrank(struct trc_scale *s, int32_t r)
{
	struct rank *p;

	if (r >= 0 && (p = RK_AT(s, r)) != NULL)	/* the usual case */
		return p;
	if (r < 0 || (p = trc_pages_get(&s->rkp, (size_t)r)) == NULL)
		return NULL;
	s->nrk = s->rkp.npg * TRC_PAGE;
	return p;
}

struct trc_scale *
trc_scale_new(const struct trc_scale_conf *conf, const struct trc_header *h,
    const char *name, struct trc_writer *w)
{
	struct trc_header out;
	struct trc_scale *s;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return NULL;
	s->rkp.elsize = sizeof(struct rank);
	if (trc_env_size("TRC_MSG_MAX", TRC_MSG_MAX_DEFAULT, &s->msgmax) < 0) {
		snprintf(s->err, sizeof(s->err), "invalid TRC_MSG_MAX '%s'",
		    getenv("TRC_MSG_MAX"));
		s->failed = 1;
	}
	s->conf = *conf;
	s->name = name;
	s->outname = conf->outname ? conf->outname : "<stdout>";
	s->w = w;
	if (s->conf.model == NULL)
		s->conf.model = &trc_model_recorded;
	s->mo = s->conf.model->ops;
	s->ms = s->conf.model->state;
	s->hdr_ranks = h->ranks;
	s->timeorder = h->order == TRC_ORDER_TIME;
	s->compflags = trc_comp_declared(h);
	if (!conf->cpu)
		s->compflags &= ~TRC_COMP_CPU;
	if (conf->poll == TRC_POLL_COMP)
		s->compflags &= ~TRC_COMP_POLLT;
	/* A trace without cpu= has the tracer's time in its intervals. */
	if (conf->traced && (s->compflags & TRC_COMP_CPU) &&
	    (s->owned = trc_own_parse(&h->extra, &s->own)) <= 0) {
		if (s->owned < 0) {
			snprintf(s->err, sizeof(s->err), "%s: invalid #own "
			    "line in the header", name);
			s->failed = 1;
		} else
			s->st.own_missing = 1;
	}
	s->nextwm = 4096;
	if (sc_cores_init(s, conf) < 0 || (s->mt = trc_match_new()) == NULL ||
	    (s->out = trc_reorder_new(w)) == NULL ||
	    (h->ranks > 0 && sc_getrank(s, h->ranks - 1) == NULL)) {
		trc_scale_free(s);
		return NULL;
	}
	/* The output is sorted by predicted time whatever the input's
	 * order; a failed write stays on w for the caller's flush. */
	out = *h;
	out.order = TRC_ORDER_TIME;
	trc_write_header(w, &out);
	return s;
}

const char *
trc_scale_error(const struct trc_scale *s)
{
	return s->err;
}

const struct trc_scale_stats *
trc_scale_stats(const struct trc_scale *s)
{
	return &s->st;
}

const char *
trc_scale_diag(const struct trc_scale *s, size_t i)
{
	return i < s->ndiag ? s->diag[i] : NULL;
}

void
trc_scale_delay(struct trc_scale *s, int32_t r, int64_t ns)
{
	struct rank *p;

	if (r >= 0 && ns > 0 && (p = sc_getrank(s, r)) != NULL)
		p->delay = trc_time_add(p->delay, ns);
}

/*
 * --switch: whether rank r's bound core has other ranks, whose turns
 * on it cost a switch each (ranks r mod n: r and r + n, or r - n).
 */
static int
shared_core(const struct trc_scale *s, int32_t r)
{
	int32_t n = s->cores.ncores;

	return s->conf.switch_ns > 0 && s->bound != NULL &&
	    (r >= n || (int64_t)r + n < (s->hdr_ranks > 0 ? s->hdr_ranks :
	    (int64_t)s->nrk));
}

/*
 * What a rank pays, with --switch, for the end of a call that waited
 * for another rank on a shared core: the core passes back to it, once,
 * or once a round of a collective; it then holds the core.
 */
static int64_t
switch_after(struct trc_scale *s, int32_t r, struct rank *p)
{
	int64_t n;

	if (p->woke == 0 || !shared_core(s, r))
		return 0;
	n = p->woke & WOKE_COLL ? p->woke_rounds : 1;
	s->st.switches += (unsigned long long)n;
	sc_cores_of(s, r)->last = r + 1;
	return n > 0 && s->conf.switch_ns > INT64_MAX / n ? INT64_MAX :
	    n * s->conf.switch_ns;
}

/*
 * base + the predicted length of the computation interval of recorded
 * length d ending now on rank r, in *tp; -1 on error.
 */
int
sc_comp(struct trc_scale *s, int32_t r, int64_t base, int64_t d, long line,
    int64_t *tp)
{
	struct sc_cores *c;
	int64_t dp;
	int rc;

	if ((rc = s->mo->comp(s->ms, r, d, &dp)) < 0)
		return sc_fail(s, line, "%s", s->mo->error(s->ms));
	if (rc > 0 && d > 0)
		s->st.unlabelled++;
	if (dp > 0 && shared_core(s, r)) {
		/* The core passes to r from another rank's computation. */
		c = sc_cores_of(s, r);
		if (c->last != 0 && c->last != r + 1) {
			dp = trc_time_add(dp, s->conf.switch_ns);
			s->st.switches++;
		}
		c->last = r + 1;
	}
	*tp = base + dp;
	/* On fewer cores than ranks: when one is free. */
	if (s->cores.ncores > 0 &&
	    sc_cores_place(sc_cores_of(s, r), base, dp, tp) < 0)
		return sc_nomem(s);
	return 0;
}

/*
 * A computation interval whose CPU time or polls the stream gives: d
 * becomes what the model scales, base takes what is added unscaled.
 */
static int
comp_recorded(struct trc_scale *s, int32_t r, const struct trc_event *ev,
    int64_t *base, int64_t *d)
{
	struct trc_comp c;
	int64_t extra;
	char err[TRC_ERRLEN];

	if (trc_comp_recorded(ev, s->compflags, *d, &c, err, sizeof(err)) < 0)
		return sc_fail(s, ev->line, "%s", err);
	trc_comp_split(s->conf.model, s->conf.poll, r, &c, d, &extra);
	*base += extra;
	return 0;
}

int
sc_wake(struct trc_scale *s, int32_t r)
{
	if (trc_grow(&s->work, &s->workcap, s->nwork + 1, sizeof(*s->work),
	    64) < 0)
		return sc_nomem(s);
	s->work[s->nwork++] = r;
	return 0;
}

/*
 * Every other event ends a computation interval, or keeps its interval
 * inside a call; a begin changes what the rank is doing.
 */
static int
other(struct trc_scale *s, int32_t r, const struct trc_event *ev,
    int64_t base, int64_t d, int64_t *tp, struct rewrite *rw)
{
	struct rank *p = RK(s, r);

	if (p->state != COMP)
		*tp = base + d;
	else if (sc_comp(s, r, base, d, ev->line, tp) < 0)
		return -1;
	/* A call that may wait gives up a core held past a collective. */
	if (s->bound != NULL && (ev->kind == TRC_WB || (ev->req == TRC_NONE &&
	    (ev->kind == TRC_SB || ev->kind == TRC_RB || ev->kind == TRC_XB))) &&
	    sc_cores_give_up(s, r, *tp) < 0)
		return -1;
	if (ev->kind == TRC_SB || ev->kind == TRC_XB) {
		p->nx.tp = *tp;
		p->nx.t = ev->t;
		p->nx.dst = ev->kind == TRC_SB ? ev->peer : -1;
		p->nx.comm = ev->comm;
		p->nx.bytes = sc_bytes_of(ev);
	}
	switch (ev->kind) {
	case TRC_SB:
		sc_send_begin(s, r, ev);
		break;
	case TRC_RB:
		return sc_recv_begin(s, r, ev, rw);
	case TRC_WB:
		return sc_wait_begin(s, r, ev, rw);
	case TRC_XB:
		return sc_coll_begin(s, r, ev, *tp);
	case TRC_PB:
		if (s->mo->region(s->ms, r, &ev->fn) < 0)
			return sc_nomem(s);
		break;
	case TRC_PE:
		if (s->mo->region(s->ms, r, NULL) < 0)
			return sc_nomem(s);
		break;
	default:
		break;
	}
	return 0;
}

/*
 * --traced: what the tracer spends after an event at predicted time
 * tp, as it would on the target: the event's line, and a reading of
 * the CPU clock when skip has passed since the last one ended (or at
 * the rank's first event), as libtrc-mpi reads it.
 */
static int64_t
own_after(struct trc_scale *s, struct rank *p, int64_t tp)
{
	int64_t own = s->own.line;

	if (p->own_readt < 0 || tp - p->own_readt >= s->own.skip) {
		own += s->own.read;
		p->own_readt = tp + s->own.read;
		s->st.own_reads++;
	}
	s->st.own_ns += own;
	return own;
}

/*
 * Transform one event of rank r, held up by delay first.  Returns 0
 * when done, 1 when the rank must wait (the event is not consumed), -1
 * on error.
 */
int
sc_process(struct trc_scale *s, int32_t r, const struct trc_event *ev,
    int64_t delay)
{
	struct rank *p = RK(s, r);
	struct rewrite rw;
	int64_t d, tp, base;
	int rc;

	if (!p->seen) {
		p->seen = 1;
		p->t = p->tp = ev->t;
		p->own_readt = -1;
		s->nseen++;
	}
	if (ev->t < p->t)
		return sc_fail(s, ev->line, "time goes backwards on rank %ld",
		    (long)r);
	if (ev->t > TRC_TIME_MAX)
		return sc_past_clock(s, ev->line, "time");
	d = ev->t - p->t;
	if ((base = trc_time_add(trc_time_add(p->tp, delay), p->own_due)) >
	    TRC_TIME_MAX)
		return sc_past_clock(s, ev->line, "delayed time");
	/* Computation since the transport was last used (trc_p2p), and
	 * since the last collective (trc_coll_call). */
	p->idle_now = p->idle;
	p->coll_idle_now = p->coll_idle;
	if (p->state == COMP && d > 0) {
		if (ev->nattr > 0 && trc_attr_get(ev, "polls") != NULL)
			p->idle_now = p->coll_idle_now = 0;
		else {
			p->idle_now = trc_time_add(p->idle, d);
			p->coll_idle_now = trc_time_add(p->coll_idle, d);
		}
	}
	/* A rank's first event ends no interval (d is 0): its cpu= none. */
	if (p->state == COMP && s->compflags != 0 && d > 0 &&
	    comp_recorded(s, r, ev, &base, &d) < 0)
		return -1;
	rw.what = 0;
	switch (ev->kind) {
	case TRC_SE:
		rc = sc_send_end(s, r, ev, base, d, &tp);
		break;
	case TRC_RE:
		rc = sc_recv_end(s, r, ev, base, d, &tp, &rw);
		break;
	case TRC_XE:
		rc = sc_coll_end(s, r, ev, base, &tp);
		break;
	case TRC_WE:
		rc = sc_wait_end(s, r, ev, base, d, &tp, &rw);
		break;
	default:
		rc = other(s, r, ev, base, d, &tp, &rw);
		break;
	}
	if (rc != 0) {
		/* It waits: the receives held to see its next call go on. */
		if (rc > 0 && p->takew != 0 && sc_take_release(s, r, 1) < 0)
			return -1;
		return rc;
	}
	tp = trc_time_add(tp, switch_after(s, r, p));
	p->woke = 0;
	if (tp > TRC_TIME_MAX)
		return sc_past_clock(s, ev->line, "predicted time");
	p->t = ev->t;
	p->tp = tp;
	p->own_due = s->owned > 0 ? own_after(s, p, tp) : 0;
	p->idle = ev->kind == TRC_SE || ev->kind == TRC_RE ||
	    ev->kind == TRC_WE || ev->kind == TRC_XE ? 0 : p->idle_now;
	p->coll_idle = ev->kind == TRC_XE ? 0 : p->coll_idle_now;
	s->st.delay_ns = trc_time_add(s->st.delay_ns, delay);
	s->st.events++;
	if (p->takew != 0 && sc_take_release(s, r, 0) < 0)
		return -1;
	return rw.what ? sc_emit_rewritten(s, ev, &rw, tp) :
	    sc_emit(s, ev, ev, tp);
}

/*
 * What the input, in time order, says as it is read: whether rank r is
 * in a blocking point-to-point call (a send, a receive, a wait), and,
 * at its blocking SB, whether the peer was in none (trc_p2p's away);
 * every event of the peer's before the SB has been read by then.  A
 * peer in a send of its own is there for the message: in an exchange
 * it waits for it next, where its send does not wait as it did here.
 */
static void
fed(const struct trc_scale *s, int32_t r, struct rank *p,
    const struct trc_event *ev)
{
	/* A wait's req= lists its requests; a send's or receive's makes
	 * it a point of a nonblocking call. */
	if (ev->req != TRC_NONE && ev->kind != TRC_WB && ev->kind != TRC_WE)
		return;
	switch (ev->kind) {
	case TRC_SB:
		if (ev->peer >= 0 && ev->peer != r) {
			p->away_t = (uint32_t)ev->t;
			p->away = !sc_rk_peek(s, ev->peer)->in_p2p;
		}
		/* FALLTHROUGH */
	case TRC_RB:
	case TRC_WB:
		p->in_p2p = 1;
		break;
	case TRC_SE:
	case TRC_RE:
	case TRC_WE:
		p->in_p2p = 0;
		break;
	default:
		break;
	}
}

int
trc_scale_feed(struct trc_scale *s, const struct trc_event *ev)
{
	struct rank *p;
	int64_t delay;
	int rc;

	if (s->failed)
		return -1;
	if ((p = sc_getrank(s, ev->rank)) == NULL)
		return sc_nomem(s);
	s->tin = ev->t;
	if (s->timeorder)
		fed(s, ev->rank, p, ev);
	delay = p->delay;
	p->delay = 0;
	if (p->hhead != NULL || p->blocked != RUN) {
		if (sc_hold(s, p, ev, delay) < 0)
			return -1;
	} else {
		if ((rc = sc_process(s, ev->rank, ev, delay)) < 0)
			return -1;
		if (rc > 0 && sc_hold(s, RK(s, ev->rank), ev, delay) < 0)
			return -1;
		if ((rc > 0 || RK(s, ev->rank)->progw != 0) &&
		    sc_progress(s, ev->rank) < 0)
			return -1;
		if (sc_resume(s) < 0)
			return -1;
	}
	if (++s->nfed >= s->nextwm) {
		s->nextwm = s->nfed + 4096 + s->nrk;
		if (s->nwild > 0 && sc_rematch(s, 0) < 0)
			return -1;
		if (s->nsyncw > 0 && sc_unstick(s, 0) < 0)
			return -1;
		if (s->cores.ncores > 0)
			sc_cores_prune(s);
		return sc_release(s, sc_watermark(s));
	}
	return 0;
}

void
trc_scale_free(struct trc_scale *s)
{
	struct held *h, *hn;
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nrk; i++) {
		RK_SKIP(s, i);
		for (h = RK(s, i)->hhead; h != NULL; h = hn) {
			hn = h->next;
			free(h);
		}
		free(RK(s, i)->ir);
		free(RK(s, i)->wl);
		free(RK(s, i)->nb);
		free(RK(s, i)->is);
		free(RK(s, i)->ren);
		free(RK(s, i)->wsub);
	}
	trc_reorder_free(s->out);
	sc_cores_free(s);
	for (i = 0; i < s->ndiag; i++)
		free(s->diag[i]);
	free(s->diag);
	free(s->lbuf);
	trc_pages_free(&s->rkp);
	free(s->work);
	trc_match_free(s->mt);
	free(s);
}
