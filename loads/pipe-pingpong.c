/* pipe-pingpong: pairs of tasks bounce a token through pipes.
 * Behaviour: issue 3 (not implemented yet; the option table is final). */
#include "config.h"
#include "loads/load.h"
#include "lib/error.h"

enum {
	OPT_WORK,
};

static const struct opt_spec options[] = {
	[OPT_WORK] = { "work", OPT_DURATION, "ns", 0, 1e9, "0ns",
		"CPU time each side spends before passing the token back", NULL },
};

static int run(struct load_ctx *ctx)
{
	(void)ctx;
	error("load type 'pipe-pingpong' is not implemented yet (issue 3)");
	return 3;
}

const struct load_type load_pipe_pingpong = {
	.name = "pipe-pingpong",
	.summary = "pairs of tasks bounce a token through pipes; round trips per second and a round-trip latency histogram; count = pairs",
	.options = options,
	.n_options = sizeof(options) / sizeof(options[0]),
	.hist = HIST_ROUND_TRIP,
	.flags = 0,
	.run = run,
};
