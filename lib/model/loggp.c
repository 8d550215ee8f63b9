/*
 * loggp.c - a parametric model of the target's network (trc-loggp(5)):
 * LogGP (Alexandrov et al., 1995) with an eager limit, a rendezvous
 * and a latency per hop, after VACED-SIM and LogGOPSim.  Computation
 * by ratios, as every model.
 *
 * A message of b bytes from a to b: the sender's overhead o, the
 * latency lat = L + H hops(a, b), the bytes at G each, the receiver's
 * overhead o.  A rank injects messages no closer than g apart, nor
 * closer than the G b its last one took.  Up to the eager limit a
 * message leaves when its send has spent o (blocking sends end there);
 * beyond it, it is handed over: the request leaves then, reaches the
 * receiver lat later, which answers once ready (o, lat), and the data
 * leaves o + R after that answer arrives (R down to -(2L + 2o), a
 * handover cheaper than the two small messages, as shared memory's);
 * a blocking send ends when its data has left (G b after).  A receive ends o after its message
 * arrived, or o after it began if it was there already; a wait costs
 * o.  A send or receive after TRC_COLD_NS of computation on its rank
 * spends oc more than o, its caches cold (trc_p2p).  Collectives are built from messages by coll.c.
 *
 * Contention (contention on), as LogGOPSim's NICs and VACED-SIM's
 * links: a node has one link to the network each way, which carries
 * one message between nodes at a time, for max(g, G b); a message
 * waits for its node's outgoing link to leave and for the receiving
 * node's incoming link to arrive.  The links are taken in the order the
 * replay costs the messages, which is the trace's, close to their
 * predicted order; messages within a node and collectives (costed as a
 * whole) take none, nor do the torus's inner links.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "model.h"
#include "coll.h"

#define MAXDIM	3

struct param {
	double		 L, o, g, G, R, H, gamma, oc, occ;
	int		 contention;
	int64_t		 eager;		/* INT64_MAX: no limit */
	int32_t		 ppn;		/* ranks per node */
	int32_t		 dim[MAXDIM];	/* the torus, ndim 0: none */
	int		 ndim;
	unsigned	 given;		/* bits of names[] */
};

static const char *const names[] = {
	"L", "o", "g", "G", "eager", "R", "H", "gamma", "ppn", "torus",
	"contention", "oc", "occ"
};
enum { P_L, P_O, P_GAP, P_G, P_EAGER, P_R, P_H, P_GAMMA, P_PPN, P_TORUS,
	P_CONTENTION, P_OC, P_OCC, NPARAM };
#define REQUIRED	((1u << P_L) | (1u << P_O) | (1u << P_G))

struct loggp {
	struct trc_cpu	 cpu;
	struct param	 p;
	int64_t		 L, o, g, R, H, oc, occ;	/* nanoseconds */
	double		 meanhops;	/* between two ranks, for collectives */
	struct coll_net	 net;
	struct coll_memo memo;
	struct trc_pages nic;		/* per rank: free to inject from */
	int64_t		*link;		/* per node, out and in: free from */
	size_t		 nlink;
};

/*
 * No parameter is over a day (of seconds, or seconds a byte): the
 * sums of a message's parameters then stay far inside the clock
 * (TRC_TIME_MAX, trc.h), and a value past it is a typo.
 */
#define LOGGP_MAX	86400.0

static int
parse_real(const char *s, double *v, int sign)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (end == s || *end != '\0' || errno == ERANGE || !isfinite(*v) ||
	    (*v < 0 && !sign))
		return -1;
	return 0;
}

static int
parse_count(const char *s, int64_t max, int64_t *v)
{
	if (trc_parse_int(s, strlen(s), v) < 0 || *v < 1 || *v > max)
		return -1;
	return 0;
}

