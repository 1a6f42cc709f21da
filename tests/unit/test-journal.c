/* Unit tests for the knob journal (harness/kernel/journal.c): the file round trip,
 * refusing a second run, restoring in reverse order, keeping what failed,
 * and the signal-path restore. Knobs are stand-in files in a temp dir
 * (journal_record_path), so nothing on the machine is written. */
#include "config.h"
#include "harness/kernel/journal.h"
#include "harness/placement/subtree-control.h"
#include "harness/run/settings.h"
#include "lib/error.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <jansson.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmpdir[64], state[96], knob_a[96], knob_b[96], last_error[512];

static void capture(const char *msg, void *data)
{
	(void)data;
	snprintf(last_error, sizeof(last_error), "%s", msg);
}

static void setup(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/starve-journal-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	snprintf(state, sizeof(state), "%s/state", tmpdir);
	snprintf(knob_a, sizeof(knob_a), "%s/knob_a", tmpdir);
	snprintf(knob_b, sizeof(knob_b), "%s/knob_b", tmpdir);
	unit_write_file(knob_a, "100\n");
	unit_write_file(knob_b, "7\n");
	last_error[0] = '\0';
	error_set_sink(capture, NULL);
}

static void teardown(void)
{
	char cmd[128];

	error_set_sink(NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

static char *journal_file(void)
{
	static char path[128];

	snprintf(path, sizeof(path), "%s/journal", state);
	return path;
}

START_TEST(escaping_round_trips_awkward_values)
{
	const char *in[] = { "a b", "100%", "x\ny", "back\\slash", "", "plain-0.5" };
	char esc[64], out[64];

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		ck_assert_int_eq(journal_escape(in[i], esc, sizeof(esc)), 0);
		ck_assert_ptr_null(strpbrk(esc, " \n\\"));
		ck_assert_int_eq(journal_unescape(esc, out, sizeof(out)), 0);
		ck_assert_str_eq(out, in[i]);
	}
	ck_assert_int_eq(journal_escape("a b", esc, 4), -1);	/* "a%20b" needs 6 */
	ck_assert_int_eq(journal_unescape("bad%2", out, sizeof(out)), -1);
	ck_assert_int_eq(journal_unescape("nul%00", out, sizeof(out)), -1);
	ck_assert_int_eq(journal_unescape("sp ace", out, sizeof(out)), -1);
}
END_TEST

START_TEST(the_journal_file_round_trips)
{
	struct journal j, back;

	ck_assert_int_eq(journal_open(&j, state), 0);
	ck_assert(access(journal_file(), R_OK) == 0);
	ck_assert_int_eq(journal_record(&j, "kernel.sched_rt_period_us", "1000 %odd\nvalue"), 0);
	ck_assert_int_eq(journal_record(&j, "debugfs:sched/base_slice_ns", "3000000"), 0);
	ck_assert_int_eq(journal_load(&back, state), 1);
	ck_assert_int_eq(back.pid, getpid());
	ck_assert_str_eq(back.started, j.started);
	ck_assert_uint_eq(back.n, 2);
	ck_assert_str_eq(back.entries[0].name, "kernel.sched_rt_period_us");
	ck_assert_str_eq(back.entries[0].path, "/proc/sys/kernel/sched_rt_period_us");
	ck_assert_str_eq(back.entries[0].value, "1000 %odd\nvalue");
	ck_assert_str_eq(back.entries[1].value, "3000000");
	/* Forget them without restoring: nothing was written. */
	j.n = 0;
	ck_assert_int_eq(journal_close(&j), 0);
	ck_assert(access(journal_file(), F_OK) < 0);
	ck_assert_int_eq(journal_load(&back, state), 0);
}
END_TEST

START_TEST(a_tracefs_instance_is_journaled_and_forgotten)
{
	struct journal j, back;
	char name[32], bad[160];

	snprintf(name, sizeof(name), "starve-%d", (int)getpid());
	ck_assert_int_eq(journal_open(&j, state), 0);
	ck_assert_int_eq(journal_record_tracefs(&j, name), 0);
	ck_assert_int_eq(journal_record_tracefs(&j, "../../etc"), -1);
	ck_assert_int_eq(journal_load(&back, state), 1);
	ck_assert_uint_eq(back.n, 1);
	ck_assert_str_eq(back.entries[0].name, name);
	/* Restoring an instance that is gone already (removed on the normal
	 * path) is no failure. */
	ck_assert_int_eq(journal_restore_all(&back), 0);
	ck_assert_uint_eq(back.n, 0);
	ck_assert_int_eq(journal_forget(&j, JOURNAL_TRACEFS, name), 0);
	ck_assert_uint_eq(j.n, 0);
	ck_assert_int_eq(journal_close(&j), 0);
	/* A tampered entry naming anything but starve-<pid> is refused on read. */
	ck_assert_int_eq(mkdir(state, 0700) < 0 && errno != EEXIST, 0);
	snprintf(bad, sizeof(bad), "starve-journal 1\npid 1 1 2026-01-01T00:00:00Z\n"
		 "knob tracefs:..%%2F..%%2Fetc -\n");
	unit_write_file(journal_file(), bad);
	ck_assert_int_eq(journal_load(&back, state), -1);
	ck_assert_msg(strstr(last_error, "tracefs"), "%s", last_error);
	unlink(journal_file());
}
END_TEST

START_TEST(an_unrestored_journal_blocks_the_next_run)
{
	struct journal j, second;
	char want[160];

	ck_assert_int_eq(journal_open(&j, state), 0);
	ck_assert_int_eq(journal_record_path(&j, "kernel.knob_a", knob_a, "100"), 0);
	/* While its writer holds the state directory, that is all we say. */
	ck_assert_int_eq(journal_open(&second, state), -1);
	ck_assert_msg(strstr(last_error, "a run is in progress: it holds the state directory"),
		      "got: %s", last_error);
	/* A writer that died let go of the lock; its journal stays. */
	journal_release(&j);
	ck_assert_int_eq(journal_open(&second, state), -1);
	snprintf(want, sizeof(want), "an unrestored journal from pid %d (started ", (int)getpid());
	ck_assert_msg(strstr(last_error, want), "got: %s", last_error);
	ck_assert_msg(strstr(last_error, "run 'starve restore' first"), "got: %s", last_error);
	ck_assert_int_eq(journal_restore_all(&j), 0);
	ck_assert_int_eq(journal_close(&j), 0);
	ck_assert_int_eq(journal_open(&second, state), 0);
	ck_assert_int_eq(journal_close(&second), 0);
}
END_TEST

START_TEST(an_empty_journal_of_a_dead_process_is_cleared)
{
	struct journal j;

	mkdir(state, 0700);
	unit_write_file(journal_file(), "starve-journal 1\npid 999999999 0 2026-01-01T00:00:00Z\n");
	ck_assert_int_eq(journal_open(&j, state), 0);
	ck_assert_int_eq(j.pid, getpid());
	ck_assert_int_eq(journal_close(&j), 0);
}
END_TEST


/* A kill between creating the file and writing it (starve before version
 * 2), or inside a save, must not block every later run. */
START_TEST(an_empty_or_partial_journal_and_stale_saves_do_not_block)
{
	const char *partial[] = { "", "starve-journal 1\n", "starve-journal 2\npid 12" };
	char tmp[160];
	struct journal j;

	mkdir(state, 0700);
	for (size_t i = 0; i < sizeof(partial) / sizeof(partial[0]); i++) {
		unit_write_file(journal_file(), partial[i]);
		ck_assert_int_eq(journal_load(&j, state), 0);
		ck_assert(j.partial);
		ck_assert_uint_eq(j.n, 0);
		snprintf(tmp, sizeof(tmp), "%s/journal.tmp.%d", state, 99999 + (int)i);
		unit_write_file(tmp, "starve-journal 2\n");
		last_error[0] = '\0';
		ck_assert_int_eq(journal_open(&j, state), 0);
		ck_assert(access(tmp, F_OK) < 0);
		ck_assert_int_eq(journal_close(&j), 0);
		ck_assert(access(journal_file(), F_OK) < 0);
	}
}
END_TEST

/* Journals an older starve left are still restored. */
START_TEST(a_version_1_journal_is_read)
{
	struct journal j;

	mkdir(state, 0700);
	unit_write_file(journal_file(), "starve-journal 1\npid 12 0 x\n"
			"knob kernel.sched_rt_period_us 1000000\n"
			"knob debugfs:sched/base_slice_ns 3000000\n"
			"knob tracefs:starve-12 -\n");
	ck_assert_int_eq(journal_load(&j, state), 1);
	ck_assert_uint_eq(j.n, 3);
	ck_assert_int_eq(j.entries[0].kind, JOURNAL_SYSCTL);
	ck_assert_int_eq(j.entries[1].kind, JOURNAL_DEBUGFS);
	ck_assert_int_eq(j.entries[2].kind, JOURNAL_TRACEFS);
	ck_assert_str_eq(j.entries[2].name, "starve-12");
	unlink(journal_file());
}
END_TEST

/* Cgroups come back out deepest first, whatever order they were recorded
 * in, and before the knobs (their loads die with them). */
START_TEST(cgroups_are_undone_deepest_first_then_the_rest_newest_first)
{
	struct journal j;
	size_t order[JOURNAL_MAX_ENTRIES];

	ck_assert_int_eq(journal_open(&j, state), 0);
	ck_assert_int_eq(journal_record_path(&j, "kernel.knob_a", knob_a, "100"), 0);
	ck_assert_int_eq(journal_record_cgroup(&j, "/sys/fs/cgroup/cpu/starve-1"), 0);
	ck_assert_int_eq(journal_record_path(&j, "kernel.knob_b", knob_b, "7"), 0);
	ck_assert_int_eq(journal_record_cgroup(&j, "/sys/fs/cgroup/cpu/starve-1/a/b"), 0);
	ck_assert_int_eq(journal_record_cgroup(&j, "/sys/fs/cgroup/cpu/starve-1/a"), 0);
	ck_assert_int_eq(journal_record_cgroup(&j, "/sys/fs/cgroup/cpu/x/../../etc"), -1);
	ck_assert_int_eq(journal_record_cgroup(&j, "/tmp/x"), -1);
	journal_undo_order(&j, order);
	ck_assert_uint_eq(order[0], 3);
	ck_assert_uint_eq(order[1], 4);
	ck_assert_uint_eq(order[2], 1);
	ck_assert_uint_eq(order[3], 2);
	ck_assert_uint_eq(order[4], 0);
	j.n = 0;
	ck_assert_int_eq(journal_close(&j), 0);
}
END_TEST

/* A v1 cgroup hierarchy (or v2) where root may make one: a journaled
 * cgroup with a process in it is emptied and removed by restoring. */
static int find_cgroup_root(char *out, size_t len)
{
	static const char *const roots[] = { "/sys/fs/cgroup/pids", "/sys/fs/cgroup/cpu",
					     "/sys/fs/cgroup/unified", "/sys/fs/cgroup" };
	char probe[160];

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		snprintf(probe, sizeof(probe), "%s/starve-probe-%d", roots[i], (int)getpid());
		if (mkdir(probe, 0755) == 0) {
			rmdir(probe);
			snprintf(out, len, "%s", roots[i]);
			return 0;
		}
	}
	return -1;
}

