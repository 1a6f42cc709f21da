/* Building a comparison table (reports/compare/compare.h): gather each metric's
 * values across the repetitions of every column in one pass over the runs,
 * then judge each column against the baseline. Rows appear in the order the
 * baseline (then the others) first reports them, so tables read like the
 * profile. */
#include "config.h"
#include "reports/compare/compare.h"
#include "lib/error.h"
#include "lib/xalloc.h"
#include "reports/result/verdict.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool cmp_same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The row of (SETTING, LOAD, METRIC), made when new: found through an index,
 * since 20k loads make 100k rows and a scan per sample was quadratic. */
static struct cmp_row *cmp_row_get(struct cmp_table *t, const char *setting, const char *load,
				   const char *metric, const struct metric_def *def)
{
	size_t ls = setting ? strlen(setting) + 1 : 0, ll = strlen(load) + 1, lm = strlen(metric);
	char *key = xcalloc(1, 1 + ls + ll + lm);
	struct cmp_row *row;
	long id;

	key[0] = setting ? 's' : '-';	/* no setting differs from an empty one */
	memcpy(key + 1, setting ? setting : "", ls);
	memcpy(key + 1 + ls, load, ll);
	memcpy(key + 1 + ls + ll, metric, lm);
	id = keyindex_add(&t->row_index, key, 1 + ls + ll + lm);
	free(key);
	if (id < 0)
		die(3, "out of memory");
	if ((size_t)id < t->n_rows)
		return &t->rows[id];
	if (t->n_rows == t->cap_rows) {
		t->cap_rows = t->cap_rows ? 2 * t->cap_rows : 64;
		t->rows = xreallocarray(t->rows, t->cap_rows, sizeof(*t->rows));
	}
	row = &t->rows[t->n_rows++];
	*row = (struct cmp_row){ .setting = setting ? xstrdup(setting) : NULL,
				 .load = xstrdup(load), .metric = xstrdup(metric),
				 .def = def };
	row->cells = xcalloc(t->n_columns, sizeof(*row->cells));
	return row;
}

static double cmp_nz(double v)
{
	return isfinite(v) ? v : 0;
}

/* How far RUN's noise could move VALUE of a metric DEF, in its unit, as run
 * verdicts bound it: the CPU time that others took (other tasks, the
 * hypervisor's steal) and the time that reappeared in clock jumps. A wait
 * grows by at most that time, a share by that share, a rate by that share
 * of itself. 0 for a quiet run; NAN where the run has no duration. */
static double cmp_run_noise(const struct rv_run *run, const struct metric_def *def, double value)
{
	double share = cmp_nz(run->other_cpu_share) + cmp_nz(run->steal_share);
	double jump_s = cmp_nz(run->sampler.cpu_clock_jump_s);

	if (!verdict_run_noisy(run))
		return 0;
	if (!(run->duration_s > 0))
		return NAN;
	switch (def->unit) {
	case METRIC_SECONDS:
		return share * run->duration_s + jump_s;
	case METRIC_RATIO:
		return share + jump_s / run->duration_s;
	default:
		return (share + jump_s / run->duration_s) * fabs(value);
	}
}

/* The larger of two noise bounds; an unbounded one (NAN) stays unbounded. */
static double cmp_noise_max(double a, double b)
{
	return isnan(a) || isnan(b) ? NAN : fmax(a, b);
}

static void cmp_cell_add(struct cmp_cell *cell, const struct metric_def *def, double value,
			 const struct rv_run *run, const struct rv_load *load)
{
	double noise = cmp_run_noise(run, def, value);

	cell->samples = xreallocarray(cell->samples, cell->n + 1, sizeof(*cell->samples));
	cell->loads = xreallocarray(cell->loads, cell->n + 1, sizeof(*cell->loads));
	cell->loads[cell->n] = load;
	cell->samples[cell->n++] = value;
	cell->noisy |= verdict_run_noisy(run);
	cell->noise = cmp_noise_max(cell->noise, noise);
}

/* --load: only the loads given, when any were. */
static bool cmp_load_shown(const struct cmp_options *opt, const char *load)
{
	for (size_t i = 0; i < opt->n_only_loads; i++)
		if (!strcmp(opt->only_loads[i], load))
			return true;
	return !opt->n_only_loads;
}

/* Add the metrics of one ok run to column C. Metrics this starve does not
 * know have no direction, so they are skipped (and counted for a warning). */
