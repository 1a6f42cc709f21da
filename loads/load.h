/* The load-generator interface.
 *
 * How to add a load type:
 *  1. Create loads/<name>.c exporting one `const struct load_type load_<name>`
 *     (with '-' in the name spelled '_' in the symbol).
 *  2. Declare its options once, as a table of struct opt_spec rows; the rows
 *     drive YAML parsing, `starve load --opt`, `starve list` and the man page.
 *     Name the row indices with an enum so run() reads ctx->spec->opts[OPT_X].
 *  3. Write run(): it is called once, in the load's leader process (already
 *     pinned, niced, in its scheduling class and its own process group), and
 *     starts its workers with load_run_workers(). Work is specified in time
 *     and measured with CLOCK_THREAD_CPUTIME_ID (work_for_ns), never in loop
 *     counts, so a profile does the same work on every kernel.
 *  4. Record what the load sees in its worker records (stats.h): one record
 *     per worker, written only by that worker.
 *  5. List it in loads/registry.c, add the file to Makefile.am, and add a
 *     1-second test in tests/unit/test-loads.c asserting plausible metrics.
 */
#ifndef STARVE_LOAD_H
#define STARVE_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sched.h>
#include <sys/types.h>

#include "lib/histogram.h"
#include "lib/options.h"
#include "loads/stats.h"

#define LOAD_MAX_OPTIONS 16
#define LOAD_MAX_WORKERS 4096

enum load_mode { LOAD_THREADS, LOAD_PROCESSES };
enum load_policy {
	POLICY_OTHER, POLICY_BATCH, POLICY_IDLE, POLICY_FIFO, POLICY_RR, POLICY_DEADLINE
};

/* What a record's histogram holds, so metrics know how to read it. */
enum load_hist {
	HIST_NONE,
	HIST_WAKEUP_LATENCY,	/* actual minus intended wake time -> wakeup_p* metrics */
	HIST_ROUND_TRIP,	/* pipe round trip time */
	HIST_LATENESS,		/* frame completion minus deadline (late frames only) */
	HIST_GAP,		/* gaps between a busy loop's iterations */
};

/* Flags of a load type. */
#define LOAD_INBAND_GAPS 0x1	/* records' gap_max_ns is an in-band starvation figure */
#define LOAD_RT 0x2		/* the type is meant to run under fifo/rr (rt-hog) */
#define LOAD_FAIRNESS 0x4	/* fairness over workers is meaningful (massive-intr, storms) */
/* The load's work is done by processes it starts in its process group (exec's
 * command and its children): the sampler watches the whole group instead of
 * the workers, which only wait; no in-band cpu_share (the waiting worker's). */
#define LOAD_TRACK_PGROUP 0x8

/* Where a profile entry was declared, for file:line:col messages. */
struct source_pos {
	const char *file;
	int line, col;
};

/* One load as configured, from a profile entry or from `starve load`.
 * The common fields come from load_common_options[] below. */
struct load_spec {
	char *name;
	const struct load_type *type;
	int count;			/* workers (the type's summary says what one is) */
	enum load_mode mode;
	char *cpus;			/* cpu spec ("pu:1", "core:0-1", "all"); NULL = all */
	int nice;
	enum load_policy policy;
	int priority;			/* 1..LOAD_RT_PRIORITY_MAX for fifo and rr, else 0 */
	bool session;			/* setsid(): its own session, so its own autogroup */
	int64_t dl_runtime_ns;		/* SCHED_DEADLINE: runtime, deadline and period */
	int64_t dl_deadline_ns;		/* (0 when not given; deadline defaults to the */
	int64_t dl_period_ns;		/* period, loads/policy.c) */
	int64_t slice_ns;		/* fair slice asked for (sched_runtime); 0: the kernel's */
	union opt_value opts[LOAD_MAX_OPTIONS];	/* indexed like type->options */
	bool opt_set[LOAD_MAX_OPTIONS];		/* given explicitly (else default),
						 * still after load_spec_finish() */
	struct source_pos pos;
	struct source_pos cpus_pos;	/* of the 'cpus' value; line 0 when not given */
};

