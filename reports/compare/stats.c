/* Medians and the Mann-Whitney U test (reports/compare/stats.h). The exact null
 * distribution of U is the coefficient list of the Gaussian binomial
 * [na + nb choose na]_q, built by polynomial steps in 64-bit integers; the
 * normal approximation uses the tie-corrected variance and a continuity
 * correction of 1/2, as in the textbooks (and scipy's "asymptotic" method). */
#include "config.h"
#include "reports/compare/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int stat_cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

double stat_median(const double *values, size_t n)
{
	double *copy, median;

	if (n == 0)
		return NAN;
	copy = malloc(n * sizeof(*copy));
	if (!copy)
		return NAN;
	memcpy(copy, values, n * sizeof(*copy));
	qsort(copy, n, sizeof(*copy), stat_cmp_double);
	median = n % 2 ? copy[n / 2] : (copy[n / 2 - 1] + copy[n / 2]) / 2;
	free(copy);
	return median;
}

double stat_mwu_min_p(size_t na, size_t nb)
{
	double ways = 1;	/* C(na + nb, na), in floating point: only a bound */

	for (size_t i = 1; i <= na; i++)
		ways = ways * (double)(nb + i) / (double)i;
	return ways < 2 ? 1 : 2 / ways;
}

double stat_mwu_min_p_one_sided(size_t na, size_t nb)
{
	return stat_mwu_min_p(na, nb) / 2;
}

/* Number of arrangements of NA + NB values giving each U = 0..na*nb, into
 * COUNT. [m + n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i); after
 * step i the list holds [n + i choose i]_q, so every value stays an integer
 * at most C(40, 20) ~ 1.4e11: exact in int64_t. Degrees above na*nb are
 * dropped, which is safe because each step only reads lower degrees. */
static void stat_mwu_counts(size_t na, size_t nb, int64_t *count)
{
	size_t top = na * nb;

	memset(count, 0, (top + 1) * sizeof(*count));
	count[0] = 1;
	for (size_t i = 1; i <= na; i++) {
		size_t up = nb + i;

		for (size_t k = top + 1; k-- > up;)
			count[k] -= count[k - up];
		for (size_t k = i; k <= top; k++)
			count[k] += count[k - i];
	}
}

double stat_mwu_exact_cdf(size_t na, size_t nb, double u)
{
	int64_t count[STAT_EXACT_MAX * STAT_EXACT_MAX + 1];
	int64_t below = 0, total = 0;

	if (na == 0 || nb == 0 || na > STAT_EXACT_MAX || nb > STAT_EXACT_MAX)
		return NAN;
	stat_mwu_counts(na, nb, count);
	for (size_t k = 0; k <= na * nb; k++) {
		total += count[k];
		if ((double)k <= u + 1e-9)
			below += count[k];
	}
	return (double)below / (double)total;
}

struct stat_item {
	double value;
	int side;	/* 0: first sample, 1: second */
};

static int stat_cmp_item(const void *pa, const void *pb)
{
	const struct stat_item *a = pa, *b = pb;

	return (a->value > b->value) - (a->value < b->value);
}

/* Rank the pooled sample (midranks for ties). Returns the rank sum of the
 * first sample; *tie_term gets sum(t^3 - t) over groups of t equal values. */
static double stat_rank_sum(struct stat_item *items, size_t n, double *tie_term)
{
	double sum = 0;

	*tie_term = 0;
	qsort(items, n, sizeof(*items), stat_cmp_item);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		double rank, t;

		while (j < n && items[j].value == items[i].value)
			j++;
		rank = (double)(i + 1 + j) / 2;	/* mean of ranks i+1 .. j */
		t = (double)(j - i);
		*tie_term += t * t * t - t;
		for (size_t k = i; k < j; k++)
			if (items[k].side == 0)
				sum += rank;
		i = j;
	}
	return sum;
}

