/* Starting and stopping loads: each load's leader is forked into its own
 * process group (or session), with a death signal that kills its whole
 * group (so a shell's background children die with the controller), pinned,
 * niced, in its scheduling class, RT loads under RLIMIT_RTTIME, named
 * "starve-<load>" so ps shows it; then the leader calls its type's run().
 * Stopping asks nicely through the stats block, then kills the whole process
 * group by its id, and reaps. Only processes we started are ever signalled. */
#ifndef STARVE_SPAWN_H
#define STARVE_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "harness/placement/cgroup-cpu.h"
#include "harness/placement/confine.h"
#include "loads/load.h"

struct spawn_options {
	int64_t run_ns;		/* the run's whole length (warm-up included), for RLIMIT_RTTIME */
	bool use_cpuset;	/* confine in a cpuset through the chosen backend, else affinity only */
	/* the load's CPUs from the run plan (plan.h); NULL: resolved here
	 * through a plan of the one load (`starve load`, tests), which refuses
	 * an RT load on every CPU unless allow_rt_on_all_cpus */
	const cpu_set_t *cpus;
	bool allow_rt_on_all_cpus;
	const char *cgroup;	/* a cpu controller cgroup the leader moves into, or NULL */
	const struct cgcpu *cgcpu;	/* its hierarchy, when cgroup is set */
	/* the watchdog (0: none, `starve load`): a load ends itself once it or the
	 * controller has exited (loads/guard.c) */
	pid_t watchdog;
};

struct spawned_load {
	const struct load_spec *spec;
	pid_t pid;		/* the leader; also the process group id */
	unsigned first_record, n_records;
	struct confine_handle cpuset;
	bool has_cpuset;
	bool exited;
	int status;		/* wait status once exited */
	bool reaped;		/* the leader's zombie is gone (its pgid may be reused) */
};

/* Fork SPEC's leader using records [first_record, first_record + n) of STATS.
 * Returns 0 once the leader is set up, or -1 with an error printed (nothing
 * left running). Makes the caller a child subreaper (PR_SET_CHILD_SUBREAPER),
 * so processes a load orphans can be reaped by spawn_stop_all. */
int spawn_load(struct spawned_load *sl, const struct load_spec *spec, struct stats_block *stats,
	       unsigned first_record, const struct spawn_options *opt);

/* Set stats->stop, give the loads GRACE_NS to end by themselves, then SIGKILL
 * each load's process group, reap every leader and remove their cpusets.
 * Safe to call more than once. */
void spawn_stop_all(struct spawned_load *loads, size_t n, struct stats_block *stats,
		    int64_t grace_ns);

/* Note leaders that exited (exited, status), without blocking; returns how
 * many are still alive. Their zombies stay until spawn_stop_all, so their
 * process group ids cannot be reused before the group is killed. */
size_t spawn_poll(struct spawned_load *loads, size_t n);

#endif
