/* The run plan (plan.h): every load's 'cpus' resolved once, and the RT rule
 * checked once, in one place. */
#include "config.h"
#include "harness/run/plan.h"
#include "harness/placement/topology.h"
#include "lib/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where a message about L points: its 'cpus' value, else the load; NULL
 * when it did not come from a profile (`starve load`). */
static const struct source_pos *plan_pos(const struct load_spec *l)
{
	const struct source_pos *pos = l->cpus_pos.line ? &l->cpus_pos : &l->pos;

	return pos->file && pos->line ? pos : NULL;
}

#define PLAN_RT_EVERY_CPU                                                                \
	"its fifo/rr loads together cover every CPU (%s); an RT hog on every CPU can lock " \
	"the machine up. Pin them to fewer CPUs, or pass --allow-rt-on-all-cpus if you "    \
	"mean it"

/* -1 (message printed) when the RT loads' CPUs together are every CPU. */
static int plan_check_rt(const struct run_plan *plan, const struct load_spec *loads)
{
	const struct load_spec *first_rt = NULL;
	const struct source_pos *pos;
	cpu_set_t all, rt, covered;
	char why[160], list[128];

	CPU_ZERO(&rt);
	for (size_t i = 0; i < plan->n_loads; i++) {
		if (!load_policy_is_realtime(loads[i].policy))
			continue;
		CPU_OR(&rt, &rt, &plan->cpus[i]);
		if (!first_rt)
			first_rt = &loads[i];
	}
	if (!first_rt)
		return 0;
	if (topology_cpus(NULL, &all, why, sizeof(why)) < 0)
		return error("%s", why);
	CPU_AND(&covered, &all, &rt);
	if (!CPU_EQUAL(&covered, &all))
		return 0;
	cpuset_format(&rt, list, sizeof(list));
	pos = plan_pos(first_rt);
	if (pos)
		return error_at(pos->file, pos->line, pos->col, PLAN_RT_EVERY_CPU, list);
	return error("load '%s': " PLAN_RT_EVERY_CPU, first_rt->name, list);
}

/* Resolve L's CPUs into OUT; -1 with the load named when they are not here. */
static int plan_resolve(const struct load_spec *l, cpu_set_t *out)
{
	const struct source_pos *pos = plan_pos(l);
	char why[160];

	if (topology_cpus(l->cpus, out, why, sizeof(why)) == 0)
		return 0;
	if (pos)
		return error_at(pos->file, pos->line, pos->col, "load '%s': %s", l->name, why);
	return error("load '%s': %s", l->name, why);
}

int run_plan_loads(struct run_plan *plan, const struct load_spec *loads, size_t n, bool allow)
{
	memset(plan, 0, sizeof(*plan));
	plan->cpus = calloc(n ? n : 1, sizeof(*plan->cpus));
	if (!plan->cpus)
		return error("out of memory");
	plan->n_loads = n;
	/* every load's CPUs exist here, before any knob is written */
	for (size_t i = 0; i < n; i++) {
		if (plan_resolve(&loads[i], &plan->cpus[i]) < 0) {
			run_plan_free(plan);
			return -1;
		}
		CPU_OR(&plan->all, &plan->all, &plan->cpus[i]);
	}
	if (!allow && plan_check_rt(plan, loads) < 0) {
		run_plan_free(plan);
		return -1;
	}
	return 0;
}

int run_plan_build(struct run_plan *plan, const struct profile *p, bool allow)
{
	return run_plan_loads(plan, p->loads, p->n_loads, allow || p->allow_rt_on_all_cpus);
}

int run_plan_check(const struct profile *p, bool allow)
{
	struct run_plan plan;

	if (run_plan_build(&plan, p, allow) < 0)
		return -1;
	run_plan_free(&plan);
	return 0;
}

void run_plan_free(struct run_plan *plan)
{
	free(plan->cpus);
	memset(plan, 0, sizeof(*plan));
}
