/* Private to the sampler (sampler.c, sampler-discover.c): its structures
 * and the few functions the tick loop and task discovery share. Not for
 * other modules: they use harness/sampler/sampler.h. */
#ifndef STARVE_SAMPLER_INTERNAL_H
#define STARVE_SAMPLER_INTERNAL_H

#include "harness/sampler/sampler.h"
#include "harness/sampler/group-series.h"
#include "harness/sampler/taskstat.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sched.h>
#include <sys/types.h>

struct sampler_task {
	struct sampler_task_result r;
	int fd_sched, fd_stat;		/* -1 once the task is gone */
	struct taskstat_track track;
	struct taskstat_sched base;	/* the first sample, or 0s when born_late */
	bool born_late;			/* started after the first tick: all its time counts */
	int64_t born_ns;		/* then about when (CLOCK_MONOTONIC) */
};

struct sampler_proc {
	pid_t pid;
	int group;
	bool gone;
};

struct sampler_slots {
	sampler_slot_fn slot;
	void *data;
	size_t n, left;			/* slots, and how many name no sampled thread yet */
	bool *done;
	int group;
};

struct sampler_pgroup {
	pid_t pgid;
	int group;
};

struct sampler {
	int hz, prio, applied_prio;
	int64_t period_ns, bucket_ns;
	bool naive, ran;
	cpu_set_t avoid;		/* CPUs the sampler thread keeps off (the loads') */
	bool open_failed;		/* said once that /proc files could not be opened */
	struct sampler_task *tasks;
	size_t n_tasks, cap_tasks;
	size_t *index, index_size;	/* tid -> task index + 1 (sampler_slot) */
	struct sampler_proc *procs;	/* live ones: the gone are dropped at rescans */
	size_t n_procs, cap_procs;
	struct sampler_pgroup *pgroups;	/* sampler_watch_pgroup */
	size_t n_pgroups;
	pid_t *skip;			/* sampler_skip_process */
	size_t n_skip;
	struct sampler_slots *slots;	/* sampler_watch_slots */
	size_t n_slots;
	pid_t *unsampled;		/* tids that could not be opened (not ENOENT) */
	size_t n_unsampled, cap_unsampled;
	struct sampler_group *groups;
	size_t n_groups;
	uint64_t ticks, late, missed, task_ticks;
	uint64_t reads;			/* /proc reads in ticks, for the cost figures */
	uint64_t cpu_jumps;		/* CPU time that grew faster than wall time (steal) */
	unsigned covered_stride;	/* this tick: covered tasks are read every Nth tick */
	size_t covered_live, covered_max;	/* live covered tasks last tick, the most */
	double covered_rate_sum;	/* 1 / covered_stride summed over ticks with any */
	uint64_t covered_ticks;		/* ... and those ticks */
	int64_t first_ns, last_ns, prev_tick_ns, cpu_ns, next_scan_ns;
	int64_t first_boot_ns;		/* CLOCK_BOOTTIME of the first tick */
};

/* sampler.c: GROUP's series, created on first use; NULL when out of memory. */
struct sampler_group *sampler_group_get(struct sampler *s, int group);
/* sampler.c: whether TID is sampled already (and not exited). */
bool sampler_has_task(const struct sampler *s, pid_t tid);
/* sampler-discover.c: new threads of watched processes and slots, then new
 * processes of watched process groups. */
void sampler_rescan(struct sampler *s);
/* sampler-discover.c: note that TID could not be opened (FAILED) or was
 * opened at last; sampler_quality counts the tids still failed. */
void sampler_note_unsampled(struct sampler *s, pid_t tid, bool failed);
/* sampler-discover.c: free what discovery allocated. */
void sampler_free_discovery(struct sampler *s);

#endif
