/* Unit tests for profiles (harness/profile*.c) and cpu specs (lib/cpuspec.c):
 * parsed values, defaults, settings, thresholds in canonical units, and that
 * errors are all reported, in file order, with their positions. Messages of
 * malformed profiles are pinned by tests/integration/check-profiles.sh. */
#include "config.h"
#include "harness/profile/profile.h"
#include "lib/cpuspec.h"
#include "lib/error.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Messages captured through error_set_sink(). */
static char captured[16][512];
static unsigned n_captured;

static void capture(const char *msg, void *data)
{
	(void)data;
	if (n_captured < 16)
		snprintf(captured[n_captured], sizeof(captured[0]), "%s", msg);
	n_captured++;
}

static struct profile *parse(const char *text, unsigned *n_errors)
{
	n_captured = 0;
	error_set_sink(capture, NULL);
	struct profile *p = profile_parse("t.yaml", text, strlen(text), n_errors);
	error_set_sink(NULL, NULL);
	return p;
}

START_TEST(cpuspec_parses_every_form)
{
	struct cpuspec s;
	size_t off;
	char why[160];

	ck_assert_int_eq(cpuspec_parse("all", &s, &off, why, sizeof(why)), 0);
	ck_assert_uint_eq(s.n_terms, 1);
	ck_assert_int_eq(s.terms[0].kind, CPUSPEC_ALL);
	ck_assert_int_eq(cpuspec_parse("pu:0,2,5-6", &s, &off, why, sizeof(why)), 0);
	ck_assert_uint_eq(s.n_terms, 3);
	ck_assert_uint_eq(s.terms[1].first, 2);
	ck_assert_uint_eq(s.terms[1].last, 2);
	ck_assert_uint_eq(s.terms[2].first, 5);
	ck_assert_uint_eq(s.terms[2].last, 6);
	ck_assert_int_eq(cpuspec_parse("core:1-3+numa:0+pu:7", &s, &off, why, sizeof(why)), 0);
	ck_assert_uint_eq(s.n_terms, 3);
	ck_assert_int_eq(s.terms[0].kind, CPUSPEC_CORE);
	ck_assert_uint_eq(s.terms[0].first, 1);
	ck_assert_uint_eq(s.terms[0].last, 3);
	ck_assert_int_eq(s.terms[1].kind, CPUSPEC_NUMA);
	ck_assert_int_eq(s.terms[2].kind, CPUSPEC_PU);
	ck_assert_uint_eq(s.terms[2].first, 7);
}
END_TEST

START_TEST(cpuspec_errors_point_at_the_bad_character)
{
	static const struct {
		const char *text;
		size_t offset;
		const char *why;
	} cases[] = {
		{ "pu:x", 3, "bad cpu spec 'pu:x': expected a number after 'pu:', not 'x'" },
		{ "cpu:1", 0, "bad cpu spec 'cpu:1': unknown kind 'cpu' (use pu, core, numa or all)" },
		{ "pu1", 2, "bad cpu spec 'pu1': expected ':' after 'pu'" },
		{ "pu:1+", 5, "bad cpu spec 'pu:1+': expected pu:N, core:N, numa:N or all after '+'" },
		{ "core:3-1", 5, "bad cpu spec 'core:3-1': range 3-1 is reversed (write 1-3)" },
		{ "pu:1 ", 4, "bad cpu spec 'pu:1 ': unexpected ' ' (join terms with '+')" },
		{ "pu:0-", 5, "bad cpu spec 'pu:0-': expected a number after '-'" },
		{ "", 0, "bad cpu spec '': empty (write e.g. pu:1, core:0-1 or all)" },
		{ "pu:99999", 3, "bad cpu spec 'pu:99999': index too large (at most 65535)" },
	};
	struct cpuspec s;
	char why[160];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t off = 999;

		ck_assert_int_eq(cpuspec_parse(cases[i].text, &s, &off, why, sizeof(why)), -1);
		ck_assert_str_eq(why, cases[i].why);
		ck_assert_uint_eq(off, cases[i].offset);
	}
}
END_TEST

