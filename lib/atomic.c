/*
 * atomic.c - files written whole or not at all: a file is written
 * under a temporary name beside its own (NAME.tmpXXXXXX) and renamed
 * into place once complete, so that an interrupted or failed run never
 * leaves a partial file under the final name.  Temporary files not yet
 * renamed are listed, so that a program that dies removes them.
 */
#include <sys/stat.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trc.h"

#define MAXTMP	16

static char *volatile pending[MAXTMP];

/* Interrupted: the temporary files go, then the signal does its work. */
static void
onsignal(int sig)
{
	int i;

	for (i = 0; i < MAXTMP; i++)
		if (pending[i] != NULL)
			unlink(pending[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
catch_signals(void)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGTERM, SIGPIPE };
	static int done;
	size_t i;

	if (done++)
		return;
	/* A signal ignored when the program started stays ignored. */
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (signal(sigs[i], onsignal) == SIG_IGN)
			signal(sigs[i], SIG_IGN);
}

static void
forget(const char *tmp)
{
	int i;

	for (i = 0; i < MAXTMP; i++)
		if (pending[i] == tmp)
			pending[i] = NULL;
}

int
trc_atomic_wanted(const char *path)
{
	struct stat st;

	if (path == NULL || strcmp(path, "-") == 0)
		return 0;
	/* A device, a pipe or a link is written where it is. */
	if (lstat(path, &st) < 0)
		return errno == ENOENT;
	return S_ISREG(st.st_mode);
}

char *
trc_atomic_tmp(const char *path, char *err, size_t errlen)
{
	char *tmp;
	int fd, i;

	for (i = 0; i < MAXTMP && pending[i] != NULL; i++)
		;
	if (i == MAXTMP || (tmp = malloc(strlen(path) + 12)) == NULL) {
		trc_errorf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	sprintf(tmp, "%s.tmpXXXXXX", path);
	if ((fd = mkstemp(tmp)) < 0) {
		trc_errorf(err, errlen, "%s: %s", path, strerror(errno));
		free(tmp);
		return NULL;
	}
	close(fd);
	catch_signals();
	pending[i] = tmp;
	return tmp;
}

int
trc_atomic_commit(char *tmp, const char *path, char *err, size_t errlen)
{
	mode_t mask = umask(0);

	umask(mask);
	forget(tmp);
	/* mkstemp's 0600, made what a new file would be. */
	if (chmod(tmp, 0666 & ~mask) < 0 || rename(tmp, path) < 0) {
		trc_errorf(err, errlen, "%s: %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

void
trc_atomic_abort(char *tmp)
{
	if (tmp == NULL)
		return;
	forget(tmp);
	unlink(tmp);
	free(tmp);
}

void
trc_atomic_cleanup(void)
{
	int i;

	for (i = 0; i < MAXTMP; i++)
		if (pending[i] != NULL) {
			unlink(pending[i]);
			pending[i] = NULL;
		}
}

int
trc_same_file(const char *a, const char *b)
{
	struct stat x, y;

	if (a == NULL || b == NULL || strcmp(a, "-") == 0 ||
	    strcmp(b, "-") == 0 || stat(a, &x) < 0 || stat(b, &y) < 0)
		return 0;
	return x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}
