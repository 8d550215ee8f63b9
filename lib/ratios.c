/*
 * ratios.c - computation ratio tables (trc-ratios(5)).
 *
 * The hot loop of trc-scale asks for a factor at every computation
 * interval, so answers are kept in a hash table keyed by (label, rank):
 * PCRE2 runs once for each distinct pair, and the table holds no more
 * entries than there are distinct pairs in the trace.  A row with
 * first=K applies to the first K intervals of a pair only (a run's
 * warm-up): an entry keeps those rows that match it, before its
 * steady row, and counts the pair's intervals (trc_ratios_next).
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcre2.h>

#include "trc.h"

#define ANYRANK		(-1)

struct row {
	pcre2_code	*re;
	int32_t		 rank;		/* ANYRANK for all */
	int64_t		 first;		/* intervals it covers, 0 all */
	double		 k;		/* duration factor */
};

/* A first=K row that matched an entry. */
struct warm {
	int64_t		 first;
	double		 k;
};

struct entry {
	char		*label;		/* NULL when the slot is free */
	size_t		 len;
	int32_t		 rank;
	int		 matched;	/* a steady row matched */
	double		 k;		/* its factor, else 1 */
	struct warm	*warm;		/* first=K rows before it */
	size_t		 nwarm;
	int64_t		 count;		/* intervals taken */
};

struct trc_ratios {
	struct row		*row;
	size_t			 nrow;
	enum trc_ratio_mode	 mode;
	int			 outliers;	/* its line: 0 none, 1 scale,
						 * 2 drop */
	pcre2_match_data	*md;
	struct entry		*tab;
	size_t			 cap, used;	/* cap a power of 2 */
	int			 counted;	/* a row has first=K */
	unsigned long		 nmatch;
	char			 err[256];
};

void
trc_ratios_free(struct trc_ratios *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nrow; i++)
		pcre2_code_free(t->row[i].re);
	free(t->row);
	for (i = 0; i < t->cap; i++) {
		free(t->tab[i].label);
		free(t->tab[i].warm);
	}
	free(t->tab);
	pcre2_match_data_free(t->md);
	free(t);
}

enum trc_ratio_mode
trc_ratios_mode(const struct trc_ratios *t)
{
	return t->mode;
}

int
trc_ratios_drop(const struct trc_ratios *t)
{
	return t->outliers == 2;
}

const char *
trc_ratios_error(const struct trc_ratios *t)
{
	return t->err;
}

unsigned long
trc_ratios_nmatch(const struct trc_ratios *t)
{
	return t->nmatch;
}

int
trc_ratios_counted(const struct trc_ratios *t)
{
	return t->counted;
}

/* Returns 0, or -1 with err set (without the "file:line: " prefix). */
static int
addrow(struct trc_ratios *t, char **fld, char *err, size_t errlen)
{
	struct row r, *p;
	PCRE2_UCHAR msg[160];
	PCRE2_SIZE off;
	char *end;
	long v;
	int code;

	if (strcmp(fld[1], "all") == 0 || strcmp(fld[1], "*") == 0)
		r.rank = ANYRANK;
	else {
		errno = 0;
		v = strtol(fld[1], &end, 10);
		if (fld[1][0] < '0' || fld[1][0] > '9' || *end != '\0' ||
		    errno == ERANGE || v > INT32_MAX) {
			trc_errorf(err, errlen, "invalid rank '%s'", fld[1]);
			return -1;
		}
		r.rank = (int32_t)v;
	}
	errno = 0;
	r.k = strtod(fld[2], &end);
	if (end == fld[2] || *end != '\0' || errno == ERANGE ||
	    !isfinite(r.k) || r.k <= 0) {
		trc_errorf(err, errlen, "invalid ratio '%s'", fld[2]);
		return -1;
	}
	if (t->mode == TRC_RATIO_SPEED)
		r.k = 1 / r.k;
	r.first = 0;
	if (fld[3] != NULL) {
		errno = 0;
		v = strncmp(fld[3], "first=", 6) == 0 ?
		    strtol(fld[3] + 6, &end, 10) : 0;
		if (v < 1 || fld[3][6] < '0' || fld[3][6] > '9' ||
		    *end != '\0' || errno == ERANGE) {
			trc_errorf(err, errlen, "invalid field '%s' (want "
			    "first=N, N >= 1)", fld[3]);
			return -1;
		}
		r.first = v;
		t->counted = 1;
	}
	/* Anchored at both ends: a pattern names whole labels. */
	r.re = pcre2_compile((PCRE2_SPTR)fld[0], PCRE2_ZERO_TERMINATED,
	    PCRE2_ANCHORED | PCRE2_ENDANCHORED, &code, &off, NULL);
	if (r.re == NULL) {
		pcre2_get_error_message(code, msg, sizeof(msg));
		trc_errorf(err, errlen, "bad pattern '%s': %s at offset %zu",
		    fld[0], (char *)msg, (size_t)off);
		return -1;
	}
	if ((p = realloc(t->row, (t->nrow + 1) * sizeof(*p))) == NULL) {
		pcre2_code_free(r.re);
		trc_errorf(err, errlen, "out of memory");
		return -1;
	}
	t->row = p;
	t->row[t->nrow++] = r;
	return 0;
}

