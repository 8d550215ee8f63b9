/*
 * trc-graph - the execution graph of a stream as Graphviz DOT.
 *
 * Streaming: each event is written as it is read, inside its rank's
 * cluster (Graphviz merges the repeated subgraph statements), with the
 * edge from the rank's previous event and, when it completes a message,
 * the edge from the send.  Every message is matched, drawn or not, so
 * a window does not change which send a receive pairs with.  Memory is
 * one counter per rank and the messages in flight.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prog.h"
#include "trc.h"
#include "trc_window.h"

static const char usage_line[] =
    "trc-graph [-e events] [-f format] [-r ranks] [--flops rate] "
    "[--time times] [file]";

/* Long options without a letter. */
enum { OPT_FLOPS = 256, OPT_TIME };

static void
usage(int status)
{
	printf("usage: %s\n", usage_line);
	exit(status);
}

/* A label is shown in double quotes: keep it free of quotes. */
static void
put_str(const struct trc_str *s)
{
	size_t i;

	for (i = 0; i < s->len; i++)
		putchar(s->s[i] == '"' || s->s[i] == '\\' ? '_' : s->s[i]);
}

static void
put_field(const char *name, int32_t v)
{
	if (v == TRC_ANY)
		printf(" %s=*", name);
	else if (v != TRC_NONE)
		printf(" %s=%ld", name, (long)v);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "events", required_argument, NULL, 'e' },
		{ "flops", required_argument, NULL, OPT_FLOPS },
		{ "format", required_argument, NULL, 'f' },
		{ "rank", required_argument, NULL, 'r' },
		{ "time", required_argument, NULL, OPT_TIME },
		{ NULL, 0, NULL, 0 }
	};
	struct trc_open_opts opts = { 0 };
	struct trc_ranks ranks = { 0 };
	struct trc_reader *rd;
	struct trc_match *m;
	struct trc_event ev;
	struct trc_msg msg, peer;
	int64_t elo = 1, ehi = INT64_MAX, tlo = 0, thi = INT64_MAX;
	/* Per rank: events so far and the last drawn, in pages as ranks
	 * come (memory by the ranks present). */
	struct trc_pages pos = { NULL, 0, 2 * sizeof(int64_t) };
	int64_t *cl;
	size_t msgmax;
	char tb[32];
	int c, rc;

	trc_std_options(argc, argv, usage);
	while ((c = getopt_long(argc, argv, "e:f:r:", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (trc_parse_range(optarg, trc_parse_int, &elo, &ehi) < 0 || elo < 1)
				die("invalid event range '%s'", optarg);
			break;
		case 'f':
			trc_opt_format(&opts, optarg);
			break;
		case OPT_FLOPS:
			trc_opt_flops(&opts, optarg);
			break;
		case 'r':
			if (trc_ranks_parse(optarg, &ranks) < 0)
				die("invalid rank list '%s'", optarg);
			break;
		case OPT_TIME:
			if (trc_parse_range(optarg, trc_parse_time, &tlo, &thi) < 0)
				die("invalid time range '%s'", optarg);
			break;
		default:
			usage_error(usage_line);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage_error(usage_line);
	if (trc_msg_max(&msgmax) < 0)
		die("invalid TRC_MSG_MAX '%s'", getenv("TRC_MSG_MAX"));
	if ((rd = trc_open_with(argc == 1 ? argv[0] : "-", &opts)) == NULL ||
	    (m = trc_match_new()) == NULL)
		die("out of memory");
	if (trc_get_header(rd) == NULL)
		die("%s", trc_error(rd));
	memset(&msg, 0, sizeof(msg));
	printf("digraph trc {\n\tnewrank=true;\n\tnode [shape=box, fontsize=10];\n");
	while ((rc = trc_next(rd, &ev)) > 0) {
		int64_t idx;
		int drawn;

		if ((cl = trc_pages_get(&pos, (size_t)ev.rank)) == NULL)
			die("out of memory");
		/* Events are numbered from 1 on each rank, as trc-stable -w does. */
		idx = ++cl[0];
		drawn = idx >= elo && idx <= ehi && ev.t >= tlo && ev.t <= thi &&
		    (ranks.n == 0 || trc_ranks_has(&ranks, ev.rank));
		if (drawn) {
			tb[trc_format_time(tb, ev.t)] = '\0';
			printf("\tsubgraph cluster_%ld { label=\"rank %ld\"; "
			    "\"%ld.%lld\" [label=\"%s", (long)ev.rank,
			    (long)ev.rank, (long)ev.rank, (long long)idx,
			    trc_kind_name(ev.kind));
			put_field("peer", ev.peer);
			put_field("tag", ev.tag);
			if (ev.fn.len > 0) {
				printf(" fn=");
				put_str(&ev.fn);
			}
			if (ev.op.len > 0) {
				printf(" op=");
				put_str(&ev.op);
			}
			printf("\\n%s\"]; }\n", tb);
			if (cl[1] == idx - 1 && idx > 1)
				printf("\t\"%ld.%lld\" -> \"%ld.%lld\";\n",
				    (long)ev.rank, (long long)idx - 1,
				    (long)ev.rank, (long long)idx);
			cl[1] = idx;
		}
		if ((ev.kind != TRC_SE && ev.kind != TRC_RE) || ev.peer < 0)
			continue;
		msg.src = ev.kind == TRC_SE ? ev.rank : ev.peer;
		msg.dst = ev.kind == TRC_SE ? ev.peer : ev.rank;
		msg.tag = ev.tag;
		msg.comm = ev.comm;
		msg.bytes = ev.bytes;
		msg.val = (int64_t)ev.rank;
		msg.aux = drawn ? idx : 0;
		msg.line = ev.line;
		rc = ev.kind == TRC_SE ? trc_match_send(m, &msg, &peer) :
		    trc_match_recv(m, &msg, &peer);
		if (rc < 0)
			die("out of memory");
		if (rc == 0 && trc_match_pending(m) > msgmax) {
			char err[256];
			long line = trc_match_too_many(m, err, sizeof(err));

			die("%s:%ld: %s", trc_name(rd), line, err);
		}
		if (rc == 1 && drawn && peer.aux > 0) {
			if (ev.kind == TRC_RE)
				printf("\t\"%lld.%lld\" -> \"%ld.%lld\" "
				    "[color=blue];\n", (long long)peer.val,
				    (long long)peer.aux, (long)ev.rank,
				    (long long)idx);
			else
				printf("\t\"%ld.%lld\" -> \"%lld.%lld\" "
				    "[color=blue];\n", (long)ev.rank,
				    (long long)idx, (long long)peer.val,
				    (long long)peer.aux);
		}
	}
	if (rc < 0)
		die("%s", trc_error(rd));
	printf("}\n");
	trc_match_free(m);
	trc_close(rd);
	trc_pages_free(&pos);
	fshut_stdout();
	return 0;
}
