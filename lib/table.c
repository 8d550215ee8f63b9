/*
 * table.c - the small text files of the toolkit (ratio tables, fit
 * files, response tables, measurements): lines of blank-separated
 * fields, where a field starting with '#' begins a comment, read a
 * line at a time with errors that name the file and line.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"

struct trc_table *
trc_table_open(const char *path)
{
	struct trc_table *t;
	int stdin_ = path == NULL || strcmp(path, "-") == 0;

	if ((t = calloc(1, sizeof(*t))) == NULL ||
	    (t->name = strdup(stdin_ ? "<stdin>" : path)) == NULL) {
		free(t);
		return NULL;
	}
	if (stdin_)
		t->fp = stdin;
	else if ((t->fp = fopen(path, "r")) == NULL) {
		snprintf(t->err, sizeof(t->err), "%s: %s", path, strerror(errno));
		t->failed = 1;
	}
	return t;
}

void
trc_table_close(struct trc_table *t)
{
	if (t == NULL)
		return;
	if (t->fp != NULL && t->fp != stdin)
		fclose(t->fp);
	free(t->line);
	free(t->field);
	free(t->name);
	free(t);
}

const char *
trc_table_error(const struct trc_table *t)
{
	return t->err;
}

int
trc_table_fail(struct trc_table *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(t->err, sizeof(t->err), "%s:%ld: ", t->name, t->lineno);
	if (n > 0 && (size_t)n < sizeof(t->err)) {
		va_start(ap, fmt);
		vsnprintf(t->err + n, sizeof(t->err) - (size_t)n, fmt, ap);
		va_end(ap);
	}
	t->failed = 1;
	return -1;
}

static int
blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int
trc_table_next(struct trc_table *t)
{
	ssize_t len;
	char *s, **p;

	if (t->failed)
		return -1;
	for (;;) {
		errno = 0;
		if ((len = getline(&t->line, &t->cap, t->fp)) < 0) {
			if (ferror(t->fp)) {
				snprintf(t->err, sizeof(t->err), "%s:%ld: %s",
				    t->name, t->lineno + 1, strerror(errno));
				t->failed = 1;
				return -1;
			}
			return 0;
		}
		t->lineno++;
		t->nfield = 0;
		t->comment = NULL;
		/* A NUL would cut the line short without a word. */
		if (memchr(t->line, '\0', (size_t)len) != NULL)
			return trc_table_fail(t, "NUL byte in line");
		for (s = t->line; ; ) {
			while (blank((unsigned char)*s))
				s++;
			if (*s == '\0' || *s == '#')
				break;
			if (t->nfield == t->capfield) {
				if ((p = realloc(t->field, (size_t)(t->capfield ?
				    2 * t->capfield : 16) * sizeof(*p))) == NULL)
					return trc_table_fail(t, "out of memory");
				t->field = p;
				t->capfield = t->capfield ? 2 * t->capfield : 16;
			}
			t->field[t->nfield++] = s;
			while (*s != '\0' && !blank((unsigned char)*s))
				s++;
			if (*s != '\0')
				*s++ = '\0';
		}
		if (t->nfield > 0)
			return 1;
		if (t->comments && *s == '#') {
			s[strcspn(s, "\r\n")] = '\0';
			t->comment = s;
			return 1;
		}
	}
}
