/*
 * hostcond.c - the #load and #cpu lines of trc(5): what says whether a
 * run was disturbed, read off the host.  A rank that computes while
 * another job holds its core runs on a CPU for less than its wall time;
 * a hypervisor that takes the host's CPUs shows as steal time.
 */
#define _POSIX_C_SOURCE 200809L

#include <time.h>
#include <unistd.h>

#include "trc_hostcond.h"

void
trc_hostcond_read(struct trc_hostcond *h)
{
	long long v[8] = { 0 };
	FILE *f;
	int i;

	h->load = -1;
	h->steal = h->total = -1;
	if ((f = fopen("/proc/loadavg", "r")) != NULL) {
		if (fscanf(f, "%lf", &h->load) != 1)
			h->load = -1;
		fclose(f);
	}
	if ((f = fopen("/proc/stat", "r")) == NULL)
		return;
	/* cpu user nice system idle iowait irq softirq steal guest gn */
	if (fscanf(f, "cpu %lld %lld %lld %lld %lld %lld %lld %lld", &v[0],
	    &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8) {
		h->steal = v[7];
		for (h->total = 0, i = 0; i < 8; i++)
			h->total += v[i];
	}
	fclose(f);
}

int64_t
trc_process_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void
trc_hostcond_write(FILE *f, const struct trc_hostcond *start,
    const struct trc_hostcond *end)
{
	long long dsteal = end->steal - start->steal;
	long long dall = end->total - start->total;

	fprintf(f, "#load start=%.2f end=%.2f cpus=%ld", start->load, end->load,
	    sysconf(_SC_NPROCESSORS_ONLN));
	if (start->steal >= 0 && end->steal >= 0 && dall > 0)
		fprintf(f, " steal=%.2f", 100.0 * (double)dsteal / (double)dall);
	fputc('\n', f);
}

/* " key=S", ns as seconds with 9 decimals. */
static void
put_secs(FILE *f, const char *key, int64_t ns)
{
	fprintf(f, " %s=%lld.%09lld", key, (long long)(ns / 1000000000),
	    (long long)(ns % 1000000000));
}

void
trc_cpu_write(FILE *f, long rank, int64_t cpu, int64_t wall)
{
	fprintf(f, "#cpu rank=%ld", rank);
	put_secs(f, "cpu", cpu);
	put_secs(f, "wall", wall);
	fputc('\n', f);
}

/* The count of a histogram in *n, and its median: the middle of the
 * bin that holds it. */
static int64_t
hist_median(const int64_t *h, int nbins, int64_t bin, int64_t *n)
{
	int64_t seen = 0;
	int i;

	for (*n = 0, i = 0; i < nbins; i++)
		*n += h[i];
	for (i = 0; i < nbins; i++)
		if ((seen += h[i]) * 2 >= *n && *n > 0)
			return i * bin + bin / 2;
	return 0;
}

void
trc_own_write(FILE *f, const int64_t *reads, int64_t read_bin,
    const int64_t *lines, int64_t line_bin, int nbins, int64_t skip_ns)
{
	int64_t n, m;

	m = hist_median(reads, nbins, read_bin, &n);
	fprintf(f, "#own reads=%lld", (long long)n);
	put_secs(f, "read", m);
	m = hist_median(lines, nbins, line_bin, &n);
	fprintf(f, " events=%lld", (long long)n);
	put_secs(f, "line", m);
	put_secs(f, "skip", skip_ns);
	fputc('\n', f);
}
