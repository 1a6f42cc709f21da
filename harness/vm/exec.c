/* Host tools for `starve vm` (exec.h): fork, exec, read the output through a
 * pipe, wait. Nothing here changes the host: the tools only fetch and unpack
 * into starve's own directories. */
#include "config.h"
#include "harness/vm/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* In the child: stdin from /dev/null, stdout and stderr into FD, then exec. */
static _Noreturn void vm_exec_child(const char *const argv[], const char *dir, int fd)
{
	int null = open("/dev/null", O_RDONLY);

	if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(fd, STDOUT_FILENO) < 0 ||
	    dup2(fd, STDERR_FILENO) < 0 || (dir && chdir(dir) < 0))
		_exit(127);
	execvp(argv[0], (char *const *)argv);
	dprintf(STDERR_FILENO, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static void vm_exec_collect(int fd, char *out, size_t out_len)
{
	char discard[4096];
	size_t n = 0;
	ssize_t got;

	for (;;) {
		bool room = out && n + 1 < out_len;

		got = read(fd, room ? out + n : discard, room ? out_len - 1 - n : sizeof(discard));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		if (room)
			n += (size_t)got;
	}
	if (out && out_len)
		out[n] = '\0';
}

int vm_exec(const char *const argv[], const char *dir, char *out, size_t out_len)
{
	int fds[2], status;
	pid_t pid;

	if (out && out_len)
		out[0] = '\0';
	if (pipe2(fds, O_CLOEXEC) < 0) {
		if (out)
			snprintf(out, out_len, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid == 0)
		vm_exec_child(argv, dir, fds[1]);
	close(fds[1]);
	if (pid < 0) {
		if (out)
			snprintf(out, out_len, "fork: %s", strerror(errno));
		close(fds[0]);
		return -1;
	}
	vm_exec_collect(fds[0], out, out_len);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

const char *vm_find_command(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH");

	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		snprintf(buf, len, "%.*s/%s", (int)n, n ? p : ".", name);
		if (access(buf, X_OK) == 0)
			return buf;
		p += n + (p[n] == ':');
	}
	return NULL;
}

bool vm_have_command(const char *name)
{
	char buf[PATH_MAX];

	return vm_find_command(name, buf, sizeof(buf)) != NULL;
}

const char *vm_last_line(const char *text, char *buf, size_t len)
{
	const char *end = text + strlen(text), *start;

	while (end > text && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\r'))
		end--;
	start = end;
	while (start > text && start[-1] != '\n')
		start--;
	snprintf(buf, len, "%.*s", (int)(end - start), start);
	return buf;
}

_Noreturn void vm_exec_group_child(const char *const argv[], const char *log, int log_flags,
				   pid_t parent)
{
	int null = open("/dev/null", O_RDONLY), out = open(log, O_WRONLY | O_CREAT | log_flags, 0644);

	setpgid(0, 0);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent || null < 0 || out < 0 ||
	    dup2(null, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0 ||
	    dup2(out, STDERR_FILENO) < 0)
		_exit(127);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	execvp(argv[0], (char *const *)argv);
	dprintf(STDERR_FILENO, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}