/* Parameter name = val: 0, or -1 with a message in err. */
static int
set(struct param *p, const char *name, const char *val, char *err,
    size_t errlen)
{
	double *real[] = { &p->L, &p->o, &p->g, &p->G, NULL, &p->R, &p->H,
	    &p->gamma, NULL, NULL, NULL, &p->oc, &p->occ };
	char buf[64], *d, *save;
	int64_t n;
	int i;

	for (i = 0; i < NPARAM; i++)
		if (strcmp(names[i], name) == 0)
			break;
	if (i == NPARAM)
		return trc_errorf(err, errlen, "unknown parameter '%s'", name);
	if (i == P_EAGER) {
		if (strcmp(val, "inf") == 0)
			p->eager = INT64_MAX;
		else if (trc_parse_int(val, strlen(val), &n) < 0 || n < 0)
			goto bad;
		else
			p->eager = n;
	} else if (i == P_PPN) {
		if (parse_count(val, INT32_MAX, &n) < 0)
			goto bad;
		p->ppn = (int32_t)n;
	} else if (i == P_CONTENTION) {
		if (strcmp(val, "on") == 0)
			p->contention = 1;
		else if (strcmp(val, "off") == 0)
			p->contention = 0;
		else
			goto bad;
	} else if (i == P_TORUS) {
		if (strlen(val) >= sizeof(buf))
			goto bad;
		strcpy(buf, val);
		p->ndim = 0;
		for (d = strtok_r(buf, "x", &save); d != NULL;
		    d = strtok_r(NULL, "x", &save)) {
			if (p->ndim == MAXDIM || parse_count(d, 1 << 20, &n) < 0)
				goto bad;
			p->dim[p->ndim++] = (int32_t)n;
		}
		if (p->ndim == 0)
			goto bad;
	} else if (parse_real(val, real[i], i == P_R) < 0)
		goto bad;
	else if (fabs(*real[i]) > LOGGP_MAX)
		return trc_errorf(err, errlen, "'%s' %s is past %g s", name,
		    val, LOGGP_MAX);
	p->given |= 1u << i;
	return 0;
bad:
	return trc_errorf(err, errlen, "invalid value '%s' for '%s'", val,
	    name);
}

static int
load(struct param *p, const char *path, char *err, size_t errlen)
{
	struct trc_table *t;
	char msg[256];
	unsigned seen = 0;
	int rc, i;

	if ((t = trc_table_open(path)) == NULL)
		return trc_errorf(err, errlen, "out of memory");
	while ((rc = trc_table_next(t)) > 0) {
		if (t->nfield == 0)
			continue;
		if (t->nfield != 2) {
			trc_table_fail(t, "expected NAME VALUE, found %d fields",
			    t->nfield);
			break;
		}
		for (i = 0; i < NPARAM; i++)
			if (strcmp(names[i], t->field[0]) == 0)
				break;
		if (i < NPARAM && (seen & (1u << i))) {
			trc_table_fail(t, "'%s' given twice", t->field[0]);
			break;
		}
		if (set(p, t->field[0], t->field[1], msg, sizeof(msg)) < 0) {
			trc_table_fail(t, "%s", msg);
			break;
		}
		seen |= 1u << i;
	}
	if (rc != 0 || t->failed) {
		trc_errorf(err, errlen, "%s", trc_table_error(t));
		trc_table_close(t);
		return -1;
	}
	for (i = 0; i < NPARAM; i++)
		if ((REQUIRED & (1u << i)) && !(seen & (1u << i))) {
			trc_errorf(err, errlen, "%s: missing parameter '%s'",
			    t->name, names[i]);
			trc_table_close(t);
			return -1;
		}
	trc_table_close(t);
	return 0;
}

/* "NAME=VALUE,...": 0, or -1 with a message in err. */
static int
overrides(struct param *p, const char *list, char *err, size_t errlen)
{
	char *buf, *it, *eq, *save, msg[256];
	int rc = 0;

	if ((buf = strdup(list)) == NULL)
		return trc_errorf(err, errlen, "out of memory");
	for (it = strtok_r(buf, ",", &save); it != NULL && rc == 0;
	    it = strtok_r(NULL, ",", &save)) {
		if ((eq = strchr(it, '=')) == NULL)
			rc = trc_errorf(err, errlen, "--set: expected "
			    "NAME=VALUE, found '%s'", it);
		else {
			*eq = '\0';
			if (set(p, it, eq + 1, msg, sizeof(msg)) < 0)
				rc = trc_errorf(err, errlen, "--set: %s", msg);
		}
	}
	free(buf);
	return rc;
}

