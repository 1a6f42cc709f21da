/* starve restore: restore knobs from the journal a crashed run left. */
#include "config.h"
#include "harness/cmd.h"
#include "lib/error.h"

#include <stddef.h>

static int run_restore(int argc, char **argv);

const struct cmd cmd_restore = { "restore", "[--dry-run]", "restore knobs from the journal a crashed run left", run_restore };

static int run_restore(int argc, char **argv)
{
	if (cmd_wants_help(argc, argv)) {
		cmd_usage(&cmd_restore, NULL);
		return EXIT_PASS;
	}
	return cmd_not_yet(&cmd_restore, "issue 4");
}
