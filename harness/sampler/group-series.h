/* A sampler group's time series: CPU share and runnable waiting in buckets
 * of wall time, filled from the sampler's ticks. Tasks are read at ticks,
 * some only every few ticks, and ticks come late; each task's CPU time goes
 * to the buckets by the time it was used over, so no bucket gets more of one
 * task than its own wall time. Full series halve their resolution, so memory
 * stays flat. Private to the sampler (sampler.c); tests use it directly. */
#ifndef STARVE_GROUP_SERIES_H
#define STARVE_GROUP_SERIES_H

#include "harness/sampler/sampler.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sampler_group {
	bool used;
	bool covered;			/* sampler_cover_group: read at the covered rate */
	int64_t interval_ns;
	size_t n;
	double cpu_share[SAMPLER_MAX_BUCKETS];
	double waiting[SAMPLER_MAX_BUCKETS];
	/* when each bucket began: a bucket closes at the first tick past its
	 * nominal end, so its real width is not interval_ns */
	int64_t start_ns[SAMPLER_MAX_BUCKETS];
	/* the bucket being filled, since ACC_FROM_NS */
	int64_t acc_cpu_ns, acc_from_ns;
	uint64_t acc_waiting, acc_ticks;
	unsigned acc_tasks_max;		/* the most tasks seen in one of its ticks */
	int64_t carry_cpu_ns;		/* CPU time read after its bucket closed */
	int64_t jump_ns;		/* what its tasks' CPU clocks jumped beyond wall time */
	/* per tick, summed while sampling tasks */
	int64_t tick_cpu_ns;
	double tick_rate;		/* CPU ns per wall ns over the last tick interval */
	unsigned tick_waiting, tick_tasks;
};

/* Begin the series at the sampler's first tick, NOW. */
void group_series_start(struct sampler_group *g, int64_t now);

/* A task read at the tick NOW (the previous tick: PREV) used DELTA of CPU
 * time since FROM, its previous reading; DELTA is at most NOW - FROM. */
void group_series_add_cpu(struct sampler_group *g, int64_t from, int64_t now, int64_t prev,
			  int64_t delta);

/* Fold the tick NOW's sums into the series: FIRST is the first tick's time,
 * PREV the previous tick's (0 at the first); FINAL closes the last bucket. */
void group_series_tick(struct sampler_group *g, int64_t first, int64_t prev, int64_t now,
		       bool final);

#endif
