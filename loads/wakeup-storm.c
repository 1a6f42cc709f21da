/* wakeup-storm: N workers block on one wait object.
 * Behaviour: issue 3 (not implemented yet; the option table is final). */
#include "config.h"
#include "loads/load.h"
#include "lib/error.h"

enum {
	OPT_PERIOD,
	OPT_WAKE,
	OPT_WORK,
};

static const struct opt_spec options[] = {
	[OPT_PERIOD] = { "period", OPT_DURATION, "ns", 10000, 10e9, "10ms",
		"time between wakeup storms", NULL },
	[OPT_WAKE] = { "wake", OPT_INT, NULL, 0, LOAD_MAX_WORKERS, "0",
		"workers woken per storm; 0 wakes all", NULL },
	[OPT_WORK] = { "work", OPT_DURATION, "ns", 0, 1e9, "200us",
		"CPU time each woken worker spends on its request", NULL },
};

static int run(struct load_ctx *ctx)
{
	(void)ctx;
	error("load type 'wakeup-storm' is not implemented yet (issue 3)");
	return 3;
}

const struct load_type load_wakeup_storm = {
	.name = "wakeup-storm",
	.summary = "N workers block on one wait object; a dispatcher wakes all (or K) each period; each works W and blocks again (Apache prefork); count = workers",
	.options = options,
	.n_options = sizeof(options) / sizeof(options[0]),
	.hist = HIST_WAKEUP_LATENCY,
	.flags = LOAD_FAIRNESS,
	.run = run,
};
