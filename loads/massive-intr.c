/* massive-intr: N processes each working W then sleeping S (Takeuchi 2007). */
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

/* Like Satoru Takeuchi's massive_intr.c: each worker works then sleeps;
 * iterations per worker show how fairly the CPU was shared. */
static int run(struct load_ctx *ctx)
{
	return load_run_duty_cycle(ctx, ctx->spec->opts[OPT_WORK].i, ctx->spec->opts[OPT_SLEEP].i);
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
