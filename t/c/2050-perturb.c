/*
 * Unit tests of trc_perturb: the delays of TRC_DELAY specs found in a
 * stream where libtrc-mpi would insert them (libtrc-mpi(7): after a
 * call's begin event, before the end of a region), counted per rank
 * and spec for occ=.  Delays are whole nanoseconds so that each event's
 * "before/after" pair reads as the sum of the specs that hit it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "trc.h"

/*
 * Feed the events (one per line) and return "b/a b/a ..." with each
 * event's delays before and after it.
 */
static const char *
run(const char *specs, const char *events, struct trc_perturb **keep)
{
	static char out[4096];
	struct trc_perturb *p;
	struct trc_event ev;
	char err[TRC_ERRLEN], line[256];
	const char *s = events, *nl;
	int64_t b, a;
	size_t at = 0;

	out[0] = '\0';
	if ((p = trc_perturb_new()) == NULL ||
	    trc_perturb_parse(p, specs, err, sizeof err) < 0) {
		snprintf(out, sizeof out, "parse: %s", err);
		trc_perturb_free(p);
		return out;
	}
	while (*s != '\0') {
		nl = strchr(s, '\n');
		if (nl == NULL)
			nl = s + strlen(s);
		snprintf(line, sizeof line, "%.*s", (int)(nl - s), s);
		if (trc_parse_line(line, strlen(line), &ev, err) < 0) {
			snprintf(out, sizeof out, "event: %s", err);
			break;
		}
		if (trc_perturb_event(p, &ev, &b, &a) < 0) {
			snprintf(out, sizeof out, "out of memory");
			break;
		}
		at += snprintf(out + at, sizeof out - at, "%s%lld/%lld",
		    at ? " " : "", (long long)b, (long long)a);
		s = *nl ? nl + 1 : nl;
	}
	if (keep != NULL)
		*keep = p;
	else
		trc_perturb_free(p);
	return out;
}

