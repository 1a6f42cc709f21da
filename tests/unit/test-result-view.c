/* Unit tests for the typed view of a result (reports/result/result-view.h) and the
 * JSON Schema subset validator under it (reports/result/json-schema.h): every
 * keyword the shipped schema uses, the messages that name the place, the
 * schema built in being the shipped one, the fixtures read or refused, the
 * view's fields, and histograms read back exactly as the engine wrote them.
 * The mangled-results corpus is tests/integration/result-mangled.sh. */
#include "config.h"
#include "harness/run/result-build.h"
#include "lib/histogram.h"
#include "reports/result/json-schema.h"
#include "reports/result/result-view.h"

#include "tests/unit/unit.h"
#include "tests/unit/unit-results.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the validator ---- */

/* Validate DOC against SCHEMA (both JSON text); "" when valid, else the
 * message (static buffer). */
static const char *check(const char *schema, const char *doc)
{
	static char why[1024];
	struct jschema *s = jschema_new(schema, why, sizeof(why));
	json_t *d = json_loads(doc, JSON_DECODE_ANY, NULL);

	ck_assert_msg(s != NULL, "schema %s: %s", schema, why);
	ck_assert_msg(d != NULL, "document %s", doc);
	if (jschema_validate(s, d, why, sizeof(why)) == 0)
		why[0] = '\0';
	json_decref(d);
	jschema_free(s);
	return why;
}

static const struct {
	const char *schema, *doc, *want;	/* want "": valid */
} cases[] = {
	{ "{\"type\": \"number\"}", "\"x\"", "expected a number, got a string" },
	{ "{\"type\": \"number\"}", "3", "" },
	{ "{\"type\": \"integer\"}", "2.0", "" },	/* 2.0 is an integer in JSON Schema */
	{ "{\"type\": \"integer\"}", "2.5", "expected an integer, got 2.5" },
	{ "{\"type\": [\"number\", \"null\"]}", "\"x\"", "expected a number or null, got a string" },
	{ "{\"type\": \"object\"}", "[]", "expected an object, got an array" },
	{ "{\"type\": \"boolean\"}", "null", "expected a boolean, got null" },
	{ "{\"required\": [\"a\"]}", "{}", "missing required key \"a\"" },
	{ "{\"required\": [\"a\"]}", "7", "" },	/* object keywords ignore non-objects */
	{ "{\"properties\": {\"a\": {}}, \"additionalProperties\": false}", "{\"a\": 1, \"b\": 2}",
	  "unknown key \"b\"" },
	{ "{\"additionalProperties\": {\"type\": \"string\"}}", "{\"k.x\": 1}",
	  "[\"k.x\"]: expected a string, got 1" },
	{ "{\"propertyNames\": {\"pattern\": \"^[a-z]+$\"}}", "{\"Ab\": 1}",
	  "key \"Ab\": \"Ab\" does not match the pattern ^[a-z]+$" },
	{ "{\"const\": 1}", "1.0", "" },
	{ "{\"const\": \"x\"}", "\"y\"", "expected \"x\", got \"y\"" },
	{ "{\"enum\": [\"a\", \"b\"]}", "\"c\"", "expected one of \"a\", \"b\", got \"c\"" },
	{ "{\"enum\": [0, 1, 4]}", "4.0", "" },
	{ "{\"minimum\": 1}", "0", "expected a number >= 1, got 0" },
	{ "{\"exclusiveMinimum\": 0}", "0", "expected a number > 0, got 0" },
	{ "{\"maximum\": 99}", "100", "expected a number <= 99, got 100" },
	{ "{\"exclusiveMaximum\": 1}", "1", "expected a number < 1, got 1" },
	{ "{\"minLength\": 1}", "\"\"", "expected a non-empty string" },
	{ "{\"minLength\": 2}", "\"\xc3\xa9\"", "expected at least 2 characters, got 1" },
	{ "{\"maxLength\": 1}", "\"\xc3\xa9\"", "" },
	{ "{\"pattern\": \"^[0-9]{4}-[0-9]{2}$\"}", "\"2026-1\"",
	  "\"2026-1\" does not match the pattern ^[0-9]{4}-[0-9]{2}$" },
	{ "{\"items\": {\"prefixItems\": [{\"type\": \"integer\"}, {\"minimum\": 1}],"
	  " \"minItems\": 2, \"maxItems\": 2}}", "[[1, 2], [3, 0]]",
	  "[1][1]: expected a number >= 1, got 0" },
	{ "{\"items\": {\"minItems\": 2, \"maxItems\": 2}}", "[[1]]",
	  "[0]: expected at least 2 items, got 1" },
	{ "{\"maxItems\": 1}", "[1, 2]", "expected at most 1 item, got 2" },
	/* anyOf: one message when the type was wrong for every branch ... */
	{ "{\"anyOf\": [{\"type\": \"string\", \"minLength\": 1}, {\"type\": \"null\"}]}", "5",
	  "expected a string or null, got 5" },
	/* ... else the failure of the branch whose type fitted */
	{ "{\"anyOf\": [{\"type\": \"string\", \"minLength\": 1}, {\"type\": \"null\"}]}", "\"\"",
	  "expected a non-empty string" },
	{ "{\"if\": {\"properties\": {\"s\": {\"const\": \"ok\"}}}, \"then\": {\"required\": [\"x\"]}}",
	  "{\"s\": \"ok\"}", "missing required key \"x\"" },
	{ "{\"if\": {\"properties\": {\"s\": {\"const\": \"ok\"}}}, \"then\": {\"required\": [\"x\"]}}",
	  "{\"s\": \"no\"}", "" },
	{ "{\"if\": {\"const\": 1}, \"then\": true, \"else\": {\"type\": \"string\"}}", "2",
	  "expected a string, got 2" },
	{ "{\"allOf\": [{\"minimum\": 0}, {\"maximum\": 1}]}", "2", "expected a number <= 1, got 2" },
	{ "{\"$defs\": {\"n\": {\"type\": \"string\"}}, \"properties\": {\"a\": {\"$ref\": \"#/$defs/n\"}}}",
	  "{\"a\": 1}", "a: expected a string, got 1" },
	{ "{\"properties\": {\"runs\": {\"items\": {\"properties\": {\"m\": {\"additionalProperties\":"
	  " {\"type\": \"number\"}}}}}}}", "{\"runs\": [{}, {\"m\": {\"cpu_share\": \"x\"}}]}",
	  "runs[1].m.cpu_share: expected a number, got a string" },
	{ "{\"properties\": {\"a\": false}}", "{\"a\": 1}", "a: no value is allowed here" },
};

