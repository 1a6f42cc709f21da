/* The per-load sections of the HTML report (reports/format/html.h): a table of the
 * load's metrics per run, the longest starvation of every run as bars
 * (out-of-band and in-band side by side), each histogram the load recorded
 * as a CCDF (the share of samples at least this long, one line per run, both
 * axes log-scaled: lines that only fall apart where the runs differ), and
 * the CPU share over time per task (the table's figure), one plot per
 * setting. Each chart draws the thresholds of the profile's expectations on
 * what it shows. */
#include "config.h"
#include "reports/format/html.h"
#include "reports/format/svg.h"
#include "reports/result/verdict.h"
#include "lib/metric.h"
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

/* An ordered set of names (first seen first), for the loads, metrics and
 * histograms that some run has; a handful each, so a linear scan will do. */
struct html_names {
	const char **v;
	size_t n, cap;
};

static void html_names_add(struct html_names *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], name))
			return;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		const char **v = reallocarray(s->v, cap, sizeof(*v));

		if (!v)
			return;	/* out of memory: a section less, never a crash */
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = name;
}

enum html_field { HTML_METRICS, HTML_HISTOGRAMS };

/* The names of FIELD of load NAME over every run. */
static void html_field_names(const struct result_view *v, const char *name,
			     enum html_field field, struct html_names *out)
{
	for (size_t i = 0; i < v->n_runs; i++) {
		const struct rv_load *l = rv_run_load(&v->runs[i], name);

		for (size_t k = 0; l && field == HTML_METRICS && k < l->n_metrics; k++)
			html_names_add(out, l->metrics[k].name);
		for (size_t k = 0; l && field == HTML_HISTOGRAMS && k < l->n_histograms; k++)
			html_names_add(out, l->histograms[k].name);
	}
}

/* ---- thresholds ---- */

#define HTML_MAX_REFS 8

struct html_refs {
	struct svg_ref r[HTML_MAX_REFS];
	char labels[HTML_MAX_REFS][128];
	size_t n;
};

/* The thresholds of the expectations on load NAME's metrics whose name
 * starts with PREFIX, times SCALE (seconds to a chart's nanoseconds), on the
 * x axis when ON_X: "wakeup_p99 below 20ms (throttled)". */
static void html_refs(const struct result_view *v, const char *name, const char *prefix,
		      double scale, bool on_x, struct html_refs *out)
{
	out->n = 0;
	for (size_t i = 0; prefix && i < v->profile.n_expect && out->n < HTML_MAX_REFS; i++) {
		const struct rv_expect *e = &v->profile.expect[i];
		char th[48];

		if (strcmp(e->rule.load, name) || strncmp(e->rule.metric, prefix, strlen(prefix)))
			continue;
		snprintf(out->labels[out->n], sizeof(out->labels[0]), "%s %s %s%s%s%s",
			 e->rule.metric, result_op_name(e->rule.op),
			 verdict_threshold_text(&e->rule, th, sizeof(th)), e->setting ? " (" : "",
			 e->setting ? e->setting : "", e->setting ? ")" : "");
		out->r[out->n] = (struct svg_ref){ .value = e->rule.threshold * scale,
						   .label = out->labels[out->n], .on_x = on_x };
		out->n++;
	}
}

/* The metrics a histogram's x axis measures: their expectations are drawn on it. */
static const char *html_hist_metrics(const char *hist)
{
	return !strcmp(hist, "wakeup_latency") ? "wakeup_" :
	       !strcmp(hist, "gap") ? metric_name(MET_STARVATION_MAX_INBAND) : NULL;
}

static const struct {
	enum metric_id metric;
	const char *label;
} html_starvation[] = {
	{ MET_STARVATION_MAX, "out-of-band (sampler)" },
	{ MET_STARVATION_MAX_INBAND, "in-band (the load)" },
};
#define HTML_N_STARVATION 2

/* The starvation metrics measured in some run of load NAME into USED; how many. */
static size_t html_starvation_used(const struct result_view *v, const char *name, size_t *used)
{
	size_t n = 0;

	for (size_t m = 0; m < HTML_N_STARVATION; m++) {
		bool any = false;

		for (size_t i = 0; i < v->n_runs; i++)
			any |= !isnan(rv_load_metric(rv_run_load(&v->runs[i], name),
						     metric_name(html_starvation[m].metric)));
		if (any)
			used[n++] = m;
	}
	return n;
}