START_TEST(a_journaled_cgroup_is_emptied_and_removed)
{
	char root[96], top[160], sub[192], procs[224], pid_s[16];
	struct journal j, back;
	pid_t child;

	if (getuid() != 0 || find_cgroup_root(root, sizeof(root)) < 0) {
		fprintf(stderr, "note: skipped, no cgroup hierarchy we may create in\n");
		return;
	}
	snprintf(top, sizeof(top), "%s/starve-test-%d", root, (int)getpid());
	snprintf(sub, sizeof(sub), "%s/load", top);
	ck_assert_int_eq(journal_open(&j, state), 0);
	ck_assert_int_eq(journal_record_cgroup(&j, top), 0);
	ck_assert_int_eq(mkdir(top, 0755), 0);
	ck_assert_int_eq(journal_record_cgroup(&j, sub), 0);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		pause();
		_exit(0);
	}
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", sub);
	snprintf(pid_s, sizeof(pid_s), "%d\n", (int)child);
	unit_write_file(procs, pid_s);
	ck_assert_int_eq(journal_load(&back, state), 1);
	ck_assert_uint_eq(back.n, 2);
	ck_assert_int_eq(back.entries[1].kind, JOURNAL_CGROUP);
	ck_assert_str_eq(back.entries[1].path, sub);
	/* what the watchdog does after the controller died */
	ck_assert_int_eq(journal_restore_all(&back), 0);
	ck_assert(access(sub, F_OK) < 0);
	ck_assert(access(top, F_OK) < 0);
	ck_assert_int_eq(waitpid(child, NULL, 0), child);
	ck_assert_int_eq(journal_forget(&j, JOURNAL_CGROUP, sub), 0);
	ck_assert_int_eq(journal_forget(&j, JOURNAL_CGROUP, top), 0);
	ck_assert_int_eq(journal_close(&j), 0);
}
END_TEST

