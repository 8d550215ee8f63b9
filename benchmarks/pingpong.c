/*
 * trc-pingpong - measure the communication costs trc-fit fits.
 *
 * For each message size, each operation runs a warm-up repetition
 * and then the asked number of timed ones, each started together on
 * every rank by a barrier.  A blocking MPI_Send is timed on rank 0 and
 * its MPI_Recv on rank 1, so that a receive's time holds the transfer,
 * as trc-scale's rule t'(RE) = max(t'(RB) + g(b), t'(SE)) assumes of a
 * receive posted when the send starts.  An MPI_Isend is timed alone,
 * its MPI_Wait after the clock stops: the interval the tracer writes
 * as SB ... SE req=, which trc-scale scales by the isend fit.  A
 * send-late is a blocking MPI_Send whose receiver computes for a known
 * time before it posts the receive: it shows whether a send of that
 * size ends on its own or waits for the receiver, which the send and
 * recv timings, the receiver always waiting, cannot; send-busy is the
 * same with the receiver inside MPI all that time, polling: whether a
 * send that waits is taken by the receiver's progress in any call, or
 * only by its receive.  exchange is the halo swap: ranks 0 and 1 each
 * post an MPI_Irecv of the other's message, then MPI_Send their own,
 * then MPI_Wait; rank 0's MPI_Send is timed, which over a transport that
 * hands messages over (rendezvous) takes rank 1's message too, in its
 * progress, and shares the copies with it; exchange-wait times the
 * same swap from rank 0's MPI_Send to the end of its MPI_Wait, when the
 * other's message is in.  poll is the
 * cost of one unsuccessful MPI_Test of a posted receive, iprobe of one
 * unsuccessful MPI_Iprobe, each the mean of POLLS calls in a loop on
 * rank 1 while no message can come.  send-cold, isend-cold and
 * recv-late-cold are send, isend and recv-late timed on a rank that
 * first swept its caches (--sweep bytes, 4 MiB) and then idled
 * (--idle seconds, none), as a program's computation does between its
 * calls: the transport's code and data (the kernel's, for TCP) come
 * from memory again.  A collective's time is the
 * largest over the ranks, the cost trc-scale adds to the latest begin.
 * barrier-cold ... alltoall-cold: rank 0 sweeps its caches while the
 * others wait in the collective, and its time is rank 0's: the cost
 * after the last participant came from a computation.
 * Results stay in memory until the end (rank 0 prints them into a
 * memory stream) so that printing, and a pipe to mpirun that is slow
 * to drain, never falls inside a measurement or its CPU time.
 *
 * Output (one line per repetition): OPERATION BYTES SECONDS, after "#"
 * lines naming the MPI library, the transport and the ranks, and
 * followed by the #load and #cpu lines of trc(5): the host's load and
 * each rank's CPU time against the wall time of the measurements, by
 * which trc-fit tells measurements disturbed by another job (every
 * rank here is busy all the time: polling, spinning or sweeping).
 */
#include <errno.h>
#include <getopt.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "trc_hostcond.h"

enum op {
	OP_SEND, OP_RECV, OP_SENDLATE, OP_RECVLATE, OP_ISEND, OP_BARRIER, OP_BCAST,
	OP_REDUCE, OP_ALLREDUCE, OP_GATHER, OP_SCATTER, OP_ALLGATHER, OP_ALLTOALL,
	OP_POLL, OP_IPROBE, OP_SENDCOLD, OP_ISENDCOLD, OP_RECVLATECOLD,
	OP_SENDBUSY, OP_EXCHANGE, OP_EXCHANGEWAIT,
	/* The collectives again, cold, in the same order. */
	OP_BARRIERCOLD, OP_BCASTCOLD, OP_REDUCECOLD, OP_ALLREDUCECOLD,
	OP_GATHERCOLD, OP_SCATTERCOLD, OP_ALLGATHERCOLD, OP_ALLTOALLCOLD, NOPS
};

static const char *const opname[NOPS] = {
	"send", "recv", "send-late", "recv-late", "isend", "barrier", "bcast",
	"reduce", "allreduce", "gather", "scatter", "allgather", "alltoall",
	"poll", "iprobe", "send-cold", "isend-cold", "recv-late-cold",
	"send-busy", "exchange", "exchange-wait", "barrier-cold", "bcast-cold", "reduce-cold", "allreduce-cold",
	"gather-cold", "scatter-cold", "allgather-cold", "alltoall-cold"
};