START_TEST(cpuspec_bounds_the_number_of_terms)
{
	char text[256] = "pu:0";
	struct cpuspec s;
	size_t off;
	char why[160];

	for (int i = 1; i < CPUSPEC_MAX_TERMS; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), ",%d", i);
	ck_assert_int_eq(cpuspec_parse(text, &s, &off, why, sizeof(why)), 0);
	ck_assert_uint_eq(s.n_terms, CPUSPEC_MAX_TERMS);
	strcat(text, "+pu:99");
	ck_assert_int_eq(cpuspec_parse(text, &s, &off, why, sizeof(why)), -1);
	ck_assert_uint_eq(off, strlen(text) - 2);
}
END_TEST

static const char minimal[] =
	"name: tiny\n"
	"duration: 2s\n"
	"loads:\n"
	"  - { name: spin, type: cpu-victim }\n";

START_TEST(defaults_fill_what_a_profile_leaves_out)
{
	unsigned n_errors = 99;
	struct profile *p = parse(minimal, &n_errors);

	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(n_errors, 0);
	ck_assert_str_eq(p->name, "tiny");
	ck_assert_str_eq(p->description, "");
	ck_assert_int_eq(p->duration_ns, 2000000000LL);
	ck_assert_int_eq(p->warmup_ns, 1000000000LL);
	ck_assert_int_eq(p->repeat, 1);
	ck_assert_int_eq(p->sample_hz, 0);
	ck_assert_int_eq(p->sampler_priority, 0);
	ck_assert(!p->allow_rt_on_all_cpus);
	ck_assert(!p->use_cpuset);	/* affinity only unless asked */
	ck_assert_uint_eq(p->n_settings, 1);
	ck_assert_str_eq(p->settings[0].name, "default");
	ck_assert_uint_eq(p->settings[0].n_knobs, 0);
	ck_assert_uint_eq(p->n_loads, 1);
	ck_assert_str_eq(p->loads[0].cpus, "all");
	ck_assert_int_eq(p->loads[0].count, 1);
	ck_assert_int_eq(p->loads[0].policy, POLICY_OTHER);
	ck_assert_int_eq(p->loads[0].opts[0].i, 50000);	/* cpu-victim min_gap: 50us */
	ck_assert_int_eq(p->loads[0].pos.line, 4);
	ck_assert_int_eq(p->loads[0].pos.col, 5);
	ck_assert_ptr_eq(profile_find_load(p, "spin"), &p->loads[0]);
	ck_assert_ptr_null(profile_find_load(p, "spun"));
	profile_free(p);
}
END_TEST

static const char full[] =
	"name: rt-throttle\n"
	"description: An RT hog and a victim\n"
	"duration: 1.5s\n"
	"warmup: 250ms\n"
	"repeat: 3\n"
	"sample_hz: 1000\n"
	"sampler_priority: 60\n"
	"cpuset: true\n"
	"loads:\n"
	"  - name: hog\n"
	"    type: rt-hog\n"
	"    cpus: pu:1\n"
	"    run: 20ms\n"
	"  - name: bg\n"
	"    type: sleep-hog\n"
	"    count: 3\n"
	"    mode: processes\n"
	"    nice: 5\n"
	"    policy: batch\n"
	"    session: yes\n"
	"attach:\n"
	"  - { name: xorg, pid: 1 }\n"
	"settings:\n"
	"  - name: throttled\n"
	"    knobs: { kernel.sched_rt_runtime_us: 950000, 'debugfs:sched/base_slice_ns': \"3000000\" }\n"
	"  - name: unthrottled\n"
	"    knobs:\n"
	"      kernel.sched_rt_runtime_us: -1\n"
	"expect:\n"
	"  - { load: hog, metric: starvation_max, below: 1.2s }\n"
	"  - { load: bg, metric: cpu_share, above: 5%, setting: throttled }\n"
	"  - { load: bg, metric: fairness, above: 0.9 }\n"
	"  - { load: bg, metric: throughput, above: 100 }\n"
	"compare: { cpu_share: 10%, wakeup_p99: 25 }\n";