/* Hops between ranks a and b. */
static int64_t
hops(const struct param *p, int32_t a, int32_t b)
{
	int64_t na = a / p->ppn, nb = b / p->ppn, h = 0, d, ca, cb;
	int i;

	if (na == nb)
		return 0;
	if (p->ndim == 0)
		return 1;
	/* Nodes in row-major order, wrapping around the torus. */
	for (i = 0; i < p->ndim; i++) {
		ca = na % p->dim[i];
		cb = nb % p->dim[i];
		na /= p->dim[i];
		nb /= p->dim[i];
		d = ca > cb ? ca - cb : cb - ca;
		h += d < p->dim[i] - d ? d : p->dim[i] - d;
	}
	return h > 0 ? h : 1;
}

/* The mean hops between two positions of the torus (1 without one). */
static double
torus_mean(const struct param *p)
{
	double h = 0, s;
	int32_t d, D;
	int i;

	if (p->ndim == 0)
		return 1;
	for (i = 0; i < p->ndim; i++) {
		D = p->dim[i];
		for (s = 0, d = 0; d < D; d++)
			s += d < D - d ? d : D - d;
		h += s / D;
	}
	return h;
}

/*
 * a + b for times and lengths, either of which may be negative (R) or
 * TRC_TIME_OVER: TRC_TIME_OVER when past TRC_TIME_MAX, so that a
 * message of G 86400 s a byte, or many of them, never wraps the clock
 * and the engine names the event (fuzz/regress/fit).
 */
static int64_t
tadd(int64_t a, int64_t b)
{
	if (a > TRC_TIME_MAX || b > TRC_TIME_MAX || a < -TRC_TIME_MAX ||
	    b < -TRC_TIME_MAX || a + b > TRC_TIME_MAX)
		return TRC_TIME_OVER;
	return a + b;
}

static int64_t
lat(const struct loggp *m, int32_t a, int32_t b)
{
	int64_t h = m->H > 0 ? hops(&m->p, a, b) : 0;

	if (h > 0 && h > TRC_TIME_MAX / m->H)
		return TRC_TIME_OVER;
	return tadd(m->L, m->H * h);
}

static int64_t
bytes_ns(const struct loggp *m, int64_t b)
{
	return trc_ns(m->p.G * (double)b);
}

/* One message of b bytes for the collectives, in seconds. */
static double
coll_msg(const void *arg, double b)
{
	const struct loggp *m = arg;
	const struct param *p = &m->p;
	double l = p->L + p->H * m->meanhops, t = l + 2 * p->o + p->G * b;

	if (b > (double)p->eager)
		t += 2 * l + 2 * p->o + p->R;	/* the handshake */
	return t;
}

static void
lg_free(void *v)
{
	struct loggp *m = v;

	if (m == NULL)
		return;
	trc_cpu_fini(&m->cpu);
	trc_pages_free(&m->nic);
	free(m->link);
	free(m);
}

static void *
lg_new(const struct trc_model_conf *conf, char *err, size_t errlen)
{
	struct loggp *m;
	double least;

	if (conf->path == NULL) {
		trc_errorf(err, errlen, "model 'loggp' needs a file: "
		    "loggp:FILE");
		return NULL;
	}
	if ((m = calloc(1, sizeof(*m))) == NULL) {
		trc_errorf(err, errlen, "out of memory");
		return NULL;
	}
	trc_cpu_init(&m->cpu, conf);
	m->p.eager = INT64_MAX;
	m->p.ppn = 1;
	if (load(&m->p, conf->path, err, errlen) < 0 || (conf->set != NULL &&
	    overrides(&m->p, conf->set, err, errlen) < 0)) {
		lg_free(m);
		return NULL;
	}
	/* A handover may cost less than two small messages (shared
	 * memory's, whose receiver copies the data itself), not less
	 * than nothing. */
	least = -(2 * m->p.L + 2 * m->p.o);
	if (m->p.R < least * (1 + 1e-6)) {
		trc_errorf(err, errlen, "R %g is below -(2L + 2o) = %g",
		    m->p.R, least);
		lg_free(m);
		return NULL;
	}
	if (m->p.R < least)
		m->p.R = least;	/* printed to 9 digits */
	m->L = trc_ns(m->p.L);
	m->o = trc_ns(m->p.o);
	m->g = trc_ns(m->p.g);
	m->R = m->p.R < 0 ? -trc_ns(-m->p.R) : trc_ns(m->p.R);
	m->H = trc_ns(m->p.H);
	m->oc = trc_ns(m->p.oc);
	/* A collective's cold overhead, oc unless given. */
	m->occ = m->p.given & (1u << P_OCC) ? trc_ns(m->p.occ) : m->oc;
	m->meanhops = torus_mean(&m->p);
	m->net.msg = coll_msg;
	m->net.arg = m;
	m->net.gamma = m->p.gamma;
	return m;
}

