/*
 * trace.c - the core of libtrc-mpi: clock, per-rank buffer, regions,
 * request table, communicator ids, delay injection, and the merge of
 * the rank files into one sorted stream at MPI_Finalize.
 *
 * Each rank appends its events, already formatted as stream lines, to
 * a buffer of TRC_BUFSIZE bytes, written to DIR/rank.N whenever it
 * fills; DIR is made next to TRC_OUT by rank 0 at MPI_Init.  Until
 * MPI_Finalize has merged the rank files, TRC_OUT holds a
 * "#trc-partial" placeholder that no trc reader accepts, so a run
 * that dies leaves a clear mark instead of a silently short trace.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "trace.h"
#include "trc_calls.h"
#include "trc_hostcond.h"
#include "trcb.h"

#define DEFAULT_OUT	"trace.trc"
#define DEFAULT_BUFSIZE	(4 << 20)
#define MAXREGION	64
#define LINEMAX		512	/* room for any line but a long req= list */

int	 tr_on;
int	 tr_rank;
int	 tr_depth;

static int	 nranks;
static int	 outfmt;	/* TRC_FORMAT: 0 text, 1 trcb, 2 trcb-zstd */
static int	 format_of(const char *);
static clockid_t clk = CLOCK_REALTIME;
static int64_t	 origin, last;
static char	*buf;
static size_t	 cap, len;
static int	 fd = -1;
static int	 werr;		/* errno of the first failed write */
static int64_t	 polls, pollns;	/* unsuccessful polls, and their time */
static int64_t	 pollcpu;	/* and their CPU time, TRC_CLOCK=cpu */
static int	 polled, anypolled;	/* this rank, any rank polled */
/*
 * TRC_CLOCK=cpu: the thread's CPU clock read with the wall clock, so
 * that every event says the CPU time since the rank's last one (cpu=).
 * An event may be written at a time read a little earlier: the last
 * readings are kept to pair it with the CPU time read with it.
 */
static int	 cpumode;
static int64_t	 cpu_last, cpu_delta;
static int64_t	 cpu_flushed;	/* the tracer's own time (its writes,
				 * readings, lines), not counted */
/*
 * The CPU clock is a system call, 174 ns on one host and 2.4 us on a
 * guest of nested paging (the wall clock: 16 and 42 ns, through the
 * vDSO), and most intervals between two events are shorter than a few
 * microseconds (69-84% in make validate's heat runs).  So it is read
 * only once CPU_SKIP_NS of wall time have passed since its last
 * reading ended, at cpu_readt (-1: none yet, or a write since), when
 * the CPU time was cpu_readv; before, the thread is taken to have run
 * all along.  That misses only a thread that lost its core for part of
 * so short a stretch, by less than it.  A reading's own time is left
 * out, as a write's is: counted, it would land on one interval in
 * several, not on each as when every event read the clock.
 */
#define CPU_SKIP_NS	5000
static int64_t	 cpu_readt = -1, cpu_readv;
static int64_t	 cpu_flushed_read;	/* cpu_flushed at that reading */
/*
 * The tracer's own time after an event's time was read (its line made,
 * on the wall clock from ev_t, or from ev_done when a line or a reading
 * ended later) is left out too: after a call's last event it would
 * land on the computation that follows, which a program of pure
 * communication has none of (t/mpi/sendrecv's cpu= summed to 0.21 of
 * the wall time between its calls, 0.05 without), and a benchmark made
 * from the trace would spend it again beside its own tracer's.
 */
static int64_t	 ev_t, ev_done = -1;
/*
 * Those two kinds of own time, for the header's #own line: what a
 * prediction of a traced run adds back (trc-scale --traced).  Counted
 * in histograms, OWN_BINS bins of OWN_READ_BIN or OWN_LINE_BIN ns (the
 * last holds the rest), for their medians: on a core two ranks share a
 * reading now and then lasts the other rank's turn, which is not the
 * tracer's cost (a mean of 3.8 us there, 1.9 on a core of its own).
 */
#define OWN_BINS	256
#define OWN_READ_BIN	100
#define OWN_LINE_BIN	10
static int64_t	 own_hist[2][OWN_BINS];	/* [0] readings, [1] lines */

static void
own_count(int which, int64_t ns)
{
	int64_t i = ns / (which == 0 ? OWN_READ_BIN : OWN_LINE_BIN);

	own_hist[which][i < OWN_BINS ? i : OWN_BINS - 1]++;
}

static struct { int64_t t, cpu; } cpuring[8];
static unsigned	 cpuhead;
static char	 rankstr[16];
static size_t	 ranklen;
static char	 out[PATH_MAX], dir[PATH_MAX + 16], rankfile[PATH_MAX + 48];
static char	 region[MAXREGION][128];
static int	 nregion;	/* may exceed MAXREGION: deeper ones unnamed */
static int64_t	 nextreq = 1;
static MPI_Group worldgroup = MPI_GROUP_NULL;

static void	 fatal(const char *, ...) __attribute__((format(printf, 1, 2)));
static void	 cond_start(void);
static void	 cond_finish(void);
static void	 cond_write(FILE *);

static void
fatal(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "libtrc-mpi: rank %d: ", tr_rank);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	PMPI_Abort(MPI_COMM_WORLD, 2);
	_exit(2);
}

/*
 * The thread's CPU time less what the tracer spent writing its buffer
 * out: a write of megabytes lands between two calls, and counted it
 * would be computation the program did not do (milliseconds, that a
 * benchmark made from the trace would spend again beside its own).
 */
static int64_t
cpu_read(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec - cpu_flushed;
}

/* The wall clock, ns since the origin; unclamped. */
static int64_t
wall_read(void)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec - origin;
}

int64_t
tr_now(void)
{
	int64_t t = wall_read();

	/* A rank's events stay in order even if the wall clock steps back. */
	if (t < last)
		t = last;
	last = t;
	if (cpumode) {
		cpuhead = (cpuhead + 1) % 8;
		cpuring[cpuhead].t = t;
		if (cpu_readt < 0 || t - cpu_readt >= CPU_SKIP_NS) {
			int64_t c = cpu_read(), own;

			cpu_readt = wall_read();
			own = cpu_readt > t ? cpu_readt - t : 0;
			cpu_flushed += own;
			own_count(0, own);
			cpu_flushed_read = cpu_flushed;
			cpu_readv = c - own;
			cpuring[cpuhead].cpu = cpu_readv;
			ev_done = cpu_readt;
		} else {
			int64_t ran = (t > cpu_readt ? t - cpu_readt : 0) -
			    (cpu_flushed - cpu_flushed_read);

			cpuring[cpuhead].cpu = cpu_readv + (ran > 0 ? ran : 0);
		}
	}
	return t;
}

/* The thread's CPU time read with wall time t, or now when none was. */
static int64_t
cpu_at(int64_t t)
{
	unsigned i, k;

	for (i = 0; i < 8; i++) {
		k = (cpuhead + 8 - i) % 8;
		if (cpuring[k].t == t && cpuring[k].cpu != 0)
			return cpuring[k].cpu;
	}
	return cpu_read();
}

