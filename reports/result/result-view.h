/* The typed, read-only view of a result (doc/result-format.md): result.json
 * parsed and checked once, against the schema the project ships
 * (reports/result/result-schema.json, compiled in; reports/result/json-schema.h) and the
 * rule a schema cannot say (a histogram's buckets add up to its count),
 * then handed to verdicts,
 * reports and compare as the structs below. Code downstream never looks a
 * key up in the JSON tree.
 *
 * Conventions: strings point into the parsed tree and live as long as the
 * view. An optional field that is absent is NULL (strings), NAN (numbers),
 * RV_NONE (integers) or -1 (booleans as int). Arrays come with their length
 * (n_...), in the order of the file; runs are in execution order. A view is
 * never changed after it is built, so it can be shared between threads.
 *
 * To add a field: doc/result-format.md and the schema first, then the struct
 * here and its reader (result-view.c: header and profile; result-view-run.c:
 * runs, loads, verdicts). */
#ifndef STARVE_RESULT_VIEW_H
#define STARVE_RESULT_VIEW_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/histogram.h"
#include "reports/result/result.h"

#define RV_NONE LONG_MIN	/* an optional integer that is absent */

/* A knob and its value, or a load option and its value, as text. */
struct rv_pair {
	const char *name, *value;
};

/* ---- the header ---- */

struct rv_tool {
	const char *name, *version;
	const char *const *command_line;	/* "starve", "run", ...; may be empty */
	size_t n_command_line;
};

struct rv_host {
	const char *hostname, *topology;
	long nr_cpus;
};

struct rv_kernel {
	const char *release, *version, *hz_source, *preempt;
	long hz;
	int schedstat_global, schedstat_task;	/* 1, 0, or -1 when absent */
};

/* What else shaped the numbers (result.json "confounders"): absent (present
 * false, strings NULL) in results written before starve recorded it. */
struct rv_confounders {
	bool present;
	const char *clocksource, *nohz, *nohz_full, *cmdline, *cpu_model, *governor, *hypervisor;
	long cpus;
	int virtualised, emulated;	/* 1, 0, or -1 when absent */
	double steal_share;		/* since boot; NAN when absent */
	const struct rv_pair *mitigations;	/* file name and text */
	size_t n_mitigations;
};

/* ---- the profile as run ---- */

struct rv_load_spec {
	const char *name, *type;
	const char *mode, *cpus, *policy;	/* "threads", "pu:1", "fifo" */
	long count, nice, priority;
	int session;
	const struct rv_pair *options;	/* values as text (non-strings as JSON) */
	size_t n_options;
};

struct rv_attach {
	const char *name;
	long pid;
};

struct rv_setting {
	const char *name;
	const struct rv_pair *knobs;
	size_t n_knobs;
};

/* "LOAD.METRIC below|above THRESHOLD": what an expectation asks and what a
 * verdict answers. */
struct rv_rule {
	const char *load, *metric;
	enum result_op op;
	double threshold;		/* in the metric's canonical unit */
	const char *threshold_text;	/* as the profile wrote it ("1.2s"); NULL or "" */
};

struct rv_expect {
	struct rv_rule rule;
	const char *setting;		/* NULL: applies to every setting */
};

/* A --threshold the profile sets for `starve compare`. */
struct rv_threshold {
	const char *metric;
	double pct;
};

struct rv_profile {
	const char *file, *name, *description;
	double duration_s, warmup_s;
	long repeat, sample_hz;
	const struct rv_load_spec *loads;
	size_t n_loads;
	const struct rv_attach *attach;
	size_t n_attach;
	const struct rv_setting *settings;
	size_t n_settings;
	const struct rv_expect *expect;
	size_t n_expect;
	const struct rv_threshold *compare_thresholds;
	size_t n_compare_thresholds;
	const char *const *compare_gate;	/* the loads that gate `starve compare` */
	size_t n_compare_gate;
	bool compare_gate_all;			/* "compare_gate": "all" */
};

