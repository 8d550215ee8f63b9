/*
 * The run-time part of every program trc-bench writes, copied into it
 * between the generated constants (BENCH_*) and the generated tables
 * and rank programs.  Plain C11 and MPI: the generated file must
 * compile alone, without warnings, with any MPI library.
 *
 * Requests are named by the trace's request numbers (per rank, 1, 2,
 * ...), held in a ring of BENCH_RQ slots, enough for the requests the
 * trace has in flight at once.  Peers and roots are world ranks, as
 * in the trace, translated to the communicator's ranks at the call.
 * Calls the trace does not show (counts of the v-collectives, the
 * making of communicators that must not take an id) go through the
 * profiling interface, PMPI_*, so that a tracer does not see them.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L	/* clock_gettime() */
#endif
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum bench_how {
	BENCH_TRACED,		/* MPI_Comm_create_group: takes an id */
	BENCH_UNSEEN,		/* PMPI_Comm_create_group: hashed at use */
	BENCH_GRAPH,		/* a distributed graph of every member */
	BENCH_SKIP		/* made and freed: only moves the ids on */
};

struct bench_comm {
	int	 id;		/* the trace's comm= */
	int	 how;
	int	 n;		/* members */
	int	 first;		/* in bench_members, ascending world ranks */
};

/* Computation times of a template on a rank, in nanoseconds: the
 * first occurrence (k = 0), then either first + k * step (arith) or
 * step + k * slope. */
struct bench_dt {
	long long first, step;
	int	 arith;
	double	 slope;
};

enum bench_coll {
	B_BARRIER, B_BCAST, B_REDUCE, B_ALLREDUCE, B_GATHER, B_GATHERV,
	B_SCATTER, B_SCATTERV, B_ALLGATHER, B_ALLGATHERV, B_ALLTOALL,
	B_ALLTOALLV, B_ALLTOALLW, B_REDUCE_SCATTER, B_REDUCE_SCATTER_BLOCK,
	B_SCAN, B_EXSCAN, B_NEIGHBOR_ALLGATHER, B_NEIGHBOR_ALLGATHERV,
	B_NEIGHBOR_ALLTOALL, B_NEIGHBOR_ALLTOALLV, B_NEIGHBOR_ALLTOALLW
};

enum bench_wait {
	B_WAIT, B_WAITALL, B_WAITANY, B_WAITSOME,
	B_TEST, B_TESTALL, B_TESTANY, B_TESTSOME
};

extern const struct bench_comm bench_comms[];
extern const int bench_members[];
extern const int bench_group[BENCH_RANKS], bench_index[BENCH_RANKS];
extern void (*const bench_program[])(int);
extern const long long bench_slice[BENCH_RANKS];

static int me;				/* world rank */
static char *sbuf, *rbuf;		/* every message's contents */
static MPI_Comm comm[BENCH_NCOMM + 1];	/* 0 the world, then bench_comms */
static int *cranks[BENCH_NCOMM + 1];	/* world rank -> rank in comm k */
static int *wranks[BENCH_NCOMM + 1];	/* rank in comm k -> world rank */
static int csize[BENCH_NCOMM + 1];

struct bench_v;

static MPI_Request rq[BENCH_RQ];
static int rqcomm[BENCH_RQ];		/* the comm of a slot's receive */
static int rqsrc[BENCH_RQ];		/* the world source it took */
static struct bench_v *rqv[BENCH_RQ];	/* arrays a collective holds */
static long R;				/* the rank's highest request */
static int bsrc = -1, wsrc = -1;	/* a blocking receive's source;
					 * the last wildcard's */
static MPI_Message mq[64];		/* probed messages, oldest first */
static int mqhead, mqtail;

/* The pieces of an MPI_Sendrecv, as the trace gives them one by one. */
static struct {
	int	 have;
	long	 bytes;
	int	 peer, tag, k;
	long	 id;
} srs, srr;

/*
 * The clock computation is spent on: the wall, or (BENCH_CPU, from a
 * trace with cpu=) the thread's CPU time, so that a rank that shares
 * its core computes as long as the traced one did on it.
 */
static double
bench_clock(void)
{
#if BENCH_CPU
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
		return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#endif
	return MPI_Wtime();
}

static double owed;	/* computation asked for, not spent yet, s */
static double clock_cost;	/* one reading of bench_clock(), s */

