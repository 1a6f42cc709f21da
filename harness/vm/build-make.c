/* make for `starve build` (build-make.h). make runs in its own process group
 * so that ^C on the terminal reaches starve alone: starve then ends the group
 * (SIGTERM, SIGKILL after a grace), which holds only what it started, and
 * waits for it, so no compiler outlives the command. The progress line is
 * harness/vm/progress.c's, fed with the last line of the log. */
#include "config.h"
#include "harness/vm/build-make.h"
#include "harness/vm/exec.h"
#include "harness/vm/progress.h"
#include "harness/run/signals.h"
#include "lib/timeutil.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAKE_GRACE_NS (3 * NSEC_PER_SEC)	/* after SIGTERM, before SIGKILL */

/* The last whole line of LOG into BUF. */
static void make_last_line(const char *log, char *buf, size_t len)
{
	char tail[1024];
	int fd = open(log, O_RDONLY | O_CLOEXEC);
	struct stat st;
	ssize_t n = 0;
	char *end, *start;

	buf[0] = '\0';
	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0)
		n = pread(fd, tail, sizeof(tail) - 1, st.st_size > (off_t)sizeof(tail) - 1 ?
			  st.st_size - (off_t)sizeof(tail) + 1 : 0);
	close(fd);
	if (n <= 0)
		return;
	tail[n] = '\0';
	if (!(end = strrchr(tail, '\n')))
		return;
	*end = '\0';
	start = strrchr(tail, '\n') ? strrchr(tail, '\n') + 1 : tail;
	snprintf(buf, len, "%s", start + strspn(start, " "));
}

/* End the group of PID: SIGTERM, then SIGKILL if it is still there. */
static int make_stop(pid_t pid, int sig)
{
	int64_t until = mono_ns() + MAKE_GRACE_NS;
	int status;

	killpg(pid, SIGTERM);
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (mono_ns() > until) {
			killpg(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			break;
		}
		sleep_until_ns(mono_ns() + 50 * NSEC_PER_MSEC);
	}
	killpg(pid, SIGKILL);	/* what make's children left behind in the group */
	return 128 + sig;
}

int vm_build_make(const char *const argv[], const char *log, const char *stage, bool progress)
{
	struct vm_progress p;
	pid_t parent = getpid(), pid;
	int64_t next_draw = 0;
	int status, rc = -1;

	vm_progress_init(&p, progress, 1);
	vm_progress_kernel(&p, 0, "build", "make");
	snprintf(p.stage, sizeof(p.stage), "%s", stage);
	if ((pid = fork()) < 0)
		return -1;
	if (pid == 0)
		vm_exec_group_child(argv, log, O_APPEND, parent);
	setpgid(pid, pid);
	signals_add_group(pid);	/* a second ^C kills it at once */
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid) {
			rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
			break;
		}
		if (signals_caught()) {
			rc = make_stop(pid, signals_caught());
			break;
		}
		if (mono_ns() >= next_draw) {
			make_last_line(log, p.guest, sizeof(p.guest));
			vm_progress_draw(&p);
			next_draw = mono_ns() + NSEC_PER_SEC;
		}
		sleep_until_ns(mono_ns() + 100 * NSEC_PER_MSEC);
	}
	signals_remove_group(pid);
	vm_progress_clear(&p);
	return rc;
}

/* A line that says what failed: "file:line:col: error: ...", "*** ...". */
static bool make_is_error(const char *line)
{
	return strstr(line, ": error:") || strstr(line, ": fatal error:") || strstr(line, "*** ") ||
	       strstr(line, "undefined reference to");
}

void vm_build_make_errors(const char *log, unsigned max, char *buf, size_t len)
{
	FILE *f = fopen(log, "re");
	char line[1024], last[4][1024] = { "" };
	unsigned found = 0, n = 0;

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		snprintf(last[n++ % 4], sizeof(last[0]), "%s", line);
		if (found < max && make_is_error(line)) {
			snprintf(buf + strlen(buf), len - strlen(buf), "  %s", line);
			found++;
		}
	}
	fclose(f);
	for (unsigned i = n > 4 ? n - 4 : 0; !found && i < n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "  %s", last[i % 4]);
}