START_TEST(a_controller_is_journaled_checked_and_undone_after_the_cgroups)
{
	size_t order[JOURNAL_MAX_ENTRIES];
	struct journal j, back;
	char gone[96];

	ck_assert_int_eq(journal_open(&j, state), 0);
	ck_assert_int_eq(journal_record_controller(&j, "/sys/fs/cgroup/unified", "cpuset"), 0);
	ck_assert_int_eq(journal_record_controller(&j, "/sys/fs/cgroup", "cpu"), 0);
	ck_assert_int_eq(journal_record_controller(&j, "/tmp", "cpu"), -1);
	ck_assert_int_eq(journal_record_controller(&j, "/sys/fs/cgroup/x/../../etc", "cpu"), -1);
	ck_assert_int_eq(journal_record_controller(&j, "/sys/fs/cgroup", "cpu -io"), -1);
	ck_assert_int_eq(journal_record_cgroup(&j, "/sys/fs/cgroup/unified/starve-1"), 0);
	ck_assert_int_eq(journal_load(&back, state), 1);
	ck_assert_uint_eq(back.n, 3);
	ck_assert_int_eq(back.entries[0].kind, JOURNAL_CONTROLLER);
	ck_assert_str_eq(back.entries[0].name, "cpuset");
	ck_assert_str_eq(back.entries[0].path, "/sys/fs/cgroup/unified");
	ck_assert_str_eq(back.entries[1].path, "/sys/fs/cgroup");
	/* the cgroup that needed it goes first, then the controllers, newest first */
	journal_undo_order(&back, order);
	ck_assert_uint_eq(order[0], 2);
	ck_assert_uint_eq(order[1], 1);
	ck_assert_uint_eq(order[2], 0);
	j.n = 0;
	ck_assert_int_eq(journal_close(&j), 0);
	/* a directory that is gone has nothing to turn off */
	snprintf(gone, sizeof(gone), "/sys/fs/cgroup/starve-gone-%d", (int)getpid());
	ck_assert_int_eq(journal_open(&j, state), 0);
	ck_assert_int_eq(journal_record_controller(&j, gone, "cpu"), 0);
	ck_assert_int_eq(journal_restore_all(&j), 0);
	ck_assert_int_eq(journal_close(&j), 0);
	/* tampered entries are refused with the line */
	unit_write_file(journal_file(), "starve-journal 2\npid 12 0 x\ncontroller cpuset /etc\n");
	ck_assert_int_eq(journal_load(&back, state), -1);
	ck_assert_msg(strstr(last_error, "journal:3: bad cgroup directory"), "got: %s", last_error);
	unit_write_file(journal_file(), "starve-journal 2\npid 12 0 x\n"
			"controller ../cpu /sys/fs/cgroup\n");
	ck_assert_int_eq(journal_load(&back, state), -1);
	ck_assert_msg(strstr(last_error, "bad controller name"), "got: %s", last_error);
	unit_write_file(journal_file(), "starve-journal 2\npid 12 0 x\ncontroller cpuset\n");
	ck_assert_int_eq(journal_load(&back, state), -1);
	ck_assert_msg(strstr(last_error, "expected 'controller NAME DIRECTORY'"), "got: %s",
		      last_error);
	unlink(journal_file());
}
END_TEST

