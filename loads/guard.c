/* The guard of a load (load.h): what ends it when the controller or the
 * watchdog is gone, whichever goes first. The leader's death signal
 * (spawn.c) fires only once the controller has finished exiting, which a
 * controller killed in the middle of an fsync on a busy disk took 936 ms to
 * do (issue 33), with its watchdog killed too: so a thread of the leader
 * waits on pidfds of both and ends the load as soon as either is readable.
 * For a real-time load three layers, because any one alone can be starved:
 *   - the leader waits at SCHED_FIFO 99, above its own workers (a load
 *     may take at most LOAD_RT_PRIORITY_MAX, 98), so its guard thread and
 *     its death signal's handler run at once even while a worker spins at
 *     its FIFO priority on the leader's CPU; every task that runs the
 *     load's code drops to the load's own policy first (load_guard_lower),
 *     so the figures are the load's;
 *   - each worker looks at the same pidfds every few ms from its stop
 *     check and stops once either is readable: a leader that may not raise
 *     itself (RLIMIT_RTPRIO below 99) still ends within milliseconds. */
#include "config.h"
#include "loads/load.h"
#include "lib/error.h"
#include "lib/timeutil.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define GUARD_CHECK_NS (5 * NSEC_PER_MSEC)	/* a dead guardian is seen this fast */
#define GUARD_STACK (64 * 1024)			/* it only waits */

enum { GUARD_CONTROLLER, GUARD_WATCHDOG, GUARD_N };

static int guard_policy = -1;		/* the load's own, once the leader was raised */
static struct sched_param guard_param;
static int guard_pidfd[GUARD_N] = { -1, -1 };	/* -1: not watched */
static bool guard_workers_look;		/* the workers poll the pidfds too */
static atomic_bool guard_gone;		/* a guardian died: every worker stops */
static void (*guard_end)(void);		/* ends the whole load (spawn.c) */
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

/* 1 when a watched guardian has exited (a readable pidfd: zombie or gone),
 * 0 when none has within TIMEOUT_MS (-1: for ever), -1 on an error. */
static int guard_poll(int timeout_ms)
{
	struct pollfd p[GUARD_N];
	int n;

	for (int i = 0; i < GUARD_N; i++)
		p[i] = (struct pollfd){ .fd = guard_pidfd[i], .events = POLLIN };
	while ((n = poll(p, GUARD_N, timeout_ms)) < 0)
		if (errno != EINTR)
			return -1;
	return n > 0;
}

static void *guard_thread(void *unused)
{
	int gone = 0;

	(void)unused;
	while (!atomic_load(&guard_gone) && (gone = guard_poll(-1)) == 0)
		;
	if (gone < 0)
		return NULL;	/* the death signal is left */
	atomic_store(&guard_gone, true);
	guard_end();
	return NULL;
}

/* A pidfd of PID, or -1 with guard_gone set when it is gone already. */
static int guard_open(pid_t pid)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);

	if (fd < 0 && errno == ESRCH)
		atomic_store(&guard_gone, true);
	return fd;
}

int load_guard_watch(pid_t controller, pid_t watchdog, bool workers_look, void (*end)(void))
{
	pthread_attr_t attr;
	pthread_t tid;
	int err;

	guard_end = end;
	guard_workers_look = workers_look;
	guard_pidfd[GUARD_CONTROLLER] = guard_open(controller);
	if (watchdog > 0)
		guard_pidfd[GUARD_WATCHDOG] = guard_open(watchdog);
	/* a watchdog pid is ours only while the controller lives to reap it:
	 * one whose parent changed may be someone else's by now */
	if (getppid() != controller)
		atomic_store(&guard_gone, true);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, GUARD_STACK);
	err = pthread_create(&tid, &attr, guard_thread, NULL);	/* at the leader's policy */
	pthread_attr_destroy(&attr);
	if (err)
		return error("cannot start the load's guard thread: %s", strerror(err));
	pthread_detach(tid);
	return 0;
}

bool load_guard_gone(int64_t now)
{
	if (atomic_load_explicit(&guard_gone, memory_order_relaxed))
		return true;
	if (!guard_workers_look || now < guard_next_check)
		return false;
	guard_next_check = now + GUARD_CHECK_NS;
	if (guard_poll(0) <= 0)
		return false;
	atomic_store(&guard_gone, true);
	return true;
}
