/* Two-sample statistics for `starve compare`: medians and the Mann-Whitney U
 * test (Wilcoxon rank-sum). Scheduler metrics are skewed and heavy-tailed,
 * and a comparison has a handful of repetitions a side, so a rank test that
 * assumes no distribution is the default; the p-value is exact for small
 * samples without ties and a tie-corrected normal approximation otherwise.
 * Welch's t test is there for those who prefer means. */
#ifndef STARVE_REPORTS_STATS_H
#define STARVE_REPORTS_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* Largest side for which the exact distribution is used (both sides must
 * fit, and there must be no ties); beyond it the normal approximation is
 * already good and the counting table would grow needlessly. */
#define STAT_EXACT_MAX 20

enum stat_method { STAT_EXACT, STAT_NORMAL };

struct stat_mwu {
	double u;		/* U of the first sample: pairs (a, b) with a > b, ties 1/2 */
	double p;		/* two-sided p-value in [0, 1] */
	double z;		/* normal approximation's z (0 when exact) */
	bool ties;		/* some values occur more than once */
	enum stat_method method;
	/* one-sided: small when B tends to lie above A (p_up) or below it */
	double p_up, p_down;
};

/* Median of N values (mean of the middle two when N is even); does not
 * modify VALUES. NAN when N is 0. */
double stat_median(const double *values, size_t n);

/* Two-sided Mann-Whitney U test of A (NA values) against B (NB values).
 * Returns -1 when a side is empty or memory runs out (out untouched). */
int stat_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		      struct stat_mwu *out);

/* The smallest two-sided p-value the exact test can give for sides of NA and
 * NB values (complete separation): 2 / C(NA + NB, NA), at most 1. With 3
 * repetitions a side it is 0.1, so such a comparison can never reach 0.05. */
double stat_mwu_min_p(size_t na, size_t nb);

/* The smallest one-sided p-value the exact test can give: half the above. */
double stat_mwu_min_p_one_sided(size_t na, size_t nb);

/* Welch's t test (unequal variances): for means of roughly normal samples,
 * e.g. throughput; it can reach small p-values with 3 values a side, where
 * the rank test cannot. */
struct stat_welch {
	double t;		/* (mean B - mean A) / standard error */
	double df;		/* Welch-Satterthwaite degrees of freedom */
	double p;		/* two-sided p-value */
};

/* Welch's test of A against B; each side needs at least 2 values (else -1).
 * When both variances are 0, p is 1 for equal means and 0 otherwise. */
int stat_welch(const double *a, size_t na, const double *b, size_t nb, struct stat_welch *out);

/* Two-sided tail P(|T| >= |t|) of Student's t with DF degrees of freedom. */
double stat_t_two_sided(double t, double df);

/* Exact P(U <= u) for sides of NA and NB values without ties (NA, NB <=
 * STAT_EXACT_MAX). NAN when out of range. Exposed for the unit tests. */
double stat_mwu_exact_cdf(size_t na, size_t nb, double u);

/* A confidence interval for the change of B against A, in percent of A.
 * Welch on logs when every value is positive (the change of geometric
 * means: latencies and rates scale), else on the values (the change of
 * means, divided by A's mean, whose own uncertainty it leaves out). */
struct stat_interval {
	double lo_pct, hi_pct;
	double p;		/* the matching test's two-sided p-value */
	bool log;		/* Welch: on logs */
};

/* Welch's test and its 1 - ALPHA interval, of S (stat_two_interval) or of
 * the two samples (stat_welch_interval: -1 when a side has fewer than 2
 * values). */
struct stat_two;
void stat_two_interval(const struct stat_two *s, double alpha, struct stat_interval *out);
int stat_welch_interval(const double *a, size_t na, const double *b, size_t nb, double alpha,
			struct stat_interval *out);

/* The Hodges-Lehmann interval of the shift of B against A that goes with
 * the Mann-Whitney test (the pairwise differences between the critical
 * ranks), in percent of A's median; p is left as is. -1 when a side is empty. */
int stat_shift_interval(const double *a, size_t na, const double *b, size_t nb, double alpha,
			struct stat_interval *out);

/* The two samples as a t test sees them: on logs when every value is
 * positive, else on the values. DIFF is B's mean minus A's; the pooled
 * standard error (Student: one variance for both sides, as when both come
 * from one distribution) with NA + NB - 2 degrees of freedom, and Welch's
 * (a variance each) with the Welch-Satterthwaite degrees of freedom. */
struct stat_two {
	double diff;
	double se_pooled, df_pooled;
	double se_welch, df_welch;
	double base;		/* A's mean on the test's scale (a values interval is in percent of it) */
	bool log;
};

/* -1 when a side has fewer than 2 values or memory runs out. */
int stat_two_sample(const double *a, size_t na, const double *b, size_t nb, struct stat_two *out);

/* P(T >= t) for Student's t with DF degrees of freedom (t may be infinite). */
double stat_t_upper(double t, double df);

/* One-sided p-values of DIFF over its standard error SE with DF degrees of
 * freedom: *UP small when B lies above A, *DOWN when below. SE 0: 0 or 1. */
void stat_t_sided(double diff, double se, double df, double *up, double *down);

/* Two one-sided tests (TOST) with Welch's standard error: the p-value of
 * "the change lies inside the margin". On logs the margin is FRACTION of A
 * (0.05: between log(0.95) and log(1.05)); on values it is ABSOLUTE either
 * way. Small when the sides are shown to be the same within the margin. */
double stat_tost(const struct stat_two *s, double fraction, double absolute);

/* The Q quantile (0 < Q < 1) of Student's t with DF degrees of freedom. */
double stat_t_quantile(double q, double df);

#endif
