/*
 * trc.c - the text stream as a format: reading is lib/reader.c's own
 * (the fast path), so this entry bids and writes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"

struct out {
	int			 fd;
	struct trc_writer	*w;
	char			*name;
};

static int
bid(const char *path, const unsigned char *head, size_t n)
{
	(void)path;
	return n >= 4 && memcmp(head, "#trc", 4) == 0 ? 100 : 0;
}

static void
wfree(void *state)
{
	struct out *o = state;

	if (o == NULL)
		return;
	if (o->fd > 1)
		close(o->fd);
	trc_wfree(o->w);
	free(o->name);
	free(o);
}

static int
wopen(struct trc_out *out, const char *path, const struct trc_header *h)
{
	struct out *o;
	int stdout_ = path == NULL || strcmp(path, "-") == 0;

	if ((o = calloc(1, sizeof(*o))) == NULL)
		return trc_out_fail(out, "out of memory");
	trc_out_set_state(out, o);
	o->fd = 1;
	if ((o->name = strdup(stdout_ ? "<stdout>" : path)) == NULL)
		return trc_out_fail(out, "out of memory");
	if (!stdout_ &&
	    (o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0)
		return trc_out_fail(out, "%s: %s", path, strerror(errno));
	if ((o->w = trc_wopen(o->fd)) == NULL)
		return trc_out_fail(out, "out of memory");
	if (trc_write_header(o->w, h) < 0)
		return trc_out_fail(out, "%s: %s", o->name, trc_werror(o->w));
	return 0;
}

static int
write_event(struct trc_out *out, const struct trc_event *ev)
{
	struct out *o = trc_out_state(out);

	if (trc_write_event(o->w, ev) < 0)
		return trc_out_fail(out, "%s: %s", o->name, trc_werror(o->w));
	return 0;
}

static int
wclose(struct trc_out *out)
{
	struct out *o = trc_out_state(out);

	if (trc_wflush(o->w) < 0)
		return trc_out_fail(out, "%s: %s", o->name, trc_werror(o->w));
	if (o->fd > 1) {
		if (close(o->fd) < 0) {
			o->fd = -1;
			return trc_out_fail(out, "%s: %s", o->name,
			    strerror(errno));
		}
		o->fd = -1;
	}
	return 0;
}

const struct trc_format trc_format_trc = {
	.name = "trc",
	.bid = bid,
	.wopen = wopen,
	.write = write_event,
	.wclose = wclose,
	.wfree = wfree,
};
