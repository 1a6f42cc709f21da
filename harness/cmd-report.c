/* starve report: regenerate reports from a result. */
#include "config.h"
#include "harness/cmd.h"
#include "lib/error.h"

#include <stddef.h>

static int run_report(int argc, char **argv);

const struct cmd cmd_report = { "report", "RESULT.json [--junit F] [--ktap F] [--markdown F] [--html F]", "regenerate reports from a result", run_report };

static int run_report(int argc, char **argv)
{
	if (cmd_wants_help(argc, argv)) {
		cmd_usage(&cmd_report, NULL);
		return EXIT_PASS;
	}
	return cmd_not_yet(&cmd_report, "issue 6");
}