/* A controller the cgroup2 root offers but has off (this machine: hugetlb
 * at /sys/fs/cgroup/unified), into NAME; its mount into ROOT. */
static int find_spare_controller(char *root, size_t rlen, char *name, size_t nlen)
{
	static const char *const roots[] = { "/sys/fs/cgroup/unified", "/sys/fs/cgroup" };
	static const char *const names[] = { "hugetlb", "misc", "rdma", "pids", "io" };
	char path[160];

	for (size_t r = 0; r < sizeof(roots) / sizeof(roots[0]); r++) {
		const char *list;

		snprintf(path, sizeof(path), "%s/cgroup.controllers", roots[r]);
		if (!(list = unit_read_file(path)))
			continue;
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (subtree_word_in(list, names[i]) && !subtree_control_has(roots[r], names[i])) {
				snprintf(root, rlen, "%s", roots[r]);
				snprintf(name, nlen, "%s", names[i]);
				return 0;
			}
	}
	return -1;
}

START_TEST(a_journaled_controller_is_turned_off_unless_someone_uses_it)
{
	bool on_then, off_after_restore, restored, kept_for_the_user;
	char root[64], name[16], child[128];
	struct journal j;

	if (getuid() != 0 || find_spare_controller(root, sizeof(root), name, sizeof(name)) < 0) {
		fprintf(stderr, "note: skipped, no cgroup2 controller that is off to try\n");
		return;
	}
	snprintf(child, sizeof(child), "%s/starve-test-%d", root, (int)getpid());
	ck_assert_int_eq(journal_open(&j, state), 0);
	/* Nothing is asserted until the machine is put back (below). Turned on
	 * under the journal, off by restoring it: */
	journal_record_controller(&j, root, name);
	subtree_control_set(root, name, true);
	on_then = subtree_control_has(root, name);
	restored = journal_restore_all(&j) == 0;
	off_after_restore = !subtree_control_has(root, name);
	/* a cgroup made since (by someone else) that uses it keeps it on: EBUSY
	 * is no failure, and the entry is done with */
	journal_record_controller(&j, root, name);
	subtree_control_set(root, name, true);
	mkdir(child, 0755);
	subtree_control_set(child, name, true);
	restored = journal_restore_all(&j) == 0 && j.n == 0 && restored;
	kept_for_the_user = subtree_control_has(root, name);
	/* put the machine back, then judge */
	subtree_control_set(child, name, false);
	rmdir(child);
	subtree_control_set(root, name, false);
	ck_assert_msg(!subtree_control_has(root, name) && access(child, F_OK) < 0,
		      "could not put %s in %s back", name, root);
	ck_assert(on_then);
	ck_assert(restored);
	ck_assert_msg(off_after_restore, "%s left on in %s", name, root);
	ck_assert_msg(kept_for_the_user, "%s turned off under a cgroup using it", name);
	ck_assert_int_eq(journal_close(&j), 0);
}
END_TEST

