/* The metric registry (see metric.h). Add a metric here first, then teach the
 * sampler or the loads to produce it. */
#include "config.h"
#include "metric.h"
#include "options.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Short names for the sources column. */
#define FROM_SAMPLER METRIC_FROM_SAMPLER
#define FROM_INBAND METRIC_FROM_INBAND
#define FROM_EXACT METRIC_FROM_EXACT
#define FROM_CGROUP METRIC_FROM_CGROUP

const struct metric_def metric_table[] = {
	[MET_STARVATION_MAX] = { "starvation_max", METRIC_SECONDS, LOWER_IS_BETTER,
	  FROM_SAMPLER | FROM_EXACT,
	  "longest runnable-but-not-running stretch, from the sampler (out-of-band)" },
	[MET_STARVATION_MAX_UPPER] = { "starvation_max_upper", METRIC_SECONDS, LOWER_IS_BETTER,
	  FROM_SAMPLER, "upper bound of starvation_max where late ticks merged waits (sampler)" },
	[MET_STARVATION_MAX_SAMPLER] = { "starvation_max_sampler", METRIC_SECONDS, LOWER_IS_BETTER,
	  FROM_SAMPLER,
	  "the sampler's starvation_max, kept when exact mode (trace) gives starvation_max" },
	[MET_STARVATION_MAX_SAMPLER_UPPER] = { "starvation_max_sampler_upper", METRIC_SECONDS,
	  LOWER_IS_BETTER, FROM_SAMPLER,
	  "the sampler's starvation_max_upper, kept in exact mode" },
	[MET_WAIT_P50] = { "wait_p50", METRIC_SECONDS, LOWER_IS_BETTER,
	  FROM_EXACT, "median runnable-but-not-running stretch (exact mode)" },
	[MET_WAIT_P99] = { "wait_p99", METRIC_SECONDS, LOWER_IS_BETTER,
	  FROM_EXACT, "99th percentile runnable-but-not-running stretch (exact mode)" },
	[MET_WAKEUP_LATENCY_P50] = { "wakeup_latency_p50", METRIC_SECONDS, LOWER_IS_BETTER,
	  FROM_EXACT, "median time from wakeup to running, every task (exact mode)" },
	[MET_WAKEUP_LATENCY_P99] = { "wakeup_latency_p99", METRIC_SECONDS, LOWER_IS_BETTER,
	  FROM_EXACT, "99th percentile time from wakeup to running (exact mode)" },
	[MET_WAKEUP_LATENCY_MAX] = { "wakeup_latency_max", METRIC_SECONDS, LOWER_IS_BETTER,
	  FROM_EXACT, "largest time from wakeup to running (exact mode)" },
	[MET_STARVATION_MAX_INBAND] = { "starvation_max_inband", METRIC_SECONDS, LOWER_IS_BETTER,
	  FROM_INBAND, "longest gap between a victim's or probe's own iterations (in-band)" },
	[MET_WAIT_RATIO] = { "wait_ratio", METRIC_RATIO, LOWER_IS_BETTER,
	  FROM_SAMPLER, "run_delay / (run_delay + cpu time), from schedstat" },
	[MET_CPU_SHARE] = { "cpu_share", METRIC_RATIO, HIGHER_IS_BETTER,
	  FROM_SAMPLER | FROM_INBAND,
	  "CPU time / wall time of the run, per task (a load's figure is the mean of its tasks')" },
	[MET_FAIRNESS] = { "fairness", METRIC_RATIO, HIGHER_IS_BETTER,
	  FROM_SAMPLER | FROM_INBAND,
	  "Jain's index of per-task CPU time or iterations within a load" },
	[MET_FAIRNESS_MINMAX] = { "fairness_minmax", METRIC_RATIO, HIGHER_IS_BETTER,
	  FROM_SAMPLER | FROM_INBAND, "min/max of per-task CPU time or iterations within a load" },
	[MET_WAKEUP_P50] = { "wakeup_p50", METRIC_SECONDS, LOWER_IS_BETTER,
	  FROM_INBAND, "median wakeup latency" },
	[MET_WAKEUP_P90] = { "wakeup_p90", METRIC_SECONDS, LOWER_IS_BETTER,
	  FROM_INBAND, "90th percentile wakeup latency" },
	[MET_WAKEUP_P99] = { "wakeup_p99", METRIC_SECONDS, LOWER_IS_BETTER,
	  FROM_INBAND, "99th percentile wakeup latency" },
	[MET_WAKEUP_P999] = { "wakeup_p999", METRIC_SECONDS, LOWER_IS_BETTER,
	  FROM_INBAND, "99.9th percentile wakeup latency" },
	[MET_WAKEUP_MAX] = { "wakeup_max", METRIC_SECONDS, LOWER_IS_BETTER,
	  FROM_INBAND, "largest wakeup latency" },
	[MET_DEADLINE_MISS_RATIO] = { "deadline_miss_ratio", METRIC_RATIO, LOWER_IS_BETTER,
	  FROM_INBAND, "share of frames or periods that missed their deadline" },
	[MET_THROUGHPUT] = { "throughput", METRIC_PER_SECOND, HIGHER_IS_BETTER,
	  FROM_INBAND, "iterations, round trips, requests or frames per second" },
	/* cpu.stat of the load's cgroup (settings' cgroups: harness/run/cgroups.h) */
	[MET_THROTTLED_PERIODS] = { "throttled_periods", METRIC_COUNT, LOWER_IS_BETTER,
	  FROM_CGROUP, "periods in which the load's cgroup ran out of its cpu.max quota" },
	[MET_THROTTLED_RATIO] = { "throttled_ratio", METRIC_RATIO, LOWER_IS_BETTER,
	  FROM_CGROUP, "throttled periods / periods of the load's cgroup" },
	[MET_THROTTLED_TIME] = { "throttled_time", METRIC_SECONDS, LOWER_IS_BETTER,
	  FROM_CGROUP, "time the load's cgroup spent throttled (summed over its CPUs)" },
	[MET_THROTTLED_MAX] = { "throttled_max", METRIC_SECONDS, LOWER_IS_BETTER,
	  FROM_CGROUP,
	  "longest throttled stretch of the load's cgroup, as cpu.stat read at the sampler's rate showed it" },
	[MET_QUOTA_WAIT_SHARE] = { "quota_wait_share", METRIC_RATIO, LOWER_IS_BETTER,
	  FROM_CGROUP,
	  "throttled time / the measured window: the share of it the quota held the cgroup" },
	[MET_THROTTLED_MAX_INBAND] = { "throttled_max_inband", METRIC_SECONDS, LOWER_IS_BETTER,
	  FROM_CGROUP,
	  "the part of the load's longest in-band gap its cgroup spent throttled: a wait for the quota" },
	[MET_STARVATION_MAX_INBAND_CPU] = { "starvation_max_inband_cpu", METRIC_SECONDS, LOWER_IS_BETTER,
	  FROM_CGROUP,
	  "the rest of that gap: a wait for the CPU, not for the quota" },
};
const size_t metric_count = sizeof(metric_table) / sizeof(metric_table[0]);
_Static_assert(sizeof(metric_table) / sizeof(metric_table[0]) == METRIC_N,
	       "a row for every enum metric_id");

const enum metric_source metric_source_order[METRIC_SOURCES] = {
	METRIC_FROM_EXACT, METRIC_FROM_INBAND, METRIC_FROM_CGROUP, METRIC_FROM_SAMPLER,
};

const char *metric_name(enum metric_id id)
{
	return metric_table[id].name;
}

enum metric_id metric_sampler_kept_as(enum metric_id id)
{
	switch (id) {
	case MET_STARVATION_MAX:
		return MET_STARVATION_MAX_SAMPLER;
	case MET_STARVATION_MAX_UPPER:
		return MET_STARVATION_MAX_SAMPLER_UPPER;
	default:
		return METRIC_N;
	}
}

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
