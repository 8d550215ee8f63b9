/*
 * runs.c - a two-level experiment's run table read back: the table of
 * trc-design -t with response columns appended (trc-effects' input),
 * and what the effects analysis asks of it beyond the effects.
 *
 * The design is not read from anywhere: each run's point is recovered
 * from its factor levels, so any regular two-level table will do, in
 * any run order, with replications.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"

/* Each run's arrays grow together. */
static int
grow(struct trc_runs *rs)
{
	size_t cap = rs->cap ? 2 * (size_t)rs->cap : 64;
	void *p;

#define GROW(a, each)	do {						\
	if ((p = realloc(rs->a, cap * (each))) == NULL)			\
		return -1;						\
	rs->a = p;							\
} while (0)
	GROW(pt, sizeof rs->pt[0]);
	GROW(resp, (size_t)rs->nresp * sizeof rs->resp[0]);
	GROW(place, sizeof rs->place[0]);
	GROW(id, sizeof rs->id[0]);
	GROW(outside, sizeof rs->outside[0]);
	GROW(fired, TRC_MAXFACTORS * sizeof rs->fired[0]);
	GROW(limited, sizeof rs->limited[0]);
#undef GROW
	rs->cap = (long)cap;
	return 0;
}

static int
header(struct trc_runs *rs, char **fv, int n, long lineno, char *err,
    size_t errlen)
{
	struct trc_runcol *c;
	uint32_t seen = 0;
	int i, j, f;

	if ((rs->col = calloc(n, sizeof rs->col[0])) == NULL)
		return trc_errorf(err, errlen, "out of memory");
	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			if (strcmp(rs->col[j].name, fv[i]) == 0)
				return trc_errorf(err, errlen, "%s:%ld: "
				    "duplicate column '%s'", rs->name, lineno,
				    fv[i]);
		c = &rs->col[rs->ncol++];
		if ((c->name = strdup(fv[i])) == NULL)
			return trc_errorf(err, errlen, "out of memory");
		f = fv[i][1] == '\0' ? trc_letter_factor(
		    (unsigned char)fv[i][0]) : -1;
		if (strcmp(fv[i], "run") == 0 || strcmp(fv[i], "std") == 0)
			c->kind = TRC_RUNCOL_ID;
		else if (strcmp(fv[i], "choice") == 0) {
			c->kind = TRC_RUNCOL_CHOICE;
			rs->have_choice = 1;
		} else if (strcmp(fv[i], "fired") == 0) {
			c->kind = TRC_RUNCOL_FIRED;
			rs->have_fired = 1;
		} else if (strcmp(fv[i], "limit") == 0) {
			c->kind = TRC_RUNCOL_LIMIT;
			rs->have_limit = 1;
		} else if (f >= 0) {
			c->kind = TRC_RUNCOL_FACTOR;
			c->factor = f;
			seen |= UINT32_C(1) << f;
			if (f + 1 > rs->p)
				rs->p = f + 1;
		} else {
			c->kind = TRC_RUNCOL_RESPONSE;
			c->resp = rs->nresp++;
		}
	}
	if (rs->p == 0)
		return trc_errorf(err, errlen, "%s:%ld: no factor columns "
		    "(A, B, ...)", rs->name, lineno);
	for (f = 0; f < rs->p; f++)
		if (!(seen & (UINT32_C(1) << f)))
			return trc_errorf(err, errlen, "%s:%ld: no column for "
			    "factor '%c'", rs->name, lineno,
			    trc_factor_letter(f));
	if (rs->nresp == 0)
		return trc_errorf(err, errlen, "%s:%ld: no response columns",
		    rs->name, lineno);
	return 0;
}

/* "RANK:CALL:FILE:LINE" into pl; 0, or -1 when it is not one. */
static int
place_parse(const char *s, struct trc_place *pl)
{
	char *t, *c, *w, *l, *end;

	memset(pl, 0, sizeof *pl);
	if (strcmp(s, "-") == 0)
		return 0;
	if ((t = strdup(s)) == NULL)
		return -1;
	c = strchr(t, ':');
	w = c != NULL ? strchr(c + 1, ':') : NULL;
	l = w != NULL ? strrchr(w + 1, ':') : NULL;
	if (l == NULL || c == t || w == c + 1 || l == w + 1)
		goto bad;
	*c++ = '\0';
	*w++ = '\0';
	errno = 0;
	pl->rank = strtol(t, &end, 10);
	if (*end != '\0' || errno != 0 || pl->rank < 0 || *t == '-' ||
	    *t == '+')
		goto bad;
	pl->line = strtol(l + 1, &end, 10);
	if (*end != '\0' || errno != 0 || pl->line <= 0 || l[1] == '-' ||
	    l[1] == '+')
		goto bad;
	if ((pl->text = strdup(s)) == NULL)
		goto bad;
	pl->buf = t;
	pl->call = c;
	pl->where = w;
	return 0;
bad:
	free(t);
	return -1;
}

