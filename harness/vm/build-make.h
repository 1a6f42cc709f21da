/* Running the kernel's make for `starve build`: in its own process group,
 * its output appended to the build's log, a one-line progress on a terminal
 * (the last line make wrote), and on a signal the whole group (make and its
 * compilers, all started here) ended before returning. */
#ifndef STARVE_VM_BUILD_MAKE_H
#define STARVE_VM_BUILD_MAKE_H

#include <stdbool.h>
#include <stddef.h>

/* Run ARGV with its output appended to LOG; STAGE names the step on the
 * progress line when PROGRESS. Returns its exit status, 128 + N when signal
 * N ended it (or, caught by starve, stopped it), -1 when it could not start. */
int vm_build_make(const char *const argv[], const char *log, const char *stage, bool progress);

/* The first lines of LOG that say what failed (compiler errors, make's
 * "***"), at most MAX of them, into BUF; the log's last lines when none. */
void vm_build_make_errors(const char *log, unsigned max, char *buf, size_t len);

#endif
