/* Child processes of a load's workers (exec's command, kernel-build's
 * jobs): started in the load's process group with a death signal, and
 * waited for through a pidfd so a stop is seen at once. */
#include "config.h"
#include "loads/load.h"
#include "lib/timeutil.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILD_POLL_MS 50	/* how often a waiting worker looks at the stop flag */

pid_t load_child_start(const char *path, char *const argv[], char *const envp[])
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);	/* kept across execve */
		if (getppid() != parent)
			_exit(127);
		if (load_guard_lower() < 0)	/* the command runs at the load's policy */
			_exit(127);
		if (envp)
			execve(path, argv, envp);
		else
			execv(path, argv);
		_exit(127);
	}
	return pid;
}

static uint64_t child_tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * NSEC_PER_SEC + (uint64_t)tv->tv_usec * NSEC_PER_USEC;
}

int load_child_wait(const struct load_ctx *ctx, pid_t pid, struct worker_record *rec)
{
	struct rusage ru;

	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0), status = 0;
	struct pollfd pfd = { .fd = pidfd, .events = POLLIN };

	for (;;) {
		if (wait4(pid, &status, WNOHANG, &ru) == pid) {
			if (rec && stats_measuring(ctx->stats, (uint64_t)mono_ns()))
				rec->child_cpu_ns += child_tv_ns(&ru.ru_utime) + child_tv_ns(&ru.ru_stime);
			break;
		}
		if (load_should_stop(ctx)) {
			kill(pid, SIGKILL);	/* our own child */
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			status = -1;
			break;
		}
		if (pidfd >= 0)
			poll(&pfd, 1, CHILD_POLL_MS);
		else
			sleep_until_ns(mono_ns() + CHILD_POLL_MS * NSEC_PER_MSEC);
	}
	if (pidfd >= 0)
		close(pidfd);
	return status;
}
