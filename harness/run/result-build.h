/* result.json's one serialiser (doc/result-format.md): the header (format,
 * tool, command line, times, host, kernel, knobs before, profile as run),
 * one object per run with its status, and each measured run's records
 * (harness/run/record.h), where it decides by the registry's source order
 * which figure a metric is (doc/design.md "Result model"). The engine
 * hands it each run once, typed (struct run_report); nothing else builds
 * the tree, and nobody reads it back. The verdicts and summary are reports/result/verdict-json.c's;
 * reports/result/result.c writes the file. */
#ifndef STARVE_RESULT_BUILD_H
#define STARVE_RESULT_BUILD_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "harness/kernel/confounders.h"
#include "harness/kernel/kernel.h"
#include "harness/profile/profile.h"
#include "harness/run/record.h"
#include "harness/sampler/sampler.h"
#include "lib/figures.h"
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

/* result.json's and `starve env --json`'s "confounders" object (one
 * writer, so the two documents name them alike). */
json_t *result_build_confounders(const struct confounders *c);

/* The profile as run (after defaults and command-line overrides); SAMPLE_HZ
 * is the rate actually used. */
json_t *result_build_profile(const struct profile *p, int sample_hz);

/* One run as the engine recorded it, written into result.json once, when
 * it is over: its setting and repetition, when it started, whether its
 * knobs were written (else no knobs_applied), its status and reason (NULL
 * while ok), and its figures when it was measured (RECORD), or the
 * sampler's rate when it stopped before its window closed (UNSAMPLED_HZ). */
struct run_report {
	const struct setting *setting;
	int repetition;
	time_t started;
	bool applied;
	enum result_status status;
	const char *reason;
	const struct run_record *record;
	int unsampled_hz;
};

/* result.json as it is built: the header, then each run as it ends. The
 * engine holds it without seeing the tree; whoever writes it takes the
 * tree (result_doc_tree). */
struct result_doc;
/* The header (result_build_new) with the knobs before and the profile as
 * run (result_build_before). NULL when out of memory. */
struct result_doc *result_doc_new(int argc, char **argv, const struct kernel_info *kernel,
				  const char *cpuset_backend, const struct profile *p,
				  int sample_hz);
/* R appended to the runs: the only place a run's object is made. */
void result_doc_add_run(struct result_doc *d, const struct run_report *r);
json_t *result_doc_tree(const struct result_doc *d);
void result_doc_free(struct result_doc *d);

/* A run object from R, not yet in any result (result_doc_add_run's). */
json_t *result_build_run(const struct run_report *r);
/* RESULT's "knobs_before" (the knobs starve knows, as read now) and
 * "profile" (result_build_profile). */
void result_build_before(json_t *result, const struct profile *p, int sample_hz);

/* A metrics object from F (doc/design.md "Result model"): each metric's
 * figure is the first source in the registry's order that gave one
 * (metric_source_order: exact, in-band, cgroup, sampler); where exact mode
 * gave figures, the sampler's starvation_max and its upper bound are kept
 * as starvation_max_sampler and starvation_max_sampler_upper
 * (metric_sampler_kept_as). Keys: in-band's in their order, then the
 * sampler's, the cgroup's, the kept ones, exact mode's. */
json_t *result_build_metrics(const struct figures *f);
/* The metrics of SUM that apply to TYPE into METRICS, and its histogram
 * under its meaning's name ("wakeup_latency", "round_trip", "lateness",
 * "gap") into HISTOGRAMS when it holds anything (and HISTOGRAMS is not
 * NULL): what `starve load --json` writes. */
void result_build_inband(const struct load_type *type, const struct inband_summary *sum,
			 json_t *metrics, json_t *histograms);
/* A histogram as result.json has it: unit "ns", count, sum, min, max and
 * p50..p999 (for readers of the file; the view rebuilds them from the
 * buckets), and the non-empty buckets as [lower bound ns, count]. */
json_t *result_build_histogram(const struct histogram *h);

/* Mark the end: "ended" now and "complete". */
void result_build_finish(json_t *result, bool complete);

#endif
