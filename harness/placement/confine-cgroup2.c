/* Cpuset backend "cgroup-v2": a child of the cgroup2 root with the cpuset
 * controller, which needs "cpuset" in the root's cgroup.controllers (it is
 * absent while a v1 hierarchy holds the controller). The root is used as
 * parent because it is exempt from the no-internal-processes rule. */
#include "config.h"
#include "harness/placement/confine-backend.h"
#include "harness/placement/subtree-control.h"
#include "harness/placement/topology.h"
#include "lib/error.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static bool cg2_find(char *root, size_t rlen, char *reason, size_t len)
{
	char controllers[512];

	if (!confine_find_mount("cgroup2", NULL, root, rlen)) {
		snprintf(reason, len, "no cgroup2 mount in /proc/self/mounts");
		return false;
	}
	if (confine_file_exists(root, "cgroup.controllers") &&
	    confine_read_file(root, "cgroup.controllers", controllers, sizeof(controllers)) == 0 &&
	    subtree_word_in(controllers, "cpuset"))
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

/* "cpuset" on in the root's subtree_control is the engine's doing, journaled
 * first (confine_controller_needed). */
static int cg2_create(struct confine_handle *h, const char *name, const cpu_set_t *cpus)
{
	char root[256], reason[160], list[512];

	if (!cg2_find(root, sizeof(root), reason, sizeof(reason)))
		return error("cannot create cpuset '%s': %s", name, reason);
	if (!subtree_control_has(root, "cpuset"))
		return error("cannot create cpuset '%s': 'cpuset' is off in %s/cgroup.subtree_control",
			     name, root);
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

static int cg2_destroy(struct confine_handle *h)
{
	return confine_remove_dir(h, "cgroup.procs");
}

/* The controller its cpusets need on in the root's subtree. */
static bool cg2_controller(char *dir, size_t len, const char **controller)
{
	char reason[160];

	if (!cg2_find(dir, len, reason, sizeof(reason)) || subtree_control_has(dir, "cpuset"))
		return false;
	*controller = "cpuset";
	return true;
}

static bool cg2_root(char *dir, size_t len)
{
	char reason[160];

	return cg2_find(dir, len, reason, sizeof(reason));
}

const struct confine_backend confine_cgroup2 = {
	"cgroup-v2", cg2_probe, cg2_create, cg2_attach, cg2_destroy, cg2_root, cg2_controller,
};
