/*
 * trc-sum - the first statistics of a stream: time per rank and
 * activity, procedure lifetimes, operations, message sizes.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prog.h"
#include "trc.h"

static const char usage_line[] =
    "trc-sum [-t] [-f format] [--flops rate] [--section section] "
    "[--vs observed] [file]";

/* Long options without a letter. */
enum { OPT_FLOPS = 256, OPT_SECTION, OPT_VS };

static void
usage(int status)
{
	printf("usage: %s\n", usage_line);
	exit(status);
}

static int tsv;
static struct trc_open_opts opts;

/*
 * Seconds exact with 9 decimals for machines; for people a unit that
 * shows what is under a microsecond (a region of 60 ns is no 0.000000).
 */
static void
put_time(int64_t ns)
{
	char buf[TRC_DURLEN];

	if (tsv) {
		buf[trc_format_time(buf, ns)] = '\0';
		printf("\t%s", buf);
	} else {
		trc_format_duration(buf, ns);
		printf(" %12s", buf);
	}
}

static void
put_int(int64_t v)
{
	printf(tsv ? "\t%lld" : " %12lld", (long long)v);
}

static void
put_name(const char *name, int width)
{
	if (tsv)
		fputs(name, stdout);
	else
		printf("%-*s", width, name);
}

static void
put_head(const char *first, int width, const char *const *cols)
{
	put_name(first, width);
	for (; *cols != NULL; cols++)
		printf(tsv ? "\t%s" : " %12s", *cols);
	putchar('\n');
}

static void
print_ranks(const struct trc_summary *s)
{
	static const char *const cols[] = { "events", "total", "comp", "send",
	    "recv", "wait", "coll", NULL };
	const struct trc_rank_sum *rs;
	int64_t all[TRC_NACT] = { 0 }, events = 0, first = INT64_MAX, last = 0;
	int32_t i, r;
	int a;

	/* trc_summary_finish checked that these sums do not wrap.  The
	 * ranks with events only: memory and output follow the ranks
	 * present, not the largest rank number. */
	for (i = 0; i < s->npresent; i++)
		for (a = 0; a < TRC_NACT; a++)
			all[a] += s->rank[s->present[i]].act[a];
	put_head("rank", 6, cols);
	for (i = 0; i < s->npresent; i++) {
		rs = &s->rank[r = s->present[i]];
		printf(tsv ? "%ld" : "%-6ld", (long)r);
		put_int(rs->events);
		put_time(rs->events ? rs->last - rs->first : 0);
		for (a = 0; a < TRC_NACT; a++)
			put_time(rs->act[a]);
		putchar('\n');
		events += rs->events;
		if (rs->events && rs->first < first)
			first = rs->first;
		if (rs->events && rs->last > last)
			last = rs->last;
	}
	if (tsv)
		return;
	printf("%-6s", "all");
	put_int(events);
	put_time(events ? last - first : 0);
	for (a = 0; a < TRC_NACT; a++)
		put_time(all[a]);
	putchar('\n');
}

static void
print_procs(const struct trc_summary *s)
{
	static const char *const cols[] = { "rank", "count", "total", "mean",
	    "min", "max", "comp", "max/min", "cv", NULL };
	const struct trc_stat *st;
	int32_t l, k, r, i, *order;
	int width = 9;

	if ((order = trc_summary_order(s, 0)) == NULL)
		die("out of memory");
	for (l = 0; l < s->labels.n; l++)
		if ((int)strlen(s->labels.name[l]) > width)
			width = (int)strlen(s->labels.name[l]);
	put_head("procedure", width, cols);
	for (k = 0; k < s->labels.n; k++)
		for (l = order[k], i = 0; i < s->npresent; i++) {
			st = &s->life[l][r = s->present[i]];
			if (st->n == 0 && s->comp[l][r] == 0)
				continue;
			put_name(s->labels.name[l], width);
			put_int(r);
			put_int(st->n);
			put_time(st->total);
			put_time(st->n ? st->total / st->n : 0);
			put_time(st->min);
			put_time(st->max);
			put_time(s->comp[l][r]);
			/* How much one occurrence varies: a disturbed run
			 * shows here first (trc-scale --strict). */
			if (st->n > 0 && st->min > 0)
				printf(tsv ? "\t%.6g" : " %12.2f",
				    (double)st->max / (double)st->min);
			else
				printf(tsv ? "\t-" : " %12s", "-");
			printf(tsv ? "\t%.6f" : " %12.2f", trc_stat_cv(st));
			putchar('\n');
		}
	free(order);
}

