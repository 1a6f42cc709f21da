/* The schedstat parser and the starvation-stretch tracker the sampler feeds
 * with it (the stat line is lib/procstat.h). Pure functions on buffers, no
 * I/O, so the unit tests can feed them synthetic samples. */
#ifndef STARVE_TASKSTAT_H
#define STARVE_TASKSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* schedstat: "<cpu ns> <run_delay ns> <timeslices>\n". */
struct taskstat_sched {
	uint64_t cpu_ns, run_delay_ns, slices;
};
int taskstat_parse_schedstat(const char *buf, size_t len, struct taskstat_sched *out);

/* Runnable-waiting stretches of one task (doc/design.md, starvation_max).
 *
 * A sample "progressed" when any schedstat field moved: the task ran.
 * When a task runs after not running, the run_delay jump since the last
 * progressed sample holds the wait that just ended, and every other wait
 * that ended since. The slices field counts arrivals on a CPU, each of which
 * ends exactly one wait, so K arrivals since that sample split the jump into
 * K waits: the longest is at least jump / K (the lower bound) and at most the
 * jump, capped by the wall time since the sample before that progressed one
 * (the upper bound). With K = 1 the stretch is exact, however late the
 * sampler was. Counting ticks whose state is R would overestimate: a
 * running task's CPU time is only updated at the kernel's tick, so it can
 * look runnable-waiting for one sample, and run_delay stays 0 for it.
 *
 * A stretch still open (the task has not run since) is measured from the
 * first sample that found it R without progress to the latest sample (the
 * lower bound); it may have begun right after the look before (the upper
 * bound, when that look was over a period earlier). This is what the state (stat) is read for.
 *
 * Reads are saved, all safely because a task cannot change state without
 * running, and running moves schedstat: stat is read only when schedstat
 * shows no progress and the state is not known to be R (an R task stays R
 * until schedstat moves). A task is looked at every SPACING ticks, a power
 * of two: 1 while it is seen waiting or after it waited half a period or
 * more, doubling up to TASKSTAT_RECHECK_NS while it sleeps or runs with
 * only shorter waits. A per-task PHASE spreads the looks of tasks with the same
 * spacing over the ticks, so a thousand sleepers do not burst on one tick.
 * Spacing only delays noticing an open stretch, never shortens a closed one:
 * that comes from run_delay, which sums every wait exactly. */
#define TASKSTAT_MAX_SPACING 8
#define TASKSTAT_RECHECK_NS (50 * 1000000LL)

struct taskstat_track {
	int64_t period_ns;		/* the sampling period; set by the caller */
	unsigned phase;			/* spreads looks over ticks; set by the caller */
	bool have_prev;
	struct taskstat_sched prev;	/* the previous sample */
	int64_t prev_ns;
	uint64_t base_delay, base_slices; /* at the last progressed sample */
	int64_t base_ns;		/* time of the sample before that one */
	bool open;			/* runnable-waiting since open_ns, has not run */
	int64_t open_ns, before_open_ns; /* first look that saw it, the look before */
	int64_t last_open_ns;		/* latest sample that saw the open stretch */
	int64_t max_ns;			/* longest stretch so far: its lower bound */
	int64_t max_upper_ns;		/* ... and the upper bound of the longest */
	char state;			/* last state read, 0: unknown */
	unsigned spacing;		/* look every SPACING ticks (a power of two) */
	bool waiting;			/* the last sample found it runnable-waiting */
};

/* Whether to look at the task at tick TICK (the sampler's tick count): false
 * between looks (then call taskstat_track_skip). FORCE: the last tick. */
bool taskstat_track_due(const struct taskstat_track *t, uint64_t tick, bool force);
void taskstat_track_skip(struct taskstat_track *t);
/* Whether SS moved since the previous sample (always true for the first). */
bool taskstat_track_progressed(const struct taskstat_track *t, const struct taskstat_sched *ss);
/* Whether the caller should read stat at this sample: no progress, and its
 * state is not known to be R already. */
bool taskstat_track_wants_stat(const struct taskstat_track *t, bool progressed);
/* Feed one sample at NOW_NS; STATE is the state read from stat at this
 * sample, or 0 when it was not read (then a known R stays R). Returns the
 * lower bound of a stretch that closed at this sample, else 0. */
int64_t taskstat_track_sample(struct taskstat_track *t, int64_t now_ns,
			      const struct taskstat_sched *ss, char state);
/* Close a stretch still open at the end of sampling or at exit. */
void taskstat_track_finish(struct taskstat_track *t);
/* Longest stretch including one still open (for progress lines). */
int64_t taskstat_track_current_max(const struct taskstat_track *t);

#endif
