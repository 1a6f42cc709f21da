/* Unit tests for the fleet reports: the names KCIDB and LAVA see
 * (reports/format/fleet.c), the status words of each, shell quoting in the LAVA
 * script, the checks of --kcidb-origin and --kcidb-build-id, and a partial
 * result as a whole. The documents themselves are checked against
 * independent oracles by tests/integration/report-kcidb.sh and
 * report-lava.sh. */
#include "config.h"
#include "lib/error.h"
#include "reports/format/fleet.h"
#include "reports/format/kcidb.h"
#include "reports/format/lava.h"
#include "reports/result/outcome.h"
#include "reports/result/verdict.h"

#include "tests/unit/unit.h"
#include "tests/unit/unit-results.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char last_msg[1024];

static void capture(const char *msg, void *data)
{
	(void)data;
	snprintf(last_msg, sizeof(last_msg), "%s", msg);
}

START_TEST(a_word_keeps_only_what_paths_and_case_names_allow)
{
	char buf[16];

	ck_assert_str_eq(fleet_word("rt-throttle_2", buf, sizeof(buf)), "rt-throttle_2");
	ck_assert_str_eq(fleet_word("a b.c/d#é", buf, sizeof(buf)), "a_b_c_d___");
	ck_assert_str_eq(fleet_word("", buf, sizeof(buf)), "_");
	ck_assert_str_eq(fleet_word(NULL, buf, sizeof(buf)), "_");
	ck_assert_str_eq(fleet_word("0123456789abcdefXYZ", buf, sizeof(buf)), "0123456789abcde");
}
END_TEST

/* One run of load "victim" (cpu_share VALUE) per repetition in REPS, judged
 * against the expectations OPS[i] THRESHOLDS[i] on cpu_share, then viewed. */
static struct result_view *judged(const char *const *ops, const double *thresholds, size_t n,
				  int reps)
{
	json_t *r = unit_minimal_result("6.18.44", "names", "a");
	struct result_view *v;
	json_t *expect = json_object_get(json_object_get(r, "profile"), "expect");

	for (size_t i = 0; i < n; i++)
		json_array_append_new(expect, json_pack("{s:s, s:s, s:s, s:f}", "load", "victim",
							"metric", "cpu_share", "op", ops[i],
							"threshold", thresholds[i]));
	json_array_append_new(expect, json_pack("{s:s, s:s, s:s, s:f}", "load", "victim", "metric",
						"starvation_max", "op", "below", "threshold", 1.0));
	for (int rep = 0; rep < reps; rep++)
		json_array_append_new(json_object_get(r, "runs"),
				      json_pack("{s:s, s:i, s:s, s:n, s:{s:f, s:f}, s:[{s:s, s:{s:f}}],"
						" s:[]}", "setting", "a", "repetition", rep, "status",
						"ok", "reason", "sampler", "target_hz", 250.0,
						"achieved_hz", 250.0, "loads", "name", "victim",
						"metrics", "cpu_share", 0.05, "verdicts"));
	ck_assert_int_ge(verdicts_apply(r), 0);
	v = unit_view_of(r);
	json_decref(r);		/* the view holds its own reference */
	return v;
}

static const char *name_of(const struct result_view *v, size_t run, size_t verdict, bool rep)
{
	static char buf[FLEET_NAME_MAX];

	ck_assert_uint_lt(run, v->n_runs);
	ck_assert_uint_lt(verdict, v->runs[run].n_verdicts);
	return fleet_case_name(v, &v->runs[run], &v->runs[run].verdicts[verdict], rep, buf,
			       sizeof(buf));
}

START_TEST(case_names_say_the_op_only_where_a_metric_has_two_expectations)
{
	static const char *const ops[] = { "above", "above", "below" };
	static const double thresholds[] = { 0.04, 0.9, 0.5 };
	struct result_view *v = judged(ops, thresholds, 3, 1);

	ck_assert_str_eq(name_of(v, 0, 0, true), "victim.cpu_share.above");
	ck_assert_str_eq(name_of(v, 0, 1, true), "victim.cpu_share.above-2");
	ck_assert_str_eq(name_of(v, 0, 2, true), "victim.cpu_share.below");
	ck_assert_str_eq(name_of(v, 0, 3, true), "victim.starvation_max");
	rv_free(v);

	v = judged(ops, thresholds, 1, 1);
	ck_assert_str_eq(name_of(v, 0, 0, true), "victim.cpu_share");
	rv_free(v);
}
END_TEST

