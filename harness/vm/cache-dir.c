/* starve's cache directories (cache-dir.h), by the XDG base directory rule. */
#include "config.h"
#include "harness/vm/cache-dir.h"

#include <stdio.h>
#include <stdlib.h>

const char *vm_cache_subdir(const char *env, const char *name, char *buf, size_t len)
{
	const char *set = getenv(env), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (set && *set)
		snprintf(buf, len, "%s", set);
	else if (xdg && *xdg)
		snprintf(buf, len, "%s/starve/%s", xdg, name);
	else
		snprintf(buf, len, "%s/.cache/starve/%s", home && *home ? home : "/tmp", name);
	return buf;
}
