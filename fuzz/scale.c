/*
 * scale.c - the replay engine of trc-scale (lib/scale/) with each
 * model (lib/model/) on a fuzzed stream.  The first line picks the
 * options, words of: fit, loggp (the model; else recorded), base (a
 * base machine's fit too), ratios (a ratio table, else --cpu-ratio 2),
 * warm (a table with first=N rows, read for each input: it counts the
 * intervals), wall (cpu= not used), wait, cost (the poll mode), cores
 * (--cores 2; cores1, --cores 1), bound (with cores, --bound).  The
 * rest is the stream.  Every event written must be a valid event.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static const char target_fit[] =
    "send 0 256 7e-08 0\n"
    "send 256 768 -1.33440602e-06 5.48700776e-09\n"
    "send 768 inf 1.04390145e-06 2.58416998e-10\n"
    "recv 0 384 8.0300003e-07 2.26535535e-11\n"
    "recv 384 inf -2.38966737e-09 1.29578117e-10\n"
    "isend 0 inf 6.4743165e-08 1.26182331e-10\n"
    "barrier 0 inf 8.51e-07 0\n"
    "allreduce 0 inf 1.14213535e-06 4.21667741e-10\n"
    "recv-late 0 inf 4e-07 5e-11\n"
    "send-cold 0 inf 3e-06 1e-11\n"
    "recv-late-cold 0 inf 5e-06 5e-11\n"
    "exchange 0 inf 1.5e-06 1e-10\n"
    "exchange-wait 0 inf 3e-06 1e-10\n"
    "send-sync 384 inf\n"
    "send-progress 384 4096\n";
static const char base_fit[] =
    "send 0 inf 4.86315646e-06 3.8679939e-11\n"
    "recv 0 inf 6.65208764e-06 -9.61935945e-11\n"
    "isend 0 inf 5.08189362e-06 4.94996313e-12\n"
    "recv-late 0 inf 2e-06 2e-10\n"
    "send-cold 0 inf 1.7e-05 2e-10\n"
    "isend-cold 0 inf 1.6e-05 1e-10\n"
    "recv-late-cold 0 inf 2e-05 3e-10\n"
    "allreduce 0 inf 5e-06 4e-10\n"
    "allreduce-cold 0 inf 3.6e-05 6e-10\n"
    "send-sync 65536 inf\n";
static const char ratios_tbl[] =
    "mode speed\nConverged all 3.144\nIter.* 1 0.5\nIterate all 2.542\n";
static const char warm_tbl[] =
    "mode speed\nIter.* all 1.5 first=2\n() 0 1.2 first=1\n"
    "Converged all 3.144\nIterate all 2.542\n.* all 2\n";
static const char loggp[] = "L 1e-6\no 1e-7\noc 2e-6\nG 1e-9\neager 4096\n";

static struct trc_fit *target, *base;
static struct trc_ratios *ratios;

static void
init(void)
{
	char err[512];

	if (target != NULL)
		return;
	fuzz_file("p.loggp", loggp, sizeof(loggp) - 1);
	if ((target = trc_fit_load(fuzz_file("t.fit", target_fit,
	    sizeof(target_fit) - 1), err, sizeof(err))) == NULL ||
	    (base = trc_fit_load(fuzz_file("b.fit", base_fit,
	    sizeof(base_fit) - 1), err, sizeof(err))) == NULL ||
	    (ratios = trc_ratios_load(fuzz_file("r.tbl", ratios_tbl,
	    sizeof(ratios_tbl) - 1), err, sizeof(err))) == NULL) {
		fprintf(stderr, "fuzz: %s\n", err);
		abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	struct trc_open_opts opts = { .format = "trc" };
	struct trc_scale_conf conf = { 0 };
	struct trc_model_conf mc = { 0 };
	const struct trc_header *h;
	struct trc_model *m = NULL;
	struct trc_ratios *warm = NULL;
	struct trc_reader *r;
	struct trc_scale *sc;
	struct trc_writer *out;
	struct trc_event ev;
	const char *w, *name = "fit";
	char err[512];
	size_t i;
	int rc, errors = -1;

	init();
	w = fuzz_line(&data, &n);
	conf.poll = TRC_POLL_WAIT;
	conf.cpu = strstr(w, "wall") == NULL;
	if (strstr(w, "cores") != NULL)
		conf.cores = strstr(w, "cores1") != NULL ? 1 : 2;
	conf.bound = conf.cores > 0 && strstr(w, "bound") != NULL;
	if (strstr(w, "cost") != NULL)
		conf.poll = TRC_POLL_COST;
	else if (strstr(w, "comp") != NULL)
		conf.poll = TRC_POLL_COMP;
	if (strstr(w, "warm") != NULL) {
		if ((warm = trc_ratios_load(fuzz_file("w.tbl", warm_tbl,
		    sizeof(warm_tbl) - 1), err, sizeof(err))) == NULL) {
			fprintf(stderr, "fuzz: %s\n", err);
			abort();
		}
		mc.ratios = warm;
	} else if (strstr(w, "ratios") != NULL)
		mc.ratios = ratios;
	else
		mc.cpu_ratio = 2;
	if (strstr(w, "loggp") != NULL) {
		name = "loggp";
		mc.path = fuzz_path("p.loggp");
	} else if (strstr(w, "fit") != NULL) {
		mc.fit = target;
		if (strstr(w, "base") != NULL)
			mc.base = base;
	}
	if ((m = trc_model_new(name, &mc, err, sizeof(err))) == NULL) {
		fprintf(stderr, "fuzz: %s\n", err);
		abort();
	}
	conf.model = m;
	if ((r = trc_open_with(fuzz_file("in.trc", data, n), &opts)) == NULL)
		abort();
	if ((h = trc_get_header(r)) == NULL)
		goto out;
	out = fuzz_wopen("out.trc");
	if ((sc = trc_scale_new(&conf, h, trc_name(r), out)) == NULL)
		abort();
	while ((rc = trc_next(r, &ev)) > 0)
		if (trc_scale_feed(sc, &ev) < 0) {
			if (trc_scale_error(sc)[0] == '\0')
				abort();
			break;
		}
	if (rc == 0 && (errors = trc_scale_finish(sc)) > 0)
		for (i = 0; trc_scale_diag(sc, i) != NULL; i++)
			;
	trc_scale_stats(sc);
	trc_scale_free(sc);
	/* A run without errors writes a valid stream, in time order. */
	if (fuzz_wclose(out) < 0)
		abort();
	if (rc == 0 && errors == 0 && fuzz_read(fuzz_path("out.trc"), "trc") < 0) {
		fprintf(stderr, "fuzz: the output is not a valid stream: "
		    "%s\n", fuzz_error());
		abort();
	}
out:
	trc_close(r);
	trc_model_free(m);
	trc_ratios_free(warm);
	return 0;
}
