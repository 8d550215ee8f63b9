/*
 * sum-floor - what trc-sum's own work costs, apart from reading.
 *
 *	sum-floor file
 *
 * Reads file as trc-sum does (fields only, no matching), 65536 events
 * at a time into memory, and times on the CPU clock only the feeding
 * of each batch to trc_summary_add(), in the stream's order.  Prints
 *
 *	events=N summary=S
 *
 * S the CPU seconds of the summary alone: each batch is handed to
 * trc_summary_add() through one struct trc_event, as trc_next() fills
 * one, and the time of those copies alone (timed apart) is taken off.
 * trc-sum on any input takes at least S: a reader that cost nothing
 * would run it at most (its time on the text) / S times its rate on
 * the text, the ceiling of what a binary form (trcb) can gain (make
 * bench-compact prints it).  S is never negative: on a stream of a few
 * events a stall while the copies are timed would make it so.  Memory
 * is one batch, whatever the stream's length.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trc.h"
#include "trc_summary.h"

#define BATCH	65536
#define ARENA	((size_t)BATCH * 128)	/* bytes of strings a batch, about */

/* An event's fields as the summary reads them, its strings in the
 * batch's arena. */
struct bev {
	int64_t		 t, bytes, req;
	int32_t		 rank, peer, tag, comm, root;
	enum trc_kind	 kind;
	struct trc_str	 fn, op;
	long		 line;
};

static double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Copies s into the arena at *used, returning the copy. */
static struct trc_str
keep(char *arena, size_t *used, struct trc_str s)
{
	struct trc_str k = { arena + *used, s.len };

	memcpy(arena + *used, s.s, s.len);
	*used += s.len;
	return k;
}

/* The event the summary reads, as trc_next() would fill it. */
static inline void
hand(struct trc_event *ev, const struct bev *e)
{
	ev->t = e->t;
	ev->rank = e->rank;
	ev->kind = e->kind;
	ev->peer = e->peer;
	ev->tag = e->tag;
	ev->comm = e->comm;
	ev->root = e->root;
	ev->bytes = e->bytes;
	ev->req = e->req;
	ev->fn = e->fn;
	ev->op = e->op;
	ev->line = e->line;
}

int
main(int argc, char **argv)
{
	struct trc_open_opts o = { .fields_only = 1, .no_match = 1 };
	static struct trc_event ev, one;
	struct trc_summary *sum;
	struct trc_reader *r;
	struct bev *b;
	char *arena;
	size_t n = 0, used = 0, i, total = 0;
	double spent = 0, copies = 0, t0;
	int rc, status = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: sum-floor file\n");
		return 2;
	}
	/* An event's fn= and op= are a line at most each. */
	b = malloc(BATCH * sizeof(*b));
	arena = malloc(ARENA + 2 * TRC_MAXLINE);
	sum = trc_summary_new();
	r = trc_open_with(argv[1], &o);
	if (b == NULL || arena == NULL || sum == NULL || r == NULL) {
		fprintf(stderr, "sum-floor: out of memory\n");
		status = 2;
		goto out;
	}
	one.reqs.s = "";
	while ((rc = trc_next(r, &ev)) >= 0) {
		/* A full batch, or strings the arena cannot take: the
		 * batch so far, timed. */
		if (n > 0 && (rc == 0 || n == BATCH ||
		    used + ev.fn.len + ev.op.len > ARENA)) {
			t0 = cpu_now();
			for (i = 0; i < n; i++) {
				hand(&one, &b[i]);
				__asm__ volatile("" : : "r"(&one) : "memory");
			}
			copies += cpu_now() - t0;
			t0 = cpu_now();
			for (i = 0; i < n; i++) {
				hand(&one, &b[i]);
				if (trc_summary_add(sum, &one) < 0) {
					fprintf(stderr, "sum-floor: %s:%ld: %s\n",
					    argv[1], b[i].line,
					    trc_summary_error(sum));
					status = 2;
					goto out;
				}
			}
			spent += cpu_now() - t0;
			total += n;
			n = used = 0;
		}
		if (rc == 0)
			break;
		b[n].t = ev.t;
		b[n].rank = ev.rank;
		b[n].kind = ev.kind;
		b[n].peer = ev.peer;
		b[n].tag = ev.tag;
		b[n].comm = ev.comm;
		b[n].root = ev.root;
		b[n].bytes = ev.bytes;
		b[n].req = ev.req;
		b[n].fn = keep(arena, &used, ev.fn);
		b[n].op = keep(arena, &used, ev.op);
		b[n].line = ev.line;
		n++;
	}
	if (rc < 0) {
		fprintf(stderr, "sum-floor: %s\n", trc_error(r));
		status = 2;
	} else {
		/* On a short stream a stall of the copies' timing makes
		 * the difference negative: the floor is then nothing. */
		printf("events=%zu summary=%.6f\n", total,
		    spent > copies ? spent - copies : 0.0);
	}
out:
	if (r != NULL)
		trc_close(r);
	if (sum != NULL)
		trc_summary_free(sum);
	free(arena);
	free(b);
	return status;
}
