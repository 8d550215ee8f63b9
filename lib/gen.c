/*
 * gen.c - synthetic streams of simulated message-passing programs.
 *
 * Each pattern is simulated a step at a time (an iteration, or one
 * result for master-worker) with a clock per rank and the cost model
 * below, so the streams respect causality.  Events wait in a heap
 * ordered by (time, generation order) and leave it once every rank's
 * clock has passed them: the output is sorted and memory is bounded by
 * the ranks, not by the iterations.
 */
#include <stdlib.h>
#include <string.h>

#include "trc.h"

/* Cost model in nanoseconds. */
#define SEND_NS(b)	(2000 + (b))		/* send call: 1 GB/s copy */
#define WIRE_NS(b)	(1000 + (b))		/* SE to arrival */
#define RECV_NS		1000			/* receive call overhead */
#define COLL_NS		5000			/* per allreduce stage */

enum { FN_NONE, FN_WORK, FN_STENCIL, FN_SOLVE, FN_TASK, FN_COLLECT };
static const char *const fn_names[] = {
	"", "work", "stencil", "solve", "task", "collect"
};

static const char *const patterns[] = {
	[TRC_GEN_RING] = "ring",
	[TRC_GEN_HALO] = "halo",
	[TRC_GEN_ALLREDUCE] = "allreduce",
	[TRC_GEN_MASTER_WORKER] = "master-worker",
};

struct gev {
	int64_t		 t;
	uint64_t	 seq;
	int32_t		 rank, peer, tag, req, nreq;
	int32_t		 iter;
	int64_t		 bytes;
	unsigned char	 kind, fn;
};

struct trc_gen {
	struct trc_gen_opts	 o;
	struct gev		*heap;
	size_t			 nheap, capheap;
	uint64_t		 seq, rng;
	int64_t			*clk, *arrival;
	int64_t			 watermark;
	int64_t			 step;		/* steps simulated */
	int32_t			 px, py;	/* halo grid */
	int32_t			*nreq;		/* halo: requests per rank */
	int32_t			*todo, *wheap, nw;	/* master-worker */
	int			 oom;
};

int
trc_gen_pattern(const char *name, enum trc_gen_pattern *p)
{
	size_t i;

	for (i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++)
		if (strcmp(name, patterns[i]) == 0) {
			*p = (enum trc_gen_pattern)i;
			return 0;
		}
	return -1;
}

const char *
trc_gen_pattern_name(enum trc_gen_pattern p)
{
	return patterns[p];
}

static int neighbours(int32_t, int32_t, int32_t, int32_t[4]);

/* The halo grid: as wide as the largest divisor of the ranks not
 * above their square root. */
static int32_t
grid_width(int32_t ranks)
{
	int32_t px;

	for (px = 1; (int64_t)(px + 1) * (px + 1) <= ranks; px++)
		;
	while (ranks % px != 0)
		px--;
	return px;
}

int64_t
trc_gen_iterations_for(enum trc_gen_pattern p, int32_t ranks, int64_t events)
{
	int64_t per_step = 0;
	int32_t r, k, nb[4], px = grid_width(ranks);

	switch (p) {
	case TRC_GEN_RING:
		per_step = 7 * (int64_t)ranks;
		break;
	case TRC_GEN_HALO:	/* MK PB PE, per neighbour RB SB SE RE, WB WE */
		for (r = 0; r < ranks; r++) {
			k = neighbours(px, ranks / px, r, nb);
			per_step += k > 0 ? 5 + 4 * k : 3;
		}
		break;
	case TRC_GEN_ALLREDUCE:
		per_step = 5 * (int64_t)ranks;
		break;
	case TRC_GEN_MASTER_WORKER:	/* a task is at least 8 events */
		per_step = 8 * (int64_t)(ranks > 1 ? ranks - 1 : 1);
		break;
	}
	return (events + per_step - 1) / per_step;
}

/* A computation time: the mean times a factor in [0.75, 1.25). */
static int64_t
work_ns(struct trc_gen *g, int64_t mean)
{
	return mean * 3 / 4 +
	    (int64_t)(trc_splitmix64(&g->rng) % (uint64_t)(mean / 2 + 1));
}

