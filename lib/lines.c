/*
 * lines.c - lines of a text format over a byte source, for the
 * readers of foreign formats: one block buffer, lines found with
 * trc_find_nl and returned in place, a last line without its newline
 * accepted (SimGrid writes such files).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt/fmt.h"

#define BLOCK		(1 << 16)	/* small: a multi-file format opens one per rank */

struct trc_lines {
	struct trc_src	*src;
	int		 own;		/* close src with the lines */
	int		 eof;
	char		*buf;
	size_t		 start, end;
	long		 line;
	char		 err[TRC_ERRLEN + 512];
};

struct trc_lines *
trc_lines_new(struct trc_src *src, int own)
{
	struct trc_lines *l;

	if ((l = calloc(1, sizeof(*l))) == NULL)
		return NULL;
	if ((l->buf = malloc(BLOCK + 1)) == NULL) {
		free(l);
		return NULL;
	}
	l->src = src;
	l->own = own;
	return l;
}

struct trc_lines *
trc_lines_open(const char *path)
{
	struct trc_src *src;
	struct trc_lines *l;

	if ((src = trc_src_open(path)) == NULL)
		return NULL;
	if ((l = trc_lines_new(src, 1)) == NULL)
		trc_src_close(src);
	return l;
}

const char *
trc_lines_name(const struct trc_lines *l)
{
	return trc_src_name(l->src);
}

long
trc_lines_lineno(const struct trc_lines *l)
{
	return l->line;
}

const char *
trc_lines_error(const struct trc_lines *l)
{
	return l->err;
}

int
trc_lines_next(struct trc_lines *l, char **s, size_t *len)
{
	char *nl;
	ssize_t n;

	if (l->err[0])
		return -1;
	for (;;) {
		nl = trc_find_nl(l->buf + l->start, l->buf + l->end);
		if (nl != NULL || (l->eof && l->end > l->start)) {
			if (nl == NULL)
				nl = l->buf + l->end;
			*s = l->buf + l->start;
			*len = (size_t)(nl - *s);
			if (*len > 0 && (*s)[*len - 1] == '\r')
				(*len)--;
			(*s)[*len] = '\0';
			l->start = (size_t)(nl - l->buf) + 1;
			if (l->start > l->end)
				l->start = l->end;
			l->line++;
			return 1;
		}
		if (l->eof)
			return 0;
		if (l->end - l->start == BLOCK) {
			snprintf(l->err, sizeof(l->err), "%s:%ld: line longer "
			    "than %d bytes", trc_src_name(l->src), l->line + 1,
			    BLOCK);
			return -1;
		}
		/* The source's error from before (its opening), where the
		 * lines first need its bytes: not on every line. */
		if (trc_src_error(l->src) != NULL) {
			snprintf(l->err, sizeof(l->err), "%s: %s",
			    trc_src_name(l->src), trc_src_error(l->src));
			return -1;
		}
		memmove(l->buf, l->buf + l->start, l->end - l->start);
		l->end -= l->start;
		l->start = 0;
		n = trc_src_read(l->src, l->buf + l->end, BLOCK - l->end);
		if (n < 0) {
			snprintf(l->err, sizeof(l->err), "%s:%ld: %s",
			    trc_src_name(l->src), l->line + 1,
			    trc_src_error(l->src));
			return -1;
		}
		if (n == 0)
			l->eof = 1;
		l->end += (size_t)n;
	}
}

void
trc_lines_close(struct trc_lines *l)
{
	if (l == NULL)
		return;
	if (l->own)
		trc_src_close(l->src);
	free(l->buf);
	free(l);
}
