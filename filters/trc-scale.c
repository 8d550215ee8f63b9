/*
 * trc-scale - predict a trace on another machine by transforming its
 * timestamps (Mendes, "Performance Prediction by Trace Transformation",
 * section 4; DESIGN.md section 4).
 *
 * Each rank is replayed in its own event order with a predicted clock:
 * computation intervals are scaled by a ratio per label and rank, send
 * intervals by f2(b)/f1(b) (or set to f2(b)), receive completions put at
 * max(t'(begin) + g2(b), t'(SE)), and collectives completed at the
 * latest participant's predicted begin plus the target cost.
 *
 * Streaming: a rank whose receive completion arrives before its send
 * (clock skew, or a stream not ordered by time) is held, its later
 * events buffered, until the send is seen.  Predicted times are
 * monotone per rank, so output is a k-way merge of per-rank queues,
 * released below a watermark: the least predicted time any rank could
 * still produce.
 */
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trc.h"

static const char usage_line[] =
    "trc-scale [-v] [-b base.fit] [-c target.fit] [-k ratio | -p ratios] "
    "[file]";

enum state { COMP, SEND, RECV, WAIT, COLL };
enum block { RUN, BLK_RECV, BLK_COLL };

/* An event held while its rank waits, with its strings in one block. */
struct held {
	struct held		*next;
	struct trc_event	 ev;
	char			 text[];
};

/* Bytes of formatted output records "t seq len text", in order. */
struct bq {
	char		*buf;
	size_t		 head, tail, cap;
};

struct rank {
	int		 seen;
	enum state	 state;
	enum block	 blocked;
	int64_t		 t, tp;		/* last original, predicted time */
	/* Region labels: a stack of strings in one buffer. */
	char		*lab;
	size_t		 lablen, labcap;
	size_t		*labpos;
	size_t		 depth, depthcap;
	int		 kvalid, kmatched;
	double		 k;
	/* A receive whose send has been seen since the rank blocked. */
	int		 resolved;
	int64_t		 rs_tp, rs_t;
	struct trc_coll	*coll;
	int32_t		 nextwaiter;	/* ranks blocked on one collective */
	struct held	*hhead, *htail;
	struct bq	 out;
	int		 inheap;
};

static struct rank *rk;
static size_t nrk;
static int32_t hdr_ranks;
static size_t nseen;

static struct trc_fit *target, *base;
static struct trc_ratios *ratios;
static double cpu_ratio = 1;
static const struct trc_fit_op *t_send, *t_isend, *t_recv, *b_send, *b_isend;
static struct trc_match *mt;
static struct trc_writer *w;
static const char *inname;

/* What -v reports. */
static unsigned long long nevents, nrepaired, nskew, nunlabelled, nheld;
static int64_t delay_ns;
static size_t maxheld, curheld;

/* The worklist of ranks to resume. */
static int32_t *work;
static size_t nwork, workcap;

static uint64_t seqno;

static void
usage(int status)
{
	printf("usage: %s\n", usage_line);
	exit(status);
}

static void
fail(long line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	trc_wflush(w);
	die("%s:%ld: %s", inname, line, msg);
}

static struct rank *
getrank(int32_t r)
{
	size_t n;

	if ((size_t)r >= nrk) {
		n = nrk ? nrk : 64;
		while (n <= (size_t)r)
			n *= 2;
		rk = ereallocarray(rk, n, sizeof(*rk));
		memset(rk + nrk, 0, (n - nrk) * sizeof(*rk));
		nrk = n;
	}
	return &rk[r];
}

/* --- the reorder buffer ------------------------------------------- */

static int32_t *heap;
static size_t nheap;

static void
bq_push(struct bq *q, int64_t t, uint64_t seq, const char *s, uint32_t len)
{
	size_t need = 20 + (size_t)len;

	if (q->tail + need > q->cap) {
		if (q->head > 0 && q->head >= q->cap / 2) {
			memmove(q->buf, q->buf + q->head, q->tail - q->head);
			q->tail -= q->head;
			q->head = 0;
		}
		while (q->tail + need > q->cap) {
			q->cap = q->cap ? q->cap * 2 : 4096;
			q->buf = ereallocarray(q->buf, q->cap, 1);
		}
	}
	memcpy(q->buf + q->tail, &t, 8);
	memcpy(q->buf + q->tail + 8, &seq, 8);
	memcpy(q->buf + q->tail + 16, &len, 4);
	memcpy(q->buf + q->tail + 20, s, len);
	q->tail += need;
}

