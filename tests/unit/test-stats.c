/* Unit tests for the comparison statistics (reports/compare/stats.c): medians, the
 * exact Mann-Whitney distribution against table values and brute-force
 * enumeration, the tie-corrected normal approximation, and Welch's t test. */
#include "config.h"
#include "reports/compare/stats.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>

#define N(x) (sizeof(x) / sizeof((x)[0]))

START_TEST(median_of_odd_and_even_counts)
{
	const double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 };

	ck_assert_double_eq(stat_median(odd, N(odd)), 3);
	ck_assert_double_eq(stat_median(even, N(even)), 2.5);
	ck_assert_double_eq(stat_median(one, 1), 7);
	ck_assert(isnan(stat_median(odd, 0)));
	/* the input is left in its order */
	ck_assert_double_eq(odd[0], 5);
}
END_TEST

/* Complete separation: the smallest two-sided p, from the published tables. */
static void check_separated(size_t n, double want)
{
	double a[STAT_EXACT_MAX], b[STAT_EXACT_MAX];
	struct stat_mwu r;

	for (size_t i = 0; i < n; i++) {
		a[i] = (double)i;
		b[i] = (double)(n + i);
	}
	ck_assert_int_eq(stat_mann_whitney(a, n, b, n, &r), 0);
	ck_assert_int_eq(r.method, STAT_EXACT);
	ck_assert(!r.ties);
	ck_assert_double_eq(r.u, 0);
	ck_assert_double_eq_tol(r.p, want, 5e-5);
	ck_assert_double_eq_tol(stat_mwu_min_p(n, n), want, 5e-5);
	/* swapping the sides gives the other tail and the same p */
	ck_assert_int_eq(stat_mann_whitney(b, n, a, n, &r), 0);
	ck_assert_double_eq(r.u, (double)(n * n));
	ck_assert_double_eq_tol(r.p, want, 5e-5);
}

START_TEST(exact_p_of_complete_separation)
{
	check_separated(3, 0.1);
	check_separated(4, 0.0286);
	check_separated(5, 0.0079);
	check_separated(10, 2.0 / 184756);
}
END_TEST

/* Values checked by enumerating every split of the pooled sample in Python
 * (itertools.combinations), independently of the counting used here. */
START_TEST(exact_p_matches_enumeration)
{
	const double a1[] = { 1.1, 2.3, 0.5, 4.2, 3.3 }, b1[] = { 2.0, 5.1, 6.3, 4.4, 7.7 };
	const double a2[] = { 10, 12, 14, 11, 13, 15 }, b2[] = { 13.5, 16, 17, 12.5, 18, 19, 20 };
	struct stat_mwu r;

	ck_assert_int_eq(stat_mann_whitney(a1, N(a1), b1, N(b1), &r), 0);
	ck_assert_double_eq(r.u, 3);
	ck_assert_double_eq_tol(r.p, 0.0555555556, 1e-9);
	ck_assert_int_eq(stat_mann_whitney(a2, N(a2), b2, N(b2), &r), 0);
	ck_assert_int_eq(r.method, STAT_EXACT);
	ck_assert_double_eq(r.u, 5);
	ck_assert_double_eq_tol(r.p, 0.0221445221, 1e-9);
}
END_TEST

START_TEST(exact_cdf_is_a_distribution)
{
	/* C(6,3) = 20 arrangements; U = 0 and U = 1 have one each */
	ck_assert_double_eq_tol(stat_mwu_exact_cdf(3, 3, 0), 1.0 / 20, 1e-12);
	ck_assert_double_eq_tol(stat_mwu_exact_cdf(3, 3, 1), 2.0 / 20, 1e-12);
	ck_assert_double_eq_tol(stat_mwu_exact_cdf(3, 3, 9), 1, 1e-12);
	/* symmetric around na*nb/2 */
	for (int u = 0; u <= 12 * 7; u++)
		ck_assert_double_eq_tol(stat_mwu_exact_cdf(12, 7, u),
					1 - stat_mwu_exact_cdf(12, 7, 12 * 7 - u - 1), 1e-12);
	/* the largest table still sums exactly */
	ck_assert_double_eq(stat_mwu_exact_cdf(20, 20, 400), 1);
	ck_assert_double_eq_tol(stat_mwu_exact_cdf(20, 20, 0), 1 / 137846528820.0, 1e-20);
	ck_assert(isnan(stat_mwu_exact_cdf(21, 3, 0)));
}
END_TEST