/*
 * The fired column of a run whose factors x are high: "-" (none high),
 * "?" (not known), or the delays each high factor made, in letter
 * order, as "12,0".  Returns 0, or -1 when it is not one of those.
 */
static int
fired_parse(const char *s, uint32_t x, int p, long long *v)
{
	char *end;
	int f;

	for (f = 0; f < TRC_MAXFACTORS; f++)
		v[f] = -1;
	if (strcmp(s, "?") == 0)
		return 0;
	if (strcmp(s, "-") == 0)
		return x == 0 ? 0 : -1;
	for (f = 0; f < p; f++) {
		if (!(x & (UINT32_C(1) << f)))
			continue;
		if (*s < '0' || *s > '9')
			return -1;
		errno = 0;
		v[f] = strtoll(s, &end, 10);
		if (errno != 0)
			return -1;
		s = end;
		if (*s == ',' && (x >> f) > 1)
			s++;
	}
	return *s == '\0' && x != 0 ? 0 : -1;
}

static int
row(struct trc_runs *rs, char **fv, int n, long lineno, char *err,
    size_t errlen)
{
	const struct trc_runcol *c;
	long k = rs->n;
	uint32_t x = 0;
	double *y;
	char *end, buf[32];
	const char *fs = NULL;
	int i;

	if (n != rs->ncol)
		return trc_errorf(err, errlen, "%s:%ld: expected %d fields, "
		    "found %d", rs->name, lineno, rs->ncol, n);
	if (k == rs->cap && grow(rs) == -1)
		return trc_errorf(err, errlen, "out of memory");
	rs->outside[k] = 0;
	rs->limited[k] = 0;
	y = rs->resp + k * rs->nresp;
	memset(&rs->place[k], 0, sizeof rs->place[0]);
	snprintf(buf, sizeof buf, "%ld", k + 1);
	if ((rs->id[k] = strdup(buf)) == NULL)
		return trc_errorf(err, errlen, "out of memory");
	/* From here the run owns what it holds: trc_runs_free frees it. */
	rs->n++;
	for (i = 0; i < n; i++) {
		const char *s = fv[i];

		c = &rs->col[i];
		switch (c->kind) {
		case TRC_RUNCOL_ID:
			if (strcmp(c->name, "run") == 0) {
				free(rs->id[k]);
				if ((rs->id[k] = strdup(s)) == NULL)
					return trc_errorf(err, errlen,
					    "out of memory");
			} else
				rs->outside[k] = strcmp(s, "0") == 0;
			break;
		case TRC_RUNCOL_CHOICE:
			if (place_parse(s, &rs->place[k]) == -1)
				return trc_errorf(err, errlen, "%s:%ld: "
				    "invalid choice point '%s' in column '%s'",
				    rs->name, lineno, s, c->name);
			break;
		case TRC_RUNCOL_FIRED:
			fs = s;
			break;
		case TRC_RUNCOL_LIMIT:
			if (strcmp(s, "0") != 0 && strcmp(s, "1") != 0)
				return trc_errorf(err, errlen, "%s:%ld: "
				    "invalid limit '%s' in column '%s' (want 0 "
				    "or 1)", rs->name, lineno, s, c->name);
			rs->limited[k] = s[0] == '1';
			break;
		case TRC_RUNCOL_FACTOR:
			if (strcmp(s, "+1") == 0 || strcmp(s, "1") == 0 ||
			    strcmp(s, "+") == 0)
				x |= UINT32_C(1) << c->factor;
			else if (strcmp(s, "-1") != 0 && strcmp(s, "-") != 0)
				return trc_errorf(err, errlen, "%s:%ld: "
				    "invalid level '%s' in column '%s'",
				    rs->name, lineno, s, c->name);
			break;
		case TRC_RUNCOL_RESPONSE:
			errno = 0;
			y[c->resp] = strtod(s, &end);
			if (*end != '\0' || errno == ERANGE ||
			    !isfinite(y[c->resp]))
				return trc_errorf(err, errlen, "%s:%ld: "
				    "invalid number '%s' in column '%s'",
				    rs->name, lineno, s, c->name);
			break;
		}
	}
	if (rs->outside[k] && x != 0)
		return trc_errorf(err, errlen, "%s:%ld: a run outside the "
		    "design (std 0) with a factor high", rs->name, lineno);
	if (fired_parse(fs != NULL ? fs : "?", x, rs->p, rs->fired + k *
	    TRC_MAXFACTORS) == -1)
		return trc_errorf(err, errlen, "%s:%ld: invalid count '%s' in "
		    "column 'fired' (want - with no factor high, ?, or a count "
		    "per factor high)", rs->name, lineno, fs);
	rs->pt[k] = x;
	return 0;
}

