/* Scheduler knobs: sysctl dotted names under /proc/sys and sched debugfs
 * files ("debugfs:sched/base_slice_ns"), read and written as text, with a
 * crash-proof journal of the old values (see journal.h). */
#ifndef STARVE_KNOBS_H
#define STARVE_KNOBS_H

#include <stdbool.h>
#include <stddef.h>

/* Check a knob name; -1 with why ("knob name 'kernel/../x' would leave
 * /proc/sys") if it is not a plain sysctl name or debugfs:sched/ path. */
int knob_name_check(const char *name, char *why, size_t why_len);
/* Map a valid name to its file: "kernel.sched_g1" -> "/proc/sys/kernel/sched_g1";
 * "debugfs:sched/x" -> "<debugfs mount>/sched/x". */
int knob_path(const char *name, char *path, size_t len);

struct knob_state {
	bool present;		/* the file exists */
	bool readable;
	bool writable;		/* opening for writing succeeds (checked, nothing written) */
	char value[1024];	/* current value, trailing newline removed (sched/features is long) */
	char reason[160];	/* why not present/readable/writable */
};
int knob_probe(const char *name, struct knob_state *st);
int knob_read(const char *name, char *value, size_t len);
/* Write VALUE; returns -1 with why (EPERM under lockdown, EROFS, ENOENT...). */
int knob_write(const char *name, const char *value, char *why, size_t why_len);

/* Where debugfs is mounted (from /proc/self/mounts); false and "" when not. */
bool knob_debugfs_dir(char *dir, size_t len);

/* The knobs `starve env` lists and result.json records before a run. */
extern const char *const knob_known[];

#endif
