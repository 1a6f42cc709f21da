/* What every Check unit test's main() shares: run a suite, turn its
 * failure count into the exit status automake expects. Header-only so each
 * test stays one .c file in Makefile.am. */
#ifndef STARVE_TESTS_UNIT_H
#define STARVE_TESTS_UNIT_H

#include <check.h>
#include <stdlib.h>

/* Run every test case of S (CK_FORK and CK_RUN_CASE apply as usual). */
static inline int unit_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
