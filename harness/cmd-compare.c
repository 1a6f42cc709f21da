/* starve compare: compare results across kernels or settings, with significance. */
#include "config.h"
#include "harness/cmd.h"
#include "lib/error.h"

#include <stddef.h>

static int run_compare(int argc, char **argv);

const struct cmd cmd_compare = { "compare", "A.json B.json... [--label L...] [--threshold METRIC=PCT] [--markdown|--json] | --settings RESULT.json", "compare results across kernels or settings, with significance", run_compare };

static int run_compare(int argc, char **argv)
{
	if (cmd_wants_help(argc, argv)) {
		cmd_usage(&cmd_compare, NULL);
		return EXIT_PASS;
	}
	return cmd_not_yet(&cmd_compare, "issue 5");
}
