/* starve build: a kernel tree (or one of its commits) built with the config
 * fragment starve ships, out of tree in starve's cache (harness/vm/build.h);
 * prints the image's path on stdout. --list and --clean manage the cache. */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "harness/vm/build.h"
#include "harness/vm/build-cache.h"
#include "harness/run/signals.h"
#include "lib/error.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run_build(int argc, char **argv);

struct build_args {
	const char *base, *fragment, *clean;
	bool allow_missing, list, quiet;
};

static const struct cmd_option build_options[] = {
	CMD_STRING("base", "CONFIG", struct build_args, base,
		   "the config the fragment is merged over: tinyconfig (default), defconfig, "
		   "allnoconfig or a config file"),
	CMD_STRING("fragment", "FILE", struct build_args, fragment,
		   "merge this config fragment instead of the shipped kernels/starve.config"),
	CMD_FLAG("allow-missing", struct build_args, allow_missing,
		 "build even when options of the fragment did not survive olddefconfig"),
	CMD_FLAG("list", struct build_args, list, "list the kernels in the cache"),
	CMD_STRING("clean", "KEY|all", struct build_args, clean,
		   "remove one cached kernel (a key as --list shows it), or the whole cache"),
	CMD_FLAG("quiet", struct build_args, quiet, "no progress line", .short_name = 'q'),
	CMD_END
};

const struct cmd cmd_build = {
	.name = "build", .operands = "TREE[@REV]",
	.summary = "build a kernel tree or commit with starve's config fragment, cached",
	.options = build_options, .run = run_build,
	.notes = "The build runs out of tree (make O=) in $STARVE_BUILD_CACHE (default\n"
		 "~/.cache/starve/builds); a revision is checked out in a temporary git\n"
		 "worktree. A clean git tree is cached by its commit, the fragment, the base\n"
		 "and the compiler; a dirty or non-git tree is built but not cached.\n"
		 "exit status: 0 built or found, 2 bad input, 3 the build failed, options of\n"
		 "the fragment were dropped, or it was interrupted.\n",
};

static int build_one(const struct build_args *a, const char *spec)
{
	struct vm_build_request rq = { .spec = spec, .base = a->base, .fragment = a->fragment,
				       .allow_missing = a->allow_missing, .progress = !a->quiet };
	struct vm_build_result res;
	int rc;

	signals_install(NULL);
	rc = vm_build(&rq, &res);
	signals_uninstall();
	if (rc) {
		error("build %s: %s", spec, res.error);
		return rc;
	}
	if (!res.built)
		fprintf(stderr, "starve: %s: cached (%.12s), nothing to build\n", spec, res.key);
	printf("%s\n", res.image);
	return EXIT_PASS;
}

static int run_build(int argc, char **argv)
{
	struct build_args a = { .base = NULL };
	struct cmd_words trees;
	int status;

	if (!cmd_parse(&cmd_build, argc, argv, &a, &trees, &status))
		return status;
	if (a.list && !trees.n && !a.clean)
		status = vm_build_cache_list();
	else if (a.clean && !trees.n && !a.list)
		status = vm_build_cache_clean(a.clean);
	else if (trees.n != 1 || a.list || a.clean)
		status = (cmd_usage_error(&cmd_build, "one TREE[@REV] to build, or --list, or "
					  "--clean KEY|all"), EXIT_USAGE);
	else
		status = build_one(&a, trees.v[0]);
	cmd_release(&cmd_build, &a, &trees);
	return status;
}
