/*
 * window.c - a time window cut out of a stream (trc_window.h).
 *
 * Before the window, each rank keeps, in the order they happened, the
 * lines it would have to say again at the window's start for the
 * stream to stay whole: a call begun and not ended, a request posted
 * and not completed, a message sent and not yet received, a collective
 * it has left while others have still to enter it.  Each is forgotten
 * when it stops mattering (the call ends, the message is received, the
 * last participant enters), so memory follows what is in flight, not
 * the stream's length.  At the window's start they are written again
 * at its time, after the rank's open regions; at its end regions are
 * closed, a blocking receive whose message was sent in the window
 * completes, a send whose receive completed ends, and ranks the others
 * wait for in a world collective enter it; what the stream cannot
 * close (a receive whose message never came) stays open, as in a run
 * stopped there, and is counted.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "trc_match.h"
#include "trc_window.h"

/* A line to say again: one or two events (a begin and its end). */
struct entry {
	char		*line[2];
	int64_t		 req;		/* of a posted request, else TRC_NONE */
	int		 live;
	int		 coll_done;	/* its collective has all participants */
	int		 ref;		/* a collective instance points at it */
};

struct wrank {
	char		**region;	/* PB lines, outermost first */
	int		 depth, rcap;
	struct entry	**ent;		/* in the order they happened */
	int		 nent, ecap, ndead;
	struct entry	*call;		/* the open call, if any */
};

/* A collective instance: who entered it, and where each rank's is. */
struct winst {
	struct trc_coll	*c;
	char		*first;		/* the first XB line */
	unsigned char	*in;		/* per rank: entered */
	struct entry	**ent;		/* per rank, before the window */
	struct winst	*next, *prev;
};

struct trc_window {
	int64_t		 lo, hi;
	int32_t		 nranks;
	int		 (*emit)(void *, const struct trc_event *);
	void		*arg;
	struct wrank	*rk;
	int32_t		 nrk;
	struct trc_match *mt;
	struct winst	*insts;		/* live instances, newest first */
	struct trc_window_counts n;
	const char	*error;
	char		 errbuf[128];
	char		*buf;		/* for formatting lines */
	size_t		 bufcap;
};

static int
fail(struct trc_window *w, const char *msg)
{
	w->error = msg;
	return -1;
}

struct trc_window *
trc_window_new(int64_t lo, int64_t hi, int32_t nranks,
    int (*emit)(void *, const struct trc_event *), void *arg)
{
	struct trc_window *w;

	if ((w = calloc(1, sizeof(*w))) == NULL)
		return NULL;
	if ((w->mt = trc_match_new()) == NULL) {
		free(w);
		return NULL;
	}
	w->lo = lo;
	w->hi = hi;
	w->nranks = nranks > 0 ? nranks : 0;
	w->emit = emit;
	w->arg = arg;
	return w;
}

static void
entry_kill(struct wrank *rk, struct entry *e)
{
	if (!e->live)
		return;
	free(e->line[0]);
	free(e->line[1]);
	e->line[0] = e->line[1] = NULL;
	e->live = 0;
	rk->ndead++;
}

/* Drops the dead entries once they are half the list. */
static void
compact(struct wrank *rk)
{
	int i, j;

	if (rk->ndead < 16 || 2 * rk->ndead < rk->nent)
		return;
	rk->ndead = 0;
	for (i = j = 0; i < rk->nent; i++)
		if (rk->ent[i]->live || rk->ent[i]->ref) {
			rk->ndead += !rk->ent[i]->live;
			rk->ent[j++] = rk->ent[i];
		} else
			free(rk->ent[i]);
	rk->nent = j;
}

static void
inst_free(struct trc_window *w, struct winst *in)
{
	if (in->prev != NULL)
		in->prev->next = in->next;
	else
		w->insts = in->next;
	if (in->next != NULL)
		in->next->prev = in->prev;
	trc_coll_release(w->mt, in->c);
	free(in->first);
	free(in->in);
	free(in->ent);
	free(in);
}

void
trc_window_free(struct trc_window *w)
{
	int32_t r;
	int i;

	if (w == NULL)
		return;
	while (w->insts != NULL)
		inst_free(w, w->insts);
	for (r = 0; r < w->nrk; r++) {
		for (i = 0; i < w->rk[r].depth; i++)
			free(w->rk[r].region[i]);
		free(w->rk[r].region);
		for (i = 0; i < w->rk[r].nent; i++) {
			entry_kill(&w->rk[r], w->rk[r].ent[i]);
			free(w->rk[r].ent[i]);
		}
		free(w->rk[r].ent);
	}
	free(w->rk);
	trc_match_free(w->mt);
	free(w->buf);
	free(w);
}

