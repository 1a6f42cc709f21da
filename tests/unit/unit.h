/* What every Check unit test's main() shares: run a suite, turn its
 * failure count into the exit status automake expects. Header-only so each
 * test stays one .c file in Makefile.am. */
#ifndef STARVE_TESTS_UNIT_H
#define STARVE_TESTS_UNIT_H

#include <check.h>
#include <stdio.h>
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

/* Write TEXT to PATH (a fake knob file, a journal), replacing it. */
static inline void unit_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* PATH's contents (up to 255 bytes) in a static buffer, NULL when it cannot be
 * opened; valid until the next call. */
static inline const char *unit_read_file(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

#endif
