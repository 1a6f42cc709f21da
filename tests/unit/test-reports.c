/* Unit tests for reports/: result.json I/O, verdicts (against the hand-made
 * oracles in tests/results/), escaping in XML, Markdown and KTAP, the table
 * cells, metric values as people read them and the format list of `starve
 * run --format`. The view itself is tested in test-result-view.c. */
#include "config.h"
#include "lib/error.h"
#include "lib/metric.h"
#include "reports/formats.h"
#include "reports/format/ktap.h"
#include "reports/format/markdown.h"
#include "reports/result/result.h"
#include "reports/result/result-view.h"
#include "reports/format/table.h"
#include "reports/result/verdict.h"
#include "reports/format/xml-writer.h"

#include "tests/unit/unit.h"
#include "tests/unit/unit-results.h"

#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char last_msg[1024];

static void capture(const char *msg, void *data)
{
	(void)data;
	snprintf(last_msg, sizeof(last_msg), "%s", msg);
}

/* OBJ[KEY] as a string, "" when absent: what a verdict object says. */
static const char *str_of(const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : "";
}

/* Recompute the verdicts of a synthetic result and compare each verdict and
 * the summary with the ones written by hand in the file. */
static void check_oracle(const char *name, int want_code)
{
	json_t *r = unit_load_result(name), *want = json_deep_copy(r), *run;
	json_t *blank = unit_minimal_result("-", "-", "-");
	size_t i;

	error_set_sink(capture, NULL);
	/* strip the stored verdicts and summary so nothing can leak through */
	json_array_foreach(json_object_get(r, "runs"), i, run)
		json_object_set_new(run, "verdicts", json_array());
	json_object_set(r, "summary", json_object_get(blank, "summary"));
	json_decref(blank);
	ck_assert_int_eq(verdicts_apply(r), want_code);
	json_array_foreach(json_object_get(r, "runs"), i, run) {
		const json_t *wv = json_object_get(json_array_get(json_object_get(want, "runs"), i),
						   "verdicts");
		const json_t *got = json_object_get(run, "verdicts");
		char *a = json_dumps(got, JSON_SORT_KEYS), *b = json_dumps(wv, JSON_SORT_KEYS);

		ck_assert_msg(json_equal(got, wv), "%s run %zu:\n got  %s\n want %s", name, i, a, b);
		free(a);
		free(b);
	}
	ck_assert_msg(json_equal(json_object_get(r, "summary"), json_object_get(want, "summary")),
		      "%s: summary differs", name);
	error_set_sink(NULL, NULL);
	json_decref(r);
	json_decref(want);
}

START_TEST(verdicts_match_the_hand_made_oracles)
{
	check_oracle("pass", EXIT_PASS);
	check_oracle("fail", EXIT_VERDICT_FAIL);
	check_oracle("skipped", EXIT_ALL_SKIPPED);
	check_oracle("undecided", EXIT_UNDECIDED);
	check_oracle("unmeasured", EXIT_UNDECIDED);
	check_oracle("multi", EXIT_VERDICT_FAIL);
	check_oracle("odd-names", EXIT_VERDICT_FAIL);
}
END_TEST

START_TEST(fail_reason_names_value_threshold_setting_and_kernel)
{
	json_t *r = unit_load_result("fail");
	const json_t *v;

	ck_assert_int_eq(verdicts_apply(r), EXIT_VERDICT_FAIL);
	v = json_array_get(json_object_get(json_array_get(json_object_get(r, "runs"), 0),
					   "verdicts"), 0);
	ck_assert_str_eq(str_of(v, "reason"),
			 "victim starvation_max 1.31s is not below 1.2s "
			 "(setting throttled, kernel 6.18.44)");
	json_decref(r);
}
END_TEST

/* A one-run result (of 5 s) with one expectation on METRIC, for the edge
 * cases. */
