/* Unit tests for the sched features knob (harness/kernel/knob-features.c): the
 * restore value is each written feature's current state, found by whole
 * token; unknown or malformed features are refused with the name; token
 * lists are written one per write, also by the journal's restore paths.
 * The features file is a stand-in in a temp dir: nothing live is written. */
#include "config.h"
#include "harness/kernel/journal.h"
#include "harness/kernel/knob-features.h"
#include "lib/error.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Shaped like 6.18's list: PLACE_LAG next to names that contain it. */
#define LIST "PLACE_LAG NO_PLACE_LAG_X PLACE_DEADLINE_INITIAL RUN_TO_PARITY " \
	"NO_NEXT_BUDDY CACHE_HOT_BUDDY NO_HRTICK WAKEUP_PREEMPTION\n"

static char tmpdir[64], features[96], state[96];

static void quiet(const char *msg, void *data)
{
	(void)msg;
	(void)data;
}

static void setup(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/starve-kfeat-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	snprintf(features, sizeof(features), "%s/features", tmpdir);
	snprintf(state, sizeof(state), "%s/state", tmpdir);
	error_set_sink(quiet, NULL);
}

static void teardown(void)
{
	char cmd[128];

	error_set_sink(NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(only_the_features_knob_takes_token_lists)
{
	ck_assert(kfeat_is_knob("debugfs:sched/features"));
	ck_assert(!kfeat_is_knob("debugfs:sched/features2"));
	ck_assert(!kfeat_is_knob("kernel.sched_rt_runtime_us"));
	ck_assert(!kfeat_is_knob(NULL));
}
END_TEST

START_TEST(the_restore_value_is_each_features_current_state)
{
	char out[128], why[128];

	ck_assert_int_eq(kfeat_restore_value(LIST, "NO_RUN_TO_PARITY", out, sizeof(out), why,
					     sizeof(why)), 0);
	ck_assert_str_eq(out, "RUN_TO_PARITY");
	ck_assert_int_eq(kfeat_restore_value(LIST, "NEXT_BUDDY", out, sizeof(out), why,
					     sizeof(why)), 0);
	ck_assert_str_eq(out, "NO_NEXT_BUDDY");
	/* Writing a feature's current state still journals that state. */
	ck_assert_int_eq(kfeat_restore_value(LIST, "NO_HRTICK", out, sizeof(out), why,
					     sizeof(why)), 0);
	ck_assert_str_eq(out, "NO_HRTICK");
}
END_TEST

START_TEST(several_features_give_one_restore_token_each_in_order)
{
	char out[128], why[128];

	ck_assert_int_eq(kfeat_restore_value(LIST, " NO_RUN_TO_PARITY  NO_PLACE_LAG NEXT_BUDDY ",
					     out, sizeof(out), why, sizeof(why)), 0);
	ck_assert_str_eq(out, "RUN_TO_PARITY PLACE_LAG NO_NEXT_BUDDY");
}
END_TEST

START_TEST(features_are_matched_by_whole_token)
{
	char out[128], why[128];

	/* PLACE_LAG_X is its own feature (off); PLACE_LAG is on. */
	ck_assert_int_eq(kfeat_restore_value(LIST, "PLACE_LAG_X", out, sizeof(out), why,
					     sizeof(why)), 0);
	ck_assert_str_eq(out, "NO_PLACE_LAG_X");
	ck_assert_int_eq(kfeat_restore_value(LIST, "NO_PLACE_LAG", out, sizeof(out), why,
					     sizeof(why)), 0);
	ck_assert_str_eq(out, "PLACE_LAG");
	ck_assert_int_eq(kfeat_restore_value(LIST, "PLACE", out, sizeof(out), why,
					     sizeof(why)), -1);
	ck_assert_str_eq(why, "no sched feature PLACE on this kernel");
}
END_TEST

START_TEST(unknown_and_malformed_features_are_refused_with_the_token)
{
	char out[128], why[128];

	ck_assert_int_eq(kfeat_restore_value(LIST, "RUN_TO_PARITY NO_GENTLE_FAIR_SLEEPERS", out,
					     sizeof(out), why, sizeof(why)), -1);
	ck_assert_str_eq(why, "no sched feature GENTLE_FAIR_SLEEPERS on this kernel");
	ck_assert_int_eq(kfeat_restore_value(LIST, "run_to_parity", out, sizeof(out), why,
					     sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "'run_to_parity' is not a feature token"));
	ck_assert_int_eq(kfeat_restore_value(LIST, "NO_", out, sizeof(out), why,
					     sizeof(why)), -1);
	ck_assert_int_eq(kfeat_restore_value(LIST, "  ", out, sizeof(out), why, sizeof(why)),
			 -1);
	ck_assert_str_eq(why, "no feature given (write X or NO_X)");
	/* No room: refused, never truncated into a wrong restore value. */
	ck_assert_int_eq(kfeat_restore_value(LIST, "NO_RUN_TO_PARITY", out, 10, why,
					     sizeof(why)), -1);
}
END_TEST

START_TEST(the_list_is_read_whole_from_the_file)
{
	char out[128], why[256], list[1024] = "";

	/* Longer than a knob_state value (256): the feature sits past it. */
	for (int i = 0; i < 40; i++)
		strcat(list, "SOME_FEATURE ");
	strcat(list, "NO_TTWU_QUEUE\n");
	unit_write_file(features, list);
	ck_assert_int_eq(kfeat_restore_value_at(features, "TTWU_QUEUE", out, sizeof(out), why,
						sizeof(why)), 0);
	ck_assert_str_eq(out, "NO_TTWU_QUEUE");
	unlink(features);
	ck_assert_int_eq(kfeat_restore_value_at(features, "TTWU_QUEUE", out, sizeof(out), why,
						sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "No such file"));
}
END_TEST

START_TEST(tokens_are_written_one_per_write)
{
	unit_write_file(features, "");
	ck_assert_int_eq(kfeat_write_tokens(features, "NO_RUN_TO_PARITY NO_PLACE_LAG"), 0);
	/* Separate lines: two writes; one write would give "A B\n". */
	ck_assert_str_eq(unit_read_file(features), "NO_RUN_TO_PARITY\nNO_PLACE_LAG\n");
	ck_assert_int_ne(kfeat_write_tokens(features, ""), 0);
	unlink(features);
	ck_assert_int_ne(kfeat_write_tokens(features, "X"), 0);
}
END_TEST

START_TEST(the_journal_restores_features_one_per_write)
{
	struct journal *j = calloc(1, sizeof(*j));

	ck_assert_ptr_nonnull(j);
	unit_write_file(features, "");
	ck_assert_int_eq(journal_open(j, state), 0);
	ck_assert_int_eq(journal_record_path(j, KFEAT_KNOB, features,
					     "RUN_TO_PARITY PLACE_LAG"), 0);
	ck_assert_int_eq(journal_restore_all(j), 0);
	ck_assert_str_eq(unit_read_file(features), "RUN_TO_PARITY\nPLACE_LAG\n");
	ck_assert_uint_eq(j->n, 0);

	unit_write_file(features, "");
	ck_assert_int_eq(journal_record_path(j, KFEAT_KNOB, features, "NO_NEXT_BUDDY HRTICK"), 0);
	ck_assert_int_eq(journal_restore_from_signal(j), 0);
	ck_assert_str_eq(unit_read_file(features), "NO_NEXT_BUDDY\nHRTICK\n");
	ck_assert_int_eq(access(j->file, F_OK), -1);
	free(j);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("knob-features");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, only_the_features_knob_takes_token_lists);
	tcase_add_test(tc, the_restore_value_is_each_features_current_state);
	tcase_add_test(tc, several_features_give_one_restore_token_each_in_order);
	tcase_add_test(tc, features_are_matched_by_whole_token);
	tcase_add_test(tc, unknown_and_malformed_features_are_refused_with_the_token);
	tcase_add_test(tc, the_list_is_read_whole_from_the_file);
	tcase_add_test(tc, tokens_are_written_one_per_write);
	tcase_add_test(tc, the_journal_restores_features_one_per_write);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
