/* The registry of load types, the options every load shares, and the
 * life cycle of a load_spec (defaults, validation, freeing). */
#include "config.h"
#include "loads/load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const struct load_type load_sleep_hog, load_wakeup_storm, load_pipe_pingpong,
	load_compositor, load_massive_intr, load_cpu_victim, load_wakeup_probe, load_rt_hog,
	load_exec, load_kernel_build;

const struct load_type *const load_types[] = {
	&load_sleep_hog, &load_wakeup_storm, &load_pipe_pingpong, &load_compositor,
	&load_massive_intr, &load_cpu_victim, &load_wakeup_probe, &load_rt_hog, &load_exec,
	&load_kernel_build,
};
const size_t load_type_count = sizeof(load_types) / sizeof(load_types[0]);

const char *const load_mode_names[] = { "threads", "processes", NULL };
const char *const load_policy_names[] = { "other", "batch", "idle", "fifo", "rr", "deadline",
					   NULL };

const struct opt_spec load_common_options[COMMON_NR_OPTIONS] = {
	[COMMON_COUNT] = { "count", OPT_INT, NULL, 1, LOAD_MAX_WORKERS, "1",
		"number of workers (what a worker is depends on the type)", NULL },
	[COMMON_MODE] = { "mode", OPT_ENUM, NULL, 0, 0, "threads",
		"run workers as threads of one process or as processes", load_mode_names },
	[COMMON_CPUS] = { "cpus", OPT_STRING, NULL, 0, 0, "all",
		"CPUs to run on: pu:N, pu:N-M, core:N, numa:N, all; join with +", NULL },
	[COMMON_NICE] = { "nice", OPT_INT, NULL, -20, 19, "0", "nice value, whatever nice starve was started at (one below it needs root)", NULL },
	[COMMON_POLICY] = { "policy", OPT_ENUM, NULL, 0, 0, NULL,
		"scheduling policy (default: other, rt-hog: fifo); deadline takes dl_runtime and dl_period", load_policy_names },
	[COMMON_PRIORITY] = { "priority", OPT_INT, NULL, 0, 99, NULL,
		"real-time priority for fifo and rr (1..98: 99 is the guard's); 0 otherwise", NULL },
	[COMMON_SESSION] = { "session", OPT_BOOL, NULL, 0, 0, "false",
		"start the load in a session of its own (its own autogroup)", NULL },
	/* 0 stands for "not given": load_check_deadline() requires them */
	[COMMON_DL_RUNTIME] = { "dl_runtime", OPT_DURATION, "ns", 0, 4.2e9, "0ns",
		"SCHED_DEADLINE runtime per period (policy deadline)", NULL },
	[COMMON_DL_DEADLINE] = { "dl_deadline", OPT_DURATION, "ns", 0, 4.2e9, "0ns",
		"SCHED_DEADLINE relative deadline; 0 means the period", NULL },
	[COMMON_DL_PERIOD] = { "dl_period", OPT_DURATION, "ns", 0, 4.2e9, "0ns",
		"SCHED_DEADLINE period (policy deadline)", NULL },
	[COMMON_SLICE] = { "slice", OPT_DURATION, "ns", 0, 100e6, "0ns",
		"fair slice each worker asks for (sched_runtime of other or batch; used since v6.12, clamped to 0.1..100 ms; ignored before); 0: the kernel's", NULL },
};

const struct load_type *load_type_find(const char *name)
{
	for (size_t i = 0; i < load_type_count; i++)
		if (!strcmp(load_types[i]->name, name))
			return load_types[i];
	return NULL;
}

const char *load_type_suggest(const char *name)
{
	const char *names[sizeof(load_types) / sizeof(load_types[0])];

	for (size_t i = 0; i < load_type_count; i++)
		names[i] = load_types[i]->name;
	return opt_suggest(name, names, load_type_count);
}

unsigned load_records_needed(const struct load_spec *spec)
{
	if (spec->type->records_needed)
		return spec->type->records_needed(spec);
	return (unsigned)spec->count;
}

