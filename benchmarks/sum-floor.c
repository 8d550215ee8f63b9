/*
 * sum-floor - what trc-sum's own work costs, apart from reading.
 *
 *	sum-floor file
 *
 * Reads file as trc-sum does (fields only, no matching), 65536 events
 * at a time into memory, and times on the CPU clock only the feeding
 * of each batch to trc_summary_add_brief(), in the stream's order, as
 * trc-sum hands over the events a reader decoded ahead.  Prints
 *
 *	events=N summary=S
 *
 * S the CPU seconds of the summary alone.  trc-sum on any input takes
 * at least S: a reader that cost nothing would run it at most (its
 * time on the text) / S times its rate on the text, the ceiling of
 * what a binary form (trcb) can gain (make bench-compact prints it).
 * Memory is one batch, whatever the stream's length.
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

int
main(int argc, char **argv)
{
	struct trc_open_opts o = { .fields_only = 1, .no_match = 1 };
	static struct trc_event ev;
	struct trc_summary *sum;
	struct trc_reader *r;
	struct trc_brief *b;
	struct trc_fields *f;
	char *arena;
	long *line;
	size_t n = 0, used = 0, done, total = 0;
	double spent = 0, t0;
	int rc, added, status = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: sum-floor file\n");
		return 2;
	}
	/* An event's fn= and op= are a line at most each. */
	b = malloc(BATCH * sizeof(*b));
	f = malloc(BATCH * sizeof(*f));
	line = malloc(BATCH * sizeof(*line));
	arena = malloc(ARENA + 2 * TRC_MAXLINE);
	sum = trc_summary_new();
	r = trc_open_with(argv[1], &o);
	if (b == NULL || f == NULL || line == NULL || arena == NULL ||
	    sum == NULL || r == NULL) {
		fprintf(stderr, "sum-floor: out of memory\n");
		status = 2;
		goto out;
	}
	while ((rc = trc_next(r, &ev)) >= 0) {
		/* A full batch, or strings the arena cannot take: the
		 * batch so far, timed. */
		if (n > 0 && (rc == 0 || n == BATCH ||
		    used + ev.fn.len + ev.op.len > ARENA)) {
			t0 = cpu_now();
			added = trc_summary_add_brief(sum, b, n, &done);
			spent += cpu_now() - t0;
			if (added < 0) {
				fprintf(stderr, "sum-floor: %s:%ld: %s\n",
				    argv[1], line[done], trc_summary_error(sum));
				status = 2;
				goto out;
			}
			total += n;
			n = used = 0;
		}
		if (rc == 0)
			break;
		f[n] = *trc_event_fields(&ev);
		f[n].fn = keep(arena, &used, ev.fn);
		f[n].op = keep(arena, &used, ev.op);
		b[n].t = ev.t;
		b[n].rank = ev.rank;
		b[n].kind = ev.kind;
		b[n].f = &f[n];
		line[n] = ev.line;
		n++;
	}
	if (rc < 0) {
		fprintf(stderr, "sum-floor: %s\n", trc_error(r));
		status = 2;
	} else
		printf("events=%zu summary=%.6f\n", total, spent);
out:
	if (r != NULL)
		trc_close(r);
	if (sum != NULL)
		trc_summary_free(sum);
	free(arena);
	free(line);
	free(f);
	free(b);
	return status;
}
