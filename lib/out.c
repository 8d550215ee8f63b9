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
	char			 err[TRC_ERRLEN + 512];
};

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
	else if (o->fmt->wopen(o, path, h) < 0 && !o->failed)
		trc_out_fail(o, "cannot write %s", o->fmt->name);
	return o;
}

int
trc_out_write(struct trc_out *o, const struct trc_event *ev)
{
	if (o->failed)
		return -1;
	return o->fmt->write(o, ev) < 0 || o->failed ? -1 : 0;
}

int
trc_out_close(struct trc_out *o)
{
	if (o->failed)
		return -1;
	if (o->fmt->wclose != NULL && o->fmt->wclose(o) < 0)
		return -1;
	return o->failed ? -1 : 0;
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
	if (o == NULL)
		return;
	if (o->fmt != NULL && o->fmt->wfree != NULL && o->state != NULL)
		o->fmt->wfree(o->state);
	trc_drops_free(&o->drops);
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
