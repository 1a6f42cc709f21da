/* Live process groups (pgroups.h): one walk of /proc, each stat line's
 * state and process group. */
#include "config.h"
#include "lib/pgroups.h"
#include "lib/fsutil.h"
#include "lib/procstat.h"

#include <dirent.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

/* kill(-pgid, 0): every group with any member, zombies included. */
static size_t pgroups_existing(const pid_t *pgids, size_t n)
{
	size_t alive = 0;

	for (size_t i = 0; i < n; i++)
		alive += kill(-pgids[i], 0) == 0;
	return alive;
}

/* Mark in LIVE the group of the process named NAME in /proc, when it is
 * one of PGIDS and the process runs (not a zombie, not exiting). */
static void pgroups_mark(const char *name, const pid_t *pgids, size_t n, bool *live)
{
	char path[64], buf[512], state;
	unsigned long flags;
	long pgrp;
	ssize_t len;

	if (*name < '1' || *name > '9')
		return;
	snprintf(path, sizeof(path), "/proc/%s/stat", name);
	len = fs_read_small(path, buf, sizeof(buf));
	if (len < 0 || procstat_parse_pgrp(buf, (size_t)len, &state, &pgrp, &flags) < 0 ||
	    state == 'Z' || state == 'X')
		return;
	for (size_t i = 0; i < n; i++)
		if (pgids[i] == pgrp)
			live[i] = true;
}

size_t pgroups_live(const pid_t *pgids, size_t n)
{
	bool *live = calloc(n ? n : 1, sizeof(*live));
	DIR *dir = live ? opendir("/proc") : NULL;
	struct dirent *de;
	size_t count = 0;

	if (!dir) {
		free(live);
		return pgroups_existing(pgids, n);
	}
	while ((de = readdir(dir)))
		pgroups_mark(de->d_name, pgids, n, live);
	closedir(dir);
	for (size_t i = 0; i < n; i++)
		count += live[i];
	free(live);
	return count;
}
