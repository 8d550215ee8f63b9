/*
 * prog.h - helpers for the programs, which may exit; no file of the
 * library proper uses them (util.c and help.c hold them).
 */
#ifndef TRC_PROG_H
#define TRC_PROG_H

#include <stddef.h>

#include "trc.h"

extern const char *trc_progname;
void	 trc_setprogname(const char *argv0);
void	*emalloc(size_t);
void	*ecalloc(size_t, size_t);
void	*ereallocarray(void *, size_t, size_t);
char	*estrdup(const char *);
/*
 * prog: msg, exit 2.  Not declared noreturn on purpose: the compiler
 * would then drop pointers that are live at the call, and
 * LeakSanitizer would report what a program holds as it exits.
 */
void	 die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	 usage_error(const char *usage);	/* usage: ..., exit 2 */
long long estrtonum(const char *, long long min, long long max, const char *what);
double	 estrtod(const char *, const char *what);
/* Check and close stdout: a full disk is an error, not a success. */
void	 fshut_stdout(void);
/* Prints "prog VERSION" and exits 0 when argv holds --version. */
void	 trc_std_options(int argc, char **argv, void (*usage)(int));
/* prog's option lines for --help, from its man page, or NULL (help.c). */
const char *trc_help(const char *prog);
/*
 * -f FORMAT and --flops RATE, which every program that reads traces
 * takes (README, "Options"): checked as they are given, into opts.
 */
void	 trc_opt_format(struct trc_open_opts *, const char *name);
void	 trc_opt_flops(struct trc_open_opts *, const char *rate);

#endif