static json_t *tiny_metric(const char *metric, const char *op, double threshold, double value,
			   const char *setting)
{
	json_t *r = unit_minimal_result("6.18.44", "tiny", "a");
	json_t *expect = json_pack("{s:s, s:s, s:s, s:f, s:s*}", "load", "victim", "metric",
				   metric, "op", op, "threshold", threshold, "setting", setting);
	json_t *run = json_pack("{s:s, s:i, s:s, s:n, s:f, s:{s:f, s:f}, s:[{s:s, s:{s:f}}], "
				"s:[]}", "setting", "a", "repetition", 0, "status", "ok",
				"reason", "duration_s", 5.0, "sampler", "target_hz", 250.0,
				"achieved_hz", 250.0, "loads", "name", "victim", "metrics", metric,
				value, "verdicts");

	ck_assert_ptr_nonnull(expect);
	ck_assert_ptr_nonnull(run);
	json_array_append_new(json_object_get(json_object_get(r, "profile"), "expect"), expect);
	json_array_append_new(json_object_get(r, "runs"), run);
	return r;
}

static json_t *tiny(const char *op, double threshold, double value, const char *setting)
{
	return tiny_metric("cpu_share", op, threshold, value, setting);
}

static const char *tiny_verdict(json_t *r)
{
	const json_t *vs = json_object_get(json_array_get(json_object_get(r, "runs"), 0), "verdicts");

	return json_array_size(vs) ? str_of(json_array_get(vs, 0), "verdict") : "none";
}

START_TEST(thresholds_are_strict_and_ops_point_the_right_way)
{
	json_t *r;

	r = tiny("below", 0.5, 0.5, NULL);
	ck_assert_int_eq(verdicts_apply(r), EXIT_VERDICT_FAIL);
	ck_assert_str_eq(tiny_verdict(r), "fail");
	json_decref(r);
	r = tiny("above", 0.5, 0.6, NULL);
	ck_assert_int_eq(verdicts_apply(r), EXIT_PASS);
	ck_assert_str_eq(tiny_verdict(r), "pass");
	json_decref(r);
	r = tiny("above", 0.5, 0.4, NULL);
	ck_assert_int_eq(verdicts_apply(r), EXIT_VERDICT_FAIL);
	json_decref(r);
	/* an expectation for another setting does not apply to setting "a" */
	r = tiny("above", 0.5, 0.4, "b");
	ck_assert_int_eq(verdicts_apply(r), EXIT_PASS);
	ck_assert_str_eq(tiny_verdict(r), "none");
	json_decref(r);
}
END_TEST

START_TEST(interrupted_or_unsampled_runs_are_undecided)
{
	json_t *r = tiny("above", 0.5, 0.9, NULL);
	json_t *run = json_array_get(json_object_get(r, "runs"), 0);
	const json_t *v;

	json_object_set_new(run, "status", json_string("incomplete"));
	json_object_set_new(run, "reason", json_string("interrupted by SIGINT"));
	ck_assert_int_eq(verdicts_apply(r), EXIT_UNDECIDED);
	ck_assert_str_eq(str_of(json_object_get(r, "summary"), "verdict"), "undecided");
	v = json_array_get(json_object_get(run, "verdicts"), 0);
	ck_assert_str_eq(str_of(v, "verdict"), "undecided");
	ck_assert_str_eq(str_of(v, "reason"), "run incomplete: interrupted by SIGINT");
	ck_assert(json_number_value(json_object_get(v, "value")) == 0.9);

	/* an error run need not have a sampler (an ok one must: the schema) */
	json_object_set_new(run, "status", json_string("error"));
	json_object_set_new(run, "reason", json_string("load 'victim' could not be started"));
	json_object_del(run, "sampler");
	ck_assert_int_eq(verdicts_apply(r), EXIT_UNDECIDED);
	v = json_array_get(json_object_get(run, "verdicts"), 0);
	ck_assert_str_eq(str_of(v, "reason"), "run error: load 'victim' could not be started");
	json_decref(r);
}
END_TEST

static json_t *tiny_sampler(json_t *r)
{
	return json_object_get(json_array_get(json_object_get(r, "runs"), 0), "sampler");
}

static const char *tiny_reason(json_t *r)
{
	const json_t *vs = json_object_get(json_array_get(json_object_get(r, "runs"), 0), "verdicts");

	return str_of(json_array_get(vs, 0), "reason");
}

/* A sampler that fell behind can merge waits but not invent them: a pass
 * of a stretch with no upper bound in the registry (wakeup_max) is
 * undecided; starvation_max's is not, since its upper bound says what the
 * merging could hide (absent: the value is exact, as when the upper passes
 * too); a failure stands; a share comes from CPU clocks over the whole
 * run, which the sampler's rate does not change. */