/* A cold collective's warm one. */
#define WARM(op)	((enum op)((op) - OP_BARRIERCOLD + OP_BARRIER))

#define PROG	"trc-pingpong"

/* Rank 0's measurements, written out at the end. */
static FILE *out;

static const char usage_line[] =
    "trc-pingpong [-m maxbytes] [--operations operations] "
    "[--repetitions repetitions] [--per-octave sizes] [--sweep bytes] "
    "[--idle seconds]";

/* Long options without a letter. */
enum { OPT_OPERATIONS = 256, OPT_REPETITIONS, OPT_PEROCTAVE, OPT_SWEEP,
    OPT_IDLE };

#include "mpiprog.h"

/* Parse a comma-separated list of operation names into want[]. */
static void
parse_ops(char *list, int want[NOPS])
{
	char *p, *save;
	int i;

	memset(want, 0, NOPS * sizeof(want[0]));
	for (p = strtok_r(list, ",", &save); p != NULL;
	    p = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < NOPS; i++)
			if (strcmp(p, opname[i]) == 0)
				break;
		if (i == NOPS)
			fail("unknown operation", p);
		want[i] = 1;
	}
}

/*
 * The datatype of a reduction of b bytes, and its count in *count: the
 * widest integer that divides b, as a program's reductions are of
 * typed elements, not of bytes.  Open MPI chooses a reduction's
 * algorithm by its count too: 4 MPI_BYTEs over TCP take the ring's
 * two steps (29 us here), the one MPI_INT32_T of trc-heat's
 * convergence test recursive doubling's one (15 us).  The same rule as
 * the benchmark runtime's red_type() (lib/bench/rt.c).
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

/* Every rank on one host (header): now() is then one clock to them all. */
static int one_host;

/*
 * One run of a collective: this rank's entry and end, by now(), in *in
 * and *end.
 */
static void
collective(enum op op, char *sbuf, char *rbuf, int b, double *in,
    double *end)
{
	int n;
	MPI_Datatype rt = red_type(b, &n);

	*in = now();

	switch (op) {
	case OP_BARRIER:
		MPI_Barrier(MPI_COMM_WORLD);
		break;
	case OP_BCAST:
		MPI_Bcast(sbuf, b, MPI_BYTE, 0, MPI_COMM_WORLD);
		break;
	case OP_REDUCE:
		MPI_Reduce(sbuf, rbuf, n, rt, MPI_BOR, 0, MPI_COMM_WORLD);
		break;
	case OP_ALLREDUCE:
		MPI_Allreduce(sbuf, rbuf, n, rt, MPI_BOR, MPI_COMM_WORLD);
		break;
	case OP_GATHER:
		MPI_Gather(sbuf, b, MPI_BYTE, rbuf, b, MPI_BYTE, 0,
		    MPI_COMM_WORLD);
		break;
	case OP_SCATTER:
		MPI_Scatter(sbuf, b, MPI_BYTE, rbuf, b, MPI_BYTE, 0,
		    MPI_COMM_WORLD);
		break;
	case OP_ALLGATHER:
		MPI_Allgather(sbuf, b, MPI_BYTE, rbuf, b, MPI_BYTE,
		    MPI_COMM_WORLD);
		break;
	case OP_ALLTOALL:
		MPI_Alltoall(sbuf, b, MPI_BYTE, rbuf, b, MPI_BYTE,
		    MPI_COMM_WORLD);
		break;
	default:
		break;
	}
	*end = now();
}

/*
 * The cost of each of reps runs of a collective, into t on rank 0,
 * from the ranks' entries in[] and ends end[] (collective): from the
 * last entry to the last end, what trc-scale's models take a
 * collective to cost (trc_coll_call's d).  The slowest rank's own
 * time, from its entry, would add the skew of the entries: after a
 * barrier over TCP the ranks leave it one message apart, and an
 * allreduce of one int took 14.5 us so against 12-14.6 from the last
 * entry in trc-heat's runs; over shared memory 2.6 us against 0.6-1.8.
 * Across hosts, whose clocks differ, it is that own time, from rank
 * 0's entry when last is set (it entered last, cold), else the
 * slowest rank's.  a and z are scratch, reps each.
 */
