/* Mounting tracefs and debugfs for a run (harness/kernel/kfs-mount.h). */
#include "config.h"
#include "harness/kernel/kfs-mount.h"
#include "harness/kernel/journal-undo.h"
#include "lib/error.h"
#include "lib/fsutil.h"

#include <errno.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/vfs.h>
#include <unistd.h>

static bool kfs_is(const char *path, long magic)
{
	struct statfs st;

	return statfs(path, &st) == 0 && st.f_type == magic;
}

bool kfs_mounted(const char *fstype)
{
	if (!strcmp(fstype, "tracefs"))
		return kfs_is("/sys/kernel/tracing", TRACEFS_MAGIC) ||
		       kfs_is("/sys/kernel/debug/tracing", TRACEFS_MAGIC);
	return kfs_is("/sys/kernel/debug", DEBUGFS_MAGIC);
}

/* FSTYPE is in /proc/filesystems ("nodev\ttracefs"). */
static bool kfs_known(const char *fstype)
{
	char buf[4096], want[64];
	ssize_t n = fs_read_small("/proc/filesystems", buf, sizeof(buf));

	snprintf(want, sizeof(want), "\t%s\n", fstype);
	return n > 0 && strstr(buf, want);
}

bool kfs_can_mount(const char *fstype, char *why, size_t len)
{
	const char *at = journal_mount_point(fstype);

	if (!at) {
		snprintf(why, len, "starve mounts only tracefs and debugfs");
		return false;
	}
	if (!kfs_known(fstype)) {
		snprintf(why, len, "%s is not mounted and this kernel has no %s", fstype, fstype);
		return false;
	}
	if (access(at, F_OK) < 0) {
		snprintf(why, len, "%s is not mounted and %s does not exist", fstype, at);
		return false;
	}
	return true;
}

int kfs_mount(struct journal *j, const char *fstype, char *why, size_t len)
{
	const char *at = journal_mount_point(fstype);

	if (kfs_mounted(fstype))
		return 0;
	if (!kfs_can_mount(fstype, why, len))
		return -1;
	if (journal_record_mount(j, fstype) < 0) {
		snprintf(why, len, "cannot journal the mount of %s", fstype);
		return -1;
	}
	if (mount("nodev", at, fstype, MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0) {
		snprintf(why, len, "cannot mount %s at %s: %s", fstype, at, strerror(errno));
		journal_forget(j, JOURNAL_MOUNT, fstype);
		return -1;
	}
	return 0;
}

int kfs_unmount(struct journal *j, const char *fstype)
{
	const char *at = journal_mount_point(fstype);

	if (!journal_has(j, JOURNAL_MOUNT, fstype))
		return 0;	/* it was there before the run: not ours */
	if (umount2(at, 0) < 0 && errno != EINVAL)
		return error_errno("cannot unmount %s from %s (starve restore tries again)", fstype,
				   at);
	return journal_forget(j, JOURNAL_MOUNT, fstype);
}
