/* Reading a list of pids from a kernel file (cgroup.procs, one a line;
 * /proc/PID/task/TID/children, space-separated), async-signal-safe: the
 * signal handlers and the dying watchdog read them. */
#ifndef STARVE_PIDLIST_H
#define STARVE_PIDLIST_H

#include <sys/types.h>

/* Call EACH(pid, ARG) for every number in the file open at FD, read to its
 * end in small chunks (a number may straddle two of them). */
void pidlist_each(int fd, void (*each)(pid_t pid, void *arg), void *arg);

#endif
