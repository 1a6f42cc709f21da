/* starve list: load types and their options; shipped profiles. */
#include "config.h"
#include "harness/cmd.h"
#include "lib/error.h"

#include <stddef.h>

static int run_list(int argc, char **argv);

const struct cmd cmd_list = { "list", "[--man]", "load types and their options; shipped profiles", run_list };

static int run_list(int argc, char **argv)
{
	if (cmd_wants_help(argc, argv)) {
		cmd_usage(&cmd_list, NULL);
		return EXIT_PASS;
	}
	return cmd_not_yet(&cmd_list, "issue 3");
}
