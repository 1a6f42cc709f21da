/* The HTML report (reports/format/html.h): the page, its header and the tables.
 * The page is XHTML written through the XML writer, so names and reasons
 * from a profile are escaped; it is also valid HTML, which is why no
 * element is ever written empty. The CSS holds no '<', '>' or '&': inside
 * <style> an HTML parser would not decode their references. */
#include "config.h"
#include "reports/format/html.h"
#include "reports/format/who-ran.h"
#include "reports/result/verdict.h"
#include "lib/metric.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char html_css[] =
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

const char *html_run_label(const struct result_view *v, const struct rv_run *run, char *buf,
			   size_t len)
{
	if (v->repetitions > 1)
		snprintf(buf, len, "%s #%ld", run->setting, run->repetition + 1);
	else
		snprintf(buf, len, "%s", run->setting);
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

/* "starve 0.1.0: starve run p.yaml" from the result's tool. */
static const char *html_command(const struct result_view *v, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "%s %s:", v->tool.name, v->tool.version);

	for (size_t i = 0; i < v->tool.n_command_line && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, " %s", v->tool.command_line[i]);
	return buf;
}

/* S, or DEF when S is absent. */
static const char *html_or(const char *s, const char *def)
{
	return s ? s : def;
}

static void html_facts(struct xml_writer *w, const struct result_view *v)
{
	const struct rv_profile *p = &v->profile;
	char buf[1024];

	xml_open(w, "table");
	snprintf(buf, sizeof(buf), "%s, HZ %ld, preemption %s, %s", v->kernel.release, v->kernel.hz,
		 html_or(v->kernel.preempt, "unknown"), html_or(v->kernel.version, ""));
	html_fact(w, "kernel", buf);
	snprintf(buf, sizeof(buf), "%s, %ld CPUs, %s", html_or(v->host.hostname, "unknown"),
		 v->host.nr_cpus, html_or(v->host.topology, "topology unknown"));
	html_fact(w, "host", buf);
	snprintf(buf, sizeof(buf), "%s to %s%s", v->started, html_or(v->ended, "?"),
		 v->complete ? "" : " (incomplete: interrupted)");
	html_fact(w, "run", buf);
	snprintf(buf, sizeof(buf), "%s: %d repetition(s) of %gs (warm-up %gs) per setting, "
		 "sampled at %ld Hz, loads confined by %s", html_or(p->file, "?"), v->repetitions,
		 isnan(p->duration_s) ? 0 : p->duration_s, isnan(p->warmup_s) ? 0 : p->warmup_s,
		 p->sample_hz == RV_NONE ? 0 : p->sample_hz, html_or(v->cpuset_backend, "?"));
	html_fact(w, "profile", buf);
	html_fact(w, "command", html_command(v, buf, sizeof(buf)));
	xml_close(w);
}

static void html_header(struct xml_writer *w, const struct result_view *v)
{
	const struct rv_summary *s = &v->summary;
	char buf[512];

	xml_open(w, "h1");
	xml_text(w, "starve: ");
	xml_text(w, v->profile.name);
	xml_text(w, " ");
	xml_open(w, "span");
	xml_attr(w, "class", verdict_name(s->verdict));
	xml_text(w, verdict_upper(s->verdict));
	xml_close(w);
	xml_close(w);
	html_el(w, "p", html_or(v->profile.description, ""));
	html_facts(w, v);
	xml_open(w, "p");
	xml_attr(w, "class", verdict_name(s->verdict));
	snprintf(buf, sizeof(buf), "Verdict %s: %ld pass, %ld fail, %ld skip, %ld undecided "
		 "(exit status %d).", verdict_upper(s->verdict), s->pass, s->fail, s->skip,
		 s->undecided, s->exit_code);
	xml_text(w, buf);
	xml_close(w);
	if (s->warning)
		html_elf(w, "p", "Warning: %s", s->warning);
}

