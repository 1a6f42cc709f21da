/* The SVG plotter (reports/format/svg.h). Geometry is fixed (one chart width fits a
 * report column); only the axes adapt to the data. Everything we do not
 * spell ourselves (titles, legends, tick labels) goes through the XML
 * writer's escaping. */
#include "config.h"
#include "reports/format/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SVG_W 640.0
#define SVG_PLOT_H 200.0
#define SVG_LEFT 70.0
#define SVG_RIGHT 30.0	/* room for the last x tick label */
#define SVG_TOP 28.0
#define SVG_BOTTOM 40.0		/* x tick labels and the x title */
#define SVG_BAR_BOTTOM 70.0	/* room for slanted group labels */
#define SVG_LEGEND_ROW 16.0
#define SVG_LEGEND_COLS 3
#define SVG_TICKS_MAX 24

/* The series' colours: no red, which only thresholds (SVG_THRESHOLD) wear, so
 * that a bar or a line never reads as a limit or a failure. */
static const char *const svg_colors[] = {
	"#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#17becf", "#8c564b", "#e377c2", "#7f7f7f",
};
#define SVG_THRESHOLD "#c00"
#define SVG_N_COLORS (sizeof(svg_colors) / sizeof(svg_colors[0]))

/* The plot area in pixels: left, top, width, height. */
struct svg_frame {
	double x, y, w, h;
};

const char *svg_label_number(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%g", v);
	return buf;
}

static const char *svg_color(size_t i)
{
	return svg_colors[i % SVG_N_COLORS];
}

