/*
 * match.c - pairing sends with receives and collectives with their
 * participants (trc_match.h).
 *
 * A channel is one (source, destination, tag, communicator).  At any
 * moment its queue holds only sends or only receives: whichever end
 * arrives first waits for the other, and a channel whose queue empties
 * is removed, so the tables hold what is in flight and no more.
 *
 * Channels live inline in an open-addressing table (linear probing, at
 * most three quarters full), one 64-byte slot each with its oldest message in
 * it: with thousands of ranks the table does not stay in cache, and a
 * message costs one miss when it leaves and one when it is received.
 * Further messages of a busy channel wait in a ring of nodes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"

struct hnode {
	uint64_t	 k1, k2;
	struct hnode	*next;
};

struct htab {
	struct hnode	**b;
	size_t		 cap, n;	/* cap a power of 2 */
};

/* What a message has beyond its channel. */
struct cmsg {
	int64_t		 bytes, val, aux, aux2;
	long		 line;
};

struct qnode {
	struct cmsg	 m;
	struct qnode	*next;
};

enum { FREE, RECVS, SENDS };

struct chan {
	uint64_t	 k1, k2;	/* src:dst, tag:comm */
	struct cmsg	 m;		/* the oldest message */
	struct qnode	*more;		/* the newest of the rest, in a ring */
	uint32_t	 state;		/* FREE, or what the queue holds */
};

struct ctab {
	struct chan	*v;
	size_t		 cap, n;	/* cap a power of 2 */
};

struct seqc {
	struct hnode	 h;
	int64_t		 next;
};

struct cinst {
	struct hnode	 h;
	struct trc_coll	 c;
};

struct trc_match {
	struct ctab	 chans;
	struct htab	 seqs, colls;
	struct qnode	*freeq;
	size_t		 pending;
	int64_t		*seq0;		/* next instance on comm 0, by rank */
	size_t		 nseq0;
};

static uint64_t
mix(uint64_t k1, uint64_t k2)
{
	uint64_t h = k1 * 0x9e3779b97f4a7c15ULL ^ k2;

	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	return h ^ (h >> 29);
}

static struct hnode *
hfind(const struct htab *t, uint64_t k1, uint64_t k2)
{
	struct hnode *p;

	if (t->cap == 0)
		return NULL;
	for (p = t->b[mix(k1, k2) & (t->cap - 1)]; p; p = p->next)
		if (p->k1 == k1 && p->k2 == k2)
			return p;
	return NULL;
}

static int
hinsert(struct htab *t, struct hnode *n)
{
	struct hnode **nb, *p, *next;
	size_t ncap, i, j;

	if (t->n + 1 > t->cap) {
		ncap = t->cap ? t->cap * 2 : 256;
		if ((nb = calloc(ncap, sizeof(*nb))) == NULL)
			return -1;
		for (i = 0; i < t->cap; i++)
			for (p = t->b[i]; p; p = next) {
				next = p->next;
				j = mix(p->k1, p->k2) & (ncap - 1);
				p->next = nb[j];
				nb[j] = p;
			}
		free(t->b);
		t->b = nb;
		t->cap = ncap;
	}
	i = mix(n->k1, n->k2) & (t->cap - 1);
	n->next = t->b[i];
	t->b[i] = n;
	t->n++;
	return 0;
}

static void
hremove(struct htab *t, struct hnode *n)
{
	struct hnode **pp = &t->b[mix(n->k1, n->k2) & (t->cap - 1)];

	while (*pp != n)
		pp = &(*pp)->next;
	*pp = n->next;
	t->n--;
}

/* Free every node of a table with free(). */
static void
hfree(struct htab *t)
{
	struct hnode *p, *next;
	size_t i;

	for (i = 0; i < t->cap; i++)
		for (p = t->b[i]; p; p = next) {
			next = p->next;
			free(p);
		}
	free(t->b);
	memset(t, 0, sizeof(*t));
}

