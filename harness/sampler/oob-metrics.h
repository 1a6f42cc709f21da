/* Out-of-band metrics: from the sampler's per-task counters to the per-task
 * and per-load metrics of result.json (doc/result-format.md): starvation_max
 * (s), wait_ratio, cpu_share, and per load fairness (Jain's index, min/max
 * of per-task CPU), plus the load's down-sampled time series. */
#ifndef STARVE_OOB_METRICS_H
#define STARVE_OOB_METRICS_H

#include <jansson.h>
#include <stdint.h>

#include "harness/sampler/sampler.h"

/* Per-task metrics object: { "starvation_max", "wait_ratio", "cpu_share" }.
 * WINDOW_NS: the run's sampling window (cpu_share = cpu / window); 0 uses
 * the task's own observed window. A ratio whose denominator is 0 is left
 * out (a metric that does not apply is absent). */
json_t *oob_task_metrics(const struct sampler_task_result *t, int64_t window_ns);

/* For GROUP of S: fills LOAD (a result.json load object) with
 * "tasks_seen", "tasks": [{tid, pid, comm, exited, metrics}], "timeseries",
 * and merges into LOAD's "metrics" object (created if absent):
 * starvation_max (max over tasks), wait_ratio (over the summed deltas),
 * cpu_share (summed), fairness (Jain's index) and fairness_minmax (of per-task
 * CPU time, with at least 2 tasks). Keys already in "metrics" are kept (in-band wins).
 * Returns -1 on allocation failure. */
int oob_load_metrics(const struct sampler *s, int group, json_t *load);
/* The same for a load whose tasks are the processes that COPIES (> 0) copies
 * of a command started (LOAD_TRACK_PGROUP, exec): its cpu_share is their
 * summed CPU per copy, the command's however many processes it forks and
 * however short-lived, and there is no fairness (they are no peers). */
int oob_load_metrics_copies(const struct sampler *s, int group, unsigned copies,
			    json_t *load);

/* The run's "sampler" object (doc/result-format.md). */
json_t *oob_sampler_json(const struct sampler *s);

#endif
