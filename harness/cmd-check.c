/* starve check: validate profiles, reporting every error as file:line:col. */
#include "config.h"
#include "harness/cmd.h"
#include "lib/error.h"

#include <stddef.h>

static int run_check(int argc, char **argv);

const struct cmd cmd_check = { "check", "PROFILE.yaml...", "validate profiles, reporting every error as file:line:col", run_check };

static int run_check(int argc, char **argv)
{
	if (cmd_wants_help(argc, argv)) {
		cmd_usage(&cmd_check, NULL);
		return EXIT_PASS;
	}
	return cmd_not_yet(&cmd_check, "issue 2");
}
