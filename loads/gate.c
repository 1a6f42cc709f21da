/* The start gate (stats.h), as rt-app's: every worker registers, then waits
 * off the CPU until the controller opens the gate of every load at once. A
 * load starved from its first instant (an RT hog already spinning on its
 * CPU) is then still registered and watched, and its total starvation is a
 * verdict rather than a run error; no worker's figures start before the
 * others exist. */
#include "config.h"
#include "loads/load.h"
#include "lib/timeutil.h"

#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define GATE_SLICE_NS (50 * NSEC_PER_MSEC)	/* how often a waiter checks the stop */

/* Never FUTEX_PRIVATE_FLAG (which pace.h's helpers use for thread loads):
 * the controller, another process, opens the gate. */
static long gate_futex(volatile uint32_t *word, int op, uint32_t val, const struct timespec *ts)
{
	return syscall(SYS_futex, word, op, val, ts, NULL, 0);
}

void stats_gate_close(struct stats_block *block)
{
	__atomic_store_n(&block->gate_closed, 1, __ATOMIC_RELEASE);
}

void stats_gate_open(struct stats_block *block)
{
	__atomic_store_n(&block->gate_opened_ns, mono_ns(), __ATOMIC_RELAXED);
	__atomic_store_n(&block->gate_closed, 0, __ATOMIC_RELEASE);
	gate_futex(&block->gate_closed, FUTEX_WAKE, INT_MAX, NULL);
}

bool stats_gate_ready(const struct stats_block *block)
{
	bool all = true;

	for (unsigned i = 0; i < block->n_records; i++) {
		uint32_t state = __atomic_load_n(&block->rec[i].state, __ATOMIC_ACQUIRE);

		if (state == RECORD_FAILED)
			return true;
		all = all && state != RECORD_UNUSED;
	}
	return all;
}

bool load_gate_wait(const struct load_ctx *ctx)
{
	struct stats_block *b = ctx->stats;
	const struct timespec slice = { 0, GATE_SLICE_NS };

	while (__atomic_load_n(&b->gate_closed, __ATOMIC_ACQUIRE)) {
		if (load_should_stop(ctx))
			return false;
		/* EAGAIN: opened meanwhile; ETIMEDOUT, EINTR: look again */
		gate_futex(&b->gate_closed, FUTEX_WAIT, 1, &slice);
	}
	return !load_should_stop(ctx);
}