static double
dt_seconds(const struct bench_dt *d, long k)
{
	double ns;

	ns = k == 0 ? (double)d->first : d->arith ?
	    (double)d->first + (double)k * (double)d->step :
	    (double)d->step + (double)k * d->slope;
	return ns > 0 ? ns * 1e-9 : 0;
}

/* What one reading of the clock costs: the thread's CPU clock is a
 * system call of a microsecond or more on some machines, as long as a
 * short computation.  Measured before MPI_Init() on that clock, out of
 * the traced run; MPI_Wtime() takes nanoseconds. */
static void
calibrate(void)
{
	double t0, t = 0;
	int i;

	t0 = bench_clock();
	for (i = 0; i < 1000; i++)
		t = bench_clock();
	clock_cost = (t - t0) / 1000;
}

/*
 * Busy-wait (a sleep would give the core away) until s more seconds
 * are spent.  What a wait costs beyond its loop (its readings of the
 * clock, the overshoot of the last) is counted, and the excess taken
 * off the next computation: the rank's computations add up to the
 * trace's, not to the trace's and a few microseconds each.
 */
static void
spend(double s)
{
	double t0, t;

	owed += s;
	if (owed <= clock_cost)
		return;
	t0 = t = bench_clock();
	while (t - t0 + clock_cost < owed)
		t = bench_clock();
	owed -= t - t0 + clock_cost;
}

/* A loop's later computations that trc-bench found to be calls back to
 * back spend nothing: at the cost of this test, not of the arithmetic
 * (1 ns of t/mpi/self's 105 a call). */
void
bench_compute(const struct bench_dt *d, long k)
{
	if (k > 0 && !d->arith && d->step == 0 && d->slope == 0)
		return;
	spend(dt_seconds(d, k));
}

/*
 * The computation before a test or probe that polls, dt, of which w
 * (its polls in the trace at the rank's computation per poll,
 * bench_slice) was done while it polled: the rest is spent before the
 * first poll, and after each unsuccessful poll a slice of bench_slice,
 * for as long as the call polls: the program computed while it
 * waited, as long as it waited, neither stopping when the trace's
 * amount is spent nor going on after the wait.
 */
void
bench_compute_polling(const struct bench_dt *d, long k, long long w)
{
	double dt = dt_seconds(d, k), ws = w > 0 ? (double)w * 1e-9 : 0;

	spend(ws < dt ? dt - ws : 0);
}

static void
poll_slice(void)
{
	if (bench_slice[me] > 0)
		spend((double)bench_slice[me] * 1e-9);
}

/* A world rank (maybe out of 0..ranks-1, relative) in comm k. */
int
bench_peer(int k, long w)
{
	w = ((w % BENCH_RANKS) + BENCH_RANKS) % BENCH_RANKS;
	return k == 0 ? (int)w : cranks[k][w];
}

static int
world_of(int k, int r)
{
	return k == 0 || r < 0 ? r : wranks[k][r];
}

MPI_Request *
bench_req(long id)
{
	MPI_Request *q = &rq[id & (BENCH_RQ - 1)];

	/* A request the trace never completes (a wait for any chose
	 * another, a format without request numbers on its waits): let
	 * go, unseen, before its slot is taken. */
	if (*q != MPI_REQUEST_NULL)
		MPI_Request_free(q);
	rqcomm[id & (BENCH_RQ - 1)] = 0;
	return q;
}

void
bench_irecv(long bytes, int peer, int tag, int k, long id)
{
	MPI_Irecv(rbuf, (int)bytes, MPI_BYTE, peer, tag, comm[k],
	    bench_req(id));
	rqcomm[id & (BENCH_RQ - 1)] = k;
}

void
bench_send_init(long bytes, int peer, int tag, int k, long id)
{
	MPI_Send_init(sbuf, (int)bytes, MPI_BYTE, peer, tag, comm[k],
	    bench_req(id));
	MPI_Start(&rq[id & (BENCH_RQ - 1)]);
}

void
bench_recv_init(long bytes, int peer, int tag, int k, long id)
{
	MPI_Recv_init(rbuf, (int)bytes, MPI_BYTE, peer, tag, comm[k],
	    bench_req(id));
	rqcomm[id & (BENCH_RQ - 1)] = k;
	MPI_Start(&rq[id & (BENCH_RQ - 1)]);
}