int
main(void)
{
	struct trc_perturb *p;

	/* Blocking sends 2 and 3 of rank 1: after their SB. */
	is_str(run("call=send,ranks=1,occ=2-3,delay=0.000000005",
	    "0 1 SB peer=0 tag=1\n1 1 SE peer=0 tag=1\n"
	    "2 1 SB peer=0 tag=1\n3 1 SE peer=0 tag=1\n"
	    "4 0 SB peer=1 tag=1\n5 0 SE peer=1 tag=1\n"
	    "6 1 SB peer=0 tag=1\n7 1 SE peer=0 tag=1\n"
	    "8 1 SB peer=0 tag=1\n9 1 SE peer=0 tag=1", NULL),
	    "0/0 0/0 0/5 0/0 0/0 0/0 0/5 0/0 0/0 0/0",
	    "send occ=2-3 on rank 1: after its second and third SB");

	/*
	 * An Isend's delay is known at its SE and goes before it; an
	 * MPI_Sendrecv (SB, SE, RB req= at one time, then WB
	 * op=sendrecv) is neither an isend nor an irecv; an Irecv's delay
	 * goes before the rank's next event, here a PB.
	 */
	is_str(run("call=isend,delay=0.000000001;call=irecv,delay=0.000000002;"
	    "call=sendrecv,delay=0.000000004",
	    "1 0 SB peer=1 tag=1 req=1\n2 0 SE peer=1 tag=1 req=1\n"
	    "3 0 SB peer=1 tag=2 req=2\n3 0 SE peer=1 tag=2 req=2\n"
	    "3 0 RB peer=1 tag=2 req=3\n3 0 WB req=2,3 op=sendrecv\n"
	    "4 0 RE peer=1 tag=2 req=3\n4 0 WE req=2,3 op=sendrecv\n"
	    "5 0 RB peer=* tag=3 req=4\n6 0 PB fn=X", NULL),
	    "0/0 1/0 0/0 0/0 0/0 0/4 0/0 0/0 0/0 2/0",
	    "isend before its SE, sendrecv after its WB, irecv before the next event");

	/* A send-only sendrecv (source MPI_PROC_NULL) and a receive-only. */
	is_str(run("call=isend,delay=0.000000001;call=irecv,delay=0.000000002;"
	    "call=sendrecv_replace,delay=0.000000008",
	    "1 2 SB peer=1 tag=2 req=1\n1 2 SE peer=1 tag=2 req=1\n"
	    "1 2 WB req=1 op=sendrecv\n2 2 WE req=1 op=sendrecv\n"
	    "3 2 RB peer=1 tag=2 req=2\n3 2 WB req=2 op=sendrecv\n"
	    "4 2 RE peer=1 tag=2 req=2\n4 2 WE req=2 op=sendrecv", NULL),
	    "0/0 0/0 0/8 0/0 0/0 0/8 0/0 0/0",
	    "half sendrecvs; sendrecv_replace matches op=sendrecv");

	/*
	 * Regions: recv inside Iter, Iter's end, and the second region
	 * begin of any name.  The delay of pe falls before PE, inside.
	 */
	is_str(run("call=recv,region=Iter,delay=0.000000001;"
	    "call=pe,region=Iter,delay=0.000000002;"
	    "call=pb,occ=2,delay=0.000000008",
	    "0 3 PB fn=Iter\n1 3 RB peer=0 tag=1\n2 3 RE peer=0 tag=1\n"
	    "3 3 PE fn=Iter\n4 3 RB peer=0 tag=1\n5 3 RE peer=0 tag=1\n"
	    "6 3 PB fn=Other\n7 3 PB fn=Iter\n8 3 RB peer=0 tag=1\n"
	    "9 3 PE fn=Iter\n10 3 PE fn=Other\n11 3 RB peer=0 tag=1", NULL),
	    "0/0 0/1 0/0 2/0 0/0 0/0 0/8 0/0 0/1 2/0 0/0 0/0",
	    "regions: recv inside Iter, pe of Iter, second pb");

	/* Rank lists, collectives by op=, tests and iprobes never (a
	 * factor cannot name them, nor does a wait's match them). */
	is_str(run("call=barrier,ranks=0:2-3,delay=0.000000001;"
	    "call=wait,delay=0.000000002;call=probe,delay=0.000000004",
	    "0 0 XB op=barrier bytes=0\n0 1 XB op=barrier bytes=0\n"
	    "0 2 XB op=barrier bytes=0\n0 3 XB op=barrier bytes=0\n"
	    "0 4 XB op=barrier bytes=0\n1 4 WB req=1 op=test\n"
	    "1 4 WE req=1 op=test\n2 4 WB peer=* tag=1 op=iprobe\n"
	    "2 4 WE peer=0 tag=1 bytes=8 op=iprobe", NULL),
	    "0/1 0/0 0/1 0/1 0/0 0/0 0/0 0/0 0/0",
	    "ranks 0:2-3; tests and iprobe are not delayed");

	/*
	 * call=* counts every call of the rank, region begins and ends
	 * included (occ=3: the XB, the third), and a wait.
	 */
	is_str(run("call=*,occ=3-4,delay=0.000000001",
	    "0 0 PB fn=A\n1 0 SB peer=1 tag=1\n2 0 SE peer=1 tag=1\n"
	    "3 0 XB op=allreduce bytes=8\n4 0 XE op=allreduce bytes=8\n"
	    "5 0 PE fn=A\n6 0 WB req=1 op=wait\n7 0 WE req=1 op=wait", NULL),
	    "0/0 0/0 0/0 0/1 0/0 1/0 0/0 0/0",
	    "call=* counts pb, send, allreduce, pe, wait");

	/* Send modes by op=: ssend is not send. */
	is_str(run("call=send,delay=0.000000001;call=ssend,delay=0.000000002;"
	    "call=issend,delay=0.000000004;call=waitall,delay=0.000000008",
	    "0 0 SB peer=1 tag=1 op=ssend\n1 0 SE peer=1 tag=1 op=ssend\n"
	    "2 0 SB peer=1 tag=1\n3 0 SE peer=1 tag=1\n"
	    "4 0 SB peer=1 tag=1 req=1 op=issend\n"
	    "5 0 SE peer=1 tag=1 req=1 op=issend\n"
	    "6 0 WB req=1 op=waitall\n7 0 WE req=1 op=waitall", NULL),
	    "0/2 0/0 0/1 0/0 0/0 4/0 0/8 0/0",
	    "send modes by op=; waitall");

	/* Two specs on one call add up; count and total. */
	is_str(run("call=send,delay=0.000000001;call=send,ranks=0,delay=0.000000002",
	    "0 0 SB peer=1 tag=1\n1 0 SE peer=1 tag=1\n"
	    "2 1 SB peer=0 tag=1\n3 1 SE peer=0 tag=1", &p),
	    "0/3 0/0 0/1 0/0", "specs matching one call add up");
	is_int((long long)trc_perturb_count(p), 3, "three delays");
	is_int(trc_perturb_total(p), 4, "4 ns in all");
	trc_perturb_free(p);

	/* No specs: nothing, even for ranks never seen. */
	is_str(run("", "0 7 SB peer=1 tag=1\n1 7 SE peer=1 tag=1", NULL),
	    "0/0 0/0", "no specs");

	/* Bad specs. */
	is_str(run("call=send", "", NULL), "parse: missing delay=",
	    "a spec without delay");
	is_str(run("call=send,delay=1;call=recv,delay=1x", "", NULL),
	    "parse: spec 2: invalid delay '1x'", "the second spec is bad");
	is_str(run("call=send,delay=1;call=test,delay=1", "", NULL),
	    "parse: spec 2: call 'test' is traced but never delayed "
	    "(libtrc-mpi(7) lists the calls)", "a poll is refused");
	is_str(run("call=sned,delay=1", "", NULL),
	    "parse: unknown call 'sned' (did you mean send? libtrc-mpi(7) "
	    "lists the calls)", "a typo is refused");
	return done_testing();
}
