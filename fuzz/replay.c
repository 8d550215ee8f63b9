/*
 * replay.c - a main() for a fuzz target without libFuzzer: each file
 * named, or each file of each directory named, goes through
 * LLVMFuzzerTestOneInput once, as libFuzzer would run it.  The test
 * suite builds every target so (with gcc, and with ASan and UBSan in
 * test-sanitize) and replays the corpora and the regression inputs.
 */
#include <sys/stat.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static int
replay(const char *path)
{
	struct stat st;
	uint8_t *buf;
	size_t n;
	FILE *fp;

	if ((fp = fopen(path, "rb")) == NULL || fstat(fileno(fp), &st) < 0) {
		perror(path);
		return -1;
	}
	n = (size_t)st.st_size;
	/* Its own allocation, exactly n bytes, so that ASan sees over-reads. */
	if ((buf = malloc(n > 0 ? n : 1)) == NULL ||
	    fread(buf, 1, n, fp) != n) {
		perror(path);
		return -1;
	}
	fclose(fp);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

static int
byname(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
main(int argc, char **argv)
{
	struct dirent *de;
	struct stat st;
	char **names = NULL, path[4096];
	size_t nn, cap, i;
	long files = 0;
	DIR *d;
	int k, bad = 0;

	for (k = 1; k < argc; k++) {
		if (stat(argv[k], &st) < 0) {
			perror(argv[k]);
			bad = 1;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			bad |= replay(argv[k]) < 0;
			files++;
			continue;
		}
		if ((d = opendir(argv[k])) == NULL) {
			perror(argv[k]);
			bad = 1;
			continue;
		}
		nn = cap = 0;
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			if (nn == cap && (names = realloc(names, (cap = 2 *
			    cap + 16) * sizeof(*names))) == NULL)
				abort();
			if ((names[nn++] = strdup(de->d_name)) == NULL)
				abort();
		}
		closedir(d);
		qsort(names, nn, sizeof(*names), byname);
		for (i = 0; i < nn; i++) {
			snprintf(path, sizeof(path), "%s/%s", argv[k], names[i]);
			bad |= replay(path) < 0;
			files++;
			free(names[i]);
		}
	}
	free(names);
	printf("%ld inputs\n", files);
	return bad ? 2 : 0;
}
