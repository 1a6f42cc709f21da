/* Out-of-band metrics (harness/sampler/oob-metrics.h): the sampler's per-task
 * counters turned into result.json metrics, in seconds and ratios. A load's
 * wait ratio is taken over its tasks' summed deltas, so a task seen for a
 * short time weighs by its time, not as much as a long-lived one. */
#include "config.h"
#include "harness/sampler/oob-metrics.h"
#include "lib/fairness.h"
#include "lib/metric.h"
#include "lib/timeutil.h"

#include <math.h>
#include <stdlib.h>

static double oob_seconds(int64_t ns)
{
	return (double)ns / NSEC_PER_SEC;
}

/* Set metric ID to V in OBJ unless it is there already (in-band wins,
 * lib/metric.h) or V is not a number. */
static void oob_set(json_t *obj, enum metric_id id, double v)
{
	const char *key = metric_name(id);

	if (isfinite(v) && !json_object_get(obj, key))
		json_object_set_new(obj, key, json_real(v));
}

static double oob_wait_ratio(int64_t run_delay, int64_t cpu)
{
	return run_delay + cpu > 0 ? (double)run_delay / (double)(run_delay + cpu) : NAN;
}

json_t *oob_task_metrics(const struct sampler_task_result *t, int64_t window_ns)
{
	json_t *m = json_object();

	if (!window_ns)
		window_ns = t->last_ns - t->first_ns;
	oob_set(m, MET_STARVATION_MAX, oob_seconds(t->starvation_max_ns));
	if (t->starvation_max_upper_ns > t->starvation_max_ns)
		oob_set(m, MET_STARVATION_MAX_UPPER, oob_seconds(t->starvation_max_upper_ns));
	oob_set(m, MET_WAIT_RATIO, oob_wait_ratio(t->run_delay_ns, t->cpu_ns));
	if (window_ns > 0)
		oob_set(m, MET_CPU_SHARE, (double)t->cpu_ns / (double)window_ns);
	return m;
}

static json_t *oob_task_json(const struct sampler_task_result *t, int64_t window_ns)
{
	return json_pack("{s:i, s:i, s:s, s:b, s:o}", "tid", (int)t->tid, "pid", (int)t->pid,
			 "comm", t->comm, "exited", t->exited,
			 "metrics", oob_task_metrics(t, window_ns));
}

static json_t *oob_series_json(const struct sampler *s, int group)
{
	struct sampler_series ser;
	json_t *share, *waiting;

	if (sampler_group_series(s, group, &ser) < 0)
		return NULL;
	share = json_array();
	waiting = json_array();
	for (size_t i = 0; i < ser.n; i++) {
		json_array_append_new(share, json_real(ser.cpu_share[i]));
		json_array_append_new(waiting, json_real(ser.runnable_waiting[i]));
	}
	return json_pack("{s:f, s:o, s:o}", "interval_s", oob_seconds(ser.interval_ns),
			 "cpu_share", share, "runnable_waiting", waiting);
}

/* Sums over GROUP's tasks, then the load's metrics into METRICS; COPIES:
 * 0 for a load of peer tasks, else the copies of a command (see .h). */
static int oob_group_metrics(const struct sampler *s, int group, unsigned copies,
			     int64_t window_ns, json_t *metrics, json_t *tasks)
{
	size_t n = 0, total = sampler_n_tasks(s);
	int64_t cpu = 0, delay = 0, starve = 0, upper = 0;
	double *cpus = calloc(total ? total : 1, sizeof(*cpus));

	if (!cpus)
		return -1;
	for (size_t i = 0; i < total; i++) {
		const struct sampler_task_result *t = sampler_task(s, i);

		if (t->group != group)
			continue;
		json_array_append_new(tasks, oob_task_json(t, window_ns));
		cpus[n++] = (double)t->cpu_ns;
		cpu += t->cpu_ns;
		delay += t->run_delay_ns;
		if (t->starvation_max_ns > starve)
			starve = t->starvation_max_ns;
		if (t->starvation_max_upper_ns > upper)
			upper = t->starvation_max_upper_ns;
	}
	if (n) {
		/* the upper bound only when the sampler is the source of both */
		if (upper > starve && !json_object_get(metrics, metric_name(MET_STARVATION_MAX)))
			oob_set(metrics, MET_STARVATION_MAX_UPPER, oob_seconds(upper));
		oob_set(metrics, MET_STARVATION_MAX, oob_seconds(starve));
		oob_set(metrics, MET_WAIT_RATIO, oob_wait_ratio(delay, cpu));
		/* the mean of the tasks', as in-band (lib/metric.c), or of the copies' */
		if (window_ns > 0)
			oob_set(metrics, MET_CPU_SHARE, (double)cpu / (double)window_ns /
						      (double)(copies ? copies : n));
	}
	if (n >= 2 && !copies) {
		oob_set(metrics, MET_FAIRNESS, jain_index(cpus, n));
		oob_set(metrics, MET_FAIRNESS_MINMAX, min_max_ratio(cpus, n));
	}
	free(cpus);
	return (int)n;
}

static int oob_load(const struct sampler *s, int group, unsigned copies, json_t *load)
{
	struct sampler_quality q;
	json_t *metrics = json_object_get(load, "metrics"), *tasks = json_array(), *series;
	int n;

	if (!tasks)
		return -1;
	if (!metrics) {
		metrics = json_object();
		if (!metrics || json_object_set_new(load, "metrics", metrics) < 0) {
			json_decref(tasks);
			return -1;
		}
	}
	sampler_quality(s, &q);
	n = oob_group_metrics(s, group, copies, q.window_ns, metrics, tasks);
	if (n < 0) {
		json_decref(tasks);
		return -1;
	}
	json_object_set_new(load, "tasks_seen", json_integer(n));
	json_object_set_new(load, "tasks", tasks);
	series = oob_series_json(s, group);
	if (series)
		json_object_set_new(load, "timeseries", series);
	return 0;
}

int oob_load_metrics(const struct sampler *s, int group, json_t *load)
{
	return oob_load(s, group, 0, load);
}

int oob_load_metrics_copies(const struct sampler *s, int group, unsigned copies,
			    json_t *load)
{
	return oob_load(s, group, copies ? copies : 1, load);
}

json_t *oob_sampler_json(const struct sampler *s)
{
	struct sampler_quality q;

	sampler_quality(s, &q);
	return json_pack("{s:i, s:f, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:I, s:f, s:i}",
			 "target_hz", q.target_hz, "achieved_hz", q.achieved_hz,
			 "ticks", (json_int_t)q.ticks, "late_ticks", (json_int_t)q.late_ticks,
			 "missed_ticks", (json_int_t)q.missed_ticks, "tasks", (json_int_t)q.tasks,
			 "tasks_unsampled", (json_int_t)q.tasks_unsampled, "cpu_s", q.cpu_s, "cost_us_per_task_tick", q.cost_us_per_task_tick,
			 "reads_per_task_tick", q.reads_per_task_tick,
			 "cpu_clock_jumps", (json_int_t)q.cpu_clock_jumps,
			 "cpu_clock_jump_s", q.cpu_clock_jump_s, "priority", q.priority);
}
