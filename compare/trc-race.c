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

#include "prog.h"
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
	size_t		 namelen;
	int		 quiet;
	char		*buf;		/* the line being made */
	size_t		 len, cap;
};

/* Lines are made by hand: a race can name a send of every rank. */
static void
reserve(struct out *o, size_t n)
{
	if (o->len + n > o->cap) {
		while (o->len + n > o->cap)
			o->cap = o->cap ? 2 * o->cap : 4096;
		o->buf = ereallocarray(o->buf, o->cap, 1);
	}
}

static void
put(struct out *o, const char *s, size_t n)
{
	reserve(o, n);
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static void
put_str(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

static void
put_int(struct out *o, int64_t v)
{
	reserve(o, 24);
	o->len += trc_format_int(o->buf + o->len, v);
}

static void
put_val(struct out *o, const char *key, int32_t v)
{
	if (v == TRC_NONE)
		return;
	put_str(o, key);
	if (v == TRC_ANY)
		put_str(o, "*");
	else
		put_int(o, v);
}

static void
put_line(struct out *o, long line)
{
	reserve(o, o->namelen + 24);
	memcpy(o->buf + o->len, o->name, o->namelen);
	o->len += o->namelen;
	o->buf[o->len++] = ':';
	o->len += trc_format_int(o->buf + o->len, line);
}

static void
put_msg(struct out *o, const struct trc_race_msg *m)
{
	if (m->send_req) {
		put_line(o, m->line);
		put_str(o, " (send req=");
		put_int(o, m->req);
		put_str(o, ")");
		return;
	}
	if (m->line > 0) {
		put_line(o, m->line);
		put(o, " from ", 6);
	} else
		put(o, "from ", 5);
	put_int(o, m->src);
	if (m->req != TRC_NONE) {
		put_str(o, " (req=");
		put_int(o, m->req);
		put_str(o, ")");
	}
}

/*
 * FILE:LINE: rank R CALL ASK: took SEND; could take SEND, SEND
 */
static int
report(void *arg, const struct trc_race_point *pt)
{
	struct out *o = arg;
	size_t k;

	if (o->quiet)
		return 1;	/* the answer is known: stop */
	o->len = 0;
	put_line(o, pt->line);
	put_str(o, ": rank ");
	put_int(o, pt->rank);
	put_str(o, " ");
	put_str(o, pt->call);
	if (pt->reqs != NULL) {
		put_str(o, " req=");
		put_str(o, pt->reqs);
	} else {
		put_val(o, " peer=", pt->peer);
		put_val(o, " tag=", pt->tag);
		if (pt->comm != 0)
			put_val(o, " comm=", pt->comm);
	}
	put_str(o, ": took ");
	for (k = 0; k < pt->ntook; k++) {
		if (k > 0)
			put_str(o, ", ");
		put_msg(o, &pt->took[k]);
	}
	if (pt->ntook == 0)
		put_str(o, "nothing");
	put_str(o, "; could take ");
	for (k = 0; k < pt->ncould; k++) {
		if (k > 0)
			put(o, ", ", 2);
		put_msg(o, &pt->could[k]);
	}
	put_str(o, "\n");
	fwrite(o->buf, 1, o->len, stdout);
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
	size_t msgmax;
	struct trc_race *rs;
	struct trc_event ev;
	struct out o = { NULL, 0, 0, NULL, 0, 0 };
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
	if (trc_msg_max(&msgmax) < 0)
		die("invalid TRC_MSG_MAX '%s'", getenv("TRC_MSG_MAX"));
	if (trc_env_size("TRC_RACE_MAX", TRC_RACE_MAXRANKS, &msgmax) < 0 ||
	    msgmax > INT32_MAX)
		die("invalid TRC_RACE_MAX '%s'", getenv("TRC_RACE_MAX"));
	if ((rd = trc_open_with(argc == 1 ? argv[0] : "-", &opts)) == NULL)
		die("out of memory");
	if ((h = trc_get_header(rd)) == NULL)
		die("%s", trc_error(rd));
	o.name = trc_name(rd);
	o.namelen = strlen(o.name);
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
	free(o.buf);
	trc_close(rd);
	fshut_stdout();
	return st.races > 0 ? 1 : 0;
}