static void cmp_add_run(struct cmp_table *t, size_t c, const struct rv_run *run,
			const struct cmp_options *opt, const char **unknown)
{
	const char *setting = t->mode == CMP_RESULTS ? run->setting : NULL;

	for (size_t i = 0; i < run->n_loads; i++) {
		const struct rv_load *load = &run->loads[i];

		if (!cmp_load_shown(opt, load->name))
			continue;
		for (size_t m = 0; m < load->n_metrics; m++) {
			const char *metric = load->metrics[m].name;
			const struct metric_def *def = metric_find(metric);

			if (!def) {
				*unknown = metric;
				continue;
			}
			cmp_cell_add(&cmp_row_get(t, setting, load->name, metric, def)->cells[c],
				     def, load->metrics[m].value, run, load);
		}
	}
}

/* Runs with status ok count; those whose verdicts would be undecided
 * (verdict_run_noisy) still count, but the reader is told. */
static void cmp_collect(struct cmp_table *t, const struct cmp_options *opt)
{
	const char *unknown = NULL;

	for (size_t c = 0; c < t->n_columns; c++) {
		struct cmp_column *col = &t->columns[c];

		for (size_t i = 0; i < col->view->n_runs; i++) {
			const struct rv_run *run = &col->view->runs[i];

			if (run->status != RESULT_OK ||
			    (col->setting && strcmp(run->setting, col->setting)))
				continue;
			col->runs_ok++;
			col->runs_noisy += verdict_run_noisy(run);
			cmp_add_run(t, c, run, opt, &unknown);
		}
	}
	if (unknown)
		warning("metrics unknown to this starve were skipped (e.g. '%s')", unknown);
}

/* Threshold of METRIC: command line for the metric, then the profile's
 * compare_thresholds, then the default (the command line's or 5%). */
static double cmp_threshold_of(const struct cmp_table *t, const char *metric,
			       const struct cmp_options *opt)
{
	const struct rv_profile *profile = &t->columns[0].view->profile;

	for (size_t i = 0; i < opt->n_thresholds; i++)
		if (opt->thresholds[i].metric && !strcmp(opt->thresholds[i].metric, metric))
			return opt->thresholds[i].pct;
	for (size_t i = 0; i < profile->n_compare_thresholds; i++)
		if (!strcmp(profile->compare_thresholds[i].metric, metric))
			return profile->compare_thresholds[i].pct;
	return opt->threshold;
}

/* The smallest change of a metric that matters whatever its baseline: half
 * a percentage point of a share or ratio (a CPU's time is shared out in
 * ticks and slices: 0.002 against 0.003 of a wait ratio is +50% and means
 * nothing), 10 us of a duration (about an interrupt and a context switch: a
 * victim's median wait moved from 4 to 11 us between two sessions of one
 * kernel, 2026-12-07, and said nothing about the scheduler; a probe's p99
 * of 85 against 102 us still counts). Rates and counts have none: their
 * threshold is relative. doc/ci-gating.md, "The margin". */
static double cmp_floor(const struct metric_def *def)
{
	return def->unit == METRIC_RATIO ? CMP_FLOOR_RATIO :
	       def->unit == METRIC_SECONDS ? CMP_FLOOR_SECONDS : 0;
}

/* ROW's margin: its threshold of the baseline's median, or of the value an
 * expectation of its load names in the same unit (an expectation sets the
 * scale its load is judged at: "victim.starvation_max below 1.2s" makes a
 * 60 ms change of any of the victim's waits the smallest that counts), or
 * the metric's floor, whichever is largest. */
static void cmp_margin(const struct cmp_table *t, struct cmp_row *row)
{
	const struct rv_profile *p = &t->columns[0].view->profile;
	double base = fabs(row->cells[0].median), margin = cmp_floor(row->def);

	if (isfinite(base))
		margin = fmax(margin, row->threshold / 100 * base);
	for (size_t i = 0; i < p->n_expect; i++) {
		const struct metric_def *named = metric_find(p->expect[i].rule.metric);

		if (!strcmp(p->expect[i].rule.load, row->load) && named &&
		    named->unit == row->def->unit)
			margin = fmax(margin, row->threshold / 100 * fabs(p->expect[i].rule.threshold));
	}
	row->margin_abs = margin;
	row->margin_pct = base > 0 ? margin / base * 100 : INFINITY;
}

