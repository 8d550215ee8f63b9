/*
 * runstat - run a command and print its CPU seconds (user + system)
 * and peak resident memory in kilobytes, from the kernel's rusage of
 * the child: "cpu=1.234567 maxrss=5120", the seconds to the
 * microsecond the kernel counts in (a short form's run of a
 * millisecond or less is not 0, which the rates divide by).  Standard
 * input and output are the command's; the figures go to standard
 * error.
 */
#define _DEFAULT_SOURCE	/* wait4 */

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct rusage ru;
	pid_t pid;
	int status;

	if (argc < 2) {
		fprintf(stderr, "usage: runstat command [arg ...]\n");
		return 2;
	}
	if ((pid = fork()) < 0) {
		perror("runstat: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror("runstat: exec");
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("runstat: wait4");
		return 2;
	}
	fprintf(stderr, "cpu=%.6f maxrss=%ld\n",
	    ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	    (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6, ru.ru_maxrss);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}