static void
print_ops(const struct trc_summary *s)
{
	static const char *const cols[] = { "count", "bytes", "time", "mean",
	    NULL };
	const struct trc_op_sum *op;
	int32_t i, k, *order;

	if ((order = trc_summary_order(s, 1)) == NULL)
		die("out of memory");
	put_head("operation", 12, cols);
	for (k = 0; k < s->ops.n; k++) {
		op = &s->op[i = order[k]];
		if (op->count == 0)
			continue;
		put_name(s->ops.name[i], 12);
		put_int(op->count);
		put_int(op->bytes);
		put_time(op->time);
		put_time(op->time / op->count);
		putchar('\n');
	}
	free(order);
}

static void
print_sizes(const struct trc_summary *s)
{
	static const char *const cols[] = { "max", "messages", "bytes", NULL };
	int k;

	put_head("min", 12, cols);
	for (k = 0; k < TRC_SIZE_BUCKETS; k++) {
		if (s->size_count[k] == 0)
			continue;
		printf(tsv ? "%lld" : "%-12lld", k ? 1LL << (k - 1) : 0LL);
		put_int(k ? (long long)((1ULL << k) - 1) : 0);
		put_int(s->size_count[k]);
		put_int(s->size_bytes[k]);
		putchar('\n');
	}
}

/*
 * mpiP's view: every operation and computation at its site, its share
 * of the ranks' summed run time (the rows add up to 100) and its
 * imbalance over the ranks.
 */
static void
print_profile(const struct trc_summary *s)
{
	static const char *const cols[] = { "percent", "total", "max",
	    "mean", "min", NULL };
	struct trc_profile_row *rows;
	size_t n, i;

	if ((rows = trc_summary_profile(s, &n)) == NULL && s->nranks > 0)
		die("out of memory");
	if (tsv)
		printf("operation\tsite");
	else
		printf("%-12s %-12s", "operation", "site");
	for (i = 0; cols[i] != NULL; i++)
		printf(tsv ? "\t%s" : " %12s", cols[i]);
	putchar('\n');
	for (i = 0; i < n; i++) {
		if (tsv)
			printf("%s\t%s\t%.2f", rows[i].op, rows[i].site,
			    rows[i].percent);
		else
			printf("%-12s %-12s %12.2f", rows[i].op,
			    *rows[i].site ? rows[i].site : "-", rows[i].percent);
		put_time(rows[i].total);
		put_time(rows[i].max);
		put_time((int64_t)(rows[i].mean + 0.5));
		put_time(rows[i].min);
		putchar('\n');
	}
	free(rows);
}

static void
print_summary(const struct trc_summary *s, unsigned sections)
{
	static void (*const print[])(const struct trc_summary *) = {
		print_ranks, print_procs, print_ops, print_sizes, print_profile
	};
	static const char *const titles[] = {
		"time per rank", "procedure lifetimes",
		"operations", "sent message sizes (bytes)",
		"profile: time per operation and site"
	};
	int i, first = 1;

	for (i = 0; i < 5; i++) {
		if (!(sections & (1u << i)))
			continue;
		if (!first)
			putchar('\n');
		if (!tsv)
			printf("%s\n", titles[i]);
		print[i](s);
		first = 0;
	}
}

/*
 * The paper's Table 2: per procedure and operation (rows) and rank
 * (columns) the mean ratio of predicted to observed lifetimes; next to
 * it the ratio of the summed lifetimes, which errors that cancel over
 * occurrences do not hide, the two sums, and the row's share of the
 * observed time, rows under TRC_VS_MINOR flagged; then the total times
 * and the error, its sign said in words.  The files are named first:
 * which run is which is the one thing a reader must not guess.
 */
