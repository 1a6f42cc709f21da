/* Unit tests for `starve compare` (reports/compare/compare.c, compare-print.c) on
 * results built in memory and read through their views: verdicts by
 * direction, threshold and significance, which runs count, settings mode,
 * labels, and the outputs. */
#include "config.h"
#include "lib/error.h"
#include "reports/compare/compare.h"

#include "tests/unit/unit.h"
#include "tests/unit/unit-results.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static char last_error[512];

static void capture(const char *msg, void *data)
{
	(void)data;
	snprintf(last_error, sizeof(last_error), "%s", msg);
}

static const struct cmp_options defaults = {
	.test = CMP_TEST_MWU, .alpha = CMP_DEFAULT_ALPHA, .threshold = CMP_DEFAULT_THRESHOLD,
};

/* A result of profile PROFILE on kernel RELEASE, setting "default", no runs. */
static json_t *new_result(const char *release, const char *profile)
{
	return unit_minimal_result(release, profile, "default");
}

/* Append a run of SETTING with one load "l" reporting METRIC = VALUE. */
static void add_run(json_t *r, const char *setting, const char *status, const char *metric,
		    double value)
{
	json_t *runs = json_object_get(r, "runs");
	json_t *run = json_pack("{s:s, s:i, s:s, s:s?, s:{s:i, s:i}, s:[{s:s, s:{s:f}}], s:[]}",
				"setting", setting, "repetition", (int)json_array_size(runs),
				"status", status, "reason", strcmp(status, "ok") ? status : NULL,
				"sampler", "target_hz", 250, "achieved_hz", 250,
				"loads", "name", "l", "metrics", metric, value, "verdicts");

	ck_assert_ptr_nonnull(run);
	json_array_append_new(runs, run);
}

/* The view of TREE, called NAME in messages; TREE's reference goes to it. */
static struct result_view *view_of(json_t *tree, const char *name)
{
	char why[1024];
	struct result_view *v = rv_build(tree, name, why, sizeof(why));

	ck_assert_msg(v != NULL, "%s", why);
	json_decref(tree);
	return v;
}

/* Free T and the views its columns borrow. */
static void table_free(struct cmp_table *t)
{
	const struct result_view *views[64];
	size_t n = t->n_columns;

	for (size_t c = 0; c < n; c++)
		views[c] = t->columns[c].view;
	cmp_free(t);
	for (size_t c = 0; c < n; c++)
		if (!c || views[c] != views[c - 1])	/* --settings: one view for all */
			rv_free((struct result_view *)views[c]);
}

/* N ok runs of METRIC: BASE * (1 + small spread) * FACTOR. */
static json_t *series(const char *release, const char *metric, double base, double factor,
		      size_t n)
{
	static const double spread[] = { 0.98, 1.01, 1.0, 1.015, 0.99, 1.005, 0.995 };
	json_t *r = new_result(release, "demo");

	for (size_t i = 0; i < n; i++)
		add_run(r, "default", "ok", metric, base * spread[i % 7] * factor);
	return r;
}

/* Compare A with B and return the verdict of the one row; the table goes
 * to OUT (free it with table_free) or is freed. */
static enum cmp_verdict verdict_of(json_t *a, json_t *b, const struct cmp_options *opt,
				   struct cmp_table *out)
{
	const struct result_view *views[2] = { view_of(a, "a.json"), view_of(b, "b.json") };
	struct cmp_table t;
	enum cmp_verdict v;

	ck_assert_int_eq(cmp_build_results(&t, views, NULL, 2, opt), 0);
	ck_assert_uint_eq(t.n_rows, 1);
	v = t.rows[0].cells[1].verdict;
	if (out)
		*out = t;
	else
		table_free(&t);
	return v;
}

/* The same runs on both sides: shown inside the margin, so NO REGRESSION. */
START_TEST(identical_results_are_equivalent)
{
	struct cmp_table t;

	ck_assert_int_eq(verdict_of(series("1", "wakeup_p99", 1e-2, 1, 5),
				    series("2", "wakeup_p99", 1e-2, 1, 5), &defaults, &t),
			 CMP_EQUIVALENT);
	ck_assert_double_eq(t.rows[0].cells[1].change_pct, 0);
	ck_assert_double_eq(t.rows[0].cells[1].p, 1);
	ck_assert(t.rows[0].cells[1].p_q_holm[CMP_Q_SAME] < 0.05);
	ck_assert_int_eq(t.outcome, CMP_OUT_NO_REGRESSION);
	ck_assert_int_eq(cmp_exit_status(&t), EXIT_PASS);
	table_free(&t);
}
END_TEST

