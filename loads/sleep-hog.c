/* sleep-hog: runs for R, sleeps for S, forever: the 2006 interactive-bonus attack (default 95% CPU). */
#include "config.h"
#include "loads/load.h"
#include "lib/error.h"

enum {
	OPT_RUN,
	OPT_SLEEP,
};

static const struct opt_spec options[] = {
	[OPT_RUN] = { "run", OPT_DURATION, "ns", 1000, 10e9, "19ms",
		"CPU time to burn per cycle", NULL },
	[OPT_SLEEP] = { "sleep", OPT_DURATION, "ns", 0, 10e9, "1ms",
		"time to sleep per cycle", NULL },
};

static int run(struct load_ctx *ctx)
{
	return load_run_duty_cycle(ctx, ctx->spec->opts[OPT_RUN].i, ctx->spec->opts[OPT_SLEEP].i);
}

const struct load_type load_sleep_hog = {
	.name = "sleep-hog",
	.summary = "runs for R, sleeps for S, forever: the 2006 interactive-bonus attack (default 95% CPU); count = hogs",
	.options = options,
	.n_options = sizeof(options) / sizeof(options[0]),
	.hist = HIST_NONE,
	.flags = 0,
	.run = run,
};
