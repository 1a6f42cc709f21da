/* The harness's own precedence over its loads (run-nice.h). */
#include "config.h"
#include "harness/run/run-nice.h"

#include <errno.h>
#include <sys/resource.h>

int run_nice_raise(void)
{
	int before;

	errno = 0;
	before = getpriority(PRIO_PROCESS, 0);
	if (errno || before <= RUN_NICE || setpriority(PRIO_PROCESS, 0, RUN_NICE) < 0)
		return RUN_NICE_UNCHANGED;
	return before;
}

void run_nice_restore(int before)
{
	if (before != RUN_NICE_UNCHANGED)
		setpriority(PRIO_PROCESS, 0, before);
}