START_TEST(validator_applies_each_keyword_and_names_the_place)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_msg(!strcmp(check(cases[i].schema, cases[i].doc), cases[i].want),
			      "case %zu: %s on %s: got '%s', want '%s'", i, cases[i].schema,
			      cases[i].doc, check(cases[i].schema, cases[i].doc), cases[i].want);
}
END_TEST

/* A keyword the validator does not implement would be ignored silently by
 * a lenient validator: here the schema is refused instead. */
START_TEST(validator_refuses_what_it_cannot_apply)
{
	static const struct {
		const char *schema, *want;
	} bad[] = {
		{ "{\"type\": \"object\", \"uniqueItems\": true}", "\"uniqueItems\" is not implemented" },
		{ "{\"properties\": {\"a\": {\"oneOf\": []}}}", "#/properties/a: keyword \"oneOf\"" },
		{ "{\"$ref\": \"#/$defs/missing\"}", "$ref does not lead to a schema" },
		{ "{\"$ref\": \"#anchor\"}", "$ref does not lead to a schema" },
		{ "{\"pattern\": \"(\"}", "is not a POSIX extended regular expression" },
		{ "{\"type\": \"float\"}", "unknown \"type\"" },
		{ "{\"required\": \"a\"}", "\"required\" is not a list of names" },
		{ "[1]", "a schema must be an object or a boolean" },
		{ "{", "invalid JSON" },
	};
	char why[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_ptr_null(jschema_new(bad[i].schema, why, sizeof(why)));
		ck_assert_msg(strstr(why, bad[i].want), "%s: '%s'", bad[i].schema, why);
	}
}
END_TEST

/* The build compiles reports/result/result-schema.json in: the two must be the
 * same text, and every keyword in it must be one the validator applies. */
