/* exec: a real command as a load (make -j4, hackbench ...), run through /bin/sh -c, optionally restarted when it exits.
 * One worker per copy forks the shell (in the load's process group, with a
 * death signal) and waits for it through a pidfd, so a stop is seen at
 * once. Records: iterations = starts, wakeups = exits. */
#include "config.h"
#include "loads/load.h"
#include "lib/error.h"
#include "lib/timeutil.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

enum {
	OPT_COMMAND,
	OPT_RESTART,
};

static const struct opt_spec options[] = {
	[OPT_COMMAND] = { "command", OPT_STRING, NULL, 0, 0, NULL,
		"shell command to run (required)", NULL },
	[OPT_RESTART] = { "restart", OPT_BOOL, NULL, 0, 0, "false",
		"start the command again each time it exits", NULL },
};

#define EXEC_POLL_MS 50	/* how often a waiting worker looks at the stop flag */

static pid_t exec_start(const char *command)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		execl("/bin/sh", "sh", "-c", command, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* Wait for PID to exit; if the load must stop first, kill it. Returns its
 * wait status, or -1 when it was killed at the stop. */
static int exec_wait(const struct load_ctx *ctx, pid_t pid)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0), status = 0;
	struct pollfd pfd = { .fd = pidfd, .events = POLLIN };

	for (;;) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		if (load_should_stop(ctx)) {
			kill(pid, SIGKILL);	/* our own child */
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			status = -1;
			break;
		}
		if (pidfd >= 0)
			poll(&pfd, 1, EXEC_POLL_MS);
		else
			sleep_until_ns(mono_ns() + EXEC_POLL_MS * NSEC_PER_MSEC);
	}
	if (pidfd >= 0)
		close(pidfd);
	return status;
}

static void exec_copy(struct load_ctx *ctx, unsigned record, void *arg)
{
	struct worker_record *rec = worker_begin(ctx, record);
	const char *command = ctx->spec->opts[OPT_COMMAND].s;
	int status;

	(void)arg;
	do {
		pid_t pid = exec_start(command);

		if (pid < 0) {
			worker_fail(rec, "cannot fork: %s", strerror(errno));
			break;
		}
		if (stats_measuring(ctx->stats, (uint64_t)mono_ns()))
			rec->iterations++;
		status = exec_wait(ctx, pid);
		if (status == -1)
			break;
		if (stats_measuring(ctx->stats, (uint64_t)mono_ns()))
			rec->wakeups++;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
			worker_fail(rec, "command not found or not executable: %s", command);
			break;
		}
	} while (ctx->spec->opts[OPT_RESTART].b && !load_should_stop(ctx));
	worker_end(rec);
}

static int run(struct load_ctx *ctx)
{
	return load_run_workers(ctx, (unsigned)ctx->spec->count, exec_copy, NULL) ? EXIT_RUNTIME : 0;
}

const struct load_type load_exec = {
	.name = "exec",
	.summary = "a real command as a load (make -j4, hackbench ...), run through /bin/sh -c, optionally restarted when it exits",
	.options = options,
	.n_options = sizeof(options) / sizeof(options[0]),
	.hist = HIST_NONE,
	.flags = LOAD_TRACK_PGROUP,
	.run = run,
};
