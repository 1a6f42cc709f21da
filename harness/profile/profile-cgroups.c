/* The 'cgroups' list of a setting: each entry names a cgroup, the loads it
 * holds and its cpu controller knobs, named as in cgroup v2. The knobs are
 * rows of the same kind as a load's options (range, help), so a weight of
 * 0 or a clamp of 120% is refused with its position before anything runs. */
#include "config.h"
#include "harness/profile/profile-node.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CGROUP_NAME_MAX 32

enum { CG_MAX, CG_WEIGHT, CG_UCLAMP_MIN, CG_UCLAMP_MAX, CG_NR_KNOBS };

static const struct opt_spec cg_knobs[CG_NR_KNOBS] = {
	[CG_MAX] = { "cpu.max", OPT_STRING, "us", 0, 0, NULL,
		"bandwidth: 'QUOTA PERIOD' in microseconds, 'max PERIOD' or 'QUOTA' "
		"(v1: cpu.cfs_quota_us, cpu.cfs_period_us)", NULL },
	[CG_WEIGHT] = { "cpu.weight", OPT_INT, NULL, 1, 10000, NULL,
		"weight against sibling groups, 100 by default (v1: cpu.shares, x10.24)", NULL },
	[CG_UCLAMP_MIN] = { "cpu.uclamp.min", OPT_DOUBLE, "%", 0, 100, NULL,
		"utilization clamp floor (CONFIG_UCLAMP_TASK_GROUP)", NULL },
	[CG_UCLAMP_MAX] = { "cpu.uclamp.max", OPT_DOUBLE, "%", 0, 100, NULL,
		"utilization clamp ceiling", NULL },
};

static void pc_max(struct pctx *c, const yaml_node_t *node, struct cgroup_setting *g)
{
	const char *text = pn_scalar(c, node, "cpu.max");
	char why[256];
	size_t at;

	if (text && cgcpu_parse_max(text, &g->knobs, &at, why, sizeof(why)))
		pn_error_in(c, node, at, "%s", why);
}

/* A load of the profile, in no other cgroup of this setting. */
static void pc_load(struct pctx *c, const yaml_node_t *node, const struct setting *s,
		    struct cgroup_setting *g)
{
	const char *name = pn_scalar(c, node, "loads");

	if (!name)
		return;
	if (!profile_find_load(c->p, name)) {
		pn_error(c, node, "cgroup '%s': no load named '%s' in this profile", g->name, name);
		return;
	}
	if (profile_load_cgroup(s, name)) {
		pn_error(c, node, "load '%s' is in two cgroups of setting '%s'", name, s->name);
		return;
	}
	g->loads[g->n_loads++] = strdup(name);
}

static void pc_loads(struct pctx *c, const yaml_node_t *seq, const struct setting *s,
		     struct cgroup_setting *g)
{
	size_t n = (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);

	if (!n) {
		pn_error(c, seq, "cgroup '%s': 'loads' is empty; name the loads it holds", g->name);
		return;
	}
	g->loads = calloc(n, sizeof(*g->loads));
	if (!g->loads) {
		pn_error(c, seq, "out of memory");
		return;
	}
	for (yaml_node_item_t *it = seq->data.sequence.items.start;
	     it < seq->data.sequence.items.top; it++)
		pc_load(c, pn_node(c, *it), s, g);
}

static void pc_knob(struct pctx *c, const yaml_node_t *node, int i, struct cgroup_setting *g)
{
	union opt_value v;

	if (i == CG_MAX) {
		pc_max(c, node, g);
		return;
	}
	if (pn_opt(c, node, &cg_knobs[i], &v))
		return;
	if (i == CG_WEIGHT)
		g->knobs.weight = (int)v.i;
	else if (i == CG_UCLAMP_MIN)
		g->knobs.uclamp_min = v.d;
	else
		g->knobs.uclamp_max = v.d;
}

/* A setting's cgroups are directories beside the cgroup's own files: a
 * name without a dot can still be one of cgroup v1's ("tasks" was refused
 * by mkdir after the knobs were written, as "already exists"). */
