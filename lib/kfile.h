/* The one primitive that writes a kernel file: sysctl and debugfs knobs
 * (harness/kernel/knob-write.h adds their newline), cgroup and cpuset files,
 * cgroup.procs, cgroup.kill and cgroup.subtree_control. A value goes to the
 * kernel in one write(2), since its handlers parse each write on its own.
 * Async-signal-safe (open, write, close; no allocation, no stdio): the
 * journal's undo runs it from signal handlers and the dying watchdog. Every
 * function returns 0 or an errno (EIO: a short write; ENAMETOOLONG: a path
 * over KFILE_PATH_MAX), and prints nothing: callers say what failed. */
#ifndef STARVE_KFILE_H
#define STARVE_KFILE_H

#include <stdbool.h>
#include <stddef.h>

/* The longest DIR/FILE the _at functions join (on the stack). */
#define KFILE_PATH_MAX 512

/* LEN bytes of BUF to the open file FD, in one write. */
int kfile_write_fd(int fd, const char *buf, size_t len);

/* LEN bytes of BUF to PATH, opened O_WRONLY | O_CLOEXEC | EXTRA_FLAGS;
 * OPENED (if not NULL) says whether a failure came after the open. */
int kfile_write(const char *path, const char *buf, size_t len, int extra_flags, bool *opened);

/* TEXT (without a newline) to DIR/FILE. */
int kfile_write_at(const char *dir, const char *file, const char *text);

/* DIR/FILE opened O_WRONLY | O_CLOEXEC for kfile_write_fd (a loop of
 * writes, such as moving each task of a cgroup): the descriptor, or
 * -errno. */
int kfile_open_at(const char *dir, const char *file);

/* "+CONTROLLER" (ON) or "-CONTROLLER" to DIR/cgroup.subtree_control: the
 * one writer of that file, for turning a controller on (placement) and the
 * journal's undo. EBUSY: a child cgroup still uses it. */
int kfile_subtree_control(const char *dir, const char *controller, bool on);

#endif
