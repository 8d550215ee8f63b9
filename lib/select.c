/*
 * select.c - the selections programs share: rank lists ("0,3-5") and
 * kind lists ("SB,RE" or a family letter, "S" for SB and SE).
 */
#include <string.h>

#include "trc.h"

int
trc_ranks_parse(const char *s, struct trc_ranks *sel)
{
	int64_t lo, hi;
	const char *end, *dash, *comma;

	sel->n = 0;
	while (*s != '\0') {
		comma = strchr(s, ',');
		end = comma ? comma : s + strlen(s);
		dash = memchr(s, '-', (size_t)(end - s));
		if (dash == NULL) {
			if (trc_parse_int(s, (size_t)(end - s), &lo) < 0)
				return -1;
			hi = lo;
		} else if (trc_parse_int(s, (size_t)(dash - s), &lo) < 0 ||
		    trc_parse_int(dash + 1, (size_t)(end - dash - 1), &hi) < 0)
			return -1;
		if (lo < 0 || hi < lo || hi > INT32_MAX || sel->n == TRC_MAXRANGES)
			return -1;
		sel->lo[sel->n] = (int32_t)lo;
		sel->hi[sel->n++] = (int32_t)hi;
		if (comma == NULL)
			break;
		s = comma + 1;
		if (*s == '\0')
			return -1;
	}
	return sel->n > 0 ? 0 : -1;
}

int
trc_ranks_has(const struct trc_ranks *sel, int32_t rank)
{
	int i;

	for (i = 0; i < sel->n; i++)
		if (rank >= sel->lo[i] && rank <= sel->hi[i])
			return 1;
	return 0;
}

int
trc_kinds_parse(const char *s, unsigned *mask)
{
	static const char families[] = "SRWXP";
	const char *end, *comma, *f;
	enum trc_kind k;

	*mask = 0;
	for (;;) {
		comma = strchr(s, ',');
		end = comma ? comma : s + strlen(s);
		if (end - s == 1 && *s != '\0' && (f = strchr(families, *s)) != NULL)
			*mask |= 3u << (2 * (f - families));
		else if (trc_kind_parse(s, (size_t)(end - s), &k) == 0)
			*mask |= 1u << k;
		else
			return -1;
		if (comma == NULL)
			return 0;
		s = comma + 1;
	}
}
