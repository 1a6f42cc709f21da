/* Unit tests for BPF mode's pure parts (harness/bpf/): the wait buckets the
 * program and the controller share (sched-bpf.h) and their conversion into
 * the project's histogram (bpf-hist.c). No BPF needed. */
#include "config.h"
#include "harness/bpf/bpf-sched.h"

#include "tests/unit/unit.h"

#include <check.h>

START_TEST(every_wait_lands_in_the_bucket_that_covers_it)
{
	unsigned long long v;

	for (v = 0; v < 100000; v += 1 + v / 7) {
		unsigned b = sb_bucket(v);

		ck_assert_uint_lt(b, SB_BUCKETS);
		ck_assert_uint_le(bpfsched_bucket_lower(b), v);
		ck_assert_uint_gt(bpfsched_bucket_lower(b + 1), v);
	}
	/* buckets grow with the value and are at most a quarter of it wide */
	for (unsigned b = 4; b + 1 < SB_BUCKETS; b++) {
		ck_assert_uint_gt(bpfsched_bucket_lower(b + 1), bpfsched_bucket_lower(b));
		ck_assert_uint_le(4 * (bpfsched_bucket_lower(b + 1) - bpfsched_bucket_lower(b)),
				  bpfsched_bucket_lower(b));
	}
	ck_assert_uint_eq(sb_bucket(1ULL << 50), SB_BUCKETS - 1);
}
END_TEST

START_TEST(buckets_become_a_histogram_bounded_by_the_longest_wait)
{
	unsigned int buckets[SB_BUCKETS] = { 0 };
	struct histogram h;

	buckets[sb_bucket(1000)] = 90;		/* 1 us waits */
	buckets[sb_bucket(20000000)] = 10;	/* 20 ms waits */
	bpfsched_hist(buckets, 20000000, &h);
	ck_assert_uint_eq(h.count, 100);
	ck_assert_uint_le(h.max, 20000000);	/* never above the exact longest */
	ck_assert_uint_ge(hist_percentile(&h, 50), 1000 * 3 / 4);
	ck_assert_uint_le(hist_percentile(&h, 50), 1000 * 5 / 4);
	ck_assert_uint_ge(hist_percentile(&h, 99), 20000000 * 3 / 4);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bpf");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, every_wait_lands_in_the_bucket_that_covers_it);
	tcase_add_test(tc, buckets_become_a_histogram_bounded_by_the_longest_wait);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
