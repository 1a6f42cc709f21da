/* The HTML report (reports/html.h): the page, its header and the tables.
 * The page is XHTML written through the XML writer, so names and reasons
 * from a profile are escaped; it is also valid HTML, which is why no
 * element is ever written empty. The CSS holds no '<', '>' or '&': inside
 * <style> an HTML parser would not decode their references. */
#include "config.h"
#include "reports/html.h"
#include "reports/verdict.h"

#include <stdarg.h>
#include <string.h>

static const char html_css[] =
	"body{font-family:sans-serif;margin:1em 2em;color:#222;max-width:80em}"
	"table{border-collapse:collapse;margin:.5em 0}"
	"th,td{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}"
	"th{background:#f0f0f0}td.num{text-align:right;white-space:nowrap}"
	".pass{background:#d9f2d9}.fail{background:#f8d0d0}"
	".undecided{background:#fff0c0}.skip{background:#e8e8e8}"
	".bad{color:#b00000;font-weight:bold}svg{display:block;margin:.5em 0}"
	"section{margin-top:1.5em}";

void html_el(struct xml_writer *w, const char *name, const char *text)
{
	xml_open(w, name);
	xml_text(w, text ? text : "");
	xml_close(w);
}

static void html_elf(struct xml_writer *w, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void html_elf(struct xml_writer *w, const char *name, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	html_el(w, name, buf);
}

/* A table cell; CLASS may be NULL. */
static void html_td(struct xml_writer *w, const char *cls, const char *text)
{
	xml_open(w, "td");
	xml_attr(w, "class", cls);
	xml_text(w, text ? text : "");
	xml_close(w);
}

/* A header row of N cells. */
static void html_head_row(struct xml_writer *w, const char *const *cells, size_t n)
{
	xml_open(w, "tr");
	for (size_t i = 0; i < n; i++)
		html_el(w, "th", cells[i]);
	xml_close(w);
}

const char *html_run_label(const json_t *result, const json_t *run, char *buf, size_t len)
{
	const char *setting = verdict_str(run, "setting", "?");

	if (verdict_repetitions(result) > 1)
		snprintf(buf, len, "%s #%lld", setting,
			 (long long)json_integer_value(json_object_get(run, "repetition")) + 1);
	else
		snprintf(buf, len, "%s", setting);
	return buf;
}

/* One "name: value" row of the header's fact table. */
static void html_fact(struct xml_writer *w, const char *name, const char *value)
{
	xml_open(w, "tr");
	html_el(w, "th", name);
	html_el(w, "td", value);
	xml_close(w);
}

/* "starve 0.1.0: starve run p.yaml" from the result's tool object. */
static const char *html_command(const json_t *result, char *buf, size_t len)
{
	const json_t *tool = json_object_get(result, "tool"), *arg;
	size_t i, used;

	used = (size_t)snprintf(buf, len, "%s %s:", verdict_str(tool, "name", "starve"),
				verdict_str(tool, "version", "?"));
	json_array_foreach(json_object_get(tool, "command_line"), i, arg)
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, " %s",
						 json_string_value(arg) ? json_string_value(arg) : "?");
	return buf;
}

static void html_facts(struct xml_writer *w, const json_t *result)
{
	const json_t *kernel = json_object_get(result, "kernel");
	const json_t *host = json_object_get(result, "host");
	const json_t *profile = json_object_get(result, "profile");
	char buf[1024];

	xml_open(w, "table");
	snprintf(buf, sizeof(buf), "%s, HZ %lld, preemption %s, %s",
		 verdict_str(kernel, "release", "unknown"),
		 (long long)json_integer_value(json_object_get(kernel, "hz")),
		 verdict_str(kernel, "preempt", "unknown"), verdict_str(kernel, "version", ""));
	html_fact(w, "kernel", buf);
	snprintf(buf, sizeof(buf), "%s, %lld CPUs, %s", verdict_str(host, "hostname", "unknown"),
		 (long long)json_integer_value(json_object_get(host, "nr_cpus")),
		 verdict_str(host, "topology", "topology unknown"));
	html_fact(w, "host", buf);
	snprintf(buf, sizeof(buf), "%s to %s%s", verdict_str(result, "started", "?"),
		 verdict_str(result, "ended", "?"),
		 json_is_false(json_object_get(result, "complete")) ?
		 " (incomplete: interrupted)" : "");
	html_fact(w, "run", buf);
	snprintf(buf, sizeof(buf), "%s: %d repetition(s) of %gs (warm-up %gs) per setting, "
		 "sampled at %lld Hz, loads confined by %s", verdict_str(profile, "file", "?"),
		 verdict_repetitions(result),
		 json_number_value(json_object_get(profile, "duration_s")),
		 json_number_value(json_object_get(profile, "warmup_s")),
		 (long long)json_integer_value(json_object_get(profile, "sample_hz")),
		 verdict_str(result, "cpuset_backend", "?"));
	html_fact(w, "profile", buf);
	html_fact(w, "command", html_command(result, buf, sizeof(buf)));
	xml_close(w);
}

