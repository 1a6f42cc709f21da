/* A comparison as one HTML page (reports/compare/compare.h), in the style of the run
 * page (reports/format/html.c: XHTML through the XML writer, inline CSS and SVG, no
 * script): the verdict flips on top, then per metric a strip plot of every
 * result's runs side by side, the baseline first and marked, each other
 * result with its change, interval and verdict. Gated rows come before the
 * informational ones. */
#include "config.h"
#include "reports/compare/compare.h"
#include "reports/format/html.h"
#include "reports/format/svg.h"
#include "reports/result/verdict.h"
#include "reports/format/xml-writer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CH_WIDTH 940.0
#define CH_LEFT 150.0	/* the labels' column */
#define CH_RIGHT 400.0	/* change and verdict */
#define CH_LANE 22.0
#define CH_AXIS 30.0	/* below the lanes: the value axis */
#define CH_TICKS 5	/* at most about this many ticks on the value axis */
#define CH_CHAR_W 7.5	/* a tick label's character at font-size 12, a little wide */
#define CH_TICK_GAP 8.0	/* the least room between two tick labels */

static const char *ch_verdict_class(enum cmp_verdict v)
{
	return v == CMP_REGRESSION ? "fail" : v == CMP_IMPROVEMENT ? "pass" :
	       v == CMP_EQUIVALENT ? NULL : "skip";
}

static void ch_text(struct xml_writer *w, double x, double y, const char *anchor,
		    const char *weight, const char *text)
{
	xml_open(w, "text");
	xml_attrf(w, "x", "%.1f", x);
	xml_attrf(w, "y", "%.1f", y);
	xml_attr(w, "font-size", "12");
	xml_attr(w, "text-anchor", anchor);
	xml_attr(w, "font-weight", weight);
	xml_text(w, text);
	xml_close(w);
}

/* The range of every value of ROW, a little wider; never below 0 when no
 * value is (a duration, a share or a rate has no negative axis). */
static void ch_range(const struct cmp_table *t, const struct cmp_row *row, double *lo, double *hi)
{
	double min;

	*lo = INFINITY, *hi = -INFINITY;
	for (size_t c = 0; c < t->n_columns; c++)
		for (size_t i = 0; i < row->cells[c].n; i++) {
			*lo = fmin(*lo, row->cells[c].samples[i]);
			*hi = fmax(*hi, row->cells[c].samples[i]);
		}
	min = *lo;
	if (!(*hi > *lo)) {
		*lo -= fabs(*lo) * 0.1 + 1e-12;
		*hi += fabs(*hi) * 0.1 + 1e-12;
	}
	*lo -= (*hi - *lo) * 0.05;
	*hi += (*hi - *lo) * 0.05;
	if (min >= 0)
		*lo = fmax(*lo, 0);
}

static double ch_x(double v, double lo, double hi)
{
	return CH_LEFT + (v - lo) / (hi - lo) * (CH_WIDTH - CH_LEFT - CH_RIGHT);
}

static void ch_line(struct xml_writer *w, double x1, double y1, double x2, double y2,
		    const char *stroke)
{
	xml_open(w, "line");
	xml_attrf(w, "x1", "%.1f", x1), xml_attrf(w, "y1", "%.1f", y1);
	xml_attrf(w, "x2", "%.1f", x2), xml_attrf(w, "y2", "%.1f", y2);
	xml_attr(w, "stroke", stroke);
	xml_close(w);
}

/* The line of lane C, drawn under the band: the baseline's thin and dark, so
 * that it marks its lane without hiding the band (it was a 6-pixel bar of
 * the band's own colour). */
static void ch_lane_line(struct xml_writer *w, size_t c)
{
	double y = 14 + CH_LANE * (double)c;

	ch_line(w, CH_LEFT, y, CH_WIDTH - CH_RIGHT, y, c ? "#ddd" : "#236");
}

