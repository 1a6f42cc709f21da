/* The measured window in result.json: one time origin for every source.
 * The window [from, until] is on CLOCK_MONOTONIC; in-band records, the
 * sampler's ticks and exact mode's events are all clipped to it, and each
 * source's own coverage is written in seconds from its start, so a reader
 * sees that the sampler's ticks and the trace bracket it. */
#ifndef STARVE_RUN_WINDOW_H
#define STARVE_RUN_WINDOW_H

#include <jansson.h>
#include <stdint.h>

#include "harness/sampler/sampler.h"
#include "harness/trace/trace.h"

/* {"clock", "from_ns", "until_ns", "sampler": [first tick, last tick],
 *  "trace": [on, off] (exact mode only)}; the pairs in seconds from FROM_NS. */
json_t *window_json(int64_t from_ns, int64_t until_ns, const struct sampler *smp,
		    const struct trace *t);

#endif
