/* cpu-victim: a busy loop that records the gaps between its iterations (chew-style): in-band starvation, gap counts over 1/10/100 ms, CPU share.
 * Behaviour: issue 3 (not implemented yet; the option table is final). */
#include "config.h"
#include "loads/load.h"
#include "lib/error.h"

enum {
	OPT_MIN_GAP,
};

static const struct opt_spec options[] = {
	[OPT_MIN_GAP] = { "min_gap", OPT_DURATION, "ns", 1000, 1e9, "50us",
		"gaps at least this long go into the gap histogram", NULL },
};

static int run(struct load_ctx *ctx)
{
	(void)ctx;
	error("load type 'cpu-victim' is not implemented yet (issue 3)");
	return 3;
}

const struct load_type load_cpu_victim = {
	.name = "cpu-victim",
	.summary = "a busy loop that records the gaps between its iterations (chew-style): in-band starvation, gap counts over 1/10/100 ms, CPU share",
	.options = options,
	.n_options = sizeof(options) / sizeof(options[0]),
	.hist = HIST_GAP,
	.flags = LOAD_INBAND_GAPS,
	.run = run,
};
