/* Small file-system helpers: create a directory with its parents, remove a
 * directory tree that the program made itself (a temporary work directory),
 * read a small kernel file whole. */
#ifndef STARVE_FSUTIL_H
#define STARVE_FSUTIL_H

#include <sys/types.h>

/* mkdir -p PATH (mode 0755). -1 with errno set; an existing directory is fine. */
int fs_mkdirs(const char *path);

/* rm -rf PATH without following symbolic links. -1 with errno set when
 * something could not be removed; a missing PATH is fine. */
int fs_remove_tree(const char *path);

/* One read of a small file (/proc, /sys) into BUF, NUL-terminated: its
 * length, or -1 when it cannot be opened or reads nothing. Quiet, and
 * async-signal-safe (open, read, close). */
ssize_t fs_read_small(const char *path, char *buf, size_t size);

#endif
