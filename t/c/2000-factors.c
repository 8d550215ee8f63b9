/*
 * 2000-factors: factor-file lines and TRC_DELAY specs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "trc.h"
#include "trc_perturb.h"

static char err[256];

static int
line(const char *s, struct trc_factor *f)
{
	err[0] = '\0';
	return trc_factor_parse_line(s, strlen(s), f, err, sizeof err);
}

static void
bad(const char *s, const char *want)
{
	struct trc_factor f;
	int rc = line(s, &f);

	is_int(rc, -1, s);
	is_str(err, want, "  its message");
}

/*
 * As many ranges as trc-perturb's selector holds (TRC_MAXRANGES, 64)
 * and one more: the first a factor it takes, the second refused by
 * the parser, not by trc-perturb as "out of memory" (a fuzzer's find).
 */
static void
ranges(void)
{
	struct trc_factor f;
	struct trc_perturb *p;
	char s[1024], want[256];
	size_t n;
	int i;

	n = (size_t)snprintf(s, sizeof s, "x call=MPI_Send ranks=0");
	for (i = 1; i < TRC_MAXRANGES; i++)
		n += (size_t)snprintf(s + n, sizeof s - n, ":%d", 2 * i);
	snprintf(s + n, sizeof s - n, " delay=1");
	is_int(line(s, &f), 1, "64 ranges");
	ok((p = trc_perturb_new()) != NULL && trc_perturb_add(p, &f) == 0,
	    "  trc-perturb takes them");
	trc_perturb_free(p);
	trc_factor_free(&f);
	snprintf(s + n, sizeof s - n, ":%d delay=1", 2 * TRC_MAXRANGES);
	snprintf(want, sizeof want, "ranks '%.40s' of 65 ranges, more than 64",
	    s + strlen("x call=MPI_Send ranks="));
	bad(s, want);
}

