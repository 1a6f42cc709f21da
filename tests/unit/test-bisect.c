/* Unit tests for starve bisect's ordering (harness/bisect/kernels.c):
 * Debian's version order of package names, and the --kernel words as given
 * or a directory of images in that order. */
#include "config.h"
#include "harness/bisect/bisect.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int sign(int x)
{
	return (x > 0) - (x < 0);
}

/* dpkg's order: numbers by value (9 before 47, 6.1 before 6.12), ~ before
 * the end, letters before other characters. */
START_TEST(debian_version_order)
{
	static const char *const ordered[] = {
		"linux-image-6.1.0-9-cloud-amd64", "linux-image-6.1.0-47-cloud-amd64",
		"linux-image-6.1.0-57-cloud-amd64", "linux-image-6.12.100+deb12-cloud-amd64",
		"linux-image-6.12.118+deb12-cloud-amd64",
	};
	size_t n = sizeof(ordered) / sizeof(ordered[0]);

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			ck_assert_msg(sign(bisect_debian_vercmp(ordered[i], ordered[j])) ==
				      (i > j) - (i < j), "%s against %s", ordered[i], ordered[j]);
	ck_assert_int_lt(bisect_debian_vercmp("1.0~rc1", "1.0"), 0);
	ck_assert_int_lt(bisect_debian_vercmp("1.0", "1.0a"), 0);
	ck_assert_int_lt(bisect_debian_vercmp("1.0a", "1.0+"), 0);
	ck_assert_int_eq(bisect_debian_vercmp("6.01", "6.1"), 0);
}
END_TEST

/* Words stay in the order given; a directory's images come sorted, its
 * config-* and System.map* left out. */
START_TEST(kernels_as_given_or_from_a_directory)
{
	char dir[] = "/tmp/test-bisect.XXXXXX", path[256], *words[] = { "b", "a" }, *out[8];
	static const char *const files[] = { "vmlinuz-6.12.1", "vmlinuz-6.9.3", "config-6.9.3",
					     "System.map-6.9.3" };
	int n;

	n = bisect_kernels(words, 2, out, 8);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(out[0], "b");
	ck_assert_str_eq(out[1], "a");
	bisect_kernels_free(out, 2);

	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (size_t i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unit_write_file(path, "x");
	}
	words[0] = dir;
	n = bisect_kernels(words, 1, out, 8);
	ck_assert_int_eq(n, 2);
	ck_assert_ptr_nonnull(strstr(out[0], "vmlinuz-6.9.3"));
	ck_assert_ptr_nonnull(strstr(out[1], "vmlinuz-6.12.1"));
	bisect_kernels_free(out, 2);
	for (size_t i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bisect");
	TCase *tc = tcase_create("bisect");

	tcase_add_test(tc, debian_version_order);
	tcase_add_test(tc, kernels_as_given_or_from_a_directory);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
