/* wakeup-probe: periodic absolute clock_nanosleep, cyclictest-grade: wakeup latency histogram with p50/p90/p99/p99.9/max.
 * Behaviour: issue 3 (not implemented yet; the option table is final). */
#include "config.h"
#include "loads/load.h"
#include "lib/error.h"

enum {
	OPT_INTERVAL,
};

static const struct opt_spec options[] = {
	[OPT_INTERVAL] = { "interval", OPT_DURATION, "ns", 50000, 10e9, "1ms",
		"period of the wakeups", NULL },
};

static int run(struct load_ctx *ctx)
{
	(void)ctx;
	error("load type 'wakeup-probe' is not implemented yet (issue 3)");
	return 3;
}

const struct load_type load_wakeup_probe = {
	.name = "wakeup-probe",
	.summary = "periodic absolute clock_nanosleep, cyclictest-grade: wakeup latency histogram with p50/p90/p99/p99.9/max; any policy",
	.options = options,
	.n_options = sizeof(options) / sizeof(options[0]),
	.hist = HIST_WAKEUP_LATENCY,
	.flags = LOAD_INBAND_GAPS,
	.run = run,
};
