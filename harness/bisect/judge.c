/* Is a kernel "bad"? Its results against the good kernel's, profile by
 * profile, through starve compare's gate (reports/compare/compare.h): a gated
 * regression or a confirmed verdict flip (--regression), or a significant
 * change of one LOAD.METRIC (--metric), each at the comparison's alpha after
 * Holm. Also the evidence printed at the end: the comparison of the last
 * good and the first bad kernel, and who ran instead where exact mode ran. */
#include "config.h"
#include "harness/bisect/bisect.h"
#include "lib/error.h"
#include "lib/xalloc.h"
#include "reports/compare/compare.h"
#include "reports/result/result-view.h"
#include "reports/result/result.h"
#include "reports/format/who-ran.h"

#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BISECT_MAX_RESULTS 32

struct bisect_results {
	struct result_view *v[BISECT_MAX_RESULTS];
	size_t n;
};

/* The result trees of one side, one per profile: the runs of the same
 * profile in several directories (the looks of --until-decided) are one
 * result, the later ones' runs appended and renumbered. */
struct bisect_trees {
	json_t *tree[BISECT_MAX_RESULTS];
	size_t n;
};

static const char *bisect_tree_profile(json_t *tree)
{
	const char *name = json_string_value(json_object_get(json_object_get(tree, "profile"), "name"));

	return name ? name : "";
}

static void bisect_tree_add(struct bisect_trees *t, json_t *tree)
{
	for (size_t i = 0; i < t->n; i++) {
		json_t *runs, *run;
		size_t k;

		if (strcmp(bisect_tree_profile(t->tree[i]), bisect_tree_profile(tree)))
			continue;
		runs = json_object_get(t->tree[i], "runs");
		json_array_foreach(json_object_get(tree, "runs"), k, run) {
			json_object_set_new(run, "repetition", json_integer((json_int_t)json_array_size(runs)));
			json_array_append(runs, run);
		}
		json_decref(tree);
		return;
	}
	if (t->n < BISECT_MAX_RESULTS)
		t->tree[t->n++] = tree;
	else
		json_decref(tree);
}

/* Every result.json in DIR, or one or two levels below it (as starve vm
 * writes them: DIR/<label>/<profile>/result.json), or DIR itself when it is
 * a .json file. */
static void bisect_trees_read(const char *dir, struct bisect_trees *t)
{
	static const char *const below[] = { "", "/*", "/*/*" };
	char pattern[4096];

	if (strlen(dir) > 5 && !strcmp(dir + strlen(dir) - 5, ".json")) {
		json_t *tree = result_read(dir, NULL, 0);

		if (tree)
			bisect_tree_add(t, tree);
		return;
	}
	for (size_t p = 0; p < sizeof(below) / sizeof(below[0]); p++) {
		glob_t g;

		snprintf(pattern, sizeof(pattern), "%s%s/result.json", dir, below[p]);
		if (glob(pattern, 0, NULL, &g))
			continue;
		for (size_t i = 0; i < g.gl_pathc; i++) {
			json_t *tree = result_read(g.gl_pathv[i], NULL, 0);

			if (tree)
				bisect_tree_add(t, tree);
		}
		globfree(&g);
	}
}

/* The views of the results in the N directories DIRS, merged by profile. */
static void bisect_collect(const char *const *dirs, size_t n, struct bisect_results *r)
{
	struct bisect_trees t = { .n = 0 };

	for (size_t i = 0; i < n; i++)
		bisect_trees_read(dirs[i], &t);
	r->n = 0;
	for (size_t i = 0; i < t.n; i++) {
		if ((r->v[r->n] = rv_build(t.tree[i], dirs[0], NULL, 0)))
			r->n++;
		json_decref(t.tree[i]);
	}
}

static void bisect_results_free(struct bisect_results *r)
{
	for (size_t i = 0; i < r->n; i++)
		rv_free(r->v[i]);
	r->n = 0;
}

static const struct result_view *bisect_find(const struct bisect_results *r, const char *profile)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i]->profile.name, profile))
			return r->v[i];
	return NULL;
}

/* The alpha of one look: --until-decided spends alpha over its planned
 * looks (Bonferroni), so stopping on the data keeps the error at alpha. */
