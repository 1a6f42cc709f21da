/* Building a comparison table (reports/compare.h): gather each metric's
 * values across the repetitions of every column in one pass over the runs,
 * then judge each column against the baseline. Rows appear in the order the
 * baseline (then the others) first reports them, so tables read like the
 * profile. */
#include "config.h"
#include "reports/compare.h"
#include "lib/error.h"
#include "reports/verdict.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *cmp_json_str(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));	/* NULL-safe both ways */
}

/* A run's setting; "" when the profile has no settings (null or absent). */
static const char *cmp_run_setting(const json_t *run)
{
	const char *s = cmp_json_str(run, "setting");

	return s ? s : "";
}

static bool cmp_run_ok(const json_t *run)
{
	const char *status = cmp_json_str(run, "status");

	return status && !strcmp(status, "ok");
}

static bool cmp_same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static char *cmp_strdup(const char *s)
{
	char *copy = strdup(s);

	if (!copy)
		die(EXIT_RUNTIME, "out of memory");
	return copy;
}

static void *cmp_realloc(void *p, size_t n, size_t size)
{
	p = reallocarray(p, n, size);
	if (!p)
		die(EXIT_RUNTIME, "out of memory");
	return p;
}

/* result_read() checked the format; this checks what compare relies on. */
static int cmp_check_result(const json_t *result, const char *file)
{
	if (!cmp_json_str(json_object_get(result, "profile"), "name"))
		return error("%s: not a starve result (no profile.name)", file);
	if (!json_is_array(json_object_get(result, "runs")))
		return error("%s: not a starve result (no \"runs\" array)", file);
	return 0;
}

static struct cmp_row *cmp_row_get(struct cmp_table *t, const char *setting, const char *load,
				   const char *metric, const struct metric_def *def)
{
	struct cmp_row *row;

	for (size_t i = 0; i < t->n_rows; i++) {
		row = &t->rows[i];
		if (cmp_same(row->setting, setting) && !strcmp(row->load, load) &&
		    !strcmp(row->metric, metric))
			return row;
	}
	t->rows = cmp_realloc(t->rows, t->n_rows + 1, sizeof(*t->rows));
	row = &t->rows[t->n_rows++];
	*row = (struct cmp_row){ .setting = setting ? cmp_strdup(setting) : NULL,
				 .load = cmp_strdup(load), .metric = cmp_strdup(metric),
				 .def = def };
	row->cells = calloc(t->n_columns, sizeof(*row->cells));
	if (!row->cells)
		die(EXIT_RUNTIME, "out of memory");
	return row;
}

static void cmp_cell_add(struct cmp_cell *cell, double value)
{
	cell->samples = cmp_realloc(cell->samples, cell->n + 1, sizeof(*cell->samples));
	cell->samples[cell->n++] = value;
}

/* Add the metrics of one ok run to column C. Metrics this starve does not
 * know have no direction, so they are skipped (and counted for a warning). */
static void cmp_add_run(struct cmp_table *t, size_t c, const json_t *run, const char **unknown)
{
	const char *setting = t->mode == CMP_RESULTS ? cmp_run_setting(run) : NULL;
	const json_t *load, *value;
	const char *metric;
	size_t i;

	json_array_foreach(json_object_get(run, "loads"), i, load) {
		const char *name = cmp_json_str(load, "name");

		if (!name)
			continue;
		json_object_foreach((json_t *)json_object_get(load, "metrics"), metric, value) {
			const struct metric_def *def = metric_find(metric);

			if (!json_is_number(value))
				continue;
			if (!def) {
				*unknown = metric;
				continue;
			}
			cmp_cell_add(&cmp_row_get(t, setting, name, metric, def)->cells[c],
				     json_number_value(value));
		}
	}
}

/* The rule that makes a run's verdicts undecided (doc/result-format.md):
 * its samples still count, but the reader is told. */
static bool cmp_run_noisy(const json_t *run)
{
	const json_t *sampler = json_object_get(run, "sampler");
	const json_t *noise = json_object_get(json_object_get(run, "noise"), "other_cpu_share");
	const json_t *target = json_object_get(sampler, "target_hz");
	const json_t *achieved = json_object_get(sampler, "achieved_hz");

	if (json_is_number(noise) && json_number_value(noise) > VERDICT_MAX_NOISE)
		return true;
	return json_is_number(target) && json_is_number(achieved) &&
	       json_number_value(achieved) < VERDICT_MIN_SAMPLER_RATIO * json_number_value(target);
}