START_TEST(direction_decides_regression_or_improvement)
{
	struct cmp_table t;

	/* latency up 20%: worse */
	ck_assert_int_eq(verdict_of(series("1", "wakeup_p99", 1e-2, 1, 5),
				    series("2", "wakeup_p99", 1e-2, 1.2, 5), &defaults, &t),
			 CMP_REGRESSION);
	ck_assert_double_eq_tol(t.rows[0].cells[1].change_pct, 20, 1e-9);
	ck_assert_double_eq_tol(t.rows[0].cells[1].p, 0.0079, 5e-5);
	ck_assert_int_eq(cmp_exit_status(&t), EXIT_VERDICT_FAIL);
	table_free(&t);
	/* latency down 20%: better */
	ck_assert_int_eq(verdict_of(series("1", "wakeup_p99", 1e-2, 1, 5),
				    series("2", "wakeup_p99", 1e-2, 0.8, 5), &defaults, NULL),
			 CMP_IMPROVEMENT);
	/* throughput: higher is better, so the same shifts mean the opposite */
	ck_assert_int_eq(verdict_of(series("1", "throughput", 1e6, 1, 5),
				    series("2", "throughput", 1e6, 0.8, 5), &defaults, NULL),
			 CMP_REGRESSION);
	ck_assert_int_eq(verdict_of(series("1", "throughput", 1e6, 1, 5),
				    series("2", "throughput", 1e6, 1.2, 5), &defaults, NULL),
			 CMP_IMPROVEMENT);
}
END_TEST

/* Significant (separated samples) but only 3%, and shown inside the 5%
 * default: equivalent. */
START_TEST(small_significant_change_is_equivalent)
{
	struct cmp_table t;

	ck_assert_int_eq(verdict_of(series("1", "wakeup_p99", 1e-2, 1, 7),
				    series("2", "wakeup_p99", 1e-2, 1.03, 7), &defaults, &t),
			 CMP_EQUIVALENT);
	ck_assert(t.rows[0].cells[1].p < 0.05);
	table_free(&t);
}
END_TEST

/* Large change of the medians, but samples that overlap: not significant,
 * and not shown inside the margin either: undecided, which is not a pass. */
START_TEST(overlapping_samples_are_undecided)
{
	static const double a[] = { 7, 13, 9, 12, 10 }, b[] = { 13.5, 8.1, 11.9, 10.3, 11.3 };
	json_t *ra = new_result("1", "demo"), *rb = new_result("2", "demo");
	struct cmp_table t;

	for (int i = 0; i < 5; i++) {
		add_run(ra, "default", "ok", "wakeup_p99", a[i]);
		add_run(rb, "default", "ok", "wakeup_p99", b[i]);
	}
	ck_assert_int_eq(verdict_of(ra, rb, &defaults, &t), CMP_UNDECIDED);
	ck_assert_int_eq(t.rows[0].cells[1].why, CMP_WHY_WIDE);
	ck_assert(t.rows[0].cells[1].change_pct > 10);
	ck_assert(t.rows[0].cells[1].p > 0.3);
	ck_assert_int_eq(t.outcome, CMP_OUT_UNDECIDED);
	ck_assert_int_eq(cmp_exit_status(&t), EXIT_UNDECIDED);
	t.undecided = CMP_UNDECIDED_FAILS;
	ck_assert_int_eq(cmp_exit_status(&t), EXIT_VERDICT_FAIL);
	t.undecided = CMP_UNDECIDED_PASSES;
	ck_assert_int_eq(cmp_exit_status(&t), EXIT_PASS);
	table_free(&t);
}
END_TEST

START_TEST(thresholds_profile_then_command_line)
{
	struct cmp_threshold th = { "wakeup_p99", 10 };
	struct cmp_options opt = defaults;
	json_t *base;

	/* +8%, separated: a regression at 5% */
	ck_assert_int_eq(verdict_of(series("1", "wakeup_p99", 1e-2, 1, 5),
				    series("2", "wakeup_p99", 1e-2, 1.08, 5), &opt, NULL),
			 CMP_REGRESSION);
	/* the baseline's profile raises it to 9% */
	base = series("1", "wakeup_p99", 1e-2, 1, 5);
	json_object_set_new(json_object_get(base, "profile"), "compare_thresholds",
			    json_pack("{s:f}", "wakeup_p99", 9.0));
	ck_assert_int_ne(verdict_of(base, series("2", "wakeup_p99", 1e-2, 1.08, 5), &opt, NULL),
			 CMP_REGRESSION);
	/* the command line wins over the profile, and over its own default */
	base = series("1", "wakeup_p99", 1e-2, 1, 5);
	json_object_set_new(json_object_get(base, "profile"), "compare_thresholds",
			    json_pack("{s:f}", "wakeup_p99", 1.0));
	opt.thresholds = &th;
	opt.n_thresholds = 1;
	opt.threshold = 1;
	ck_assert_int_ne(verdict_of(base, series("2", "wakeup_p99", 1e-2, 1.08, 5), &opt, NULL),
			 CMP_REGRESSION);
}
END_TEST