static double cmp_change(const struct cmp_cell *base, const struct cmp_cell *cell)
{
	if (!base->n || !cell->n)
		return NAN;
	if (base->median == 0)
		return cell->median == 0 ? 0 : copysign(INFINITY, cell->median);
	return (cell->median - base->median) / fabs(base->median) * 100;
}

static void cmp_measure(struct cmp_table *t, const struct cmp_row *row, struct cmp_cell *cell)
{
	const struct cmp_cell *base = &row->cells[0];

	cell->change_pct = cmp_change(base, cell);
	cell->delta = cell->median - base->median;
	/* noise on either side moves the difference */
	cell->noisy |= base->noisy;
	cell->noise = cmp_noise_max(cell->noise, base->noise);
	cmp_test_cell(t, row, base, cell);
}

bool cmp_cell_worse(const struct cmp_row *row, const struct cmp_cell *cell)
{
	return (row->def->better == LOWER_IS_BETTER) == (cell->delta > 0);
}

bool cmp_cell_significant(const struct cmp_table *t, const struct cmp_cell *cell, bool worse)
{
	if (!cell->tested || cell->within_runs)
		return false;
	if (!(cell->p_q_holm[worse ? CMP_Q_WORSE : CMP_Q_BETTER] < t->alpha))
		return false;
	return !cell->noisy || fabs(cell->delta) > cell->noise;	/* NAN: never clear */
}

/* About how many runs a side would bring CELL's interval inside its margin
 * (or past it, for a change beyond it): the interval narrows as one over
 * the square root of the runs. */
static double cmp_runs_needed(const struct cmp_row *row, const struct cmp_cell *cell, size_t n)
{
	double half = (cell->hi_pct - cell->lo_pct) / 2, change = fabs(cell->change_pct);
	double room = change < row->margin_pct ? row->margin_pct - change : change;

	if (!(half > 0) || !(room > 0) || !isfinite(half))
		return INFINITY;
	return ceil((double)n * (half / room) * (half / room));
}

/* Why CELL was not tested across runs: no run with the metric on a side,
 * one run a side (only its interval), or, for --test mwu and welch, fewer
 * runs a side than they need. */
static enum cmp_why cmp_untested_why(const struct cmp_table *t, const struct cmp_cell *base,
				     const struct cmp_cell *cell)
{
	size_t fewer = base->n < cell->n ? base->n : cell->n;

	if (!fewer)
		return CMP_WHY_MISSING;
	if (t->test != CMP_TEST_AUTO && fewer < CMP_MIN_SAMPLES)
		return CMP_WHY_FEW_RUNS;
	return fewer < 2 ? CMP_WHY_ONE_RUN : CMP_WHY_MISSING;
}

/* After Holm (compare-gate.c): changed when significant in the change's
 * direction and beyond the margin; equivalent when the same within the
 * margin and no run was noisy; else undecided, with why. */
static void cmp_judge(const struct cmp_table *t, const struct cmp_row *row, struct cmp_cell *cell)
{
	const struct cmp_cell *base = &row->cells[0];
	bool worse = cmp_cell_worse(row, cell);

	cell->verdict = CMP_INSUFFICIENT;
	cell->why = cmp_untested_why(t, base, cell);
	if (!cell->tested || cell->within_runs)
		return;
	cell->why = CMP_WHY_NONE;
	cell->p_holm = cell->p_q_holm[worse ? CMP_Q_WORSE : CMP_Q_BETTER];
	if (fabs(cell->delta) > row->margin_abs && cmp_cell_significant(t, cell, worse)) {
		cell->verdict = worse ? CMP_REGRESSION : CMP_IMPROVEMENT;
		return;
	}
	if (cell->p_q_holm[CMP_Q_SAME] < t->alpha && !cell->noisy) {
		cell->verdict = CMP_EQUIVALENT;
		return;
	}
	cell->verdict = CMP_UNDECIDED;
	cell->why = cell->noisy ? CMP_WHY_NOISY : CMP_WHY_WIDE;
	cell->runs_needed = cmp_runs_needed(row, cell, base->n < cell->n ? base->n : cell->n);
}

bool cmp_verdict_decided(enum cmp_verdict v)
{
	return v == CMP_REGRESSION || v == CMP_IMPROVEMENT || v == CMP_EQUIVALENT;
}

bool cmp_one_sided(const struct cmp_row *row, size_t c)
{
	return (!row->cells[0].n) != (!row->cells[c].n);
}

/* Column C as a whole: a regression when a gated row regressed or an
 * expectation flipped to fail (confirmed); no regression only when it has
 * completed runs, gated rows, and every one of them equivalent or
 * improved; else undecided. */
