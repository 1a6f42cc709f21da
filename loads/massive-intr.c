/* massive-intr: N processes each working W then sleeping S (Takeuchi 2007).
 * Behaviour: issue 3 (not implemented yet; the option table is final). */
#include "config.h"
#include "loads/load.h"
#include "lib/error.h"

enum {
	OPT_WORK,
	OPT_SLEEP,
};

static const struct opt_spec options[] = {
	[OPT_WORK] = { "work", OPT_DURATION, "ns", 1000, 10e9, "8ms",
		"CPU time per iteration", NULL },
	[OPT_SLEEP] = { "sleep", OPT_DURATION, "ns", 0, 10e9, "1ms",
		"sleep per iteration", NULL },
};

static int run(struct load_ctx *ctx)
{
	(void)ctx;
	error("load type 'massive-intr' is not implemented yet (issue 3)");
	return 3;
}

const struct load_type load_massive_intr = {
	.name = "massive-intr",
	.summary = "N processes each working W then sleeping S (Takeuchi 2007); iterations per process and fairness; count = processes",
	.options = options,
	.n_options = sizeof(options) / sizeof(options[0]),
	.hist = HIST_NONE,
	.flags = LOAD_FAIRNESS,
	.run = run,
};
