/* The metric registry: every metric starve reports, with its id, its unit,
 * which direction is better, how it is printed and which source wins.
 * Profiles' expectations, verdicts, reports and `starve compare` all look
 * metrics up here, so a name means one thing.
 * Definitions are in doc/design.md ("Metrics: definitions").
 *
 * Values travel in canonical units: METRIC_SECONDS for durations (a profile's
 * "1.2s" becomes 1.2), plain ratios in [0, 1], rates per second, counts. */
#ifndef STARVE_METRIC_H
#define STARVE_METRIC_H

#include <stdbool.h>
#include <stddef.h>

enum metric_unit { METRIC_SECONDS, METRIC_RATIO, METRIC_PER_SECOND, METRIC_COUNT };
enum metric_better { LOWER_IS_BETTER, HIGHER_IS_BETTER };

/* Every metric by id, in the registry's order (lib/metric.c): code names a
 * metric by its id and gets the text from metric_name(), so a typo does not
 * compile and the name is written once. */
enum metric_id {
	MET_STARVATION_MAX, MET_STARVATION_MAX_UPPER, MET_STARVATION_MAX_SAMPLER,
	MET_STARVATION_MAX_SAMPLER_UPPER, MET_WAIT_P50, MET_WAIT_P99, MET_WAKEUP_LATENCY_P50,
	MET_WAKEUP_LATENCY_P99, MET_WAKEUP_LATENCY_MAX, MET_STARVATION_MAX_INBAND,
	MET_WAIT_RATIO, MET_CPU_SHARE, MET_FAIRNESS, MET_FAIRNESS_MINMAX, MET_WAKEUP_P50,
	MET_WAKEUP_P90, MET_WAKEUP_P99, MET_WAKEUP_P999, MET_WAKEUP_MAX,
	MET_DEADLINE_MISS_RATIO, MET_THROUGHPUT, MET_THROTTLED_PERIODS, MET_THROTTLED_RATIO,
	MET_THROTTLED_TIME, MET_THROTTLED_MAX, MET_QUOTA_WAIT_SHARE, MET_THROTTLED_MAX_INBAND,
	MET_STARVATION_MAX_INBAND_CPU, METRIC_N
};

/* Who measures a metric (a bit each): the sampler from /proc, the load's
 * own worker records (in-band), exact mode's tracepoints, the cgroup's
 * cpu.stat. */
enum metric_source {
	METRIC_FROM_SAMPLER = 1 << 0,
	METRIC_FROM_INBAND = 1 << 1,
	METRIC_FROM_EXACT = 1 << 2,
	METRIC_FROM_CGROUP = 1 << 3,
};

struct metric_def {
	const char *name;
	enum metric_unit unit;
	enum metric_better better;
	unsigned sources;	/* enum metric_source bits */
	const char *help;
};

extern const struct metric_def metric_table[];
extern const size_t metric_count;

/* The name of ID ("starvation_max"). */
const char *metric_name(enum metric_id id);
const struct metric_def *metric_find(const char *name);

/* The registry's source order: when several sources give a load's or a
 * task's metric, its figure is the first of these that gave one: exact mode
 * (tracepoints or BPF) over in-band (the load's own records) over the
 * cgroup's cpu.stat over the sampler. Where exact mode gives figures, the
 * sampler's that metric_sampler_kept_as() names are kept under that name
 * instead (doc/design.md "Result model"). */
#define METRIC_SOURCES 4
extern const enum metric_source metric_source_order[METRIC_SOURCES];

/* Where exact mode gives ID, the sampler's figure is kept under the id this returns
 * (starvation_max -> starvation_max_sampler); METRIC_N: it is not kept. */
enum metric_id metric_sampler_kept_as(enum metric_id id);
/* "did you mean" candidate for an unknown metric name, or NULL. */
const char *metric_suggest(const char *name);
const char *metric_unit_name(enum metric_unit unit);

/* Significant digits of a value in reports and `starve load`; compare shows
 * one more, to tell close medians apart. */
#define METRIC_DIGITS 3

/* VALUE of METRIC for people, with DIGITS significant digits: durations in the largest unit that keeps them readable
 * ("1.31s", "250us", whole seconds as "5s"), ratios plain ("0.0512"), rates
 * per second ("1.2e+06/s"), counts whole ("12"), a metric this starve does
 * not know as "%g"; "-" for NAN. Every printed metric value goes through
 * here, so a value reads the same in a table, a report and `starve load`.
 * Returns BUF. */
const char *metric_format(const char *metric, double value, int digits, char *buf, size_t len);

#endif
