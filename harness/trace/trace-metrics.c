/* Exact mode's figures (harness/trace/trace-metrics.h). */
#include "config.h"
#include "harness/trace/trace-metrics.h"
#include "lib/timeutil.h"

#include <sched.h>

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

/* Percentile P of H in seconds into F as metric ID (nothing when H is empty). */
static void trace_put_pct(struct figures *f, enum metric_id id, const struct histogram *h,
			  double p)
{
	if (h->count)
		figures_put(f, METRIC_FROM_EXACT, id, trace_seconds(
			(int64_t)(p >= 100 ? h->max : hist_percentile(h, p))));
}

void trace_figures(struct figures *f, int64_t longest_ns, const struct histogram *wait,
		   const struct histogram *wakeup)
{
	figures_put(f, METRIC_FROM_EXACT, MET_STARVATION_MAX, trace_seconds(longest_ns));
	trace_put_pct(f, MET_WAIT_P50, wait, 50);
	trace_put_pct(f, MET_WAIT_P99, wait, 99);
	trace_put_pct(f, MET_WAKEUP_LATENCY_P50, wakeup, 50);
	trace_put_pct(f, MET_WAKEUP_LATENCY_P99, wakeup, 99);
	trace_put_pct(f, MET_WAKEUP_LATENCY_MAX, wakeup, 100);
}

void trace_load_figures(const struct tsched *t, const pid_t *tids, size_t n, struct figures *f,
			struct trace_load *out)
{
	struct histogram wait, wakeup;

	out->stretches = out->unknown_starts = 0;
	out->longest = NULL;
	hist_init(&wait);
	hist_init(&wakeup);
	for (size_t i = 0; i < n; i++) {
		const struct tsched_task *k = tsched_find(t, tids[i]);

		if (!k)
			continue;
		out->stretches += k->stretches;
		out->unknown_starts += k->unknown_starts;
		if (!k->wait)
			continue;
		hist_merge(&wait, k->wait);
		hist_merge(&wakeup, k->wakeup);
		if (!out->longest || k->longest.ns > out->longest->longest.ns)
			out->longest = k;
	}
	trace_figures(f, out->longest ? out->longest->longest.ns : 0, &wait, &wakeup);
}