static void html_starvation_bars(struct xml_writer *w, const struct result_view *v,
				 const char *name, char *title, size_t title_len)
{
	size_t used[HTML_N_STARVATION], ns = html_starvation_used(v, name, used), g = 0;
	char (*labels)[HTML_NAME_LEN] = calloc(v->n_runs + 1, sizeof(*labels));
	const char **groups = calloc(v->n_runs + 1, sizeof(*groups)), *series[HTML_N_STARVATION];
	double *values = calloc((v->n_runs + 1) * HTML_N_STARVATION, sizeof(*values));
	struct html_refs refs;

	if (ns && labels && groups && values) {
		for (size_t i = 0; i < v->n_runs; i++) {
			const struct rv_load *load = rv_run_load(&v->runs[i], name);

			if (!load)
				continue;
			groups[g] = html_run_label(v, &v->runs[i], labels[g], sizeof(labels[g]));
			for (size_t s = 0; s < ns; s++)
				values[g * ns + s] =
					rv_load_metric(load, metric_name(html_starvation[used[s]].metric));
			g++;
		}
		for (size_t s = 0; s < ns; s++)
			series[s] = html_starvation[used[s]].label;
		snprintf(title, title_len, "%s: longest starvation per run", name);
		html_refs(v, name, metric_name(MET_STARVATION_MAX), 1, false, &refs);
		svg_bar_chart(w, &(struct svg_bars){ .title = title, .y_title = metric_name(MET_STARVATION_MAX),
				.groups = groups, .n_groups = g, .series = series, .n_series = ns,
				.values = values, .label = html_label_s, .refs = refs.r,
				.n_refs = refs.n });
	}
	free(labels);
	free(groups);
	free(values);
}

/* Histogram H as a CCDF in bucket steps: x from each bucket's lower bound to
 * the next bucket's, y the share of samples in that bucket or above. */
static void html_hist_series(struct html_chart *c, const struct rv_histogram *h,
			     const char *label)
{
	size_t n = h->n_buckets;
	double *d, left = (double)h->count;

	if (!n || !h->count || !(d = html_chart_add(c, label, n, 3)))
		return;
	c->s[c->n - 1].x_end = d + 2 * n;
	for (size_t i = 0; i < n; i++) {
		d[i] = (double)h->buckets[i].lower_ns;
		d[n + i] = left / (double)h->count;
		left -= (double)h->buckets[i].count;
		d[2 * n + i] = (double)hist_bucket_upper(hist_bucket_of(h->buckets[i].lower_ns)) + 1;
	}
}

static void html_histogram(struct xml_writer *w, const struct result_view *v, const char *name,
			   const char *hist, char *title, size_t title_len)
{
	struct html_chart c;
	struct svg_plot p = { .title = title, .x_title = hist,
			      .y_title = "share at least this long (log scale)",
			      .x = { .log = true, .label = html_label_ns },
			      .y = { .log = true }, .style = SVG_CCDF };
	struct html_refs refs;
	char label[HTML_NAME_LEN];

	html_refs(v, name, html_hist_metrics(hist), 1e9, true, &refs);
	p.refs = refs.r, p.n_refs = refs.n;
	if (html_chart_init(&c, v->n_runs)) {
		for (size_t i = 0; i < v->n_runs; i++) {
			const struct rv_histogram *h =
				rv_load_histogram(rv_run_load(&v->runs[i], name), hist);

			if (h)
				html_hist_series(&c, h, html_run_label(v, &v->runs[i], label,
								       sizeof(label)));
		}
		snprintf(title, title_len, "%s: %s histogram, as the share of samples at least "
			 "this long", name, hist);
		if (svg_axis_fit(&p.x, c.s, c.n, true) && svg_axis_fit(&p.y, c.s, c.n, false))
			svg_plot(w, &p, c.s, c.n);
	}
	html_chart_free(&c);
}

/* How many tasks LOAD's cpu_share series adds up: the series is their sum,
 * the table's cpu_share their mean, so the chart divides by this to draw
 * the table's figure (and the expectation's threshold on it). An exec
 * load's figure is already its processes' sum (doc/result-format.md): 1. */
static long html_share_tasks(const struct rv_load *load)
{
	long n = load->tasks_seen > 0 ? load->tasks_seen : (long)load->n_tasks;

	return load->type && !strcmp(load->type, "exec") ? 1 : n > 1 ? n : 1;
}

/* LOAD's cpu_share time series per task as a line, x in seconds into the run. */
static void html_timeseries_series(struct html_chart *c, const struct rv_load *load,
				   const char *label)
{
	const struct rv_series *share = rv_load_series(load, "cpu_share");
	double step = load->interval_s, tasks = (double)html_share_tasks(load), *d;
	size_t n = share ? share->n : 0;

	if (!n || !(step > 0) || !(d = html_chart_add(c, label, n, 2)))
		return;
	for (size_t i = 0; i < n; i++) {
		d[i] = (double)i * step;
		d[n + i] = share->values[i] / tasks;
	}
}

