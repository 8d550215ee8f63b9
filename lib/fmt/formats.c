/*
 * formats.c - the table of formats, as libarchive registers its
 * readers: the text stream first (it reads what no other format bids
 * for, with its own messages), then one entry per file in lib/fmt/.
 */
#include <string.h>

#include "fmt.h"

extern const struct trc_format trc_format_trc;
extern const struct trc_format trc_format_prv;
extern const struct trc_format trc_format_dumpi;
extern const struct trc_format trc_format_simgrid;
extern const struct trc_format trc_format_sddf;
extern const struct trc_format trc_format_dimemas;
extern const struct trc_format trc_format_chrome;
extern const struct trc_format trc_format_otf2;
extern const struct trc_format trc_format_trcb;
extern const struct trc_format trc_format_trcbz;

const struct trc_format *const trc_formats[] = {
	&trc_format_trc,
	&trc_format_prv,
	&trc_format_dumpi,
	&trc_format_simgrid,
	&trc_format_sddf,
	&trc_format_dimemas,
	&trc_format_chrome,
	&trc_format_otf2,
	&trc_format_trcb,
	&trc_format_trcbz,
	NULL
};

const struct trc_format *
trc_format_find(const char *name)
{
	const struct trc_format *f;
	size_t i;

	for (i = 0; (f = trc_formats[i]) != NULL; i++)
		if (strcmp(name, f->name) == 0 ||
		    (f->alias != NULL && strcmp(name, f->alias) == 0))
			return f;
	return NULL;
}

int
trc_format_info(size_t i, const char **name, int *reads, int *writes)
{
	size_t n;

	for (n = 0; trc_formats[n] != NULL; n++)
		;
	if (i >= n)
		return 0;
	*name = trc_formats[i]->name;
	*reads = trc_formats[i]->open != NULL || i == 0;
	*writes = trc_formats[i]->wopen != NULL;
	return 1;
}

int
trc_format_lookup(const char *name, int *reads, int *writes)
{
	const struct trc_format *f;

	if ((f = trc_format_find(name)) == NULL)
		return -1;
	*reads = f->open != NULL || f == trc_formats[0];
	*writes = f->wopen != NULL;
	return 0;
}
