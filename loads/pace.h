/* Pacing helpers shared by the periodic loads (wakeup-storm, compositor):
 * sleeping to an absolute time without becoming deaf to a stop request, and
 * the futex calls behind a process-shared wait object. Header-only because
 * each helper is a few lines on a hot path. */
#ifndef STARVE_PACE_H
#define STARVE_PACE_H

#include <limits.h>
#include <linux/futex.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/timeutil.h"
#include "loads/load.h"

/* A stop request is noticed within this long even during a long sleep. */
#define PACE_STOP_CHECK_NS (50 * NSEC_PER_MSEC)

/* Sleep until WHEN (CLOCK_MONOTONIC, absolute), in slices so that a stop
 * request or the deadline ends the sleep early. Returns false if the load
 * must stop. Short sleeps are one clock_nanosleep, as exact as the kernel
 * allows, so this costs nothing on the paths that measure latency. */
static inline bool pace_sleep_until(const struct load_ctx *ctx, int64_t when)
{
	for (;;) {
		int64_t now = mono_ns(), until = when;

		if (load_should_stop(ctx))
			return false;
		if (now >= when)
			return true;
		if (until - now > PACE_STOP_CHECK_NS)
			until = now + PACE_STOP_CHECK_NS;
		sleep_until_ns(until);
	}
}

/* Futex operations on a word that may live in memory shared between
 * processes: the private variants are cheaper but only work when all
 * waiters share one mm, i.e. in thread mode. */
static inline int pace_futex_op(const struct load_ctx *ctx, int op)
{
	return ctx->spec->mode == LOAD_THREADS ? (op | FUTEX_PRIVATE_FLAG) : op;
}

/* Block while *word == val, at most TIMEOUT_NS (relative). Returns 0 when
 * woken, -1 when *word had changed already, on timeout or on a signal.
 * Spurious wakeups happen; callers re-check their condition. */
static inline int pace_futex_wait(const struct load_ctx *ctx, uint32_t *word, uint32_t val,
				  int64_t timeout_ns)
{
	struct timespec ts = ns_to_ts(timeout_ns);

	return syscall(SYS_futex, word, pace_futex_op(ctx, FUTEX_WAIT), val, &ts, NULL, 0) ? -1 : 0;
}

/* Wake up to N waiters of word (INT_MAX: all). */
static inline void pace_futex_wake(const struct load_ctx *ctx, uint32_t *word, int n)
{
	syscall(SYS_futex, word, pace_futex_op(ctx, FUTEX_WAKE), n, NULL, NULL, 0);
}

#endif