static void html_header(struct xml_writer *w, const json_t *result)
{
	const json_t *s = json_object_get(result, "summary");
	const char *name = verdict_str(json_object_get(result, "profile"), "name", "?");
	int k = verdict_parse(verdict_str(s, "verdict", NULL));
	char buf[512];

	xml_open(w, "h1");
	xml_text(w, "starve: ");
	xml_text(w, name);
	xml_text(w, " ");
	xml_open(w, "span");
	xml_attr(w, "class", k < 0 ? NULL : verdict_name(k));
	xml_text(w, k < 0 ? "UNKNOWN" : verdict_upper(k));
	xml_close(w);
	xml_close(w);
	html_el(w, "p", verdict_str(json_object_get(result, "profile"), "description", ""));
	html_facts(w, result);
	xml_open(w, "p");
	xml_attr(w, "class", k < 0 ? NULL : verdict_name(k));
	snprintf(buf, sizeof(buf), "Verdict %s: %lld pass, %lld fail, %lld skip, %lld undecided "
		 "(exit status %lld).", k < 0 ? "UNKNOWN" : verdict_upper(k),
		 (long long)json_integer_value(json_object_get(s, "pass")),
		 (long long)json_integer_value(json_object_get(s, "fail")),
		 (long long)json_integer_value(json_object_get(s, "skip")),
		 (long long)json_integer_value(json_object_get(s, "undecided")),
		 (long long)json_integer_value(json_object_get(s, "exit_code")));
	xml_text(w, buf);
	xml_close(w);
	if (json_is_string(json_object_get(s, "warning")))
		html_elf(w, "p", "Warning: %s", verdict_str(s, "warning", ""));
}

/* One row of the verdict table. */
static void html_verdict_row(struct xml_writer *w, const json_t *run, const json_t *v)
{
	const json_t *value = json_object_get(v, "value");
	const char *metric = verdict_str(v, "metric", NULL);
	enum verdict_kind k = verdict_kind_of(v);
	char label[512], buf[64];

	xml_open(w, "tr");
	html_td(w, NULL, verdict_str(run, "setting", "?"));
	html_td(w, NULL, verdict_label(v, label, sizeof(label)));
	snprintf(buf, sizeof(buf), "%lld",
		 (long long)json_integer_value(json_object_get(run, "repetition")) + 1);
	html_td(w, "num", buf);
	html_td(w, "num", json_is_number(value) ?
		verdict_format_value(metric, json_number_value(value), buf, sizeof(buf)) : "-");
	html_td(w, "num", json_is_string(json_object_get(v, "threshold_text")) ?
		verdict_str(v, "threshold_text", "") :
		verdict_format_value(metric, json_number_value(json_object_get(v, "threshold")),
				     buf, sizeof(buf)));
	html_td(w, verdict_name(k), verdict_upper(k));
	html_td(w, NULL, verdict_str(v, "reason", ""));
	xml_close(w);
}

static void html_verdicts(struct xml_writer *w, const json_t *result)
{
	static const char *const head[] = { "setting", "expectation", "repetition", "measured",
					    "threshold", "verdict", "reason" };
	const json_t *run, *v;
	size_t i, j, n = 0;

	html_el(w, "h2", "Verdicts");
	json_array_foreach(json_object_get(result, "runs"), i, run)
		n += json_array_size(json_object_get(run, "verdicts"));
	if (!n) {
		html_el(w, "p", "No verdicts: the profile has no expectations.");
		return;
	}
	xml_open(w, "table");
	html_head_row(w, head, sizeof(head) / sizeof(head[0]));
	json_array_foreach(json_object_get(result, "runs"), i, run)
		json_array_foreach(json_object_get(run, "verdicts"), j, v)
			html_verdict_row(w, run, v);
	xml_close(w);
}

/* A numeric cell, marked bad when BAD; "-" when the field is absent. */
static void html_num(struct xml_writer *w, const json_t *value, int decimals, const char *unit,
		     double scale, bool bad)
{
	char buf[64] = "-";

	if (json_is_number(value))
		snprintf(buf, sizeof(buf), "%.*f%s", decimals, json_number_value(value) * scale,
			 unit);
	html_td(w, bad && json_is_number(value) ? "num bad" : "num", buf);
}

