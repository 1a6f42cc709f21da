/* How one cell of a comparison is tested (reports/compare/compare.h): the method
 * that fits the runs a side, and the observations inside them. A metric's
 * windows are the load's time series of the same name; its events are an
 * in-band histogram whose order statistic the metric is (the table below). */
#include "config.h"
#include "reports/compare/compare.h"
#include "lib/error.h"
#include "lib/metric.h"
#include "lib/xalloc.h"
#include "reports/compare/resample.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Metrics that are an order statistic of an in-band histogram: Q = 1 is the
 * maximum. starvation_max (the sampler's) draws on the in-band gaps too:
 * the victim's own view of the same stretches. */
static const struct {
	enum metric_id metric;
	const char *histogram;
	double q;
} cmp_events[] = {
	{ MET_STARVATION_MAX, "gap", 1 },		{ MET_STARVATION_MAX_INBAND, "gap", 1 },
	{ MET_WAKEUP_P50, "wakeup_latency", 0.5 },	{ MET_WAKEUP_P90, "wakeup_latency", 0.9 },
	{ MET_WAKEUP_P99, "wakeup_latency", 0.99 },	{ MET_WAKEUP_P999, "wakeup_latency", 0.999 },
	{ MET_WAKEUP_MAX, "wakeup_latency", 1 },
};

/* The observations of one side, and what they point into. */
struct cmp_obs {
	struct rs_obs *runs;
	double **owned;		/* histogram arrays built here, 2 per run */
	size_t n;
};

static void cmp_obs_free(struct cmp_obs *o)
{
	for (size_t i = 0; i < 2 * o->n; i++)
		free(o->owned[i]);
	free(o->owned);
	free(o->runs);
}

/* H's buckets as values (seconds: the lower bound; the top one its exact
 * maximum when the file has it) and cumulative counts. */
static void cmp_obs_hist(const struct rv_histogram *h, struct rs_obs *o, double **owned)
{
	double *x = xcalloc(h->n_buckets, sizeof(*x)), *cum = xcalloc(h->n_buckets, sizeof(*cum));
	double total = 0;

	for (size_t i = 0; i < h->n_buckets; i++) {
		x[i] = (double)h->buckets[i].lower_ns / 1e9;
		total += (double)h->buckets[i].count;
		cum[i] = total;
	}
	if (h->n_buckets && isfinite(h->max_ns))
		x[h->n_buckets - 1] = h->max_ns / 1e9;
	*o = (struct rs_obs){ .x = x, .cum = cum, .n = h->n_buckets, .q = o->q };
	owned[0] = x;
	owned[1] = cum;
}

/* A load that tracks gaps but had none over its min_gap has no histogram:
 * its only "event" is its in-band maximum, below min_gap. */
static void cmp_obs_single(double value, struct rs_obs *o, double **owned)
{
	double *x = xcalloc(1, sizeof(*x)), *cum = xcalloc(1, sizeof(*cum));

	x[0] = value;
	cum[0] = 1;
	*o = (struct rs_obs){ .x = x, .cum = cum, .n = 1, .q = o->q };
	owned[0] = x;
	owned[1] = cum;
}

/* The events of METRIC in LOAD into O; false when it has none. */
static bool cmp_obs_events(const char *metric, const struct rv_load *load, struct rs_obs *o,
			   double **owned)
{
	for (size_t i = 0; i < sizeof(cmp_events) / sizeof(cmp_events[0]); i++) {
		const struct rv_histogram *h;
		double inband;

		if (strcmp(metric_name(cmp_events[i].metric), metric))
			continue;
		o->q = cmp_events[i].q;
		h = rv_load_histogram(load, cmp_events[i].histogram);
		if (h && h->n_buckets) {
			cmp_obs_hist(h, o, owned);
			return true;
		}
		inband = rv_load_metric(load, metric_name(MET_STARVATION_MAX_INBAND));
		if (!strcmp(cmp_events[i].histogram, "gap") && isfinite(inband)) {
			cmp_obs_single(inband, o, owned);
			return true;
		}
		return false;
	}
	return false;
}

/* CELL's observations of METRIC, all windows or all events (EVENTS says
 * which); false when a run lacks them. */
static bool cmp_obs_build(const char *metric, const struct cmp_cell *cell, bool events,
			  struct cmp_obs *o)
{
	o->n = cell->n;
	o->runs = xcalloc(cell->n, sizeof(*o->runs));
	o->owned = xcalloc(2 * cell->n, sizeof(*o->owned));
	for (size_t i = 0; i < cell->n; i++) {
		const struct rv_series *s;

		if (events) {
			if (!cmp_obs_events(metric, cell->loads[i], &o->runs[i], &o->owned[2 * i]))
				return false;
			continue;
		}
		s = rv_load_series(cell->loads[i], metric);
		if (!s || s->n < 2)
			return false;
		o->runs[i] = (struct rs_obs){ .x = s->values, .n = s->n };
	}
	return true;
}

/* The bootstrap over windows or events, when both sides have them. */
static bool cmp_try_bootstrap(const struct cmp_table *t, const struct cmp_row *row,
			      const struct cmp_cell *base, struct cmp_cell *cell, bool events)
{
	struct cmp_obs a = { 0 }, b = { 0 };
	struct rs_result r;
	bool ok = cmp_obs_build(row->metric, base, events, &a) &&
		  cmp_obs_build(row->metric, cell, events, &b) &&
		  rs_compare_n(&(struct rs_side){ a.runs, a.n }, &(struct rs_side){ b.runs, b.n },
			       t->alpha, rs_replicates_for(t->n_rows), &r) == 0;

	cmp_obs_free(&a);
	cmp_obs_free(&b);
	if (!ok)
		return false;
	cell->p = r.p;
	cell->lo_pct = r.lo_pct;
	cell->hi_pct = r.hi_pct;
	cell->block = r.block;
	cell->method = events ? "bootstrap-events" : "bootstrap-windows";
	return true;
}

/* One-sided p-values of B above (UP) and below (DOWN) A, as the cell's
 * questions: which is "worse" depends on the metric's direction. */
static void cmp_set_sided(const struct cmp_row *row, struct cmp_cell *cell, double up, double down)
{
	bool higher_worse = row->def->better == LOWER_IS_BETTER;

	cell->p_q[CMP_Q_WORSE] = higher_worse ? up : down;
	cell->p_q[CMP_Q_BETTER] = higher_worse ? down : up;
	cell->p = fmin(1, 2 * fmin(up, down));
}

static bool cmp_try_mwu(struct cmp_table *t, const struct cmp_row *row,
			const struct cmp_cell *base, struct cmp_cell *cell)
{
	struct stat_interval ci;
	struct stat_mwu u;

	if (stat_mann_whitney(base->samples, base->n, cell->samples, cell->n, &u) < 0 ||
	    stat_shift_interval(base->samples, base->n, cell->samples, cell->n, t->alpha, &ci) < 0)
		return false;
	cmp_set_sided(row, cell, u.p_up, u.p_down);
	cell->lo_pct = ci.lo_pct;
	cell->hi_pct = ci.hi_pct;
	cell->method = u.method == STAT_EXACT ? "mann-whitney" : "mann-whitney-normal";
	if (stat_mwu_min_p_one_sided(base->n, cell->n) >= t->alpha)
		t->underpowered++;
	return true;
}

/* A t test on the logs (or values) of S, the two sides' runs: Student's
 * with one pooled variance in auto mode, Welch's when asked (--test
 * welch). The interval shown is Welch's either way: it is about the
 * change's size, which holds whatever the two spreads are. */
static bool cmp_try_t(const struct cmp_table *t, const struct cmp_row *row,
		      const struct stat_two *s, struct cmp_cell *cell, bool welch)
{
	struct stat_interval ci;
	double up, down;

	if (welch)
		stat_t_sided(s->diff, s->se_welch, s->df_welch, &up, &down);
	else
		stat_t_sided(s->diff, s->se_pooled, s->df_pooled, &up, &down);
	cmp_set_sided(row, cell, up, down);
	stat_two_interval(s, t->alpha, &ci);
	cell->lo_pct = ci.lo_pct;
	cell->hi_pct = ci.hi_pct;
	cell->method = welch ? (s->log ? "welch-log" : "welch") : (s->log ? "student-log" : "student");
	return true;
}

/* The automatic choice. The runs are the replications: the spread between
 * them (where the machine stood, what else ran) is what a verdict about
 * kernels must beat, so with 2 runs or more a side only the run values are
 * tested: ranks when they can reach what Holm asks of the family's first
 * row (alpha over the family's size), else Student's t on logs, whose null
 * (one distribution for both sides, as the rank test's) has one variance,
 * so its degrees of freedom are the runs', not Welch-Satterthwaite's. With
 * one run on a side nothing measures that spread for it: the bootstrap over
 * the runs' windows or events gives an interval of these runs, shown but
 * never a verdict (on the A/A pairs of tests/compare/aa such intervals flag
 * 36% of rows at one run a side: the runs of one result vary less than
 * results do). */
static bool cmp_auto(struct cmp_table *t, const struct cmp_row *row, const struct cmp_cell *base,
		     const struct stat_two *s, struct cmp_cell *cell)
{
	double level = t->alpha / (double)(t->family_rows ? t->family_rows : 1);

	if (s)
		return stat_mwu_min_p_one_sided(base->n, cell->n) < level ?
		       cmp_try_mwu(t, row, base, cell) : cmp_try_t(t, row, s, cell, false);
	cell->within_runs = cmp_try_bootstrap(t, row, base, cell, false) ||
			    cmp_try_bootstrap(t, row, base, cell, true);
	return cell->within_runs;
}

/* The tests of the runs (2 or more a side, S their summary), and with one
 * run on a side the interval of the runs. Equivalence is the two one-sided
 * tests of "inside the row's margin", on Welch's standard error (under its
 * null the sides differ, so their spreads may too). */
void cmp_test_cell(struct cmp_table *t, const struct cmp_row *row, const struct cmp_cell *base,
		   struct cmp_cell *cell)
{
	struct stat_two two;
	const struct stat_two *s = stat_two_sample(base->samples, base->n, cell->samples, cell->n,
						   &two) == 0 ? &two : NULL;

	cell->tested = cell->within_runs = false;
	cell->lo_pct = cell->hi_pct = NAN;
	for (int q = 0; q < CMP_NQUESTIONS; q++)
		cell->p_q[q] = 1;
	if (!base->n || !cell->n)
		return;
	switch (t->test) {
	case CMP_TEST_MWU:
		cell->tested = base->n >= CMP_MIN_SAMPLES && cell->n >= CMP_MIN_SAMPLES &&
			       cmp_try_mwu(t, row, base, cell);
		break;
	case CMP_TEST_WELCH:
		cell->tested = base->n >= CMP_MIN_SAMPLES && cell->n >= CMP_MIN_SAMPLES &&
			       cmp_try_t(t, row, s, cell, true);
		break;
	default:
		cell->tested = cmp_auto(t, row, base, s, cell);
	}
	if (cell->tested && !cell->within_runs && s)
		cell->p_q[CMP_Q_SAME] = stat_tost(s, row->margin_pct / 100, row->margin_abs);
}