/* Write all of p to fd; async-signal-safe. */
static int
writeall(int f, const char *p, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = write(f, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void
flush(void)
{
	int64_t c0 = cpumode ? cpu_read() : 0;

	if (fd >= 0 && len > 0 && writeall(fd, buf, len) < 0 && werr == 0)
		werr = errno;
	len = 0;
	if (cpumode) {
		cpu_flushed += cpu_read() - c0;
		cpu_readt = -1;		/* the next reading is a real one */
		ev_done = wall_read();	/* the write counted, not again */
	}
}

/* ns as seconds with 9 decimals, by hand: 4x faster than printf. */
static char *
put_secs(char *p, int64_t t)
{
	char num[24];
	int64_t s = t / 1000000000, ns = t % 1000000000;
	int i, n;

	n = 0;
	do
		num[n++] = '0' + s % 10;
	while ((s /= 10) > 0);
	while (n > 0)
		*p++ = num[--n];
	*p++ = '.';
	for (i = 8; i >= 0; i--) {
		p[i] = '0' + ns % 10;
		ns /= 10;
	}
	return p + 9;
}

char *
ev_start(int64_t t, const char *kind, size_t extra)
{
	char *p;
	int64_t c;

	if (len + LINEMAX + extra > cap) {
		flush();
		if (LINEMAX + extra > cap) {
			char *nb = realloc(buf, LINEMAX + extra);
			if (nb == NULL)
				fatal("out of memory");
			buf = nb;
			cap = LINEMAX + extra;
		}
	}
	p = put_secs(buf + len, t);
	if (cpumode) {
		ev_t = t;
		c = cpu_at(t);
		cpu_delta = c > cpu_last ? c - cpu_last : 0;
		cpu_last = c;
	}
	memcpy(p, rankstr, ranklen);
	p += ranklen;
	*p++ = ' ';
	*p++ = kind[0];
	*p++ = kind[1];
	return p;
}

void
ev_end(char *p)
{
	if (polls > 0) {
		p = put_int(p, " polls=", polls);
		p = put_secs(put_str(p, " pollt="), pollns);
		if (cpumode)
			p = put_secs(put_str(p, " pollcpu="), pollcpu);
		polls = pollns = pollcpu = 0;
	}
	if (cpumode)
		p = put_secs(put_str(p, " cpu="), cpu_delta);
	*p++ = '\n';
	/* Committed only now: a signal handler writes whole lines only. */
	len = (size_t)(p - buf);
	if (cpumode) {
		int64_t now = wall_read(), from = ev_done > ev_t ? ev_done : ev_t;

		if (now > from)
			cpu_flushed += now - from;
		own_count(1, now > from ? now - from : 0);
		ev_done = now;
	}
}

char *
put_str(char *p, const char *s)
{
	while (*s != '\0')
		*p++ = *s++;
	return p;
}

char *
put_int(char *p, const char *key, int64_t v)
{
	char num[24];
	uint64_t u;
	int n = 0;

	p = put_str(p, key);
	if (v < 0)
		*p++ = '-';
	u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	do
		num[n++] = '0' + u % 10;
	while ((u /= 10) > 0);
	while (n > 0)
		*p++ = num[--n];
	return p;
}

char *
put_peer(char *p, const char *key, int v)
{
	if (v == -2) {
		p = put_str(p, key);
		*p++ = '*';
		return p;
	}
	return put_int(p, key, v);
}

void
tr_poll(int64_t t0)
{
	int64_t c0;

	if (cpumode) {
		c0 = cpu_at(t0);
		pollns += tr_now() - t0;
		if (cpuring[cpuhead].cpu > c0)
			pollcpu += cpuring[cpuhead].cpu - c0;
	} else
		pollns += tr_now() - t0;
	polls++;
	polled = 1;
}

/* Regions ------------------------------------------------------------ */

void
tr_region(int open, const char *name)
{
	char clean[128], *p;
	size_t i;

	/* fn= is one token: blanks and '=' would break the line. */
	for (i = 0; name != NULL && name[i] != '\0' && i < sizeof(clean) - 1; i++)
		clean[i] = (name[i] == ' ' || name[i] == '\t' ||
		    name[i] == '\n' || name[i] == '=') ? '_' : name[i];
	clean[i] = '\0';
	if (i == 0)
		strcpy(clean, "?");
	if (open) {
		p = ev_start(tr_now(), "PB", 0);
		p = put_str(put_str(p, " fn="), clean);
		ev_end(p);
		if (nregion < MAXREGION)
			memcpy(region[nregion], clean, strlen(clean) + 1);
		nregion++;
		tr_delay("pb");
	} else {
		tr_delay("pe");
		p = ev_start(tr_now(), "PE", 0);
		p = put_str(put_str(p, " fn="), clean);
		ev_end(p);
		if (nregion > 0)
			nregion--;
	}
}

/* Delay injection ---------------------------------------------------- */

/*
 * TRC_DELAY: specs separated by ';', each a list of key=value
 * separated by ',':
 *	call=NAME	a wrapped call (send, allreduce, ...; pb, pe for a
 *			region's begin or end; * for any); required
 *	ranks=LIST	ranks, as 0,2-3; default all
 *	region=NAME	only while region NAME is open; default anywhere
 *	occ=A-B		only the A-th to B-th matching call on the rank
 *			(1-based; A, A-, -B); default all
 *	delay=SECONDS	busy-wait this long; required
 * The delay runs after the call's begin event and before the call, so
 * the call's interval grows by the delay.
 */
struct delay {
	char	 call[32];
	char	 region[128];
	char	*ranks;
	char	*spec;		/* as given, for the trace's header */
	long	 occlo, occhi, seen;
	long	 fired;		/* delays made; all ranks' at the merge */
	int64_t	 ns;
};

static struct delay *delays;
static int ndelay;

static int
inranks(const char *list, int r)
{
	const char *p = list;
	char *end;
	long a, b;

	while (*p != '\0') {
		a = strtol(p, &end, 10);
		b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (r >= a && r <= b)
			return 1;
		p = *end == ':' ? end + 1 : end;
	}
	return 0;
}

static int
parse_range(const char *s, long *lo, long *hi)
{
	char *end;

	*lo = 1;
	*hi = LONG_MAX;
	if (*s != '-') {
		*lo = strtol(s, &end, 10);
		if (end == s || *lo < 1)
			return -1;
		s = end;
		if (*s == '\0') {
			*hi = *lo;
			return 0;
		}
		if (*s != '-')
			return -1;
	}
	s++;
	if (*s == '\0')
		return 0;
	*hi = strtol(s, &end, 10);
	return (end == s || *end != '\0' || *hi < *lo) ? -1 : 0;
}

static int
valid_ranks(const char *s)
{
	char *end;

	while (*s != '\0') {
		if (strtol(s, &end, 10) < 0 || end == s)
			return 0;
		if (*end == '-') {
			s = end + 1;
			if (strtol(s, &end, 10) < 0 || end == s)
				return 0;
		}
		if (*end == '\0')
			return 1;
		if (*end != ':')
			return 0;
		s = end + 1;
	}
	return 0;
}

/* Whether a delay can fire on the call: a typo must not pass. */
static int
known_call(const char *call)
{
	static const char *const calls[] = { "*", TRC_CALLS_DELAYED };
	size_t i;

	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (strcmp(call, calls[i]) == 0)
			return 1;
	return 0;
}

/* Returns NULL, or a message naming what is wrong. */
static const char *
parse_delays(const char *spec)
{
	static char msg[256];
	char *copy, *s, *save1, *kv, *save2, *val, *end;
	struct delay *d;
	double sec;

	if ((copy = strdup(spec)) == NULL)
		return "out of memory";
	for (s = strtok_r(copy, ";", &save1); s != NULL;
	    s = strtok_r(NULL, ";", &save1)) {
		delays = realloc(delays, (ndelay + 1) * sizeof(*delays));
		if (delays == NULL)
			return "out of memory";
		d = &delays[ndelay++];
		memset(d, 0, sizeof(*d));
		d->occlo = 1;
		d->occhi = LONG_MAX;
		d->ns = -1;
		if ((d->spec = strdup(s)) == NULL)
			return "out of memory";
		for (kv = strtok_r(s, ",", &save2); kv != NULL;
		    kv = strtok_r(NULL, ",", &save2)) {
			if ((val = strchr(kv, '=')) == NULL) {
				snprintf(msg, sizeof(msg), "missing '=' in '%s'", kv);
				return msg;
			}
			*val++ = '\0';
			if (strcmp(kv, "call") == 0 && strlen(val) < sizeof(d->call))
				strcpy(d->call, val);
			else if (strcmp(kv, "region") == 0 &&
			    strlen(val) < sizeof(d->region))
				strcpy(d->region, val);
			else if (strcmp(kv, "ranks") == 0) {
				/* ',' separates keys: ranks lists use ':' */
				if (!valid_ranks(val))
					goto bad;
				d->ranks = strdup(val);
			} else if (strcmp(kv, "occ") == 0) {
				if (parse_range(val, &d->occlo, &d->occhi) < 0)
					goto bad;
			} else if (strcmp(kv, "delay") == 0) {
				errno = 0;
				sec = strtod(val, &end);
				if (end == val || *end != '\0' || errno != 0 ||
				    !(sec >= 0) || sec > 1e6)
					goto bad;
				d->ns = (int64_t)(sec * 1e9 + 0.5);
			} else {
				snprintf(msg, sizeof(msg), "unknown key '%s'", kv);
				return msg;
			}
			continue;
bad:
			snprintf(msg, sizeof(msg), "invalid %s '%s'", kv, val);
			return msg;
		}
		if (d->call[0] == '\0')
			return "a spec without call=";
		if (!known_call(d->call)) {
			snprintf(msg, sizeof(msg), "unknown or never delayed "
			    "call '%s' (libtrc-mpi(7) lists the calls)", d->call);
			return msg;
		}
		if (d->ns < 0)
			return "a spec without delay=";
	}
	free(copy);
	return NULL;
}

static int
region_open(const char *name)
{
	int i, n = nregion < MAXREGION ? nregion : MAXREGION;

	for (i = 0; i < n; i++)
		if (strcmp(region[i], name) == 0)
			return 1;
	return 0;
}

void
tr_delay(const char *call)
{
	struct delay *d;
	struct timespec ts;
	int64_t until, now;
	int i;

	if (ndelay == 0)
		return;
	for (i = 0; i < ndelay; i++) {
		d = &delays[i];
		if ((strcmp(d->call, call) != 0 && strcmp(d->call, "*") != 0) ||
		    (d->ranks != NULL && !inranks(d->ranks, tr_rank)) ||
		    (d->region[0] != '\0' && !region_open(d->region)))
			continue;
		d->seen++;
		if (d->seen < d->occlo || d->seen > d->occhi)
			continue;
		d->fired++;
		/* Busy-wait: a sleep would yield the core and blur the delay. */
		clock_gettime(CLOCK_MONOTONIC, &ts);
		until = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + d->ns;
		do {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			now = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
		} while (now < until);
	}
}

/* Requests ----------------------------------------------------------- */

/*
 * Open addressing keyed by the handle's bits.  MPI reuses a handle
 * only after its request is freed, when the tracer has removed it, but
 * one handle may stand for several live requests: Open MPI hands every
 * send that completed at once (eager, over shared memory) the same
 * static "empty" request.  Such a handle has one slot per request,
 * told apart by id, oldest first: the k-th time it appears in a
 * request array it names its k-th oldest request (tr_req_claim).
 */
struct slot {
	uint64_t	 key;
	int		 state;		/* 0 empty, 1 full, 2 deleted */
	unsigned	 round;		/* the claim round that took it */
	struct req_info	 info;
};

static struct slot *slots;
static size_t nslot, nused;	/* nused counts full and deleted */

static uint64_t
handle_key(const MPI_Request *r)
{
	uint64_t k = 0;

	memcpy(&k, r, sizeof(*r) < sizeof(k) ? sizeof(*r) : sizeof(k));
	return k;
}

static size_t
hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (size_t)k;
}

/*
 * The oldest (smallest id) full slot of key k not claimed in the
 * claim round 'round' (0: any), or with id > 0 the slot of that id;
 * NULL when none.  A persistent request not started has id 0 and a
 * handle of its own.
 */
static struct slot *
find(uint64_t k, int64_t id, unsigned round)
{
	struct slot *best = NULL;
	size_t i;

	if (nslot == 0)
		return NULL;
	for (i = hash(k) & (nslot - 1); slots[i].state != 0;
	    i = (i + 1) & (nslot - 1))
		if (slots[i].state == 1 && slots[i].key == k &&
		    (id > 0 ? slots[i].info.id == id :
		    round == 0 || slots[i].round != round) &&
		    (best == NULL || slots[i].info.id < best->info.id))
			best = &slots[i];
	return best;
}

static void
grow(void)
{
	struct slot *old = slots;
	size_t i, j, n = nslot;

	nslot = nslot == 0 ? 64 : nslot * 2;
	/* Only full slots move over, so a rehash also clears tombstones. */
	while (n > 0 && nused * 4 < nslot && nslot > 64)
		nslot /= 2;
	if ((slots = calloc(nslot, sizeof(*slots))) == NULL)
		fatal("out of memory");
	nused = 0;
	for (i = 0; i < n; i++)
		if (old[i].state == 1) {
			for (j = hash(old[i].key) & (nslot - 1);
			    slots[j].state != 0; j = (j + 1) & (nslot - 1))
				;
			slots[j] = old[i];
			nused++;
		}
	free(old);
}

int64_t
tr_req_new(void)
{
	return nextreq++;
}

void
tr_req_put(const MPI_Request *r, const struct req_info *info)
{
	uint64_t k = handle_key(r);
	struct slot *s;
	size_t i;

	/* MPI_Start: a persistent request's slot takes its new id. */
	if (info->persistent && (s = find(k, 0, 0)) != NULL &&
	    s->info.persistent) {
		s->info = *info;
		return;
	}
	if ((nused + 1) * 2 > nslot)
		grow();
	for (i = hash(k) & (nslot - 1); slots[i].state == 1;
	    i = (i + 1) & (nslot - 1))
		;
	if (slots[i].state == 0)
		nused++;
	slots[i].key = k;
	slots[i].state = 1;
	slots[i].info = *info;
}

/* The slot of a tracked request, or NULL: as find(). */
static struct slot *
req_slot(const MPI_Request *r, int64_t id, unsigned round)
{
	return *r == MPI_REQUEST_NULL ? NULL : find(handle_key(r), id, round);
}

int
tr_req_find(const MPI_Request *r, struct req_info *info)
{
	struct slot *s;

	if ((s = req_slot(r, 0, 0)) == NULL)
		return 0;
	*info = s->info;
	return s->info.id > 0 ? 1 : 2;
}

unsigned
tr_req_round(void)
{
	static unsigned round;

	if (++round == 0)
		round = 1;
	return round;
}

int
tr_req_claim(const MPI_Request *r, unsigned round, struct req_info *info)
{
	struct slot *s;

	if ((s = req_slot(r, 0, round)) == NULL)
		return 0;
	s->round = round;
	*info = s->info;
	return s->info.id > 0 ? 1 : 2;
}

int
tr_req_take(const MPI_Request *r, int64_t id)
{
	struct slot *s;

	if ((s = req_slot(r, id, 0)) == NULL || s->info.id == 0)
		return 0;
	/* A persistent request keeps its handle and waits for a Start. */
	if (s->info.persistent)
		s->info.id = 0;
	else
		s->state = 2;
	return 1;
}

void
tr_req_forget(const MPI_Request *r)
{
	struct slot *s;

	if ((s = req_slot(r, 0, 0)) != NULL)
		s->state = 2;
}

/* Matched messages ----------------------------------------------------- */

/*
 * Between MPI_Mprobe and MPI_Mrecv a message is held by its handle;
 * few are at once, so a short list does.
 */
struct msg_ent {
	MPI_Message	 h;
	struct msg_info	 info;
};

static struct msg_ent *msgs;
static int nmsg, capmsg;

void
tr_msg_put(MPI_Message h, const struct msg_info *info)
{
	struct msg_ent *m;

	if (nmsg == capmsg) {
		capmsg = capmsg ? 2 * capmsg : 8;
		if ((m = realloc(msgs, (size_t)capmsg * sizeof(*m))) == NULL)
			fatal("out of memory");
		msgs = m;
	}
	msgs[nmsg].h = h;
	msgs[nmsg++].info = *info;
}

int
tr_msg_take(MPI_Message h, struct msg_info *info)
{
	int i;

	for (i = nmsg - 1; i >= 0; i--)
		if (msgs[i].h == h) {
			*info = msgs[i].info;
			msgs[i] = msgs[--nmsg];
			return 1;
		}
	return 0;
}

/* Communicators ------------------------------------------------------ */

/*
 * comm= ids must agree across a communicator's members without a global
 * registry.  A new communicator's id is (B - 1) * N + L + 1 for N world
 * ranks: L is its least world rank, which every member finds in its
 * group, and B is L's own "next id", which L moves past and broadcasts
 * on the new communicator.  Two communicators with the same least rank
 * differ in B, the others in L: ids never repeat in a run, so the
 * collectives of two communicators are never taken for one's
 * (trc-scale matches them by id and order).
 *
 * MPI_COMM_SELF needs no broadcast (its rank is its L) and takes its id
 * when first used.  MPI_Comm_idup cannot wait for a broadcast on a
 * communicator not made yet: L's B goes in an MPI_Ibcast on the parent,
 * posted at once by every member (collectives on a communicator come in
 * one order on all its members), and awaited when the new communicator
 * is first used, by which time every member has posted it.  A
 * communicator made by a call the tracer does not wrap (MPI_Comm_spawn,
 * MPI_Comm_connect, ...) gets a hash of its members' world ranks at or
 * above HASHED, which agrees as long as no two such communicators have
 * the same members.
 */
#define HASHED	(1 << 30)

struct pending {		/* the broadcast of an idup's B */
	MPI_Request	 req;
	int		 b;
};

struct comm_ent {
	MPI_Comm	 h;
	int		 id;
	int		 size;		/* both groups of an intercommunicator */
	int		 least;		/* L */
	MPI_Group	 g;		/* the group its ranks name (the remote
					   one of an intercommunicator) */
	struct pending	*pend;		/* an idup's, until its B is known */
};

static struct comm_ent *comms;
static int ncomm, nextcomm = 1;

static struct comm_ent *
comm_find(MPI_Comm c)
{
	int i;

	for (i = 0; i < ncomm; i++)
		if (comms[i].h == c)
			return &comms[i];
	return NULL;
}

/* A fresh entry for c, replacing any stale one of a reused handle. */
static struct comm_ent *
comm_add(MPI_Comm c)
{
	struct comm_ent *e;

	if ((e = comm_find(c)) != NULL) {
		if (e->g != MPI_GROUP_NULL)
			PMPI_Group_free(&e->g);
		free(e->pend);
	} else {
		e = realloc(comms, (ncomm + 1) * sizeof(*comms));
		if (e == NULL)
			fatal("out of memory");
		comms = e;
		e = &comms[ncomm++];
	}
	memset(e, 0, sizeof(*e));
	e->h = c;
	e->g = MPI_GROUP_NULL;
	return e;
}

/* The world ranks of g's members, in its order (free() them). */
static int *
world_ranks(MPI_Group g, int *n)
{
	int *in, *out, i;

	PMPI_Group_size(g, n);
	in = malloc((size_t)(*n > 0 ? *n : 1) * sizeof(*in));
	out = malloc((size_t)(*n > 0 ? *n : 1) * sizeof(*out));
	if (in == NULL || out == NULL)
		fatal("out of memory");
	for (i = 0; i < *n; i++)
		in[i] = i;
	PMPI_Group_translate_ranks(g, *n, in, worldgroup, out);
	free(in);
	return out;
}

/* The least world rank in g, and its rank in g; INT_MAX when none. */
static int
least_of(MPI_Group g, int *where)
{
	int *w, n, i, l = INT_MAX;

	w = world_ranks(g, &n);
	for (i = 0; i < n; i++)
		if (w[i] != MPI_UNDEFINED && w[i] < l) {
			l = w[i];
			*where = i;
		}
	free(w);
	return l;
}

static int
make_id(int b, int least)
{
	int64_t id = (int64_t)(b - 1) * nranks + least + 1;

	/* Past 2^30 ids (never in practice) they repeat, but stay valid. */
	return (int)(id < HASHED ? id : 1 + (id - 1) % (HASHED - 1));
}

/* An id for a communicator the tracer did not see made. */
static void
comm_unknown(struct comm_ent *e, MPI_Comm c)
{
	uint64_t h = 14695981039346656037ULL;
	MPI_Group g;
	int inter, n, i, k, *w;

	if (c == MPI_COMM_SELF) {
		PMPI_Comm_group(c, &e->g);
		e->size = 1;
		e->least = tr_rank;
		e->id = make_id(nextcomm++, tr_rank);
		return;
	}
	PMPI_Comm_test_inter(c, &inter);
	PMPI_Comm_group(c, &g);
	e->g = g;
	if (inter)
		PMPI_Comm_remote_group(c, &e->g);
	e->size = 0;
	for (k = 0; k < 1 + inter; k++) {
		w = world_ranks(k == 0 ? g : e->g, &n);
		for (i = 0; i < n; i++)
			h = (h ^ (uint32_t)w[i]) * 1099511628211ULL;
		h = (h ^ 0xff) * 1099511628211ULL;
		e->size += n;
		free(w);
	}
	if (inter)
		PMPI_Group_free(&g);
	e->least = -1;
	e->id = HASHED | (int)((h ^ (h >> 32)) & (HASHED - 1));
}

static void
comm_resolve(struct comm_ent *e)
{
	PMPI_Wait(&e->pend->req, MPI_STATUS_IGNORE);
	e->id = make_id(e->pend->b, e->least);
	free(e->pend);
	e->pend = NULL;
}

/* c's entry, made now for MPI_COMM_SELF and unknown ones; NULL for world. */
static struct comm_ent *
comm_get(MPI_Comm c)
{
	struct comm_ent *e;

	if (c == MPI_COMM_WORLD || c == MPI_COMM_NULL)
		return NULL;
	if ((e = comm_find(c)) == NULL)
		comm_unknown(e = comm_add(c), c);
	if (e->pend != NULL)
		comm_resolve(e);
	return e;
}

int
tr_comm_id(MPI_Comm c)
{
	struct comm_ent *e;

	if (c == MPI_COMM_WORLD)
		return 0;
	e = comm_get(c);
	return e != NULL ? e->id : -1;
}

int
tr_comm_size(MPI_Comm c)
{
	struct comm_ent *e = comm_get(c);

	return e != NULL ? e->size : nranks;
}

void
tr_comm_new(MPI_Comm *c)
{
	struct comm_ent *e;
	MPI_Group lg;
	int inter, where = 0, l, rw = 0, n, b, x[2];

	if (*c == MPI_COMM_NULL)
		return;
	e = comm_add(*c);
	PMPI_Comm_test_inter(*c, &inter);
	PMPI_Comm_group(*c, &e->g);
	PMPI_Comm_size(*c, &e->size);
	e->least = least_of(e->g, &where);
	if (!inter) {
		b = e->least == tr_rank ? nextcomm++ : 0;
		PMPI_Bcast(&b, 1, MPI_INT, where, *c);
	} else {
		/*
		 * Both groups: a broadcast reaches only the other one, so
		 * two maximum reductions across, the second sending back
		 * what the first brought, give every member L's B.
		 */
		lg = e->g;
		PMPI_Comm_remote_group(*c, &e->g);
		PMPI_Comm_remote_size(*c, &n);
		e->size += n;
		if ((l = least_of(e->g, &rw)) < e->least)
			e->least = l;
		PMPI_Group_free(&lg);
		x[0] = e->least == tr_rank ? nextcomm++ : 0;
		PMPI_Allreduce(&x[0], &x[1], 1, MPI_INT, MPI_MAX, *c);
		PMPI_Allreduce(&x[1], &b, 1, MPI_INT, MPI_MAX, *c);
		if (x[1] > b)
			b = x[1];
	}
	e->id = make_id(b, e->least);
}

void
tr_comm_idup(MPI_Comm parent, MPI_Comm *c)
{
	struct comm_ent *e;
	int inter, where = 0;

	PMPI_Comm_test_inter(parent, &inter);
	if (*c == MPI_COMM_NULL || inter)
		return;	/* an intercommunicator's is hashed at first use */
	e = comm_add(*c);
	PMPI_Comm_group(parent, &e->g);
	PMPI_Comm_size(parent, &e->size);
	e->least = least_of(e->g, &where);
	if ((e->pend = malloc(sizeof(*e->pend))) == NULL)
		fatal("out of memory");
	e->pend->b = e->least == tr_rank ? nextcomm++ : 0;
	PMPI_Ibcast(&e->pend->b, 1, MPI_INT, where, parent, &e->pend->req);
}

void
tr_comm_free(MPI_Comm c)
{
	struct comm_ent *e = comm_find(c);

	if (e == NULL)
		return;
	if (e->pend != NULL)
		comm_resolve(e);
	if (e->g != MPI_GROUP_NULL)
		PMPI_Group_free(&e->g);
	*e = comms[--ncomm];
}

int
tr_world(MPI_Comm c, int r)
{
	struct comm_ent *e;
	int w;

	if (c == MPI_COMM_WORLD || r < 0 || (e = comm_get(c)) == NULL)
		return r;
	if (PMPI_Group_translate_ranks(e->g, 1, &r, worldgroup, &w) !=
	    MPI_SUCCESS || w == MPI_UNDEFINED)
		w = r;
	return w;
}

int
tr_root(MPI_Comm c, int root)
{
	if (root == MPI_ROOT)	/* the root of an intercommunicator's */
		return tr_rank;
	return root >= 0 ? tr_world(c, root) : -1;
}

int64_t
tr_bytes(int count, MPI_Datatype t)
{
	int size;

	if (t == MPI_DATATYPE_NULL || PMPI_Type_size(t, &size) != MPI_SUCCESS)
		return 0;
	return (int64_t)count * size;
}

/* Init, signals, abort ------------------------------------------------ */

static const int fatal_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGABRT, SIGFPE, SIGBUS, SIGSEGV,
	SIGTERM, SIGUSR1, SIGUSR2, SIGXCPU
};
static struct sigaction oldact[sizeof(fatal_signals) / sizeof(fatal_signals[0])];

