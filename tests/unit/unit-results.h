/* Shared by the report unit tests (test-reports.c, test-html.c): load one
 * of the synthetic results in tests/results/. Header-only, like unit.h. */
#ifndef STARVE_TESTS_UNIT_RESULTS_H
#define STARVE_TESTS_UNIT_RESULTS_H

#include "reports/result.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

/* tests/results/NAME.json, parsed; the test fails when it cannot be read. */
static inline json_t *unit_load_result(const char *name)
{
	const char *top = getenv("top_srcdir");
	char path[1024], why[1024];
	json_t *r;

	snprintf(path, sizeof(path), "%s/tests/results/%s.json", top ? top : "..", name);
	r = result_read(path, why, sizeof(why));
	ck_assert_msg(r != NULL, "%s", why);
	return r;
}

#endif
