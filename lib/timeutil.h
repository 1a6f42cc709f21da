/* Clock helpers: everything in the harness and the loads counts nanoseconds
 * in int64_t, from CLOCK_MONOTONIC unless a name says otherwise. */
#ifndef STARVE_TIMEUTIL_H
#define STARVE_TIMEUTIL_H

#include <stdint.h>
#include <time.h>

#define NSEC_PER_USEC 1000LL
#define NSEC_PER_MSEC 1000000LL
#define NSEC_PER_SEC 1000000000LL

static inline int64_t ts_to_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
}

static inline struct timespec ns_to_ts(int64_t ns)
{
	struct timespec ts = { .tv_sec = ns / NSEC_PER_SEC, .tv_nsec = ns % NSEC_PER_SEC };
	return ts;
}

static inline int64_t clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts_to_ns(&ts);
}

static inline int64_t mono_ns(void) { return clock_ns(CLOCK_MONOTONIC); }
static inline int64_t thread_cpu_ns(void) { return clock_ns(CLOCK_THREAD_CPUTIME_ID); }
static inline int64_t process_cpu_ns(void) { return clock_ns(CLOCK_PROCESS_CPUTIME_ID); }

/* Sleep until an absolute CLOCK_MONOTONIC time, retrying on EINTR. */
static inline void sleep_until_ns(int64_t when)
{
	struct timespec ts = ns_to_ts(when);

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0)
		;
}

#endif
