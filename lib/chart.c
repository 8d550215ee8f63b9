/*
 * chart.c - bar charts of summaries as SVG: time per procedure and
 * rank, predicted/observed ratios, message sizes, design effects.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "trc_svg.h"

#define C_LEFT		80
#define C_TOP		48
#define C_PLOTH		320
#define C_BOTTOM	110	/* category labels, turned */
#define C_ROW		20
#define C_COL		170

void
trc_chart_free(struct trc_chart *c)
{
	int i;

	/* A chart whose allocation failed half way has counts, no arrays. */
	for (i = 0; c->cat != NULL && i < c->ncat; i++)
		free(c->cat[i]);
	for (i = 0; c->ser != NULL && i < c->nser; i++)
		free(c->ser[i]);
	free(c->cat);
	free(c->ser);
	free(c->color);
	free(c->v);
	memset(c, 0, sizeof(*c));
}

/* Room for ncat x nser values, all NaN. */
static int
chart_alloc(struct trc_chart *c, int ncat, int nser)
{
	size_t i;

	c->ncat = ncat;
	c->nser = nser;
	c->cat = calloc((size_t)ncat + 1, sizeof(*c->cat));
	c->ser = calloc((size_t)nser + 1, sizeof(*c->ser));
	c->color = calloc((size_t)nser + 1, sizeof(*c->color));
	c->v = malloc(((size_t)ncat * nser + 1) * sizeof(*c->v));
	if (c->cat == NULL || c->ser == NULL || c->color == NULL ||
	    c->v == NULL)
		return -1;
	for (i = 0; i < (size_t)ncat * nser; i++)
		c->v[i] = NAN;
	return 0;
}

static char *
xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	return p ? memcpy(p, s, n) : NULL;
}

static double
nice_step(double max, int n)
{
	double raw = max / n, p = pow(10, floor(log10(raw)));

	if (raw >= 5 * p)
		return 5 * p;
	if (raw >= 2 * p)
		return 2 * p;
	return p;
}

