/*
 * out.c - a writer of any format: the format's writer behind one
 * object that keeps the first error.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt/fmt.h"

struct trc_out {
	const struct trc_format	*fmt;
	void			*state;
	struct trc_open_opts	 opts;
	struct trc_drops	 drops;
	int			 failed;
	char			*tmp;		/* written under this name */
	char			*path;		/* and renamed to this one */
	struct {				/* the further files, the same */
		char		*tmp, *path;
	}			 part[TRC_OUT_PARTS];
	int			 nparts;
	int			 staged;	/* the writer's own way */
	char			 err[TRC_ERRLEN + 512];
};

/*
 * The formats written as one file go to a temporary name renamed at
 * the end (atomic.c); the others name further files after path, or
 * (dimemas) write its name inside.
 */
static int
one_file(const char *name)
{
	return strcmp(name, "trc") == 0 || strcmp(name, "trcb") == 0 ||
	    strcmp(name, "trcb-zstd") == 0 || strcmp(name, "chrome") == 0;
}

/* Errors name the file the user asked for, not its temporary name. */
static void
rename_in_err(struct trc_out *o, const char *tmp, const char *path)
{
	char buf[sizeof(o->err)], *at;
	size_t n;

	if (tmp == NULL || (at = strstr(o->err, tmp)) == NULL)
		return;
	n = (size_t)(at - o->err);
	snprintf(buf, sizeof(buf), "%.*s%s%s", (int)n, o->err, path,
	    at + strlen(tmp));
	memcpy(o->err, buf, sizeof(buf));
}

static void
final_name(struct trc_out *o)
{
	int i;

	rename_in_err(o, o->tmp, o->path);
	for (i = 0; i < o->nparts; i++)
		rename_in_err(o, o->part[i].tmp, o->part[i].path);
}

const char *
trc_out_part(struct trc_out *o, const char *path)
{
	int i = o->nparts;

	if (!trc_atomic_wanted(path))
		return path;
	if (i == TRC_OUT_PARTS) {
		trc_out_fail(o, "%s: too many files", path);
		return NULL;
	}
	if ((o->part[i].path = strdup(path)) == NULL) {
		trc_out_fail(o, "out of memory");
		return NULL;
	}
	if ((o->part[i].tmp = trc_atomic_tmp(path, o->err,
	    sizeof(o->err))) == NULL) {
		free(o->part[i].path);
		o->failed = 1;
		return NULL;
	}
	o->nparts++;
	return o->part[i].tmp;
}

struct trc_out *
trc_out_open(const char *format, const char *path, const struct trc_header *h,
    const struct trc_open_opts *opts)
{
	struct trc_out *o;

	if ((o = calloc(1, sizeof(*o))) == NULL)
		return NULL;
	if (opts != NULL)
		o->opts = *opts;
	if (format == NULL)
		format = "trc";
	if ((o->fmt = trc_format_find(format)) == NULL)
		trc_out_fail(o, "unknown format '%s'", format);
	else if (o->fmt->wopen == NULL)
		trc_out_fail(o, "format '%s' is read, not written",
		    o->fmt->name);
	else if (one_file(o->fmt->name) && trc_atomic_wanted(path) &&
	    ((o->path = strdup(path)) == NULL ||
	    (o->tmp = trc_atomic_tmp(path, o->err, sizeof(o->err))) == NULL))
		o->failed = 1;
	else if (o->fmt->wopen(o, o->tmp != NULL ? o->tmp : path, h) < 0 &&
	    !o->failed)
		trc_out_fail(o, "cannot write %s", o->fmt->name);
	final_name(o);
	return o;
}

int
trc_out_write(struct trc_out *o, const struct trc_event *ev)
{
	if (o->failed)
		return -1;
	if (o->fmt->write(o, ev) < 0 || o->failed) {
		final_name(o);
		return -1;
	}
	return 0;
}

int
trc_out_close(struct trc_out *o)
{
	int i, rc;

	if (o->failed)
		return -1;
	if ((o->fmt->wclose != NULL && o->fmt->wclose(o) < 0) || o->failed) {
		final_name(o);
		return -1;
	}
	/* Complete: each file under its own name now. */
	for (i = 0; i < o->nparts; i++) {
		rc = trc_atomic_commit(o->part[i].tmp, o->part[i].path, o->err,
		    sizeof(o->err));
		o->part[i].tmp = NULL;
		if (rc < 0) {
			o->failed = 1;
			return -1;
		}
	}
	if (o->tmp != NULL) {
		if (trc_atomic_commit(o->tmp, o->path, o->err,
		    sizeof(o->err)) < 0) {
			o->tmp = NULL;
			o->failed = 1;
			return -1;
		}
		o->tmp = NULL;
	}
	return 0;
}

int
trc_out_atomic(const struct trc_out *o)
{
	return o->tmp != NULL || o->nparts > 0 || o->staged;
}

void
trc_out_staged(struct trc_out *o)
{
	o->staged = 1;
}

int
trc_out_replaces(const char *format, const char *path, const char *file)
{
	const struct trc_format *f = trc_format_find(format);

	if (f != NULL && f->replaces != NULL && path != NULL &&
	    strcmp(path, "-") != 0)
		return f->replaces(path, file);
	return trc_same_file(path, file);
}

int
trc_out_names(const char *file, const char *dir, const char *prefix,
    const char *suffix)
{
	const char *slash = strrchr(file, '/'), *base;
	size_t n, np = strlen(prefix), ns = strlen(suffix);
	char *fdir;
	int same;

	base = slash != NULL ? slash + 1 : file;
	n = strlen(base);
	if (n < np + ns || strncmp(base, prefix, np) != 0 ||
	    strcmp(base + n - ns, suffix) != 0)
		return 0;
	if (slash == NULL)
		return trc_same_file(".", dir);
	if ((fdir = strndup(file, slash == file ? 1 : (size_t)(slash -
	    file))) == NULL)
		return 0;
	same = trc_same_file(fdir, dir);
	free(fdir);
	return same;
}

const char *
trc_out_error(const struct trc_out *o)
{
	return o->err;
}

int
trc_out_dropped(const struct trc_out *o, size_t i, const char **what,
    unsigned long long *n)
{
	return trc_drops_get(&o->drops, i, what, n);
}

void
trc_out_free(struct trc_out *o)
{
	int i;

	if (o == NULL)
		return;
	if (o->fmt != NULL && o->fmt->wfree != NULL && o->state != NULL)
		o->fmt->wfree(o->state);
	trc_drops_free(&o->drops);
	trc_atomic_abort(o->tmp);	/* not closed: never complete */
	free(o->path);
	for (i = 0; i < o->nparts; i++) {
		trc_atomic_abort(o->part[i].tmp);
		free(o->part[i].path);
	}
	free(o);
}

void *
trc_out_state(struct trc_out *o)
{
	return o->state;
}

void
trc_out_set_state(struct trc_out *o, void *state)
{
	o->state = state;
}

const struct trc_open_opts *
trc_out_opts(const struct trc_out *o)
{
	return &o->opts;
}

int
trc_out_fail(struct trc_out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->failed)
		return -1;
	va_start(ap, fmt);
	vsnprintf(o->err, sizeof(o->err), fmt, ap);
	va_end(ap);
	o->failed = 1;
	return -1;
}

void
trc_out_drop(struct trc_out *o, const char *what)
{
	trc_drops_add(&o->drops, what);
}
