/* The metric registry (see metric.h). Add a metric here first, then teach the
 * sampler or the loads to produce it. */
#include "config.h"
#include "metric.h"
#include "options.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct metric_def metric_table[] = {
	{ "starvation_max", METRIC_SECONDS, LOWER_IS_BETTER,
	  "longest runnable-but-not-running stretch, from the sampler (out-of-band)" },
	{ "starvation_max_upper", METRIC_SECONDS, LOWER_IS_BETTER,
	  "upper bound of starvation_max where late ticks merged waits (sampler)" },
	{ "starvation_max_sampler", METRIC_SECONDS, LOWER_IS_BETTER,
	  "the sampler's starvation_max, kept when exact mode (trace) gives starvation_max" },
	{ "starvation_max_sampler_upper", METRIC_SECONDS, LOWER_IS_BETTER,
	  "the sampler's starvation_max_upper, kept in exact mode" },
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
	/* cpu.stat of the load's cgroup (settings' cgroups: harness/run/cgroups.h) */
	{ "throttled_periods", METRIC_COUNT, LOWER_IS_BETTER,
	  "periods in which the load's cgroup ran out of its cpu.max quota" },
	{ "throttled_ratio", METRIC_RATIO, LOWER_IS_BETTER,
	  "throttled periods / periods of the load's cgroup" },
	{ "throttled_time", METRIC_SECONDS, LOWER_IS_BETTER,
	  "time the load's cgroup spent throttled (summed over its CPUs)" },
	{ "throttled_max", METRIC_SECONDS, LOWER_IS_BETTER,
	  "longest throttled stretch of the load's cgroup, as cpu.stat read at the sampler's rate showed it" },
	{ "quota_wait_share", METRIC_RATIO, LOWER_IS_BETTER,
	  "throttled time / the measured window: the share of it the quota held the cgroup" },
	{ "throttled_max_inband", METRIC_SECONDS, LOWER_IS_BETTER,
	  "the part of the load's longest in-band gap its cgroup spent throttled: a wait for the quota" },
	{ "starvation_max_inband_cpu", METRIC_SECONDS, LOWER_IS_BETTER,
	  "the rest of that gap: a wait for the CPU, not for the quota" },
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

/* Seconds in s, ms, us or ns, the unit chosen after rounding to DIGITS
 * significant digits, so 0.9996 with 3 digits reads "1s", not "1e+03ms". */
static void metric_format_seconds(double v, int digits, char *buf, size_t len)
{
	static const struct {
		double scale;
		const char *unit;
	} units[] = { { 1, "s" }, { 1e3, "ms" }, { 1e6, "us" }, { 1e9, "ns" } };
	char rounded[64];
	double r, mag;
	size_t u = 0;

	snprintf(rounded, sizeof(rounded), "%.*g", digits, v);
	r = strtod(rounded, NULL);
	mag = fabs(r);
	if (mag == 0) {
		snprintf(buf, len, "0s");
		return;
	}
	while (u + 1 < sizeof(units) / sizeof(units[0]) && mag * units[u].scale < 1)
		u++;
	if (u == 0 && mag < 1e15 && r == floor(r))
		snprintf(buf, len, "%.0fs", r);	/* "5s", not "5.00s" or "1.23e+03s" */
	else
		snprintf(buf, len, "%.*g%s", digits, v * units[u].scale, units[u].unit);
}

const char *metric_format(const char *metric, double value, int digits, char *buf, size_t len)
{
	const struct metric_def *def = metric ? metric_find(metric) : NULL;

	if (isnan(value)) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (!def || !isfinite(value)) {
		snprintf(buf, len, "%.*g", digits, value);
		return buf;
	}
	switch (def->unit) {
	case METRIC_SECONDS:
		metric_format_seconds(value, digits, buf, len);
		break;
	case METRIC_RATIO:
		snprintf(buf, len, "%.*g", digits, value);
		break;
	case METRIC_PER_SECOND:
		snprintf(buf, len, "%.*g/s", digits, value);
		break;
	case METRIC_COUNT:
		snprintf(buf, len, "%.0f", value);
		break;
	}
	return buf;
}
