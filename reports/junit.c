/* JUnit XML report (reports/junit.h). CI systems show one suite per setting
 * so a throttling matrix reads as a matrix; the properties record what was
 * measured on (kernel, HZ, knobs) since the XML is often all a CI keeps. */
#include "config.h"
#include "reports/junit.h"
#include "reports/verdict.h"
#include "reports/xml-writer.h"

#include <string.h>

struct junit_counts {
	unsigned tests, failures, skipped;
	double time;
};

/* Counts for the runs of SETTING (all runs when SETTING is NULL). */
static void junit_count(const json_t *result, const char *setting, struct junit_counts *c)
{
	json_t *run, *v;
	size_t i, j;

	memset(c, 0, sizeof(*c));
	json_array_foreach(json_object_get(result, "runs"), i, run) {
		if (setting && !verdict_run_is(run, setting))
			continue;
		c->time += json_number_value(json_object_get(run, "duration_s"));
		json_array_foreach(json_object_get(run, "verdicts"), j, v) {
			enum verdict_kind k = verdict_kind_of(v);

			c->tests++;
			c->failures += k == VERDICT_FAIL;
			c->skipped += k == VERDICT_SKIP || k == VERDICT_UNDECIDED;
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

static void junit_knobs(struct xml_writer *w, const char *prefix, const json_t *knobs)
{
	const char *name;
	json_t *value;
	char key[256];

	json_object_foreach((json_t *)knobs, name, value) {
		snprintf(key, sizeof(key), "%s%s", prefix, name);
		junit_property(w, key, json_string_value(value));
	}
}

static const json_t *junit_setting_knobs(const json_t *result, const char *setting)
{
	json_t *s;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(result, "profile"), "settings"), i, s) {
		const char *name = json_string_value(json_object_get(s, "name"));

		if (name && !strcmp(name, setting))
			return json_object_get(s, "knobs");
	}
	return NULL;
}

static void junit_properties(struct xml_writer *w, const json_t *result, const char *setting)
{
	const json_t *kernel = json_object_get(result, "kernel");
	char hz[32];

	snprintf(hz, sizeof(hz), "%lld",
		 (long long)json_integer_value(json_object_get(kernel, "hz")));
	xml_open(w, "properties");
	junit_property(w, "kernel.release", json_string_value(json_object_get(kernel, "release")));
	junit_property(w, "kernel.version", json_string_value(json_object_get(kernel, "version")));
	junit_property(w, "kernel.hz", hz);
	junit_property(w, "kernel.preempt", json_string_value(json_object_get(kernel, "preempt")));
	junit_property(w, "profile.file", json_string_value(
		json_object_get(json_object_get(result, "profile"), "file")));
	junit_property(w, "setting", setting);
	junit_knobs(w, "knob.", junit_setting_knobs(result, setting));
	junit_knobs(w, "knob_before.", json_object_get(result, "knobs_before"));
	xml_close(w);
}

/* The <failure> or <skipped> child of a testcase, if any. */
static void junit_outcome(struct xml_writer *w, const json_t *v)
{
	enum verdict_kind k = verdict_kind_of(v);
	const char *reason = json_string_value(json_object_get(v, "reason"));
	char msg[1024];

	if (!reason)
		reason = "no reason recorded";
	switch (k) {
	case VERDICT_PASS:
		return;
	case VERDICT_FAIL:
		xml_open(w, "failure");
		xml_attr(w, "message", reason);
		xml_attr(w, "type", "starve.threshold");
		xml_text(w, reason);
		xml_close(w);
		return;
	case VERDICT_SKIP:
	case VERDICT_UNDECIDED:
		snprintf(msg, sizeof(msg), "%s%s", k == VERDICT_UNDECIDED ? "undecided: " : "",
			 reason);
		xml_open(w, "skipped");
		xml_attr(w, "message", msg);
		xml_close(w);
		return;
	}
}

static void junit_testcase(struct xml_writer *w, const json_t *run, const json_t *v,
			   const char *classname, int reps)
{
	char label[512], name[600];

	verdict_label(v, label, sizeof(label));
	if (reps > 1)
		snprintf(name, sizeof(name), "%s [rep %lld]", label,
			 (long long)json_integer_value(json_object_get(run, "repetition")) + 1);
	else
		snprintf(name, sizeof(name), "%s", label);
	xml_open(w, "testcase");
	xml_attr(w, "name", name);
	xml_attr(w, "classname", classname);
	xml_attrf(w, "time", "%.3f", json_number_value(json_object_get(run, "duration_s")));
	junit_outcome(w, v);
	xml_close(w);
}

static void junit_suite(struct xml_writer *w, const json_t *result, const char *setting)
{
	const char *profile = json_string_value(
		json_object_get(json_object_get(result, "profile"), "name"));
	const char *first_start = NULL;
	int reps = verdict_repetitions(result);
	struct junit_counts c;
	char name[512];
	json_t *run, *v;
	size_t i, j;

	junit_count(result, setting, &c);
	json_array_foreach(json_object_get(result, "runs"), i, run)
		if (!first_start && verdict_run_is(run, setting))
			first_start = json_string_value(json_object_get(run, "started"));
	snprintf(name, sizeof(name), "%s/%s", profile ? profile : "starve", setting);
	xml_open(w, "testsuite");
	xml_attr(w, "name", name);
	xml_attrf(w, "tests", "%u", c.tests);
	xml_attrf(w, "failures", "%u", c.failures);
	xml_attr(w, "errors", "0");
	xml_attrf(w, "skipped", "%u", c.skipped);
	xml_attrf(w, "time", "%.3f", c.time);
	xml_attr(w, "timestamp", first_start);
	xml_attr(w, "hostname", json_string_value(
		json_object_get(json_object_get(result, "host"), "hostname")));
	junit_properties(w, result, setting);
	json_array_foreach(json_object_get(result, "runs"), i, run) {
		if (!verdict_run_is(run, setting))
			continue;
		json_array_foreach(json_object_get(run, "verdicts"), j, v)
			junit_testcase(w, run, v, name, reps);
	}
	xml_close(w);
}

int junit_write(const json_t *result, FILE *f)
{
	const char *profile = json_string_value(
		json_object_get(json_object_get(result, "profile"), "name"));
	json_t *settings = verdict_settings(result), *s;
	struct xml_writer w;
	struct junit_counts c;
	size_t i;

	junit_count(result, NULL, &c);
	xml_begin(&w, f);
	xml_open(&w, "testsuites");
	xml_attr(&w, "name", profile ? profile : "starve");
	xml_attrf(&w, "tests", "%u", c.tests);
	xml_attrf(&w, "failures", "%u", c.failures);
	xml_attr(&w, "errors", "0");
	xml_attrf(&w, "time", "%.3f", c.time);
	json_array_foreach(settings, i, s)
		junit_suite(&w, result, json_string_value(s));
	xml_close(&w);
	json_decref(settings);
	return xml_end(&w);
}
