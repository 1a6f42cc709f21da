/* Subcommands: one file per command (harness/cmd/<name>.c) exporting one
 * `const struct cmd` with its name, operands, summary and option table.
 * main.c lists the commands and only dispatches; cmd.c parses a command
 * line by the table; cmd-usage.c writes --help, the synopsis and the
 * SYNOPSIS of starve(1) from the same rows, so none of them can drift.
 *
 * How to add a subcommand (harness/cmd/check.c is a small example):
 *  1. Write harness/cmd/<name>.c: a struct for the command's arguments, its
 *     option table (one CMD_* row per option, ended by CMD_END), the
 *     `const struct cmd cmd_<name>`, and a run function that starts with
 *     cmd_parse() and returns an exit status (enum starve_exit, lib/error.h).
 *     A value with a range comes from an option row of lib/options.h, the
 *     same row a profile key or load option uses where there is one.
 *  2. Declare cmd_<name> below and add it to the table in main.c (its order
 *     is that of `starve --help`); add the file to Makefile.am's cmd section.
 *  3. Describe the command and each option in doc/starve.1 (COMMANDS) and run
 *     `make update-man` for its SYNOPSIS: tests/integration/man-options.sh
 *     fails until the page and the table agree.
 *  4. tests/unit/test-cmd.c checks every table's rows; add a script test for
 *     what the command does.
 */
#ifndef STARVE_CMD_H
#define STARVE_CMD_H

#include "lib/options.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Words of argv in order (pointers into it), NULL-terminated; v is NULL
 * while n is 0. */
struct cmd_words {
	char **v;
	size_t n;
};

enum cmd_opt_kind {
	CMD_OPT_FLAG,	/* no value: a bool field becomes true */
	CMD_OPT_SET,	/* no value: an int field becomes set_to (last one wins) */
	CMD_OPT_STRING,	/* a char * field: the value as given */
	CMD_OPT_LIST,	/* a struct cmd_words field: every value, in order (repeatable) */
	CMD_OPT_INT,	/* an int64_t field: the value parsed and range-checked by spec
			   (OPT_INT, OPT_DURATION in ns, OPT_ENUM as the choice's index) */
	CMD_OPT_CALL,	/* the value parsed by spec, handed to call() */
};

struct cmd_option {
	const char *name;		/* long name, without "--" */
	char short_name;		/* 0: none */
	bool required;			/* the command cannot run without it */
	enum cmd_opt_kind kind;
	const char *arg;		/* the value's name in help ("DIR"); NULL: from spec */
	const char *help;		/* one line (NULL: spec's); the range is appended */
	size_t offset;			/* of the field in the command's argument struct */
	const struct opt_spec *spec;	/* CMD_OPT_INT, CMD_OPT_CALL */
	int set_to;			/* CMD_OPT_SET */
	/* CMD_OPT_CALL: store V (a string becomes the callee's); 0 or -1 with
	 * the error printed */
	int (*call)(void *args, const struct cmd_option *o, union opt_value *v);
};

/* Options a command takes beyond its table, from a lib/options.h table
 * (starve load: the load type's own options). Same syntax as the rows. */
struct cmd_more {
	char title[96];			/* heading in --help */
	const struct opt_spec *table;
	size_t n;
	int (*set)(void *args, const struct opt_spec *o, union opt_value *v);
};

struct cmd {
	const char *name;
	const char *operands;	/* synopsis of the operands; NULL: the command takes none */
	const char *summary;
	const struct cmd_option *options;	/* ends with CMD_END */
	const char *notes;	/* printed after the options by --help; may be NULL */
	int (*run)(int argc, char **argv);	/* argv[0] is the command name */
	/* Fill MORE from ARGS as set up before cmd_parse(); NULL: no such options. */
	bool (*more)(const void *args, struct cmd_more *more);
};

extern const struct cmd cmd_run, cmd_check, cmd_env, cmd_list, cmd_load, cmd_compare,
	cmd_report, cmd_restore, cmd_vm, cmd_build, cmd_bisect;

/* Parse the command line of C (ARGV[0] is the command name) into ARGS, the
 * command's struct whose fields the rows name; set its defaults first.
 * Options come anywhere among the operands, even under POSIXLY_CORRECT, as in
 * git: "--name value", "--name=value", a unique prefix of a long name, "-x
 * value", "-xvalue", bundled flags ("-qn"). "--" ends the options; ARGV is
 * left as given (result.json records it). -h or --help before "--" prints
 * the help instead of parsing.
 * Returns true when the command should go on: *OPERANDS holds the operands,
 * and ARGS and OPERANDS are to be freed with cmd_release(). Otherwise the help
 * or an error ("run: unknown option '--x'; see 'starve run --help'") was
 * printed, everything is freed, and *STATUS is the exit status (0 or 2). */
