/* Unit tests for the watchdog (harness/run/watchdog.c): it kills registered
 * process groups when the controller dies or a deadline passes, calls the
 * restore hook after a death, and leaves everything alone on a clean stop. */
#include "config.h"
#include "harness/run/watchdog.h"
#include "lib/timeutil.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* A victim in its own process group, like a load's leader. */
static pid_t start_sleeper(void)
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

/* waitpid with a timeout; returns the status or -1 on timeout. */
static int wait_for(pid_t pid, int64_t timeout_ns)
{
	int64_t until = mono_ns() + timeout_ns;
	int status;

	while (mono_ns() < until) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return status;
		ck_assert_int_ge(r, 0);
		usleep(5000);
	}
	return -1;
}

START_TEST(deadline_kills_registered_groups)
{
	struct watchdog w;
	pid_t victim = start_sleeper();
	int64_t t0 = mono_ns();
	int status;

	ck_assert_int_eq(watchdog_start(&w, NULL, NULL, 0), 0);
	ck_assert_int_eq(watchdog_add_group(&w, victim), 0);
	ck_assert_int_eq(watchdog_set_deadline(&w, t0 + 200 * NSEC_PER_MSEC), 0);
	status = wait_for(victim, 3 * NSEC_PER_SEC);
	ck_assert_int_ne(status, -1);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	ck_assert_int_ge(mono_ns() - t0, 190 * NSEC_PER_MSEC);
	ck_assert_int_eq(watchdog_stop(&w), 0);
}
END_TEST

/* More groups than the old fixed table (256): the last one is still killed. */
START_TEST(no_registered_group_is_dropped)
{
	enum { N = 300 };
	static pid_t victims[N];
	struct watchdog w;
	int status;

	ck_assert_int_eq(watchdog_start(&w, NULL, NULL, 0), 0);
	for (int i = 0; i < N; i++) {
		victims[i] = start_sleeper();
		ck_assert_int_eq(watchdog_add_group(&w, victims[i]), 0);
	}
	ck_assert_int_eq(watchdog_set_deadline(&w, mono_ns() + 100 * NSEC_PER_MSEC), 0);
	for (int i = N; i-- > 0;) {
		status = wait_for(victims[i], 3 * NSEC_PER_SEC);
		ck_assert_msg(status != -1, "group %d of %d was not killed", i + 1, N);
		ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	}
	ck_assert_int_eq(watchdog_stop(&w), 0);
}
END_TEST

/* The descriptors it is told to keep (the locks) stay open in it, and
 * nothing else of ours. */
START_TEST(the_watchdog_keeps_the_locks_it_is_given)
{
	struct watchdog w;
	char path[64], link[64], want[64];
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(watchdog_start(&w, NULL, (const int[]){ -1, fd }, 2), 0);
	usleep(100000);
	snprintf(path, sizeof(path), "/proc/%d/fd/4", (int)w.pid);
	n = readlink(path, link, sizeof(link) - 1);
	ck_assert_int_gt(n, 0);
	link[n] = '\0';
	snprintf(want, sizeof(want), "/dev/null");
	ck_assert_str_eq(link, want);
	/* then its own look at us: our /proc stat (stopped? dying?) */
	snprintf(path, sizeof(path), "/proc/%d/fd/5", (int)w.pid);
	n = readlink(path, link, sizeof(link) - 1);
	ck_assert_int_gt(n, 0);
	link[n] = '\0';
	snprintf(want, sizeof(want), "/proc/%d/stat", (int)getpid());
	ck_assert_str_eq(link, want);
	snprintf(path, sizeof(path), "/proc/%d/fd/6", (int)w.pid);
	ck_assert_int_lt(readlink(path, link, sizeof(link) - 1), 0);
	ck_assert_int_eq(watchdog_stop(&w), 0);
	close(fd);
}
END_TEST

START_TEST(clean_stop_leaves_groups_alone)
{
	struct watchdog w;
	pid_t victim = start_sleeper(), other = start_sleeper();

	ck_assert_int_eq(watchdog_start(&w, NULL, NULL, 0), 0);
	ck_assert_int_eq(watchdog_add_group(&w, victim), 0);
	ck_assert_int_eq(watchdog_add_group(&w, other), 0);
	ck_assert_int_eq(watchdog_remove_group(&w, other), 0);
	ck_assert_int_eq(watchdog_set_deadline(&w, mono_ns() + 100 * NSEC_PER_MSEC), 0);
	ck_assert_int_eq(watchdog_set_deadline(&w, 0), 0);	/* cancelled */
	usleep(200000);
	ck_assert_int_eq(watchdog_stop(&w), 0);
	ck_assert_int_eq(w.pid, 0);
	ck_assert_int_eq(wait_for(victim, 100 * NSEC_PER_MSEC), -1);	/* still alive */
	ck_assert_int_eq(wait_for(other, 100 * NSEC_PER_MSEC), -1);
	kill(victim, SIGKILL);
	kill(other, SIGKILL);
	waitpid(victim, NULL, 0);
	waitpid(other, NULL, 0);
}
END_TEST

static char restore_mark[64];

static void mark_restored(pid_t controller, bool controller_dead)
{
	if (!controller_dead)
		return;
	int fd = open(restore_mark, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%d", (int)controller);

	if (fd >= 0) {
		if (write(fd, buf, (size_t)n) < 0)
			_exit(1);
		close(fd);
	}
}

/* The "controller" is a child that starts the watchdog and a victim, then
 * dies abruptly; we are a subreaper so both orphans come back to us. */
START_TEST(controller_death_kills_and_restores)
{
	int pfd[2];
	pid_t controller, victim = 0;
	char buf[32] = "";
	int status, fd;

	snprintf(restore_mark, sizeof(restore_mark), "/tmp/starve-wd-test.%d", (int)getpid());
	unlink(restore_mark);
	ck_assert_int_eq(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	ck_assert_int_eq(pipe(pfd), 0);
	controller = fork();
	ck_assert_int_ge(controller, 0);
	if (controller == 0) {
		struct watchdog w;
		pid_t v;

		close(pfd[0]);
		if (watchdog_start(&w, mark_restored, NULL, 0) < 0)
			_exit(1);
		v = start_sleeper();
		if (watchdog_add_group(&w, v) < 0)
			_exit(1);
		if (write(pfd[1], &v, sizeof(v)) != sizeof(v))
			_exit(1);
		_exit(0);	/* dies without watchdog_stop: like kill -9 */
	}
	close(pfd[1]);
	ck_assert_int_eq(read(pfd[0], &victim, sizeof(victim)), (ssize_t)sizeof(victim));
	close(pfd[0]);
	ck_assert_int_eq(waitpid(controller, &status, 0), controller);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	status = wait_for(victim, 3 * NSEC_PER_SEC);
	ck_assert_int_ne(status, -1);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	/* the watchdog (also reparented to us) exits once it has restored */
	while (waitpid(-1, &status, 0) > 0)
		;
	fd = open(restore_mark, O_RDONLY);
	ck_assert_msg(fd >= 0, "restore hook was not called");
	ck_assert_int_gt(read(fd, buf, sizeof(buf) - 1), 0);
	close(fd);
	ck_assert_int_eq(atoi(buf), controller);
	unlink(restore_mark);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("watchdog");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, deadline_kills_registered_groups);
	tcase_add_test(tc, clean_stop_leaves_groups_alone);
	tcase_add_test(tc, no_registered_group_is_dropped);
	tcase_add_test(tc, the_watchdog_keeps_the_locks_it_is_given);
	tcase_add_test(tc, controller_death_kills_and_restores);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
