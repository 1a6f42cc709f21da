/* What `starve build TREE[@REV]` builds: a kernel tree as it is, or one of
 * its commits checked out in a temporary git worktree (removed after), and
 * whether the result may be cached (a clean git tree: its commit names the
 * source exactly; a dirty or non-git tree is built but not kept). */
#ifndef STARVE_VM_BUILD_SOURCE_H
#define STARVE_VM_BUILD_SOURCE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct vm_build_source {
	char tree[PATH_MAX];	/* TREE, absolute */
	char rev[256];		/* REV as given, "" for the tree as it is */
	char commit[64];	/* the commit built, "" outside git */
	char subject[256];	/* its subject line */
	bool dirty;		/* uncommitted changes: not cached */
	char dir[PATH_MAX];	/* the source make reads: TREE or the worktree */
	bool worktree;		/* DIR is a worktree to remove */
};

/* True when `--kernel SPEC` asks for a build: TREE@REV of a directory TREE,
 * or a git kernel tree without a bzImage of its own (arch/x86/boot/). */
bool vm_build_source_wanted(const char *spec);
/* Split SPEC into tree and revision and check both (a kernel tree, a
 * revision of its git repository). 0, or -1 with WHY (bad input). */
int vm_build_source_resolve(const char *spec, struct vm_build_source *s, char *why, size_t len);
/* When S names a revision, check it out into a worktree under CACHE. 0, or
 * -1 with WHY. */
int vm_build_source_checkout(struct vm_build_source *s, const char *cache, char *why, size_t len);
/* Remove the worktree, if any. */
void vm_build_source_release(struct vm_build_source *s);

#endif