/* Lane C over its line and the band: its label, a dot per run, a bar at the
 * median, and the change and verdict at the right. */
static void ch_lane(struct xml_writer *w, const struct cmp_table *t, const struct cmp_row *row,
		    size_t c, double lo, double hi)
{
	const struct cmp_cell *cell = &row->cells[c];
	double y = 14 + CH_LANE * (double)c, mx;
	char buf[192], value[64], change[96];

	ch_text(w, CH_LEFT - 6, y + 4, "end", c ? "normal" : "bold", t->columns[c].label);
	for (size_t i = 0; i < cell->n; i++) {
		xml_open(w, "circle");
		xml_attrf(w, "cx", "%.1f", ch_x(cell->samples[i], lo, hi));
		xml_attrf(w, "cy", "%.1f", y);
		xml_attr(w, "r", "4");
		xml_attr(w, "fill", c ? "#c33" : "#236");
		xml_attr(w, "fill-opacity", "0.7");
		html_el(w, "title", metric_format(row->metric, cell->samples[i], METRIC_DIGITS + 1,
						  value, sizeof(value)));
		xml_close(w);
	}
	if (isfinite(cell->median)) {
		mx = ch_x(cell->median, lo, hi);
		xml_open(w, "line");
		xml_attrf(w, "x1", "%.1f", mx), xml_attrf(w, "x2", "%.1f", mx);
		xml_attrf(w, "y1", "%.1f", y - 8), xml_attrf(w, "y2", "%.1f", y + 8);
		xml_attr(w, "stroke", "#000");
		xml_attr(w, "stroke-width", "2");
		xml_close(w);
	}
	metric_format(row->metric, cell->median, METRIC_DIGITS + 1, value, sizeof(value));
	if (!c)
		snprintf(buf, sizeof(buf), "%s (baseline)", value);
	else if (cell->tested)
		snprintf(buf, sizeof(buf), "%s %s %s", value,
			 cmp_change_text(cell, change, sizeof(change)),
			 cmp_within_threshold(t, cell) ? "within margin" :
			 cmp_verdict_name(cell->verdict));
	else
		snprintf(buf, sizeof(buf), "%s %s", value, cmp_verdict_name(cell->verdict));
	ch_text(w, CH_WIDTH - CH_RIGHT + 8, y + 4, "start",
		c && (cell->verdict == CMP_REGRESSION || cell->verdict == CMP_IMPROVEMENT) ?
		"bold" : "normal", buf);
}

/* The baseline's band across every lane: its median +- the row's margin,
 * where a change is too small to count, so a +0.5 % change sits inside it
 * and a +20 % one far out. */
static void ch_band(struct xml_writer *w, const struct cmp_table *t, const struct cmp_row *row,
		    double lo, double hi)
{
	double m = row->cells[0].median, d = row->margin_abs, a, b;

	if (!isfinite(m))
		return;
	a = ch_x(fmax(m - d, lo), lo, hi), b = ch_x(fmin(m + d, hi), lo, hi);
	xml_open(w, "rect");
	xml_attrf(w, "x", "%.1f", a);
	xml_attr(w, "y", "4");
	xml_attrf(w, "width", "%.1f", fmax(b - a, 1));
	xml_attrf(w, "height", "%.1f", CH_LANE * (double)t->n_columns);
	xml_attr(w, "fill", "#9bd");
	xml_attr(w, "fill-opacity", "0.25");
	html_el(w, "title", "the baseline's median +- the margin: a change inside it is none");
	xml_close(w);
}

/* One tick of the value axis. */
struct ch_tick {
	double v;
	char label[64];
};

/* Ticks on [LO, HI] at a round step, about K of them, labelled with the
 * fewest digits (METRIC_DIGITS at least) that tell every two apart, so an
 * axis never reads "1 1 1"; returns how many (at most CH_TICKS + 2). */
