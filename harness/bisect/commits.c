/* The kernels of `starve bisect --git TREE --good A --bad B` (bisect.h): A,
 * then every commit after it up to B along B's first parents (the commits
 * a merge brought in are not stepped into, as `git bisect --first-parent`),
 * each as TREE@SHA, which `starve vm` builds through `starve build`. */
#include "config.h"
#include "harness/bisect/bisect.h"
#include "harness/vm/exec.h"
#include "lib/error.h"
#include "lib/xalloc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMMITS_OUT (1 << 20)

/* REV's commit id in TREE into SHA; -1 with the error printed. */
static int commits_resolve(const char *tree, const char *opt, const char *rev, char *sha,
			   size_t len)
{
	char spec[512];
	const char *argv[] = { "git", "-C", tree, "rev-parse", "--verify", "--quiet", spec, NULL };

	snprintf(spec, sizeof(spec), "%s^{commit}", rev);
	if (vm_exec(argv, NULL, sha, len) != 0)
		return error("--%s %s: no such commit in %s", opt, rev, tree);
	sha[strcspn(sha, "\n")] = '\0';
	return 0;
}

int bisect_git_commits(const char *tree_arg, const char *good, const char *bad, char **out,
		       char **subjects, size_t max)
{
	char tree[PATH_MAX], from[128], to[128], range[300], *text = xcalloc(1, COMMITS_OUT);
	const char *ancestor[] = { "git", "-C", tree, "merge-base", "--is-ancestor", from, to, NULL };
	const char *log[] = { "git", "-C", tree, "log", "--reverse", "--first-parent",
			      "--format=%H %s", range, NULL };
	size_t n = 0;
	int rc = -1;

	if (!realpath(tree_arg, tree))
		error("--git %s: no such directory", tree_arg);
	else if (commits_resolve(tree, "good", good, from, sizeof(from)) == 0 &&
		 commits_resolve(tree, "bad", bad, to, sizeof(to)) == 0) {
		snprintf(range, sizeof(range), "%s..%s", from, to);
		if (vm_exec(ancestor, NULL, NULL, 0) != 0)
			error("--good %s is not an ancestor of --bad %s in %s", good, bad, tree);
		else if (vm_exec(log, NULL, text, COMMITS_OUT) != 0)
			error("git log %s failed in %s: %s", range, tree, text);
		else
			rc = 0;
	}
	if (rc == 0) {
		out[n] = xasprintf("%s@%s", tree, from);
		subjects[n++] = xstrdup("(--good)");
		for (char *line = strtok(text, "\n"); line && rc == 0; line = strtok(NULL, "\n")) {
			size_t sha = strcspn(line, " ");

			if (n == max) {
				rc = error("--good %s..--bad %s: more than %zu commits; narrow the "
					   "range", good, bad, max - 1);
				break;
			}
			out[n] = xasprintf("%s@%.*s", tree, (int)sha, line);
			subjects[n++] = xstrdup(line[sha] ? line + sha + 1 : "");
		}
	}
	free(text);
	if (rc < 0) {
		bisect_kernels_free(out, n);
		bisect_kernels_free(subjects, n);
		return -1;
	}
	return (int)n;
}