START_TEST(repetitions_show_in_lava_names_but_not_in_kcidb_paths)
{
	static const char *const ops[] = { "above" };
	static const double thresholds[] = { 0.04 };
	struct result_view *v = judged(ops, thresholds, 1, 2);

	ck_assert_str_eq(name_of(v, 0, 0, true), "victim.cpu_share.rep1");
	ck_assert_str_eq(name_of(v, 1, 0, true), "victim.cpu_share.rep2");
	ck_assert_str_eq(name_of(v, 1, 0, false), "victim.cpu_share");
	rv_free(v);
}
END_TEST

START_TEST(statuses_are_the_outcomes_words)
{
	ck_assert_str_eq(kcidb_status(OUTCOME_PASS), "PASS");
	ck_assert_str_eq(kcidb_status(OUTCOME_FAIL), "FAIL");
	ck_assert_str_eq(kcidb_status(OUTCOME_SKIP), "SKIP");
	ck_assert_str_eq(lava_result(OUTCOME_PASS), "pass");
	ck_assert_str_eq(lava_result(OUTCOME_FAIL), "fail");
	ck_assert_str_eq(lava_result(OUTCOME_SKIP), "skip");
}
END_TEST

/* Undecided is a skip, or a failure under --strict; the result as a whole
 * is its exit code, interrupted or not (the summary says it was): 4, no
 * verdict, for a result whose expectations only undecided runs judged. */
START_TEST(undecided_is_a_skip_or_under_strict_a_failure)
{
	struct result_view *v = unit_load_view("undecided");
	char buf[256];

	ck_assert_int_eq(outcome_of(v, VERDICT_UNDECIDED), OUTCOME_SKIP);
	ck_assert_int_eq(outcome_of(v, VERDICT_SKIP), OUTCOME_SKIP);
	ck_assert_int_eq(outcome_of(v, VERDICT_FAIL), OUTCOME_FAIL);
	ck_assert_int_eq(outcome_of_result(v), OUTCOME_SKIP);
	*(bool *)&v->summary.undecided_fails = true;	/* the view is read-only; a test may pretend */
	*(int *)&v->summary.exit_code = 1;
	ck_assert_int_eq(outcome_of(v, VERDICT_UNDECIDED), OUTCOME_FAIL);
	ck_assert_int_eq(outcome_of_result(v), OUTCOME_FAIL);
	rv_free(v);
	v = unit_load_view("pass");
	ck_assert_str_eq(fleet_run_summary(v, buf, sizeof(buf)),
			 "starve rt-throttle: 2 pass, 0 fail, 0 skip, 0 undecided");
	*(bool *)&v->complete = false;
	ck_assert(strstr(fleet_run_summary(v, buf, sizeof(buf)), "(interrupted: a partial result)"));
	rv_free(v);
}
END_TEST

START_TEST(lava_quotes_every_byte_into_one_shell_word)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	lava_quote(f, "it's $HOME `x`\n\"y\"");
	fclose(f);
	ck_assert_str_eq(text, "'it'\\''s $HOME `x` \"y\"'");
	free(text);
}
END_TEST

static int params_check(const char *origin, const char *build_id)
{
	struct report_params p = { origin, build_id };

	last_msg[0] = '\0';
	return kcidb_params_check(&p);
}

START_TEST(kcidb_ids_follow_the_schemas_patterns)
{
	error_set_sink(capture, NULL);
	ck_assert_int_eq(params_check(NULL, NULL), 0);
	ck_assert_int_eq(params_check("my_lab2", "maestro:6694c11d"), 0);
	ck_assert_int_eq(params_check("lab", "kernelci:any text: even spaces"), 0);
	ck_assert_int_eq(params_check("My-Lab", NULL), -1);
	ck_assert(strstr(last_msg, "--kcidb-origin 'My-Lab'"));
	ck_assert_int_eq(params_check("", NULL), -1);
	ck_assert_int_eq(params_check(NULL, "6694c11d"), -1);
	ck_assert(strstr(last_msg, "--kcidb-build-id '6694c11d'"));
	ck_assert_int_eq(params_check(NULL, ":1"), -1);
	ck_assert_int_eq(params_check(NULL, "Maestro:1"), -1);
	error_set_sink(NULL, NULL);
}
END_TEST

static Suite *fleet_suite(void)
{
	Suite *s = suite_create("fleet");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, a_word_keeps_only_what_paths_and_case_names_allow);
	tcase_add_test(tc, case_names_say_the_op_only_where_a_metric_has_two_expectations);
	tcase_add_test(tc, repetitions_show_in_lava_names_but_not_in_kcidb_paths);
	tcase_add_test(tc, statuses_are_the_outcomes_words);
	tcase_add_test(tc, undecided_is_a_skip_or_under_strict_a_failure);
	tcase_add_test(tc, lava_quotes_every_byte_into_one_shell_word);
	tcase_add_test(tc, kcidb_ids_follow_the_schemas_patterns);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(fleet_suite());
}
