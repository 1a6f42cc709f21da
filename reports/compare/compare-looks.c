/* Repetitions until decided (compare-looks.h): judging two sides whose runs
 * lie in one directory per look with starve compare's gate, at alpha spent
 * over the planned looks, and the loop that adds looks to undecided sides.
 * The callers (starve vm, bisect, compare --until-decided) say where a
 * look's results go and run it. */
#include "config.h"
#include "lib/error.h"
#include "lib/timeutil.h"
#include "reports/compare/compare-looks.h"
#include "reports/result/result.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Move R's results of the profile of R->v[FIRST] into OUT as one view, the
 * later looks' runs appended to the first's (rv_merge), and leave their
 * slots in R empty; a profile that cannot be merged or kept is skipped with
 * a warning, its results counted. */
static void looks_take_profile(struct results *r, size_t first, struct looks_results *out)
{
	const struct result_view *same[RESULTS_MAX];
	size_t at[RESULTS_MAX], n = 0;
	const char *profile = r->v[first]->profile.name;
	struct result_view *one;
	char why[1024];
	bool keep;

	for (size_t i = first; i < r->n; i++)
		if (r->v[i] && !strcmp(r->v[i]->profile.name, profile)) {
			same[n] = r->v[i];
			at[n++] = i;
		}
	one = n == 1 ? r->v[first] : rv_merge(same, n, why, sizeof(why));
	if (!one)
		warning("skipped the looks of %s: %s", profile, why);
	else if (out->n == LOOKS_MAX_RESULTS)
		warning("skipped %s: more than %d profiles", one->file, LOOKS_MAX_RESULTS);
	keep = one && out->n < LOOKS_MAX_RESULTS;
	if (keep)
		out->v[out->n++] = one;
	else
		out->skipped += n;
	if (n > 1 && !keep)
		rv_free(one);
	for (size_t k = 0; k < n; k++) {
		if (!keep || r->v[at[k]] != one)
			rv_free(r->v[at[k]]);
		r->v[at[k]] = NULL;
	}
}

/* The views of the results in the N directories DIRS (results-dir.h),
 * merged by profile; every result skipped on the way is warned and
 * counted in R->skipped. */
void looks_collect(const char *const *dirs, size_t n, struct looks_results *r)
{
	struct results found = { .n = 0 };

	r->n = 0;
	for (size_t i = 0; i < n; i++)
		if (access(dirs[i], F_OK) == 0)	/* else a look that left nothing */
			results_add(&found, dirs[i]);	/* < 0: said; the side misses it */
	r->skipped = found.skipped;
	for (size_t i = 0; i < found.n; i++)
		if (found.v[i])
			looks_take_profile(&found, i, r);
	results_free(&found);
}

void looks_results_free(struct looks_results *r)
{
	for (size_t i = 0; i < r->n; i++)
		rv_free(r->v[i]);
	r->n = 0;
}

const struct result_view *looks_find(const struct looks_results *r, const char *profile)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i]->profile.name, profile))
			return r->v[i];
	return NULL;
}

/* The alpha of one look: --until-decided spends alpha over its planned
 * looks (Bonferroni), so stopping on the data keeps the error at alpha. */
struct cmp_options looks_cmp_options(const struct looks_rule *rule, const char **load)
{
	struct cmp_options opt = rule->cmp ? *rule->cmp :
				 (struct cmp_options){ .threshold = CMP_DEFAULT_THRESHOLD };

	opt.alpha = rule->alpha / (double)(rule->looks ? rule->looks : 1);
	if (rule->load) {	/* --metric: the load's rows are the family */
		*load = rule->load;
		opt.gate = CMP_GATE_LOADS;
		opt.gate_loads = load;
		opt.n_gate_loads = 1;
	}
	return opt;
}

