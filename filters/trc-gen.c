/*
 * trc-gen - deterministic synthetic trc streams for tests and
 * benchmarks.
 *
 * Each pattern is simulated with a clock per rank and a simple cost
 * model (below), so the streams respect causality.  Events go into a
 * heap ordered by (time, generation order) and leave it once every
 * rank's clock has passed them, which keeps the output sorted while
 * memory stays bounded by ranks, not by iterations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trc.h"

static const char usage_line[] =
    "trc-gen [-b bytes] [-c seconds] [-e events] [-i iterations] "
    "[-n ranks] [-p ring | halo | allreduce | master-worker] [-s seed]";

/* Cost model in nanoseconds. */
#define SEND_NS(b)	(2000 + (b))		/* send call: 1 GB/s copy */
#define WIRE_NS(b)	(1000 + (b))		/* SE to arrival */
#define RECV_NS		1000			/* receive call overhead */
#define COLL_NS		5000			/* per allreduce stage */

enum { FN_NONE, FN_WORK, FN_STENCIL, FN_SOLVE, FN_TASK, FN_COLLECT };
static const char *fn_names[] = {
	"", "work", "stencil", "solve", "task", "collect"
};

struct gev {
	int64_t		 t;
	uint64_t	 seq;
	int32_t		 rank, peer, tag, req, nreq;
	int32_t		 iter;
	int64_t		 bytes;
	unsigned char	 kind, fn;
};

static struct gev *heap;
static size_t nheap, capheap;
static uint64_t seq, rng_state;
static struct trc_writer *w;
static int64_t *clk, *arrival;
static int32_t nranks;
static int64_t nbytes = 4096, compute_ns = 1000000;

static void
usage(int status)
{
	printf("usage: %s\n", usage_line);
	exit(status);
}

/* splitmix64: the same numbers on every machine. */
static uint64_t
rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A computation time: the mean times a factor in [0.75, 1.25). */
static int64_t
work_ns(int64_t mean)
{
	return mean * 3 / 4 + (int64_t)(rng() % (uint64_t)(mean / 2 + 1));
}

