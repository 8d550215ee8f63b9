/*
 * wait.c - waits: the receives a wait may complete, in the order of
 * its req= list, and the sizes of the sends it completes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "scale.h"

/*
 * The nonblocking sends that a wait's req= list names: the largest
 * one's size in wsbytes, and each forgotten (those a waitsome or a test
 * left incomplete have no size in a later wait: kept as recorded).
 */
static void
wait_sends(struct rank *p, struct trc_str list)
{
	int64_t id;
	size_t i;

	while (trc_reqs_next(&list, &id) == 1)
		for (i = 0; i < p->nis; i++)
			if (p->is[i].req == id) {
				if (p->is[i].bytes > p->wsbytes)
					p->wsbytes = p->is[i].bytes;
				p->is[i] = p->is[--p->nis];
				break;
			}
}

/* A nonblocking send ended: its size kept for its wait. */
int
sc_isend_put(struct trc_scale *s, struct rank *p, int64_t req, int64_t bytes)
{
	if (p->nis == ISEND_MAX) {
		memmove(p->is, p->is + 1, (p->nis - 1) * sizeof(*p->is));
		p->nis--;
	}
	if (trc_grow(&p->is, &p->iscap, p->nis + 1, sizeof(*p->is), 4) < 0)
		return sc_nomem(s);
	p->is[p->nis].req = req;
	p->is[p->nis++].bytes = bytes;
	return 0;
}

/*
 * A wait begins: note the receives it may complete, in the order of
 * its req= list (the requests of the prediction), and the sends.
 */
static int
wait_list(struct trc_scale *s, struct rank *p, const struct trc_event *ev)
{
	struct trc_str list = ev->reqs;
	int64_t id;
	struct irecv *rv;
	const char *op = ev->op.s;
	size_t n = ev->op.len;

	p->nwl = p->wcur = p->nwsub = 0;
	p->wall = !(n >= 3 && (memcmp(op + n - 3, "any", 3) == 0 ||
	    (n >= 4 && memcmp(op + n - 4, "some", 4) == 0)));
	p->wsbytes = -1;
	p->wrecv = 0;
	if (p->nis > 0)
		wait_sends(p, ev->reqs);
	if (p->nir == 0)
		return 0;
	while (trc_reqs_next(&list, &id) == 1)
		if ((rv = sc_find_irecv(p, sc_map_req(p, id))) != NULL) {
			if (trc_grow(&p->wl, &p->wlcap, p->nwl + 1,
			    sizeof(*p->wl), 4) < 0)
				return sc_nomem(s);
			p->wl[p->nwl] = *rv;
			p->wl[p->nwl++].done = 0;
		}
	return 0;
}

/*
 * An RE of request req (of the prediction) inside the wait: its
 * receive must come at or after the cursor (and, in a wait that
 * completes them all, at it).  Returns its place in the list, -1 when
 * it is not there (not posted in the input: no order known), or -2 on
 * error.  The cursor moves when the RE is done: a held RE is checked
 * again when resumed.
 */
long
sc_wait_next(struct trc_scale *s, struct rank *p, const struct trc_event *ev,
    int64_t req)
{
	size_t j;

	for (j = 0; j < p->nwl; j++)
		if (p->wl[j].req == req)
			break;
	if (j == p->nwl)
		return -1;
	if (j < p->wcur || (p->wall && j > p->wcur)) {
		sc_fail(s, ev->line, "receive completion req=%lld out of the "
		    "order of its wait's req= list", (long long)ev->req);
		return -2;
	}
	return (long)j;
}

/* Is ev (a WB) a probe's? */
static int
is_probe(const struct trc_event *ev)
{
	const char *op = ev->op.s;
	size_t n = ev->op.len;

	return n >= 5 && memcmp(op + n - 5, "probe", 5) == 0;
}

/* WB: the rank waits; a probe notes what it asked. */
int
sc_wait_begin(struct trc_scale *s, int32_t r, const struct trc_event *ev,
    struct rewrite *rw)
{
	struct rank *p = RK(s, r);

	p->state = WAIT;
	if (s->conf.rematch && (p->nren > 0 || p->nwsub > 0) &&
	    sc_map_list(s, p, ev, rw) < 0)
		return -1;
	if (wait_list(s, p, ev) < 0)
		return -1;
	if ((p->probing = is_probe(ev)) != 0) {
		p->pb_src = ev->peer;
		p->pb_tag = ev->tag;
		p->pb_comm = ev->comm;
	}
	if (p->nwl > 0 && p->wl[0].src >= 0)
		trc_match_prefetch(s->mt, p->wl[0].src, r, p->wl[0].tag,
		    p->wl[0].comm);
	return 0;
}

/*
 * WE: a wait ends, at the model's wait cost (of its sends alone, when
 * it completed no receive); a probe's, with rematch, is a choice.
 */
int
sc_wait_end(struct trc_scale *s, int32_t r, const struct trc_event *ev,
    int64_t base, int64_t d, int64_t *tp, struct rewrite *rw)
{
	struct rank *p = RK(s, r);
	int rc = 0;

	if (p->state == WAIT && p->probing && s->conf.rematch &&
	    ev->peer >= 0 && ev->tag >= 0)
		return sc_probe_end(s, r, ev, base, d, tp, rw);
	p->probing = 0;
	if (s->conf.rematch && (p->nren > 0 || p->nwsub > 0) &&
	    sc_map_list(s, p, ev, rw) < 0)
		return -1;
	if (p->state == WAIT)
		*tp = s->mo->wait(s->ms, r, base, d, p->wrecv ? -1 : p->wsbytes);
	else
		rc = sc_comp(s, r, base, d, ev->line, tp);
	p->state = COMP;
	return rc;
}