void
bench_recv(long bytes, int peer, int tag, int k)
{
	MPI_Status st;

	MPI_Recv(rbuf, (int)bytes, MPI_BYTE, peer, tag, comm[k], &st);
	bsrc = world_of(k, st.MPI_SOURCE);
}

/* The source of a completed receive: the blocking one's (id 0) or a
 * request's, for the replies to whoever a wildcard heard from. */
void
bench_took(long id)
{
	wsrc = id == 0 ? bsrc : rqsrc[id & (BENCH_RQ - 1)];
}

int
bench_wsrc(int k)
{
	return wsrc < 0 ? MPI_PROC_NULL : bench_peer(k, wsrc);
}

static void
completed(int i, long id, const MPI_Status *st, MPI_Request *a)
{
	int s = id & (BENCH_RQ - 1);

	rqsrc[s] = world_of(rqcomm[s], st->MPI_SOURCE);
	free(rqv[s]);
	rqv[s] = NULL;
	/* A persistent request stays allocated, inactive. */
	if (a[i] != MPI_REQUEST_NULL)
		MPI_Request_free(&a[i]);
	rq[s] = a[i];
}

void
bench_wait(int how, int n, const long *id)
{
	MPI_Request a[BENCH_MAXW + 1];
	MPI_Status st[BENCH_MAXW + 1];
	int idx[BENCH_MAXW + 1], done[BENCH_MAXW + 1], i, j, m, flag;

	for (i = 0; i < n; i++) {
		a[i] = rq[id[i] & (BENCH_RQ - 1)];
		done[i] = 0;
		st[i].MPI_SOURCE = MPI_ANY_SOURCE;
	}
	if (n == 0) {
		/* A wait on requests a tracer does not know (a communicator
		 * being duplicated, say): one of its own, unseen. */
		PMPI_Ibarrier(MPI_COMM_SELF, &a[0]);
		if (how == B_WAIT || how == B_TEST)
			MPI_Wait(&a[0], MPI_STATUS_IGNORE);
		else
			MPI_Waitall(1, a, MPI_STATUSES_IGNORE);
		return;
	}
	switch (how) {
	case B_WAIT:
	case B_WAITALL:
		if (how == B_WAIT && n == 1)
			MPI_Wait(&a[0], &st[0]);
		else
			MPI_Waitall(n, a, st);
		for (i = 0; i < n; i++)
			done[i] = 1;
		break;
	case B_TEST:
	case B_TESTALL:
		for (flag = 0;; poll_slice()) {
			if (how == B_TEST && n == 1)
				MPI_Test(&a[0], &flag, &st[0]);
			else
				MPI_Testall(n, a, &flag, st);
			if (flag)
				break;
		}
		for (i = 0; i < n; i++)
			done[i] = 1;
		break;
	case B_WAITANY:
	case B_TESTANY:
		flag = 0;
		i = MPI_UNDEFINED;
		if (how == B_WAITANY)
			MPI_Waitany(n, a, &i, &st[n]);
		else
			for (;; poll_slice()) {
				MPI_Testany(n, a, &i, &flag, &st[n]);
				if (flag)
					break;
			}
		if (i != MPI_UNDEFINED) {
			done[i] = 1;
			st[i] = st[n];
		}
		break;
	default:
		for (m = 0; m == 0; ) {
			if (how == B_WAITSOME)
				MPI_Waitsome(n, a, &m, idx, st + n);
			else
				MPI_Testsome(n, a, &m, idx, st + n);
			if (m == 0)
				poll_slice();
		}
		for (j = 0; j < m && m != MPI_UNDEFINED; j++) {
			done[idx[j]] = 1;
			st[idx[j]] = st[n + j];
		}
		break;
	}
	for (i = 0; i < n; i++)
		if (done[i])
			completed(i, id[i], &st[i], a);
		else
			rq[id[i] & (BENCH_RQ - 1)] = a[i];
}

void
bench_sr_send(long bytes, int peer, int tag, int k)
{
	srs.have = 1;
	srs.bytes = bytes;
	srs.peer = peer;
	srs.tag = tag;
	srs.k = k;
}

void
bench_sr_recv(long bytes, int peer, int tag, int k, long id)
{
	srr.have = 1;
	srr.bytes = bytes;
	srr.peer = peer;
	srr.tag = tag;
	srr.k = k;
	srr.id = id;
}

/* The MPI_Sendrecv whose parts came before; a part the trace does not
 * have was on MPI_PROC_NULL. */