int
trc_svg_chart(struct trc_svg *s, const struct trc_chart *c)
{
	double max = 0, step, sum, v, gw, bw, x, y, h, base;
	int i, j, width, height, plotw, cols, rows, dec, nbars = 0;

	if (c->ncat <= 0 || c->nser <= 0)
		return -1;
	for (i = 0; i < c->ncat; i++) {
		sum = 0;
		for (j = 0; j < c->nser; j++) {
			v = c->v[i * c->nser + j];
			if (isnan(v) || v < 0)
				continue;
			nbars++;
			if (c->stacked)
				sum += v;
			else if (v > max)
				max = v;
		}
		if (c->stacked && sum > max)
			max = sum;
	}
	if (nbars == 0)
		return -1;
	if (c->ref > max)
		max = c->ref;
	if (max <= 0)
		max = 1;
	step = nice_step(max, 5);
	max = ceil(max / step - 1e-9) * step;
	for (dec = 0; dec < 9 && step * pow(10, dec) < 0.999; dec++)
		continue;
	plotw = c->ncat * (c->stacked ? 40 : 12 * c->nser + 16);
	if (plotw < 400)
		plotw = 400;
	if (plotw > 1400)
		plotw = 1400;
	width = C_LEFT + plotw + 30;
	cols = (width - 20) / C_COL;
	if (cols < 1)
		cols = 1;
	rows = (c->nser + cols - 1) / cols;
	height = C_TOP + C_PLOTH + C_BOTTOM + rows * C_ROW + 10;

	trc_svg_printf(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
	    "font-size=\"12\" data-kind=\"chart\" data-chart=\"%s\" "
	    "data-plot-x=\"%d\" data-plot-y=\"%d\" data-plot-width=\"%d\" "
	    "data-plot-height=\"%d\">\n<title>", width, height, width, height,
	    c->kind ? c->kind : "bars", C_LEFT, C_TOP, plotw, C_PLOTH);
	trc_svg_text(s, c->title, strlen(c->title));
	trc_svg_printf(s, "</title>\n<rect width=\"100%%\" height=\"100%%\" "
	    "fill=\"#fff\"/>\n<text class=\"title\" x=\"10\" y=\"24\" "
	    "font-size=\"16\">");
	trc_svg_text(s, c->title, strlen(c->title));
	trc_svg_printf(s, "</text>\n<g class=\"axis\">\n");
	for (v = 0; v <= max + step / 2; v += step) {
		y = C_TOP + C_PLOTH - v / max * C_PLOTH;
		trc_svg_printf(s, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
		    "y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" "
		    "text-anchor=\"end\">%.*f</text>\n", C_LEFT, y,
		    C_LEFT + plotw, y, C_LEFT - 6, y + 4, dec, v);
	}
	trc_svg_printf(s, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
	    "stroke=\"#000\"/>\n<text transform=\"translate(16,%d) "
	    "rotate(-90)\" text-anchor=\"middle\">", C_LEFT, C_TOP + C_PLOTH,
	    C_LEFT + plotw, C_TOP + C_PLOTH, C_TOP + C_PLOTH / 2);
	trc_svg_text(s, c->ylabel, strlen(c->ylabel));
	trc_svg_printf(s, "</text>\n</g>\n<g class=\"bars\">\n");
	gw = (double)plotw / c->ncat;
	bw = c->stacked ? gw * 0.6 : gw * 0.8 / c->nser;
	for (i = 0; i < c->ncat; i++) {
		base = 0;
		for (j = 0; j < c->nser; j++) {
			v = c->v[i * c->nser + j];
			if (isnan(v) || v < 0)
				continue;
			h = v / max * C_PLOTH;
			if (c->stacked) {
				x = C_LEFT + i * gw + gw * 0.2;
				y = C_TOP + C_PLOTH - base - h;
				base += h;
			} else {
				x = C_LEFT + i * gw + gw * 0.1 + j * bw;
				y = C_TOP + C_PLOTH - h;
			}
			trc_svg_printf(s, "<rect class=\"bar\" data-cat=\"%d\" "
			    "data-ser=\"%d\" data-v=\"%.9g\" x=\"%.2f\" y=\"%.2f\" "
			    "width=\"%.2f\" height=\"%.2f\" fill=\"%s\"><title>",
			    i, j, v, x, y, bw, h, c->color && c->color[j] ?
			    c->color[j] : trc_svg_proc_color(j));
			trc_svg_text(s, c->cat[i], strlen(c->cat[i]));
			trc_svg_printf(s, ", ");
			trc_svg_text(s, c->ser[j], strlen(c->ser[j]));
			trc_svg_printf(s, ": %.6g</title></rect>\n", v);
		}
		x = C_LEFT + (i + 0.5) * gw;
		trc_svg_printf(s, "<text class=\"cat\" transform=\"translate(%.1f,"
		    "%d) rotate(-40)\" text-anchor=\"end\">", x + 4,
		    C_TOP + C_PLOTH + 14);
		trc_svg_text(s, c->cat[i], strlen(c->cat[i]) > 24 ? 24 :
		    strlen(c->cat[i]));
		trc_svg_printf(s, "</text>\n");
	}
	trc_svg_printf(s, "</g>\n");
	if (c->ref > 0) {
		y = C_TOP + C_PLOTH - c->ref / max * C_PLOTH;
		trc_svg_printf(s, "<line class=\"ref\" x1=\"%d\" y1=\"%.1f\" "
		    "x2=\"%d\" y2=\"%.1f\" stroke=\"#000\" "
		    "stroke-dasharray=\"6,4\"/>\n", C_LEFT, y, C_LEFT + plotw, y);
	}
	trc_svg_printf(s, "<g class=\"legend\">\n");
	for (j = 0; j < c->nser; j++) {
		x = 10 + (j % cols) * C_COL;
		y = C_TOP + C_PLOTH + C_BOTTOM + (j / cols) * C_ROW;
		trc_svg_printf(s, "<g class=\"entry\" data-kind=\"series\" "
		    "data-name=\"");
		trc_svg_text(s, c->ser[j], strlen(c->ser[j]));
		trc_svg_printf(s, "\"><rect x=\"%.0f\" y=\"%.0f\" width=\"14\" "
		    "height=\"14\" fill=\"%s\"/><text x=\"%.0f\" y=\"%.0f\">",
		    x, y, c->color && c->color[j] ? c->color[j] :
		    trc_svg_proc_color(j), x + 20, y + 12);
		trc_svg_text(s, c->ser[j], strlen(c->ser[j]) > 22 ? 22 :
		    strlen(c->ser[j]));
		trc_svg_printf(s, "</text></g>\n");
	}
	trc_svg_printf(s, "</g>\n</svg>\n");
	return s->failed ? -1 : 0;
}