void load_spec_init(struct load_spec *spec, const struct load_type *type, const char *name)
{
	memset(spec, 0, sizeof(*spec));
	spec->type = type;
	spec->name = strdup(name ? name : type->name);
	spec->count = 1;
	spec->mode = LOAD_THREADS;
	spec->policy = type->default_policy;
	spec->priority = type->default_priority;
}

void load_spec_set_common(struct load_spec *spec, enum load_common_option i,
			  const union opt_value *v)
{
	switch (i) {
	case COMMON_COUNT: spec->count = (int)v->i; break;
	case COMMON_MODE: spec->mode = (enum load_mode)v->i; break;
	case COMMON_CPUS: free(spec->cpus); spec->cpus = v->s; break;
	case COMMON_NICE: spec->nice = (int)v->i; break;
	case COMMON_POLICY:
		spec->policy = (enum load_policy)v->i;
		/* rt-hog's default priority 50 does not follow it to other or
		 * deadline. A load of unknown type (NULL: the profile parser
		 * still judges its common keys) has no default to follow. */
		if (spec->policy != POLICY_FIFO && spec->policy != POLICY_RR && spec->type &&
		    spec->priority == spec->type->default_priority)
			spec->priority = 0;
		break;
	case COMMON_PRIORITY: spec->priority = (int)v->i; break;
	case COMMON_SESSION: spec->session = v->b; break;
	case COMMON_DL_RUNTIME: spec->dl_runtime_ns = v->i; break;
	case COMMON_DL_DEADLINE: spec->dl_deadline_ns = v->i; break;
	case COMMON_DL_PERIOD: spec->dl_period_ns = v->i; break;
	case COMMON_SLICE: spec->slice_ns = v->i; break;
	case COMMON_NR_OPTIONS: break;
	}
}

static int check_policy(const struct load_spec *spec, char *why, size_t why_len)
{
	bool rt = spec->policy == POLICY_FIFO || spec->policy == POLICY_RR;

	if (rt && spec->priority > LOAD_RT_PRIORITY_MAX) {
		/* loads/guard.c: the leader must wait above every worker */
		snprintf(why, why_len,
			 "priority %d is above %d, the highest a load may take: its leader "
			 "waits at %d to end the load if starve dies",
			 spec->priority, LOAD_RT_PRIORITY_MAX, LOAD_RT_PRIORITY_MAX + 1);
		return -1;
	}
	if (rt && spec->priority < 1) {
		snprintf(why, why_len, "policy %s needs a priority of 1..%d, not %d",
			 load_policy_names[spec->policy], LOAD_RT_PRIORITY_MAX, spec->priority);
		return -1;
	}
	if (!rt && spec->priority != 0) {
		snprintf(why, why_len, "priority %d needs policy fifo or rr, not %s",
			 spec->priority, load_policy_names[spec->policy]);
		return -1;
	}
	if ((spec->type->flags & LOAD_RT) && !rt && spec->policy != POLICY_DEADLINE) {
		snprintf(why, why_len, "load type '%s' needs policy fifo, rr or deadline",
			 spec->type->name);
		return -1;
	}
	if (spec->slice_ns && spec->policy != POLICY_OTHER && spec->policy != POLICY_BATCH) {
		snprintf(why, why_len, "slice is a fair task's request: it needs policy other or "
			 "batch, not %s", load_policy_names[spec->policy]);
		return -1;
	}
	return load_check_deadline(spec, why, why_len);
}

int load_spec_finish(struct load_spec *spec, char *why, size_t why_len)
{
	bool filled[LOAD_MAX_OPTIONS];

	if (!spec->cpus)
		spec->cpus = strdup("all");
	/* Defaults go into opts; opt_set keeps saying what was given. */
	memcpy(filled, spec->opt_set, sizeof(filled));
	if (opt_fill_defaults(spec->type->options, spec->type->n_options, spec->opts,
			      filled, why, why_len))
		return -1;
	if (check_policy(spec, why, why_len))
		return -1;
	if (spec->type->validate)
		return spec->type->validate(spec, why, why_len);
	return 0;
}

void load_spec_free(struct load_spec *spec)
{
	if (spec->type)
		opt_values_free(spec->type->options, spec->type->n_options, spec->opts);
	free(spec->name);
	free(spec->cpus);
	memset(spec, 0, sizeof(*spec));
}
