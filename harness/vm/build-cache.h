/* The cache of `starve build` (build.h): one directory per key holding the
 * image (bzImage), its config (config-starve) and what made it (info). An
 * entry is written in a temporary directory beside it and renamed into
 * place whole, so a build that fails or is interrupted leaves none. The
 * object directories make keeps between builds (obj-*) and the logs live
 * beside the entries. */
#ifndef STARVE_VM_BUILD_CACHE_H
#define STARVE_VM_BUILD_CACHE_H

#include <stdbool.h>
#include <stddef.h>

/* $STARVE_BUILD_CACHE, else $XDG_CACHE_HOME/starve/builds, else
 * ~/.cache/starve/builds, into BUF. */
const char *vm_build_cache_dir(char *buf, size_t len);
/* The key of everything that makes an image: TEXT (one "name=value" line
 * each: commit, base, fragment, compiler), hashed into KEY. */
void vm_build_cache_key(const char *text, char key[65]);
/* KEY's image into IMAGE when the cache holds it. */
bool vm_build_cache_find(const char *key, char *image, size_t len);
/* Put the finished entry directory TMP into place as KEY. 0, or -1 with WHY. */
int vm_build_cache_store(const char *tmp, const char *key, char *why, size_t why_len);
/* `starve build --list`: one line per cached kernel on stdout; 0. */
int vm_build_cache_list(void);
/* `starve build --clean KEY|all`: 0, or 2 with a message when KEY is no
 * entry. "all" also removes the object directories and logs. */
int vm_build_cache_clean(const char *what);

#endif
