/* Subcommands: one file per command (harness/cmd-<name>.c) exporting one
 * `const struct cmd`; harness/cmd/main.c holds the table and only dispatches.
 *
 * How to add a subcommand: write cmd-<name>.c with a run function that
 * returns an exit status (lib/error.h, enum starve_exit) and prints its own
 * --help; declare it here; add it to the table in main.c and to Makefile.am. */
#ifndef STARVE_CMD_H
#define STARVE_CMD_H

#include <getopt.h>

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
/* getopt_long over ARGV (argv[0] the command name) with options anywhere
 * among the operands, as git does, even under POSIXLY_CORRECT; "--" ends
 * the options. SHORTOPTS and LONGOPTS as for getopt_long (a leading ':'
 * works too; no option may have the value 1, which getopt uses for an
 * operand here). FN gets each option 's value (and '?' or ':' for a bad one)
 * with its argument, and returns -1 to stop. ARGV is left as it is (it is
 * recorded in result.json); *OPS receives the operands in order (*N_OPS of
 * them, NULL-terminated; free it). Returns 0, or -1 when FN did or memory
 * ran out. */
int cmd_parse_options(int argc, char **argv, const char *shortopts,
		      const struct option *longopts,
		      int (*fn)(int c, char *arg, void *data), void *data,
		      char ***ops, int *n_ops);

/* For subcommands that a later issue fills in: say so and return 3. */
int cmd_not_yet(const struct cmd *c, const char *issue);

#endif