START_TEST(every_key_lands_in_its_field)
{
	unsigned n_errors = 99;
	struct profile *p = parse(full, &n_errors);
	const struct load_spec *hog, *bg;

	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(p->duration_ns, 1500000000LL);
	ck_assert_int_eq(p->warmup_ns, 250000000LL);
	ck_assert_int_eq(p->repeat, 3);
	ck_assert_int_eq(p->sample_hz, 1000);
	ck_assert_int_eq(p->sampler_priority, 60);
	ck_assert(p->use_cpuset);
	hog = profile_find_load(p, "hog");
	ck_assert_int_eq(hog->policy, POLICY_FIFO);	/* rt-hog's default */
	ck_assert_int_eq(hog->priority, 50);
	ck_assert_str_eq(hog->cpus, "pu:1");
	ck_assert(hog->opt_set[0]);
	ck_assert_int_eq(hog->opts[0].i, 20000000);
	/* "sleep" was not given: its default is filled in, and opt_set says so */
	ck_assert(!hog->opt_set[1]);
	ck_assert_str_eq(hog->type->options[1].name, "sleep");
	ck_assert_int_eq(hog->opts[1].i, 0);
	bg = profile_find_load(p, "bg");
	ck_assert_int_eq(bg->count, 3);
	ck_assert_int_eq(bg->mode, LOAD_PROCESSES);
	ck_assert_int_eq(bg->nice, 5);
	ck_assert_int_eq(bg->policy, POLICY_BATCH);
	ck_assert(bg->session);
	ck_assert_uint_eq(p->n_attach, 1);
	ck_assert_int_eq(p->attach[0].pid, 1);
	ck_assert_uint_eq(p->n_settings, 2);
	ck_assert_uint_eq(p->settings[0].n_knobs, 2);
	ck_assert_str_eq(p->settings[0].knobs[1].name, "debugfs:sched/base_slice_ns");
	ck_assert_str_eq(p->settings[0].knobs[1].value, "3000000");
	ck_assert_str_eq(p->settings[1].knobs[0].value, "-1");
	ck_assert_int_eq(p->settings[1].knobs[0].pos.line, 28);	/* the "-1" line of the text above */
	profile_free(p);
}
END_TEST

START_TEST(thresholds_are_in_canonical_units)
{
	unsigned n_errors = 99;
	struct profile *p = parse(full, &n_errors);

	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->n_expect, 4);
	ck_assert_int_eq(p->expect[0].op, EXPECT_BELOW);
	ck_assert_double_eq_tol(p->expect[0].threshold, 1.2, 1e-12);
	ck_assert_str_eq(p->expect[0].threshold_text, "1.2s");
	ck_assert_ptr_null(p->expect[0].setting);
	ck_assert_int_eq(p->expect[1].op, EXPECT_ABOVE);
	ck_assert_double_eq_tol(p->expect[1].threshold, 0.05, 1e-12);
	ck_assert_str_eq(p->expect[1].setting, "throttled");
	ck_assert_double_eq_tol(p->expect[2].threshold, 0.9, 1e-12);
	ck_assert_str_eq(p->expect[3].load, "bg");
	ck_assert_double_eq_tol(p->expect[3].threshold, 100, 1e-12);
	ck_assert_uint_eq(p->n_compare, 2);
	ck_assert_str_eq(p->compare[0].metric, "cpu_share");
	ck_assert_double_eq_tol(p->compare[0].percent, 10, 1e-12);
	ck_assert_double_eq_tol(p->compare[1].percent, 25, 1e-12);
	profile_free(p);
}
END_TEST

/* compare: gate: a list of the profile's loads, or all; the metrics beside it
 * are still thresholds. */