void
bench_sendrecv(void)
{
	MPI_Status st;
	int k = srs.have ? srs.k : srr.k;

	MPI_Sendrecv(sbuf, srs.have ? (int)srs.bytes : 0, MPI_BYTE,
	    srs.have ? srs.peer : MPI_PROC_NULL, srs.have ? srs.tag : 0,
	    rbuf, srr.have ? (int)srr.bytes : 0, MPI_BYTE,
	    srr.have ? srr.peer : MPI_PROC_NULL, srr.have ? srr.tag : 0,
	    comm[k], &st);
	if (srr.have)
		rqsrc[srr.id & (BENCH_RQ - 1)] = world_of(k, st.MPI_SOURCE);
	srs.have = srr.have = 0;
}

void
bench_probe(int how, int peer, int tag, int k)
{
	MPI_Status st;
	int flag = 0;

	switch (how) {
	case 0:
		MPI_Probe(peer, tag, comm[k], &st);
		break;
	case 1:
		for (;; poll_slice()) {
			MPI_Iprobe(peer, tag, comm[k], &flag, &st);
			if (flag)
				break;
		}
		break;
	case 2:
		MPI_Mprobe(peer, tag, comm[k], &mq[mqtail++ % 64], &st);
		break;
	default:
		for (;; poll_slice()) {
			MPI_Improbe(peer, tag, comm[k], &flag,
			    &mq[mqtail % 64], &st);
			if (flag)
				break;
		}
		mqtail++;
	}
}

/* The receive of the oldest message probed: blocking when id is 0. */
void
bench_mrecv(long bytes, long id)
{
	MPI_Message *m = &mq[mqhead++ % 64];
	MPI_Status st;

	if (id == 0) {
		MPI_Mrecv(rbuf, (int)bytes, MPI_BYTE, m, &st);
		bsrc = st.MPI_SOURCE;
	} else
		MPI_Imrecv(rbuf, (int)bytes, MPI_BYTE, m, bench_req(id));
}

/*
 * The arrays a collective reads, held until it completes: the counts
 * and displacements of every member's block (gathered unseen: the
 * trace gives each rank's own size only), this rank's, and types.
 */
struct bench_v {
	int		*cnt, *dsp, *sc, *sd;
	MPI_Aint	*wsd, *wrd;
	MPI_Datatype	*ty;
};

