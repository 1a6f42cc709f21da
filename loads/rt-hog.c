/* rt-hog: a SCHED_FIFO or SCHED_RR busy loop, optionally with a duty cycle, always under RLIMIT_RTTIME and ending itself at its deadline. */
#include "config.h"
#include "loads/load.h"
#include "lib/error.h"

enum {
	OPT_RUN,
	OPT_SLEEP,
	OPT_RTTIME,
};

static const struct opt_spec options[] = {
	[OPT_RUN] = { "run", OPT_DURATION, "ns", 1000, 3600e9, "1s",
		"busy time per cycle", NULL },
	[OPT_SLEEP] = { "sleep", OPT_DURATION, "ns", 0, 10e9, "0ns",
		"sleep per cycle; 0 busy-loops without pause", NULL },
	[OPT_RTTIME] = { "rttime", OPT_DURATION, "ns", 0, 3600e9, "0ns",
		"RLIMIT_RTTIME; 0 means the run length plus one second", NULL },
};

/* The busy part checks the deadline every ~30 us of CPU (work_for_ns), so
 * the hog ends itself on time even when nothing else can run on its CPU. */
static int run(struct load_ctx *ctx)
{
	if (ctx->stats->deadline_ns <= 0) {
		error("rt-hog runs only with a deadline, so it always ends by itself");
		return EXIT_RUNTIME;
	}
	return load_run_duty_cycle(ctx, ctx->spec->opts[OPT_RUN].i, ctx->spec->opts[OPT_SLEEP].i);
}

const struct load_type load_rt_hog = {
	.name = "rt-hog",
	.summary = "a SCHED_FIFO or SCHED_RR busy loop, optionally with a duty cycle, always under RLIMIT_RTTIME and ending itself at its deadline",
	.options = options,
	.n_options = sizeof(options) / sizeof(options[0]),
	.hist = HIST_NONE,
	.flags = LOAD_RT,
	.default_policy = POLICY_FIFO,
	.default_priority = 50,
	.run = run,
};
