/*
 * 0221-dumpi-cuts.c - the dumpi reader's buffer ends at every byte of
 * a call's block (lib/fmt/dumpi.c, read_block): a line outside any
 * call before the blocks, of n bytes, moves the block across the end
 * of the first bytes read (the 4096 of a format's bid), so that each
 * of its lines is cut there at each of its bytes, and some start in
 * the last sixteen bytes of the buffer (read without the sixteen-byte
 * look).  Every cut gives the same events.  One process reads the
 * three hundred files, where trc-cat, started for each, took 40 s
 * under the sanitizers.  The block is t/0221-fmt-dumpi-lines.t's, as
 * dumpi2ascii prints it; the events are worked out by hand there:
 * request handles 5 and 6 are the reader's requests 1 and 2, 3
 * doubles are 24 bytes, 2 ints 8.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trc.h"
#include "tap.h"

#define CALL(name, t0, t1, args) \
	name " entering at walltime " t0 ", cputime " t0 " seconds in thread 0.\n" \
	args \
	name " returning at walltime " t1 ", cputime " t1 " seconds in thread 0.\n"
#define ZERO	"0.000000000"

static const char calls[] =
    CALL("MPI_Comm_size", ZERO, ZERO,
	"MPI_Comm comm=2 (MPI_COMM_WORLD)\n" "int size=2\n")
    CALL("MPI_Comm_rank", ZERO, ZERO,
	"MPI_Comm comm=2 (MPI_COMM_WORLD)\n" "int rank=0\n")
    CALL("MPI_Isend", "1.000000000", "1.000000500",
	"int count=3\n" "MPI_Datatype datatype=14 (MPI_DOUBLE)\n"
	"int dest=1\n" "int tag=7\n" "MPI_Comm comm=2 (MPI_COMM_WORLD)\n"
	"MPI_Request request=[5]\n")
    CALL("MPI_Irecv", "2.000000000", "2.000000100",
	"int count=2\n" "MPI_Datatype datatype=9 (MPI_INT)\n"
	"int source=1\n" "int tag=8\n" "MPI_Comm comm=2 (MPI_COMM_WORLD)\n"
	"MPI_Request request=[6]\n")
    CALL("MPI_Waitall", "3.000000000", "3.250000000",
	"int count=2\n" "int errorcode=0\n"
	"MPI_Request requests[2]=[5, 6]\n"
	"MPI_Status statuses[2]=<IGNORED>\n");

static const char want[] =
    "1.000000000 0 SB peer=1 tag=7 bytes=24 req=1\n"
    "1.000000500 0 SE peer=1 tag=7 bytes=24 req=1\n"
    "2.000000000 0 RB peer=1 tag=8 bytes=8 req=2\n"
    "3.000000000 0 WB req=1,2 op=waitall\n"
    "3.250000000 0 RE req=2 peer=1 tag=8 bytes=8\n"
    "3.250000000 0 WE req=1,2 op=waitall\n";

#define BID	4096	/* the first read of a format's reader */

/* The events of path read as dumpi, as trc-cat writes them, or the
 * error; "" on success into got. */
static const char *
read_events(const char *path, char *got, size_t cap, char *err, size_t elen)
{
	struct trc_open_opts o = { .format = "dumpi" };
	char line[TRC_MAXLINE + 64];
	const struct trc_header *h;
	struct trc_reader *r;
	struct trc_event ev;
	size_t len = 0, k;
	int rc = -1;

	got[0] = err[0] = '\0';
	if ((r = trc_open_with(path, &o)) == NULL)
		return "out of memory";
	if ((h = trc_get_header(r)) != NULL && h->ranks != 2)
		snprintf(err, elen, "ranks=%d, not 2", (int)h->ranks);
	else if (h != NULL)
		while ((rc = trc_next(r, &ev)) > 0) {
			k = trc_format_event(line, &ev, ev.t, NULL, 0);
			if (len + k >= cap) {
				snprintf(err, elen, "more events than wanted");
				rc = 0;
				break;
			}
			memcpy(got + len, line, k);
			got[len += k] = '\0';
		}
	if (rc < 0)
		snprintf(err, elen, "%s", trc_error(r));
	trc_close(r);
	return err;
}

int
main(void)
{
	char dir[] = "/tmp/trc-dumpi-XXXXXX", path[64];
	char got[sizeof(want) * 2], err[TRC_ERRLEN + 512];
	const char *from, *to;
	size_t n, first, last;
	int bad = 0, cuts = 0;
	FILE *f;

	from = strstr(calls, "MPI_Isend entering");
	to = strstr(calls, "MPI_Irecv entering");
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/cut.txt", dir);
	/* n bytes before the blocks, newline included: from the Irecv's
	 * first line 16 bytes into the buffer's end, to the Isend's first
	 * line past it. */
	first = BID - (size_t)(to - calls) - 16;
	last = BID - (size_t)(from - calls);
	for (n = first; n <= last; n++, cuts++) {
		if ((f = fopen(path, "w")) == NULL) {
			perror(path);
			return 2;
		}
		for (size_t i = 0; i + 1 < n; i++)
			putc('x', f);
		putc('\n', f);
		fputs(calls, f);
		if (fclose(f) != 0) {
			perror(path);
			return 2;
		}
		read_events(path, got, sizeof(got), err, sizeof(err));
		if (err[0] != '\0' || strcmp(got, want) != 0) {
			if (++bad <= 3)
				printf("# differs with a line of %zu bytes before: "
				    "%s\n#   got:\n%s", n, err, got);
		}
	}
	is_int(cuts, 316,
	    "cuts: every byte of the Isend block and the Irecv's first 16");
	is_int(bad, 0,
	    "the buffer's end at every byte of the blocks: the same events");
	unlink(path);
	ok(rmdir(dir) == 0, "cleaned up");
	return done_testing();
}
