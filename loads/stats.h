/* The in-band stats block: shared memory created before fork, holding one
 * record per worker. Each record has exactly one writer (its worker); the
 * controller reads without locks, during the run for progress and at the
 * end for results. 64-bit fields are naturally aligned, so a reader never
 * sees a torn counter on the platforms we support. */
#ifndef STARVE_STATS_H
#define STARVE_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/histogram.h"

#define STATS_MAGIC 0x53545256u	/* "STRV" */

enum record_state { RECORD_UNUSED, RECORD_RUNNING, RECORD_DONE, RECORD_FAILED };

struct worker_record {
	int32_t pid, tid;		/* set by worker_begin */
	uint32_t state;			/* enum record_state */
	char comm[16];
	uint64_t start_ns, end_ns;	/* CLOCK_MONOTONIC */
	uint64_t cpu_ns;		/* CLOCK_THREAD_CPUTIME_ID at the last update */
	uint64_t cpu_begin_ns;		/* ... at worker_begin: thread start-up is not the load's */
	uint64_t iterations;		/* loop iterations, frames, requests, round trips */
	/* For gap tracking: the last time the worker was seen on the CPU. For
	 * LOAD_INBAND_GAPS types it is also when its open stretch began: since
	 * then it has wanted the CPU and not been seen on it (cpu-victim: its
	 * last batch; wakeup-probe: its next wakeup's due time); 0 while it
	 * wants nothing (a victim's pause). */
	uint64_t last_iter_ns;
	uint64_t gap_max_ns;		/* longest gap between iterations */
	uint64_t gap_max_end_ns;	/* when it ended (record_gap's; 0 from record_stall) */
	uint64_t gaps_over_1ms, gaps_over_10ms, gaps_over_100ms;
	uint64_t deadlines_met, deadlines_missed;
	uint64_t wakeups;		/* times the worker was woken (storms, probes) */
	uint64_t child_cpu_ns;		/* CPU of the children it reaped while measuring
					 * (kernel-build's jobs: too short-lived to sample) */
	struct histogram hist;		/* meaning: the load type's enum load_hist */
	char error[128];		/* why the worker failed, when state is FAILED */
};

struct stats_block {
	uint32_t magic;
	uint32_t n_records;
	volatile int32_t stop;		/* set by the controller: finish now */
	/* The start gate (loads/gate.c): 1 while the controller holds the
	 * workers after they registered; a futex word, shared between processes. */
	volatile uint32_t gate_closed;
	int64_t gate_opened_ns;		/* CLOCK_MONOTONIC, when it opened (0: never closed) */
	int64_t deadline_ns;		/* CLOCK_MONOTONIC: loads end themselves after it */
	int64_t measure_from_ns;	/* end of warm-up: records count only from here on */
	int64_t measure_until_ns;	/* end of the window: nothing counts after it (0: open) */
	struct worker_record rec[];
};

/* Map a block of N records (MAP_SHARED | MAP_ANONYMOUS) before forking.
 * Returns NULL with an error printed on failure. */
struct stats_block *stats_create(unsigned n_records, int64_t deadline_ns);
void stats_destroy(struct stats_block *block);

/* Workers record iterations, gaps, deadlines and histogram values only
 * inside [block->measure_from_ns, block->measure_until_ns], so neither the
 * warm-up nor the time between the window's end and the loads' stop pollutes
 * the results; the controller may move the start forward before the warm-up
 * ends (0: from the start; an end of 0: open). stats_measuring() says
 * whether NOW is inside the measured part. */
static inline int stats_measuring(const struct stats_block *block, uint64_t now)
{
	int64_t until = *(const volatile int64_t *)&block->measure_until_ns;

	return (int64_t)now >= *(const volatile int64_t *)&block->measure_from_ns &&
	       (until == 0 || (int64_t)now <= until);
}

/* Note one iteration at NOW (CLOCK_MONOTONIC): counts it and notes the gap
 * since the previous one (record_gap). */
#define RECORD_GAP_HIST 0x1
void record_iteration(const struct stats_block *block, struct worker_record *rec,
		      uint64_t now, unsigned flags);

/* Note the gap since rec->last_iter_ns without counting an iteration:
 * updates gap_max_ns and gaps_over_*, and records the gap into hist when
 * RECORD_GAP_HIST is set. A gap that started in the warm-up or ends after the
 * window counts only its measured part (one after the window, nothing).
 * The first call (last_iter_ns == 0) only starts tracking. */
void record_gap(const struct stats_block *block, struct worker_record *rec,
		uint64_t now, unsigned flags);

/* How much of the stretch [START, END) lies inside the block's window (a
 * START of 0: none). */
uint64_t stats_window_part(const struct stats_block *block, uint64_t start, uint64_t end);

/* The measured part of the stretch REC still has open (since last_iter_ns)
 * at its end: end_ns, or NOW for a worker that never ended (killed). A
 * worker starved until the loads stop never runs again inside the window
 * to note its gap itself; the in-band summary adds this one. */
uint64_t record_open_stretch(const struct stats_block *block, const struct worker_record *rec,
			     uint64_t now);

/* Note a stretch of NS during which the worker wanted to run but could not
 * (a gap, a wakeup latency): updates gap_max_ns and gaps_over_*. The caller
 * checks stats_measuring(). */
void record_stall(struct worker_record *rec, uint64_t ns);
/* Count NS into the over-1/10/100 ms tallies it exceeds. */
void stall_tally(uint64_t ns, uint64_t *over_1ms, uint64_t *over_10ms, uint64_t *over_100ms);

/* The start gate (loads/gate.c), as rt-app's: with gate_closed set before
 * the loads start, every worker registers (worker_begin) and then waits, off
 * the CPU, until the controller has seen every record registered and opens
 * it, so a worker starved from its first instant is still watched. A block
 * nobody closes (starve load, the unit tests) lets workers straight through. */
void stats_gate_close(struct stats_block *block);
/* Whether every record of the block is registered (running or past it), or
 * one failed (a worker that could not start: the run is an error anyway). */
bool stats_gate_ready(const struct stats_block *block);
void stats_gate_open(struct stats_block *block);

#endif