static struct chan *
cfind(const struct ctab *t, uint64_t k1, uint64_t k2)
{
	struct chan *c;
	size_t i;

	if (t->cap == 0)
		return NULL;
	for (i = mix(k1, k2) & (t->cap - 1); (c = &t->v[i])->state != FREE;
	    i = (i + 1) & (t->cap - 1))
		if (c->k1 == k1 && c->k2 == k2)
			return c;
	return NULL;
}

/*
 * Channel (k1, k2), or NULL with *slot the free slot that ends its
 * probe, where cadd() would put it.
 */
static struct chan *
cfind_slot(const struct ctab *t, uint64_t k1, uint64_t k2, struct chan **slot)
{
	struct chan *c;
	size_t i;

	*slot = NULL;
	if (t->cap == 0)
		return NULL;
	for (i = mix(k1, k2) & (t->cap - 1); (c = &t->v[i])->state != FREE;
	    i = (i + 1) & (t->cap - 1))
		if (c->k1 == k1 && c->k2 == k2)
			return c;
	*slot = c;
	return NULL;
}

/* A free slot for a new channel (k1, k2), or NULL when out of memory. */
static struct chan *
cadd(struct ctab *t, uint64_t k1, uint64_t k2)
{
	struct chan *nv, *c;
	size_t ncap, i, j;

	if (4 * (t->n + 1) > 3 * t->cap) {
		ncap = t->cap ? t->cap * 2 : 256;
		if ((nv = aligned_alloc(64, ncap * sizeof(*nv))) == NULL)
			return NULL;
		memset(nv, 0, ncap * sizeof(*nv));
		for (i = 0; i < t->cap; i++) {
			if (t->v[i].state == FREE)
				continue;
			for (j = mix(t->v[i].k1, t->v[i].k2) & (ncap - 1);
			    nv[j].state != FREE; j = (j + 1) & (ncap - 1))
				;
			nv[j] = t->v[i];
		}
		free(t->v);
		t->v = nv;
		t->cap = ncap;
	}
	for (i = mix(k1, k2) & (t->cap - 1); t->v[i].state != FREE;
	    i = (i + 1) & (t->cap - 1))
		;
	c = &t->v[i];
	c->k1 = k1;
	c->k2 = k2;
	t->n++;
	return c;
}

