/* Exact mode's result.json figures (harness/trace/trace-metrics.h). */
#include "config.h"
#include "harness/trace/trace-metrics.h"
#include "lib/histogram.h"
#include "lib/metric.h"
#include "lib/timeutil.h"

#include <math.h>
#include <sched.h>
#include <string.h>

const char *trace_policy_name(int policy, int prio)
{
	switch (policy) {
	case SCHED_OTHER: return "OTHER";
	case SCHED_FIFO: return "FIFO";
	case SCHED_RR: return "RR";
	case SCHED_BATCH: return "BATCH";
	case SCHED_IDLE: return "IDLE";
	case 6: return "DEADLINE";	/* SCHED_DEADLINE: not in every libc's sched.h */
	default: break;
	}
	return prio == -1 ? "DEADLINE" : prio < 100 ? "RT" : "OTHER";
}

static double trace_seconds(int64_t ns)
{
	return (double)ns / NSEC_PER_SEC;
}

/* One holder of the CPU (trace-metrics.h). */
json_t *trace_holder_json(const struct tsched_holder *h)
{
	const char *policy = trace_policy_name(h->policy, h->prio);
	json_t *o = json_pack("{s:i, s:s, s:s, s:f}", "pid", (int)h->pid, "comm", h->comm,
			      "policy", policy, "time_s", trace_seconds(h->ns));

	if (!o)
		return NULL;
	if (h->prio >= 0 && h->prio < 100)
		json_object_set_new(o, "priority", json_integer(99 - h->prio));
	else if (h->prio >= 100)
		json_object_set_new(o, "nice", json_integer(h->prio - 120));
	return o;
}

static json_t *trace_longest_json(const struct tsched_task *k, int64_t from_ns)
{
	const struct tsched_longest *l = &k->longest;
	json_t *held = json_array(), *o;

	for (size_t i = 0; held && i < l->n_holders; i++)
		json_array_append_new(held, trace_holder_json(&l->holders[i]));
	o = json_pack("{s:i, s:s, s:i, s:f, s:f, s:o, s:f, s:b}", "tid", (int)k->pid, "comm",
		      k->comm, "cpu", l->cpu, "wait_s", trace_seconds(l->ns), "at_s",
		      trace_seconds(l->from_ns - from_ns), "ran_instead", held ? held : json_array(),
		      "others_s", trace_seconds(l->others_ns), "partial", l->partial);
	return o;
}

/* Percentile P of H in seconds into OBJ as metric ID (nothing when H is empty). */
static void trace_set_pct(json_t *obj, enum metric_id id, const struct histogram *h, double p)
{
	if (h->count)
		json_object_set_new(obj, metric_name(id), json_real(trace_seconds(
			(int64_t)(p >= 100 ? h->max : hist_percentile(h, p)))));
}

/* The exact figures of one task or load (trace-metrics.h).
 * Exact mode's starvation_max wins over the sampler's, which is kept under
 * the name the registry gives it (metric_sampler_kept_as), as is its upper
 * bound: exact figures have none. */
void trace_metrics_set(json_t *metrics, int64_t longest_ns, const struct histogram *wait,
		       const struct histogram *wakeup)
{
	static const enum metric_id sampler_figures[] = { MET_STARVATION_MAX,
							  MET_STARVATION_MAX_UPPER };

	for (size_t i = 0; i < sizeof(sampler_figures) / sizeof(sampler_figures[0]); i++) {
		json_t *old = json_object_get(metrics, metric_name(sampler_figures[i]));
		const char *kept = metric_name(metric_sampler_kept_as(sampler_figures[i]));

		if (json_is_number(old) && !json_object_get(metrics, kept))
			json_object_set(metrics, kept, old);
	}
	json_object_del(metrics, metric_name(MET_STARVATION_MAX_UPPER));
	json_object_set_new(metrics, metric_name(MET_STARVATION_MAX),
			    json_real(trace_seconds(longest_ns)));
	trace_set_pct(metrics, MET_WAIT_P50, wait, 50);
	trace_set_pct(metrics, MET_WAIT_P99, wait, 99);
	trace_set_pct(metrics, MET_WAKEUP_LATENCY_P50, wakeup, 50);
	trace_set_pct(metrics, MET_WAKEUP_LATENCY_P99, wakeup, 99);
	trace_set_pct(metrics, MET_WAKEUP_LATENCY_MAX, wakeup, 100);
}

/* The task objects of LOAD get their own exact figures. */
static void trace_task_metrics(const struct tsched *t, json_t *load)
{
	json_t *task;
	size_t i;

	json_array_foreach(json_object_get(load, "tasks"), i, task) {
		const struct tsched_task *k = tsched_find(t,
			(pid_t)json_integer_value(json_object_get(task, "tid")));
		json_t *m = json_object_get(task, "metrics");

		if (k && k->wait && json_is_object(m))
			trace_metrics_set(m, k->longest.ns, k->wait, k->wakeup);
	}
}

int trace_load_metrics(const struct tsched *t, const pid_t *tids, size_t n, int64_t from_ns,
		       json_t *load)
{
	struct histogram wait, wakeup;
	const struct tsched_task *longest = NULL;
	uint64_t stretches = 0, unknown = 0;
	json_t *metrics = json_object_get(load, "metrics"), *tr;

	if (!json_is_object(metrics))
		return -1;
	hist_init(&wait);
	hist_init(&wakeup);
	for (size_t i = 0; i < n; i++) {
		const struct tsched_task *k = tsched_find(t, tids[i]);

		if (!k)
			continue;
		stretches += k->stretches;
		unknown += k->unknown_starts;
		if (!k->wait)
			continue;
		hist_merge(&wait, k->wait);
		hist_merge(&wakeup, k->wakeup);
		if (!longest || k->longest.ns > longest->longest.ns)
			longest = k;
	}
	trace_metrics_set(metrics, longest ? longest->longest.ns : 0, &wait, &wakeup);
	trace_task_metrics(t, load);
	tr = json_pack("{s:I, s:I}", "stretches", (json_int_t)stretches, "unknown_starts",
		       (json_int_t)unknown);
	if (!tr)
		return -1;
	if (longest && longest->longest.ns > 0)
		json_object_set_new(tr, "longest", trace_longest_json(longest, from_ns));
	return json_object_set_new(load, "trace", tr);
}
