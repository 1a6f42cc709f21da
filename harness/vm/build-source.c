/* The source of a build (build-source.h): TREE must be a kernel tree (a
 * Kconfig, the x86 Kconfig and merge_config.sh); REV is asked of git, and
 * checked out detached in a worktree at a fixed path per tree in the cache,
 * so the compiler sees the same paths from one commit to the next (ccache
 * then hits for every file a step did not change). */
#include "config.h"
#include "harness/vm/build-source.h"
#include "harness/vm/exec.h"
#include "lib/error.h"
#include "lib/fsutil.h"
#include "lib/sha256.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool source_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool source_has(const char *tree, const char *file)
{
	char path[PATH_MAX + 100];

	snprintf(path, sizeof(path), "%s/%s", tree, file);
	return access(path, R_OK) == 0;
}

/* Run git in TREE; its output, without the last newline, into OUT. */
static int source_git(const char *tree, const char *const args[], char *out, size_t len)
{
	const char *argv[12] = { "git", "-C", tree };
	size_t n = 3;
	int rc;

	for (size_t i = 0; args[i] && n < 11; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	rc = vm_exec(argv, NULL, out, len);
	if (out && len && *out && out[strlen(out) - 1] == '\n')
		out[strlen(out) - 1] = '\0';
	return rc;
}

/* "TREE@REV": the last '@' whose left part is a directory. */
static void source_split(const char *spec, struct vm_build_source *s, char *tree, size_t len)
{
	const char *at = strrchr(spec, '@');

	snprintf(tree, len, "%s", spec);
	s->rev[0] = '\0';
	if (at && !source_is_dir(spec)) {
		snprintf(tree, len, "%.*s", (int)(at - spec), spec);
		snprintf(s->rev, sizeof(s->rev), "%s", at + 1);
	}
}

static int source_git_state(struct vm_build_source *s, char *why, size_t len)
{
	char out[4096], spec[300];
	const char *top[] = { "rev-parse", "--show-toplevel", NULL };
	const char *status[] = { "status", "--porcelain", NULL };
	const char *verify[] = { "rev-parse", "--verify", "--quiet", spec, NULL };
	const char *subject[] = { "log", "-1", "--format=%s", spec, NULL };
	bool git = source_git(s->tree, top, out, sizeof(out)) == 0 && !strcmp(out, s->tree);

	if (!git && s->rev[0])
		return error_why(why, len, "%s@%s: %s is not a git repository, so it has no "
				 "revisions", s->tree, s->rev, s->tree);
	if (!git)
		return 0;
	snprintf(spec, sizeof(spec), "%s^{commit}", s->rev[0] ? s->rev : "HEAD");
	if (source_git(s->tree, verify, out, sizeof(out)) != 0)
		return error_why(why, len, "%s: unknown revision '%s' (git rev-parse found no commit)",
				 s->tree, s->rev[0] ? s->rev : "HEAD");
	snprintf(s->commit, sizeof(s->commit), "%.63s", out);
	source_git(s->tree, subject, s->subject, sizeof(s->subject));
	if (!s->rev[0]) {
		s->dirty = source_git(s->tree, status, out, sizeof(out)) != 0 || out[0];
	}
	return 0;
}

int vm_build_source_resolve(const char *spec, struct vm_build_source *s, char *why, size_t len)
{
	char tree[PATH_MAX];

	memset(s, 0, sizeof(*s));
	source_split(spec, s, tree, sizeof(tree));
	if (!source_is_dir(tree))
		return error_why(why, len, "%s: no such directory (a kernel tree, TREE or TREE@REV)",
				 tree);
	if (!realpath(tree, s->tree))
		return error_why(why, len, "%s: %s", tree, strerror(errno));
	if (!source_has(s->tree, "Kconfig") || !source_has(s->tree, "arch/x86/Kconfig") ||
	    !source_has(s->tree, "scripts/kconfig/merge_config.sh"))
		return error_why(why, len, "%s is not a kernel tree (no Kconfig, arch/x86/Kconfig "
				 "or scripts/kconfig/merge_config.sh)", s->tree);
	if (source_git_state(s, why, len) < 0)
		return -1;
	snprintf(s->dir, sizeof(s->dir), "%s", s->tree);
	return 0;
}

int vm_build_source_checkout(struct vm_build_source *s, const char *cache, char *why, size_t len)
{
	char hex[SHA256_HEX_LEN], out[4096];
	struct sha256 h;
	const char *prune[] = { "worktree", "prune", NULL };

	if (!s->rev[0])
		return 0;
	sha256_init(&h);
	sha256_update(&h, s->tree, strlen(s->tree));
	sha256_final_hex(&h, hex);
	snprintf(s->dir, sizeof(s->dir), "%s/worktree-%.12s", cache, hex);
	/* a worktree an earlier build could not remove (kill -9) */
	if (source_is_dir(s->dir))
		fs_remove_tree(s->dir);
	source_git(s->tree, prune, NULL, 0);
	{
		const char *add[] = { "worktree", "add", "--detach", "--quiet", s->dir, s->commit,
				      NULL };

		if (source_git(s->tree, add, out, sizeof(out)) != 0) {
			char last[512];

			return error_why(why, len, "git worktree add %s %s: %s", s->dir, s->commit,
					 vm_last_line(out, last, sizeof(last)));
		}
	}
	s->worktree = true;
	return 0;
}

void vm_build_source_release(struct vm_build_source *s)
{
	const char *remove[] = { "worktree", "remove", "--force", s->dir, NULL };

	if (!s->worktree)
		return;
	if (source_git(s->tree, remove, NULL, 0) != 0)
		fs_remove_tree(s->dir);
	s->worktree = false;
}

bool vm_build_source_wanted(const char *spec)
{
	struct vm_build_source s;
	char tree[PATH_MAX];

	source_split(spec, &s, tree, sizeof(tree));
	if (!source_is_dir(tree))
		return false;
	if (s.rev[0])
		return true;
	return source_has(tree, "Kconfig") && source_has(tree, ".git") &&
	       !source_has(tree, "arch/x86/boot/bzImage");
}