struct trc_ratios *
trc_ratios_load(const char *path, char *err, size_t errlen)
{
	struct trc_ratios *t = NULL;
	struct trc_table *tb;
	char msg[256], *fld[4];
	int rc, havemode = 0;

	if ((tb = trc_table_open(path)) == NULL ||
	    (t = calloc(1, sizeof(*t))) == NULL) {
		trc_errorf(err, errlen, "%s: out of memory", path);
		goto fail;
	}
	while ((rc = trc_table_next(tb)) > 0) {
		if (strcmp(tb->field[0], "mode") == 0 && tb->nfield == 2) {
			if (havemode) {
				trc_table_fail(tb, "second 'mode' line");
				break;
			}
			if (strcmp(tb->field[1], "speed") == 0)
				t->mode = TRC_RATIO_SPEED;
			else if (strcmp(tb->field[1], "time") == 0)
				t->mode = TRC_RATIO_TIME;
			else {
				trc_table_fail(tb, "invalid mode '%s' (want "
				    "'speed' or 'time')", tb->field[1]);
				break;
			}
			havemode = 1;
			continue;
		}
		/* How its base runs were measured (trc-ratios --outliers),
		 * which trc-scale repeats on the base trace. */
		if (strcmp(tb->field[0], "outliers") == 0 && tb->nfield == 2) {
			if (t->outliers != 0) {
				trc_table_fail(tb, "second 'outliers' line");
				break;
			}
			if (strcmp(tb->field[1], "scale") == 0)
				t->outliers = 1;
			else if (strcmp(tb->field[1], "drop") == 0)
				t->outliers = 2;
			else {
				trc_table_fail(tb, "invalid outliers mode '%s' "
				    "(want 'scale' or 'drop')", tb->field[1]);
				break;
			}
			continue;
		}
		if (tb->nfield != 3 && tb->nfield != 4) {
			trc_table_fail(tb, "expected 'PATTERN RANK RATIO "
			    "[first=N]', got %d fields", tb->nfield);
			break;
		}
		if (!havemode) {
			trc_table_fail(tb, "row before the 'mode speed' or "
			    "'mode time' line");
			break;
		}
		fld[0] = tb->field[0];
		fld[1] = tb->field[1];
		fld[2] = tb->field[2];
		fld[3] = tb->nfield == 4 ? tb->field[3] : NULL;
		if (addrow(t, fld, msg, sizeof(msg)) < 0) {
			trc_table_fail(tb, "%s", msg);
			break;
		}
	}
	if (tb->failed) {
		trc_errorf(err, errlen, "%s", trc_table_error(tb));
		goto fail;
	}
	if (!havemode) {
		trc_table_fail(tb, "no 'mode speed' or 'mode time' line");
		trc_errorf(err, errlen, "%s", trc_table_error(tb));
		goto fail;
	}
	if ((t->md = pcre2_match_data_create(1, NULL)) == NULL) {
		trc_errorf(err, errlen, "%s: out of memory", tb->name);
		goto fail;
	}
	trc_table_close(tb);
	return t;
fail:
	trc_table_close(tb);
	trc_ratios_free(t);
	return NULL;
}

static uint64_t
hash(const char *s, size_t len, int32_t rank)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ (uint32_t)rank;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	h ^= h >> 29;
	return h * 0xbf58476d1ce4e5b9ULL;
}