START_TEST(identical_samples_give_p_one)
{
	const double a[] = { 1, 1, 1, 1, 1 };
	struct stat_mwu r;

	ck_assert_int_eq(stat_mann_whitney(a, N(a), a, N(a), &r), 0);
	ck_assert(r.ties);
	ck_assert_int_eq(r.method, STAT_NORMAL);
	ck_assert_double_eq(r.u, 12.5);
	ck_assert_double_eq(r.p, 1);
}
END_TEST

/* Ties force the normal approximation. U = 2, tie term 3 * 6 = 18,
 * var = 25/12 * (11 - 18/90), z = (|2 - 12.5| - 0.5) / sqrt(var). */
START_TEST(ties_use_corrected_normal)
{
	const double a[] = { 1, 2, 2, 3, 4 }, b[] = { 3, 4, 5, 5, 6 };
	struct stat_mwu r;

	ck_assert_int_eq(stat_mann_whitney(a, N(a), b, N(b), &r), 0);
	ck_assert(r.ties);
	ck_assert_int_eq(r.method, STAT_NORMAL);
	ck_assert_double_eq(r.u, 2);
	ck_assert_double_eq_tol(r.z, -2.114722130550724, 1e-9);
	ck_assert_double_eq_tol(r.p, 0.03445363703947131, 1e-9);
}
END_TEST

/* Beyond STAT_EXACT_MAX the normal approximation takes over and agrees with
 * the closed form: 25 vs 25 values shifted by 10.5 give U = 105. */
START_TEST(large_samples_use_normal)
{
	double a[25], b[25];
	struct stat_mwu r;

	for (int i = 0; i < 25; i++) {
		a[i] = i + 1;
		b[i] = i + 11.5;
	}
	ck_assert_int_eq(stat_mann_whitney(a, 25, b, 25, &r), 0);
	ck_assert(!r.ties);
	ck_assert_int_eq(r.method, STAT_NORMAL);
	ck_assert_double_eq(r.u, 105);
	ck_assert_double_eq_tol(r.p, 5.909644085596031e-05, 1e-12);
}
END_TEST

START_TEST(empty_side_is_refused)
{
	const double a[] = { 1 };
	struct stat_mwu r;

	ck_assert_int_eq(stat_mann_whitney(a, 1, a, 0, &r), -1);
	ck_assert_int_eq(stat_mann_whitney(a, 0, a, 1, &r), -1);
}
END_TEST

START_TEST(min_p_bounds)
{
	ck_assert_double_eq(stat_mwu_min_p(1, 1), 1);
	ck_assert_double_eq_tol(stat_mwu_min_p(3, 4), 2.0 / 35, 1e-12);
	ck_assert(stat_mwu_min_p(3, 3) > 0.05);
	ck_assert(stat_mwu_min_p(4, 4) < 0.05);
}
END_TEST

/* Critical values from the t tables (two-sided 0.05) and tails checked by
 * integrating the t density numerically in Python. */
