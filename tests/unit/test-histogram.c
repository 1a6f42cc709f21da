/* Unit tests for the log-linear histogram (lib/histogram.c). */
#include "config.h"
#include "lib/histogram.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <stdlib.h>

static struct histogram *new_hist(void)
{
	struct histogram *h = malloc(sizeof(*h));

	ck_assert_ptr_nonnull(h);
	hist_init(h);
	return h;
}

START_TEST(small_values_have_exact_buckets)
{
	for (uint64_t v = 0; v < 64; v++) {
		ck_assert_uint_eq(hist_bucket_of(v), v);
		ck_assert_uint_eq(hist_bucket_lower((unsigned)v), v);
		ck_assert_uint_eq(hist_bucket_upper((unsigned)v), v);
	}
}
END_TEST

START_TEST(buckets_are_contiguous_and_narrow)
{
	for (unsigned i = 0; i + 1 < HIST_BUCKETS; i++) {
		uint64_t lo = hist_bucket_lower(i), hi = hist_bucket_upper(i);

		ck_assert_uint_eq(hist_bucket_lower(i + 1), hi + 1);
		ck_assert_uint_eq(hist_bucket_of(lo), i);
		ck_assert_uint_eq(hist_bucket_of(hi), i);
		/* width never more than 1/32 of the lower bound */
		if (lo >= 64)
			ck_assert_uint_le((hi - lo + 1) * 32, lo);
	}
}
END_TEST

START_TEST(huge_values_clamp_to_last_bucket)
{
	struct histogram *h = new_hist();

	hist_record(h, UINT64_MAX / 4);
	ck_assert_uint_eq(h->buckets[HIST_BUCKETS - 1], 1);
	ck_assert_uint_eq(hist_percentile(h, 50), UINT64_MAX / 4);
	free(h);
}
END_TEST

START_TEST(percentiles_of_uniform_values)
{
	struct histogram *h = new_hist();

	for (uint64_t v = 1; v <= 100000; v++)
		hist_record(h, v * 1000);	/* 1us .. 100ms */
	ck_assert_uint_eq(h->count, 100000);
	ck_assert_uint_eq(h->min, 1000);
	ck_assert_uint_eq(h->max, 100000000);
	/* within the bucket precision (3.1%) of the true value */
	ck_assert_double_eq_tol((double)hist_percentile(h, 50), 50e6, 50e6 * 0.032);
	ck_assert_double_eq_tol((double)hist_percentile(h, 99), 99e6, 99e6 * 0.032);
	ck_assert_double_eq_tol((double)hist_percentile(h, 99.9), 99.9e6, 99.9e6 * 0.032);
	ck_assert_uint_eq(hist_percentile(h, 100), 100000000);
	ck_assert_double_eq_tol(hist_mean(h), 50.0005e6, 1);
	free(h);
}
END_TEST

START_TEST(merge_adds_counts_and_extremes)
{
	struct histogram *a = new_hist(), *b = new_hist();

	hist_record(a, 10);
	hist_record_n(b, 5000, 3);
	hist_merge(a, b);
	ck_assert_uint_eq(a->count, 4);
	ck_assert_uint_eq(a->min, 10);
	ck_assert_uint_eq(a->max, 5000);
	ck_assert_uint_eq(a->sum, 15010);
	ck_assert_uint_eq(hist_count_above(a, 1000), 3);
	ck_assert_uint_eq(hist_count_above(a, 5000), 0);
	free(a);
	free(b);
}
END_TEST

START_TEST(empty_histogram_reports_zero)
{
	struct histogram *h = new_hist();

	ck_assert_uint_eq(hist_percentile(h, 99), 0);
	ck_assert_double_eq(hist_mean(h), 0);
	free(h);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("histogram");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, small_values_have_exact_buckets);
	tcase_add_test(tc, buckets_are_contiguous_and_narrow);
	tcase_add_test(tc, huge_values_clamp_to_last_bucket);
	tcase_add_test(tc, percentiles_of_uniform_values);
	tcase_add_test(tc, merge_adds_counts_and_extremes);
	tcase_add_test(tc, empty_histogram_reports_zero);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