START_TEST(restore_writes_back_newest_first_and_keeps_the_oldest_value)
{
	struct journal j;

	ck_assert_int_eq(journal_open(&j, state), 0);
	ck_assert_int_eq(journal_record_path(&j, "kernel.knob_a", knob_a, "100"), 0);
	unit_write_file(knob_a, "200\n");
	/* Recording it again keeps the first (oldest) value. */
	ck_assert_int_eq(journal_record_path(&j, "kernel.knob_a", knob_a, "200"), 0);
	ck_assert_uint_eq(j.n, 1);
	/* Another name for the same file, recorded later: restored first. */
	ck_assert_int_eq(journal_record_path(&j, "kernel.alias_a", knob_a, "300"), 0);
	ck_assert_int_eq(journal_record_path(&j, "kernel.knob_b", knob_b, "7"), 0);
	unit_write_file(knob_b, "8\n");
	ck_assert_int_eq(journal_restore_all(&j), 0);
	ck_assert_str_eq(unit_read_file(knob_a), "100\n");
	ck_assert_str_eq(unit_read_file(knob_b), "7\n");
	ck_assert_uint_eq(j.n, 0);
	ck_assert_int_eq(journal_close(&j), 0);
	ck_assert(access(journal_file(), F_OK) < 0);
}
END_TEST

/* /proc/sys/kernel/osrelease refuses every write, even root's: restoring
 * the value it reads already must not write it. */
START_TEST(a_knob_that_reads_its_old_value_is_not_written)
{
	const char *path = "/proc/sys/kernel/osrelease";
	char now[256];
	struct journal j;

	snprintf(now, sizeof(now), "%s", unit_read_file(path));
	now[strcspn(now, "\n")] = '\0';
	ck_assert_int_eq(journal_open(&j, state), 0);
	ck_assert_int_eq(journal_record_path(&j, "kernel.osrelease", path, now), 0);
	ck_assert_int_eq(journal_restore_all(&j), 0);
	ck_assert_uint_eq(j.n, 0);
	/* the write it would need is refused: the check above is not vacuous */
	ck_assert_int_eq(journal_record_path(&j, "kernel.osrelease", path, "0.0"), 0);
	ck_assert_int_eq(journal_restore_all(&j), 1);
	ck_assert_uint_eq(j.n, 1);
	j.n = 0;
	ck_assert_int_eq(journal_close(&j), 0);
}
END_TEST

