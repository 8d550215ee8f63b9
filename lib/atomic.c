/*
 * atomic.c - files written whole or not at all: a file is written
 * under a temporary name beside its own (NAME.tmpXXXXXX) and renamed
 * into place once complete, so that an interrupted or failed run never
 * leaves a partial file under the final name.  Temporary files not yet
 * renamed are listed, so that a program that dies removes them.
 * Outputs of many files (an OTF2 archive, SimGrid's file per rank) are
 * written in a temporary directory beside them, moved out when all are
 * complete.
 */
#define _GNU_SOURCE	/* syscall(SYS_getdents64) */
#include <sys/stat.h>
#include <sys/syscall.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trc.h"

#define MAXTMP	16

static char *volatile pending[MAXTMP];
static volatile sig_atomic_t pending_dir[MAXTMP];

/* What getdents64 fills in: struct linux_dirent64. */
struct rawdirent {
	uint64_t	 d_ino;
	int64_t		 d_off;
	unsigned short	 d_reclen;
	unsigned char	 d_type;
	char		 d_name[];
};

/*
 * Removes name (in the directory at) and, if a directory, what it
 * holds, depth levels down: with calls a signal handler may make
 * (getdents64 rather than opendir, which allocates).  A pass that
 * removed something is made again from the start, as removing entries
 * may move the others; a few passes, so that what cannot go ends it.
 */
static void
rm_tree(int at, const char *name, int depth)
{
	char buf[2048];
	struct rawdirent *e;
	long n, k;
	int fd, pass, removed;

	if (unlinkat(at, name, 0) == 0 || errno == ENOENT || depth == 0)
		return;
	if ((fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)) < 0)
		return;
	for (pass = 0, removed = 1; removed && pass < 4; pass++) {
		removed = 0;
		if (lseek(fd, 0, SEEK_SET) < 0)
			break;
		while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
			for (k = 0; k < n; k += e->d_reclen) {
				e = (struct rawdirent *)(void *)(buf + k);
				if (strcmp(e->d_name, ".") == 0 ||
				    strcmp(e->d_name, "..") == 0)
					continue;
				rm_tree(fd, e->d_name, depth - 1);
				removed = 1;
			}
	}
	close(fd);
	unlinkat(at, name, AT_REMOVEDIR);
}

/* An OTF2 archive staged whole: DIR/NAME.otf2 and DIR/NAME/N.evt. */
#define DIRDEPTH	3

static void
remove_tmp(const char *tmp, int dir)
{
	if (dir)
		rm_tree(AT_FDCWD, tmp, DIRDEPTH);
	else
		unlink(tmp);
}

/* Interrupted: the temporary files go, then the signal does its work. */
static void
onsignal(int sig)
{
	int i, saved = errno;

	for (i = 0; i < MAXTMP; i++)
		if (pending[i] != NULL)
			remove_tmp(pending[i], pending_dir[i]);
	errno = saved;
	signal(sig, SIG_DFL);
	raise(sig);
}

static const int caught[] = { SIGHUP, SIGINT, SIGTERM, SIGPIPE };

static void
catch_signals(void)
{
	static int done;
	size_t i;

	if (done++)
		return;
	/* A signal ignored when the program started stays ignored. */
	for (i = 0; i < sizeof(caught) / sizeof(caught[0]); i++)
		if (signal(caught[i], onsignal) == SIG_IGN)
			signal(caught[i], SIG_IGN);
}

/*
 * The signals caught held back (hold 1) until a temporary and the list
 * agree: made and listed, or taken off and renamed.  A signal between
 * the two left a temporary behind (a loaded host's SIGTERM just after
 * mkdtemp, t/1003).
 */