/* Common options every load takes (rows of the same kind as a type's). */
enum load_common_option {
	COMMON_COUNT, COMMON_MODE, COMMON_CPUS, COMMON_NICE, COMMON_POLICY,
	COMMON_PRIORITY, COMMON_SESSION, COMMON_DL_RUNTIME, COMMON_DL_DEADLINE, COMMON_DL_PERIOD,
	COMMON_SLICE, COMMON_NR_OPTIONS
};
extern const struct opt_spec load_common_options[COMMON_NR_OPTIONS];
extern const char *const load_mode_names[];	/* "threads", "processes", NULL */
extern const char *const load_policy_names[];	/* "other", "batch", "idle", "fifo", "rr",
						 * "deadline", NULL */

/* Policies under the RT safety rules (watchdog, RLIMIT_RTTIME, never on
 * every CPU unless the profile says so): fifo, rr and deadline. */
bool load_policy_is_realtime(enum load_policy policy);
/* SCHED_DEADLINE (loads/policy.c). The deadline when not given is the period. */
int64_t load_dl_deadline(const struct load_spec *spec);
/* The checks a profile gets: dl_* only with policy deadline, runtime and
 * period given, runtime <= deadline <= period. -1 with why. */
int load_check_deadline(const struct load_spec *spec, char *why, size_t why_len);
/* Make the calling thread SCHED_DEADLINE with SPEC's parameters; -1 with the
 * kernel's refusal in words (admission: EBUSY, affinity or privilege: EPERM). */
int load_enter_deadline(const struct load_spec *spec, char *why, size_t why_len);
/* Back to SCHED_OTHER (after a trial admission). */
int load_leave_deadline(void);
/* Ask for a fair slice of SLICE_NS for the calling thread (sched_runtime of
 * SCHED_OTHER/BATCH; used by v6.12 and later, ignored before). -1 with errno. */
int load_set_fair_slice(const struct load_spec *spec, int64_t slice_ns);
/* Whether this process may use policy P, tried in a child; WHY says so. */
bool load_policy_usable(enum load_policy p, char *why, size_t why_len);

/* What run() gets: its spec and its slice of the shared stats block. */
struct load_ctx {
	const struct load_spec *spec;
	struct stats_block *stats;
	unsigned first_record;		/* this load owns records [first, first + n) */
	unsigned n_records;
	/* Resolves a cpu spec ("pu:1") against the machine, for loads that pin
	 * parts of themselves (pipe-pingpong's sides); NULL outside a run. */
	int (*resolve_cpus)(const char *text, cpu_set_t *out, char *why, size_t why_len);
};

struct load_type {
	const char *name;
	const char *summary;		/* one line for `starve list` */
	const struct opt_spec *options;
	size_t n_options;
	enum load_hist hist;
	unsigned flags;
	enum load_policy default_policy;	/* policy and priority when the spec */
	int default_priority;			/* does not say (rt-hog: fifo 50) */
	/* Records this load needs (workers, plus dispatchers or probes that
	 * report too); NULL means spec->count. */
	unsigned (*records_needed)(const struct load_spec *spec);
	/* Checks across options (run > 0 or sleep > 0, ...); NULL if none.
	 * Returns -1 with a message in why. */
	int (*validate)(const struct load_spec *spec, char *why, size_t why_len);
	/* Runs in the load's leader process; returns a process exit status. */
	int (*run)(struct load_ctx *ctx);
};

/* The registry (loads/registry.c). */
extern const struct load_type *const load_types[];
extern const size_t load_type_count;
const struct load_type *load_type_find(const char *name);
const char *load_type_suggest(const char *name);	/* "did you mean", or NULL */
unsigned load_records_needed(const struct load_spec *spec);

/* Defaults for a spec of TYPE (common and type options), for `starve load`
 * and the profile parser. Returns -1 (why filled) if a required option of
 * the type has no default; set the options first, then call this. */
void load_spec_init(struct load_spec *spec, const struct load_type *type, const char *name);
int load_spec_finish(struct load_spec *spec, char *why, size_t why_len);
/* Store a parsed value of common option I (load_common_options[I]) in its
 * field; a string (cpus) is taken over, the one it replaces freed. */
void load_spec_set_common(struct load_spec *spec, enum load_common_option i,
			  const union opt_value *v);
void load_spec_free(struct load_spec *spec);

/* ---- helpers for run() (loads/workers.c) ---- */

typedef void (*worker_fn)(struct load_ctx *ctx, unsigned record, void *arg);

/* Start N workers as threads or processes (ctx->spec->mode), worker i gets
 * record ctx->first_record + i, and wait for all of them. Returns 0, or -1
 * if a worker could not be started (the others are stopped first). */
