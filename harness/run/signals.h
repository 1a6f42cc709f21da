/* Signals during `starve run`: the first SIGINT, SIGTERM or SIGHUP only sets
 * a flag, so the run stops its loads, restores its knobs and writes a
 * partial result the normal way; a second one (once the first run's
 * partial result is written, see signals_arm_second) means "now": the handler
 * SIGKILLs every process the controller started but the spared one (the
 * watchdog) and every registered load group, restores the journal with
 * async-signal-safe calls only, and exits with status 3. */
#ifndef STARVE_SIGNALS_H
#define STARVE_SIGNALS_H

#include <stdbool.h>
#include <sys/types.h>

#include "harness/kernel/journal.h"

/* Install the handlers; J (may be NULL) is what a second signal restores.
 * Called first with NULL as `starve run` starts (a signal before the run
 * began is caught and kept, the run then stops before its first load),
 * again with the journal once it is open. */
void signals_install(struct journal *j);
/* ARMED: from now on a second signal acts at once (killing loads,
 * restoring, exit 3). Unarmed (before the first partial result, and again
 * once the run is over and its result is being written), it is only noted:
 * the command ends the normal way, with its result. */
void signals_arm_second(bool armed);
/* The one descendant a second signal leaves alive (the watchdog), 0: none. */
void signals_spare(pid_t pid);
/* Put the default handlers back. */
void signals_uninstall(void);
/* The first signal caught, 0 if none. */
int signals_caught(void);
/* Load process groups a second signal kills (as many as there are loads;
 * -1 with a message only when out of memory). */
int signals_add_group(pid_t pgid);
void signals_remove_group(pid_t pgid);

#endif
