/* The measured window in result.json: one time origin for every source.
 * The window [from, until] is on CLOCK_MONOTONIC; in-band records, the
 * sampler's ticks and the exact source's events are all clipped to it, and
 * each source's own coverage is written in seconds from its start, so a
 * reader sees that the sampler's ticks and the exact source bracket it. */
#ifndef STARVE_RUN_WINDOW_H
#define STARVE_RUN_WINDOW_H

#include "harness/run/record.h"
#include "harness/sampler/sampler.h"

/* The window [FROM_NS, UNTIL_NS] into W, with the span of the sampler's
 * ticks (SMP) and of the exact source (X, when present). result.json has it
 * as {"clock", "from_ns", "until_ns", "sampler": [first tick, last tick],
 * "exact": [on, off]}, the pairs in seconds from FROM_NS. */
void window_measure(struct run_window *w, int64_t from_ns, int64_t until_ns,
		    const struct sampler *smp, const struct run_exact *x);

#endif