/* ---- from summaries ---- */

int
trc_chart_procs(struct trc_chart *c, const struct trc_summary *sum)
{
	static const char *const act[] = { "computation", "send", "receive",
	    "wait", "collective" };
	int32_t r, p, np = sum->labels.n;
	int a, j, keep[5], nser;
	char buf[32];
	double other;

	memset(c, 0, sizeof(*c));
	if (sum->nranks <= 0)
		return -1;
	/* Activities that took no time anywhere stay out of the legend. */
	for (nser = np, a = 0; a < 5; a++) {
		keep[a] = 0;
		for (r = 0; r < sum->nranks; r++) {
			other = (double)sum->rank[r].act[a];
			if (a == TRC_ACT_COMP)
				for (p = 0; p < np; p++)
					other -= (double)sum->comp[p][r];
			if (other > 0)
				keep[a] = 1;
		}
		nser += keep[a];
	}
	if (nser == 0 || chart_alloc(c, sum->nranks, nser) < 0)
		return -1;
	c->title = "time per rank, by procedure and activity";
	c->ylabel = "time (s)";
	c->stacked = 1;
	c->kind = "procs";
	for (p = 0; p < np; p++) {
		if ((c->ser[p] = xstrdup(sum->labels.name[p])) == NULL)
			return -1;
		c->color[p] = trc_svg_proc_color(p);
	}
	for (j = np, a = 0; a < 5; a++)
		if (keep[a]) {
			if ((c->ser[j] = xstrdup(act[a])) == NULL)
				return -1;
			c->color[j++] = trc_svg_class_color(a);
		}
	for (r = 0; r < sum->nranks; r++) {
		snprintf(buf, sizeof(buf), "rank %ld", (long)r);
		if ((c->cat[r] = xstrdup(buf)) == NULL)
			return -1;
		for (p = 0; p < np; p++)
			c->v[r * nser + p] = sum->comp[p][r] / 1e9;
		for (j = np, a = 0; a < 5; a++) {
			if (!keep[a])
				continue;
			other = (double)sum->rank[r].act[a];
			if (a == TRC_ACT_COMP)
				for (p = 0; p < np; p++)
					other -= (double)sum->comp[p][r];
			c->v[r * nser + j++] = other / 1e9;
		}
	}
	return 0;
}

/* 1536 as "1.5K", 4096 as "4K". */
static void
fmt_bytes(char *buf, size_t len, int64_t b)
{
	static const char unit[] = " KMGTPE";
	int u = 0;

	while (b >= 1024 && b % 1024 == 0 && u < 6) {
		b /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%lld", (long long)b);
	else
		snprintf(buf, len, "%lld%c", (long long)b, unit[u]);
}

int
trc_chart_sizes(struct trc_chart *c, const struct trc_summary *sum)
{
	int k, lo = -1, hi = -1;
	char a[24], b[24], buf[64];

	memset(c, 0, sizeof(*c));
	for (k = 0; k < TRC_SIZE_BUCKETS; k++)
		if (sum->size_count[k] > 0) {
			if (lo < 0)
				lo = k;
			hi = k;
		}
	if (lo < 0 || chart_alloc(c, hi - lo + 1, 1) < 0)
		return -1;
	c->title = "sent messages by size (bytes)";
	c->ylabel = "messages";
	c->kind = "sizes";
	if ((c->ser[0] = xstrdup("messages")) == NULL)
		return -1;
	c->color[0] = trc_svg_class_color(TRC_SVG_SEND);
	for (k = lo; k <= hi; k++) {
		if (k <= 1)
			snprintf(buf, sizeof(buf), "%d", k);
		else {
			fmt_bytes(a, sizeof(a), (int64_t)1 << (k - 1));
			fmt_bytes(b, sizeof(b), (int64_t)1 << k);
			snprintf(buf, sizeof(buf), "%s-%s", a, b);
		}
		if ((c->cat[k - lo] = xstrdup(buf)) == NULL)
			return -1;
		c->v[k - lo] = (double)sum->size_count[k];
	}
	return 0;
}

int
trc_chart_ratios(struct trc_chart *c, const struct trc_versus *v)
{
	const struct trc_pair *pr;
	int32_t i, r, n = 0, k;
	char buf[32];
	int kind;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < v->names.n; i++)
		for (r = 0; r < v->nranks; r++)
			if (v->pair[i][r].nratio > 0) {
				n++;
				break;
			}
	if (n == 0 || v->nranks <= 0 || chart_alloc(c, n, v->nranks) < 0)
		return -1;
	c->title = "mean predicted/observed lifetime per occurrence";
	c->ylabel = "predicted / observed";
	c->ref = 1;
	c->kind = "ratios";
	for (r = 0; r < v->nranks; r++) {
		snprintf(buf, sizeof(buf), "rank %ld", (long)r);
		if ((c->ser[r] = xstrdup(buf)) == NULL)
			return -1;
	}
	/* Procedures first, then operations, as trc-sum --vs prints them. */
	k = 0;
	for (kind = 'P'; kind != 0; kind = kind == 'P' ? 'O' : 0)
		for (i = 0; i < v->names.n; i++) {
			if (v->names.name[i][0] != kind)
				continue;
			for (r = 0; r < v->nranks; r++)
				if (v->pair[i][r].nratio > 0)
					break;
			if (r == v->nranks)
				continue;
			if ((c->cat[k] = xstrdup(v->names.name[i] + 2)) == NULL)
				return -1;
			for (r = 0; r < v->nranks; r++) {
				pr = &v->pair[i][r];
				if (pr->nratio > 0)
					c->v[k * v->nranks + r] =
					    pr->ratio_sum / (double)pr->nratio;
			}
			k++;
		}
	return 0;
}