static void
bq_key(const struct bq *q, int64_t *t, uint64_t *seq)
{
	memcpy(t, q->buf + q->head, 8);
	memcpy(seq, q->buf + q->head + 8, 8);
}

static int
hbefore(int32_t a, int32_t b)
{
	int64_t ta, tb;
	uint64_t sa, sb;

	bq_key(&rk[a].out, &ta, &sa);
	bq_key(&rk[b].out, &tb, &sb);
	return ta < tb || (ta == tb && sa < sb);
}

static void
heap_up(size_t i)
{
	int32_t tmp;

	for (; i > 0 && hbefore(heap[i], heap[(i - 1) / 2]); i = (i - 1) / 2) {
		tmp = heap[i];
		heap[i] = heap[(i - 1) / 2];
		heap[(i - 1) / 2] = tmp;
	}
}

static void
heap_down(size_t i)
{
	size_t c;
	int32_t tmp;

	for (; (c = 2 * i + 1) < nheap; i = c) {
		if (c + 1 < nheap && hbefore(heap[c + 1], heap[c]))
			c++;
		if (!hbefore(heap[c], heap[i]))
			break;
		tmp = heap[c];
		heap[c] = heap[i];
		heap[i] = tmp;
	}
}

static size_t heapcap;

static void
output(int32_t r, int64_t t, const char *s, uint32_t len)
{
	struct rank *p = &rk[r];

	bq_push(&p->out, t, seqno++, s, len);
	if (!p->inheap) {
		if (nheap == heapcap) {
			heapcap = heapcap ? heapcap * 2 : 256;
			heap = ereallocarray(heap, heapcap, sizeof(*heap));
		}
		heap[nheap++] = r;
		p->inheap = 1;
		heap_up(nheap - 1);
	}
}

/* Write every queued event predicted before wm. */
static void
release(int64_t wm)
{
	struct rank *p;
	int64_t t;
	uint64_t seq;
	uint32_t len;

	while (nheap > 0) {
		p = &rk[heap[0]];
		bq_key(&p->out, &t, &seq);
		if (t >= wm)
			break;
		memcpy(&len, p->out.buf + p->out.head + 16, 4);
		if (trc_write_raw(w, p->out.buf + p->out.head + 20, len) < 0)
			die("<stdout>: %s", trc_werror(w));
		p->out.head += 20 + (size_t)len;
		if (p->out.head == p->out.tail) {
			p->out.head = p->out.tail = 0;
			p->inheap = 0;
			heap[0] = heap[--nheap];
		}
		heap_down(0);
	}
}

/*
 * The least predicted time any rank may still produce: a seen rank's
 * next event comes no earlier than its last; an unseen rank's first
 * event keeps its input time, which in a time-ordered stream is no
 * earlier than the last one read.
 */
static int64_t
watermark(int64_t tin, int timeorder)
{
	int64_t wm = INT64_MAX;
	size_t i;

	if (hdr_ranks == 0 || nseen < (size_t)hdr_ranks) {
		if (!timeorder)
			return INT64_MIN;
		wm = tin;
	}
	for (i = 0; i < nrk; i++)
		if (rk[i].seen && rk[i].tp < wm)
			wm = rk[i].tp;
	return wm;
}

/* --- formatting --------------------------------------------------- */

static char *obuf;
static size_t obufcap;

static uint32_t
format(const struct trc_event *ev, int64_t tp, int keept0)
{
	size_t need = 96, i;
	char *o, num[24];
	int n;

	for (i = 0; i < (size_t)ev->nattr; i++)
		need += ev->attr[i].key.len + ev->attr[i].val.len + 2;
	if (need > obufcap) {
		obufcap = need * 2;
		obuf = ereallocarray(obuf, obufcap, 1);
	}
	o = obuf;
	o += trc_format_time(o, tp);
	n = snprintf(num, sizeof(num), " %ld ", (long)ev->rank);
	memcpy(o, num, (size_t)n);
	o += n;
	memcpy(o, trc_kind_name(ev->kind), 2);
	o += 2;
	for (i = 0; i < (size_t)ev->nattr; i++) {
		*o++ = ' ';
		memcpy(o, ev->attr[i].key.s, ev->attr[i].key.len);
		o += ev->attr[i].key.len;
		*o++ = '=';
		memcpy(o, ev->attr[i].val.s, ev->attr[i].val.len);
		o += ev->attr[i].val.len;
	}
	if (!keept0) {
		memcpy(o, " t0=", 4);
		o += 4;
		o += trc_format_time(o, ev->t);
	}
	*o++ = '\n';
	return (uint32_t)(o - obuf);
}

