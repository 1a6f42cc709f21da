/* A run's status and reason with one precedence (status-note.h). */
#include "config.h"
#include "harness/run/status-note.h"

#include <stdio.h>
#include <string.h>

/* How bad each status is: a later cause must be worse to replace one. */
static int status_note_rank(enum result_status st)
{
	switch (st) {
	case RESULT_OK:
		return 0;
	case RESULT_SKIPPED:
		return 1;
	case RESULT_INCOMPLETE:
		return 2;
	case RESULT_ERROR:
		break;
	}
	return 3;
}

void status_note_reset(struct status_note *n)
{
	n->status = RESULT_OK;
	n->reason[0] = '\0';
}

bool status_note_set(struct status_note *n, enum result_status st, const char *reason)
{
	if (status_note_rank(st) <= status_note_rank(n->status))
		return false;
	n->status = st;
	snprintf(n->reason, sizeof(n->reason), "%s", reason ? reason : "");
	return true;
}

void status_note_restore_failed(struct status_note *n, const char *what)
{
	char before[sizeof(n->reason) - 100];	/* room for WHAT before it */

	snprintf(before, sizeof(before), "%.*s", (int)sizeof(before) - 1,
		 n->status == RESULT_OK ? "" : n->reason);
	n->status = RESULT_ERROR;
	if (before[0])
		snprintf(n->reason, sizeof(n->reason), "%s (after: %s)", what, before);
	else
		snprintf(n->reason, sizeof(n->reason), "%s", what);
}
