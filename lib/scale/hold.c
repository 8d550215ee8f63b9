/*
 * hold.c - events held while their rank waits, copied whole, and
 * processed again when the rank is woken.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "scale.h"

int
sc_hold(struct trc_scale *s, struct rank *p, const struct trc_event *ev,
    int64_t delay)
{
	struct held *h;
	size_t len = 0, i, n = (size_t)ev->nattr;
	char *t;

	for (i = 0; i < n; i++)
		len += ev->attr[i].key.len + ev->attr[i].val.len;
	/* Only the attributes in use are kept, their text after them. */
	if ((h = malloc(offsetof(struct held, ev.attr) +
	    n * sizeof(struct trc_attr) + len + 1)) == NULL)
		return sc_nomem(s);
	memcpy(&h->ev, ev, offsetof(struct trc_event, attr));
	h->line = ev->line;
	h->next = NULL;
	h->delay = delay;
	t = (char *)&h->ev.attr[n];
	for (i = 0; i < n; i++) {
		memcpy(t, ev->attr[i].key.s, ev->attr[i].key.len);
		h->ev.attr[i].key.s = t;
		h->ev.attr[i].key.len = ev->attr[i].key.len;
		t += ev->attr[i].key.len;
		memcpy(t, ev->attr[i].val.s, ev->attr[i].val.len);
		/* fn=, op= and req= point into their attribute's value. */
		if (ev->fn.len && ev->fn.s == ev->attr[i].val.s)
			h->ev.fn.s = t;
		if (ev->op.len && ev->op.s == ev->attr[i].val.s)
			h->ev.op.s = t;
		if (ev->reqs.len && ev->reqs.s == ev->attr[i].val.s)
			h->ev.reqs.s = t;
		h->ev.attr[i].val.s = t;
		h->ev.attr[i].val.len = ev->attr[i].val.len;
		t += ev->attr[i].val.len;
	}
	if (p->htail)
		p->htail->next = h;
	else
		p->hhead = h;
	p->htail = h;
	s->st.held++;
	if (++s->curheld > s->st.maxheld)
		s->st.maxheld = s->curheld;
	return 0;
}

/* A held event as a whole trc_event (line sits after the attributes). */
static const struct trc_event *
unheld(struct trc_scale *s, const struct held *h)
{
	size_t n = (size_t)h->ev.nattr;

	memcpy(&s->tmp, &h->ev, offsetof(struct trc_event, attr));
	memcpy(s->tmp.attr, h->ev.attr, n * sizeof(struct trc_attr));
	s->tmp.line = h->line;
	return &s->tmp;
}

int
sc_resume(struct trc_scale *s)
{
	struct rank *p;
	struct held *h;
	int32_t r;
	int rc;

	while (s->nwork > 0) {
		r = s->work[--s->nwork];
		p = RK(s, r);
		if (p->blocked == BLK_WILD)
			s->nwild--;
		if (p->blocked == BLK_SYNC)
			s->nsyncw--;
		if (p->blocked == BLK_TAKE)
			s->ntakew--;
		p->blocked = RUN;
		while ((h = p->hhead) != NULL) {
			if ((rc = sc_process(s, r, unheld(s, h), h->delay)) < 0)
				return -1;
			if ((rc > 0 || p->progw != 0) && sc_progress(s, r) < 0)
				return -1;
			if (rc > 0)
				break;
			if ((p->hhead = h->next) == NULL)
				p->htail = NULL;
			free(h);
			s->curheld--;
		}
	}
	return 0;
}