/* --- holding events ----------------------------------------------- */

static void
hold(struct rank *p, const struct trc_event *ev)
{
	struct held *h;
	size_t len = 0, i;
	char *s;

	for (i = 0; i < (size_t)ev->nattr; i++)
		len += ev->attr[i].key.len + ev->attr[i].val.len;
	h = emalloc(sizeof(*h) + len + 1);
	h->next = NULL;
	h->ev = *ev;
	s = h->text;
	for (i = 0; i < (size_t)ev->nattr; i++) {
		memcpy(s, ev->attr[i].key.s, ev->attr[i].key.len);
		h->ev.attr[i].key.s = s;
		s += ev->attr[i].key.len;
		memcpy(s, ev->attr[i].val.s, ev->attr[i].val.len);
		/* fn=, op= and req= point into their attribute's value. */
		if (ev->fn.len && ev->fn.s == ev->attr[i].val.s)
			h->ev.fn.s = s;
		if (ev->op.len && ev->op.s == ev->attr[i].val.s)
			h->ev.op.s = s;
		if (ev->reqs.len && ev->reqs.s == ev->attr[i].val.s)
			h->ev.reqs.s = s;
		h->ev.attr[i].val.s = s;
		s += ev->attr[i].val.len;
	}
	if (p->htail)
		p->htail->next = h;
	else
		p->hhead = h;
	p->htail = h;
	nheld++;
	if (++curheld > maxheld)
		maxheld = curheld;
}

static void
wake(int32_t r)
{
	if (nwork == workcap) {
		workcap = workcap ? workcap * 2 : 64;
		work = ereallocarray(work, workcap, sizeof(*work));
	}
	work[nwork++] = r;
}

/* --- the transform ------------------------------------------------ */

static int64_t
scale_ns(double k, int64_t d)
{
	double v = k * (double)d;

	return v >= 9e18 ? INT64_MAX / 4 : (int64_t)llround(v);
}

/* The factor of the computation interval that ends now on rank r. */
static double
cpu_factor(struct rank *p, int32_t r, int64_t d, long line)
{
	const char *l = "";
	size_t len = 0;
	int rc;

	if (ratios == NULL)
		return cpu_ratio;
	if (!p->kvalid) {
		if (p->depth > 0) {
			l = p->lab + p->labpos[p->depth - 1];
			len = p->lablen - p->labpos[p->depth - 1];
		}
		if ((rc = trc_ratios_get(ratios, l, len, r, &p->k)) < 0)
			fail(line, "%s", trc_ratios_error(ratios));
		p->kmatched = rc;
		p->kvalid = 1;
	}
	if (!p->kmatched && d > 0)
		nunlabelled++;
	return p->k;
}

static void
push_label(struct rank *p, const struct trc_str *fn)
{
	if (p->depth == p->depthcap) {
		p->depthcap = p->depthcap ? p->depthcap * 2 : 8;
		p->labpos = ereallocarray(p->labpos, p->depthcap,
		    sizeof(*p->labpos));
	}
	if (p->lablen + fn->len > p->labcap) {
		p->labcap = (p->lablen + fn->len) * 2 + 64;
		p->lab = ereallocarray(p->lab, p->labcap, 1);
	}
	p->labpos[p->depth++] = p->lablen;
	memcpy(p->lab + p->lablen, fn->s, fn->len);
	p->lablen += fn->len;
	p->kvalid = 0;
}

static void
pop_label(struct rank *p)
{
	if (p->depth == 0)
		return;
	p->lablen = p->labpos[--p->depth];
	p->kvalid = 0;
}

static int32_t
coll_size(const struct trc_event *ev)
{
	const struct trc_str *s;
	int64_t n;

	if ((s = trc_attr_get(ev, "size")) != NULL) {
		if (trc_parse_int(s->s, s->len, &n) < 0 || n < 1 ||
		    n > INT32_MAX)
			fail(ev->line, "invalid size '%.*s'", (int)s->len, s->s);
		return (int32_t)n;
	}
	if (ev->comm == 0 && hdr_ranks > 0)
		return hdr_ranks;
	if (ev->comm == 0)
		fail(ev->line, "collective needs the header's ranks= or size=");
	fail(ev->line, "collective on comm %ld needs size=", (long)ev->comm);
	return 0;
}

