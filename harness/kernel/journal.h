/* The journal: before a run changes anything on the machine, it records how
 * to undo it in <state dir>/journal (fsync'd, renamed or linked into place,
 * directory fsync'd), so a crashed or killed run can be undone by `starve
 * restore` or by the watchdog. The state dir is $STARVE_STATE_DIR, else
 * /run/starve.
 *
 * Each entry has a kind, which says how it is undone:
 *   sysctl   "kernel.sched_rt_runtime_us" -> write the old value back
 *   debugfs  "debugfs:sched/base_slice_ns" -> write the old value back
 *   tracefs  instance "starve-<pid>" (exact mode) -> remove the instance
 *   cgroup   a directory starve created under /sys/fs/cgroup -> rmdir it
 *            (its tasks killed first when it has cgroup.kill), deepest first
 *   controller  "cpuset" enabled in a cgroup2 directory's subtree_control
 *            -> write "-cpuset" there, after the cgroups are gone (EBUSY: a
 *            cgroup made since by someone else uses it; it stays)
 *   mount    "tracefs" or "debugfs" starve mounted at its usual place
 *            (/sys/kernel/tracing, /sys/kernel/debug) where it was not
 *            mounted -> unmount it, after the instances in it are gone
 * Record an entry BEFORE the change it undoes; forget it once undone on the
 * normal path.
 *
 * The journal lives in one fixed-size struct (no pointers to the heap) so a
 * signal handler can restore from it with async-signal-safe calls only. */
#ifndef STARVE_JOURNAL_H
#define STARVE_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define JOURNAL_MAX_ENTRIES 64
#define JOURNAL_NAME_MAX 256
#define JOURNAL_PATH_MAX 320
#define JOURNAL_VALUE_MAX 256
#define JOURNAL_DEFAULT_DIR "/run/starve"
#define JOURNAL_CGROUP_ROOT "/sys/fs/cgroup/"

enum journal_kind {
	JOURNAL_SYSCTL,		/* a knob under /proc/sys */
	JOURNAL_DEBUGFS,	/* a knob under the sched debugfs directory */
	JOURNAL_TRACEFS,	/* a tracefs instance starve created */
	JOURNAL_CGROUP,		/* a cgroup directory starve created */
	JOURNAL_CONTROLLER,	/* a controller starve enabled in a cgroup's subtree */
	JOURNAL_MOUNT,		/* tracefs or debugfs, mounted by starve where it was not */
};

struct journal_entry {
	enum journal_kind kind;
	/* knobs: "kernel.sched_rt_runtime_us"; tracefs: "starve-<pid>";
	 * cgroup: the directory (as path); controller: "cpu", "cpuset" (the
	 * cgroup directory is the path) */
	char name[JOURNAL_NAME_MAX];
	char path[JOURNAL_PATH_MAX];	/* the file or directory, resolved when recorded */
	char value[JOURNAL_VALUE_MAX];	/* knobs: the old value to write back; else "" */
};

/* Fields are read-only outside journal.c. */
struct journal {
	char dir[JOURNAL_PATH_MAX];
	char file[JOURNAL_PATH_MAX];	/* <dir>/journal */
	char pointer[JOURNAL_PATH_MAX];	/* its entry in the machine's registry (journal-registry.h),
					 * removed with FILE; "" when DIR does not exist */
	bool is_open;			/* we own FILE (journal_open), or read it (journal_load) */
	int dir_lock;			/* flock on DIR held while we own FILE, else -1 */
	bool partial;			/* journal_load found an empty or header-less file
					 * (a run killed as it created it): nothing to undo */
	pid_t pid;			/* the controller that wrote it */
	uint64_t pid_starttime;		/* its start in clock ticks after boot (/proc/PID/stat) */
	char started[32];		/* its start as UTC ISO 8601, for messages */
	size_t n;
	struct journal_entry entries[JOURNAL_MAX_ENTRIES];
};

/* "sysctl", "debugfs", "tracefs", "cgroup", "controller": the kind's word
 * in the file. */
const char *journal_kind_name(enum journal_kind kind);

/* $STARVE_STATE_DIR or JOURNAL_DEFAULT_DIR. */
const char *journal_state_dir(void);

/* Start a journal in DIR (NULL: journal_state_dir()), creating DIR (0700) if
 * needed, taking DIR's lock (flock, held until journal_close/remove) and
 * creating, atomically and exclusively, a header-only journal (our pid and
 * start time) that claims it. Under the lock: stale temporary files of dead
 * writers are removed; a journal with no entries left by a dead process, or
 * an empty or partial one (a kill before its first save), is removed with a
 * note. Refuses (-1, message printed) when a run holds the directory or an
 * unrestored journal exists ("run 'starve restore' first"). */
int journal_open(struct journal *j, const char *dir);

/* Read the journal in DIR (NULL: the state dir) into J. Returns 1 when one
 * was read, 0 when there is none (or an empty file, which no run ever wrote
 * entries to), -1 on a malformed or unreadable journal (message printed).
 * Every knob name is checked and its path recomputed from the name, never
 * taken from the file; tracefs and cgroup names are checked too. */