/* The y title of a CPU-share chart whose runs' loads have from LO to HI
 * tasks: it says when a line is the mean of several. */
static void html_share_title(char *buf, size_t len, long lo, long hi)
{
	if (hi <= 1)
		snprintf(buf, len, "CPU share");
	else if (lo == hi)
		snprintf(buf, len, "CPU share per task (mean of %ld)", hi);
	else
		snprintf(buf, len, "CPU share per task (mean of %ld-%ld)", lo, hi);
}

static void html_timeseries(struct xml_writer *w, const struct result_view *v, const char *name,
			    size_t setting, char *title, size_t title_len)
{
	struct html_chart c;
	char label[HTML_NAME_LEN], y_title[96];
	struct svg_plot p = { .title = title, .x_title = "time into the run",
			      .y_title = y_title, .x = { .label = html_label_s },
			      .style = SVG_LINES };
	struct html_refs refs;
	long lo = 0, hi = 0, tasks;

	html_refs(v, name, "cpu_share", 1, false, &refs);
	p.refs = refs.r, p.n_refs = refs.n;
	if (html_chart_init(&c, v->n_runs)) {
		for (size_t i = 0; i < v->n_runs; i++) {
			const struct rv_load *load = rv_run_load(&v->runs[i], name);

			if (v->runs[i].setting_index != setting || !load)
				continue;
			html_timeseries_series(&c, load, html_run_label(v, &v->runs[i], label,
									  sizeof(label)));
			tasks = html_share_tasks(load);
			lo = lo && lo < tasks ? lo : tasks;
			hi = hi > tasks ? hi : tasks;
		}
		html_share_title(y_title, sizeof(y_title), lo, hi);
		snprintf(title, title_len, "%s: CPU share over time, setting %s", name,
			 v->setting_names[setting]);
		if (svg_axis_fit(&p.x, c.s, c.n, true) && svg_axis_fit(&p.y, c.s, c.n, false))
			svg_plot(w, &p, c.s, c.n);
	}
	html_chart_free(&c);
}

/* Every metric of load NAME (rows) in every run that has it (columns). */
static void html_metric_table(struct xml_writer *w, const struct result_view *v,
			      const char *name)
{
	struct html_names metrics = { 0 };
	char buf[HTML_NAME_LEN];

	html_field_names(v, name, HTML_METRICS, &metrics);
	if (metrics.n) {
		xml_open(w, "table");
		xml_open(w, "tr");
		html_el(w, "th", "metric");
		for (size_t i = 0; i < v->n_runs; i++)
			if (rv_run_load(&v->runs[i], name))
				html_el(w, "th", html_run_label(v, &v->runs[i], buf, sizeof(buf)));
		xml_close(w);
		for (size_t m = 0; m < metrics.n; m++) {
			xml_open(w, "tr");
			html_el(w, "td", metrics.v[m]);
			for (size_t i = 0; i < v->n_runs; i++) {
				const struct rv_load *load = rv_run_load(&v->runs[i], name);

				if (load)
					html_el(w, "td", metric_format(metrics.v[m],
						rv_load_metric(load, metrics.v[m]), METRIC_DIGITS,
						buf, sizeof(buf)));
			}
			xml_close(w);
		}
		xml_close(w);
	}
	free(metrics.v);
}

static void html_load_section(struct xml_writer *w, const struct result_view *v,
			      const char *name)
{
	struct html_names hists = { 0 };
	const char *type = "?";
	char title[512];

	for (size_t i = 0; i < v->n_runs; i++) {
		const struct rv_load *load = rv_run_load(&v->runs[i], name);

		if (load && load->type)
			type = load->type;
	}
	xml_open(w, "section");
	snprintf(title, sizeof(title), "Load %s (%s)", name, type);
	html_el(w, "h2", title);
	html_metric_table(w, v, name);
	html_starvation_bars(w, v, name, title, sizeof(title));
	html_field_names(v, name, HTML_HISTOGRAMS, &hists);
	for (size_t h = 0; h < hists.n; h++)
		html_histogram(w, v, name, hists.v[h], title, sizeof(title));
	for (size_t s = 0; s < v->n_setting_names; s++)
		html_timeseries(w, v, name, s, title, sizeof(title));
	xml_close(w);
	free(hists.v);
}

void html_load_charts(struct xml_writer *w, const struct result_view *v)
{
	struct html_names names = { 0 };

	for (size_t i = 0; i < v->n_runs; i++)
		for (size_t k = 0; k < v->runs[i].n_loads; k++)
			html_names_add(&names, v->runs[i].loads[k].name);
	if (!names.n)
		html_el(w, "p", "No load was measured (every run was skipped).");
	for (size_t i = 0; i < names.n; i++)
		html_load_section(w, v, names.v[i]);
	free(names.v);
}
