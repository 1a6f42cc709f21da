/* starve check: validate profiles, reporting every error as file:line:col
 * on stderr and a one-line summary per good file on stdout. Exit 0 when every
 * file is good, 2 (a profile error) otherwise. */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "harness/profile/profile.h"
#include "harness/run/plan.h"
#include "lib/error.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static int run_check(int argc, char **argv);

struct check_args {
	bool quiet;
};

static const struct cmd_option check_options[] = {
	CMD_FLAG("quiet", struct check_args, quiet, "print errors only, no line per good profile",
		 .short_name = 'q'),
	CMD_END
};

const struct cmd cmd_check = {
	.name = "check", .operands = "PROFILE.yaml...",
	.summary = "validate profiles, reporting every error as file:line:col",
	.options = check_options, .run = run_check,
	.notes = "exit status: 0 when every profile is valid, 2 when any has an error.\n",
};

/* Check one file; true when it is valid. */
static bool check_file(const char *path, bool quiet)
{
	unsigned n_errors = 0;
	struct profile *p = profile_load(path, &n_errors);

	/* what run checks against this machine before writing anything: every
	 * load's CPUs exist here, RT loads leave a CPU free */
	if (p && run_plan_check(p, false) < 0) {
		profile_free(p);
		p = NULL;
		n_errors = 1;
	}
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

static int run_check(int argc, char **argv)
{
	struct check_args a = { .quiet = false };
	struct cmd_words files;
	bool all_ok = true;
	int status;

	if (!cmd_parse(&cmd_check, argc, argv, &a, &files, &status))
		return status;
	if (!files.n)
		cmd_usage_error(&cmd_check, "no profile given");
	for (size_t i = 0; i < files.n; i++)
		all_ok = check_file(files.v[i], a.quiet) && all_ok;
	status = all_ok && files.n ? EXIT_PASS : EXIT_USAGE;
	cmd_release(&cmd_check, &a, &files);
	return status;
}
