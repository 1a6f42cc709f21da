/* Unit tests for scheduler knobs (harness/kernel/knobs.c): which names are
 * accepted, the messages for the rejected ones, where names map to, and
 * reading and probing real /proc/sys files. The write test (same value back)
 * runs only as the "write-back" case, from tests/integration/knob-write.sh as root. */
#include "config.h"
#include "harness/kernel/knobs.h"
#include "lib/error.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char captured[1024];

static void capture(const char *msg, void *data)
{
	(void)data;
	snprintf(captured, sizeof(captured), "%s", msg);
}

static void expect_bad(const char *name, const char *msg)
{
	char why[256] = "";

	ck_assert_msg(knob_name_check(name, why, sizeof(why)) == -1, "'%s' was accepted", name);
	ck_assert_str_eq(why, msg);
}

START_TEST(good_names_are_accepted)
{
	static const char *const good[] = {
		"kernel.sched_g1", "kernel.sched_rt_period_us", "vm.stat_interval",
		"net.core.somaxconn", "debugfs:sched/base_slice_ns",
		"debugfs:sched/fair_server/cpu1/runtime", "debugfs:sched/a-b.c_D", NULL,
	};
	char why[256];

	for (size_t i = 0; good[i]; i++)
		ck_assert_msg(knob_name_check(good[i], why, sizeof(why)) == 0,
			      "'%s' rejected: %s", good[i], why);
}
END_TEST

START_TEST(names_leaving_their_root_are_rejected)
{
	expect_bad("..", "knob name '..' would leave /proc/sys");
	expect_bad("/", "knob name '/' would leave /proc/sys");
	expect_bad("/proc/sys/kernel/x", "knob name '/proc/sys/kernel/x' would leave /proc/sys");
	expect_bad("kernel.../x", "knob name 'kernel.../x' would leave /proc/sys");
	expect_bad("debugfs:sched/../x", "knob name 'debugfs:sched/../x' would leave "
		   "/sys/kernel/debug/sched");
	expect_bad("debugfs:sched//etc", "knob name 'debugfs:sched//etc' would leave "
		   "/sys/kernel/debug/sched");
	expect_bad("debugfs:sched/a/./b", "knob name 'debugfs:sched/a/./b' would leave "
		   "/sys/kernel/debug/sched");
}
END_TEST

START_TEST(malformed_names_say_why)
{
	expect_bad("", "knob name is empty");
	expect_bad("kernel/sched_g1", "knob name 'kernel/sched_g1' has a '/': write sysctl "
		   "names with dots (kernel.sched_rt_period_us)");
	expect_bad("kernel..x", "knob name 'kernel..x' has an empty part "
		   "(a doubled, leading or trailing dot)");
	expect_bad("kernel.", "knob name 'kernel.' has an empty part "
		   "(a doubled, leading or trailing dot)");
	expect_bad(".kernel.x", "knob name '.kernel.x' has an empty part "
		   "(a doubled, leading or trailing dot)");
	expect_bad("kernel", "knob name 'kernel' needs at least two dotted parts "
		   "(kernel.sched_rt_period_us)");
	expect_bad("Kernel.x", "knob name 'Kernel.x' has a bad character 'K' "
		   "(sysctl names use [a-z0-9_] and dots)");
	expect_bad("kernel.x y", "knob name 'kernel.x y' has a bad character ' ' "
		   "(sysctl names use [a-z0-9_] and dots)");
	expect_bad("debugfs:x", "knob name 'debugfs:x' is not under debugfs:sched/ "
		   "(only the scheduler's debugfs files are knobs)");
	expect_bad("debugfs:sched/", "knob name 'debugfs:sched/' names no file under "
		   "debugfs:sched/");
	expect_bad("debugfs:sched/x/", "knob name 'debugfs:sched/x/' has an empty path component");
	expect_bad("debugfs:sched/x*", "knob name 'debugfs:sched/x*' has a bad character '*' "
		   "(debugfs knobs use [A-Za-z0-9_.-] and '/')");
}
END_TEST

/* Where the test itself finds debugfs, independently of knobs.c. */
static void debugfs_root(char *buf, size_t len)
{
	FILE *f = setmntent("/proc/self/mounts", "r");
	struct mntent *m;

	snprintf(buf, len, "/sys/kernel/debug");
	while (f && (m = getmntent(f)))
		if (!strcmp(m->mnt_type, "debugfs")) {
			snprintf(buf, len, "%s", m->mnt_dir);
			break;
		}
	if (f)
		endmntent(f);
}

START_TEST(names_map_to_paths)
{
	char path[256], want[512], root[256];

	ck_assert_int_eq(knob_path("kernel.sched_g1", path, sizeof(path)), 0);
	ck_assert_str_eq(path, "/proc/sys/kernel/sched_g1");
	ck_assert_int_eq(knob_path("net.ipv4.tcp_rmem", path, sizeof(path)), 0);
	ck_assert_str_eq(path, "/proc/sys/net/ipv4/tcp_rmem");
	debugfs_root(root, sizeof(root));
	ck_assert_int_eq(knob_path("debugfs:sched/fair_server/cpu0/runtime", path, sizeof(path)), 0);
	snprintf(want, sizeof(want), "%s/sched/fair_server/cpu0/runtime", root);
	ck_assert_str_eq(path, want);

	error_set_sink(capture, NULL);
	ck_assert_int_eq(knob_path("kernel.sched_rt_period_us", path, 20), -1);
	ck_assert_str_eq(captured, "path for knob 'kernel.sched_rt_period_us' is too long");
	ck_assert_int_eq(knob_path("kernel/x", path, sizeof(path)), -1);
	ck_assert_str_eq(captured, "knob name 'kernel/x' has a '/': write sysctl names with "
			 "dots (kernel.sched_rt_period_us)");
	error_set_sink(NULL, NULL);
}
END_TEST