static void
print_versus(const struct trc_versus *v, int32_t nranks, unsigned sections,
    const char *predicted, const char *observed)
{
	const struct trc_pair *pr;
	char buf[32], dur[2][TRC_DURLEN];
	int64_t span[2], unpaired = 0, pred, obs;
	int32_t i, r;
	int width = 9, kind;
	double share, error;

	for (i = 0; i < 2; i++)
		span[i] = v->first[i] < 0 ? 0 : v->last[i] - v->first[i];
	if (nranks < v->nranks)
		nranks = v->nranks;
	for (i = 0; i < v->names.n; i++)
		if ((int)strlen(v->names.name[i]) - 2 > width)
			width = (int)strlen(v->names.name[i]) - 2;
	if (!tsv)
		printf("predicted: %s\nobserved:  %s\n", predicted, observed);
	if (sections & (TRC_SUM_PROCS | TRC_SUM_OPS)) {
		if (tsv)
			printf("name\tkind\trank\tpaired\tratio\tpredicted"
			    "\tobserved\tsum_ratio\tshare_percent\tflag\n");
		else {
			printf("\npredicted/observed lifetime: the mean per "
			    "occurrence on each rank;\nthe ratio of the sums over "
			    "all ranks, the two sums, and the observed sum's\n"
			    "share of the observed time (ranks x total time)\n"
			    "%-*s", width, "function");
			for (r = 0; r < v->nranks; r++) {
				snprintf(buf, sizeof(buf), "rank %ld", (long)r);
				printf(" %8s", buf);
			}
			printf(" %8s %11s %11s %7s\n", "sums", "predicted",
			    "observed", "share");
		}
	}
	/* Procedures first, then operations, each in order of arrival. */
	for (kind = 'P'; kind != 0; kind = kind == 'P' ? 'O' : 0)
		for (i = 0; i < v->names.n; i++) {
			if (v->names.name[i][0] != kind)
				continue;
			for (r = 0; r < v->nranks; r++) {
				pr = &v->pair[i][r];
				unpaired += pr->unpaired[0] + pr->unpaired[1];
			}
			if (!(sections & (kind == 'P' ? TRC_SUM_PROCS :
			    TRC_SUM_OPS)))
				continue;
			if (!tsv)
				printf("%-*s", width, v->names.name[i] + 2);
			for (r = 0; r < v->nranks; r++) {
				pr = &v->pair[i][r];
				if (tsv) {
					if (pr->n == 0)
						continue;
					printf("%s\t%s\t%ld\t%lld\t", v->names.name[i] + 2,
					    kind == 'P' ? "procedure" : "operation",
					    (long)r, (long long)pr->n);
					if (pr->nratio > 0)
						printf("%.6f", pr->ratio_sum / pr->nratio);
					else
						printf("-");
					buf[trc_format_time(buf, pr->pred)] = '\0';
					printf("\t%s", buf);
					buf[trc_format_time(buf, pr->obs)] = '\0';
					printf("\t%s\t", buf);
					if (pr->obs > 0)
						printf("%.6f", (double)pr->pred / pr->obs);
					else
						printf("-");
					share = trc_versus_share(pr->obs, 1, span[1]);
					printf("\t%.2f\t%s\n", 100 * share,
					    share < TRC_VS_MINOR ? "minor" : "-");
				} else if (pr->nratio > 0)
					printf(" %8.2f", pr->ratio_sum / pr->nratio);
				else
					printf(" %8s", "-");
			}
			if (tsv)
				continue;
			trc_versus_sums(v, i, &pred, &obs);
			if (obs > 0)
				printf(" %8.2f", (double)pred / obs);
			else
				printf(" %8s", "-");
			trc_format_duration(dur[0], pred);
			trc_format_duration(dur[1], obs);
			share = trc_versus_share(obs, nranks, span[1]);
			printf(" %11s %11s %6.1f%%%s\n", dur[0], dur[1],
			    100 * share, share < TRC_VS_MINOR ? " minor" : "");
		}
	if (!(sections & TRC_SUM_RANKS))
		return;
	error = span[1] ? 100.0 * (double)(span[0] - span[1]) / span[1] : 0.0;
	if (tsv) {
		if (sections & (TRC_SUM_PROCS | TRC_SUM_OPS))
			putchar('\n');
		printf("predicted\tobserved\terror_percent\tunpaired\n");
		/* Against an observed span of 0 the error has no value. */
		printf("%.9f\t%.9f\t", span[0] / 1e9, span[1] / 1e9);
		if (span[1] > 0)
			printf("%.2f", error);
		else
			printf("-");
		printf("\t%lld\n", (long long)unpaired);
		return;
	}
	trc_format_duration(dur[0], span[0]);
	trc_format_duration(dur[1], span[1]);
	printf("\ntotal time, first to last event: predicted %s, observed %s, ",
	    dur[0], dur[1]);
	if (span[1] == 0)
		printf("error undefined (the observed span is 0)\n");
	else	/* The sign in words: + is a prediction slower than the run. */
		printf("error %+.1f%%\nerror = (predicted - observed) / "
		    "observed: %s\n", error, span[0] > span[1] ? "the "
		    "prediction is longer than the observed run (too slow)" :
		    span[0] < span[1] ? "the prediction is shorter than the "
		    "observed run (too fast)" : "the two are equally long");
	if (unpaired > 0)
		printf("%lld occurrences had no partner in the other run\n",
		    (long long)unpaired);
}

