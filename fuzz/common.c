/*
 * common.c - the files, splits and checks the fuzz targets share.
 */
#define _XOPEN_SOURCE 700
#include <sys/stat.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

#define MAXFILES	64

static char dir[256];
static char paths[MAXFILES][300];
static int npaths;
static int wfd = -1;
static char lasterr[1024];

static int
rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* The directory and all in it, writers' files included. */
void
fuzz_rmtree(const char *path)
{
	nftw(path, rm, 16, FTW_DEPTH | FTW_PHYS);
}

static void
cleanup(void)
{
	if (dir[0] != '\0')
		fuzz_rmtree(dir);
}

const char *
fuzz_path(const char *name)
{
	char path[sizeof(paths[0])];
	const char *tmp;
	int i;

	if (dir[0] == '\0') {
		if ((tmp = getenv("TMPDIR")) == NULL || *tmp == '\0')
			tmp = "/tmp";
		snprintf(dir, sizeof(dir), "%s/trc-fuzz.XXXXXX", tmp);
		if (mkdtemp(dir) == NULL) {
			perror(dir);
			abort();
		}
		atexit(cleanup);
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	for (i = 0; i < npaths; i++)
		if (strcmp(paths[i], path) == 0)
			return paths[i];
	if (npaths == MAXFILES)
		abort();
	memcpy(paths[npaths], path, sizeof(path));
	return paths[npaths++];
}

const char *
fuzz_file(const char *name, const void *data, size_t n)
{
	const char *path = fuzz_path(name);
	int fd;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0 ||
	    (n > 0 && write(fd, data, n) != (ssize_t)n) || close(fd) < 0) {
		perror(path);
		abort();
	}
	return path;
}

const char *
fuzz_line(const uint8_t **data, size_t *n)
{
	static char line[4096];
	const uint8_t *nl = memchr(*data, '\n', *n);
	size_t len = nl != NULL ? (size_t)(nl - *data) : *n;

	if (len >= sizeof(line))
		len = sizeof(line) - 1;
	memcpy(line, *data, len);
	line[len] = '\0';
	if (nl != NULL) {
		*n -= (size_t)(nl + 1 - *data);
		*data = nl + 1;
	} else {
		*data += *n;
		*n = 0;
	}
	return line;
}

int
fuzz_split(const uint8_t *data, size_t n, const uint8_t **a, size_t *an,
    const uint8_t **b, size_t *bn)
{
	size_t i;

	*a = data;
	*an = n;
	*b = NULL;
	*bn = 0;
	for (i = 0; i + 3 <= n; i++)
		if ((i == 0 || data[i - 1] == '\n') && memcmp(data + i,
		    "%%\n", 3) == 0) {
			*an = i;
			*b = data + i + 3;
			*bn = n - i - 3;
			return 1;
		}
	return 0;
}

int
fuzz_parts(const uint8_t *data, size_t n, const char *const *names,
    int max)
{
	const uint8_t *a, *b;
	size_t an, bn;
	int i, k = 0;

	for (i = 0; i < max; i++) {
		if (i > 0 && data == NULL) {
			unlink(fuzz_path(names[i]));
			continue;
		}
		if (i == max - 1 || !fuzz_split(data, n, &a, &an, &b, &bn)) {
			a = data;
			an = n;
			b = NULL;
			bn = 0;
		}
		fuzz_file(names[i], a, an);
		k++;
		data = b;
		n = bn;
	}
	return k;
}

struct trc_writer *
fuzz_null_writer(void)
{
	static struct trc_writer *w;
	int fd;

	if (w == NULL) {
		if ((fd = open("/dev/null", O_WRONLY)) < 0 ||
		    (w = trc_wopen(fd)) == NULL)
			abort();
	}
	return w;
}

struct trc_writer *
fuzz_wopen(const char *name)
{
	struct trc_writer *w;
	int fd;

	if ((fd = open(fuzz_path(name), O_WRONLY | O_CREAT | O_TRUNC,
	    0600)) < 0 || (w = trc_wopen(fd)) == NULL)
		abort();
	wfd = fd;
	return w;
}

int
fuzz_wclose(struct trc_writer *w)
{
	int rc = trc_wflush(w);

	trc_wfree(w);
	close(wfd);
	return rc;
}

static int
streq(struct trc_str a, struct trc_str b)
{
	return a.len == b.len && memcmp(a.s, b.s, a.len) == 0;
}

