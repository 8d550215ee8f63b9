/*
 * recorded.c - the model that keeps every interval as recorded: what
 * trc-perturb(1) replays delays with, and what trc-scale(1) runs when
 * given no model.  Messages leave and arrive at the end of their send.
 */
#include <stddef.h>
#include <stdint.h>

#include "trc.h"

static void *
rec_new(const struct trc_model_conf *conf, char *err, size_t errlen)
{
	static char none;

	(void)conf;
	(void)err;
	(void)errlen;
	return &none;
}

static int
rec_comp(void *v, int32_t rank, int64_t d, int64_t *dp)
{
	(void)v;
	(void)rank;
	*dp = d;
	return 0;
}

static int
rec_region(void *v, int32_t rank, const struct trc_str *fn)
{
	(void)v;
	(void)rank;
	(void)fn;
	return 0;
}

static int
rec_send(void *v, const struct trc_p2p *m, int64_t begin, int64_t sb,
    int64_t se, struct trc_xfer *x)
{
	(void)v;
	(void)m;
	x->end = x->depart = x->arrive = begin + (se - sb);
	x->base = sb;
	x->rdv = 0;
	return 0;
}

static void
rec_handover(void *v, const struct trc_p2p *m, int64_t ready,
    struct trc_xfer *x)
{
	(void)v;
	(void)m;
	(void)ready;
	(void)x;
}

static int64_t
rec_recv(void *v, const struct trc_p2p *m, int64_t ready, int64_t d)
{
	(void)v;
	(void)m;
	return ready + d;
}

/* A wait keeps its recorded length. */
static int64_t
rec_wait(void *v, int32_t rank, int64_t begin, int64_t d, int64_t sbytes)
{
	(void)v;
	(void)rank;
	(void)sbytes;
	return begin + d;
}

static int64_t
rec_coll(void *v, const struct trc_coll_call *c)
{
	(void)v;
	return c->d;
}

static int64_t
rec_bound(void *v, int32_t rank, enum trc_phase ph, int64_t tp, int64_t dt)
{
	(void)v;
	(void)rank;
	(void)ph;
	return tp + dt;
}

static const char *
rec_error(void *v)
{
	(void)v;
	return "";
}

static void
rec_free(void *v)
{
	(void)v;
}

const struct trc_model_ops trc_model_recorded_ops = {
	.name = "recorded",
	.new = rec_new,
	.comp = rec_comp,
	.region = rec_region,
	.send = rec_send,
	.handover = rec_handover,
	.recv = rec_recv,
	.wait = rec_wait,
	.coll = rec_coll,
	.bound = rec_bound,
	.error = rec_error,
	.free = rec_free,
};
