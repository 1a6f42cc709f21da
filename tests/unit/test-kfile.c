/* Unit tests for the one writer of kernel files (lib/kfile.c): each value
 * in one write of exactly its bytes, errors as errnos and nothing printed,
 * subtree_control's +/- words, a long path refused before anything opens.
 * The "kernel files" are plain files and a pipe in a temp dir. */
#include "config.h"
#include "lib/kfile.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[64], file[96];

static void setup(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/starve-kfile-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	snprintf(file, sizeof(file), "%s/cpuset.cpus", tmpdir);
	unit_write_file(file, "");
}

static void teardown(void)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", tmpdir);
	unlink(path);
	unlink(file);
	rmdir(tmpdir);
}

START_TEST(a_value_is_written_as_given_without_a_newline)
{
	ck_assert_int_eq(kfile_write_at(tmpdir, "cpuset.cpus", "0-1"), 0);
	ck_assert_str_eq(unit_read_file(file), "0-1");
}
END_TEST

START_TEST(a_value_goes_in_one_write)
{
	int pipefd[2];
	char buf[64];

	/* a pipe returns what one write put in it in one read */
	ck_assert_int_eq(pipe(pipefd), 0);
	ck_assert_int_eq(kfile_write_fd(pipefd[1], "12345 678", 9), 0);
	close(pipefd[1]);
	ck_assert_int_eq(read(pipefd[0], buf, sizeof(buf)), 9);
	close(pipefd[0]);
}
END_TEST

START_TEST(failures_are_errnos_and_say_whether_the_file_opened)
{
	bool opened = true;
	char path[128];

	snprintf(path, sizeof(path), "%s/missing/knob", tmpdir);
	ck_assert_int_eq(kfile_write(path, "1", 1, 0, &opened), ENOENT);
	ck_assert(!opened);
	ck_assert_int_eq(kfile_write(file, "1", 1, O_APPEND, &opened), 0);
	ck_assert(opened);
	ck_assert_int_eq(kfile_open_at(tmpdir, "missing"), -ENOENT);
	ck_assert_int_eq(kfile_write_fd(-1, "1", 1), EBADF);
}
END_TEST

START_TEST(a_path_too_long_is_refused_before_the_open)
{
	char dir[KFILE_PATH_MAX + 8];

	memset(dir, 'a', sizeof(dir) - 1);
	dir[sizeof(dir) - 1] = '\0';
	ck_assert_int_eq(kfile_write_at(dir, "cgroup.procs", "1"), ENAMETOOLONG);
	ck_assert_int_eq(kfile_open_at(dir, "cgroup.procs"), -ENAMETOOLONG);
}
END_TEST

START_TEST(subtree_control_takes_plus_or_minus_the_controller)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", tmpdir);
	unit_write_file(path, "");
	ck_assert_int_eq(kfile_subtree_control(tmpdir, "cpuset", true), 0);
	ck_assert_str_eq(unit_read_file(path), "+cpuset");
	unit_write_file(path, "");	/* a kernel file starts anew each write, ours not */
	ck_assert_int_eq(kfile_subtree_control(tmpdir, "cpu", false), 0);
	ck_assert_str_eq(unit_read_file(path), "-cpu");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kfile");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, a_value_is_written_as_given_without_a_newline);
	tcase_add_test(tc, a_value_goes_in_one_write);
	tcase_add_test(tc, failures_are_errnos_and_say_whether_the_file_opened);
	tcase_add_test(tc, a_path_too_long_is_refused_before_the_open);
	tcase_add_test(tc, subtree_control_takes_plus_or_minus_the_controller);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
