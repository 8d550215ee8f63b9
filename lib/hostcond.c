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

void
trc_cpu_write(FILE *f, long rank, int64_t cpu, int64_t wall)
{
	fprintf(f, "#cpu rank=%ld cpu=%lld.%09lld wall=%lld.%09lld\n", rank,
	    (long long)(cpu / 1000000000), (long long)(cpu % 1000000000),
	    (long long)(wall / 1000000000), (long long)(wall % 1000000000));
}
