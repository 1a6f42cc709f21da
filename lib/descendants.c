/* Ending this process's descendants from a signal handler
 * (lib/descendants.h): no stdio, no malloc, no opendir, only system calls. */
#include "config.h"
#include "lib/descendants.h"
#include "lib/pidlist.h"

#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#define DESC_MAX_DEPTH 32	/* a deeper tree is cut there (its leaves die with their parents' group) */
#define DESC_FREEZE_PASSES 3	/* a fork racing the first pass is caught by the next */

struct desc_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Append the decimal V to the path at P (room is the caller's); the end. */
static char *desc_put_uint(char *p, unsigned long v)
{
	char digits[24];
	int n = 0;

	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n)
		*p++ = digits[--n];
	return p;
}

static char *desc_put_str(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

static int desc_walk(pid_t pid, int sig, int depth, pid_t spare);

struct desc_pass {
	int sig, depth;
	pid_t spare;
};

/* Signal CHILD and its tree: SIGSTOP top-down (a stopped parent forks no
 * more while its children are read), SIGKILL bottom-up (a child killed
 * before its parent is not handed to us, already walked, meanwhile). */
static void desc_signal(pid_t child, void *arg)
{
	const struct desc_pass *ps = arg;

	if (child == ps->spare)
		return;
	if (ps->sig != SIGKILL)
		kill(child, ps->sig);
	desc_walk(child, ps->sig, ps->depth + 1, ps->spare);
	if (ps->sig == SIGKILL)
		kill(child, ps->sig);
}

/* Signal each child listed in /proc/PID/task/TID/children and its tree;
 * -1 when the file cannot be opened. */
static int desc_children(pid_t pid, const char *tid, const struct desc_pass *ps)
{
	char path[96], *p = path;
	int fd;

	p = desc_put_str(p, "/proc/");
	p = desc_put_uint(p, (unsigned long)pid);
	p = desc_put_str(p, "/task/");
	p = desc_put_str(p, tid);
	p = desc_put_str(p, "/children");
	*p = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	pidlist_each(fd, desc_signal, (void *)ps);
	close(fd);
	return 0;
}

/* Signal every descendant of PID (each of its threads has its own list of
 * children); -1 when PID's task directory or a children file of it cannot
 * be read at the top (DEPTH 0: the kernel lacks them). */
static int desc_walk(pid_t pid, int sig, int depth, pid_t spare)
{
	const struct desc_pass ps = { sig, depth, spare };
	char path[48], buf[512], *p = path;
	int fd, ret = 0;
	long n;

	if (depth >= DESC_MAX_DEPTH)
		return 0;
	p = desc_put_str(p, "/proc/");
	p = desc_put_uint(p, (unsigned long)pid);
	p = desc_put_str(p, "/task");
	*p = '\0';
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return depth ? 0 : -1;	/* a child gone meanwhile is no error */
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			struct desc_dirent64 *d = (struct desc_dirent64 *)(buf + off);

			off += d->d_reclen;
			if (d->d_name[0] >= '0' && d->d_name[0] <= '9' &&
			    desc_children(pid, d->d_name, &ps) < 0 && depth == 0)
				ret = -1;
		}
	}
	close(fd);
	return ret;
}

int descendants_kill(pid_t spare)
{
	pid_t self = getpid();

	for (int pass = 0; pass < DESC_FREEZE_PASSES; pass++)
		if (desc_walk(self, SIGSTOP, 0, spare) < 0)
			return -1;
	desc_walk(self, SIGKILL, 0, spare);
	desc_walk(self, SIGKILL, 0, spare);	/* any the first kill pass handed to us */
	return 0;
}
