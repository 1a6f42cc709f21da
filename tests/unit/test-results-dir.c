/* Unit tests for results folders (reports/result/results-dir.c) and the
 * looks that read them (reports/compare/compare-looks.c): every result.json
 * in a folder and up to two levels below is read through the view, one
 * that is not a result is skipped with a warning naming it and counted, a
 * result named by itself must be one, the looks of one profile are one
 * result, and a judgement on fewer results than were found says so. */
#include "config.h"
#include "lib/error.h"
#include "lib/fsutil.h"
#include "reports/compare/compare-looks.h"
#include "reports/result/results-dir.h"

#include "tests/unit/unit.h"
#include "tests/unit/unit-results.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static char top[] = "/tmp/test-results-dir.XXXXXX";
static char said[8192];		/* every message, one a line */

static void collect(const char *msg, void *data)
{
	(void)data;
	snprintf(said + strlen(said), sizeof(said) - strlen(said), "%s\n", msg);
}

static void setup(void)
{
	strcpy(top, "/tmp/test-results-dir.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(top));
	said[0] = '\0';
	error_set_sink(collect, NULL);
}

static void teardown(void)
{
	error_set_sink(NULL, NULL);
	fs_remove_tree(top);
}

/* TOP/SUB/result.json (static buffer). */
static const char *path_of(const char *sub)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s/result.json", top, sub);
	return path;
}

static void make_dir_of(const char *sub)
{
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/%s", top, sub);
	ck_assert_int_eq(fs_mkdirs(dir), 0);
}

/* A result of profile "p" with RUNS ok runs of load "l" (cpu_share about
 * VALUE) as TOP/SUB/result.json. */
static void write_result(const char *sub, int runs, double value)
{
	json_t *r = unit_minimal_result("6.1.0", "p", "default");

	for (int i = 0; i < runs; i++)
		json_array_append_new(json_object_get(r, "runs"),
				      json_pack("{s:s, s:i, s:s, s:n, s:{s:i, s:i}, s:[{s:s, s:{s:f}}],"
						" s:[]}", "setting", "default", "repetition", i,
						"status", "ok", "reason", "sampler", "target_hz", 250,
						"achieved_hz", 250, "loads", "name", "l", "metrics",
						"cpu_share", value * (1 + 0.01 * i), "verdicts"));
	make_dir_of(sub);
	ck_assert_int_eq(result_write(path_of(sub), r), 0);
	json_decref(r);
}

/* TOP/SUB/result.json cut short: not a result. */
static void write_broken(const char *sub)
{
	make_dir_of(sub);
	unit_write_file(path_of(sub), "{\"format\": \"starve-result\", ");
}

START_TEST(a_folder_is_read_two_levels_down_and_says_what_it_skipped)
{
	struct results r = { .n = 0 };

	write_result("a", 2, 0.5);
	write_result("b/c", 2, 0.5);
	write_broken("x");
	write_result("d/e/f", 2, 0.5);	/* three levels below: not a result of TOP */
	ck_assert_int_eq(results_add(&r, top), 3);
	ck_assert_uint_eq(r.n, 2);
	ck_assert_uint_eq(r.skipped, 1);
	ck_assert_str_eq(r.v[0]->file, path_of("a"));
	ck_assert_str_eq(r.v[1]->file, path_of("b/c"));
	ck_assert_msg(strstr(said, "skipped ") && strstr(said, path_of("x")),
		      "the skipped file is not named: %s", said);
	results_free(&r);
}
END_TEST

START_TEST(a_result_named_by_itself_must_be_one)
{
	struct results r = { .n = 0 };
	char missing[512];

	write_broken("x");
	ck_assert_int_eq(results_add(&r, path_of("x")), -1);
	ck_assert_uint_eq(r.skipped, 0);
	ck_assert_msg(strstr(said, path_of("x")) && !strstr(said, "skipped"), "%s", said);
	snprintf(missing, sizeof(missing), "%s/none.json", top);
	ck_assert_int_eq(results_add(&r, missing), -1);
	ck_assert_uint_eq(r.n, 0);
}
END_TEST

/* Two looks of profile p are one result with all four runs; a third look
 * that is not a result is skipped, counted and named. */
START_TEST(looks_merge_by_profile_and_count_what_they_skipped)
{
	const char *dirs[3];
	char d[3][512];
	struct looks_results r;

	write_result("l1", 2, 0.5);
	write_result("l2", 2, 0.5);
	write_broken("l3");
	for (int i = 0; i < 3; i++) {
		snprintf(d[i], sizeof(d[i]), "%s/l%d", top, i + 1);
		dirs[i] = d[i];
	}
	looks_collect(dirs, 3, &r);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_uint_eq(r.v[0]->n_runs, 4);
	ck_assert_int_eq(r.v[0]->runs[3].repetition, 3);
	ck_assert_uint_eq(r.skipped, 1);
	ck_assert_ptr_nonnull(strstr(said, path_of("l3")));
	looks_results_free(&r);
}
END_TEST

/* A side judged on its readable looks only says how many it skipped. */
START_TEST(a_judgement_says_how_many_results_it_skipped)
{
	char base[512], l2[512], l3[512], figure[400];
	const char *b = base, *dirs[2] = { l2, l3 };
	struct looks_rule rule = { .alpha = 0.05 };

	write_result("l1", 3, 0.5);
	write_result("l2", 3, 0.5);
	write_broken("l3");
	snprintf(base, sizeof(base), "%s/l1", top);
	snprintf(l2, sizeof(l2), "%s/l2", top);
	snprintf(l3, sizeof(l3), "%s/l3", top);
	looks_judge(&(struct looks_sides){ &b, 1, dirs, 2 }, &rule, figure, sizeof(figure));
	ck_assert_msg(strstr(figure, "; 1 result skipped (see the warnings)"), "%s", figure);
	looks_judge(&(struct looks_sides){ &b, 1, dirs, 1 }, &rule, figure, sizeof(figure));
	ck_assert_msg(!strstr(figure, "skipped"), "%s", figure);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("results-dir");
	TCase *tc = tcase_create("results-dir");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, a_folder_is_read_two_levels_down_and_says_what_it_skipped);
	tcase_add_test(tc, a_result_named_by_itself_must_be_one);
	tcase_add_test(tc, looks_merge_by_profile_and_count_what_they_skipped);
	tcase_add_test(tc, a_judgement_says_how_many_results_it_skipped);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
