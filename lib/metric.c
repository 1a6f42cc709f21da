/* The metric registry (see metric.h). Add a metric here first, then teach the
 * sampler or the loads to produce it. */
#include "config.h"
#include "metric.h"
#include "options.h"

#include <string.h>

const struct metric_def metric_table[] = {
	{ "starvation_max", METRIC_SECONDS, LOWER_IS_BETTER,
	  "longest runnable-but-not-running stretch, from the sampler (out-of-band)" },
	{ "starvation_max_upper", METRIC_SECONDS, LOWER_IS_BETTER,
	  "upper bound of starvation_max where late ticks merged waits (sampler)" },
	{ "starvation_max_sampler", METRIC_SECONDS, LOWER_IS_BETTER,
	  "the sampler's starvation_max, kept when exact mode (trace) gives starvation_max" },
	{ "wait_p50", METRIC_SECONDS, LOWER_IS_BETTER,
	  "median runnable-but-not-running stretch (exact mode)" },
	{ "wait_p99", METRIC_SECONDS, LOWER_IS_BETTER,
	  "99th percentile runnable-but-not-running stretch (exact mode)" },
	{ "wakeup_latency_p50", METRIC_SECONDS, LOWER_IS_BETTER,
	  "median time from wakeup to running, every task (exact mode)" },
	{ "wakeup_latency_p99", METRIC_SECONDS, LOWER_IS_BETTER,
	  "99th percentile time from wakeup to running (exact mode)" },
	{ "wakeup_latency_max", METRIC_SECONDS, LOWER_IS_BETTER,
	  "largest time from wakeup to running (exact mode)" },
	{ "starvation_max_inband", METRIC_SECONDS, LOWER_IS_BETTER,
	  "longest gap between a victim's or probe's own iterations (in-band)" },
	{ "wait_ratio", METRIC_RATIO, LOWER_IS_BETTER,
	  "run_delay / (run_delay + cpu time), from schedstat" },
	{ "cpu_share", METRIC_RATIO, HIGHER_IS_BETTER,
	  "CPU time / wall time of the run, per task (a load's figure is the mean of its tasks')" },
	{ "fairness", METRIC_RATIO, HIGHER_IS_BETTER,
	  "Jain's index of per-task CPU time or iterations within a load" },
	{ "fairness_minmax", METRIC_RATIO, HIGHER_IS_BETTER,
	  "min/max of per-task CPU time or iterations within a load" },
	{ "wakeup_p50", METRIC_SECONDS, LOWER_IS_BETTER, "median wakeup latency" },
	{ "wakeup_p90", METRIC_SECONDS, LOWER_IS_BETTER, "90th percentile wakeup latency" },
	{ "wakeup_p99", METRIC_SECONDS, LOWER_IS_BETTER, "99th percentile wakeup latency" },
	{ "wakeup_p999", METRIC_SECONDS, LOWER_IS_BETTER, "99.9th percentile wakeup latency" },
	{ "wakeup_max", METRIC_SECONDS, LOWER_IS_BETTER, "largest wakeup latency" },
	{ "deadline_miss_ratio", METRIC_RATIO, LOWER_IS_BETTER,
	  "share of frames or periods that missed their deadline" },
	{ "throughput", METRIC_PER_SECOND, HIGHER_IS_BETTER,
	  "iterations, round trips, requests or frames per second" },
};
const size_t metric_count = sizeof(metric_table) / sizeof(metric_table[0]);

const struct metric_def *metric_find(const char *name)
{
	for (size_t i = 0; i < metric_count; i++)
		if (!strcmp(metric_table[i].name, name))
			return &metric_table[i];
	return NULL;
}

const char *metric_suggest(const char *name)
{
	const char *names[sizeof(metric_table) / sizeof(metric_table[0])];

	for (size_t i = 0; i < metric_count; i++)
		names[i] = metric_table[i].name;
	return opt_suggest(name, names, metric_count);
}

const char *metric_unit_name(enum metric_unit unit)
{
	static const char *const names[] = {
		[METRIC_SECONDS] = "s", [METRIC_RATIO] = "ratio",
		[METRIC_PER_SECOND] = "1/s", [METRIC_COUNT] = "count",
	};
	return names[unit];
}
