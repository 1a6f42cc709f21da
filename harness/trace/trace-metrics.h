/* Exact mode's figures in result.json (doc/result-format.md "Exact mode"):
 * per load, from the stretches of its tasks (trace-sched.h): the exact
 * starvation_max (the sampler's kept as starvation_max_sampler), wait and
 * wakeup-latency percentiles, and for its longest stretch who ran on that
 * CPU instead; per task the same figures; per run the trace's own figures
 * (events, lost events, its cost). */
#ifndef STARVE_TRACE_METRICS_H
#define STARVE_TRACE_METRICS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "harness/trace/trace-sched.h"

/* Merge the figures of the tasks TIDS (N of them) into LOAD, a result.json
 * load object already holding the sampler's "metrics" and "tasks". The
 * trace window starts at FROM_NS (CLOCK_MONOTONIC), for the times of the
 * longest stretch. Returns -1 on allocation failure. */
int trace_load_metrics(const struct tsched *t, const pid_t *tids, size_t n, int64_t from_ns,
		       json_t *load);

/* Exact figures of one task, or a load's merged ones, into METRICS (a
 * result.json metrics object holding the sampler's): starvation_max becomes
 * LONGEST_NS (the sampler's kept as starvation_max_sampler, its upper bound as
 * starvation_max_sampler_upper), and the wait and wakeup-latency percentiles
 * of WAIT and WAKEUP. Exact mode and BPF mode both write through it. */
void trace_metrics_set(json_t *metrics, int64_t longest_ns, const struct histogram *wait,
		       const struct histogram *wakeup);
/* One holder of the CPU: pid, comm, policy, priority (RT) or nice, time. */
json_t *trace_holder_json(const struct tsched_holder *h);

/* "FIFO", "RR", "OTHER"... for a SCHED_* POLICY; from PRIO when POLICY is
 * -1 (unknown): "RT" below 100, "DEADLINE" at -1, else "OTHER". */
const char *trace_policy_name(int policy, int prio);

#endif
