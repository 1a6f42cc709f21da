/* The guard of a real-time load (load.h): what ends it when the controller
 * and the watchdog both died. Two layers, because either alone can be
 * starved:
 *   - the leader waits at SCHED_FIFO 99, above its own workers (a load
 *     may take at most LOAD_RT_PRIORITY_MAX, 98), so its
 *     death signal's handler (spawn.c: kill the whole tree) runs at once
 *     even while a worker spins at its FIFO priority on the leader's CPU;
 *     every task that runs the load's code drops to the load's own policy
 *     first (load_guard_lower), so the figures are the load's;
 *   - each worker looks at a pidfd of the controller every few ms from its
 *     stop check and stops once the controller is gone: a leader that may not
 *     raise itself (RLIMIT_RTPRIO below 99) still ends within milliseconds. */
#include "config.h"
#include "loads/load.h"
#include "lib/timeutil.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>

#define GUARD_CHECK_NS (5 * NSEC_PER_MSEC)	/* a dead controller is seen this fast */

static int guard_policy = -1;		/* the load's own, once the leader was raised */
static struct sched_param guard_param;
static int guard_pidfd = -1;		/* the controller's; -1: not watching */
static atomic_bool guard_gone;		/* the controller died: every worker stops */
static _Thread_local int64_t guard_next_check;

int load_guard_raise(int policy, int priority)
{
	struct sched_param top = { .sched_priority = sched_get_priority_max(SCHED_FIFO) };

	if (priority >= top.sched_priority || sched_setscheduler(0, SCHED_FIFO, &top) < 0)
		return -1;
	guard_policy = policy;
	guard_param.sched_priority = priority;
	return 0;
}

int load_guard_lower(void)
{
	if (guard_policy < 0)
		return 0;
	return sched_setscheduler(0, guard_policy, &guard_param);
}

void load_guard_watch(pid_t controller)
{
	guard_pidfd = (int)syscall(SYS_pidfd_open, controller, 0);
	/* gone already (or reaped and its pid reused: the parent changed) */
	if ((guard_pidfd < 0 && errno == ESRCH) || getppid() != controller)
		atomic_store(&guard_gone, true);
}

bool load_guard_controller_gone(int64_t now)
{
	struct pollfd p = { .fd = guard_pidfd, .events = POLLIN };

	if (atomic_load_explicit(&guard_gone, memory_order_relaxed))
		return true;
	if (guard_pidfd < 0 || now < guard_next_check)
		return false;
	guard_next_check = now + GUARD_CHECK_NS;
	/* readable once the controller exited, zombie or not */
	if (poll(&p, 1, 0) <= 0)
		return false;
	atomic_store(&guard_gone, true);
	return true;
}
