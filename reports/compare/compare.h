/* `starve compare`: match the runs of several results (or the settings of one
 * result) by setting, load and metric, test each metric's repetitions against
 * the baseline's, and give each a verdict. Building the table (compare.c) is
 * separate from printing it (compare-print.c: terminal, Markdown, JSON).
 *
 * The method (doc/ci-gating.md, "How compare decides"), per metric and side:
 * Mann-Whitney U on the run values when both sides have enough runs for it to
 * reach alpha; else Welch's t (on logs for positive values; one run against
 * the other side's prediction interval); with one run a side, a bootstrap
 * over the two runs' windows or events (reports/compare/resample.h) whose interval is
 * shown but gives no verdict. A change counts only when it is significant
 * (p < alpha, its interval excludes 0) and its size (change of the medians,
 * in percent of the baseline's) is beyond the metric's threshold; its sign and
 * the metric's direction (lib/metric.h) say whether it is a regression or an
 * improvement.
 *
 * Before the statistics come the verdict flips: an expectation that passed on
 * the baseline and fails on the other side is a regression whatever the
 * numbers, and the reverse an improvement. Only gated rows (by default the
 * loads the profile's expectations name) and flips decide the exit status. */
#ifndef STARVE_REPORTS_COMPARE_H
#define STARVE_REPORTS_COMPARE_H

#include "lib/keyindex.h"
#include "lib/metric.h"
#include "reports/result/result-view.h"
#include "reports/result/result.h"
#include "reports/compare/stats.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Fewer repetitions than this on a side and a metric gets no verdict (the
 * rule LKP and mmtests follow). */
#define CMP_MIN_SAMPLES 3
#define CMP_DEFAULT_ALPHA 0.05
#define CMP_DEFAULT_THRESHOLD 5.0	/* percent */

/* CMP_NOT_COMPARABLE: a confounder that differs between the sides (the clock
 * source...) invalidates the metric (reports/compare/compare-confounders.c). */
enum cmp_verdict { CMP_NO_CHANGE, CMP_REGRESSION, CMP_IMPROVEMENT, CMP_INSUFFICIENT,
		   CMP_NOT_COMPARABLE, CMP_NVERDICTS };

/* The significance test: chosen per cell as above (auto, the default), or
 * Mann-Whitney U / Welch's t on the run values for every cell. */
enum cmp_test { CMP_TEST_AUTO, CMP_TEST_MWU, CMP_TEST_WELCH };

/* Which rows decide the exit status: the profile's choice ('compare: gate:'),
 * else the loads its expectations name (all loads when it has none); or all
 * rows; or the loads given. */
enum cmp_gate { CMP_GATE_DEFAULT, CMP_GATE_ALL, CMP_GATE_EXPECT, CMP_GATE_LOADS };

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
	enum cmp_gate gate;
	const char *const *gate_loads;		/* CMP_GATE_LOADS: these loads gate */
	size_t n_gate_loads;
	const char *const *only_loads;		/* --load: only these loads' rows; none: all */
	size_t n_only_loads;
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
	const struct rv_load **loads;	/* the load each value came from: windows, events */
	double median;		/* NAN when n == 0 */
	double change_pct;	/* vs the baseline's median; +-INFINITY from 0; NAN untested */
	bool tested;		/* a test could be made (see the method above) */
	bool within_runs;	/* one run a side: p and interval are of these two runs'
				 * windows or events, shown but no verdict */
	double p;		/* two-sided p-value, when tested */
	double p_holm;		/* p after Holm over the column's family (the gated rows and
				 * those expectations name); what the verdict reads */
	double lo_pct, hi_pct;	/* the 1 - alpha interval of the change, when tested */
	const char *method;	/* cmp_method_names: "mann-whitney", "bootstrap-windows"... */
	size_t block;		/* bootstrap over windows: the block length */
	long flip;		/* index into cmp_table.flips that decided it, or -1 */
	const char *not_comparable_why;	/* CMP_NOT_COMPARABLE: the confounder's effect */
	enum cmp_verdict verdict;
};

struct cmp_row {
	char *setting;		/* results mode: the runs' setting ("" for none); else NULL */
	char *load, *metric;
	const struct metric_def *def;
	double threshold;	/* percent, after the profile and the command line */
	bool gated;		/* its verdicts decide the exit status */
	size_t first_change;	/* first column with a regression or improvement; 0: none */
	struct cmp_cell *cells;	/* one per column; cells[0] is the baseline */
};

/* An expectation whose verdict differs between the baseline and a column:
 * the worst verdict of its runs (of the setting) on each side. */
