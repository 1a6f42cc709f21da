/* Filling a run's records (harness/run/record.h) from what the engine
 * measured: each load's in-band summary, the sampler's figures and tasks,
 * its cgroup's cpu.stat; attached processes get the sampler's only. */
#ifndef STARVE_RUN_RECORD_FILL_H
#define STARVE_RUN_RECORD_FILL_H

#include <stddef.h>
#include <stdint.h>

#include "harness/profile/profile.h"
#include "harness/run/cgroups.h"
#include "harness/run/record.h"
#include "harness/run/spawn.h"
#include "loads/stats.h"

/* Where the loads' in-band records are: load i's start at FIRST[i] in
 * STATS; WALL_NS is the measured window; CGROUPS the setting's; SL the
 * loads as started (their leaders). */
struct record_source {
	const struct spawned_load *sl;
	const struct stats_block *stats;
	const unsigned *first;
	int64_t wall_ns;
	const struct run_cgroups *cgroups;
};

/* R->loads: the N_SPAWNED loads of P (groups 0..) and its attached
 * processes (groups n_loads..), from SRC and R->smp. -1 when out of memory. */
int record_loads(struct run_record *r, const struct profile *p, size_t n_spawned,
		 const struct record_source *src);
void record_free(struct run_record *r);

#endif
