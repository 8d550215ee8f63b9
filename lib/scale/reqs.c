/*
 * reqs.c - requests renamed by choices: when a wait for any completes
 * another request than recorded (rematch), the recording's names of
 * the requests are mapped to the prediction's from then on.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "scale.h"

/* The request of the prediction that the recording calls rec. */
int64_t
sc_map_req(const struct rank *p, int64_t rec)
{
	size_t i;

	for (i = 0; i < p->nren; i++)
		if (p->ren[i].rec == rec)
			return p->ren[i].act;
	return rec;
}

/* The recording's name of request act of the prediction. */
static int64_t
unmap_req(const struct rank *p, int64_t act)
{
	size_t i;

	for (i = 0; i < p->nren; i++)
		if (p->ren[i].act == act)
			return p->ren[i].rec;
	return act;
}

/* From now on the recording's rec is act (rec itself: no renaming). */
static int
set_map(struct trc_scale *s, struct rank *p, int64_t rec, int64_t act)
{
	size_t i;

	for (i = 0; i < p->nren && p->ren[i].rec != rec; i++)
		;
	if (i < p->nren) {
		if (rec == act)
			p->ren[i] = p->ren[--p->nren];
		else
			p->ren[i].act = act;
		return 0;
	}
	if (rec == act)
		return 0;
	if (trc_grow(&p->ren, &p->rencap, p->nren + 1, sizeof(*p->ren), 4) < 0)
		return sc_nomem(s);
	p->ren[p->nren].rec = rec;
	p->ren[p->nren++].act = act;
	return 0;
}

/*
 * The recording's request rec completes as act: rec is done, and the
 * request the recording completes later under act's name is the one
 * rec stood for (a swap).  The wait's WE lists act for rec.
 */
int
sc_complete_req(struct trc_scale *s, struct rank *p, int64_t rec, int64_t act)
{
	int64_t was = sc_map_req(p, rec), other = unmap_req(p, act);

	if (act != was && set_map(s, p, other, was) < 0)
		return -1;
	if (set_map(s, p, rec, rec) < 0)
		return -1;
	if (act == rec)
		return 0;
	if (trc_grow(&p->wsub, &p->wsubcap, p->nwsub + 1, sizeof(*p->wsub), 4) <
	    0)
		return sc_nomem(s);
	p->wsub[p->nwsub].rec = rec;
	p->wsub[p->nwsub++].act = act;
	return 0;
}

/*
 * The req= list of ev with the requests of the prediction, in s->lbuf:
 * in rw when it differs.  A WE's completed ones are those of its wait.
 */
int
sc_map_list(struct trc_scale *s, const struct rank *p,
    const struct trc_event *ev, struct rewrite *rw)
{
	struct trc_str list = ev->reqs;
	int64_t id, act;
	size_t n = 0, i;
	int changed = 0;

	if (trc_grow(&s->lbuf, &s->lcap, list.len + 64, 1, 64) < 0)
		return sc_nomem(s);
	while (trc_reqs_next(&list, &id) == 1) {
		act = sc_map_req(p, id);
		if (ev->kind == TRC_WE)
			for (i = 0; i < p->nwsub; i++)
				if (p->wsub[i].rec == id)
					act = p->wsub[i].act;
		changed |= act != id;
		if (trc_grow(&s->lbuf, &s->lcap, n + 24, 1, 64) < 0)
			return sc_nomem(s);
		if (n > 0)
			s->lbuf[n++] = ',';
		n += trc_format_int(s->lbuf + n, act);
	}
	if (changed) {
		rw->what |= RW_REQS;
		rw->reqs.s = s->lbuf;
		rw->reqs.len = n;
	}
	return 0;
}