START_TEST(fewer_than_three_repetitions_is_insufficient)
{
	struct cmp_table t;

	ck_assert_int_eq(verdict_of(series("1", "wakeup_p99", 1e-2, 1, 5),
				    series("2", "wakeup_p99", 1e-2, 2, 2), &defaults, &t),
			 CMP_INSUFFICIENT);
	ck_assert(!t.rows[0].cells[1].tested);
	ck_assert_uint_eq(t.rows[0].cells[1].n, 2);
	ck_assert_double_eq_tol(t.rows[0].cells[1].change_pct, 99, 1e-9);	/* 2 * 0.995 */
	ck_assert_int_eq(cmp_exit_status(&t), EXIT_UNDECIDED);
	table_free(&t);
}
END_TEST

/* Only runs with status ok count: the errored run's wild value is ignored. */
START_TEST(only_ok_runs_are_samples)
{
	json_t *b = series("2", "wakeup_p99", 1e-2, 1, 4);
	struct cmp_table t;

	add_run(b, "default", "error", "wakeup_p99", 1.0);
	add_run(b, "default", "incomplete", "wakeup_p99", 1.0);
	ck_assert_int_eq(verdict_of(series("1", "wakeup_p99", 1e-2, 1, 4), b, &defaults, &t),
			 CMP_EQUIVALENT);
	ck_assert_uint_eq(t.rows[0].cells[1].n, 4);
	ck_assert_uint_eq(t.columns[1].runs_ok, 4);
	/* 4 vs 4 can reach 0.05; 3 vs 3 could not */
	ck_assert_uint_eq(t.underpowered, 0);
	table_free(&t);
}
END_TEST

START_TEST(three_a_side_is_flagged_underpowered)
{
	struct cmp_table t;

	ck_assert_int_eq(verdict_of(series("1", "wakeup_p99", 1e-2, 1, 3),
				    series("2", "wakeup_p99", 1e-2, 1.5, 3), &defaults, &t),
			 CMP_UNDECIDED);
	ck_assert_double_eq_tol(t.rows[0].cells[1].p, 0.1, 1e-9);
	ck_assert_uint_eq(t.underpowered, 1);
	ck_assert_str_eq(t.rows[0].cells[1].method, "mann-whitney");
	table_free(&t);
}
END_TEST

/* Welch's t decides where the rank test cannot: 3 tight values a side. */
START_TEST(welch_decides_with_three_a_side)
{
	struct cmp_options opt = defaults;
	struct cmp_table t;

	opt.test = CMP_TEST_WELCH;
	ck_assert_int_eq(verdict_of(series("1", "wakeup_p99", 1e-2, 1, 3),
				    series("2", "wakeup_p99", 1e-2, 1.5, 3), &opt, &t),
			 CMP_REGRESSION);
	ck_assert(t.rows[0].cells[1].p < 0.01);
	ck_assert_str_eq(t.rows[0].cells[1].method, "welch-log");
	ck_assert_uint_eq(t.underpowered, 0);
	table_free(&t);
	ck_assert_int_eq(cmp_parse_test("welch"), CMP_TEST_WELCH);
	ck_assert_int_eq(cmp_parse_test("mwu"), CMP_TEST_MWU);
	ck_assert_int_eq(cmp_parse_test("anova"), -1);
}
END_TEST

/* A metric at 0 in the baseline that appears: an infinite change counts. */
START_TEST(change_from_zero_is_infinite)
{
	struct cmp_table t;
	json_t *doc, *change;

	ck_assert_int_eq(verdict_of(series("1", "deadline_miss_ratio", 0, 1, 5),
				    series("2", "deadline_miss_ratio", 0.1, 1, 5), &defaults, &t),
			 CMP_REGRESSION);
	ck_assert(isinf(t.rows[0].cells[1].change_pct));
	doc = cmp_to_json(&t);
	ck_assert_ptr_nonnull(doc);
	change = json_object_get(json_array_get(json_object_get(json_array_get(
		json_object_get(doc, "rows"), 0), "compared"), 0), "change_pct");
	ck_assert(json_is_null(change));
	json_decref(doc);
	table_free(&t);
}
END_TEST

START_TEST(different_profiles_are_refused)
{
	struct result_view *views[2] = { view_of(series("1", "wakeup_p99", 1, 1, 3), "a.json"),
					 view_of(new_result("2", "other"), "b.json") };
	struct cmp_table t;
	json_t *r = new_result("2", "other");
	char why[1024];

	ck_assert_int_eq(cmp_build_results(&t, (const struct result_view *const *)views, NULL, 2,
					   &defaults), -1);
	ck_assert_str_eq(last_error, "a.json and b.json ran different profiles ('demo' and "
				     "'other'); compare results of the same profile");
	/* a result without a profile never gets this far: it has no view */
	json_object_del(r, "profile");
	ck_assert_ptr_null(rv_build(r, "c.json", why, sizeof(why)));
	ck_assert_str_eq(why, "c.json: missing required key \"profile\"");
	json_decref(r);
	rv_free(views[0]);
	rv_free(views[1]);
}
END_TEST

