/* Unit tests for the metric registry (lib/metric.c): every id names its
 * own row, every metric has a source, the sampler's figures exact mode
 * replaces are kept under registered names that only the sampler gives. */
#include "config.h"
#include "lib/metric.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <string.h>

START_TEST(every_id_names_its_row_and_finds_it_back)
{
	ck_assert_uint_eq(metric_count, METRIC_N);
	for (int id = 0; id < METRIC_N; id++) {
		const char *name = metric_name((enum metric_id)id);

		ck_assert_ptr_nonnull(name);
		ck_assert_ptr_eq(metric_find(name), &metric_table[id]);
		ck_assert_msg(metric_table[id].sources != 0, "%s has no source", name);
		ck_assert_ptr_nonnull(metric_table[id].help);
	}
	ck_assert_str_eq(metric_name(MET_STARVATION_MAX), "starvation_max");
}
END_TEST

START_TEST(the_sampler_figure_exact_mode_replaces_is_kept_under_its_own_name)
{
	int kept = 0;

	for (int id = 0; id < METRIC_N; id++) {
		enum metric_id as = metric_sampler_kept_as((enum metric_id)id);

		if (as == METRIC_N)
			continue;
		kept++;
		ck_assert(metric_table[id].sources & METRIC_FROM_SAMPLER);
		ck_assert_uint_eq(metric_table[as].sources, METRIC_FROM_SAMPLER);
		ck_assert_int_eq(metric_table[as].unit, metric_table[id].unit);
	}
	ck_assert_int_eq(metric_sampler_kept_as(MET_STARVATION_MAX), MET_STARVATION_MAX_SAMPLER);
	ck_assert_int_eq(kept, 2);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("metric");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, every_id_names_its_row_and_finds_it_back);
	tcase_add_test(tc, the_sampler_figure_exact_mode_replaces_is_kept_under_its_own_name);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
