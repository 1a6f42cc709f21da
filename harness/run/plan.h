/* A run resolved once, before anything touches the machine: each load's
 * CPUs as a bitmap (its 'cpus' text resolved against this machine's
 * topology here and nowhere else), their union, and the rule that RT loads
 * (fifo, rr, deadline) leave a CPU free, checked here with one message.
 * `starve run` builds it, the engine and spawn read it, `starve check` and
 * `starve load` check through it. */
#ifndef STARVE_RUN_PLAN_H
#define STARVE_RUN_PLAN_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#include "harness/profile/profile.h"
#include "loads/load.h"

struct run_plan {
	size_t n_loads;
	cpu_set_t *cpus;	/* [n_loads]: each load's CPUs, in the loads' order */
	cpu_set_t all;		/* their union: where noise is measured and tracing looks */
};

/* Resolve the CPUs of the N LOADS on this machine and check that the RT
 * ones together leave a CPU free unless ALLOW: an RT hog on every CPU can
 * lock the machine up. 0, or -1 with one message printed (at the load's
 * 'cpus' value when it came from a profile) and PLAN empty. */
int run_plan_loads(struct run_plan *plan, const struct load_spec *loads, size_t n, bool allow);

/* The same for profile P, whose allow_rt_on_all_cpus key counts like ALLOW
 * (the command line's --allow-rt-on-all-cpus). */
int run_plan_build(struct run_plan *plan, const struct profile *p, bool allow);

/* Only the check (`starve check`, `starve vm` before any guest): build and
 * free. */
int run_plan_check(const struct profile *p, bool allow);

/* Safe on an empty plan and more than once. */
void run_plan_free(struct run_plan *plan);

#endif