static int64_t
bytes_of(const struct trc_event *ev)
{
	return ev->bytes > 0 ? ev->bytes : 0;
}

/*
 * Transform one event of rank r.  Returns 0 when done, 1 when the rank
 * must wait (the event is not consumed).
 */
static int
process(int32_t r, const struct trc_event *ev)
{
	struct rank *p = &rk[r];
	struct trc_msg m, peer;
	struct trc_coll *c;
	const struct trc_fit_op *f2, *f1;
	int64_t d, tp, want, b;
	int rc;

	if (!p->seen) {
		p->seen = 1;
		p->t = p->tp = ev->t;
		nseen++;
	}
	if (ev->t < p->t)
		fail(ev->line, "time goes backwards on rank %ld", (long)r);
	d = ev->t - p->t;

	switch (ev->kind) {
	case TRC_SE:
		b = bytes_of(ev);
		f2 = ev->req != TRC_NONE && t_isend ? t_isend : t_send;
		f1 = ev->req != TRC_NONE && b_isend ? b_isend : b_send;
		if (p->state != SEND)
			tp = p->tp + scale_ns(cpu_factor(p, r, d, ev->line), d);
		else if (f2 && f1 && trc_fit_eval(f1, b) > 0)
			tp = p->tp + scale_ns(trc_fit_eval(f2, b) /
			    trc_fit_eval(f1, b), d);
		else if (f2)
			tp = p->tp + trc_fit_eval_ns(f2, b);
		else
			tp = p->tp + d;
		memset(&m, 0, sizeof(m));
		m.src = r;
		m.dst = ev->peer;
		m.tag = ev->tag;
		m.comm = ev->comm;
		m.bytes = b;
		m.val = tp;
		m.aux = ev->t;
		m.line = ev->line;
		if (ev->peer < 0 || ev->tag < 0)
			fail(ev->line, "send without peer= and tag=");
		if ((rc = trc_match_send(mt, &m, &peer)) < 0)
			die("out of memory");
		if (rc == 1) {
			/* A receive was waiting for this send: resume it. */
			struct rank *q = getrank(peer.dst);

			p = &rk[r];
			q->resolved = 1;
			q->rs_tp = tp;
			q->rs_t = ev->t;
			wake(peer.dst);
		}
		p->state = COMP;
		break;
	case TRC_RE:
		b = bytes_of(ev);
		if (!p->resolved) {
			if (ev->peer < 0 || ev->tag < 0)
				fail(ev->line, "receive completion without "
				    "actual peer= and tag=");
			memset(&m, 0, sizeof(m));
			m.src = ev->peer;
			m.dst = r;
			m.tag = ev->tag;
			m.comm = ev->comm;
			m.bytes = b;
			m.line = ev->line;
			if ((rc = trc_match_recv(mt, &m, &peer)) < 0)
				die("out of memory");
			if (rc == 0) {
				p->blocked = BLK_RECV;
				return 1;
			}
			p->rs_tp = peer.val;
			p->rs_t = peer.aux;
		}
		p->resolved = 0;
		if (ev->t < p->rs_t)
			nskew++;
		want = p->tp + (t_recv ? trc_fit_eval_ns(t_recv, b) : d);
		tp = want;
		if (p->rs_tp > tp) {
			nrepaired++;
			delay_ns += p->rs_tp - tp;
			tp = p->rs_tp;
		}
		if (p->state == RECV)
			p->state = COMP;
		break;
	case TRC_XE:
		if ((c = p->coll) == NULL)
			fail(ev->line, "collective end without its begin");
		if (c->arrived < c->size) {
			p->blocked = BLK_COLL;
			p->nextwaiter = (int32_t)(intptr_t)c->user;
			c->user = (void *)(intptr_t)(r + 1);
			return 1;
		}
		f2 = target ? trc_fit_find(target, ev->op.s, ev->op.len) : NULL;
		if (f2)
			tp = c->val + trc_fit_eval_ns(f2, bytes_of(ev));
		else
			tp = c->val + (ev->t > c->aux ? ev->t - c->aux : 0);
		if (tp < p->tp)
			tp = p->tp;
		if (++c->left == c->arrived)
			trc_coll_release(mt, c);
		p->coll = NULL;
		p->state = COMP;
		break;
	case TRC_WE:
		tp = p->tp + (p->state == WAIT ? d :
		    scale_ns(cpu_factor(p, r, d, ev->line), d));
		p->state = COMP;
		break;
	default:
		/* Every other event ends a computation interval. */
		tp = p->tp + scale_ns(cpu_factor(p, r, d, ev->line), d);
		switch (ev->kind) {
		case TRC_SB:
			p->state = SEND;
			break;
		case TRC_RB:
			if (ev->req == TRC_NONE)
				p->state = RECV;
			break;
		case TRC_WB:
			p->state = WAIT;
			break;
		case TRC_XB:
			if (p->coll != NULL)
				fail(ev->line, "collective begin inside "
				    "another collective");
			if ((c = trc_coll_enter(mt, ev->comm, r, ev->line)) ==
			    NULL)
				die("out of memory");
			if (c->arrived == 1) {
				c->size = coll_size(ev);
				c->val = tp;
				c->aux = ev->t;
			} else {
				if (tp > c->val)
					c->val = tp;
				if (ev->t > c->aux)
					c->aux = ev->t;
			}
			if (c->arrived > c->size)
				fail(ev->line, "collective on comm %ld has "
				    "more than %ld participants",
				    (long)ev->comm, (long)c->size);
			if (c->arrived == c->size) {
				/* The last one in: let the waiters go. */
				int32_t q = (int32_t)(intptr_t)c->user;

				while (q > 0) {
					wake(q - 1);
					q = rk[q - 1].nextwaiter;
				}
				c->user = NULL;
			}
			p->coll = c;
			p->state = COLL;
			break;
		case TRC_PB:
			push_label(p, &ev->fn);
			break;
		case TRC_PE:
			pop_label(p);
			break;
		default:
			break;
		}
		break;
	}
	p->t = ev->t;
	p->tp = tp;
	nevents++;
	output(r, tp, obuf, format(ev, tp, trc_attr_get(ev, "t0") != NULL));
	return 0;
}

