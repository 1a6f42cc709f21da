/* The sched features knob, debugfs:sched/features: reading it gives every
 * feature as "X" or "NO_X", and each write sets ONE feature. So a setting's
 * value may list several tokens ("NO_RUN_TO_PARITY NO_PLACE_LAG"), written
 * one per write, and what is journaled is not the file's text but, for each
 * feature written, the token that puts it back ("RUN_TO_PARITY PLACE_LAG"). */
#ifndef STARVE_KNOB_FEATURES_H
#define STARVE_KNOB_FEATURES_H

#include <stdbool.h>
#include <stddef.h>

#define KFEAT_KNOB "debugfs:sched/features"

/* Whether KNOB is the features knob (its values are token lists). */
bool kfeat_is_knob(const char *knob);

/* From LIST (the features file's text) and VALUE (tokens "X" or "NO_X",
 * space-separated), put in OUT (LEN bytes) the current state of each feature
 * VALUE names, in VALUE's order: the restore value. -1 with WHY when a token
 * is malformed, names a feature LIST lacks, or OUT is too small. */
int kfeat_restore_value(const char *list, const char *value, char *out, size_t len,
			char *why, size_t why_len);

/* The same, reading LIST from the features file at PATH (whole: it is
 * longer than a knob_state value). */
int kfeat_restore_value_at(const char *path, const char *value, char *out, size_t len,
			   char *why, size_t why_len);

/* Write each token of VALUE to PATH with its own open/write/close, since
 * the kernel parses one feature per write. Async-signal-safe (the journal's
 * signal path uses it). Returns 0 or the errno of the first failure, after
 * trying every token. */
int kfeat_write_tokens(const char *path, const char *value);

#endif
