/* Cpuset backend choice (harness/placement/confine.h): probe the backends in order of
 * preference, remember the first usable one, and route create/attach/
 * destroy to it. Also the file helpers the cgroup backends share, and the
 * sweep that removes the cpusets of runs that died.
 * STARVE_CPUSET_BACKEND=<name> picks a usable backend by name (tests use
 * it to exercise one that would not be first). */
#include "config.h"
#include "harness/placement/confine-backend.h"
#include "lib/error.h"
#include "lib/kfile.h"
#include "lib/pidlist.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <mntent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const struct confine_backend *const confine_backends[] = {
	&confine_libcpuset, &confine_cgroup1, &confine_cgroup2, &confine_affinity,
};
#define CONFINE_NR_BACKENDS (sizeof(confine_backends) / sizeof(confine_backends[0]))

static const struct confine_backend *confine_chosen;

const char *confine_probe(struct confine_probe_report *reports, size_t max, size_t *n)
{
	const char *want = getenv("STARVE_CPUSET_BACKEND");
	const struct confine_backend *chosen = NULL;
	char reason[160];
	bool ok;

	if (n)
		*n = 0;
	for (size_t i = 0; i < CONFINE_NR_BACKENDS; i++) {
		const struct confine_backend *b = confine_backends[i];

		ok = b->probe(reason, sizeof(reason));
		if (ok && !chosen && (!want || !*want || !strcmp(want, b->name)))
			chosen = b;
		if (reports && n && *n < max) {
			reports[*n].name = b->name;
			reports[*n].usable = ok;
			snprintf(reports[*n].reason, sizeof(reports[*n].reason), "%s", reason);
			(*n)++;
		}
	}
	/* affinity always probes usable, so only a bad override gets here */
	if (!chosen) {
		warning("STARVE_CPUSET_BACKEND=%s is not a usable backend; using affinity", want);
		chosen = &confine_affinity;
	}
	confine_chosen = chosen;
	return chosen->name;
}

static void confine_choose(void)
{
	size_t n;

	if (!confine_chosen)
		confine_probe(NULL, 0, &n);
}

bool confine_controller_needed(char *dir, size_t len, const char **controller)
{
	confine_choose();
	return confine_chosen->controller && confine_chosen->controller(dir, len, controller);
}

int confine_create(struct confine_handle *h, const char *name, const cpu_set_t *cpus)
{
	confine_choose();
	memset(h, 0, sizeof(*h));
	h->backend = confine_chosen;
	h->cpus = *cpus;
	if (CPU_COUNT(cpus) == 0)
		return error("cpuset '%s' would have no CPUs", name);
	return h->backend->create(h, name, cpus);
}

int confine_attach(struct confine_handle *h, pid_t pid)
{
	if (!h->backend)
		return error("confine_attach: cpuset was not created");
	return h->backend->attach(h, pid);
}

int confine_destroy(struct confine_handle *h)
{
	int ret;

	if (!h->backend)
		return 0;
	ret = h->backend->destroy(h);
	if (ret == 0)
		h->backend = NULL;
	return ret;
}

const char *confine_backend_name(const struct confine_handle *h)
{
	return h->backend ? h->backend->name : "none";
}

/* ---- helpers for the cgroup-style backends ---- */

bool confine_file_exists(const char *dir, const char *file)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return access(path, F_OK) == 0;
}

/* Open DIR/FILE, PATH receiving its name for messages; -1 with an error. */
static int confine_open(const char *dir, const char *file, int flags, char *path, size_t len)
{
	int fd;

	snprintf(path, len, "%s/%s", dir, file);
	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0)
		return error_errno("cannot open %s%s", path, flags == O_RDONLY ? "" : " for writing");
	return fd;
}

int confine_read_file(const char *dir, const char *file, char *buf, size_t len)
{
	char path[512];
	ssize_t r;
	int fd = confine_open(dir, file, O_RDONLY, path, sizeof(path));

	if (fd < 0)
		return -1;
	r = read(fd, buf, len - 1);
	close(fd);
	if (r < 0)
		return error_errno("cannot read %s", path);
	while (r > 0 && buf[r - 1] == '\n')
		r--;
	buf[r] = '\0';
	return 0;
}

int confine_write_file_quietly(const char *dir, const char *file, const char *value)
{
	return kfile_write_at(dir, file, value);
}

int confine_write_failed(const char *dir, const char *file, const char *value, int err)
{
	return error("cannot write '%s' to %s/%s: %s", value, dir, file,
		     err == EIO ? "short write" : strerror(err));
}

int confine_write_file(const char *dir, const char *file, const char *value)
{
	int err = confine_write_file_quietly(dir, file, value);

	return err ? confine_write_failed(dir, file, value, err) : 0;
}

static bool confine_has_option(const char *opts, const char *option)
{
	size_t n = strlen(option);

	for (const char *p = opts; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, option, n) && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

bool confine_find_mount(const char *type, const char *option, char *dir, size_t len)
{
	struct mntent ent, *m;
	char strings[1024];
	bool found = false;
	FILE *f = setmntent("/proc/self/mounts", "r");

	if (!f)
		return false;
	while (!found && (m = getmntent_r(f, &ent, strings, sizeof(strings))))
		if (!strcmp(m->mnt_type, type) && (!option || confine_has_option(m->mnt_opts, option)))
			found = snprintf(dir, len, "%s", m->mnt_dir) < (int)len;
	endmntent(f);
	return found;
}

int confine_make_dir(struct confine_handle *h, const char *root, const char *name)
{
	int n;

	if (!*name || strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			  "0123456789_.-") != strlen(name) || name[0] == '.')
		return error("bad cpuset name '%s' (use [A-Za-z0-9_.-], not starting with '.')",
			     name);
	if (!strncmp(name, "starve-", 7))
		n = snprintf(h->path, sizeof(h->path), "%s/%s", root, name);
	else
		n = snprintf(h->path, sizeof(h->path), "%s/starve-%d-%s", root, (int)getpid(), name);
	if (n < 0 || (size_t)n >= sizeof(h->path))
		return error("cpuset path for '%s' under %s is too long", name, root);
	if (mkdir(h->path, 0755) < 0) {
		if (errno == EEXIST)
			return error("cpuset %s already exists (left by a crashed run? rmdir it)",
				     h->path);
		return error_errno("cannot create cpuset %s", h->path);
	}
	return 0;
}

