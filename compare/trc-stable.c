/*
 * trc-stable - are two runs' execution graphs the same?
 *
 * Each trace after the first is compared with the first.  The exact
 * test (same token string and same message matching on every rank) is
 * linear; when it fails, each rank's distance is approximated with the
 * LCS of its two token strings, as Mendes' section 3.2.4 proposes.
 * Memory is 4 bytes per event and 24 per receive, never whole events.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prog.h"
#include "trc.h"
#include "trc_choice.h"

static const char usage_line[] =
    "trc-stable [-qw] [-f format] [--choice] [--equal key] [--flops rate] "
    "[--split split] [--threshold threshold] file1 file2 ...";

/* Long options without a letter. */
enum { OPT_CHOICE = 256, OPT_EQUAL, OPT_FLOPS, OPT_SPLIT, OPT_THRESHOLD };

#define NHUNKS	3	/* differences shown per rank by -w */
#define CONTEXT	2	/* events of context around each */

static void
usage(int status)
{
	printf("usage: %s\n", usage_line);
	exit(status);
}

struct opts {
	unsigned	 key;
	int		 quiet, where, regions, choice;
	const char	*split;		/* NULL: MK markers */
	uint64_t	 thr_events;
	double		 thr_frac;	/* < 0 when given as a count */
};

/* How every input is read: one -f for all of them. */
static struct trc_open_opts ropts;

static void
load(const char *path, struct trc_graph *g, struct trc_dict *dict,
    const struct opts *o)
{
	struct trc_open_opts fields = ropts;
	struct trc_reader *rd;

	/* The graph is of kinds, labels and message fields: no other
	 * attribute's text is made (fill() prints them, reading anew). */
	fields.fields_only = 1;
	if ((rd = trc_open_with(path, &fields)) == NULL)
		die("out of memory");
	memset(g, 0, sizeof(*g));
	if (trc_graph_read(g, rd, dict, o->regions ? o->split : NULL) < 0)
		die("%s", trc_error(rd));
	trc_close(rd);
}

/* A window of events of one rank to print, filled by a second pass. */
struct win {
	int32_t		 rank;
	size_t		 lo, hi;
	char		**line;
};