static struct bench_v *
vargs(int k, long bytes, int gather, int neighbours)
{
	struct bench_v *v;
	size_t n = (size_t)csize[k] + 1;
	int i, j, self, b = (int)bytes, m = csize[k];

	if ((v = malloc(sizeof(*v) + n * (4 * sizeof(int) +
	    2 * sizeof(MPI_Aint) + sizeof(MPI_Datatype)))) == NULL) {
		fprintf(stderr, "bench: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
		return NULL;
	}
	v->wsd = (MPI_Aint *)(v + 1);
	v->wrd = v->wsd + n;
	v->ty = (MPI_Datatype *)(v->wrd + n);
	v->cnt = (int *)(v->ty + n);
	v->dsp = v->cnt + n;
	v->sc = v->dsp + n;
	v->sd = v->sc + n;
	for (i = 0; i < m; i++) {
		v->cnt[i] = v->sc[i] = b;
		v->ty[i] = MPI_BYTE;
	}
	if (gather)
		PMPI_Allgather(&b, 1, MPI_INT, v->cnt, 1, MPI_INT, comm[k]);
	if (neighbours) {
		/* Every other member, in order: the graph made for them. */
		MPI_Comm_rank(comm[k], &self);
		for (i = j = 0; i < m; i++)
			if (i != self)
				v->cnt[j++] = v->cnt[i];
		m--;
	}
	for (i = 0; i < m; i++) {
		v->dsp[i] = i == 0 ? 0 : v->dsp[i - 1] + v->cnt[i - 1];
		v->sd[i] = i * b;
		v->wsd[i] = v->sd[i];
		v->wrd[i] = v->dsp[i];
	}
	return v;
}

/*
 * What a reduction of b bytes reduces: the widest integer type whose
 * size divides b (programs reduce doubles and ints), so that its count,
 * by which an MPI library chooses its algorithm, is the program's.
 * Open MPI 4.1 took 1.8 times as long for a loop of 4-byte allreduces
 * of 4 MPI_BYTEs as of one MPI_INT (2 ranks of 4 in a communicator, as
 * in t/mpi/subcomm.c).  MPI_BOR is defined on all of them.  The
 * generator chooses the same for the blocking ones it writes as MPI
 * calls (lib/bench.c's coll_direct()): the two must stay in step.
 */
static MPI_Datatype
red_type(int b, int *count)
{
	if (b % 8 == 0) {
		*count = b / 8;
		return MPI_INT64_T;
	}
	if (b % 4 == 0) {
		*count = b / 4;
		return MPI_INT32_T;
	}
	if (b % 2 == 0) {
		*count = b / 2;
		return MPI_INT16_T;
	}
	*count = b;
	return MPI_BYTE;
}

/*
 * A collective of block size bytes, root a world rank: blocking when
 * id is 0, else nonblocking into request id.  Reductions are MPI_BOR
 * over integers (red_type); the rest moves MPI_BYTEs.
 */
void
bench_coll(int op, long bytes, int root, int k, long id)
{
	MPI_Request *q;
	MPI_Comm c = comm[k];
	MPI_Datatype t;
	struct bench_v *v;
	int b = (int)bytes, r = 0, n;
	void *s = sbuf, *d = rbuf;

	/* The commonest, first: a loop of barriers and nothing else
	 * should cost what the program's loop did. */
	if (op == B_BARRIER && id == 0) {
		MPI_Barrier(c);
		return;
	}
	q = id ? bench_req(id) : NULL;
	if (root >= 0)
		r = bench_peer(k, root);
	/* Arrays only for the collectives that read them: a malloc and a
	 * free around every barrier is time the program did not spend. */
	if (op == B_GATHERV || op == B_SCATTERV || op == B_ALLGATHERV ||
	    op == B_ALLTOALLV || op == B_ALLTOALLW || op == B_REDUCE_SCATTER ||
	    op == B_NEIGHBOR_ALLGATHERV || op == B_NEIGHBOR_ALLTOALLV ||
	    op == B_NEIGHBOR_ALLTOALLW)
		v = vargs(k, bytes, 1, op >= B_NEIGHBOR_ALLGATHER);
	else
		v = NULL;
	switch (op) {
	case B_BARRIER:
		if (q) MPI_Ibarrier(c, q);
		else MPI_Barrier(c);
		break;
	case B_BCAST:
		if (q) MPI_Ibcast(s, b, MPI_BYTE, r, c, q);
		else MPI_Bcast(s, b, MPI_BYTE, r, c);
		break;
	case B_REDUCE:
		t = red_type(b, &n);
		if (q) MPI_Ireduce(s, d, n, t, MPI_BOR, r, c, q);
		else MPI_Reduce(s, d, n, t, MPI_BOR, r, c);
		break;
	case B_ALLREDUCE:
		t = red_type(b, &n);
		if (q) MPI_Iallreduce(s, d, n, t, MPI_BOR, c, q);
		else MPI_Allreduce(s, d, n, t, MPI_BOR, c);
		break;
	case B_GATHER:
		if (q) MPI_Igather(s, b, MPI_BYTE, d, b, MPI_BYTE, r, c, q);
		else MPI_Gather(s, b, MPI_BYTE, d, b, MPI_BYTE, r, c);
		break;
	case B_GATHERV:
		if (q) MPI_Igatherv(s, b, MPI_BYTE, d, v->cnt, v->dsp,
		    MPI_BYTE, r, c, q);
		else MPI_Gatherv(s, b, MPI_BYTE, d, v->cnt, v->dsp, MPI_BYTE,
		    r, c);
		break;
	case B_SCATTER:
		if (q) MPI_Iscatter(s, b, MPI_BYTE, d, b, MPI_BYTE, r, c, q);
		else MPI_Scatter(s, b, MPI_BYTE, d, b, MPI_BYTE, r, c);
		break;
	case B_SCATTERV:
		if (q) MPI_Iscatterv(s, v->cnt, v->dsp, MPI_BYTE, d, b,
		    MPI_BYTE, r, c, q);
		else MPI_Scatterv(s, v->cnt, v->dsp, MPI_BYTE, d, b, MPI_BYTE,
		    r, c);
		break;
	case B_ALLGATHER:
		if (q) MPI_Iallgather(s, b, MPI_BYTE, d, b, MPI_BYTE, c, q);
		else MPI_Allgather(s, b, MPI_BYTE, d, b, MPI_BYTE, c);
		break;
	case B_ALLGATHERV:
		if (q) MPI_Iallgatherv(s, b, MPI_BYTE, d, v->cnt, v->dsp,
		    MPI_BYTE, c, q);
		else MPI_Allgatherv(s, b, MPI_BYTE, d, v->cnt, v->dsp,
		    MPI_BYTE, c);
		break;
	case B_ALLTOALL:
		if (q) MPI_Ialltoall(s, b, MPI_BYTE, d, b, MPI_BYTE, c, q);
		else MPI_Alltoall(s, b, MPI_BYTE, d, b, MPI_BYTE, c);
		break;
	case B_ALLTOALLV:
		if (q) MPI_Ialltoallv(s, v->sc, v->sd, MPI_BYTE, d, v->cnt,
		    v->dsp, MPI_BYTE, c, q);
		else MPI_Alltoallv(s, v->sc, v->sd, MPI_BYTE, d, v->cnt,
		    v->dsp, MPI_BYTE, c);
		break;
	case B_ALLTOALLW:
		if (q) MPI_Ialltoallw(s, v->sc, v->sd, v->ty, d, v->cnt,
		    v->dsp, v->ty, c, q);
		else MPI_Alltoallw(s, v->sc, v->sd, v->ty, d, v->cnt, v->dsp,
		    v->ty, c);
		break;
	case B_REDUCE_SCATTER:
		if (q) MPI_Ireduce_scatter(s, d, v->cnt, MPI_BYTE, MPI_BOR, c,
		    q);
		else MPI_Reduce_scatter(s, d, v->cnt, MPI_BYTE, MPI_BOR, c);
		break;
	case B_REDUCE_SCATTER_BLOCK:
		t = red_type(b, &n);
		if (q) MPI_Ireduce_scatter_block(s, d, n, t, MPI_BOR, c, q);
		else MPI_Reduce_scatter_block(s, d, n, t, MPI_BOR, c);
		break;
	case B_SCAN:
		t = red_type(b, &n);
		if (q) MPI_Iscan(s, d, n, t, MPI_BOR, c, q);
		else MPI_Scan(s, d, n, t, MPI_BOR, c);
		break;
	case B_EXSCAN:
		t = red_type(b, &n);
		if (q) MPI_Iexscan(s, d, n, t, MPI_BOR, c, q);
		else MPI_Exscan(s, d, n, t, MPI_BOR, c);
		break;
	case B_NEIGHBOR_ALLGATHER:
		if (q) MPI_Ineighbor_allgather(s, b, MPI_BYTE, d, b, MPI_BYTE,
		    c, q);
		else MPI_Neighbor_allgather(s, b, MPI_BYTE, d, b, MPI_BYTE, c);
		break;
	case B_NEIGHBOR_ALLGATHERV:
		if (q) MPI_Ineighbor_allgatherv(s, b, MPI_BYTE, d, v->cnt,
		    v->dsp, MPI_BYTE, c, q);
		else MPI_Neighbor_allgatherv(s, b, MPI_BYTE, d, v->cnt, v->dsp,
		    MPI_BYTE, c);
		break;
	case B_NEIGHBOR_ALLTOALL:
		if (q) MPI_Ineighbor_alltoall(s, b, MPI_BYTE, d, b, MPI_BYTE,
		    c, q);
		else MPI_Neighbor_alltoall(s, b, MPI_BYTE, d, b, MPI_BYTE, c);
		break;
	case B_NEIGHBOR_ALLTOALLV:
		if (q) MPI_Ineighbor_alltoallv(s, v->sc, v->sd, MPI_BYTE, d,
		    v->cnt, v->dsp, MPI_BYTE, c, q);
		else MPI_Neighbor_alltoallv(s, v->sc, v->sd, MPI_BYTE, d,
		    v->cnt, v->dsp, MPI_BYTE, c);
		break;
	default:
		if (q) MPI_Ineighbor_alltoallw(s, v->sc, v->wsd, v->ty, d,
		    v->cnt, v->wrd, v->ty, c, q);
		else MPI_Neighbor_alltoallw(s, v->sc, v->wsd, v->ty, d, v->cnt,
		    v->wrd, v->ty, c);
		break;
	}
	if (q != NULL)
		rqv[id & (BENCH_RQ - 1)] = v;
	else if (v != NULL)
		free(v);
}

/*
 * The communicators, made at the start in the order of their ids: a
 * tracer numbers a communicator (B - 1) * ranks + L + 1 for its least
 * member L and B that member's count of communicators made so far, so
 * making them in this order (with one of L alone, made and freed, for
 * each B the trace does not use) gives every one the id it had.
 */
static void
make_comms(void)
{
	const struct bench_comm *c;
	MPI_Group world, g;
	MPI_Comm tmp;
	int k, i, j, mine, nb, *adj, *one;

	MPI_Comm_group(MPI_COMM_WORLD, &world);
	comm[0] = MPI_COMM_WORLD;
	csize[0] = BENCH_RANKS;
	for (k = 1; k <= BENCH_NCOMM; k++) {
		c = &bench_comms[k - 1];
		comm[k] = MPI_COMM_NULL;
		for (mine = -1, i = 0; i < c->n; i++)
			if (bench_members[c->first + i] == me)
				mine = i;
		if (mine < 0)
			continue;
		MPI_Group_incl(world, c->n, &bench_members[c->first], &g);
		if (c->how == BENCH_UNSEEN || c->how == BENCH_GRAPH)
			PMPI_Comm_create_group(MPI_COMM_WORLD, g, k, &comm[k]);
		else
			MPI_Comm_create_group(MPI_COMM_WORLD, g, k, &comm[k]);
		MPI_Group_free(&g);
		if (c->how == BENCH_SKIP) {
			MPI_Comm_free(&comm[k]);
			continue;
		}
		if (c->how == BENCH_GRAPH) {
			/* Neighbour collectives: every other member. */
			nb = c->n - 1;
			adj = malloc(2 * (size_t)c->n * sizeof(*adj));
			if (adj == NULL) {
				fprintf(stderr, "bench: out of memory\n");
				MPI_Abort(MPI_COMM_WORLD, 2);
				return;
			}
			one = adj + c->n;
			for (i = j = 0; i < c->n; i++) {
				one[i] = 1;
				if (i != mine)
					adj[j++] = i;
			}
			tmp = comm[k];
			MPI_Dist_graph_create_adjacent(tmp, nb, adj, one, nb, adj,
			    one, MPI_INFO_NULL, 0, &comm[k]);
			PMPI_Comm_free(&tmp);
			free(adj);
		}
		csize[k] = c->n;
		cranks[k] = malloc(BENCH_RANKS * sizeof(int));
		wranks[k] = malloc((size_t)c->n * sizeof(int));
		if (cranks[k] == NULL || wranks[k] == NULL) {
			fprintf(stderr, "bench: out of memory\n");
			MPI_Abort(MPI_COMM_WORLD, 2);
			return;
		}
		for (i = 0; i < BENCH_RANKS; i++)
			cranks[k][i] = MPI_PROC_NULL;
		for (i = 0; i < c->n; i++) {
			cranks[k][bench_members[c->first + i]] = i;
			wranks[k][i] = bench_members[c->first + i];
		}
	}
	MPI_Group_free(&world);
}

int
main(int argc, char *argv[])
{
	int n, k;
	long i;

	if (BENCH_CPU)
		calibrate();
	MPI_Init(&argc, &argv);
	if (!BENCH_CPU)
		calibrate();
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	if (n != BENCH_RANKS) {
		if (me == 0)
			fprintf(stderr, "%s: run on %d ranks, not %d\n", argv[0],
			    BENCH_RANKS, n);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	if ((sbuf = calloc(BENCH_BUF, 1)) == NULL ||
	    (rbuf = calloc(BENCH_BUF, 1)) == NULL) {
		fprintf(stderr, "%s: out of memory\n", argv[0]);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	for (i = 0; i < BENCH_RQ; i++)
		rq[i] = MPI_REQUEST_NULL;
	R = 0;
	make_comms();
	if (BENCH_BSEND > 0)
		MPI_Buffer_attach(malloc(BENCH_BSEND), BENCH_BSEND);
	if (bench_group[me] >= 0)
		bench_program[bench_group[me]](bench_index[me]);
	/* What a wait for any left (it chose otherwise than the trace):
	 * every message was sent, so each completes; unseen. */
	for (i = 0; i < BENCH_RQ; i++)
		if (rq[i] != MPI_REQUEST_NULL)
			MPI_Request_free(&rq[i]);
	for (k = 1; k <= BENCH_NCOMM; k++)
		if (comm[k] != MPI_COMM_NULL)
			MPI_Comm_free(&comm[k]);
	MPI_Finalize();
	return 0;
}