START_TEST(labels_are_unique)
{
	/* `starve run` writes DIR/result.json: the directory tells them apart */
	const char *files[5] = { "a/result.json", "results/smoke-0930/result.json",
				 "other/second.json", "more/second.json", "x.json" };
	const char *labels[5] = { NULL, NULL, NULL, NULL, "patched" };
	const struct result_view *views[5];
	struct cmp_table t;

	for (int i = 0; i < 5; i++)
		views[i] = view_of(series(i < 4 ? "6.18" : "6.19", "wakeup_p99", 1, 1, 3), files[i]);
	ck_assert_int_eq(cmp_build_results(&t, views, labels, 5, &defaults), 0);
	ck_assert_str_eq(t.columns[0].label, "6.18");
	ck_assert_str_eq(t.columns[1].label, "smoke-0930");
	ck_assert_str_eq(t.columns[2].label, "second");
	ck_assert_str_eq(t.columns[3].label, "second#4");
	ck_assert_str_eq(t.columns[4].label, "patched");
	table_free(&t);
}
END_TEST

/* --settings: one result, columns are its settings, rows have no setting. */
START_TEST(settings_of_one_result)
{
	json_t *r = new_result("6.18", "demo");
	struct result_view *v;
	struct cmp_table t;

	json_array_append_new(json_object_get(json_object_get(r, "profile"), "settings"),
			      json_pack("{s:s, s:{}}", "name", "tuned", "knobs"));
	for (int i = 0; i < 5; i++) {
		add_run(r, "default", "ok", "starvation_max", 1.0 + i * 0.01);
		add_run(r, "tuned", "ok", "starvation_max", 0.5 + i * 0.01);
	}
	ck_assert_int_eq(cmp_build_settings(&t, view_of(r, "r.json"), &defaults), 0);
	ck_assert_uint_eq(t.n_columns, 2);
	ck_assert_str_eq(t.columns[1].label, "tuned");
	ck_assert_uint_eq(t.n_rows, 1);
	ck_assert_ptr_null(t.rows[0].setting);
	ck_assert_uint_eq(t.rows[0].cells[0].n, 5);
	ck_assert_double_eq_tol(t.rows[0].cells[0].median, 1.02, 1e-12);
	ck_assert_int_eq(t.rows[0].cells[1].verdict, CMP_IMPROVEMENT);
	table_free(&t);
	v = view_of(series("6.18", "wakeup_p99", 1, 1, 3), "r.json");
	ck_assert_int_eq(cmp_build_settings(&t, v, &defaults), -1);
	ck_assert_ptr_nonnull(strstr(last_error, "r.json: its profile has one setting"));
	rv_free(v);
}
END_TEST

START_TEST(threshold_arguments)
{
	char good[] = "wakeup_p99=10", pct[] = "7.5%", typo[] = "wakup_p99=10",
	     neg[] = "cpu_share=-1", junk[] = "cpu_share=ten";
	struct cmp_threshold th;

	ck_assert_int_eq(cmp_parse_threshold(good, &th), 0);
	ck_assert_str_eq(th.metric, "wakeup_p99");
	ck_assert_double_eq(th.pct, 10);
	ck_assert_int_eq(cmp_parse_threshold(pct, &th), 0);
	ck_assert_ptr_null(th.metric);
	ck_assert_double_eq(th.pct, 7.5);
	ck_assert_int_eq(cmp_parse_threshold(typo, &th), -1);
	ck_assert_ptr_nonnull(strstr(last_error, "did you mean 'wakeup_p99'"));
	ck_assert_int_eq(cmp_parse_threshold(neg, &th), -1);
	ck_assert_int_eq(cmp_parse_threshold(junk, &th), -1);
	ck_assert_ptr_nonnull(strstr(last_error, "not a percentage"));
}
END_TEST

/* The terminal and Markdown tables carry the verdict, marker and numbers. */
START_TEST(outputs_show_the_verdicts)
{
	struct cmp_table t;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	verdict_of(series("1", "wakeup_p99", 1e-2, 1, 5), series("2", "wakeup_p99", 1e-2, 1.2, 5),
		   &defaults, &t);
	f = open_memstream(&text, &len);
	cmp_print_text(&t, f);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "- regression"));
	ck_assert_ptr_nonnull(strstr(text, "+20.0%"));
	ck_assert_ptr_nonnull(strstr(text, "0.0079"));
	ck_assert_ptr_nonnull(strstr(text, "1 regression, 0 improvements"));
	ck_assert_ptr_nonnull(strstr(text, "outcome: REGRESSION, exit 1"));
	free(text);
	f = open_memstream(&text, &len);
	cmp_print_markdown(&t, f);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "| l | wakeup_p99 | 5% | 10ms | 12ms | +20.0% [+17.3%, +22.8%] |"));
	ck_assert_ptr_nonnull(strstr(text, "**regression**"));
	free(text);
	table_free(&t);
}
END_TEST