static struct entry *
slot(struct entry *tab, size_t cap, const char *s, size_t len, int32_t rank)
{
	size_t i = hash(s, len, rank) & (cap - 1);

	while (tab[i].label != NULL && (tab[i].rank != rank ||
	    tab[i].len != len || memcmp(tab[i].label, s, len) != 0))
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

static int
grow(struct trc_ratios *t)
{
	struct entry *nt, *e;
	size_t ncap = t->cap ? t->cap * 2 : 64, i;

	if ((nt = calloc(ncap, sizeof(*nt))) == NULL)
		return -1;
	for (i = 0; i < t->cap; i++)
		if (t->tab[i].label != NULL) {
			e = slot(nt, ncap, t->tab[i].label, t->tab[i].len,
			    t->tab[i].rank);
			*e = t->tab[i];
		}
	free(t->tab);
	t->tab = nt;
	t->cap = ncap;
	return 0;
}

/* The entry of (label, rank), made and matched on first sight; NULL
 * with t->err set on error. */
static struct entry *
entry_of(struct trc_ratios *t, const char *label, size_t len, int32_t rank)
{
	struct entry *e;
	struct warm *w;
	PCRE2_UCHAR msg[160];
	size_t i;
	int rc;

	if (t->cap > 0) {
		e = slot(t->tab, t->cap, label, len, rank);
		if (e->label != NULL)
			return e;
	}
	if ((t->used + 1) * 2 > t->cap && grow(t) < 0)
		goto nomem;
	e = slot(t->tab, t->cap, label, len, rank);
	if ((e->label = malloc(len + 1)) == NULL)
		goto nomem;
	memcpy(e->label, label, len);
	e->label[len] = '\0';
	e->len = len;
	e->rank = rank;
	e->matched = 0;
	e->k = 1;
	e->warm = NULL;
	e->nwarm = 0;
	e->count = 0;
	t->used++;
	for (i = 0; i < t->nrow; i++) {
		if (t->row[i].rank != ANYRANK && t->row[i].rank != rank)
			continue;
		t->nmatch++;
		rc = pcre2_match(t->row[i].re, (PCRE2_SPTR)label, len, 0, 0,
		    t->md, NULL);
		if (rc == PCRE2_ERROR_NOMATCH)
			continue;
		if (rc < 0) {
			pcre2_get_error_message(rc, msg, sizeof(msg));
			snprintf(t->err, sizeof(t->err), "matching label "
			    "'%.*s': %s", (int)(len > 60 ? 60 : len), label,
			    (char *)msg);
			goto forget;
		}
		if (t->row[i].first > 0) {
			if ((w = realloc(e->warm, (e->nwarm + 1) *
			    sizeof(*w))) == NULL) {
				snprintf(t->err, sizeof(t->err),
				    "out of memory");
				goto forget;
			}
			e->warm = w;
			w[e->nwarm].first = t->row[i].first;
			w[e->nwarm++].k = t->row[i].k;
			continue;
		}
		e->matched = 1;
		e->k = t->row[i].k;
		break;
	}
	return e;
forget:
	/* The half-made entry: keep the table sound. */
	free(e->label);
	free(e->warm);
	e->label = NULL;
	t->used--;
	return NULL;
nomem:
	snprintf(t->err, sizeof(t->err), "out of memory");
	return NULL;
}

int
trc_ratios_get(struct trc_ratios *t, const char *label, size_t len,
    int32_t rank, double *k)
{
	struct entry *e;

	if ((e = entry_of(t, label, len, rank)) == NULL)
		return -1;
	*k = e->k;
	return e->matched;
}

int
trc_ratios_next(struct trc_ratios *t, const char *label, size_t len,
    int32_t rank, int take, double *k)
{
	struct entry *e;
	size_t i;
	int rc;

	if ((e = entry_of(t, label, len, rank)) == NULL)
		return -1;
	/* A first=K row while fewer than K were taken, else the steady. */
	for (i = 0; i < e->nwarm && e->count >= e->warm[i].first; i++)
		;
	if (i < e->nwarm) {
		*k = e->warm[i].k;
		rc = 1;
	} else {
		*k = e->k;
		rc = e->matched;
	}
	if (take && e->count < INT64_MAX)
		e->count++;
	return rc;
}