/* ---- runs ---- */

/* How well the sampler kept up (present is false when the run has none). */
struct rv_sampler {
	bool present;
	double target_hz, achieved_hz, cpu_s, cost_us_per_task_tick;
	long ticks, late_ticks, missed_ticks, tasks, priority;
	long cpu_clock_jumps;	/* 0 when absent (results before it was recorded) */
	double cpu_clock_jump_s;	/* what they added; NAN when absent */
};

struct rv_metric {
	const char *name;	/* lib/metric.c's name; unknown names are kept too */
	double value;		/* canonical unit */
};

struct rv_bucket {
	uint64_t lower_ns, count;	/* lower bound, as written; count >= 1 */
};

/* Non-empty buckets as the file lists them (starve writes them ascending);
 * count is their sum (checked). */
struct rv_histogram {
	const char *name;	/* "gap", "wakeup_latency", ... */
	uint64_t count;
	double min_ns, max_ns, sum_ns;	/* NAN when absent */
	const struct rv_bucket *buckets;
	size_t n_buckets;
};

/* One time series of a load: VALUES[i] is at i * interval_s into the run. */
struct rv_series {
	const char *name;	/* "cpu_share", "runnable_waiting" */
	const double *values;
	size_t n;
};

struct rv_task {
	long tid, pid;
	const char *comm;
	int exited;
	const struct rv_metric *metrics;
	size_t n_metrics;
};

/* The exact source: one task that held the CPU while a load's task waited. */
struct rv_holder {
	long pid;
	const char *comm, *policy;	/* "FIFO", "OTHER"... */
	long priority, nice;		/* RV_NONE when absent */
	double time_s;
};

/* The exact source: a load's stretches and its longest, with who held the
 * CPU: every task meanwhile, timed (holders_timed: tracefs's "ran_instead"),
 * or the one switched out when the wait ended (BPF's "ran_before"). present
 * is false without an exact source; longest_present without a stretch. */
struct rv_load_exact {
	bool present, longest_present;
	long stretches, unknown_starts;
	long tid, cpu;
	const char *comm;
	double wait_s, at_s, others_s;
	bool partial, holders_timed;
	const struct rv_holder *holders;
	size_t n_holders;
};

struct rv_load {
	const char *name, *type;
	long tasks_seen;
	struct rv_load_exact exact;
	const struct rv_metric *metrics;
	size_t n_metrics;
	const struct rv_histogram *histograms;
	size_t n_histograms;
	const struct rv_task *tasks;
	size_t n_tasks;
	double interval_s;	/* of the time series; NAN when there are none */
	const struct rv_series *series;
	size_t n_series;
};

struct rv_verdict {
	struct rv_rule rule;
	enum verdict_kind kind;
	double value;		/* NAN when nothing was measured */
	const char *reason;	/* NULL for a pass */
	const char *setting;	/* as recorded in the verdict; NULL when absent */
	long repetition;
};

/* The run's exact source (present is false without one): what it read,
 * and the events and tasks it lost, which leave the figures short. */
struct rv_exact {
	bool present;
	const char *source;	/* "trace", "bpf" */
	long events, lost_events, lost_tasks;
	double cpu_s;
};

struct rv_run {
	const char *setting;
	size_t setting_index;	/* into result_view.setting_names */
	long repetition;	/* from 0 */
	enum result_status status;
	const char *reason;	/* why skipped, incomplete or error; NULL when ok */
	const struct rv_pair *knobs_applied;
	size_t n_knobs_applied;
	const char *started;
	double duration_s;
	struct rv_sampler sampler;
	double other_cpu_share;	/* noise: the loads' CPUs used by other tasks */
	double steal_share;	/* noise: ... stolen by the hypervisor; NAN when absent */
	struct rv_exact exact;
	const struct rv_load *loads;
	size_t n_loads;
	const struct rv_verdict *verdicts;
	size_t n_verdicts;
};

