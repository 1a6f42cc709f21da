/* Processes a load left behind. A command that leaves its process group
 * (setsid, a daemon's double fork) is missed when the load's group is
 * killed; because the controller is a child subreaper (spawn.h), it becomes
 * the controller's child once its parent dies. So once every load is
 * stopped, each child of the controller but the watchdog is such a stray,
 * and is ended by PID: an unreaped child's PID cannot have been reused. */
#ifndef STARVE_STRAYS_H
#define STARVE_STRAYS_H

#include <sys/types.h>

/* SIGKILL and reap every child of this process except SPARE (0: none),
 * again for the children those leave to us, for at most a second; warns
 * when it ended any (the user's command daemonized). Returns how many, or
 * -1 (with an error printed) when some were still alive at the timeout. */
int strays_end(pid_t spare);

#endif
