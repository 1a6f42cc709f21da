/* The 'expect' and 'compare' sections of a profile: expectations name a load
 * (or attached process), a metric from lib/metric.c and one threshold in the
 * metric's canonical unit; compare maps metrics to percent thresholds. Runs
 * after loads and settings are parsed, so names can be checked. */
#include "config.h"
#include "harness/profile/profile-node.h"
#include "lib/duration.h"
#include "lib/metric.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A number, optionally followed by '%' when ALLOW_PERCENT (then *PERCENT). */
static int pe_number(const char *text, bool allow_percent, double *out, bool *percent)
{
	char *end;

	errno = 0;
	*out = strtod(text, &end);
	*percent = false;
	if (end == text || errno || !isfinite(*out))
		return -1;
	if (*end == '%' && allow_percent) {
		*percent = true;
		end++;
	}
	return *end ? -1 : 0;
}

/* TEXT as a threshold for metric M; -1 after an error at NODE. */
static int pe_threshold(struct pctx *c, const yaml_node_t *node, const char *key,
			const struct metric_def *m, double *out)
{
	const char *text = pn_scalar(c, node, key);
	char why[192];
	int64_t ns;
	bool percent;

	if (!text)
		return -1;
	switch (m->unit) {
	case METRIC_SECONDS:
		if (duration_parse(text, &ns, why, sizeof(why)))
			return pn_error(c, node, "'%s': %s", key, why);
		*out = (double)ns / 1e9;
		return 0;
	case METRIC_RATIO:
		if (pe_number(text, true, out, &percent))
			return pn_error(c, node, "'%s' for '%s' must be a ratio (0.05) or a "
					"percentage (5%%), not '%s'", key, m->name, text);
		if (percent)
			*out /= 100;
		if (*out < 0 || *out > 1)
			return pn_error(c, node, "'%s' for '%s' must be within 0..1 (0%%..100%%), "
					"not '%s'", key, m->name, text);
		return 0;
	default:
		if (pe_number(text, false, out, &percent) || *out < 0)
			return pn_error(c, node, "'%s' for '%s' must be a number of at least 0 (%s), "
					"not '%s'", key, m->name, metric_unit_name(m->unit), text);
		return 0;
	}
}