START_TEST(a_slow_sampler_makes_passes_undecided_but_failures_stand)
{
	json_t *r = tiny_metric("wakeup_max", "below", 1.2, 0.5, NULL);
	json_t *victim;

	json_object_set_new(tiny_sampler(r), "achieved_hz", json_real(200.0));
	ck_assert_int_eq(verdicts_apply(r), EXIT_UNDECIDED);
	ck_assert_str_eq(tiny_verdict(r), "undecided");
	ck_assert_str_eq(tiny_reason(r), "sampler reached 200.0 Hz of its 250 Hz target (below 95%)");
	json_decref(r);

	r = tiny_metric("starvation_max", "below", 1.2, 0.5, NULL);
	json_object_set_new(tiny_sampler(r), "achieved_hz", json_real(200.0));
	ck_assert_int_eq(verdicts_apply(r), EXIT_PASS);
	ck_assert_str_eq(tiny_verdict(r), "pass");
	victim = json_array_get(json_object_get(json_array_get(json_object_get(r, "runs"), 0),
						"loads"), 0);
	json_object_set_new(json_object_get(victim, "metrics"), "starvation_max_upper",
			    json_real(0.7));
	ck_assert_int_eq(verdicts_apply(r), EXIT_PASS);
	ck_assert_str_eq(tiny_verdict(r), "pass");
	json_object_set_new(json_object_get(victim, "metrics"), "starvation_max_upper",
			    json_real(1.3));
	ck_assert_int_eq(verdicts_apply(r), EXIT_UNDECIDED);
	ck_assert_str_eq(tiny_verdict(r), "undecided");
	json_decref(r);

	r = tiny("above", 0.5, 0.9, NULL);
	json_object_set_new(tiny_sampler(r), "achieved_hz", json_real(200.0));
	ck_assert_int_eq(verdicts_apply(r), EXIT_PASS);
	ck_assert_str_eq(tiny_verdict(r), "pass");
	json_decref(r);

	r = tiny_metric("starvation_max", "below", 1.2, 4.9, NULL);
	json_object_set_new(tiny_sampler(r), "achieved_hz", json_real(200.0));
	ck_assert_int_eq(verdicts_apply(r), EXIT_VERDICT_FAIL);
	ck_assert_str_eq(tiny_verdict(r), "fail");
	json_decref(r);
}
END_TEST

/* CPU clocks that jumped (steal, emulation): a value that misses or meets
 * the threshold by more than the jumped and stolen CPU time could move it
 * is decided, one closer is undecided, naming the bound; a result that
 * counted jumps but not their size cannot be bounded. */