/* "victim cpu_share -38.9% p_holm 0.0003 (regression), 6 runs against 6". */
static void looks_figure(const struct cmp_table *t, const struct cmp_row *row, const char *why,
			  char *buf, size_t len)
{
	const struct cmp_cell *c = &row->cells[1];

	char verdict[96];

	if (c->why)
		snprintf(verdict, sizeof(verdict), "%s: %s", why ? why : cmp_verdict_name(c->verdict),
			 cmp_why_name(c->why));
	else
		snprintf(verdict, sizeof(verdict), "%s", why ? why : cmp_verdict_name(c->verdict));
	snprintf(buf, len, "%s %s %+.1f%% p_holm %.2g (%s), %zu runs against %zu", row->load,
		 row->metric, c->change_pct, c->p_holm, verdict, t->columns[0].runs_ok,
		 t->columns[1].runs_ok);
}

/* The row RULE names (--metric LOAD.METRIC), or NULL. */
static const struct cmp_row *looks_named_row(const struct cmp_table *t,
					     const struct looks_rule *rule)
{
	for (size_t r = 0; r < t->n_rows; r++)
		if (!strcmp(t->rows[r].load, rule->load) && !strcmp(t->rows[r].metric, rule->metric))
			return &t->rows[r];
	return NULL;
}

/* The first gated row that leaves T's compared column open (neither
 * equivalent nor improved), or NULL. */
static const struct cmp_row *looks_open_row(const struct cmp_table *t)
{
	for (size_t r = 0; r < t->n_rows; r++) {
		enum cmp_verdict v = t->rows[r].cells[1].verdict;

		if (t->rows[r].gated && !cmp_verdict_decided(v))
			return &t->rows[r];
	}
	return NULL;
}

/* The gated row whose change decided a regression, or NULL (a flip). */
static const struct cmp_row *looks_changed_row(const struct cmp_table *t)
{
	for (size_t r = 0; r < t->n_rows; r++)
		if (t->rows[r].gated && t->rows[r].cells[1].verdict == CMP_REGRESSION)
			return &t->rows[r];
	return NULL;
}

/* T's compared column under RULE, as compare decides it (never a guess):
 * LOOKS_CHANGED a regression (with --metric: that row changed either way),
 * LOOKS_SAME no regression (with --metric: that row equivalent), else
 * LOOKS_OPEN: undecided. FIGURE names the row that decided it, or the one
 * still open. */
static int looks_table_state(const struct cmp_table *t, const struct looks_rule *rule,
			      char *figure, size_t len)
{
	const struct cmp_row *row;

	if (rule->load) {
		enum cmp_verdict v;

		if (!(row = looks_named_row(t, rule))) {
			snprintf(figure, len, "%s.%s was not measured, %zu runs against %zu",
				 rule->load, rule->metric, t->columns[0].runs_ok,
				 t->columns[1].runs_ok);
			return LOOKS_OPEN;
		}
		v = row->cells[1].verdict;
		looks_figure(t, row, NULL, figure, len);
		return v == CMP_REGRESSION || v == CMP_IMPROVEMENT ? LOOKS_CHANGED :
		       v == CMP_EQUIVALENT ? LOOKS_SAME : LOOKS_OPEN;
	}
	switch (t->columns[1].outcome) {
	case CMP_OUT_REGRESSION:
		if ((row = looks_changed_row(t))) {
			looks_figure(t, row, NULL, figure, len);
			return LOOKS_CHANGED;
		}
		snprintf(figure, len, "an expectation flipped to fail (%s %s), %zu runs against %zu",
			 t->flips[0].rule->load, t->flips[0].rule->metric, t->columns[0].runs_ok,
			 t->columns[1].runs_ok);
		return LOOKS_CHANGED;
	case CMP_OUT_UNDECIDED:
		if ((row = looks_open_row(t)))
			looks_figure(t, row, NULL, figure, len);
		else
			snprintf(figure, len, "nothing measured on both sides, %zu runs against %zu",
				 t->columns[0].runs_ok, t->columns[1].runs_ok);
		return LOOKS_OPEN;
	default:
		snprintf(figure, len, "every gated row equivalent or improved, %zu runs against %zu",
			 t->columns[0].runs_ok, t->columns[1].runs_ok);
		return LOOKS_SAME;
	}
}