/* A metric this starve does not know has no direction: skipped, with a word. */
START_TEST(unknown_metrics_are_skipped)
{
	json_t *a = series("1", "wakeup_p99", 1e-2, 1, 3), *b = series("2", "wakeup_p99", 1e-2, 1, 3);
	struct cmp_table t;

	add_run(a, "default", "ok", "frobs_per_second", 3);
	last_error[0] = '\0';
	ck_assert_int_eq(verdict_of(a, b, &defaults, &t), CMP_EQUIVALENT);
	ck_assert_str_eq(t.rows[0].metric, "wakeup_p99");
	ck_assert_ptr_nonnull(strstr(last_error, "unknown to this starve were skipped (e.g. "
					  "'frobs_per_second')"));
	table_free(&t);
}
END_TEST


/* A result of profile "rt" whose expectation "l.starvation_max below 1.2s"
 * has VERDICT, with 1 run: l's starvation_max STARVE and a hog's cpu_share HOG. */
static json_t *flip_result(const char *release, const char *verdict, double starve, double hog)
{
	json_t *r = unit_minimal_result(release, "rt", "default");
	json_t *rule = json_pack("{s:s, s:s, s:s, s:f}", "load", "l", "metric", "starvation_max",
				 "op", "below", "threshold", 1.2);
	json_t *run = json_pack("{s:s, s:i, s:s, s:n, s:{s:i, s:i}, s:[{s:s, s:{s:f}}, {s:s, s:{s:f}}],"
				" s:[{s:s, s:s, s:s, s:f, s:f, s:s, s:s?}]}",
				"setting", "default", "repetition", 0, "status", "ok", "reason",
				"sampler", "target_hz", 250, "achieved_hz", 250,
				"loads", "name", "l", "metrics", "starvation_max", starve,
				"name", "hog", "metrics", "cpu_share", hog,
				"verdicts", "load", "l", "metric", "starvation_max", "op", "below",
				"threshold", 1.2, "value", starve, "verdict", verdict, "reason",
				strcmp(verdict, "pass") ? "above 1.2s" : NULL);

	ck_assert_ptr_nonnull(run);
	json_array_append_new(json_object_get(json_object_get(r, "profile"), "expect"), rule);
	json_array_append_new(json_object_get(r, "runs"), run);
	return r;
}

/* RESULT with its one run copied N - 1 times, each copy's values scaled by a
 * little spread (so a test has a variance to work with). */
static json_t *with_runs(json_t *result, size_t n)
{
	static const double spread[] = { 1.0, 1.02, 0.985 };
	json_t *runs = json_object_get(result, "runs");
	json_t *first = json_array_get(runs, 0);

	for (size_t i = 1; i < n; i++) {
		json_t *copy = json_deep_copy(first), *loads = json_object_get(copy, "loads");
		size_t l;
		json_t *load;

		json_object_set_new(copy, "repetition", json_integer((json_int_t)i));
		json_array_foreach(loads, l, load) {
			json_t *metrics = json_object_get(load, "metrics");
			const char *key;
			json_t *value;

			json_object_foreach(metrics, key, value)
				json_real_set(value, json_real_value(value) * spread[i % 3]);
		}
		json_array_append_new(runs, copy);
	}
	return result;
}

/* One run a side: the expectation that passed and now fails is a flip, shown,
 * but no statistics can confirm it (a noisy run fails an expectation as
 * easily as it moves a metric), so it does not decide: exit 0. With three
 * runs a side whose metric moved far and consistently, the row's test
 * confirms it: a regression (exit 1), the reverse an improvement. The hog,
 * which no expectation names, is shown but does not gate. */
