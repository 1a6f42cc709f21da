/* What decides a comparison's exit status (reports/compare/compare.h): which rows
 * gate, and the verdict flips. A profile's expectations name what it is
 * about (the victim, the probe); the loads that make the trouble (the RT
 * hog) change too, often because the victim got what they lost, so their
 * rows are shown but do not gate unless asked. */
#include "config.h"
#include "reports/compare/compare.h"
#include "lib/error.h"
#include "lib/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool cmp_named(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

static bool cmp_expect_names(const struct rv_profile *p, const char *load)
{
	for (size_t i = 0; i < p->n_expect; i++)
		if (!strcmp(p->expect[i].rule.load, load))
			return true;
	return false;
}

void cmp_gate_rows(struct cmp_table *t, const struct cmp_options *opt)
{
	const struct rv_profile *p = &t->columns[0].view->profile;
	enum cmp_gate gate = opt->gate;
	const char *const *loads = opt->gate_loads;
	size_t n_loads = opt->n_gate_loads;

	if (gate == CMP_GATE_DEFAULT && (p->compare_gate_all || p->n_compare_gate)) {
		gate = p->compare_gate_all ? CMP_GATE_ALL : CMP_GATE_LOADS;
		loads = p->compare_gate;
		n_loads = p->n_compare_gate;
		t->gate_rule = "the profile's compare: gate:";
	} else if (gate == CMP_GATE_DEFAULT || gate == CMP_GATE_EXPECT) {
		gate = p->n_expect ? CMP_GATE_EXPECT : CMP_GATE_ALL;
		t->gate_rule = p->n_expect ? "loads named by the profile's expectations" :
			       "every load (the profile has no expectations)";
	} else {
		t->gate_rule = gate == CMP_GATE_ALL ? "every load (--gate all)" : "--gate";
	}
	for (size_t r = 0; r < t->n_rows; r++) {
		const char *load = t->rows[r].load;

		t->rows[r].gated = gate == CMP_GATE_ALL ||
				   (gate == CMP_GATE_EXPECT && cmp_expect_names(p, load)) ||
				   (gate == CMP_GATE_LOADS && cmp_named(loads, n_loads, load));
	}
}

/* The verdict of RULE over COL's runs of SETTING (NULL: any), or -1
 * when no run judged it. */
static int cmp_rule_verdict(const struct cmp_column *col, const char *setting,
			    const struct rv_rule *rule)
{
	int worst = -1;
	bool passed = false;

	for (size_t i = 0; i < col->view->n_runs; i++) {
		const struct rv_run *run = &col->view->runs[i];

		if ((setting && strcmp(run->setting, setting)) ||
		    (col->setting && strcmp(run->setting, col->setting)))
			continue;
		for (size_t v = 0; v < run->n_verdicts; v++) {
			if (!rv_rule_same(&run->verdicts[v].rule, rule))
				continue;
			passed |= run->verdicts[v].kind == VERDICT_PASS;
			if ((int)run->verdicts[v].kind > worst)
				worst = (int)run->verdicts[v].kind;
		}
	}
	/* As the exit status reads a result: an undecided run beside passing
	 * ones does not undo the pass (it is a warning, not a verdict). */
	return worst == VERDICT_UNDECIDED && passed ? VERDICT_PASS : worst;
}

/* Does the row of RULE's metric (of SETTING) in COLUMN confirm a flip to TO:
 * its change is significant after Holm, in the flip's direction? A flip
 * alone is one run's verdict against the others': a noisy run fails an
 * expectation as easily as it moves a metric, so it is held to the same
 * error budget as the rows. */
static bool cmp_flip_confirmed(const struct cmp_table *t, const char *setting,
			       const struct rv_rule *rule, size_t column, int to)
{
	for (size_t r = 0; r < t->n_rows; r++) {
		const struct cmp_row *row = &t->rows[r];
		const struct cmp_cell *cell = &row->cells[column];
		bool worse;

		if (strcmp(row->load, rule->load) || strcmp(row->metric, rule->metric) ||
		    (setting && row->setting && strcmp(row->setting, setting)))
			continue;
		if (!cell->tested || cell->within_runs || !(cell->p_holm < t->alpha))
			continue;
		worse = (row->def->better == LOWER_IS_BETTER) == (cell->change_pct > 0);
		if (worse == (to == VERDICT_FAIL))
			return true;
	}
	return false;
}

static void cmp_flip_add(struct cmp_table *t, const char *setting, const struct rv_rule *rule,
			 size_t column, int from, int to)
{
	struct cmp_flip *f;
	bool confirmed = cmp_flip_confirmed(t, setting, rule, column, to);

	t->flips = xreallocarray(t->flips, t->n_flips + 1, sizeof(*t->flips));
	f = &t->flips[t->n_flips++];
	*f = (struct cmp_flip){ .setting = setting, .rule = rule, .column = column,
				.from = (enum verdict_kind)from, .to = (enum verdict_kind)to,
				.verdict = !confirmed ? CMP_INSUFFICIENT :
					   to == VERDICT_FAIL ? CMP_REGRESSION : CMP_IMPROVEMENT };
	t->flip_regressions += f->verdict == CMP_REGRESSION;
}

