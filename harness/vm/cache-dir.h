/* Where starve keeps what it fetched or built for `starve vm` and `starve
 * build`: $ENV when set, else $XDG_CACHE_HOME/starve/NAME, else
 * ~/.cache/starve/NAME (/tmp when there is no home). */
#ifndef STARVE_VM_CACHE_DIR_H
#define STARVE_VM_CACHE_DIR_H

#include <stddef.h>

const char *vm_cache_subdir(const char *env, const char *name, char *buf, size_t len);

#endif
