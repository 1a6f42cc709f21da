/* The machine-wide lock (machine-lock.h). */
#include "config.h"
#include "harness/kernel/machine-lock.h"
#include "lib/error.h"
#include "lib/timeutil.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#define MACHINE_LOCK_POLL_NS (50 * NSEC_PER_MSEC)
#define MACHINE_LOCK_WAIT_MAX 86400
/* the watchdog of a run that died holds the lock while it restores */
#define MACHINE_LOCK_RESTORE_WAIT_NS (5 * NSEC_PER_SEC)

/* $STARVE_LOCK_WAIT in whole seconds, 0 when unset or not a number. */
static long machine_lock_wait_s(void)
{
	const char *s = getenv(MACHINE_LOCK_WAIT_ENV);
	char *end;
	long v;

	if (!s || !*s)
		return 0;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 0 || v > MACHINE_LOCK_WAIT_MAX) {
		warning("%s='%s' is not a number of seconds (0..%d); not waiting",
			MACHINE_LOCK_WAIT_ENV, s, MACHINE_LOCK_WAIT_MAX);
		return 0;
	}
	return v;
}

/* The holder's pid as written in the file, 0 if unknown. */
static int machine_lock_holder(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return atoi(buf);
}

static void machine_lock_note_pid(int fd)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());

	if (ftruncate(fd, 0) < 0 || pwrite(fd, buf, (size_t)n, 0) != n)
		warning("cannot write our pid into %s: %s", MACHINE_LOCK_FILE, strerror(errno));
}

int machine_lock_take(void)
{
	int64_t until = mono_ns() + machine_lock_wait_s() * NSEC_PER_SEC;
	bool waited_restore = false;
	int fd = open(MACHINE_LOCK_FILE, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);

	if (fd < 0)
		return error_errno("cannot open the machine's lock %s (changing kernel settings "
				   "needs root)", MACHINE_LOCK_FILE);
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK) {
			error_errno("cannot lock %s", MACHINE_LOCK_FILE);
			close(fd);
			return -1;
		}
		if (mono_ns() >= until) {
			int pid = machine_lock_holder(fd);

			/* the holder died: its watchdog is restoring, a moment */
			if (!waited_restore && pid > 0 && kill(pid, 0) < 0 && errno == ESRCH) {
				waited_restore = true;
				until = mono_ns() + MACHINE_LOCK_RESTORE_WAIT_NS;
				continue;
			}
			close(fd);
			if (pid > 0)
				return error("another starve run (pid %d) is changing this machine's "
					     "kernel settings (it holds %s); wait for it to end "
					     "(or set %s to a number of seconds to wait)", pid,
					     MACHINE_LOCK_FILE, MACHINE_LOCK_WAIT_ENV);
			return error("another starve run is changing this machine's kernel "
				     "settings (it holds %s); wait for it to end", MACHINE_LOCK_FILE);
		}
		sleep_until_ns(mono_ns() + MACHINE_LOCK_POLL_NS);
	}
	machine_lock_note_pid(fd);
	return fd;
}

void machine_lock_release(int fd)
{
	if (fd >= 0)
		close(fd);
}
