/* A controller in a cgroup2 directory's cgroup.subtree_control: whether it
 * is on, and the one writer that turns it on or off, for both users (the
 * cpu controller of cgroup settings, cgroup-v2 cpusets). Turning one on in a
 * hierarchy's root changes the machine: the run engine journals it first
 * (harness/run/controllers.h); placement cannot see the journal. */
#ifndef STARVE_SUBTREE_CONTROL_H
#define STARVE_SUBTREE_CONTROL_H

#include <stdbool.h>

/* Whether WORD is one of the space-separated words of LIST (a
 * cgroup.controllers or cgroup.subtree_control line). */
bool subtree_word_in(const char *list, const char *word);

/* Whether CONTROLLER is on in DIR's cgroup.subtree_control (false when the
 * file cannot be read). */
bool subtree_control_has(const char *dir, const char *controller);

/* Write "+CONTROLLER" (ON) or "-CONTROLLER" to DIR's cgroup.subtree_control;
 * -1 with a message. Turning it off while a child cgroup uses it (EBUSY:
 * one made since by someone else) leaves it on, with a warning, and is no
 * failure: their cgroup needs it now. */
int subtree_control_set(const char *dir, const char *controller, bool on);

#endif