static int
before(const struct gev *a, const struct gev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

/* Every field the kind does not use stays zero. */
static void
push(struct trc_gen *g, struct gev e)
{
	struct gev tmp, *p;
	size_t i, up;

	if (g->nheap == g->capheap) {
		if ((p = realloc(g->heap, (g->capheap ? 2 * g->capheap : 1024) *
		    sizeof(*p))) == NULL) {
			g->oom = 1;
			return;
		}
		g->heap = p;
		g->capheap = g->capheap ? 2 * g->capheap : 1024;
	}
	e.seq = g->seq++;
	g->heap[g->nheap] = e;
	for (i = g->nheap++; i > 0; i = up) {
		up = (i - 1) / 2;
		if (!before(&g->heap[i], &g->heap[up]))
			break;
		tmp = g->heap[i];
		g->heap[i] = g->heap[up];
		g->heap[up] = tmp;
	}
}

static void
pop(struct trc_gen *g)
{
	struct gev tmp, *h = g->heap;
	size_t i, c, n = --g->nheap;

	h[0] = h[n];
	for (i = 0; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && before(&h[c + 1], &h[c]))
			c++;
		if (!before(&h[c], &h[i]))
			break;
		tmp = h[c];
		h[c] = h[i];
		h[i] = tmp;
	}
}

static int64_t
min_clock(const struct trc_gen *g)
{
	int64_t m = INT64_MAX;
	int32_t r;

	for (r = 0; r < g->o.ranks; r++)
		if (g->clk[r] < m)
			m = g->clk[r];
	return m;
}

static void
marker(struct trc_gen *g, int32_t r, int32_t iter)
{
	push(g, (struct gev){ .t = g->clk[r], .rank = r, .kind = TRC_MK,
	    .iter = iter });
}

static void
compute(struct trc_gen *g, int32_t r, int fn, int64_t mean)
{
	push(g, (struct gev){ .t = g->clk[r], .rank = r, .kind = TRC_PB, .fn = fn });
	g->clk[r] += work_ns(g, mean);
	push(g, (struct gev){ .t = g->clk[r], .rank = r, .kind = TRC_PE, .fn = fn });
}

/* A send call; req > 0 makes it nonblocking with request req - 1. */
static void
send(struct trc_gen *g, int32_t r, int32_t to, int32_t tag, int32_t req)
{
	struct gev e = { .t = g->clk[r], .rank = r, .kind = TRC_SB, .peer = to,
	    .tag = tag, .bytes = g->o.bytes, .req = req - 1, .nreq = req > 0 };

	push(g, e);
	g->clk[r] += SEND_NS(g->o.bytes);
	e.t = g->clk[r];
	e.kind = TRC_SE;
	push(g, e);
}

/* A blocking receive of a message that arrives at 'arrive'. */
static void
recv(struct trc_gen *g, int32_t r, int32_t from, int32_t posted, int32_t tag,
    int64_t arrive)
{
	push(g, (struct gev){ .t = g->clk[r], .rank = r, .kind = TRC_RB,
	    .peer = posted, .tag = tag, .bytes = g->o.bytes });
	g->clk[r] += RECV_NS;
	if (g->clk[r] < arrive)
		g->clk[r] = arrive;
	push(g, (struct gev){ .t = g->clk[r], .rank = r, .kind = TRC_RE,
	    .peer = from, .tag = tag, .bytes = g->o.bytes });
}

static void
step_ring(struct trc_gen *g)
{
	int32_t r, n = g->o.ranks, left;

	for (r = 0; r < n; r++) {
		marker(g, r, (int32_t)g->step);
		compute(g, r, FN_WORK, g->o.compute_ns);
		send(g, r, (r + 1) % n, 1, 0);
		g->arrival[r] = g->clk[r] + WIRE_NS(g->o.bytes);
	}
	for (r = 0; r < n; r++) {
		left = (r + n - 1) % n;
		recv(g, r, left, left, 1, g->arrival[left]);
	}
	g->watermark = min_clock(g);
}

/* Rank r's neighbours on the halo grid, -1 where there is none; a
 * message to neighbour d travels in direction d and so arrives at it
 * from the opposite side, d ^ 1. */
static int
neighbours(int32_t px, int32_t py, int32_t r, int32_t nb[4])
{
	static const int dx[4] = { 0, 0, -1, 1 }, dy[4] = { -1, 1, 0, 0 };
	int32_t x = r % px, y = r / px;
	int d, k = 0;

	for (d = 0; d < 4; d++) {
		nb[d] = x + dx[d] < 0 || x + dx[d] >= px ||
		    y + dy[d] < 0 || y + dy[d] >= py ? -1 :
		    (y + dy[d]) * px + x + dx[d];
		k += nb[d] >= 0;
	}
	return k;
}