START_TEST(verdict_flips_decide_and_only_named_loads_gate)
{
	const struct result_view *views[2] = {
		view_of(flip_result("6.12", "pass", 0.95, 0.95), "a.json"),
		view_of(flip_result("6.1", "fail", 3.96, 0.99), "b.json"),
	};
	struct cmp_options opt = defaults;
	struct cmp_table t;

	opt.test = CMP_TEST_AUTO;
	ck_assert_int_eq(cmp_build_results(&t, views, NULL, 2, &opt), 0);
	ck_assert_uint_eq(t.n_flips, 1);
	ck_assert_int_eq(t.flips[0].verdict, CMP_INSUFFICIENT);
	ck_assert_int_eq(t.rows[0].cells[1].flip, -1);
	ck_assert_int_eq(t.rows[0].cells[1].why, CMP_WHY_ONE_RUN);
	ck_assert_int_eq(t.outcome, CMP_OUT_UNDECIDED);
	ck_assert_int_eq(cmp_exit_status(&t), EXIT_UNDECIDED);
	table_free(&t);

	views[0] = view_of(with_runs(flip_result("6.12", "pass", 0.95, 0.95), 3), "a.json");
	views[1] = view_of(with_runs(flip_result("6.1", "fail", 3.96, 0.99), 3), "b.json");
	ck_assert_int_eq(cmp_build_results(&t, views, NULL, 2, &opt), 0);
	ck_assert_uint_eq(t.n_flips, 1);
	ck_assert_int_eq(t.flips[0].verdict, CMP_REGRESSION);
	ck_assert_int_eq(t.flips[0].from, VERDICT_PASS);
	ck_assert_int_eq(t.flips[0].to, VERDICT_FAIL);
	ck_assert_uint_eq(t.n_rows, 2);
	ck_assert_str_eq(t.rows[0].load, "l");
	ck_assert(t.rows[0].gated);
	ck_assert_int_eq(t.rows[0].cells[1].verdict, CMP_REGRESSION);
	ck_assert_int_eq(t.rows[0].cells[1].flip, 0);
	ck_assert(!t.rows[1].gated);
	ck_assert_int_eq(cmp_exit_status(&t), EXIT_VERDICT_FAIL);
	table_free(&t);

	views[0] = view_of(with_runs(flip_result("6.1", "fail", 3.96, 0.99), 3), "a.json");
	views[1] = view_of(with_runs(flip_result("6.12", "pass", 0.95, 0.95), 3), "b.json");
	ck_assert_int_eq(cmp_build_results(&t, views, NULL, 2, &opt), 0);
	ck_assert_int_eq(t.flips[0].verdict, CMP_IMPROVEMENT);
	ck_assert_int_eq(t.rows[0].cells[1].verdict, CMP_IMPROVEMENT);
	ck_assert_int_eq(cmp_exit_status(&t), EXIT_PASS);
	table_free(&t);
}
END_TEST

/* Holm over the gated rows: five metrics of one load, each moved so that
 * alone it is significant (p between alpha / 5 and alpha) is no change once
 * the family is corrected; the smallest p of a family is multiplied by its
 * size, and the adjusted p never decreases down the sorted list. */
START_TEST(holm_corrects_over_the_gated_rows)
{
	static const char *const metrics[] = { "cpu_share", "throughput", "wait_ratio",
					       "starvation_max", "wakeup_p99" };
	json_t *a = new_result("1", "demo"), *b = new_result("2", "demo");
	const struct result_view *views[2];
	struct cmp_options opt = defaults;
	struct cmp_table t;

	opt.test = CMP_TEST_WELCH;
	for (size_t i = 0; i < 3; i++) {
		json_t *ra, *rb;

		add_run(a, "default", "ok", "cpu_share", 0.5 * (1 + 0.04 * (double)i));
		add_run(b, "default", "ok", "cpu_share", 0.5 * 1.11 * (1 + 0.04 * (double)i));
		ra = json_array_get(json_object_get(json_array_get(json_object_get(a, "runs"), i), "loads"), 0);
		rb = json_array_get(json_object_get(json_array_get(json_object_get(b, "runs"), i), "loads"), 0);
		for (size_t m = 1; m < 5; m++) {
			double v = 0.5 * (1 + 0.04 * (double)((i + m) % 3));

			json_object_set_new(json_object_get(ra, "metrics"), metrics[m], json_real(v));
			json_object_set_new(json_object_get(rb, "metrics"), metrics[m],
					    json_real(v * (1 + 0.01 * (double)m)));
		}
	}
	views[0] = view_of(a, "a.json");
	views[1] = view_of(b, "b.json");
	ck_assert_int_eq(cmp_build_results(&t, views, NULL, 2, &opt), 0);
	ck_assert_uint_eq(t.n_rows, 5);
	ck_assert_uint_eq(t.family, 5);
	ck_assert_str_eq(t.rows[0].metric, "cpu_share");
	ck_assert(t.rows[0].cells[1].p_q[CMP_Q_BETTER] < opt.alpha);
	ck_assert(t.rows[0].cells[1].p_holm >= opt.alpha);
	ck_assert_int_eq(t.rows[0].cells[1].verdict, CMP_UNDECIDED);
	for (size_t r = 0; r < t.n_rows; r++)
		for (int q = 0; q < CMP_NQUESTIONS; q++)
			ck_assert(t.rows[r].cells[1].p_q_holm[q] >= t.rows[r].cells[1].p_q[q]);
	ck_assert_int_ne(cmp_exit_status(&t), EXIT_VERDICT_FAIL);
	table_free(&t);
}
END_TEST


/* A run the machine made undecided beside one that passed leaves the
 * expectation passed, as the exit status reads it: failing on the other
 * side is still a flip. */