START_TEST(failed_knobs_stay_in_the_journal)
{
	struct journal j, back;
	char missing[128];

	snprintf(missing, sizeof(missing), "%s/no/such/dir", tmpdir);
	ck_assert_int_eq(journal_open(&j, state), 0);
	ck_assert_int_eq(journal_record_path(&j, "kernel.knob_a", knob_a, "100"), 0);
	ck_assert_int_eq(journal_record_path(&j, "kernel.sched_rt_period_us", missing, "5"), 0);
	unit_write_file(knob_a, "1\n");
	ck_assert_int_eq(journal_restore_all(&j), 1);
	ck_assert_msg(strstr(last_error, "kernel.sched_rt_period_us: cannot restore '5'"),
		      "got: %s", last_error);
	ck_assert_str_eq(unit_read_file(knob_a), "100\n");
	ck_assert_uint_eq(j.n, 1);
	ck_assert_int_eq(journal_close(&j), -1);
	ck_assert_msg(strstr(last_error, "run 'starve restore'"), "got: %s", last_error);
	ck_assert_int_eq(journal_load(&back, state), 1);
	ck_assert_uint_eq(back.n, 1);
	ck_assert_str_eq(back.entries[0].name, "kernel.sched_rt_period_us");
}
END_TEST

START_TEST(the_signal_path_restores_and_removes_the_journal)
{
	struct journal j;

	ck_assert_int_eq(journal_open(&j, state), 0);
	ck_assert_int_eq(journal_record_path(&j, "kernel.knob_a", knob_a, "100"), 0);
	ck_assert_int_eq(journal_record_path(&j, "kernel.knob_b", knob_b, "7"), 0);
	unit_write_file(knob_a, "1\n");
	unit_write_file(knob_b, "2\n");
	ck_assert_int_eq(journal_restore_from_signal(&j), 0);
	ck_assert_str_eq(unit_read_file(knob_a), "100\n");
	ck_assert_str_eq(unit_read_file(knob_b), "7\n");
	ck_assert(access(journal_file(), F_OK) < 0);
}
END_TEST

START_TEST(malformed_journals_are_refused_with_the_line)
{
	struct journal j;

	mkdir(state, 0700);
	unit_write_file(journal_file(), "not a journal\n");
	ck_assert_int_eq(journal_load(&j, state), -1);
	ck_assert_msg(strstr(last_error, "journal:1: not a starve journal"), "got: %s", last_error);
	unit_write_file(journal_file(), "starve-journal 1\npid 12 0 x\nknob kernel.x\n");
	ck_assert_int_eq(journal_load(&j, state), -1);
	ck_assert_msg(strstr(last_error, "journal:3: expected 'knob NAME VALUE'"), "got: %s",
		      last_error);
	unit_write_file(journal_file(), "starve-journal 1\npid 12 0 x\nknob /etc/passwd x\n");
	ck_assert_int_eq(journal_load(&j, state), -1);
	ck_assert_msg(strstr(last_error, "would leave"), "got: %s", last_error);
	unit_write_file(journal_file(), "starve-journal 2\npid 12 0 x\nknob kernel.x 1\n");
	ck_assert_int_eq(journal_load(&j, state), -1);
	ck_assert_msg(strstr(last_error, "journal:3: unknown line"), "got: %s", last_error);
	unit_write_file(journal_file(), "starve-journal 2\npid 12 0 x\ncgroup /etc\n");
	ck_assert_int_eq(journal_load(&j, state), -1);
	ck_assert_msg(strstr(last_error, "bad cgroup directory"), "got: %s", last_error);
	unit_write_file(journal_file(), "starve-journal 2\npid 12 0 x\n"
			"cgroup /sys/fs/cgroup/cpu/../../../etc\n");
	ck_assert_int_eq(journal_load(&j, state), -1);
	ck_assert_msg(strstr(last_error, "bad cgroup directory"), "got: %s", last_error);
	unit_write_file(journal_file(), "starve-journal 2\npid 12 0 x\n"
			"debugfs kernel.sched_rt_period_us 5\n");
	ck_assert_int_eq(journal_load(&j, state), -1);
	ck_assert_msg(strstr(last_error, "is not a debugfs knob"), "got: %s", last_error);
	/* A journal we cannot read blocks a run too. */
	ck_assert_int_eq(journal_open(&j, state), -1);
}
END_TEST

/* ---- settings: probe first, skip with the reason, write nothing ---- */

