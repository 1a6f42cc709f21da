/* In-band metrics: what a load's own worker records say (iterations, gaps,
 * deadlines, latencies), summarized per load as data for `starve load` and
 * for the run engine, which writes them into result.json
 * (harness/run/result-build.c). Durations here are in seconds, like
 * metrics. */
#ifndef STARVE_INBAND_H
#define STARVE_INBAND_H

#include <stddef.h>
#include <stdint.h>

#include "lib/histogram.h"
#include "lib/metric.h"
#include "loads/load.h"
#include "loads/stats.h"

/* NAN where a metric does not apply to the load. */
struct inband_summary {
	unsigned workers;		/* records that ran */
	uint64_t iterations;
	double throughput;		/* iterations per second of wall_ns */
	double starvation_max_inband;	/* s; LOAD_INBAND_GAPS types only */
	double deadline_miss_ratio;	/* only when met + missed > 0 */
	double fairness, fairness_minmax;	/* of iterations; LOAD_FAIRNESS, >= 2 workers */
	double cpu_share;		/* CPU time over the workers' lifetimes */
	uint64_t gaps_over_1ms, gaps_over_10ms, gaps_over_100ms;
	struct histogram hist;		/* all records merged; meaning: type->hist */
};

/* Summarize records [first, first + n) of BLOCK; WALL_NS is the measured
 * length of the run (for throughput). */
void inband_summarize(const struct load_type *type, const struct stats_block *block,
		      unsigned first, unsigned n, int64_t wall_ns, struct inband_summary *out);

/* One metric of lib/metric.c and the value SUM gives it. */
struct inband_metric {
	const char *name;
	enum metric_id id;
	double value;
};
#define INBAND_MAX_METRICS 16

/* The metrics of SUM that apply to TYPE and were measured, into OUT (room
 * for INBAND_MAX_METRICS), always in the same order: throughput,
 * starvation_max_inband, deadline_miss_ratio, fairness, fairness_minmax,
 * cpu_share, then the wakeup percentiles of a wakeup-latency histogram.
 * Returns how many. */
size_t inband_metrics(const struct load_type *type, const struct inband_summary *sum,
		      struct inband_metric *out);

/* The name of a histogram meaning ("wakeup_latency", "round_trip",
 * "lateness", "gap"), or NULL for HIST_NONE. */
const char *inband_hist_name(enum load_hist hist);

#endif