static void
resume(void)
{
	struct rank *p;
	struct held *h;
	int32_t r;

	while (nwork > 0) {
		r = work[--nwork];
		p = &rk[r];
		p->blocked = RUN;
		while ((h = p->hhead) != NULL) {
			if (process(r, &h->ev))
				break;
			if ((p->hhead = h->next) == NULL)
				p->htail = NULL;
			free(h);
			curheld--;
		}
	}
}

static void
feed(const struct trc_event *ev)
{
	struct rank *p = getrank(ev->rank);

	if (p->hhead != NULL || p->blocked != RUN) {
		hold(p, ev);
		return;
	}
	if (process(ev->rank, ev))
		hold(&rk[ev->rank], ev);
	resume();
}

/* At the end: what never matched.  Returns the number of errors. */
static int
leftovers(void)
{
	struct trc_msg *v;
	const struct trc_coll *c;
	size_t n, i;
	int errors = 0;

	if ((v = trc_match_leftovers(mt, &n)) == NULL && n != 0)
		die("out of memory");
	for (i = 0; i < n; i++) {
		if (v[i].send)
			fprintf(stderr, "%s: %s:%ld: warning: send to rank %ld "
			    "tag %ld comm %ld was never received\n",
			    trc_progname, inname, v[i].line, (long)v[i].dst,
			    (long)v[i].tag, (long)v[i].comm);
		else {
			fprintf(stderr, "%s: %s:%ld: receive from rank %ld tag "
			    "%ld comm %ld has no matching send\n", trc_progname,
			    inname, v[i].line, (long)v[i].src, (long)v[i].tag,
			    (long)v[i].comm);
			errors++;
		}
	}
	free(v);
	while ((c = trc_coll_oldest(mt)) != NULL) {
		if (c->arrived < c->size) {
			fprintf(stderr, "%s: %s:%ld: collective on comm %ld "
			    "never completed: %ld of %ld ranks entered\n",
			    trc_progname, inname, c->line, (long)c->comm,
			    (long)c->arrived, (long)c->size);
			errors++;
		}
		trc_coll_release(mt, (struct trc_coll *)c);
	}
	return errors;
}

