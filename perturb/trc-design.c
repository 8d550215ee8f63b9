/*
 * trc-design - two-level full and fractional factorial designs: the
 * run table, the alias structure and the resolution, or the TRC_DELAY
 * spec of every run for a factor file.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prog.h"
#include "trc.h"

static const char usage_line[] =
    "trc-design [-t] [-g generator] [-n factors] [-s seed] [--delays] "
    "[--replications replications] [file]";

/* Long options without a letter. */
enum { OPT_DELAYS = 256, OPT_REPLICATIONS };

static void
usage(int status)
{
	printf("usage: %s\n", usage_line);
	exit(status);
}

struct name {
	uint32_t	 word;	/* the chain's first word */
	long		 i;	/* the chain */
};

static int
name_cmp(const void *a, const void *b)
{
	const struct name *x = a, *y = b;

	return trc_word_cmp(x->word, y->word);
}

static void
print_aliases(const struct trc_design *d)
{
	struct trc_chain c;
	struct name *nm;
	char *buf, w[TRC_MAXFACTORS + 1];
	size_t len = (size_t)d->ndef * (TRC_MAXFACTORS + 4) + 1;
	long m = trc_design_runs(d), i;
	int j, first = 1;

	printf("generators:");
	for (j = 0; j < d->p; j++)
		if (d->gen[j] != 0) {
			printf("%s %c = %s%s", first ? "" : ",",
			    trc_factor_letter(j), d->gsign[j] < 0 ? "-" : "",
			    trc_word_format(d->gen[j], w));
			first = 0;
		}
	printf("%s\n", first ? " none" : "");
	c.word = ereallocarray(NULL, d->ndef, sizeof c.word[0]);
	c.sign = emalloc(d->ndef);
	buf = emalloc(len);
	trc_design_chain(d, 0, &c);
	printf("defining relation: %s\n", trc_chain_format(&c, buf, len));
	if (d->k > 0) {
		/* The textbooks list chains by their first word: A, B, ..., AB. */
		nm = ereallocarray(NULL, m, sizeof nm[0]);
		for (i = 0; i < m; i++) {
			trc_design_chain(d, i, &c);
			nm[i].word = c.word[0];
			nm[i].i = i;
		}
		qsort(nm + 1, m - 1, sizeof nm[0], name_cmp);
		printf("alias chains:\n");
		for (i = 1; i < m; i++) {
			trc_design_chain(d, nm[i].i, &c);
			printf("\t%s\n", trc_chain_format(&c, buf, len));
		}
		free(nm);
	}
	free(c.word);
	free(c.sign);
	free(buf);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "delays", no_argument, NULL, OPT_DELAYS },
		{ "replications", required_argument, NULL, OPT_REPLICATIONS },
		{ NULL, 0, NULL, 0 }
	};
	struct trc_factors fs = { 0 };
	struct trc_design d;
	char err[512], rom[16], *gens = NULL, *g, *spec = NULL;
	long m, r = 1, n, i, *order, t;
	uint64_t seed = 0;
	size_t speclen = 0, need;
	int c, j, p = 0, seeded = 0, mode = 0;

	trc_std_options(argc, argv, usage);
	while ((c = getopt_long(argc, argv, "g:n:s:t", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case OPT_DELAYS:
		case 't':
			/* mode: 0, 'd' (--delays) or 't'. */
			if (mode != 0 && mode != (c == 't' ? 't' : 'd'))
				die("--delays and -t exclude each other");
			mode = c == 't' ? 't' : 'd';
			break;
		case 'g':
			n = gens ? strlen(gens) : 0;
			gens = ereallocarray(gens, n + strlen(optarg) + 2, 1);
			snprintf(gens + n, strlen(optarg) + 2, "%s%s",
			    n ? "," : "", optarg);
			break;
		case 'n':
			p = estrtonum(optarg, 1, TRC_MAXFACTORS, "factors");
			break;
		case OPT_REPLICATIONS:
			r = estrtonum(optarg, 1, 10000, "replications");
			break;
		case 's':
			seed = estrtonum(optarg, 0, INT64_MAX, "seed");
			seeded = 1;
			break;
		default:
			usage_error(usage_line);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage_error(usage_line);
	if (p > 0 && argc > 0)
		die("-n and a factor file exclude each other");
	if (p == 0) {
		if (trc_factors_read(argc ? argv[0] : NULL, &fs, err,
		    sizeof err) == -1)
			die("%s", err);
		p = fs.n;
	} else if (mode == 'd')
		die("--delays needs a factor file");

	if (trc_design_init(&d, p, err, sizeof err) == -1)
		die("%s", err);
	/* Generators: -g D=ABC -g E=ABD, or -g D=ABC,E=ABD. */
	for (g = gens ? strtok(gens, ", \t") : NULL; g != NULL;
	    g = strtok(NULL, ", \t"))
		if (trc_design_generator(&d, g, err, sizeof err) == -1)
			die("%s", err);
	free(gens);
	if (trc_design_finish(&d, err, sizeof err) == -1)
		die("%s", err);
	m = trc_design_runs(&d);
	n = m * r;
	if (n > TRC_MAXRUNS * 16)
		die("%ld runs: at most %ld", n, TRC_MAXRUNS * 16);

	/* Run order: the design r times over, or shuffled (Fisher-Yates). */
	order = ereallocarray(NULL, n, sizeof order[0]);
	for (i = 0; i < n; i++)
		order[i] = i % m;
	if (seeded) {
		uint64_t s = seed;

		for (i = n - 1; i > 0; i--) {
			long k = trc_random_below(&s, i + 1);

			t = order[i];
			order[i] = order[k];
			order[k] = t;
		}
	}

	if (mode == 't') {
		printf("run\tstd");
		for (j = 0; j < p; j++)
			printf("\t%c", trc_factor_letter(j));
		putchar('\n');
	} else if (mode == 'd')
		printf("run\tstd\tdelay\n");
	else {
		if (d.k > 0)
			printf("design: 2^(%d-%d)", p, d.k);
		else
			printf("design: 2^%d", p);
		printf(", %ld runs, %ld replication%s, ", n, r,
		    r > 1 ? "s" : "");
		if (seeded)
			printf("random order (seed %llu)\n",
			    (unsigned long long)seed);
		else
			printf("standard order\n");
		for (j = 0; j < fs.n; j++) {
			need = trc_factor_spec(&fs.v[j], NULL, 0) + 1;
			if (need > speclen)
				spec = ereallocarray(spec, speclen = need, 1);
			trc_factor_spec(&fs.v[j], spec, need);
			printf("%s%c\t%s\t%s\n", j ? "" : "factors:\n",
			    trc_factor_letter(j), fs.v[j].name, spec);
		}
		printf("runs:\nrun\tstd");
		for (j = 0; j < p; j++)
			printf("\t%c", trc_factor_letter(j));
		putchar('\n');
	}
	for (i = 0; i < n; i++) {
		uint32_t x = trc_design_point(&d, order[i]);

		printf("%ld\t%ld", i + 1, order[i] + 1);
		if (mode == 'd') {
			need = trc_delay_spec(&fs, x, NULL, 0) + 1;
			if (need > speclen)
				spec = ereallocarray(spec, speclen = need, 1);
			trc_delay_spec(&fs, x, spec, need);
			printf("\t%s\n", spec);
			continue;
		}
		for (j = 0; j < p; j++)
			printf("\t%s", x & (UINT32_C(1) << j) ?
			    (mode == 't' ? "+1" : "+") :
			    (mode == 't' ? "-1" : "-"));
		putchar('\n');
	}
	if (mode == 0) {
		print_aliases(&d);
		printf("resolution: %s\n", trc_roman(trc_design_resolution(&d),
		    rom, sizeof rom));
	}
	free(order);
	free(spec);
	trc_design_free(&d);
	trc_factors_free(&fs);
	fshut_stdout();
	return 0;
}