/* 2-D halo: nonblocking exchange with up to four neighbours. */
static void
step_halo(struct trc_gen *g)
{
	int32_t r, nb[4], k, req0;
	int64_t end, bytes = g->o.bytes;
	int d;

	for (r = 0; r < g->o.ranks; r++) {
		marker(g, r, (int32_t)g->step);
		compute(g, r, FN_STENCIL, g->o.compute_ns);
		neighbours(g->px, g->py, r, nb);
		for (d = 0; d < 4; d++)
			if (nb[d] >= 0)
				push(g, (struct gev){ .t = g->clk[r], .rank = r,
				    .kind = TRC_RB, .peer = nb[d], .tag = d ^ 1,
				    .bytes = bytes, .req = g->nreq[r]++, .nreq = 1 });
		for (d = 0; d < 4; d++)
			if (nb[d] >= 0) {
				send(g, r, nb[d], d, ++g->nreq[r]);
				g->arrival[4 * r + d] = g->clk[r] + WIRE_NS(bytes);
			}
	}
	for (r = 0; r < g->o.ranks; r++) {
		if ((k = neighbours(g->px, g->py, r, nb)) == 0)
			continue;
		end = g->clk[r] + RECV_NS;
		for (d = 0; d < 4; d++)
			if (nb[d] >= 0 && g->arrival[4 * nb[d] + (d ^ 1)] > end)
				end = g->arrival[4 * nb[d] + (d ^ 1)];
		/* This step's requests: k receives, then k sends. */
		req0 = g->nreq[r] - 2 * k;
		push(g, (struct gev){ .t = g->clk[r], .rank = r, .kind = TRC_WB,
		    .req = req0, .nreq = 2 * k });
		for (d = 0, k = 0; d < 4; d++)
			if (nb[d] >= 0)
				push(g, (struct gev){ .t = end, .rank = r,
				    .kind = TRC_RE, .peer = nb[d], .tag = d ^ 1,
				    .bytes = bytes, .req = req0 + k++, .nreq = 1 });
		push(g, (struct gev){ .t = end, .rank = r, .kind = TRC_WE,
		    .req = req0, .nreq = 2 * k });
		g->clk[r] = end;
	}
	g->watermark = min_clock(g);
}

static void
step_allreduce(struct trc_gen *g)
{
	int32_t r, stages;
	int64_t end = 0;

	for (stages = 1; ((int64_t)1 << stages) < g->o.ranks; stages++)
		;
	for (r = 0; r < g->o.ranks; r++) {
		marker(g, r, (int32_t)g->step);
		compute(g, r, FN_SOLVE, g->o.compute_ns);
		push(g, (struct gev){ .t = g->clk[r], .rank = r, .kind = TRC_XB,
		    .bytes = 8 });
		if (g->clk[r] > end)
			end = g->clk[r];
	}
	end += (int64_t)stages * COLL_NS;
	for (r = 0; r < g->o.ranks; r++) {
		push(g, (struct gev){ .t = end, .rank = r, .kind = TRC_XE,
		    .bytes = 8 });
		g->clk[r] = end;
	}
	g->watermark = end;
}

#define EARLIER(g, a, b) ((g)->arrival[a] < (g)->arrival[b] || \
	((g)->arrival[a] == (g)->arrival[b] && (a) < (b)))

/* A worker sends its result: into the heap of workers by arrival. */
static void
worker_done(struct trc_gen *g, int32_t wk)
{
	int32_t i, up, tmp, *h = g->wheap;

	send(g, wk, 0, 1, 0);
	g->arrival[wk] = g->clk[wk] + WIRE_NS(g->o.bytes);
	g->todo[wk]--;
	for (i = g->nw++, h[i] = wk; i > 0; i = up) {
		up = (i - 1) / 2;
		if (!EARLIER(g, h[i], h[up]))
			break;
		tmp = h[i], h[i] = h[up], h[up] = tmp;
	}
}

/*
 * Master-worker: rank 0 receives results from any worker in arrival
 * order and answers each with new work until every worker has done
 * its tasks.  A step is one result, the first step every worker's
 * first task.
 */
static int
step_master_worker(struct trc_gen *g)
{
	int32_t wk, i, c, tmp, *h = g->wheap;

	if (g->step == 0) {
		for (wk = 1; wk < g->o.ranks; wk++) {
			g->todo[wk] = (int32_t)g->o.iterations;
			compute(g, wk, FN_TASK, g->o.compute_ns);
			worker_done(g, wk);
		}
		return 1;
	}
	if (g->nw == 0)
		return 0;
	wk = h[0];
	h[0] = h[--g->nw];
	for (i = 0; (c = 2 * i + 1) < g->nw; i = c) {
		if (c + 1 < g->nw && EARLIER(g, h[c + 1], h[c]))
			c++;
		if (!EARLIER(g, h[c], h[i]))
			break;
		tmp = h[c], h[c] = h[i], h[i] = tmp;
	}
	recv(g, 0, wk, TRC_ANY, 1, g->arrival[wk]);
	compute(g, 0, FN_COLLECT, g->o.compute_ns / 10);
	if (g->todo[wk] > 0) {
		send(g, 0, wk, 2, 0);
		recv(g, wk, 0, 0, 2, g->clk[0] + WIRE_NS(g->o.bytes));
		compute(g, wk, FN_TASK, g->o.compute_ns);
		worker_done(g, wk);
	} else
		g->clk[wk] = INT64_MAX;		/* this worker is done */
	/* The watermark costs a pass over the ranks: once per round. */
	if (g->step % g->o.ranks == 0)
		g->watermark = min_clock(g);
	return 1;
}

