/*
 * tap.h - a small TAP emitter for the C unit tests; prove reads it.
 * No "TAP version" line: Debian 12's prove rejects version 14.
 */
#ifndef TAP_H
#define TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static inline int
ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		tap_failed++;
	return cond;
}

static inline int
is_int(long long got, long long want, const char *name)
{
	if (!ok(got == want, "%s", name))
		printf("#   got %lld, want %lld\n", got, want);
	return got == want;
}

static inline int
is_num(double got, double want, double tol, const char *name)
{
	double d = got > want ? got - want : want - got;

	if (!ok(d <= tol, "%s", name))
		printf("#   got %.12g, want %.12g (tolerance %g)\n", got, want, tol);
	return d <= tol;
}

static inline int
is_str(const char *got, const char *want, const char *name)
{
	int same = got != NULL && strcmp(got, want) == 0;

	if (!ok(same, "%s", name))
		printf("#   got '%s', want '%s'\n", got ? got : "(null)", want);
	return same;
}

/* n tests not run here, each "ok # skip" with the reason. */
static inline void
skip(int n, const char *fmt, ...)
{
	va_list ap;

	while (n-- > 0) {
		printf("ok %d # skip ", ++tap_n);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		putchar('\n');
	}
}

static inline int
done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}

#endif
