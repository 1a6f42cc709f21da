/* The one-line progress display of `starve run`: on a terminal (stderr is a
 * TTY) and unless --quiet, a status line rewritten in place with the
 * setting, the repetition, elapsed and remaining time and the worst
 * starvation seen so far. Elsewhere (CI logs) it prints nothing. */
#ifndef STARVE_PROGRESS_H
#define STARVE_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct progress {
	bool enabled;
	int fd;			/* where the line goes (stderr) */
	int64_t started_ns;	/* CLOCK_MONOTONIC */
	int64_t total_ns;	/* expected length of the whole command */
	const char *setting;
	int rep, n_reps;	/* rep counts from 1 in the display */
	int64_t worst_ns;	/* worst starvation over every run so far */
	size_t shown;		/* length of the line on screen, 0 when none */
};

/* ENABLED false (or stderr not a TTY) makes every call a no-op. */
void progress_init(struct progress *p, bool enabled, int64_t total_ns);
/* A new run starts: REP is 0-based. */
void progress_run(struct progress *p, const char *setting, int rep, int n_reps);
/* Redraw with the current run's worst starvation (ns) so far. */
void progress_update(struct progress *p, int64_t now_ns, int64_t starvation_ns);
/* Erase the line, before printing anything else or at the end. */
void progress_clear(struct progress *p);

/* The line itself (tests): "throttled  rep 1/3  0:12 elapsed, 0:48 left  worst starvation 950ms". */
const char *progress_format(const struct progress *p, int64_t now_ns, char *buf, size_t len);

#endif
