/*
 * src.c - a byte source: a file or standard input, gzip inflated
 * transparently (zlib), with its first bytes kept for format bids.
 * Read, never mapped: on a host of nested paging (a virtual machine's)
 * the mapping's page tables cost more than read(2)'s copy.
 */
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

void
trc_src_close(struct trc_src *s)
{
	if (s == NULL)
		return;
	if (s->fd > 0)
		close(s->fd);
	if (s->gz)
		inflateEnd(&s->z);
	free(s->raw);
	free(s->head);
	free(s->name);
	free(s);
}