static void html_run_row(struct xml_writer *w, const json_t *result, const json_t *run)
{
	const json_t *sampler = json_object_get(run, "sampler");
	const json_t *noise = json_object_get(json_object_get(run, "noise"), "other_cpu_share");
	double target = json_number_value(json_object_get(sampler, "target_hz"));
	double achieved = json_number_value(json_object_get(sampler, "achieved_hz"));
	char buf[256];

	xml_open(w, "tr");
	html_td(w, NULL, html_run_label(result, run, buf, sizeof(buf)));
	html_td(w, NULL, verdict_str(run, "status", "?"));
	html_num(w, json_object_get(run, "duration_s"), 2, "s", 1, false);
	html_num(w, json_object_get(sampler, "achieved_hz"), 1, " Hz", 1,
		 achieved < VERDICT_MIN_SAMPLER_RATIO * target);
	html_num(w, json_object_get(sampler, "target_hz"), 0, " Hz", 1, false);
	html_num(w, json_object_get(sampler, "late_ticks"), 0, "", 1, false);
	html_num(w, json_object_get(sampler, "missed_ticks"), 0, "", 1, false);
	html_num(w, json_object_get(sampler, "tasks"), 0, "", 1, false);
	html_num(w, json_object_get(sampler, "cost_us_per_task_tick"), 2, " us", 1, false);
	html_num(w, noise, 1, "%", 100, json_number_value(noise) > VERDICT_MAX_NOISE);
	html_td(w, NULL, verdict_str(run, "reason", ""));
	xml_close(w);
}

static void html_runs(struct xml_writer *w, const json_t *result)
{
	static const char *const head[] = { "run", "status", "duration", "sampler rate",
					    "target", "late ticks", "missed ticks", "tasks",
					    "cost per task-tick", "noise", "reason" };
	const json_t *run;
	size_t i;

	html_el(w, "h2", "Runs: sampler quality and noise");
	html_elf(w, "p", "Measurements are undecided when the sampler reached less than %.0f%% "
		 "of its target rate or other tasks used more than %.0f%% of the loads' CPUs "
		 "(noise); such values are marked.", VERDICT_MIN_SAMPLER_RATIO * 100,
		 VERDICT_MAX_NOISE * 100);
	xml_open(w, "table");
	html_head_row(w, head, sizeof(head) / sizeof(head[0]));
	json_array_foreach(json_object_get(result, "runs"), i, run)
		html_run_row(w, result, run);
	xml_close(w);
}

/* Every knob named before the run or applied by a setting, in first-seen
 * order (a JSON object used as an ordered set). */
static json_t *html_knob_names(const json_t *result)
{
	json_t *names = json_object(), *run, *v;
	const char *k;
	size_t i;

	json_object_foreach((json_t *)json_object_get(result, "knobs_before"), k, v)
		json_object_set_new(names, k, json_true());
	json_array_foreach(json_object_get(result, "runs"), i, run)
		json_object_foreach(json_object_get(run, "knobs_applied"), k, v)
			json_object_set_new(names, k, json_true());
	return names;
}

/* The value SETTING's first run applied to KNOB ("" when it left it alone). */
static const char *html_knob_applied(const json_t *result, const char *setting, const char *knob)
{
	const json_t *run;
	size_t i;

	json_array_foreach(json_object_get(result, "runs"), i, run)
		if (verdict_run_is(run, setting))
			return verdict_str(json_object_get(run, "knobs_applied"), knob, "");
	return "";
}

static void html_knobs(struct xml_writer *w, const json_t *result)
{
	json_t *names = html_knob_names(result), *settings = verdict_settings(result), *s, *v;
	const char *knob;
	size_t j;

	html_el(w, "h2", "Knobs: before the run and as each setting applied them");
	if (!json_object_size(names)) {
		html_el(w, "p", "No knobs were read or changed.");
	} else {
		xml_open(w, "table");
		xml_open(w, "tr");
		html_el(w, "th", "knob");
		html_el(w, "th", "before");
		json_array_foreach(settings, j, s)
			html_el(w, "th", json_string_value(s));
		xml_close(w);
		json_object_foreach(names, knob, v) {
			xml_open(w, "tr");
			html_td(w, NULL, knob);
			html_td(w, NULL, verdict_str(json_object_get(result, "knobs_before"), knob,
						     ""));
			json_array_foreach(settings, j, s)
				html_td(w, NULL, html_knob_applied(result, json_string_value(s),
								  knob));
			xml_close(w);
		}
		xml_close(w);
	}
	json_decref(settings);
	json_decref(names);
}

static void html_head(struct xml_writer *w, const json_t *result)
{
	const json_t *s = json_object_get(result, "summary");
	int k = verdict_parse(verdict_str(s, "verdict", NULL));

	xml_open(w, "head");
	xml_open(w, "meta");
	xml_attr(w, "charset", "utf-8");
	xml_close(w);
	html_elf(w, "title", "starve: %s %s",
		 verdict_str(json_object_get(result, "profile"), "name", "?"),
		 k < 0 ? "UNKNOWN" : verdict_upper(k));
	html_el(w, "style", html_css);
	xml_close(w);
}

int html_write(const json_t *result, FILE *f)
{
	struct xml_writer w;

	xml_begin(&w, f);
	fputs("\n<!DOCTYPE html>", f);
	xml_open(&w, "html");
	xml_attr(&w, "xmlns", "http://www.w3.org/1999/xhtml");
	xml_attr(&w, "lang", "en");
	html_head(&w, result);
	xml_open(&w, "body");
	html_header(&w, result);
	html_verdicts(&w, result);
	html_load_charts(&w, result);
	html_runs(&w, result);
	html_knobs(&w, result);
	xml_close(&w);
	xml_close(&w);
	return xml_end(&w);
}
