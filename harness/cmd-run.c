/* starve run: run a profile against this kernel. */
#include "config.h"
#include "harness/cmd.h"
#include "lib/error.h"

#include <stddef.h>

static int run_run(int argc, char **argv);

const struct cmd cmd_run = { "run", "PROFILE.yaml [-o DIR] [--repeat N] [--duration T] [--only SETTING] [--format LIST] [--quiet]", "run a profile against this kernel", run_run };

static int run_run(int argc, char **argv)
{
	if (cmd_wants_help(argc, argv)) {
		cmd_usage(&cmd_run, NULL);
		return EXIT_PASS;
	}
	return cmd_not_yet(&cmd_run, "issue 4");
}