static enum cmp_outcome cmp_column_outcome(const struct cmp_table *t, size_t c)
{
	size_t gated = 0, open = 0, improved = 0;

	for (size_t i = 0; i < t->n_flips; i++)
		if (t->flips[i].column == c && t->flips[i].verdict == CMP_REGRESSION)
			return CMP_OUT_REGRESSION;
	for (size_t r = 0; r < t->n_rows; r++) {
		enum cmp_verdict v = t->rows[r].cells[c].verdict;

		if (!t->rows[r].gated)
			continue;
		if (v == CMP_REGRESSION)
			return CMP_OUT_REGRESSION;
		/* a metric one side never reports (exact mode's, on a kernel
		 * without it) is another instrument, not a change: shown, not
		 * waited for */
		if (cmp_one_sided(&t->rows[r], c))
			continue;
		gated++;
		improved += v == CMP_IMPROVEMENT;
		open += !cmp_verdict_decided(v);
	}
	if (open || !gated || !t->columns[0].runs_ok || !t->columns[c].runs_ok)
		return CMP_OUT_UNDECIDED;
	return improved ? CMP_OUT_IMPROVEMENT : CMP_OUT_NO_REGRESSION;
}

/* The worse of two outcomes: regression, undecided, improvement, none. */
static enum cmp_outcome cmp_outcome_worse(enum cmp_outcome a, enum cmp_outcome b)
{
	static const int rank[] = { [CMP_OUT_NO_REGRESSION] = 0, [CMP_OUT_IMPROVEMENT] = 1,
				    [CMP_OUT_UNDECIDED] = 2, [CMP_OUT_REGRESSION] = 3 };

	return rank[a] >= rank[b] ? a : b;
}

/* Tally the verdicts (after the flips and confounders), each row's first
 * change, and the outcome of each column and of the whole. */
static void cmp_count(struct cmp_table *t)
{
	t->outcome = CMP_OUT_NO_REGRESSION;
	for (size_t r = 0; r < t->n_rows; r++) {
		struct cmp_row *row = &t->rows[r];

		for (size_t c = 1; c < t->n_columns; c++) {
			enum cmp_verdict v = row->cells[c].verdict;

			if (v == CMP_NOT_COMPARABLE)
				row->cells[c].why = CMP_WHY_CONFOUNDER;
			(row->gated ? t->counts : t->info_counts)[v]++;
			if (!row->first_change && (v == CMP_REGRESSION || v == CMP_IMPROVEMENT))
				row->first_change = c;
		}
	}
	for (size_t c = 1; c < t->n_columns; c++) {
		t->columns[c].outcome = cmp_column_outcome(t, c);
		t->outcome = cmp_outcome_worse(t->outcome, t->columns[c].outcome);
	}
}

/* Gather, then judge every row; common to both modes. */
static void cmp_finish(struct cmp_table *t, const struct cmp_options *opt)
{
	cmp_collect(t, opt);
	t->one_setting = true;
	for (size_t r = 0; r < t->n_rows; r++) {
		struct cmp_row *row = &t->rows[r];

		if (t->mode == CMP_RESULTS && !cmp_same(row->setting, t->rows[0].setting))
			t->one_setting = false;
		row->threshold = cmp_threshold_of(t, row->metric, opt);
		for (size_t c = 0; c < t->n_columns; c++)
			row->cells[c].median = stat_median(row->cells[c].samples, row->cells[c].n);
		cmp_margin(t, row);
	}
	cmp_gate_rows(t, opt);
	for (size_t r = 0; r < t->n_rows; r++)
		for (size_t c = 1; c < t->n_columns; c++) {
			t->rows[r].cells[c].flip = -1;
			cmp_measure(t, &t->rows[r], &t->rows[r].cells[c]);
		}
	cmp_holm(t);
	for (size_t r = 0; r < t->n_rows; r++)
		for (size_t c = 1; c < t->n_columns; c++)
			cmp_judge(t, &t->rows[r], &t->rows[r].cells[c]);
	cmp_find_flips(t);
	cmp_confounders_find(t);
	cmp_count(t);
}

static void cmp_init(struct cmp_table *t, enum cmp_mode mode,
		     const struct result_view *baseline, size_t n_columns,
		     const struct cmp_options *opt)
{
	*t = (struct cmp_table){ .mode = mode, .test = opt->test, .alpha = opt->alpha,
				 .threshold = opt->threshold, .n_columns = n_columns,
				 .undecided = opt->undecided };
	t->profile = xstrdup(baseline->profile.name);
	t->columns = xcalloc(n_columns, sizeof(*t->columns));
}