static struct trc_fit *
loadfit(const char *path)
{
	struct trc_fit *f;
	char err[512];

	if ((f = trc_fit_load(path, err, sizeof(err))) == NULL)
		die("%s", err);
	return f;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "base", required_argument, NULL, 'b' },
		{ "comm", required_argument, NULL, 'c' },
		{ "cpu-ratio", required_argument, NULL, 'k' },
		{ "cpu", required_argument, NULL, 'p' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 }
	};
	const struct trc_header *h;
	struct trc_header oh;
	struct trc_reader *rd;
	struct trc_event ev;
	char err[512];
	int c, rc, verbose = 0, haveratio = 0, timeorder, errors;
	size_t i;
	unsigned long long n = 0, every;

	trc_std_options(argc, argv, usage);
	while ((c = getopt_long(argc, argv, "b:c:hk:p:v", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case 'b':
			base = loadfit(optarg);
			break;
		case 'c':
			target = loadfit(optarg);
			break;
		case 'h':
			usage(0);
			break;
		case 'k':
			cpu_ratio = estrtod(optarg, "ratio");
			if (!(cpu_ratio > 0))
				die("invalid ratio '%s'", optarg);
			haveratio = 1;
			break;
		case 'p':
			if ((ratios = trc_ratios_load(optarg, err,
			    sizeof(err))) == NULL)
				die("%s", err);
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			usage_error(usage_line);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1 || (haveratio && ratios != NULL))
		usage_error(usage_line);
	if (base != NULL && target == NULL)
		die("--base needs --comm");
	if (target) {
		t_send = trc_fit_find(target, "send", 4);
		t_isend = trc_fit_find(target, "isend", 5);
		t_recv = trc_fit_find(target, "recv", 4);
	}
	if (base) {
		b_send = trc_fit_find(base, "send", 4);
		b_isend = trc_fit_find(base, "isend", 5);
	}

	if ((rd = trc_open(argc > 0 ? argv[0] : "-")) == NULL ||
	    (mt = trc_match_new()) == NULL || (w = trc_wopen(STDOUT_FILENO)) ==
	    NULL)
		die("out of memory");
	inname = trc_name(rd);
	if ((h = trc_get_header(rd)) == NULL)
		die("%s", trc_error(rd));
	hdr_ranks = h->ranks;
	timeorder = h->order == TRC_ORDER_TIME;
	if (hdr_ranks > 0)
		getrank(hdr_ranks - 1);
	oh = *h;
	oh.order = TRC_ORDER_TIME;
	if (trc_write_header(w, &oh) < 0)
		die("<stdout>: %s", trc_werror(w));

	every = 4096;
	while ((rc = trc_next(rd, &ev)) > 0) {
		feed(&ev);
		if (++n % every == 0) {
			release(watermark(ev.t, timeorder));
			every = 4096 + nrk;
		}
	}
	if (rc < 0) {
		trc_wflush(w);
		die("%s", trc_error(rd));
	}
	errors = leftovers();
	release(INT64_MAX);
	if (trc_wflush(w) < 0)
		die("<stdout>: %s", trc_werror(w));
	if (verbose || nskew > 0)
		fprintf(stderr, "%s: %s%llu receive completion%s in the input "
		    "before %s send (clock skew), repaired\n", trc_progname,
		    verbose ? "" : "warning: ", nskew, nskew == 1 ? "" : "s",
		    nskew == 1 ? "its" : "their");
	if (verbose) {
		char tbuf[32];

		tbuf[trc_format_time(tbuf, delay_ns)] = '\0';
		fprintf(stderr, "%s: %llu events, %llu receive completions "
		    "repaired, total delay %s s\n", trc_progname, nevents,
		    nrepaired, tbuf);
		fprintf(stderr, "%s: %llu events held at most %zu at once, "
		    "%llu computation intervals without a ratio row\n",
		    trc_progname, nheld, maxheld, nunlabelled);
	}
	if (errors > 0)
		exit(2);
	trc_wfree(w);
	trc_close(rd);
	trc_match_free(mt);
	trc_fit_free(target);
	trc_fit_free(base);
	trc_ratios_free(ratios);
	for (i = 0; i < nrk; i++) {
		free(rk[i].lab);
		free(rk[i].labpos);
		free(rk[i].out.buf);
	}
	free(rk);
	free(heap);
	free(work);
	free(obuf);
	return 0;
}