double svg_axis_pos(const struct svg_axis *a, double v)
{
	double p;

	if (a->log) {
		if (!(v > 0) || !(a->lo > 0) || !(a->hi > a->lo))
			return 0;
		p = (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
	} else {
		if (!(a->hi > a->lo))
			return 0;
		p = (v - a->lo) / (a->hi - a->lo);
	}
	return p < 0 ? 0 : p > 1 ? 1 : p;
}

double svg_nice_step(double v)
{
	double p = pow(10, floor(log10(v))), m = v / p;

	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/* The step between ticks of a linear axis fitted by svg_axis_fit. */
static double svg_linear_step(const struct svg_axis *a)
{
	return svg_nice_step((a->hi - a->lo) / 4.0001);
}

static void svg_range_add(const double *v, size_t n, double *lo, double *hi, double *minpos)
{
	for (size_t i = 0; v && i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		*lo = fmin(*lo, v[i]);
		*hi = fmax(*hi, v[i]);
		if (v[i] > 0)
			*minpos = fmin(*minpos, v[i]);
	}
}

bool svg_axis_fit(struct svg_axis *a, const struct svg_series *s, size_t n, bool use_x)
{
	double lo = INFINITY, hi = -INFINITY, minpos = INFINITY, step;

	for (size_t i = 0; i < n; i++) {
		svg_range_add(use_x ? s[i].x : s[i].y, s[i].n, &lo, &hi, &minpos);
		if (use_x)
			svg_range_add(s[i].x_end, s[i].n, &lo, &hi, &minpos);
	}
	if (a->log) {
		if (!isfinite(minpos))
			return false;
		/* strictly below the smallest value, so it does not sit on the axis */
		a->lo = pow(10, ceil(log10(minpos)) - 1);
		a->hi = fmax(pow(10, ceil(log10(hi))), a->lo * 10);
		return true;
	}
	if (!isfinite(lo))
		return false;
	a->lo = lo >= 0 ? 0 : -svg_nice_step(-lo);
	if (hi <= a->lo)
		hi = a->lo + 1;
	step = svg_nice_step((hi - a->lo) / 4);
	a->hi = a->lo + ceil((hi - a->lo) / step - 1e-9) * step;
	return true;
}

/* Tick values of A into T (at most SVG_TICKS_MAX); returns how many. */
static size_t svg_ticks(const struct svg_axis *a, double *t)
{
	size_t n = 0;

	if (a->log) {
		for (double d = round(log10(a->lo)); d <= log10(a->hi) + 1e-9 && n < SVG_TICKS_MAX;
		     d++)
			t[n++] = pow(10, d);
		return n;
	}
	for (double step = svg_linear_step(a), v = a->lo; v <= a->hi + step * 1e-6 &&
	     n < SVG_TICKS_MAX; v += step)
		t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	return n;
}

static double svg_px(const struct svg_frame *f, const struct svg_axis *a, double v, bool x)
{
	return x ? f->x + svg_axis_pos(a, v) * f->w : f->y + f->h - svg_axis_pos(a, v) * f->h;
}

static void svg_text(struct xml_writer *w, double x, double y, const char *anchor,
		     const char *text)
{
	xml_open(w, "text");
	xml_attrf(w, "x", "%.1f", x);
	xml_attrf(w, "y", "%.1f", y);
	if (anchor)
		xml_attr(w, "text-anchor", anchor);
	xml_text(w, text);
	xml_close(w);
}

/* Open element NAME with four coordinates (x1 y1 x2 y2, or x y width height). */
static void svg_open4(struct xml_writer *w, const char *name, const char *const names[4],
		      const double v[4])
{
	xml_open(w, name);
	for (int i = 0; i < 4; i++)
		xml_attrf(w, names[i], "%.1f", v[i]);
}

static void svg_line(struct xml_writer *w, double x1, double y1, double x2, double y2,
		     const char *stroke)
{
	static const char *const names[4] = { "x1", "y1", "x2", "y2" };

	svg_open4(w, "line", names, (const double[4]){ x1, y1, x2, y2 });
	xml_attr(w, "stroke", stroke);
	xml_close(w);
}

/* Left open: the caller adds attributes or a tooltip and closes it. */
static void svg_rect(struct xml_writer *w, double x, double y, double wd, double ht,
		     const char *fill)
{
	static const char *const names[4] = { "x", "y", "width", "height" };

	svg_open4(w, "rect", names, (const double[4]){ x, y, wd, ht });
	xml_attr(w, "fill", fill);
}

/* Open <svg> with its title (tooltip and heading) and a group carrying the
 * font, left open for the caller (svg_end closes both). */
static void svg_begin(struct xml_writer *w, const char *title, double height)
{
	xml_open(w, "svg");
	xml_attr(w, "xmlns", "http://www.w3.org/2000/svg");
	xml_attrf(w, "width", "%.0f", SVG_W);
	xml_attrf(w, "height", "%.0f", height);
	xml_attrf(w, "viewBox", "0 0 %.0f %.0f", SVG_W, height);
	xml_attr(w, "role", "img");
	xml_open(w, "title");
	xml_text(w, title);
	xml_close(w);
	xml_open(w, "g");
	xml_attr(w, "font-family", "sans-serif");
	xml_attr(w, "font-size", "11");
	svg_rect(w, 0, 0, SVG_W, height, "#ffffff");
	xml_close(w);
	xml_open(w, "g");
	xml_attr(w, "font-weight", "bold");
	svg_text(w, SVG_W / 2, 16, "middle", title);
	xml_close(w);
}

static void svg_end(struct xml_writer *w)
{
	xml_close(w);	/* g */
	xml_close(w);	/* svg */
}

static double svg_legend_height(size_t n)
{
	return n > 0 ? ((n + SVG_LEGEND_COLS - 1) / SVG_LEGEND_COLS) * SVG_LEGEND_ROW + 4 : 0;
}

/* Swatch and name of each series in rows from Y down. */
static void svg_legend(struct xml_writer *w, const char *const *names, size_t stride, size_t n,
		       double y)
{
	double col = (SVG_W - SVG_LEFT) / SVG_LEGEND_COLS;

	for (size_t i = 0; i < n; i++) {
		const char *name = *(const char *const *)((const char *)names + i * stride);
		double x = SVG_LEFT + (double)(i % SVG_LEGEND_COLS) * col;
		double ty = y + (double)(i / SVG_LEGEND_COLS) * SVG_LEGEND_ROW;

		svg_rect(w, x, ty - 9, 10, 10, svg_color(i));
		xml_close(w);
		svg_text(w, x + 14, ty, NULL, name ? name : "");
	}
}

/* Grid lines and tick labels of one axis; X: the horizontal one. */
static void svg_axis_ticks(struct xml_writer *w, const struct svg_frame *f,
			   const struct svg_axis *a, bool x)
{
	double t[SVG_TICKS_MAX];
	size_t n = svg_ticks(a, t);
	char buf[64];

	for (size_t i = 0; i < n; i++) {
		double p = svg_px(f, a, t[i], x);
		const char *label = (a->label ? a->label : svg_label_number)(t[i], buf, sizeof(buf));

		if (x) {
			svg_line(w, p, f->y, p, f->y + f->h, "#dddddd");
			svg_text(w, p, f->y + f->h + 14, "middle", label);
		} else {
			svg_line(w, f->x, p, f->x + f->w, p, "#dddddd");
			svg_text(w, f->x - 4, p + 4, "end", label);
		}
	}
}

/* The frame, the y axis (ticks, title) and, with XA, the x axis. */
static void svg_axes(struct xml_writer *w, const struct svg_frame *f, const struct svg_axis *xa,
		     const struct svg_axis *ya, const char *x_title, const char *y_title)
{
	svg_axis_ticks(w, f, ya, false);
	if (xa)
		svg_axis_ticks(w, f, xa, true);
	svg_rect(w, f->x, f->y, f->w, f->h, "none");
	xml_attr(w, "stroke", "#888888");
	xml_close(w);
	if (x_title)
		svg_text(w, f->x + f->w / 2, f->y + f->h + 30, "middle", x_title);
	if (y_title) {
		xml_open(w, "text");
		xml_attr(w, "text-anchor", "middle");
		xml_attrf(w, "transform", "translate(14 %.1f) rotate(-90)", f->y + f->h / 2);
		xml_text(w, y_title);
		xml_close(w);
	}
}

/* Append "x,y " to the growing points list. */
static void svg_point(FILE *pts, double x, double y)
{
	fprintf(pts, "%.1f,%.1f ", x, y);
}

/* The points of one series: a polyline through them, or for a CCDF each
 * bucket as a plateau that drops at its end to the next bucket's level and
 * holds it across the gap before that bucket (svg.h), down to the baseline
 * after the last bucket only. */
static void svg_series_points(FILE *pts, const struct svg_frame *f, const struct svg_plot *p,
			      const struct svg_series *s)
{
	double prev_end = NAN;

	for (size_t i = 0; i < s->n; i++) {
		double x0, x1, y;

		if (!isfinite(s->x[i]) || !isfinite(s->y[i]))
			continue;
		x0 = svg_px(f, &p->x, s->x[i], true);
		y = svg_px(f, &p->y, s->y[i], false);
		if (p->style == SVG_LINES || !s->x_end) {
			svg_point(pts, x0, y);
			continue;
		}
		x1 = svg_px(f, &p->x, s->x_end[i], true);
		if (isfinite(prev_end))
			svg_point(pts, prev_end, y);
		svg_point(pts, x0, y);
		svg_point(pts, x1, y);
		prev_end = x1;
	}
	if (isfinite(prev_end))
		svg_point(pts, prev_end, f->y + f->h);
}

static void svg_polyline(struct xml_writer *w, const struct svg_frame *f,
			 const struct svg_plot *p, const struct svg_series *s, size_t color)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *pts = open_memstream(&buf, &len);

	if (!pts) {
		w->failed = true;
		return;
	}
	svg_series_points(pts, f, p, s);
	if (fclose(pts) != 0) {
		w->failed = true;
		free(buf);
		return;
	}
	xml_open(w, "polyline");
	xml_attr(w, "fill", "none");
	xml_attr(w, "stroke", svg_color(color));
	xml_attr(w, "stroke-width", "1.5");
	xml_attr(w, "points", buf);
	xml_open(w, "title");
	xml_text(w, s->name ? s->name : "");
	xml_close(w);
	xml_close(w);
	free(buf);
}

/* The thresholds REFS inside frame F (svg_axis_cover has widened the axes
 * to hold them; one that cannot be placed, as 0 on a log axis, is left out). */
static void svg_refs(struct xml_writer *w, const struct svg_frame *f, const struct svg_axis *xa,
		     const struct svg_axis *ya, const struct svg_ref *refs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct svg_axis *a = refs[i].on_x ? xa : ya;
		double v = refs[i].value, px;

		if (!a || !isfinite(v) || v < a->lo || v > a->hi || (a->log && v <= 0))
			continue;
		px = svg_px(f, a, v, refs[i].on_x);
		svg_open4(w, "line", (const char *const[4]){ "x1", "y1", "x2", "y2" },
			  refs[i].on_x ? (const double[4]){ px, f->y, px, f->y + f->h } :
					 (const double[4]){ f->x, px, f->x + f->w, px });
		xml_attr(w, "stroke", SVG_THRESHOLD);
		xml_attr(w, "stroke-dasharray", "6 4");
		xml_attr(w, "stroke-width", "1.5");
		xml_close(w);
		svg_text(w, refs[i].on_x ? px + 4 : f->x + f->w - 4,
			 refs[i].on_x ? f->y + 12 : px - 4, refs[i].on_x ? "start" : "end",
			 refs[i].label);
	}
}

