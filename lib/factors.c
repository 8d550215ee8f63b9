/*
 * factors.c - factor files and TRC_DELAY specs (trc-factors(5)).
 *
 * A factor is a location and a delay:
 *	NAME call=send [ranks=0:2-3] [region=FN] [occ=A-B] delay=SECONDS
 * and the same location, comma-separated and without the name, is one
 * spec of the tracer's TRC_DELAY variable.  Both go through one parser
 * so that what a factor file says is exactly what the tracer is told.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "trc.h"
#include "trc_calls.h"

static int
isblank_(int c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static int
isident(int c, int first)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
	    (!first && c >= '0' && c <= '9');
}

static char *
dupn(const char *s, size_t n)
{
	char *p;

	if ((p = malloc(n + 1)) == NULL)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* A decimal integer in [min, max], the whole of s. */
static int
parse_num(const char *s, size_t n, int64_t min, int64_t max, int64_t *v)
{
	int64_t x = 0;
	size_t i;

	if (n == 0 || n > 18)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		x = x * 10 + (s[i] - '0');
	}
	if (x < min || x > max)
		return -1;
	*v = x;
	return 0;
}

/* "A" or "A-B" with min <= A <= B <= max. */
static int
parse_range(const char *s, size_t n, int64_t min, int64_t max,
    int64_t *lo, int64_t *hi)
{
	const char *dash = memchr(s, '-', n);

	if (dash == NULL) {
		if (parse_num(s, n, min, max, lo) == -1)
			return -1;
		*hi = *lo;
		return 0;
	}
	if (parse_num(s, dash - s, min, max, lo) == -1 ||
	    parse_num(dash + 1, n - (dash + 1 - s), min, max, hi) == -1 ||
	    *lo > *hi)
		return -1;
	return 0;
}

/*
 * The call as the tracer names it: MPI_Send, mpi_send and send are
 * all "send"; "*" is any call.
 */
static char *
parse_call(const char *s, size_t n)
{
	char *c;
	size_t i;

	if (n == 1 && s[0] == '*')
		return dupn(s, n);
	if (n > 4 && strncasecmp(s, "MPI_", 4) == 0) {
		s += 4;
		n -= 4;
	}
	for (i = 0; i < n; i++)
		if (!isident((unsigned char)s[i], i == 0))
			return NULL;
	if (n == 0 || (c = dupn(s, n)) == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		if (c[i] >= 'A' && c[i] <= 'Z')
			c[i] += 'a' - 'A';
	return c;
}

static const char *const delayed_calls[] = { TRC_CALLS_DELAYED };
static const char *const undelayed_calls[] = { TRC_CALLS_NOT_DELAYED };

static int
call_in(const char *c, const char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(c, v[i]) == 0)
			return 1;
	return 0;
}

/* Edit distance of a and b (adjacent swaps count 1), capped at 3. */
static int
distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b), i, j;
	int d[24][24], v;

	if (n > 22 || m > 22)
		return 3;
	for (i = 0; i <= n; i++)
		d[i][0] = (int)i;
	for (j = 0; j <= m; j++)
		d[0][j] = (int)j;
	for (i = 1; i <= n; i++)
		for (j = 1; j <= m; j++) {
			v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[n][m] < 3 ? d[n][m] : 3;
}

/*
 * A call no delay can fire on is refused, so that a typo or a poll is
 * not run as a factor that comes out "stable".  The whole list is too
 * long for a message: the nearest names, and the page that lists them.
 */
static int
check_call(const char *c, char *err, size_t errlen)
{
	const size_t n = sizeof(delayed_calls) / sizeof(delayed_calls[0]);
	char near[96];
	size_t i, at = 0;
	int best = 3, d;

	if (strcmp(c, "*") == 0 || call_in(c, delayed_calls, n))
		return 0;
	if (call_in(c, undelayed_calls,
	    sizeof(undelayed_calls) / sizeof(undelayed_calls[0])))
		return trc_errorf(err, errlen, "call '%s' is traced but never "
		    "delayed (libtrc-mpi(7) lists the calls)", c);
	for (i = 0; i < n; i++)
		if ((d = distance(c, delayed_calls[i])) < best)
			best = d;
	near[0] = '\0';
	for (i = 0; best < 3 && i < n; i++)
		if (distance(c, delayed_calls[i]) == best &&
		    at + strlen(delayed_calls[i]) + 3 < sizeof(near))
			at += (size_t)snprintf(near + at, sizeof(near) - at,
			    "%s%s", at ? " or " : "", delayed_calls[i]);
	if (best < 3)
		return trc_errorf(err, errlen, "unknown call '%s' (did you "
		    "mean %s? libtrc-mpi(7) lists the calls)", c, near);
	return trc_errorf(err, errlen, "unknown call '%s' (libtrc-mpi(7) "
	    "lists the calls)", c);
}