const struct trc_window_counts *
trc_window_counts(const struct trc_window *w)
{
	return &w->n;
}

const char *
trc_window_error(const struct trc_window *w)
{
	return w->error;
}

static struct wrank *
rank_of(struct trc_window *w, int32_t r)
{
	struct wrank *p;
	int32_t n;

	if (r >= w->nrk) {
		for (n = w->nrk ? w->nrk : 16; n <= r; n *= 2)
			;
		if ((p = realloc(w->rk, (size_t)n * sizeof(*p))) == NULL)
			return NULL;
		memset(p + w->nrk, 0, (size_t)(n - w->nrk) * sizeof(*p));
		w->rk = p;
		w->nrk = n;
	}
	return &w->rk[r];
}

/* The event as a line of its own (no newline), in a new string. */
static char *
line_of(struct trc_window *w, const struct trc_event *ev)
{
	size_t need = trc_event_maxlen(ev, 0), n;
	char *s;

	if (need > w->bufcap) {
		free(w->buf);
		if ((w->buf = malloc(need)) == NULL) {
			w->bufcap = 0;
			return NULL;
		}
		w->bufcap = need;
	}
	n = trc_format_event(w->buf, ev, ev->t, NULL, 0) - 1;
	if ((s = malloc(n + 1)) == NULL)
		return NULL;
	memcpy(s, w->buf, n);
	s[n] = '\0';
	return s;
}

/* Writes a kept line again at time t, as kind (or its own if -1). */
static int
say(struct trc_window *w, const char *line, int64_t t, int kind,
    int32_t rank)
{
	struct trc_event ev;
	char err[TRC_ERRLEN];

	if (trc_parse_line(line, strlen(line), &ev, err) < 0)
		return fail(w, "a kept line does not parse");
	ev.t = t;
	if (kind >= 0)
		ev.kind = (enum trc_kind)kind;
	if (rank >= 0)
		ev.rank = rank;
	return w->emit(w->arg, &ev) < 0 ? fail(w, "write failed") : 0;
}

static struct entry *
entry_add(struct trc_window *w, struct wrank *rk, const struct trc_event *ev)
{
	struct entry *e, **p;
	int n;

	compact(rk);
	if (rk->nent == rk->ecap) {
		n = rk->ecap ? 2 * rk->ecap : 8;
		if ((p = realloc(rk->ent, (size_t)n * sizeof(*p))) == NULL)
			return NULL;
		rk->ent = p;
		rk->ecap = n;
	}
	if ((e = calloc(1, sizeof(*e))) == NULL)
		return NULL;
	if ((e->line[0] = line_of(w, ev)) == NULL) {
		free(e);
		return NULL;
	}
	e->req = TRC_NONE;
	e->live = 1;
	rk->ent[rk->nent++] = e;
	return e;
}

static int
is_post(const struct trc_event *ev)
{
	return (ev->kind == TRC_RB || ev->kind == TRC_XB) &&
	    ev->req != TRC_NONE;
}

/* The participants of a collective: size=, or the world's. */
static int32_t
coll_size(const struct trc_window *w, const struct trc_event *ev)
{
	const struct trc_str *v = trc_attr_get(ev, "size");
	int64_t n;

	if (v != NULL && trc_parse_int(v->s, v->len, &n) == 0 && n > 0 &&
	    n <= INT32_MAX)
		return (int32_t)n;
	return ev->comm == 0 ? w->nranks : 0;
}

static struct winst *
coll_enter(struct trc_window *w, const struct trc_event *ev)
{
	struct trc_coll *c;
	struct winst *in;
	int32_t size = coll_size(w, ev);

	if (size <= 0 || w->nranks <= 0 || ev->rank >= w->nranks)
		return NULL;
	if ((c = trc_coll_enter(w->mt, ev->comm, ev->rank, ev->line)) == NULL)
		return (void)fail(w, "out of memory"), NULL;
	if ((in = c->user) == NULL) {
		if ((in = calloc(1, sizeof(*in))) == NULL ||
		    (in->in = calloc((size_t)w->nranks, 1)) == NULL ||
		    (in->ent = calloc((size_t)w->nranks,
		    sizeof(*in->ent))) == NULL ||
		    (in->first = line_of(w, ev)) == NULL) {
			if (in != NULL) {
				free(in->in);
				free(in->ent);
			}
			free(in);
			return (void)fail(w, "out of memory"), NULL;
		}
		in->c = c;
		c->user = in;
		c->size = size;
		in->next = w->insts;
		if (w->insts != NULL)
			w->insts->prev = in;
		w->insts = in;
	}
	in->in[ev->rank] = 1;
	return in;
}

