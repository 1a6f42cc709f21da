/* Ending every descendant of this process, from a signal handler: a load's
 * leader does it when the controller dies, and the controller at a second
 * Ctrl-C, so a command that left the load's process group (setsid, a daemon)
 * dies with it. Both are child subreapers, so such a process stays in their
 * tree when its own parent dies. */
#ifndef STARVE_DESCENDANTS_H
#define STARVE_DESCENDANTS_H

#include <sys/types.h>

/* Stop every descendant but SPARE and its own (SPARE 0: none) with SIGSTOP,
 * a few passes, so none can fork while the tree is walked; then SIGKILL
 * them all, children before parents. Walks the tree through /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN);
 * returns 0, or -1 (nothing done) when the kernel has no such files.
 * Async-signal-safe: raw open, read and getdents64, buffers on the stack. */
int descendants_kill(pid_t spare);

#endif