/* ---- trc-effects' output ---- */

struct trc_effects_reader {
	char	**eff;		/* effect names, in order of arrival */
	int	  neff, capeff;
	char	**resp;
	int	  nresp;
	double	 *v;		/* [resp][effect], MAXEFF per response */
	int	  state;	/* 0 outside, 1 header due, 2 in a table */
	int	  col_eff, col_pct;
	long	  lineno;
};

#define MAXEFF	1024
#define MAXRESP	16

struct trc_effects_reader *
trc_effects_reader_new(void)
{
	return calloc(1, sizeof(struct trc_effects_reader));
}

void
trc_effects_reader_free(struct trc_effects_reader *e)
{
	int i;

	if (e == NULL)
		return;
	for (i = 0; i < e->neff; i++)
		free(e->eff[i]);
	for (i = 0; i < e->nresp; i++)
		free(e->resp[i]);
	free(e->eff);
	free(e->resp);
	free(e->v);
	free(e);
}

/* The f-th tab-separated field of line: its start and length, or -1. */
static int
field(const char *line, int f, const char **p, size_t *len)
{
	const char *t;

	for (; f > 0; f--)
		if ((line = strchr(line, '\t')) == NULL)
			return -1;
		else
			line++;
	t = strchr(line, '\t');
	*p = line;
	*len = t ? (size_t)(t - line) : strlen(line);
	return 0;
}

