/* `starve compare`: match the runs of several results (or the settings of one
 * result) by setting, load and metric, test each metric's repetitions against
 * the baseline's, and give each a verdict. Building the table (compare.c) is
 * separate from printing it (compare-print.c: terminal, Markdown, JSON).
 *
 * A change counts only when it is significant (Mann-Whitney or Welch p < alpha) and
 * its size (change of the medians, in percent of the baseline's) is beyond
 * the metric's threshold; its sign and the metric's direction (lib/metric.h)
 * say whether it is a regression or an improvement. */
#ifndef STARVE_REPORTS_COMPARE_H
#define STARVE_REPORTS_COMPARE_H

#include "lib/metric.h"
#include "reports/result-view.h"
#include "reports/stats.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Fewer repetitions than this on a side and a metric gets no verdict (the
 * rule LKP and mmtests follow). */
#define CMP_MIN_SAMPLES 3
#define CMP_DEFAULT_ALPHA 0.05
#define CMP_DEFAULT_THRESHOLD 5.0	/* percent */

enum cmp_verdict { CMP_NO_CHANGE, CMP_REGRESSION, CMP_IMPROVEMENT, CMP_INSUFFICIENT,
		   CMP_NVERDICTS };

/* The significance test: Mann-Whitney U (ranks, the default: no assumption
 * on the distribution) or Welch's t (means; can decide with 3 a side). */
enum cmp_test { CMP_TEST_MWU, CMP_TEST_WELCH };

/* A per-metric threshold in percent, from --threshold METRIC=PCT. */
struct cmp_threshold {
	const char *metric;	/* borrowed; NULL sets the default for every metric */
	double pct;
};

struct cmp_options {
	enum cmp_test test;
	double alpha;				/* significance level, CMP_DEFAULT_ALPHA */
	double threshold;			/* default threshold, CMP_DEFAULT_THRESHOLD */
	const struct cmp_threshold *thresholds;	/* command line: wins over the profile */
	size_t n_thresholds;
};

/* One side of the comparison: a result file, or a setting inside one. Its
 * runs, with every metric, histogram and time series, are in VIEW. */
struct cmp_column {
	char *label;		/* kernel.release, --label, or the setting's name */
	const char *file;	/* VIEW's file */
	const struct result_view *view;	/* borrowed */
	char *setting;		/* settings mode: this column's setting; else NULL */
	size_t runs_ok;		/* runs with status "ok" that this column draws on */
	size_t runs_noisy;	/* of those, runs whose verdicts would be undecided */
};

/* The test of one column against the baseline for one metric. */
struct cmp_cell {
	size_t n;		/* repetitions with a value */
	double *samples;	/* n values, in run order */
	double median;		/* NAN when n == 0 */
	double change_pct;	/* vs the baseline's median; +-INFINITY from 0; NAN untested */
	bool tested;		/* both sides had CMP_MIN_SAMPLES values */
	double p;		/* two-sided p-value, when tested */
	const char *method;	/* "exact", "normal" (Mann-Whitney) or "welch" */
	enum cmp_verdict verdict;
};

struct cmp_row {
	char *setting;		/* results mode: the runs' setting ("" for none); else NULL */
	char *load, *metric;
	const struct metric_def *def;
	double threshold;	/* percent, after the profile and the command line */
	struct cmp_cell *cells;	/* one per column; cells[0] is the baseline */
};

enum cmp_mode { CMP_RESULTS, CMP_SETTINGS };

struct cmp_table {
	enum cmp_mode mode;
	enum cmp_test test;
	char *profile;			/* profile.name */
	double alpha, threshold;
	struct cmp_column *columns;	/* columns[0] is the baseline */
	size_t n_columns;
	struct cmp_row *rows;
	size_t n_rows;
	size_t counts[CMP_NVERDICTS];	/* cells (not the baseline's) per verdict */
	size_t underpowered;		/* Mann-Whitney cells whose sizes cannot reach alpha */
	bool one_setting;		/* results mode: every row has the same setting */
};

/* Build a table from N results (N >= 2; views[0] is the baseline). LABELS
 * is NULL or has N entries, NULL where kernel.release should be used.
 * Returns -1 with an error printed (different profiles): exit status 2. */
int cmp_build_results(struct cmp_table *t, const struct result_view *const *views,
		      const char *const *labels, size_t n, const struct cmp_options *opt);
/* Build a table from the settings of one result (the first is the baseline). */
int cmp_build_settings(struct cmp_table *t, const struct result_view *v,
		       const struct cmp_options *opt);
void cmp_free(struct cmp_table *t);

/* Parse "METRIC=PCT" (or "PCT" for every metric). METRIC must be a known
 * metric. Returns -1 with an error printed. OUT->metric points into ARG. */
int cmp_parse_threshold(char *arg, struct cmp_threshold *out);

/* "mwu" or "welch" to enum cmp_test; -1 for anything else. */
int cmp_parse_test(const char *name);
const char *cmp_test_name(enum cmp_test test);

/* 1 when any cell is a regression, else 0 (enum starve_exit). */
int cmp_exit_status(const struct cmp_table *t);
const char *cmp_verdict_name(enum cmp_verdict v);

/* compare-print.c */
void cmp_print_text(const struct cmp_table *t, FILE *out);
void cmp_print_markdown(const struct cmp_table *t, FILE *out);
json_t *cmp_to_json(const struct cmp_table *t);

#endif
