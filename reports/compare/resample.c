/* The hierarchical bootstrap of reports/compare/resample.h: runs drawn with
 * replacement, then blocks of windows or order statistics of events. */
#include "config.h"
#include "reports/compare/resample.h"
#include "reports/compare/stats.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

/* splitmix64: small, fast, and the same stream on every machine. */
struct rs_rng {
	uint64_t s;
};

static uint64_t rs_next(struct rs_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in (0, 1): never 0, so logs and powers stay finite. */
static double rs_uniform(struct rs_rng *r)
{
	return ((double)(rs_next(r) >> 11) + 0.5) / 9007199254740992.0;
}

static size_t rs_below(struct rs_rng *r, size_t n)
{
	return (size_t)(rs_uniform(r) * (double)n) % n;
}

static double rs_normal(struct rs_rng *r)
{
	return sqrt(-2 * log(rs_uniform(r))) * cos(2 * M_PI * rs_uniform(r));
}

/* Gamma(A, 1) for A >= 1 (Marsaglia and Tsang 2000). */
static double rs_gamma(struct rs_rng *r, double a)
{
	double d = a - 1.0 / 3, c = 1 / sqrt(9 * d);

	for (;;) {
		double x = rs_normal(r), v = 1 + c * x;

		if (v <= 0)
			continue;
		v = v * v * v;
		if (log(rs_uniform(r)) < 0.5 * x * x + d - d * v + d * log(v))
			return d * v;
	}
}

/* The J-th smallest of K uniforms: Beta(J, K + 1 - J). */
static double rs_order_stat(struct rs_rng *r, double j, double k)
{
	double g1, g2;

	if (j >= k)
		return pow(rs_uniform(r), 1 / k);
	g1 = rs_gamma(r, j);
	g2 = rs_gamma(r, k + 1 - j);
	return g1 / (g1 + g2);
}

/* The value of histogram O at cumulative fraction U. */
static double rs_hist_at(const struct rs_obs *o, double u)
{
	double want = ceil(u * o->cum[o->n - 1]);
	size_t lo = 0, hi = o->n - 1;

	if (want < 1)
		want = 1;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (o->cum[mid] >= want)
			hi = mid;
		else
			lo = mid + 1;
	}
	return o->x[lo];
}

static double rs_mean(const double *x, size_t n)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

/* The run's value as measured: the series' mean or the histogram's quantile. */
static double rs_value(const struct rs_obs *o)
{
	return o->cum ? rs_hist_at(o, o->q) : rs_mean(o->x, o->n);
}

static double rs_series_draw(struct rs_rng *r, const struct rs_obs *o, size_t block)
{
	double sum = 0;
	size_t taken = 0;

	while (taken < o->n) {
		size_t start = rs_below(r, o->n);

		for (size_t i = 0; i < block && taken < o->n; i++, taken++)
			sum += o->x[(start + i) % o->n];
	}
	return sum / (double)o->n;
}

static double rs_hist_draw(struct rs_rng *r, const struct rs_obs *o)
{
	double k = o->cum[o->n - 1], j = ceil(o->q * k);

	if (j < 1)
		j = 1;
	return rs_hist_at(o, rs_order_stat(r, j, k));
}

size_t rs_block_length(const double *x, size_t n)
{
	size_t lags = n / 2 < RS_MAX_LAG ? n / 2 : RS_MAX_LAG, base = (size_t)ceil(cbrt((double)n)), m, len;
	double mean = rs_mean(x, n), var = 0, bound = 2 * sqrt(log10((double)n) / (double)n);

	if (n < 4)
		return 1;
	for (size_t i = 0; i < n; i++)
		var += (x[i] - mean) * (x[i] - mean);
	for (m = 0; var > 0 && m < lags; m++) {
		bool quiet = true;

		for (size_t k = m + 1; k <= m + 5 && k <= lags && quiet; k++) {
			double cov = 0;

			for (size_t i = 0; i + k < n; i++)
				cov += (x[i] - mean) * (x[i + k] - mean);
			quiet = fabs(cov / var) < bound;
		}
		if (quiet)
			break;
	}
	len = var > 0 ? 2 * m : 0;
	len = len > base ? len : base;
	return len > lags ? (lags ? lags : 1) : (len ? len : 1);
}