struct cmp_flip {
	const char *setting;		/* NULL: every setting (results mode, one setting) */
	const struct rv_rule *rule;	/* borrowed from the baseline's view */
	size_t column;
	enum verdict_kind from, to;	/* pass -> fail: regression; fail -> pass: improvement */
	enum cmp_verdict verdict;
};

/* A confounder that differs between the columns: its text on each (keys
 * decide, shown is for the reader). */
struct cmp_confounder {
	const char *name;	/* "clocksource", "preempt", "mitigations"... */
	char **keys, **shown;	/* one per column */
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
	size_t n_rows, cap_rows;
	struct keyindex row_index;	/* (setting, load, metric) -> row */
	size_t counts[CMP_NVERDICTS];	/* gated cells (not the baseline's) per verdict */
	size_t info_counts[CMP_NVERDICTS];	/* the same for rows that do not gate */
	size_t underpowered;		/* Mann-Whitney cells whose sizes cannot reach alpha */
	size_t family;		/* the most rows Holm corrected over in one column */
	bool one_setting;		/* results mode: every row has the same setting */
	const char *gate_rule;		/* how the gated rows were chosen, for the reader */
	struct cmp_flip *flips;
	size_t n_flips;
	size_t flip_regressions;
	struct cmp_confounder *confounders;	/* results mode: those that differ */
	size_t n_confounders;
	size_t not_comparable;		/* cells a differing confounder invalidated */
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

/* "auto", "mwu" or "welch" to enum cmp_test; -1 for anything else. */
int cmp_parse_test(const char *name);
const char *cmp_test_name(enum cmp_test test);

/* 1 when a gated cell is a regression or a verdict flipped to fail, else 0. */
int cmp_exit_status(const struct cmp_table *t);
const char *cmp_verdict_name(enum cmp_verdict v);

/* compare-method.c: test CELL against BASE for ROW with T's test, filling
 * tested, p, lo_pct, hi_pct, method and block. */
void cmp_test_cell(struct cmp_table *t, const struct cmp_row *row, const struct cmp_cell *base,
		   struct cmp_cell *cell);

/* compare-gate.c: mark the gated rows (T->gate_rule says how); Holm's
 * procedure over each column's family (sets p_holm: call after the tests, before
 * the verdicts); and find the verdict flips of every column against the
 * baseline (a flip counts when its row confirms it after Holm). */
void cmp_gate_rows(struct cmp_table *t, const struct cmp_options *opt);
void cmp_holm(struct cmp_table *t);
void cmp_find_flips(struct cmp_table *t);

/* compare-confounders.c: find the confounders that differ between the
 * results, mark the cells they invalidate CMP_NOT_COMPARABLE (before the
 * counts), and say so first in every output. */
void cmp_confounders_find(struct cmp_table *t);
void cmp_confounders_free(struct cmp_table *t);
void cmp_confounders_print(const struct cmp_table *t, FILE *out, const char *eol);
json_t *cmp_confounders_json(const struct cmp_table *t);
struct xml_writer;
void cmp_confounders_html(struct xml_writer *w, const struct cmp_table *t);

/* compare-words.c: "+12.3%", "x12.3" past +900%, "more than x100", "-" for
 * NAN (never "inf"); the interval of CELL widened to hold its estimate;
 * "-49.0% [-51.2%, -46.9%]"; whether a no-change cell is a significant
 * change smaller than its threshold; the headline: the verdict line, then
 * up to CMP_HEADLINE_ROWS gated changes, what decided first ("### " before
 * the verdict in Markdown, bullets). */
#define CMP_HEADLINE_ROWS 3
const char *cmp_pct_text(double pct, char *buf, size_t len);
void cmp_interval(const struct cmp_cell *cell, double *lo, double *hi);
const char *cmp_change_text(const struct cmp_cell *cell, char *buf, size_t len);
bool cmp_within_threshold(const struct cmp_table *t, const struct cmp_cell *cell);
void cmp_print_headline(const struct cmp_table *t, FILE *out, bool markdown);

/* compare-print.c */
void cmp_print_text(const struct cmp_table *t, FILE *out);
void cmp_print_markdown(const struct cmp_table *t, FILE *out);
json_t *cmp_to_json(const struct cmp_table *t);
/* compare-junit.c: a testsuite per compared column, a testcase per flip and
 * gated row. compare-html.c: the page. Both return 0 or -1 on a write error. */
int cmp_print_junit(const struct cmp_table *t, FILE *out);
int cmp_write_html(const struct cmp_table *t, FILE *out);

#endif