/* Every participant entered: what each kept for it is done. */
static void
coll_complete(struct trc_window *w, struct winst *in)
{
	struct entry *e;
	int32_t r;

	for (r = 0; r < w->nranks; r++)
		if ((e = in->ent[r]) != NULL) {
			e->coll_done = 1;
			e->ref = 0;
			/* A blocking one that ended is not said again. */
			if (e->line[1] != NULL)
				entry_kill(&w->rk[r], e);
		}
	inst_free(w, in);
}

static void
msg_of(const struct trc_event *ev, int send, struct trc_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->src = send ? ev->rank : ev->peer;
	m->dst = send ? ev->peer : ev->rank;
	m->tag = ev->tag;
	m->comm = ev->comm;
	m->bytes = ev->bytes;
	m->line = ev->line;
	m->send = send;
}

/* An event before the window, or in it: the state it leaves. */
static int
track(struct trc_window *w, const struct trc_event *ev, int before)
{
	struct wrank *rk;
	struct entry *e;
	struct winst *in;
	struct trc_msg m, peer;
	char **p;
	int i, rc;

	if ((rk = rank_of(w, ev->rank)) == NULL)
		return fail(w, "out of memory");
	switch (ev->kind) {
	case TRC_PB:
		if (rk->depth == rk->rcap) {
			i = rk->rcap ? 2 * rk->rcap : 8;
			if ((p = realloc(rk->region, (size_t)i * sizeof(*p))) == NULL)
				return fail(w, "out of memory");
			rk->region = p;
			rk->rcap = i;
		}
		if ((rk->region[rk->depth] = line_of(w, ev)) == NULL)
			return fail(w, "out of memory");
		rk->depth++;
		return 0;
	case TRC_PE:
		if (rk->depth > 0)
			free(rk->region[--rk->depth]);
		return 0;
	case TRC_SB:
	case TRC_WB:
		break;
	case TRC_RB:
	case TRC_XB:
		if (is_post(ev)) {
			if (ev->kind == TRC_XB && coll_enter(w, ev) == NULL &&
			    w->error != NULL)
				return -1;
			if (!before)
				return 0;
			if ((e = entry_add(w, rk, ev)) == NULL)
				return fail(w, "out of memory");
			e->req = ev->req;
			return 0;
		}
		break;
	case TRC_SE:
		msg_of(ev, 1, &m);
		e = rk->call;
		rk->call = NULL;
		if (e != NULL && before && e->line[1] == NULL &&
		    (e->line[1] = line_of(w, ev)) == NULL)
			return fail(w, "out of memory");
		m.aux = before && e != NULL ? (int64_t)(intptr_t)e : 0;
		if ((rc = trc_match_send(w->mt, &m, &peer)) < 0)
			return fail(w, "out of memory");
		if (e != NULL && (rc == 1 || !before))
			entry_kill(rk, e);
		return 0;
	case TRC_RE:
		msg_of(ev, 0, &m);
		if ((rc = trc_match_recv(w->mt, &m, &peer)) < 0)
			return fail(w, "out of memory");
		if (rc == 1 && peer.aux != 0 && peer.src >= 0 &&
		    peer.src < w->nrk)
			entry_kill(&w->rk[peer.src],
			    (struct entry *)(intptr_t)peer.aux);
		if (ev->req != TRC_NONE) {
			/* Completes a posted receive. */
			for (i = 0; i < rk->nent; i++)
				if (rk->ent[i]->live && rk->ent[i]->req == ev->req) {
					entry_kill(rk, rk->ent[i]);
					break;
				}
			return 0;
		}
		if ((e = rk->call) != NULL && e->line[1] == NULL) {
			entry_kill(rk, e);
			rk->call = NULL;
		}
		return 0;
	case TRC_XE:
		if (ev->req != TRC_NONE) {
			for (i = 0; i < rk->nent; i++)
				if (rk->ent[i]->live && rk->ent[i]->req == ev->req) {
					entry_kill(rk, rk->ent[i]);
					break;
				}
			return 0;
		}
		e = rk->call;
		rk->call = NULL;
		if (e == NULL)
			return 0;
		if (!before || e->coll_done)
			entry_kill(rk, e);
		else if ((e->line[1] = line_of(w, ev)) == NULL)
			return fail(w, "out of memory");
		return 0;
	case TRC_WE:
		if ((e = rk->call) != NULL)
			entry_kill(rk, e);
		rk->call = NULL;
		return 0;
	default:
		return 0;
	}
	/* A call begins: SB, WB, a blocking RB or XB. */
	if (rk->call != NULL)
		entry_kill(rk, rk->call);
	if ((rk->call = e = entry_add(w, rk, ev)) == NULL)
		return fail(w, "out of memory");
	if (ev->kind == TRC_XB) {
		if ((in = coll_enter(w, ev)) == NULL) {
			if (w->error != NULL)
				return -1;
		} else {
			/* Only before the window is it said again. */
			if (before) {
				in->ent[ev->rank] = e;
				e->ref = 1;
			}
			if (in->c->arrived >= in->c->size)
				coll_complete(w, in);
		}
	}
	return 0;
}