/* One side's value in a replicate: the median of its drawn runs' values. */
static double rs_side_draw(struct rs_rng *r, const struct rs_side *s, const size_t *block,
			   double *scratch)
{
	for (size_t i = 0; i < s->n_runs; i++) {
		size_t pick = s->n_runs > 1 ? rs_below(r, s->n_runs) : 0;
		const struct rs_obs *o = &s->runs[pick];

		scratch[i] = o->cum ? rs_hist_draw(r, o) : rs_series_draw(r, o, block[pick]);
	}
	return stat_median(scratch, s->n_runs);
}

static double rs_change(double a, double b)
{
	if (a == 0)
		return b == 0 ? 0 : copysign(INFINITY, b);
	return (b - a) / fabs(a) * 100;
}

static bool rs_usable(const struct rs_side *s)
{
	if (!s->n_runs)
		return false;
	for (size_t i = 0; i < s->n_runs; i++)
		if (!s->runs[i].n || (s->runs[i].cum && !(s->runs[i].cum[s->runs[i].n - 1] > 0)))
			return false;
	return true;
}

/* Block lengths of S's series into BLOCK; the longest is returned. */
static size_t rs_blocks(const struct rs_side *s, size_t *block)
{
	size_t longest = 0;

	for (size_t i = 0; i < s->n_runs; i++) {
		block[i] = s->runs[i].cum ? 0 : rs_block_length(s->runs[i].x, s->runs[i].n);
		longest = block[i] > longest ? block[i] : longest;
	}
	return longest;
}

static int rs_cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

static void rs_point(const struct rs_side *a, const struct rs_side *b, double *scratch,
		     struct rs_result *out)
{
	double va, vb;

	for (size_t i = 0; i < a->n_runs; i++)
		scratch[i] = rs_value(&a->runs[i]);
	va = stat_median(scratch, a->n_runs);
	for (size_t i = 0; i < b->n_runs; i++)
		scratch[i] = rs_value(&b->runs[i]);
	vb = stat_median(scratch, b->n_runs);
	out->change_pct = rs_change(va, vb);
}

size_t rs_replicates_for(size_t n_rows)
{
	size_t r = n_rows ? RS_BUDGET / n_rows : RS_REPLICATES;

	return r > RS_REPLICATES ? RS_REPLICATES : r < RS_MIN_REPLICATES ? RS_MIN_REPLICATES : r;
}

int rs_compare(const struct rs_side *a, const struct rs_side *b, double alpha,
	       struct rs_result *out)
{
	return rs_compare_n(a, b, alpha, RS_REPLICATES, out);
}

int rs_compare_n(const struct rs_side *a, const struct rs_side *b, double alpha,
		 size_t replicates, struct rs_result *out)
{
	size_t n = a->n_runs > b->n_runs ? a->n_runs : b->n_runs, below = 0, above = 0, la, lb;
	struct rs_rng rng = { 0x5eed5eed5eedULL };
	double *scratch, *delta;
	size_t *block;

	if (!rs_usable(a) || !rs_usable(b))
		return -1;
	scratch = malloc(n * sizeof(*scratch));
	block = malloc((a->n_runs + b->n_runs) * sizeof(*block));
	delta = malloc(replicates * sizeof(*delta));
	if (!scratch || !block || !delta) {
		free(scratch), free(block), free(delta);
		return -1;
	}
	la = rs_blocks(a, block);
	lb = rs_blocks(b, block + a->n_runs);
	rs_point(a, b, scratch, out);
	for (size_t i = 0; i < replicates; i++) {
		double va = rs_side_draw(&rng, a, block, scratch);
		double vb = rs_side_draw(&rng, b, block + a->n_runs, scratch);

		delta[i] = rs_change(va, vb);
		below += !(delta[i] > 0);
		above += !(delta[i] < 0);
	}
	qsort(delta, replicates, sizeof(*delta), rs_cmp_double);
	out->lo_pct = delta[(size_t)floor(alpha / 2 * (double)(replicates - 1))];
	out->hi_pct = delta[(size_t)ceil((1 - alpha / 2) * (double)(replicates - 1))];
	/* (k + 1) / (R + 1): a bootstrap p-value is never 0 */
	out->p = fmin(1, 2.0 * (double)((below < above ? below : above) + 1) / (double)(replicates + 1));
	out->block = la > lb ? la : lb;
	free(scratch), free(block), free(delta);
	return 0;
}