static void
coll_cost(const double *in, const double *end, int reps, int last,
    double *a, double *z, double *t)
{
	int i;

	if (one_host) {
		MPI_Reduce(in, a, reps, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
		MPI_Reduce(end, z, reps, MPI_DOUBLE, MPI_MAX, 0,
		    MPI_COMM_WORLD);
		for (i = 0; rank == 0 && i < reps; i++)
			t[i] = z[i] - a[i];
		return;
	}
	for (i = 0; i < reps; i++)
		a[i] = end[i] - in[i];
	if (last)
		memcpy(t, a, (size_t)reps * sizeof(*t));
	else
		MPI_Reduce(a, t, reps, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
}

/* Spin for sec seconds without entering MPI: a rank busy computing. */
static void
spin(double sec)
{
	double t0 = MPI_Wtime();

	while (MPI_Wtime() - t0 < sec)
		;
}

/*
 * go_cold: what a cold operation's rank does before its call, as a
 * program's computation does between its calls: evict its caches
 * (sweepb bytes, by default 4 MiB, twice a large L2, none with
 * --sweep 0) by writing a byte of every line, as a computation over an
 * array does; then spin idle seconds (--idle, default 0), touching no
 * memory, as a computation in registers does.
 */
static long sweepb = 4L << 20;
static double idle;

static void
go_cold(void)
{
	static volatile unsigned char *buf;
	long i;

	if (sweepb > 0 && buf == NULL &&
	    (buf = calloc((size_t)sweepb, 1)) == NULL)
		MPI_Abort(MPI_COMM_WORLD, 2);
	for (i = 0; i < sweepb; i += 64)
		buf[i]++;
	spin(idle);
}

/*
 * fresh: a message written just before it is sent, as a program
 * computes or packs what it sends: over shared memory above the eager
 * limit the receiver's copy then reads lines dirty in the sender's
 * cache, which buffers left untouched between repetitions never show
 * (a swap of 32 KiB, 3.2 us untouched, 4.8 written; LAMMPS's, 4.8).
 */
static void
fresh(char *buf, int b, int i)
{
	memset(buf, i & 0xff, (size_t)b);
}

/*
 * poll, iprobe: rank 1 times POLLS unsuccessful MPI_Test calls on a
 * receive from rank 0 (or MPI_Iprobe calls for it), whose message rank
 * 0 sends only after the barrier that follows; t[i] is the mean.
 */
#define POLLS	1000

static void
poll_cost(enum op op, int reps, double *t, double *tmax)
{
	MPI_Request req;
	double t0;
	int i, k, flag = 0, v = 0, w = 0;

	for (i = -1; i < reps; i++) {
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 1) {
			MPI_Irecv(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &req);
			t0 = MPI_Wtime();
			for (k = 0; k < POLLS; k++)
				if (op == OP_POLL)
					MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
				else
					MPI_Iprobe(0, 3, MPI_COMM_WORLD, &flag,
					    MPI_STATUS_IGNORE);
			if (i >= 0)
				t[i] = (MPI_Wtime() - t0) / POLLS;
			if (flag)
				fail_msg("a poll found a message not sent yet");
			MPI_Barrier(MPI_COMM_WORLD);
			MPI_Wait(&req, MPI_STATUS_IGNORE);
		} else {
			MPI_Barrier(MPI_COMM_WORLD);
			if (rank == 0)
				MPI_Send(&w, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
		}
	}
	if (rank == 1)
		MPI_Send(t, reps, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
	else if (rank == 0) {
		MPI_Recv(tmax, reps, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD,
		    MPI_STATUS_IGNORE);
		for (i = 0; i < reps; i++)
			fprintf(out, "%s 0 %.9f\n", opname[op], tmax[i]);
	}
}

static int
bydouble(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * send-late: a blocking MPI_Send on rank 0 whose receiver, rank 1,
 * computes for LATE seconds after the barrier before it posts the
 * MPI_Recv.  LATE is four times the median send time of this size
 * with the receiver waiting (t[] when send was just measured, else
 * measured here: receiver_delay), and at least MINLATE.  A send that
 * completes on its own (eager) takes about as long as with the
 * receiver waiting; one that waits for the receiver (synchronous,
 * rendezvous, or a transport that hands the message over only inside
 * the receiver's MPI call) takes LATE more.  trc-fit tells the two
 * apart.
 *
 * send-busy: the same, but rank 1 spends LATE inside MPI, polling
 * (MPI_Iprobe for a message never sent), as a rank blocked in another
 * call does.  A send the receiver's progress takes (Open MPI's shared
 * memory below its eager limit: the receiver's progress copies the
 * message out and frees the sender's fragment) ends about as fast as
 * with the receiver waiting; a rendezvous still waits for the receive
 * that matches it.
 */
#define MINLATE	20e-6

static double
receiver_delay(char *sbuf, char *rbuf, int b, int reps, double *t, int have)
{
	double late = 0, *v, t0;
	int i, n = reps < 20 ? reps : 20;

	if (rank == 0) {
		if (!have)
			for (i = -1; i < n; i++) {
				fresh(sbuf, b, i);
				MPI_Barrier(MPI_COMM_WORLD);
				t0 = MPI_Wtime();
				MPI_Send(sbuf, b, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
				if (i >= 0)
					t[i] = MPI_Wtime() - t0;
			}
		else
			n = reps;
		if ((v = malloc((size_t)n * sizeof(*v))) == NULL)
			MPI_Abort(MPI_COMM_WORLD, 2);
		memcpy(v, t, (size_t)n * sizeof(*v));
		qsort(v, (size_t)n, sizeof(*v), bydouble);
		late = 4 * (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
		free(v);
		if (late < MINLATE)
			late = MINLATE;
	} else if (rank == 1 && !have)
		for (i = -1; i < n; i++) {
			MPI_Barrier(MPI_COMM_WORLD);
			MPI_Recv(rbuf, b, MPI_BYTE, 0, 0, MPI_COMM_WORLD,
			    MPI_STATUS_IGNORE);
		}
	else if (!have)
		for (i = -1; i < n; i++)
			MPI_Barrier(MPI_COMM_WORLD);
	MPI_Bcast(&late, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	return late;
}

static void
send_late(enum op op, char *sbuf, char *rbuf, int b, int reps, double late,
    double *t)
{
	double t0;
	int i, flag = 0;

	for (i = -1; i < reps; i++) {
		if (rank == 0)
			fresh(sbuf, b, i);
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0) {
			t0 = MPI_Wtime();
			MPI_Send(sbuf, b, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
			if (i >= 0)
				t[i] = MPI_Wtime() - t0;
		} else if (rank == 1) {
			if (op == OP_SENDLATE)
				spin(late);
			else
				for (t0 = MPI_Wtime(); MPI_Wtime() - t0 < late;)
					MPI_Iprobe(0, 5, MPI_COMM_WORLD, &flag,
					    MPI_STATUS_IGNORE);
			if (flag)
				fail_msg("a poll found a message never sent");
			MPI_Recv(rbuf, b, MPI_BYTE, 0, 0, MPI_COMM_WORLD,
			    MPI_STATUS_IGNORE);
		}
	}
	if (rank == 0) {
		fprintf(out, "# %s %d: receiver %s for %.9f s\n", opname[op], b,
		    op == OP_SENDLATE ? "late" : "polling", late);
		for (i = 0; i < reps; i++)
			fprintf(out, "%s %d %.9f\n", opname[op], b, t[i]);
	}
}

/*
 * recv-late: a blocking MPI_Recv on rank 1 posted LATE seconds after
 * rank 0 began a blocking MPI_Send of the message, so the message is
 * there (eager) or its sender waits in its call (a handover): the cost
 * of taking it, without its transfer, which recv holds.  A program's
 * receives are mostly of this kind, posted after a computation while
 * the message came.  LATE is four times the median of 20 receives
 * posted as the send starts, and at least MINLATE.  The message must
 * come while rank 1 computes, untouched by MPI until the receive: rank
 * 0 sends it LATE / 4 after the barrier (not while rank 1 may still be
 * in the barrier, whose progress would take it early), and waits for
 * rank 1's word that it has it before the next barrier (whose message
 * would otherwise be taken inside the timed receive).  tr holds rank
 * 1's times on rank 0.  recv-late-cold: rank 1 goes cold first (go_cold).
 */
static void
recv_late(char *sbuf, char *rbuf, int b, int reps, double *t, double *tr,
    enum op op)
{
	double late = 0, t0, *v;
	int i, n = reps < 20 ? reps : 20, phase;

	for (phase = 0; phase < 2; phase++) {
		for (i = -1; i < (phase ? reps : n); i++) {
			MPI_Barrier(MPI_COMM_WORLD);
			if (rank == 0) {
				fresh(sbuf, b, i);
				spin(late / 4);
				MPI_Send(sbuf, b, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
				MPI_Recv(NULL, 0, MPI_BYTE, 1, 2,
				    MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			} else if (rank == 1) {
				if (phase == 1 && op == OP_RECVLATECOLD)
					go_cold();
				spin(late);
				t0 = MPI_Wtime();
				MPI_Recv(rbuf, b, MPI_BYTE, 0, 0,
				    MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				if (i >= 0)
					t[i] = MPI_Wtime() - t0;
				MPI_Send(NULL, 0, MPI_BYTE, 0, 2,
				    MPI_COMM_WORLD);
			}
		}
		if (phase == 0 && rank == 1) {
			if ((v = malloc((size_t)n * sizeof(*v))) == NULL)
				MPI_Abort(MPI_COMM_WORLD, 2);
			memcpy(v, t, (size_t)n * sizeof(*v));
			qsort(v, (size_t)n, sizeof(*v), bydouble);
			late = 4 * (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
			free(v);
			if (late < MINLATE)
				late = MINLATE;
		}
		if (phase == 0)
			MPI_Bcast(&late, 1, MPI_DOUBLE, 1, MPI_COMM_WORLD);
	}
	if (rank == 1)
		MPI_Send(t, reps, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
	else if (rank == 0) {
		MPI_Recv(tr, reps, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD,
		    MPI_STATUS_IGNORE);
		fprintf(out, "# %s %d: receiver late by %.9f s\n", opname[op], b,
		    late);
		for (i = 0; i < reps; i++)
			fprintf(out, "%s %d %.9f\n", opname[op], b, tr[i]);
	}
}

/*
 * A collective: reps runs after one unmeasured, each after a barrier,
 * written as its cost (coll_cost).  Its cold form (op an OP_*COLD):
 * after the barrier rank 0 goes cold (go_cold) while every other rank
 * enters the collective and waits in it, so rank 0 enters last.  (The
 * root of the rooted ones is rank 0.)  s: scratch, 4 * reps.
 */
static void
coll_runs(enum op op, char *sbuf, char *rbuf, int b, int reps, double *s,
    double *t)
{
	double *in = s, *end = s + reps, x, y;
	int i, cold = op >= OP_BARRIERCOLD;

	for (i = -1; i < reps; i++) {
		MPI_Barrier(MPI_COMM_WORLD);
		if (cold && rank == 0)
			go_cold();
		collective(cold ? WARM(op) : op, sbuf, rbuf, b,
		    i >= 0 ? &in[i] : &x, i >= 0 ? &end[i] : &y);
	}
	coll_cost(in, end, reps, cold, s + 2 * reps, s + 3 * reps, t);
	for (i = 0; rank == 0 && i < reps; i++)
		fprintf(out, "%s %d %.9f\n", opname[op],
		    op == OP_BARRIER || op == OP_BARRIERCOLD ? 0 : b, t[i]);
}

/*
 * exchange (above): t[] is rank 0's MPI_Send; tw[], with wait, from
 * the same begin to the end of its MPI_Wait, when the other's message
 * is in (exchange-wait).  Each rank writes its message first (fresh).
 */
static void
exchange(char *sbuf, char *rbuf, int b, int reps, int send, int wait,
    double *t, double *tw)
{
	MPI_Request req;
	double t0, t1;
	int i;

	for (i = -1; i < reps; i++) {
		if (rank <= 1)
			fresh(sbuf, b, i);
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank > 1)
			continue;
		MPI_Irecv(rbuf, b, MPI_BYTE, 1 - rank, 6, MPI_COMM_WORLD, &req);
		t0 = MPI_Wtime();
		MPI_Send(sbuf, b, MPI_BYTE, 1 - rank, 6, MPI_COMM_WORLD);
		t1 = MPI_Wtime();
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		if (i >= 0) {
			t[i] = t1 - t0;
			tw[i] = MPI_Wtime() - t0;
		}
	}
	for (i = 0; send && rank == 0 && i < reps; i++)
		fprintf(out, "exchange %d %.9f\n", b, t[i]);
	for (i = 0; wait && rank == 0 && i < reps; i++)
		fprintf(out, "exchange-wait %d %.9f\n", b, tw[i]);
}

/*
 * send-cold, isend-cold: rank 0 goes cold (go_cold) after the barrier,
 * then times an MPI_Send (MPI_Isend, its MPI_Wait after the clock
 * stops) to rank 1, whose MPI_Recv waits, as send and isend.
 */
static void
send_cold(enum op op, char *sbuf, char *rbuf, int b, int reps, double *t)
{
	MPI_Request req;
	double t0;
	int i;

	for (i = -1; i < reps; i++) {
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0) {
			go_cold();
			fresh(sbuf, b, i);
			t0 = MPI_Wtime();
			if (op == OP_SENDCOLD)
				MPI_Send(sbuf, b, MPI_BYTE, 1, 0,
				    MPI_COMM_WORLD);
			else
				MPI_Isend(sbuf, b, MPI_BYTE, 1, 0,
				    MPI_COMM_WORLD, &req);
			if (i >= 0)
				t[i] = MPI_Wtime() - t0;
			if (op == OP_ISENDCOLD)
				MPI_Wait(&req, MPI_STATUS_IGNORE);
		} else if (rank == 1)
			MPI_Recv(rbuf, b, MPI_BYTE, 0, 0, MPI_COMM_WORLD,
			    MPI_STATUS_IGNORE);
	}
	for (i = 0; rank == 0 && i < reps; i++)
		fprintf(out, "%s %d %.9f\n", opname[op], b, t[i]);
}

static void
header(long maxb, int reps)
{
	char lib[MPI_MAX_LIBRARY_VERSION_STRING], name[MPI_MAX_PROCESSOR_NAME];
	char *other;
	const char *pml, *btl;
	int len, i, hosts;

	MPI_Get_library_version(lib, &len);
	lib[strcspn(lib, "\r\n")] = '\0';
	MPI_Get_processor_name(name, &len);
	/* Count the hosts: rank 0 compares every rank's name with the others. */
	other = rank == 0 ? malloc((size_t)nranks * MPI_MAX_PROCESSOR_NAME) : NULL;
	if (rank == 0 && other == NULL)
		MPI_Abort(MPI_COMM_WORLD, 2);
	MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, other,
	    MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
	hosts = 0;
	for (i = 0; rank == 0 && i < nranks; i++) {
		int j;
		for (j = 0; j < i; j++)
			if (strcmp(other + (size_t)i * MPI_MAX_PROCESSOR_NAME,
			    other + (size_t)j * MPI_MAX_PROCESSOR_NAME) == 0)
				break;
		hosts += j == i;
	}
	free(other);
	MPI_Bcast(&hosts, 1, MPI_INT, 0, MPI_COMM_WORLD);
	one_host = hosts == 1;
	if (rank != 0)
		return;
	pml = getenv("OMPI_MCA_pml");
	btl = getenv("OMPI_MCA_btl");
	printf("# trc-pingpong %s\n", TRC_VERSION_STRING);
	printf("# library: %s\n", lib);
	printf("# transport: pml=%s btl=%s\n", pml ? pml : "default",
	    btl ? btl : "default");
	printf("# ranks: %d on %d host%s (%s)\n", nranks, hosts,
	    hosts == 1 ? "" : "s", name);
	printf("# repetitions: %d, bytes 1 to %ld\n", reps, maxb);
	printf("# cold: %ld bytes swept, then %.6f s idle\n", sweepb, idle);
	printf("# operation bytes seconds\n");
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "operations", required_argument, NULL, OPT_OPERATIONS },
		{ "repetitions", required_argument, NULL, OPT_REPETITIONS },
		{ "sweep", required_argument, NULL, OPT_SWEEP },
		{ "idle", required_argument, NULL, OPT_IDLE },
		{ "per-octave", required_argument, NULL, OPT_PEROCTAVE },
		{ NULL, 0, NULL, 0 }
	};
	char defops[] = "send,recv,send-late,send-busy,recv-late,isend,exchange,"
	    "exchange-wait,"
	    "barrier,bcast,reduce,allreduce,gather,scatter,allgather,alltoall,"
	    "poll,iprobe,send-cold,isend-cold,recv-late-cold,barrier-cold,"
	    "bcast-cold,reduce-cold,allreduce-cold,gather-cold,scatter-cold,"
	    "allgather-cold,alltoall-cold";
	struct trc_hostcond host[2];
	char *sbuf, *rbuf, *outbuf = NULL;
	size_t outlen = 0;
	double *t, *tmax, *scratch, late = 0;
	int64_t mine[2], *cond = NULL;
	long maxb = 4L << 20, b, p;
	int want[NOPS], reps = 100, peroct = 2, c, i, k;
	enum op op;

	early_options(argc, argv);
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	parse_ops(defops, want);
	opterr = 0;
	while ((c = getopt_long(argc, argv, "m:", longopts, NULL)) != -1)
		switch (c) {
		case 'm':
			maxb = number(optarg, 1, 1L << 30, "maxbytes");
			break;
		case OPT_OPERATIONS:
			parse_ops(optarg, want);
			break;
		case OPT_REPETITIONS:
			reps = number(optarg, 1, 10000000, "repetitions");
			break;
		case OPT_SWEEP:
			sweepb = number(optarg, 0, 1L << 30, "sweep");
			break;
		case OPT_IDLE:
			idle = decimal(optarg, 10, "idle");
			break;
		case OPT_PEROCTAVE:
			peroct = (int)number(optarg, 1, 16, "sizes per octave");
			break;
		default:
			usage(stderr, 2);
		}
	if (optind != argc)
		usage(stderr, 2);
	if (nranks < 2 && (want[OP_SEND] || want[OP_RECV] ||
	    want[OP_SENDLATE] || want[OP_SENDBUSY] || want[OP_RECVLATE] ||
	    want[OP_ISEND] || want[OP_EXCHANGE] || want[OP_EXCHANGEWAIT] ||
	    want[OP_POLL] || want[OP_IPROBE] || want[OP_SENDCOLD] ||
	    want[OP_ISENDCOLD] || want[OP_RECVLATECOLD]))
		fail_msg("the point-to-point operations, poll and iprobe "
		    "need 2 ranks");

	sbuf = calloc((size_t)maxb, (size_t)nranks);
	rbuf = calloc((size_t)maxb, (size_t)nranks);
	t = calloc((size_t)reps, sizeof(*t));
	tmax = calloc((size_t)reps, sizeof(*tmax));
	scratch = calloc(4 * (size_t)reps, sizeof(*scratch));
	if (sbuf == NULL || rbuf == NULL || t == NULL || tmax == NULL ||
	    scratch == NULL) {
		fprintf(stderr, "trc-pingpong: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	header(maxb, reps);
	if ((out = rank == 0 ? open_memstream(&outbuf, &outlen) : stdout) == NULL) {
		fprintf(stderr, "trc-pingpong: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	if (rank == 0) {
		fflush(stdout);
		trc_hostcond_read(&host[0]);
	}
	mine[0] = trc_process_cpu();
	mine[1] = (int64_t)(now() * 1e9);

	/*
	 * Powers of two and peroct - 1 sizes evenly between each two (2:
	 * 3 * 2^k), each size once: a transport's step between two
	 * measured sizes is drawn as a slope through both.
	 */
	for (p = 1; p <= maxb; p *= 2)
		for (k = 0; k < peroct; k++) {
			b = p + p * k / peroct;
			if (b > maxb || (k > 0 && b == p + p * (k - 1) / peroct))
				continue;
			if (want[OP_SEND] || want[OP_RECV]) {
				for (i = -1; i < reps; i++) {
					double t0;
					if (rank == 0)
						fresh(sbuf, (int)b, i);
					MPI_Barrier(MPI_COMM_WORLD);
					t0 = MPI_Wtime();
					if (rank == 0)
						MPI_Send(sbuf, (int)b, MPI_BYTE,
						    1, 0, MPI_COMM_WORLD);
					else if (rank == 1)
						MPI_Recv(rbuf, (int)b, MPI_BYTE,
						    0, 0, MPI_COMM_WORLD,
						    MPI_STATUS_IGNORE);
					if (i >= 0)
						t[i] = MPI_Wtime() - t0;
				}
				if (rank == 1)
					MPI_Send(t, reps, MPI_DOUBLE, 0, 1,
					    MPI_COMM_WORLD);
				else if (rank == 0) {
					MPI_Recv(tmax, reps, MPI_DOUBLE, 1, 1,
					    MPI_COMM_WORLD, MPI_STATUS_IGNORE);
					for (i = 0; want[OP_SEND] && i < reps; i++)
						fprintf(out, "send %ld %.9f\n", b, t[i]);
					for (i = 0; want[OP_RECV] && i < reps; i++)
						fprintf(out, "recv %ld %.9f\n", b, tmax[i]);
				}
			}
			if (want[OP_SENDLATE] || want[OP_SENDBUSY])
				late = receiver_delay(sbuf, rbuf, (int)b, reps,
				    t, want[OP_SEND] || want[OP_RECV]);
			if (want[OP_SENDLATE])
				send_late(OP_SENDLATE, sbuf, rbuf, (int)b,
				    reps, late, t);
			if (want[OP_SENDBUSY])
				send_late(OP_SENDBUSY, sbuf, rbuf, (int)b,
				    reps, late, t);
			if (want[OP_RECVLATE])
				recv_late(sbuf, rbuf, (int)b, reps, t, tmax,
				    OP_RECVLATE);
			if (want[OP_RECVLATECOLD])
				recv_late(sbuf, rbuf, (int)b, reps, t, tmax,
				    OP_RECVLATECOLD);
			for (op = OP_SENDCOLD; op <= OP_ISENDCOLD; op++)
				if (want[op])
					send_cold(op, sbuf, rbuf, (int)b, reps,
					    t);
			for (i = -1; want[OP_ISEND] && i < reps; i++) {
				MPI_Request req;
				double t0;
				if (rank == 0)
					fresh(sbuf, (int)b, i);
				MPI_Barrier(MPI_COMM_WORLD);
				if (rank == 0) {
					t0 = MPI_Wtime();
					MPI_Isend(sbuf, (int)b, MPI_BYTE, 1, 0,
					    MPI_COMM_WORLD, &req);
					if (i >= 0)
						t[i] = MPI_Wtime() - t0;
					MPI_Wait(&req, MPI_STATUS_IGNORE);
				} else if (rank == 1)
					MPI_Recv(rbuf, (int)b, MPI_BYTE, 0, 0,
					    MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			}
			for (i = 0; want[OP_ISEND] && rank == 0 && i < reps; i++)
				fprintf(out, "isend %ld %.9f\n", b, t[i]);
			if (want[OP_EXCHANGE] || want[OP_EXCHANGEWAIT])
				exchange(sbuf, rbuf, (int)b, reps,
				    want[OP_EXCHANGE], want[OP_EXCHANGEWAIT],
				    t, tmax);
			for (op = OP_POLL; b == 1 && op <= OP_IPROBE; op++)
				if (want[op])
					poll_cost(op, reps, t, tmax);
			for (op = OP_BARRIER; op < NOPS; op++)
				if (want[op] && (op <= OP_ALLTOALL ||
				    op >= OP_BARRIERCOLD) && ((op != OP_BARRIER &&
				    op != OP_BARRIERCOLD) || b == 1))
					coll_runs(op, sbuf, rbuf, (int)b, reps,
					    scratch, t);
		}
	mine[0] = trc_process_cpu() - mine[0];
	mine[1] = (int64_t)(now() * 1e9) - mine[1];
	if (rank == 0 && (cond = calloc(2 * (size_t)nranks,
	    sizeof(*cond))) == NULL)
		MPI_Abort(MPI_COMM_WORLD, 2);
	MPI_Gather(mine, 2, MPI_INT64_T, cond, 2, MPI_INT64_T, 0,
	    MPI_COMM_WORLD);
	if (rank == 0) {
		trc_hostcond_read(&host[1]);
		if (fclose(out) == EOF) {
			fprintf(stderr, "trc-pingpong: out of memory\n");
			MPI_Abort(MPI_COMM_WORLD, 2);
		}
		fwrite(outbuf, 1, outlen, stdout);
		free(outbuf);
		trc_hostcond_write(stdout, &host[0], &host[1]);
		for (i = 0; i < nranks; i++)
			trc_cpu_write(stdout, i, cond[2 * i], cond[2 * i + 1]);
		free(cond);
	}
	if (rank == 0 && (fflush(stdout) == EOF || ferror(stdout))) {
		fprintf(stderr, "trc-pingpong: stdout: %s\n", strerror(errno));
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	free(sbuf);
	free(rbuf);
	free(t);
	free(tmax);
	free(scratch);
	MPI_Finalize();
	return 0;
}
