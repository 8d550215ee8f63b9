/*
 * intern.c - names to small ids, with an open-addressing hash table
 * (FNV-1a, linear probing) kept at most half full.
 */
#include <stdlib.h>
#include <string.h>

#include "trc.h"

static uint32_t
hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	while (len-- > 0)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* Whether name is the len bytes at s: a loop, as names are short and
 * a call of strncmp costs more (measured: trc-sum on trcb). */
static int
same(const char *name, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (name[i] != s[i] || name[i] == '\0')
			return 0;
	return name[len] == '\0';
}

int32_t
trc_intern_find(const struct trc_intern *in, const char *s, size_t len)
{
	uint32_t i;

	if (in->hcap == 0)
		return -1;
	for (i = hash(s, len) & (in->hcap - 1); in->hash[i] != 0;
	    i = (i + 1) & (in->hcap - 1))
		if (same(in->name[in->hash[i] - 1], s, len))
			return in->hash[i] - 1;
	return -1;
}

static int
grow(struct trc_intern *in)
{
	uint32_t cap = in->hcap ? 2 * in->hcap : 64, i, j;
	int32_t *h;

	if ((h = calloc(cap, sizeof(*h))) == NULL)
		return -1;
	for (j = 0; j < (uint32_t)in->n; j++) {
		i = hash(in->name[j], strlen(in->name[j])) & (cap - 1);
		while (h[i] != 0)
			i = (i + 1) & (cap - 1);
		h[i] = (int32_t)j + 1;
	}
	free(in->hash);
	in->hash = h;
	in->hcap = cap;
	return 0;
}

int32_t
trc_intern(struct trc_intern *in, const char *s, size_t len)
{
	int32_t id;
	uint32_t i;
	char **p, *copy;

	if ((id = trc_intern_find(in, s, len)) >= 0)
		return id;
	if ((uint32_t)(in->n + 1) * 2 > in->hcap && grow(in) < 0)
		return -1;
	if (in->n == in->cap) {
		if ((p = realloc(in->name, (size_t)(in->cap ? 2 * in->cap : 16) *
		    sizeof(*p))) == NULL)
			return -1;
		in->name = p;
		in->cap = in->cap ? 2 * in->cap : 16;
	}
	if ((copy = malloc(len + 1)) == NULL)
		return -1;
	memcpy(copy, s, len);
	copy[len] = '\0';
	in->name[in->n] = copy;
	for (i = hash(s, len) & (in->hcap - 1); in->hash[i] != 0;
	    i = (i + 1) & (in->hcap - 1))
		;
	in->hash[i] = in->n + 1;
	return in->n++;
}

void
trc_intern_free(struct trc_intern *in)
{
	int32_t i;

	for (i = 0; i < in->n; i++)
		free(in->name[i]);
	free(in->name);
	free(in->hash);
	memset(in, 0, sizeof(*in));
}