/* One row of the verdict table. */
static void html_verdict_row(struct xml_writer *w, const struct rv_run *run,
			     const struct rv_verdict *vd)
{
	char label[512], buf[64];

	xml_open(w, "tr");
	html_td(w, NULL, run->setting);
	html_td(w, NULL, verdict_label(&vd->rule, label, sizeof(label)));
	snprintf(buf, sizeof(buf), "%ld", run->repetition + 1);
	html_td(w, "num", buf);
	html_td(w, "num", metric_format(vd->rule.metric, vd->value, METRIC_DIGITS, buf,
					sizeof(buf)));
	html_td(w, "num", verdict_threshold_text(&vd->rule, buf, sizeof(buf)));
	html_td(w, verdict_name(vd->kind), verdict_upper(vd->kind));
	html_td(w, NULL, html_or(vd->reason, ""));
	xml_close(w);
}

static void html_verdicts(struct xml_writer *w, const struct result_view *v)
{
	static const char *const head[] = { "setting", "expectation", "repetition", "measured",
					    "threshold", "verdict", "reason" };
	size_t n = 0;

	html_el(w, "h2", "Verdicts");
	for (size_t i = 0; i < v->n_runs; i++)
		n += v->runs[i].n_verdicts;
	if (!n) {
		html_el(w, "p", "No verdicts: the profile has no expectations.");
		return;
	}
	xml_open(w, "table");
	html_head_row(w, head, sizeof(head) / sizeof(head[0]));
	for (size_t i = 0; i < v->n_runs; i++)
		for (size_t j = 0; j < v->runs[i].n_verdicts; j++)
			html_verdict_row(w, &v->runs[i], &v->runs[i].verdicts[j]);
	xml_close(w);
}

/* A numeric cell of VALUE (NAN or RV_NONE: "-"), marked bad when BAD. */
static void html_num(struct xml_writer *w, double value, int decimals, const char *unit,
		     double scale, bool bad)
{
	char buf[64] = "-";
	bool present = !isnan(value) && value != (double)RV_NONE;

	if (present)
		snprintf(buf, sizeof(buf), "%.*f%s", decimals, value * scale, unit);
	html_td(w, bad && present ? "num bad" : "num", buf);
}

static void html_run_row(struct xml_writer *w, const struct result_view *v,
			 const struct rv_run *run)
{
	const struct rv_sampler *s = &run->sampler;
	char buf[256];

	xml_open(w, "tr");
	html_td(w, NULL, html_run_label(v, run, buf, sizeof(buf)));
	html_td(w, NULL, result_status_name(run->status));
	html_num(w, run->duration_s, 2, "s", 1, false);
	html_num(w, s->achieved_hz, 1, " Hz", 1, verdict_sampler_slow(run));
	html_num(w, s->target_hz, 0, " Hz", 1, false);
	html_num(w, (double)s->late_ticks, 0, "", 1, false);
	html_num(w, (double)s->missed_ticks, 0, "", 1, false);
	html_num(w, (double)s->tasks, 0, "", 1, false);
	html_num(w, s->cost_us_per_task_tick, 2, " us", 1, false);
	html_num(w, run->other_cpu_share, 1, "%", 100, run->other_cpu_share > VERDICT_MAX_NOISE);
	html_td(w, NULL, html_or(run->reason, ""));
	xml_close(w);
}

static void html_runs(struct xml_writer *w, const struct result_view *v)
{
	static const char *const head[] = { "run", "status", "duration", "sampler rate",
					    "target", "late ticks", "missed ticks", "tasks",
					    "cost per task-tick", "noise", "reason" };

	html_el(w, "h2", "Runs: sampler quality and noise");
	html_elf(w, "p", "Measurements are undecided when the sampler reached less than %.0f%% "
		 "of its target rate or other tasks used more than %.0f%% of the loads' CPUs "
		 "(noise); such values are marked.", VERDICT_MIN_SAMPLER_RATIO * 100,
		 VERDICT_MAX_NOISE * 100);
	xml_open(w, "table");
	html_head_row(w, head, sizeof(head) / sizeof(head[0]));
	for (size_t i = 0; i < v->n_runs; i++)
		html_run_row(w, v, &v->runs[i]);
	xml_close(w);
}

static void html_who_ran_row(void *data, const struct rv_run *run, const char *label,
			     const char *line)
{
	struct xml_writer *w = data;

	(void)run;
	xml_open(w, "tr");
	html_td(w, NULL, label);
	html_td(w, NULL, line);
	xml_close(w);
}

