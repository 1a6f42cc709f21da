/* Unit tests for the bootstrap of `starve compare` (reports/compare/resample.c) and
 * the intervals of reports/compare/stats.c: the block length follows the
 * autocorrelation, identical sides are no change, a clear shift is found with
 * one run a side, an interval covers the true change at about its level, the
 * events of a histogram give the maximum's change, and the same input gives
 * the same answer. */
#include "config.h"
#include "reports/compare/resample.h"
#include "reports/compare/stats.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* A reproducible AR(1) series: x[i] = mean + phi * (x[i-1] - mean) + noise. */
static void ar1(double *x, size_t n, double mean, double phi, double sd, unsigned seed)
{
	double prev = 0;

	srand(seed);
	for (size_t i = 0; i < n; i++) {
		double u1 = (rand() + 1.0) / (RAND_MAX + 2.0), u2 = (rand() + 1.0) / (RAND_MAX + 2.0);
		double e = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2) * sd;

		prev = phi * prev + e;
		x[i] = mean + prev;
	}
}

START_TEST(block_length_follows_autocorrelation)
{
	double white[200], sticky[200], flat[50];

	ar1(white, 200, 1, 0, 0.1, 1);
	ar1(sticky, 200, 1, 0.9, 0.1, 1);
	for (size_t i = 0; i < 50; i++)
		flat[i] = 0.5;
	/* n^(1/3) for independent windows; much longer when they depend */
	ck_assert_uint_le(rs_block_length(white, 200), 8);
	ck_assert_uint_ge(rs_block_length(sticky, 200), 12);
	ck_assert_uint_eq(rs_block_length(flat, 50), 4);
	ck_assert_uint_eq(rs_block_length(flat, 3), 1);
}
END_TEST

START_TEST(identical_sides_are_no_change)
{
	double x[40];
	struct rs_obs o = { .x = x, .n = 40 };
	struct rs_result r;

	ar1(x, 40, 0.5, 0.3, 0.05, 2);
	ck_assert_int_eq(rs_compare(&(struct rs_side){ &o, 1 }, &(struct rs_side){ &o, 1 }, 0.05,
				    &r), 0);
	ck_assert_double_eq(r.change_pct, 0);
	ck_assert(r.lo_pct < 0 && r.hi_pct > 0);
	ck_assert(r.p > 0.5);
}
END_TEST

/* One run a side, cpu_share 1.0 against 0.5 with noise: decided. */
START_TEST(one_run_a_side_finds_a_clear_shift)
{
	double a[20], b[20];
	struct rs_obs oa = { .x = a, .n = 20 }, ob = { .x = b, .n = 20 };
	struct rs_result r, again;

	ar1(a, 20, 1.0, 0.2, 0.02, 3);
	ar1(b, 20, 0.5, 0.2, 0.02, 4);
	ck_assert_int_eq(rs_compare(&(struct rs_side){ &oa, 1 }, &(struct rs_side){ &ob, 1 }, 0.05,
				    &r), 0);
	ck_assert(r.change_pct < -45 && r.change_pct > -55);
	ck_assert(r.lo_pct < r.change_pct && r.hi_pct > r.change_pct && r.hi_pct < -40);
	ck_assert(r.p < 0.001);
	/* the seed is fixed: the same input, the same interval */
	rs_compare(&(struct rs_side){ &oa, 1 }, &(struct rs_side){ &ob, 1 }, 0.05, &again);
	ck_assert_double_eq(r.lo_pct, again.lo_pct);
	ck_assert_double_eq(r.hi_pct, again.hi_pct);
}
END_TEST

/* Three runs a side that disagree among themselves: the spread between runs
 * widens the interval, so a change within it is not significant. */
START_TEST(spread_between_runs_counts)
{
	double x[6][30];
	struct rs_obs o[6];
	struct rs_result r;
	const double mean[6] = { 0.5, 0.8, 0.6, 0.55, 0.75, 0.7 };

	for (size_t i = 0; i < 6; i++) {
		ar1(x[i], 30, mean[i], 0.2, 0.01, 10 + (unsigned)i);
		o[i] = (struct rs_obs){ .x = x[i], .n = 30 };
	}
	ck_assert_int_eq(rs_compare(&(struct rs_side){ o, 3 }, &(struct rs_side){ o + 3, 3 }, 0.05,
				    &r), 0);
	ck_assert(r.lo_pct < 0 && r.hi_pct > 0);
	ck_assert(r.p > 0.05);
}
END_TEST

/* Histograms: the maximum of 100 gaps around 2 ms against 100 around 20 us. */
START_TEST(events_give_the_maximum)
{
	const double xa[] = { 18e-6, 20e-6, 25e-6 }, ca[] = { 30, 90, 100 };
	const double xb[] = { 1.5e-3, 2e-3, 6e-3 }, cb[] = { 40, 99, 100 };
	struct rs_obs oa = { .x = xa, .cum = ca, .n = 3, .q = 1 };
	struct rs_obs ob = { .x = xb, .cum = cb, .n = 3, .q = 1 };
	struct rs_result r;

	ck_assert_int_eq(rs_compare(&(struct rs_side){ &oa, 1 }, &(struct rs_side){ &ob, 1 }, 0.05,
				    &r), 0);
	ck_assert_double_eq_tol(r.change_pct, (6e-3 - 25e-6) / 25e-6 * 100, 1e-6);
	ck_assert(r.lo_pct > 1000);
	ck_assert(r.p < 0.01);
	ck_assert_uint_eq(r.block, 0);
	/* a side without observations cannot be tested */
	oa.n = 0;
	ck_assert_int_eq(rs_compare(&(struct rs_side){ &oa, 1 }, &(struct rs_side){ &ob, 1 }, 0.05,
				    &r), -1);
}
END_TEST

