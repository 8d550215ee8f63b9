/*
 * dimemas.c - Dimemas .dim traces (the format Dimemas 5 reads, that
 * prv2dim writes), written.
 *
 *	#DIMEMAS:"name":1,OFFSETS:TASKS(1,...,1),COMMS,0,0
 *	d:1:COMM:NTASKS:TASK:...	a communicator
 *	1:TASK:0:SECONDS		a CPU burst
 *	2:TASK:0:DEST:-1:BYTES:TAG:COMM:SYNC	a send
 *	3:TASK:0:SRC:-1:BYTES:TAG:COMM:TYPE	recv (0), irecv (1), wait (2)
 *	10:TASK:0:OP:COMM:ROOT:0:SEND:RECV:1	a global operation
 *	20:TASK:0:TYPE:VALUE		an event
 *	s:TASK:OFFSET			where each task's records start
 *
 * Dimemas reads each task's records as one block, tasks in order, so a
 * task's records are kept apart as they come (in memory, then in a
 * temporary file by blocks) and put together at the end.  Every task
 * starts with a CPU burst, as Dimemas silently drops a thread whose
 * first record is not one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"

#define SPILL		(1 << 16)	/* a task's block goes to the file */
#define OFFW		15		/* digits kept for the offsets' offset */
#define EV_USERFN	60000019	/* Extrae's user function events */

struct chunk {
	int32_t		 rank;
	off_t		 off;
	size_t		 len;
};

/* Where an irecv from any source goes, written when it completes. */
struct hole {
	size_t		 off;
	int64_t		 req, bytes;
	int32_t		 comm;
};

struct comm {
	unsigned char	*in;		/* in[rank]: a member */
	int32_t		 n;
	int		 seen;
};

struct drank {
	char		*buf;
	size_t		 len, cap;
	struct hole	*holes;		/* irecvs from any source */
	size_t		 nholes, capholes;
	off_t		 spilled;	/* bytes in the temporary file */
	int64_t		 last;		/* where the next burst starts */
	int		 started;
};

struct dim {
	int		 fd;
	char		*name, *title;
	int		 tmp;		/* the temporary file */
	off_t		 tmplen;
	struct chunk	*chunks;
	size_t		 nchunks, capchunks;
	struct drank	*rk;
	int32_t		 n, cap, ranks;
	struct comm	*comms;		/* by trc comm id, 0 the world */
	int32_t		 ncomms;
	struct trc_intern fns;		/* region names, ids from 1 */
};

static void
d_free(void *state)
{
	struct dim *d = state;
	int32_t i;

	if (d == NULL)
		return;
	for (i = 0; i < d->n; i++) {
		free(d->rk[i].buf);
		free(d->rk[i].holes);
	}
	for (i = 0; i < d->ncomms; i++)
		free(d->comms[i].in);
	free(d->rk);
	free(d->chunks);
	free(d->comms);
	trc_intern_free(&d->fns);
	if (d->tmp >= 0)
		close(d->tmp);
	if (d->fd > 1)
		close(d->fd);
	free(d->name);
	free(d->title);
	free(d);
}

