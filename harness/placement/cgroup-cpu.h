/* cgroups with the cpu controller, for settings that put loads under CPU
 * bandwidth (cpu.max), weights (cpu.weight) and utilization clamps
 * (cpu.uclamp.min/max): cgroup v2 where the cpu controller is in the
 * unified hierarchy's cgroup.controllers, else a cgroup v1 hierarchy with
 * the cpu controller. Knobs are named as in v2 and translated for v1
 * (cpu.cfs_quota_us/cpu.cfs_period_us, cpu.shares). Directories are made
 * under "starve-<pid>" in the hierarchy's root; the caller journals each
 * before creating it (harness/run/cgroups.c). */
#ifndef STARVE_CGROUP_CPU_H
#define STARVE_CGROUP_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/cgknobs.h"

struct cgcpu {
	int version;		/* 1 or 2; 0 when no hierarchy has the cpu controller */
	char root[256];		/* its mount point */
	bool bandwidth;		/* cpu.max / cpu.cfs_quota_us (CONFIG_CFS_BANDWIDTH) */
	bool weight;		/* cpu.weight / cpu.shares */
	bool uclamp;		/* cpu.uclamp.min/max (CONFIG_UCLAMP_TASK_GROUP) */
	bool rt_group;		/* v1 cpu.rt_runtime_us: RT tasks need a runtime there */
	bool v2_enable;		/* v2: "cpu" is off in the root's subtree_control: the
				 * caller journals and turns it on (subtree-control.h)
				 * before cgcpu_make, and off after */
};

/* cpu.stat's bandwidth figures: throttled time in ns whatever the version. */
struct cgcpu_stat {
	uint64_t nr_periods, nr_throttled, throttled_ns;
};

/* Find the hierarchy to use; REASON says which, or why none (for `starve
 * env` and a skipped setting). Changes nothing. */
bool cgcpu_probe(struct cgcpu *cg, char *reason, size_t len);

/* The controllers of the cgroup2 root (cgroup.controllers) into V2, and of
 * the v1 hierarchies (/proc/cgroups, hierarchy id > 0) into V1, space
 * separated; empty when none. */
void cgcpu_controllers(char *v2, size_t v2_len, char *v1, size_t v1_len);

/* The "starve-<pid>" parent of this process's cgroups, into OUT. */
int cgcpu_parent(const struct cgcpu *cg, char *out, size_t len);
/* Make DIR (the parent, or a child of it: the caller journaled it); for v2,
 * turns the cpu controller on for the parent's children. */
int cgcpu_make(const struct cgcpu *cg, const char *dir, bool parent);
/* Write K into DIR; -1 with a message naming the file. */
int cgcpu_set(const struct cgcpu *cg, const char *dir, const struct cgcpu_knobs *k);
/* Move process PID (all its threads) into DIR. */
int cgcpu_attach(const struct cgcpu *cg, const char *dir, pid_t pid);
int cgcpu_read_stat(const struct cgcpu *cg, const char *dir, struct cgcpu_stat *st);
/* Move what is left to the root, then rmdir DIR (retrying while exiting
 * tasks hold it). */
int cgcpu_remove(const struct cgcpu *cg, const char *dir);

#endif
