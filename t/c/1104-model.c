/*
 * 1104-model.c - each model's table alone, with no engine: the costs
 * of fit, loggp and recorded computed by hand, the bound agreeing with
 * them, and the collective algorithm Open MPI 4.1's allreduce rule
 * picks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "trc.h"
#include "model/coll.h"

static char dir[] = "/tmp/trc-1104.XXXXXX";

static const char *
file(const char *name, const char *text)
{
	static char path[4][256];
	static int i;
	char *p = path[i++ % 4];
	FILE *fp;

	snprintf(p, 256, "%s/%s", dir, name);
	if ((fp = fopen(p, "w")) == NULL || fputs(text, fp) == EOF ||
	    fclose(fp) == EOF) {
		perror(p);
		exit(2);
	}
	return p;
}

static struct trc_model *
model(const char *name, const struct trc_model_conf *conf)
{
	char err[512];
	struct trc_model *m;

	if ((m = trc_model_new(name, conf, err, sizeof(err))) == NULL)
		printf("# %s\n", err);
	return m;
}

/* c's op (its length with it); its other fields as they were. */
static void
coll_op(struct trc_coll_call *c, const char *op)
{
	c->op = op;
	c->oplen = strlen(op);
}

/* A call of op with b bytes on size ranks, d recorded, no computation
 * before it (warm). */
static void
coll_new(struct trc_coll_call *c, const char *op, int64_t b, int32_t size,
    int64_t d)
{
	memset(c, 0, sizeof(*c));
	coll_op(c, op);
	c->bytes = b;
	c->size = size;
	c->d = d;
}