/* A rank list, "0:2-3" (',' separates keys), in canonical form. */
static char *
parse_ranks(const char *s, size_t n)
{
	char *out, *p;
	size_t i = 0, j;
	int64_t lo, hi;

	if (n == 0 || (out = malloc(2 * n + 2)) == NULL)
		return NULL;
	p = out;
	for (;;) {
		for (j = i; j < n && s[j] != ':'; j++)
			;
		if (parse_range(s + i, j - i, 0, INT32_MAX, &lo, &hi) == -1) {
			free(out);
			return NULL;
		}
		p += lo == hi ? sprintf(p, "%lld", (long long)lo) :
		    sprintf(p, "%lld-%lld", (long long)lo, (long long)hi);
		if (j == n)
			break;
		*p++ = ':';
		i = j + 1;
	}
	return out;
}

/* Occurrences: "A", "A-B", "A-" (no end) or "-B" (from 1). */
static int
parse_occ(const char *s, size_t n, int64_t *lo, int64_t *hi)
{
	const int64_t max = INT64_MAX / 10;

	if (n >= 2 && s[n - 1] == '-') {
		*hi = INT64_MAX;
		return parse_num(s, n - 1, 1, max, lo);
	}
	if (n >= 2 && s[0] == '-') {
		*lo = 1;
		return parse_num(s + 1, n - 1, 1, max, hi);
	}
	return parse_range(s, n, 1, max, lo, hi);
}

/*
 * Seconds, "0.001" or "2" or ".5", exactly into nanoseconds: no float
 * rounding, so that the spec written is the delay read.
 */
static int
parse_seconds(const char *s, size_t n, int64_t *ns)
{
	int64_t sec = 0, frac = 0;
	size_t i = 0, nd = 0, fd = 0;

	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, nd++) {
		if (nd >= 9)
			return -1;	/* over 31 years: a typo */
		sec = sec * 10 + (s[i] - '0');
	}
	if (i < n && s[i] == '.') {
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, fd++) {
			if (fd >= 9)
				return -1;	/* below a nanosecond */
			frac = frac * 10 + (s[i] - '0');
		}
	}
	if (i != n || nd + fd == 0)
		return -1;
	for (; fd < 9; fd++)
		frac *= 10;
	*ns = sec * 1000000000 + frac;
	return 0;
}

size_t
trc_format_seconds(char *buf, int64_t ns)
{
	char tmp[32];
	int64_t frac = ns % 1000000000;
	int n, d = 9;

	if (frac == 0)
		return snprintf(buf, 32, "%lld", (long long)(ns / 1000000000));
	while (frac % 10 == 0) {
		frac /= 10;
		d--;
	}
	n = snprintf(tmp, sizeof tmp, "%lld.%0*lld", (long long)(ns / 1000000000),
	    d, (long long)frac);
	memcpy(buf, tmp, n + 1);
	return n;
}

void
trc_factor_free(struct trc_factor *f)
{
	free(f->name);
	free(f->call);
	free(f->region);
	free(f->ranks);
	f->name = f->call = f->region = f->ranks = NULL;
}

void
trc_factors_free(struct trc_factors *fs)
{
	int i;

	for (i = 0; i < fs->n; i++)
		trc_factor_free(&fs->v[i]);
	fs->n = 0;
}

static void
factor_clear(struct trc_factor *f)
{
	memset(f, 0, sizeof *f);
	f->occ_lo = f->occ_hi = TRC_NONE;
	f->delay = TRC_NONE;
}

