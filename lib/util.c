/*
 * util.c - helpers for programs, which exit on failure.  The rest of
 * the library never calls them.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prog.h"
#include "trc.h"

const char *trc_progname = "trc";

void
trc_setprogname(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	trc_progname = slash ? slash + 1 : argv0;
}

void
die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", trc_progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	trc_atomic_cleanup();
	exit(2);
}

void
usage_error(const char *usage)
{
	fprintf(stderr, "usage: %s\n", usage);
	exit(2);
}

void *
emalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		die("out of memory");
	return p;
}

void *
ecalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		die("out of memory");
	return p;
}

void *
ereallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		die("out of memory");
	if ((p = realloc(p, n * size != 0 ? n * size : 1)) == NULL)
		die("out of memory");
	return p;
}

char *
estrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(emalloc(n), s, n);
}

long long
estrtonum(const char *s, long long min, long long max, const char *what)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno == ERANGE || v < min || v > max)
		die("invalid %s '%s' (want an integer from %lld to %lld)",
		    what, s, min, max);
	return v;
}

double
estrtod(const char *s, const char *what)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || errno == ERANGE || !isfinite(v))
		die("invalid %s '%s'", what, s);
	return v;
}

void
fshut_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0)
		die("<stdout>: write error: %s", strerror(errno));
}

/*
 * The usage functions print and exit themselves: at that exit, a
 * usage that could not be written (--help > /dev/full) is an error.
 */
static void
check_stdout_at_exit(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: <stdout>: write error: %s\n",
		    trc_progname, strerror(errno));
		_Exit(2);
	}
}

/* After the usage line of --help: a line per option, from the page. */
static void
help_at_exit(void)
{
	const char *h = trc_help(trc_progname);

	if (h != NULL && *h != '\0')
		printf("options:\n%s", h);
}

void
trc_std_options(int argc, char **argv, void (*usage)(int))
{
	int i;

	trc_setprogname(argv[0]);
	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			atexit(check_stdout_at_exit);
			atexit(help_at_exit);	/* runs first */
			usage(0);
		}
		if (strcmp(argv[i], "--version") == 0) {
			printf("%s %s\n", trc_progname, TRC_VERSION_STRING);
			fshut_stdout();
			exit(0);
		}
	}
}

void
trc_opt_format(struct trc_open_opts *o, const char *name)
{
	int reads, writes;

	if (trc_format_lookup(name, &reads, &writes) < 0)
		die("unknown format '%s'", name);
	if (!reads)
		die("format '%s' is written, not read", name);
	o->format = name;
}

void
trc_opt_flops(struct trc_open_opts *o, const char *rate)
{
	o->flops = estrtod(rate, "flop rate");
	if (!(o->flops > 0))
		die("invalid flop rate '%s'", rate);
}
