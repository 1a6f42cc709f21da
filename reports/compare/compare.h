/* `starve compare`: match the runs of several results (or the settings of one
 * result) by setting, load and metric, test each metric's repetitions against
 * the baseline's, and give each a verdict. Building the table (compare.c) is
 * separate from printing it (compare-print.c: terminal, Markdown, JSON).
 *
 * The method (doc/ci-gating.md, "How compare decides"), per metric and side,
 * with 2 runs or more a side (the runs are the replications):
 * - changed: the one-sided test in the change's direction is significant
 *   after Holm over the family, and the change of the medians is beyond the
 *   row's margin (its threshold in percent of the baseline or of the value an
 *   expectation of its load names in its unit, or the unit's floor, whichever
 *   is largest). The test
 *   is Mann-Whitney U where the runs a side let it reach alpha, else
 *   Student's t on the logs (its null: both sides' runs come from one
 *   distribution, so one variance). Its sign and the metric's direction
 *   (lib/metric.h) make it a regression or an improvement.
 * - equivalent: two one-sided tests (TOST, Welch on logs) show the change
 *   inside plus or minus the margin, after Holm over the family.
 * - undecided: neither; or one run a side (a bootstrap over the two runs'
 *   windows or events is shown, never a verdict), or the metric missing.
 * Noisy runs (verdict_run_noisy) make a change count only beyond their
 * noise bound, and never let a row be called equivalent.
 *
 * Before the statistics come the verdict flips: an expectation that passed on
 * the baseline and fails on the other side is a regression when its row's
 * test confirms the direction, and the reverse an improvement. The
 * comparison is a REGRESSION when a gated row regressed or a flip did; NO
 * REGRESSION only when every gated row is equivalent or improved; else
 * UNDECIDED, with why and what would decide it. */
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
/* The floors of a row's margin, for ratios and durations (compare.c
 * cmp_floor). */
#define CMP_FLOOR_RATIO 0.005
#define CMP_FLOOR_SECONDS 10e-6

/* A row's verdict against the baseline. CMP_UNDECIDED: tested across runs,
 * neither changed nor equivalent; CMP_INSUFFICIENT: not tested across runs
 * (one run a side, the metric missing); CMP_NOT_COMPARABLE: a confounder
 * that differs between the sides (the clock source...) invalidates the
 * metric (reports/compare/compare-confounders.c). The last three leave a
 * comparison undecided when the row gates. */
enum cmp_verdict { CMP_EQUIVALENT, CMP_REGRESSION, CMP_IMPROVEMENT, CMP_UNDECIDED,
		   CMP_INSUFFICIENT, CMP_NOT_COMPARABLE, CMP_NVERDICTS };

/* Why a row is undecided, for the reader and for what would decide it
 * (CMP_WHY_FEW_RUNS: fewer than CMP_MIN_SAMPLES runs a side, which --test mwu
 * and welch need). */
enum cmp_why { CMP_WHY_NONE, CMP_WHY_MISSING, CMP_WHY_ONE_RUN, CMP_WHY_FEW_RUNS, CMP_WHY_NOISY,
	       CMP_WHY_WIDE, CMP_WHY_CONFOUNDER };

/* A comparison as a whole (cmp_outcome_name: "REGRESSION"...). */
enum cmp_outcome { CMP_OUT_NO_REGRESSION, CMP_OUT_IMPROVEMENT, CMP_OUT_REGRESSION,
		   CMP_OUT_UNDECIDED };

/* What an undecided comparison exits with: 4 by default (no verdict, as
 * kselftest's skip), 1 with --strict, 0 with --allow-undecided. */
enum cmp_undecided { CMP_UNDECIDED_NO_VERDICT, CMP_UNDECIDED_FAILS, CMP_UNDECIDED_PASSES };

/* The three one-sided questions a cell's runs answer, each Holm-corrected
 * over the family: worse, better (than the baseline), the same within the
 * margin (TOST). */
enum cmp_question { CMP_Q_WORSE, CMP_Q_BETTER, CMP_Q_SAME, CMP_NQUESTIONS };

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
	enum cmp_undecided undecided;		/* the exit status of an undecided comparison */
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
	enum cmp_outcome outcome;	/* this column against the baseline (not the baseline's) */
};

