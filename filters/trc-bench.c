/*
 * trc-bench - a benchmark from a trace: one C11 and MPI program that
 * makes the traced MPI calls and spends the traced computation, or
 * the same as a coNCePTuaL program (--conceptual).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prog.h"
#include "trc.h"
#include "trc_bench.h"

static const char usage_line[] =
    "trc-bench [-f format] [--conceptual] "
    "[--cpu ratios | --cpu-ratio ratio] [--deterministic] [--flops rate] "
    "[--wall] [--window nodes] [file]";

enum { OPT_CONCEPTUAL = 256, OPT_CPU, OPT_CPU_RATIO, OPT_DETERMINISTIC,
    OPT_FLOPS, OPT_WALL, OPT_WINDOW };

static void
usage(int status)
{
	printf("usage: %s\n", usage_line);
	exit(status);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "conceptual", no_argument, NULL, OPT_CONCEPTUAL },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "cpu-ratio", required_argument, NULL, OPT_CPU_RATIO },
		{ "deterministic", no_argument, NULL, OPT_DETERMINISTIC },
		{ "flops", required_argument, NULL, OPT_FLOPS },
		{ "format", required_argument, NULL, 'f' },
		{ "wall", no_argument, NULL, OPT_WALL },
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ NULL, 0, NULL, 0 }
	};
	struct trc_open_opts opts = { 0 };
	struct trc_bench_opts bo = { 0 };
	struct trc_reader *r;
	struct trc_bench *B;
	const struct trc_header *h;
	struct trc_event ev;
	char err[512];
	const char *path;
	int c, rc;

	trc_std_options(argc, argv, usage);
	while ((c = getopt_long(argc, argv, "f:", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			trc_opt_format(&opts, optarg);
			break;
		case OPT_CONCEPTUAL:
			bo.conceptual = 1;
			break;
		case OPT_CPU:
			if (bo.ratios != NULL)
				trc_ratios_free(bo.ratios);
			if ((bo.ratios = trc_ratios_load(optarg, err,
			    sizeof(err))) == NULL)
				die("%s", err);
			break;
		case OPT_CPU_RATIO:
			bo.cpu_ratio = estrtod(optarg, "ratio");
			if (!(bo.cpu_ratio > 0))
				die("invalid ratio '%s'", optarg);
			break;
		case OPT_DETERMINISTIC:
			bo.deterministic = 1;
			break;
		case OPT_FLOPS:
			trc_opt_flops(&opts, optarg);
			break;
		case OPT_WALL:
			bo.wall = 1;
			break;
		case OPT_WINDOW:
			bo.window = (int)estrtonum(optarg, 2, 1 << 16, "window");
			break;
		default:
			usage_error(usage_line);
		}
	}
	if (argc - optind > 1 || (bo.cpu_ratio > 0 && bo.ratios != NULL))
		usage_error(usage_line);
	path = optind < argc ? argv[optind] : "-";
	if ((r = trc_open_with(path, &opts)) == NULL)
		die("out of memory");
	if ((h = trc_get_header(r)) == NULL)
		die("%s", trc_error(r));
	bo.name = trc_name(r);
	if ((B = trc_bench_new(h, &bo)) == NULL)
		die("out of memory");
	if (trc_bench_error(B)[0] != '\0')
		die("%s: %s", trc_name(r), trc_bench_error(B));
	while ((rc = trc_next(r, &ev)) > 0)
		if (trc_bench_add(B, &ev) < 0)
			die("%s", trc_bench_error(B));
	if (rc < 0)
		die("%s", trc_error(r));
	if (trc_bench_write(B, stdout) < 0)
		die("%s: %s", trc_name(r), trc_bench_error(B));
	trc_bench_free(B);
	trc_ratios_free(bo.ratios);
	trc_close(r);
	fshut_stdout();
	return 0;
}
