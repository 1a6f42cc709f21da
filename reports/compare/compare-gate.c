/* What decides a comparison's exit status (reports/compare/compare.h): which rows
 * gate, and the verdict flips. A profile's expectations name what it is
 * about (the victim, the probe); the loads that make the trouble (the RT
 * hog) change too, often because the victim got what they lost, so their
 * rows are shown but do not gate unless asked. */
#include "config.h"
#include "reports/compare/compare.h"
#include "lib/error.h"
#include "lib/keyindex.h"
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

static bool cmp_metric_is_bound(const char *metric)
{
	return !strcmp(metric, metric_name(MET_STARVATION_MAX_UPPER)) ||
	       !strcmp(metric, metric_name(MET_STARVATION_MAX_SAMPLER_UPPER));
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
	t->family_rows = 0;
	for (size_t r = 0; r < t->n_rows; r++) {
		const char *load = t->rows[r].load;

		/* a bound (starvation_max_upper) says what a slow sampler could
		 * hide, and exists only when it was slow: not a measurement */
		t->rows[r].gated = !cmp_metric_is_bound(t->rows[r].metric) &&
				   (gate == CMP_GATE_ALL ||
				    (gate == CMP_GATE_EXPECT && cmp_expect_names(p, load)) ||
				    (gate == CMP_GATE_LOADS && cmp_named(loads, n_loads, load)));
		t->family_rows += cmp_in_family(t, &t->rows[r]);
	}
}

/* The verdicts of every expectation, per column and setting, tallied in one
 * pass over the runs, and the rows of each (load, metric): looking a flip's
 * verdicts and rows up in these is linear in runs and rows, where a scan of
 * every run's verdicts per expectation and of every row per flip was
 * quadratic (thousands of loads and expectations a side). */
struct cmp_tally {
	int worst;		/* enum verdict_kind, -1: no run judged it */
	bool passed;
};

struct cmp_flip_index {
	struct keyindex rules;		/* (load, metric, op, threshold) -> rule id */
	struct keyindex cells;		/* (column, rule id, setting or every) -> tally */
	struct cmp_tally *tally;
	size_t cap;
	struct keyindex metrics;	/* (load, metric) -> id */
	long *head, *next;		/* each id's rows: head[id], next[row]; -1 ends */
	char *key;			/* scratch */
	size_t key_cap;
};

/* The scratch key: the N strings of PARTS with their NULs, then TAIL's
 * EXTRA bytes; its length in *LEN. */
static const char *cmp_key(struct cmp_flip_index *x, size_t *len, const char *const *parts,
			   size_t n, const void *tail, size_t extra)
{
	size_t at = 0;

	*len = extra;
	for (size_t i = 0; i < n; i++)
		*len += strlen(parts[i]) + 1;
	if (*len > x->key_cap) {
		x->key_cap = 2 * *len;
		x->key = xreallocarray(x->key, x->key_cap, 1);
	}
	for (size_t i = 0; i < n; i++) {
		memcpy(x->key + at, parts[i], strlen(parts[i]) + 1);
		at += strlen(parts[i]) + 1;
	}
	memcpy(x->key + at, tail, extra);
	return x->key;
}

/* RULE's id under rv_rule_same's equality (load, metric, op, threshold). */
static long cmp_rule_id(struct cmp_flip_index *x, const struct rv_rule *rule, bool add)
{
	struct { int op; double threshold; } tail;
	const char *parts[2] = { rule->load, rule->metric };
	const char *key;
	size_t len;

	memset(&tail, 0, sizeof(tail));	/* the padding is part of the key */
	tail.op = (int)rule->op;
	tail.threshold = rule->threshold == 0 ? 0 : rule->threshold;	/* -0 == 0 */
	key = cmp_key(x, &len, parts, 2, &tail, sizeof(tail));
	return add ? keyindex_add(&x->rules, key, len) : keyindex_find(&x->rules, key, len);
}

/* The tally of (COLUMN, RULE, SETTING; NULL: every setting), made when ADD;
 * NULL when absent. */
static struct cmp_tally *cmp_tally_at(struct cmp_flip_index *x, size_t column, long rule,
				      const char *setting, bool add)
{
	struct { size_t column; long rule; char every; } tail;
	const char *parts[1] = { setting ? setting : "" };
	const char *key;
	size_t len, before = x->cells.n;
	long id;

	memset(&tail, 0, sizeof(tail));
	tail.column = column;
	tail.rule = rule;
	tail.every = !setting;
	key = cmp_key(x, &len, parts, 1, &tail, sizeof(tail));
	id = add ? keyindex_add(&x->cells, key, len) : keyindex_find(&x->cells, key, len);
	if (id < 0 && add)
		die(3, "out of memory");
	if (id < 0)
		return NULL;
	if (x->cells.n > before) {	/* new */
		if (x->cells.n > x->cap) {
			x->cap = 2 * x->cells.n;
			x->tally = xreallocarray(x->tally, x->cap, sizeof(*x->tally));
		}
		x->tally[id] = (struct cmp_tally){ .worst = -1 };
	}
	return &x->tally[id];
}