/* One key=value pair of a location. */
static int
parse_pair(const char *s, size_t n, struct trc_factor *f, char *err,
    size_t errlen)
{
	const char *eq = memchr(s, '=', n), *v;
	size_t kn, vn, i, k;
	int64_t lo, hi;

	if (eq == NULL)
		return trc_errorf(err, errlen, "expected key=value, found '%.*s'",
		    (int)n, s);
	kn = eq - s;
	v = eq + 1;
	vn = n - kn - 1;
#define KEY(k)	(kn == sizeof(k) - 1 && memcmp(s, k, kn) == 0)
	if (KEY("call")) {
		if (f->call != NULL)
			return trc_errorf(err, errlen, "duplicate key 'call'");
		if ((f->call = parse_call(v, vn)) == NULL)
			return trc_errorf(err, errlen, "invalid call '%.*s'",
			    (int)vn, v);
		if (check_call(f->call, err, errlen) < 0)
			return -1;
	} else if (KEY("ranks")) {
		if (f->ranks != NULL)
			return trc_errorf(err, errlen, "duplicate key 'ranks'");
		/* trc-perturb holds a list as a selector of ranges (trc.h),
		 * which the tracer's own parser would not refuse. */
		for (i = 0, k = 1; i < vn; i++)
			k += v[i] == ':';
		if (k > TRC_MAXRANGES)
			return trc_errorf(err, errlen, "ranks '%.*s' of %zu "
			    "ranges, more than %d", (int)(vn > 40 ? 40 : vn),
			    v, k, TRC_MAXRANGES);
		if ((f->ranks = parse_ranks(v, vn)) == NULL)
			return trc_errorf(err, errlen, "invalid ranks '%.*s'",
			    (int)vn, v);
	} else if (KEY("region")) {
		if (f->region != NULL)
			return trc_errorf(err, errlen, "duplicate key 'region'");
		for (i = 0; i < vn; i++)
			if (strchr(",;=# \t", v[i]) != NULL)
				break;
		if (vn == 0 || i < vn)
			return trc_errorf(err, errlen, "invalid region '%.*s'",
			    (int)vn, v);
		if ((f->region = dupn(v, vn)) == NULL)
			return trc_errorf(err, errlen, "out of memory");
	} else if (KEY("occ")) {
		if (f->occ_lo != TRC_NONE)
			return trc_errorf(err, errlen, "duplicate key 'occ'");
		if (parse_occ(v, vn, &lo, &hi) == -1)
			return trc_errorf(err, errlen, "invalid occ '%.*s'",
			    (int)vn, v);
		f->occ_lo = lo;
		f->occ_hi = hi;
	} else if (KEY("delay")) {
		if (f->delay != TRC_NONE)
			return trc_errorf(err, errlen, "duplicate key 'delay'");
		if (parse_seconds(v, vn, &f->delay) == -1)
			return trc_errorf(err, errlen, "invalid delay '%.*s'",
			    (int)vn, v);
	} else
		return trc_errorf(err, errlen, "unknown key '%.*s'", (int)kn, s);
#undef KEY
	return 0;
}

/* The key=value pairs of a location, separated by sep (' ': blanks). */
static int
parse_location(const char *s, size_t len, int sep, struct trc_factor *f,
    char *err, size_t errlen)
{
	size_t i = 0, j;

	for (;;) {
		if (sep == ' ')
			while (i < len && isblank_((unsigned char)s[i]))
				i++;
		if (i >= len)
			break;
		for (j = i; j < len; j++)
			if (sep == ' ' ? isblank_((unsigned char)s[j]) :
			    s[j] == sep)
				break;
		if (sep == ' ' && s[i] == '#')
			break;		/* comment to the end of the line */
		if (parse_pair(s + i, j - i, f, err, errlen) == -1)
			return -1;
		i = j + (sep != ' ' && j < len);
		if (sep != ' ' && j + 1 == len)
			return trc_errorf(err, errlen, "empty key=value after '%c'",
			    sep);
	}
	if (f->call == NULL)
		return trc_errorf(err, errlen, "missing call=");
	if (f->delay == TRC_NONE)
		return trc_errorf(err, errlen, "missing delay=");
	return 0;
}

int
trc_factor_parse_spec(const char *s, size_t len, struct trc_factor *f,
    char *err, size_t errlen)
{
	factor_clear(f);
	if (parse_location(s, len, ',', f, err, errlen) == -1) {
		trc_factor_free(f);
		return -1;
	}
	return 0;
}

int
trc_factor_parse_line(const char *line, size_t len, struct trc_factor *f,
    char *err, size_t errlen)
{
	size_t i = 0, j;
	int bad = 0;

	factor_clear(f);
	while (i < len && isblank_((unsigned char)line[i]))
		i++;
	if (i == len || line[i] == '#')
		return 0;
	for (j = i; j < len && !isblank_((unsigned char)line[j]); j++)
		if (!isident((unsigned char)line[j], j == i) &&
		    (j == i || (line[j] != '-' && line[j] != '.')))
			bad = 1;
	if (bad)
		return trc_errorf(err, errlen, "invalid factor name '%.*s'",
		    (int)(j - i), line + i);
	if ((f->name = dupn(line + i, j - i)) == NULL)
		return trc_errorf(err, errlen, "out of memory");
	if (parse_location(line + j, len - j, ' ', f, err, errlen) == -1) {
		trc_factor_free(f);
		return -1;
	}
	return 1;
}