/* Puts a's n records of each bytes in order, through tmp. */
static void
permute(void *a, size_t each, const size_t *order, size_t n, char *tmp)
{
	size_t j;

	for (j = 0; j < n; j++)
		memcpy(tmp + j * each, (char *)a + order[j] * each, each);
	memcpy(a, tmp, n * each);
}

/*
 * Runs outside the design (std 0), without delay: repeats of the
 * baseline that a design without that point (a fraction such as C=AB)
 * needs, as trc-experiment adds them.  Moved after the design's runs,
 * each set in its order.
 */
static int
apart(struct trc_runs *rs)
{
	size_t n = (size_t)rs->n, i, k = 0, *order, big;
	size_t resp = (size_t)rs->nresp * sizeof rs->resp[0];
	size_t fired = TRC_MAXFACTORS * sizeof rs->fired[0];
	char *tmp;
	int pass;

	/* The largest of one run's records, for the one buffer. */
	big = resp > fired ? resp : fired;
	if (big < sizeof rs->place[0])
		big = sizeof rs->place[0];
	order = malloc(n * sizeof order[0]);
	tmp = malloc(n * big);
	if (order == NULL || tmp == NULL) {
		free(order);
		free(tmp);
		return -1;
	}
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < n; i++)
			if (rs->outside[i] == pass) {
				order[k++] = i;
				rs->nextra += pass;
			}
	permute(rs->pt, sizeof rs->pt[0], order, n, tmp);
	permute(rs->resp, resp, order, n, tmp);
	permute(rs->place, sizeof rs->place[0], order, n, tmp);
	permute(rs->id, sizeof rs->id[0], order, n, tmp);
	permute(rs->outside, sizeof rs->outside[0], order, n, tmp);
	permute(rs->fired, fired, order, n, tmp);
	permute(rs->limited, sizeof rs->limited[0], order, n, tmp);
	rs->n -= rs->nextra;
	free(order);
	free(tmp);
	return 0;
}

int
trc_runs_read(struct trc_runs *rs, const char *path, char *err,
    size_t errlen)
{
	struct trc_table *t;
	int rc, have_header = 0;

	memset(rs, 0, sizeof *rs);
	if ((t = trc_table_open(path)) == NULL)
		return trc_errorf(err, errlen, "out of memory");
	if ((rs->name = strdup(t->name)) == NULL) {
		trc_table_close(t);
		return trc_errorf(err, errlen, "out of memory");
	}
	while ((rc = trc_table_next(t)) > 0) {
		if (!have_header) {
			rc = header(rs, t->field, t->nfield, t->lineno, err,
			    errlen);
			have_header = 1;
		} else
			rc = row(rs, t->field, t->nfield, t->lineno, err,
			    errlen);
		if (rc < 0)
			goto fail;
	}
	if (rc < 0)
		trc_errorf(err, errlen, "%s", trc_table_error(t));
	else if (!have_header)
		rc = trc_errorf(err, errlen, "%s: no header row", rs->name);
	else if (rs->n == 0)
		rc = trc_errorf(err, errlen, "%s: no runs", rs->name);
	else if (apart(rs) == -1)
		rc = trc_errorf(err, errlen, "out of memory");
	if (rc < 0)
		goto fail;
	trc_table_close(t);
	return 0;
fail:
	trc_table_close(t);
	trc_runs_free(rs);
	return -1;
}

void
trc_runs_free(struct trc_runs *rs)
{
	long i;
	int k;

	for (k = 0; k < rs->ncol; k++)
		free(rs->col[k].name);
	for (i = 0; i < rs->n + rs->nextra; i++) {
		free(rs->place[i].text);
		free(rs->place[i].buf);
		free(rs->id[i]);
	}
	free(rs->col);
	free(rs->name);
	free(rs->pt);
	free(rs->resp);
	free(rs->place);
	free(rs->id);
	free(rs->outside);
	free(rs->fired);
	free(rs->limited);
	memset(rs, 0, sizeof *rs);
}

