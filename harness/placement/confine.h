/* Cpuset backends behind one interface (doc/design.md "Architecture"): the first backend
 * whose probe succeeds is used and its name is recorded in the result.
 *   libcpuset   an unprefixed legacy /dev/cpuset mount (libcpuset's own
 *               calls crash on prefixed cgroup v1 files: probe by files only)
 *   cgroup-v1   a cgroup v1 cpuset hierarchy, with or without "cpuset." prefix
 *   cgroup-v2   "cpuset" in the cgroup2 root's cgroup.controllers
 *   affinity    plain sched_setaffinity, always available
 * Every cpuset created is removed by confine_destroy() at the end of a run;
 * confine_sweep() removes those of runs that died. */
#ifndef STARVE_CONFINE_H
#define STARVE_CONFINE_H

#define _GNU_SOURCE 1
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct confine_backend;

/* Why each backend was or was not chosen, for `starve env`. */
struct confine_probe_report {
	const char *name;
	bool usable;
	char reason[160];
};

struct confine_handle {
	const struct confine_backend *backend;
	char path[256];			/* the cgroup directory, when one was made */
	cpu_set_t cpus;
};

/* Probe all backends in order; returns the chosen one's name, fills up to
 * max reports (one per backend). */
const char *confine_probe(struct confine_probe_report *reports, size_t max, size_t *n);

/* A controller the chosen backend's cpusets need that is off now (cgroup-v2:
 * "cpuset" in the root's subtree_control), and where: the caller journals
 * it and turns it on (subtree-control.h) before the first confine_create,
 * and off after the last confine_destroy. False when none is needed. */
bool confine_controller_needed(char *dir, size_t len, const char **controller);

/* Create a cpuset named NAME (unique per run: "starve-<pid>-<load>") holding
 * CPUS with the chosen backend. */
int confine_create(struct confine_handle *h, const char *name, const cpu_set_t *cpus);
/* Move PID (a whole process) into it; for "affinity" this sets its mask. */
int confine_attach(struct confine_handle *h, pid_t pid);
/* Remove it (after its tasks have exited or moved out). */
int confine_destroy(struct confine_handle *h);
const char *confine_backend_name(const struct confine_handle *h);

/* Flags of confine_sweep(). */
#define CONFINE_SWEEP_VERBOSE 0x1	/* print each one on stdout */
#define CONFINE_SWEEP_DRY_RUN 0x2	/* only say what would be removed */

/* Remove the cpusets "starve-<pid>-*" a run left behind, under every
 * backend's root: OWNER's when OWNER > 0 (the watchdog, after its
 * controller died), else those of every pid that no longer exists
 * (`starve restore`). Returns how many were (or would be) removed, or -1
 * when one could not be. */
int confine_sweep(pid_t owner, unsigned flags);

#endif