static int
lg_comp(void *v, int32_t rank, int64_t d, int64_t *dp)
{
	return trc_cpu_comp(&((struct loggp *)v)->cpu, rank, d, dp);
}

static int
lg_region(void *v, int32_t rank, const struct trc_str *fn)
{
	return trc_cpu_region(&((struct loggp *)v)->cpu, rank, fn);
}

/* Rank r's injection clock, or NULL when out of memory. */
static int64_t *
nic(struct loggp *m, int32_t r)
{
	if (r < 0)
		return NULL;
	m->nic.elsize = sizeof(int64_t);
	return trc_pages_get(&m->nic, (size_t)r);
}

/* Node n's outgoing (dir 0) or incoming (1) link, NULL: no memory. */
static int64_t *
link_of(struct loggp *m, int64_t n, int dir)
{
	int64_t *p;
	size_t k;

	if (n < 0 || n > INT32_MAX)
		return NULL;
	if ((size_t)(2 * n + 1) >= m->nlink) {
		k = m->nlink ? m->nlink : 64;
		while (k <= (size_t)(2 * n + 1))
			k *= 2;
		if ((p = realloc(m->link, k * sizeof(*p))) == NULL)
			return NULL;
		memset(p + m->nlink, 0, (k - m->nlink) * sizeof(*p));
		m->link = p;
		m->nlink = k;
	}
	return &m->link[2 * n + dir];
}

/*
 * A message of gb on the wire, from src to dst, ready to leave at *dep:
 * with contention, *dep no earlier than src's node's link is free, and
 * the time its last byte is in at dst's node.  -1: out of memory.
 */
static int
wire(struct loggp *m, int32_t src, int32_t dst, int64_t *dep, int64_t gb,
    int64_t *in)
{
	int64_t *out, *inl, busy = m->g > gb ? m->g : gb, t;

	t = tadd(*dep, lat(m, src, dst));
	if (!m->p.contention || hops(&m->p, src, dst) == 0) {
		*in = tadd(t, gb);
		return 0;
	}
	if ((out = link_of(m, src / m->p.ppn, 0)) == NULL ||
	    (inl = link_of(m, dst / m->p.ppn, 1)) == NULL)
		return -1;
	if (*out > *dep) {
		t = tadd(t, *out - *dep);
		*dep = *out;
	}
	*out = tadd(*dep, busy);
	if (*inl > t)
		t = *inl;
	*inl = tadd(t, busy);
	*in = tadd(t, gb);
	return 0;
}

/*
 * A call's overhead on rank: o, and after computation (cold) oc more,
 * or as much of it as the rank's calls ran cold on the base
 * (trc_cold_of).
 */
static int64_t
o_of(struct loggp *m, const struct trc_p2p *mp, int32_t rank)
{
	if (mp->idle < TRC_COLD_NS)
		return m->o;
	return tadd(m->o, (int64_t)llround(trc_cold_of(&m->cpu, rank) *
	    (double)m->oc));
}

static int
lg_learn(void *v, const struct trc_p2p *m, int op, int64_t d)
{
	return trc_cold_learn(&((struct loggp *)v)->cpu, m, op, d);
}

static int
lg_coldness(void *v, int32_t rank, double *x, double *n)
{
	return trc_cold_measured(&((struct loggp *)v)->cpu, rank, x, n);
}

static void
lg_outliers(void *v, unsigned long long *n, int64_t *excess)
{
	trc_cpu_outliers(&((struct loggp *)v)->cpu, n, excess);
}

