/* `starve build TREE[@REV]`: a kernel built out of tree (make O=) in starve's
 * cache with the shipped config fragment merged over a small base, checked
 * after olddefconfig, and kept under a key of everything that makes the
 * image (the source's commit, the fragment, the base config, the compiler),
 * so that asking again builds nothing. `starve vm --kernel TREE@REV` builds
 * through it. The user's checkout and its .config are never written. */
#ifndef STARVE_VM_BUILD_H
#define STARVE_VM_BUILD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct vm_build_request {
	const char *spec;	/* "TREE" or "TREE@REV" */
	const char *base;	/* "tinyconfig" (NULL), "defconfig", or a config file */
	const char *fragment;	/* NULL: the shipped one */
	bool allow_missing;	/* build even when fragment options were dropped */
	bool progress;		/* a progress line on stderr */
};

struct vm_build_result {
	char image[PATH_MAX + 200];	/* the bzImage */
	char key[65];		/* its cache key; "" when it is not cached */
	char log[PATH_MAX + 200];	/* the build's log */
	bool built;		/* false: found in the cache, nothing ran */
	char error[2048];	/* why not, for a caller that reports it itself */
};

/* Build (or find) RQ's kernel. Returns 0 with RES->image, 2 for bad input
 * (not a kernel tree, an unknown revision, a bad fragment or base), 3 when
 * the build failed, fragment options did not survive (unless
 * allow_missing) or a signal stopped it; RES->error says why. */
int vm_build(const struct vm_build_request *rq, struct vm_build_result *res);

#endif