static int
d_open(struct trc_out *out, const char *path, const struct trc_header *h)
{
	struct dim *d;
	const char *dir, *base, *file;
	char *tmpl, *p;
	int stdout_ = path == NULL || strcmp(path, "-") == 0;
	size_t n;

	if ((d = calloc(1, sizeof(*d))) == NULL)
		return trc_out_fail(out, "out of memory");
	trc_out_set_state(out, d);
	d->fd = 1;
	d->tmp = -1;
	d->ranks = h != NULL ? h->ranks : 0;
	if ((d->name = strdup(stdout_ ? "<stdout>" : path)) == NULL)
		return trc_out_fail(out, "out of memory");
	/* The trace's name: the file's, without folder or .dim. */
	base = stdout_ ? "trc" : (p = strrchr(path, '/')) ? p + 1 : path;
	n = strlen(base);
	if (n > 4 && strcmp(base + n - 4, ".dim") == 0)
		n -= 4;
	if ((d->title = malloc(n + 1)) == NULL)
		return trc_out_fail(out, "out of memory");
	memcpy(d->title, base, n);
	d->title[n] = '\0';
	for (p = d->title; *p != '\0'; p++)
		if (*p == '"' || *p == ':' || *p == '\n')
			*p = '_';
	/* Written under a temporary name, renamed when complete. */
	if (!stdout_ && ((file = trc_out_part(out, path)) == NULL ||
	    (d->fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0))
		return trc_out_fail(out, "%s: %s", path, strerror(errno));
	if ((dir = getenv("TMPDIR")) == NULL || *dir == '\0')
		dir = "/tmp";
	if ((tmpl = malloc(strlen(dir) + 32)) == NULL)
		return trc_out_fail(out, "out of memory");
	sprintf(tmpl, "%s/trc-dimemas.XXXXXX", dir);
	if ((d->tmp = mkstemp(tmpl)) < 0) {
		trc_out_fail(out, "%s: %s", tmpl, strerror(errno));
		free(tmpl);
		return -1;
	}
	unlink(tmpl);
	free(tmpl);
	return 0;
}

static struct drank *
d_rank(struct trc_out *out, struct dim *d, int32_t r)
{
	struct drank *nv;
	int32_t cap;

	if (r >= d->cap) {
		cap = d->cap ? d->cap : 64;
		while (cap <= r)
			cap *= 2;
		if ((nv = realloc(d->rk, (size_t)cap * sizeof(*nv))) == NULL) {
			trc_out_fail(out, "out of memory");
			return NULL;
		}
		memset(nv + d->cap, 0, (size_t)(cap - d->cap) * sizeof(*nv));
		d->rk = nv;
		d->cap = cap;
	}
	if (r >= d->n)
		d->n = r + 1;
	return &d->rk[r];
}

static char *
d_room(struct trc_out *out, struct drank *k, size_t n)
{
	if (trc_grow(&k->buf, &k->cap, k->len + n, 1, 4096) < 0) {
		trc_out_fail(out, "out of memory");
		return NULL;
	}
	return k->buf + k->len;
}

/* ":N" fields. */
static char *
f(char *p, int64_t v)
{
	*p++ = ':';
	return p + trc_format_int(p, v);
}

/* "KIND:TASK:0" at p: past it. */
static char *
head(char *p, int kind, int32_t r)
{
	p += trc_format_int(p, kind);
	p = f(p, r);
	return f(p, 0);
}

/* A record "KIND:TASK:0" begun in the rank's text. */
static char *
rec(struct trc_out *out, struct drank *k, int kind, int32_t r)
{
	char *p;

	if ((p = d_room(out, k, 256)) == NULL)
		return NULL;
	return head(p, kind, r);
}

static void
end(struct drank *k, char *p)
{
	*p++ = '\n';
	k->len = (size_t)(p - k->buf);
}

/* The record of a CPU burst of dt on task r, "1:r:0:SECONDS\n", into
 * buf (64 bytes are enough): its length. */
static size_t
burst_text(char *buf, int32_t r, int64_t dt)
{
	char *p = head(buf, 1, r);

	*p++ = ':';
	p += trc_format_time(p, dt);
	*p++ = '\n';
	return (size_t)(p - buf);
}

/* The CPU burst up to t; the first record of a task always is one. */
static int
burst(struct trc_out *out, struct drank *k, int32_t r, int64_t t)
{
	char *p;

	if (k->started && t <= k->last)
		return 0;
	if ((p = d_room(out, k, 64)) == NULL)
		return -1;
	k->len += burst_text(p, r, t > k->last ? t - k->last : 0);
	k->started = 1;
	k->last = t;
	return 0;
}

/* Move the rank's text before its first hole to the temporary file. */
static int
spill(struct trc_out *out, struct dim *d, int32_t r, struct drank *k)
{
	struct chunk *c;
	size_t n = k->nholes > 0 ? k->holes[0].off : k->len, i, cap;
	const char *s = k->buf;
	ssize_t w;

	if (n < SPILL)
		return 0;
	if (d->nchunks == d->capchunks) {
		cap = d->capchunks ? 2 * d->capchunks : 64;
		if ((c = realloc(d->chunks, cap * sizeof(*c))) == NULL)
			return trc_out_fail(out, "out of memory");
		d->chunks = c;
		d->capchunks = cap;
	}
	c = &d->chunks[d->nchunks++];
	c->rank = r;
	c->off = d->tmplen;
	c->len = n;
	for (i = 0; i < n; i += (size_t)w)
		if ((w = write(d->tmp, s + i, n - i)) < 0) {
			if (errno == EINTR) {
				w = 0;
				continue;
			}
			return trc_out_fail(out, "temporary file: %s",
			    strerror(errno));
		}
	d->tmplen += (off_t)n;
	k->spilled += (off_t)n;
	memmove(k->buf, k->buf + n, k->len - n);
	k->len -= n;
	for (i = 0; i < k->nholes; i++)
		k->holes[i].off -= n;
	return 0;
}

/* An irecv from any source: a hole, filled at its completion. */
static int
hole(struct trc_out *out, struct drank *k, const struct trc_event *ev)
{
	struct hole *h;
	size_t cap;

	if (k->nholes == k->capholes) {
		cap = k->capholes ? 2 * k->capholes : 4;
		if ((h = realloc(k->holes, cap * sizeof(*h))) == NULL)
			return trc_out_fail(out, "out of memory");
		k->holes = h;
		k->capholes = cap;
	}
	h = &k->holes[k->nholes++];
	h->off = k->len;
	h->req = ev->req;
	h->bytes = ev->bytes;
	h->comm = ev->comm;
	return 0;
}

static char *
p2p(char *p, int32_t peer, int64_t bytes, int32_t tag, int32_t comm,
    int last)
{
	p = f(p, peer < 0 ? -1 : peer);
	p = f(p, -1);		/* any thread of the task, as prv2dim */
	p = f(p, bytes < 0 ? 0 : bytes);
	p = f(p, tag < 0 ? 0 : tag);
	p = f(p, comm + 1);
	return f(p, last);
}

/* The receive that completes at RE req=R fills its irecv's hole. */
static int
fill(struct trc_out *out, int32_t r, struct drank *k,
    const struct trc_event *ev)
{
	char line[256], *p = line;
	struct hole h;
	size_t i, n;

	for (i = 0; i < k->nholes && k->holes[i].req != ev->req; i++)
		;
	if (i == k->nholes)
		return 0;
	h = k->holes[i];
	p += trc_format_int(p, 3);
	p = f(p, r);
	p = f(p, 0);
	p = p2p(p, ev->peer, h.bytes >= 0 ? h.bytes : ev->bytes, ev->tag,
	    h.comm, 1);
	*p++ = '\n';
	n = (size_t)(p - line);
	if (d_room(out, k, n) == NULL)
		return -1;
	memmove(k->buf + h.off + n, k->buf + h.off, k->len - h.off);
	memcpy(k->buf + h.off, line, n);
	k->len += n;
	for (; i + 1 < k->nholes; i++) {
		k->holes[i] = k->holes[i + 1];
		k->holes[i].off += n;
	}
	k->nholes--;
	return 0;
}

/* Dimemas' global operation ids (EventEncoding.h), by op= name. */
static int
glop(const struct trc_event *ev)
{
	static const struct { const char *op; int id; } ops[] = {
		{ "barrier", 0 }, { "bcast", 1 }, { "gather", 2 },
		{ "gatherv", 3 }, { "scatter", 4 }, { "scatterv", 5 },
		{ "allgather", 6 }, { "allgatherv", 7 }, { "alltoall", 8 },
		{ "alltoallv", 9 }, { "reduce", 10 }, { "allreduce", 11 },
		{ "reduce_scatter", 12 }, { "reduce_scatter_block", 13 },
		{ "scan", 14 }, { "alltoallw", 15 },
	};
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (ev->op.len == strlen(ops[i].op) &&
		    memcmp(ev->op.s, ops[i].op, ev->op.len) == 0)
			return ops[i].id;
	return -1;
}

/* Note rank r as a member of communicator comm. */
static int
member(struct trc_out *out, struct dim *d, int32_t comm, int32_t r)
{
	struct comm *nc;
	unsigned char *in;
	int32_t n;

	if (comm >= d->ncomms) {
		n = d->ncomms ? d->ncomms : 4;
		while (n <= comm)
			n *= 2;
		if ((nc = realloc(d->comms, (size_t)n * sizeof(*nc))) == NULL)
			return trc_out_fail(out, "out of memory");
		memset(nc + d->ncomms, 0, (size_t)(n - d->ncomms) * sizeof(*nc));
		d->comms = nc;
		d->ncomms = n;
	}
	nc = &d->comms[comm];
	if (r >= nc->n) {
		n = nc->n ? nc->n : 64;
		while (n <= r)
			n *= 2;
		if ((in = realloc(nc->in, (size_t)n)) == NULL)
			return trc_out_fail(out, "out of memory");
		memset(in + nc->n, 0, (size_t)(n - nc->n));
		nc->in = in;
		nc->n = n;
	}
	nc->in[r] = 1;
	nc->seen = 1;
	return 0;
}

/* Whether rank r is in comm (everyone is in the world). */
static int
is_member(const struct dim *d, int32_t comm, int32_t r)
{
	return comm == 0 || (r < d->comms[comm].n && d->comms[comm].in[r]);
}

static int
d_event(struct trc_out *out, const struct trc_event *ev)
{
	struct dim *d = trc_out_state(out);
	struct drank *k;
	int32_t r = ev->rank, id;
	int sync, op;
	char *p;

	if ((k = d_rank(out, d, r)) == NULL)
		return -1;
	switch (ev->kind) {
	case TRC_SB:
		if (ev->peer < 0) {
			trc_out_drop(out, "sends without a destination");
			break;
		}
		/* Synchronization as prv2dim: blocking 1 (the rendezvous
		 * threshold decides), immediate 2, immediate ready 3. */
		sync = ev->req == TRC_NONE ? 1 : 2;
		if (ev->op.len == 5 && memcmp(ev->op.s, "bsend", 5) == 0)
			sync = 2;
		else if (ev->op.len == 6 && memcmp(ev->op.s, "irsend", 6) == 0)
			sync = 3;
		if (burst(out, k, r, ev->t) < 0 ||
		    (p = rec(out, k, 2, r)) == NULL)
			return -1;
		end(k, p2p(p, ev->peer, ev->bytes, ev->tag, ev->comm, sync));
		break;
	case TRC_RB:
		if (burst(out, k, r, ev->t) < 0)
			return -1;
		if (ev->req == TRC_NONE)
			break;		/* written at its RE, with the source */
		if (ev->peer == TRC_ANY || ev->tag == TRC_ANY) {
			if (hole(out, k, ev) < 0)
				return -1;
		} else {
			if ((p = rec(out, k, 3, r)) == NULL)
				return -1;
			end(k, p2p(p, ev->peer, ev->bytes, ev->tag, ev->comm, 1));
		}
		k->last = ev->t;
		break;
	case TRC_RE:
		if (ev->req != TRC_NONE && fill(out, r, k, ev) < 0)
			return -1;
		if ((p = rec(out, k, 3, r)) == NULL)
			return -1;
		end(k, p2p(p, ev->peer, ev->bytes, ev->tag, ev->comm,
		    ev->req != TRC_NONE ? 2 : 0));
		k->last = ev->t;
		break;
	case TRC_WB:
		if (burst(out, k, r, ev->t) < 0)
			return -1;
		if (ev->op.len >= 5 && memcmp(ev->op.s + ev->op.len - 5,
		    "probe", 5) == 0)
			trc_out_drop(out, "probes");
		break;
	case TRC_XB:
		if (burst(out, k, r, ev->t) < 0)
			return -1;
		if ((op = glop(ev)) < 0) {
			trc_out_drop(out, "collectives with no Dimemas "
			    "operation (written as barriers)");
			op = 0;
		}
		if (ev->comm < 0 || ev->comm > 65535) {
			trc_out_drop(out, "collectives on unknown communicators "
			    "(written on the world)");
		} else if (member(out, d, ev->comm, r) < 0)
			return -1;
		if ((p = rec(out, k, 10, r)) == NULL)
			return -1;
		p = f(p, op);
		p = f(p, ev->comm >= 0 && ev->comm <= 65535 ? ev->comm + 1 : 1);
		/* Reduce names its root task, the others say "am I it". */
		p = f(p, op == 10 ? (ev->root < 0 ? 0 : ev->root) :
		    ev->root == r);
		p = f(p, 0);
		p = f(p, op == 0 || ev->bytes < 0 ? 0 : ev->bytes);
		p = f(p, op == 0 || ev->bytes < 0 ? 0 : ev->bytes);
		end(k, f(p, 1));
		break;
	case TRC_PB:
	case TRC_PE:
		if (burst(out, k, r, ev->t) < 0)
			return -1;
		id = 0;
		if (ev->kind == TRC_PB) {
			if ((id = trc_intern(&d->fns, ev->fn.s, ev->fn.len)) < 0)
				return trc_out_fail(out, "out of memory");
			id++;
			trc_out_drop(out, "region names (written as event "
			    "values)");
		}
		if ((p = rec(out, k, 20, r)) == NULL)
			return -1;
		end(k, f(f(p, EV_USERFN), id));
		k->last = ev->t;
		break;
	case TRC_MK:
		trc_out_drop(out, "markers");
		break;
	case TRC_SE:
	case TRC_WE:
	case TRC_XE:
		k->last = ev->t;
		break;
	default:
		break;
	}
	return spill(out, d, r, k);
}

static int
d_put(struct trc_out *out, struct dim *d, struct trc_writer *w,
    const char *s, size_t n)
{
	if (trc_write_raw(w, s, n) < 0)
		return trc_out_fail(out, "%s: %s", d->name, trc_werror(w));
	return 0;
}

/*
 * The length of the world's definition, "d:1:1:N:0:1:...:N-1\n", which
 * d_close writes a task at a time: ":j" for each, by digit counts.
 */
static size_t
world_len(int32_t nr)
{
	char head[32];
	size_t len = (size_t)sprintf(head, "d:1:1:%ld", (long)nr) + 1;
	int64_t lo = 0, hi = 10, top;
	size_t digits = 1;

	for (; lo < nr; lo = hi, hi *= 10, digits++) {
		top = hi < nr ? hi : nr;
		len += (size_t)(top - lo) * (1 + digits);
	}
	return len;
}

/* The other communicators' definitions, into a new string. */
static char *
defs(const struct dim *d, size_t *len, size_t *count)
{
	size_t cap = 64, n = 0;
	int32_t c, j, m;
	char *p, *nv;

	*count = 0;
	if ((p = malloc(cap)) == NULL)
		return NULL;
	for (c = 1; c < d->ncomms; c++) {
		if (!d->comms[c].seen)
			continue;
		for (m = 0, j = 0; j < d->comms[c].n; j++)
			m += is_member(d, c, j);
		if (n + 64 + 12 * (size_t)m > cap) {
			while (n + 64 + 12 * (size_t)m > cap)
				cap *= 2;
			if ((nv = realloc(p, cap)) == NULL) {
				free(p);
				return NULL;
			}
			p = nv;
		}
		n += (size_t)sprintf(p + n, "d:1:%ld:%ld", (long)c + 1, (long)m);
		for (j = 0; j < d->comms[c].n; j++)
			if (is_member(d, c, j))
				n += (size_t)sprintf(p + n, ":%ld", (long)j);
		p[n++] = '\n';
		(*count)++;
	}
	*len = n;
	return p;
}

/*
 * The bytes of task r's records in the file.  A task that ranks= counts
 * and no event names is the burst of 0 that burst() begins every task
 * with, made as the file is written and not kept, so that memory
 * follows the ranks with events and not ranks= (a header of 2 M ranks
 * took 8 GB).
 */
static off_t
task_len(const struct dim *d, int32_t r)
{
	char buf[64];

	return r < d->n ? d->rk[r].spilled + (off_t)d->rk[r].len :
	    (off_t)burst_text(buf, r, 0);
}

static int
d_close(struct trc_out *out)
{
	struct dim *d = trc_out_state(out);
	struct trc_writer *w = NULL;
	struct drank *k;
	char buf[1 << 16], num[32], *def = NULL;
	size_t hlen, dlen, ncomms, i, n, m;
	off_t first, pos;
	int32_t r, nr;
	ssize_t got;
	int rc = -1;

	nr = d->ranks > d->n ? d->ranks : d->n;
	if (nr == 0)
		nr = 1;
	for (r = 0; r < d->n; r++) {
		k = &d->rk[r];
		if (k->nholes > 0)
			trc_out_drop(out, "irecvs from any source never "
			    "completed");
		k->nholes = 0;
		if (!k->started && burst(out, k, r, 0) < 0)
			return -1;
	}
	if ((def = defs(d, &dlen, &ncomms)) == NULL ||
	    (w = trc_wopen(d->fd)) == NULL) {
		trc_out_fail(out, "out of memory");
		goto out;
	}
	ncomms++;		/* the world's, always defined */
	/*
	 * The header holds where the offsets are, in OFFW characters
	 * (digits, then blanks at the end of the line, as prv2dim): its
	 * size is known before the offsets are.
	 */
	hlen = (size_t)snprintf(buf, sizeof(buf), "#DIMEMAS:\"%s\":1,",
	    d->title) + OFFW;
	hlen += (size_t)snprintf(buf, sizeof(buf), ":%ld(", (long)nr) +
	    2 * (size_t)nr - 1;
	hlen += (size_t)snprintf(buf, sizeof(buf), "),%zu,0,0\n", ncomms);
	first = (off_t)(hlen + world_len(nr) + dlen);
	for (pos = first, r = 0; r < nr; r++)
		pos += task_len(d, r);
	m = (size_t)snprintf(num, sizeof(num), "%lld", (long long)pos);
	n = (size_t)snprintf(buf, sizeof(buf), "#DIMEMAS:\"%s\":1,%s:%ld(",
	    d->title, num, (long)nr);
	if (n >= sizeof(buf) || m > OFFW) {
		trc_out_fail(out, "trace name too long");
		goto out;
	}
	if (d_put(out, d, w, buf, n) < 0)
		goto out;
	for (r = 0; r < nr; r++)
		if (d_put(out, d, w, r > 0 ? ",1" : "1", r > 0 ? 2 : 1) < 0)
			goto out;
	n = (size_t)snprintf(buf, sizeof(buf), "),%zu,0,0%*s\n", ncomms,
	    (int)(OFFW - m), "");
	if (d_put(out, d, w, buf, n) < 0)
		goto out;
	n = (size_t)snprintf(buf, sizeof(buf), "d:1:1:%ld", (long)nr);
	if (d_put(out, d, w, buf, n) < 0)
		goto out;
	for (r = 0; r < nr; r++) {
		n = (size_t)snprintf(buf, sizeof(buf), ":%ld", (long)r);
		if (d_put(out, d, w, buf, n) < 0)
			goto out;
	}
	if (d_put(out, d, w, "\n", 1) < 0 || d_put(out, d, w, def, dlen) < 0)
		goto out;
	/* Each task's records: its blocks in the file, then the rest. */
	for (r = 0; r < nr; r++) {
		if (r >= d->n) {
			n = burst_text(buf, r, 0);	/* see task_len */
			if (d_put(out, d, w, buf, n) < 0)
				goto out;
			continue;
		}
		for (i = 0; i < d->nchunks; i++) {
			if (d->chunks[i].rank != r)
				continue;
			for (n = 0; n < d->chunks[i].len; n += (size_t)got) {
				m = d->chunks[i].len - n;
				if (m > sizeof(buf))
					m = sizeof(buf);
				got = pread(d->tmp, buf, m,
				    d->chunks[i].off + (off_t)n);
				if (got <= 0) {
					trc_out_fail(out, "temporary file: %s",
					    got < 0 ? strerror(errno) :
					    "truncated");
					goto out;
				}
				if (d_put(out, d, w, buf, (size_t)got) < 0)
					goto out;
			}
		}
		if (d_put(out, d, w, d->rk[r].buf, d->rk[r].len) < 0)
			goto out;
	}
	/* The offsets, counted again rather than kept: a number a task. */
	for (pos = first, r = 0; r < nr; r++) {
		n = (size_t)snprintf(buf, sizeof(buf), "s:%ld:%lld\n", (long)r,
		    (long long)pos);
		if (d_put(out, d, w, buf, n) < 0)
			goto out;
		pos += task_len(d, r);
	}
	if (trc_wflush(w) < 0) {
		trc_out_fail(out, "%s: %s", d->name, trc_werror(w));
		goto out;
	}
	if (d->fd > 1) {
		if (close(d->fd) < 0) {
			d->fd = -1;
			trc_out_fail(out, "%s: %s", d->name, strerror(errno));
			goto out;
		}
		d->fd = -1;
	}
	rc = 0;
out:
	trc_wfree(w);
	free(def);
	return rc;
}

const struct trc_format trc_format_dimemas = {
	.name = "dimemas",
	.alias = "dim",
	.wopen = d_open,
	.write = d_event,
	.wclose = d_close,
	.wfree = d_free,
};
