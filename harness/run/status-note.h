/* A run's status and its reason, as the engine sets them while the run goes
 * on: one place, one precedence. The first cause is kept: a later one
 * replaces it only when it is worse (ok < skipped < incomplete < error), so
 * "the deadline passed" never hides the failure that made the run late. A
 * restore failure (knobs, cgroups) always shows, with the cause before it,
 * since it says the machine is not as it was. */
#ifndef STARVE_RUN_STATUS_NOTE_H
#define STARVE_RUN_STATUS_NOTE_H

#include <stdbool.h>

#include "reports/result/result.h"

struct status_note {
	enum result_status status;
	char reason[400];		/* "" while ok */
};

/* OK, no reason: a run about to start. */
void status_note_reset(struct status_note *n);
/* ST for REASON, unless N already holds a cause as bad or worse; true
 * when N changed. */
bool status_note_set(struct status_note *n, enum result_status st, const char *reason);
/* WHAT could not be restored: an error, the earlier cause (if any) after
 * it. Always changes N. */
void status_note_restore_failed(struct status_note *n, const char *what);

#endif