static struct cmp_options bisect_cmp_options(const struct bisect_rule *rule, const char **load)
{
	struct cmp_options opt = { .alpha = rule->alpha / (double)(rule->looks ? rule->looks : 1),
				   .threshold = CMP_DEFAULT_THRESHOLD };

	if (rule->load) {	/* --metric: the load's rows are the family */
		*load = rule->load;
		opt.gate = CMP_GATE_LOADS;
		opt.gate_loads = load;
		opt.n_gate_loads = 1;
	}
	return opt;
}

/* "victim cpu_share -38.9% p_holm 0.0003 (regression), 6 runs against 6". */
static void bisect_figure(const struct cmp_table *t, const struct cmp_row *row, const char *why,
			  char *buf, size_t len)
{
	const struct cmp_cell *c = &row->cells[1];

	snprintf(buf, len, "%s %s %+.1f%% p_holm %.2g (%s), %zu runs against %zu", row->load,
		 row->metric, c->change_pct, c->p_holm, why ? why : cmp_verdict_name(c->verdict),
		 t->columns[0].runs_ok, t->columns[1].runs_ok);
}

/* A row of the family RULE judges by: the named metric, or a gated row. */
static bool bisect_in_rule(const struct cmp_row *row, const struct bisect_rule *rule)
{
	return rule->load ? !strcmp(row->load, rule->load) && !strcmp(row->metric, rule->metric) :
	       row->gated;
}

/* Decided "the same": its interval lies within its threshold either way. */
static bool bisect_row_same(const struct cmp_row *row)
{
	const struct cmp_cell *c = &row->cells[1];

	return c->tested && !c->within_runs && c->lo_pct >= -row->threshold &&
	       c->hi_pct <= row->threshold;
}

/* T's compared column under RULE: BISECT_BAD (FIGURE: the row that decided
 * it), BISECT_GOOD, or with --until-decided BISECT_UNSURE while a row of the
 * family is neither changed nor within its threshold. FIGURE otherwise
 * names the family's smallest p_holm. */
static int bisect_table_state(const struct cmp_table *t, const struct bisect_rule *rule,
			      char *figure, size_t len)
{
	const struct cmp_row *closest = NULL, *open = NULL;

	for (size_t r = 0; r < t->n_rows; r++) {
		const struct cmp_row *row = &t->rows[r];
		enum cmp_verdict v = row->cells[1].verdict;

		if (!bisect_in_rule(row, rule))
			continue;
		if (v == CMP_REGRESSION || (rule->load && v == CMP_IMPROVEMENT)) {
			bisect_figure(t, row, NULL, figure, len);
			return BISECT_BAD;
		}
		if (row->cells[1].tested && !row->cells[1].within_runs &&
		    (!closest || row->cells[1].p_holm < closest->cells[1].p_holm))
			closest = row;
		if (!open && !bisect_row_same(row))
			open = row;
	}
	if (!rule->load && t->flip_regressions) {
		snprintf(figure, len, "an expectation flipped to fail (%s %s), %zu runs against %zu",
			 t->flips[0].rule->load, t->flips[0].rule->metric, t->columns[0].runs_ok,
			 t->columns[1].runs_ok);
		return BISECT_BAD;
	}
	if (rule->until_decided && open) {
		bisect_figure(t, open, "undecided", figure, len);
		return BISECT_UNSURE;
	}
	if (!closest) {	/* no row of the family tested across runs: nothing says "same" */
		snprintf(figure, len, "nothing tested across runs (one run a side, or the metric "
			 "missing), %zu runs against %zu", t->columns[0].runs_ok, t->columns[1].runs_ok);
		return BISECT_UNSURE;
	}
	bisect_figure(t, closest, NULL, figure, len);
	return BISECT_GOOD;
}

/* The state of GOT against BASE over every profile of BASE: bad when one is,
 * unsure when one is, else good; BISECT_SKIP when GOT lacks a profile's
 * result (or compare refused them). */
