/* Subcommands: one file per command (harness/cmd-<name>.c) exporting one
 * `const struct cmd`; harness/main.c holds the table and only dispatches.
 *
 * How to add a subcommand: write cmd-<name>.c with a run function that
 * returns an exit status (lib/error.h, enum starve_exit) and prints its own
 * --help; declare it here; add it to the table in main.c and to Makefile.am. */
#ifndef STARVE_CMD_H
#define STARVE_CMD_H

struct cmd {
	const char *name;
	const char *args;	/* synopsis after the name */
	const char *summary;
	int (*run)(int argc, char **argv);	/* argv[0] is the command name */
};

extern const struct cmd cmd_run, cmd_check, cmd_env, cmd_list, cmd_load, cmd_compare,
	cmd_report, cmd_restore;

/* True when argv has -h or --help (before a "--"); subcommands print their
 * usage and return 0. */
int cmd_wants_help(int argc, char **argv);
/* Print "usage: starve NAME ARGS" and the option lines to stdout. */
void cmd_usage(const struct cmd *c, const char *options_text);
/* For subcommands that a later issue fills in: say so and return 3. */
int cmd_not_yet(const struct cmd *c, const char *issue);

#endif