static int
before(const struct gev *a, const struct gev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

/* Every field the kind does not use stays zero. */
static void
push(struct gev e)
{
	struct gev tmp;
	size_t i, p;

	if (nheap == capheap) {
		capheap = capheap ? 2 * capheap : 1024;
		heap = ereallocarray(heap, capheap, sizeof(*heap));
	}
	e.seq = seq++;
	heap[nheap] = e;
	for (i = nheap++; i > 0; i = p) {
		p = (i - 1) / 2;
		if (!before(&heap[i], &heap[p]))
			break;
		tmp = heap[i];
		heap[i] = heap[p];
		heap[p] = tmp;
	}
}

static void
pop(void)
{
	struct gev tmp;
	size_t i, c;

	heap[0] = heap[--nheap];
	for (i = 0; (c = 2 * i + 1) < nheap; i = c) {
		if (c + 1 < nheap && before(&heap[c + 1], &heap[c]))
			c++;
		if (!before(&heap[c], &heap[i]))
			break;
		tmp = heap[c];
		heap[c] = heap[i];
		heap[i] = tmp;
	}
}

static char *
put(char *o, const char *s)
{
	size_t n = strlen(s);

	memcpy(o, s, n);
	return o + n;
}

static void
write_gev(const struct gev *e)
{
	char line[256], *o = line;
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
	if (trc_write_raw(w, line, (size_t)(o - line)) < 0)
		die("<stdout>: %s", trc_werror(w));
}

/* Writes every event no rank can precede any more. */
static void
flush_until(int64_t watermark)
{
	while (nheap > 0 && heap[0].t <= watermark) {
		write_gev(&heap[0]);
		pop();
	}
}

static int64_t
min_clock(void)
{
	int64_t m = INT64_MAX;
	int32_t r;

	for (r = 0; r < nranks; r++)
		if (clk[r] < m)
			m = clk[r];
	return m;
}

static void
marker(int32_t r, int32_t iter)
{
	push((struct gev){ .t = clk[r], .rank = r, .kind = TRC_MK, .iter = iter });
}

static void
compute(int32_t r, int fn, int64_t mean)
{
	push((struct gev){ .t = clk[r], .rank = r, .kind = TRC_PB, .fn = fn });
	clk[r] += work_ns(mean);
	push((struct gev){ .t = clk[r], .rank = r, .kind = TRC_PE, .fn = fn });
}

/* A send call; req > 0 makes it nonblocking with request req - 1. */
static void
send(int32_t r, int32_t to, int32_t tag, int32_t req)
{
	struct gev e = { .t = clk[r], .rank = r, .kind = TRC_SB, .peer = to,
	    .tag = tag, .bytes = nbytes, .req = req - 1, .nreq = req > 0 };

	push(e);
	clk[r] += SEND_NS(nbytes);
	e.t = clk[r];
	e.kind = TRC_SE;
	push(e);
}

/* A blocking receive of a message that arrives at 'arrive'. */
static void
recv(int32_t r, int32_t from, int32_t posted, int32_t tag, int64_t arrive)
{
	push((struct gev){ .t = clk[r], .rank = r, .kind = TRC_RB,
	    .peer = posted, .tag = tag, .bytes = nbytes });
	clk[r] += RECV_NS;
	if (clk[r] < arrive)
		clk[r] = arrive;
	push((struct gev){ .t = clk[r], .rank = r, .kind = TRC_RE,
	    .peer = from, .tag = tag, .bytes = nbytes });
}

static void
gen_ring(int32_t iters)
{
	int32_t it, r, left;

	for (it = 0; it < iters; it++) {
		for (r = 0; r < nranks; r++) {
			marker(r, it);
			compute(r, FN_WORK, compute_ns);
			send(r, (r + 1) % nranks, 1, 0);
			arrival[r] = clk[r] + WIRE_NS(nbytes);
		}
		for (r = 0; r < nranks; r++) {
			left = (r + nranks - 1) % nranks;
			recv(r, left, left, 1, arrival[left]);
		}
		flush_until(min_clock());
	}
}

/* 2-D halo: a px x py grid, nonblocking exchange with up to four
 * neighbours, the tag naming the direction the message travels. */
static void
gen_halo(int32_t iters)
{
	static const int dx[4] = { 0, 0, -1, 1 }, dy[4] = { -1, 1, 0, 0 };
	int32_t px, py, it, r, x, y, nb[4], d, k, req0, *nreq;
	int64_t end;

	for (px = 1; (px + 1) * (px + 1) <= nranks; px++)
		;
	while (nranks % px != 0)
		px--;
	py = nranks / px;
	nreq = ecalloc((size_t)nranks, sizeof(*nreq));
	for (it = 0; it < iters; it++) {
		for (r = 0; r < nranks; r++) {
			marker(r, it);
			compute(r, FN_STENCIL, compute_ns);
			x = r % px;
			y = r / px;
			for (d = 0; d < 4; d++)
				nb[d] = x + dx[d] < 0 || x + dx[d] >= px ||
				    y + dy[d] < 0 || y + dy[d] >= py ? -1 :
				    (y + dy[d]) * px + x + dx[d];
			/* A message to neighbour d travels in direction d; it
			 * arrives from the opposite side, d ^ 1. */
			for (d = 0; d < 4; d++)
				if (nb[d] >= 0)
					push((struct gev){ .t = clk[r], .rank = r,
					    .kind = TRC_RB, .peer = nb[d],
					    .tag = d ^ 1, .bytes = nbytes,
					    .req = nreq[r]++, .nreq = 1 });
			for (d = 0; d < 4; d++)
				if (nb[d] >= 0) {
					send(r, nb[d], d, ++nreq[r]);
					arrival[4 * r + d] = clk[r] + WIRE_NS(nbytes);
				}
		}
		for (r = 0; r < nranks; r++) {
			x = r % px;
			y = r / px;
			end = clk[r] + RECV_NS;
			for (d = 0, k = 0; d < 4; d++) {
				nb[d] = x + dx[d] < 0 || x + dx[d] >= px ||
				    y + dy[d] < 0 || y + dy[d] >= py ? -1 :
				    (y + dy[d]) * px + x + dx[d];
				if (nb[d] < 0)
					continue;
				k++;
				if (arrival[4 * nb[d] + (d ^ 1)] > end)
					end = arrival[4 * nb[d] + (d ^ 1)];
			}
			if (k == 0)
				continue;
			/* This iteration's requests: k receives, then k sends. */
			req0 = nreq[r] - 2 * k;
			push((struct gev){ .t = clk[r], .rank = r, .kind = TRC_WB,
			    .req = req0, .nreq = 2 * k });
			for (d = 0, k = 0; d < 4; d++)
				if (nb[d] >= 0)
					push((struct gev){ .t = end, .rank = r,
					    .kind = TRC_RE, .peer = nb[d],
					    .tag = d ^ 1, .bytes = nbytes,
					    .req = req0 + k++, .nreq = 1 });
			push((struct gev){ .t = end, .rank = r, .kind = TRC_WE,
			    .req = req0, .nreq = 2 * k });
			clk[r] = end;
		}
		flush_until(min_clock());
	}
	free(nreq);
}

static void
gen_allreduce(int32_t iters)
{
	int32_t it, r, stages;
	int64_t end;

	for (stages = 1; (1 << stages) < nranks; stages++)
		;
	for (it = 0; it < iters; it++) {
		end = 0;
		for (r = 0; r < nranks; r++) {
			marker(r, it);
			compute(r, FN_SOLVE, compute_ns);
			push((struct gev){ .t = clk[r], .rank = r, .kind = TRC_XB,
			    .bytes = 8 });
			if (clk[r] > end)
				end = clk[r];
		}
		end += (int64_t)stages * COLL_NS;
		for (r = 0; r < nranks; r++) {
			push((struct gev){ .t = end, .rank = r, .kind = TRC_XE,
			    .bytes = 8 });
			clk[r] = end;
		}
		flush_until(end);
	}
}

/*
 * Master-worker: rank 0 receives results from any worker in arrival
 * order and answers each with new work until every worker has done
 * 'iters' tasks.  Workers wait in a heap ordered by arrival time.
 */
static void
gen_master_worker(int32_t iters)
{
	int32_t *todo, *wheap, nw = 0, wk, i, c, p, tmp, step = 0;

	if (nranks < 2)
		die("master-worker needs at least 2 ranks");
	todo = ecalloc((size_t)nranks, sizeof(*todo));
	wheap = ecalloc((size_t)nranks, sizeof(*wheap));
#define EARLIER(a, b) (arrival[a] < arrival[b] || \
	(arrival[a] == arrival[b] && (a) < (b)))
	for (wk = 1; wk < nranks; wk++) {
		todo[wk] = iters;
		compute(wk, FN_TASK, compute_ns);
		send(wk, 0, 1, 0);
		arrival[wk] = clk[wk] + WIRE_NS(nbytes);
		todo[wk]--;
		for (i = nw++, wheap[i] = wk; i > 0; i = p) {
			p = (i - 1) / 2;
			if (!EARLIER(wheap[i], wheap[p]))
				break;
			tmp = wheap[i], wheap[i] = wheap[p], wheap[p] = tmp;
		}
	}
	while (nw > 0) {
		wk = wheap[0];
		wheap[0] = wheap[--nw];
		for (i = 0; (c = 2 * i + 1) < nw; i = c) {
			if (c + 1 < nw && EARLIER(wheap[c + 1], wheap[c]))
				c++;
			if (!EARLIER(wheap[c], wheap[i]))
				break;
			tmp = wheap[c], wheap[c] = wheap[i], wheap[i] = tmp;
		}
		recv(0, wk, TRC_ANY, 1, arrival[wk]);
		compute(0, FN_COLLECT, compute_ns / 10);
		if (todo[wk] > 0) {
			send(0, wk, 2, 0);
			recv(wk, 0, 0, 2, clk[0] + WIRE_NS(nbytes));
			compute(wk, FN_TASK, compute_ns);
			send(wk, 0, 1, 0);
			arrival[wk] = clk[wk] + WIRE_NS(nbytes);
			todo[wk]--;
			for (i = nw++, wheap[i] = wk; i > 0; i = p) {
				p = (i - 1) / 2;
				if (!EARLIER(wheap[i], wheap[p]))
					break;
				tmp = wheap[i], wheap[i] = wheap[p], wheap[p] = tmp;
			}
		} else
			clk[wk] = INT64_MAX;	/* this worker is done */
		if (++step % nranks == 0)
			flush_until(min_clock());
	}
#undef EARLIER
	free(todo);
	free(wheap);
}

