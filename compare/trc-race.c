/*
 * trc-race - the message races of one trace: every choice point where
 * a message other than the one taken could have been taken.
 *
 * The analysis (vector clocks, lib/race.c) sees each event once, in
 * stream order; a race is printed when nothing read later can add to
 * it.  Memory is bounded by the ranks, the messages in flight and the
 * choices not yet heard of by every rank (trc-race(1)).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "trc_race.h"

static const char usage_line[] =
    "trc-race [-q] [-f format] [--flops rate] [file]";

/* Long options without a letter. */
enum { OPT_FLOPS = 256 };

static void
usage(int status)
{
	printf("usage: %s\n", usage_line);
	exit(status);
}

struct out {
	const char	*name;
	int		 quiet;
};

static void
put_val(const char *key, int32_t v)
{
	if (v == TRC_ANY)
		printf(" %s=*", key);
	else if (v != TRC_NONE)
		printf(" %s=%ld", key, (long)v);
}

static void
put_msg(const struct out *o, const struct trc_race_msg *m)
{
	if (m->send_req) {
		printf("%s:%ld (send req=%lld)", o->name, m->line,
		    (long long)m->req);
		return;
	}
	if (m->line > 0)
		printf("%s:%ld from %ld", o->name, m->line, (long)m->src);
	else
		printf("from %ld", (long)m->src);
	if (m->req != TRC_NONE)
		printf(" (req=%lld)", (long long)m->req);
}

/*
 * FILE:LINE: rank R CALL ASK: took SEND; could take SEND, SEND
 */
static int
report(void *arg, const struct trc_race_point *pt)
{
	const struct out *o = arg;
	size_t k;

	if (o->quiet)
		return 1;	/* the answer is known: stop */
	printf("%s:%ld: rank %ld %s", o->name, pt->line, (long)pt->rank,
	    pt->call);
	if (pt->reqs != NULL)
		printf(" req=%s", pt->reqs);
	else {
		put_val("peer", pt->peer);
		put_val("tag", pt->tag);
		if (pt->comm != 0)
			put_val("comm", pt->comm);
	}
	printf(": took ");
	for (k = 0; k < pt->ntook; k++) {
		if (k > 0)
			printf(", ");
		put_msg(o, &pt->took[k]);
	}
	if (pt->ntook == 0)
		printf("nothing");
	printf("; could take ");
	for (k = 0; k < pt->ncould; k++) {
		if (k > 0)
			printf(", ");
		put_msg(o, &pt->could[k]);
	}
	printf("\n");
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "flops", required_argument, NULL, OPT_FLOPS },
		{ "format", required_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 }
	};
	struct trc_open_opts opts = { 0 };
	const struct trc_header *h;
	struct trc_race_stats st;
	struct trc_reader *rd;
	struct trc_race *rs;
	struct trc_event ev;
	struct out o = { NULL, 0 };
	int c, rc;

	trc_setprogname(argv[0]);
	trc_std_options(argc, argv, usage);
	while ((c = getopt_long(argc, argv, "f:q", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			trc_opt_format(&opts, optarg);
			break;
		case OPT_FLOPS:
			trc_opt_flops(&opts, optarg);
			break;
		case 'q':
			o.quiet = 1;
			break;
		default:
			usage_error(usage_line);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage_error(usage_line);
	if ((rd = trc_open_with(argc == 1 ? argv[0] : "-", &opts)) == NULL)
		die("out of memory");
	if ((h = trc_get_header(rd)) == NULL)
		die("%s", trc_error(rd));
	o.name = trc_name(rd);
	if ((rs = trc_race_new(o.name, h->ranks, report, &o)) == NULL)
		die("out of memory");
	while ((rc = trc_next(rd, &ev)) > 0)
		if ((rc = trc_race_event(rs, &ev)) != 0)
			break;
	if (rc < 0)
		die("%s", rc == -1 && trc_race_error(rs)[0] != '\0' ?
		    trc_race_error(rs) : trc_error(rd));
	if (rc == 0 && trc_race_end(rs) < 0)
		die("%s", trc_race_error(rs));
	trc_race_stats(rs, &st);
	if (!o.quiet)
		printf("%llu of %llu choice points race\n",
		    (unsigned long long)st.races,
		    (unsigned long long)st.choices);
	trc_race_free(rs);
	trc_close(rd);
	fshut_stdout();
	return st.races > 0 ? 1 : 0;
}
