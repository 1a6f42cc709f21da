/* A tiny SVG plotter for the HTML report: x-y plots (lines, or a histogram's
 * CCDF in bucket steps over a log-scaled x axis) and grouped bar charts, each an
 * inline <svg> element written through the XML writer, so every label and
 * legend is escaped. No JavaScript, no external resources. */
#ifndef STARVE_SVG_H
#define STARVE_SVG_H

#include <stdbool.h>
#include <stddef.h>

#include "reports/format/xml-writer.h"

/* Formats a tick or tooltip value: "10us", "0.5", "2s". */
typedef const char *(*svg_label_fn)(double v, char *buf, size_t len);

struct svg_axis {
	double lo, hi;		/* the range shown (svg_axis_fit sets it) */
	bool log;		/* log10 scale over whole decades; values <= 0 sit at lo */
	svg_label_fn label;	/* NULL: "%g" */
};

/* One line or one CCDF. Points with a non-finite x or y are skipped. */
struct svg_series {
	const char *name;	/* legend text */
	const double *x, *y;	/* N points */
	const double *x_end;	/* SVG_CCDF only: where each bucket ends (x is where it starts) */
	size_t n;
};

/* SVG_CCDF: a complementary CDF of histogram buckets (y non-increasing):
 * each bucket a plateau at its y, and between buckets that do not touch
 * (empty ones left out) the line holds at the next bucket's level, as the
 * share at least that long does not change there; it falls to the baseline
 * only after the last bucket. */
enum svg_style { SVG_LINES, SVG_CCDF };

/* A threshold across a chart (an expectation's): a dashed line at VALUE on
 * the y axis, or on the x axis when ON_X, with LABEL beside it. */
struct svg_ref {
	double value;
	const char *label;
	bool on_x;
};

struct svg_plot {
	const char *title, *x_title, *y_title;
	struct svg_axis x, y;
	enum svg_style style;
	const struct svg_ref *refs;	/* may be NULL */
	size_t n_refs;
};

/* Grouped bars: VALUES[g * n_series + s] is series S in group G (NAN: no bar). */
struct svg_bars {
	const char *title, *y_title;
	const char *const *groups;
	size_t n_groups;
	const char *const *series;
	size_t n_series;
	const double *values;
	svg_label_fn label;
	const struct svg_ref *refs;	/* on the y axis; may be NULL */
	size_t n_refs;
};

/* Where V lies on A, from 0 (lo) to 1 (hi), clamped. */
double svg_axis_pos(const struct svg_axis *a, double v);
/* Set A's range to cover the finite values of the N series (their x, with
 * x_end, when USE_X, else their y). A linear axis starts at 0 and ends at a
 * round number; a log axis spans whole decades over the positive values.
 * Returns false when there is nothing to show. */
bool svg_axis_fit(struct svg_axis *a, const struct svg_series *s, size_t n, bool use_x);

/* Write the plot of N series, its axes widened to hold every threshold
 * (a log axis by whole decades). Returns 0, or -1 when the axes are empty or
 * not fitted (nothing is written then). */
int svg_plot(struct xml_writer *w, const struct svg_plot *p, const struct svg_series *s,
	     size_t n);
/* Write the bar chart; -1 (nothing written) when no value is finite. */
int svg_bar_chart(struct xml_writer *w, const struct svg_bars *b);

/* 1, 2 or 5 times a power of ten, at least V (> 0): a round step between ticks. */
double svg_nice_step(double v);
/* "%g" of V: the default label. */
const char *svg_label_number(double v, char *buf, size_t len);

#endif
