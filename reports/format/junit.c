/* JUnit XML report (reports/format/junit.h). CI systems show one suite per setting
 * so a throttling matrix reads as a matrix; the properties record what was
 * measured on (kernel, HZ, knobs) since the XML is often all a CI keeps. */
#include "config.h"
#include "reports/format/junit.h"
#include "reports/result/outcome.h"
#include "reports/result/verdict.h"
#include "reports/format/xml-writer.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

struct junit_counts {
	unsigned tests, failures, skipped;
	double time;
};

/* Counts for the runs of setting SETTING (all runs when SETTING is
 * JUNIT_ALL). */
#define JUNIT_ALL SIZE_MAX
static void junit_count(const struct result_view *v, size_t setting, struct junit_counts *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < v->n_runs; i++) {
		const struct rv_run *run = &v->runs[i];

		if (setting != JUNIT_ALL && run->setting_index != setting)
			continue;
		c->time += isnan(run->duration_s) ? 0 : run->duration_s;
		for (size_t j = 0; j < run->n_verdicts; j++) {
			enum outcome o = outcome_of(v, run->verdicts[j].kind);

			c->tests++;
			c->failures += o == OUTCOME_FAIL;
			c->skipped += o == OUTCOME_SKIP;
		}
	}
}

static void junit_property(struct xml_writer *w, const char *name, const char *value)
{
	if (!value)
		return;
	xml_open(w, "property");
	xml_attr(w, "name", name);
	xml_attr(w, "value", value);
	xml_close(w);
}

static void junit_knobs(struct xml_writer *w, const char *prefix, const struct rv_pair *knobs,
			size_t n)
{
	char key[256];

	for (size_t i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "%s%s", prefix, knobs[i].name);
		junit_property(w, key, knobs[i].value);
	}
}

static void junit_properties(struct xml_writer *w, const struct result_view *v,
			     const char *setting)
{
	const struct rv_setting *s = rv_profile_setting(v, setting);
	char hz[32];

	snprintf(hz, sizeof(hz), "%ld", v->kernel.hz);
	xml_open(w, "properties");
	junit_property(w, "kernel.release", v->kernel.release);
	junit_property(w, "kernel.version", v->kernel.version);
	junit_property(w, "kernel.hz", hz);
	junit_property(w, "kernel.preempt", v->kernel.preempt);
	junit_property(w, "profile.file", v->profile.file);
	junit_property(w, "setting", setting);
	if (s)
		junit_knobs(w, "knob.", s->knobs, s->n_knobs);
	junit_knobs(w, "knob_before.", v->knobs_before, v->n_knobs_before);
	xml_close(w);
}

/* The <failure> or <skipped> child of a testcase, if any: what
 * reports/result/outcome.h makes of the verdict, its reason prefixed with
 * "undecided: " for an undecided one. */
static void junit_outcome(struct xml_writer *w, const struct result_view *v,
			  const struct rv_verdict *vd)
{
	const char *reason = vd->reason ? vd->reason : "no reason recorded";
	enum outcome o = outcome_of(v, vd->kind);
	char msg[1024];

	if (o == OUTCOME_PASS)
		return;
	snprintf(msg, sizeof(msg), "%s%s", outcome_reason_prefix(vd->kind), reason);
	xml_open(w, o == OUTCOME_FAIL ? "failure" : "skipped");
	xml_attr(w, "message", msg);
	if (o == OUTCOME_FAIL) {
		xml_attr(w, "type", vd->kind == VERDICT_UNDECIDED ? "starve.undecided"
								  : "starve.threshold");
		xml_text(w, msg);
	}
	xml_close(w);
}

static void junit_testcase(struct xml_writer *w, const struct result_view *v,
			   const struct rv_run *run, const struct rv_verdict *vd,
			   const char *classname)
{
	char label[512], name[600];

	verdict_label(&vd->rule, label, sizeof(label));
	if (v->repetitions > 1)
		snprintf(name, sizeof(name), "%s [rep %ld]", label, run->repetition + 1);
	else
		snprintf(name, sizeof(name), "%s", label);
	xml_open(w, "testcase");
	xml_attr(w, "name", name);
	xml_attr(w, "classname", classname);
	/* the run's time shared by its cases, so they add up to the suite's */
	xml_attrf(w, "time", "%.3f",
		  isnan(run->duration_s) ? 0 : run->duration_s / (double)run->n_verdicts);
	junit_outcome(w, v, vd);
	xml_close(w);
}

static void junit_suite(struct xml_writer *w, const struct result_view *v, size_t setting)
{
	const char *first_start = NULL;
	struct junit_counts c;
	char name[512];

	junit_count(v, setting, &c);
	for (size_t i = 0; i < v->n_runs && !first_start; i++)
		if (v->runs[i].setting_index == setting)
			first_start = v->runs[i].started;
	snprintf(name, sizeof(name), "%s/%s", v->profile.name, v->setting_names[setting]);
	xml_open(w, "testsuite");
	xml_attr(w, "name", name);
	xml_attrf(w, "tests", "%u", c.tests);
	xml_attrf(w, "failures", "%u", c.failures);
	xml_attr(w, "errors", "0");
	xml_attrf(w, "skipped", "%u", c.skipped);
	xml_attrf(w, "time", "%.3f", c.time);
	xml_attr(w, "timestamp", first_start);
	xml_attr(w, "hostname", v->host.hostname);
	junit_properties(w, v, v->setting_names[setting]);
	for (size_t i = 0; i < v->n_runs; i++) {
		const struct rv_run *run = &v->runs[i];

		if (run->setting_index != setting)
			continue;
		for (size_t j = 0; j < run->n_verdicts; j++)
			junit_testcase(w, v, run, &run->verdicts[j], name);
	}
	xml_close(w);
}

int junit_write(const struct result_view *v, FILE *f)
{
	struct xml_writer w;
	struct junit_counts c;

	junit_count(v, JUNIT_ALL, &c);
	xml_begin(&w, f);
	xml_open(&w, "testsuites");
	xml_attr(&w, "name", v->profile.name);
	xml_attrf(&w, "tests", "%u", c.tests);
	xml_attrf(&w, "failures", "%u", c.failures);
	xml_attr(&w, "errors", "0");
	xml_attrf(&w, "time", "%.3f", c.time);
	for (size_t i = 0; i < v->n_setting_names; i++)
		junit_suite(&w, v, i);
	xml_close(&w);
	return xml_end(&w);
}