int
main(void)
{
	struct trc_factor f;
	struct trc_factors fs;
	char buf[512], sec[32];
	size_t n;

	is_int(line("send0 call=MPI_Send ranks=0-1 region=IterEdge occ=2-5 "
	    "delay=0.001", &f), 1, "full line");
	is_str(f.name, "send0", "name");
	is_str(f.call, "send", "call MPI_Send is the tracer's send");
	is_str(f.ranks, "0-1", "ranks");
	is_str(f.region, "IterEdge", "region");
	is_int(f.occ_lo, 2, "occ low");
	is_int(f.occ_hi, 5, "occ high");
	is_int(f.delay, 1000000, "delay 0.001 s is 1000000 ns");
	trc_factor_spec(&f, buf, sizeof buf);
	is_str(buf, "call=send,ranks=0-1,region=IterEdge,occ=2-5,"
	    "delay=0.001", "rendered as a TRC_DELAY spec");
	trc_factor_free(&f);

	is_int(line("\tr\tdelay=2   call=MPI_Recv ranks=3 # a comment", &f), 1,
	    "tabs, any key order, a single rank, a trailing comment");
	is_str(f.ranks, "3", "single rank");
	ok(f.region == NULL && f.occ_lo == TRC_NONE, "no region, no occ");
	n = trc_factor_spec(&f, buf, sizeof buf);
	is_str(buf, "call=recv,ranks=3,delay=2", "a single rank");
	is_int(n, strlen(buf), "returns the length");
	n = trc_factor_spec(&f, buf, 5);
	is_str(buf, "call", "truncated as snprintf");
	is_int(n, strlen("call=recv,ranks=3,delay=2"), "full length");
	trc_factor_free(&f);

	/* The tracer's other forms: rank lists, open occurrence ranges. */
	is_int(line("x call=* ranks=0:2-3:05-5 occ=5- delay=1", &f), 1,
	    "rank list, open occ");
	trc_factor_spec(&f, buf, sizeof buf);
	is_str(buf, "call=*,ranks=0:2-3:5,occ=5-,delay=1", "  canonical");
	is_int(f.occ_hi, INT64_MAX, "  A- has no end");
	trc_factor_free(&f);
	is_int(line("x call=pe region=Iterate occ=-4 delay=1", &f), 1,
	    "region end, occ -B");
	trc_factor_spec(&f, buf, sizeof buf);
	is_str(buf, "call=pe,region=Iterate,occ=1-4,delay=1", "  canonical");
	trc_factor_free(&f);
	is_int(line("x call=mpi_ALLREDUCE occ=3-3 delay=1", &f), 1,
	    "any case");
	trc_factor_spec(&f, buf, sizeof buf);
	is_str(buf, "call=allreduce,occ=3,delay=1", "  lower case, one occ");
	trc_factor_free(&f);

	is_int(line("", &f), 0, "blank line");
	is_int(line("   # comment", &f), 0, "comment line");

	bad("x call=MPI_Send", "missing delay=");
	bad("x delay=1", "missing call=");
	bad("x call=MPI_Send delay=1 colour=red", "unknown key 'colour'");
	bad("x call=MPI_Send delay=1 call=MPI_Recv", "duplicate key 'call'");
	bad("x call=MPI_Send delay=1x", "invalid delay '1x'");
	bad("x call=MPI_Send delay=-1", "invalid delay '-1'");
	bad("x call=MPI_Send delay=0.0000000001", "invalid delay '0.0000000001'");
	bad("x call=MPI_Send delay=.", "invalid delay '.'");
	bad("x call=MPI_Send ranks=3-1 delay=1", "invalid ranks '3-1'");
	bad("x call=MPI_Send ranks=a delay=1", "invalid ranks 'a'");
	bad("x call=MPI_Send occ=0-2 delay=1", "invalid occ '0-2'");
	bad("x call=MPI_Send occ=- delay=1", "invalid occ '-'");
	bad("x call=MPI_Send ranks=1: delay=1", "invalid ranks '1:'");
	bad("x call=MPI_Send ranks=1,2 delay=1", "invalid ranks '1,2'");
	bad("x call=** delay=1", "invalid call '**'");
	bad("x call=MPI_Send region= delay=1", "invalid region ''");
	ranges();
	bad("x call=MPI-Send delay=1", "invalid call 'MPI-Send'");
	bad("x call=MPI_Send delay", "expected key=value, found 'delay'");
	bad("a=b call=MPI_Send delay=1", "invalid factor name 'a=b'");
	bad("9x call=MPI_Send delay=1", "invalid factor name '9x'");
	/* Calls no delay fires on: the nearest names by hand (edit distance,
	 * a swap counts 1). */
	bad("x call=sned delay=1", "unknown call 'sned' (did you mean send? "
	    "libtrc-mpi(7) lists the calls)");
	bad("x call=MPI_Isnd delay=1", "unknown call 'isnd' (did you mean "
	    "isend? libtrc-mpi(7) lists the calls)");
	bad("x call=gatherx delay=1", "unknown call 'gatherx' (did you mean "
	    "gather or gatherv? libtrc-mpi(7) lists the calls)");
	bad("x call=frobnicate delay=1", "unknown call 'frobnicate' "
	    "(libtrc-mpi(7) lists the calls)");
	bad("x call=MPI_Test delay=1", "call 'test' is traced but never "
	    "delayed (libtrc-mpi(7) lists the calls)");
	bad("x call=iprobe delay=1", "call 'iprobe' is traced but never "
	    "delayed (libtrc-mpi(7) lists the calls)");

	/* The TRC_DELAY form reads back what it writes. */
	ok(trc_factor_parse_spec("call=MPI_Wait,occ=7,delay=.25", 29, &f, err,
	    sizeof err) == 0, "spec parses");
	is_int(f.delay, 250000000, "delay .25");
	trc_factor_spec(&f, buf, sizeof buf);
	is_str(buf, "call=wait,occ=7,delay=0.25", "spec normalized");
	trc_factor_free(&f);
	ok(trc_factor_parse_spec("call=MPI_Wait,delay=1,", 22, &f, err,
	    sizeof err) == -1, "trailing comma");
	is_str(err, "empty key=value after ','", "  its message");
	ok(trc_factor_parse_spec("call=MPI_Wait delay=1", 21, &f, err,
	    sizeof err) == -1, "blank in a spec");
	is_str(err, "invalid call 'MPI_Wait delay=1'", "  its message");

	trc_format_seconds(sec, 1500000000);
	is_str(sec, "1.5", "1.5 s");
	trc_format_seconds(sec, 1);
	is_str(sec, "0.000000001", "1 ns");
	trc_format_seconds(sec, 3000000000);
	is_str(sec, "3", "3 s");

	/* A factor file, and a design row rendered from it. */
	{
		char path[] = "/tmp/trc-2000-XXXXXX";
		int fd = mkstemp(path);
		FILE *fp = fdopen(fd, "w");

		fputs("# factors\n"
		    "A0 call=MPI_Send ranks=0 delay=0.001\n"
		    "\n"
		    "B1 call=MPI_Recv region=Iterate delay=0.002\n"
		    "C2 call=MPI_Barrier occ=1-3 delay=0.5\n", fp);
		fclose(fp);
		ok(trc_factors_read(path, &fs, err, sizeof err) == 0,
		    "factor file read");
		is_int(fs.n, 3, "three factors");
		is_int(fs.v[2].line, 5, "line numbers kept");
		trc_delay_spec(&fs, 0, buf, sizeof buf);
		is_str(buf, "", "all low: empty spec");
		trc_delay_spec(&fs, 5, buf, sizeof buf);
		is_str(buf, "call=send,ranks=0,delay=0.001;"
		    "call=barrier,occ=1-3,delay=0.5", "A and C high");
		n = trc_delay_spec(&fs, 7, NULL, 0);
		is_int(n, strlen("call=send,ranks=0,delay=0.001;"
		    "call=recv,region=Iterate,delay=0.002;"
		    "call=barrier,occ=1-3,delay=0.5"), "length needed");
		trc_factors_free(&fs);

		fp = fopen(path, "w");
		fputs("a call=MPI_Send delay=1\nb call=MPI_Send delay=1\n"
		    "a call=MPI_Recv delay=1\n", fp);
		fclose(fp);
		ok(trc_factors_read(path, &fs, err, sizeof err) == -1,
		    "duplicate factor");
		snprintf(buf, sizeof buf, "%s:3: duplicate factor 'a'", path);
		is_str(err, buf, "  its message names file and line");

		fp = fopen(path, "w");
		fputs("# nothing\n", fp);
		fclose(fp);
		ok(trc_factors_read(path, &fs, err, sizeof err) == -1,
		    "empty factor file");
		snprintf(buf, sizeof buf, "%s: no factors", path);
		is_str(err, buf, "  its message");

		fp = fopen(path, "w");
		fputs("a call=MPI_Send delay=1\nb call=MPI_Send delay=1 x=2\n",
		    fp);
		fclose(fp);
		ok(trc_factors_read(path, &fs, err, sizeof err) == -1,
		    "bad line");
		snprintf(buf, sizeof buf, "%s:2: unknown key 'x'", path);
		is_str(err, buf, "  its message");
		remove(path);
	}
	return done_testing();
}
