/*
 * trcb.h - the writer of the binary stream (lib/fmt/trcb.c,
 * trc-formats(5)) on its own, for the tracer, which links it without
 * the rest of the library's formats.
 */
#ifndef TRC_TRCB_H
#define TRC_TRCB_H

#include "trc.h"

struct trcb_writer;
/* NULL only when out of memory; a failure is kept for the next call. */
struct trcb_writer *trcb_wopen(int fd, const char *name,
		    const struct trc_header *, int zstd);
int		 trcb_write(struct trcb_writer *, const struct trc_event *);
/* The last block, the index and the end; fd is left open.  0 or -1. */
int		 trcb_wclose(struct trcb_writer *);
/* "file: message", or "" when nothing failed. */
const char	*trcb_werror(const struct trcb_writer *);
void		 trcb_wfree(struct trcb_writer *);
/* A block's checksum of its n stored bytes (trc-formats(5)). */
uint32_t	 trcb_checksum(const unsigned char *, size_t n);

#endif