static void
versus(const char *predicted, const char *observed, unsigned sections)
{
	struct trc_reader *r[2];
	struct trc_summary *sum[2];
	struct trc_versus *v;
	int i;

	for (i = 0; i < 2; i++)
		if ((r[i] = trc_open_with(i == TRC_PREDICTED ? predicted :
		    observed, &opts)) == NULL ||
		    (sum[i] = trc_summary_new()) == NULL)
			die("out of memory");
	if ((v = trc_versus_new()) == NULL)
		die("out of memory");
	if (trc_versus_read(v, r, sum) < 0)
		die("%s", v->err);
	print_versus(v, sum[TRC_OBSERVED]->nranks, sections,
	    trc_name(r[TRC_PREDICTED]), trc_name(r[TRC_OBSERVED]));
	for (i = 0; i < 2; i++) {
		trc_summary_free(sum[i]);
		trc_close(r[i]);
	}
	trc_versus_free(v);
}

/*
 * The events of r into sum, those a reader decoded ahead (trcb) where
 * they lie (trc_next_brief): trc_next's return at the end or on the
 * reader's error; on the summary's error, *line its event's when it
 * was one of those.
 */
static int
add_ahead(struct trc_reader *r, struct trc_summary *sum,
    struct trc_event *ev, long *line)
{
	const struct trc_brief *brief;
	size_t n, done;
	int rc;

	while ((rc = trc_next(r, ev)) > 0) {
		if (trc_summary_add(sum, ev) < 0)
			break;
		while ((n = trc_next_brief(r, &brief)) > 0)
			if (trc_summary_add_brief(sum, brief, n, &done) < 0) {
				*line = trc_lineno(r) - (long)(n - done - 1);
				return rc;
			}
	}
	return rc;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "flops", required_argument, NULL, OPT_FLOPS },
		{ "format", required_argument, NULL, 'f' },
		{ "section", required_argument, NULL, OPT_SECTION },
		{ "tsv", no_argument, NULL, 't' },
		{ "vs", required_argument, NULL, OPT_VS },
		{ NULL, 0, NULL, 0 }
	};
	struct trc_reader *r;
	struct trc_summary *sum;
	struct trc_event ev;
	long line;
	unsigned sections = TRC_SUM_ALL;
	const char *observed = NULL;
	int c, rc;

	trc_std_options(argc, argv, usage);
	/* The summaries read fields, never the attributes' text. */
	opts.fields_only = 1;
	opts.no_match = 1;
	while ((c = getopt_long(argc, argv, "f:t", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			trc_opt_format(&opts, optarg);
			break;
		case OPT_FLOPS:
			trc_opt_flops(&opts, optarg);
			break;
		case OPT_SECTION:
			if (trc_summary_sections(optarg, &sections) < 0)
				die("invalid section list '%s'", optarg);
			break;
		case 't':
			tsv = 1;
			break;
		case OPT_VS:
			observed = optarg;
			break;
		default:
			usage_error(usage_line);
		}
	}
	if (argc - optind > 1)
		usage_error(usage_line);
	if (observed != NULL) {
		/* A comparison is of lifetimes and totals, not of sizes. */
		if (sections & ~(TRC_SUM_RANKS | TRC_SUM_PROCS | TRC_SUM_OPS) &&
		    sections != TRC_SUM_ALL)
			die("--vs compares the sections ranks, procs and ops "
			    "only");
		versus(optind < argc ? argv[optind] : "-", observed, sections);
		fshut_stdout();
		return 0;
	}
	if ((r = trc_open_with(optind < argc ? argv[optind] : "-",
	    &opts)) == NULL ||
	    (sum = trc_summary_new()) == NULL)
		die("out of memory");
	sum->profile = (sections & TRC_SUM_PROFILE) != 0;
	/* Text has no events decoded ahead, and its loop is spared the
	 * asking: a test an event is 1.5% of its time. */
	line = 0;
	if (strcmp(trc_format_name(r), "trc") == 0) {
		while ((rc = trc_next(r, &ev)) > 0)
			if (trc_summary_add(sum, &ev) < 0)
				break;
	} else if (trc_by_rank(r)) {
		/* Each rank's events in turn: the summary needs no more,
		 * and keeps one rank's rows in the caches at a time. */
		rc = trc_summary_add_runs(sum, r);
	} else
		rc = add_ahead(r, sum, &ev, &line);
	if (rc < 0)
		die("%s", trc_error(r));
	if (trc_summary_error(sum) != NULL)
		die("%s:%ld: %s", trc_name(r), line ? line : trc_lineno(r),
		    trc_summary_error(sum));
	if (trc_summary_finish(sum) < 0)
		die("%s: %s", trc_name(r), trc_summary_error(sum));
	print_summary(sum, sections);
	trc_summary_free(sum);
	trc_close(r);
	fshut_stdout();
	return 0;
}
