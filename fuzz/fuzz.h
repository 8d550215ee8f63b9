/*
 * fuzz.h - what the fuzz targets share (the README's "Fuzzing").
 * Each target is one file defining LLVMFuzzerTestOneInput;
 * it links with libFuzzer for `make fuzz` and with replay.c, a plain
 * main(), for the test suite, which feeds it every corpus and
 * regression input.
 */
#ifndef TRC_FUZZ_H
#define TRC_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "trc.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/*
 * The readers take paths, so an input is written to a file of its
 * name in a directory of this process's own (removed at exit); the
 * path stays valid until the process ends.
 */
const char *fuzz_file(const char *name, const void *data, size_t n);
/* The path a target may write to itself (as fuzz_file, without data). */
const char *fuzz_path(const char *name);
/* Removes path and everything under it. */
void	 fuzz_rmtree(const char *path);

/*
 * The input cut at its first newline: the first line (without it, NUL
 * terminated in a static buffer of at most 4 KiB) and the rest.
 */
const char *fuzz_line(const uint8_t **data, size_t *n);
/* The input cut at the first line "%%\n": 1 with both parts, else 0
 * with all of it in *a. */
int	 fuzz_split(const uint8_t *data, size_t n, const uint8_t **a,
	    size_t *an, const uint8_t **b, size_t *bn);

/*
 * The input cut at each line "%%" into at most max parts, part i
 * written to the file names[i] (the last taking the rest); the files
 * of the parts missing are removed.  The number of parts.
 */
int	 fuzz_parts(const uint8_t *data, size_t n, const char *const *names,
	    int max);

/* A writer on /dev/null, opened once. */
struct trc_writer *fuzz_null_writer(void);
/* A writer on the file name, emptied; fuzz_wclose flushes and frees it
 * and returns 0, or -1 when writing failed. */
struct trc_writer *fuzz_wopen(const char *name);
int	 fuzz_wclose(struct trc_writer *);

/*
 * Format ev as the writer would and parse it back: the same time,
 * rank, kind and attributes, or abort().  Readers must yield events
 * that the stream can say.
 */
void	 fuzz_check_event(const struct trc_event *ev);

/*
 * The header's extra lines are lines of '#', each ending in a newline,
 * or abort(): a writer puts them out as they are, before the events.
 */
void	 fuzz_check_header(const struct trc_header *h);

/* Read a whole stream of the named format (NULL: by content),
 * checking every event; the number of events, -1 on error. */
long	 fuzz_read(const char *path, const char *format);
/* The error of the last fuzz_read that failed. */
const char *fuzz_error(void);

#endif
