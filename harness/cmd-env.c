/* starve env: what this kernel and machine offer the harness. */
#include "config.h"
#include "harness/cmd.h"
#include "lib/error.h"

#include <stddef.h>

static int run_env(int argc, char **argv);

const struct cmd cmd_env = { "env", "[--json]", "what this kernel and machine offer the harness", run_env };

static int run_env(int argc, char **argv)
{
	if (cmd_wants_help(argc, argv)) {
		cmd_usage(&cmd_env, NULL);
		return EXIT_PASS;
	}
	return cmd_not_yet(&cmd_env, "issue 2");
}
