/* What makes a measured run an error rather than a verdict, looked at once
 * its loads are stopped: a worker that failed (in its own words), a leader
 * that exited badly, tasks the sampler could not open, and tasks that were
 * not watched for the whole window (never started, none of a load's tasks
 * seen, a window cut short): partial figures are never a PASS. */
#ifndef STARVE_RUN_OUTCOME_H
#define STARVE_RUN_OUTCOME_H

#include "harness/profile/profile.h"
#include "harness/run/spawn.h"
#include "harness/sampler/sampler.h"
#include "loads/stats.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct run_outcome {
	const struct profile *p;
	const struct spawned_load *sl;		/* p->n_loads of them */
	const unsigned *first;			/* each load's first record */
	const struct stats_block *stats;
	const struct sampler *smp;		/* NULL: nothing was sampled */
	int64_t measure_from, sampled_until;	/* the window as measured */
	bool interrupted;			/* a signal ended it early: no window check */
};

/* The first reason the run is an error, in order of precedence, into WHY
 * (LEN bytes); false when there is none. */
bool outcome_error(const struct run_outcome *o, char *why, size_t len);

#endif
