/* Profiles by name (profile.h): `starve run rt-throttle` finds
 * ./profiles/rt-throttle.yaml, else the shipped one in the data directory
 * ($STARVE_DATADIR/profiles, else the one `make install` filled), the two
 * places `starve list` lists. */
#include "config.h"
#include "harness/profile/profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *profile_shipped_dir(char *buf, size_t len)
{
	const char *env = getenv("STARVE_DATADIR");

	snprintf(buf, len, "%s/profiles", env && *env ? env : STARVE_DATADIR);
	return buf;
}

const char *profile_find(const char *arg, char *buf, size_t len)
{
	char dir[512];
	const char *dirs[] = { "./profiles", profile_shipped_dir(dir, sizeof(dir)) };

	if (access(arg, F_OK) == 0 || strchr(arg, '/') || strchr(arg, '.'))
		return arg;	/* a file, or meant as one */
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(buf, len, "%s/%s.yaml", dirs[i], arg);
		if (access(buf, R_OK) == 0)
			return buf;
	}
	return arg;
}
