/* A measured run as typed records, filled by its producers and written to
 * result.json by one serialiser (harness/run/result-build.c): each load's
 * figures by source (lib/figures.h) with its tasks, its in-band histogram,
 * exact or BPF mode's longest stretch; the run's window, noise and which
 * source gave the exact figures. Producers never touch jansson and nobody
 * reads result.json's tree back. */
#ifndef STARVE_RUN_RECORD_H
#define STARVE_RUN_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "harness/bpf/bpf-sched.h"
#include "harness/sampler/sampler.h"
#include "harness/trace/trace-metrics.h"
#include "harness/trace/trace.h"
#include "lib/figures.h"
#include "loads/inband.h"

/* One task of a load as the sampler saw it, with its figures. */
struct task_record {
	const struct sampler_task_result *t;
	struct figures fig;
};

/* BPF mode's part of a load: its stretches and its longest wait. */
struct load_bpf {
	uint64_t stretches;
	pid_t tid;		/* whose the longest wait was; 0: none */
	struct sb_task longest;
};

enum load_exact { LOAD_EXACT_NONE, LOAD_EXACT_TRACE, LOAD_EXACT_BPF };

/* One load (or attached process) of a run. */
struct load_record {
	const char *name, *type;
	struct figures fig;
	const char *hist_name;		/* the in-band histogram's meaning, NULL: none */
	struct histogram hist;
	int group;			/* its tasks' group in the sampler */
	bool sampled;			/* tasks and n_tasks hold the sampler's */
	struct task_record *tasks;
	size_t n_tasks;
	enum load_exact exact;
	struct trace_load trace;	/* LOAD_EXACT_TRACE */
	struct load_bpf bpf;		/* LOAD_EXACT_BPF */
};

/* The measured window: one time origin (CLOCK_MONOTONIC) and the span each
 * source covered (harness/run/window.h). */
struct run_window {
	int64_t from_ns, until_ns;
	bool sampled, traced;
	int64_t sampler_first_ns, sampler_last_ns, trace_on_ns, trace_off_ns;
};

/* One measured run's figures. */
struct run_record {
	const struct sampler *smp;
	struct load_record *loads;
	size_t n_loads;
	struct run_window window;
	double duration_s;
	bool noise;
	double other_cpu_share, steal_share;
	const struct trace *trace;	/* exact mode, or NULL */
	const struct bpfsched *bpf;	/* BPF mode, or NULL */
	const char *bpf_why;		/* why not BPF mode */
};

#endif