/* The window starts: say again what is open, per rank. */
static int
start(struct trc_window *w)
{
	struct trc_msg *v;
	struct wrank *rk;
	struct entry *e;
	struct winst *in;
	size_t n, k;
	int32_t r;
	int i, j;

	w->n.started = 1;
	/* The messages in flight leave the table and come back as sent
	 * at the start; receives that came before their send's end are
	 * counted and dropped, their sends will have no receive. */
	if ((v = trc_match_leftovers(w->mt, &n)) == NULL && n != 0)
		return fail(w, "out of memory");
	for (k = 0; k < n; k++) {
		if (!v[k].send) {
			w->n.recv_early++;
			continue;
		}
		w->n.msg_before++;
		v[k].aux = 0;
		if (trc_match_send(w->mt, &v[k], &v[k]) < 0) {
			free(v);
			return fail(w, "out of memory");
		}
	}
	free(v);
	for (in = w->insts; in != NULL; in = in->next)
		for (r = 0; r < w->nranks; r++)
			if ((e = in->ent[r]) != NULL && e->live &&
			    e->line[1] != NULL)
				w->n.coll_before++;
	for (r = 0; r < w->nrk; r++) {
		rk = &w->rk[r];
		for (i = 0; i < rk->depth; i++) {
			if (say(w, rk->region[i], w->lo, -1, -1) < 0)
				return -1;
			w->n.reopened++;
		}
		for (i = 0; i < rk->nent; i++) {
			if (!(e = rk->ent[i])->live)
				continue;
			for (j = 0; j < 2 && e->line[j] != NULL; j++)
				if (say(w, e->line[j], w->lo, -1, -1) < 0)
					return -1;
			if (e != rk->call)
				entry_kill(rk, e);
			else
				w->n.reopened++;
		}
		compact(rk);
	}
	for (in = w->insts; in != NULL; in = in->next)
		for (r = 0; r < w->nranks; r++)
			if (in->ent[r] != NULL) {
				in->ent[r]->ref = 0;
				in->ent[r] = NULL;
			}
	for (r = 0; r < w->nrk; r++)
		compact(&w->rk[r]);
	return 0;
}

/* A message in the table for a receive posted as rb: 1 with it. */
static int
message_for(struct trc_window *w, const struct trc_event *rb,
    struct trc_msg *m)
{
	if (rb->peer >= 0 && rb->tag >= 0)
		return trc_match_peek(w->mt, rb->peer, rb->rank, rb->tag,
		    rb->comm, m);
	if (!trc_match_peek_any(w->mt, rb->rank, rb->tag >= 0 ? rb->tag :
	    TRC_ANY, rb->comm, m))
		return 0;
	return rb->peer < 0 || m->src == rb->peer;
}