static bool cmp_label_taken(const struct cmp_table *t, size_t upto, const char *label)
{
	for (size_t i = 0; i < upto; i++)
		if (!strcmp(t->columns[i].label, label))
			return true;
	return false;
}

/* A short name for FILE: its base name without ".json"; for "DIR/result.json"
 * (what `starve run` writes) the directory's name, which holds the time. */
static void cmp_file_name(const char *file, char *buf, size_t len)
{
	char copy[4096], *name, *dot;

	snprintf(copy, sizeof(copy), "%s", file);
	dot = strrchr(copy, '.');
	if (dot && !strcmp(dot, ".json"))
		*dot = '\0';
	name = basename(copy);
	if (!strcmp(name, "result") && name > copy) {
		char *parent;

		name[-1] = '\0';
		parent = basename(copy);
		if (strcmp(parent, ".") && strcmp(parent, "/") && *parent)
			name = parent;
	}
	snprintf(buf, len, "%s", name);
}

/* kernel.release, unless given; two runs on one kernel are told apart by
 * their file names (then by position), so every column has its own label. */
static char *cmp_label(const struct cmp_table *t, size_t i, const char *given, const char *file)
{
	const char *release = t->columns[i].view->kernel.release;
	char name[256];

	if (given)
		return xstrdup(given);
	if (release && !cmp_label_taken(t, i, release))
		return xstrdup(release);
	cmp_file_name(file, name, sizeof(name));
	if (!cmp_label_taken(t, i, name))
		return xstrdup(name);
	return xasprintf("%s#%zu", name, i + 1);
}

/* Results from machines of different sizes compare machines, not kernels:
 * allowed (a lab may want it) but said. */
static void cmp_warn_hosts(const struct result_view *const *views, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (views[i]->host.nr_cpus != views[0]->host.nr_cpus)
			warning("%s ran on %ld CPUs and %s on %ld: differences may come from the "
				"machines", views[0]->file, views[0]->host.nr_cpus, views[i]->file,
				views[i]->host.nr_cpus);
}

int cmp_build_results(struct cmp_table *t, const struct result_view *const *views,
		      const char *const *labels, size_t n, const struct cmp_options *opt)
{
	if (n < 2)
		return error("compare needs at least two results (or --settings RESULT.json)");
	for (size_t i = 1; i < n; i++)
		if (strcmp(views[i]->profile.name, views[0]->profile.name))
			return error("%s and %s ran different profiles ('%s' and '%s'); "
				     "compare results of the same profile", views[0]->file,
				     views[i]->file, views[0]->profile.name, views[i]->profile.name);
	cmp_warn_hosts(views, n);
	cmp_init(t, CMP_RESULTS, views[0], n, opt);
	for (size_t i = 0; i < n; i++) {
		t->columns[i].view = views[i];
		t->columns[i].file = views[i]->file;
		t->columns[i].label = cmp_label(t, i, labels ? labels[i] : NULL, views[i]->file);
	}
	cmp_finish(t, opt);
	return 0;
}

/* The columns are the view's settings in order: the profile's, then any
 * other the runs use. */
int cmp_build_settings(struct cmp_table *t, const struct result_view *v,
		       const struct cmp_options *opt)
{
	size_t n = v->n_setting_names;

	if (n < 2)
		return error("%s: its profile has %s setting, so there is nothing to compare; "
			     "compare two results instead (starve compare A.json B.json)", v->file,
			     n ? "one" : "no");
	cmp_init(t, CMP_SETTINGS, v, n, opt);
	for (size_t i = 0; i < n; i++) {
		t->columns[i].view = v;
		t->columns[i].file = v->file;
		t->columns[i].setting = xstrdup(v->setting_names[i]);
		t->columns[i].label = xstrdup(v->setting_names[i]);
	}
	cmp_finish(t, opt);
	return 0;
}

void cmp_free(struct cmp_table *t)
{
	for (size_t r = 0; r < t->n_rows; r++) {
		for (size_t c = 0; c < t->n_columns; c++) {
			free(t->rows[r].cells[c].samples);
			free(t->rows[r].cells[c].loads);
		}
		free(t->rows[r].cells);
		free(t->rows[r].setting);
		free(t->rows[r].load);
		free(t->rows[r].metric);
	}
	for (size_t c = 0; c < t->n_columns; c++) {
		free(t->columns[c].label);
		free(t->columns[c].setting);
	}
	cmp_confounders_free(t);
	free(t->rows);
	keyindex_free(&t->row_index);
	free(t->flips);
	free(t->columns);
	free(t->profile);
	memset(t, 0, sizeof(*t));
}