int
main(int argc, char **argv)
{
	static const struct {
		const char	*name;
		void		(*gen)(int32_t);
		int		 events;	/* per rank and iteration */
	} patterns[] = {
		{ "ring", gen_ring, 7 },
		{ "halo", gen_halo, 15 },
		{ "allreduce", gen_allreduce, 5 },
		{ "master-worker", gen_master_worker, 9 },
	};
	struct trc_header h;
	char comment[256];
	long long events = 0, iters = 10, seed = 1;
	size_t p = 0, i;
	int c;

	trc_std_options(argc, argv, usage);
	nranks = 4;
	while ((c = getopt(argc, argv, "b:c:e:i:n:p:s:")) != -1) {
		switch (c) {
		case 'b':
			nbytes = estrtonum(optarg, 0, 1LL << 40, "byte count");
			break;
		case 'c':
			compute_ns = (int64_t)(estrtod(optarg, "compute time") * 1e9);
			if (compute_ns < 1 || compute_ns > 1000000000000LL)
				die("invalid compute time '%s'", optarg);
			break;
		case 'e':
			events = estrtonum(optarg, 1, 1LL << 40, "event count");
			break;
		case 'i':
			iters = estrtonum(optarg, 1, INT32_MAX, "iteration count");
			break;
		case 'n':
			nranks = (int32_t)estrtonum(optarg, 1, 1 << 24, "rank count");
			break;
		case 'p':
			for (p = 0; p < sizeof(patterns) / sizeof(patterns[0]); p++)
				if (strcmp(optarg, patterns[p].name) == 0)
					break;
			if (p == sizeof(patterns) / sizeof(patterns[0]))
				die("unknown pattern '%s'", optarg);
			break;
		case 's':
			seed = estrtonum(optarg, 0, INT64_MAX, "seed");
			break;
		default:
			usage_error(usage_line);
		}
	}
	if (optind != argc)
		usage_error(usage_line);
	if (events > 0) {
		iters = events / ((long long)patterns[p].events * nranks) + 1;
		if (iters > INT32_MAX)
			die("too many events");
	}

	rng_state = (uint64_t)seed;
	clk = ecalloc((size_t)nranks, sizeof(*clk));
	arrival = ecalloc(4 * (size_t)nranks, sizeof(*arrival));
	if ((w = trc_wopen(STDOUT_FILENO)) == NULL)
		die("out of memory");
	memset(&h, 0, sizeof(h));
	h.version = 1;
	h.ranks = nranks;
	h.order = TRC_ORDER_TIME;
	h.extra.s = comment;
	h.extra.len = (size_t)snprintf(comment, sizeof(comment),
	    "# trc-gen -p %s -n %ld -i %lld -b %lld -c %.9g -s %lld\n",
	    patterns[p].name, (long)nranks, iters, (long long)nbytes,
	    compute_ns / 1e9, seed);
	if (trc_write_header(w, &h) < 0)
		die("<stdout>: %s", trc_werror(w));
	for (i = 0; i < (size_t)nranks; i++)
		clk[i] = 0;
	patterns[p].gen((int32_t)iters);
	flush_until(INT64_MAX);
	if (trc_wflush(w) < 0)
		die("<stdout>: %s", trc_werror(w));
	trc_wfree(w);
	free(heap);
	free(clk);
	free(arrival);
	return 0;
}
