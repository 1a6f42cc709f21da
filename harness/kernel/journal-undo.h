/* Undoing one journal entry (harness/kernel/journal.h), by its kind, with
 * async-signal-safe calls only (open, read, write, close, rmdir, kill, umount2,
 * statfs, nanosleep): the signal handler and the dying watchdog use it. A
 * knob that reads its old value already is left alone (no write).
 * Internal to the journal; the names are checked here too, so a tampered
 * journal cannot make a root process remove anything but what starve makes. */
#ifndef STARVE_JOURNAL_UNDO_H
#define STARVE_JOURNAL_UNDO_H

#include <stdbool.h>

#include "harness/kernel/journal.h"

/* "starve-<digits>" only. */
bool journal_tracefs_name_ok(const char *name);
/* Absolute, under JOURNAL_CGROUP_ROOT, components of [A-Za-z0-9_.:@-] that
 * are not "." or "..", no empty component, no trailing slash. */
bool journal_cgroup_path_ok(const char *path);
/* A controller's name: lower-case letters and '_', at most 31. */
bool journal_controller_name_ok(const char *name);
/* JOURNAL_CGROUP_ROOT without its slash (a cgroup2 mount there), or a path
 * journal_cgroup_path_ok takes. */
bool journal_controller_dir_ok(const char *dir);
/* Where starve mounts FSTYPE when it is missing: "/sys/kernel/tracing" for
 * "tracefs", "/sys/kernel/debug" for "debugfs"; NULL for anything else. */
const char *journal_mount_point(const char *fstype);
/* Undo E; returns 0 when undone (or nothing was left to undo), else an errno. */
int journal_undo(const struct journal_entry *e);

#endif