START_TEST(an_undecided_run_does_not_hide_a_flip)
{
	json_t *base = flip_result("6.12", "pass", 0.95, 0.95);
	json_t *runs = json_object_get(base, "runs");
	json_t *noisy = json_deep_copy(json_array_get(runs, 0));
	json_t *verdict = json_array_get(json_object_get(noisy, "verdicts"), 0);
	const struct result_view *views[2];
	struct cmp_options opt = defaults;
	struct cmp_table t;

	json_object_set_new(noisy, "repetition", json_integer(1));
	json_object_set_new(verdict, "verdict", json_string("undecided"));
	json_object_set_new(verdict, "reason", json_string("noisy"));
	json_array_insert_new(runs, 0, noisy);
	views[0] = view_of(base, "a.json");
	views[1] = view_of(flip_result("6.1", "fail", 3.96, 0.99), "b.json");
	ck_assert_int_eq(cmp_build_results(&t, views, NULL, 2, &opt), 0);
	ck_assert_uint_eq(t.n_flips, 1);
	ck_assert_int_eq(t.flips[0].from, VERDICT_PASS);
	ck_assert_int_eq(t.flips[0].to, VERDICT_FAIL);
	table_free(&t);
}
END_TEST

/* --gate all makes the hog's rows gate; --load hides the other loads. */
START_TEST(gate_and_load_options)
{
	const char *hog[] = { "hog" };
	struct cmp_options opt = defaults;
	const struct result_view *views[2];
	struct cmp_table t;

	opt.gate = CMP_GATE_ALL;
	views[0] = view_of(flip_result("1", "pass", 0.95, 0.95), "a.json");
	views[1] = view_of(flip_result("2", "pass", 0.95, 0.5), "b.json");
	ck_assert_int_eq(cmp_build_results(&t, views, NULL, 2, &opt), 0);
	ck_assert(t.rows[0].gated && t.rows[1].gated);
	table_free(&t);
	opt.gate = CMP_GATE_LOADS;
	opt.gate_loads = hog;
	opt.n_gate_loads = 1;
	opt.only_loads = hog;
	opt.n_only_loads = 1;
	views[0] = view_of(flip_result("1", "pass", 0.95, 0.95), "a.json");
	views[1] = view_of(flip_result("2", "pass", 0.95, 0.5), "b.json");
	ck_assert_int_eq(cmp_build_results(&t, views, NULL, 2, &opt), 0);
	ck_assert_uint_eq(t.n_rows, 1);
	ck_assert_str_eq(t.rows[0].load, "hog");
	ck_assert(t.rows[0].gated);
	table_free(&t);
}
END_TEST

/* N runs of METRIC at VALUE * spread on which other tasks took OTHER of the
 * loads' CPUs (more than 10%: noisy), each of 1 s. */
static json_t *noisy_series(const char *release, const char *metric, double value, double other,
			    size_t n)
{
	json_t *r = series(release, metric, value, 1, n);
	size_t i;
	json_t *run;

	json_array_foreach(json_object_get(r, "runs"), i, run) {
		json_object_set_new(run, "duration_s", json_real(1));
		json_object_set_new(run, "noise", json_pack("{s:f, s:f}", "other_cpu_share", other,
							     "steal_share", 0.0));
	}
	return r;
}

/* Noisy runs: nothing is called the same (other work could hide a change),
 * and a change counts only beyond what the noise could do to the value
 * (a share moves by at most the share others took). */
START_TEST(noisy_runs_decide_only_beyond_their_noise)
{
	struct cmp_table t;

	ck_assert_int_eq(verdict_of(series("1", "cpu_share", 0.9, 1, 5),
				    noisy_series("2", "cpu_share", 0.9, 0.3, 5), &defaults, &t),
			 CMP_UNDECIDED);
	ck_assert(t.rows[0].cells[1].noisy);
	ck_assert_int_eq(t.rows[0].cells[1].why, CMP_WHY_NOISY);
	ck_assert_int_eq(cmp_exit_status(&t), EXIT_UNDECIDED);
	table_free(&t);
	/* -11%, significant, but others took 12% */
	ck_assert_int_eq(verdict_of(series("1", "cpu_share", 0.9, 1, 5),
				    noisy_series("2", "cpu_share", 0.8, 0.12, 5), &defaults, &t),
			 CMP_UNDECIDED);
	ck_assert_double_eq_tol(t.rows[0].cells[1].noise, 0.12, 1e-12);
	ck_assert(t.rows[0].cells[1].p_q_holm[CMP_Q_WORSE] < 0.05);
	table_free(&t);
	/* -44%: beyond any 12% the others took */
	ck_assert_int_eq(verdict_of(series("1", "cpu_share", 0.9, 1, 5),
				    noisy_series("2", "cpu_share", 0.5, 0.12, 5), &defaults, NULL),
			 CMP_REGRESSION);
}
END_TEST

/* The metric's floor: +50% of a wait ratio of 0.002 is a tenth of a percent
 * point, inside the 0.005 floor: the same, not a regression. */
