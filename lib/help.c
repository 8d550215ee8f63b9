/*
 * help.c - each program's option lines for --help, made at build time
 * from its man page by man/help.sh (build/help.h), so that --help and
 * the page say the same.
 */
#include <string.h>

#include "prog.h"
#include "trc.h"
#include "help.h"

const char *
trc_help(const char *prog)
{
	size_t i;

	for (i = 0; trc_help_table[i] != NULL; i += 2)
		if (strcmp(trc_help_table[i], prog) == 0)
			return trc_help_table[i + 1];
	return NULL;
}
