/* tracefs and debugfs where they are not mounted (a fresh Debian without
 * systemd's mount units, a container, a minimal guest): starve mounts them
 * at their usual place for a run and unmounts them at its end, as trace-cmd
 * and libtracefs mount tracefs. The mount is journaled first (a "mount"
 * entry), so a crashed run's is unmounted by starve restore or the
 * watchdog. FSTYPE is "tracefs" or "debugfs". */
#ifndef STARVE_KFS_MOUNT_H
#define STARVE_KFS_MOUNT_H

#include <stdbool.h>
#include <stddef.h>

#include "harness/kernel/journal.h"

/* FSTYPE is mounted where the kernel's tools look for it (tracefs also under
 * /sys/kernel/debug/tracing). */
bool kfs_mounted(const char *fstype);
/* It is not, but this kernel has it and its mount point exists; else false
 * with WHY filled. */
bool kfs_can_mount(const char *fstype, char *why, size_t len);
/* Mount FSTYPE at its place unless kfs_mounted(), journaled in J (open)
 * before the mount. 0, or -1 with WHY filled (the entry dropped again). */
int kfs_mount(struct journal *j, const char *fstype, char *why, size_t len);
/* Unmount FSTYPE if J says this run mounted it, then drop the entry. 0, or
 * -1 with an error printed (the entry kept for starve restore). */
int kfs_unmount(struct journal *j, const char *fstype);

#endif
