/* The out-of-band sampler: at a fixed rate (the kernel's HZ by default) it
 * reads /proc/<pid>/task/<tid>/schedstat of every watched thread, and its
 * stat only when schedstat shows no CPU progress and the state is not known
 * yet (sleepers are looked at with a back-off; harness/sampler/taskstat.h), to find
 * runnable-waiting stretches (starvation) without trusting the starved task
 * to report them.
 * Files stay open between ticks and are read with pread into stack buffers.
 * Memory stays flat with run length: per-task counters, and per group a
 * time series whose buckets double in length when it fills up.
 *
 * Usage: sampler_new; sampler_watch_process / sampler_add_task /
 * sampler_watch_pgroup for each load;
 * sampler_run (blocks until END_NS); read sampler_task(), sampler_quality(),
 * sampler_group_series(); sampler_free. Not thread-safe: one thread uses it. */
#ifndef STARVE_SAMPLER_H
#define STARVE_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sched.h>
#include <sys/types.h>

struct sampler;

/* A sampler ticking HZ times a second (> 0). NULL on allocation failure. */
struct sampler *sampler_new(int hz);
void sampler_free(struct sampler *s);

/* Run the sampler thread as SCHED_FIFO PRIO during sampler_run (0: stay
 * SCHED_OTHER), under RLIMIT_RTTIME; it sleeps every tick, so it never hogs.
 * Fails (-1, message) when PRIO is out of range; an EPERM at sampler_run is
 * a warning and the run goes on at the normal priority. */
int sampler_set_priority(struct sampler *s, int prio);

/* Keep the sampler thread off CPUS (the loads') during sampler_run when
 * another CPU is allowed to it: a tick that wakes behind busy loads on their
 * CPU is late, and in a long run some are missed (315 of 15000 in 60 s of
 * sleep-hog-starvation). Nothing changes when CPUS covers every allowed CPU. */
void sampler_avoid_cpus(struct sampler *s, const cpu_set_t *cpus);

/* Benchmark mode: open, read and close both files every tick, as a naive
 * sampler would (bench/sampler-bench.c compares the two). */
void sampler_set_naive(struct sampler *s, bool naive);

/* Sample every thread of process PID, now and as threads appear (its
 * /proc/PID/task is rescanned every SAMPLER_SCAN_NS). GROUP (>= 0) is the
 * caller's index for the load the threads belong to. Returns -1 if PID
 * does not exist. */
#define SAMPLER_SCAN_NS (100 * 1000000LL)
int sampler_watch_process(struct sampler *s, pid_t pid, int group);
/* Sample one thread. Adding a tid already sampled does nothing. Returns -1
 * if the thread does not exist (or on allocation failure). */
int sampler_add_task(struct sampler *s, pid_t pid, pid_t tid, int group);

/* Sample the threads a table names as they start: at every rescan (and
 * now), SLOT(DATA, I, &pid, &tid) is asked for each I < N not sampled yet
 * and returns true once slot I names a thread (a load's worker records,
 * filled in by each worker when it starts, maybe after sampling began).
 * Only those threads: never the process's other threads (its main thread
 * only waits for the workers). DATA must stay valid until sampler_free.
 * Returns -1 on allocation failure. */
typedef bool (*sampler_slot_fn)(void *data, size_t i, pid_t *pid, pid_t *tid);
int sampler_watch_slots(struct sampler *s, sampler_slot_fn slot, void *data, size_t n,
			int group);

/* Sample every process of process group PGID (> 0) as sampler_watch_process
 * does, now and as processes join it (children of its members stay in it
 * unless they change groups): at each rescan, one walk of /proc reads the
 * process group of every process not sampled yet, for all watched groups
 * at once. A process that lives less than SAMPLER_SCAN_NS may be missed. A
 * task (of any watch) started after the first tick counts whole, though found
 * later; an older one counts from its first sample. Processes passed to
 * sampler_skip_process are left out. Returns -1 on allocation
 * failure or a bad PGID. */
int sampler_watch_pgroup(struct sampler *s, pid_t pgid, int group);
/* Leave process PID out of every process-group watch (a load's own leader
 * and workers, which only wait for the command it runs). Call it before
 * sampler_watch_pgroup. Returns -1 on allocation failure. */
int sampler_skip_process(struct sampler *s, pid_t pid);