int
trc_runs_response(const struct trc_runs *rs, const char *name)
{
	int k;

	for (k = 0; k < rs->ncol; k++)
		if (rs->col[k].kind == TRC_RUNCOL_RESPONSE &&
		    strcmp(rs->col[k].name, name) == 0)
			return rs->col[k].resp;
	return -1;
}

int
trc_runs_design(const struct trc_runs *rs, struct trc_design *d, long *r,
    char *err, size_t errlen)
{
	char msg[512];
	long m, i, *cnt;

	if (rs->n == 0)
		return trc_errorf(err, errlen, "%s: no runs in the design, "
		    "only runs outside it (std 0)", rs->name);
	if (trc_design_from_points(d, rs->p, rs->pt, rs->n, msg,
	    sizeof msg) == -1)
		return trc_errorf(err, errlen, "%s: %s", rs->name, msg);
	m = trc_design_runs(d);
	if ((cnt = calloc(m, sizeof cnt[0])) == NULL) {
		trc_design_free(d);
		return trc_errorf(err, errlen, "out of memory");
	}
	for (i = 0; i < rs->n; i++)
		cnt[trc_design_index(d, rs->pt[i])]++;
	*r = cnt[0];
	for (i = 1; i < m; i++)
		if (cnt[i] != *r) {
			trc_errorf(err, errlen, "%s: unbalanced replication: "
			    "%ld runs at point 1, %ld at point %ld", rs->name,
			    *r, cnt[i], i + 1);
			free(cnt);
			trc_design_free(d);
			return -1;
		}
	free(cnt);
	return 0;
}

int
trc_runs_effects(const struct trc_runs *rs, const struct trc_design *d,
    long r, int resp, struct trc_effects *e, char *err, size_t errlen)
{
	long m = trc_design_runs(d), i, x, *fill;
	double *y;
	int rc;

	y = malloc(rs->n * sizeof y[0]);
	fill = calloc(m, sizeof fill[0]);
	if (y == NULL || fill == NULL) {
		free(y);
		free(fill);
		memset(e, 0, sizeof *e);
		return trc_errorf(err, errlen, "out of memory");
	}
	/* y in standard order, a point's replications together. */
	for (i = 0; i < rs->n; i++) {
		x = trc_design_index(d, rs->pt[i]);
		y[x * r + fill[x]++] = rs->resp[i * rs->nresp + resp];
	}
	rc = trc_effects_compute(d, r, y, e, err, errlen);
	free(y);
	free(fill);
	return rc;
}

void
trc_runs_fired(const struct trc_runs *rs, int f, long *nhigh, long *nknown,
    long long *sum)
{
	long long v;
	long i;

	*nhigh = *nknown = 0;
	*sum = 0;
	for (i = 0; i < rs->n; i++) {
		if (!(rs->pt[i] & (UINT32_C(1) << f)))
			continue;
		(*nhigh)++;
		if ((v = rs->fired[i * TRC_MAXFACTORS + f]) >= 0) {
			(*nknown)++;
			*sum += v;
		}
	}
}

void
trc_runs_point_sums(const struct trc_runs *rs, const struct trc_design *d,
    int resp, double *sum)
{
	long i;

	memset(sum, 0, trc_design_runs(d) * sizeof sum[0]);
	for (i = 0; i < rs->n; i++)
		sum[trc_design_index(d, rs->pt[i])] +=
		    rs->resp[i * rs->nresp + resp];
}

int
trc_runs_differs_at(const struct trc_runs *rs, long i, int resp, int base,
    const struct trc_place *pl)
{
	return rs->place[i].text != NULL && strcmp(rs->place[i].text,
	    pl->text) == 0 && rs->resp[i * rs->nresp + resp] != 0 &&
	    (!base || rs->pt[i] == 0);
}

const struct trc_place *
trc_runs_first_difference(const struct trc_runs *rs, int resp, int base)
{
	const struct trc_place *best = NULL, *pl;
	long i;

	for (i = 0; i < rs->n + rs->nextra; i++) {
		pl = &rs->place[i];
		if (rs->resp[i * rs->nresp + resp] == 0 ||
		    (base && rs->pt[i] != 0) || pl->text == NULL)
			continue;
		if (best == NULL || pl->line < best->line ||
		    (pl->line == best->line && strcmp(pl->text,
		    best->text) < 0))
			best = pl;
	}
	return best;
}
