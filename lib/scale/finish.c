/*
 * finish.c - the end of the input: the choices and held sends left are
 * decided, and what never matched is said.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "scale.h"

static int
add_diag(struct trc_scale *s, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || trc_grow(&s->diag, &s->diagcap, s->ndiag + 1,
	    sizeof(*s->diag), 8) < 0 ||
	    (s->diag[s->ndiag] = strdup(buf)) == NULL)
		return sc_nomem(s);
	s->ndiag++;
	return 0;
}

/*
 * At the end, ranks that still wait, each for another's message (a
 * receive whose send that rank has yet to reach, or a send held for
 * its receiver), in a cycle: a deadlock, said once a cycle with its
 * ranks and lines.  Returns the number of receive lines so said, in
 * *lines (free() it), or -1.
 */
static int
deadlocks(struct trc_scale *s, long **lines)
{
	struct rank *q;
	char msg[512];
	size_t i, len, nl = 0, k;
	int32_t cur, w, at;

	*lines = NULL;
	s->upass++;
	for (i = 0; i < s->nrk; i++) {
		RK_SKIP(s, i);
		w = (int32_t)i;
		for (cur = w; cur >= 0 && (q = RK_AT(s, cur)) != NULL &&
		    q->hhead != NULL && (q->blocked == BLK_RECV ||
		    q->blocked == BLK_SYNC); cur = sc_waits_for(q)) {
			if (q->upass == s->upass)
				break;
			q->upass = s->upass;
			q->uwalk = w;
		}
		if (cur < 0 || (q = RK_AT(s, cur)) == NULL || q->upass != s->upass ||
		    q->uwalk != w || q->hhead == NULL)
			continue;
		/* Back on this walk: cur is on a cycle; say it from cur. */
		len = 0;
		at = cur;
		k = 0;
		do {
			q = RK(s, at);
			if (k++ < 8)
				len += (size_t)snprintf(msg + len, sizeof(msg) - len,
				    "%srank %ld (line %ld) %s rank %ld",
				    at == cur ? "" : ", ", (long)at, q->hhead->line,
				    q->blocked == BLK_RECV ? "waits for a send of" :
				    "sends, held for", (long)sc_waits_for(q));
			else if (k == 9)
				len += (size_t)snprintf(msg + len, sizeof(msg) - len,
				    ", ...");
			if (len >= sizeof(msg))
				len = sizeof(msg) - 1;
			if (q->blocked == BLK_RECV) {
				long *v = realloc(*lines, (nl + 1) * sizeof(*v));

				if (v == NULL)
					return sc_nomem(s);
				*lines = v;
				v[nl++] = q->hhead->line;
			}
			q->uwalk = -1;	/* said: no other walk says it again */
			at = sc_waits_for(q);
		} while (at != cur);
		if (add_diag(s, "%s:%ld: deadlock: %s", s->name,
		    RK(s, cur)->hhead->line, msg) < 0)
			return -1;
	}
	return (int)nl;
}

/*
 * The messages never matched, but those of the receives a deadlock said
 * (lines dead[0..ndead)): a send never received is a warning, a
 * receive without its send an error.  Returns the errors, or -1.
 */
static int
unmatched(struct trc_scale *s, const long *dead, int ndead)
{
	struct trc_msg *v;
	size_t n, i, j;
	int errors = 0;

	if ((v = trc_match_leftovers(s->mt, &n)) == NULL && n != 0)
		return sc_nomem(s);
	for (i = 0; i < n; i++) {
		for (j = 0; j < (size_t)ndead && dead[j] != v[i].line; j++)
			;
		if (j < (size_t)ndead)
			continue;	/* said as part of its deadlock */
		if (v[i].send) {
			if (add_diag(s, "%s:%ld: warning: send to rank %ld "
			    "tag %ld comm %ld was never received", s->name,
			    v[i].line, (long)v[i].dst, (long)v[i].tag,
			    (long)v[i].comm) < 0)
				break;
		} else {
			if (add_diag(s, "%s:%ld: receive from rank %ld tag "
			    "%ld comm %ld has no matching send", s->name,
			    v[i].line, (long)v[i].src, (long)v[i].tag,
			    (long)v[i].comm) < 0)
				break;
			errors++;
		}
	}
	free(v);
	return s->failed ? -1 : errors;
}

