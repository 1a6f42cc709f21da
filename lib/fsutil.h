/* Small file-system helpers: create a directory with its parents, remove a
 * directory tree that the program made itself (a temporary work directory). */
#ifndef STARVE_FSUTIL_H
#define STARVE_FSUTIL_H

/* mkdir -p PATH (mode 0755). -1 with errno set; an existing directory is fine. */
int fs_mkdirs(const char *path);

/* rm -rf PATH without following symbolic links. -1 with errno set when
 * something could not be removed; a missing PATH is fine. */
int fs_remove_tree(const char *path);

#endif
