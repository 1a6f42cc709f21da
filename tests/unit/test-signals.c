/* Unit tests for the run's signal handling (harness/run/signals.c): the
 * first signal is only noted; a second one before the first partial result
 * is only noted too; once armed, a second one kills every registered load
 * group, however many (the table used to hold 256 and dropped the rest). */
#include "config.h"
#include "harness/run/signals.h"
#include "lib/pgroups.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

enum { N_GROUPS = 300 };

/* A sleeper in its own process group, like a load's leader. */
static pid_t start_group(void)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		setpgid(0, 0);
		for (;;)
			pause();
	}
	setpgid(pid, pid);
	return pid;
}

START_TEST(a_first_signal_and_an_early_second_are_only_noted)
{
	signals_install(NULL);
	ck_assert_int_eq(signals_caught(), 0);
	raise(SIGINT);
	ck_assert_int_eq(signals_caught(), SIGINT);
	raise(SIGTERM);		/* not armed yet: no exit */
	ck_assert_int_eq(signals_caught(), SIGINT);
	signals_install(NULL);	/* the journal comes: what was caught stays */
	ck_assert_int_eq(signals_caught(), SIGINT);
	signals_uninstall();
	ck_assert_int_eq(signals_caught(), 0);
}
END_TEST

/* The "controller" is a child: it registers the groups, arms, and gets two
 * signals; it must exit 3 with every group killed. */
START_TEST(an_armed_second_signal_kills_every_group)
{
	static pid_t groups[N_GROUPS];
	pid_t controller;
	int status;

	ck_assert_int_eq(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	controller = fork();
	ck_assert_int_ge(controller, 0);
	if (controller == 0) {
		signals_install(NULL);
		for (int i = 0; i < N_GROUPS; i++) {
			groups[i] = start_group();
			if (signals_add_group(groups[i]) < 0)
				_exit(1);
		}
		signals_arm_second(true);
		raise(SIGINT);
		raise(SIGINT);
		_exit(0);	/* not reached */
	}
	ck_assert_int_eq(waitpid(controller, &status, 0), controller);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 3);
	/* the groups were the controller's children: reparented to us, each
	 * must have been killed (a group left out would keep waitpid waiting
	 * until the test's timeout) */
	for (int i = 0; i < N_GROUPS; i++) {
		pid_t p = waitpid(-1, &status, 0);

		ck_assert_int_gt(p, 0);
		ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
			      "pid %d ended otherwise", (int)p);
	}
}
END_TEST

/* A group whose only member is a zombie (dead, not reaped) still answers
 * kill(-pgid, 0), but has no live member: the watchdog's waits for the
 * loads to be gone end at once for it (issue 33). */
START_TEST(a_zombie_group_is_not_live)
{
	pid_t dead = fork(), sleeper;
	pid_t groups[2];
	int status;

	ck_assert_int_ge(dead, 0);
	if (dead == 0) {
		setpgid(0, 0);
		_exit(0);
	}
	setpgid(dead, dead);
	sleeper = fork();
	ck_assert_int_ge(sleeper, 0);
	if (sleeper == 0) {
		setpgid(0, 0);
		pause();
		_exit(0);
	}
	setpgid(sleeper, sleeper);
	groups[0] = dead;
	groups[1] = sleeper;
	/* the dead one is a zombie until waited for */
	ck_assert_int_eq(waitid(P_PID, (id_t)dead, NULL, WEXITED | WNOWAIT), 0);
	ck_assert_int_eq(kill(-dead, 0), 0);
	ck_assert_uint_eq(pgroups_live(groups, 1), 0);
	ck_assert_uint_eq(pgroups_live(groups, 2), 1);
	kill(sleeper, SIGKILL);
	waitpid(sleeper, &status, 0);
	waitpid(dead, &status, 0);
	ck_assert_uint_eq(pgroups_live(groups, 2), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("signals");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, a_first_signal_and_an_early_second_are_only_noted);
	tcase_add_test(tc, an_armed_second_signal_kills_every_group);
	tcase_add_test(tc, a_zombie_group_is_not_live);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