static void read_direct(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, (int)len, f));
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

START_TEST(rt_period_reads_like_the_file)
{
	char value[64], direct[64];
	struct knob_state st;

	read_direct("/proc/sys/kernel/sched_rt_period_us", direct, sizeof(direct));
	ck_assert_int_eq(knob_read("kernel.sched_rt_period_us", value, sizeof(value)), 0);
	ck_assert_str_eq(value, direct);
	ck_assert_int_gt(atol(value), 0);

	ck_assert_int_eq(knob_probe("kernel.sched_rt_period_us", &st), 0);
	ck_assert(st.present);
	ck_assert(st.readable);
	ck_assert_str_eq(st.value, direct);
	ck_assert_int_eq(st.writable, access("/proc/sys/kernel/sched_rt_period_us", W_OK) == 0);

	error_set_sink(capture, NULL);
	ck_assert_int_eq(knob_read("kernel.sched_rt_period_us", value, 3), -1);
	ck_assert_str_eq(captured, "value of knob 'kernel.sched_rt_period_us' is longer than "
			 "2 bytes");
	error_set_sink(NULL, NULL);
}
END_TEST

START_TEST(missing_and_invalid_knobs_are_reported)
{
	struct knob_state st;

	ck_assert_int_eq(knob_probe("kernel.starve_no_such_knob", &st), 0);
	ck_assert(!st.present && !st.readable && !st.writable);
	ck_assert_str_eq(st.reason, "/proc/sys/kernel/starve_no_such_knob: No such file or "
			 "directory (not in this kernel)");
	ck_assert_int_eq(knob_probe("kernel/../x", &st), -1);
	ck_assert_str_eq(st.reason, "knob name 'kernel/../x' would leave /proc/sys");
}
END_TEST

/* Without debugfs the sched knobs say so; with it, they are either read or
 * explain why not (lockdown refuses even root with EPERM). */
START_TEST(debugfs_knobs_report_their_state)
{
	struct knob_state st;
	char dir[256];

	ck_assert_int_eq(knob_probe("debugfs:sched/base_slice_ns", &st), 0);
	if (!knob_debugfs_dir(dir, sizeof(dir))) {
		ck_assert(!st.present && !st.readable && !st.writable);
		ck_assert_str_eq(st.reason, "debugfs is not mounted");
	} else if (st.present && !st.readable) {
		ck_assert_msg(strncmp(st.reason, "not readable: ", 14) == 0, "%s", st.reason);
	} else if (st.readable) {
		ck_assert_int_gt(atol(st.value), 0);
	}
}
END_TEST

START_TEST(known_knobs_are_valid_and_listed)
{
	char why[256];
	size_t i;
	int found = 0;

	for (i = 0; knob_known[i]; i++) {
		ck_assert_msg(knob_name_check(knob_known[i], why, sizeof(why)) == 0,
			      "known knob %s: %s", knob_known[i], why);
		found += !strcmp(knob_known[i], "kernel.sched_rt_runtime_us") ||
			 !strcmp(knob_known[i], "debugfs:sched/base_slice_ns");
	}
	ck_assert_int_eq(i, 10);
	ck_assert_int_eq(found, 2);
}
END_TEST

/* Only in the "write-back" case (root): writes the value just read, so the
 * machine is left as it was even if the test fails. */
START_TEST(writing_the_same_value_back_works)
{
	char before[64], after[64], why[256];

	ck_assert_int_eq(knob_read("kernel.sched_rt_period_us", before, sizeof(before)), 0);
	ck_assert_int_eq(knob_write("kernel.sched_rt_period_us", before, why, sizeof(why)), 0);
	ck_assert_int_eq(knob_read("kernel.sched_rt_period_us", after, sizeof(after)), 0);
	ck_assert_str_eq(after, before);
	ck_assert_int_eq(knob_write("kernel.starve_no_such_knob", "1", why, sizeof(why)), -1);
	ck_assert_str_eq(why, "cannot open knob 'kernel.starve_no_such_knob' "
			 "(/proc/sys/kernel/starve_no_such_knob) for writing: No such file or directory");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("knobs");
	TCase *tc = tcase_create("core");
	const char *only = getenv("CK_RUN_CASE");

	tcase_add_test(tc, good_names_are_accepted);
	tcase_add_test(tc, names_leaving_their_root_are_rejected);
	tcase_add_test(tc, malformed_names_say_why);
	tcase_add_test(tc, names_map_to_paths);
	tcase_add_test(tc, rt_period_reads_like_the_file);
	tcase_add_test(tc, missing_and_invalid_knobs_are_reported);
	tcase_add_test(tc, debugfs_knobs_report_their_state);
	tcase_add_test(tc, known_knobs_are_valid_and_listed);
	suite_add_tcase(s, tc);
	/* Writing a live knob is opt-in: knob-write.sh asks for it as root. */
	if (only && !strcmp(only, "write-back")) {
		TCase *wb = tcase_create("write-back");

		tcase_add_test(wb, writing_the_same_value_back_works);
		suite_add_tcase(s, wb);
	}
	return unit_run(s);
}