struct confine_move {
	int fd;			/* PARENT/PROCS_FILE */
	const char *dir;
};

static void confine_move_one(pid_t pid, void *arg)
{
	const struct confine_move *m = arg;
	char text[24];
	int err;

	snprintf(text, sizeof(text), "%d", (int)pid);
	err = kfile_write_fd(m->fd, text, strlen(text));
	if (err && err != ESRCH)
		warning("cannot move task %s out of %s: %s", text, m->dir, strerror(err));
}

/* Write each pid listed in DIR/PROCS_FILE to PARENT/PROCS_FILE; tasks that
 * exit meanwhile (ESRCH) are fine. */
static void confine_move_out(const char *dir, const char *parent, const char *procs_file)
{
	char path[512];
	struct confine_move m = { .dir = dir };
	int from;

	snprintf(path, sizeof(path), "%s/%s", dir, procs_file);
	from = open(path, O_RDONLY | O_CLOEXEC);
	if (from < 0)
		return;
	m.fd = kfile_open_at(parent, procs_file);
	if (m.fd >= 0) {
		pidlist_each(from, confine_move_one, &m);
		close(m.fd);
	}
	close(from);
}

int confine_remove_dir(struct confine_handle *h, const char *procs_file)
{
	struct timespec pause = { 0, 10 * 1000 * 1000 };
	char parent[256];

	if (!h->path[0])
		return 0;
	snprintf(parent, sizeof(parent), "%s", h->path);
	dirname(parent);
	/* Exiting tasks keep a cgroup busy for a moment after they vanish
	 * from its procs file: retry for up to a second. */
	for (int tries = 0; tries < 100; tries++) {
		confine_move_out(h->path, parent, procs_file);
		if (rmdir(h->path) == 0 || errno == ENOENT) {
			h->path[0] = '\0';
			return 0;
		}
		if (errno != EBUSY)
			break;
		nanosleep(&pause, NULL);
	}
	return error_errno("cannot remove cpuset %s", h->path);
}

int confine_each_thread(pid_t pid, int (*fn)(pid_t tid, void *arg), void *arg)
{
	char dir[64];
	struct dirent *d;
	int ret = 0, n = 0;
	DIR *tasks;

	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	tasks = opendir(dir);
	if (!tasks)
		return error("process %d has exited", (int)pid);
	while ((d = readdir(tasks))) {
		pid_t tid = (pid_t)atoi(d->d_name);

		if (tid <= 0)
			continue;
		errno = 0;
		if (fn(tid, arg) == 0)
			n++;
		else if (errno != ESRCH)
			ret = -1;
	}
	closedir(tasks);
	if (ret == 0 && n == 0)
		return error("process %d has exited", (int)pid);
	return ret;
}

const char *confine_procs_file(const char *dir)
{
	return confine_file_exists(dir, "cgroup.procs") ? "cgroup.procs" : "tasks";
}

/* ---- sweeping the cpusets of dead runs ---- */

/* The pid in a "starve-<pid>-..." name, or 0 for any other name. */
static pid_t confine_name_pid(const char *name)
{
	int pid = 0, end = 0;

	if (sscanf(name, "starve-%d-%n", &pid, &end) != 1 || end == 0 || pid <= 0)
		return 0;
	return (pid_t)pid;
}

static bool confine_pid_dead(pid_t pid)
{
	return kill(pid, 0) < 0 && errno == ESRCH;
}

/* One backend's root: remove what matches; -1 when a removal failed. */
static int confine_sweep_root(const char *root, pid_t owner, unsigned flags, int *removed)
{
	struct confine_handle h;
	struct dirent *d;
	int ret = 0;
	DIR *dir = opendir(root);

	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		pid_t pid = confine_name_pid(d->d_name);

		if (!pid || d->d_type != DT_DIR || (owner > 0 ? pid != owner : !confine_pid_dead(pid)))
			continue;
		memset(&h, 0, sizeof(h));
		if (snprintf(h.path, sizeof(h.path), "%s/%s", root, d->d_name) >= (int)sizeof(h.path))
			continue;
		if (!(flags & CONFINE_SWEEP_DRY_RUN) &&
		    confine_remove_dir(&h, confine_procs_file(h.path)) < 0) {
			ret = -1;
			continue;
		}
		(*removed)++;
		if (flags & CONFINE_SWEEP_VERBOSE)	/* h.path is cleared once removed */
			printf("%s cpuset %s/%s, left by pid %d\n",
			       flags & CONFINE_SWEEP_DRY_RUN ? "would remove" : "removed", root,
			       d->d_name, (int)pid);
	}
	closedir(dir);
	return ret;
}

int confine_sweep(pid_t owner, unsigned flags)
{
	char root[256];
	int removed = 0, ret = 0;

	for (size_t i = 0; i < CONFINE_NR_BACKENDS; i++) {
		const struct confine_backend *b = confine_backends[i];

		if (b->root && b->root(root, sizeof(root)) &&
		    confine_sweep_root(root, owner, flags, &removed) < 0)
			ret = -1;
	}
	return ret < 0 ? -1 : removed;
}