bool cmd_parse(const struct cmd *c, int argc, char **argv, void *args,
	       struct cmd_words *operands, int *status);
void cmd_release(const struct cmd *c, void *args, struct cmd_words *operands);

/* A usage error of command C, printed as "NAME: message; see 'starve NAME
 * --help'". Returns -1. */
int cmd_usage_error(const struct cmd *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* DIR, the --output of a command that writes files there: made with its
 * parents, then checked to be a directory this process can write into, so a
 * wrong one (-o /dev/null, a file, a read-only place) is found before the
 * work. 0, or -1 with the error printed. */
int cmd_output_dir(const char *dir);

/* ---- cmd-usage.c: text from the tables ---- */

/* `starve C --help`: synopsis, summary, options (with ranges), notes; MORE's
 * options under their own heading when not NULL. */
void cmd_print_help(const struct cmd *c, const struct cmd_more *more, FILE *out);
/* "starve run PROFILE.yaml [--output DIR] [--repeat N]..." in BUF, not wrapped. */
const char *cmd_synopsis(const struct cmd *c, char *buf, size_t len);
/* The value's name of row O as help shows it ("DIR", "threads|processes"). */
const char *cmd_option_arg(const struct cmd_option *o, char *buf, size_t len);
/* The subcommands' part of starve(1)'s SYNOPSIS in roff (`starve --man`, pasted
 * by `make update-man`). */
void cmd_print_man_synopsis(const struct cmd *const *cmds, size_t n, FILE *out);

/* ---- completion.c ---- */

/* `starve --completion bash`: a bash completion script for CMDS (the
 * commands, their options and enum values, report formats, load types;
 * profile names looked up when completing). */
void cmd_print_bash_completion(const struct cmd *const *cmds, size_t n, FILE *out);

/* ---- rows: CMD_FLAG("quiet", struct check_args, quiet, "help", .short_name = 'q') ----
 * TYPE and FIELD name the command's argument struct and the field the row
 * fills; the field's C type is checked at compile time. Designators after the
 * help text set the rest: .short_name = 'o', .required = true. */
#define CMD_FIELD(type, field, want)                                                         \
	(offsetof(type, field) +                                                             \
	 0 * sizeof(struct {                                                                 \
		 int field_has_the_kinds_type                                                \
			 : __builtin_types_compatible_p(__typeof__(((type *)0)->field), want) \
				   ? 1 : -1;                                                 \
	 }))

/* --strict and --allow-undecided, of the commands that compare (compare,
 * vm): what an undecided comparison exits with; cmp_parse_undecided()
 * (reports/compare/compare.h) makes them its policy. */
struct cmd_undecided {
	bool strict, allow;
};
#define CMD_UNDECIDED_OPTIONS(type, member)                                                     \
	CMD_FLAG("strict", type, member.strict,                                                 \
		 "an undecided comparison exits 1, as a regression (default 4: no verdict)"),  \
	CMD_FLAG("allow-undecided", type, member.allow,                                         \
		 "an undecided comparison exits 0, as a pass (default 4: no verdict)")

#define CMD_FLAG(lname, type, field, text, ...)                                          \
	{ .name = (lname), .kind = CMD_OPT_FLAG, .help = (text),                         \
	  .offset = CMD_FIELD(type, field, bool), __VA_ARGS__ }
#define CMD_SET(lname, type, field, value, text, ...)                                    \
	{ .name = (lname), .kind = CMD_OPT_SET, .help = (text), .set_to = (value),       \
	  .offset = CMD_FIELD(type, field, int), __VA_ARGS__ }
#define CMD_STRING(lname, argname, type, field, text, ...)                               \
	{ .name = (lname), .kind = CMD_OPT_STRING, .arg = (argname), .help = (text),     \
	  .offset = CMD_FIELD(type, field, const char *), __VA_ARGS__ }
#define CMD_LIST(lname, argname, type, field, text, ...)                                 \
	{ .name = (lname), .kind = CMD_OPT_LIST, .arg = (argname), .help = (text),       \
	  .offset = CMD_FIELD(type, field, struct cmd_words), __VA_ARGS__ }
#define CMD_INT(lname, argname, row, type, field, text, ...)                             \
	{ .name = (lname), .kind = CMD_OPT_INT, .arg = (argname), .spec = (row),         \
	  .help = (text), .offset = CMD_FIELD(type, field, int64_t), __VA_ARGS__ }
#define CMD_CALL(lname, argname, row, fn, text, ...)                                     \
	{ .name = (lname), .kind = CMD_OPT_CALL, .arg = (argname), .spec = (row),        \
	  .call = (fn), .help = (text), __VA_ARGS__ }
#define CMD_END { .name = NULL }

#endif