int
main(void)
{
	struct trc_model_conf conf;
	const struct trc_model *rm = &trc_model_recorded;
	struct trc_model *m;
	struct trc_p2p mp = { 0, 1, 7, 0, 1000, 0, 0 };
	struct trc_xfer x;
	struct trc_coll_call cc;
	struct trc_str fn = { "Iterate", 7 };
	struct trc_fit *base, *cbase;
	char err[512];
	int64_t dp, warm;

	if (mkdtemp(dir) == NULL)
		return 2;

	/* recorded: every length kept, messages at the send's end. */
	rm->ops->send(rm->state, &mp, 100, 10, 50, &x);
	is_int(x.end, 140, "recorded: the send as recorded");
	is_int(x.arrive, 140, "recorded: arrives at its end");
	is_int(x.base, 10, "recorded: left no earlier than its SB on the base");
	is_int(rm->ops->recv(rm->state, &mp, 200, 30), 230, "recorded: receive as recorded");
	is_int(rm->ops->bound(rm->state, 0, TRC_PHASE_SEND, 100, 7), 107, "recorded: bound tp + dt");

	/* fit: f2 = 1 us + 1 ns b, f1 = 4 us + 4 ns b, g2 = 0.5 us. */
	memset(&conf, 0, sizeof(conf));
	if ((base = trc_fit_load(file("b.fit", "send 0 inf 4e-6 4e-9\nsend-sync 4096 inf\n"),
	    err, sizeof(err))) == NULL)
		return 2;
	conf.path = file("t.fit", "send 0 inf 1e-6 1e-9\nrecv 0 inf 5e-7 0\n"
	    "send-sync 2048 inf\nbcast 0 inf 1e-5 0\n");
	conf.base = base;
	conf.cpu_ratio = 0.5;
	m = model("fit", &conf);
	ok(m != NULL, "fit: built");
	m->ops->send(m->state, &mp, 0, 0, 8000, &x);
	is_int(x.end, 2000, "fit: S2 = f2/f1 S1 = 8000 / 4");
	is_int(x.rdv, 0, "fit: 1000 bytes eager on the target");
	mp.bytes = 5000;
	m->ops->send(m->state, &mp, 0, 10, 90000, &x);
	is_int(x.end, 6000, "fit: the base waited (send-sync): f2(b) = 6 us");
	is_int(x.base, 10, "fit: left no earlier than its SB on the base");
	is_int(x.rdv, 1, "fit: handed over on the target");
	m->ops->handover(m->state, &mp, 9000, &x);
	is_int(x.end, 9500, "fit: handover at ready + g2");
	is_int(x.arrive, 9500, "fit: arrives with the send's end");
	mp.bytes = 1000;
	is_int(m->ops->recv(m->state, &mp, 100, 99999), 600, "fit: receive g2");
	/* A wait on sends alone (an Isend's, a Sendrecv's send half):
	 * scaled as a send, f2(1000)/f1(1000) = 2 us / 8 us. */
	is_int(m->ops->wait(m->state, 0, 100, 8000, 1000), 2100,
	    "fit: a wait on a send of 1000 bytes, f2/f1 = 1/4 of 8 us");
	is_int(m->ops->wait(m->state, 0, 100, 8000, -1), 8100,
	    "fit: the rest of a wait after its receives, as recorded");
	is_int(m->ops->wait(m->state, 0, 100, 90000, 5000), 90100,
	    "fit: a wait on a send the base hands over (send-sync), as recorded");
	is_int(m->ops->comp(m->state, 3, 1000, &dp), 0, "fit: comp");
	is_int(dp, 500, "fit: K = 0.5");
	coll_new(&cc, "bcast", 1000, 2, 77);
	is_int(m->ops->coll(m->state, &cc), 10000, "fit: bcast on 2 ranks as fitted");
	cc.size = 8;
	is_int(m->ops->coll(m->state, &cc), 30000, "fit: 3 rounds on 8");
	coll_op(&cc, "scan");
	is_int(m->ops->coll(m->state, &cc), 77, "fit: no row, as recorded");
	is_int(m->ops->bound(m->state, 3, TRC_PHASE_COMP, 100, 1000), 600, "fit: bound of computation, K dt");
	is_int(m->ops->bound(m->state, 3, TRC_PHASE_SEND, 100, 1000), 100, "fit: bound of a fitted send");
	trc_model_free(m);

	/* fit after computation: send-cold 3 us + 1 ns b, isend 0.5 us,
	 * isend-cold 2 us, recv-late 1 us, recv-late-cold 4 us. */
	memset(&conf, 0, sizeof(conf));
	conf.path = file("c.fit", "send 0 inf 1e-6 1e-9\nsend-cold 0 inf 3e-6 1e-9\n"
	    "isend 0 inf 5e-7 0\nisend-cold 0 inf 2e-6 0\n"
	    "recv-late 0 inf 1e-6 0\nrecv-late-cold 0 inf 4e-6 0\n");
	m = model("fit", &conf);
	mp.bytes = 1000;
	mp.idle = TRC_COLD_NS - 1;
	m->ops->send(m->state, &mp, 0, 0, 50, &x);
	is_int(x.end, 2000, "fit: 19.999 us of computation: send 1 us + 1 ns b");
	is_int(m->ops->recv(m->state, &mp, 100, 7), 1100, "  recv-late 1 us");
	mp.idle = TRC_COLD_NS;
	m->ops->send(m->state, &mp, 0, 0, 50, &x);
	is_int(x.end, 4000, "fit: 20 us: send-cold 3 us + 1 ns b");
	is_int(m->ops->recv(m->state, &mp, 100, 7), 4100, "  recv-late-cold 4 us");
	mp.nonblocking = 1;
	m->ops->send(m->state, &mp, 0, 0, 50, &x);
	is_int(x.end, 2000, "  isend-cold 2 us");
	mp.idle = 0;
	m->ops->send(m->state, &mp, 0, 0, 50, &x);
	is_int(x.end, 500, "fit: no computation: isend 0.5 us");
	mp.nonblocking = 0;
	/* A handover: the receiver's share, recv-late, cold when the
	 * receiver came from 20 us of computation. */
	x.end = 0;
	m->ops->handover(m->state, &mp, 10000, &x);
	is_int(x.end, 11000, "fit: a handover to a warm receiver: ready + recv-late 1 us");
	mp.idle = TRC_COLD_NS;
	x.end = 0;
	m->ops->handover(m->state, &mp, 10000, &x);
	is_int(x.end, 14000, "fit: to a receiver from 20 us of computation: ready + recv-late-cold 4 us");
	mp.idle = 0;
	trc_model_free(m);

	/* A collective after computation: allreduce 1 us, allreduce-cold
	 * 9 us, on 2 ranks; cold since the last collective, and half way
	 * (5 us) when a send or receive came after the computation. */
	memset(&conf, 0, sizeof(conf));
	conf.path = file("cc.fit", "allreduce 0 inf 1e-6 0\n"
	    "allreduce-cold 0 inf 9e-6 0\n");
	m = model("fit", &conf);
	coll_new(&cc, "allreduce", 8, 2, 77);
	cc.idle = TRC_COLD_NS - 1;
	cc.idle_p2p = TRC_COLD_NS - 1;
	is_int(m->ops->coll(m->state, &cc), 1000, "fit: 19.999 us since the last collective: allreduce 1 us");
	cc.idle = cc.idle_p2p = TRC_COLD_NS;
	is_int(m->ops->coll(m->state, &cc), 9000, "fit: 20 us, the transport unused since: allreduce-cold 9 us");
	cc.idle_p2p = TRC_COLD_NS - 1;
	is_int(m->ops->coll(m->state, &cc), 5000, "fit: 20 us, a receive since: half way, 1 + (9 - 1) / 2 us");
	coll_op(&cc, "bcast");
	is_int(m->ops->coll(m->state, &cc), 77, "fit: no row, cold or warm: as recorded");
	trc_model_free(m);

	/* With the base's allreduce 2 us and allreduce-cold 10 us (and
	 * recv 1 us a message): as cold on the target as the recorded
	 * cost puts it between those, on p ranks both scaled alike. */
	if ((cbase = trc_fit_load(file("cb.fit", "recv 0 inf 1e-6 0\n"
	    "allreduce 0 inf 2e-6 0\nallreduce-cold 0 inf 10e-6 0\n"),
	    err, sizeof(err))) == NULL)
		return 2;
	conf.base = cbase;
	m = model("fit", &conf);
	coll_op(&cc, "allreduce");
	cc.idle = TRC_COLD_NS;
	cc.idle_p2p = 0;
	cc.d = 6000;
	is_int(m->ops->coll(m->state, &cc), 5000, "fit: recorded 6 us on a base of 2 to 10: half way, 1 + 0.5 (9 - 1) us");
	cc.d = 4000;
	cc.idle_p2p = TRC_COLD_NS;
	is_int(m->ops->coll(m->state, &cc), 3000, "fit: 4 us: a quarter, 1 + 2 us, the receive or not");
	cc.d = 1000;
	is_int(m->ops->coll(m->state, &cc), 1000, "fit: under the base's warm: warm");
	cc.d = 50000;
	is_int(m->ops->coll(m->state, &cc), 9000, "fit: over its cold: cold");
	cc.d = 50000;
	cc.idle = TRC_COLD_NS - 1;
	is_int(m->ops->coll(m->state, &cc), 1000, "fit: after less than 20 us of computation: warm, whatever it took");
	cc.idle = TRC_COLD_NS;
	cc.size = 4;
	cc.d = 12000;
	is_int(m->ops->coll(m->state, &cc), 10000, "fit: 4 ranks, two rounds of recursive doubling: base 4 to 20 us, 12: half way on 2 to 18 us");
	trc_model_free(m);
	conf.base = NULL;

	/* fit with ratios: a label no row matches says so. */
	memset(&conf, 0, sizeof(conf));
	conf.ratios = trc_ratios_load(file("r.tbl", "mode time\nIter.* all 2\n"), err, sizeof(err));
	m = model("fit", &conf);
	is_int(m->ops->comp(m->state, 0, 100, &dp), 1, "ratios: no label, no row");
	is_int(dp, 100, "  kept");
	is_int(m->ops->region(m->state, 0, &fn), 0, "ratios: region Iterate");
	is_int(m->ops->comp(m->state, 0, 100, &dp), 0, "  a row");
	is_int(dp, 200, "  K = 2");
	is_int(m->ops->region(m->state, 0, NULL), 0, "ratios: region ends");
	is_int(m->ops->comp(m->state, 0, 100, &dp), 1, "  no row again");
	trc_model_free(m);
	trc_ratios_free(conf.ratios);

	/* loggp: L = 1 us, o = 0.1 us, G = 1 ns, eager 4096, g = 5 us. */
	memset(&conf, 0, sizeof(conf));
	conf.path = file("n.loggp", "L 1e-6\no 1e-7\nG 1e-9\neager 4096\ng 5e-6\n");
	conf.base = base;
	m = model("loggp", &conf);
	ok(m != NULL, "loggp: built");
	mp.bytes = 1000;
	is_int(m->ops->send(m->state, &mp, 0, 0, 50, &x), 0, "loggp: send");
	is_int(x.end, 100, "loggp: a blocking eager send ends after o");
	is_int(x.arrive, 2200, "loggp: arrives o + L + G b + o later");
	is_int(x.base, 0, "loggp: left no earlier than its SB on the base");
	m->ops->send(m->state, &mp, 100, 0, 50, &x);
	is_int(x.depart, 5100, "loggp: the next leaves g after");
	mp.src = 3;
	mp.bytes = 8192;
	mp.nonblocking = 1;
	m->ops->send(m->state, &mp, 0, 0, 50, &x);
	is_int(x.end, 100, "loggp: an Isend ends after o");
	is_int(x.rdv, 1, "loggp: above the eager limit, handed over");
	m->ops->handover(m->state, &mp, 20000, &x);
	is_int(x.depart, 21200, "loggp: data leaves o + L + o after the receiver is ready");
	is_int(x.arrive, 30492, "loggp: arrives L + G b + o later");
	is_int(m->ops->recv(m->state, &mp, 5, 9999), 105, "loggp: a receive costs o");
	is_int(m->ops->wait(m->state, 0, 5, 9999, -1), 105, "loggp: a wait costs o");
	is_int(m->ops->bound(m->state, 0, TRC_PHASE_RECV, 5, 9999), 5, "loggp: bound no later than its costs");
	coll_op(&cc, "bcast");
	cc.bytes = 1000;
	cc.size = 8;
	is_int(m->ops->coll(m->state, &cc), 6600, "loggp: binomial bcast on 8, 3 (L + 2o + G b)");
	trc_model_free(m);

	/* loggp with oc = 2 us: calls after 20 us of computation. */
	memset(&conf, 0, sizeof(conf));
	conf.path = file("c.loggp", "L 1e-6\no 1e-7\nG 1e-9\noc 2e-6\n");
	m = model("loggp", &conf);
	ok(m != NULL, "loggp with oc: built");
	mp.src = 0;
	mp.bytes = 1000;
	mp.nonblocking = 0;
	mp.idle = TRC_COLD_NS;
	m->ops->send(m->state, &mp, 0, 0, 50, &x);
	is_int(x.end, 2100, "loggp: a cold send ends after o + oc");
	is_int(x.arrive, 4200, "  arrives L + G b + o later");
	is_int(m->ops->recv(m->state, &mp, 5, 9999), 2105, "loggp: a cold receive costs o + oc");
	mp.idle = TRC_COLD_NS - 1;
	is_int(m->ops->recv(m->state, &mp, 5, 9999), 105, "loggp: a warm one o");
	/* A handover to a receiver ready at 20 us: it answers after o,
	 * o + oc when it came from a computation; L, o later the data. */
	memset(&x, 0, sizeof(x));
	m->ops->handover(m->state, &mp, 20000, &x);
	is_int(x.depart, 21200, "loggp: a handover to a warm receiver, o + L + o");
	mp.idle = TRC_COLD_NS;
	memset(&x, 0, sizeof(x));
	m->ops->handover(m->state, &mp, 20000, &x);
	is_int(x.depart, 23200, "loggp: to a receiver from computation, o + oc + L + o");
	mp.idle = 0;
	coll_new(&cc, "allreduce", 8, 2, 0);
	warm = m->ops->coll(m->state, &cc);
	cc.idle = cc.idle_p2p = TRC_COLD_NS;
	is_int(m->ops->coll(m->state, &cc) - warm, 2000, "loggp: a cold allreduce costs oc more");
	cc.idle_p2p = 0;
	is_int(m->ops->coll(m->state, &cc) - warm, 1000, "  oc / 2 with a receive since the computation");
	trc_model_free(m);
	conf.base = cbase;
	m = model("loggp", &conf);
	cc.d = 4000;
	cc.idle_p2p = TRC_COLD_NS;
	is_int(m->ops->coll(m->state, &cc) - warm, 500, "  a quarter of oc when the base's allreduce ran a quarter of the way to cold");
	trc_model_free(m);
	/* occ, a collective's own cold overhead, 4 us: a quarter, 1 us. */
	conf.path = file("cc.loggp", "L 1e-6\no 1e-7\nG 1e-9\noc 2e-6\nocc 4e-6\n");
	m = model("loggp", &conf);
	is_int(m->ops->coll(m->state, &cc) - warm, 1000, "  with occ 4 us, a quarter of it");
	conf.base = NULL;
	trc_model_free(m);
	m = model("loggp", &conf);
	is_int(m->ops->coll(m->state, &cc) - warm, 4000, "  occ whole without the base's fits, the transport unused since");
	cc.idle_p2p = 0;
	is_int(m->ops->coll(m->state, &cc) - warm, 2000, "  occ / 2 with a receive since");
	trc_fit_free(cbase);
	trc_model_free(m);
	trc_fit_free(base);

	/* Errors. */
	memset(&conf, 0, sizeof(conf));
	ok(trc_model_new("nope", &conf, err, sizeof(err)) == NULL, "unknown model");
	is_str(err, "unknown model 'nope'", "  its message");
	conf.path = file("bad.loggp", "L 1e-6\no x\n");
	ok(trc_model_new("loggp", &conf, err, sizeof(err)) == NULL, "bad loggp file");
	ok(strstr(err, "bad.loggp:2: invalid value 'x' for 'o'") != NULL, "  its message");

	/* Open MPI 4.1's commutative allreduce rule, at its switch points. */
	/* Open MPI's rule says ring, and its ring hands fewer elements
	 * (of 4 bytes) than ranks to recursive doubling. */
	is_str(trc_coll_alg_name(trc_coll_alg("allreduce", 9, 2, 7)), "recursive_doubling", "allreduce 2 ranks 7 B: the rule's ring, 1 element: recursive doubling");
	is_str(trc_coll_alg_name(trc_coll_alg("allreduce", 9, 3, 8)), "recursive_doubling", "3 ranks 8 B: recursive doubling");
	is_str(trc_coll_alg_name(trc_coll_alg("allreduce", 9, 3, 262144)), "rabenseifner", "3 ranks 256 KiB: Rabenseifner");
	is_str(trc_coll_alg_name(trc_coll_alg("allreduce", 9, 8, 8191)), "recursive_doubling", "8 ranks 8191 B");
	is_str(trc_coll_alg_name(trc_coll_alg("allreduce", 9, 8, 8192)), "rabenseifner", "8 ranks 8192 B");
	is_str(trc_coll_alg_name(trc_coll_alg("allreduce", 9, 200, 131071)), "reduce_bcast", "200 ranks 128 KiB - 1: reduce + bcast");
	is_str(trc_coll_alg_name(trc_coll_alg("allreduce", 9, 3000, 3000)), "recursive_doubling", "3000 ranks 3000 B: the rule's (segmented) ring, 750 elements: recursive doubling");
	is_str(trc_coll_alg_name(trc_coll_alg("allreduce", 9, 2, 20000)), "ring", "2 ranks 20000 B: ring");
	is_str(trc_coll_alg_name(trc_coll_alg("allreduce", 9, 5000, 20000)), "recursive_doubling", "5000 ranks 20000 B");
	is_str(trc_coll_alg_name(trc_coll_alg("alltoallv", 9, 8, 1)), "pairwise", "alltoallv as alltoall");
	is_str(trc_coll_alg_name(trc_coll_alg("scan", 4, 8, 1)), "none", "scan: not modelled");

	snprintf(err, sizeof(err), "rm -rf %s", dir);
	if (system(err) != 0)
		return 2;
	return done_testing();
}
