/* compositor: an X server with a compositing window manager: idle, then a burst of frames at F Hz, each needing C of CPU before its deadline (interbench X/video).
 * Behaviour: issue 3 (not implemented yet; the option table is final). */
#include "config.h"
#include "loads/load.h"
#include "lib/error.h"

enum {
	OPT_IDLE,
	OPT_FPS,
	OPT_FRAMES,
	OPT_COST,
	OPT_DEADLINE,
};

static const struct opt_spec options[] = {
	[OPT_IDLE] = { "idle", OPT_DURATION, "ns", 0, 60e9, "500ms",
		"idle time between bursts", NULL },
	[OPT_FPS] = { "fps", OPT_INT, "Hz", 1, 1000, "60",
		"frame rate during a burst", NULL },
	[OPT_FRAMES] = { "frames", OPT_INT, NULL, 1, 1000000, "30",
		"frames per burst", NULL },
	[OPT_COST] = { "cost", OPT_DURATION, "ns", 0, 1e9, "4ms",
		"CPU time each frame needs", NULL },
	[OPT_DEADLINE] = { "deadline", OPT_DURATION, "ns", 0, 10e9, "0ns",
		"time allowed per frame; 0 means one frame period", NULL },
};

static int run(struct load_ctx *ctx)
{
	(void)ctx;
	error("load type 'compositor' is not implemented yet (issue 3)");
	return 3;
}

const struct load_type load_compositor = {
	.name = "compositor",
	.summary = "an X server with a compositing window manager: idle, then a burst of frames at F Hz, each needing C of CPU before its deadline (interbench X/video)",
	.options = options,
	.n_options = sizeof(options) / sizeof(options[0]),
	.hist = HIST_LATENESS,
	.flags = 0,
	.run = run,
};