/* Empty slot c, shifting back the entries probed past it. */
static void
cdel(struct ctab *t, struct chan *c)
{
	size_t mask = t->cap - 1, i = (size_t)(c - t->v), j = i, k;

	for (;;) {
		j = (j + 1) & mask;
		if (t->v[j].state == FREE)
			break;
		k = mix(t->v[j].k1, t->v[j].k2) & mask;
		/* Move j into the hole unless its home lies in (i, j]. */
		if ((i <= j) ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		t->v[i] = t->v[j];
		i = j;
	}
	t->v[i].state = FREE;
	t->n--;
}

static void
keys(const struct trc_msg *m, uint64_t *k1, uint64_t *k2)
{
	*k1 = (uint64_t)(uint32_t)m->src << 32 | (uint32_t)m->dst;
	*k2 = (uint64_t)(uint32_t)m->tag << 32 | (uint32_t)m->comm;
}

/* Message cm of channel c as a whole trc_msg. */
static void
unpack(const struct chan *c, const struct cmsg *cm, struct trc_msg *m)
{
	m->src = (int32_t)(uint32_t)(c->k1 >> 32);
	m->dst = (int32_t)(uint32_t)c->k1;
	m->tag = (int32_t)(uint32_t)(c->k2 >> 32);
	m->comm = (int32_t)(uint32_t)c->k2;
	m->bytes = cm->bytes;
	m->val = cm->val;
	m->aux = cm->aux;
	m->aux2 = cm->aux2;
	m->line = cm->line;
	m->send = c->state == SENDS;
}

static void
pack(const struct trc_msg *m, struct cmsg *cm)
{
	cm->bytes = m->bytes;
	cm->val = m->val;
	cm->aux = m->aux;
	cm->aux2 = m->aux2;
	cm->line = m->line;
}

/* Free a channel's ring of further messages. */
static void
free_ring(struct qnode *last)
{
	struct qnode *q, *qn;

	if (last == NULL)
		return;
	for (q = last->next; q != last; q = qn) {
		qn = q->next;
		free(q);
	}
	free(last);
}

struct trc_match *
trc_match_new(void)
{
	return calloc(1, sizeof(struct trc_match));
}

void
trc_match_free(struct trc_match *mt)
{
	struct qnode *q, *qn;
	size_t i;

	if (mt == NULL)
		return;
	for (i = 0; i < mt->chans.cap; i++)
		if (mt->chans.v[i].state != FREE)
			free_ring(mt->chans.v[i].more);
	free(mt->chans.v);
	hfree(&mt->seqs);
	hfree(&mt->colls);
	free(mt->seq0);
	for (q = mt->freeq; q; q = qn) {
		qn = q->next;
		free(q);
	}
	free(mt);
}

static int
arrive(struct trc_match *mt, const struct trc_msg *m, int send,
    struct trc_msg *peer)
{
	uint64_t k1, k2;
	struct chan *c, *slot;
	struct qnode *q;

	keys(m, &k1, &k2);
	c = cfind_slot(&mt->chans, k1, k2, &slot);
	if (c != NULL && c->state != (send ? SENDS : RECVS)) {
		/* The other end is waiting: pair with the oldest. */
		unpack(c, &c->m, peer);
		if (c->more == NULL)
			cdel(&mt->chans, c);
		else {
			q = c->more->next;
			c->m = q->m;
			if (q == c->more)
				c->more = NULL;
			else
				c->more->next = q->next;
			q->next = mt->freeq;
			mt->freeq = q;
		}
		mt->pending--;
		return 1;
	}
	if (c == NULL) {
		/* The probe's end is the slot unless the table must grow. */
		if (slot != NULL && 4 * (mt->chans.n + 1) <= 3 * mt->chans.cap) {
			c = slot;
			c->k1 = k1;
			c->k2 = k2;
			mt->chans.n++;
		} else if ((c = cadd(&mt->chans, k1, k2)) == NULL)
			return -1;
		pack(m, &c->m);
		c->more = NULL;
		c->state = send ? SENDS : RECVS;
	} else {
		if ((q = mt->freeq) != NULL)
			mt->freeq = q->next;
		else if ((q = malloc(sizeof(*q))) == NULL)
			return -1;
		pack(m, &q->m);
		if (c->more == NULL)
			q->next = q;
		else {
			q->next = c->more->next;
			c->more->next = q;
		}
		c->more = q;
	}
	mt->pending++;
	return 0;
}

int
trc_match_send(struct trc_match *mt, const struct trc_msg *m,
    struct trc_msg *peer)
{
	return arrive(mt, m, 1, peer);
}

int
trc_match_recv(struct trc_match *mt, const struct trc_msg *m,
    struct trc_msg *peer)
{
	return arrive(mt, m, 0, peer);
}

int
trc_match_peek(const struct trc_match *mt, int32_t src, int32_t dst,
    int32_t tag, int32_t comm, struct trc_msg *m)
{
	uint64_t k1 = (uint64_t)(uint32_t)src << 32 | (uint32_t)dst;
	uint64_t k2 = (uint64_t)(uint32_t)tag << 32 | (uint32_t)comm;
	const struct chan *c = cfind(&mt->chans, k1, k2);

	if (c == NULL || c->state != SENDS)
		return 0;
	unpack(c, &c->m, m);
	return 1;
}

int
trc_match_peek_recv(const struct trc_match *mt, int32_t src, int32_t dst,
    int32_t tag, int32_t comm, struct trc_msg *m)
{
	uint64_t k1 = (uint64_t)(uint32_t)src << 32 | (uint32_t)dst;
	uint64_t k2 = (uint64_t)(uint32_t)tag << 32 | (uint32_t)comm;
	const struct chan *c = cfind(&mt->chans, k1, k2);

	if (c == NULL || c->state != RECVS)
		return 0;
	unpack(c, &c->m, m);
	return 1;
}

void
trc_match_prefetch(const struct trc_match *mt, int32_t src, int32_t dst,
    int32_t tag, int32_t comm)
{
#if defined(__GNUC__)
	uint64_t k1 = (uint64_t)(uint32_t)src << 32 | (uint32_t)dst;
	uint64_t k2 = (uint64_t)(uint32_t)tag << 32 | (uint32_t)comm;

	size_t mask = mt->chans.cap - 1, i = mix(k1, k2) & mask;

	/* Its slot, and the next, which a probe or a removal reads. */
	if (mt->chans.cap > 0) {
		__builtin_prefetch(&mt->chans.v[i]);
		__builtin_prefetch(&mt->chans.v[(i + 1) & mask]);
	}
#else
	(void)mt, (void)src, (void)dst, (void)tag, (void)comm;
#endif
}

int
trc_match_peek_any(const struct trc_match *mt, int32_t dst, int32_t tag,
    int32_t comm, struct trc_msg *m)
{
	const struct chan *c;
	struct trc_msg h;
	size_t i;
	int found = 0;

	for (i = 0; i < mt->chans.cap; i++) {
		c = &mt->chans.v[i];
		if (c->state != SENDS)
			continue;
		unpack(c, &c->m, &h);
		if (h.dst != dst || h.comm != comm ||
		    (tag != TRC_ANY && h.tag != tag))
			continue;
		/* Ties go to the earlier line, as the stream had them. */
		if (!found || h.val < m->val ||
		    (h.val == m->val && h.line < m->line)) {
			*m = h;
			found = 1;
		}
	}
	return found;
}

int
trc_match_heads(const struct trc_match *mt, int32_t dst,
    int (*fn)(void *, const struct trc_msg *), void *arg)
{
	const struct chan *c;
	struct trc_msg h;
	size_t i;
	int rc;

	for (i = 0; i < mt->chans.cap; i++) {
		c = &mt->chans.v[i];
		if (c->state != SENDS)
			continue;
		unpack(c, &c->m, &h);
		if (h.dst == dst && (rc = fn(arg, &h)) != 0)
			return rc;
	}
	return 0;
}

int
trc_match_take(struct trc_match *mt, const struct trc_msg *m)
{
	uint64_t k1, k2;
	const struct chan *c;
	struct trc_msg peer;

	keys(m, &k1, &k2);
	c = cfind(&mt->chans, k1, k2);
	if (c == NULL || c->state != SENDS)
		return -1;
	/* A receive of the same channel pairs with the oldest send. */
	return arrive(mt, m, 0, &peer) == 1 ? 0 : -1;
}

int
trc_match_set(struct trc_match *mt, const struct trc_msg *m)
{
	uint64_t k1, k2;
	struct chan *c;
	struct cmsg *cm;

	keys(m, &k1, &k2);
	c = cfind(&mt->chans, k1, k2);
	if (c == NULL || c->state != SENDS)
		return -1;
	/* The newest is the ring's last node, or the oldest when alone. */
	cm = c->more != NULL ? &c->more->m : &c->m;
	cm->val = m->val;
	cm->aux = m->aux;
	cm->aux2 = m->aux2;
	return 0;
}

size_t
trc_match_pending(const struct trc_match *mt)
{
	return mt->pending;
}

static int
byline(const void *a, const void *b)
{
	const struct trc_msg *x = a, *y = b;

	return (x->line > y->line) - (x->line < y->line);
}

int
trc_match_oldest(const struct trc_match *mt, struct trc_msg *m)
{
	struct trc_msg x;
	size_t i;
	int found = 0;

	for (i = 0; i < mt->chans.cap; i++) {
		if (mt->chans.v[i].state == FREE)
			continue;
		unpack(&mt->chans.v[i], &mt->chans.v[i].m, &x);
		if (!found || x.line < m->line)
			*m = x;
		found = 1;
	}
	return found;
}

int
trc_msg_max(size_t *max)
{
	return trc_env_size("TRC_MSG_MAX", TRC_MSG_MAX_DEFAULT, max);
}

long
trc_match_too_many(const struct trc_match *mt, char *err, size_t len)
{
	struct trc_msg m;

	if (!trc_match_oldest(mt, &m)) {
		snprintf(err, len, "out of memory");
		return 0;
	}
	snprintf(err, len, "%s %s rank %ld tag %ld comm %ld still unmatched "
	    "with %zu messages in flight (TRC_MSG_MAX)", m.send ? "send" :
	    "receive", m.send ? "to" : "from", (long)(m.send ? m.dst : m.src),
	    (long)m.tag, (long)m.comm, mt->pending);
	return m.line;
}

struct trc_msg *
trc_match_leftovers(struct trc_match *mt, size_t *n)
{
	struct trc_msg *v;
	struct chan *c;
	struct qnode *q;
	size_t i, k = 0;

	*n = 0;
	if (mt->pending == 0)
		return NULL;
	if ((v = malloc(mt->pending * sizeof(*v))) == NULL) {
		*n = (size_t)-1;
		return NULL;
	}
	for (i = 0; i < mt->chans.cap; i++) {
		c = &mt->chans.v[i];
		if (c->state == FREE)
			continue;
		unpack(c, &c->m, &v[k++]);
		if (c->more != NULL) {
			q = c->more;
			do {
				q = q->next;
				unpack(c, &q->m, &v[k++]);
			} while (q != c->more);
			free_ring(c->more);
		}
		c->state = FREE;
	}
	mt->chans.n = 0;
	mt->pending = 0;
	qsort(v, k, sizeof(*v), byline);
	*n = k;
	return v;
}

struct trc_coll *
trc_coll_enter(struct trc_match *mt, int32_t comm, int32_t rank, long line)
{
	uint64_t kc = (uint32_t)comm;
	struct seqc *s = NULL;
	struct cinst *ci;
	int64_t seq, *nv;
	size_t n;

	if (comm == 0 && rank >= 0) {
		/* The world's sequence numbers in an array, by rank. */
		if ((size_t)rank >= mt->nseq0) {
			for (n = mt->nseq0 ? mt->nseq0 : 64; n <= (size_t)rank;)
				n *= 2;
			if ((nv = realloc(mt->seq0, n * sizeof(*nv))) == NULL)
				return NULL;
			memset(nv + mt->nseq0, 0, (n - mt->nseq0) * sizeof(*nv));
			mt->seq0 = nv;
			mt->nseq0 = n;
		}
		seq = mt->seq0[rank];
	} else if ((s = (struct seqc *)hfind(&mt->seqs, kc,
	    (uint32_t)rank)) == NULL) {
		if ((s = malloc(sizeof(*s))) == NULL)
			return NULL;
		s->h.k1 = kc;
		s->h.k2 = (uint32_t)rank;
		s->next = 0;
		if (hinsert(&mt->seqs, &s->h) < 0) {
			free(s);
			return NULL;
		}
	}
	if (s != NULL)
		seq = s->next;
	ci = (struct cinst *)hfind(&mt->colls, kc, (uint64_t)seq);
	if (ci == NULL) {
		if ((ci = calloc(1, sizeof(*ci))) == NULL)
			return NULL;
		ci->h.k1 = kc;
		ci->h.k2 = (uint64_t)seq;
		ci->c.comm = comm;
		ci->c.seq = seq;
		ci->c.line = line;
		ci->c.rank = rank;
		if (hinsert(&mt->colls, &ci->h) < 0) {
			free(ci);
			return NULL;
		}
	}
	if (s != NULL)
		s->next++;
	else
		mt->seq0[rank]++;
	ci->c.arrived++;
	return &ci->c;
}

void
trc_coll_release(struct trc_match *mt, struct trc_coll *c)
{
	struct cinst *ci = (struct cinst *)((char *)c -
	    offsetof(struct cinst, c));

	hremove(&mt->colls, &ci->h);
	free(ci);
}

size_t
trc_coll_pending(const struct trc_match *mt)
{
	return mt->colls.n;
}

const struct trc_coll *
trc_coll_oldest(const struct trc_match *mt)
{
	const struct trc_coll *best = NULL;
	struct hnode *p;
	size_t i;

	for (i = 0; i < mt->colls.cap; i++)
		for (p = mt->colls.b[i]; p; p = p->next) {
			const struct trc_coll *c = &((struct cinst *)p)->c;

			if (best == NULL || c->line < best->line)
				best = c;
		}
	return best;
}
