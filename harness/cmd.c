/* Helpers shared by the subcommands: --help detection and usage text. */
#include "config.h"
#include "harness/cmd.h"
#include "lib/error.h"

#include <stdio.h>
#include <string.h>

int cmd_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	}
	return 0;
}

void cmd_usage(const struct cmd *c, const char *options_text)
{
	printf("usage: starve %s %s\n\n%s\n", c->name, c->args, c->summary);
	if (options_text && *options_text)
		printf("\n%s", options_text);
}

int cmd_not_yet(const struct cmd *c, const char *issue)
{
	error("'starve %s' is not implemented yet (%s)", c->name, issue);
	return EXIT_RUNTIME;
}