START_TEST(the_built_in_schema_is_the_shipped_one)
{
	const char *top = getenv("top_srcdir");
	char path[1024], why[512];
	struct jschema *s;
	FILE *f;
	char *text;
	long n;

	snprintf(path, sizeof(path), "%s/reports/result/result-schema.json", top ? top : "..");
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)n + 1);
	ck_assert_uint_eq(fread(text, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	ck_assert_str_eq(rv_schema_text(), text);
	free(text);
	s = jschema_new(rv_schema_text(), why, sizeof(why));
	ck_assert_msg(s != NULL, "%s", why);
	jschema_free(s);
}
END_TEST

/* ---- the view ---- */

START_TEST(broken_fixtures_are_refused_naming_the_place)
{
	static const struct {
		const char *name, *want;
	} broken[] = {
		{ "broken-no-reason", "runs[0]: missing required key \"reason\"" },
		{ "broken-null-metric",
		  "runs[0].loads[1].metrics.starvation_max: expected a number, got null" },
		{ "broken-verdict", "runs[0].verdicts[0].verdict: expected one of \"pass\", \"fail\", "
				    "\"skip\", \"undecided\", got \"maybe\"" },
		{ "broken-version", "starve result without an integer \"format_version\"" },
	};
	char why[1024], want[1200];

	for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
		const char *path = unit_result_path(broken[i].name);

		ck_assert_ptr_null(rv_open(path, why, sizeof(why)));
		snprintf(want, sizeof(want), "%s: %s", path, broken[i].want);
		ck_assert_str_eq(why, want);
	}
}
END_TEST

START_TEST(the_view_holds_the_result_typed)
{
	struct result_view *v = unit_load_view("pass");
	const struct rv_run *run = &v->runs[0];
	const struct rv_load *victim = rv_run_load(run, "victim");
	const struct rv_histogram *gap = rv_load_histogram(victim, "gap");
	const struct rv_series *share = rv_load_series(victim, "cpu_share");

	ck_assert_str_eq(v->tool.command_line[2], "profiles/rt-throttle.yaml");
	ck_assert_str_eq(v->kernel.release, "6.18.44");
	ck_assert_int_eq(v->kernel.hz, 250);
	ck_assert_int_eq(v->kernel.schedstat_global, 0);
	ck_assert_int_eq(v->host.nr_cpus, 2);
	ck_assert(v->complete);
	ck_assert_str_eq(rv_pair_get(v->knobs_before, v->n_knobs_before,
				     "kernel.sched_rt_runtime_us"), "950000");
	ck_assert_str_eq(v->profile.loads[0].policy, "fifo");
	ck_assert_str_eq(rv_pair_get(v->profile.loads[0].options, v->profile.loads[0].n_options,
				     "run"), "1s");
	ck_assert_uint_eq(v->profile.n_expect, 2);
	ck_assert_int_eq(v->profile.expect[1].rule.op, RESULT_ABOVE);
	ck_assert_str_eq(v->profile.expect[1].setting, "throttled");
	ck_assert_ptr_null(v->profile.expect[0].setting);
	ck_assert_double_eq(v->profile.compare_thresholds[0].pct, 10);
	ck_assert_int_eq(run->status, RESULT_OK);
	ck_assert_ptr_null(run->reason);
	ck_assert_double_eq(run->sampler.achieved_hz, 249.9);
	ck_assert_int_eq(run->sampler.late_ticks, 2);
	ck_assert_double_eq(run->other_cpu_share, 0.01);
	ck_assert_double_eq(rv_load_metric(victim, "cpu_share"), 0.05);
	ck_assert(isnan(rv_load_metric(victim, "wakeup_p99")));
	ck_assert_int_eq(victim->tasks[0].tid, 4321);
	ck_assert_uint_eq(gap->count, 10);
	ck_assert_uint_eq(gap->n_buckets, 2);
	ck_assert_uint_eq(gap->buckets[0].lower_ns, 49152);
	ck_assert_double_eq(victim->interval_s, 0.1);
	ck_assert_uint_eq(share->n, 2);
	ck_assert_int_eq(run->verdicts[0].kind, VERDICT_PASS);
	ck_assert_double_eq(run->verdicts[0].value, 0.95);
	ck_assert_int_eq(v->summary.exit_code, 0);
	ck_assert_int_eq(v->repetitions, 1);
	ck_assert_str_eq(v->setting_names[0], "throttled");
	rv_free(v);
}
END_TEST

