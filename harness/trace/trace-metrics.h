/* Exact mode's figures (doc/result-format.md "Exact mode"): per load, from
 * the stretches of its tasks (trace-sched.h), the exact starvation_max, the
 * wait and wakeup-latency percentiles, and which task had the longest
 * stretch (who ran on that CPU instead is in its tsched_longest); per task
 * the same figures. They go into lib/figures.h records (source exact); the
 * serialiser (harness/run/result-build.c) writes them, and keeps the
 * sampler's starvation_max as starvation_max_sampler. */
#ifndef STARVE_TRACE_METRICS_H
#define STARVE_TRACE_METRICS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "harness/trace/trace-sched.h"
#include "lib/figures.h"
#include "lib/histogram.h"

/* A load's exact stretches beside its figures. */
struct trace_load {
	uint64_t stretches, unknown_starts;
	const struct tsched_task *longest;	/* the task with the longest stretch, or NULL */
};

/* The figures of the tasks TIDS (N of them) merged into F, their counts
 * and longest stretch into OUT. */
void trace_load_figures(const struct tsched *t, const pid_t *tids, size_t n, struct figures *f,
			struct trace_load *out);

/* Exact figures of one task, or a load's merged ones, into F: starvation_max
 * is LONGEST_NS, and the wait and wakeup-latency percentiles of WAIT and
 * WAKEUP (none from an empty histogram). Exact mode and BPF mode both give
 * their figures through it. */
void trace_figures(struct figures *f, int64_t longest_ns, const struct histogram *wait,
		   const struct histogram *wakeup);

/* "FIFO", "RR", "OTHER"... for a SCHED_* POLICY; from PRIO when POLICY is
 * -1 (unknown): "RT" below 100, "DEADLINE" at -1, else "OTHER". */
const char *trace_policy_name(int policy, int prio);

#endif
