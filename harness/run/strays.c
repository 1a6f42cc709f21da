/* Ending the processes loads left behind (harness/run/strays.h). */
#include "config.h"
#include "harness/run/strays.h"
#include "lib/error.h"
#include "lib/fsutil.h"
#include "lib/procstat.h"
#include "lib/timeutil.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define STRAYS_MAX_PER_PASS 256	/* more are found on the next pass */
#define STRAYS_POLL_NS 10000000LL
#define STRAYS_TIMEOUT_NS 1000000000LL	/* SIGKILLed tasks die in microseconds */

/* The parent of process PID, or -1 when it is gone or unreadable. */
static long strays_parent(pid_t pid)
{
	char path[64], buf[1024], state;
	long ppid;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	n = fs_read_small(path, buf, sizeof(buf));
	return n < 0 || procstat_parse_ppid(buf, (size_t)n, &state, &ppid) < 0 ? -1 : ppid;
}

/* Our children but SPARE, up to MAX of them, into OUT; their count. The
 * walk of /proc needs no CONFIG_PROC_CHILDREN and sees the children of
 * every thread of ours (an orphan goes to any live thread of its reaper). */
static size_t strays_list(pid_t spare, pid_t *out, size_t max)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	size_t n = 0;

	if (!d)
		return 0;
	while (n < max && (e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (*end || pid <= 0 || pid == spare)
			continue;
		if (strays_parent((pid_t)pid) == (long)getpid())
			out[n++] = (pid_t)pid;
	}
	closedir(d);
	return n;
}

int strays_end(pid_t spare)
{
	int64_t until = mono_ns() + STRAYS_TIMEOUT_NS;
	pid_t pids[STRAYS_MAX_PER_PASS];
	int ended = 0;

	for (;;) {
		size_t n = strays_list(spare, pids, STRAYS_MAX_PER_PASS), left = 0;

		if (n == 0)
			break;
		for (size_t i = 0; i < n; i++)
			kill(pids[i], SIGKILL);
		for (size_t i = 0; i < n; i++) {
			pid_t r;

			while ((r = waitpid(pids[i], NULL, WNOHANG)) < 0 && errno == EINTR)
				;
			if (r == pids[i])
				ended++;
			else
				pids[left++] = pids[i];
		}
		if (mono_ns() >= until)	/* a tree still forking, or a task stuck in D state */
			return error("processes a load left behind were still there after %lld ms "
				     "(%zu killed but not yet gone)", STRAYS_TIMEOUT_NS / 1000000, left);
		if (left)
			sleep_until_ns(mono_ns() + STRAYS_POLL_NS);
	}
	if (ended)
		warning("ended %d process%s a load left outside its process group (setsid or a "
			"daemon's double fork)", ended, ended == 1 ? "" : "es");
	return ended;
}
