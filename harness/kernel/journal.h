/* The knob journal: before a run writes any knob, the knob's old value is
 * recorded in <state dir>/journal (fsync'd, renamed into place, directory
 * fsync'd), so a crashed or killed run can be undone by `starve restore` or
 * by the watchdog. The state dir is $STARVE_STATE_DIR, else /run/starve.
 *
 * The journal lives in one fixed-size struct (no pointers to the heap) so a
 * signal handler can restore from it with open/write/close only. */
#ifndef STARVE_JOURNAL_H
#define STARVE_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define JOURNAL_MAX_ENTRIES 64
#define JOURNAL_NAME_MAX 128
#define JOURNAL_PATH_MAX 320
#define JOURNAL_VALUE_MAX 256
#define JOURNAL_DEFAULT_DIR "/run/starve"

struct journal_entry {
	char knob[JOURNAL_NAME_MAX];	/* "kernel.sched_rt_runtime_us" */
	char path[JOURNAL_PATH_MAX];	/* its file, resolved when recorded */
	char value[JOURNAL_VALUE_MAX];	/* the old value, to write back */
};

/* Fields are read-only outside journal.c. */
struct journal {
	char dir[JOURNAL_PATH_MAX];
	char file[JOURNAL_PATH_MAX];	/* <dir>/journal */
	bool is_open;			/* we own FILE (journal_open), or read it (journal_load) */
	pid_t pid;			/* the controller that wrote it */
	uint64_t pid_starttime;		/* its start in clock ticks after boot (/proc/PID/stat) */
	char started[32];		/* its start as UTC ISO 8601, for messages */
	size_t n;
	struct journal_entry entries[JOURNAL_MAX_ENTRIES];
};

/* $STARVE_STATE_DIR or JOURNAL_DEFAULT_DIR. */
const char *journal_state_dir(void);

/* Start a journal in DIR (NULL: journal_state_dir()), creating DIR (0700) if
 * needed and writing a header-only journal (our pid and start time) that
 * claims it. Refuses (-1, message printed) when an unrestored journal exists:
 * "an unrestored journal from pid N (started T) exists at PATH; run 'starve
 * restore' first", or that a run is in progress when that pid is a live
 * starve. A journal with no entries left by a dead process is removed. */
int journal_open(struct journal *j, const char *dir);

/* Read the journal in DIR (NULL: the state dir) into J. Returns 1 when one
 * was read, 0 when there is none, -1 on a malformed or unreadable journal
 * (message printed). Every knob name is checked and its path recomputed from
 * the name, never taken from the file. */
int journal_load(struct journal *j, const char *dir);

/* Whether J's writer (pid and start time) is still running as a starve:
 * then its journal belongs to a run in progress, not to a crash. */
bool journal_writer_alive(const struct journal *j);

/* Record KNOB's OLD_VALUE before the caller writes KNOB: the journal file is
 * rewritten (temporary file, fsync, rename, dir fsync) before this returns.
 * A knob recorded already keeps its first (oldest) value. */
int journal_record(struct journal *j, const char *knob, const char *old_value);
/* The same with an explicit file instead of the knob's path (tests). */
int journal_record_path(struct journal *j, const char *knob, const char *path,
			const char *old_value);

/* A tracefs instance (exact mode) is journaled as the entry
 * "tracefs:<instance>" before it is created; restoring it removes the
 * instance (/sys/kernel/tracing/instances or the debugfs one). INSTANCE
 * must be "starve-<pid>". journal_forget_tracefs drops the entry once the
 * instance is removed. A stopgap until the journal has kinds of entries. */
#define JOURNAL_TRACEFS_PREFIX "tracefs:"
int journal_record_tracefs(struct journal *j, const char *instance);
int journal_forget_tracefs(struct journal *j, const char *instance);

/* Write back every recorded value, newest first. Entries restored are
 * dropped and the journal file rewritten with the rest. Each failure is
 * printed ("kernel.x: cannot restore '5': EPERM"); returns how many failed. */
int journal_restore_all(struct journal *j);

/* The same for a signal handler or a dying process: open/write/close only,
 * no allocation, no stdio, no locks. Removes the journal file when every
 * knob was restored. Returns how many failed. */
int journal_restore_from_signal(struct journal *j);

/* End: removes the journal file if no entry is left (everything restored);
 * otherwise keeps it for `starve restore` and returns -1 with a message. */
int journal_close(struct journal *j);

/* Remove the journal file whatever it holds (`starve restore` after a
 * successful restore). */
int journal_remove(struct journal *j);

/* Escaping used in the file: bytes outside printable ASCII, ' ', '%' and
 * '\\' become %XX. Return -1 when OUT (LEN bytes) is too small or the input is
 * malformed. Exposed for tests. */
int journal_escape(const char *in, char *out, size_t len);
int journal_unescape(const char *in, char *out, size_t len);

#endif
