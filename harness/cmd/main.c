/* starve: stress and regression harness for the CPU scheduler of live
 * kernels. This file only dispatches to the subcommands (one file each in harness/cmd/).
 * `starve --man` (not in --help) prints the SYNOPSIS of starve(1) from their
 * option tables for `make update-man`, `starve --man-formats` its REPORT
 * FORMATS from the report-format table. */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "lib/error.h"
#include "lib/jsonseed.h"
#include "lib/options.h"
#include "reports/formats.h"

#include <stdio.h>
#include <string.h>

static const struct cmd *const commands[] = {
	&cmd_run, &cmd_check, &cmd_env, &cmd_list, &cmd_load,
	&cmd_compare, &cmd_report, &cmd_restore, &cmd_vm, &cmd_build, &cmd_bisect,
};
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	fprintf(out, "usage: starve [--version] [--help] COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(out, "  %-8s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(out, "\nexit status: 0 pass, 1 a verdict failed or a regression was found,\n"
		     "2 usage or profile error, 3 runtime error, 4 everything skipped.\n"
		     "'starve COMMAND --help' describes a command.\n");
}

/* An unknown command, with a "did you mean" as an unknown option gets one
 * (cmd.c). Returns the exit status. */
static int unknown_command(const char *word)
{
	const char *names[N_COMMANDS], *hint;

	for (size_t i = 0; i < N_COMMANDS; i++)
		names[i] = commands[i]->name;
	hint = opt_suggest(word, names, N_COMMANDS);
	if (hint)
		error("'%s' is not a starve command (did you mean '%s'?); see 'starve --help'",
		      word, hint);
	else
		error("'%s' is not a starve command; see 'starve --help'", word);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	jsonseed_init();	/* before any JSON: never wait for the CRNG */
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("starve %s\n", PACKAGE_VERSION);
		return EXIT_PASS;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_PASS;
	}
	if (!strcmp(argv[1], "--man")) {
		cmd_print_man_synopsis(commands, N_COMMANDS, stdout);
		return EXIT_PASS;
	}
	if (!strcmp(argv[1], "--man-formats")) {
		report_formats_print_man(stdout);
		return EXIT_PASS;
	}
	if (!strcmp(argv[1], "--completion") && argc == 3 && !strcmp(argv[2], "bash")) {
		cmd_print_bash_completion(commands, N_COMMANDS, stdout);
		return EXIT_PASS;
	}
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (!strcmp(argv[1], commands[i]->name))
			return commands[i]->run(argc - 1, argv + 1);
	return unknown_command(argv[1]);
}