/* The test of one column against the baseline for one metric. */
struct cmp_cell {
	size_t n;		/* repetitions with a value */
	double *samples;	/* n values, in run order */
	const struct rv_load **loads;	/* the load each value came from: windows, events */
	double median;		/* NAN when n == 0 */
	double change_pct;	/* vs the baseline's median; +-INFINITY from 0; NAN untested */
	double delta;		/* median minus the baseline's, in the metric's unit */
	bool tested;		/* a test could be made (see the method above) */
	bool within_runs;	/* one run a side: p and interval are of these two runs'
				 * windows or events, shown but no verdict */
	bool noisy;		/* a run of it was noisy (verdict_run_noisy) */
	double noise;		/* the most its noisy runs' noise could move its value,
				 * in the metric's unit (0: none; NAN: unbounded) */
	double p;		/* two-sided p-value of the change, when tested */
	double p_q[CMP_NQUESTIONS];	/* one-sided p of each question, across runs */
	double p_q_holm[CMP_NQUESTIONS];	/* after Holm over the column's family (the
					 * gated rows and those expectations name) */
	double p_holm;		/* p_q_holm of the change's direction: what a change reads */
	double lo_pct, hi_pct;	/* the 1 - alpha interval of the change, when tested */
	enum cmp_why why;	/* an undecided or insufficient verdict's reason */
	double runs_needed;	/* CMP_WHY_WIDE: about how many runs a side would decide it */
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
	double margin_abs;	/* the change that counts, in the metric's unit: the
				 * threshold of the baseline's median, of the value an
				 * expectation names, or the metric's floor: the largest */
	double margin_pct;	/* the same in percent of the baseline's median */
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
	enum cmp_outcome outcome;	/* the comparison as a whole: the worst column's */
	enum cmp_undecided undecided;	/* what an undecided one exits with */
	size_t family_rows;		/* rows in each column's Holm family (fixed before data) */
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

/* 1 for a regression (a gated row, or a confirmed flip to fail); for an
 * undecided comparison 4, or what --strict / --allow-undecided say; else 0. */
int cmp_exit_status(const struct cmp_table *t);
const char *cmp_verdict_name(enum cmp_verdict v);
/* A verdict that decides a row: regression, improvement or equivalent; the
 * others (undecided, insufficient data, not comparable) leave it open. */
bool cmp_verdict_decided(enum cmp_verdict v);
/* The exit status of an undecided comparison under POLICY: 4, 1 or 0. */
int cmp_undecided_exit(enum cmp_undecided policy);
/* --strict and --allow-undecided as a policy; -1 with an error when both. */
int cmp_parse_undecided(bool strict, bool allow, enum cmp_undecided *out);
/* "REGRESSION", "IMPROVEMENT, no regression", "NO REGRESSION", "UNDECIDED". */
const char *cmp_outcome_name(enum cmp_outcome o);
/* "one run a side", "noisy runs", "interval wider than the margin"... */
const char *cmp_why_name(enum cmp_why why);
/* Is CELL's change significant after Holm in the direction WORSE (or
 * better), and clear of its runs' noise? */
bool cmp_cell_significant(const struct cmp_table *t, const struct cmp_cell *cell, bool worse);
/* Is ROW's metric reported by only one of the baseline and column C (an
 * instrument one side lacks)? Such a row leaves no comparison undecided. */
bool cmp_one_sided(const struct cmp_row *row, size_t c);
/* Does a worse value of ROW's metric mean a higher one? */
bool cmp_cell_worse(const struct cmp_row *row, const struct cmp_cell *cell);

/* compare-method.c: test CELL against BASE for ROW with T's test, filling
 * tested, p, lo_pct, hi_pct, method and block. */
void cmp_test_cell(struct cmp_table *t, const struct cmp_row *row, const struct cmp_cell *base,
		   struct cmp_cell *cell);

/* compare-gate.c: mark the gated rows (T->gate_rule says how) and count the
 * family (call before the tests); Holm's procedure over each column's family
 * for each question (sets p_q_holm: call after the tests, before the
 * verdicts); and find the verdict flips of every column against the baseline
 * (a flip counts when its row confirms it after Holm). */
void cmp_gate_rows(struct cmp_table *t, const struct cmp_options *opt);
bool cmp_in_family(const struct cmp_table *t, const struct cmp_row *row);
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
/* Does ROW's margin read best as its threshold in percent (else as a
 * value: the floor, or an expectation's scale)? */
bool cmp_margin_is_threshold(const struct cmp_row *row);
/* What would decide CELL (undecided): "--until-decided or about N runs a
 * side", "a quieter host"...; into BUF. */
const char *cmp_what_decides(const struct cmp_cell *cell, char *buf, size_t len);

/* compare-print.c */
void cmp_print_text(const struct cmp_table *t, FILE *out);
void cmp_print_markdown(const struct cmp_table *t, FILE *out);
json_t *cmp_to_json(const struct cmp_table *t);
/* compare-junit.c: a testsuite per compared column, a testcase per flip and
 * gated row. compare-html.c: the page. Both return 0 or -1 on a write error. */
int cmp_print_junit(const struct cmp_table *t, FILE *out);
int cmp_write_html(const struct cmp_table *t, FILE *out);

#endif
