/* A setting's cgroups (profile 'cgroups:'): made for each of its runs under
 * "starve-<pid>" in the hierarchy with the cpu controller, every directory
 * journaled before it is made (so `starve restore` and the watchdog remove
 * them after a crash), the listed loads' leaders moved in as they start,
 * cpu.stat watched at the sampler's rate while the run is measured, and
 * everything removed once the loads are gone. Metrics per load in a cgroup
 * (lib/metric.c): throttled_periods, throttled_ratio, throttled_time,
 * throttled_max (the longest stretch cpu.stat showed), and the load's own
 * longest in-band gap split into its part spent throttled
 * (throttled_max_inband: a wait for the quota) and the rest
 * (starvation_max_inband_cpu: a wait for the CPU). */
#ifndef STARVE_RUN_CGROUPS_H
#define STARVE_RUN_CGROUPS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "harness/kernel/journal.h"
#include "harness/placement/cgroup-cpu.h"
#include "harness/profile/profile.h"
#include "harness/run/controllers.h"
#include "harness/run/settings.h"
#include "lib/figures.h"
#include "loads/stats.h"

#define CGROUPS_MAX 16
#define CGROUPS_STRETCHES 1024	/* throttled stretches kept per cgroup and run */

struct run_cgroup {
	const struct cgroup_setting *set;
	char dir[320];
	bool made;
	struct cgcpu_stat before, after, last;
	int64_t stretch_max_ns;			/* longest throttled stretch seen */
	size_t n_stretches;
	int64_t stretch_end[CGROUPS_STRETCHES], stretch_ns[CGROUPS_STRETCHES];
};

struct run_cgroups {
	struct cgcpu cg;
	struct run_controller cpu;	/* v2: "cpu" we turned on in the root */
	char parent[300];
	bool parent_made;
	size_t n;
	struct run_cgroup g[CGROUPS_MAX];
	pthread_t poller;
	bool polling;
	volatile int stop;
	int64_t interval_ns;
};

/* Make S's cgroups (none: nothing done). SETTINGS_SKIPPED with REASON when
 * the machine has no usable cpu controller or lacks a knob's feature. */
enum settings_status cgroups_apply(struct journal *j, const struct setting *s,
				    struct run_cgroups *rc, char *reason, size_t len);
/* The directory load NAME goes in, or NULL. */
const char *cgroups_dir_of(const struct run_cgroups *rc, const char *name);
/* Watch cpu.stat every 1/HZ from now until cgroups_watch_end. */
int cgroups_watch_begin(struct run_cgroups *rc, int hz);
void cgroups_watch_end(struct run_cgroups *rc);
/* The cgroup figures of load NAME (records [first, first + n) of
 * STATS) into F (source the cgroup); WALL_NS is the measured window. */
void cgroups_load_metrics(const struct run_cgroups *rc, const char *name,
			  const struct stats_block *stats, unsigned first, unsigned n,
			  int64_t wall_ns, struct figures *f);
/* Remove every directory made (children, then the parent) and drop their
 * journal entries; returns how many could not be removed. */
int cgroups_remove(struct journal *j, struct run_cgroups *rc);

#endif