/* Mark the rank file as cut short: async-signal-safe. */
static void
truncate_mark(const char *why, long code)
{
	char m[96], num[24], *p;
	long v = code == LONG_MIN ? 0 : code < 0 ? -code : code;
	int n = 0;

	if (fd < 0)
		return;
	(void)writeall(fd, buf, len);
	len = 0;
	p = m;
	for (const char *s = "# truncated: "; *s; )
		*p++ = *s++;
	while (*why)
		*p++ = *why++;
	if (code != LONG_MIN) {
		if (code < 0)
			*p++ = '-';
		do
			num[n++] = '0' + v % 10;
		while ((v /= 10) > 0);
		while (n > 0)
			*p++ = num[--n];
	}
	*p++ = '\n';
	(void)writeall(fd, m, (size_t)(p - m));
	close(fd);
	fd = -1;
}

/*
 * A rank stopped from outside (TERM, INT, HUP) stays a while after its
 * mark: mpirun's SIGTERM to the ranks is followed by a SIGKILL as soon
 * as one of them dies (the child's SIGCHLD cuts short the second it
 * waits), so a rank that died at once killed one that had not yet been
 * scheduled, before it wrote (t/4014, 4 runs in 50 on a loaded host).
 * Lingering, every rank has mpirun's whole wait (1 s, its
 * odls_base_sigkill_timeout) and dies by its SIGKILL; alone, it dies of
 * the signal after LINGER seconds.
 */