START_TEST(noise_leaves_undecided_only_what_it_could_move_across)
{
	static const struct {
		double value, steal;
		const char *verdict;
	} cases[] = {
		{ 4.9, 0, "fail" }, { 1.5, 0, "undecided" }, { 0.5, 0, "pass" },
		{ 0.9, 0, "undecided" }, { 1.5, 0.05, "undecided" }, { 2.0, 0.05, "fail" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *r = tiny_metric("starvation_max", "below", 1.2, cases[i].value, NULL);
		json_t *run = json_array_get(json_object_get(r, "runs"), 0);

		/* 0.4 s jumped; the steal share of a 5 s run adds 0.25 s at 5% */
		json_object_set_new(tiny_sampler(r), "cpu_clock_jumps", json_integer(3));
		json_object_set_new(tiny_sampler(r), "cpu_clock_jump_s", json_real(0.4));
		json_object_set_new(run, "noise", json_pack("{s:f, s:f}", "other_cpu_share", 0.0,
							    "steal_share", cases[i].steal));
		verdicts_apply(r);
		ck_assert_msg(!strcmp(tiny_verdict(r), cases[i].verdict), "%g s, steal %g: %s, not %s",
			      cases[i].value, cases[i].steal, tiny_verdict(r), cases[i].verdict);
		if (!strcmp(cases[i].verdict, "fail"))
			ck_assert_ptr_nonnull(strstr(tiny_reason(r), "by more than the noise could move it"));
		if (!strcmp(cases[i].verdict, "undecided"))
			ck_assert_ptr_nonnull(strstr(tiny_reason(r), "the stolen and jumped CPU time ("));
		json_decref(r);
	}
}
END_TEST

START_TEST(noise_of_unknown_size_leaves_the_verdict_undecided)
{
	json_t *r = tiny_metric("starvation_max", "below", 1.2, 4.9, NULL);

	json_object_set_new(tiny_sampler(r), "cpu_clock_jumps", json_integer(3));
	ck_assert_int_eq(verdicts_apply(r), EXIT_UNDECIDED);
	ck_assert_str_eq(tiny_verdict(r), "undecided");
	ck_assert_ptr_nonnull(strstr(tiny_reason(r), "CPU clocks jumped 3 times"));
	json_decref(r);
}
END_TEST

START_TEST(without_expectations_only_skipped_runs_exit_4)
{
	json_t *r = tiny("above", 0.5, 0.9, NULL);
	json_t *run = json_array_get(json_object_get(r, "runs"), 0);

	json_object_set_new(json_object_get(r, "profile"), "expect", json_array());
	ck_assert_int_eq(verdicts_apply(r), EXIT_PASS);
	ck_assert_str_eq(str_of(json_object_get(r, "summary"), "verdict"), "pass");
	json_object_set_new(run, "status", json_string("skipped"));
	json_object_set_new(run, "reason", json_string("needs root"));
	ck_assert_int_eq(verdicts_apply(r), EXIT_ALL_SKIPPED);
	json_decref(r);
}
END_TEST

/* PASS rests on measurements (issue 32): an expectation passed in one run
 * and undecided in another passed (a warning says so); a result whose
 * runs all errored, or that was interrupted before every setting ran, is
 * undecided, exit 4, never PASS: even without expectations. */
START_TEST(pass_needs_a_measurement)
{
	json_t *r = tiny("above", 0.5, 0.9, NULL);
	json_t *runs = json_object_get(r, "runs");
	json_t *noisy = json_deep_copy(json_array_get(runs, 0));
	const json_t *s;

	json_object_set_new(noisy, "repetition", json_integer(1));
	json_object_set_new(noisy, "noise", json_pack("{s:f, s:f}", "other_cpu_share", 0.3,
						     "steal_share", 0.0));
	json_array_append_new(runs, noisy);
	ck_assert_int_eq(verdicts_apply(r), EXIT_PASS);
	s = json_object_get(r, "summary");
	ck_assert_str_eq(str_of(s, "verdict"), "pass");
	ck_assert_ptr_nonnull(strstr(str_of(s, "warning"), "each expectation passed in another run"));
	/* interrupted: the result is partial */
	json_object_set_new(r, "complete", json_false());
	ck_assert_int_eq(verdicts_apply(r), EXIT_UNDECIDED);
	ck_assert_str_eq(str_of(json_object_get(r, "summary"), "verdict"), "undecided");
	json_decref(r);

	r = tiny("above", 0.5, 0.9, NULL);
	json_object_set_new(json_object_get(r, "profile"), "expect", json_array());
	json_object_set_new(json_array_get(json_object_get(r, "runs"), 0), "status",
			    json_string("error"));
	json_object_set_new(json_array_get(json_object_get(r, "runs"), 0), "reason",
			    json_string("cannot create the watchdog's socket"));
	ck_assert_int_eq(verdicts_apply(r), EXIT_UNDECIDED);
	s = json_object_get(r, "summary");
	ck_assert_str_eq(str_of(s, "verdict"), "undecided");
	ck_assert_ptr_nonnull(strstr(str_of(s, "warning"), "no repetition completed"));
	json_object_set_new(r, "runs", json_array());	/* killed before the first run */
	ck_assert_int_eq(verdicts_apply(r), EXIT_UNDECIDED);
	json_decref(r);
}
END_TEST

/* Either exact source's losses make a run undecided, with the count, never
 * PASS (issue 33): tracefs's lost events, BPF's lost tasks, and in a
 * format_version 1 result the "bpf" object's. */
START_TEST(an_exact_source_that_lost_anything_makes_a_run_undecided)
{
	json_t *r = tiny("above", 0.5, 0.9, NULL);
	json_t *run = json_array_get(json_object_get(r, "runs"), 0);

	json_object_set_new(run, "exact", json_pack("{s:s, s:i, s:i, s:i, s:f}", "source", "bpf",
		"events", 737000, "lost_events", 0, "lost_tasks", 0, "cpu_s", 0.58));
	ck_assert_int_eq(verdicts_apply(r), EXIT_PASS);
	json_object_set_new(run, "exact", json_pack("{s:s, s:i, s:i, s:i, s:f}", "source", "bpf",
		"events", 737000, "lost_events", 0, "lost_tasks", 3831, "cpu_s", 0.58));
	ck_assert_int_eq(verdicts_apply(r), EXIT_UNDECIDED);
	ck_assert_str_eq(tiny_verdict(r), "undecided");
	ck_assert_str_eq(tiny_reason(r), "the exact source (bpf) lost 0 scheduler events and "
		"3831 tasks (a buffer or table was full): its figures miss stretches");
	json_object_set_new(run, "exact", json_pack("{s:s, s:i, s:i, s:i, s:f}", "source",
		"trace", "events", 52311, "lost_events", 1, "lost_tasks", 0, "cpu_s", 0.01));
	ck_assert_int_eq(verdicts_apply(r), EXIT_UNDECIDED);
	ck_assert_str_eq(tiny_reason(r), "the exact source (trace) lost 1 scheduler event and "
		"0 tasks (a buffer or table was full): its figures miss stretches");
	json_object_del(run, "exact");
	json_object_set_new(run, "bpf", json_pack("{s:i, s:i, s:f}", "events", 737000,
						  "lost_tasks", 2, "cpu_s", 0.58));
	ck_assert_int_eq(verdicts_apply(r), EXIT_UNDECIDED);
	json_decref(r);
}
END_TEST

/* An expectation that only undecided runs judged is no verdict: exit 4, as
 * an undecided comparison, with a warning; 1 with --strict. */
START_TEST(undecided_exits_4_with_a_warning_unless_strict)
{
	json_t *r = unit_load_result("undecided");
	struct verdict_opts strict = { .undecided_fails = true };
	const json_t *s;

	ck_assert_int_eq(verdicts_apply(r), EXIT_UNDECIDED);
	s = json_object_get(r, "summary");
	ck_assert_str_eq(str_of(s, "verdict"), "undecided");
	ck_assert(json_is_string(json_object_get(s, "warning")));
	ck_assert_int_eq(verdicts_apply_opts(r, &strict), EXIT_VERDICT_FAIL);
	ck_assert(json_is_null(json_object_get(json_object_get(r, "summary"), "warning")));
	/* the choice is remembered in the summary and kept by a plain recompute */
	ck_assert_int_eq(verdicts_apply(r), EXIT_VERDICT_FAIL);
	json_decref(r);
}
END_TEST

START_TEST(malformed_results_are_refused)
{
	json_t *r = tiny("sideways", 0.5, 0.5, NULL);

	error_set_sink(capture, NULL);
	ck_assert_int_eq(verdicts_apply(r), -1);
	ck_assert_str_eq(last_msg, "malformed result: profile.expect[0].op: expected one of "
				   "\"below\", \"above\", got \"sideways\"");
	json_object_set_new(json_array_get(json_object_get(json_object_get(r, "profile"), "expect"),
					   0), "op", json_string("below"));
	json_object_set_new(r, "runs", json_string("no"));
	ck_assert_int_eq(verdicts_apply(r), -1);
	ck_assert_str_eq(last_msg, "malformed result: runs: expected an array, got a string");
	error_set_sink(NULL, NULL);
	json_decref(r);
}
END_TEST

/* ---- result.json I/O ---- */

static char tmpdir[256];

static void make_tmpdir(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/starve-test-reports.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void remove_tmpdir(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	char path[512];

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", tmpdir, e->d_name);
			unlink(path);
		}
	if (d)
		closedir(d);
	rmdir(tmpdir);
}

static unsigned count_files(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	unsigned n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static void write_text(const char *name, const char *text, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(result_write_is_atomic_and_reads_back)
{
	json_t *r = unit_load_result("multi"), *back;
	char path[512], why[512];

	make_tmpdir();
	snprintf(path, sizeof(path), "%s/result.json", tmpdir);
	ck_assert_int_eq(result_write(path, r), 0);
	ck_assert_uint_eq(count_files(), 1);	/* no PATH.tmp.<pid> left behind */
	back = result_read(path, why, sizeof(why));
	ck_assert_msg(back != NULL, "%s", why);
	ck_assert(json_equal(r, back));
	json_decref(back);
	/* a directory that does not exist is an error, not a crash */
	error_set_sink(capture, NULL);
	ck_assert_int_eq(result_write("/nonexistent-dir/result.json", r), -1);
	/* the message names the file asked for, not its temporary sibling */
	ck_assert_ptr_nonnull(strstr(last_msg, "'/nonexistent-dir/result.json'"));
	ck_assert_ptr_null(strstr(last_msg, ".tmp."));
	error_set_sink(NULL, NULL);
	json_decref(r);
	remove_tmpdir();
}
END_TEST

START_TEST(result_read_says_where_and_why)
{
	char path[512], why[512], want[600];

	make_tmpdir();
	write_text("bad.json", "{\n  \"format\": \"starve-result\",\n  x\n}\n", path, sizeof(path));
	ck_assert_ptr_null(result_read(path, why, sizeof(why)));
	snprintf(want, sizeof(want), "%s:3:3: invalid JSON: ", path);
	ck_assert_msg(!strncmp(why, want, strlen(want)), "%s", why);

	write_text("foo.json", "{\"format\": \"foo\", \"format_version\": 1}", path, sizeof(path));
	ck_assert_ptr_null(result_read(path, why, sizeof(why)));
	snprintf(want, sizeof(want), "%s: not a starve result (format is 'foo')", path);
	ck_assert_str_eq(why, want);

	write_text("none.json", "{\"runs\": []}", path, sizeof(path));
	ck_assert_ptr_null(result_read(path, why, sizeof(why)));
	snprintf(want, sizeof(want), "%s: not a starve result (no \"format\" key)", path);
	ck_assert_str_eq(why, want);

	write_text("v3.json", "{\"format\": \"starve-result\", \"format_version\": 3}", path,
		   sizeof(path));
	ck_assert_ptr_null(result_read(path, why, sizeof(why)));
	ck_assert_ptr_nonnull(strstr(why, "format version 3 is not supported (this starve reads "
				     "versions 1 to 2)"));
	write_text("v0.json", "{\"format\": \"starve-result\", \"format_version\": 0}", path,
		   sizeof(path));
	ck_assert_ptr_null(result_read(path, why, sizeof(why)));
	ck_assert_ptr_nonnull(strstr(why, "format version 0 is not supported"));

	write_text("dup.json", "{\"format\": \"starve-result\", \"format\": \"x\"}", path,
		   sizeof(path));
	ck_assert_ptr_null(result_read(path, why, sizeof(why)));
	ck_assert_ptr_nonnull(strstr(why, "invalid JSON"));

	snprintf(path, sizeof(path), "%s/missing.json", tmpdir);
	ck_assert_ptr_null(result_read(path, why, sizeof(why)));
	ck_assert_ptr_nonnull(strstr(why, "No such file"));
	remove_tmpdir();
}
END_TEST

/* ---- escaping ---- */

/* Run FN(f, S) into a memory stream and return the text (static buffer). */
static const char *capture_escape(void (*fn)(FILE *, const char *), const char *s)
{
	static char out[512];
	FILE *f = fmemopen(out, sizeof(out), "w");

	fn(f, s);
	fclose(f);
	return out;
}

static void xml_attr_escape(FILE *f, const char *s)
{
	xml_escape(f, s, true);
}

static void xml_text_escape(FILE *f, const char *s)
{
	xml_escape(f, s, false);
}

START_TEST(xml_escapes_markup_quotes_and_control_characters)
{
	ck_assert_str_eq(capture_escape(xml_attr_escape, "a<b>&\"c\"'\n\x01"),
			 "a&lt;b&gt;&amp;&quot;c&quot;&apos;&#10;?");
	ck_assert_str_eq(capture_escape(xml_text_escape, "a<b>&\"c\"\n"),
			 "a&lt;b&gt;&amp;\"c\"\n");
}
END_TEST

START_TEST(xml_writer_nests_and_closes)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct xml_writer w;

	xml_begin(&w, f);
	xml_open(&w, "a");
	xml_attr(&w, "n", "x<y");
	xml_open(&w, "b");
	xml_close(&w);
	xml_open(&w, "c");
	xml_text(&w, "1 & 2");
	xml_close(&w);
	xml_close(&w);
	ck_assert_int_eq(xml_end(&w), 0);
	fclose(f);
	ck_assert_str_eq(buf, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a n=\"x&lt;y\">\n"
			      "  <b/>\n  <c>1 &amp; 2</c>\n</a>\n");
	free(buf);

	/* an element left open is reported */
	f = open_memstream(&buf, &len);
	xml_begin(&w, f);
	xml_open(&w, "a");
	ck_assert_int_eq(xml_end(&w), -1);
	fclose(f);
	free(buf);
}
END_TEST

START_TEST(markdown_and_ktap_escape_their_specials)
{
	ck_assert_str_eq(capture_escape(markdown_escape, "a|b<c>&d_e*[f]`\ng"),
			 "a\\|b\\<c\\>&amp;d\\_e\\*\\[f\\]\\` g");
	ck_assert_str_eq(capture_escape(ktap_escape, "set #1\nnext"), "set _1 next");
}
END_TEST

/* ---- shared pieces of the reports ---- */

/* The index of setting NAME in V's setting order. */
static size_t setting_index(const struct result_view *v, const char *name)
{
	for (size_t i = 0; i < v->n_setting_names; i++)
		if (!strcmp(v->setting_names[i], name))
			return i;
	ck_abort_msg("no setting %s", name);
	return 0;
}

START_TEST(table_cells_show_worst_verdict_and_every_repetition)
{
	struct result_view *v = unit_load_view("multi");
	struct table_grid *g = table_grid_build(v);
	const char *cell;

	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(table_grid_cell(g, 0, setting_index(v, "unthrottled"), &cell),
			 VERDICT_FAIL);
	ck_assert_str_eq(cell, "FAIL 1.02s 5s 4.98s");
	ck_assert_int_eq(table_grid_cell(g, 0, setting_index(v, "throttled"), &cell), VERDICT_PASS);
	ck_assert_str_eq(cell, "PASS 950ms 970ms 960ms");
	/* cpu_share is only expected of the throttled setting */
	ck_assert_int_eq(table_grid_cell(g, 1, setting_index(v, "unthrottled"), &cell), -1);
	ck_assert_str_eq(cell, "-");
	ck_assert_int_eq(v->repetitions, 3);
	table_grid_free(g);
	rv_free(v);
}
END_TEST

/* One formatter for every printed metric value (lib/metric.c). */
START_TEST(values_are_formatted_with_their_units)
{
	char buf[64];

	ck_assert_str_eq(metric_format("starvation_max", 1.31, 3, buf, sizeof(buf)), "1.31s");
	ck_assert_str_eq(metric_format("starvation_max", 5, 3, buf, sizeof(buf)), "5s");
	ck_assert_str_eq(metric_format("starvation_max", 1234.5, 3, buf, sizeof(buf)), "1230s");
	ck_assert_str_eq(metric_format("wakeup_p99", 0.000250, 3, buf, sizeof(buf)), "250us");
	ck_assert_str_eq(metric_format("wakeup_p99", 102.5e-6, 4, buf, sizeof(buf)), "102.5us");
	ck_assert_str_eq(metric_format("wakeup_p99", 3e-8, 3, buf, sizeof(buf)), "30ns");
	ck_assert_str_eq(metric_format("wakeup_p99", 0, 3, buf, sizeof(buf)), "0s");
	/* the unit is chosen after rounding: never "1e+03ms" */
	ck_assert_str_eq(metric_format("starvation_max", 0.9996, 3, buf, sizeof(buf)), "1s");
	ck_assert_str_eq(metric_format("starvation_max", 0.0009996, 3, buf, sizeof(buf)), "1ms");
	ck_assert_str_eq(metric_format("cpu_share", 0.0512, 3, buf, sizeof(buf)), "0.0512");
	ck_assert_str_eq(metric_format("cpu_share", 0.09283, 4, buf, sizeof(buf)), "0.09283");
	ck_assert_str_eq(metric_format("throughput", 1.2e6, 3, buf, sizeof(buf)), "1.2e+06/s");
	ck_assert_str_eq(metric_format("throughput", 84.31, 4, buf, sizeof(buf)), "84.31/s");
	ck_assert_str_eq(metric_format("no_such_metric", 0.5, 3, buf, sizeof(buf)), "0.5");
	ck_assert_str_eq(metric_format("cpu_share", NAN, 3, buf, sizeof(buf)), "-");
}
END_TEST

START_TEST(format_lists_are_checked_before_writing)
{
	struct result_view *r = unit_load_view("fail");

	make_tmpdir();
	error_set_sink(capture, NULL);
	ck_assert_int_eq(reports_write_formats(r, tmpdir, "junit,pdf", NULL), -1);
	ck_assert_ptr_nonnull(strstr(last_msg, "unknown report format 'pdf'"));
	ck_assert_ptr_nonnull(strstr(last_msg, "json, junit, ktap, markdown, table"));
	ck_assert_uint_eq(count_files(), 0);	/* nothing written before the check */
	ck_assert_int_eq(reports_write_formats(r, tmpdir, "junit,,ktap", NULL), -1);
	error_set_sink(NULL, NULL);
	ck_assert_int_eq(reports_write_formats(r, tmpdir, "json,junit,ktap,markdown", NULL), 0);
	ck_assert_uint_eq(count_files(), 4);
	for (const char *const *n = (const char *const[]){ "result.json", "result.xml",
							   "result.ktap", "summary.md", NULL };
	     *n; n++) {
		char path[512];

		snprintf(path, sizeof(path), "%s/%s", tmpdir, *n);
		ck_assert_msg(access(path, F_OK) == 0, "%s not written", *n);
	}
	remove_tmpdir();
	rv_free(r);
}
END_TEST

/* Renaming over a device, a FIFO or a link such as /dev/stdout would
 * replace it with a regular file: such paths are written in place. */
START_TEST(reports_into_links_and_fifos_are_written_in_place)
{
	struct result_view *r = unit_load_view("pass");
	const struct report_format *ktap = report_format_find("ktap");
	char target[512], link[512], fifo[512], got[256] = "";
	struct stat st;
	pid_t child;
	int status;
	FILE *f;

	make_tmpdir();
	write_text("target.txt", "old", target, sizeof(target));
	snprintf(link, sizeof(link), "%s/link", tmpdir);
	ck_assert_int_eq(symlink(target, link), 0);
	ck_assert_int_eq(report_write_file(ktap, r, NULL, link), 0);
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	f = fopen(target, "r");
	ck_assert_ptr_nonnull(fgets(got, sizeof(got), f));
	fclose(f);
	ck_assert_str_eq(got, "KTAP version 1\n");

	snprintf(fifo, sizeof(fifo), "%s/fifo", tmpdir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {	/* reader: exits 0 when the report came through the FIFO */
		alarm(5);	/* never outlive a broken test */
		f = fopen(fifo, "r");
		_exit(f && fgets(got, sizeof(got), f) && !strcmp(got, "KTAP version 1\n") ? 0 : 1);
	}
	ck_assert_int_eq(report_write_file(ktap, r, NULL, fifo), 0);
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_int_eq(lstat(fifo, &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));
	ck_assert_uint_eq(count_files(), 3);	/* no temporary file either */
	remove_tmpdir();
	rv_free(r);
}
END_TEST

static Suite *reports_suite(void)
{
	Suite *s = suite_create("reports");
	TCase *tc = tcase_create("reports");

	tcase_add_test(tc, verdicts_match_the_hand_made_oracles);
	tcase_add_test(tc, fail_reason_names_value_threshold_setting_and_kernel);
	tcase_add_test(tc, thresholds_are_strict_and_ops_point_the_right_way);
	tcase_add_test(tc, a_slow_sampler_makes_passes_undecided_but_failures_stand);
	tcase_add_test(tc, noise_leaves_undecided_only_what_it_could_move_across);
	tcase_add_test(tc, noise_of_unknown_size_leaves_the_verdict_undecided);
	tcase_add_test(tc, interrupted_or_unsampled_runs_are_undecided);
	tcase_add_test(tc, without_expectations_only_skipped_runs_exit_4);
	tcase_add_test(tc, undecided_exits_4_with_a_warning_unless_strict);
	tcase_add_test(tc, pass_needs_a_measurement);
	tcase_add_test(tc, an_exact_source_that_lost_anything_makes_a_run_undecided);
	tcase_add_test(tc, malformed_results_are_refused);
	tcase_add_test(tc, result_write_is_atomic_and_reads_back);
	tcase_add_test(tc, result_read_says_where_and_why);
	tcase_add_test(tc, xml_escapes_markup_quotes_and_control_characters);
	tcase_add_test(tc, xml_writer_nests_and_closes);
	tcase_add_test(tc, markdown_and_ktap_escape_their_specials);
	tcase_add_test(tc, table_cells_show_worst_verdict_and_every_repetition);
	tcase_add_test(tc, values_are_formatted_with_their_units);
	tcase_add_test(tc, format_lists_are_checked_before_writing);
	tcase_add_test(tc, reports_into_links_and_fifos_are_written_in_place);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(reports_suite());
}
