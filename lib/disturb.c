/*
 * disturb.c - signs that another job disturbed a run (trc_disturb.h).
 *
 * The one sure sign is the CPU time: a rank that computes for 1 s of
 * wall time while another job holds its core gets less than 1 s of
 * CPU.  Its process's CPU time also counts what MPI spent, so the test
 * is conservative: it fires when even all of that CPU time would not
 * cover the computation.  A rank preempted while its partner waits for
 * it shows instead as a run far longer than the CPU time of its
 * busiest rank: on one host, waiting for a message is waiting for
 * another rank's CPU.  A procedure whose lifetimes vary far more
 * than a quiet run's (TRC_DISTURB_CV) shows a disturbance in part of
 * the run, which the totals average away.  Its first lifetime is left
 * out: there the program touches its memory for the first time, and
 * trc-heat's first Iterate on 480 x 480 takes 30 to 100 times its
 * shortest, every run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "trc_disturb.h"
#include "trc_summary.h"

/* The value of key= in the words of line [s, end), or NULL. */
static const char *
word(const char *s, const char *end, const char *key, size_t *len)
{
	size_t kl = strlen(key);
	const char *p, *e;

	for (p = s; p < end; p = e) {
		while (p < end && *p == ' ')
			p++;
		for (e = p; e < end && *e != ' '; e++)
			;
		if ((size_t)(e - p) > kl && memcmp(p, key, kl) == 0 &&
		    p[kl] == '=') {
			*len = (size_t)(e - p) - kl - 1;
			return p + kl + 1;
		}
	}
	return NULL;
}

static double
num(const char *s, const char *end, const char *key)
{
	char buf[64];
	const char *v;
	size_t n;
	char *stop;
	double d;

	if ((v = word(s, end, key, &n)) == NULL || n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, v, n);
	buf[n] = '\0';
	d = strtod(buf, &stop);
	return *stop == '\0' && d >= 0 ? d : -1;
}

static int64_t
secs(const char *s, const char *end, const char *key)
{
	const char *v;
	size_t n;
	int64_t t;

	if ((v = word(s, end, key, &n)) == NULL ||
	    trc_parse_time(v, n, &t) < 0)
		return -1;
	return t;
}

int
trc_runcond_parse(const struct trc_str *extra, struct trc_runcond *c)
{
	const char *at = NULL, *p, *eol;
	int64_t r, *v;
	int32_t n;

	memset(c, 0, sizeof(*c));
	c->load[0] = c->load[1] = c->steal = -1;
	while (trc_extra_line(extra, &at, "#", &p, &eol)) {
		if (eol - p > 5 && memcmp(p, "load ", 5) == 0) {
			c->load[0] = num(p + 5, eol, "start");
			c->load[1] = num(p + 5, eol, "end");
			c->steal = num(p + 5, eol, "steal");
			c->cpus = (long)num(p + 5, eol, "cpus");
			if (c->cpus < 0)
				c->cpus = 0;
		} else if (eol - p > 4 && memcmp(p, "cpu ", 4) == 0) {
			if ((r = (int64_t)num(p + 4, eol, "rank")) < 0 ||
			    r > 1 << 24)
				continue;
			if (r >= c->n) {
				n = (int32_t)r + 1;
				if ((v = realloc(c->cpu, 2 * (size_t)n *
				    sizeof(*v))) == NULL)
					return -1;
				c->cpu = v;
				/* cpu and wall share the array: halves. */
				memmove(v + n, v + c->n, (size_t)c->n * sizeof(*v));
				for (; c->n < n; c->n++)
					v[c->n] = v[n + c->n] = -1;
				c->wall = v + n;
			}
			c->cpu[r] = secs(p + 4, eol, "cpu");
			c->wall[r] = secs(p + 4, eol, "wall");
		}
	}
	return 0;
}

int
trc_own_parse(const struct trc_str *extra, struct trc_own *o)
{
	const char *at = NULL, *p, *eol;

	if (!trc_extra_line(extra, &at, "#own ", &p, &eol))
		return 0;
	return (o->read = secs(p, eol, "read")) < 0 ||
	    (o->line = secs(p, eol, "line")) < 0 ||
	    (o->skip = secs(p, eol, "skip")) < 0 ? -1 : 1;
}

void
trc_runcond_free(struct trc_runcond *c)
{
	free(c->cpu);
	c->cpu = c->wall = NULL;
	c->n = 0;
}

