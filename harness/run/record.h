/* A measured run as typed records, filled by its producers and written to
 * result.json by one serialiser (harness/run/result-build.c): each load's
 * figures by source (lib/figures.h) with its tasks, its in-band histogram,
 * the exact source's longest stretch; the run's window, noise and which
 * source gave the exact figures. Producers never touch jansson and nobody
 * reads result.json's tree back. */
#ifndef STARVE_RUN_RECORD_H
#define STARVE_RUN_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "harness/sampler/sampler.h"
#include "harness/trace/trace-sched.h"
#include "lib/figures.h"
#include "loads/inband.h"

/* One task of a load as the sampler saw it, with its figures. */
struct task_record {
	const struct sampler_task_result *t;
	struct figures fig;
};

/* The exact source's part of a load (harness/run/exact.h): its stretches
 * and its longest wait, with who held the CPU. tracefs names every task
 * that held it during the wait, each with its time (holders_timed); BPF the
 * one switched out when the wait ended. */
struct load_exact {
	bool present;
	uint64_t stretches, unknown_starts;
	pid_t tid;			/* whose the longest wait was; 0: none */
	char comm[TSCHED_COMM_LEN];	/* "" when the source does not know it */
	int cpu;
	int64_t wait_ns, from_ns;	/* its length, and when it began */
	bool holders_timed;
	size_t n_holders;
	struct tsched_holder holders[TSCHED_MAX_INSTEAD];
	int64_t others_ns;		/* timed: the rest, beyond the holders named */
	bool partial;			/* timed: its start is older than the trace kept */
};

/* One load (or attached process) of a run. */
struct load_record {
	const char *name, *type;
	pid_t leader;			/* its leader (or the attached process) */
	struct figures fig;
	const char *hist_name;		/* the in-band histogram's meaning, NULL: none */
	struct histogram hist;
	int group;			/* its tasks' group in the sampler */
	bool sampled;			/* tasks and n_tasks hold the sampler's */
	struct task_record *tasks;
	size_t n_tasks;
	struct load_exact exact;
};

/* The measured window: one time origin (CLOCK_MONOTONIC) and the span each
 * source covered (harness/run/window.h). */
struct run_window {
	int64_t from_ns, until_ns;
	bool sampled, exact;
	int64_t sampler_first_ns, sampler_last_ns, exact_on_ns, exact_off_ns;
};

/* The run's exact source, as result.json's "exact" object says: which
 * one, what it read and what it lost (either loss makes the run's verdicts
 * undecided), and what it cost. */
struct run_exact {
	bool present;
	const char *source;		/* "trace" or "bpf" */
	char instance[64];		/* tracefs: the instance; "" for BPF */
	uint64_t events, lost_events, lost_tasks;
	double cpu_s;
	int64_t on_ns, off_ns;		/* when it recorded (CLOCK_MONOTONIC), 0 unknown */
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
	struct run_exact exact;
	const char *exact_why;		/* without one: why not */
};

#endif
