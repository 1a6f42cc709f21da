/* Private to the cpuset backends (harness/confine*.c): the ops every backend
 * implements, and file helpers shared by the cgroup-style ones. */
#ifndef STARVE_CONFINE_BACKEND_H
#define STARVE_CONFINE_BACKEND_H

#include "harness/placement/confine.h"

struct confine_backend {
	const char *name;
	/* Usable here? Fill REASON either way ("cpuset mounted at ..."); must
	 * not change anything on the machine. */
	bool (*probe)(char *reason, size_t len);
	int (*create)(struct confine_handle *h, const char *name, const cpu_set_t *cpus);
	int (*attach)(struct confine_handle *h, pid_t pid);
	int (*destroy)(struct confine_handle *h);
	/* The directory its cpusets are made in, for sweeping the ones a dead
	 * run left; NULL for a backend that makes none. */
	bool (*root)(char *dir, size_t len);
	/* A controller its cpusets need that is off now, and the directory
	 * whose subtree_control turns it on; NULL (or false) when none. */
	bool (*controller)(char *dir, size_t len, const char **controller);
};

extern const struct confine_backend confine_libcpuset, confine_cgroup1, confine_cgroup2,
	confine_affinity;

/* Shared by the cgroup backends (confine.c). Paths are DIR "/" FILE. */
bool confine_file_exists(const char *dir, const char *file);
int confine_read_file(const char *dir, const char *file, char *buf, size_t len);
int confine_write_file(const char *dir, const char *file, const char *value);
/* The same without a message: 0, or the errno (EIO: a short write)... */
int confine_write_file_quietly(const char *dir, const char *file, const char *value);
/* ...and its message for ERR: -1. */
int confine_write_failed(const char *dir, const char *file, const char *value, int err);
/* The mount point of the first /proc/self/mounts entry of filesystem TYPE
 * whose options include OPTION (or any options when OPTION is NULL). */
bool confine_find_mount(const char *type, const char *option, char *dir, size_t len);
/* Make DIR/<name> ("starve-<pid>-" is prepended unless NAME starts with
 * "starve-") and record it in h->path. */
int confine_make_dir(struct confine_handle *h, const char *root, const char *name);
/* "cgroup.procs" in DIR when it has one (moves whole processes), else
 * "tasks" (legacy cpuset mounts). */
const char *confine_procs_file(const char *dir);
/* Move every process in h->path to its parent with PROCS_FILE, then rmdir
 * it, retrying while exiting tasks still hold it. */
int confine_remove_dir(struct confine_handle *h, const char *procs_file);
/* Call FN for every thread of process PID; threads that exit meanwhile
 * (ESRCH) are skipped. -1 if FN failed otherwise or no thread was found. */
int confine_each_thread(pid_t pid, int (*fn)(pid_t tid, void *arg), void *arg);

#endif
