/*
 * error.c - the library's one way of handing a message back: into the
 * caller's buffer, never to a stream.
 */
#include <stdarg.h>
#include <stdio.h>

#include "trc.h"

int
trc_errorf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}