/* Widen A (fitted) so that the thresholds REFS on it (the ON_X ones on the
 * x axis, the others on y) lie inside it: one off the range would not be
 * drawn, and a threshold the data never reach is what a reader must see.
 * A log axis grows by whole decades. */
static void svg_axis_cover(struct svg_axis *a, const struct svg_ref *refs, size_t n, bool on_x)
{
	for (size_t i = 0; i < n; i++) {
		double v = refs[i].value;

		if (refs[i].on_x != on_x || !isfinite(v) || (a->log && !(v > 0)))
			continue;
		if (a->log) {
			if (v > a->hi)
				a->hi = pow(10, ceil(log10(v)));
			if (v < a->lo)
				a->lo = pow(10, floor(log10(v)));
		} else {
			if (v > a->hi)
				a->hi = v * 1.1;
			a->lo = fmin(a->lo, v);
		}
	}
}

int svg_plot(struct xml_writer *w, const struct svg_plot *plot, const struct svg_series *s,
	     size_t n)
{
	struct svg_frame f = { SVG_LEFT, SVG_TOP, SVG_W - SVG_LEFT - SVG_RIGHT, SVG_PLOT_H };
	double legend = svg_legend_height(n);
	struct svg_plot q = *plot, *p = &q;

	if (!n || !(p->x.hi > p->x.lo) || !(p->y.hi > p->y.lo))
		return -1;
	svg_axis_cover(&p->x, p->refs, p->n_refs, true);
	svg_axis_cover(&p->y, p->refs, p->n_refs, false);
	svg_begin(w, p->title, SVG_TOP + SVG_PLOT_H + SVG_BOTTOM + legend);
	svg_axes(w, &f, &p->x, &p->y, p->x_title, p->y_title);
	for (size_t i = 0; i < n; i++)
		svg_polyline(w, &f, p, &s[i], i);
	svg_refs(w, &f, &p->x, &p->y, p->refs, p->n_refs);
	svg_legend(w, &s[0].name, sizeof(s[0]), n, f.y + f.h + SVG_BOTTOM + 12);
	svg_end(w);
	return 0;
}