int cmp_parse_threshold(char *arg, struct cmp_threshold *out)
{
	char *eq = strchr(arg, '='), *pct = eq ? eq + 1 : arg, *end;

	out->metric = NULL;
	if (eq) {
		*eq = '\0';
		if (!metric_find(arg)) {
			const char *hint = metric_suggest(arg);

			return error("--threshold: unknown metric '%s'%s%s%s", arg,
				     hint ? " (did you mean '" : "", hint ? hint : "",
				     hint ? "'?)" : "; 'starve list' shows the metrics");
		}
		out->metric = arg;
	}
	errno = 0;
	out->pct = strtod(pct, &end);
	if (end != pct && *end == '%')
		end++;
	if (errno || end == pct || *end || !isfinite(out->pct) || out->pct < 0)
		return error("--threshold: '%s' is not a percentage (want METRIC=PCT, e.g. "
			     "wakeup_p99=10)", pct);
	return 0;
}

int cmp_parse_test(const char *name)
{
	if (!strcmp(name, "auto"))
		return CMP_TEST_AUTO;
	if (!strcmp(name, "mwu") || !strcmp(name, "mann-whitney"))
		return CMP_TEST_MWU;
	if (!strcmp(name, "welch") || !strcmp(name, "t"))
		return CMP_TEST_WELCH;
	return -1;
}

const char *cmp_test_name(enum cmp_test test)
{
	return test == CMP_TEST_WELCH ? "welch-t" : test == CMP_TEST_MWU ? "mann-whitney-u" : "auto";
}

int cmp_undecided_exit(enum cmp_undecided policy)
{
	static const int status[] = { [CMP_UNDECIDED_NO_VERDICT] = EXIT_UNDECIDED,
				      [CMP_UNDECIDED_FAILS] = EXIT_VERDICT_FAIL,
				      [CMP_UNDECIDED_PASSES] = EXIT_PASS };

	return status[policy];
}

int cmp_parse_undecided(bool strict, bool allow, enum cmp_undecided *out)
{
	if (strict && allow)
		return error("--strict and --allow-undecided: choose one");
	*out = strict ? CMP_UNDECIDED_FAILS : allow ? CMP_UNDECIDED_PASSES :
	       CMP_UNDECIDED_NO_VERDICT;
	return 0;
}

int cmp_exit_status(const struct cmp_table *t)
{
	switch (t->outcome) {
	case CMP_OUT_REGRESSION:
		return EXIT_VERDICT_FAIL;
	case CMP_OUT_UNDECIDED:
		return cmp_undecided_exit(t->undecided);
	default:
		return EXIT_PASS;
	}
}

const char *cmp_verdict_name(enum cmp_verdict v)
{
	static const char *const names[CMP_NVERDICTS] = {
		[CMP_EQUIVALENT] = "equivalent", [CMP_REGRESSION] = "regression",
		[CMP_IMPROVEMENT] = "improvement", [CMP_UNDECIDED] = "undecided",
		[CMP_INSUFFICIENT] = "insufficient data", [CMP_NOT_COMPARABLE] = "not comparable",
	};
	return names[v];
}

const char *cmp_outcome_name(enum cmp_outcome o)
{
	static const char *const names[] = {
		[CMP_OUT_NO_REGRESSION] = "NO REGRESSION",
		[CMP_OUT_IMPROVEMENT] = "IMPROVEMENT, no regression",
		[CMP_OUT_REGRESSION] = "REGRESSION", [CMP_OUT_UNDECIDED] = "UNDECIDED",
	};
	return names[o];
}

const char *cmp_why_name(enum cmp_why why)
{
	static const char *const names[] = {
		[CMP_WHY_NONE] = "", [CMP_WHY_MISSING] = "metric missing on a side",
		[CMP_WHY_ONE_RUN] = "one run a side", [CMP_WHY_FEW_RUNS] = "too few runs a side",
		[CMP_WHY_NOISY] = "noisy runs",
		[CMP_WHY_WIDE] = "interval past the margin",
		[CMP_WHY_CONFOUNDER] = "a confounder differs",
	};
	return names[why];
}
