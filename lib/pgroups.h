/* Whether process groups still have a member that runs: kill(-pgid, 0)
 * succeeds while any member exists, a zombie too, so a group whose
 * processes are dead but not yet reaped (their parent died and the reaper
 * is slow) looks alive to it, and a wait for "gone" runs to its limit. */
#ifndef STARVE_PGROUPS_H
#define STARVE_PGROUPS_H

#include <stddef.h>
#include <sys/types.h>

/* How many of the N groups PGIDS have a member that is not a zombie, from
 * one walk of /proc; where /proc cannot be read, how many kill(-pgid, 0)
 * finds. */
size_t pgroups_live(const pid_t *pgids, size_t n);

#endif
