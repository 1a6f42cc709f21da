/* The per-load sections of the HTML report (reports/html.h): a table of the
 * load's metrics per run, the longest starvation of every run as bars
 * (out-of-band and in-band side by side), each histogram the load recorded
 * as steps over a log-scaled time axis (one line per run), and the CPU-share
 * time series, one plot per setting. */
#include "config.h"
#include "reports/html.h"
#include "reports/svg.h"
#include "reports/verdict.h"
#include "lib/duration.h"
#include "lib/histogram.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HTML_NAME_LEN 160

/* The series of one chart and the memory behind them, freed together. */
struct html_chart {
	struct svg_series *s;
	char (*names)[HTML_NAME_LEN];
	double **data;
	size_t n, cap;
};

static bool html_chart_init(struct html_chart *c, size_t cap)
{
	*c = (struct html_chart){ .cap = cap };
	c->s = calloc(cap ? cap : 1, sizeof(*c->s));
	c->names = calloc(cap ? cap : 1, sizeof(*c->names));
	c->data = calloc(cap ? cap : 1, sizeof(*c->data));
	return c->s && c->names && c->data;
}

/* A new series named NAME of N points with ARRAYS arrays of N doubles,
 * one after the other from the returned pointer (NULL: out of memory). */
static double *html_chart_add(struct html_chart *c, const char *name, size_t n, size_t arrays)
{
	double *d;

	if (c->n >= c->cap || !(d = calloc(n * arrays + 1, sizeof(*d))))
		return NULL;
	snprintf(c->names[c->n], HTML_NAME_LEN, "%s", name);
	c->data[c->n] = d;
	c->s[c->n] = (struct svg_series){ .name = c->names[c->n], .x = d, .y = d + n, .n = n };
	c->n++;
	return d;
}

static void html_chart_free(struct html_chart *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->data[i]);
	free(c->s);
	free(c->names);
	free(c->data);
}

