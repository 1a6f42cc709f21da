/* starve load: run one load generator alone and print its in-band metrics. */
#include "config.h"
#include "harness/cmd.h"
#include "lib/error.h"

#include <stddef.h>

static int run_load(int argc, char **argv);

const struct cmd cmd_load = { "load", "TYPE [--OPTION VALUE...] --duration T [--cpus SPEC] [--json]", "run one load generator alone and print its in-band metrics", run_load };

static int run_load(int argc, char **argv)
{
	if (cmd_wants_help(argc, argv)) {
		cmd_usage(&cmd_load, NULL);
		return EXIT_PASS;
	}
	return cmd_not_yet(&cmd_load, "issue 3");
}
