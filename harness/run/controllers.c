/* Controllers a run turns on, journaled (controllers.h). */
#include "config.h"
#include "harness/placement/subtree-control.h"
#include "harness/run/controllers.h"
#include "lib/error.h"

#include <stdio.h>

int controller_enable(struct journal *j, struct run_controller *rc, const char *dir,
		      const char *name)
{
	if (snprintf(rc->dir, sizeof(rc->dir), "%s", dir) >= (int)sizeof(rc->dir))
		return error("cgroup directory %s: too long", dir);
	if (journal_record_controller(j, dir, name) < 0)
		return error("controller %s in %s: cannot journal it before turning it on", name, dir);
	if (subtree_control_set(dir, name, true) < 0) {
		journal_forget(j, JOURNAL_CONTROLLER, name);
		return -1;
	}
	rc->name = name;
	return 0;
}

int controller_release(struct journal *j, struct run_controller *rc)
{
	if (!rc->name)
		return 0;
	if (subtree_control_set(rc->dir, rc->name, false) < 0)
		return -1;
	journal_forget(j, JOURNAL_CONTROLLER, rc->name);
	rc->name = NULL;
	return 0;
}
