/* In-band metrics: what a load's own worker records say (iterations, gaps,
 * deadlines, latencies), summarized per load for `starve load` and for the
 * run engine's result.json. Durations here are in seconds, like metrics. */
#ifndef STARVE_INBAND_H
#define STARVE_INBAND_H

#include <jansson.h>
#include <stdint.h>

#include "lib/histogram.h"
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

/* Set the metrics of lib/metric.c that apply into METRICS, and the histogram
 * under its meaning's name ("wakeup_latency", "round_trip", "lateness",
 * "gap") into HISTOGRAMS when it holds anything. */
void inband_metrics_json(const struct load_type *type, const struct inband_summary *sum,
			 json_t *metrics, json_t *histograms);

/* The name of a histogram meaning, or NULL for HIST_NONE. */
const char *inband_hist_name(enum load_hist hist);

#endif