static void
hold_signals(int hold, sigset_t *old)
{
	sigset_t set;
	size_t i;

	if (!hold) {
		sigprocmask(SIG_SETMASK, old, NULL);
		return;
	}
	sigemptyset(&set);
	for (i = 0; i < sizeof(caught) / sizeof(caught[0]); i++)
		sigaddset(&set, caught[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* Whether tmp is a directory, and off the list now. */
static int
forget(const char *tmp)
{
	int i, dir = 0;

	for (i = 0; i < MAXTMP; i++)
		if (pending[i] == tmp) {
			pending[i] = NULL;
			dir = pending_dir[i];
			pending_dir[i] = 0;
		}
	return dir;
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

static char *
make_tmp(const char *path, int dir, char *err, size_t errlen)
{
	sigset_t old;
	char *tmp;
	int fd, i;

	for (i = 0; i < MAXTMP && pending[i] != NULL; i++)
		;
	if (i == MAXTMP || (tmp = malloc(strlen(path) + 12)) == NULL) {
		trc_errorf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	sprintf(tmp, "%s.tmpXXXXXX", path);
	catch_signals();
	hold_signals(1, &old);
	if (dir ? mkdtemp(tmp) == NULL : (fd = mkstemp(tmp)) < 0) {
		hold_signals(0, &old);
		trc_errorf(err, errlen, "%s: %s", path, strerror(errno));
		free(tmp);
		return NULL;
	}
	if (!dir)
		close(fd);
	pending_dir[i] = dir;
	pending[i] = tmp;
	hold_signals(0, &old);
	return tmp;
}

char *
trc_atomic_tmp(const char *path, char *err, size_t errlen)
{
	return make_tmp(path, 0, err, errlen);
}

char *
trc_atomic_tmpdir(const char *path, char *err, size_t errlen)
{
	return make_tmp(path, 1, err, errlen);
}

int
trc_atomic_commit(char *tmp, const char *path, char *err, size_t errlen)
{
	mode_t mask = umask(0);
	sigset_t old;
	int dir;

	umask(mask);
	hold_signals(1, &old);
	dir = forget(tmp);
	/* mkstemp's 0600 (mkdtemp's 0700), made what a new file would be. */
	if (chmod(tmp, (dir ? 0777 : 0666) & ~mask) < 0 ||
	    rename(tmp, path) < 0) {
		trc_errorf(err, errlen, "%s: %s", path, strerror(errno));
		remove_tmp(tmp, dir);
		hold_signals(0, &old);
		free(tmp);
		return -1;
	}
	hold_signals(0, &old);
	free(tmp);
	return 0;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
trc_atomic_commit_into(char *tmp, const char *dir, const char *last,
    char *err, size_t errlen)
{
	char **names = NULL, **nv, *to = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *e;
	DIR *dp;
	int rc = -1, tfd;

	/* Every name first: moving them out while reading would skip. */
	if ((tfd = open(tmp, O_RDONLY | O_DIRECTORY)) < 0 ||
	    (dp = opendir(tmp)) == NULL) {
		trc_errorf(err, errlen, "%s: %s", dir, strerror(errno));
		goto out;
	}
	while ((e = readdir(dp)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			if ((nv = realloc(names, cap * sizeof(*nv))) == NULL)
				break;
			names = nv;
		}
		if ((names[n] = strdup(e->d_name)) == NULL)
			break;
		n++;
	}
	closedir(dp);
	if (e != NULL) {
		trc_errorf(err, errlen, "%s: out of memory", dir);
		goto out;
	}
	if (n > 1)
		qsort(names, n, sizeof(*names), by_name);
	/* The name a reader looks for goes last: seen only when all are. */
	for (i = 0; last != NULL && i + 1 < n; i++)
		if (strcmp(names[i], last) == 0) {
			to = names[i];
			memmove(names + i, names + i + 1,
			    (n - i - 1) * sizeof(*names));
			names[n - 1] = to;
			to = NULL;
			break;
		}
	for (i = 0; i < n; i++) {
		free(to);
		if ((to = malloc(strlen(dir) + strlen(names[i]) + 2)) ==
		    NULL) {
			trc_errorf(err, errlen, "%s: out of memory", dir);
			goto out;
		}
		sprintf(to, "%s/%s", dir, names[i]);
		if (renameat(tfd, names[i], AT_FDCWD, to) < 0) {
			trc_errorf(err, errlen, "%s: %s", to, strerror(errno));
			goto out;
		}
	}
	rc = 0;
out:
	if (tfd >= 0)
		close(tfd);
	trc_atomic_abort(tmp);	/* empty now, or what could not move */
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(to);
	return rc;
}

void
trc_atomic_abort(char *tmp)
{
	sigset_t old;

	if (tmp == NULL)
		return;
	hold_signals(1, &old);
	remove_tmp(tmp, forget(tmp));
	hold_signals(0, &old);
	free(tmp);
}

void
trc_atomic_cleanup(void)
{
	int i;

	for (i = 0; i < MAXTMP; i++)
		if (pending[i] != NULL) {
			remove_tmp(pending[i], pending_dir[i]);
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