#define LINGER	2

static void
on_signal(int sig)
{
	struct timespec left = { LINGER, 0 };
	size_t i;

	tr_on = 0;
	truncate_mark("signal ", sig);
	if (sig == SIGTERM || sig == SIGINT || sig == SIGHUP)
		while (nanosleep(&left, &left) < 0 && errno == EINTR)
			;
	for (i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++)
		if (fatal_signals[i] == sig)
			sigaction(sig, &oldact[i], NULL);
	raise(sig);
}

static void
at_exit(void)
{
	if (tr_on) {
		tr_on = 0;
		truncate_mark("exit without MPI_Finalize", LONG_MIN);
	}
}

void
tr_abort(int errorcode)
{
	if (!tr_on)
		return;
	tr_on = 0;
	truncate_mark("MPI_Abort errorcode=", errorcode);
}

static int64_t
parse_size(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno != 0)
		return -1;
	switch (*end) {
	case 'k': case 'K': v *= 1024; end++; break;
	case 'm': case 'M': v *= 1024 * 1024; end++; break;
	case 'g': case 'G': v *= 1024 * 1024 * 1024; end++; break;
	}
	if (*end != '\0' || v < 4096 || v > 1e12)
		return -1;
	return (int64_t)v;
}

static void
placeholder(void)
{
	FILE *f;

	if ((f = fopen(out, "w")) == NULL)
		fatal("%s: %s", out, strerror(errno));
	fprintf(f, "#trc-partial 1 ranks=%d\n"
	    "# libtrc-mpi: this run has not reached MPI_Finalize: the per-rank\n"
	    "# events are in %s; trc-record merges them into a partial trace\n",
	    nranks, dir);
	if (fclose(f) == EOF)
		fatal("%s: %s", out, strerror(errno));
}