static bool pe_load_exists(const struct profile *p, const char *name, const char **names,
			   size_t *n)
{
	*n = 0;
	for (size_t i = 0; i < p->n_loads; i++)
		if (p->loads[i].name)
			names[(*n)++] = p->loads[i].name;
	for (size_t i = 0; i < p->n_attach; i++)
		if (p->attach[i].name)
			names[(*n)++] = p->attach[i].name;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/* A reference to a load or setting; NAMES are the candidates for a hint. */
static void pe_unknown(struct pctx *c, const yaml_node_t *node, const char *what,
		       const char *name, const char **names, size_t n)
{
	const char *hint = opt_suggest(name, names, n);

	if (hint)
		pn_error(c, node, "unknown %s '%s' (did you mean '%s'?)", what, name, hint);
	else
		pn_error(c, node, "unknown %s '%s' (this profile defines no such %s)", what,
			 name, what);
}

/* False when the load exists but can never give the metric, so the
 * expectation could never be judged. */
static bool pe_check_load(struct pctx *c, const yaml_node_t *node, const char *name)
{
	const struct profile *p = c->p;
	const char **names = calloc(p->n_loads + p->n_attach + 1, sizeof(*names));
	size_t n;
	bool found = !names || pe_load_exists(p, name, names, &n);

	if (!found)
		pe_unknown(c, node, "load", name, names, n);
	free(names);
	return found;
}

/* Metrics only a load's own worker records give (loads/inband.c), with the
 * part of a type that decides whether it records them. */
static bool pe_inband_only(const char *metric)
{
	return !strncmp(metric, "wakeup_", 7) ||
	       !strcmp(metric, metric_name(MET_STARVATION_MAX_INBAND)) ||
	       !strcmp(metric, metric_name(MET_THROUGHPUT)) ||
	       !strcmp(metric, metric_name(MET_DEADLINE_MISS_RATIO));
}

static bool pe_type_measures(const struct load_type *type, const char *metric)
{
	if (!strncmp(metric, "wakeup_", 7))
		return type->hist == HIST_WAKEUP_LATENCY;
	if (!strcmp(metric, metric_name(MET_STARVATION_MAX_INBAND)))
		return type->flags & LOAD_INBAND_GAPS;
	return true;
}

/* The metric METRIC must be one the load (or attached process) NAME gives. */
static void pe_check_applies(struct pctx *c, const yaml_node_t *node, const char *name,
			     const char *metric)
{
	const struct load_spec *spec = profile_find_load(c->p, name);
	char types[256];
	size_t used = 0;

	if (!spec) {
		if (pe_inband_only(metric))
			pn_error(c, node, "attached process '%s' cannot give '%s', which only "
				 "starve's own loads measure; use starvation_max, wait_ratio, "
				 "cpu_share or fairness", name, metric);
		return;
	}
	if (!spec->type || pe_type_measures(spec->type, metric))
		return;
	types[0] = '\0';
	for (size_t i = 0; i < load_type_count && used + 1 < sizeof(types); i++)
		if (pe_type_measures(load_types[i], metric))
			used += (size_t)snprintf(types + used, sizeof(types) - used, "%s%s",
						 used ? " or " : "", load_types[i]->name);
	pn_error(c, node, "load '%s' (%s) does not measure '%s'; a %s load does", name,
		 spec->type->name, metric, types);
}

static void pe_check_setting(struct pctx *c, const yaml_node_t *node, const char *name)
{
	const struct profile *p = c->p;
	const char **names = calloc(p->n_settings + 1, sizeof(*names));
	size_t n = 0;

	if (!names)
		return;
	for (size_t i = 0; i < p->n_settings; i++) {
		if (p->settings[i].name && !strcmp(p->settings[i].name, name))
			goto out;
		if (p->settings[i].name)
			names[n++] = p->settings[i].name;
	}
	pe_unknown(c, node, "setting", name, names, n);
out:
	free(names);
}

/* The metric NAME (written at NODE), or NULL after an error with a hint. */
static const struct metric_def *pe_metric(struct pctx *c, const yaml_node_t *node,
					  const char *name)
{
	const struct metric_def *m = metric_find(name);

	if (m)
		return m;
	pn_unknown_listed(c, node, "metric", name, metric_suggest(name), "metrics");
	return NULL;
}

/* Exactly one of below and above. */
static const yaml_node_t *pe_op(struct pctx *c, const yaml_node_t *map, struct expectation *e)
{
	const yaml_node_t *below = pn_get(c, map, "below"), *above = pn_get(c, map, "above");

	if (below && above) {
		pn_error(c, above, "an expectation takes one of 'below' and 'above', not both; "
			 "write two expectations");
		return NULL;
	}
	if (!below && !above) {
		pn_error(c, map, "an expectation needs a threshold: add 'below' or 'above'");
		return NULL;
	}
	e->op = below ? EXPECT_BELOW : EXPECT_ABOVE;
	return below ? below : above;
}

static void pe_entry(struct pctx *c, const yaml_node_t *map, void *slot)
{
	struct expectation *e = slot;
	static const char *const keys[] = { "load", "metric", "below", "above", "setting" };
	const yaml_node_t *load = pn_require(c, map, "load");
	const yaml_node_t *metric = pn_require(c, map, "metric");
	const yaml_node_t *setting = pn_get(c, map, "setting");
	const yaml_node_t *thr = pe_op(c, map, e);
	const char *metric_name = metric ? pn_scalar(c, metric, "metric") : NULL;
	const struct metric_def *m = metric_name ? pe_metric(c, metric, metric_name) : NULL;

	e->pos = pn_pos(c, map);
	pn_check_keys(c, map, keys, sizeof(keys) / sizeof(keys[0]), "an expectation");
	if (load && (e->load = pn_strdup(c, load, "load")) && pe_check_load(c, load, e->load) &&
	    m)
		pe_check_applies(c, metric, e->load, m->name);
	if (m)
		e->metric = strdup(m->name);
	if (setting && (e->setting = pn_strdup(c, setting, "setting")))
		pe_check_setting(c, setting, e->setting);
	if (m && thr && !pe_threshold(c, thr, e->op == EXPECT_BELOW ? "below" : "above", m,
				      &e->threshold))
		e->threshold_text = strdup((const char *)thr->data.scalar.value);
}

void profile_parse_expect(struct pctx *c, const yaml_node_t *seq)
{
	struct profile *p = c->p;

	p->expect = pn_alloc_entries(c, seq, sizeof(*p->expect));
	if (p->expect)
		pn_each_entry(c, seq, "expect", "load, metric, below or above",
			      p->expect, &p->n_expect, sizeof(*p->expect), pe_entry);
}

static void pe_compare_pair(struct pctx *c, const yaml_node_pair_t *pair,
			    struct compare_threshold *t)
{
	const yaml_node_t *kn = pn_node(c, pair->key), *vn = pn_node(c, pair->value);
	const char *metric = pn_key(c, pair), *text;
	bool percent;

	t->pos = pn_pos(c, kn);
	pe_metric(c, kn, metric);
	t->metric = strdup(metric);
	text = pn_scalar(c, vn, metric);
	if (text && (pe_number(text, true, &t->percent, &percent) || t->percent < 0 ||
		     t->percent > 1000))
		pn_error(c, vn, "'%s' must be a percentage of 0..1000 (e.g. 10%%), not '%s'",
			 metric, text);
}

/* "gate: all", "gate: expect" (the default), or "gate: [LOAD, ...]". */
static void pe_compare_gate(struct pctx *c, const yaml_node_t *node)
{
	struct profile *p = c->p;
	const char *word;

	if (node->type == YAML_SCALAR_NODE) {
		if (!(word = pn_scalar(c, node, "gate")))
			return;
		if (!strcmp(word, "all"))
			p->compare_gate_all = true;
		else if (strcmp(word, "expect"))
			pn_error(c, node, "'gate' is all, expect, or a list of loads, not '%s'", word);
		return;
	}
	if (pn_want(c, node, YAML_SEQUENCE_NODE, "gate") < 0)
		return;
	p->compare_gate = calloc((size_t)(node->data.sequence.items.top -
					  node->data.sequence.items.start) + 1,
				 sizeof(*p->compare_gate));
	if (!p->compare_gate) {
		pn_error(c, node, "out of memory");
		return;
	}
	for (yaml_node_item_t *it = node->data.sequence.items.start;
	     it < node->data.sequence.items.top; it++) {
		const yaml_node_t *item = pn_node(c, *it);
		char *name = pn_strdup(c, item, "gate");

		if (name && pe_check_load(c, item, name))
			p->compare_gate[p->n_compare_gate++] = name;
		else
			free(name);
	}
}

void profile_parse_compare(struct pctx *c, const yaml_node_t *map)
{
	struct profile *p = c->p;
	size_t n = (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);

	pn_check_keys(c, map, NULL, 0, "'compare'");
	p->compare = calloc(n ? n : 1, sizeof(*p->compare));
	if (!p->compare) {
		pn_error(c, map, "out of memory");
		return;
	}
	for (yaml_node_pair_t *pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++)
		if (!pn_is_first(c, map, pair))
			continue;
		else if (pn_key(c, pair) && !strcmp(pn_key(c, pair), "gate"))
			pe_compare_gate(c, pn_node(c, pair->value));
		else
			pe_compare_pair(c, pair, &p->compare[p->n_compare++]);
}