int
trc_effects_reader_line(struct trc_effects_reader *e, const char *line,
    char *err, size_t errlen)
{
	const char *p, *name;
	size_t len, nlen;
	int f, i;
	char num[64], *end;
	double v;

	e->lineno++;
	if (strncmp(line, "response: ", 10) == 0) {
		if (e->nresp == MAXRESP)
			return trc_errorf(err, errlen, "%ld: more than %d "
			    "responses", e->lineno, MAXRESP);
		if (e->resp == NULL && ((e->resp = calloc(MAXRESP,
		    sizeof(*e->resp))) == NULL || (e->v = malloc(MAXRESP *
		    MAXEFF * sizeof(*e->v))) == NULL))
			return trc_errorf(err, errlen, "out of memory");
		if ((e->resp[e->nresp] = xstrdup(line + 10)) == NULL)
			return trc_errorf(err, errlen, "out of memory");
		for (i = 0; i < MAXEFF; i++)
			e->v[e->nresp * MAXEFF + i] = NAN;
		e->nresp++;
		e->state = 1;
		return 0;
	}
	if (e->state == 1) {
		e->col_eff = e->col_pct = -1;
		for (f = 0; field(line, f, &p, &len) == 0; f++) {
			if (len == 6 && memcmp(p, "effect", 6) == 0)
				e->col_eff = f;
			if (len == 7 && memcmp(p, "percent", 7) == 0)
				e->col_pct = f;
		}
		if (e->col_eff < 0 || e->col_pct < 0)
			return trc_errorf(err, errlen, "%ld: no effect and "
			    "percent columns after the response line", e->lineno);
		e->state = 2;
		return 0;
	}
	if (e->state != 2)
		return 0;
	if (line[0] == '\0' || line[0] == '#') {
		e->state = line[0] == '#' ? 2 : 0;
		return 0;
	}
	if (field(line, e->col_eff, &p, &len) < 0 || len == 0)
		return trc_errorf(err, errlen, "%ld: no effect name", e->lineno);
	if (len == 5 && memcmp(p, "total", 5) == 0)
		return 0;
	name = p;
	nlen = len;
	if (field(line, e->col_pct, &p, &len) < 0)
		return trc_errorf(err, errlen, "%ld: no percent field",
		    e->lineno);
	/* The mean, and effects without a share: no bar. */
	if (len == 1 && *p == '-')
		return 0;
	for (i = 0; i < e->neff; i++)
		if (strlen(e->eff[i]) == nlen && memcmp(e->eff[i], name, nlen) == 0)
			break;
	if (i == e->neff) {
		if (e->neff == MAXEFF)
			return trc_errorf(err, errlen, "%ld: more than %d "
			    "effects", e->lineno, MAXEFF);
		if (e->neff == e->capeff) {
			char **q;

			e->capeff = e->capeff ? 2 * e->capeff : 16;
			if ((q = realloc(e->eff, (size_t)e->capeff *
			    sizeof(*q))) == NULL)
				return trc_errorf(err, errlen, "out of memory");
			e->eff = q;
		}
		if ((e->eff[i] = malloc(nlen + 1)) == NULL)
			return trc_errorf(err, errlen, "out of memory");
		memcpy(e->eff[i], name, nlen);
		e->eff[i][nlen] = '\0';
		e->neff++;
	}
	if (len == 0 || len >= sizeof(num))
		return trc_errorf(err, errlen, "%ld: invalid percent '%.*s'",
		    e->lineno, (int)(len < 40 ? len : 40), p);
	memcpy(num, p, len);
	num[len] = '\0';
	v = strtod(num, &end);
	if (*end != '\0' || !(v >= 0 && v <= 100.0001))
		return trc_errorf(err, errlen, "%ld: invalid percent '%s'",
		    e->lineno, num);
	e->v[(e->nresp - 1) * MAXEFF + i] = v;
	return 0;
}

int
trc_chart_effects(struct trc_chart *c, struct trc_effects_reader *e,
    char *err, size_t errlen)
{
	int i, j;

	memset(c, 0, sizeof(*c));
	if (e->nresp == 0 || e->neff == 0)
		return trc_errorf(err, errlen, "no effects found (trc-effects "
		    "output expected)");
	if (chart_alloc(c, e->neff, e->nresp) < 0)
		return trc_errorf(err, errlen, "out of memory");
	c->title = "share of the variation explained, per effect";
	c->ylabel = "variation explained (%)";
	c->kind = "effects";
	for (j = 0; j < e->nresp; j++)
		if ((c->ser[j] = xstrdup(e->resp[j])) == NULL)
			return trc_errorf(err, errlen, "out of memory");
	for (i = 0; i < e->neff; i++) {
		if ((c->cat[i] = xstrdup(e->eff[i])) == NULL)
			return trc_errorf(err, errlen, "out of memory");
		for (j = 0; j < e->nresp; j++)
			c->v[i * e->nresp + j] = e->v[j * MAXEFF + i];
	}
	return 0;
}

/* ---- charts of files ---- */