/* The state of GOT against BASE over every profile of BASE: bad when one is,
 * unsure when one is, else good; LOOKS_MISSING when GOT lacks a profile's
 * result (or compare refused them). */
static int looks_judge_sets(const struct looks_results *base, const struct looks_results *got,
			     const struct looks_rule *rule, char *figure, size_t len)
{
	const char *load;
	struct cmp_options opt = looks_cmp_options(rule, &load);
	int state = LOOKS_SAME;
	char one[400];

	snprintf(figure, len, "no result");
	for (size_t i = 0; i < base->n && state != LOOKS_CHANGED; i++) {
		const struct result_view *views[2] = { base->v[i],
						       looks_find(got, base->v[i]->profile.name) };
		struct cmp_table t;
		int s;

		if (!views[1]) {
			snprintf(figure, len, "no result of %s", base->v[i]->profile.name);
			return LOOKS_MISSING;
		}
		if (cmp_build_results(&t, views, NULL, 2, &opt) < 0)
			return LOOKS_MISSING;
		s = looks_table_state(&t, rule, one, sizeof(one));
		cmp_free(&t);
		if (i == 0 || s == LOOKS_CHANGED || (s == LOOKS_OPEN && state == LOOKS_SAME))
			snprintf(figure, len, "%s", one);
		if (s == LOOKS_CHANGED || (s == LOOKS_OPEN && state == LOOKS_SAME))
			state = s;
	}
	return base->n ? state : LOOKS_MISSING;
}

/* The runs with status ok of R's first result. */
static size_t looks_ok_runs(const struct looks_results *r)
{
	size_t runs = 0;

	for (size_t i = 0; r->n && i < r->v[0]->n_runs; i++)
		runs += r->v[0]->runs[i].status == RESULT_OK;
	return runs;
}

/* looks_judge, and into RUNS (when not NULL) the runs with status ok of
 * each side's first result. A figure judged on fewer results than the
 * directories hold says how many were skipped. */
static int looks_judge_runs(const struct looks_sides *s, const struct looks_rule *rule,
			    char *figure, size_t len, size_t runs[2])
{
	struct looks_results base, got;
	size_t skipped;
	int state;

	looks_collect(s->base, s->n_base, &base);
	looks_collect(s->dirs, s->n, &got);
	state = looks_judge_sets(&base, &got, rule, figure, len);
	skipped = base.skipped + got.skipped;
	if (skipped)
		snprintf(figure + strlen(figure), len - strlen(figure),
			 "; %zu result%s skipped (see the warnings)", skipped, skipped == 1 ? "" : "s");
	if (runs) {
		runs[0] = looks_ok_runs(&base);
		runs[1] = looks_ok_runs(&got);
	}
	looks_results_free(&base);
	looks_results_free(&got);
	return state;
}

int looks_judge(const struct looks_sides *s, const struct looks_rule *rule, char *figure,
		 size_t len)
{
	return looks_judge_runs(s, rule, figure, len, NULL);
}

size_t looks_runs(const char *dir)
{
	struct looks_results r;
	size_t runs;

	looks_collect(&dir, 1, &r);
	runs = looks_ok_runs(&r);
	looks_results_free(&r);
	return runs;
}


size_t looks_planned(const struct looks_rule *rule, size_t runs_per_look)
{
	size_t k;

	if (!rule->until_decided || !runs_per_look)
		return 1;
	k = rule->max_repeat / runs_per_look;
	return k < 1 ? 1 : k > LOOKS_MAX ? LOOKS_MAX : k;
}

const char *looks_state_name(const struct looks_rule *rule, int state)
{
	static const char *const name[] = { [LOOKS_SAME] = "equivalent", [LOOKS_CHANGED] = "changed",
					    [LOOKS_MISSING] = "missing", [LOOKS_OPEN] = "undecided" };

	if (!rule->load && (state == LOOKS_SAME || state == LOOKS_CHANGED))
		return state == LOOKS_SAME ? "no regression" : "regression";
	return state >= 0 && state <= LOOKS_OPEN ? name[state] : "?";
}

