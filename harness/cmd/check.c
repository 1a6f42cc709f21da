/* starve check: validate profiles, reporting every error as file:line:col
 * on stderr and a one-line summary per good file on stdout. Exit 0 when every
 * file is good, 2 (a profile error) otherwise. */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "harness/profile/profile.h"
#include "lib/error.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static int run_check(int argc, char **argv);

const struct cmd cmd_check = { "check", "[--quiet] PROFILE.yaml...",
			       "validate profiles, reporting every error as file:line:col",
			       run_check };

static const char check_options[] =
	"options:\n"
	"  -q, --quiet   print errors only, no line per good profile\n"
	"\nexit status: 0 when every profile is valid, 2 when any has an error.\n";

/* Check one file; true when it is valid. */
static bool check_file(const char *path, bool quiet)
{
	unsigned n_errors = 0;
	struct profile *p = profile_load(path, &n_errors);

	if (!p) {
		if (!quiet)
			fprintf(stderr, "%s: %u error%s\n", path, n_errors, n_errors == 1 ? "" : "s");
		return false;
	}
	if (!quiet)
		printf("%s: ok (%zu load%s, %zu setting%s, %zu expectation%s)\n", path,
		       p->n_loads, p->n_loads == 1 ? "" : "s", p->n_settings,
		       p->n_settings == 1 ? "" : "s", p->n_expect, p->n_expect == 1 ? "" : "s");
	profile_free(p);
	return true;
}

static int check_option(int c, char *arg, void *data)
{
	(void)arg;
	if (c != 'q')
		return error("see 'starve check --help'");
	*(bool *)data = true;
	return 0;
}

static int run_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "quiet", no_argument, NULL, 'q' }, { NULL, 0, NULL, 0 },
	};
	bool quiet = false, all_ok = true;
	char **files;
	int n_files;

	if (cmd_wants_help(argc, argv)) {
		cmd_usage(&cmd_check, check_options);
		return EXIT_PASS;
	}
	opterr = 1;
	if (cmd_parse_options(argc, argv, "q", longopts, check_option, &quiet, &files,
			      &n_files) < 0) {
		free(files);
		return EXIT_USAGE;
	}
	if (!n_files)
		error("no profile given; usage: starve %s %s", cmd_check.name, cmd_check.args);
	for (int i = 0; i < n_files; i++)
		all_ok = check_file(files[i], quiet) && all_ok;
	free(files);
	return all_ok && n_files ? EXIT_PASS : EXIT_USAGE;
}