int journal_load(struct journal *j, const char *dir);

/* Whether J's writer (pid and start time) is still running as a starve:
 * then its journal belongs to a run in progress, not to a crash. */
bool journal_writer_alive(const struct journal *j);

/* Refuse a run because of J, a journal with knobs to undo, saying why in
 * the words that fit: a live writer is a run in progress (it restores its
 * knobs itself: wait for it), a dead one left a crash behind ('starve
 * restore'). WHERE ends the sentence ("" or ", another state directory").
 * Returns -1. */
int journal_refuse(const struct journal *j, const char *where);

/* Record KNOB's OLD_VALUE before the caller writes KNOB (a sysctl or
 * debugfs knob, by its name): the journal file is rewritten (temporary file,
 * fsync, rename, dir fsync) before this returns. A knob recorded already
 * keeps its first (oldest) value. */
int journal_record(struct journal *j, const char *knob, const char *old_value);
/* The same with an explicit file instead of the knob's path (tests). */
int journal_record_path(struct journal *j, const char *knob, const char *path,
			const char *old_value);

/* Record a tracefs instance ("starve-<pid>") before creating it; restoring
 * removes it (under /sys/kernel/tracing/instances or the debugfs one). */
int journal_record_tracefs(struct journal *j, const char *instance);

/* Record a cgroup directory DIR (absolute, under JOURNAL_CGROUP_ROOT, no
 * "." or ".." components) before creating it; restoring removes it, deepest
 * first, after killing what is left in it (cgroup.kill, where the kernel has
 * it). Only directories starve creates: never one that existed before. */
int journal_record_cgroup(struct journal *j, const char *dir);
/* Record that starve is about to mount FSTYPE ("tracefs" or "debugfs") at
 * its usual place (journal_mount_point). */
int journal_record_mount(struct journal *j, const char *fstype);
/* True when J holds an entry of KIND named NAME. */
bool journal_has(const struct journal *j, enum journal_kind kind, const char *name);

/* Record CONTROLLER (lower-case letters) before enabling it ("+cpu") in the
 * cgroup.subtree_control of DIR (JOURNAL_CGROUP_ROOT without its slash, or a
 * path journal_record_cgroup would take); restoring disables it. One entry
 * per controller: starve only ever enables them in a hierarchy's root. */
int journal_record_controller(struct journal *j, const char *dir, const char *controller);

/* Drop the entry of KIND named NAME (tracefs: the instance; cgroup: the
 * directory; knobs: the knob) once the caller undid it itself; the file is
 * rewritten. 0 also when there was no such entry. */
int journal_forget(struct journal *j, enum journal_kind kind, const char *name);

/* Undo the entry of KIND named NAME now and drop it; when undoing fails it
 * stays for `starve restore` and the errno is returned (0: undone, or no
 * such entry). The file is rewritten. */
int journal_undo_one(struct journal *j, enum journal_kind kind, const char *name);

/* Undo every entry: cgroups deepest first, then the rest newest first
 * (controllers are enabled before the cgroups that need them).
 * Entries undone are dropped and the journal file rewritten with the rest.
 * Each failure is printed ("kernel.x: cannot restore '5': EPERM"); returns
 * how many failed. */
int journal_restore_all(struct journal *j);
/* The same for the knobs only (sysctl, debugfs): a setting's end, which
 * leaves what the whole run keeps (its cgroups' controllers). */
int journal_restore_knobs(struct journal *j);

/* The order restoring undoes J's entries in: cgroups deepest first (their
 * loads die with them), then every other entry newest first. ORDER gets
 * J->n indices. */
void journal_undo_order(const struct journal *j, size_t *order);

/* The same for a signal handler or a dying process: async-signal-safe calls
 * only, no allocation, no stdio, no locks. Removes the journal file when
 * every entry was undone. Returns how many failed. */
int journal_restore_from_signal(struct journal *j);

/* End: removes the journal file if no entry is left (everything restored)
 * and releases the directory's lock; otherwise keeps it for `starve
 * restore` and returns -1 with a message. */
int journal_close(struct journal *j);

/* Remove the journal file whatever it holds (`starve restore` after a
 * successful restore) and release the directory's lock. */
int journal_remove(struct journal *j);

/* journal_load under DIR's lock (`starve restore`): -1 with a message when
 * a live run, or the watchdog of a dead one, holds it. The lock is held
 * until journal_remove, journal_close or journal_release. */
int journal_load_locked(struct journal *j, const char *dir);
/* Release the lock without touching the file. */
void journal_release(struct journal *j);

/* Escaping used in the file: bytes outside printable ASCII, ' ', '%' and
 * '\\' become %XX. Return -1 when OUT (LEN bytes) is too small or the input is
 * malformed. Exposed for tests. */
int journal_escape(const char *in, char *out, size_t len);
int journal_unescape(const char *in, char *out, size_t len);

#endif