static int
win_cmp(const void *x, const void *y)
{
	const struct win *a = x, *b = y;

	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

static char *
format_event(const char *name, const struct trc_event *ev)
{
	char buf[TRC_MAXLINE + 4096], tb[32];
	size_t n;
	int i;

	tb[trc_format_time(tb, ev->t)] = '\0';
	n = (size_t)snprintf(buf, sizeof(buf), "%s:%ld: %s %ld %s", name,
	    ev->line, tb, (long)ev->rank, trc_kind_name(ev->kind));
	for (i = 0; i < ev->nattr && n < sizeof(buf) - 1; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, " %.*s=%.*s",
		    (int)ev->attr[i].key.len, ev->attr[i].key.s,
		    (int)ev->attr[i].val.len, ev->attr[i].val.s);
	return estrdup(buf);
}

/* Per rank with windows: events passed, and 1 + its first window not
 * yet passed (0: a rank without windows). */
struct wpos {
	size_t		 cnt, next;
};

/*
 * Reads path again and keeps the text of the events in the windows.
 * The ranks with windows get a place in pages, so that a rank of a
 * large number costs a page, not an array to it.
 */
static void
fill(const char *path, struct win *w, size_t nw)
{
	struct trc_pages pos = { NULL, 0, sizeof(struct wpos) };
	struct trc_reader *rd;
	struct trc_event ev;
	struct wpos *p;
	size_t i;
	int rc;

	qsort(w, nw, sizeof(*w), win_cmp);
	for (i = 0; i < nw; i++)
		w[i].line = ecalloc(w[i].hi - w[i].lo + 1, sizeof(char *));
	for (i = nw; i-- > 0;) {
		if ((p = trc_pages_get(&pos, (size_t)w[i].rank)) == NULL)
			die("out of memory");
		p->next = i + 1;
	}
	if ((rd = trc_open_with(path, &ropts)) == NULL)
		die("out of memory");
	while ((rc = trc_next(rd, &ev)) > 0) {
		size_t k, c;

		if ((p = trc_pages_at(&pos, (size_t)ev.rank)) == NULL ||
		    p->next == 0)
			continue;
		c = p->cnt++;
		for (k = p->next - 1; k < nw && w[k].rank == ev.rank &&
		    w[k].lo <= c; k++)
			if (c < w[k].hi && w[k].line[c - w[k].lo] == NULL)
				w[k].line[c - w[k].lo] = format_event(path, &ev);
	}
	if (rc < 0)
		die("%s", trc_error(rd));
	trc_close(rd);
	trc_pages_free(&pos);
}

static const char *
win_line(const struct win *w, size_t nw, int32_t rank, size_t idx)
{
	size_t i;

	for (i = 0; i < nw; i++)
		if (w[i].rank == rank && w[i].lo <= idx && idx < w[i].hi &&
		    w[i].line[idx - w[i].lo] != NULL)
			return w[i].line[idx - w[i].lo];
	return "(missing)";
}

struct diffrank {
	int32_t		 rank;
	size_t		 at;		/* its place in the comparison */
	struct trc_lcs_hunk h[NHUNKS];
	long		 nh;
	long		 recv;		/* same events: the receive matched
					 * otherwise, else -1 */
};

/* The send a receive was matched to, under its line in -w's hunks. */
static void
send_of(char side, const char *path, const struct trc_rank *x, size_t j)
{
	if (x->edge[j].src == UINT32_MAX || x->edge[j].line == 0)
		printf("%c     matched to no send\n", side);
	else
		printf("%c     matched to rank %lu's send %lu to it, %s:%llu\n",
		    side, (unsigned long)x->edge[j].src,
		    (unsigned long)x->edge[j].ord + 1, path,
		    (unsigned long long)x->edge[j].line);
}

/* The first differences of every rank that differs, diff-like. */
static void
where(const char *pa, const char *pb, const struct trc_graph *a,
    const struct trc_graph *b, const struct trc_rank_cmp *cmp,
    const int32_t *rank, int32_t nranks)
{
	struct diffrank *dr;
	struct win *wa, *wb;
	size_t nd = 0, ndcap = 0, nwa = 0, nwb = 0, i, j, x;
	long k;

	if (strcmp(pa, "-") == 0 || strcmp(pb, "-") == 0)
		die("-w reads its inputs twice: give files, not stdin");
	/* Grown by the ranks that differ, not sized by those compared. */
	dr = NULL;
	for (i = 0; i < (size_t)nranks; i++) {
		const struct trc_rank *x1 = trc_graph_rank(a, rank[i]);
		const struct trc_rank *y1 = trc_graph_rank(b, rank[i]);

		if (cmp[i].same_string && cmp[i].same_edges)
			continue;
		if (nd == ndcap) {
			ndcap = ndcap ? 2 * ndcap : 64;
			dr = ereallocarray(dr, ndcap, sizeof(*dr));
		}
		memset(&dr[nd], 0, sizeof(dr[nd]));
		dr[nd].rank = rank[i];
		dr[nd].at = i;
		dr[nd].recv = -1;
		if (cmp[i].same_string) {
			/* Same events, other senders: show the first such receive. */
			size_t rcv = 0;

			for (j = 0; j < x1->nrecv; j++)
				if (trc_recv_differs(x1, y1, j))
					break;
			for (x = 0; x < x1->n; x++)
				if (TRC_TOK_KIND(x1->tok[x]) == TRC_RE && rcv++ == j)
					break;
			dr[nd].h[0].a = dr[nd].h[0].b = x;
			dr[nd].h[0].alen = dr[nd].h[0].blen = 1;
			dr[nd].nh = 1;
			dr[nd].recv = (long)j;
		} else if ((dr[nd].nh = trc_lcs_hunks(x1->tok, x1->n, y1->tok,
		    y1->n, 0, dr[nd].h, NHUNKS)) < 0)
			die("out of memory");
		nd++;
	}
	wa = ecalloc(nd * NHUNKS + 1, sizeof(*wa));
	wb = ecalloc(nd * NHUNKS + 1, sizeof(*wb));
	for (i = 0; i < nd; i++)
		for (k = 0; k < dr[i].nh; k++) {
			const struct trc_lcs_hunk *h = &dr[i].h[k];

			wa[nwa].rank = wb[nwb].rank = dr[i].rank;
			wa[nwa].lo = h->a > CONTEXT ? h->a - CONTEXT : 0;
			wa[nwa++].hi = h->a + h->alen + CONTEXT;
			wb[nwb].lo = h->b;
			wb[nwb++].hi = h->b + h->blen;
		}
	fill(pa, wa, nwa);
	fill(pb, wb, nwb);
	for (i = 0; i < nd; i++) {
		int32_t r = dr[i].rank;
		size_t na = cmp[dr[i].at].na;

		printf("rank %ld:\n", (long)r);
		for (k = 0; k < dr[i].nh; k++) {
			const struct trc_lcs_hunk *h = &dr[i].h[k];
			size_t lo = h->a > CONTEXT ? h->a - CONTEXT : 0;
			size_t hi = h->a + h->alen + CONTEXT;

			if (hi > na)
				hi = na;
			printf("@@ -%zu,%zu +%zu,%zu @@\n", h->a + 1, h->alen,
			    h->b + 1, h->blen);
			for (x = lo; x < h->a; x++)
				printf("  %s\n", win_line(wa, nwa, r, x));
			for (x = h->a; x < h->a + h->alen; x++)
				printf("- %s\n", win_line(wa, nwa, r, x));
			if (dr[i].recv >= 0)
				send_of('-', pa, trc_graph_rank(a, r),
				    (size_t)dr[i].recv);
			for (x = h->b; x < h->b + h->blen; x++)
				printf("+ %s\n", win_line(wb, nwb, r, x));
			if (dr[i].recv >= 0)
				send_of('+', pb, trc_graph_rank(b, r),
				    (size_t)dr[i].recv);
			for (x = h->a + h->alen; x < hi; x++)
				printf("  %s\n", win_line(wa, nwa, r, x));
		}
	}
	for (i = 0; i < nwa; i++) {
		for (x = 0; x < wa[i].hi - wa[i].lo; x++)
			free(wa[i].line[x]);
		free(wa[i].line);
	}
	for (i = 0; i < nwb; i++) {
		for (x = 0; x < wb[i].hi - wb[i].lo; x++)
			free(wb[i].line[x]);
		free(wb[i].line);
	}
	free(wa);
	free(wb);
	free(dr);
}

/* The first choice point where b differs from a, read afresh. */
static void
choice(const char *pa, const char *pb)
{
	struct trc_reader *a, *b;
	struct trc_choice_diff d;
	char err[TRC_ERRLEN + 256], *buf;
	size_t len;
	int rc;

	if (strcmp(pa, "-") == 0 || strcmp(pb, "-") == 0)
		die("--choice reads its inputs twice: give files, not stdin");
	if ((a = trc_open_with(pa, &ropts)) == NULL ||
	    (b = trc_open_with(pb, &ropts)) == NULL)
		die("out of memory");
	if ((rc = trc_choice_diff(a, b, &d, err, sizeof err)) < 0)
		die("%s", err);
	if (rc == 0)
		printf("first differing choice point: none\n");
	else {
		len = trc_choice_diff_format(&d, pa, pb, NULL, 0) + 1;
		buf = emalloc(len);
		trc_choice_diff_format(&d, pa, pb, buf, len);
		printf("first differing choice point: %s\n", buf);
		free(buf);
		trc_choice_diff_free(&d);
	}
	trc_close(a);
	trc_close(b);
}

/* Region mode: the differing regions, kept to print after the table. */
struct regs {
	int32_t		*rank;
	size_t		*region;
	size_t		 n, cap;
};

static void
region_cb(void *arg, int32_t r, size_t region, size_t a0, size_t an,
    size_t b0, size_t bn, uint64_t lcs)
{
	struct regs *rs = arg;

	(void)a0; (void)an; (void)b0; (void)bn; (void)lcs;
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 64;
		rs->rank = ereallocarray(rs->rank, rs->cap, sizeof(*rs->rank));
		rs->region = ereallocarray(rs->region, rs->cap,
		    sizeof(*rs->region));
	}
	rs->rank[rs->n] = r;
	rs->region[rs->n++] = region;
}