static void cmp_tally_add(struct cmp_tally *tally, enum verdict_kind kind)
{
	tally->passed |= kind == VERDICT_PASS;
	if ((int)kind > tally->worst)
		tally->worst = (int)kind;
}

/* Every column's verdicts, each under its run's setting and under "every". */
static void cmp_index_verdicts(struct cmp_flip_index *x, const struct cmp_table *t)
{
	for (size_t c = 0; c < t->n_columns; c++) {
		const struct cmp_column *col = &t->columns[c];

		for (size_t i = 0; i < col->view->n_runs; i++) {
			const struct rv_run *run = &col->view->runs[i];

			if (col->setting && strcmp(run->setting, col->setting))
				continue;
			for (size_t v = 0; v < run->n_verdicts; v++) {
				long rule = cmp_rule_id(x, &run->verdicts[v].rule, true);

				if (rule < 0)
					die(3, "out of memory");
				cmp_tally_add(cmp_tally_at(x, c, rule, run->setting, true),
					      run->verdicts[v].kind);
				cmp_tally_add(cmp_tally_at(x, c, rule, NULL, true),
					      run->verdicts[v].kind);
			}
		}
	}
}

/* Every row under its (load, metric). */
static void cmp_index_rows(struct cmp_flip_index *x, const struct cmp_table *t)
{
	x->next = xcalloc(t->n_rows ? t->n_rows : 1, sizeof(*x->next));
	x->head = xcalloc(t->n_rows ? t->n_rows : 1, sizeof(*x->head));
	for (size_t r = 0; r < t->n_rows; r++) {
		const char *parts[2] = { t->rows[r].load, t->rows[r].metric };
		size_t len;
		const char *key = cmp_key(x, &len, parts, 2, "", 0);
		size_t before = x->metrics.n;
		long id = keyindex_add(&x->metrics, key, len);

		if (id < 0)
			die(3, "out of memory");
		if (x->metrics.n > before)
			x->head[id] = -1;
		x->next[r] = x->head[id];
		x->head[id] = (long)r;
	}
}

/* The first row of RULE's load and metric (then x->next[row]), -1: none. */
static long cmp_rows_of(struct cmp_flip_index *x, const struct rv_rule *rule)
{
	const char *parts[2] = { rule->load, rule->metric };
	size_t len;
	const char *key = cmp_key(x, &len, parts, 2, "", 0);
	long id = keyindex_find(&x->metrics, key, len);

	return id < 0 ? -1 : x->head[id];
}

static void cmp_flip_index_free(struct cmp_flip_index *x)
{
	keyindex_free(&x->rules);
	keyindex_free(&x->cells);
	keyindex_free(&x->metrics);
	free(x->tally);
	free(x->head);
	free(x->next);
	free(x->key);
}

/* The verdict of RULE over column C's runs of SETTING (NULL: any), or -1
 * when no run judged it. */
static int cmp_rule_verdict(struct cmp_flip_index *x, size_t c, const char *setting,
			    const struct rv_rule *rule)
{
	long id = cmp_rule_id(x, rule, false);
	const struct cmp_tally *tally = id < 0 ? NULL : cmp_tally_at(x, c, id, setting, false);

	if (!tally)
		return -1;
	/* As the exit status reads a result: an undecided run beside passing
	 * ones does not undo the pass (it is a warning, not a verdict). */
	return tally->worst == VERDICT_UNDECIDED && tally->passed ? VERDICT_PASS : tally->worst;
}

/* Does the row of RULE's metric (of SETTING) in COLUMN confirm a flip to TO:
 * its change is significant after Holm, in the flip's direction? A flip
 * alone is one run's verdict against the others': a noisy run fails an
 * expectation as easily as it moves a metric, so it is held to the same
 * error budget as the rows. */
static bool cmp_flip_confirmed(const struct cmp_table *t, struct cmp_flip_index *x,
			       const char *setting, const struct rv_rule *rule, size_t column, int to)
{
	for (long r = cmp_rows_of(x, rule); r >= 0; r = x->next[r]) {
		const struct cmp_row *row = &t->rows[r];

		if (setting && row->setting && strcmp(row->setting, setting))
			continue;
		if (cmp_cell_significant(t, &row->cells[column], to == VERDICT_FAIL))
			return true;
	}
	return false;
}

