/*
 * model.c - the table of models (trc_model.h), as libarchive keeps its
 * table of formats: trc_model_new() finds one by name and builds it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"

extern const struct trc_model_ops trc_model_recorded_ops;
extern const struct trc_model_ops trc_model_fit_ops;
extern const struct trc_model_ops trc_model_loggp_ops;

static const struct trc_model_ops *const models[] = {
	&trc_model_fit_ops,
	&trc_model_loggp_ops,
	&trc_model_recorded_ops,
};

const struct trc_model trc_model_recorded = { &trc_model_recorded_ops, NULL };

struct trc_model *
trc_model_new(const char *name, const struct trc_model_conf *conf, char *err,
    size_t errlen)
{
	const struct trc_model_ops *ops = NULL;
	struct trc_model *m;
	size_t i;

	for (i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (strcmp(models[i]->name, name) == 0)
			ops = models[i];
	if (ops == NULL) {
		snprintf(err, errlen, "unknown model '%s'", name);
		return NULL;
	}
	if ((m = malloc(sizeof(*m))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	m->ops = ops;
	if ((m->state = ops->new(conf, err, errlen)) == NULL) {
		free(m);
		return NULL;
	}
	return m;
}

void
trc_model_free(struct trc_model *m)
{
	if (m == NULL)
		return;
	m->ops->free(m->state);
	free(m);
}

const char *
trc_model_error(const struct trc_model *m)
{
	return m->ops->error(m->state);
}
