/* The 'loads' and 'attach' sections of a profile. A load entry's keys are
 * name, type, the common options (load_common_options[]) and its type's
 * options: the option tables are the only source of key names, types,
 * ranges and defaults, so the parser cannot drift from the loads. */
#include "config.h"
#include "harness/profile/profile-node.h"
#include "lib/cpuspec.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tasks are named "starve-<name>" and the kernel keeps 15 characters of a
 * name: longer load names would be cut in ps and top beyond recognition. */
#define LOAD_NAME_MAX 12
#define ATTACH_NAME_MAX 32
#define LOAD_KEYS_MAX (2 + COMMON_NR_OPTIONS + LOAD_MAX_OPTIONS)

static const struct opt_spec attach_pid_spec = {
	"pid", OPT_INT, NULL, 1, 4194304, NULL, "process id to sample", NULL,
};

/* Loads and attached processes share one namespace: expectations name either. */
static int pl_check_unique(struct pctx *c, const yaml_node_t *node, const char *name)
{
	const struct profile *p = c->p;
	int line = 0;

	for (size_t i = 0; i < p->n_loads && !line; i++)
		if (p->loads[i].name && !strcmp(p->loads[i].name, name))
			line = p->loads[i].pos.line;
	for (size_t i = 0; i < p->n_attach && !line; i++)
		if (p->attach[i].name && !strcmp(p->attach[i].name, name))
			line = p->attach[i].pos.line;
	if (!line)
		return 0;
	return pn_error(c, node, "duplicate name '%s' (first used at line %d); loads and "
			"attached processes need unique names", name, line);
}

/* The name of an entry: required, well-formed and unique; NULL otherwise. */
static const char *pl_name(struct pctx *c, const yaml_node_t *map, size_t max, const char *what)
{
	const yaml_node_t *node = pn_require(c, map, "name");
	const char *name = node ? pn_scalar(c, node, "name") : NULL;

	if (!name || pn_check_name(c, node, name, max, what) || pl_check_unique(c, node, name))
		return NULL;
	return name;
}

static const struct load_type *pl_type(struct pctx *c, const yaml_node_t *map)
{
	const yaml_node_t *node = pn_require(c, map, "type");
	const char *text = node ? pn_scalar(c, node, "type") : NULL;
	const struct load_type *type;

	if (!text)
		return NULL;
	type = load_type_find(text);
	if (type)
		return type;
	pn_unknown_listed(c, node, "load type", text, load_type_suggest(text), "types");
	return NULL;
}

static void pl_check_cpus(struct pctx *c, const yaml_node_t *node, const char *text)
{
	struct cpuspec spec;
	size_t offset = 0;
	char why[256];

	if (cpuspec_parse(text, &spec, &offset, why, sizeof(why)))
		pn_error_in(c, node, offset, "%s", why);
}

/* One option key of a load whose type is known. */
static void pl_option(struct pctx *c, struct load_spec *spec, const char *key,
		      const yaml_node_t *value)
{
	const struct load_type *type = spec->type;
	const struct opt_spec *o = opt_find(load_common_options, COMMON_NR_OPTIONS, key);
	union opt_value v;

	if (o) {
		if (pn_opt(c, value, o, &v))
			return;
		load_spec_set_common(spec, (enum load_common_option)(o - load_common_options), &v);
		if (o - load_common_options == COMMON_CPUS) {
			spec->cpus_pos = pn_pos(c, value);
			pl_check_cpus(c, value, v.s);
		}
		return;
	}
	if (!type)
		return;		/* unknown type: only the common options can be judged */
	o = opt_find(type->options, type->n_options, key);
	if (o && o - type->options < LOAD_MAX_OPTIONS &&
	    !pn_opt(c, value, o, &spec->opts[o - type->options]))
		spec->opt_set[o - type->options] = true;
}

static size_t pl_known_keys(const struct load_type *type, const char **keys)
{
	size_t n = 0;

	keys[n++] = "name";
	keys[n++] = "type";
	for (size_t i = 0; i < COMMON_NR_OPTIONS; i++)
		keys[n++] = load_common_options[i].name;
	for (size_t i = 0; i < type->n_options && i < LOAD_MAX_OPTIONS; i++)
		keys[n++] = type->options[i].name;
	return n;
}

/* Where a cross-option error points: a priority above the guard's bound at
 * it, SCHED_DEADLINE parameters that do not fit together at the first dl_*
 * key (or the policy), others at the entry. */
static const yaml_node_t *pl_finish_node(struct pctx *c, const yaml_node_t *map,
					 const struct load_spec *spec)
{
	static const char *const keys[] = { "dl_runtime", "dl_deadline", "dl_period", "policy" };
	char why[256];
	const yaml_node_t *node;

	if (spec->priority > LOAD_RT_PRIORITY_MAX && (node = pn_get(c, map, "priority")))
		return node;
	if (load_check_deadline(spec, why, sizeof(why)) == 0)
		return map;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if ((node = pn_get(c, map, keys[i])))
			return node;
	return map;
}