/* Normal approximation with tie-corrected variance and continuity correction. */
static void stat_mwu_normal(size_t na, size_t nb, double tie_term, struct stat_mwu *out)
{
	double n = (double)(na + nb), mn = (double)na * (double)nb;
	double mu = mn / 2;
	double var = mn / 12 * ((n + 1) - tie_term / (n * (n - 1)));
	double dev = fabs(out->u - mu) - 0.5;

	out->method = STAT_NORMAL;
	/* U counts pairs with A above B: a small U says B lies above */
	out->p_up = var > 0 ? 0.5 * erfc(-(out->u - mu + 0.5) / sqrt(var) / M_SQRT2) : 1;
	out->p_down = var > 0 ? 0.5 * erfc((out->u - mu - 0.5) / sqrt(var) / M_SQRT2) : 1;
	out->p_up = fmin(1, out->p_up);
	out->p_down = fmin(1, out->p_down);
	if (var <= 0 || dev <= 0) {	/* all values equal, or U at its mean */
		out->z = 0;
		out->p = 1;
		return;
	}
	out->z = copysign(dev / sqrt(var), out->u - mu);
	out->p = fmin(1, erfc(dev / sqrt(var) / M_SQRT2));
}

int stat_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		      struct stat_mwu *out)
{
	struct stat_item *items;
	double tie_term;

	if (na == 0 || nb == 0)
		return -1;
	items = malloc((na + nb) * sizeof(*items));
	if (!items)
		return -1;
	for (size_t i = 0; i < na; i++)
		items[i] = (struct stat_item){ a[i], 0 };
	for (size_t i = 0; i < nb; i++)
		items[na + i] = (struct stat_item){ b[i], 1 };
	out->u = stat_rank_sum(items, na + nb, &tie_term) - (double)na * (double)(na + 1) / 2;
	free(items);
	out->ties = tie_term > 0;
	out->z = 0;
	if (!out->ties && na <= STAT_EXACT_MAX && nb <= STAT_EXACT_MAX) {
		double low = stat_mwu_exact_cdf(na, nb, out->u);
		double high = stat_mwu_exact_cdf(na, nb, (double)(na * nb) - out->u);

		out->method = STAT_EXACT;
		out->p = fmin(1, 2 * fmin(low, high));
		out->p_up = low;	/* P(U <= u): B above A at least this often */
		out->p_down = high;
		return 0;
	}
	stat_mwu_normal(na, nb, tie_term, out);
	return 0;
}

/* Continued fraction of the incomplete beta function, evaluated by the
 * modified Lentz method; converges fast for x < (a + 1) / (a + b + 2). */
static double stat_beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), f;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	f = d;
	for (int m = 1; m <= 300; m++) {
		for (int odd = 0; odd < 2; odd++) {
			double num = odd ? -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
					 : m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
			double delta;

			d = 1 + num * d;
			d = 1 / (fabs(d) < tiny ? tiny : d);
			c = 1 + num / c;
			c = fabs(c) < tiny ? tiny : c;
			delta = c * d;
			f *= delta;
			if (odd && fabs(delta - 1) < 1e-15)
				return f;
		}
	}
	return f;
}

/* Regularized incomplete beta I_x(a, b), using the symmetry
 * I_x(a, b) = 1 - I_{1-x}(b, a) where the fraction converges slowly. */
static double stat_ibeta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * stat_beta_cf(a, b, x) / a;
	return 1 - front * stat_beta_cf(b, a, 1 - x) / b;
}

double stat_t_two_sided(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	return stat_ibeta(df / 2, 0.5, df / (df + t * t));
}

/* The mean and the variance of V's N values (on logs when LOG_SCALE). */
static void stat_side(const double *v, size_t n, bool log_scale, double *mean, double *var)
{
	double sum = 0, sq = 0;

	for (size_t i = 0; i < n; i++)
		sum += log_scale ? log(v[i]) : v[i];
	*mean = sum / (double)n;
	for (size_t i = 0; i < n; i++) {
		double d = (log_scale ? log(v[i]) : v[i]) - *mean;

		sq += d * d;
	}
	*var = sq / (double)(n - 1);
}