/* Simulates the next step; 0 when the program has ended. */
static int
step(struct trc_gen *g)
{
	if (g->o.pattern == TRC_GEN_MASTER_WORKER) {
		if (!step_master_worker(g))
			return 0;
	} else if (g->step == g->o.iterations)
		return 0;
	else if (g->o.pattern == TRC_GEN_RING)
		step_ring(g);
	else if (g->o.pattern == TRC_GEN_HALO)
		step_halo(g);
	else
		step_allreduce(g);
	g->step++;
	return 1;
}

struct trc_gen *
trc_gen_new(const struct trc_gen_opts *o, const char **err)
{
	struct trc_gen *g;
	size_t n = (size_t)o->ranks;

	*err = NULL;
	if (o->ranks < 1 || o->iterations < 1 || o->bytes < 0 ||
	    o->compute_ns < 1 || (unsigned)o->pattern > TRC_GEN_MASTER_WORKER) {
		*err = "invalid generator options";
		return NULL;
	}
	if (o->pattern == TRC_GEN_MASTER_WORKER && o->ranks < 2) {
		*err = "master-worker needs at least 2 ranks";
		return NULL;
	}
	if ((g = calloc(1, sizeof(*g))) == NULL ||
	    (g->clk = calloc(n, sizeof(*g->clk))) == NULL ||
	    (g->arrival = calloc(4 * n, sizeof(*g->arrival))) == NULL ||
	    (g->nreq = calloc(n, sizeof(*g->nreq))) == NULL ||
	    (g->todo = calloc(n, sizeof(*g->todo))) == NULL ||
	    (g->wheap = calloc(n, sizeof(*g->wheap))) == NULL) {
		trc_gen_free(g);
		*err = "out of memory";
		return NULL;
	}
	g->o = *o;
	g->rng = o->seed;
	g->px = grid_width(o->ranks);
	g->py = o->ranks / g->px;
	g->watermark = -1;
	return g;
}

void
trc_gen_free(struct trc_gen *g)
{
	if (g == NULL)
		return;
	free(g->heap);
	free(g->clk);
	free(g->arrival);
	free(g->nreq);
	free(g->todo);
	free(g->wheap);
	free(g);
}

static char *
put(char *o, const char *s)
{
	size_t n = strlen(s);

	memcpy(o, s, n);
	return o + n;
}

static size_t
format(const struct gev *e, char *line)
{
	char *o = line;
	int32_t i;

	o += trc_format_time(o, e->t);
	*o++ = ' ';
	o += trc_format_int(o, e->rank);
	*o++ = ' ';
	o = put(o, trc_kind_name((enum trc_kind)e->kind));
	if (e->fn != FN_NONE) {
		o = put(o, " fn=");
		o = put(o, fn_names[e->fn]);
	}
	if (e->kind == TRC_XB || e->kind == TRC_XE) {
		o = put(o, " op=allreduce bytes=");
		o += trc_format_int(o, e->bytes);
	} else if (e->kind <= TRC_RE) {
		o = put(o, " peer=");
		if (e->peer == TRC_ANY)
			*o++ = '*';
		else
			o += trc_format_int(o, e->peer);
		o = put(o, " tag=");
		o += trc_format_int(o, e->tag);
		o = put(o, " bytes=");
		o += trc_format_int(o, e->bytes);
	}
	if (e->nreq > 0) {
		o = put(o, " req=");
		for (i = 0; i < e->nreq; i++) {
			if (i > 0)
				*o++ = ',';
			o += trc_format_int(o, e->req + i);
		}
	}
	if (e->kind == TRC_WB || e->kind == TRC_WE)
		o = put(o, " op=waitall");
	if (e->kind == TRC_MK) {
		o = put(o, " iter=");
		o += trc_format_int(o, e->iter);
	}
	*o++ = '\n';
	return (size_t)(o - line);
}

size_t
trc_gen_line(struct trc_gen *g, char line[TRC_GEN_LINE])
{
	size_t n;

	while (!g->oom && (g->nheap == 0 || g->heap[0].t > g->watermark))
		if (!step(g)) {
			g->watermark = INT64_MAX;
			if (g->nheap == 0)
				return 0;
		}
	if (g->oom)
		return (size_t)-1;
	n = format(&g->heap[0], line);
	pop(g);
	return n;
}