/* Cross-option checks, once every key parsed cleanly. */
static void pl_finish(struct pctx *c, const yaml_node_t *map, struct load_spec *spec)
{
	const struct load_type *type = spec->type;
	bool rt, given_policy = pn_get(c, map, "policy"), given_prio = pn_get(c, map, "priority");
	unsigned before = c->n_errors;
	char why[256];

	for (size_t i = 0; i < type->n_options; i++)
		if (!type->options[i].def && !spec->opt_set[i])
			pn_error(c, map, "missing required key '%s' for load type '%s'",
				 type->options[i].name, type->name);
	/* "policy: other" on rt-hog should not inherit the type's priority 50. */
	rt = spec->policy == POLICY_FIFO || spec->policy == POLICY_RR;
	if (given_policy && !given_prio && !rt)
		spec->priority = 0;
	if (c->n_errors == before && load_spec_finish(spec, why, sizeof(why)))
		pn_error(c, pl_finish_node(c, map, spec), "load '%s': %s", spec->name, why);
}

static void pl_entry(struct pctx *c, const yaml_node_t *map, void *slot)
{
	struct load_spec *spec = slot;
	const char *keys[LOAD_KEYS_MAX], *name, *key;
	const struct load_type *type;
	unsigned before = c->n_errors;
	char where[64];

	spec->pos = pn_pos(c, map);
	name = pl_name(c, map, LOAD_NAME_MAX, "load");
	type = pl_type(c, map);
	if (name)
		snprintf(where, sizeof(where), "load '%s'", name);
	else
		snprintf(where, sizeof(where), "a load");
	if (type) {
		load_spec_init(spec, type, name ? name : "");
		spec->pos = pn_pos(c, map);
		pn_check_keys(c, map, keys, pl_known_keys(type, keys), where);
	} else {
		spec->name = name ? strdup(name) : NULL;
		pn_check_keys(c, map, NULL, 0, where);	/* duplicates at least */
	}
	for (yaml_node_pair_t *pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		key = pn_key(c, pair);
		if (key && strcmp(key, "name") && strcmp(key, "type") && pn_is_first(c, map, pair))
			pl_option(c, spec, key, pn_node(c, pair->value));
	}
	if (type && c->n_errors == before)
		pl_finish(c, map, spec);
}

/* The loads' tasks together: one sampler thread reads each at every tick. */
static void pl_check_tasks(struct pctx *c, const yaml_node_t *seq)
{
	const struct profile *p = c->p;
	uint64_t tasks = 0;

	for (size_t i = 0; i < p->n_loads; i++)
		if (p->loads[i].type)
			tasks += load_records_needed(&p->loads[i]);
	if (tasks > PROFILE_MAX_TASKS)
		pn_error(c, seq, "the loads start %" PRIu64 " tasks together; starve watches at most "
			 "%d (lower their 'count')", tasks, PROFILE_MAX_TASKS);
}

void profile_parse_loads(struct pctx *c, const yaml_node_t *seq)
{
	struct profile *p = c->p;

	if (seq->data.sequence.items.top == seq->data.sequence.items.start) {
		pn_error(c, seq, "'loads' is empty; give at least one load (name and type)");
		return;
	}
	if (pn_check_count(c, seq, PROFILE_MAX_LOADS, "loads", "each is started before the "
			   "window and watched by one sampler"))
		return;
	p->loads = pn_alloc_entries(c, seq, sizeof(*p->loads));
	if (p->loads)
		pn_each_entry(c, seq, "loads", "name, type and options",
			      p->loads, &p->n_loads, sizeof(*p->loads), pl_entry);
	pl_check_tasks(c, seq);
}

static void pl_attach_entry(struct pctx *c, const yaml_node_t *map, void *slot)
{
	struct attach_spec *a = slot;
	static const char *const keys[] = { "name", "pid" };
	const char *name = pl_name(c, map, ATTACH_NAME_MAX, "attach");
	const yaml_node_t *pid = pn_require(c, map, "pid");
	union opt_value v;

	a->pos = pn_pos(c, map);
	a->name = name ? strdup(name) : NULL;
	pn_check_keys(c, map, keys, 2, "an attach entry");
	if (pid && !pn_opt(c, pid, &attach_pid_spec, &v))
		a->pid = (pid_t)v.i;
}

void profile_parse_attach(struct pctx *c, const yaml_node_t *seq)
{
	struct profile *p = c->p;

	if (pn_check_count(c, seq, PROFILE_MAX_ATTACH, "attach", "each is watched by one "
			   "sampler"))
		return;
	p->attach = pn_alloc_entries(c, seq, sizeof(*p->attach));
	if (p->attach)
		pn_each_entry(c, seq, "attach", "name and pid",
			      p->attach, &p->n_attach, sizeof(*p->attach), pl_attach_entry);
}
