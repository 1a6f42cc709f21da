/* The machine's registry of journals: one pointer per state directory that
 * holds a journal with changes in it, beside the machine's lock and, like
 * it, whatever $STARVE_STATE_DIR says. A run consults it under the lock and
 * refuses while another state dir's journal is unrestored (it would record
 * that run's leftovers as its own old values); `starve restore` restores
 * every journal it names. A pointer is a symlink named after the state
 * directory's device and inode, to that directory; it is made before the
 * journal's first entry and removed after the journal file, so a journal
 * with changes always has one (a pointer without a journal is stale and
 * removed under the lock). */
#ifndef STARVE_JOURNAL_REGISTRY_H
#define STARVE_JOURNAL_REGISTRY_H

#include "harness/kernel/journal.h"

#include <stdbool.h>
#include <stddef.h>

#define JOURNAL_REGISTRY_DIR "/run/starve.journals"

/* The pointer's path for state directory DIR into OUT (LEN bytes); -1 when
 * DIR does not exist (nothing to point at). */
int journal_registry_pointer(const char *dir, char *out, size_t len);

/* Refuse (-1, the message naming the journal and how to restore it) while
 * a state directory other than OWN_DIR has an unrestored journal. With
 * HAVE_LOCK (the machine's lock is ours) stale pointers are removed. 0 also
 * when the registry cannot be read (not root: no knob can be changed). */
int journal_registry_check(const char *own_dir, bool have_lock);

/* Point the registry at J's directory (J open, before its first entry). */
int journal_registry_add(struct journal *j);

/* Call FN with every other state directory (not OWN_DIR) the registry
 * names, and the pointer naming it; stops at and returns FN's first non-zero value. */
int journal_registry_each(const char *own_dir,
			  int (*fn)(const char *dir, const char *pointer, void *arg), void *arg);

#endif