static void cmp_collect(struct cmp_table *t)
{
	const char *unknown = NULL;

	for (size_t c = 0; c < t->n_columns; c++) {
		struct cmp_column *col = &t->columns[c];
		const json_t *run;
		size_t i;

		json_array_foreach(json_object_get(col->result, "runs"), i, run) {
			if (!cmp_run_ok(run) ||
			    (col->setting && strcmp(cmp_run_setting(run), col->setting)))
				continue;
			col->runs_ok++;
			col->runs_noisy += cmp_run_noisy(run);
			cmp_add_run(t, c, run, &unknown);
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
	const json_t *profile = json_object_get(t->columns[0].result, "profile");
	const json_t *v = json_object_get(json_object_get(profile, "compare_thresholds"), metric);

	for (size_t i = 0; i < opt->n_thresholds; i++)
		if (opt->thresholds[i].metric && !strcmp(opt->thresholds[i].metric, metric))
			return opt->thresholds[i].pct;
	if (json_is_number(v) && json_number_value(v) >= 0)
		return json_number_value(v);
	return opt->threshold;
}

static double cmp_change(const struct cmp_cell *base, const struct cmp_cell *cell)
{
	if (!base->n || !cell->n)
		return NAN;
	if (base->median == 0)
		return cell->median == 0 ? 0 : copysign(INFINITY, cell->median);
	return (cell->median - base->median) / fabs(base->median) * 100;
}

/* The p-value of CELL against BASE with the table's test. */
static int cmp_test_cell(struct cmp_table *t, const struct cmp_cell *base, struct cmp_cell *cell)
{
	struct stat_welch w;
	struct stat_mwu u;

	if (t->test == CMP_TEST_WELCH) {
		if (stat_welch(base->samples, base->n, cell->samples, cell->n, &w) < 0)
			return -1;
		cell->p = w.p;
		cell->method = "welch";
		return 0;
	}
	if (stat_mann_whitney(base->samples, base->n, cell->samples, cell->n, &u) < 0)
		return -1;
	cell->p = u.p;
	cell->method = u.method == STAT_EXACT ? "exact" : "normal";
	if (stat_mwu_min_p(base->n, cell->n) >= t->alpha)
		t->underpowered++;
	return 0;
}

static void cmp_judge(struct cmp_table *t, const struct cmp_row *row, struct cmp_cell *cell)
{
	const struct cmp_cell *base = &row->cells[0];
	bool worse;

	cell->change_pct = cmp_change(base, cell);
	cell->verdict = CMP_INSUFFICIENT;
	if (base->n < CMP_MIN_SAMPLES || cell->n < CMP_MIN_SAMPLES || cmp_test_cell(t, base, cell) < 0)
		return;
	cell->tested = true;
	cell->verdict = CMP_NO_CHANGE;
	if (!(cell->p < t->alpha) || !(fabs(cell->change_pct) > row->threshold))
		return;
	worse = (row->def->better == LOWER_IS_BETTER) == (cell->change_pct > 0);
	cell->verdict = worse ? CMP_REGRESSION : CMP_IMPROVEMENT;
}

/* Gather, then judge every row; common to both modes. */
static void cmp_finish(struct cmp_table *t, const struct cmp_options *opt)
{
	cmp_collect(t);
	t->one_setting = true;
	for (size_t r = 0; r < t->n_rows; r++) {
		struct cmp_row *row = &t->rows[r];

		if (t->mode == CMP_RESULTS && !cmp_same(row->setting, t->rows[0].setting))
			t->one_setting = false;
		row->threshold = cmp_threshold_of(t, row->metric, opt);
		for (size_t c = 0; c < t->n_columns; c++)
			row->cells[c].median = stat_median(row->cells[c].samples, row->cells[c].n);
		for (size_t c = 1; c < t->n_columns; c++) {
			cmp_judge(t, row, &row->cells[c]);
			t->counts[row->cells[c].verdict]++;
		}
	}
}

static void cmp_init(struct cmp_table *t, enum cmp_mode mode, const json_t *baseline,
		     size_t n_columns, const struct cmp_options *opt)
{
	*t = (struct cmp_table){ .mode = mode, .test = opt->test, .alpha = opt->alpha,
				 .threshold = opt->threshold, .n_columns = n_columns };
	t->profile = cmp_strdup(cmp_json_str(json_object_get(baseline, "profile"), "name"));
	t->columns = calloc(n_columns, sizeof(*t->columns));
	if (!t->columns)
		die(EXIT_RUNTIME, "out of memory");
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
	const char *release = cmp_json_str(json_object_get(t->columns[i].result, "kernel"),
					   "release");
	char name[256], *label;

	if (given)
		return cmp_strdup(given);
	if (release && !cmp_label_taken(t, i, release))
		return cmp_strdup(release);
	cmp_file_name(file, name, sizeof(name));
	if (!cmp_label_taken(t, i, name))
		return cmp_strdup(name);
	if (asprintf(&label, "%s#%zu", name, i + 1) < 0)
		die(EXIT_RUNTIME, "out of memory");
	return label;
}

/* Results from machines of different sizes compare machines, not kernels:
 * allowed (a lab may want it) but said. */
static void cmp_warn_hosts(json_t *const *results, const char *const *files, size_t n)
{
	const json_t *base = json_object_get(json_object_get(results[0], "host"), "nr_cpus");

	for (size_t i = 1; i < n; i++) {
		const json_t *cpus = json_object_get(json_object_get(results[i], "host"), "nr_cpus");

		if (json_is_integer(base) && json_is_integer(cpus) && !json_equal(base, cpus))
			warning("%s ran on %" JSON_INTEGER_FORMAT " CPUs and %s on %"
				JSON_INTEGER_FORMAT ": differences may come from the machines",
				files[0], json_integer_value(base), files[i],
				json_integer_value(cpus));
	}
}

int cmp_build_results(struct cmp_table *t, json_t *const *results, const char *const *files,
		      const char *const *labels, size_t n, const struct cmp_options *opt)
{
	const char *base_profile;

	if (n < 2)
		return error("compare needs at least two results (or --settings RESULT.json)");
	for (size_t i = 0; i < n; i++)
		if (cmp_check_result(results[i], files[i]) < 0)
			return -1;
	base_profile = cmp_json_str(json_object_get(results[0], "profile"), "name");
	for (size_t i = 1; i < n; i++) {
		const char *other = cmp_json_str(json_object_get(results[i], "profile"), "name");

		if (strcmp(other, base_profile))
			return error("%s and %s ran different profiles ('%s' and '%s'); "
				     "compare results of the same profile", files[0], files[i],
				     base_profile, other);
	}
	cmp_warn_hosts(results, files, n);
	cmp_init(t, CMP_RESULTS, results[0], n, opt);
	for (size_t i = 0; i < n; i++) {
		t->columns[i].result = results[i];
		t->columns[i].file = files[i];
		t->columns[i].label = cmp_label(t, i, labels ? labels[i] : NULL, files[i]);
	}
	cmp_finish(t, opt);
	return 0;
}

/* The settings come from verdict_settings(): the profile's order, then any
 * other the runs use. */
int cmp_build_settings(struct cmp_table *t, const json_t *result, const char *file,
		       const struct cmp_options *opt)
{
	json_t *names;
	size_t n;

	if (cmp_check_result(result, file) < 0)
		return -1;
	names = verdict_settings(result);
	n = json_array_size(names);
	if (n < 2) {
		json_decref(names);
		return error("%s: its profile has %s setting, so there is nothing to compare; "
			     "compare two results instead (starve compare A.json B.json)", file,
			     n ? "one" : "no");
	}
	cmp_init(t, CMP_SETTINGS, result, n, opt);
	for (size_t i = 0; i < n; i++) {
		const char *name = json_string_value(json_array_get(names, i));

		t->columns[i].result = result;
		t->columns[i].file = file;
		t->columns[i].setting = cmp_strdup(name);
		t->columns[i].label = cmp_strdup(name);
	}
	json_decref(names);
	cmp_finish(t, opt);
	return 0;
}

void cmp_free(struct cmp_table *t)
{
	for (size_t r = 0; r < t->n_rows; r++) {
		for (size_t c = 0; c < t->n_columns; c++)
			free(t->rows[r].cells[c].samples);
		free(t->rows[r].cells);
		free(t->rows[r].setting);
		free(t->rows[r].load);
		free(t->rows[r].metric);
	}
	for (size_t c = 0; c < t->n_columns; c++) {
		free(t->columns[c].label);
		free(t->columns[c].setting);
	}
	free(t->rows);
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
	if (!strcmp(name, "mwu") || !strcmp(name, "mann-whitney"))
		return CMP_TEST_MWU;
	if (!strcmp(name, "welch") || !strcmp(name, "t"))
		return CMP_TEST_WELCH;
	return -1;
}

const char *cmp_test_name(enum cmp_test test)
{
	return test == CMP_TEST_WELCH ? "welch-t" : "mann-whitney-u";
}

int cmp_exit_status(const struct cmp_table *t)
{
	return t->counts[CMP_REGRESSION] ? EXIT_VERDICT_FAIL : EXIT_PASS;
}

const char *cmp_verdict_name(enum cmp_verdict v)
{
	static const char *const names[CMP_NVERDICTS] = {
		[CMP_NO_CHANGE] = "no change", [CMP_REGRESSION] = "regression",
		[CMP_IMPROVEMENT] = "improvement", [CMP_INSUFFICIENT] = "insufficient data",
	};
	return names[v];
}
