/* The one writer of kernel knob files (sysctl, debugfs, sched/features),
 * used by settings, the journal's restore and the signal path alike: a
 * knob's value as one line, through lib/kfile.h's primitive. */
#ifndef STARVE_KNOB_WRITE_H
#define STARVE_KNOB_WRITE_H

#include <stdbool.h>
#include <stddef.h>

/* The longest line (text and newline) a knob write takes. */
#define KNOB_LINE_MAX 512

/* Write LEN bytes of TEXT and a newline to PATH in one write(2): sysctl and
 * debugfs handlers parse each write on its own. PATH is opened O_WRONLY |
 * O_CLOEXEC | EXTRA_FLAGS. Async-signal-safe: no allocation, no stdio.
 * Returns 0 or an errno (EIO: short write; E2BIG: TEXT too long);
 * OPENED (if not NULL) says whether the failure came after the open. */
int knob_write_line(const char *path, const char *text, size_t len, int extra_flags,
		    bool *opened);

#endif