/* "rank 3 differing regions: 2,5-7", regions counted from 0. */
static void
regs_print(const struct regs *rs)
{
	size_t i, j;

	for (i = 0; i < rs->n; i = j) {
		if (i == 0 || rs->rank[i] != rs->rank[i - 1])
			printf("%srank %ld differing regions: ", i ? "\n" : "",
			    (long)rs->rank[i]);
		else
			putchar(',');
		for (j = i + 1; j < rs->n && rs->rank[j] == rs->rank[i] &&
		    rs->region[j] == rs->region[j - 1] + 1; j++)
			continue;
		if (j - i == 1)
			printf("%zu", rs->region[i]);
		else
			printf("%zu-%zu", rs->region[i], rs->region[j - 1]);
	}
	if (rs->n > 0)
		putchar('\n');
}

/* Compares b with a; returns 1 when unstable. */
static int
compare(const char *pa, const char *pb, const struct trc_graph *a,
    const struct trc_graph *b, const struct opts *o, int banner)
{
	struct trc_graph_cmp gc;
	const struct trc_rank_cmp *cmp, *t = &gc.total;
	struct regs rs;
	uint64_t thr;
	int32_t k;
	int unstable;

	memset(&rs, 0, sizeof(rs));
	if (!o->quiet && banner)
		printf("== %s %s\n", pa, pb);
	/* The rows: the ranks with events in either and those a header
	 * declares, so that memory follows the ranks present. */
	if (trc_graph_compare(a, b, 1, o->regions, &gc, o->quiet ? NULL :
	    region_cb, &rs) < 0)
		die("out of memory");
	cmp = gc.per;
	thr = trc_graph_threshold(&gc, o->thr_frac, o->thr_events);
	unstable = trc_graph_unstable(&gc, thr);
	if (!o->quiet) {
		if (a->nranks != b->nranks)
			printf("ranks differ: %s has %ld, %s has %ld\n", pa,
			    (long)a->nranks, pb, (long)b->nranks);
		if (o->regions)
			printf("%-6s %10s %10s %10s %10s %8s %8s\n", "rank",
			    "events1", "events2", "lcs", "distance",
			    "regions", "differ");
		else
			printf("%-6s %10s %10s %10s %10s\n", "rank", "events1",
			    "events2", "lcs", "distance");
		for (k = 0; k < gc.nranks; k++) {
			printf("%-6ld %10llu %10llu %10llu %10llu",
			    (long)gc.rank[k],
			    (unsigned long long)cmp[k].na,
			    (unsigned long long)cmp[k].nb,
			    (unsigned long long)cmp[k].lcs,
			    (unsigned long long)cmp[k].d);
			if (o->regions)
				printf(" %8llu %8llu",
				    (unsigned long long)cmp[k].regions,
				    (unsigned long long)cmp[k].bad_regions);
			putchar('\n');
		}
		printf("%-6s %10llu %10llu %10llu %10llu", "total",
		    (unsigned long long)t->na, (unsigned long long)t->nb,
		    (unsigned long long)t->lcs, (unsigned long long)t->d);
		if (o->regions)
			printf(" %8llu %8llu", (unsigned long long)t->regions,
			    (unsigned long long)t->bad_regions);
		putchar('\n');
		printf("similarity %.6f (%llu of %llu events), distance %llu\n",
		    gc.n ? (double)t->lcs / (double)gc.n : 1.0,
		    (unsigned long long)t->lcs, (unsigned long long)gc.n,
		    (unsigned long long)t->d);
		if (gc.identical)
			printf("identical execution graphs: stable\n");
		else if (!unstable)
			printf("different execution graphs, within threshold: "
			    "stable (distance %llu <= %llu)\n",
			    (unsigned long long)t->d, (unsigned long long)thr);
		else
			printf("different execution graphs: unstable "
			    "(distance %llu > %llu)\n",
			    (unsigned long long)t->d, (unsigned long long)thr);
		regs_print(&rs);
		if (o->where && !gc.identical)
			where(pa, pb, a, b, cmp, gc.rank, gc.nranks);
		if (o->choice)
			choice(pa, pb);
	}
	free(rs.rank);
	free(rs.region);
	trc_graph_cmp_free(&gc);
	return unstable;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "choice", no_argument, NULL, OPT_CHOICE },
		{ "equal", required_argument, NULL, OPT_EQUAL },
		{ "flops", required_argument, NULL, OPT_FLOPS },
		{ "format", required_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "split", required_argument, NULL, OPT_SPLIT },
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "where", no_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 }
	};
	struct opts o;
	struct trc_dict *dict;
	struct trc_graph base, other;
	size_t len, msgmax;
	int c, i, unstable = 0;

	memset(&o, 0, sizeof(o));
	o.key = TRC_KEY_DEFAULT;
	o.thr_frac = -1;
	trc_std_options(argc, argv, usage);
	while ((c = getopt_long(argc, argv, "f:qw", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_CHOICE:
			o.choice = 1;
			break;
		case OPT_EQUAL:
			if (trc_key_parse(optarg, &o.key) < 0)
				die("invalid key '%s'", optarg);
			break;
		case 'f':
			trc_opt_format(&ropts, optarg);
			break;
		case OPT_FLOPS:
			trc_opt_flops(&ropts, optarg);
			break;
		case 'q':
			o.quiet = 1;
			break;
		case OPT_SPLIT:
			o.regions = 1;
			if (strcmp(optarg, "mk") == 0)
				o.split = NULL;
			else if (strncmp(optarg, "fn=", 3) == 0 && optarg[3] != '\0')
				o.split = optarg + 3;
			else
				die("invalid split '%s'", optarg);
			break;
		case OPT_THRESHOLD:
			len = strlen(optarg);
			if (len > 1 && optarg[len - 1] == '%') {
				optarg[len - 1] = '\0';
				o.thr_frac = estrtod(optarg, "threshold") / 100;
				if (o.thr_frac < 0 || o.thr_frac > 1)
					die("invalid threshold '%s%%'", optarg);
			} else
				o.thr_events = (uint64_t)estrtonum(optarg, 0,
				    INT64_MAX, "threshold");
			break;
		case 'w':
			o.where = 1;
			break;
		default:
			usage_error(usage_line);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 2)
		usage_error(usage_line);
	if (trc_msg_max(&msgmax) < 0)
		die("invalid TRC_MSG_MAX '%s'", getenv("TRC_MSG_MAX"));
	if ((dict = trc_dict_new(o.key)) == NULL)
		die("out of memory");
	load(argv[0], &base, dict, &o);
	for (i = 1; i < argc; i++) {
		load(argv[i], &other, dict, &o);
		unstable |= compare(argv[0], argv[i], &base, &other, &o, argc > 2);
		trc_graph_free(&other);
	}
	trc_graph_free(&base);
	trc_dict_free(dict);
	fshut_stdout();
	return unstable;
}
