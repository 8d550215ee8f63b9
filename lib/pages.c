/*
 * pages.c - arrays indexed by rank, in pages allocated as ranks come,
 * so that memory follows the ranks present, not the largest rank
 * number: one rank of number 2,000,000 costs one page, not two
 * million elements.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"

void *
trc_pages_get(struct trc_pages *p, size_t i)
{
	size_t k = i >> TRC_PAGE_SHIFT, n;
	void **v;

	if (k >= p->npg) {
		n = p->npg ? p->npg : 4;
		while (n <= k)
			n *= 2;
		if ((v = realloc(p->pg, n * sizeof(*v))) == NULL)
			return NULL;
		memset(v + p->npg, 0, (n - p->npg) * sizeof(*v));
		p->pg = v;
		p->npg = n;
	}
	if (p->pg[k] == NULL &&
	    (p->pg[k] = calloc(TRC_PAGE, p->elsize)) == NULL)
		return NULL;
	return (char *)p->pg[k] + (i & (TRC_PAGE - 1)) * p->elsize;
}

void
trc_pages_free(struct trc_pages *p)
{
	size_t k;

	for (k = 0; k < p->npg; k++)
		free(p->pg[k]);
	free(p->pg);
	p->pg = NULL;
	p->npg = 0;
}

int
trc_grow(void *pp, size_t *cap, size_t need, size_t size, size_t first)
{
	void *p;
	size_t n = *cap ? *cap : first;

	if (need <= *cap)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -1;
		n *= 2;
	}
	if (n > SIZE_MAX / size ||
	    (p = realloc(*(void **)pp, n * size)) == NULL)
		return -1;
	*(void **)pp = p;
	*cap = n;
	return 0;
}
