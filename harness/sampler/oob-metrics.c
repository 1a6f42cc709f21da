/* Out-of-band metrics (harness/sampler/oob-metrics.h): the sampler's per-task
 * counters turned into figures, in seconds and ratios. A load's wait ratio
 * is taken over its tasks' summed deltas, so a task seen for a short time
 * weighs by its time, not as much as a long-lived one. */
#include "config.h"
#include "harness/sampler/oob-metrics.h"
#include "lib/fairness.h"
#include "lib/timeutil.h"

#include <math.h>
#include <stdlib.h>

static double oob_seconds(int64_t ns)
{
	return (double)ns / NSEC_PER_SEC;
}

static void oob_put(struct figures *f, enum metric_id id, double v)
{
	figures_put(f, METRIC_FROM_SAMPLER, id, v);
}

static double oob_wait_ratio(int64_t run_delay, int64_t cpu)
{
	return run_delay + cpu > 0 ? (double)run_delay / (double)(run_delay + cpu) : NAN;
}

void oob_task_figures(const struct sampler_task_result *t, int64_t window_ns,
		      struct figures *f)
{
	if (!window_ns)
		window_ns = t->last_ns - t->first_ns;
	oob_put(f, MET_STARVATION_MAX, oob_seconds(t->starvation_max_ns));
	if (t->starvation_max_upper_ns > t->starvation_max_ns)
		oob_put(f, MET_STARVATION_MAX_UPPER, oob_seconds(t->starvation_max_upper_ns));
	oob_put(f, MET_WAIT_RATIO, oob_wait_ratio(t->run_delay_ns, t->cpu_ns));
	if (window_ns > 0)
		oob_put(f, MET_CPU_SHARE, (double)t->cpu_ns / (double)window_ns);
}

int oob_load_figures(const struct sampler *s, int group, unsigned copies, struct figures *f)
{
	size_t n = 0, total = sampler_n_tasks(s);
	int64_t cpu = 0, delay = 0, starve = 0, upper = 0;
	double *cpus = calloc(total ? total : 1, sizeof(*cpus));
	struct sampler_quality q;

	if (!cpus)
		return -1;
	sampler_quality(s, &q);
	for (size_t i = 0; i < total; i++) {
		const struct sampler_task_result *t = sampler_task(s, i);

		if (t->group != group)
			continue;
		cpus[n++] = (double)t->cpu_ns;
		cpu += t->cpu_ns;
		delay += t->run_delay_ns;
		if (t->starvation_max_ns > starve)
			starve = t->starvation_max_ns;
		if (t->starvation_max_upper_ns > upper)
			upper = t->starvation_max_upper_ns;
	}
	if (n) {
		if (upper > starve)
			oob_put(f, MET_STARVATION_MAX_UPPER, oob_seconds(upper));
		oob_put(f, MET_STARVATION_MAX, oob_seconds(starve));
		oob_put(f, MET_WAIT_RATIO, oob_wait_ratio(delay, cpu));
		/* the mean of the tasks', as in-band (lib/metric.c), or of the copies' */
		if (q.window_ns > 0)
			oob_put(f, MET_CPU_SHARE, (double)cpu / (double)q.window_ns /
						  (double)(copies ? copies : n));
	}
	if (n >= 2 && !copies) {
		oob_put(f, MET_FAIRNESS, jain_index(cpus, n));
		oob_put(f, MET_FAIRNESS_MINMAX, min_max_ratio(cpus, n));
	}
	free(cpus);
	return (int)n;
}
