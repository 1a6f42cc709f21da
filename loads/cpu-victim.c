/* cpu-victim: a busy loop that records the gaps between its iterations (chew-style): in-band starvation, gap counts over 1/10/100 ms, CPU share; optionally in bursts.
 * The loop only reads CLOCK_MONOTONIC (vDSO) and compares: anything worth
 * recording (a gap >= min_gap or 1 ms, or a new longest gap) leaves the loop
 * for record_gap(), and iterations are counted in batches, so the loop costs
 * little more than a bare clock_gettime loop. */
#include "config.h"
#include "loads/load.h"
#include "lib/error.h"
#include "lib/timeutil.h"

enum {
	OPT_MIN_GAP,
	OPT_BURST,
	OPT_PAUSE,
};

static const struct opt_spec options[] = {
	[OPT_MIN_GAP] = { "min_gap", OPT_DURATION, "ns", 1000, 1e9, "50us",
		"gaps at least this long go into the gap histogram", NULL },
	[OPT_BURST] = { "burst", OPT_DURATION, "ns", 0, 10e9, "0ns",
		"bursty victim: CPU time of each burst, then a pause; 0 runs without pause", NULL },
	[OPT_PAUSE] = { "pause", OPT_DURATION, "ns", 0, 10e9, "0ns",
		"sleep after each burst (the pause is no gap)", NULL },
};

#define VICTIM_BATCH 1024	/* iterations between stop checks and counting */

/* Gaps at least this long leave the fast loop: anything for the histogram or
 * the 1 ms counter, and anything longer than the longest gap so far. */
static uint64_t victim_slow_at(const struct load_ctx *ctx, const struct worker_record *rec,
			       uint64_t now, uint64_t min_gap)
{
	uint64_t at = min_gap < (uint64_t)NSEC_PER_MSEC ? min_gap : (uint64_t)NSEC_PER_MSEC;

	if (stats_measuring(ctx->stats, now) && rec->gap_max_ns < at)
		at = rec->gap_max_ns + 1;
	return at;
}

static void victim(struct load_ctx *ctx, unsigned record, void *arg)
{
	struct worker_record *rec = worker_begin(ctx, record);
	uint64_t min_gap = (uint64_t)ctx->spec->opts[OPT_MIN_GAP].i;
	/* from the gate's opening (worker_begin) when there was one */
	uint64_t last = rec->last_iter_ns ? rec->last_iter_ns : (uint64_t)mono_ns(), now = last;
	uint64_t slow_at;
	int64_t burst = ctx->spec->opts[OPT_BURST].i, burst_from = thread_cpu_ns();
	unsigned n;

	(void)arg;
	rec->last_iter_ns = last;
	slow_at = victim_slow_at(ctx, rec, now, min_gap);
	while (!load_should_stop(ctx)) {
		for (n = 0; n < VICTIM_BATCH; n++) {
			now = (uint64_t)mono_ns();
			if (__builtin_expect(now - last >= slow_at, 0)) {
				rec->last_iter_ns = last;
				record_gap(ctx->stats, rec, now,
					   now - last >= min_gap ? RECORD_GAP_HIST : 0);
			}
			last = now;
		}
		if (stats_measuring(ctx->stats, now))
			rec->iterations += VICTIM_BATCH;
		rec->last_iter_ns = last;
		if (burst && thread_cpu_ns() - burst_from >= burst) {
			rec->last_iter_ns = 0;	/* it wants nothing while it pauses */
			if (!load_sleep_ns(ctx, ctx->spec->opts[OPT_PAUSE].i))
				break;
			last = (uint64_t)mono_ns();
			rec->last_iter_ns = last;
			burst_from = thread_cpu_ns();
		}
		slow_at = victim_slow_at(ctx, rec, now, min_gap);
	}
	worker_end(rec);
}

static int run(struct load_ctx *ctx)
{
	return load_run_workers(ctx, (unsigned)ctx->spec->count, victim, NULL) ? EXIT_RUNTIME : 0;
}

const struct load_type load_cpu_victim = {
	.name = "cpu-victim",
	.summary = "a busy loop that records the gaps between its iterations (chew-style): in-band starvation, gap counts over 1/10/100 ms, CPU share; optionally in bursts",
	.options = options,
	.n_options = sizeof(options) / sizeof(options[0]),
	.hist = HIST_GAP,
	.flags = LOAD_INBAND_GAPS,
	.run = run,
};
