/* Cpuset backend "affinity": plain sched_setaffinity() on every thread of
 * the process. Always available, but weaker than a cpuset: the task may
 * widen its own mask again, and nothing stops other tasks joining its CPUs. */
#include "config.h"
#include "harness/placement/confine-backend.h"
#include "lib/error.h"

#include <errno.h>
#include <stdio.h>

static bool aff_probe(char *reason, size_t len)
{
	snprintf(reason, len, "sched_setaffinity on each thread (always available)");
	return true;
}

static int aff_create(struct confine_handle *h, const char *name, const cpu_set_t *cpus)
{
	(void)name;
	h->cpus = *cpus;
	return 0;
}

static int aff_set(pid_t tid, void *arg)
{
	const struct confine_handle *h = arg;

	if (sched_setaffinity(tid, sizeof(h->cpus), &h->cpus) == 0)
		return 0;
	if (errno != ESRCH)
		error_errno("cannot set the CPU affinity of thread %d", (int)tid);
	return -1;
}

/* Every thread, so a load's worker threads started before attach move too;
 * threads started later inherit the mask. */
static int aff_attach(struct confine_handle *h, pid_t pid)
{
	return confine_each_thread(pid, aff_set, h);
}

static int aff_destroy(struct confine_handle *h)
{
	(void)h;
	return 0;
}

const struct confine_backend confine_affinity = {
	"affinity", aff_probe, aff_create, aff_attach, aff_destroy, NULL, NULL,
};
