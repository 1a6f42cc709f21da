/* The run's exact source: the scheduler's own events, read by one of two
 * backends behind one interface, as the placement backends are.
 *
 *   tracefs  exact mode (profile key trace, starve run --trace): sched_switch,
 *            sched_wakeup(_new), sched_migrate_task in a tracefs instance of
 *            starve's own on the loads' CPUs (harness/trace/). The instance,
 *            and a tracefs mount the run makes, are journaled before they
 *            exist and removed when tracing stops.
 *   bpf      the default where the kernel allows it (harness/bpf/): a BPF
 *            program counts every task the run forks, and every attached
 *            process, in the kernel; nothing on the machine changes.
 *
 * A run starts its source before its first load (every stretch then has a
 * known start), counts only inside the window, stops it once the window has
 * closed, and collects its figures into the run's load records; result.json
 * gets one "exact" object naming the source (doc/result-format.md). A source
 * that lost events or tasks makes the run's verdicts undecided, whichever
 * it is (reports/result/verdict.c). A backend this starve was built without
 * is simply absent: asking for it says why. */
#ifndef STARVE_RUN_EXACT_H
#define STARVE_RUN_EXACT_H

#define _GNU_SOURCE 1
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "harness/kernel/journal.h"
#include "harness/run/record.h"

#define EXACT_BPF_ENV "STARVE_BPF"	/* "0": no BPF source (the sampler's figures) */

struct exact;

/* Whether this starve was built with SOURCE ("trace" or "bpf"), and whether
 * it can run here (WHY says why not, or what a run will do first). */
bool exact_built_in(const char *source);
bool exact_available(const char *source, char *why, size_t len);
/* -1 (message printed, nothing changed) when exact mode (tracefs) is asked
 * for but cannot run here. */
int exact_check(void);

/* Start the run's source: tracefs when TRACE, else BPF unless $STARVE_BPF
 * is 0. CPUS are the loads' (tracefs traces only those); J is the run's
 * journal. 0 with *OUT set; 0 with *OUT NULL and WHY saying why there is
 * none (BPF cannot run: the sampler's figures stand); -1 with WHY when
 * tracefs was asked for and could not start. */
int exact_start(struct exact **out, struct journal *j, bool trace, const cpu_set_t *cpus,
		char *why, size_t len);
/* Count every thread of process TGID and what it forks (an attached
 * process): -1 when the source cannot (it is full, or sees only CPUS). */
int exact_watch(struct exact *x, pid_t tgid);
/* Whether the source sees every task of the run's loads, and of its attached
 * processes: then the sampler need not look at them often (sampler.h). */
bool exact_covers_loads(const struct exact *x);
bool exact_covers_attached(const struct exact *x);
/* Count only inside [FROM_NS, UNTIL_NS] (CLOCK_MONOTONIC); set before the
 * window opens. */
void exact_set_window(struct exact *x, int64_t from_ns, int64_t until_ns);
/* Stop recording at END_NS, after the window closed (tracefs: its events
 * drained and its instance removed). -1 with WHY when its events could not
 * all be read. Once; exact_free stops a source not stopped. */
int exact_stop(struct exact *x, int64_t end_ns, char *why, size_t len);
/* The figures into each of the N_LOADS LOADS (their leaders and sampled
 * tasks name the tasks) and their tasks. */
void exact_collect(const struct exact *x, struct load_record *loads, size_t n_loads);
/* What the source read, lost and cost, for result.json's "exact". */
void exact_stats(const struct exact *x, struct run_exact *out);
void exact_free(struct exact *x);

#endif
