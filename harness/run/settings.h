/* Applying one profile setting (a set of knob values) safely: probe every
 * knob first and skip the whole setting, with the reason, when one is
 * missing or not writable; otherwise journal the old values, then write.
 * Nothing is ever left half-applied. */
#ifndef STARVE_SETTINGS_H
#define STARVE_SETTINGS_H

#include <stddef.h>

#include "harness/kernel/journal.h"
#include "harness/profile/profile.h"

enum settings_status {
	SETTINGS_APPLIED = 0,	/* every knob written (old values journaled) */
	SETTINGS_SKIPPED = 1,	/* a knob is missing or not writable; nothing written */
	SETTINGS_FAILED = -1,	/* a write failed; those written were restored */
};

/* Apply S through journal J (opened by journal_open). REASON (LEN bytes)
 * says why when skipped or failed: "kernel.sched_g1: no such knob on 6.18.44",
 * "debugfs:sched/base_slice_ns: not writable (EPERM: kernel lockdown?)".
 * A setting with no knobs is applied trivially. */
enum settings_status settings_apply(struct journal *j, const struct setting *s,
				    char *reason, size_t len);

/* Restore every knob journaled since the last restore (at the end of each
 * setting). Returns the number of knobs that could not be restored. */
int settings_restore(struct journal *j);

/* FN(name, value, ARG) for each of knob_known[] that can be read, in its
 * order (result.json "knobs_before"). Returns how many. */
int knobs_snapshot(void (*fn)(const char *name, const char *value, void *arg), void *arg);

#endif