/* The directories of SIDE's looks 1..LOOKS into BUF, pointed at by DIRS. */
static void looks_side_dirs(const struct looks_driver *d, size_t side, size_t looks,
			    char (*buf)[4096], const char **dirs)
{
	for (size_t l = 0; l < looks && l < LOOKS_MAX; l++) {
		d->dir(d->data, side, l + 1, buf[l], sizeof(buf[l]));
		dirs[l] = buf[l];
	}
}

/* The runs of SIDE's looks 1..LOOKS, summed. */
static size_t looks_side_runs(const struct looks_driver *d, size_t side, size_t looks)
{
	char buf[LOOKS_MAX][4096];
	const char *dirs[LOOKS_MAX];
	struct looks_results r;
	size_t runs;

	looks_side_dirs(d, side, looks, buf, dirs);
	looks_collect(dirs, looks, &r);
	runs = looks_ok_runs(&r);
	looks_results_free(&r);
	return runs;
}

/* Judge SIDE on looks 1..LOOK of it and of the baseline into OUT. */
static void looks_judge_side(const struct looks_driver *d, const struct looks_rule *rule,
			     size_t side, size_t look, struct looks_outcome *out)
{
	char base[LOOKS_MAX][4096], dirs[LOOKS_MAX][4096];
	const char *bp[LOOKS_MAX], *dp[LOOKS_MAX];
	size_t runs[2];

	looks_side_dirs(d, 0, look, base, bp);
	looks_side_dirs(d, side, look, dirs, dp);
	out->state = looks_judge_runs(&(struct looks_sides){ bp, look, dp, look }, rule,
				      out->figure, sizeof(out->figure), runs);
	out->looks = look;
	out->runs_base = runs[0];
	out->runs = runs[1];
}

static bool looks_any_open(const struct looks_outcome *out, size_t n)
{
	for (size_t s = 1; s <= n; s++)
		if (out[s].state == LOOKS_OPEN)
			return true;
	return false;
}

/* Look LOOK: the baseline, then each open side. */
static int looks_round(const struct looks_driver *d, const struct looks_rule *rule, size_t look,
		       struct looks_outcome *out)
{
	for (size_t s = 1; s <= d->n; s++)
		if (out[s].state == LOOKS_OPEN)
			printf("  %s: %s: look %zu of %zu\n", d->names ? d->names[s] : "",
			       out[s].figure, look, rule->looks);
	fflush(stdout);
	if (d->run(d->data, 0, look) < 0)
		return -1;
	out[0].looks = look;
	for (size_t s = 1; s <= d->n; s++) {
		if (out[s].state != LOOKS_OPEN)
			continue;
		if (d->run(d->data, s, look) < 0)
			return -1;
		looks_judge_side(d, rule, s, look, &out[s]);
	}
	return 0;
}

int looks_decide(const struct looks_driver *d, struct looks_outcome *out)
{
	struct looks_rule rule = d->rule;
	int64_t started_ns = mono_ns();
	char dir[4096];

	d->dir(d->data, 1, 1, dir, sizeof(dir));
	rule.looks = looks_planned(&rule, looks_runs(dir));
	out[0] = (struct looks_outcome){ .state = LOOKS_SAME, .looks = 1 };
	for (size_t s = 1; s <= d->n; s++)
		looks_judge_side(d, &rule, s, 1, &out[s]);
	for (size_t look = 2; look <= rule.looks && looks_any_open(out, d->n); look++) {
		if (rule.budget_ns && mono_ns() - started_ns > rule.budget_ns)
			break;
		if (looks_round(d, &rule, look, out) < 0)
			return -1;
	}
	out[0].runs_base = out[0].runs = looks_side_runs(d, 0, out[0].looks);
	return (int)rule.looks;
}
