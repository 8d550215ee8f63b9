/*
 * perturb.c - TRC_DELAY specs matched against the events of a trace
 * as libtrc-mpi matches them against calls (trc_perturb.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "trc_perturb.h"

struct spec {
	char		*call;		/* "*": any */
	char		*region;	/* NULL: anywhere */
	int		 hasranks;
	struct trc_ranks ranks;
	int64_t		 lo, hi;	/* occ=; lo TRC_NONE: every one */
	int64_t		 ns;
	struct trc_perturb_tally tally;
};

enum pend { NOPEND, PEND_ISEND, PEND_IRECV };

struct prank {
	int64_t		*seen;		/* calls matched, per spec */
	char		**reg;		/* open regions, innermost last */
	size_t		 nreg, capreg;
	enum pend	 pend;		/* a call known at the next event */
	int64_t		 pt, preq;
	char		 pop[32];
};

struct trc_perturb {
	struct spec	*sp;
	size_t		 nsp;
	struct trc_pages rk;		/* struct prank, by rank */
	unsigned long long count;
	int64_t		 total;
};

struct trc_perturb *
trc_perturb_new(void)
{
	return calloc(1, sizeof(struct trc_perturb));
}

int
trc_perturb_add(struct trc_perturb *p, const struct trc_factor *f)
{
	struct spec *v, *s;
	char buf[2 * TRC_MAXRANGES * 24], *c;

	/* Specs come before the first event: no rank has counters yet. */
	if (p->rk.npg > 0)
		return -1;
	if ((v = realloc(p->sp, (p->nsp + 1) * sizeof(*v))) == NULL)
		return -1;
	p->sp = v;
	s = &v[p->nsp];
	memset(s, 0, sizeof(*s));
	if (f->ranks != NULL) {
		/* The factor's "0:2-3" is the selector's "0,2-3". */
		snprintf(buf, sizeof buf, "%s", f->ranks);
		for (c = buf; *c != '\0'; c++)
			if (*c == ':')
				*c = ',';
		if (trc_ranks_parse(buf, &s->ranks) < 0)
			return -1;
		s->hasranks = 1;
	}
	if ((s->call = strdup(f->call)) == NULL)
		return -1;
	if (f->region != NULL && (s->region = strdup(f->region)) == NULL) {
		free(s->call);
		return -1;
	}
	s->lo = f->occ_lo;
	s->hi = f->occ_hi;
	s->ns = f->delay;
	p->nsp++;
	return 0;
}

