/*
 * trc-sum - the first statistics of a stream: time per rank and
 * activity, procedure lifetimes, operations, message sizes.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"

static const char usage_line[] = "trc-sum [-t] [-s section] [file]";

static void
usage(int status)
{
	printf("usage: %s\n", usage_line);
	exit(status);
}

static int tsv;

/* Seconds: exact with 9 decimals for machines, 6 for people. */
static void
put_time(int64_t ns)
{
	char buf[32];

	if (tsv) {
		buf[trc_format_time(buf, ns)] = '\0';
		printf("\t%s", buf);
	} else
		printf(" %12.6f", ns / 1e9);
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
	int32_t r;
	int a;

	put_head("rank", 6, cols);
	for (r = 0; r < s->nranks; r++) {
		rs = &s->rank[r];
		printf(tsv ? "%ld" : "%-6ld", (long)r);
		put_int(rs->events);
		put_time(rs->events ? rs->last - rs->first : 0);
		for (a = 0; a < TRC_NACT; a++) {
			put_time(rs->act[a]);
			all[a] += rs->act[a];
		}
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
	    "min", "max", "comp", NULL };
	const struct trc_stat *st;
	int32_t l, r;
	int width = 9;

	for (l = 0; l < s->labels.n; l++)
		if ((int)strlen(s->labels.name[l]) > width)
			width = (int)strlen(s->labels.name[l]);
	put_head("procedure", width, cols);
	for (l = 0; l < s->labels.n; l++)
		for (r = 0; r < s->nranks; r++) {
			st = &s->life[l][r];
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
			putchar('\n');
		}
}

static void
print_ops(const struct trc_summary *s)
{
	static const char *const cols[] = { "count", "bytes", "time", "mean",
	    NULL };
	const struct trc_op_sum *op;
	int32_t i;

	put_head("operation", 12, cols);
	for (i = 0; i < s->ops.n; i++) {
		op = &s->op[i];
		if (op->count == 0)
			continue;
		put_name(s->ops.name[i], 12);
		put_int(op->count);
		put_int(op->bytes);
		put_time(op->time);
		put_time(op->time / op->count);
		putchar('\n');
	}
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

static void
print_summary(const struct trc_summary *s, unsigned sections)
{
	static void (*const print[])(const struct trc_summary *) = {
		print_ranks, print_procs, print_ops, print_sizes
	};
	static const char *const titles[] = {
		"time per rank (seconds)", "procedure lifetimes (seconds)",
		"operations", "sent message sizes (bytes)"
	};
	int i, first = 1;

	for (i = 0; i < 4; i++) {
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

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "section", required_argument, NULL, 's' },
		{ "tsv", no_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 }
	};
	struct trc_reader *r;
	struct trc_summary *sum;
	struct trc_event ev;
	unsigned sections = TRC_SUM_ALL;
	int c, rc;

	trc_std_options(argc, argv, usage);
	while ((c = getopt_long(argc, argv, "s:t", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (trc_summary_sections(optarg, &sections) < 0)
				die("invalid section list '%s'", optarg);
			break;
		case 't':
			tsv = 1;
			break;
		default:
			usage_error(usage_line);
		}
	}
	if (argc - optind > 1)
		usage_error(usage_line);
	if ((r = trc_open(optind < argc ? argv[optind] : "-")) == NULL ||
	    (sum = trc_summary_new()) == NULL)
		die("out of memory");
	while ((rc = trc_next(r, &ev)) > 0)
		if (trc_summary_add(sum, &ev) < 0)
			break;
	if (rc < 0)
		die("%s", trc_error(r));
	if (trc_summary_error(sum) != NULL)
		die("%s:%ld: %s", trc_name(r), trc_lineno(r),
		    trc_summary_error(sum));
	if (trc_summary_finish(sum) < 0)
		die("%s: %s", trc_name(r), trc_summary_error(sum));
	print_summary(sum, sections);
	trc_summary_free(sum);
	trc_close(r);
	fshut_stdout();
	return 0;
}
