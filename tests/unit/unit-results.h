/* Shared by the report unit tests (test-reports.c, test-html.c,
 * test-result-view.c): load one of the synthetic results in tests/results/,
 * as a tree or as its view. Header-only, like unit.h. */
#ifndef STARVE_TESTS_UNIT_RESULTS_H
#define STARVE_TESTS_UNIT_RESULTS_H

#include "reports/result/result.h"
#include "reports/result/result-view.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

/* The path of tests/results/NAME.json (static buffer). */
static inline const char *unit_result_path(const char *name)
{
	static char path[1024];
	const char *top = getenv("top_srcdir");

	snprintf(path, sizeof(path), "%s/tests/results/%s.json", top ? top : "..", name);
	return path;
}

/* tests/results/NAME.json, parsed; the test fails when it cannot be read. */
static inline json_t *unit_load_result(const char *name)
{
	char why[1024];
	json_t *r = result_read(unit_result_path(name), why, sizeof(why));

	ck_assert_msg(r != NULL, "%s", why);
	return r;
}

/* The least a valid result holds: kernel RELEASE, profile NAME with one
 * setting SETTING, no loads, expectations or runs, the summary a run starts
 * with. Tests add what they need. */
static inline json_t *unit_minimal_result(const char *release, const char *name,
					  const char *setting)
{
	json_t *r = json_pack("{s:s, s:i, s:{s:s, s:s}, s:s, s:b, s:{s:i}, s:{s:s, s:i},"
			      " s:{s:s, s:[], s:[{s:s, s:{}}], s:[]}, s:[],"
			      " s:{s:s, s:i, s:i, s:i, s:i, s:i}}",
			      "format", "starve-result", "format_version", 1,
			      "tool", "name", "starve", "version", "0.1.0",
			      "started", "2026-12-03T09:00:00Z", "complete", 1, "host", "nr_cpus", 2,
			      "kernel", "release", release, "hz", 250,
			      "profile", "name", name, "loads", "settings", "name", setting,
			      "knobs", "expect", "runs",
			      "summary", "verdict", "skip", "pass", 0, "fail", 0, "skip", 0,
			      "undecided", 0, "exit_code", 4);

	ck_assert_ptr_nonnull(r);
	return r;
}

/* The view of RESULT (a tree the test may have changed); the test fails
 * when it is not a valid result. */
static inline struct result_view *unit_view_of(json_t *result)
{
	char why[1024];
	struct result_view *v = rv_build(result, "test", why, sizeof(why));

	ck_assert_msg(v != NULL, "%s", why);
	return v;
}

/* tests/results/NAME.json as a view. */
static inline struct result_view *unit_load_view(const char *name)
{
	char why[1024];
	struct result_view *v = rv_open(unit_result_path(name), why, sizeof(why));

	ck_assert_msg(v != NULL, "%s", why);
	return v;
}

#endif
