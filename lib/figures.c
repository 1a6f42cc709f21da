/* Figures by source (lib/figures.h). */
#include "config.h"
#include "lib/figures.h"

#include <math.h>

void figures_init(struct figures *f)
{
	f->n = 0;
}

static struct figure *figures_find(const struct figures *f, enum metric_source source,
				   enum metric_id id)
{
	for (unsigned i = 0; i < f->n; i++)
		if (f->f[i].id == id && f->f[i].source == source)
			return (struct figure *)&f->f[i];
	return NULL;
}

void figures_put(struct figures *f, enum metric_source source, enum metric_id id,
		 double value)
{
	struct figure *old = figures_find(f, source, id);

	if (!isfinite(value))
		return;
	if (old)
		old->value = value;
	else if (f->n < FIGURES_MAX)	/* a source gives a metric once: never full */
		f->f[f->n++] = (struct figure){ .id = id, .source = source, .value = value };
}

double figures_get(const struct figures *f, enum metric_source source, enum metric_id id)
{
	const struct figure *x = figures_find(f, source, id);

	return x ? x->value : NAN;
}

bool figures_from(const struct figures *f, enum metric_source source)
{
	for (unsigned i = 0; i < f->n; i++)
		if (f->f[i].source == source)
			return true;
	return false;
}