static void pc_check_reserved(struct pctx *c, const yaml_node_t *node, const char *name)
{
	static const char *const reserved[] = { "tasks", "notify_on_release", "release_agent" };

	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		if (!strcmp(name, reserved[i]))
			pn_error(c, node, "cgroup name '%s' is a control file of every cgroup; "
				 "choose another", name);
}

static void pc_entry(struct pctx *c, const yaml_node_t *map, struct setting *s,
		     struct cgroup_setting *g)
{
	const char *keys[2 + CG_NR_KNOBS] = { "name", "loads" };
	const yaml_node_t *name = pn_require(c, map, "name"), *loads = pn_require(c, map, "loads");
	bool any = false;

	g->pos = pn_pos(c, map);
	g->knobs.uclamp_min = g->knobs.uclamp_max = -1;
	for (int i = 0; i < CG_NR_KNOBS; i++)
		keys[2 + i] = cg_knobs[i].name;
	pn_check_keys(c, map, keys, 2 + CG_NR_KNOBS, "a cgroup");
	if (name && (g->name = pn_strdup(c, name, "name")) &&
	    !pn_check_name(c, name, g->name, CGROUP_NAME_MAX, "cgroup"))
		pc_check_reserved(c, name, g->name);
	if (!g->name)
		g->name = strdup("?");
	for (int i = 0; i < CG_NR_KNOBS; i++) {
		const yaml_node_t *node = pn_get(c, map, cg_knobs[i].name);

		if (node) {
			pc_knob(c, node, i, g);
			any = true;
		}
	}
	if (!any)
		pn_error(c, map, "cgroup '%s' sets none of cpu.max, cpu.weight, cpu.uclamp.min, "
			 "cpu.uclamp.max", g->name);
	if (g->knobs.uclamp_min >= 0 && g->knobs.uclamp_max >= 0 &&
	    g->knobs.uclamp_min > g->knobs.uclamp_max)
		pn_error(c, pn_get(c, map, "cpu.uclamp.min"), "cpu.uclamp.min %.4g%% is above "
			 "cpu.uclamp.max %.4g%%", g->knobs.uclamp_min, g->knobs.uclamp_max);
	if (loads && !pn_want(c, loads, YAML_SEQUENCE_NODE, "loads"))
		pc_loads(c, loads, s, g);
}

void profile_parse_cgroups(struct pctx *c, const yaml_node_t *seq, struct setting *s)
{
	size_t n = (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);

	if (!n) {
		pn_error(c, seq, "'cgroups' is empty; remove it or add a cgroup");
		return;
	}
	if (pn_check_count(c, seq, PROFILE_MAX_CGROUPS, "cgroups", "the cgroups of one setting"))
		return;
	s->cgroups = calloc(n, sizeof(*s->cgroups));
	if (!s->cgroups) {
		pn_error(c, seq, "out of memory");
		return;
	}
	for (yaml_node_item_t *it = seq->data.sequence.items.start;
	     it < seq->data.sequence.items.top; it++) {
		const yaml_node_t *map = pn_node(c, *it);
		struct cgroup_setting *g = &s->cgroups[s->n_cgroups++];

		if (pn_want(c, map, YAML_MAPPING_NODE, "a cgroup"))
			continue;
		pc_entry(c, map, s, g);
		for (struct cgroup_setting *o = s->cgroups; o < g; o++)
			if (o->name && g->name && !strcmp(o->name, g->name))
				pn_error(c, map, "duplicate cgroup name '%s' in setting '%s'", g->name,
					 s->name ? s->name : "?");
	}
}

void profile_free_cgroups(struct setting *s)
{
	for (size_t i = 0; i < s->n_cgroups; i++) {
		for (size_t k = 0; k < s->cgroups[i].n_loads; k++)
			free(s->cgroups[i].loads[k]);
		free(s->cgroups[i].loads);
		free(s->cgroups[i].name);
	}
	free(s->cgroups);
}