/* Welch on logs: an interval for the ratio of geometric means; a value of 0
 * falls back to the values. */
START_TEST(welch_interval_on_logs)
{
	const double a[] = { 1e-3, 1.1e-3, 0.9e-3 }, b[] = { 2e-3, 2.2e-3, 1.8e-3 };
	const double z[] = { 0, 0.01, 0.02 };
	struct stat_interval ci;

	ck_assert_int_eq(stat_welch_interval(a, 3, b, 3, 0.05, &ci), 0);
	ck_assert(ci.log);
	ck_assert(ci.lo_pct < 100 && ci.hi_pct > 100 && ci.lo_pct > 50);
	ck_assert(ci.p < 0.01);
	ck_assert_int_eq(stat_welch_interval(z, 3, b, 3, 0.05, &ci), 0);
	ck_assert(!ci.log);
	ck_assert_int_eq(stat_welch_interval(a, 1, b, 3, 0.05, &ci), -1);
	ck_assert_double_eq_tol(stat_t_quantile(0.975, 2), 4.302653, 1e-5);
	ck_assert_double_eq_tol(stat_t_quantile(0.025, 10), -2.228139, 1e-5);
}
END_TEST

/* Hodges-Lehmann: 5 a side gives the 3rd smallest and largest differences;
 * 3 a side cannot give a 95% interval at all. */
START_TEST(shift_interval_goes_with_the_rank_test)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 11, 12, 13, 14, 15 };
	struct stat_interval ci;

	ck_assert_int_eq(stat_shift_interval(a, 5, b, 5, 0.05, &ci), 0);
	ck_assert_double_eq_tol(ci.lo_pct, 7.0 / 3 * 100, 1e-9);	/* 3rd smallest: 7 */
	ck_assert_double_eq_tol(ci.hi_pct, 13.0 / 3 * 100, 1e-9);
	ck_assert_int_eq(stat_shift_interval(a, 3, b, 3, 0.05, &ci), 0);
	ck_assert(isinf(ci.lo_pct) && isinf(ci.hi_pct));
}
END_TEST

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* The interval is found without listing every pairwise difference (20k
 * runs a side were 400M of them): it must still be exactly the C-th
 * smallest and largest of the list, with negatives, ties and unsorted
 * input. */
START_TEST(shift_interval_is_the_listed_differences)
{
	enum { NA = 37, NB = 53 };
	double a[NA], b[NB], d[NA * NB];
	const double alphas[] = { 0.01, 0.05, 0.2 };
	struct stat_interval ci, wide;
	unsigned seed = 7;

	for (size_t i = 0; i < NA; i++)
		a[i] = (double)(rand_r(&seed) % 40) - 15.5;	/* ties, negatives */
	for (size_t i = 0; i < NB; i++)
		b[i] = (double)(rand_r(&seed) % 60) / 4 - 3;
	for (size_t i = 0; i < NA; i++)
		for (size_t j = 0; j < NB; j++)
			d[i * NB + j] = b[j] - a[i];
	qsort(d, NA * NB, sizeof(*d), cmp_double);
	for (size_t k = 0; k < sizeof(alphas) / sizeof(alphas[0]); k++) {
		double base, lo, hi;
		size_t below_lo = 0, upto_lo = 0, above_hi = 0, from_hi = 0;

		ck_assert_int_eq(stat_shift_interval(a, NA, b, NB, alphas[k], &ci), 0);
		base = fabs(stat_median(a, NA));
		lo = ci.lo_pct * base / 100;
		hi = ci.hi_pct * base / 100;
		for (size_t i = 0; i < NA * NB; i++) {
			below_lo += d[i] < lo - 1e-9;
			upto_lo += d[i] < lo + 1e-9;
			above_hi += d[i] > hi + 1e-9;
			from_hi += d[i] > hi - 1e-9;
		}
		/* LO is the C-th smallest and HI the C-th largest, for one C */
		ck_assert(upto_lo > below_lo && from_hi > above_hi);
		ck_assert(below_lo < from_hi && above_hi < upto_lo);
		if (k) {	/* a larger alpha, a narrower interval */
			ck_assert(ci.lo_pct >= wide.lo_pct && ci.hi_pct <= wide.hi_pct);
		}
		wide = ci;
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("resample");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, block_length_follows_autocorrelation);
	tcase_add_test(tc, identical_sides_are_no_change);
	tcase_add_test(tc, one_run_a_side_finds_a_clear_shift);
	tcase_add_test(tc, spread_between_runs_counts);
	tcase_add_test(tc, events_give_the_maximum);
	tcase_add_test(tc, welch_interval_on_logs);
	tcase_add_test(tc, shift_interval_goes_with_the_rank_test);
	tcase_add_test(tc, shift_interval_is_the_listed_differences);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