START_TEST(compare_gate_names_loads)
{
	static const char head[] = "name: g\nduration: 1s\nloads:\n  - { name: hog, type: sleep-hog }\n"
				   "  - { name: victim, type: cpu-victim }\n";
	char text[512];
	unsigned n_errors;
	struct profile *p;

	snprintf(text, sizeof(text), "%scompare: { cpu_share: 10%%, gate: [victim] }\n", head);
	p = parse(text, &n_errors);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->n_compare, 1);
	ck_assert_uint_eq(p->n_compare_gate, 1);
	ck_assert_str_eq(p->compare_gate[0], "victim");
	ck_assert(!p->compare_gate_all);
	profile_free(p);
	snprintf(text, sizeof(text), "%scompare: { gate: all }\n", head);
	p = parse(text, &n_errors);
	ck_assert_ptr_nonnull(p);
	ck_assert(p->compare_gate_all);
	ck_assert_uint_eq(p->n_compare, 0);
	profile_free(p);
	snprintf(text, sizeof(text), "%scompare: { gate: [victim, vitcim] }\n", head);
	ck_assert_ptr_null(parse(text, &n_errors));
	ck_assert_uint_eq(n_errors, 1);
	ck_assert_ptr_nonnull(strstr(captured[0], "t.yaml:6:27: unknown load 'vitcim'"));
}
END_TEST

START_TEST(every_error_is_reported_in_file_order)
{
	static const char text[] =
		"name: x\n"
		"duration: 5\n"
		"loads:\n"
		"  - { name: a, type: cpu-victim, cpus: 'pu:1-x' }\n"
		"expect:\n"
		"  - { load: zzz, metric: cpu_share, above: 2 }\n"
		"repeat: 0\n"
		"name: y\n";
	unsigned n_errors = 0;
	struct profile *p = parse(text, &n_errors);

	ck_assert_ptr_null(p);
	ck_assert_uint_eq(n_errors, 6);
	ck_assert_uint_eq(n_captured, 6);
	ck_assert_str_eq(captured[0], "t.yaml:2:11: 'duration': duration '5' has no unit "
			 "(use ns, us, ms, s or min)");
	ck_assert_str_eq(captured[1], "t.yaml:4:46: bad cpu spec 'pu:1-x': expected a number "
			 "after '-', not 'x'");
	ck_assert_str_eq(captured[2], "t.yaml:6:13: unknown load 'zzz' (this profile defines no "
			 "such load)");
	ck_assert_str_eq(captured[3], "t.yaml:6:44: 'above' for 'cpu_share' must be within "
			 "0..1 (0%..100%), not '2'");
	ck_assert_str_eq(captured[4], "t.yaml:7:9: value 0 is out of range for 'repeat' (1..1000)");
	ck_assert_str_eq(captured[5], "t.yaml:8:1: duplicate key 'name' (first given at line 1); "
			 "keep one");
}
END_TEST

START_TEST(syntax_errors_carry_libyaml_positions)
{
	unsigned n_errors = 0;
	struct profile *p = parse("name: x\nloads: [a, b\nduration: 1s\n", &n_errors);

	ck_assert_ptr_null(p);
	ck_assert_uint_eq(n_errors, 1);
	ck_assert(!strncmp(captured[0], "t.yaml:3:", 9));
	ck_assert_ptr_nonnull(strstr(captured[0], "yaml syntax error: "));
}
END_TEST

START_TEST(missing_files_are_errors)
{
	unsigned n_errors = 0;

	n_captured = 0;
	error_set_sink(capture, NULL);
	ck_assert_ptr_null(profile_load("/nonexistent/profile.yaml", &n_errors));
	error_set_sink(NULL, NULL);
	ck_assert_uint_eq(n_errors, 1);
	ck_assert_uint_eq(n_captured, 1);
	ck_assert_ptr_nonnull(strstr(captured[0], "cannot open profile"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("profile");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, cpuspec_parses_every_form);
	tcase_add_test(tc, compare_gate_names_loads);
	tcase_add_test(tc, cpuspec_errors_point_at_the_bad_character);
	tcase_add_test(tc, cpuspec_bounds_the_number_of_terms);
	tcase_add_test(tc, defaults_fill_what_a_profile_leaves_out);
	tcase_add_test(tc, every_key_lands_in_its_field);
	tcase_add_test(tc, thresholds_are_in_canonical_units);
	tcase_add_test(tc, every_error_is_reported_in_file_order);
	tcase_add_test(tc, syntax_errors_carry_libyaml_positions);
	tcase_add_test(tc, missing_files_are_errors);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
