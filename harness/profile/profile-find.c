/* Profiles by name (profile.h): `starve run rt-throttle` finds
 * ./profiles/rt-throttle.yaml, else the shipped one in the data directory
 * ($STARVE_DATADIR/profiles, else the one `make install` filled, also when
 * staged under DESTDIR), the two places `starve list` lists, and their
 * known/ folders; a name found nowhere is said with the folders looked in. */
#include "config.h"
#include "harness/profile/profile.h"
#include "lib/error.h"

#include <errno.h>
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

/* The folders a name is looked up in, in order: ./profiles, then the shipped
 * one (its path in SHIPPED). */
#define PROFILE_N_DIRS 2
static void profile_dirs(const char *dirs[PROFILE_N_DIRS], char *shipped, size_t len)
{
	dirs[0] = "./profiles";
	dirs[1] = profile_shipped_dir(shipped, len);
}

/* A name to look up rather than a file: not absolute and without a '.' (no
 * ".yaml", "./" or "../"); "known/place-lag" is one, the folder `starve
 * list` shows it in. */
static bool profile_is_name(const char *arg)
{
	return *arg && *arg != '/' && !strchr(arg, '.');
}

const char *profile_find(const char *arg, char *buf, size_t len)
{
	char shipped[512];
	const char *dirs[PROFILE_N_DIRS];

	if (access(arg, F_OK) == 0 || !profile_is_name(arg))
		return arg;	/* a file, or meant as one */
	profile_dirs(dirs, shipped, sizeof(shipped));
	for (size_t i = 0; i < PROFILE_N_DIRS; i++)
		for (size_t s = 0; profile_subdirs[s]; s++) {
			snprintf(buf, len, "%s/%s%s.yaml", dirs[i], profile_subdirs[s], arg);
			if (access(buf, R_OK) == 0)
				return buf;
		}
	return arg;
}

int profile_find_error(const char *arg, const char *path)
{
	char shipped[512];
	const char *dirs[PROFILE_N_DIRS];

	if (errno != ENOENT)
		return error_errno("cannot open profile '%s'", path);
	profile_dirs(dirs, shipped, sizeof(shipped));
	if (path == arg && profile_is_name(arg))
		return error("no profile '%s' in %s, %s or their known/ folders; 'starve list' "
			     "shows the profiles there", arg, dirs[0], dirs[1]);
	return error("cannot open profile '%s': %s; a name without .yaml is looked up in %s "
		     "and %s ('starve list' shows them)", path, strerror(ENOENT), dirs[0], dirs[1]);
}
