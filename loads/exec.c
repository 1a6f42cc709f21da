/* exec: a real command as a load (make -j4, hackbench ...), run through /bin/sh -c, optionally restarted when it exits.
 * Behaviour: issue 3 (not implemented yet; the option table is final). */
#include "config.h"
#include "loads/load.h"
#include "lib/error.h"

enum {
	OPT_COMMAND,
	OPT_RESTART,
};

static const struct opt_spec options[] = {
	[OPT_COMMAND] = { "command", OPT_STRING, NULL, 0, 0, NULL,
		"shell command to run (required)", NULL },
	[OPT_RESTART] = { "restart", OPT_BOOL, NULL, 0, 0, "false",
		"start the command again each time it exits", NULL },
};

static int run(struct load_ctx *ctx)
{
	(void)ctx;
	error("load type 'exec' is not implemented yet (issue 3)");
	return 3;
}

const struct load_type load_exec = {
	.name = "exec",
	.summary = "a real command as a load (make -j4, hackbench ...), run through /bin/sh -c, optionally restarted when it exits",
	.options = options,
	.n_options = sizeof(options) / sizeof(options[0]),
	.hist = HIST_NONE,
	.flags = 0,
	.run = run,
};
