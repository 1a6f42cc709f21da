/* Profiles by name (profile.h): `starve run rt-throttle` finds
 * ./profiles/rt-throttle.yaml, else the shipped one in the data directory
 * ($STARVE_DATADIR/profiles, else the one `make install` filled, also when
 * staged under DESTDIR), the two places `starve list` lists. */
#include "config.h"
#include "harness/profile/profile.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A starve installed with `make install DESTDIR=D` runs as D/BINDIR/starve
 * and finds its data in D/DATADIR: D is what precedes BINDIR in its path. */
static bool profile_staged_dir(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t bin = strlen(STARVE_BINDIR), dir;

	if (n <= 0)
		return false;
	exe[n] = '\0';
	dir = (size_t)(strrchr(exe, '/') - exe);
	if (dir < bin || strncmp(exe + dir - bin, STARVE_BINDIR, bin))
		return false;
	snprintf(buf, len, "%.*s%s/profiles", (int)(dir - bin), exe, STARVE_DATADIR);
	return access(buf, R_OK) == 0;
}

const char *profile_shipped_dir(char *buf, size_t len)
{
	const char *env = getenv("STARVE_DATADIR");

	if (env && *env)
		snprintf(buf, len, "%s/profiles", env);
	else if (!profile_staged_dir(buf, len))
		snprintf(buf, len, "%s/profiles", STARVE_DATADIR);
	return buf;
}

const char *const profile_subdirs[] = { "", "known/", NULL };

const char *profile_find(const char *arg, char *buf, size_t len)
{
	char dir[512];
	const char *dirs[] = { "./profiles", profile_shipped_dir(dir, sizeof(dir)) };

	if (access(arg, F_OK) == 0 || strchr(arg, '/') || strchr(arg, '.'))
		return arg;	/* a file, or meant as one */
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		for (size_t s = 0; profile_subdirs[s]; s++) {
			snprintf(buf, len, "%s/%s%s.yaml", dirs[i], profile_subdirs[s], arg);
			if (access(buf, R_OK) == 0)
				return buf;
		}
	return arg;
}
