/* Cpuset backend "cgroup-v2": a child of the cgroup2 root with the cpuset
 * controller, which needs "cpuset" in the root's cgroup.controllers (it is
 * absent while a v1 hierarchy holds the controller). The root is used as
 * parent because it is exempt from the no-internal-processes rule. */
#include "config.h"
#include "harness/placement/confine-backend.h"
#include "harness/placement/topology.h"
#include "lib/error.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CG2_ENABLED_CPUSET 1u

static bool cg2_has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(list, word); p; p = strstr(p + 1, word))
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

static bool cg2_find(char *root, size_t rlen, char *reason, size_t len)
{
	char controllers[512];

	if (!confine_find_mount("cgroup2", NULL, root, rlen)) {
		snprintf(reason, len, "no cgroup2 mount in /proc/self/mounts");
		return false;
	}
	if (confine_file_exists(root, "cgroup.controllers") &&
	    confine_read_file(root, "cgroup.controllers", controllers, sizeof(controllers)) == 0 &&
	    cg2_has_word(controllers, "cpuset"))
		return true;
	snprintf(reason, len, "cpuset is not in %.200s/cgroup.controllers "
		 "(a cgroup v1 hierarchy holds it)", root);
	return false;
}

static bool cg2_probe(char *reason, size_t len)
{
	char root[256];

	if (!cg2_find(root, sizeof(root), reason, len))
		return false;
	if (access(root, W_OK) < 0) {
		snprintf(reason, len, "cgroup2 root %s is not writable (needs root)", root);
		return false;
	}
	snprintf(reason, len, "cpuset controller available in cgroup2 at %s", root);
	return true;
}

static int cg2_create(struct confine_handle *h, const char *name, const cpu_set_t *cpus)
{
	char root[256], reason[160], subtree[512], list[512];

	if (!cg2_find(root, sizeof(root), reason, sizeof(reason)))
		return error("cannot create cpuset '%s': %s", name, reason);
	if (confine_read_file(root, "cgroup.subtree_control", subtree, sizeof(subtree)) < 0)
		return -1;
	if (!cg2_has_word(subtree, "cpuset")) {
		if (confine_write_file(root, "cgroup.subtree_control", "+cpuset") < 0)
			return -1;
		h->backend_flags |= CG2_ENABLED_CPUSET;
	}
	if (confine_make_dir(h, root, name) < 0 ||
	    confine_write_file(h->path, "cpuset.cpus", cpuset_format(cpus, list, sizeof(list))) < 0) {
		h->backend->destroy(h);
		return -1;
	}
	return 0;
}

static int cg2_attach(struct confine_handle *h, pid_t pid)
{
	char value[24];

	snprintf(value, sizeof(value), "%d", (int)pid);
	return confine_write_file(h->path, "cgroup.procs", value);
}

/* Undo "+cpuset" only if this run enabled it, so a machine set up with the
 * controller keeps it. */
static int cg2_destroy(struct confine_handle *h)
{
	char root[256], reason[160];
	int ret = confine_remove_dir(h, "cgroup.procs");

	if ((h->backend_flags & CG2_ENABLED_CPUSET) && cg2_find(root, sizeof(root), reason,
								sizeof(reason))) {
		if (confine_write_file(root, "cgroup.subtree_control", "-cpuset") == 0)
			h->backend_flags &= ~CG2_ENABLED_CPUSET;
	}
	return ret;
}

/* A sweep cannot tell whether the dead run enabled "+cpuset": it stays. */
static bool cg2_root(char *dir, size_t len)
{
	char reason[160];

	return cg2_find(dir, len, reason, sizeof(reason));
}

const struct confine_backend confine_cgroup2 = {
	"cgroup-v2", cg2_probe, cg2_create, cg2_attach, cg2_destroy, cg2_root,
};