static size_t ch_ticks(const struct cmp_row *row, double lo, double hi, int k,
		       struct ch_tick *t)
{
	double step = svg_nice_step((hi - lo) / k), first = ceil(lo / step - 1e-9) * step;
	size_t n = 0;
	bool apart = false;

	for (double v = first; v <= hi + step * 1e-9 && n < CH_TICKS + 2; v = first + (double)n * step)
		t[n++].v = fabs(v) < step * 1e-9 ? 0 : v;
	for (int digits = METRIC_DIGITS; !apart && digits <= 15; digits++) {
		apart = true;
		for (size_t i = 0; i < n; i++) {
			metric_format(row->metric, t[i].v, digits, t[i].label, sizeof(t[i].label));
			apart &= !i || strcmp(t[i].label, t[i - 1].label) != 0;
		}
	}
	return n;
}

/* Whether the N labels of T, centred under their ticks, keep CH_TICK_GAP
 * between each two. */
static bool ch_ticks_fit(const struct ch_tick *t, size_t n, double lo, double hi)
{
	for (size_t i = 1; i < n; i++)
		if (ch_x(t[i].v, lo, hi) - ch_x(t[i - 1].v, lo, hi) <
		    (double)(strlen(t[i].label) + strlen(t[i - 1].label)) * CH_CHAR_W / 2 + CH_TICK_GAP)
			return false;
	return true;
}

/* The value axis under the lanes: round ticks with the metric's unit, as
 * many as CH_TICKS whose labels do not overlap. */
static void ch_axis(struct xml_writer *w, const struct cmp_table *t, const struct cmp_row *row,
		    double lo, double hi)
{
	double y = 8 + CH_LANE * (double)t->n_columns;
	struct ch_tick ticks[CH_TICKS + 2];
	size_t n = 0;

	for (int k = CH_TICKS; k >= 1; k--)
		if (ch_ticks_fit(ticks, n = ch_ticks(row, lo, hi, k, ticks), lo, hi))
			break;
	ch_line(w, CH_LEFT, y, CH_WIDTH - CH_RIGHT, y, "#555");
	for (size_t i = 0; i < n; i++) {
		double x = ch_x(ticks[i].v, lo, hi);

		ch_line(w, x, y, x, y + 4, "#555");
		ch_text(w, x, y + 16, "middle", "normal", ticks[i].label);
	}
}

static void ch_row(struct xml_writer *w, const struct cmp_table *t, const struct cmp_row *row)
{
	double lo, hi;
	char title[256];

	xml_open(w, "section");
	bool setting = !t->one_setting && row->setting && *row->setting;

	snprintf(title, sizeof(title), "%s%s%s %s%s", setting ? row->setting : "",
		 setting ? ": " : "", row->load, row->metric,
		 row->gated ? "" : " (information, does not gate)");
	html_el(w, "h3", title);
	ch_range(t, row, &lo, &hi);
	xml_open(w, "svg");
	xml_attr(w, "xmlns", "http://www.w3.org/2000/svg");
	xml_attrf(w, "width", "%.0f", CH_WIDTH);
	xml_attrf(w, "height", "%.0f", 14 + CH_AXIS + CH_LANE * (double)t->n_columns);
	xml_attr(w, "role", "img");
	html_el(w, "title", title);
	for (size_t c = 0; c < t->n_columns; c++)
		ch_lane_line(w, c);
	ch_band(w, t, row, lo, hi);
	ch_axis(w, t, row, lo, hi);
	for (size_t c = 0; c < t->n_columns; c++)
		ch_lane(w, t, row, c, lo, hi);
	xml_close(w);
	xml_close(w);
}

