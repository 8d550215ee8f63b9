/*
 * src.c - a byte source: a file or standard input, gzip inflated
 * transparently (zlib), with its first bytes kept for format bids.
 * A plain regular file can also be mapped a window at a time, so that
 * the text reader parses it in place rather than copying it in.
 */
#define _DEFAULT_SOURCE		/* MAP_POPULATE, which POSIX lacks */
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "fmt/fmt.h"

#define RAWSIZE		(1 << 16)
#define POPULATE_MAX	(1 << 20)	/* a mapped window populated at most */

struct trc_src {
	int		 fd;
	int		 gz;		/* inflating */
	int		 raw_eof;
	int		 z_end;		/* a gzip member ended with no more input */
	z_stream	 z;
	unsigned char	*raw;		/* compressed bytes (gz) */
	unsigned char	*head;		/* the first bytes, returned first */
	size_t		 headlen, headoff;
	int		 regular;	/* a regular file, read from origin */
	off_t		 origin, size;	/* its offset at the open, its size */
	void		*map;		/* the window trc_src_map made */
	size_t		 maplen;
	off_t		 mapbase;	/* its first byte's file offset */
	char		*name;
	char		 err[256];
};

/*
 * Bytes of the file into buf: the count, 0 at its end, -1 on error.  A
 * regular file that ends short of its size at the open was cut while
 * it was read: that is an error, not its end, or the events past the
 * cut would be lost without a word when it falls between two lines.
 */
static ssize_t
raw_read(struct trc_src *s, void *buf, size_t n)
{
	struct stat st;
	ssize_t got;

	do
		got = read(s->fd, buf, n);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		snprintf(s->err, sizeof(s->err), "%s", strerror(errno));
	else if (got == 0 && n > 0 && s->regular && fstat(s->fd, &st) == 0 &&
	    st.st_size < s->origin + s->size) {
		snprintf(s->err, sizeof(s->err), "the file shrank to %lld "
		    "bytes while it was read", (long long)st.st_size);
		return -1;
	}
	return got;
}

/* Inflated bytes into buf: the count, 0 at the end, -1 on error. */
static ssize_t
gz_read(struct trc_src *s, unsigned char *buf, size_t n)
{
	ssize_t got;
	int rc;

	s->z.next_out = buf;
	s->z.avail_out = (uInt)n;
	while (s->z.avail_out == n) {
		if (s->z.avail_in == 0 && !s->raw_eof) {
			if ((got = raw_read(s, s->raw, RAWSIZE)) < 0)
				return -1;
			if (got == 0)
				s->raw_eof = 1;
			s->z.next_in = s->raw;
			s->z.avail_in = (uInt)got;
		}
		if (s->z_end) {
			/* Concatenated members, as gzip -c a b > c makes. */
			if (s->z.avail_in == 0)
				break;
			if (inflateReset(&s->z) != Z_OK)
				goto corrupt;
			s->z_end = 0;
		}
		rc = inflate(&s->z, Z_NO_FLUSH);
		if (rc == Z_STREAM_END)
			s->z_end = 1;
		else if (rc == Z_BUF_ERROR && s->raw_eof && s->z.avail_in == 0) {
			snprintf(s->err, sizeof(s->err),
			    "truncated gzip data");
			return -1;
		} else if (rc != Z_OK && rc != Z_BUF_ERROR)
			goto corrupt;
	}
	return (ssize_t)(n - s->z.avail_out);
corrupt:
	snprintf(s->err, sizeof(s->err), "invalid gzip data: %s",
	    s->z.msg ? s->z.msg : "corrupt stream");
	return -1;
}

struct trc_src *
trc_src_open(const char *path)
{
	struct trc_src *s;
	struct stat st;
	unsigned char magic[2];
	int stdin_ = path == NULL || strcmp(path, "-") == 0;
	ssize_t got;
	size_t n;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return NULL;
	s->fd = -1;
	if ((s->name = strdup(stdin_ ? "<stdin>" : path)) == NULL ||
	    (s->head = malloc(TRC_HEADSIZE)) == NULL) {
		trc_src_close(s);
		return NULL;
	}
	s->fd = stdin_ ? 0 : open(path, O_RDONLY);
	if (s->fd < 0) {
		snprintf(s->err, sizeof(s->err), "%s", strerror(errno));
		return s;
	}
	if (fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (s->origin = lseek(s->fd, 0, SEEK_CUR)) >= 0 &&
	    st.st_size > s->origin) {
		s->regular = 1;
		s->size = st.st_size - s->origin;
	}
	/* Two bytes tell gzip; read the head with what follows. */
	for (n = 0; n < 2; n += (size_t)got) {
		if ((got = raw_read(s, magic + n, 2 - n)) < 0)
			return s;
		if (got == 0)
			break;
	}
	if (n == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
		if ((s->raw = malloc(RAWSIZE)) == NULL) {
			snprintf(s->err, sizeof(s->err), "out of memory");
			return s;
		}
		memcpy(s->raw, magic, 2);
		s->z.next_in = s->raw;
		s->z.avail_in = 2;
		/* 16 + MAX_WBITS: gzip wrapper only. */
		if (inflateInit2(&s->z, 16 + MAX_WBITS) != Z_OK) {
			snprintf(s->err, sizeof(s->err), "out of memory");
			return s;
		}
		s->gz = 1;
		n = 0;
	} else
		memcpy(s->head, magic, n);
	s->headlen = n;
	while (s->headlen < TRC_HEADSIZE) {
		got = s->gz ? gz_read(s, s->head + s->headlen,
		    TRC_HEADSIZE - s->headlen) :
		    raw_read(s, s->head + s->headlen, TRC_HEADSIZE - s->headlen);
		if (got < 0) {
			s->headlen = 0;
			return s;
		}
		if (got == 0)
			break;
		s->headlen += (size_t)got;
	}
	return s;
}

