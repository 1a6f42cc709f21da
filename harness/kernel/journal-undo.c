/* Undoing journal entries (journal-undo.h). */
#include "config.h"
#include "harness/kernel/journal-undo.h"
#include "harness/kernel/knob-features.h"
#include "harness/kernel/knob-write.h"
#include "lib/fsutil.h"
#include "lib/kfile.h"
#include "lib/pidlist.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#define UNDO_CGROUP_TRIES 100			/* rmdir tries while killed tasks exit */
#define UNDO_CGROUP_PAUSE_NS (10 * 1000 * 1000)	/* between two tries: 1 s in all */

bool journal_tracefs_name_ok(const char *name)
{
	if (strncmp(name, "starve-", 7) || !name[7])
		return false;
	for (const char *c = name + 7; *c; c++)
		if (*c < '0' || *c > '9')
			return false;
	return true;
}

bool journal_cgroup_path_ok(const char *path)
{
	const char *comp = path + strlen(JOURNAL_CGROUP_ROOT);

	if (strncmp(path, JOURNAL_CGROUP_ROOT, strlen(JOURNAL_CGROUP_ROOT)) || !*comp)
		return false;
	for (;;) {
		size_t n = strcspn(comp, "/");

		if (n == 0 || (n == 1 && comp[0] == '.') || (n == 2 && !strncmp(comp, "..", 2)))
			return false;
		for (size_t i = 0; i < n; i++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789_.:@-", comp[i]))
				return false;
		if (!comp[n])
			return true;
		comp += n + 1;
	}
}

bool journal_controller_name_ok(const char *name)
{
	size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyz_");

	return n > 0 && n < 32 && !name[n];
}

bool journal_controller_dir_ok(const char *dir)
{
	size_t root = strlen(JOURNAL_CGROUP_ROOT) - 1;

	return (!strncmp(dir, JOURNAL_CGROUP_ROOT, root) && !dir[root]) ||
	       journal_cgroup_path_ok(dir);
}

/* DIR + "/" + LEAF into OUT (JOURNAL_PATH_MAX + 32 bytes); false if too long. */
static bool undo_join(char *out, const char *dir, const char *leaf)
{
	size_t a = strlen(dir), b = strlen(leaf);

	if (a + 1 + b >= JOURNAL_PATH_MAX + 32)
		return false;
	memcpy(out, dir, a);
	out[a] = '/';
	memcpy(out + a + 1, leaf, b + 1);
	return true;
}

const char *journal_mount_point(const char *fstype)
{
	if (!strcmp(fstype, "tracefs"))
		return "/sys/kernel/tracing";
	if (!strcmp(fstype, "debugfs"))
		return "/sys/kernel/debug";
	return NULL;
}

/* Unmount FSTYPE from its place if it is still that file system there
 * (a later mount by someone else over it is left alone). */
static int undo_mount(const char *fstype)
{
	const char *at = journal_mount_point(fstype);
	long magic = !strcmp(fstype, "tracefs") ? TRACEFS_MAGIC : DEBUGFS_MAGIC;
	struct statfs st;

	if (!at)
		return EINVAL;
	if (statfs(at, &st) < 0 || st.f_type != magic)
		return 0;	/* not mounted any more */
	return umount2(at, 0) < 0 ? errno : 0;
}

/* Remove the instance wherever tracefs is mounted. */
static int undo_tracefs(const char *name)
{
	static const char *const roots[] = { "/sys/kernel/tracing/instances",
					     "/sys/kernel/debug/tracing/instances" };
	char path[JOURNAL_PATH_MAX + 32];
	int err = 0;

	if (!journal_tracefs_name_ok(name))
		return EINVAL;
	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		if (!undo_join(path, roots[i], name))
			return ENAMETOOLONG;
		if (rmdir(path) < 0 && errno != ENOENT && errno != ENOTDIR)
			err = errno;
	}
	return err;
}

static void undo_kill_one(pid_t pid, void *arg)
{
	(void)arg;
	if (pid > 1)
		kill(pid, SIGKILL);
}

/* SIGKILL every process listed in DIR/cgroup.procs (cgroup v1, or v2
 * before cgroup.kill): they are in a cgroup starve made, so they are ours. */