static void ch_flips(struct xml_writer *w, const struct cmp_table *t)
{
	char label[256];

	if (!t->n_flips)
		return;
	xml_open(w, "section");
	html_el(w, "h2", "Verdict flips");
	xml_open(w, "table");
	for (size_t i = 0; i < t->n_flips; i++) {
		const struct cmp_flip *f = &t->flips[i];
		char text[512];

		snprintf(text, sizeof(text), "%s%s%s: %s on %s, %s on %s",
			 verdict_label(f->rule, label, sizeof(label)), f->setting ? " in " : "",
			 f->setting ? f->setting : "", verdict_name(f->from), t->columns[0].label,
			 verdict_name(f->to), t->columns[f->column].label);
		xml_open(w, "tr");
		xml_open(w, "td");
		xml_attr(w, "class", ch_verdict_class(f->verdict));
		xml_text(w, cmp_verdict_name(f->verdict));
		xml_close(w);
		html_el(w, "td", text);
		xml_close(w);
	}
	xml_close(w);
	xml_close(w);
}

/* The headline (compare-words.c): its verdict line as the page's title,
 * the changes that decided it as a list. */
static void ch_headline(struct xml_writer *w, const struct cmp_table *t)
{
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	cmp_print_headline(t, f, false);
	fclose(f);
	line = strtok_r(text, "\n", &save);
	if (line)
		html_el(w, "h1", line);
	xml_open(w, "ul");
	while ((line = strtok_r(NULL, "\n", &save)))
		html_el(w, "li", line + strspn(line, " "));
	xml_close(w);
	free(text);
}

static void ch_header(struct xml_writer *w, const struct cmp_table *t)
{
	char text[512];

	ch_headline(w, t);
	snprintf(text, sizeof(text), "Baseline %s. Gated rows: %zu regression%s, %zu "
		 "improvement%s, %zu equivalent, %zu undecided or untested; %zu verdict flip%s; "
		 "alpha %g; gating: %s. Exit status %d.", t->columns[0].label,
		 t->counts[CMP_REGRESSION], t->counts[CMP_REGRESSION] == 1 ? "" : "s",
		 t->counts[CMP_IMPROVEMENT], t->counts[CMP_IMPROVEMENT] == 1 ? "" : "s",
		 t->counts[CMP_EQUIVALENT], t->counts[CMP_UNDECIDED] + t->counts[CMP_INSUFFICIENT] +
		 t->counts[CMP_NOT_COMPARABLE], t->n_flips, t->n_flips == 1 ? "" : "s", t->alpha,
		 t->gate_rule, cmp_exit_status(t));
	xml_open(w, "p");
	xml_attr(w, "class", t->outcome == CMP_OUT_REGRESSION || t->outcome == CMP_OUT_UNDECIDED ?
		 "bad" : NULL);
	xml_text(w, text);
	xml_close(w);
	html_el(w, "p", "Each dot is one run; the black bar is the median; the blue band is the "
			"baseline's median +- the margin. The interval is the change's 1 - alpha "
			"confidence interval.");
}

int cmp_write_html(const struct cmp_table *t, FILE *f)
{
	struct xml_writer w;
	char title[256];

	xml_begin(&w, f);
	fputs("\n<!DOCTYPE html>", f);
	xml_open(&w, "html");
	xml_attr(&w, "xmlns", "http://www.w3.org/1999/xhtml");
	xml_attr(&w, "lang", "en");
	xml_open(&w, "head");
	xml_open(&w, "meta");
	xml_attr(&w, "charset", "utf-8");
	xml_close(&w);
	snprintf(title, sizeof(title), "starve compare: %s in %s", cmp_outcome_name(t->outcome),
		 t->profile);
	html_el(&w, "title", title);
	html_el(&w, "style", html_css);
	xml_close(&w);
	xml_open(&w, "body");
	ch_header(&w, t);
	cmp_confounders_html(&w, t);
	ch_flips(&w, t);
	for (int gated = 1; gated >= 0; gated--)
		for (size_t r = 0; r < t->n_rows; r++)
			if (t->rows[r].gated == gated)
				ch_row(&w, t, &t->rows[r]);
	xml_close(&w);
	xml_close(&w);
	return xml_end(&w);
}