/* Tick labels: durations with their unit, but a bare "0" at the origin. */
static const char *html_label_ns(double v, char *buf, size_t len)
{
	if (v == 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	return duration_format((int64_t)llround(v), buf, len);
}

static const char *html_label_s(double v, char *buf, size_t len)
{
	return html_label_ns(v * 1e9, buf, len);
}

/* The load named NAME in RUN, or NULL. */
static const json_t *html_run_load(const json_t *run, const char *name)
{
	const json_t *load;
	size_t i;

	json_array_foreach(json_object_get(run, "loads"), i, load)
		if (!strcmp(verdict_str(load, "name", ""), name))
			return load;
	return NULL;
}

static double html_metric(const json_t *load, const char *metric)
{
	const json_t *v = json_object_get(json_object_get(load, "metrics"), metric);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The keys of every run's loads[NAME][FIELD] in first-seen order (with FIELD
 * NULL: the load names themselves); a new object used as an ordered set. */
static json_t *html_keys(const json_t *result, const char *name, const char *field)
{
	json_t *keys = json_object(), *run, *load, *v;
	const char *k;
	size_t i, j;

	json_array_foreach(json_object_get(result, "runs"), i, run)
		json_array_foreach(json_object_get(run, "loads"), j, load) {
			if (!field) {
				if (json_is_string(json_object_get(load, "name")))
					json_object_set_new(keys, verdict_str(load, "name", ""),
							    json_true());
				continue;
			}
			if (strcmp(verdict_str(load, "name", ""), name))
				continue;
			json_object_foreach(json_object_get(load, field), k, v)
				json_object_set_new(keys, k, json_true());
		}
	return keys;
}

static const char *const html_starvation[][2] = {
	{ "starvation_max", "out-of-band (sampler)" },
	{ "starvation_max_inband", "in-band (the load)" },
};
#define HTML_N_STARVATION 2

/* The starvation metrics measured in some run of load NAME into USED; how many. */
static size_t html_starvation_used(const json_t *result, const char *name, size_t *used)
{
	const json_t *run;
	size_t i, n = 0;

	for (size_t m = 0; m < HTML_N_STARVATION; m++) {
		bool any = false;

		json_array_foreach(json_object_get(result, "runs"), i, run)
			any |= isfinite(html_metric(html_run_load(run, name), html_starvation[m][0]));
		if (any)
			used[n++] = m;
	}
	return n;
}

static void html_starvation_bars(struct xml_writer *w, const json_t *result, const char *name,
				 char *title, size_t title_len)
{
	size_t runs = json_array_size(json_object_get(result, "runs")), used[HTML_N_STARVATION];
	size_t ns = html_starvation_used(result, name, used), g = 0, i;
	char (*labels)[HTML_NAME_LEN] = calloc(runs + 1, sizeof(*labels));
	const char **groups = calloc(runs + 1, sizeof(*groups)), *series[HTML_N_STARVATION];
	double *values = calloc((runs + 1) * HTML_N_STARVATION, sizeof(*values));
	const json_t *run, *load;

	if (ns && labels && groups && values) {
		json_array_foreach(json_object_get(result, "runs"), i, run) {
			if (!(load = html_run_load(run, name)))
				continue;
			groups[g] = html_run_label(result, run, labels[g], sizeof(labels[g]));
			for (size_t s = 0; s < ns; s++)
				values[g * ns + s] = html_metric(load, html_starvation[used[s]][0]);
			g++;
		}
		for (size_t s = 0; s < ns; s++)
			series[s] = html_starvation[used[s]][1];
		snprintf(title, title_len, "%s: longest starvation per run", name);
		svg_bar_chart(w, &(struct svg_bars){ .title = title, .y_title = "starvation_max",
				.groups = groups, .n_groups = g, .series = series, .n_series = ns,
				.values = values, .label = html_label_s });
	}
	free(labels);
	free(groups);
	free(values);
}

/* Histogram HIST of LOAD as bucket steps: x from each bucket's lower bound
 * to the next bucket's, y the count. */
static void html_hist_series(struct html_chart *c, const json_t *hist, const char *label)
{
	const json_t *buckets = json_object_get(hist, "buckets"), *b;
	size_t n = json_array_size(buckets), i;
	double *d;

	if (!n || !(d = html_chart_add(c, label, n, 3)))
		return;
	c->s[c->n - 1].x_end = d + 2 * n;
	json_array_foreach(buckets, i, b) {
		json_int_t lower = json_integer_value(json_array_get(b, 0));

		d[i] = (double)lower;
		d[n + i] = (double)json_integer_value(json_array_get(b, 1));
		d[2 * n + i] = lower < 0 ? NAN :
			(double)hist_bucket_upper(hist_bucket_of((uint64_t)lower)) + 1;
	}
}

static void html_histogram(struct xml_writer *w, const json_t *result, const char *name,
			   const char *hist, char *title, size_t title_len)
{
	struct html_chart c;
	struct svg_plot p = { .title = title, .x_title = hist, .y_title = "samples (log scale)",
			      .x = { .log = true, .label = html_label_ns },
			      .y = { .log = true }, .style = SVG_STEPS };
	const json_t *run;
	char label[HTML_NAME_LEN];
	size_t i;

	if (html_chart_init(&c, json_array_size(json_object_get(result, "runs")))) {
		json_array_foreach(json_object_get(result, "runs"), i, run) {
			const json_t *h = json_object_get(json_object_get(
					html_run_load(run, name), "histograms"), hist);

			if (h)
				html_hist_series(&c, h, html_run_label(result, run, label,
								       sizeof(label)));
		}
		snprintf(title, title_len, "%s: %s histogram", name, hist);
		if (svg_axis_fit(&p.x, c.s, c.n, true) && svg_axis_fit(&p.y, c.s, c.n, false))
			svg_plot(w, &p, c.s, c.n);
	}
	html_chart_free(&c);
}

/* LOAD's cpu_share time series as a line, x in seconds into the run. */
static void html_timeseries_series(struct html_chart *c, const json_t *load, const char *label)
{
	const json_t *ts = json_object_get(load, "timeseries");
	const json_t *share = json_object_get(ts, "cpu_share");
	double step = json_number_value(json_object_get(ts, "interval_s")), *d;
	size_t n = json_array_size(share);

	if (!n || !(step > 0) || !(d = html_chart_add(c, label, n, 2)))
		return;
	for (size_t i = 0; i < n; i++) {
		const json_t *v = json_array_get(share, i);

		d[i] = (double)i * step;
		d[n + i] = json_is_number(v) ? json_number_value(v) : NAN;
	}
}

static void html_timeseries(struct xml_writer *w, const json_t *result, const char *name,
			    const char *setting, char *title, size_t title_len)
{
	struct html_chart c;
	struct svg_plot p = { .title = title, .x_title = "time into the run",
			      .y_title = "CPU share", .x = { .label = html_label_s },
			      .style = SVG_LINES };
	const json_t *run, *load;
	char label[HTML_NAME_LEN];
	size_t i;

	if (html_chart_init(&c, json_array_size(json_object_get(result, "runs")))) {
		json_array_foreach(json_object_get(result, "runs"), i, run)
			if (verdict_run_is(run, setting) && (load = html_run_load(run, name)))
				html_timeseries_series(&c, load, html_run_label(result, run, label,
										  sizeof(label)));
		snprintf(title, title_len, "%s: CPU share over time, setting %s", name, setting);
		if (svg_axis_fit(&p.x, c.s, c.n, true) && svg_axis_fit(&p.y, c.s, c.n, false))
			svg_plot(w, &p, c.s, c.n);
	}
	html_chart_free(&c);
}

/* Every metric of load NAME (rows) in every run that has it (columns). */
static void html_metric_table(struct xml_writer *w, const json_t *result, const char *name)
{
	json_t *metrics = html_keys(result, name, "metrics"), *v;
	const json_t *run;
	const char *metric;
	char buf[HTML_NAME_LEN];
	size_t i;

	if (json_object_size(metrics)) {
		xml_open(w, "table");
		xml_open(w, "tr");
		html_el(w, "th", "metric");
		json_array_foreach(json_object_get(result, "runs"), i, run)
			if (html_run_load(run, name))
				html_el(w, "th", html_run_label(result, run, buf, sizeof(buf)));
		xml_close(w);
		json_object_foreach(metrics, metric, v) {
			xml_open(w, "tr");
			html_el(w, "td", metric);
			json_array_foreach(json_object_get(result, "runs"), i, run) {
				const json_t *load = html_run_load(run, name);
				double m = html_metric(load, metric);

				if (load)
					html_el(w, "td", isfinite(m) ?
						verdict_format_value(metric, m, buf, sizeof(buf)) : "-");
			}
			xml_close(w);
		}
		xml_close(w);
	}
	json_decref(metrics);
}

static void html_load_section(struct xml_writer *w, const json_t *result, const char *name,
			      const json_t *settings)
{
	json_t *hists = html_keys(result, name, "histograms"), *v, *s;
	const char *hist, *type = "?";
	const json_t *run, *load;
	char title[512];
	size_t i;

	json_array_foreach(json_object_get(result, "runs"), i, run)
		if ((load = html_run_load(run, name)))
			type = verdict_str(load, "type", type);
	xml_open(w, "section");
	snprintf(title, sizeof(title), "Load %s (%s)", name, type);
	html_el(w, "h2", title);
	html_metric_table(w, result, name);
	html_starvation_bars(w, result, name, title, sizeof(title));
	json_object_foreach(hists, hist, v)
		html_histogram(w, result, name, hist, title, sizeof(title));
	json_array_foreach(settings, i, s)
		html_timeseries(w, result, name, json_string_value(s), title, sizeof(title));
	xml_close(w);
	json_decref(hists);
}

void html_load_charts(struct xml_writer *w, const json_t *result)
{
	json_t *names = html_keys(result, NULL, NULL), *settings = verdict_settings(result), *v;
	const char *name;

	if (!json_object_size(names))
		html_el(w, "p", "No load was measured (every run was skipped).");
	json_object_foreach(names, name, v)
		html_load_section(w, result, name, settings);
	json_decref(settings);
	json_decref(names);
}
