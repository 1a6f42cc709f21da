/* A cgroup controller a run turns on in a hierarchy's root (the cpu
 * controller for a setting's cgroups, cpuset for cgroup-v2 cpusets): the
 * journal records it before the write, and it is turned off and forgotten
 * once the run's cgroups are gone; after a crash, restoring turns it off. */
#ifndef STARVE_CONTROLLERS_H
#define STARVE_CONTROLLERS_H

#include <stdbool.h>

#include "harness/kernel/journal.h"

struct run_controller {
	char dir[256];
	const char *name;	/* NULL while none is on by our doing */
};

/* Journal NAME in DIR's subtree, then turn it on; -1 with a message, and
 * nothing left on or journaled. */
int controller_enable(struct journal *j, struct run_controller *rc, const char *dir,
		      const char *name);
/* Turn RC's controller off and forget it (nothing when none is on); -1
 * with a message, the journal keeping it for `starve restore`. */
int controller_release(struct journal *j, struct run_controller *rc);

#endif
