/*
 * svg.c - SVG documents in memory, and timelines (space-time diagrams)
 * aggregated per lane and pixel column; trc_svg.h says how.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "trc_svg.h"

/* ---- the document ---- */

static int
svg_reserve(struct trc_svg *s, size_t n)
{
	if (s->failed)
		return -1;
	if (trc_grow(&s->buf, &s->cap, s->len + n + 1, 1, 4096) < 0) {
		s->failed = 1;
		return -1;
	}
	return 0;
}

int
trc_svg_printf(struct trc_svg *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (svg_reserve(s, 256) < 0)
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(s->buf + s->len, s->cap - s->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return s->failed = 1, -1;
	if ((size_t)n >= s->cap - s->len) {
		if (svg_reserve(s, (size_t)n) < 0)
			return -1;
		va_start(ap, fmt);
		vsnprintf(s->buf + s->len, s->cap - s->len, fmt, ap);
		va_end(ap);
	}
	s->len += (size_t)n;
	return 0;
}

int
trc_svg_text(struct trc_svg *s, const char *t, size_t len)
{
	size_t i;

	if (svg_reserve(s, 6 * len) < 0)
		return -1;
	for (i = 0; i < len; i++) {
		const char *e = NULL;
		unsigned char c = (unsigned char)t[i];

		switch (c) {
		case '&': e = "&amp;"; break;
		case '<': e = "&lt;"; break;
		case '>': e = "&gt;"; break;
		case '"': e = "&quot;"; break;
		default:
			/* XML 1.0 forbids most control characters. */
			if (c < 0x20 && c != '\t')
				c = '?';
			s->buf[s->len++] = (char)c;
			continue;
		}
		memcpy(s->buf + s->len, e, strlen(e));
		s->len += strlen(e);
	}
	s->buf[s->len] = '\0';
	return 0;
}

void
trc_svg_free(struct trc_svg *s)
{
	free(s->buf);
	memset(s, 0, sizeof(*s));
}

/* ---- colours ---- */

static const char *const fixed_color[TRC_SVG_NFIXED] = {
	"#c8c8c8",	/* computation outside regions: light grey */
	"#ff7f0e",	/* send: orange */
	"#d62728",	/* receive: red */
	"#e8a0c8",	/* wait: pink */
	"#ffd700",	/* collective: gold */
	"#707070",	/* other procedures: dark grey */
};
static const char *const fixed_name[TRC_SVG_NFIXED] = {
	"computation", "send", "receive", "wait", "collective",
	"other procedures"
};
/* Blues, greens, purples, browns and cyans: never a communication colour. */
static const char *const proc_color[TRC_SVG_NPROCS] = {
	"#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#17becf",
	"#bcbd22", "#393b79", "#637939", "#7b4173", "#3182bd",
	"#31a354", "#756bb1", "#843c39", "#6baed6", "#74c476",
	"#9e9ac8", "#5254a3", "#8ca252", "#ce6dbd", "#17786b",
};

const char *
trc_svg_class_color(int c)
{
	return c >= 0 && c < TRC_SVG_NFIXED ? fixed_color[c] :
	    trc_svg_proc_color(c - TRC_SVG_NFIXED);
}

const char *
trc_svg_proc_color(int i)
{
	return i >= 0 && i < TRC_SVG_NPROCS ? proc_color[i] :
	    fixed_color[TRC_SVG_OTHER];
}

/* ---- timelines ---- */

#define NBINS		2048	/* per lane; a pixel column gets one or more */
#define NCLASS		(TRC_SVG_NFIXED + TRC_SVG_NPROCS)
#define ARROWS_MAX	2000	/* drawn one by one up to this many */
#define MARKS_MAX	5000
#define ARROW_PX	8	/* columns per thinned arrow */
#define TIME_MAX	((int64_t)1 << 61)

struct arrow {
	int64_t	 ts, tr;	/* send end, receive completion */
	int32_t	 from, to;	/* lanes; from < 0: an empty slot */
};

struct mark {
	int64_t	 t;
	int32_t	 lane;
};

struct lane {
	float		*bin;		/* NBINS x NCLASS nanoseconds */
	struct arrow	*slot;		/* one arrow per bin, by send time */
	uint32_t	*marks;		/* highlighted events per bin */
	int64_t		 first_diff;	/* -1: none */
};

struct run {
	struct trc_summary	*sum;
	struct trc_match	*match;
	int32_t			*cls;	/* summary label id -> class */
	int32_t			 ncls;
	int32_t			 nranks;
	int64_t			 first, last, events;	/* selected ranks' */
	int64_t			 seen;	/* events of every rank */
};

struct trc_timeline {
	struct trc_tl_opts	 o;
	struct trc_ranks	 ranks;
	struct run		 run[2];
	struct lane		*lane;	/* rank * nruns + run */
	int32_t			 nlanes;
	size_t			 nbins;	/* lanes with bins: at most lanes_max */
	size_t			 msgmax;	/* TRC_MSG_MAX */
	long			 err_line;	/* the error's line, 0: the event's */
	struct trc_intern	 procs;	/* the legend's procedures */
	int			 have_range;
	int64_t			 lo, bw;	/* bins cover [lo, lo + NBINS bw) */
	struct arrow		*arrow;
	size_t			 narrow;
	uint64_t		 messages;	/* matched and in the window */
	int			 arrows_thinned;
	struct mark		*mark;
	size_t			 nmark;
	uint64_t		 marked[2];
	int			 marks_thinned;
	char			 err[256];
};

static int
tl_fail(struct trc_timeline *tl, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
tl_fail(struct trc_timeline *tl, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tl->err, sizeof(tl->err), fmt, ap);
	va_end(ap);
	return -1;
}

const char *
trc_timeline_error(const struct trc_timeline *tl)
{
	return tl->err;
}

struct trc_timeline *
trc_timeline_new(const struct trc_tl_opts *o)
{
	struct trc_timeline *tl;
	int i;

	if ((tl = calloc(1, sizeof(*tl))) == NULL)
		return NULL;
	tl->o = *o;
	if (tl->o.nruns != 2)
		tl->o.nruns = 1;
	if (o->select && o->ranks != NULL)
		tl->ranks = *o->ranks;
	else
		tl->o.select = 0;
	tl->o.ranks = NULL;
	if (tl->o.lanes_max == 0)
		tl->o.lanes_max = TRC_LANES_MAX_DEFAULT;
	/* trc-svg said a bad TRC_MSG_MAX before. */
	if (trc_msg_max(&tl->msgmax) < 0)
		tl->msgmax = TRC_MSG_MAX_DEFAULT;
	for (i = 0; i < tl->o.nruns; i++) {
		tl->run[i].first = -1;
		if ((tl->run[i].sum = trc_summary_new()) == NULL ||
		    (tl->run[i].match = trc_match_new()) == NULL) {
			trc_timeline_free(tl);
			return NULL;
		}
	}
	return tl;
}

void
trc_timeline_free(struct trc_timeline *tl)
{
	int32_t i;

	if (tl == NULL)
		return;
	for (i = 0; i < 2; i++) {
		if (tl->run[i].sum)
			trc_summary_free(tl->run[i].sum);
		if (tl->run[i].match)
			trc_match_free(tl->run[i].match);
		free(tl->run[i].cls);
	}
	for (i = 0; i < tl->nlanes; i++) {
		free(tl->lane[i].bin);
		free(tl->lane[i].slot);
		free(tl->lane[i].marks);
	}
	free(tl->lane);
	trc_intern_free(&tl->procs);
	free(tl->arrow);
	free(tl->mark);
	free(tl);
}

static struct lane *
lane_get(struct trc_timeline *tl, int32_t rank, int run)
{
	int32_t id = rank * tl->o.nruns + run;
	struct lane *l;
	size_t n, i;

	if (rank < 0 || rank > (INT32_MAX - 2) / 2) {
		tl_fail(tl, "out of memory");
		return NULL;
	}
	if (id >= tl->nlanes) {
		n = tl->nlanes ? (size_t)tl->nlanes : 8;
		while (n <= (size_t)id)
			n *= 2;
		if (n > INT32_MAX)
			n = INT32_MAX;
		if ((l = realloc(tl->lane, n * sizeof(*l))) == NULL) {
			tl_fail(tl, "out of memory");
			return NULL;
		}
		memset(l + tl->nlanes, 0, (n - (size_t)tl->nlanes) * sizeof(*l));
		for (i = (size_t)tl->nlanes; i < n; i++)
			l[i].first_diff = -1;
		tl->lane = l;
		tl->nlanes = (int32_t)n;
	}
	l = &tl->lane[id];
	if (l->bin == NULL) {
		if (tl->nbins == tl->o.lanes_max) {
			tl_fail(tl, "more than %zu lanes to draw "
			    "(TRC_LANES_MAX): choose ranks with -r",
			    tl->o.lanes_max);
			return NULL;
		}
		if ((l->bin = calloc((size_t)NBINS * NCLASS,
		    sizeof(float))) == NULL) {
			tl_fail(tl, "out of memory");
			return NULL;
		}
		tl->nbins++;
	}
	return l;
}

/* Bins twice as wide, the range growing to the left or the right. */
static void
tl_widen(struct trc_timeline *tl, int left)
{
	int32_t i;
	int j, k, c, off = left ? NBINS / 2 : 0;

	for (i = 0; i < tl->nlanes; i++) {
		struct lane *l = &tl->lane[i];

		if (l->bin != NULL) {
			float *b = l->bin, tmp[NCLASS];

			if (left)
				for (j = NBINS / 2 - 1; j >= 0; j--) {
					for (c = 0; c < NCLASS; c++)
						tmp[c] = b[2 * j * NCLASS + c] +
						    b[(2 * j + 1) * NCLASS + c];
					memcpy(b + (off + j) * NCLASS, tmp, sizeof(tmp));
				}
			else
				for (j = 0; j < NBINS / 2; j++) {
					for (c = 0; c < NCLASS; c++)
						tmp[c] = b[2 * j * NCLASS + c] +
						    b[(2 * j + 1) * NCLASS + c];
					memcpy(b + j * NCLASS, tmp, sizeof(tmp));
				}
			memset(b + (left ? 0 : NBINS / 2) * NCLASS, 0,
			    NBINS / 2 * NCLASS * sizeof(float));
		}
		if (l->slot != NULL) {
			struct arrow *s = l->slot, a;

			for (k = 0; k < NBINS / 2; k++) {
				j = left ? NBINS / 2 - 1 - k : k;
				a = s[2 * j].from >= 0 ? s[2 * j] : s[2 * j + 1];
				s[off + j] = a;
			}
			for (k = 0; k < NBINS / 2; k++)
				s[(left ? 0 : NBINS / 2) + k].from = -1;
		}
		if (l->marks != NULL) {
			uint32_t *m = l->marks, v;

			for (k = 0; k < NBINS / 2; k++) {
				j = left ? NBINS / 2 - 1 - k : k;
				v = m[2 * j] + m[2 * j + 1];
				m[off + j] = v;
			}
			memset(m + (left ? 0 : NBINS / 2), 0,
			    NBINS / 2 * sizeof(*m));
		}
	}
	if (left)
		tl->lo -= (int64_t)NBINS * tl->bw;
	tl->bw *= 2;
}

/* Makes the bins cover t. */
static void
tl_cover(struct trc_timeline *tl, int64_t t)
{
	if (!tl->have_range) {
		tl->have_range = 1;
		tl->lo = t;
		tl->bw = 1;
	}
	/* Past 2^50 ns a bin (13 days) the last bins take what is left. */
	while (t < tl->lo && tl->bw < ((int64_t)1 << 50))
		tl_widen(tl, 1);
	while (t - tl->lo >= (int64_t)NBINS * tl->bw &&
	    tl->bw < ((int64_t)1 << 50))
		tl_widen(tl, 0);
}

static int
tl_bin(const struct trc_timeline *tl, int64_t t)
{
	int64_t k = (t - tl->lo) / tl->bw;

	return k < 0 ? 0 : k >= NBINS ? NBINS - 1 : (int)k;
}

/* The window clips [*t0, *t1): 0 when nothing is left. */
static int
tl_clip(const struct trc_timeline *tl, int64_t *t0, int64_t *t1)
{
	if (tl->o.window) {
		if (*t0 < tl->o.from)
			*t0 = tl->o.from;
		if (*t1 > tl->o.to)
			*t1 = tl->o.to;
	}
	return *t0 < *t1;
}

static void
tl_interval(struct trc_timeline *tl, struct lane *l, int64_t t0, int64_t t1,
    int cls)
{
	int64_t a, e;
	int k, k1;

	if (!tl_clip(tl, &t0, &t1))
		return;
	tl_cover(tl, t0);
	tl_cover(tl, t1 - 1);
	k = tl_bin(tl, t0);
	k1 = tl_bin(tl, t1 - 1);
	for (a = t0; k <= k1; k++) {
		e = tl->lo + (int64_t)(k + 1) * tl->bw;
		if (e > t1)
			e = t1;
		l->bin[k * NCLASS + cls] += (float)(e - a);
		a = e;
	}
}

static int
tl_selected(const struct trc_timeline *tl, int32_t rank)
{
	return !tl->o.select || trc_ranks_has(&tl->ranks, rank);
}

static int
tl_arrow(struct trc_timeline *tl, int64_t ts, int32_t from, int64_t tr,
    int32_t to)
{
	struct lane *l = &tl->lane[from];
	struct arrow a;
	int k;

	if (tl->o.window && (ts > tl->o.to || tr < tl->o.from))
		return 0;
	a.ts = ts;
	a.tr = tr;
	a.from = from;
	a.to = to;
	tl->messages++;
	if (!tl->arrows_thinned) {
		if (tl->narrow == ARROWS_MAX) {
			tl->arrows_thinned = 1;
			free(tl->arrow);
			tl->arrow = NULL;
		} else {
			if (tl->arrow == NULL && (tl->arrow =
			    malloc(ARROWS_MAX * sizeof(*tl->arrow))) == NULL)
				return -1;
			tl->arrow[tl->narrow++] = a;
		}
	}
	if (l->slot == NULL) {
		if ((l->slot = malloc(NBINS * sizeof(*l->slot))) == NULL)
			return -1;
		for (k = 0; k < NBINS; k++)
			l->slot[k].from = -1;
	}
	if (tl->o.window && ts < tl->o.from)
		ts = tl->o.from;
	tl_cover(tl, ts);
	k = tl_bin(tl, ts);
	if (l->slot[k].from < 0)
		l->slot[k] = a;
	return 0;
}

/* The legend learns the summary's new labels, in order of arrival. */
static int
tl_learn(struct trc_timeline *tl, struct run *r)
{
	const struct trc_intern *lb = &r->sum->labels;
	int32_t id, *p;

	while (r->ncls < lb->n) {
		if ((p = realloc(r->cls, (size_t)lb->n * sizeof(*p))) == NULL)
			return -1;
		r->cls = p;
		id = trc_intern(&tl->procs, lb->name[r->ncls],
		    strlen(lb->name[r->ncls]));
		if (id < 0)
			return -1;
		r->cls[r->ncls++] = id < TRC_SVG_NPROCS ?
		    TRC_SVG_NFIXED + id : TRC_SVG_OTHER;
	}
	return 0;
}

int
trc_timeline_add(struct trc_timeline *tl, int run, const struct trc_event *ev)
{
	struct run *r = &tl->run[run];
	struct trc_rank_sum *rs;
	struct lane *l;
	struct trc_msg msg, peer;
	int cls, rc;

	/* 2^61 ns is 73 years: beyond it the arithmetic of bins could
	 * overflow, and no trace is that long. */
	if (ev->t > TIME_MAX || ev->t < -TIME_MAX)
		return tl_fail(tl, "time beyond what is drawn (73 years)");
	if (ev->rank >= r->nranks)
		r->nranks = ev->rank + 1;
	r->seen++;
	if (!tl_selected(tl, ev->rank))
		return 0;
	if ((l = lane_get(tl, ev->rank, run)) == NULL)
		return -1;
	if (r->first < 0 || ev->t < r->first)
		r->first = ev->t;
	if (r->events == 0 || ev->t > r->last)
		r->last = ev->t;
	r->events++;
	if (ev->rank < r->sum->nranks &&
	    (rs = &r->sum->rank[ev->rank])->events > 0) {
		if (ev->t < rs->last)
			return tl_fail(tl, "time goes back on rank %ld",
			    (long)ev->rank);
		if (rs->cur != TRC_ACT_COMP)
			cls = (int)rs->cur;
		else if (rs->depth > 0)
			cls = r->cls[rs->stack[rs->depth - 1].label];
		else
			cls = TRC_SVG_COMP;
		if (ev->t > rs->last)
			tl_interval(tl, l, rs->last, ev->t, cls);
	}
	if (trc_summary_add(r->sum, ev) < 0)
		return tl_fail(tl, "%s", trc_summary_error(r->sum));
	if (r->ncls < r->sum->labels.n && tl_learn(tl, r) < 0)
		return tl_fail(tl, "out of memory");
	if ((ev->kind != TRC_SE && ev->kind != TRC_RE) || ev->peer < 0 ||
	    !tl_selected(tl, ev->peer))
		return 0;
	memset(&msg, 0, sizeof(msg));
	msg.tag = ev->tag;
	msg.comm = ev->comm;
	msg.bytes = ev->bytes;
	msg.val = ev->t;
	msg.aux = ev->rank * tl->o.nruns + run;
	msg.line = ev->line;
	if (ev->kind == TRC_SE) {
		msg.src = ev->rank;
		msg.dst = ev->peer;
		rc = trc_match_send(r->match, &msg, &peer);
	} else {
		msg.src = ev->peer;
		msg.dst = ev->rank;
		rc = trc_match_recv(r->match, &msg, &peer);
	}
	if (rc < 0)
		return tl_fail(tl, "out of memory");
	if (rc == 0 && trc_match_pending(r->match) > tl->msgmax) {
		char err[256];

		tl->err_line = trc_match_too_many(r->match, err, sizeof(err));
		return tl_fail(tl, "%s", err);
	}
	if (rc == 1 && (ev->kind == TRC_SE ?
	    tl_arrow(tl, ev->t, (int32_t)msg.aux, peer.val, (int32_t)peer.aux) :
	    tl_arrow(tl, peer.val, (int32_t)peer.aux, ev->t, (int32_t)msg.aux)) < 0)
		return tl_fail(tl, "out of memory");
	return 0;
}

/* The ranks below nranks that are drawn. */
static uint64_t
tl_drawn(const struct trc_timeline *tl, int32_t nranks)
{
	uint64_t n = 0;
	int i;

	if (!tl->o.select)
		return (uint64_t)nranks;
	for (i = 0; i < tl->ranks.n; i++)
		if (tl->ranks.lo[i] < nranks)
			n += (uint64_t)((tl->ranks.hi[i] < nranks ?
			    tl->ranks.hi[i] : nranks - 1) -
			    tl->ranks.lo[i]) + 1;
	return n;
}

int
trc_timeline_end(struct trc_timeline *tl, int run, int32_t header_ranks)
{
	struct run *r = &tl->run[run];

	int i;

	if (header_ranks > r->nranks)
		r->nranks = header_ranks;
	if (r->seen == 0)
		return tl_fail(tl, "no events");
	/* A lane is drawn for every rank below the largest (or the
	 * header's), events or not: so many would be no picture. */
	if (tl_drawn(tl, r->nranks) * (uint64_t)tl->o.nruns >
	    tl->o.lanes_max)
		return tl_fail(tl, "%llu lanes to draw, more than %zu "
		    "(TRC_LANES_MAX): choose ranks with -r",
		    (unsigned long long)(tl_drawn(tl, r->nranks) *
		    (uint64_t)tl->o.nruns), tl->o.lanes_max);
	for (i = 0; tl->o.select && i < tl->ranks.n; i++)
		if (tl->ranks.hi[i] >= r->nranks)
			return tl_fail(tl, "rank %ld is not in the trace "
			    "(ranks 0-%ld)", (long)(tl->ranks.lo[i] >
			    r->nranks ? tl->ranks.lo[i] : r->nranks),
			    (long)r->nranks - 1);
	if (r->events == 0)
		return tl_fail(tl, "no events on the ranks selected");
	if (trc_summary_finish(r->sum) < 0)
		return tl_fail(tl, "%s", trc_summary_error(r->sum));
	return 0;
}

int
trc_timeline_mark(struct trc_timeline *tl, int run, int32_t rank, int64_t t,
    int first)
{
	struct lane *l;
	int32_t id = rank * tl->o.nruns + run;

	if (t > TIME_MAX || t < -TIME_MAX)
		return tl_fail(tl, "time beyond what is drawn (73 years)");
	if (!tl_selected(tl, rank))
		return 0;
	if (tl->o.window && (t < tl->o.from || t > tl->o.to))
		return 0;
	if ((l = lane_get(tl, rank, run)) == NULL)
		return -1;
	if (first) {
		l->first_diff = t;
		tl_cover(tl, t);
		return 0;
	}
	tl->marked[run]++;
	if (!tl->marks_thinned) {
		if (tl->nmark == MARKS_MAX) {
			tl->marks_thinned = 1;
			free(tl->mark);
			tl->mark = NULL;
		} else {
			if (tl->mark == NULL && (tl->mark =
			    malloc(MARKS_MAX * sizeof(*tl->mark))) == NULL)
				return tl_fail(tl, "out of memory");
			tl->mark[tl->nmark].t = t;
			tl->mark[tl->nmark++].lane = id;
		}
	}
	if (l->marks == NULL &&
	    (l->marks = calloc(NBINS, sizeof(*l->marks))) == NULL)
		return tl_fail(tl, "out of memory");
	tl_cover(tl, t);
	l->marks[tl_bin(tl, t)]++;
	return 0;
}

int64_t
trc_timeline_span(const struct trc_timeline *tl, int run)
{
	const struct run *r = &tl->run[run];

	return r->events ? r->last - r->first : -1;
}

/* ---- drawing ---- */

#define LEFT	120	/* lane labels */
#define RIGHT	20
#define TOP	48	/* title */
#define AXIS	34
#define LEGEND_ROW 20
#define LEGEND_COL 170

struct geom {
	int	 width, height, plotw, lane_h, gap;
	int64_t	 t0, t1;
	int32_t	 nranks;	/* lanes drawn: ranks 0..nranks-1, selected */
	int32_t	*rank_y;	/* top of each rank's first lane, -1 if not drawn */
};

static double
geom_x(const struct geom *g, int64_t t)
{
	return LEFT + (double)(t - g->t0) * g->plotw / (double)(g->t1 - g->t0);
}

/* A tick step of 1, 2 or 5 times a power of ten ns, about span/8. */
static int64_t
tick_step(int64_t span)
{
	int64_t p = 1, raw = span / 8;

	if (raw < 1)
		return 1;
	while (p <= raw / 10)
		p *= 10;
	if (raw >= 5 * p)
		return 5 * p;
	if (raw >= 2 * p)
		return 2 * p;
	return p;
}

static void
draw_axis(struct trc_svg *s, const struct geom *g, int y)
{
	int64_t step = tick_step(g->t1 - g->t0), t, unit,
	    big = g->t1 > -g->t0 ? g->t1 : -g->t0;
	const char *uname;
	int dec = 0;
	double x;

	/* The unit of the largest time shown, decimals for the step. */
	if (big >= 1000000000) {
		unit = 1000000000;
		uname = "s";
	} else if (big >= 1000000) {
		unit = 1000000;
		uname = "ms";
	} else if (big >= 1000) {
		unit = 1000;
		uname = "\xc2\xb5s";
	} else {
		unit = 1;
		uname = "ns";
	}
	for (t = step; t < unit; t *= 10)
		dec++;
	trc_svg_printf(s, "<g class=\"axis\" data-unit=\"%s\">\n"
	    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>\n",
	    uname, LEFT, y, LEFT + g->plotw, y);
	t = g->t0 >= 0 ? (g->t0 + step - 1) / step * step : g->t0 / step * step;
	for (; t <= g->t1; t = t > INT64_MAX - step ? INT64_MAX : t + step) {
		x = geom_x(g, t);
		trc_svg_printf(s, "<line class=\"tick\" x1=\"%.1f\" y1=\"%d\" "
		    "x2=\"%.1f\" y2=\"%d\" stroke=\"#000\"/>"
		    "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.*f</text>\n",
		    x, y, x, y + 5, x, y + 17, dec, (double)t / (double)unit);
		if (t == INT64_MAX)
			break;
	}
	trc_svg_printf(s, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">"
	    "time (%s)</text>\n</g>\n", LEFT + g->plotw, y + 31, uname);
}

static void
legend_entry(struct trc_svg *s, int *i, int cols, int y0, const char *kind,
    const char *name, size_t len, const char *color, int line)
{
	int x = 10 + (*i % cols) * LEGEND_COL, y = y0 + (*i / cols) * LEGEND_ROW;

	trc_svg_printf(s, "<g class=\"entry\" data-kind=\"%s\" data-name=\"",
	    kind);
	trc_svg_text(s, name, len);
	trc_svg_printf(s, "\">");
	if (line)
		trc_svg_printf(s, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		    "stroke=\"%s\" stroke-width=\"2\"/>", x, y + 7, x + 14,
		    y + 7, color);
	else
		trc_svg_printf(s, "<rect x=\"%d\" y=\"%d\" width=\"14\" "
		    "height=\"14\" fill=\"%s\"/>", x, y, color);
	trc_svg_printf(s, "<text x=\"%d\" y=\"%d\">", x + 20, y + 12);
	if (len > 22) {
		trc_svg_text(s, name, 20);
		trc_svg_printf(s, "...");
	} else
		trc_svg_text(s, name, len);
	trc_svg_printf(s, "</text></g>\n");
	(*i)++;
}

static int
legend_rows(const struct trc_timeline *tl, int cols, int diff)
{
	int32_t np = tl->procs.n > TRC_SVG_NPROCS ? TRC_SVG_NPROCS + 1 :
	    tl->procs.n;
	int n = np + 5 + 1 + (diff ? 2 : 0);

	return (n + cols - 1) / cols;
}

static void
draw_legend(struct trc_svg *s, const struct trc_timeline *tl, int cols,
    int y0, int diff)
{
	int32_t p;
	int i = 0, c;

	trc_svg_printf(s, "<g class=\"legend\" font-size=\"12\">\n");
	for (p = 0; p < tl->procs.n && p < TRC_SVG_NPROCS; p++)
		legend_entry(s, &i, cols, y0, "proc", tl->procs.name[p],
		    strlen(tl->procs.name[p]), proc_color[p], 0);
	if (tl->procs.n > TRC_SVG_NPROCS) {
		char buf[64];

		snprintf(buf, sizeof(buf), "%ld other procedures",
		    (long)(tl->procs.n - TRC_SVG_NPROCS));
		legend_entry(s, &i, cols, y0, "others", buf, strlen(buf),
		    fixed_color[TRC_SVG_OTHER], 0);
	}
	for (c = 0; c < TRC_SVG_OTHER; c++)
		legend_entry(s, &i, cols, y0, "activity", fixed_name[c],
		    strlen(fixed_name[c]), fixed_color[c], 0);
	legend_entry(s, &i, cols, y0, "message", "message", 7, "#000", 1);
	if (diff) {
		legend_entry(s, &i, cols, y0, "unmatched", "unmatched event", 15,
		    TRC_SVG_MARK_COLOR, 0);
		legend_entry(s, &i, cols, y0, "first", "first difference", 16,
		    TRC_SVG_FIRST_COLOR, 1);
	}
	trc_svg_printf(s, "</g>\n");
}

/* The dominant class of each pixel column of a lane, as runs of rects. */
static void
draw_lane(struct trc_svg *s, const struct trc_timeline *tl,
    const struct geom *g, const struct lane *l)
{
	double acc[NCLASS], best, w, span = (double)(g->t1 - g->t0);
	int64_t ta, tb, bs, be, o0, o1;
	int c, k, k0, k1, x, cur = -1, start = 0, dom;

	if (l->bin == NULL)
		return;
	for (x = 0; x <= g->plotw; x++) {
		dom = -1;
		if (x < g->plotw) {
			ta = g->t0 + (int64_t)(span * x / g->plotw);
			tb = g->t0 + (int64_t)(span * (x + 1) / g->plotw);
			if (tb <= ta)
				tb = ta + 1;
			memset(acc, 0, sizeof(acc));
			if (tb > tl->lo && ta < tl->lo + (int64_t)NBINS * tl->bw) {
				k0 = tl_bin(tl, ta);
				k1 = tl_bin(tl, tb - 1);
				for (k = k0; k <= k1; k++) {
					bs = tl->lo + (int64_t)k * tl->bw;
					be = bs + tl->bw;
					o0 = bs > ta ? bs : ta;
					o1 = be < tb ? be : tb;
					if (o1 <= o0)
						continue;
					w = (double)(o1 - o0) / (double)tl->bw;
					for (c = 0; c < NCLASS; c++)
						acc[c] += w * l->bin[k * NCLASS + c];
				}
			}
			for (best = 0, c = 0; c < NCLASS; c++)
				if (acc[c] > best) {
					best = acc[c];
					dom = c;
				}
		}
		if (dom != cur) {
			if (cur >= 0)
				trc_svg_printf(s, "<rect class=\"k%d\" x=\"%d\" "
				    "width=\"%d\" height=\"%d\"/>", cur,
				    LEFT + start, x - start, g->lane_h);
			cur = dom;
			start = x;
		}
	}
}

static double
lane_mid(const struct trc_timeline *tl, const struct geom *g, int32_t lane)
{
	int32_t rank = lane / tl->o.nruns, run = lane % tl->o.nruns;

	return g->rank_y[rank] + run * g->lane_h + g->lane_h / 2.0;
}

static void
draw_arrow(struct trc_svg *s, const struct trc_timeline *tl,
    const struct geom *g, const struct arrow *a)
{
	int32_t rf = a->from / tl->o.nruns, rt = a->to / tl->o.nruns;

	if (rf >= g->nranks || rt >= g->nranks || g->rank_y[rf] < 0 ||
	    g->rank_y[rt] < 0)
		return;
	trc_svg_printf(s, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
	    "y2=\"%.1f\"/>\n", geom_x(g, a->ts), lane_mid(tl, g, a->from),
	    geom_x(g, a->tr), lane_mid(tl, g, a->to));
}

static void
draw_mark(struct trc_svg *s, const struct trc_timeline *tl,
    const struct geom *g, int32_t lane, int64_t t, uint32_t n)
{
	int32_t rank = lane / tl->o.nruns, run = lane % tl->o.nruns;

	if (rank >= g->nranks || g->rank_y[rank] < 0)
		return;
	trc_svg_printf(s, "<rect class=\"unmatched\" data-run=\"%d\" "
	    "data-rank=\"%ld\" data-n=\"%lu\" x=\"%.1f\" y=\"%d\" width=\"5\" "
	    "height=\"%d\"/>\n", (int)run, (long)rank, (unsigned long)n,
	    geom_x(g, t) - 2.5, g->rank_y[rank] + run * g->lane_h, g->lane_h);
}

int
trc_timeline_svg(struct trc_timeline *tl, const char *title, struct trc_svg *s)
{
	struct geom g;
	int64_t tmin = INT64_MAX, tmax = INT64_MIN;
	int32_t r, nsel = 0, lane;
	int run, i, y, cols, diff = tl->o.diff, k, x,
	    last;
	size_t m;

	memset(&g, 0, sizeof(g));
	for (run = 0; run < tl->o.nruns; run++) {
		if (tl->run[run].events == 0)
			return tl_fail(tl, "no events");
		if (tl->run[run].first < tmin)
			tmin = tl->run[run].first;
		if (tl->run[run].last > tmax)
			tmax = tl->run[run].last;
		if (tl->run[run].nranks > g.nranks)
			g.nranks = tl->run[run].nranks;
	}
	for (run = 0; run < tl->o.nruns; run++)
		if (tl->lane == NULL)
			return tl_fail(tl, "no events");
	if (tl->o.select)
		for (i = 0; i < tl->ranks.n; i++)
			if (tl->ranks.hi[i] >= g.nranks)
				return tl_fail(tl, "rank %ld is not in the trace "
				    "(ranks 0-%ld)", (long)(tl->ranks.lo[i] >
				    g.nranks ? tl->ranks.lo[i] : g.nranks),
				    (long)g.nranks - 1);
	if (tl->o.window) {
		if (tl->o.from > tmax || tl->o.to < tmin) {
			char a[32], b[32];

			a[trc_format_time(a, tmin)] = '\0';
			b[trc_format_time(b, tmax)] = '\0';
			return tl_fail(tl, "the window is outside the trace "
			    "(%s to %s s)", a, b);
		}
		g.t0 = tl->o.from > tmin ? tl->o.from : tmin;
		g.t1 = tl->o.to < tmax ? tl->o.to : tmax;
	} else {
		g.t0 = tmin;
		g.t1 = tmax;
	}
	if (g.t1 <= g.t0)
		g.t1 = g.t0 + 1;
	if (!tl->have_range) {
		tl->have_range = 1;
		tl->lo = g.t0;
		tl->bw = 1;
	}
	g.width = tl->o.width > 0 ? tl->o.width : 1200;
	g.plotw = g.width - LEFT - RIGHT;
	if (g.plotw > NBINS / 2)
		g.plotw = NBINS / 2;
	if (g.plotw < 50)
		return tl_fail(tl, "the picture is too narrow");
	g.width = LEFT + g.plotw + RIGHT;
	if ((g.rank_y = malloc((size_t)g.nranks * sizeof(*g.rank_y))) == NULL)
		return tl_fail(tl, "out of memory");
	for (r = 0; r < g.nranks; r++)
		nsel += tl_selected(tl, r);
	g.gap = tl->o.nruns > 1 ? 6 : 2;
	g.lane_h = tl->o.lane_height;
	if (g.lane_h <= 0) {
		g.lane_h = (600 - nsel * g.gap) / (nsel * tl->o.nruns);
		if (g.lane_h > 30)
			g.lane_h = 30;
		if (g.lane_h < 3)
			g.lane_h = 3;
	}
	y = TOP;
	for (r = 0; r < g.nranks; r++) {
		if (!tl_selected(tl, r)) {
			g.rank_y[r] = -1;
			continue;
		}
		g.rank_y[r] = y;
		y += tl->o.nruns * g.lane_h + g.gap;
	}
	cols = (g.width - 20) / LEGEND_COL;
	if (cols < 1)
		cols = 1;
	g.height = y + AXIS + 10 + legend_rows(tl, cols, diff) * LEGEND_ROW;

	trc_svg_printf(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
	    "font-size=\"12\" data-kind=\"%s\" data-ranks=\"%ld\" "
	    "data-t0=\"%lld\" data-t1=\"%lld\" data-plot-x=\"%d\" "
	    "data-plot-width=\"%d\">\n<title>", g.width, g.height, g.width,
	    g.height, diff ? "diff" : tl->o.nruns > 1 ? "vs" : "timeline",
	    (long)nsel, (long long)g.t0, (long long)g.t1, LEFT, g.plotw);
	trc_svg_text(s, title, strlen(title));
	trc_svg_printf(s, "</title>\n<style>\n"
	    ".lanes rect{shape-rendering:crispEdges}\n"
	    ".msgs line{stroke:#000;stroke-width:0.6;stroke-opacity:0.7}\n"
	    ".unmatched{fill:" TRC_SVG_MARK_COLOR "}\n"
	    ".first{fill:none;stroke:" TRC_SVG_FIRST_COLOR ";stroke-width:1.5}\n"
	    ".msgs line{marker-end:url(#head)}\n"
	    ".msgs.dense line{marker-end:none;stroke-opacity:0.3}\n");
	for (i = 0; i < NCLASS; i++)
		trc_svg_printf(s, ".k%d{fill:%s}\n", i, trc_svg_class_color(i));
	trc_svg_printf(s, "</style>\n<rect width=\"100%%\" height=\"100%%\" "
	    "fill=\"#fff\"/>\n<text class=\"title\" x=\"10\" y=\"24\" "
	    "font-size=\"16\">");
	trc_svg_text(s, title, strlen(title));
	/* The clip leaves room for marks on the first and last event. */
	trc_svg_printf(s, "</text>\n<defs><clipPath id=\"plot\"><rect x=\"%d\" "
	    "y=\"0\" width=\"%d\" height=\"%d\"/></clipPath>\n"
	    "<marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"10\" "
	    "refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" "
	    "orient=\"auto\"><path d=\"M0,0L10,5L0,10z\"/></marker></defs>\n",
	    LEFT - 5, g.plotw + 10, g.height);

	trc_svg_printf(s, "<g class=\"lanes\">\n");
	for (r = 0; r < g.nranks; r++) {
		if (g.rank_y[r] < 0)
			continue;
		for (run = 0; run < tl->o.nruns; run++) {
			lane = r * tl->o.nruns + run;
			y = g.rank_y[r] + run * g.lane_h;
			trc_svg_printf(s, "<g class=\"lane\" data-rank=\"%ld\" "
			    "data-run=\"%d\" data-y=\"%d\" data-h=\"%d\" "
			    "transform=\"translate(0,%d)\">", (long)r, run, y,
			    g.lane_h, y);
			trc_svg_printf(s, "<text x=\"%d\" y=\"%.1f\" "
			    "text-anchor=\"end\" font-size=\"%d\">rank %ld%s%s"
			    "</text>", LEFT - 6, g.lane_h / 2.0 + 4,
			    g.lane_h < 12 ? (g.lane_h > 6 ? g.lane_h : 6) : 12,
			    (long)r, tl->o.nruns > 1 ? " " : "",
			    tl->o.nruns > 1 && tl->o.run_name[run] ?
			    tl->o.run_name[run] : "");
			if (lane < tl->nlanes)
				draw_lane(s, tl, &g, &tl->lane[lane]);
			trc_svg_printf(s, "</g>\n");
		}
	}
	trc_svg_printf(s, "</g>\n");

	/*
	 * Thinned arrows are fainter and headless: they show traffic.
	 * Heads closer than ARROW_PX on average would make a dotted line.
	 */
	trc_svg_printf(s, "<g class=\"msgs%s\" clip-path=\"url(#plot)\" "
	    "data-messages=\"%llu\" data-thinned=\"%d\">\n",
	    tl->arrows_thinned || tl->narrow * ARROW_PX > (size_t)g.plotw ?
	    " dense" : "",
	    (unsigned long long)tl->messages, tl->arrows_thinned);
	if (!tl->arrows_thinned)
		for (m = 0; m < tl->narrow; m++)
			draw_arrow(s, tl, &g, &tl->arrow[m]);
	else
		/* One arrow per lane and few pixel columns of its send. */
		for (lane = 0; lane < tl->nlanes; lane++) {
			if (tl->lane[lane].slot == NULL)
				continue;
			for (last = -1, k = 0; k < NBINS; k++) {
				const struct arrow *a = &tl->lane[lane].slot[k];

				if (a->from < 0 || a->ts < g.t0 || a->ts > g.t1)
					continue;
				/* At most one per ARROW_PX columns: a denser
				 * mesh of lines hides the lanes. */
				x = (int)geom_x(&g, a->ts) / ARROW_PX;
				if (x == last)
					continue;
				last = x;
				draw_arrow(s, tl, &g, a);
			}
		}
	trc_svg_printf(s, "</g>\n");

	if (diff) {
		trc_svg_printf(s, "<g class=\"marks\" clip-path=\"url(#plot)\" "
		    "data-marked0=\"%llu\" data-marked1=\"%llu\" "
		    "data-thinned=\"%d\">\n",
		    (unsigned long long)tl->marked[0],
		    (unsigned long long)tl->marked[1], tl->marks_thinned);
		if (!tl->marks_thinned)
			for (m = 0; m < tl->nmark; m++)
				draw_mark(s, tl, &g, tl->mark[m].lane,
				    tl->mark[m].t, 1);
		else
			for (lane = 0; lane < tl->nlanes; lane++) {
				const uint32_t *mk = tl->lane[lane].marks;
				uint32_t n = 0;
				int64_t t = 0;

				if (mk == NULL)
					continue;
				/* Counts summed per pixel column. */
				for (last = -1, k = 0; k <= NBINS; k++) {
					int64_t tk = tl->lo + (int64_t)k * tl->bw;

					x = k < NBINS ? (int)geom_x(&g, tk) : -2;
					if (x != last && n > 0) {
						draw_mark(s, tl, &g, lane, t, n);
						n = 0;
					}
					if (k < NBINS && mk[k] > 0) {
						if (n == 0)
							t = tk + tl->bw / 2;
						n += mk[k];
					}
					last = x;
				}
			}
		for (lane = 0; lane < tl->nlanes; lane++) {
			int32_t rk = lane / tl->o.nruns;

			run = lane % tl->o.nruns;
			if (tl->lane[lane].first_diff < 0 || rk >= g.nranks ||
			    g.rank_y[rk] < 0)
				continue;
			/* A box around the mark, which stays visible inside. */
			trc_svg_printf(s, "<rect class=\"first\" data-rank=\"%ld\" "
			    "data-run=\"%d\" x=\"%.1f\" y=\"%d\" width=\"10\" "
			    "height=\"%d\"/>\n", (long)rk, run,
			    geom_x(&g, tl->lane[lane].first_diff) - 5,
			    g.rank_y[rk] + run * g.lane_h, g.lane_h);
		}
		trc_svg_printf(s, "</g>\n");
	}
	y = g.height - legend_rows(tl, cols, diff) * LEGEND_ROW - AXIS - 10;
	draw_axis(s, &g, y + 2);
	draw_legend(s, tl, cols, y + AXIS + 6, diff);
	trc_svg_printf(s, "</svg>\n");
	free(g.rank_y);
	if (s->failed)
		return tl_fail(tl, "out of memory");
	return 0;
}

/* ---- runs read in from their files ---- */

int
trc_timeline_read(struct trc_timeline *tl, int run, const char *path,
    const struct trc_open_opts *ropts, char *err, size_t errlen)
{
	struct trc_reader *rd;
	const struct trc_header *h;
	struct trc_event ev;
	int rc;

	if ((rd = trc_open_with(path, ropts)) == NULL)
		return trc_errorf(err, errlen, "out of memory");
	while ((rc = trc_next(rd, &ev)) > 0)
		if (trc_timeline_add(tl, run, &ev) < 0) {
			rc = trc_errorf(err, errlen, "%s:%ld: %s", trc_name(rd),
			    tl->err_line > 0 ? tl->err_line : ev.line,
			    trc_timeline_error(tl));
			goto out;
		}
	if (rc < 0) {
		trc_errorf(err, errlen, "%s", trc_error(rd));
		goto out;
	}
	h = trc_get_header(rd);
	if (trc_timeline_end(tl, run, h ? h->ranks : 0) < 0)
		rc = trc_errorf(err, errlen, "%s: %s", trc_name(rd),
		    trc_timeline_error(tl));
out:
	trc_close(rd);
	return rc < 0 ? -1 : 0;
}

/* The indexes of one rank's unmatched events in each run, ascending. */
struct unmatched {
	size_t	*idx[2];
	size_t	 n[2], cap[2];
};

struct unmatched_ranks {
	struct unmatched *u;
	int	 failed;	/* out of memory */
};

static void
unmatched_add(void *arg, int32_t rank, int side, size_t i)
{
	struct unmatched_ranks *ur = arg;
	struct unmatched *u = &ur->u[rank];
	size_t cap;
	size_t *p;

	if (ur->failed)
		return;
	if (u->n[side] == u->cap[side]) {
		cap = u->cap[side] ? 2 * u->cap[side] : 16;
		if ((p = realloc(u->idx[side], cap * sizeof(*p))) == NULL) {
			ur->failed = 1;
			return;
		}
		u->idx[side] = p;
		u->cap[side] = cap;
	}
	u->idx[side][u->n[side]++] = i;
}

/*
 * Marks run's unmatched events, reading its file again: the graph
 * keeps only each event's index on its rank, the timeline wants its
 * time.
 */
static int
mark_run(struct trc_timeline *tl, int run, const char *path,
    const struct trc_open_opts *ropts, const struct unmatched *u,
    int32_t nranks, char *err, size_t errlen)
{
	struct trc_reader *rd;
	struct trc_event ev;
	size_t *cnt, *next;
	int rc;

	rd = trc_open_with(path, ropts);
	cnt = calloc((size_t)nranks + 1, sizeof(*cnt));
	next = calloc((size_t)nranks + 1, sizeof(*next));
	if (rd == NULL || cnt == NULL || next == NULL) {
		rc = trc_errorf(err, errlen, "out of memory");
		goto out;
	}
	while ((rc = trc_next(rd, &ev)) > 0) {
		const struct unmatched *ur;
		size_t c;

		if (ev.rank >= nranks)
			continue;
		ur = &u[ev.rank];
		c = cnt[ev.rank]++;
		if (next[ev.rank] < ur->n[run] &&
		    ur->idx[run][next[ev.rank]] == c) {
			if (trc_timeline_mark(tl, run, ev.rank, ev.t, 0) < 0 ||
			    (next[ev.rank] == 0 &&
			    trc_timeline_mark(tl, run, ev.rank, ev.t, 1) < 0)) {
				rc = trc_errorf(err, errlen, "%s",
				    trc_timeline_error(tl));
				goto out;
			}
			next[ev.rank]++;
		}
	}
	if (rc < 0)
		trc_errorf(err, errlen, "%s", trc_error(rd));
out:
	if (rd != NULL)
		trc_close(rd);
	free(cnt);
	free(next);
	return rc < 0 ? -1 : 0;
}

int
trc_timeline_diff(struct trc_timeline *tl, const char *pa, const char *pb,
    unsigned key, const struct trc_open_opts *ropts,
    struct trc_graph_diff *gd, char *err, size_t errlen)
{
	struct trc_dict *dict;
	struct trc_graph g[2];
	struct unmatched_ranks ur = { NULL, 0 };
	struct trc_reader *rd;
	int32_t nranks = 0, r;
	int i, rc = -1;

	memset(g, 0, sizeof(g));
	if (strcmp(pa, "-") == 0 || strcmp(pb, "-") == 0)
		return trc_errorf(err, errlen, "the traces are read twice: "
		    "give files, not stdin");
	if ((dict = trc_dict_new(key)) == NULL)
		return trc_errorf(err, errlen, "out of memory");
	for (i = 0; i < 2; i++) {
		if ((rd = trc_open_with(i ? pb : pa, ropts)) == NULL) {
			trc_errorf(err, errlen, "out of memory");
			goto out;
		}
		if (trc_graph_read(&g[i], rd, dict, NULL) < 0) {
			trc_errorf(err, errlen, "%s", trc_error(rd));
			trc_close(rd);
			goto out;
		}
		trc_close(rd);
	}
	nranks = g[0].nranks > g[1].nranks ? g[0].nranks : g[1].nranks;
	if ((ur.u = calloc((size_t)nranks + 1, sizeof(*ur.u))) == NULL ||
	    trc_graph_unmatched(&g[0], &g[1], gd, unmatched_add, &ur) < 0 ||
	    ur.failed) {
		trc_errorf(err, errlen, "out of memory");
		goto out;
	}
	for (i = 0; i < 2; i++)
		trc_graph_free(&g[i]);
	trc_dict_free(dict);
	dict = NULL;
	if (mark_run(tl, 0, pa, ropts, ur.u, nranks, err, errlen) < 0 ||
	    mark_run(tl, 1, pb, ropts, ur.u, nranks, err, errlen) < 0)
		goto out;
	rc = 0;
out:
	for (i = 0; i < 2; i++)
		trc_graph_free(&g[i]);
	if (dict != NULL)
		trc_dict_free(dict);
	for (r = 0; ur.u != NULL && r < nranks; r++) {
		free(ur.u[r].idx[0]);
		free(ur.u[r].idx[1]);
	}
	free(ur.u);
	return rc;
}