void
fuzz_check_event(const struct trc_event *ev)
{
	static char *buf;
	static size_t cap;
	struct trc_event back;
	char err[TRC_ERRLEN];
	size_t need, len;
	int i;

	if (ev->rank < 0 || ev->kind < 0 || ev->kind >= TRC_NKINDS)
		abort();
	need = trc_event_maxlen(ev, 0) + 1;
	if (need > cap) {
		free(buf);
		if ((buf = malloc(need)) == NULL)
			abort();
		cap = need;
	}
	len = trc_format_event(buf, ev, ev->t, NULL, 0);
	if (len == 0 || len >= need || buf[len - 1] != '\n')
		abort();
	if (trc_parse_line(buf, len - 1, &back, err) < 0) {
		fprintf(stderr, "fuzz: an event written as '%.*s' reads "
		    "back as: %s\n", (int)len - 1, buf, err);
		abort();
	}
	if (back.t != ev->t || back.rank != ev->rank ||
	    back.kind != ev->kind || back.nattr != ev->nattr) {
		fprintf(stderr, "fuzz: an event written as '%.*s' reads "
		    "back otherwise\n", (int)len - 1, buf);
		abort();
	}
	for (i = 0; i < ev->nattr; i++)
		if (!streq(back.attr[i].key, ev->attr[i].key) ||
		    !streq(back.attr[i].val, ev->attr[i].val)) {
			fprintf(stderr, "fuzz: attribute %d of '%.*s' reads "
			    "back otherwise\n", i, (int)len - 1, buf);
			abort();
		}
	if (back.peer != ev->peer || back.tag != ev->tag ||
	    back.comm != ev->comm || back.root != ev->root ||
	    back.bytes != ev->bytes || back.req != ev->req ||
	    !streq(back.fn, ev->fn) || !streq(back.op, ev->op) ||
	    !streq(back.reqs, ev->reqs)) {
		fprintf(stderr, "fuzz: the fields of '%.*s' read back "
		    "otherwise: peer %d/%d tag %d/%d comm %d/%d root %d/%d "
		    "bytes %lld/%lld req %lld/%lld fn '%.*s' op '%.*s' "
		    "reqs '%.*s'\n", (int)len - 1, buf, ev->peer, back.peer,
		    ev->tag, back.tag, ev->comm, back.comm, ev->root,
		    back.root, (long long)ev->bytes, (long long)back.bytes,
		    (long long)ev->req, (long long)back.req,
		    (int)ev->fn.len, ev->fn.s, (int)ev->op.len, ev->op.s,
		    (int)ev->reqs.len, ev->reqs.s);
		abort();
	}
}

void
fuzz_check_header(const struct trc_header *h)
{
	const char *s = h->extra.s, *end = s + h->extra.len, *nl;

	if (h->extra.len > 0 && s == NULL)
		abort();
	for (; s < end; s = nl + 1)
		if (*s != '#' || (nl = memchr(s, '\n', (size_t)(end - s))) ==
		    NULL) {
			fprintf(stderr, "fuzz: a header line that is no "
			    "'#' line: '%.*s'\n", (int)(end - s > 60 ? 60 :
			    end - s), s);
			abort();
		}
}

long
fuzz_read(const char *path, const char *format)
{
	struct trc_open_opts opts = { 0 };
	const struct trc_header *h;
	struct trc_reader *r;
	struct trc_event ev;
	unsigned long long cnt;
	const char *what;
	long n = 0;
	size_t i;
	int rc;

	opts.format = format;
	if ((r = trc_open_with(path, &opts)) == NULL)
		abort();
	if ((h = trc_get_header(r)) == NULL) {
		if (trc_error(r)[0] == '\0')
			abort();
		snprintf(lasterr, sizeof(lasterr), "%s", trc_error(r));
		trc_close(r);
		return -1;
	}
	fuzz_check_header(h);
	while ((rc = trc_next(r, &ev)) > 0) {
		if (h->ranks > 0 && ev.rank >= h->ranks)
			abort();
		fuzz_check_event(&ev);
		n++;
	}
	if (rc < 0 && trc_error(r)[0] == '\0')
		abort();
	if (rc < 0)
		snprintf(lasterr, sizeof(lasterr), "%s", trc_error(r));
	for (i = 0; trc_dropped(r, i, &what, &cnt) == 1; i++)
		if (what == NULL || cnt == 0)
			abort();
	trc_close(r);
	return rc < 0 ? -1 : n;
}

const char *
fuzz_error(void)
{
	return lasterr;
}