/* Mark the rows of the flipped expectation's load and metric. */
static void cmp_flip_mark(struct cmp_table *t, size_t flip)
{
	const struct cmp_flip *f = &t->flips[flip];

	for (size_t r = 0; r < t->n_rows; r++) {
		struct cmp_row *row = &t->rows[r];

		if (strcmp(row->load, f->rule->load) || strcmp(row->metric, f->rule->metric) ||
		    (f->setting && row->setting && strcmp(row->setting, f->setting)))
			continue;
		row->cells[f->column].flip = (long)flip;
		row->cells[f->column].verdict = f->verdict;
	}
}

/* The settings to look at: each run's in results mode, none in settings
 * mode (there each column is a setting). */
void cmp_find_flips(struct cmp_table *t)
{
	const struct result_view *v = t->columns[0].view;
	size_t n_settings = t->mode == CMP_RESULTS ? v->n_setting_names : 1;

	for (size_t s = 0; s < n_settings; s++) {
		/* one setting: every run is of it, and naming it says nothing */
		const char *setting = t->mode == CMP_RESULTS && n_settings > 1 ?
				      v->setting_names[s] : NULL;

		for (size_t e = 0; e < v->profile.n_expect; e++) {
			const struct rv_rule *rule = &v->profile.expect[e].rule;
			int from;

			if (setting && !rv_expect_applies(&v->profile.expect[e], setting))
				continue;
			from = cmp_rule_verdict(&t->columns[0], setting, rule);
			if (from != VERDICT_PASS && from != VERDICT_FAIL)
				continue;
			for (size_t c = 1; c < t->n_columns; c++) {
				int to = cmp_rule_verdict(&t->columns[c], setting, rule);

				if ((to == VERDICT_PASS || to == VERDICT_FAIL) && to != from) {
					cmp_flip_add(t, setting, rule, c, from, to);
					if (t->flips[t->n_flips - 1].verdict != CMP_INSUFFICIENT)
						cmp_flip_mark(t, t->n_flips - 1);
				}
			}
		}
	}
}

/* The family whose error rate the gate controls, per compared column: the
 * gated rows, and the rows an expectation names (a flip is confirmed by its
 * row, so that row must be in the family too). Fixed by the profile and the
 * options, never by the data. */
static bool cmp_in_family(const struct cmp_table *t, const struct cmp_row *row)
{
	const struct rv_profile *p = &t->columns[0].view->profile;

	if (row->gated)
		return true;
	for (size_t i = 0; i < p->n_expect; i++)
		if (!strcmp(p->expect[i].rule.load, row->load) &&
		    !strcmp(p->expect[i].rule.metric, row->metric))
			return true;
	return false;
}

/* A cell whose p takes part in Holm's procedure: a test of run values. */
static bool cmp_holm_member(const struct cmp_table *t, const struct cmp_row *row, size_t c)
{
	const struct cmp_cell *cell = &row->cells[c];

	return cmp_in_family(t, row) && cell->tested && !cell->within_runs && isfinite(cell->p);
}

/* Holm's step-down procedure over the family of column C: with the m
 * p-values sorted, p_holm(k) = max over j <= k of min(1, (m - j + 1) p(j)).
 * A row rejected at p_holm < alpha keeps the chance that any row of the
 * comparison is flagged by chance at most alpha, whatever the rows'
 * dependence (they are metrics of the same runs, so strongly dependent),
 * and it is never less powerful than Bonferroni. Rows outside the family
 * keep their own p (information only). */
static void cmp_holm_column(struct cmp_table *t, size_t c, size_t *order)
{
	size_t m = 0;
	double running = 0;

	for (size_t r = 0; r < t->n_rows; r++) {
		t->rows[r].cells[c].p_holm = t->rows[r].cells[c].p;
		if (!cmp_holm_member(t, &t->rows[r], c))
			continue;
		/* insertion by p: a family is a handful of rows */
		size_t k = m++;

		while (k && t->rows[order[k - 1]].cells[c].p > t->rows[r].cells[c].p) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = r;
	}
	for (size_t k = 0; k < m; k++) {
		struct cmp_cell *cell = &t->rows[order[k]].cells[c];

		running = fmax(running, fmin(1, (double)(m - k) * cell->p));
		cell->p_holm = running;
	}
	if (m > t->family)
		t->family = m;
}

void cmp_holm(struct cmp_table *t)
{
	size_t *order = xcalloc(t->n_rows ? t->n_rows : 1, sizeof(*order));

	for (size_t c = 1; c < t->n_columns; c++)
		cmp_holm_column(t, c, order);
	free(order);
}