/* The exact source: who held the CPU during each load's longest wait. */
static void html_who_ran(struct xml_writer *w, const struct result_view *v)
{
	static const char *const head[] = { "run", "who held the CPU" };

	if (!who_ran_any(v))
		return;
	html_el(w, "h2", "Who held the CPU");
	html_el(w, "p", "For each load's longest wait, from the scheduler's events: the tasks "
		 "that held that CPU meanwhile, with their policy, priority and time.");
	xml_open(w, "table");
	html_head_row(w, head, sizeof(head) / sizeof(head[0]));
	who_ran_each(v, html_who_ran_row, w);
	xml_close(w);
}

/* Every knob named before the run or applied by a setting, in first-seen
 * order, into NAMES (room for all); returns how many. */
static size_t html_knob_names(const struct result_view *v, const char **names)
{
	size_t n = 0;

	for (size_t i = 0; i <= v->n_runs; i++) {
		const struct rv_pair *knobs = i ? v->runs[i - 1].knobs_applied : v->knobs_before;
		size_t count = i ? v->runs[i - 1].n_knobs_applied : v->n_knobs_before;

		for (size_t k = 0; k < count; k++) {
			size_t j = 0;

			while (j < n && strcmp(names[j], knobs[k].name))
				j++;
			if (j == n)
				names[n++] = knobs[k].name;
		}
	}
	return n;
}

/* The value SETTING's first run applied to KNOB ("" when it left it alone). */
static const char *html_knob_applied(const struct result_view *v, size_t setting,
				     const char *knob)
{
	for (size_t i = 0; i < v->n_runs; i++)
		if (v->runs[i].setting_index == setting)
			return html_or(rv_pair_get(v->runs[i].knobs_applied,
						   v->runs[i].n_knobs_applied, knob), "");
	return "";
}

static size_t html_knob_room(const struct result_view *v)
{
	size_t n = v->n_knobs_before;

	for (size_t i = 0; i < v->n_runs; i++)
		n += v->runs[i].n_knobs_applied;
	return n;
}

static void html_knobs(struct xml_writer *w, const struct result_view *v)
{
	const char **names = calloc(html_knob_room(v) + 1, sizeof(*names));
	size_t n = names ? html_knob_names(v, names) : 0;

	html_el(w, "h2", "Knobs: before the run and as each setting applied them");
	if (!n) {
		html_el(w, "p", "No knobs were read or changed.");
		free(names);
		return;
	}
	xml_open(w, "table");
	xml_open(w, "tr");
	html_el(w, "th", "knob");
	html_el(w, "th", "before");
	for (size_t j = 0; j < v->n_setting_names; j++)
		html_el(w, "th", v->setting_names[j]);
	xml_close(w);
	for (size_t k = 0; k < n; k++) {
		xml_open(w, "tr");
		html_td(w, NULL, names[k]);
		html_td(w, NULL, html_or(rv_pair_get(v->knobs_before, v->n_knobs_before, names[k]),
					 ""));
		for (size_t j = 0; j < v->n_setting_names; j++)
			html_td(w, NULL, html_knob_applied(v, j, names[k]));
		xml_close(w);
	}
	xml_close(w);
	free(names);
}

static void html_head(struct xml_writer *w, const struct result_view *v)
{
	xml_open(w, "head");
	xml_open(w, "meta");
	xml_attr(w, "charset", "utf-8");
	xml_close(w);
	html_elf(w, "title", "starve: %s %s", v->profile.name, verdict_upper(v->summary.verdict));
	html_el(w, "style", html_css);
	xml_close(w);
}

int html_write(const struct result_view *v, FILE *f)
{
	struct xml_writer w;

	xml_begin(&w, f);
	fputs("\n<!DOCTYPE html>", f);
	xml_open(&w, "html");
	xml_attr(&w, "xmlns", "http://www.w3.org/1999/xhtml");
	xml_attr(&w, "lang", "en");
	html_head(&w, v);
	xml_open(&w, "body");
	html_header(&w, v);
	html_verdicts(&w, v);
	html_load_charts(&w, v);
	html_runs(&w, v);
	html_who_ran(&w, v);
	html_knobs(&w, v);
	xml_close(&w);
	xml_close(&w);
	return xml_end(&w);
}