/* The host's load, as the end of a sentence, or "". */
static void
load_words(const struct trc_runcond *c, char *load, size_t len)
{
	*load = '\0';
	if (c->load[0] >= 0 && c->cpus > 0)
		snprintf(load, len, "; the host's load average %.2f at the "
		    "start, %.2f at the end, on %ld CPUs", c->load[0],
		    c->load[1], c->cpus);
}

static int
steal_sign(const struct trc_runcond *c, void (*say)(void *, const char *),
    void *arg)
{
	char msg[128];

	if (!(c->steal > TRC_DISTURB_STEAL))
		return 0;
	snprintf(msg, sizeof(msg), "the hypervisor stole %.1f%% of the host's "
	    "CPU time", c->steal);
	say(arg, msg);
	return 1;
}

int
trc_runcond_busy(const struct trc_runcond *c,
    void (*say)(void *, const char *), void *arg)
{
	char msg[512], load[96];
	int32_t r;
	int n = 0;

	load_words(c, load, sizeof(load));
	for (r = 0; r < c->n; r++) {
		/* Under 10 ms, the clocks' grain decides. */
		if (c->cpu[r] < 0 || c->wall[r] < 10000000 ||
		    (double)c->cpu[r] >= TRC_DISTURB_CPU * (double)c->wall[r])
			continue;
		snprintf(msg, sizeof(msg), "rank %ld was on a CPU for %.0f%% of "
		    "its time (CPU %.6f s, wall %.6f s)%s", (long)r,
		    100.0 * (double)c->cpu[r] / (double)c->wall[r],
		    c->cpu[r] / 1e9, c->wall[r] / 1e9, load);
		say(arg, msg);
		n++;
	}
	return n + steal_sign(c, say, arg);
}

int
trc_disturbed(const struct trc_runcond *c, const struct trc_summary *s,
    void (*say)(void *, const char *), void *arg)
{
	const struct trc_stat *st;
	char msg[512], load[96];
	int64_t comp, span, maxcpu, maxwall;
	int32_t i, r, l;
	int n = 0;
	double cv;

	load_words(c, load, sizeof(load));
	for (r = 0; r < c->n && r < s->nranks; r++) {
		comp = s->rank[r].act[TRC_ACT_COMP];
		/* Under a millisecond, the clocks' grain decides. */
		if (c->cpu[r] < 0 || comp < 1000000 ||
		    (double)c->cpu[r] >= TRC_DISTURB_CPU * (double)comp)
			continue;
		snprintf(msg, sizeof(msg), "rank %ld was on a CPU for %.0f%% of "
		    "its computation's time (CPU %.6f s, computation %.6f s)%s",
		    (long)r, 100.0 * (double)c->cpu[r] / (double)comp,
		    c->cpu[r] / 1e9, comp / 1e9, load);
		say(arg, msg);
		n++;
	}
	for (r = 0, maxcpu = maxwall = -1; r < c->n; r++) {
		if (c->cpu[r] > maxcpu)
			maxcpu = c->cpu[r];
		if (c->wall[r] > maxwall)
			maxwall = c->wall[r];
	}
	if (maxcpu > 0 && maxwall >= 10000000 &&
	    (double)maxwall > TRC_DISTURB_WALL * (double)maxcpu) {
		snprintf(msg, sizeof(msg), "it lasted %.6f s, %.1f times the "
		    "CPU time of its busiest rank (%.6f s): its ranks waited "
		    "for cores%s", maxwall / 1e9, (double)maxwall /
		    (double)maxcpu, maxcpu / 1e9, load);
		say(arg, msg);
		n++;
	}
	n += steal_sign(c, say, arg);
	for (l = 0; l < s->labels.n; l++)
		for (i = 0; i < s->npresent; i++) {
			r = s->present[i];
			st = &s->life[l][r];
			span = s->rank[r].events ? s->rank[r].last -
			    s->rank[r].first : 0;
			if (st->n < 3 || span <= 0 ||
			    (double)st->total < TRC_VS_MINOR * (double)span ||
			    (cv = trc_stat_cv_rest(st)) <= TRC_DISTURB_CV)
				continue;
			snprintf(msg, sizeof(msg), "procedure %s on rank %ld: "
			    "its lifetimes past the first vary, cv %.2f over "
			    "%.2f (max/min %.1f, %lld occurrences, %.0f%% of "
			    "the rank's time)",
			    s->labels.name[l], (long)r, cv, TRC_DISTURB_CV,
			    st->min > 0 ? (double)st->max / (double)st->min : 0,
			    (long long)st->n, 100.0 * (double)st->total /
			    (double)span);
			say(arg, msg);
			n++;
		}
	return n;
}