START_TEST(t_tails_match_tables)
{
	ck_assert_double_eq_tol(stat_t_two_sided(2.228, 10), 0.05001177, 1e-7);
	ck_assert_double_eq_tol(stat_t_two_sided(2.776, 4), 0.05002278, 1e-7);
	ck_assert_double_eq_tol(stat_t_two_sided(12.706, 1), 0.05000080, 1e-7);
	ck_assert_double_eq_tol(stat_t_two_sided(2.0, 10), 0.07338803, 1e-7);
	ck_assert_double_eq_tol(stat_t_two_sided(1.5, 7.3), 0.17556309, 1e-7);
	ck_assert_double_eq_tol(stat_t_two_sided(-3.1, 3.6), 0.04174256, 1e-7);
	ck_assert_double_eq(stat_t_two_sided(0, 5), 1);
	ck_assert_double_eq(stat_t_two_sided(INFINITY, 5), 0);
	ck_assert(isnan(stat_t_two_sided(1, 0)));
}
END_TEST

START_TEST(welch_on_small_samples)
{
	const double a[] = { 10.1, 9.8, 10.3 }, b[] = { 11.0, 11.4, 10.9 };
	const double c[] = { 1, 2, 3, 4, 5 }, d[] = { 2, 4, 6, 8, 10, 12 };
	const double flat[] = { 3, 3, 3 }, flat2[] = { 4, 4, 4 };
	struct stat_welch w;

	/* three a side: significant, which Mann-Whitney cannot be */
	ck_assert_int_eq(stat_welch(a, 3, b, 3, &w), 0);
	ck_assert_double_eq_tol(w.t, 4.901530373, 1e-8);
	ck_assert_double_eq_tol(w.df, 3.990024938, 1e-8);
	ck_assert_double_eq_tol(w.p, 0.00808656, 1e-7);
	/* unequal sizes and variances */
	ck_assert_int_eq(stat_welch(c, 5, d, 6, &w), 0);
	ck_assert_double_eq_tol(w.t, 2.376354103, 1e-8);
	ck_assert_double_eq_tol(w.df, 6.97225573, 1e-7);
	ck_assert_double_eq_tol(w.p, 0.04928434, 1e-7);
	/* no spread */
	ck_assert_int_eq(stat_welch(flat, 3, flat, 3, &w), 0);
	ck_assert_double_eq(w.p, 1);
	ck_assert_int_eq(stat_welch(flat, 3, flat2, 3, &w), 0);
	ck_assert_double_eq(w.p, 0);
	ck_assert_int_eq(stat_welch(a, 1, b, 3, &w), -1);
}
END_TEST

/* Student's and Welch's standard errors and degrees of freedom, on the
 * values when one is not positive (else on logs). */
START_TEST(two_sample_pooled_and_welch)
{
	const double a[] = { -1, 0, 1 }, b[] = { 1, 2, 3, 4, 5 };
	const double pa[] = { 1, 2, 4 }, pb[] = { 2, 4, 8 };
	struct stat_two s;

	ck_assert_int_eq(stat_two_sample(a, 3, b, 5, &s), 0);
	ck_assert(!s.log);
	ck_assert_double_eq_tol(s.diff, 3, 1e-12);
	/* pooled variance (2 * 1 + 4 * 2.5) / 6 = 2 */
	ck_assert_double_eq_tol(s.se_pooled, sqrt(2 * (1.0 / 3 + 1.0 / 5)), 1e-12);
	ck_assert_double_eq(s.df_pooled, 6);
	ck_assert_double_eq_tol(s.se_welch, sqrt(1.0 / 3 + 2.5 / 5), 1e-12);
	ck_assert_double_eq_tol(s.df_welch, (1.0 / 3 + 0.5) * (1.0 / 3 + 0.5) /
				(1.0 / 9 / 2 + 0.25 / 4), 1e-12);
	/* positive values: on logs, B twice A */
	ck_assert_int_eq(stat_two_sample(pa, 3, pb, 3, &s), 0);
	ck_assert(s.log);
	ck_assert_double_eq_tol(s.diff, log(2), 1e-12);
	ck_assert_int_eq(stat_two_sample(a, 1, b, 5, &s), -1);
}
END_TEST

/* One-sided tails against the table: t 2.776445 with 4 degrees of freedom
 * leaves 0.025 above it. */
