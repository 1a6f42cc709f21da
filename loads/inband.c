/* In-band metrics from the worker records (inband.h). Each record is copied
 * field by field without locks while its worker may still write: every
 * counter is a naturally aligned 64-bit word, so the worst case is a value a
 * moment old. */
#include "config.h"
#include "loads/inband.h"
#include "lib/fairness.h"
#include "lib/metric.h"
#include "lib/timeutil.h"

#include <math.h>
#include <stdlib.h>

static const char *const inband_hist_names[] = {
	[HIST_NONE] = NULL, [HIST_WAKEUP_LATENCY] = "wakeup_latency",
	[HIST_ROUND_TRIP] = "round_trip", [HIST_LATENESS] = "lateness", [HIST_GAP] = "gap",
};

const char *inband_hist_name(enum load_hist hist)
{
	return (unsigned)hist < sizeof(inband_hist_names) / sizeof(inband_hist_names[0]) ?
		inband_hist_names[hist] : NULL;
}

/* Jain's index and min/max of iterations per worker. */
static void inband_fairness(const struct stats_block *block, unsigned first, unsigned n,
			    struct inband_summary *out)
{
	double *v = calloc(n, sizeof(*v));
	size_t k = 0;

	if (!v)
		return;
	for (unsigned i = first; i < first + n; i++)
		if (block->rec[i].state != RECORD_UNUSED)
			v[k++] = (double)block->rec[i].iterations;
	if (k >= 2) {
		out->fairness = jain_index(v, k);
		out->fairness_minmax = min_max_ratio(v, k);
	}
	free(v);
}

/* A stretch a worker still had open when it ended (record_open_stretch),
 * counted as the gap it would have noted had it run again in the window. */
static void inband_open_stretch(uint64_t ns, uint64_t *gap_max, struct inband_summary *out)
{
	if (ns > *gap_max)
		*gap_max = ns;
	stall_tally(ns, &out->gaps_over_1ms, &out->gaps_over_10ms, &out->gaps_over_100ms);
}

static void inband_init(struct inband_summary *out)
{
	*out = (struct inband_summary){ 0 };
	out->throughput = out->starvation_max_inband = out->deadline_miss_ratio = NAN;
	out->fairness = out->fairness_minmax = out->cpu_share = NAN;
	hist_init(&out->hist);
}

void inband_summarize(const struct load_type *type, const struct stats_block *block,
		      unsigned first, unsigned n, int64_t wall_ns, struct inband_summary *out)
{
	uint64_t gap_max = 0, met = 0, missed = 0, cpu = 0, life = 0, now = (uint64_t)mono_ns();

	inband_init(out);
	for (unsigned i = first; i < first + n && i < block->n_records; i++) {
		const struct worker_record *r = &block->rec[i];
		uint64_t end = r->end_ns ? r->end_ns : now;

		if (r->state == RECORD_UNUSED)
			continue;
		out->workers++;
		out->iterations += r->iterations;
		gap_max = r->gap_max_ns > gap_max ? r->gap_max_ns : gap_max;
		out->gaps_over_1ms += r->gaps_over_1ms;
		out->gaps_over_10ms += r->gaps_over_10ms;
		out->gaps_over_100ms += r->gaps_over_100ms;
		met += r->deadlines_met;
		missed += r->deadlines_missed;
		cpu += r->cpu_ns > r->cpu_begin_ns ? r->cpu_ns - r->cpu_begin_ns : 0;
		cpu += r->child_cpu_ns;
		life += end > r->start_ns ? end - r->start_ns : 0;
		hist_merge(&out->hist, &r->hist);
		if (type->flags & LOAD_INBAND_GAPS)
			inband_open_stretch(record_open_stretch(block, r, now), &gap_max, out);
	}
	if (!out->workers)
		return;
	if (wall_ns > 0)
		out->throughput = (double)out->iterations * NSEC_PER_SEC / (double)wall_ns;
	if (type->flags & LOAD_INBAND_GAPS)
		out->starvation_max_inband = (double)gap_max / NSEC_PER_SEC;
	if (met + missed > 0)
		out->deadline_miss_ratio = (double)missed / (double)(met + missed);
	/* a pgroup load's workers only wait: its CPU is its command's (oob) */
	if (life > 0 && !(type->flags & LOAD_TRACK_PGROUP))
		out->cpu_share = (double)cpu / (double)life;
	if (type->flags & LOAD_FAIRNESS)
		inband_fairness(block, first, n, out);
}

/* Append metric ID = VALUE to OUT[*n] when VALUE was measured (not NAN). */
static void inband_add(struct inband_metric *out, size_t *n, enum metric_id id, double value)
{
	if (!isnan(value) && *n < INBAND_MAX_METRICS)
		out[(*n)++] = (struct inband_metric){ metric_name(id), id, value };
}

size_t inband_metrics(const struct load_type *type, const struct inband_summary *sum,
		      struct inband_metric *out)
{
	static const struct {
		enum metric_id id;
		double p;
	} pct[] = {
		{ MET_WAKEUP_P50, 50 }, { MET_WAKEUP_P90, 90 }, { MET_WAKEUP_P99, 99 },
		{ MET_WAKEUP_P999, 99.9 }, { MET_WAKEUP_MAX, 100 },
	};
	size_t n = 0;

	inband_add(out, &n, MET_THROUGHPUT, sum->throughput);
	inband_add(out, &n, MET_STARVATION_MAX_INBAND, sum->starvation_max_inband);
	inband_add(out, &n, MET_DEADLINE_MISS_RATIO, sum->deadline_miss_ratio);
	inband_add(out, &n, MET_FAIRNESS, sum->fairness);
	inband_add(out, &n, MET_FAIRNESS_MINMAX, sum->fairness_minmax);
	inband_add(out, &n, MET_CPU_SHARE, sum->cpu_share);
	if (type->hist == HIST_WAKEUP_LATENCY && sum->hist.count)
		for (size_t i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
			inband_add(out, &n, pct[i].id,
				   (double)hist_percentile(&sum->hist, pct[i].p) / NSEC_PER_SEC);
	return n;
}