/* The window ends: close what the stream can close, at its end. */
static int
finish(struct trc_window *w)
{
	struct trc_event ev;
	struct trc_msg m, peer, *v;
	struct wrank *rk;
	struct winst *in, *next;
	char err[TRC_ERRLEN], line[256];
	size_t n, k;
	int32_t r;

	w->n.ended = 1;
	for (r = 0; r < w->nrk; r++) {
		rk = &w->rk[r];
		if (rk->call == NULL)
			continue;
		if (trc_parse_line(rk->call->line[0], strlen(rk->call->line[0]),
		    &ev, err) < 0)
			return fail(w, "a kept line does not parse");
		if (ev.kind == TRC_RB && message_for(w, &ev, &m)) {
			/* Its message was sent in the window: it ends. */
			snprintf(line, sizeof(line), "0 %ld RE peer=%ld tag=%ld",
			    (long)r, (long)m.src, (long)m.tag);
			if (m.bytes >= 0)
				snprintf(line + strlen(line), sizeof(line) -
				    strlen(line), " bytes=%lld", (long long)m.bytes);
			if (m.comm != 0)
				snprintf(line + strlen(line), sizeof(line) -
				    strlen(line), " comm=%ld", (long)m.comm);
			if (say(w, line, w->hi, -1, -1) < 0)
				return -1;
			if (trc_match_take(w->mt, &m) < 0)
				return fail(w, "a message went missing");
			w->n.recv_closed++;
		} else if (ev.kind == TRC_SB && trc_match_peek_recv(w->mt,
		    r, ev.peer, ev.tag, ev.comm, &m)) {
			/* Its receive ended in the window: so does it. */
			msg_of(&ev, 1, &m);
			if (say(w, rk->call->line[0], w->hi, TRC_SE, -1) < 0)
				return -1;
			if (trc_match_send(w->mt, &m, &peer) < 0)
				return fail(w, "out of memory");
			w->n.send_closed++;
		} else
			continue;
		entry_kill(rk, rk->call);
		rk->call = NULL;
	}
	/* A world collective some entered: the others, if free, too. */
	for (in = w->insts; in != NULL; in = next) {
		next = in->next;
		if (trc_parse_line(in->first, strlen(in->first), &ev, err) < 0)
			return fail(w, "a kept line does not parse");
		if (ev.req == TRC_NONE && in->c->size == w->nranks)
			for (r = 0; r < w->nranks; r++) {
				if (in->in[r])
					continue;
				if (r < w->nrk && w->rk[r].call != NULL)
					continue;
				if (say(w, in->first, w->hi, -1, r) < 0)
					return -1;
				in->in[r] = 1;
				in->c->arrived++;
				w->n.coll_entered++;
			}
		if (in->c->arrived < in->c->size)
			w->n.coll_cut++;
	}
	for (r = 0; r < w->nrk; r++) {
		rk = &w->rk[r];
		while (rk->depth > 0) {
			if (say(w, rk->region[rk->depth - 1], w->hi, TRC_PE,
			    -1) < 0)
				return -1;
			free(rk->region[--rk->depth]);
			w->n.closed++;
		}
		if (rk->call != NULL)
			w->n.calls_open++;
	}
	if ((v = trc_match_leftovers(w->mt, &n)) == NULL && n != 0)
		return fail(w, "out of memory");
	for (k = 0; k < n; k++)
		if (v[k].send)
			w->n.msg_after++;
	free(v);
	return 0;
}

int
trc_window_add(struct trc_window *w, const struct trc_event *ev)
{
	if (w->error != NULL)
		return -1;
	if (w->n.ended)
		return 0;
	if (ev->t < w->lo)
		return track(w, ev, 1) < 0 ? -1 : 1;
	if (ev->t > w->hi) {
		if (!w->n.started && start(w) < 0)
			return -1;
		return finish(w) < 0 ? -1 : 0;
	}
	if (!w->n.started && start(w) < 0)
		return -1;
	if (track(w, ev, 0) < 0)
		return -1;
	return w->emit(w->arg, ev) < 0 ? fail(w, "write failed") : 1;
}

int
trc_window_end(struct trc_window *w)
{
	if (w->error != NULL)
		return -1;
	/* A stream that ends in the window, or before it, is not cut
	 * at the end: what is open there was open in the input. */
	return 0;
}

int
trc_parse_range(const char *s, int (*parse)(const char *, size_t, int64_t *),
    int64_t *lo, int64_t *hi)
{
	const char *sep = strpbrk(s, "-,");

	if (sep == NULL || strpbrk(sep + 1, "-,") != NULL)
		return -1;
	*lo = 0;
	*hi = INT64_MAX;
	if (sep > s && parse(s, (size_t)(sep - s), lo) < 0)
		return -1;
	if (sep[1] != '\0' && parse(sep + 1, strlen(sep + 1), hi) < 0)
		return -1;
	return *lo <= *hi ? 0 : -1;
}