int load_run_workers(struct load_ctx *ctx, unsigned n, worker_fn fn, void *arg);

/* Called first by every worker: fills pid, tid, comm ("starve-<load>"),
 * start time, and marks the record running. A SCHED_DEADLINE load's worker
 * enters the class here (a deadline task cannot fork: loads/policy.c); if
 * the kernel refuses, the record fails with why and the load stops.
 * Then it waits at the start gate (load_gate_wait) and, once that opened,
 * its start time and the start of its first gap are the opening's. */
struct worker_record *worker_begin(struct load_ctx *ctx, unsigned record);
/* In worker_begin, after registering: wait at the start gate (stats.h),
 * FUTEX_WAIT 50 ms at a time, never spinning (an RT worker spinning there
 * would starve the ones it waits for). False when the load must stop. */
bool load_gate_wait(const struct load_ctx *ctx);
/* Called last: final cpu time and end time, marks the record done. */
void worker_end(struct worker_record *rec);
/* Marks the record failed with a reason (shown by the controller); the
 * worker should then return. */
void worker_fail(struct worker_record *rec, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* True once the controller asked the load to stop or its deadline passed. */
bool load_should_stop(const struct load_ctx *ctx);

/* Burn NS of this thread's CPU time (CLOCK_THREAD_CPUTIME_ID), noting
 * iteration gaps into rec when rec is not NULL; returns early if the load
 * must stop. Returns the CPU time actually used. */
int64_t work_for_ns(const struct load_ctx *ctx, struct worker_record *rec, int64_t ns);

/* Sleep NS (CLOCK_MONOTONIC), never past the deadline, waking every 50 ms to
 * see the stop flag. Returns false when the load must stop. */
bool load_sleep_ns(const struct load_ctx *ctx, int64_t ns);

/* ---- the guard of a load (loads/guard.c) ---- */

/* The highest priority a fifo/rr load may ask for: 99, the top, is the
 * leader's while it waits, so that its guard preempts every worker. */
#define LOAD_RT_PRIORITY_MAX 98

/* In the leader, once it has the load's POLICY and PRIORITY: wait at
 * SCHED_FIFO 99 instead, so the guard runs above the workers.
 * -1 (nothing changed) when not permitted or PRIORITY is not below 99
 * (the profile checks refuse that: LOAD_RT_PRIORITY_MAX). */
int load_guard_raise(int policy, int priority);
/* First thing in every task that runs the load's code (a worker thread or
 * process, a command's child): back to the load's own policy. */
int load_guard_lower(void);
/* In the leader, once set up: watch CONTROLLER and WATCHDOG (0: none)
 * through pidfds, from a thread at the leader's policy that calls END (it
 * ends the load's tree and group) as soon as either has exited, even while
 * the other is still exiting. WORKERS_LOOK: the workers look too, every
 * few ms from their stop check (a real-time load: its leader may not get
 * the CPU). Returns 0, or -1 with an error when the thread cannot start. */
int load_guard_watch(pid_t controller, pid_t watchdog, bool workers_look, void (*end)(void));
/* Whether the controller or the watchdog has exited (NOW is
 * CLOCK_MONOTONIC): load_should_stop() says stop then. */
bool load_guard_gone(int64_t now);

/* Fork a child in the load's process group (PR_SET_PDEATHSIG: it dies with
 * its worker) and exec PATH with ARGV (and ENVP, or our environment when
 * NULL); exit 127 when the exec fails. Returns its pid or -1 (errno). */
pid_t load_child_start(const char *path, char *const argv[], char *const envp[]);
/* Wait for the child PID to exit; if the load must stop first, kill it.
 * Returns its wait status, or -1 when it was killed at the stop. With REC,
 * the child's CPU time goes into rec->child_cpu_ns when it ends measuring. */
int load_child_wait(const struct load_ctx *ctx, pid_t pid, struct worker_record *rec);

/* The whole run() of the duty-cycle loads (sleep-hog, massive-intr, rt-hog):
 * spec->count workers, each burning RUN of CPU then sleeping SLEEP (none
 * when 0), one iteration per cycle, until the load must stop; gaps are noted
 * only within the busy part. Returns run()'s exit status. */
int load_run_duty_cycle(struct load_ctx *ctx, int64_t run_ns, int64_t sleep_ns);

#endif