START_TEST(the_floor_keeps_tiny_changes_out)
{
	struct cmp_table t;

	ck_assert_int_eq(verdict_of(series("1", "wait_ratio", 0.002, 1, 5),
				    series("2", "wait_ratio", 0.002, 1.5, 5), &defaults, &t),
			 CMP_EQUIVALENT);
	ck_assert_double_eq_tol(t.rows[0].margin_abs, CMP_FLOOR_RATIO, 1e-12);
	ck_assert(t.rows[0].cells[1].p_q[CMP_Q_WORSE] < 0.05);
	table_free(&t);
	/* the same change of a ratio of 0.2 is one */
	ck_assert_int_eq(verdict_of(series("1", "wait_ratio", 0.2, 1, 5),
				    series("2", "wait_ratio", 0.2, 1.5, 5), &defaults, NULL),
			 CMP_REGRESSION);
}
END_TEST

/* An expectation sets the scale its load is judged at, in its unit: with
 * "l.starvation_max below 1.2s" a +30% of l's wait_p99 of 1 ms (0.3 ms) is
 * inside the 60 ms margin; without it, a regression. Durations under the
 * 10 us floor never count. */
START_TEST(an_expectation_sets_its_loads_scale)
{
	json_t *base = series("1", "wait_p99", 1e-3, 1, 5);
	struct cmp_table t;

	json_array_append_new(json_object_get(json_object_get(base, "profile"), "expect"),
			      json_pack("{s:s, s:s, s:s, s:f}", "load", "l", "metric",
					"starvation_max", "op", "below", "threshold", 1.2));
	ck_assert_int_eq(verdict_of(base, series("2", "wait_p99", 1e-3, 1.3, 5), &defaults, &t),
			 CMP_EQUIVALENT);
	ck_assert_double_eq_tol(t.rows[0].margin_abs, 0.06, 1e-12);
	table_free(&t);
	ck_assert_int_eq(verdict_of(series("1", "wait_p99", 1e-3, 1, 5),
				    series("2", "wait_p99", 1e-3, 1.3, 5), &defaults, NULL),
			 CMP_REGRESSION);
	ck_assert_int_eq(verdict_of(series("1", "wait_p99", 4e-6, 1, 5),
				    series("2", "wait_p99", 4e-6, 2.5, 5), &defaults, NULL),
			 CMP_EQUIVALENT);
}
END_TEST

/* A side with no completed run measured nothing: undecided, exit 4, and the
 * headline says so; never NO REGRESSION. */
START_TEST(no_completed_run_is_never_no_regression)
{
	json_t *b = new_result("2", "demo");
	char *text = NULL;
	size_t len = 0;
	struct cmp_table t;
	const struct result_view *views[2];
	FILE *f;

	add_run(b, "default", "error", "wakeup_p99", 1.0);
	views[0] = view_of(series("1", "wakeup_p99", 1e-2, 1, 3), "a.json");
	views[1] = view_of(b, "b.json");
	ck_assert_int_eq(cmp_build_results(&t, views, NULL, 2, &defaults), 0);
	ck_assert_int_eq(t.outcome, CMP_OUT_UNDECIDED);
	ck_assert_int_eq(cmp_exit_status(&t), EXIT_UNDECIDED);
	f = open_memstream(&text, &len);
	cmp_print_text(&t, f);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "UNDECIDED in demo"));
	ck_assert_ptr_nonnull(strstr(text, "has no completed run"));
	ck_assert_ptr_null(strstr(text, "NO REGRESSION"));
	free(text);
	table_free(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("core");

	error_set_sink(capture, NULL);
	tcase_add_test(tc, identical_results_are_equivalent);
	tcase_add_test(tc, direction_decides_regression_or_improvement);
	tcase_add_test(tc, small_significant_change_is_equivalent);
	tcase_add_test(tc, overlapping_samples_are_undecided);
	tcase_add_test(tc, thresholds_profile_then_command_line);
	tcase_add_test(tc, fewer_than_three_repetitions_is_insufficient);
	tcase_add_test(tc, only_ok_runs_are_samples);
	tcase_add_test(tc, three_a_side_is_flagged_underpowered);
	tcase_add_test(tc, welch_decides_with_three_a_side);
	tcase_add_test(tc, change_from_zero_is_infinite);
	tcase_add_test(tc, different_profiles_are_refused);
	tcase_add_test(tc, labels_are_unique);
	tcase_add_test(tc, settings_of_one_result);
	tcase_add_test(tc, threshold_arguments);
	tcase_add_test(tc, outputs_show_the_verdicts);
	tcase_add_test(tc, unknown_metrics_are_skipped);
	tcase_add_test(tc, verdict_flips_decide_and_only_named_loads_gate);
	tcase_add_test(tc, holm_corrects_over_the_gated_rows);
	tcase_add_test(tc, an_undecided_run_does_not_hide_a_flip);
	tcase_add_test(tc, noisy_runs_decide_only_beyond_their_noise);
	tcase_add_test(tc, the_floor_keeps_tiny_changes_out);
	tcase_add_test(tc, an_expectation_sets_its_loads_scale);
	tcase_add_test(tc, no_completed_run_is_never_no_regression);
	tcase_add_test(tc, gate_and_load_options);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
