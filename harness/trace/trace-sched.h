/* Exact runnable stretches from the scheduler's own events (sched_switch,
 * sched_wakeup(_new), sched_migrate_task), fed in time order. Pure: no I/O,
 * so unit tests feed synthetic events and harness/trace/trace.c feeds the
 * real ones.
 *
 * A task is runnable-waiting from its wakeup, or from being switched out
 * while still runnable (preempted), until it is switched in: that is one
 * stretch, exactly. A wakeup's latency is the stretch it starts. Per task:
 * every stretch into a histogram, the longest with its CPU and bounds, and
 * who ran on that CPU meanwhile (each CPU keeps a ring of who ran when, long
 * enough for the stretches that matter; a longest stretch older than the
 * ring says so). A task first seen switched in, or woken where the events
 * were not traced, has a stretch whose start is unknown: counted, not
 * measured. */
#ifndef STARVE_TRACE_SCHED_H
#define STARVE_TRACE_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/histogram.h"

#define TSCHED_COMM_LEN 16
#define TSCHED_MAX_INSTEAD 8	/* tasks named in "who ran instead" */

/* Who held a CPU during a stretch: a task, its time, its priority as the
 * kernel writes it (0-99 RT, 100-139 normal: 120 + nice, -1 deadline) and
 * its policy (SCHED_*, -1 when unknown). */
struct tsched_holder {
	pid_t pid;
	char comm[TSCHED_COMM_LEN];
	int prio, policy;
	int64_t ns;
};

/* A task's longest stretch and who ran instead. */
struct tsched_longest {
	int64_t ns, from_ns, to_ns;
	int cpu;
	size_t n_holders;
	struct tsched_holder holders[TSCHED_MAX_INSTEAD];
	int64_t others_ns;		/* the rest, beyond the holders named */
	bool partial;			/* the CPU's ring no longer reached its start */
};

struct tsched_task {
	pid_t pid;
	char comm[TSCHED_COMM_LEN];
	int prio;
	/* state */
	bool seen_off, on_cpu, runnable, start_known, woken;
	int cpu;
	int64_t since_ns;		/* runnable since */
	int64_t cpu_since_ns;		/* ... and on CPU since (a migration) */
	/* results */
	uint64_t stretches, unknown_starts;
	struct histogram *wait;		/* every stretch, ns (NULL until the first) */
	struct histogram *wakeup;	/* stretches that began with a wakeup, ns */
	struct tsched_longest longest;
};

struct tsched;

/* A tracker for CPUs 0..NR_CPUS-1 keeping RING entries of who ran per CPU.
 * NULL when out of memory. */
struct tsched *tsched_new(int nr_cpus, size_t ring);
void tsched_free(struct tsched *t);

/* Figures count only inside [FROM_NS, UNTIL_NS] (the measured window, on
 * the trace clock; by default everything): a stretch crossing an end counts
 * its part inside, with its start and "who ran instead" clipped to it, and
 * one wholly outside counts not at all. Events before FROM_NS still set
 * each task's state, so a stretch already open when the window begins has a
 * known start. Set it before the events inside the window are fed. */
void tsched_set_window(struct tsched *t, int64_t from_ns, int64_t until_ns);

/* POLICY_OF(data, pid) gives a task's scheduling policy when a holder is
 * named (NULL: unknown, -1). */
void tsched_set_policy_fn(struct tsched *t, int (*policy_of)(void *data, pid_t pid), void *data);

/* The events, in time order (TS_NS on the trace clock). PREV_RUNNABLE: the
 * task switched out was still runnable (prev_state R: preempted). */
void tsched_switch(struct tsched *t, int64_t ts_ns, int cpu, pid_t prev, int prev_prio,
		   bool prev_runnable, const char *prev_comm, pid_t next, int next_prio,
		   const char *next_comm);
void tsched_wakeup(struct tsched *t, int64_t ts_ns, pid_t pid, int prio, int target_cpu,
		   const char *comm);
void tsched_migrate(struct tsched *t, int64_t ts_ns, pid_t pid, int dest_cpu);
/* Close stretches still open at END_NS (the end of the window, or later:
 * tsched_set_window clips them): they count as stretches up to then. */
void tsched_finish(struct tsched *t, int64_t end_ns);

/* The task PID has been seen, or NULL. */
const struct tsched_task *tsched_find(const struct tsched *t, pid_t pid);
uint64_t tsched_events(const struct tsched *t);

#endif
