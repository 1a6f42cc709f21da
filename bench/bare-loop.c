/* The baseline of bench/victim-overhead.sh: the cheapest loop that still
 * reads CLOCK_MONOTONIC every iteration (what cpu-victim must do to see its
 * gaps). Prints iterations per second of this thread's CPU time, so other
 * tasks sharing the CPU do not change the figure.
 * Usage: bare-loop SECONDS */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 3.0;
	int64_t end = now_ns(CLOCK_MONOTONIC) + (int64_t)(secs * 1e9);
	int64_t cpu0 = now_ns(CLOCK_THREAD_CPUTIME_ID), cpu;
	volatile int64_t sink = 0;	/* keeps each clock read alive */
	uint64_t n = 0;

	for (;;) {
		int64_t t = now_ns(CLOCK_MONOTONIC);

		sink = t;
		/* the deadline check is batched, as cpu-victim batches its own */
		if ((++n & 1023) == 0 && t >= end)
			break;
	}
	(void)sink;
	cpu = now_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	printf("%.0f\n", (double)n / ((double)cpu / 1e9));
	return 0;
}