/* The group labels under the bars, slanted so long names do not collide. */
static void svg_bar_labels(struct xml_writer *w, const struct svg_frame *f,
			   const struct svg_bars *b)
{
	double gw = f->w / (double)b->n_groups;

	for (size_t g = 0; g < b->n_groups; g++) {
		double x = f->x + ((double)g + 0.5) * gw, y = f->y + f->h + 12;

		xml_open(w, "text");
		xml_attrf(w, "x", "%.1f", x);
		xml_attrf(w, "y", "%.1f", y);
		xml_attr(w, "text-anchor", "end");
		xml_attrf(w, "transform", "rotate(-30 %.1f %.1f)", x, y);
		xml_text(w, b->groups[g]);
		xml_close(w);
	}
}

static void svg_bar(struct xml_writer *w, const struct svg_frame *f, const struct svg_axis *ya,
		    const struct svg_bars *b, size_t g, size_t s)
{
	double v = b->values[g * b->n_series + s], gw = f->w / (double)b->n_groups;
	double bw = gw * 0.8 / (double)b->n_series, top = svg_px(f, ya, v, false);
	double base = svg_px(f, ya, 0, false);
	char val[64], tip[512];

	if (!isfinite(v))
		return;
	snprintf(tip, sizeof(tip), "%s, %s: %s", b->groups[g], b->series[s],
		 (b->label ? b->label : svg_label_number)(v, val, sizeof(val)));
	svg_rect(w, f->x + (double)g * gw + gw * 0.1 + (double)s * bw, fmin(top, base), bw,
		 fabs(base - top), svg_color(s));
	xml_open(w, "title");
	xml_text(w, tip);
	xml_close(w);
	xml_close(w);
}

int svg_bar_chart(struct xml_writer *w, const struct svg_bars *b)
{
	struct svg_frame f = { SVG_LEFT, SVG_TOP, SVG_W - SVG_LEFT - SVG_RIGHT, SVG_PLOT_H };
	struct svg_series all = { .y = b->values, .n = b->n_groups * b->n_series };
	struct svg_axis ya = { .label = b->label };

	if (!b->n_groups || !b->n_series || !svg_axis_fit(&ya, &all, 1, false))
		return -1;
	svg_axis_cover(&ya, b->refs, b->n_refs, false);
	svg_begin(w, b->title, SVG_TOP + SVG_PLOT_H + SVG_BAR_BOTTOM +
		  svg_legend_height(b->n_series));
	svg_axes(w, &f, NULL, &ya, NULL, b->y_title);
	for (size_t g = 0; g < b->n_groups; g++)
		for (size_t s = 0; s < b->n_series; s++)
			svg_bar(w, &f, &ya, b, g, s);
	svg_refs(w, &f, NULL, &ya, b->refs, b->n_refs);
	svg_bar_labels(w, &f, b);
	svg_legend(w, b->series, sizeof(b->series[0]), b->n_series,
		   f.y + f.h + SVG_BAR_BOTTOM + 8);
	svg_end(w);
	return 0;
}
