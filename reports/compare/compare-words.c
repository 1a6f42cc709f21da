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
	return cell->verdict == CMP_EQUIVALENT && cell->p_holm < t->alpha;
}

bool cmp_margin_is_threshold(const struct cmp_row *row)
{
	return !(row->margin_abs > 0) || !(row->margin_pct > row->threshold * (1 + 1e-9));
}

const char *cmp_what_decides(const struct cmp_cell *cell, char *buf, size_t len)
{
	switch (cell->why) {
	case CMP_WHY_ONE_RUN:
		snprintf(buf, len, "repeat >= 2 on both sides, or --until-decided");
		break;
	case CMP_WHY_FEW_RUNS:
		snprintf(buf, len, "repeat >= %d on both sides, or --test auto", CMP_MIN_SAMPLES);
		break;
	case CMP_WHY_NOISY:
		snprintf(buf, len, "a quieter host (other tasks or the hypervisor took CPU time "
			 "from the loads)");
		break;
	case CMP_WHY_WIDE:
		if (isfinite(cell->runs_needed) && cell->runs_needed <= 100)
			snprintf(buf, len, "about %.0f runs a side (--until-decided)",
				 cell->runs_needed);
		else
			snprintf(buf, len, "far more runs a side, a larger threshold, or a quieter "
				 "host");
		break;
	case CMP_WHY_CONFOUNDER:
		snprintf(buf, len, "the same clock source, CPU and command line on both sides");
		break;
	default:
		snprintf(buf, len, "runs where the load reports the metric");
	}
	return buf;
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

/* "5% margin", or "1ms margin" where the metric's floor is the larger. */
static void cmp_margin_text(const struct cmp_row *row, FILE *out)
{
	char abs[64];

	if (cmp_margin_is_threshold(row))
		fprintf(out, "%g%% margin", row->threshold);
	else
		fprintf(out, "%s margin", metric_format(row->metric, row->margin_abs, METRIC_DIGITS,
							 abs, sizeof(abs)));
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
	} else if (cell->verdict == CMP_REGRESSION || cell->verdict == CMP_IMPROVEMENT) {
		fprintf(out, ": %s, beyond its ", cell->verdict == CMP_REGRESSION ? "worse" : "better");
		cmp_margin_text(row, out);
		fputs(eol, out);
	} else if (cell->verdict == CMP_EQUIVALENT) {
		fputs(": the same within its ", out);
		cmp_margin_text(row, out);
		fputs(eol, out);
	} else if (cell->why == CMP_WHY_WIDE) {
		char what[160];

		fprintf(out, ": undecided (%s; would decide: %s)%s", cmp_why_name(cell->why),
			cmp_what_decides(cell, what, sizeof(what)), eol);
	} else
		fprintf(out, ": undecided (%s)%s", cmp_why_name(cell->why), eol);
}

/* The verdict line: "REGRESSION in rt-victim: B against A". */
static void cmp_headline_verdict(const struct cmp_table *t, FILE *out, bool markdown)
{
	fprintf(out, "%s%s in %s: ", markdown ? "### starve compare: " : "",
		cmp_outcome_name(t->outcome), t->profile);
	for (size_t c = 1; c < t->n_columns; c++)
		fprintf(out, "%s%s", c > 1 ? ", " : "", t->columns[c].label);
	fprintf(out, " against %s%s", t->columns[0].label, markdown ? "\n\n" : "\n");
}

/* The gated undecided cell that needs the most runs. */
static const struct cmp_cell *cmp_widest(const struct cmp_table *t)
{
	const struct cmp_cell *widest = NULL;

	for (size_t r = 0; r < t->n_rows; r++)
		for (size_t c = 1; c < t->n_columns; c++) {
			const struct cmp_cell *cell = &t->rows[r].cells[c];

			if (t->rows[r].gated && cell->why == CMP_WHY_WIDE &&
			    (!widest || !(cell->runs_needed <= widest->runs_needed)))
				widest = cell;
		}
	return widest;
}

/* Why an undecided comparison is: how many gated rows are open, for which
 * reasons, and with which exit status. */
static void cmp_headline_undecided(const struct cmp_table *t, const char *bullet, const char *eol,
				   FILE *out)
{
	size_t why[CMP_WHY_CONFOUNDER + 1] = { 0 }, open = 0, gated = 0;
	const struct cmp_cell *example[CMP_WHY_CONFOUNDER + 1] = { NULL };
	char what[160];
	bool first = true;

	for (size_t r = 0; r < t->n_rows; r++)
		for (size_t c = 1; c < t->n_columns; c++) {
			const struct cmp_cell *cell = &t->rows[r].cells[c];

			if (!t->rows[r].gated || cmp_one_sided(&t->rows[r], c))
				continue;
			gated++;
			if (cmp_verdict_decided(cell->verdict))
				continue;
			open++;
			why[cell->why]++;
			if (!example[cell->why])
				example[cell->why] = cell;
		}
	for (size_t c = 0; c < t->n_columns; c++)
		if (!t->columns[c].runs_ok) {
			fprintf(out, "%s%s has no completed run: nothing was measured there%s", bullet,
				t->columns[c].label, eol);
			return;
		}
	if (!gated) {
		fprintf(out, "%sno gated metric was measured on both sides%s", bullet, eol);
		return;
	}
	fprintf(out, "%sundecided: %zu of %zu gated row%s (", bullet, open, gated,
		gated == 1 ? "" : "s");
	for (size_t w = 1; w <= CMP_WHY_CONFOUNDER; w++)
		if (why[w]) {
			fprintf(out, "%s%s: %zu", first ? "" : ", ", cmp_why_name(w), why[w]);
			first = false;
		}
	fprintf(out, "); not a pass: exit %d%s", cmp_exit_status(t), eol);
	for (size_t w = 1; w <= CMP_WHY_CONFOUNDER; w++)
		if (why[w] && w != CMP_WHY_WIDE)
			fprintf(out, "%s%s: would decide: %s%s", bullet, cmp_why_name(w),
				cmp_what_decides(example[w], what, sizeof(what)), eol);
	if (why[CMP_WHY_WIDE])
		fprintf(out, "%s%s: would decide: %s%s", bullet, cmp_why_name(CMP_WHY_WIDE),
			cmp_what_decides(cmp_widest(t), what, sizeof(what)), eol);
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
				if (t->rows[r].gated &&
				    cmp_weight(&t->rows[r].cells[c]) == weight) {
					cmp_headline_row(t, &t->rows[r], c, bullet, eol, out);
					shown++;
				}
	if (t->outcome == CMP_OUT_UNDECIDED)
		cmp_headline_undecided(t, bullet, eol, out);
	else if (!shown)
		fprintf(out, "%severy gated metric the same within its margin%s", bullet, eol);
	fputc('\n', out);
}