int
trc_perturb_parse(struct trc_perturb *p, const char *specs, char *err,
    size_t errlen)
{
	struct trc_factor f;
	const char *s = specs, *end;
	char msg[TRC_ERRLEN];
	int n = 0, several = strchr(specs, ';') != NULL;

	while (*s != '\0') {
		end = strchr(s, ';');
		if (end == NULL)
			end = s + strlen(s);
		n++;
		memset(&f, 0, sizeof f);
		if (trc_factor_parse_spec(s, (size_t)(end - s), &f, msg,
		    sizeof msg) < 0) {
			if (several)
				snprintf(err, errlen, "spec %d: %s", n, msg);
			else
				snprintf(err, errlen, "%s", msg);
			return -1;
		}
		if (trc_perturb_add(p, &f) < 0) {
			trc_factor_free(&f);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		trc_factor_free(&f);
		if (*end == '\0')
			break;
		s = end + 1;
	}
	return 0;
}

static struct prank *
getrank(struct trc_perturb *p, int32_t r)
{
	struct prank *v;

	if (r < 0)
		return NULL;
	p->rk.elsize = sizeof(struct prank);
	if ((v = trc_pages_get(&p->rk, (size_t)r)) == NULL)
		return NULL;
	if (v->seen == NULL && p->nsp > 0 &&
	    (v->seen = calloc(p->nsp, sizeof(int64_t))) == NULL)
		return NULL;
	return v;
}

static int
region_open(const struct prank *k, const char *name)
{
	size_t i;

	for (i = 0; i < k->nreg; i++)
		if (strcmp(k->reg[i], name) == 0)
			return 1;
	return 0;
}

/*
 * The delay of call on rank r, counting it for every spec it matches.
 * The trace cannot tell MPI_Sendrecv_replace from MPI_Sendrecv: a
 * sendrecv matches both names.
 */
static int64_t
delay(struct trc_perturb *p, int32_t r, struct prank *k, const char *call)
{
	struct spec *s;
	int64_t ns = 0;
	size_t i;

	for (i = 0; i < p->nsp; i++) {
		s = &p->sp[i];
		if (strcmp(s->call, call) != 0 && strcmp(s->call, "*") != 0 &&
		    !(strcmp(call, "sendrecv") == 0 &&
		    strcmp(s->call, "sendrecv_replace") == 0))
			continue;
		if (s->hasranks && !trc_ranks_has(&s->ranks, r))
			continue;
		s->tally.calls++;
		if (s->region != NULL && !region_open(k, s->region))
			continue;
		s->tally.inregion++;
		if (++k->seen[i] > s->tally.most)
			s->tally.most = k->seen[i];
		if (s->lo != TRC_NONE && (k->seen[i] < s->lo ||
		    k->seen[i] > s->hi))
			continue;
		s->tally.fired++;
		/* Past the clock (trc.h) they stay past it: the engine
		 * then names the event. */
		ns = trc_time_add(ns, s->ns);
		p->count++;
		p->total = trc_time_add(p->total, s->ns);
	}
	return ns;
}

/* The op= of ev as a call name, or dflt when it has none. */
static const char *
opname(const struct trc_event *ev, const char *dflt, char *buf, size_t len)
{
	if (ev->op.len == 0 || ev->op.len >= len)
		return dflt;
	memcpy(buf, ev->op.s, ev->op.len);
	buf[ev->op.len] = '\0';
	return buf;
}

static int
isop(const struct trc_event *ev, const char *op)
{
	return ev->op.len == strlen(op) && memcmp(ev->op.s, op, ev->op.len) == 0;
}

int
trc_perturb_event(struct trc_perturb *p, const struct trc_event *ev,
    int64_t *before, int64_t *after)
{
	struct prank *k;
	char buf[32], **v;
	const char *call;
	size_t n;

	*before = *after = 0;
	if (p->nsp == 0)
		return 0;
	if ((k = getrank(p, ev->rank)) == NULL)
		return ev->rank < 0 ? 0 : -1;

	/* The previous call's delay, now that the call is known. */
	if (k->pend == PEND_ISEND) {
		if (!(ev->kind == TRC_SE && ev->req == k->preq && ev->t == k->pt))
			*before = trc_time_add(*before,
			    delay(p, ev->rank, k, k->pop));
	} else if (k->pend == PEND_IRECV) {
		if (!(ev->kind == TRC_WB && isop(ev, "sendrecv") &&
		    ev->t == k->pt))
			*before = trc_time_add(*before,
			    delay(p, ev->rank, k, k->pop));
	}
	k->pend = NOPEND;

	/* The parts of a sendrecv that say so: its WB is the call. */
	if ((ev->kind == TRC_SB || ev->kind == TRC_RB) && isop(ev, "sendrecv"))
		return 0;
	switch (ev->kind) {
	case TRC_SB:
		call = opname(ev, ev->req == TRC_NONE ? "send" : "isend", buf,
		    sizeof buf);
		if (ev->req == TRC_NONE) {
			*after = trc_time_add(*after,
			    delay(p, ev->rank, k, call));
			break;
		}
		k->pend = PEND_ISEND;
		k->pt = ev->t;
		k->preq = ev->req;
		snprintf(k->pop, sizeof k->pop, "%s", strlen(call) <
		    sizeof k->pop ? call : "isend");
		break;
	case TRC_RB:
		call = opname(ev, ev->req == TRC_NONE ? "recv" : "irecv", buf,
		    sizeof buf);
		if (ev->req == TRC_NONE) {
			*after = trc_time_add(*after,
			    delay(p, ev->rank, k, call));
			break;
		}
		k->pend = PEND_IRECV;
		k->pt = ev->t;
		k->preq = ev->req;
		snprintf(k->pop, sizeof k->pop, "%s", strlen(call) <
		    sizeof k->pop ? call : "irecv");
		break;
	case TRC_WB:
		if (isop(ev, "wait") || isop(ev, "waitall") ||
		    isop(ev, "waitany") || isop(ev, "waitsome") ||
		    isop(ev, "probe") || isop(ev, "mprobe") ||
		    isop(ev, "sendrecv"))
			*after = trc_time_add(*after,
			    delay(p, ev->rank, k,
			    opname(ev, "wait", buf, sizeof buf)));
		break;
	case TRC_XB:
		if (ev->op.len > 0)
			*after = trc_time_add(*after,
			    delay(p, ev->rank, k,
			    opname(ev, "", buf, sizeof buf)));
		break;
	case TRC_PB:
		for (n = 0; n < p->nsp; n++)
			if (p->sp[n].region != NULL && !p->sp[n].tally.opened &&
			    strlen(p->sp[n].region) == ev->fn.len &&
			    memcmp(p->sp[n].region, ev->fn.s, ev->fn.len) == 0)
				p->sp[n].tally.opened = 1;
		if (k->nreg == k->capreg) {
			n = k->capreg ? 2 * k->capreg : 8;
			if ((v = realloc(k->reg, n * sizeof(*v))) == NULL)
				return -1;
			k->reg = v;
			k->capreg = n;
		}
		if ((k->reg[k->nreg] = strndup(ev->fn.s, ev->fn.len)) == NULL)
			return -1;
		k->nreg++;
		*after = trc_time_add(*after,
		    delay(p, ev->rank, k, "pb"));
		break;
	case TRC_PE:
		*before = trc_time_add(*before,
		    delay(p, ev->rank, k, "pe"));
		/* The tracer closes the innermost region, whatever its name. */
		if (k->nreg > 0)
			free(k->reg[--k->nreg]);
		break;
	default:
		break;
	}
	return 0;
}

size_t
trc_perturb_nspecs(const struct trc_perturb *p)
{
	return p->nsp;
}

const struct trc_perturb_tally *
trc_perturb_tally(const struct trc_perturb *p, size_t i)
{
	return i < p->nsp ? &p->sp[i].tally : NULL;
}

/* Ranks of s from nranks up, as "4-7" in buf; 0 when there are none. */
static int
ranks_beyond(const struct spec *s, int32_t nranks, char *buf, size_t len)
{
	int32_t lo = -1, hi = -1;
	int i;

	for (i = 0; i < s->ranks.n; i++) {
		int32_t a = s->ranks.lo[i] < nranks ? nranks : s->ranks.lo[i];

		if (s->ranks.hi[i] < nranks)
			continue;
		if (lo < 0 || a < lo)
			lo = a;
		if (s->ranks.hi[i] > hi)
			hi = s->ranks.hi[i];
	}
	if (lo < 0)
		return 0;
	if (lo == hi)
		snprintf(buf, len, "%ld", (long)lo);
	else
		snprintf(buf, len, "%ld-%ld", (long)lo, (long)hi);
	return 1;
}

int
trc_perturb_why(const struct trc_perturb *p, size_t i, int32_t nranks,
    char *buf, size_t len)
{
	const struct spec *s = &p->sp[i];
	const struct trc_perturb_tally *t = &s->tally;
	char rb[48], ob[48] = "";
	int32_t r;
	int inside = 0;

	buf[0] = '\0';
	if (s->hasranks && nranks > 0) {
		for (r = 0; r < nranks && !inside; r++)
			inside = trc_ranks_has(&s->ranks, r);
		if (ranks_beyond(s, nranks, rb, sizeof rb)) {
			snprintf(buf, len, "rank%s %s not in the trace, which "
			    "has ranks 0-%ld", strchr(rb, '-') ? "s" : "", rb,
			    (long)nranks - 1);
			if (!inside)
				return 2;
		}
	}
	if (s->lo != TRC_NONE && s->hi != INT64_MAX)
		snprintf(ob, sizeof ob, "occ=%lld-%lld", (long long)s->lo,
		    (long long)s->hi);
	else if (s->lo != TRC_NONE)
		snprintf(ob, sizeof ob, "occ=%lld-", (long long)s->lo);
	if (t->calls == 0) {
		snprintf(buf, len, "no call %s on %s in the trace", s->call,
		    s->hasranks ? "its ranks" : "any rank");
		return 2;
	}
	if (t->inregion == 0) {
		if (!t->opened)
			snprintf(buf, len, "region %s never opens in the trace",
			    s->region);
		else
			snprintf(buf, len, "no call %s inside region %s in the "
			    "trace", s->call, s->region);
		return 2;
	}
	if (t->fired == 0) {
		snprintf(buf, len, "%s, but a rank makes at most %lld "
		    "matching calls", ob, (long long)t->most);
		return 2;
	}
	if (s->lo != TRC_NONE && s->hi != INT64_MAX && t->most < s->hi) {
		snprintf(buf, len, "%s, but a rank makes at most %lld "
		    "matching calls", ob, (long long)t->most);
		return 1;
	}
	return buf[0] != '\0';
}

unsigned long long
trc_perturb_count(const struct trc_perturb *p)
{
	return p->count;
}

int64_t
trc_perturb_total(const struct trc_perturb *p)
{
	return p->total;
}

void
trc_perturb_free(struct trc_perturb *p)
{
	size_t i, j;

	if (p == NULL)
		return;
	for (i = 0; i < p->nsp; i++) {
		free(p->sp[i].call);
		free(p->sp[i].region);
	}
	for (i = 0; i < p->rk.npg * TRC_PAGE; i++) {
		struct prank *k = trc_pages_at(&p->rk, i);

		if (k == NULL)
			continue;
		for (j = 0; j < k->nreg; j++)
			free(k->reg[j]);
		free(k->reg);
		free(k->seen);
	}
	free(p->sp);
	trc_pages_free(&p->rk);
	free(p);
}
