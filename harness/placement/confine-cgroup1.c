/* Cpuset backend "cgroup-v1": a cpuset cgroup v1 hierarchy, found in
 * /proc/self/mounts, whose files may or may not carry the "cpuset." prefix
 * (the "noprefix" mount option, and legacy cpuset fs mounts, drop it).
 * A cpuset is a directory under the hierarchy's root with mems copied from
 * the root (a cpuset without mems accepts no tasks) and the run's cpus. */
#include "config.h"
#include "harness/placement/confine-backend.h"
#include "harness/placement/topology.h"
#include "lib/error.h"

#include <stdio.h>
#include <unistd.h>

struct cg1_mount {
	char root[256];
	const char *prefix;	/* "cpuset." or "" */
};

static bool cg1_find(struct cg1_mount *m, char *reason, size_t len)
{
	if (!confine_find_mount("cgroup", "cpuset", m->root, sizeof(m->root)) &&
	    !confine_find_mount("cpuset", NULL, m->root, sizeof(m->root))) {
		snprintf(reason, len, "no cgroup v1 cpuset hierarchy in /proc/self/mounts");
		return false;
	}
	if (confine_file_exists(m->root, "cpuset.cpus"))
		m->prefix = "cpuset.";
	else if (confine_file_exists(m->root, "cpus"))
		m->prefix = "";
	else {
		snprintf(reason, len, "%s has neither cpuset.cpus nor cpus", m->root);
		return false;
	}
	return true;
}

static bool cg1_probe(char *reason, size_t len)
{
	struct cg1_mount m;

	if (!cg1_find(&m, reason, len))
		return false;
	if (access(m.root, W_OK) < 0) {
		snprintf(reason, len, "cpuset hierarchy at %s is not writable (needs root)", m.root);
		return false;
	}
	snprintf(reason, len, "cpuset hierarchy at %s (%s files)", m.root,
		 *m.prefix ? "\"cpuset.\"-prefixed" : "unprefixed");
	return true;
}

static int cg1_fill(struct confine_handle *h, const struct cg1_mount *m, const cpu_set_t *cpus)
{
	char file[32], mems[256], list[512];

	snprintf(file, sizeof(file), "%smems", m->prefix);
	if (confine_read_file(m->root, file, mems, sizeof(mems)) < 0 ||
	    confine_write_file(h->path, file, mems) < 0)
		return -1;
	snprintf(file, sizeof(file), "%scpus", m->prefix);
	return confine_write_file(h->path, file, cpuset_format(cpus, list, sizeof(list)));
}

static int cg1_create(struct confine_handle *h, const char *name, const cpu_set_t *cpus)
{
	struct cg1_mount m;
	char reason[160];

	if (!cg1_find(&m, reason, sizeof(reason)))
		return error("cannot create cpuset '%s': %s", name, reason);
	if (confine_make_dir(h, m.root, name) < 0)
		return -1;
	if (cg1_fill(h, &m, cpus) < 0) {
		confine_remove_dir(h, "tasks");
		return -1;
	}
	return 0;
}

static int cg1_write_task(pid_t tid, void *arg)
{
	const struct confine_handle *h = arg;
	char value[24];

	snprintf(value, sizeof(value), "%d", (int)tid);
	return confine_write_file(h->path, "tasks", value);
}

static int cg1_attach(struct confine_handle *h, pid_t pid)
{
	char value[24];

	if (!confine_file_exists(h->path, "cgroup.procs"))
		return confine_each_thread(pid, cg1_write_task, h);
	snprintf(value, sizeof(value), "%d", (int)pid);
	return confine_write_file(h->path, "cgroup.procs", value);
}

static int cg1_destroy(struct confine_handle *h)
{
	return confine_remove_dir(h, confine_procs_file(h->path));
}

static bool cg1_root(char *dir, size_t len)
{
	struct cg1_mount m;
	char reason[160];

	if (!cg1_find(&m, reason, sizeof(reason)))
		return false;
	return snprintf(dir, len, "%s", m.root) < (int)len;
}

const struct confine_backend confine_cgroup1 = {
	"cgroup-v1", cg1_probe, cg1_create, cg1_attach, cg1_destroy, cg1_root, NULL,
};