int stat_welch(const double *a, size_t na, const double *b, size_t nb, struct stat_welch *out)
{
	double ma, va, mb, vb, sa, sb;

	if (na < 2 || nb < 2)
		return -1;
	stat_side(a, na, false, &ma, &va);
	stat_side(b, nb, false, &mb, &vb);
	sa = va / (double)na;
	sb = vb / (double)nb;
	if (sa + sb == 0) {	/* no spread at all: the means are equal or not */
		out->t = mb == ma ? 0 : copysign(INFINITY, mb - ma);
		out->df = (double)(na + nb - 2);
		out->p = mb == ma ? 1 : 0;
		return 0;
	}
	out->t = (mb - ma) / sqrt(sa + sb);
	out->df = (sa + sb) * (sa + sb) /
		  (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	out->p = stat_t_two_sided(out->t, out->df);
	return 0;
}

double stat_t_quantile(double q, double df)
{
	double lo = 0, hi = 1e6, tail = 2 * (q > 0.5 ? 1 - q : q);

	if (!(q > 0 && q < 1) || !(df > 0))
		return NAN;
	for (int i = 0; i < 200; i++) {	/* bisection: the tail falls as t grows */
		double mid = (lo + hi) / 2;

		if (stat_t_two_sided(mid, df) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return q > 0.5 ? (lo + hi) / 2 : -(lo + hi) / 2;
}

/* DIFF in percent of |BASE|; +-INFINITY from a base of 0. */
static double stat_pct(double diff, double base)
{
	if (base == 0)
		return diff == 0 ? 0 : copysign(INFINITY, diff);
	return diff / fabs(base) * 100;
}

static bool stat_all_positive(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(v[i] > 0))
			return false;
	return true;
}

int stat_two_sample(const double *a, size_t na, const double *b, size_t nb, struct stat_two *out)
{
	double ma, va, mb, vb, sa, sb, pooled;

	if (na < 2 || nb < 2)
		return -1;
	out->log = stat_all_positive(a, na) && stat_all_positive(b, nb);
	stat_side(a, na, out->log, &ma, &va);
	stat_side(b, nb, out->log, &mb, &vb);
	out->diff = mb - ma;
	out->base = ma;
	sa = va / (double)na;
	sb = vb / (double)nb;
	out->se_welch = sqrt(sa + sb);
	out->df_welch = sa + sb > 0 ? (sa + sb) * (sa + sb) /
			(sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1)) :
			(double)(na + nb - 2);
	pooled = ((double)(na - 1) * va + (double)(nb - 1) * vb) / (double)(na + nb - 2);
	out->se_pooled = sqrt(pooled * (1 / (double)na + 1 / (double)nb));
	out->df_pooled = (double)(na + nb - 2);
	return 0;
}

double stat_t_upper(double t, double df)
{
	double two = stat_t_two_sided(t, df);

	if (isnan(two))
		return NAN;
	return t >= 0 ? two / 2 : 1 - two / 2;
}

void stat_t_sided(double diff, double se, double df, double *up, double *down)
{
	if (!(se > 0)) {	/* no spread: the sides are equal or apart */
		*up = diff > 0 ? 0 : 1;
		*down = diff < 0 ? 0 : 1;
		return;
	}
	*up = stat_t_upper(diff / se, df);
	*down = stat_t_upper(-diff / se, df);
}

double stat_tost(const struct stat_two *s, double fraction, double absolute)
{
	double lo, hi, above_lo, below_hi, unused;

	if (s->log) {
		lo = fraction >= 1 ? -INFINITY : log1p(-fraction);
		hi = log1p(fraction);
	} else {
		hi = absolute;
		lo = -hi;
	}
	/* "above LO" and "below HI", each one-sided at the same level */
	stat_t_sided(s->diff - lo, s->se_welch, s->df_welch, &above_lo, &unused);
	stat_t_sided(s->diff - hi, s->se_welch, s->df_welch, &unused, &below_hi);
	return fmax(above_lo, below_hi);
}

void stat_two_interval(const struct stat_two *s, double alpha, struct stat_interval *out)
{
	double half = s->se_welch > 0 ? s->se_welch * stat_t_quantile(1 - alpha / 2, s->df_welch) : 0;

	out->p = s->se_welch > 0 ? stat_t_two_sided(s->diff / s->se_welch, s->df_welch) :
		 s->diff == 0 ? 1 : 0;
	out->log = s->log;
	if (s->log) {
		out->lo_pct = expm1(s->diff - half) * 100;
		out->hi_pct = expm1(s->diff + half) * 100;
	} else {
		out->lo_pct = stat_pct(s->diff - half, s->base);
		out->hi_pct = stat_pct(s->diff + half, s->base);
	}
}

int stat_welch_interval(const double *a, size_t na, const double *b, size_t nb, double alpha,
			struct stat_interval *out)
{
	struct stat_two s;

	if (stat_two_sample(a, na, b, nb, &s) < 0)
		return -1;
	stat_two_interval(&s, alpha, out);
	return 0;
}

/* The critical count C: the interval is the C-th smallest to the C-th
 * largest pairwise difference, C the largest with P(U < C) <= alpha / 2. */
static size_t stat_shift_rank(size_t na, size_t nb, double alpha)
{
	double mn = (double)na * (double)nb;
	size_t c = 0;

	if (na <= STAT_EXACT_MAX && nb <= STAT_EXACT_MAX) {
		while ((double)c < mn / 2 && stat_mwu_exact_cdf(na, nb, (double)c) <= alpha / 2)
			c++;
		return c;
	}
	c = (size_t)floor(mn / 2 - stat_t_quantile(1 - alpha / 2, 1e9) *
			  sqrt(mn * (double)(na + nb + 1) / 12));
	return c;
}

/* Doubles as integers of the same order (finite or infinite, not NaN), so
 * a bisection over them ends in at most 64 steps on adjacent values. */
static int64_t stat_ordered(double x)
{
	int64_t i;

	memcpy(&i, &x, sizeof(i));
	return i < 0 ? INT64_MIN - i : i;	/* negatives: reverse their order */
}

static double stat_unordered(int64_t i)
{
	double x;

	i = i < 0 ? INT64_MIN - i : i;
	memcpy(&x, &i, sizeof(x));
	return x;
}

/* How many pairwise differences B[j] - A[i] are <= D (A, B ascending): two
 * pointers, since the differences fall as A[i] grows. */
static size_t stat_diffs_upto(const double *a, size_t na, const double *b, size_t nb, double d)
{
	size_t n = 0, j = 0;

	for (size_t i = 0; i < na; i++) {	/* as A[i] grows, so does the row's count */
		while (j < nb && b[j] - a[i] <= d)
			j++;
		n += j;
	}
	return n;
}

/* The K-th smallest (from 1) of the NA * NB differences B[j] - A[i],
 * without listing them (20k runs a side were 400M doubles and minutes of
 * sorting): a bisection over the values, counting each step in O(na + nb). */
static double stat_kth_diff(const double *a, size_t na, const double *b, size_t nb, size_t k)
{
	int64_t lo = stat_ordered(b[0] - a[na - 1]), hi = stat_ordered(b[nb - 1] - a[0]);

	/* the answer is the least value in [LO, HI] with K differences up to it */
	while (lo < hi) {
		int64_t mid = lo + (int64_t)(((uint64_t)hi - (uint64_t)lo) / 2);

		if (stat_diffs_upto(a, na, b, nb, stat_unordered(mid)) >= k)
			hi = mid;
		else
			lo = mid + 1;
	}
	return stat_unordered(lo);
}

int stat_shift_interval(const double *a, size_t na, const double *b, size_t nb, double alpha,
			struct stat_interval *out)
{
	double *sa, *sb, base = stat_median(a, na);
	size_t c;

	if (!na || !nb || !(sa = malloc(na * sizeof(*sa))))
		return -1;
	if (!(sb = malloc(nb * sizeof(*sb)))) {
		free(sa);
		return -1;
	}
	memcpy(sa, a, na * sizeof(*sa));
	memcpy(sb, b, nb * sizeof(*sb));
	qsort(sa, na, sizeof(*sa), stat_cmp_double);
	qsort(sb, nb, sizeof(*sb), stat_cmp_double);
	c = stat_shift_rank(na, nb, alpha);
	if (c < 1) {	/* too few values for any interval at this alpha */
		out->lo_pct = -INFINITY;
		out->hi_pct = INFINITY;
	} else {
		out->lo_pct = stat_pct(stat_kth_diff(sa, na, sb, nb, c), base);
		out->hi_pct = stat_pct(stat_kth_diff(sa, na, sb, nb, na * nb - c + 1), base);
	}
	out->log = false;
	free(sa), free(sb);
	return 0;
}