START_TEST(one_sided_t_tails)
{
	double up, down;

	ck_assert_double_eq_tol(stat_t_upper(2.776445, 4), 0.025, 1e-6);
	ck_assert_double_eq_tol(stat_t_upper(-2.776445, 4), 0.975, 1e-6);
	stat_t_sided(2.776445, 1, 4, &up, &down);
	ck_assert_double_eq_tol(up, 0.025, 1e-6);
	ck_assert_double_eq_tol(down, 0.975, 1e-6);
	stat_t_sided(1, 0, 4, &up, &down);	/* no spread: apart */
	ck_assert_double_eq(up, 0);
	ck_assert_double_eq(down, 1);
}
END_TEST

/* TOST: the same sides (spread 1, three a side: Welch's se sqrt(2/3), df 4)
 * are shown inside a margin of 2.776445 se at 0.025, and not inside a
 * narrower one; on logs the margin is a fraction of A, and a margin of 100%
 * or more has no lower end. */
START_TEST(tost_shows_the_same_within_a_margin)
{
	const double a[] = { -1, 0, 1 }, pa[] = { 10, 11, 12 }, pb[] = { 30, 33, 36 };
	struct stat_two s;

	ck_assert_int_eq(stat_two_sample(a, 3, a, 3, &s), 0);
	ck_assert_double_eq_tol(stat_tost(&s, 0, 2.776445 * sqrt(2.0 / 3)), 0.025, 1e-6);
	ck_assert(stat_tost(&s, 0, 1) > 0.1);
	ck_assert_int_eq(stat_two_sample(pa, 3, pa, 3, &s), 0);
	ck_assert(stat_tost(&s, 0.5, 0) < 0.01);
	ck_assert(stat_tost(&s, 0.01, 0) > 0.4);
	/* three times A: outside 100% above, inside 300% */
	ck_assert_int_eq(stat_two_sample(pa, 3, pb, 3, &s), 0);
	ck_assert(stat_tost(&s, 1.0, 0) > 0.5);
	ck_assert(stat_tost(&s, 3.0, 0) < 0.01);
}
END_TEST

/* Mann-Whitney one-sided: complete separation of 3 a side is 1/20 on its
 * side and 1 on the other. */
START_TEST(mann_whitney_one_sided)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	struct stat_mwu u;

	ck_assert_int_eq(stat_mann_whitney(a, 3, b, 3, &u), 0);
	ck_assert_double_eq_tol(u.p_up, 0.05, 1e-12);
	ck_assert_double_eq_tol(u.p_down, 1, 1e-12);
	ck_assert_double_eq_tol(u.p, 0.1, 1e-12);
	ck_assert_double_eq_tol(stat_mwu_min_p_one_sided(3, 3), 0.05, 1e-12);
	ck_assert_int_eq(stat_mann_whitney(b, 3, a, 3, &u), 0);
	ck_assert_double_eq_tol(u.p_down, 0.05, 1e-12);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, median_of_odd_and_even_counts);
	tcase_add_test(tc, exact_p_of_complete_separation);
	tcase_add_test(tc, exact_p_matches_enumeration);
	tcase_add_test(tc, exact_cdf_is_a_distribution);
	tcase_add_test(tc, identical_samples_give_p_one);
	tcase_add_test(tc, ties_use_corrected_normal);
	tcase_add_test(tc, large_samples_use_normal);
	tcase_add_test(tc, empty_side_is_refused);
	tcase_add_test(tc, min_p_bounds);
	tcase_add_test(tc, t_tails_match_tables);
	tcase_add_test(tc, welch_on_small_samples);
	tcase_add_test(tc, two_sample_pooled_and_welch);
	tcase_add_test(tc, one_sided_t_tails);
	tcase_add_test(tc, tost_shows_the_same_within_a_margin);
	tcase_add_test(tc, mann_whitney_one_sided);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