const char *
trc_src_error(const struct trc_src *s)
{
	return s->err[0] ? s->err : NULL;
}

const char *
trc_src_name(const struct trc_src *s)
{
	return s->name;
}

int
trc_src_gzip(const struct trc_src *s)
{
	return s->gz;
}

const unsigned char *
trc_src_head(const struct trc_src *s, size_t *n)
{
	*n = s->headlen;
	return s->head;
}

ssize_t
trc_src_read(struct trc_src *s, void *buf, size_t n)
{
	size_t k;

	if (s->err[0])
		return -1;
	if (s->headoff < s->headlen) {
		k = s->headlen - s->headoff;
		if (k > n)
			k = n;
		memcpy(buf, s->head + s->headoff, k);
		s->headoff += k;
		return (ssize_t)k;
	}
	if (n == 0)
		return 0;
	return s->gz ? gz_read(s, buf, n) : raw_read(s, buf, n);
}

const char *
trc_src_map(struct trc_src *s, uint64_t off, size_t want, size_t *len,
    size_t *readable)
{
	long pg = sysconf(_SC_PAGESIZE);
	struct stat st;
	off_t base;
	size_t delta, n, k;
	void *m;
	int flags = MAP_PRIVATE;

	if (!s->regular || s->gz || s->err[0] || pg <= 0 ||
	    off >= (uint64_t)s->size)
		return NULL;
	base = (off_t)(s->origin + (off_t)off) & ~(off_t)(pg - 1);
	delta = (size_t)(s->origin + (off_t)off - base);
	n = (size_t)((uint64_t)s->size - off);
	if (n > want)
		n = want;
	/*
	 * A page of a mapping past the file's end is SIGBUS, not an error
	 * we could report: a file another process truncated since the
	 * open stops here, named, before the window is mapped.
	 */
	if (fstat(s->fd, &st) < 0) {
		snprintf(s->err, sizeof(s->err), "%s", strerror(errno));
		return NULL;
	}
	if (st.st_size < s->origin + (off_t)off + (off_t)n) {
		snprintf(s->err, sizeof(s->err), "the file shrank to %lld "
		    "bytes while it was read", (long long)st.st_size);
		return NULL;
	}
#ifdef MAP_POPULATE
	/* The window's pages at once, no faults; not a window grown for a
	 * long line, twice its length, whose second half may never be
	 * read: it would be resident all the same. */
	if (n <= POPULATE_MAX)
		flags |= MAP_POPULATE;
#endif
	/* The old window's pages before the new one's have been read:
	 * given back first, so that two windows are never resident at
	 * once.  Its rest, the line the new one starts with, stays for a
	 * caller to copy should the new not be mapped. */
	if (s->map != NULL && base > s->mapbase) {
		k = (size_t)(base - s->mapbase);
		if (k > s->maplen)
			k = s->maplen;
		munmap(s->map, k);
		s->map = k < s->maplen ? (char *)s->map + k : NULL;
		s->maplen -= k;
		s->mapbase = base;
	}
	if ((m = mmap(NULL, delta + n, PROT_READ, flags, s->fd, base)) ==
	    MAP_FAILED)
		return NULL;
	if (s->map != NULL)
		munmap(s->map, s->maplen);
	s->map = m;
	s->maplen = delta + n;
	s->mapbase = base;
	*len = n;
	/* Up to the end of the last page: past the file's end, zeros. */
	*readable = ((delta + n + (size_t)pg - 1) & ~((size_t)pg - 1)) - delta;
	return (const char *)m + delta;
}

int
trc_src_unmap(struct trc_src *s, uint64_t off)
{
	if (s->map != NULL)
		munmap(s->map, s->maplen);
	s->map = NULL;
	if (!s->regular || s->gz)
		return 0;	/* never mapped: read on as before */
	if (off < s->headlen) {
		s->headoff = (size_t)off;
		off = s->headlen;
	} else
		s->headoff = s->headlen;
	if (lseek(s->fd, s->origin + (off_t)off, SEEK_SET) < 0) {
		snprintf(s->err, sizeof(s->err), "%s", strerror(errno));
		return -1;
	}
	return 0;
}

void
trc_src_close(struct trc_src *s)
{
	if (s == NULL)
		return;
	if (s->map != NULL)
		munmap(s->map, s->maplen);
	if (s->fd > 0)
		close(s->fd);
	if (s->gz)
		inflateEnd(&s->z);
	free(s->raw);
	free(s->head);
	free(s->name);
	free(s);
}
