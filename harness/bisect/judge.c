/* Is a kernel "bad"? Its results against the good kernel's, profile by
 * profile, through starve compare's gate (reports/compare.h): a gated
 * regression or a confirmed verdict flip (--regression), or a significant
 * change of one LOAD.METRIC (--metric), each at the comparison's alpha after
 * Holm. Also the evidence printed at the end: the comparison of the last
 * good and the first bad kernel, and who ran instead where exact mode ran. */
#include "config.h"
#include "harness/bisect/bisect.h"
#include "lib/error.h"
#include "lib/xalloc.h"
#include "reports/compare.h"
#include "reports/result-view.h"
#include "reports/who-ran.h"

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

/* Every result.json in DIR, or one or two levels below it (as starve vm
 * writes them: DIR/<label>/<profile>/result.json). */
static void bisect_collect(const char *dir, struct bisect_results *r)
{
	static const char *const below[] = { "", "/*", "/*/*" };
	char pattern[4096];

	r->n = 0;
	if (strlen(dir) > 5 && !strcmp(dir + strlen(dir) - 5, ".json")) {
		r->v[0] = rv_open(dir, NULL, 0);
		r->n = r->v[0] != NULL;
		return;
	}
	for (size_t p = 0; p < sizeof(below) / sizeof(below[0]); p++) {
		glob_t g;

		snprintf(pattern, sizeof(pattern), "%s%s/result.json", dir, below[p]);
		if (glob(pattern, 0, NULL, &g))
			continue;
		for (size_t i = 0; i < g.gl_pathc && r->n < BISECT_MAX_RESULTS; i++)
			if ((r->v[r->n] = rv_open(g.gl_pathv[i], NULL, 0)))
				r->n++;
		globfree(&g);
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

static struct cmp_options bisect_cmp_options(const struct bisect_rule *rule, const char **load)
{
	struct cmp_options opt = { .alpha = rule->alpha, .threshold = CMP_DEFAULT_THRESHOLD };

	if (rule->load) {	/* --metric: the load's rows are the family */
		*load = rule->load;
		opt.gate = CMP_GATE_LOADS;
		opt.gate_loads = load;
		opt.n_gate_loads = 1;
	}
	return opt;
}

/* "victim cpu_share -38.9% p_holm 0.0003" for ROW's compared cell. */
static void bisect_figure(const struct cmp_row *row, char *buf, size_t len)
{
	const struct cmp_cell *c = &row->cells[1];

	snprintf(buf, len, "%s %s %+.1f%% p_holm %.2g (%s)", row->load, row->metric,
		 c->change_pct, c->p_holm, cmp_verdict_name(c->verdict));
}

/* Is T's compared column bad under RULE? FIGURE: the row that decided it,
 * or the family's smallest p_holm when nothing did. */
static bool bisect_table_bad(const struct cmp_table *t, const struct bisect_rule *rule,
			     char *figure, size_t len)
{
	const struct cmp_row *closest = NULL;

	for (size_t r = 0; r < t->n_rows; r++) {
		const struct cmp_row *row = &t->rows[r];
		enum cmp_verdict v = row->cells[1].verdict;
		bool named = rule->load && !strcmp(row->load, rule->load) &&
			     !strcmp(row->metric, rule->metric);

		if ((rule->load && named && (v == CMP_REGRESSION || v == CMP_IMPROVEMENT)) ||
		    (!rule->load && row->gated && v == CMP_REGRESSION)) {
			bisect_figure(row, figure, len);
			return true;
		}
		if ((rule->load ? named : row->gated) && row->cells[1].tested &&
		    (!closest || row->cells[1].p_holm < closest->cells[1].p_holm))
			closest = row;
	}
	if (!rule->load && t->flip_regressions) {
		snprintf(figure, len, "an expectation flipped to fail (%s %s)",
			 t->flips[0].rule->load, t->flips[0].rule->metric);
		return true;
	}
	if (closest)
		bisect_figure(closest, figure, len);
	else
		snprintf(figure, len, "nothing tested (too few runs a side?)");
	return false;
}

/* 1 bad, 0 good, -1 when DIR lacks a result of a profile BASE has (or
 * compare refused them). */
static int bisect_judge_sets(const struct bisect_results *base, const struct bisect_results *got,
			     const struct bisect_rule *rule, char *figure, size_t len)
{
	const char *load;
	struct cmp_options opt = bisect_cmp_options(rule, &load);
	int verdict = 0;

	snprintf(figure, len, "no result");
	for (size_t i = 0; i < base->n && verdict == 0; i++) {
		const struct result_view *views[2] = { base->v[i],
						       bisect_find(got, base->v[i]->profile.name) };
		struct cmp_table t;

		if (!views[1]) {
			snprintf(figure, len, "no result of %s", base->v[i]->profile.name);
			return -1;
		}
		if (cmp_build_results(&t, views, NULL, 2, &opt) < 0)
			return -1;
		verdict = bisect_table_bad(&t, rule, figure, len);
		cmp_free(&t);
	}
	return base->n ? verdict : -1;
}

int bisect_judge(const char *baseline, const char *dir, const struct bisect_rule *rule,
		 char *figure, size_t len)
{
	struct bisect_results base, got;
	int verdict;

	bisect_collect(baseline, &base);
	bisect_collect(dir, &got);
	verdict = bisect_judge_sets(&base, &got, rule, figure, len);
	bisect_results_free(&base);
	bisect_results_free(&got);
	return verdict;
}

int bisect_git_judge(const char *baseline, const char *dir, const struct bisect_rule *rule)
{
	char figure[512];
	int verdict = bisect_judge(baseline, dir, rule, figure, sizeof(figure));

	printf("%s: %s\n", verdict < 0 ? "untestable" : verdict ? "bad" : "good", figure);
	return verdict < 0 ? BISECT_GIT_SKIP : verdict ? BISECT_FOUND : BISECT_NO_CHANGE;
}

static void bisect_who_line(void *data, const struct rv_run *run, const char *label,
			    const char *line)
{
	(void)run;
	printf("  %s %s: %s\n", (const char *)data, label, line);
}

void bisect_evidence(const char *good, const char *bad, const char *good_label,
		     const char *bad_label, const struct bisect_rule *rule)
{
	struct bisect_results g, b;
	const char *load;
	struct cmp_options opt = bisect_cmp_options(rule, &load);

	bisect_collect(good, &g);
	bisect_collect(bad, &b);
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
