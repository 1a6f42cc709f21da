/* Unit tests for the HTML report and its SVG plotter: axis scaling (linear
 * and log), what a plot and a bar chart draw, one chart per load, histogram
 * and setting of the synthetic results, escaping of hostile names, and no
 * empty element an HTML parser would misread. Well-formedness is checked
 * with xmllint in tests/integration/report-html.sh. */
#include "config.h"
#include "reports/formats.h"
#include "reports/format/html.h"
#include "reports/result/result.h"
#include "reports/format/svg.h"

#include "tests/unit/unit.h"
#include "tests/unit/unit-results.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The victim (second load) of the first run of a synthetic result. */
static json_t *victim_of(json_t *result)
{
	json_t *run = json_array_get(json_object_get(result, "runs"), 0);
	json_t *load = json_array_get(json_object_get(run, "loads"), 1);

	ck_assert_str_eq(json_string_value(json_object_get(load, "name")), "victim");
	return load;
}

/* The HTML page of RESULT (a tree the test may have changed, which must
 * still be a valid result) as a string (free it). */
static char *page_of(json_t *result)
{
	struct result_view *v = unit_view_of(result);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(html_write(v, f), 0);
	fclose(f);
	rv_free(v);
	return buf;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* What svg_plot (P, S, N) or svg_bar_chart (B, when not NULL) writes inside
 * a root element, as a string (free it), and what it returned. */
struct drawn {
	char *text;
	int rc;
};

static struct drawn draw_chart(const struct svg_plot *p, const struct svg_series *s, size_t n,
			       const struct svg_bars *b)
{
	struct drawn d = { NULL, 0 };
	size_t len = 0;
	FILE *f = open_memstream(&d.text, &len);
	struct xml_writer w;

	xml_begin(&w, f);
	xml_open(&w, "root");
	d.rc = b ? svg_bar_chart(&w, b) : svg_plot(&w, p, s, n);
	xml_text(&w, "");
	xml_close(&w);
	ck_assert_int_eq(xml_end(&w), 0);
	fclose(f);
	return d;
}

static struct drawn draw_plot(const struct svg_plot *p, const struct svg_series *s, size_t n)
{
	return draw_chart(p, s, n, NULL);
}

static struct drawn draw_bars(const struct svg_bars *b)
{
	return draw_chart(NULL, NULL, 0, b);
}

START_TEST(log_axis_spans_whole_decades_below_the_smallest_value)
{
	double x[] = { 49152, 950009856, NAN }, y[] = { 1, 9, 3 };
	struct svg_series s = { .x = x, .y = y, .n = 3 };
	struct svg_axis ax = { .log = true }, ay = { .log = true };

	ck_assert(svg_axis_fit(&ax, &s, 1, true));
	ck_assert_double_eq_tol(ax.lo, 1e4, 1e-6);
	ck_assert_double_eq_tol(ax.hi, 1e9, 1e-3);
	ck_assert_double_eq_tol(svg_axis_pos(&ax, 1e6), 0.4, 1e-9);
	ck_assert_double_eq_tol(svg_axis_pos(&ax, 1e4), 0, 1e-9);
	ck_assert_double_eq_tol(svg_axis_pos(&ax, 1e12), 1, 1e-9);	/* clamped */
	ck_assert_double_eq_tol(svg_axis_pos(&ax, 0), 0, 1e-9);	/* log of 0: the axis */
	/* a count of 1 must not sit on the axis, or a lone sample is invisible */
	ck_assert(svg_axis_fit(&ay, &s, 1, false));
	ck_assert_double_lt(ay.lo, 1);
	ck_assert_double_gt(svg_axis_pos(&ay, 1), 0);
	ck_assert_double_ge(ay.hi, 9);
}
END_TEST

START_TEST(linear_axis_starts_at_zero_and_ends_on_a_round_number)
{
	double y[] = { 0.03, 0.97 }, none[] = { NAN, INFINITY };
	struct svg_series s = { .y = y, .n = 2 }, empty = { .y = none, .n = 2 };
	struct svg_axis a = { 0 };

	ck_assert(svg_axis_fit(&a, &s, 1, false));
	ck_assert_double_eq(a.lo, 0);
	ck_assert_double_eq_tol(a.hi, 1.0, 1e-12);
	ck_assert_double_eq_tol(svg_axis_pos(&a, 0.5), 0.5, 1e-12);
	ck_assert(!svg_axis_fit(&a, &empty, 1, false));
	ck_assert(!svg_axis_fit(&a, &s, 0, false));
}
END_TEST

START_TEST(plots_draw_a_line_per_series_and_escape_the_legend)
{
	double x[] = { 0, 1, 2 }, y1[] = { 0.1, 0.5, 0.2 }, y2[] = { 0.9, NAN, 0.7 };
	struct svg_series s[] = { { .name = "a<b&c", .x = x, .y = y1, .n = 3 },
				  { .name = "\"two\"", .x = x, .y = y2, .n = 3 } };
	struct svg_plot p = { .title = "t<1>", .x_title = "x", .y_title = "y" };
	struct drawn d;

	ck_assert(svg_axis_fit(&p.x, s, 2, true) && svg_axis_fit(&p.y, s, 2, false));
	d = draw_plot(&p, s, 2);
	ck_assert_int_eq(d.rc, 0);
	ck_assert_uint_eq(count(d.text, "<svg"), 1);
	ck_assert_uint_eq(count(d.text, "<polyline"), 2);
	ck_assert_ptr_nonnull(strstr(d.text, "a&lt;b&amp;c"));
	ck_assert_ptr_nonnull(strstr(d.text, "t&lt;1&gt;"));
	ck_assert_ptr_null(strstr(d.text, "a<b"));
	ck_assert_ptr_null(strstr(d.text, "t<1"));
	ck_assert_ptr_null(strstr(d.text, "nan"));	/* the missing point is skipped */
	free(d.text);
	/* nothing to draw: nothing written */
	d = draw_plot(&p, s, 0);
	ck_assert_int_eq(d.rc, -1);
	ck_assert_ptr_null(strstr(d.text, "<svg"));
	free(d.text);
}
END_TEST

/* The points attribute of the first polyline in TEXT into X and Y (at most
 * MAX); returns how many. */
static size_t polyline_points(const char *text, double *x, double *y, size_t max)
{
	const char *p = strstr(text, "points=\"");
	size_t n = 0;
	int used;

	ck_assert_ptr_nonnull(p);
	for (p += strlen("points=\""); n < max && sscanf(p, "%lf,%lf %n", &x[n], &y[n], &used) == 2;
	     p += used)
		n++;
	return n;
}

/* A CCDF only falls: across the empty buckets between two that hold
 * samples it keeps the next one's level, and it reaches the baseline only
 * after the last bucket (not a comb of drops to 0 at every gap). */
START_TEST(ccdf_holds_its_level_across_empty_buckets)
{
	double x[] = { 1000, 100000, 5e6 }, end[] = { 1100, 110000, 5.5e6 }, y[] = { 1, 0.5, 0.01 };
	struct svg_series s = { .name = "h", .x = x, .y = y, .x_end = end, .n = 3 };
	struct svg_plot p = { .title = "h", .x = { .log = true }, .y = { .log = true },
			      .style = SVG_CCDF };
	double px[32], py[32];
	struct drawn d;
	size_t n;

	ck_assert(svg_axis_fit(&p.x, &s, 1, true) && svg_axis_fit(&p.y, &s, 1, false));
	d = draw_plot(&p, &s, 1);
	ck_assert_int_eq(d.rc, 0);
	n = polyline_points(d.text, px, py, 32);
	ck_assert_uint_ge(n, 7);
	/* the last point is on the baseline, below every bucket's level */
	for (size_t i = 0; i + 1 < n; i++) {
		ck_assert_msg(py[i] < py[n - 1], "point %zu of %zu on the baseline", i, n);
		ck_assert_double_le(px[i], px[i + 1]);	/* left to right */
		ck_assert_double_le(py[i], py[i + 1]);	/* never rises (pixels grow down) */
	}
	free(d.text);
}
END_TEST

/* A threshold past the data (a wakeup_p99 of 20ms over latencies that stop
 * at 10ms) widens the axis so that its line is drawn, on a log axis by
 * whole decades. */
START_TEST(a_threshold_past_the_data_widens_the_axis_to_hold_it)
{
	double x[] = { 1000, 5e6 }, end[] = { 1100, 5.5e6 }, y[] = { 1, 0.01 };
	struct svg_series s = { .name = "h", .x = x, .y = y, .x_end = end, .n = 2 };
	struct svg_ref ref = { .value = 2e7, .label = "p99 below 20ms", .on_x = true };
	struct svg_plot p = { .title = "h", .x = { .log = true }, .y = { .log = true },
			      .style = SVG_CCDF, .refs = &ref, .n_refs = 1 };
	struct drawn d;

	ck_assert(svg_axis_fit(&p.x, &s, 1, true) && svg_axis_fit(&p.y, &s, 1, false));
	ck_assert_double_lt(p.x.hi, ref.value);	/* the data alone stop short of it */
	d = draw_plot(&p, &s, 1);
	ck_assert_int_eq(d.rc, 0);
	ck_assert_uint_eq(count(d.text, "stroke-dasharray"), 1);
	ck_assert_ptr_nonnull(strstr(d.text, ">p99 below 20ms</text>"));
	ck_assert_ptr_nonnull(strstr(d.text, ">1e+08</text>"));	/* the next decade's tick */
	free(d.text);
}
END_TEST

/* The same on a report: the probe's wakeup_p99 expectation is drawn on its
 * wakeup_latency chart though every sample is shorter. */
START_TEST(the_wakeup_threshold_is_drawn_on_the_latency_chart)
{
	json_t *r = unit_load_result("pass");
	json_t *hists = json_object_get(victim_of(r), "histograms");
	char *page, *chart;

	json_object_set(hists, "wakeup_latency", json_object_get(hists, "gap"));
	json_array_append_new(json_object_get(json_object_get(r, "profile"), "expect"),
			      json_pack("{s:s, s:s, s:s, s:f, s:s, s:n}", "load", "victim",
					"metric", "wakeup_p99", "op", "below", "threshold", 20.0,
					"threshold_text", "20s", "setting"));
	page = page_of(r);
	chart = strstr(page, "victim: wakeup_latency histogram");
	ck_assert_ptr_nonnull(chart);
	ck_assert_ptr_nonnull(strstr(chart, ">wakeup_p99 below 20s</text>"));
	free(page);
	json_decref(r);
}
END_TEST

/* A load of two tasks: its cpu_share series is their sum (1.3), the
 * table's cpu_share their mean (0.65); the chart draws the mean and says so. */
START_TEST(the_cpu_share_chart_draws_the_tables_per_task_figure)
{
	json_t *r = unit_load_result("pass");
	json_t *load = victim_of(r);
	json_t *share = json_object_get(json_object_get(load, "timeseries"), "cpu_share");
	char *page, *chart;

	json_object_set_new(load, "tasks_seen", json_integer(2));
	json_array_set_new(share, 0, json_real(1.2));
	json_array_set_new(share, 1, json_real(1.4));
	json_object_set_new(json_object_get(load, "metrics"), "cpu_share", json_real(0.65));
	page = page_of(r);
	chart = strstr(page, "victim: CPU share over time");
	ck_assert_ptr_nonnull(chart);
	ck_assert_ptr_nonnull(strstr(chart, ">CPU share per task (mean of 2)</text>"));
	/* 0.6 and 0.7 drawn: the axis ends at 0.8, not at the sum's 1.5 */
	ck_assert_ptr_nonnull(strstr(chart, ">0.8</text>"));
	ck_assert_ptr_null(strstr(chart, ">1.5</text>"));
	free(page);
	json_decref(r);
}
END_TEST

START_TEST(bar_charts_draw_only_measured_values)
{
	const char *groups[] = { "a&1", "b" }, *series[] = { "out", "in" };
	double values[] = { 0.5, 0.4, 2.0, NAN }, none[] = { NAN, NAN, NAN, NAN };
	struct svg_bars b = { .title = "bars", .groups = groups, .n_groups = 2,
			      .series = series, .n_series = 2, .values = values };
	struct drawn d = draw_bars(&b);

	ck_assert_int_eq(d.rc, 0);
	ck_assert_uint_eq(count(d.text, "<svg"), 1);
	ck_assert_ptr_nonnull(strstr(d.text, "a&amp;1, out: 0.5"));
	ck_assert_ptr_nonnull(strstr(d.text, "b, out: 2"));
	ck_assert_ptr_null(strstr(d.text, "b, in:"));
	free(d.text);
	b.values = none;
	d = draw_bars(&b);
	ck_assert_int_eq(d.rc, -1);
	ck_assert_ptr_null(strstr(d.text, "<svg"));
	free(d.text);
}
END_TEST

/* Whether "#rrggbb" or "#rgb" at HEX is a red, the thresholds' colour. */
static bool reddish(const char *hex)
{
	unsigned r, g, b;

	if (sscanf(hex, "#%2x%2x%2x", &r, &g, &b) == 3 && strspn(hex + 1, "0123456789abcdef") == 6)
		return r >= 0xa0 && g < 0x70 && b < 0x70;
	ck_assert_int_eq(sscanf(hex, "#%1x%1x%1x", &r, &g, &b), 3);
	return r >= 0xa && g < 0x7 && b < 0x7;
}

/* Red is for thresholds only: no bar, line or swatch of a chart with a
 * threshold wears it, whichever series it draws (in-band bars came second
 * and were the threshold's red). Returns how many red elements were seen. */
static size_t assert_red_only_on_thresholds(const char *text)
{
	size_t red = 0;

	for (const char *p = strchr(text, '<'); p; p = strchr(p + 1, '<')) {
		size_t len = strcspn(p, ">");
		char el[1024];

		snprintf(el, sizeof(el), "%.*s", (int)(len < sizeof(el) ? len : sizeof(el) - 1), p);
		for (const char *a = el; (a = strstr(a, "=\"#")); a++) {
			if (!reddish(a + 2))
				continue;
			ck_assert_msg(strstr(el, "stroke-dasharray"), "red on a series: %s", el);
			red++;
		}
	}
	return red;
}

START_TEST(red_is_for_thresholds_only)
{
	const char *groups[] = { "run 1" };
	const char *series[] = { "a", "b", "c", "d", "e", "f", "g", "h", "i" };
	double values[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	struct svg_ref ref = { .value = 5, .label = "below 5" };
	struct svg_bars b = { .title = "bars", .groups = groups, .n_groups = 1, .series = series,
			      .n_series = 9, .values = values, .refs = &ref, .n_refs = 1 };
	struct drawn d = draw_bars(&b);
	json_t *r = unit_load_result("multi");
	char *page = page_of(r);

	ck_assert_int_eq(d.rc, 0);
	ck_assert_uint_eq(assert_red_only_on_thresholds(d.text), 1);
	/* the report's starvation bars: out-of-band and in-band beside the threshold */
	ck_assert_uint_ge(assert_red_only_on_thresholds(strstr(page, "<svg")), 1);
	free(d.text);
	free(page);
	json_decref(r);
}
END_TEST

/* Charts of the synthetic results: the victim's starvation bars, its gap
 * histogram and a time series per setting; the hog has none of these. */
START_TEST(one_chart_per_load_histogram_and_setting)
{
	static const struct { const char *name; size_t svgs; } want[] = {
		{ "pass", 3 }, { "multi", 4 }, { "skipped", 0 }, { "undecided", 4 },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		json_t *r = unit_load_result(want[i].name);
		char *page = page_of(r);

		ck_assert_msg(count(page, "<svg") == want[i].svgs, "%s: %zu charts, want %zu",
			      want[i].name, count(page, "<svg"), want[i].svgs);
		ck_assert_uint_eq(count(page, "</html>"), 1);
		if (!want[i].svgs)
			ck_assert_ptr_nonnull(strstr(page, "No load was measured"));
		free(page);
		json_decref(r);
	}
}
END_TEST

START_TEST(histograms_and_timeseries_follow_the_data)
{
	json_t *r = unit_load_result("pass");
	json_t *load = victim_of(r);
	json_t *hists = json_object_get(load, "histograms");
	char *page;

	/* a second histogram adds a chart; no time series removes one */
	json_object_set(hists, "wakeup_latency", json_object_get(hists, "gap"));
	json_object_del(load, "timeseries");
	page = page_of(r);
	ck_assert_uint_eq(count(page, "<svg"), 3);
	ck_assert_ptr_nonnull(strstr(page, "victim: wakeup_latency histogram"));
	ck_assert_ptr_null(strstr(page, "CPU share over time"));
	free(page);
	json_decref(r);
}
END_TEST

START_TEST(hostile_names_are_escaped_everywhere)
{
	json_t *r = unit_load_result("odd-names");
	json_t *load = victim_of(r);
	char *page;

	json_object_set_new(load, "name", json_string("v<i>&\"ctim\""));
	json_array_append_new(json_object_get(json_object_get(r, "tool"), "command_line"),
			      json_string("--only=<x&y>"));
	json_object_set(json_object_get(load, "histograms"), "g<a>p&",
			json_object_get(json_object_get(load, "histograms"), "gap"));
	page = page_of(r);
	ck_assert_ptr_null(strstr(page, "odd<"));
	ck_assert_ptr_null(strstr(page, "<c>"));
	ck_assert_ptr_null(strstr(page, "v<i>"));
	ck_assert_ptr_null(strstr(page, "g<a>"));
	ck_assert_ptr_null(strstr(page, "<x&"));
	ck_assert_ptr_nonnull(strstr(page, "rt-throttle.yaml --only=&lt;x&amp;y&gt;</td>"));
	ck_assert_ptr_nonnull(strstr(page, "odd&lt;&amp;&gt;\"profile\""));
	ck_assert_ptr_nonnull(strstr(page, "a&amp;b &lt;c&gt; \"d\" #1|x"));
	ck_assert_ptr_nonnull(strstr(page, "v&lt;i&gt;&amp;\"ctim\": g&lt;a&gt;p&amp; histogram"));
	free(page);
	json_decref(r);
}
END_TEST

/* "<td/>" parses as an opening tag in HTML: every cell must have content
 * or an end tag, even for null reasons and empty knobs. */
START_TEST(no_html_element_is_written_empty)
{
	static const char *const names[] = { "pass", "skipped", "undecided", "multi" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		json_t *r = unit_load_result(names[i]);
		char *page;

		json_object_set_new(json_object_get(r, "profile"), "description", json_string(""));
		page = page_of(r);
		ck_assert_ptr_nonnull(strstr(page, "<td></td>"));
		for (const char *const *el = (const char *const[]){ "<td/>", "<th/>", "<p/>",
				"<span/>", "<h1/>", "<h2/>", "<section/>", "<table/>", NULL };
		     *el; el++)
			ck_assert_msg(!strstr(page, *el), "%s: %s in the page", names[i], *el);
		free(page);
		json_decref(r);
	}
}
END_TEST

START_TEST(html_is_a_run_format)
{
	const struct report_format *fmt = report_format_find("html");

	ck_assert_ptr_nonnull(fmt);
	ck_assert_str_eq(fmt->file, "report.html");
	ck_assert(fmt->write == html_write);
}
END_TEST

static Suite *html_suite(void)
{
	Suite *s = suite_create("html");
	TCase *tc = tcase_create("html");

	tcase_add_test(tc, log_axis_spans_whole_decades_below_the_smallest_value);
	tcase_add_test(tc, linear_axis_starts_at_zero_and_ends_on_a_round_number);
	tcase_add_test(tc, plots_draw_a_line_per_series_and_escape_the_legend);
	tcase_add_test(tc, ccdf_holds_its_level_across_empty_buckets);
	tcase_add_test(tc, a_threshold_past_the_data_widens_the_axis_to_hold_it);
	tcase_add_test(tc, the_wakeup_threshold_is_drawn_on_the_latency_chart);
	tcase_add_test(tc, the_cpu_share_chart_draws_the_tables_per_task_figure);
	tcase_add_test(tc, bar_charts_draw_only_measured_values);
	tcase_add_test(tc, red_is_for_thresholds_only);
	tcase_add_test(tc, one_chart_per_load_histogram_and_setting);
	tcase_add_test(tc, histograms_and_timeseries_follow_the_data);
	tcase_add_test(tc, hostile_names_are_escaped_everywhere);
	tcase_add_test(tc, no_html_element_is_written_empty);
	tcase_add_test(tc, html_is_a_run_format);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(html_suite());
}
