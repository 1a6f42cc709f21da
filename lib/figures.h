/* A load's or a task's figures as each producer measured them, keyed by the
 * metric registry (lib/metric.h). The producers (the loads' in-band
 * summaries, the sampler, the cgroup's cpu.stat, exact and BPF mode) put
 * values here and never touch result.json; the serialiser
 * (harness/run/result-build.c) decides by the registry's source order which
 * figure a metric is (metric_source_rank) and writes it. */
#ifndef STARVE_FIGURES_H
#define STARVE_FIGURES_H

#include <stdbool.h>

#include "lib/metric.h"

/* One value of a metric and who measured it. */
struct figure {
	enum metric_id id;
	enum metric_source source;	/* one bit */
	double value;
};

/* Every figure a producer gave, each source's in the order it gave them
 * (the serialiser keeps that order in result.json). */
#define FIGURES_MAX (2 * METRIC_N)
struct figures {
	unsigned n;
	struct figure f[FIGURES_MAX];
};

void figures_init(struct figures *f);
/* VALUE of ID as SOURCE measured it. A value that is not a finite number
 * is left out (a metric that does not apply is absent); a second value of
 * ID from SOURCE replaces the first. */
void figures_put(struct figures *f, enum metric_source source, enum metric_id id,
		 double value);
/* The value of ID from SOURCE, NAN when SOURCE gave none. */
double figures_get(const struct figures *f, enum metric_source source, enum metric_id id);
/* Whether SOURCE gave any figure. */
bool figures_from(const struct figures *f, enum metric_source source);

#endif