static void cmp_flip_add(struct cmp_table *t, struct cmp_flip_index *x, const char *setting,
			 const struct rv_rule *rule, size_t column, int from, int to)
{
	struct cmp_flip *f;
	bool confirmed = cmp_flip_confirmed(t, x, setting, rule, column, to);

	t->flips = xreallocarray(t->flips, t->n_flips + 1, sizeof(*t->flips));
	f = &t->flips[t->n_flips++];
	*f = (struct cmp_flip){ .setting = setting, .rule = rule, .column = column,
				.from = (enum verdict_kind)from, .to = (enum verdict_kind)to,
				.verdict = !confirmed ? CMP_INSUFFICIENT :
					   to == VERDICT_FAIL ? CMP_REGRESSION : CMP_IMPROVEMENT };
	t->flip_regressions += f->verdict == CMP_REGRESSION;
}

/* Mark the rows of the flipped expectation's load and metric. */
static void cmp_flip_mark(struct cmp_table *t, struct cmp_flip_index *x, size_t flip)
{
	const struct cmp_flip *f = &t->flips[flip];

	for (long r = cmp_rows_of(x, f->rule); r >= 0; r = x->next[r]) {
		struct cmp_row *row = &t->rows[r];

		if (f->setting && row->setting && strcmp(row->setting, f->setting))
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
	struct cmp_flip_index x = { .key = NULL };

	cmp_index_verdicts(&x, t);
	cmp_index_rows(&x, t);
	for (size_t s = 0; s < n_settings; s++) {
		/* one setting: every run is of it, and naming it says nothing */
		const char *setting = t->mode == CMP_RESULTS && n_settings > 1 ?
				      v->setting_names[s] : NULL;

		for (size_t e = 0; e < v->profile.n_expect; e++) {
			const struct rv_rule *rule = &v->profile.expect[e].rule;
			int from;

			if (setting && !rv_expect_applies(&v->profile.expect[e], setting))
				continue;
			from = cmp_rule_verdict(&x, 0, setting, rule);
			if (from != VERDICT_PASS && from != VERDICT_FAIL)
				continue;
			for (size_t c = 1; c < t->n_columns; c++) {
				int to = cmp_rule_verdict(&x, c, setting, rule);

				if ((to == VERDICT_PASS || to == VERDICT_FAIL) && to != from) {
					cmp_flip_add(t, &x, setting, rule, c, from, to);
					if (t->flips[t->n_flips - 1].verdict != CMP_INSUFFICIENT)
						cmp_flip_mark(t, &x, t->n_flips - 1);
				}
			}
		}
	}
	cmp_flip_index_free(&x);
}

/* The family whose error rate the gate controls, per compared column: the
 * gated rows, and the rows an expectation names (a flip is confirmed by its
 * row, so that row must be in the family too). Fixed by the profile and the
 * options, never by the data. */
bool cmp_in_family(const struct cmp_table *t, const struct cmp_row *row)
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

/* A cell whose p-values take part in Holm's procedure: tested across runs. */
static bool cmp_holm_member(const struct cmp_table *t, const struct cmp_row *row, size_t c)
{
	const struct cmp_cell *cell = &row->cells[c];

	return cmp_in_family(t, row) && cell->tested && !cell->within_runs;
}

/* Holm's step-down procedure over the family of column C for question Q:
 * with the m p-values sorted, p_holm(k) = max over j <= k of min(1,
 * (m - j + 1) p(j)). A row rejected at p_holm < alpha keeps the chance that
 * any row of the comparison is answered wrongly by chance at most alpha,
 * whatever the rows' dependence (they are metrics of the same runs, so
 * strongly dependent), and it is never less powerful than Bonferroni. Each
 * question has its own family-wise error: a false regression, a false
 * improvement, a false "the same". Rows outside the family keep their own
 * p (information only). */
static void cmp_holm_column(struct cmp_table *t, size_t c, int q, size_t *order)
{
	size_t m = 0;
	double running = 0;

	for (size_t r = 0; r < t->n_rows; r++) {
		struct cmp_cell *cell = &t->rows[r].cells[c];

		cell->p_q_holm[q] = cell->p_q[q];
		if (!cmp_holm_member(t, &t->rows[r], c))
			continue;
		/* insertion by p: a family is a handful of rows */
		size_t k = m++;

		while (k && t->rows[order[k - 1]].cells[c].p_q[q] > cell->p_q[q]) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = r;
	}
	for (size_t k = 0; k < m; k++) {
		struct cmp_cell *cell = &t->rows[order[k]].cells[c];

		running = fmax(running, fmin(1, (double)(m - k) * cell->p_q[q]));
		cell->p_q_holm[q] = running;
	}
	if (m > t->family)
		t->family = m;
}

void cmp_holm(struct cmp_table *t)
{
	size_t *order = xcalloc(t->n_rows ? t->n_rows : 1, sizeof(*order));

	for (size_t c = 1; c < t->n_columns; c++)
		for (int q = 0; q < CMP_NQUESTIONS; q++)
			cmp_holm_column(t, c, q, order);
	free(order);
}