static int
lg_send(void *v, const struct trc_p2p *mp, int64_t begin, int64_t sb,
    int64_t se, struct trc_xfer *x)
{
	struct loggp *m = v;
	int64_t *free_at, dep, gb = bytes_ns(m, mp->bytes);

	(void)se;
	if ((free_at = nic(m, mp->src)) == NULL) {
		snprintf(m->cpu.err, sizeof(m->cpu.err), "out of memory");
		return -1;
	}
	dep = tadd(begin, o_of(m, mp, mp->src));
	if (*free_at > dep)
		dep = *free_at;
	x->base = sb;
	if ((x->rdv = mp->bytes > m->p.eager)) {
		/* The request to send: the data waits for the receiver. */
		x->arrive = tadd(tadd(dep, lat(m, mp->src, mp->dst)), m->o);
		*free_at = tadd(dep, m->g);
	} else {
		if (wire(m, mp->src, mp->dst, &dep, gb, &x->arrive) < 0) {
			snprintf(m->cpu.err, sizeof(m->cpu.err),
			    "out of memory");
			return -1;
		}
		x->arrive = tadd(x->arrive, m->o);
		*free_at = tadd(dep, m->g > gb ? m->g : gb);
	}
	x->depart = dep;
	x->end = mp->nonblocking ? tadd(begin, o_of(m, mp, mp->src)) : dep;
	return 0;
}

static void
lg_handover(void *v, const struct trc_p2p *mp, int64_t ready,
    struct trc_xfer *x)
{
	struct loggp *m = v;
	int64_t l = lat(m, mp->src, mp->dst), gb = bytes_ns(m, mp->bytes);
	int64_t t = tadd(x->depart, l), req = x->depart;

	/* The request is there and the receiver ready: it answers, cold
	 * when it came from a computation (m's idle, sc_handover). */
	if (ready > t)
		t = ready;
	x->depart = tadd(tadd(tadd(tadd(t, o_of(m, mp, mp->dst)), l), m->o),
	    m->R);
	if (x->depart < req)
		x->depart = req;	/* R rounded on its own */
	if (wire(m, mp->src, mp->dst, &x->depart, gb, &x->arrive) < 0)
		x->arrive = tadd(tadd(x->depart, l), gb);	/* no memory: no contention */
	x->arrive = tadd(x->arrive, m->o);
	if (tadd(x->depart, gb) > x->end)
		x->end = tadd(x->depart, gb);
}

static int64_t
lg_recv(void *v, const struct trc_p2p *mp, int64_t ready, int64_t d)
{
	(void)d;
	return tadd(ready, o_of(v, mp, mp->dst));
}

static int64_t
lg_wait(void *v, int32_t rank, int64_t begin, int64_t d, int64_t sbytes)
{
	(void)rank;
	(void)d;
	(void)sbytes;
	return tadd(begin, ((struct loggp *)v)->o);
}

/* A collective by its algorithm; occ more when its last participant
 * came from a computation, or the part of it fit_coll takes of the
 * cold fit. */
static int64_t
lg_coll(void *v, const struct trc_coll_call *c)
{
	struct loggp *m = v;
	double t;
	int64_t ns;

	if (!trc_coll_memo_get(&m->memo, c->op, c->oplen, c->bytes, c->size,
	    &ns)) {
		t = trc_coll_cost(&m->net, c->op, c->oplen, c->size, c->bytes);
		ns = t < 0 ? -1 : trc_ns(t);
		trc_coll_memo_put(&m->memo, c->op, c->oplen, c->bytes, c->size,
		    ns);
	}
	if (ns < 0)
		return c->d;
	return tadd(ns, (int64_t)llround(trc_coll_coldness(&m->cpu, c) *
	    (double)m->occ));
}

static int64_t
lg_bound(void *v, int32_t rank, enum trc_phase ph, int64_t tp, int64_t dt)
{
	struct loggp *m = v;

	/* Calls cost what the parameters say, never less than nothing. */
	if (ph == TRC_PHASE_COMP)
		return tadd(tp, trc_cpu_bound(&m->cpu, rank, dt));
	return tp;
}

static const char *
lg_error(void *v)
{
	return ((struct loggp *)v)->cpu.err;
}

const struct trc_model_ops trc_model_loggp_ops = {
	.name = "loggp",
	.new = lg_new,
	.comp = lg_comp,
	.region = lg_region,
	.learn = lg_learn,
	.coldness = lg_coldness,
	.outliers = lg_outliers,
	.send = lg_send,
	.handover = lg_handover,
	.recv = lg_recv,
	.wait = lg_wait,
	.coll = lg_coll,
	.bound = lg_bound,
	.error = lg_error,
	.free = lg_free,
};