int
trc_factors_read(const char *path, struct trc_factors *fs, char *err,
    size_t errlen)
{
	const char *name;
	char *line = NULL, msg[256];
	size_t cap = 0;
	ssize_t n;
	long lineno = 0;
	FILE *fp;
	int i, rc = 0;

	fs->n = 0;
	if (path == NULL || strcmp(path, "-") == 0) {
		fp = stdin;
		name = "<stdin>";
	} else if ((fp = fopen(path, "r")) == NULL)
		return trc_errorf(err, errlen, "%s: %s", path, strerror(errno));
	else
		name = path;
	while ((n = getline(&line, &cap, fp)) != -1) {
		struct trc_factor f;

		lineno++;
		if (n > 0 && line[n - 1] == '\n')
			n--;
		if (memchr(line, '\0', (size_t)n) != NULL) {
			trc_errorf(err, errlen, "%s:%ld: NUL byte in line",
			    name, lineno);
			rc = -1;
			break;
		}
		if ((rc = trc_factor_parse_line(line, n, &f, msg,
		    sizeof msg)) == 0)
			continue;
		if (rc == -1) {
			trc_errorf(err, errlen, "%s:%ld: %s", name, lineno, msg);
			break;
		}
		rc = 0;
		f.line = lineno;
		for (i = 0; i < fs->n; i++)
			if (strcmp(fs->v[i].name, f.name) == 0)
				break;
		if (i < fs->n) {
			rc = trc_errorf(err, errlen, "%s:%ld: duplicate factor '%s'",
			    name, lineno, f.name);
			trc_factor_free(&f);
			break;
		}
		if (fs->n == TRC_MAXFACTORS) {
			rc = trc_errorf(err, errlen,
			    "%s:%ld: too many factors (at most %d)", name,
			    lineno, TRC_MAXFACTORS);
			trc_factor_free(&f);
			break;
		}
		fs->v[fs->n++] = f;
	}
	if (rc == 0 && ferror(fp))
		rc = trc_errorf(err, errlen, "%s: %s", name, strerror(errno));
	else if (rc == 0 && fs->n == 0)
		rc = trc_errorf(err, errlen, "%s: no factors", name);
	free(line);
	if (fp != stdin)
		fclose(fp);
	if (rc == -1)
		trc_factors_free(fs);
	return rc;
}

/* Appends as snprintf would, keeping the total length needed. */
static void
append(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(*at < len ? buf + *at : NULL, *at < len ? len - *at : 0,
	    fmt, ap);
	va_end(ap);
	if (n > 0)
		*at += n;
}

size_t
trc_factor_spec(const struct trc_factor *f, char *buf, size_t len)
{
	char sec[32];
	size_t at = 0;

	if (len > 0)
		buf[0] = '\0';
	append(buf, len, &at, "call=%s", f->call);
	if (f->ranks != NULL)
		append(buf, len, &at, ",ranks=%s", f->ranks);
	if (f->region != NULL)
		append(buf, len, &at, ",region=%s", f->region);
	if (f->occ_lo != TRC_NONE && f->occ_hi == f->occ_lo)
		append(buf, len, &at, ",occ=%lld", (long long)f->occ_lo);
	else if (f->occ_lo != TRC_NONE && f->occ_hi == INT64_MAX)
		append(buf, len, &at, ",occ=%lld-", (long long)f->occ_lo);
	else if (f->occ_lo != TRC_NONE)
		append(buf, len, &at, ",occ=%lld-%lld", (long long)f->occ_lo,
		    (long long)f->occ_hi);
	trc_format_seconds(sec, f->delay);
	append(buf, len, &at, ",delay=%s", sec);
	return at;
}

size_t
trc_delay_spec(const struct trc_factors *fs, uint32_t high, char *buf,
    size_t len)
{
	size_t at = 0;
	int i;

	if (len > 0)
		buf[0] = '\0';
	for (i = 0; i < fs->n; i++) {
		if (!(high & (UINT32_C(1) << i)))
			continue;
		if (at > 0)
			append(buf, len, &at, ";");
		at += trc_factor_spec(&fs->v[i], at < len ? buf + at : NULL,
		    at < len ? len - at : 0);
	}
	return at;
}
