/* Resampling tests for `starve compare` with few runs a side: the runs of a
 * result hold many observations each (a time series of windows, or the
 * events of an in-band histogram), and a bootstrap over them gives a
 * confidence interval for the change of a metric where a rank test over
 * 1-3 run values cannot decide.
 *
 * Hierarchical: every replicate draws the side's runs with replacement (when
 * it has two or more, so the spread between runs counts), then each drawn
 * run's observations:
 * - a series by circular moving blocks (Kuensch 1989), the block length from
 *   the series' autocorrelation (Politis 2003's flat-top rule: twice the lag
 *   after which the autocorrelation stays insignificant), so windows that
 *   depend on each other are kept together; the run's value is their mean;
 * - a histogram (unordered events) by drawing the order statistic the metric
 *   is (the maximum, or a percentile) straight from its Beta distribution.
 * A side's value is the median of its runs' values, as the table shows.
 * The seed is fixed: the same files give the same interval. */
#ifndef STARVE_REPORTS_RESAMPLE_H
#define STARVE_REPORTS_RESAMPLE_H

#include <stddef.h>
#include <stdint.h>

#define RS_REPLICATES 4000
/* Replicates a whole comparison may draw, over all its rows: 20k loads a
 * side made 80k rows and 31 s of resampling at 4000 each. Past 1000 rows
 * each row gets fewer, never under RS_MIN_REPLICATES (an interval of one
 * run a side is information, never a verdict). */
#define RS_BUDGET (1000 * RS_REPLICATES)
#define RS_MIN_REPLICATES 200
/* The autocorrelation is searched up to this lag (blocks of at most twice
 * it): the search costs series length x lags. */
#define RS_MAX_LAG 256

/* One run's observations: a series (CUM NULL: X[0..N) in time order) or a
 * histogram (X[0..N) bucket values ascending, CUM[i] the count up to and
 * including bucket i; the metric is its quantile Q, 1 for the maximum). */
struct rs_obs {
	const double *x, *cum;
	size_t n;
	double q;
};

struct rs_side {
	const struct rs_obs *runs;
	size_t n_runs;
};

struct rs_result {
	double change_pct;	/* of the sides' values; +-INFINITY from 0 */
	double lo_pct, hi_pct;	/* the 1 - alpha percentile interval */
	double p;		/* two-sided: replicates on the far side of 0, doubled */
	size_t block;		/* series: the longest block length used; 0 for events */
};

/* Compare B against A. Returns -1 when a side has no run or a run no
 * observation (OUT untouched). */
int rs_compare(const struct rs_side *a, const struct rs_side *b, double alpha,
	       struct rs_result *out);
/* The same with REPLICATES draws (at least 2). */
int rs_compare_n(const struct rs_side *a, const struct rs_side *b, double alpha,
		 size_t replicates, struct rs_result *out);
/* The replicates for each of N_ROWS rows, within RS_BUDGET. */
size_t rs_replicates_for(size_t n_rows);

/* The block length for the series X[0..N): at least N^(1/3), at most N / 2
 * (at least 1). Exposed for the unit tests. */
size_t rs_block_length(const double *x, size_t n);

#endif