/* The profile's settings come first, in order; a setting only a run names
 * (a result edited by hand, or of an older profile) comes after. */
START_TEST(settings_in_profile_order_then_the_runs)
{
	json_t *r = unit_load_result("multi");
	json_t *runs = json_object_get(r, "runs");
	struct result_view *v;

	json_object_set_new(json_array_get(runs, 0), "setting", json_string("extra"));
	v = unit_view_of(r);
	ck_assert_uint_eq(v->n_setting_names, 3);
	ck_assert_str_eq(v->setting_names[2], "extra");
	ck_assert_uint_eq(v->runs[0].setting_index, 2);
	ck_assert_str_eq(v->setting_names[v->runs[1].setting_index], v->runs[1].setting);
	rv_free(v);
	json_decref(r);
}
END_TEST

/* The victim of the first run of R gets HIST as its "gap" histogram. */
static void set_gap(json_t *r, json_t *hist)
{
	json_t *load = json_array_get(json_object_get(json_array_get(json_object_get(r, "runs"),
								     0), "loads"), 1);

	json_object_set_new(json_object_get(load, "histograms"), "gap", hist);
}

/* What the engine writes (result_build_histogram), the view reads back
 * bucket for bucket, with the exact count, sum, min and max. */
START_TEST(histograms_read_back_as_written)
{
	static struct histogram a, b;
	json_t *r = unit_load_result("pass");
	struct result_view *v;

	hist_init(&a);
	for (uint64_t x = 1; x < 5000000000ull; x = x * 3 + 7)
		hist_record_n(&a, x, x % 5 + 1);
	set_gap(r, result_build_histogram(&a));
	v = unit_view_of(r);
	rv_histogram_rebuild(rv_load_histogram(rv_run_load(&v->runs[0], "victim"), "gap"), &b);
	ck_assert_mem_eq(&a, &b, sizeof(a));
	rv_free(v);
	json_decref(r);
}
END_TEST

START_TEST(histogram_counts_must_add_up)
{
	json_t *r = unit_load_result("pass");
	struct result_view *v;
	static struct histogram h;
	char why[1024];

	set_gap(r, json_pack("{s:s, s:i, s:[[i, i]]}", "unit", "ns", "count", 3, "buckets", 68, 2));
	ck_assert_ptr_null(rv_build(r, "r.json", why, sizeof(why)));
	ck_assert_str_eq(why, "r.json: runs[0].loads[1]: histogram \"gap\": count 3 but the "
			      "buckets hold 2");
	set_gap(r, json_pack("{s:s, s:i, s:[]}", "unit", "us", "count", 0, "buckets"));
	ck_assert_ptr_null(rv_build(r, "r.json", why, sizeof(why)));
	ck_assert_str_eq(why, "r.json: runs[0].loads[1].histograms.gap.unit: expected \"ns\", "
			      "got \"us\"");
	/* a bound inside a bucket (130 is in 128..131) counts in that bucket */
	set_gap(r, json_pack("{s:s, s:i, s:[[i, i]]}", "unit", "ns", "count", 2, "buckets", 130, 2));
	v = unit_view_of(r);
	rv_histogram_rebuild(rv_load_histogram(rv_run_load(&v->runs[0], "victim"), "gap"), &h);
	ck_assert_uint_eq(h.buckets[hist_bucket_of(128)], 2);
	ck_assert_uint_eq(h.count, 2);
	rv_free(v);
	json_decref(r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("result-view");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, validator_applies_each_keyword_and_names_the_place);
	tcase_add_test(tc, validator_refuses_what_it_cannot_apply);
	tcase_add_test(tc, the_built_in_schema_is_the_shipped_one);
	tcase_add_test(tc, broken_fixtures_are_refused_naming_the_place);
	tcase_add_test(tc, the_view_holds_the_result_typed);
	tcase_add_test(tc, settings_in_profile_order_then_the_runs);
	tcase_add_test(tc, histograms_read_back_as_written);
	tcase_add_test(tc, histogram_counts_must_add_up);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