struct rv_summary {
	enum verdict_kind verdict;
	long pass, fail, skip, undecided;
	int exit_code;		/* 0, 1 or 4 */
	bool undecided_fails;	/* --strict: undecided verdicts exit 1 */
	const char *warning;
};

struct rv_arena;

struct result_view {
	const char *file;		/* the name messages use */
	const json_t *tree;		/* the document, for writers that copy it whole */
	struct rv_tool tool;
	const char *started, *ended;
	bool complete;			/* false: interrupted, a partial result */
	struct rv_host host;
	struct rv_kernel kernel;
	struct rv_confounders confounders;
	const char *cpuset_backend;
	const struct rv_pair *knobs_before;
	size_t n_knobs_before;
	struct rv_profile profile;
	const struct rv_run *runs;
	size_t n_runs;
	struct rv_summary summary;
	/* derived once, for the reports */
	const char *const *setting_names;	/* the profile's order, then others runs name */
	size_t n_setting_names;
	int repetitions;			/* 1 + the largest repetition; 0 without runs */
	struct rv_arena *arena;			/* private: every array above */
};

/* Read PATH (result_read) and build its view. NULL with WHY filled, naming
 * the file and the place: "r.json: runs[2].loads[0].metrics.cpu_share:
 * expected a number, got a string". */
struct result_view *rv_open(const char *path, char *why, size_t why_len);
/* Build the view of TREE (which it keeps a reference to); NAME is how
 * messages call it. NULL with WHY filled when TREE is not a valid result. */
struct result_view *rv_build(json_t *tree, const char *name, char *why, size_t why_len);
void rv_free(struct result_view *v);
/* The view of V's tree as it is now, after verdicts_rejudge() replaced its
 * verdicts and summary with starve's own: read again, not checked again
 * (the rest is what V checked). V is freed either way; NULL with WHY filled
 * when memory runs out. */
struct result_view *rv_reread(struct result_view *v, char *why, size_t why_len);
/* One view of the N results V of one profile (the looks of --until-decided,
 * result-view-merge.c): V[0]'s document with the runs of the others
 * appended in order, renumbered as further repetitions. The V stay as they
 * are. NULL with WHY filled when memory runs out or the merge is invalid. */
struct result_view *rv_merge(const struct result_view *const *v, size_t n, char *why,
			     size_t why_len);
/* The schema every view is checked against: reports/result/result-schema.json as
 * this starve was built with. */
const char *rv_schema_text(void);

/* ---- lookups (linear: a load has a handful of each) ---- */

/* The load named NAME in RUN (the first one), or NULL. */
const struct rv_load *rv_run_load(const struct rv_run *run, const char *name);
/* METRIC of LOAD, or NAN when it is absent (or LOAD is NULL). */
double rv_load_metric(const struct rv_load *load, const char *metric);
/* LOAD's histogram or time series named NAME, or NULL. */
const struct rv_histogram *rv_load_histogram(const struct rv_load *load, const char *name);
const struct rv_series *rv_load_series(const struct rv_load *load, const char *name);
/* The lib/histogram.h histogram H describes (exact counts; min, max and sum
 * exact when the file has them, else bounded by the buckets). */
void rv_histogram_rebuild(const struct rv_histogram *h, struct histogram *out);
/* The value of NAME among N pairs, or NULL. */
const char *rv_pair_get(const struct rv_pair *pairs, size_t n, const char *name);
/* The profile's setting named NAME, or NULL. */
const struct rv_setting *rv_profile_setting(const struct result_view *v, const char *name);
/* True when E applies to runs of SETTING. */
bool rv_expect_applies(const struct rv_expect *e, const char *setting);
/* True when two rules ask the same (load, metric, op and threshold). */
bool rv_rule_same(const struct rv_rule *a, const struct rv_rule *b);

#endif