START_TEST(a_setting_with_a_missing_knob_is_skipped_and_nothing_written)
{
	struct knob_value kv[] = {
		{ .name = "kernel.sched_rt_period_us", .value = "1" },
		{ .name = "kernel.sched_no_such_knob_x", .value = "5" },
	};
	struct setting set = { .name = "s", .knobs = kv, .n_knobs = 2 };
	char reason[256], want[320], before[256];
	struct utsname u;
	struct journal j;

	ck_assert_int_eq(uname(&u), 0);
	snprintf(before, sizeof(before), "%s", unit_read_file("/proc/sys/kernel/sched_rt_period_us"));
	ck_assert_int_eq(journal_open(&j, state), 0);
	ck_assert_int_eq(settings_apply(&j, &set, reason, sizeof(reason)), SETTINGS_SKIPPED);
	snprintf(want, sizeof(want), "kernel.sched_no_such_knob_x: no such knob on %s", u.release);
	ck_assert_str_eq(reason, want);
	ck_assert_uint_eq(j.n, 0);	/* not even the existing knob was journaled */
	ck_assert_str_eq(unit_read_file("/proc/sys/kernel/sched_rt_period_us"), before);
	ck_assert_int_eq(journal_close(&j), 0);
}
END_TEST

START_TEST(a_debugfs_knob_we_cannot_write_is_skipped_with_why)
{
	struct knob_value kv = { .name = "debugfs:sched/base_slice_ns", .value = "3000000" };
	struct setting set = { .name = "s", .knobs = &kv, .n_knobs = 1 };
	struct setting none = { .name = "default" };
	char reason[256];
	struct journal j;
	enum settings_status st;

	ck_assert_int_eq(journal_open(&j, state), 0);
	ck_assert_int_eq(settings_apply(&j, &none, reason, sizeof(reason)), SETTINGS_APPLIED);
	st = settings_apply(&j, &set, reason, sizeof(reason));
	if (st == SETTINGS_APPLIED) {
		/* A machine where it is writable: put it back and say so. */
		ck_assert_int_eq(settings_restore(&j), 0);
		fprintf(stderr, "note: debugfs:sched/base_slice_ns is writable here\n");
	} else {
		ck_assert_int_eq(st, SETTINGS_SKIPPED);
		ck_assert_msg(!strncmp(reason, "debugfs:sched/base_slice_ns: ", 29), "%s", reason);
		/* Lockdown refuses even reads of debugfs sched files on some kernels. */
		ck_assert_msg(strstr(reason, "not mounted") || strstr(reason, "not writable") ||
			      strstr(reason, "not readable") || strstr(reason, "no such knob"),
			      "%s", reason);
		ck_assert_uint_eq(j.n, 0);
	}
	ck_assert_int_eq(journal_close(&j), 0);
}
END_TEST

static void snap_one(const char *name, const char *value, void *obj)
{
	json_object_set_new(obj, name, json_string(value));
}

START_TEST(the_snapshot_holds_known_knobs_as_read)
{
	json_t *obj = json_object();
	char want[256];

	ck_assert_int_ge(knobs_snapshot(snap_one, obj), 1);
	snprintf(want, sizeof(want), "%s", unit_read_file("/proc/sys/kernel/sched_rt_period_us"));
	want[strcspn(want, "\n")] = '\0';
	ck_assert_str_eq(json_string_value(json_object_get(obj, "kernel.sched_rt_period_us")),
			 want);
	if (access("/proc/sys/kernel/sched_g1", F_OK) < 0)
		ck_assert_ptr_null(json_object_get(obj, "kernel.sched_g1"));
	json_decref(obj);
}
END_TEST

/* ---- live knobs: only as the "live-knobs" case, from restore.sh as root.
 * Every value written is the knob's current one, so the machine is left
 * as it was even when a test fails. ---- */

static void read_knob(const char *name, char *buf, size_t len)
{
	char path[128];

	snprintf(path, sizeof(path), "/proc/sys/%s", name);
	for (char *c = path + 10; *c; c++)
		if (*c == '.')
			*c = '/';
	snprintf(buf, len, "%s", unit_read_file(path));
	buf[strcspn(buf, "\n")] = '\0';
}

