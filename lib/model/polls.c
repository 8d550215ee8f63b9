/*
 * polls.c - what a computation interval costs when the tracer says
 * more of it than its length (trc_model.h, trc(5)): the thread's CPU
 * time (cpu=), for ranks that shared cores, and the time spent inside
 * unsuccessful polls (polls=, pollt=), which is waiting, not work.
 *
 * With cpu=, the polls' CPU time (pollcpu=) is what is not work: a
 * rank sharing its core may wait its turn inside a poll.
 *
 * A polling loop waits for a message: the loop ends at the first poll
 * after its message arrives, however cheap or dear a poll is.  So by
 * default (wait) its polls cost nothing of their own, and the receive
 * completion that ends the loop is put no earlier than its message's
 * arrival by the engine's causality repair; cost prices each poll at
 * the target's cost instead, as a loop of a fixed number of polls
 * would take; comp leaves them inside the computation, as before
 * pollt= existed.
 */
#include <stdio.h>
#include <string.h>

#include "trc.h"

/* Whether the #clock line (trc(5)) declares token key=. */
int
trc_comp_declared(const struct trc_header *h)
{
	const char *at = NULL, *p, *nl, *q;
	int flags = 0;

	while (trc_extra_line(&h->extra, &at, "#clock ", &p, &nl)) {
		for (q = p - 1; q < nl; q++) {	/* from the prefix's blank */
			if (*q != ' ' && *q != '\t')
				continue;
			if ((size_t)(nl - q) > 4 && memcmp(q + 1, "cpu=", 4) == 0)
				flags |= TRC_COMP_CPU;
			if ((size_t)(nl - q) > 6 &&
			    memcmp(q + 1, "pollt=", 6) == 0)
				flags |= TRC_COMP_POLLT;
		}
	}
	return flags;
}

static int
getsecs(const struct trc_event *ev, const char *key, int64_t *v, char *err,
    size_t errlen)
{
	const struct trc_str *a;

	if ((a = trc_attr_get(ev, key)) == NULL)
		return 0;
	if (trc_parse_time(a->s, a->len, v) < 0 || *v < 0)
		return trc_errorf(err, errlen, "invalid %s '%.*s'", key,
		    (int)a->len, a->s);
	return 0;
}

int
trc_comp_recorded(const struct trc_event *ev, int flags, int64_t d,
    struct trc_comp *c, char *err, size_t errlen)
{
	const struct trc_str *a;

	c->d = d;
	c->cpu = -1;
	c->polls = 0;
	c->pollt = 0;
	c->pollcpu = -1;
	if ((flags & TRC_COMP_CPU) &&
	    (getsecs(ev, "cpu", &c->cpu, err, errlen) < 0 ||
	    getsecs(ev, "pollcpu", &c->pollcpu, err, errlen) < 0))
		return -1;
	if (!(flags & TRC_COMP_POLLT) || (a = trc_attr_get(ev, "polls")) ==
	    NULL)
		return 0;
	if (trc_parse_int(a->s, a->len, &c->polls) < 0 || c->polls < 0)
		return trc_errorf(err, errlen, "invalid polls '%.*s'",
		    (int)a->len, a->s);
	if (getsecs(ev, "pollt", &c->pollt, err, errlen) < 0)
		return -1;
	if (c->pollt > d)
		return trc_errorf(err, errlen, "pollt= longer than its "
		    "interval");
	return 0;
}

void
trc_comp_split(const struct trc_model *m, int mode, int32_t rank,
    const struct trc_comp *c, int64_t *work, int64_t *extra)
{
	int64_t w = c->d, p = c->pollt, one;

	/* The polls' time on the clock that timed the interval. */
	if (c->cpu >= 0) {
		w = c->cpu;
		if (c->pollcpu >= 0)
			p = c->pollcpu;
	}
	*extra = 0;
	if (mode == TRC_POLL_COMP || c->polls == 0) {
		*work = w;
		return;
	}
	*work = w > p ? w - p : 0;
	if (mode != TRC_POLL_COST)
		return;
	if (m->ops->poll == NULL ||
	    (one = m->ops->poll(m->state, rank)) < 0)
		*extra = p;
	else
		*extra = c->polls * one;
}