/* Choices left without a message: errors, or -1. */
static int
choices_left(struct trc_scale *s)
{
	const struct rank *p;
	size_t i;
	int errors = 0;

	for (i = 0; i < s->nrk; i++) {
		char src[24] = "any rank", tag[24] = "*";

		RK_SKIP(s, i);
		p = RK(s, i);
		if (p->blocked != BLK_WILD || p->hhead == NULL)
			continue;
		if (p->ch_any) {
			if (add_diag(s, "%s:%ld: receive completion req=%lld "
			    "of a wait for any has no matching send", s->name,
			    p->hhead->line, (long long)p->hhead->ev.req) < 0)
				return -1;
			errors++;
			continue;
		}
		if (p->ch.src >= 0)
			snprintf(src, sizeof(src), "rank %ld", (long)p->ch.src);
		if (p->ch.tag >= 0)
			snprintf(tag, sizeof(tag), "%ld", (long)p->ch.tag);
		if (add_diag(s, "%s:%ld: %s from %s tag %s comm %ld has no "
		    "matching send", s->name, p->hhead->line,
		    p->ch_kind == CH_PROBE ? "probe" : "receive", src, tag,
		    (long)p->ch.comm) < 0)
			return -1;
		errors++;
	}
	return errors;
}

/* Collectives never completed, each released: errors, or -1. */
static int
colls_left(struct trc_scale *s)
{
	const struct trc_coll *c;
	int errors = 0;

	while ((c = trc_coll_oldest(s->mt)) != NULL) {
		if (c->arrived < c->size) {
			if (add_diag(s, "%s:%ld: collective on comm %ld "
			    "never completed: %ld of %ld ranks entered",
			    s->name, c->line, (long)c->comm, (long)c->arrived,
			    (long)c->size) < 0)
				return -1;
			errors++;
		}
		trc_coll_release(s->mt, (struct trc_coll *)c);
	}
	return errors;
}

/* The model's coldness of every rank, into the stats (trc_scale.h). */
static void
coldness(struct trc_scale *s)
{
	struct trc_scale_stats *st = &s->st;
	double x, n;
	size_t i;

	for (i = 0; s->mo->coldness != NULL && i < s->nrk; i++) {
		/* Pages of ranks never seen skipped, as everywhere: a lone
		 * rank numbered 700 million took 1.8 s here (fuzz/scale). */
		RK_SKIP(s, i);
		if (s->mo->coldness(s->ms, (int32_t)i, &x, &n) < 0)
			continue;
		if (st->cold_ranks == 0 || x < st->cold_min) {
			st->cold_min = x;
			st->cold_rmin = (int32_t)i;
		}
		if (st->cold_ranks == 0 || x > st->cold_max) {
			st->cold_max = x;
			st->cold_rmax = (int32_t)i;
		}
		st->cold_mean += x;
		st->cold_calls += n;
		st->cold_ranks++;
	}
	if (st->cold_ranks > 0)
		st->cold_mean /= st->cold_ranks;
}

int
trc_scale_finish(struct trc_scale *s)
{
	unsigned long long done;
	size_t n;
	long *dead = NULL;
	int errors, ndead, rc;

	if (s->failed)
		return -1;
	/* Each may let go ranks whose events feed the other. */
	do {
		done = s->st.events;
		if (s->bound != NULL && sc_cores_let_go(s) < 0)
			return -1;
		if (s->nwild > 0 && sc_rematch(s, 1) < 0)
			return -1;
		if (s->nsyncw > 0 && sc_unstick(s, 1) < 0)
			return -1;
		if (s->ntakew > 0 && sc_take_release_all(s) < 0)
			return -1;
	} while (s->st.events != done);
	n = s->ndiag;
	if ((ndead = deadlocks(s, &dead)) < 0) {
		free(dead);
		return -1;
	}
	errors = (int)(s->ndiag - n);
	rc = unmatched(s, dead, ndead);
	free(dead);
	if (rc < 0)
		return -1;
	errors += rc;
	if ((rc = choices_left(s)) < 0)
		return -1;
	errors += rc;
	if ((rc = colls_left(s)) < 0)
		return -1;
	errors += rc;
	if (sc_release(s, INT64_MAX) < 0)
		return -1;
	coldness(s);
	if (s->mo->outliers != NULL)
		s->mo->outliers(s->ms, &s->st.outliers, &s->st.outlier_ns);
	return errors;
}