int
trc_chart_trace(struct trc_chart *c, const char *kind, const char *path,
    const struct trc_open_opts *ropts, char *err, size_t errlen)
{
	struct trc_reader *rd;
	struct trc_summary *sum = NULL;
	struct trc_event ev;
	int procs = strcmp(kind, "procs") == 0, rc;

	memset(c, 0, sizeof(*c));
	if ((rd = trc_open_with(path, ropts)) == NULL ||
	    (sum = trc_summary_new()) == NULL) {
		rc = trc_errorf(err, errlen, "out of memory");
		goto out;
	}
	while ((rc = trc_next(rd, &ev)) > 0)
		if (trc_summary_add(sum, &ev) < 0) {
			rc = trc_errorf(err, errlen, "%s:%ld: %s", trc_name(rd),
			    ev.line, trc_summary_error(sum));
			goto out;
		}
	if (rc < 0)
		trc_errorf(err, errlen, "%s", trc_error(rd));
	else if (sum->nranks == 0)
		rc = trc_errorf(err, errlen, "%s: no events", trc_name(rd));
	else if (trc_summary_finish(sum) < 0)
		rc = trc_errorf(err, errlen, "%s: %s", trc_name(rd),
		    trc_summary_error(sum));
	else if ((procs ? trc_chart_procs(c, sum) : trc_chart_sizes(c,
	    sum)) < 0) {
		trc_chart_free(c);
		rc = trc_errorf(err, errlen, "%s: %s", trc_name(rd), procs ?
		    "nothing to chart" : "no messages sent");
	}
out:
	if (sum != NULL)
		trc_summary_free(sum);
	if (rd != NULL)
		trc_close(rd);
	return rc < 0 ? -1 : 0;
}

int
trc_chart_ratios_of(struct trc_chart *c, const char *predicted,
    const char *observed, const struct trc_open_opts *ropts, char *err,
    size_t errlen)
{
	struct trc_reader *r[2] = { NULL, NULL };
	struct trc_summary *sum[2] = { NULL, NULL };
	struct trc_versus *v = NULL;
	int i, rc = -1;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < 2; i++)
		if ((r[i] = trc_open_with(i == TRC_PREDICTED ? predicted :
		    observed, ropts)) == NULL ||
		    (sum[i] = trc_summary_new()) == NULL) {
			trc_errorf(err, errlen, "out of memory");
			goto out;
		}
	if ((v = trc_versus_new()) == NULL) {
		trc_errorf(err, errlen, "out of memory");
		goto out;
	}
	if (trc_versus_read(v, r, sum) < 0) {
		trc_errorf(err, errlen, "%s", v->err);
		goto out;
	}
	for (i = 0; i < 2; i++)
		if (sum[i]->nranks == 0) {
			trc_errorf(err, errlen, "%s: no events",
			    trc_name(r[i]));
			goto out;
		}
	if (trc_chart_ratios(c, v) < 0) {
		trc_chart_free(c);
		trc_errorf(err, errlen, "no procedure or operation paired "
		    "with an observed lifetime above 0");
		goto out;
	}
	rc = 0;
out:
	for (i = 0; i < 2; i++) {
		if (sum[i] != NULL)
			trc_summary_free(sum[i]);
		if (r[i] != NULL)
			trc_close(r[i]);
	}
	if (v != NULL)
		trc_versus_free(v);
	return rc;
}

int
trc_chart_effects_of(struct trc_chart *c, const char *path, char *err,
    size_t errlen)
{
	struct trc_effects_reader *er = NULL;
	FILE *fp;
	char *line = NULL, msg[256];
	const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	size_t cap = 0;
	ssize_t len;
	int rc = -1;

	memset(c, 0, sizeof(*c));
	if (strcmp(path, "-") == 0)
		fp = stdin;
	else if ((fp = fopen(path, "r")) == NULL)
		return trc_errorf(err, errlen, "%s: cannot open: %s", path,
		    strerror(errno));
	if ((er = trc_effects_reader_new()) == NULL) {
		trc_errorf(err, errlen, "out of memory");
		goto out;
	}
	while ((len = getline(&line, &cap, fp)) >= 0) {
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (trc_effects_reader_line(er, line, msg, sizeof(msg)) < 0) {
			trc_errorf(err, errlen, "%s:%s", name, msg);
			goto out;
		}
	}
	if (ferror(fp))
		trc_errorf(err, errlen, "%s: read error", name);
	else if (trc_chart_effects(c, er, msg, sizeof(msg)) < 0) {
		trc_chart_free(c);
		trc_errorf(err, errlen, "%s: %s", name, msg);
	} else
		rc = 0;
out:
	if (er != NULL)
		trc_effects_reader_free(er);
	free(line);
	if (fp != stdin)
		fclose(fp);
	return rc;
}
