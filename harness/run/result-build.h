/* The jansson tree of one `starve run` (doc/result-format.md): the header
 * (format, tool, command line, times, host, kernel, knobs before, profile as
 * run), one object per run, the in-band and out-of-band metrics of each
 * load and their histograms. The run engine fills it as it goes, from data
 * (loads/inband.h summaries, sampler results); reports/result/verdict.c adds the
 * verdicts and summary; reports/result/result.c writes it. */
#ifndef STARVE_RESULT_BUILD_H
#define STARVE_RESULT_BUILD_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "harness/kernel/kernel.h"
#include "harness/profile/profile.h"
#include "harness/sampler/sampler.h"
#include "lib/histogram.h"
#include "loads/inband.h"
#include "loads/stats.h"
#include "reports/result/result.h"

/* "2026-12-03T09:00:00Z" for a CLOCK_REALTIME second count. */
const char *result_time_text(time_t t, char *buf, size_t len);

/* The header: format, tool (command line: "starve" then the subcommand's
 * ARGV, whose argv[0] is "run"), started (now), complete false,
 * ended null, host, kernel, cpuset_backend, empty runs and a placeholder
 * summary. KERNEL and CPUSET_BACKEND may be NULL (left out). */
json_t *result_build_new(int argc, char **argv, const struct kernel_info *kernel,
			 const char *cpuset_backend);

/* The profile as run (after defaults and command-line overrides); SAMPLE_HZ
 * is the rate actually used. */
json_t *result_build_profile(const struct profile *p, int sample_hz);

/* A run object: setting, repetition, status "ok", reason null, started now,
 * knobs_applied (the setting's knobs), empty loads and verdicts. */
json_t *result_build_run(const struct setting *s, int repetition);
/* Set a run's status and reason (NULL: null). */
void result_run_status(json_t *run, enum result_status status, const char *reason);

/* One load's result: in-band metrics from its records [FIRST, FIRST + N) of
 * STATS over WALL_NS, then the sampler's out-of-band metrics of GROUP (SMP
 * may be NULL). In-band figures win where both exist, except starvation_max,
 * which is the out-of-band figure by definition (the in-band one is
 * starvation_max_inband). */
json_t *result_build_load(const struct load_spec *spec, const struct stats_block *stats,
			  unsigned first, unsigned n, int64_t wall_ns,
			  const struct sampler *smp, int group);
/* The metrics of SUM that apply to TYPE into METRICS, and its histogram
 * under its meaning's name ("wakeup_latency", "round_trip", "lateness",
 * "gap") into HISTOGRAMS when it holds anything (and HISTOGRAMS is not
 * NULL). `starve load --json` writes the same. */
void result_build_inband(const struct load_type *type, const struct inband_summary *sum,
			 json_t *metrics, json_t *histograms);
/* A histogram as result.json has it: unit "ns", count, sum, min, max and
 * p50..p999 (for readers of the file; the view rebuilds them from the
 * buckets), and the non-empty buckets as [lower bound ns, count]. */
json_t *result_build_histogram(const struct histogram *h);
/* An attached process's result: out-of-band metrics only. */
json_t *result_build_attach(const struct attach_spec *a, const struct sampler *smp, int group);

/* Mark the end: "ended" now and "complete". */
void result_build_finish(json_t *result, bool complete);

#endif
