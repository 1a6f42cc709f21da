/* A comparison in words (reports/compare/compare.h): changes and intervals as a
 * reader takes them in (no "inf", no six-digit percentages: a ratio past
 * 10x), and the headline every output opens with: the verdict, the kernels,
 * and the gated changes that decided it, with their size and confidence,
 * as a kernel developer would write them in a mail. */
#include "config.h"
#include "reports/compare/compare.h"
#include "reports/result/verdict.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Past this change (+900 %, ten times the baseline) a ratio reads better. */
#define CMP_RATIO_FROM_PCT 900.0
/* Past this ratio the number says nothing more. */
#define CMP_RATIO_MAX 100.0

const char *cmp_pct_text(double pct, char *buf, size_t len)
{
	if (isnan(pct))
		snprintf(buf, len, "-");
	else if (pct >= CMP_RATIO_FROM_PCT) {
		double ratio = 1 + pct / 100;

		if (!isfinite(ratio) || ratio >= CMP_RATIO_MAX)
			snprintf(buf, len, "more than x%.0f", CMP_RATIO_MAX);
		else
			snprintf(buf, len, "x%.3g", ratio);
	} else if (isinf(pct))	/* -inf: impossible for a change of values >= 0 */
		snprintf(buf, len, "-100%%");
	else
		snprintf(buf, len, "%+.1f%%", pct);
	return buf;
}

void cmp_interval(const struct cmp_cell *cell, double *lo, double *hi)
{
	/* a percentile interval of few resamples can end at or short of the
	 * estimate; the printed one always holds it */
	*lo = cell->lo_pct, *hi = cell->hi_pct;
	if (isnan(cell->change_pct))
		return;
	if (!(*lo <= cell->change_pct))
		*lo = cell->change_pct;
	if (!(*hi >= cell->change_pct))
		*hi = cell->change_pct;
}

const char *cmp_change_text(const struct cmp_cell *cell, char *buf, size_t len)
{
	char est[32], a[32], b[32];
	double lo, hi;

	cmp_pct_text(cell->change_pct, est, sizeof(est));
	if (!cell->tested || isnan(cell->lo_pct)) {
		snprintf(buf, len, "%s", est);
		return buf;
	}
	cmp_interval(cell, &lo, &hi);
	snprintf(buf, len, "%s [%s, %s]", est, cmp_pct_text(lo, a, sizeof(a)),
		 cmp_pct_text(hi, b, sizeof(b)));
	return buf;
}

bool cmp_within_threshold(const struct cmp_table *t, const struct cmp_cell *cell)
{
	return cell->verdict == CMP_NO_CHANGE && cell->tested && !cell->within_runs &&
	       cell->p_holm < t->alpha && (cell->lo_pct > 0 || cell->hi_pct < 0);
}

/* ---- the headline ---- */

/* How a cell counts for the headline: 4 decided by a flip, 3 a regression or
 * improvement, 2 a tested change without a verdict, 1 an untested one, 0
 * nothing to say. */
static int cmp_weight(const struct cmp_cell *cell)
{
	if (cell->flip >= 0)
		return 4;
	if (cell->verdict == CMP_REGRESSION || cell->verdict == CMP_IMPROVEMENT)
		return 3;
	if (!isfinite(cell->change_pct) || cell->change_pct == 0)
		return 0;
	return cell->tested ? 2 : 1;
}

/* "victim starvation_max: 950ms -> 400.3ms, -57.9% [-57.9%, x51] (p 0.053):
 * better; 'below 700ms' failed on A and passes on B". */
static void cmp_headline_row(const struct cmp_table *t, const struct cmp_row *row, size_t c,
			     const char *bullet, const char *eol, FILE *out)
{
	const struct cmp_cell *cell = &row->cells[c];
	char a[64], b[64], change[96], label[256];

	fprintf(out, "%s%s%s%s %s: %s -> %s, %s", bullet, row->setting && *row->setting &&
		!t->one_setting ? row->setting : "", row->setting && *row->setting &&
		!t->one_setting ? " " : "", row->load, row->metric,
		metric_format(row->metric, row->cells[0].median, METRIC_DIGITS + 1, a, sizeof(a)),
		metric_format(row->metric, cell->median, METRIC_DIGITS + 1, b, sizeof(b)),
		cmp_change_text(cell, change, sizeof(change)));
	if (cell->tested)
		fprintf(out, " (p %.2g)", cell->p);
	if (t->n_columns > 2)
		fprintf(out, " on %s", t->columns[c].label);
	if (cell->flip >= 0) {
		const struct cmp_flip *f = &t->flips[cell->flip];

		fprintf(out, ": %s; '%s' %s on %s, %s on %s%s",
			f->verdict == CMP_REGRESSION ? "worse" : "better",
			verdict_label(f->rule, label, sizeof(label)), verdict_name(f->from),
			t->columns[0].label, verdict_name(f->to), t->columns[f->column].label, eol);
	} else if (cell->verdict == CMP_REGRESSION || cell->verdict == CMP_IMPROVEMENT)
		fprintf(out, ": %s, beyond its %g%% threshold%s",
			cell->verdict == CMP_REGRESSION ? "worse" : "better", row->threshold, eol);
	else
		fprintf(out, ": %s%s", cell->within_runs ? "one run a side, no verdict" :
			cmp_within_threshold(t, cell) ? "within threshold" :
			cell->tested ? "no significant change" : "no verdict", eol);
}

/* The verdict line: "REGRESSION in rt-victim: B against A". */
static void cmp_headline_verdict(const struct cmp_table *t, FILE *out, bool markdown)
{
	const char *word = cmp_exit_status(t) ? "REGRESSION" :
			   t->counts[CMP_IMPROVEMENT] || t->n_flips ? "IMPROVEMENT, no regression" :
			   "NO REGRESSION";

	fprintf(out, "%s%s in %s: ", markdown ? "### starve compare: " : "", word, t->profile);
	for (size_t c = 1; c < t->n_columns; c++)
		fprintf(out, "%s%s", c > 1 ? ", " : "", t->columns[c].label);
	fprintf(out, " against %s%s", t->columns[0].label, markdown ? "\n\n" : "\n");
}

void cmp_print_headline(const struct cmp_table *t, FILE *out, bool markdown)
{
	const char *bullet = markdown ? "- " : "  ", *eol = "\n";
	size_t shown = 0;

	cmp_headline_verdict(t, out, markdown);
	/* what decided it first, then the other changes of gated rows */
	for (int weight = 4; weight > 0 && shown < CMP_HEADLINE_ROWS; weight--)
		for (size_t r = 0; r < t->n_rows && shown < CMP_HEADLINE_ROWS; r++)
			for (size_t c = 1; c < t->n_columns && shown < CMP_HEADLINE_ROWS; c++)
				if (t->rows[r].gated && cmp_weight(&t->rows[r].cells[c]) == weight) {
					cmp_headline_row(t, &t->rows[r], c, bullet, eol, out);
					shown++;
				}
	if (!shown)
		fprintf(out, "%sno gated metric changed%s", bullet, eol);
	fputc('\n', out);
}