/* GROUP's tasks are covered by an exact source (harness/run/exact.h) that
 * measures their waits itself: the sampler steps back and reads them only
 * as often as SAMPLER_COVERED_READS_PER_S allows over all of them (HZ while
 * they are few, 2.4 Hz for 4,096 at HZ 250), for their CPU time, run delay
 * and its own starvation figure, kept as a cross-check. sampler_quality's
 * covered_hz says at what rate they were read. */
#define SAMPLER_COVERED_READS_PER_S 10000
void sampler_cover_group(struct sampler *s, int group);

/* Called about every SAMPLER_PROGRESS_NS from sampler_run with the worst
 * starvation seen so far (ns); a non-zero return stops the run early. */
#define SAMPLER_PROGRESS_NS (250 * 1000000LL)
typedef int (*sampler_progress_fn)(void *data, int64_t now_ns, int64_t starvation_max_ns);

/* Tick on an absolute CLOCK_MONOTONIC timer from now until END_NS
 * (CLOCK_MONOTONIC): the last tick is the first at or after it. The first
 * tick takes every task's baseline; metrics cover [first tick, last tick].
 * PROGRESS may be NULL. Returns 0, or 1 when
 * PROGRESS stopped it, -1 on error. Can be called once per sampler. */
int sampler_run(struct sampler *s, int64_t end_ns, sampler_progress_fn progress, void *data);

/* One thread's results over the sampling window. */
struct sampler_task_result {
	pid_t pid, tid;
	int group;
	char comm[16];
	int64_t cpu_ns;			/* schedstat CPU time delta */
	int64_t run_delay_ns;		/* schedstat run_delay delta (time runnable, not running) */
	int64_t first_ns, last_ns;	/* CLOCK_MONOTONIC: first and last sample of this task */
	int64_t starvation_max_ns;	/* longest runnable-but-not-running stretch */
	int64_t starvation_max_upper_ns; /* >= it: where waits merged (taskstat.h) */
	uint64_t samples;
	bool exited;			/* vanished during the run (numbers kept) */
};
size_t sampler_n_tasks(const struct sampler *s);
const struct sampler_task_result *sampler_task(const struct sampler *s, size_t i);

struct sampler_quality {
	int target_hz;
	double achieved_hz;		/* ticks / (last tick - first tick) */
	uint64_t ticks;
	uint64_t late_ticks;		/* woke more than half a period late */
	uint64_t missed_ticks;		/* whole periods skipped */
	size_t tasks;
	double cpu_s;			/* the sampler thread's CPU time */
	double cost_us_per_task_tick;	/* cpu_s / (live tasks summed over ticks), in us */
	double reads_per_task_tick;	/* /proc files read per live task and tick */
	uint64_t cpu_clock_jumps;	/* a task's CPU time grew faster than wall time */
	double cpu_clock_jump_s;	/* the most one load's clocks jumped beyond wall time */
	size_t tasks_unsampled;		/* found but never opened (out of descriptors...) */
	int priority;			/* SCHED_FIFO priority it ran at, 0: SCHED_OTHER */
	size_t covered_tasks;		/* the most live tasks sampler_cover_group covered */
	double covered_hz;		/* the mean rate they were read at; 0: none */
	int64_t window_ns;		/* last tick - first tick */
	int64_t first_ns, last_ns;	/* CLOCK_MONOTONIC: the first and the last tick */
};
void sampler_quality(const struct sampler *s, struct sampler_quality *q);

/* The down-sampled time series of GROUP: per bucket of INTERVAL_NS, the
 * group's summed cpu share (CPU time / bucket wall time: at most 1 per task,
 * so above 1 only with several threads) and the mean number of its tasks found runnable-waiting.
 * Pointers stay valid until sampler_free. Returns -1 for an unknown group. */
struct sampler_series {
	int64_t interval_ns;
	size_t n;
	const double *cpu_share;
	const double *runnable_waiting;
};
#define SAMPLER_BUCKET_NS (100 * 1000000LL)
#define SAMPLER_MAX_BUCKETS 512
/* Start the series at buckets of NS instead of SAMPLER_BUCKET_NS (before
 * sampler_run; tests use it to see buckets merge). */
void sampler_set_bucket_ns(struct sampler *s, int64_t ns);
int sampler_group_series(const struct sampler *s, int group, struct sampler_series *out);

#endif
