/* Cpuset backend "libcpuset": SGI's libcpuset on a legacy, unprefixed
 * cpuset mount at /dev/cpuset. Probing looks at files only: libcpuset's own
 * calls (cpuset_size() and friends) crash on cgroup v1 hierarchies whose
 * files carry the "cpuset." prefix, so no library call is made until the
 * probe has seen /dev/cpuset/cpus. Built only with libcpuset (configure). */
#include "config.h"
#include "harness/placement/confine-backend.h"
#include "lib/error.h"

#include <stdio.h>
#include <unistd.h>

#define LCS_ROOT "/dev/cpuset"

static bool lcs_probe(char *reason, size_t len)
{
#ifndef HAVE_LIBCPUSET
	snprintf(reason, len, "starve was built without libcpuset");
	return false;
#else
	if (!confine_file_exists(LCS_ROOT, "cpus")) {
		snprintf(reason, len, "no legacy cpuset mount at " LCS_ROOT "%s",
			 confine_file_exists(LCS_ROOT, "cpuset.cpus") ? " (its files are prefixed)" : "");
		return false;
	}
	if (access(LCS_ROOT, W_OK) < 0) {
		snprintf(reason, len, LCS_ROOT " is not writable (needs root)");
		return false;
	}
	snprintf(reason, len, "legacy cpuset mount at " LCS_ROOT);
	return true;
#endif
}

#ifdef HAVE_LIBCPUSET
#include <bitmask.h>
#include <cpuset.h>

#include <string.h>

/* The cpuset's path as libcpuset wants it: relative to its mount point. */
static const char *lcs_rel(const struct confine_handle *h)
{
	return h->path + strlen(LCS_ROOT);
}

/* Mems from the root cpuset, so tasks may be attached; cpus from the run. */
static int lcs_fill(struct confine_handle *h, const cpu_set_t *cpus)
{
	struct cpuset *cp = cpuset_alloc(), *root = cpuset_alloc();
	struct bitmask *cb = bitmask_alloc((unsigned)cpuset_cpus_nbits());
	struct bitmask *mb = bitmask_alloc((unsigned)cpuset_mems_nbits());
	int ret = -1;

	if (!cp || !root || !cb || !mb)
		error("libcpuset: out of memory");
	else if (cpuset_query(root, "/") < 0 || cpuset_getmems(root, mb) < 0)
		error_errno("libcpuset cannot read the mems of " LCS_ROOT);
	else {
		for (unsigned i = 0; i < bitmask_nbits(cb) && i < CPU_SETSIZE; i++)
			if (CPU_ISSET(i, cpus))
				bitmask_setbit(cb, i);
		if (cpuset_setcpus(cp, cb) < 0 || cpuset_setmems(cp, mb) < 0 ||
		    cpuset_modify(lcs_rel(h), cp) < 0)
			error_errno("libcpuset cannot set up cpuset %s", h->path);
		else
			ret = 0;
	}
	if (cb)
		bitmask_free(cb);
	if (mb)
		bitmask_free(mb);
	cpuset_free(root);
	cpuset_free(cp);
	return ret;
}

static int lcs_create(struct confine_handle *h, const char *name, const cpu_set_t *cpus)
{
	if (confine_make_dir(h, LCS_ROOT, name) < 0)
		return -1;
	if (lcs_fill(h, cpus) < 0) {
		confine_remove_dir(h, "tasks");
		return -1;
	}
	return 0;
}

static int lcs_move(pid_t tid, void *arg)
{
	return cpuset_move(tid, lcs_rel(arg));
}

static int lcs_attach(struct confine_handle *h, pid_t pid)
{
	if (confine_each_thread(pid, lcs_move, h) < 0)
		return error("libcpuset cannot move process %d into %s", (int)pid, h->path);
	return 0;
}

static int lcs_destroy(struct confine_handle *h)
{
	return confine_remove_dir(h, "tasks");
}
#else
static int lcs_create(struct confine_handle *h, const char *name, const cpu_set_t *cpus)
{
	(void)h, (void)cpus;
	return error("cannot create cpuset '%s': starve was built without libcpuset", name);
}

static int lcs_attach(struct confine_handle *h, pid_t pid)
{
	(void)h, (void)pid;
	return -1;
}

static int lcs_destroy(struct confine_handle *h)
{
	(void)h;
	return 0;
}
#endif

static bool lcs_root(char *dir, size_t len)
{
	if (!confine_file_exists(LCS_ROOT, "cpus"))
		return false;
	return snprintf(dir, len, LCS_ROOT) < (int)len;
}

const struct confine_backend confine_libcpuset = {
	"libcpuset", lcs_probe, lcs_create, lcs_attach, lcs_destroy, lcs_root, NULL,
};
