/* Out-of-band metrics: from the sampler's per-task counters to the figures
 * of each task and load (lib/figures.h, source the sampler): starvation_max
 * (s) and its upper bound, wait_ratio, cpu_share, and per load fairness
 * (Jain's index, min/max of per-task CPU). Which of them result.json shows
 * is the serialiser's to decide (harness/run/result-build.c). */
#ifndef STARVE_OOB_METRICS_H
#define STARVE_OOB_METRICS_H

#include <stdint.h>

#include "harness/sampler/sampler.h"
#include "lib/figures.h"

/* One task's figures into F: starvation_max (and starvation_max_upper when
 * late ticks left it open), wait_ratio, cpu_share. WINDOW_NS: the run's
 * sampling window (cpu_share = cpu / window); 0 uses the task's own
 * observed window. A ratio whose denominator is 0 is left out. */
void oob_task_figures(const struct sampler_task_result *t, int64_t window_ns,
		      struct figures *f);

/* GROUP's figures into F: starvation_max (max over tasks) and its upper
 * bound, wait_ratio (over the summed deltas), cpu_share (the mean of the
 * tasks'), fairness (Jain's index) and fairness_minmax (of per-task CPU
 * time, with at least 2 tasks). COPIES: 0 for a load of peer tasks; else
 * its tasks are the processes that COPIES copies of a command started
 * (LOAD_TRACK_PGROUP, exec): cpu_share is their summed CPU per copy and
 * there is no fairness (they are no peers). Returns the group's number of
 * tasks, -1 on allocation failure. */
int oob_load_figures(const struct sampler *s, int group, unsigned copies, struct figures *f);

#endif