START_TEST(a_setting_is_journaled_written_and_restored)
{
	char period[256], after[256], reason[256];
	struct knob_value kv = { .name = "kernel.sched_rt_period_us", .value = period };
	struct setting set = { .name = "same", .knobs = &kv, .n_knobs = 1 };
	struct journal j, back;

	read_knob("kernel.sched_rt_period_us", period, sizeof(period));
	ck_assert_int_eq(journal_open(&j, state), 0);
	ck_assert_int_eq(settings_apply(&j, &set, reason, sizeof(reason)), SETTINGS_APPLIED);
	ck_assert_uint_eq(j.n, 1);
	ck_assert_int_eq(journal_load(&back, state), 1);	/* on disk before the write */
	ck_assert_str_eq(back.entries[0].value, period);
	ck_assert_int_eq(settings_restore(&j), 0);
	ck_assert_uint_eq(j.n, 0);
	read_knob("kernel.sched_rt_period_us", after, sizeof(after));
	ck_assert_str_eq(after, period);
	ck_assert_int_eq(journal_close(&j), 0);
}
END_TEST

START_TEST(a_failed_write_leaves_nothing_half_applied)
{
	char period[256], runtime[256], after[256], reason[320];
	struct knob_value kv[] = {
		{ .name = "kernel.sched_rt_period_us", .value = period },
		{ .name = "kernel.sched_rt_runtime_us", .value = "not-a-number" },
	};
	struct setting set = { .name = "bad", .knobs = kv, .n_knobs = 2 };
	struct journal j;

	read_knob("kernel.sched_rt_period_us", period, sizeof(period));
	read_knob("kernel.sched_rt_runtime_us", runtime, sizeof(runtime));
	ck_assert_int_eq(journal_open(&j, state), 0);
	ck_assert_int_eq(settings_apply(&j, &set, reason, sizeof(reason)), SETTINGS_FAILED);
	ck_assert_msg(!strncmp(reason, "kernel.sched_rt_runtime_us: ", 28), "%s", reason);
	ck_assert_msg(strstr(reason, "not-a-number"), "%s", reason);
	ck_assert_uint_eq(j.n, 0);	/* everything journaled was put back */
	read_knob("kernel.sched_rt_period_us", after, sizeof(after));
	ck_assert_str_eq(after, period);
	read_knob("kernel.sched_rt_runtime_us", after, sizeof(after));
	ck_assert_str_eq(after, runtime);
	ck_assert_int_eq(journal_close(&j), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("journal");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, escaping_round_trips_awkward_values);
	tcase_add_test(tc, a_tracefs_instance_is_journaled_and_forgotten);
	tcase_add_test(tc, a_controller_is_journaled_checked_and_undone_after_the_cgroups);
	tcase_add_test(tc, a_journaled_controller_is_turned_off_unless_someone_uses_it);
	tcase_add_test(tc, the_journal_file_round_trips);
	tcase_add_test(tc, an_unrestored_journal_blocks_the_next_run);
	tcase_add_test(tc, an_empty_journal_of_a_dead_process_is_cleared);
	tcase_add_test(tc, an_empty_or_partial_journal_and_stale_saves_do_not_block);
	tcase_add_test(tc, a_version_1_journal_is_read);
	tcase_add_test(tc, cgroups_are_undone_deepest_first_then_the_rest_newest_first);
	tcase_add_test(tc, a_journaled_cgroup_is_emptied_and_removed);
	tcase_add_test(tc, restore_writes_back_newest_first_and_keeps_the_oldest_value);
	tcase_add_test(tc, failed_knobs_stay_in_the_journal);
	tcase_add_test(tc, a_knob_that_reads_its_old_value_is_not_written);
	tcase_add_test(tc, the_signal_path_restores_and_removes_the_journal);
	tcase_add_test(tc, malformed_journals_are_refused_with_the_line);
	tcase_add_test(tc, a_setting_with_a_missing_knob_is_skipped_and_nothing_written);
	tcase_add_test(tc, a_debugfs_knob_we_cannot_write_is_skipped_with_why);
	tcase_add_test(tc, the_snapshot_holds_known_knobs_as_read);
	suite_add_tcase(s, tc);
	/* Writing live knobs is opt-in: restore.sh asks for it as root. */
	if (getenv("CK_RUN_CASE") && !strcmp(getenv("CK_RUN_CASE"), "live-knobs")) {
		TCase *live = tcase_create("live-knobs");

		tcase_add_checked_fixture(live, setup, teardown);
		tcase_add_test(live, a_setting_is_journaled_written_and_restored);
		tcase_add_test(live, a_failed_write_leaves_nothing_half_applied);
		suite_add_tcase(s, live);
	}
	return unit_run(s);
}
