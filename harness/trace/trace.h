/* Exact mode: the scheduler's own events (sched_switch, sched_wakeup,
 * sched_wakeup_new, sched_migrate_task) through libtracefs and
 * libtraceevent, in a tracefs instance of starve's own ("starve-<pid>",
 * never the global buffer), limited to the loads' CPUs, on the CLOCK_MONOTONIC
 * trace clock so its times compare with the sampler's. A thread drains the
 * per-CPU buffers every TRACE_DRAIN_NS while the run goes on and feeds the
 * events, in time order, to harness/trace/trace-sched.h.
 *
 * The instance is a change to the machine: the caller journals it
 * (journal_record_tracefs) BEFORE trace_start creates it; trace_stop and
 * trace_free remove it, and `starve restore` removes one a crash left.
 * Built only with libtracefs (harness/run/exact.h says so without). */
#ifndef STARVE_TRACE_H
#define STARVE_TRACE_H

#define _GNU_SOURCE 1
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/trace/trace-sched.h"

#define TRACE_DRAIN_NS (100 * 1000000LL)
#define TRACE_BUFFER_KB 8192		/* per CPU: 100 ms of a busy CPU's switches */
#define TRACE_RING 65536		/* per CPU: who ran when, for "who ran instead" */

struct trace;

/* Whether exact mode can run here (built with libtracefs, root, sched
 * events present, instances creatable). When not, WHY says why and what to
 * do; when it can but tracefs is not mounted yet, WHY says that trace_start
 * will mount it (else WHY is ""). */
bool trace_available(char *why, size_t len);

/* The name of this process's instance, "starve-<pid>". */
void trace_instance_name(char *buf, size_t len);

/* Create the instance, trace CPUS only, enable the events and start the
 * draining thread. NULL with WHY filled on failure (the instance removed). */
struct trace *trace_start(const cpu_set_t *cpus, char *why, size_t len);
/* The measured window [FROM_NS, UNTIL_NS] on CLOCK_MONOTONIC: figures count
 * only inside it (trace-sched.h tsched_set_window); until it is set, nothing
 * counts. Tracing starts before the window opens and stops after it closes,
 * so the events before it only set each task's state. Call it before the
 * window opens. */
void trace_set_window(struct trace *t, int64_t from_ns, int64_t until_ns);
/* When tracing was on: from *ON_NS until *OFF_NS (0 before trace_stop). */
void trace_covered(const struct trace *t, int64_t *on_ns, int64_t *off_ns);

/* Stop tracing, drain what is left, close the stretches still open at
 * END_NS (CLOCK_MONOTONIC) and remove the instance. Returns -1 when the
 * events could not be read to the end (WHY filled). */
int trace_stop(struct trace *t, int64_t end_ns, char *why, size_t len);
/* Free T, removing its instance if trace_stop did not. */
void trace_free(struct trace *t);

const struct tsched *trace_sched(const struct trace *t);
/* Events the kernel dropped (buffer overruns): the figures miss them. */
uint64_t trace_lost(const struct trace *t);
/* Events read, and the CPU time the draining thread used (its cost). */
uint64_t trace_events(const struct trace *t);
double trace_cpu_s(const struct trace *t);

#endif