static int bisect_judge_sets(const struct bisect_results *base, const struct bisect_results *got,
			     const struct bisect_rule *rule, char *figure, size_t len)
{
	const char *load;
	struct cmp_options opt = bisect_cmp_options(rule, &load);
	int state = BISECT_GOOD;
	char one[400];

	snprintf(figure, len, "no result");
	for (size_t i = 0; i < base->n && state != BISECT_BAD; i++) {
		const struct result_view *views[2] = { base->v[i],
						       bisect_find(got, base->v[i]->profile.name) };
		struct cmp_table t;
		int s;

		if (!views[1]) {
			snprintf(figure, len, "no result of %s", base->v[i]->profile.name);
			return BISECT_SKIP;
		}
		if (cmp_build_results(&t, views, NULL, 2, &opt) < 0)
			return BISECT_SKIP;
		s = bisect_table_state(&t, rule, one, sizeof(one));
		cmp_free(&t);
		if (i == 0 || s == BISECT_BAD || (s == BISECT_UNSURE && state == BISECT_GOOD))
			snprintf(figure, len, "%s", one);
		if (s == BISECT_BAD || (s == BISECT_UNSURE && state == BISECT_GOOD))
			state = s;
	}
	return base->n ? state : BISECT_SKIP;
}

int bisect_judge(const struct bisect_sides *s, const struct bisect_rule *rule, char *figure,
		 size_t len)
{
	struct bisect_results base, got;
	int state;

	bisect_collect(s->base, s->n_base, &base);
	bisect_collect(s->dirs, s->n, &got);
	state = bisect_judge_sets(&base, &got, rule, figure, len);
	bisect_results_free(&base);
	bisect_results_free(&got);
	return state;
}

size_t bisect_runs(const char *dir)
{
	struct bisect_results r;
	size_t runs;

	bisect_collect(&dir, 1, &r);
	runs = 0;
	for (size_t i = 0; r.n && i < r.v[0]->n_runs; i++)
		runs += r.v[0]->runs[i].status == RESULT_OK;
	bisect_results_free(&r);
	return runs;
}

int bisect_git_judge(const char *baseline, const char *dir, const struct bisect_rule *rule)
{
	static const char *const word[] = { [BISECT_GOOD] = "good", [BISECT_BAD] = "bad",
					    [BISECT_SKIP] = "untestable", [BISECT_UNSURE] = "undecided" };
	struct bisect_sides s = { .base = &baseline, .n_base = 1, .dirs = &dir, .n = 1 };
	char figure[512];
	int state = bisect_judge(&s, rule, figure, sizeof(figure));

	printf("%s: %s\n", word[state], figure);
	return state == BISECT_BAD ? BISECT_FOUND : state == BISECT_GOOD ? BISECT_NO_CHANGE :
	       BISECT_GIT_SKIP;
}

static void bisect_who_line(void *data, const struct rv_run *run, const char *label,
			    const char *line)
{
	(void)run;
	printf("  %s %s: %s\n", (const char *)data, label, line);
}

void bisect_evidence(const struct bisect_sides *good, const struct bisect_sides *bad,
		     const char *good_label, const char *bad_label, const struct bisect_rule *rule)
{
	struct bisect_results g, b;
	const char *load;
	struct cmp_options opt = bisect_cmp_options(rule, &load);

	bisect_collect(good->dirs, good->n, &g);
	bisect_collect(bad->dirs, bad->n, &b);
	for (size_t i = 0; i < g.n; i++) {
		const struct result_view *views[2] = { g.v[i], bisect_find(&b, g.v[i]->profile.name) };
		const char *labels[2] = { good_label, bad_label };
		struct cmp_table t;

		if (!views[1] || cmp_build_results(&t, views, labels, 2, &opt) < 0)
			continue;
		printf("\n== %s: last good %s against first bad %s\n", g.v[i]->profile.name,
		       good_label, bad_label);
		cmp_print_text(&t, stdout);
		cmp_free(&t);
		if (who_ran_any(views[0]) || who_ran_any(views[1])) {
			printf("who ran instead (exact mode):\n");
			who_ran_each(views[0], bisect_who_line, (void *)good_label);
			who_ran_each(views[1], bisect_who_line, (void *)bad_label);
		}
	}
	bisect_results_free(&g);
	bisect_results_free(&b);
}