/*
 * TRC_CLOCK: a comma-separated list of one wall clock (realtime, the
 * default, or monotonic) and cpu; "both" is realtime,cpu.  Returns
 * NULL, or the unknown word.
 */
static const char *
parse_clock(const char *s)
{
	static char word[64];
	const char *e;
	size_t n;

	for (; *s != '\0'; s = *e == ',' ? e + 1 : e) {
		e = s + strcspn(s, ",");
		n = (size_t)(e - s);
		if (n == 8 && strncmp(s, "realtime", n) == 0)
			clk = CLOCK_REALTIME;
		else if (n == 9 && strncmp(s, "monotonic", n) == 0)
			clk = CLOCK_MONOTONIC;
		else if (n == 3 && strncmp(s, "cpu", n) == 0)
			cpumode = 1;
		else if (n == 4 && strncmp(s, "both", n) == 0) {
			clk = CLOCK_REALTIME;
			cpumode = 1;
		} else {
			snprintf(word, sizeof(word), "%.*s", (int)n, s);
			return word;
		}
	}
	return NULL;
}

void
tr_init(void)
{
	struct timespec ts;
	const char *s, *msg;
	int64_t bufsize = DEFAULT_BUFSIZE;
	size_t i;
	long long o;

	PMPI_Comm_rank(MPI_COMM_WORLD, &tr_rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &nranks);
	PMPI_Comm_group(MPI_COMM_WORLD, &worldgroup);
	ranklen = (size_t)snprintf(rankstr, sizeof(rankstr), " %d", tr_rank);

	s = getenv("TRC_OUT");
	if (s == NULL || *s == '\0')
		s = DEFAULT_OUT;
	if (strlen(s) + 32 >= sizeof(out))
		fatal("TRC_OUT: path too long");
	strcpy(out, s);
	if ((s = getenv("TRC_BUFSIZE")) != NULL && *s != '\0' &&
	    (bufsize = parse_size(s)) < 0)
		fatal("TRC_BUFSIZE: invalid size '%s'", s);
	if ((s = getenv("TRC_DELAY")) != NULL && *s != '\0' &&
	    (msg = parse_delays(s)) != NULL)
		fatal("TRC_DELAY: %s", msg);
	if ((s = getenv("TRC_FORMAT")) != NULL && *s != '\0' &&
	    (outfmt = format_of(s)) < 0)
		fatal("TRC_FORMAT: unknown format '%s'", s);
	if ((s = getenv("TRC_CLOCK")) != NULL && *s != '\0' &&
	    (msg = parse_clock(s)) != NULL)
		fatal("TRC_CLOCK: unknown clock '%s'", msg);
	cap = (size_t)bufsize;
	if ((buf = malloc(cap)) == NULL)
		fatal("out of memory");
	/* Touched now, not page by page as the first events fill it: a
	 * fault of a microsecond or two in every 4 KB of lines would sit
	 * in the program's computation (cpu=, and the wall clock's). */
	memset(buf, '\n', cap);	/* not 0: malloc and memset 0 become calloc */

	/*
	 * Rank 0 makes the directory, and a replayed rank (msglog.c),
	 * which runs alone, its own: the tracer's collectives are held
	 * from the log and go to the lone process's MPI.
	 */
	ml_hold++;
	if (tr_rank == 0 || ml_mode == ML_REPLAY) {
		snprintf(dir, sizeof(dir), "%s.ranks.XXXXXX", out);
		if (mkdtemp(dir) == NULL) {
			fprintf(stderr, "libtrc-mpi: %s: %s\n", dir, strerror(errno));
			dir[0] = '\0';
		} else
			placeholder();
	}
	PMPI_Bcast(dir, sizeof(dir), MPI_CHAR, 0, MPI_COMM_WORLD);
	if (dir[0] == '\0')
		fatal("cannot make the rank directory for TRC_OUT '%s'", out);
	snprintf(rankfile, sizeof(rankfile), "%s/rank.%d", dir, tr_rank);
	if ((fd = open(rankfile, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND |
	    O_CLOEXEC, 0644)) < 0)
		fatal("%s: %s", rankfile, strerror(errno));

	/*
	 * Processes reach MPI_Init milliseconds apart; that skew is not
	 * the program's and would sit in its first collective.  So all
	 * ranks meet in a barrier first, and only then does rank 0 read
	 * the origin of the one clock they share.  The broadcast that
	 * carries it follows the reading, so no rank's time is negative,
	 * and every rank's first event is near 0.
	 */
	PMPI_Barrier(MPI_COMM_WORLD);
	if (tr_rank == 0 || ml_mode == ML_REPLAY) {
		clock_gettime(clk, &ts);
		o = (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
	}
	PMPI_Bcast(&o, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
	ml_hold--;
	origin = o;

	for (i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(fatal_signals[i], &sa, &oldact[i]);
	}
	atexit(at_exit);
	cond_start();
	tr_on = 1;
	if (cpumode)
		cpu_last = cpu_at(-1);
	ev_end(put_str(ev_start(tr_now(), "MK", 0), " mark=init"));
}

/* Finalize: the merge ------------------------------------------------- */

/*
 * TRC_FORMAT=trcb or trcb-zstd: the merged lines are parsed and
 * written by the binary stream's writer (lib/fmt/trcb.c, linked in
 * alone); the rank files stay text, so a partial trace is text.
 */
static int
format_of(const char *s)
{
	if (strcmp(s, "trc") == 0)
		return 0;
	if (strcmp(s, "trcb") == 0)
		return 1;
	if (strcmp(s, "trcb-zstd") == 0 || strcmp(s, "trcbz") == 0)
		return 2;
	return -1;
}

static struct trcb_writer *
binary_open(FILE *o, const char *extra)
{
	struct trc_header h;
	struct trcb_writer *w;

	memset(&h, 0, sizeof(h));
	h.version = 1;
	h.ranks = nranks;
	h.order = TRC_ORDER_TIME;
	h.extra.s = extra;
	h.extra.len = strlen(extra);
	if ((w = trcb_wopen(fileno(o), out, &h, outfmt == 2)) == NULL)
		fprintf(stderr, "libtrc-mpi: out of memory for the merge\n");
	else if (*trcb_werror(w) != '\0') {
		fprintf(stderr, "libtrc-mpi: %s\n", trcb_werror(w));
		trcb_wfree(w);
		w = NULL;
	}
	return w;
}

/* One merged line (with its newline) to the binary stream: 0 or -1. */
static int
binary_line(struct trcb_writer *w, const char *line, size_t n)
{
	struct trc_event ev;
	char err[TRC_ERRLEN];

	if (trc_parse_line(line, n - 1, &ev, err) < 0) {
		fprintf(stderr, "libtrc-mpi: merge: %s\n", err);
		return -1;
	}
	if (trcb_write(w, &ev) < 0) {
		fprintf(stderr, "libtrc-mpi: %s\n", trcb_werror(w));
		return -1;
	}
	return 0;
}

struct src {
	FILE	*f;
	char	*line;
	size_t	 size;
	ssize_t	 n;
	int64_t	 t;
	int	 rank;
};

static int64_t
line_time(const char *s)
{
	int64_t sec = 0, ns = 0;
	int i;

	while (*s >= '0' && *s <= '9')
		sec = sec * 10 + (*s++ - '0');
	if (*s == '.')
		s++;
	for (i = 0; i < 9; i++)
		ns = ns * 10 + ((*s >= '0' && *s <= '9') ? *s++ - '0' : 0);
	return sec * 1000000000 + ns;
}

static int
src_next(struct src *x)
{
	x->n = getline(&x->line, &x->size, x->f);
	if (x->n < 0)
		return 0;
	x->t = line_time(x->line);
	return 1;
}

/* Heap order: time, then rank, so that ties come out in rank order. */
static int
before(const struct src *a, const struct src *b)
{
	return a->t < b->t || (a->t == b->t && a->rank < b->rank);
}

static void
sift(struct src **h, int n, int i)
{
	struct src *x = h[i];
	int c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && before(h[c + 1], h[c]))
			c++;
		if (!before(h[c], x))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

static const char *
prog_name(void)
{
	static char name[256];
	FILE *f = fopen("/proc/self/cmdline", "r");
	size_t n = 0;

	if (f != NULL) {
		n = fread(name, 1, sizeof(name) - 1, f);
		fclose(f);
	}
	name[n] = '\0';
	for (size_t i = 0; i < strlen(name); i++)
		if (name[i] == ' ' || name[i] == '\n')
			name[i] = '_';
	return n > 0 ? name : "?";
}

/* Returns 0, or -1 after printing why. */
static int
merge(void)
{
	struct src *srcs, **heap;
	struct rlimit rl;
	struct trcb_writer *bw = NULL;
	char tmp[PATH_MAX + 8], path[PATH_MAX + 48], *extra = NULL;
	size_t xlen = 0;
	FILE *xf;
	FILE *o;
	int i, n = 0, rc = 0;
	/* A replayed rank (msglog.c) has only its own file. */
	int lo = ml_mode == ML_REPLAY ? tr_rank : 0;
	int hi = ml_mode == ML_REPLAY ? tr_rank + 1 : nranks;

	/* One descriptor per rank: ask for as many as the hard limit allows. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max &&
	    rl.rlim_cur < (rlim_t)nranks + 16) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	srcs = calloc((size_t)nranks, sizeof(*srcs));
	heap = calloc((size_t)nranks, sizeof(*heap));
	snprintf(tmp, sizeof(tmp), "%s.tmp", out);
	if (srcs == NULL || heap == NULL) {
		fprintf(stderr, "libtrc-mpi: out of memory for the merge\n");
		return -1;
	}
	if ((o = fopen(tmp, "w")) == NULL) {
		fprintf(stderr, "libtrc-mpi: %s: %s\n", tmp, strerror(errno));
		free(srcs);
		free(heap);
		return -1;
	}
	/* The header's extra lines, for the text or the binary writer. */
	if ((xf = open_memstream(&extra, &xlen)) == NULL) {
		fprintf(stderr, "libtrc-mpi: out of memory for the merge\n");
		fclose(o);
		free(srcs);
		free(heap);
		return -1;
	}
	/*
	 * pollt= and cpu= (trc(5)) tell trc-scale that intervals may be
	 * shorter than recorded, which costs it memory: said only when
	 * some rank polled, or when asked for.
	 */
	fprintf(xf, "#clock source=%s origin=%lld.%09lld%s%s\n",
	    clk == CLOCK_REALTIME ? "realtime" : "monotonic",
	    (long long)(origin / 1000000000), (long long)(origin % 1000000000),
	    anypolled ? " pollt=wall" : "", cpumode ? " cpu=thread" : "");
	fprintf(xf, "#tracer libtrc-mpi program=%s\n", prog_name());
	if (ml_mode == ML_REPLAY)
		fprintf(xf, "#replay rank=%d: the other ranks' events are "
		    "not in this trace\n", tr_rank);
	cond_write(xf);
	/* How often each delay fired, so a factor that never did shows. */
	for (i = 0; i < ndelay; i++)
		fprintf(xf, "#delay fired=%ld %s\n", delays[i].fired,
		    delays[i].spec);
	tr_untraced_header(xf);
	fclose(xf);
	if (outfmt == 0)
		fprintf(o, "#trc 1 ranks=%d order=time\n%s", nranks, extra);
	else if ((bw = binary_open(o, extra)) == NULL)
		rc = -1;
	free(extra);
	for (i = lo; i < hi; i++) {
		snprintf(path, sizeof(path), "%s/rank.%d", dir, i);
		srcs[i].rank = i;
		if ((srcs[i].f = fopen(path, "r")) == NULL) {
			fprintf(stderr, "libtrc-mpi: %s: %s\n", path, strerror(errno));
			rc = -1;
			continue;
		}
		if (src_next(&srcs[i]))
			heap[n++] = &srcs[i];
	}
	for (i = n / 2 - 1; i >= 0; i--)
		sift(heap, n, i);
	while (rc == 0 && n > 0) {
		struct src *x = heap[0];
		if (x->line[0] == '#') {
			/* A rank file that was cut short: keep the partial mark. */
			fprintf(stderr, "libtrc-mpi: rank %d: %s", x->rank, x->line);
			rc = -1;
			break;
		}
		if (bw == NULL)
			fwrite(x->line, 1, (size_t)x->n, o);
		else if (binary_line(bw, x->line, (size_t)x->n) < 0) {
			rc = -1;
			break;
		}
		if (src_next(x))
			sift(heap, n, 0);
		else {
			heap[0] = heap[--n];
			if (n > 0)
				sift(heap, n, 0);
		}
	}
	for (i = 0; i < nranks; i++) {
		if (srcs[i].f != NULL)
			fclose(srcs[i].f);
		free(srcs[i].line);
	}
	free(srcs);
	free(heap);
	if (bw != NULL) {
		if (rc == 0 && trcb_wclose(bw) < 0) {
			fprintf(stderr, "libtrc-mpi: %s\n", trcb_werror(bw));
			rc = -1;
		}
		trcb_wfree(bw);
	}
	if (ferror(o) || fclose(o) == EOF) {
		fprintf(stderr, "libtrc-mpi: %s: %s\n", tmp, strerror(errno));
		rc = -1;
	}
	if (rc == 0 && rename(tmp, out) < 0) {
		fprintf(stderr, "libtrc-mpi: %s: %s\n", out, strerror(errno));
		rc = -1;
	}
	if (rc < 0) {
		unlink(tmp);
		return -1;
	}
	for (i = lo; i < hi; i++) {
		snprintf(path, sizeof(path), "%s/rank.%d", dir, i);
		unlink(path);
	}
	rmdir(dir);
	return 0;
}

void
tr_finalize(void)
{
	int bad[2], any[2], i;

	if (!tr_on)
		return;
	/* Requests of the tracer's own must be done before MPI_Finalize. */
	for (i = 0; i < ncomm; i++)
		if (comms[i].pend != NULL)
			comm_resolve(&comms[i]);
	ev_end(put_str(ev_start(tr_now(), "MK", 0), " mark=finalize"));
	flush();
	tr_on = 0;
	if (close(fd) < 0 && werr == 0)
		werr = errno;
	fd = -1;
	bad[0] = werr != 0;
	bad[1] = polled;
	if (bad[0])
		fprintf(stderr, "libtrc-mpi: %s: %s\n", rankfile, strerror(werr));
	ml_hold++;
	PMPI_Allreduce(bad, any, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	anypolled = any[1];
	cond_finish();
	/* Every rank parsed the same TRC_DELAY: sum the delays made. */
	for (i = 0; i < ndelay; i++) {
		long all = 0;

		PMPI_Reduce(&delays[i].fired, &all, 1, MPI_LONG, MPI_SUM, 0,
		    MPI_COMM_WORLD);
		delays[i].fired = all;
	}
	tr_untraced_reduce();
	ml_hold--;
	if (tr_rank == 0 || ml_mode == ML_REPLAY) {
		if (any[0] || merge() < 0)
			fprintf(stderr, "libtrc-mpi: no trace written; %s keeps "
			    "the partial mark and %s the rank files\n", out, dir);
	}
	free(buf);
	buf = NULL;
	PMPI_Group_free(&worldgroup);
}

/* The run's conditions ------------------------------------------------ */

/*
 * What says whether a run was disturbed, in the header (trc(5)): the
 * host's load average and steal time at MPI_Init and MPI_Finalize, read
 * by rank 0, and each rank's CPU time against the wall time between
 * the two.  A rank that computes while another job holds its core runs
 * on a CPU for less than its computation's wall time.
 */
static struct trc_hostcond host_at[2] = { { -1, -1, -1 }, { -1, -1, -1 } };
static int64_t	 cpu0, wall0;
static int64_t	*cond_cpu;		/* rank 0: cpu, wall per rank */
static int64_t	 cond_own[2][OWN_BINS];	/* rank 0: all ranks' own_hist */

static void
cond_start(void)
{
	if (tr_rank == 0 || ml_mode == ML_REPLAY)
		trc_hostcond_read(&host_at[0]);
	cpu0 = trc_process_cpu();
	wall0 = tr_now();
}

/* Collective: every rank's CPU and wall time to rank 0. */
static void
cond_finish(void)
{
	int64_t mine[2];

	mine[0] = trc_process_cpu() - cpu0;
	mine[1] = tr_now() - wall0;
	if (tr_rank == 0 || ml_mode == ML_REPLAY) {
		trc_hostcond_read(&host_at[1]);
		if ((cond_cpu = calloc(2 * (size_t)nranks,
		    sizeof(*cond_cpu))) == NULL)
			fatal("out of memory");
	}
	/* A replayed rank is alone in its world: it has its own times. */
	if (ml_mode == ML_REPLAY) {
		cond_cpu[2 * tr_rank] = mine[0];
		cond_cpu[2 * tr_rank + 1] = mine[1];
		memcpy(cond_own, own_hist, sizeof(own_hist));
		return;
	}
	PMPI_Gather(mine, 2, MPI_INT64_T, cond_cpu, 2, MPI_INT64_T, 0,
	    MPI_COMM_WORLD);
	PMPI_Reduce(own_hist, cond_own, 2 * OWN_BINS, MPI_INT64_T, MPI_SUM,
	    0, MPI_COMM_WORLD);
}

static void
cond_write(FILE *xf)
{
	int i;

	trc_hostcond_write(xf, &host_at[0], &host_at[1]);
	for (i = 0; cond_cpu != NULL && i < nranks; i++)
		if (ml_mode != ML_REPLAY || i == tr_rank)
			trc_cpu_write(xf, i, cond_cpu[2 * i],
			    cond_cpu[2 * i + 1]);
	if (cpumode)
		trc_own_write(xf, cond_own[0], OWN_READ_BIN, cond_own[1],
		    OWN_LINE_BIN, OWN_BINS, CPU_SKIP_NS);
	free(cond_cpu);
	cond_cpu = NULL;
}