static void undo_kill_procs(const char *dir)
{
	char path[JOURNAL_PATH_MAX + 32];
	int fd;

	if (!undo_join(path, dir, "cgroup.procs"))
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	pidlist_each(fd, undo_kill_one, NULL);
	close(fd);
}

/* rmdir a cgroup starve made; what is still in it is killed first. */
static int undo_cgroup(const char *dir)
{
	struct timespec pause = { 0, UNDO_CGROUP_PAUSE_NS };
	struct statfs fs;

	if (!journal_cgroup_path_ok(dir))
		return EINVAL;
	if (statfs(dir, &fs) < 0)
		return errno == ENOENT ? 0 : errno;
	if (fs.f_type != CGROUP2_SUPER_MAGIC && fs.f_type != CGROUP_SUPER_MAGIC)
		return ENOTDIR;		/* not a cgroup: never rmdir it */
	for (int i = 0; i < UNDO_CGROUP_TRIES; i++) {
		if (rmdir(dir) == 0 || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return errno;
		if (i == 0) {
			if (kfile_write_at(dir, "cgroup.kill", "1") != 0)
				undo_kill_procs(dir);
		}
		nanosleep(&pause, NULL);
	}
	return EBUSY;
}

/* "-NAME" into DIR's cgroup.subtree_control. EBUSY: a child cgroup uses
 * it, and ours are gone by now (they are undone first), so it is someone
 * else's since: it stays, which is not a failure. */
static int undo_controller(const char *name, const char *dir)
{
	struct statfs fs;
	int err;

	if (!journal_controller_name_ok(name) || !journal_controller_dir_ok(dir))
		return EINVAL;
	if (statfs(dir, &fs) < 0)
		return errno == ENOENT ? 0 : errno;
	if (fs.f_type != CGROUP2_SUPER_MAGIC)
		return ENOTDIR;		/* only cgroup2 has subtree_control */
	err = kfile_subtree_control(dir, name, false);
	return err == EBUSY ? 0 : err;
}

/* Whether the knob at PATH reads VALUE already (trailing white space
 * aside): then there is nothing to undo, and no write, which some knobs
 * refuse even for their own value (sched_rt_runtime_us checks the deadline
 * bandwidth on every write, EBUSY when that accounting is off). */
static bool undo_knob_reads(const char *path, const char *value)
{
	char buf[JOURNAL_VALUE_MAX + 8];
	ssize_t n = fs_read_small(path, buf, sizeof(buf));
	size_t len = strlen(value);

	if (n < 0)
		return false;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	return (size_t)n == len && !memcmp(buf, value, len);
}

int journal_undo(const struct journal_entry *e)
{
	switch (e->kind) {
	case JOURNAL_CONTROLLER:
		return undo_controller(e->name, e->path);
	case JOURNAL_TRACEFS:
		return undo_tracefs(e->name);
	case JOURNAL_MOUNT:
		return undo_mount(e->name);
	case JOURNAL_CGROUP:
		return undo_cgroup(e->path);
	case JOURNAL_SYSCTL:
	case JOURNAL_DEBUGFS:
		/* The features knob takes one token per write (knob-features.h). */
		if (kfeat_is_knob(e->name))
			return kfeat_write_tokens(e->path, e->value);
		if (undo_knob_reads(e->path, e->value))
			return 0;
		return knob_write_line(e->path, e->value, strlen(e->value), 0, NULL);
	}
	return EINVAL;
}

static size_t undo_depth(const char *path)
{
	size_t d = 0;

	for (; *path; path++)
		d += *path == '/';
	return d;
}

void journal_undo_order(const struct journal *j, size_t *order)
{
	size_t k = 0, max_depth = 0;

	for (size_t i = 0; i < j->n; i++)
		if (j->entries[i].kind == JOURNAL_CGROUP && undo_depth(j->entries[i].path) > max_depth)
			max_depth = undo_depth(j->entries[i].path);
	/* Loads live in the cgroups: those go first, once they are killed. */
	for (size_t d = max_depth + 1; d-- > 0;)
		for (size_t i = j->n; i-- > 0;)
			if (j->entries[i].kind == JOURNAL_CGROUP && undo_depth(j->entries[i].path) == d)
				order[k++] = i;
	for (size_t i = j->n; i-- > 0;)
		if (j->entries[i].kind != JOURNAL_CGROUP)
			order[k++] = i;
}
