/* Hand parsers for /proc/<pid>/task/<tid>/{schedstat,stat} and the
 * starvation-stretch tracker the sampler feeds with them. Pure functions on
 * buffers, no I/O, so the unit tests can feed them synthetic samples. */
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

/* stat: "pid (comm) S ...": the comm may hold spaces and ')', so it ends at
 * the LAST ')'. Fills STATE (R, S, D, T, Z...) and, if COMM is non-NULL, the
 * comm (truncated to COMM_LEN - 1). Returns -1 on a malformed line. */
int taskstat_parse_stat(const char *buf, size_t len, char *state, char *comm, size_t comm_len);

/* The same line further on, for the process-group walk: STATE, the process
 * group and the PF_* flags (PF_KTHREAD marks a kernel thread). BUF must be
 * NUL-terminated. Returns -1 on a malformed line. */
#define TASKSTAT_PF_KTHREAD 0x00200000UL
int taskstat_parse_pgrp(const char *buf, size_t len, char *state, long *pgrp,
			unsigned long *flags);
/* Its start time (field 22), in clock ticks (sysconf(_SC_CLK_TCK)) since boot. */
int taskstat_parse_starttime(const char *buf, size_t len, unsigned long long *ticks);

/* Runnable-waiting stretches of one task (DESIGN.md, starvation_max).
 *
 * A sample "progressed" when any schedstat field moved: the task ran.
 * When a task runs after not running, the run_delay jump since the last
 * progressed sample is the exact wait that just ended (plus any shorter
 * waits in the same tick), so a closed stretch is that jump, capped by the
 * wall time since the sample before that last progressed one. Counting
 * ticks whose state is R would overestimate: a running task's CPU time is
 * only updated at the kernel's tick, so it can look runnable-waiting for
 * one sample, and run_delay stays 0 for it.
 *
 * The jump sums every wait that ended since the previous sample, so it is
 * the stretch only while samples come at most the longest back-off apart. When the sampler itself was held up longer (a busy machine), the
 * waits cannot be told apart: the stretch is then the part of the jump that
 * the delay cannot explain, at least what the samples saw (conservative;
 * the run's sampler quality shows the missed ticks).
 *
 * A stretch still open (the task has not run since) is measured from the
 * first sample that found it R without progress to the latest sample; this
 * is what the state (stat) is read for. Reads are saved in two ways, both
 * safe because a task cannot change state without running, and running
 * moves schedstat: stat is read only at the first sample without progress
 * after one with progress (an R task stays R until schedstat moves); and a
 * task found sleeping is skipped entirely for 1, 2, 4... ticks, at most
 * TASKSTAT_RECHECK_NS (or TASKSTAT_MAX_BACKOFF ticks when the period is
 * not known), before it is looked at again. The skipping can only delay noticing an open stretch (a
 * sleeper woke and waits), never shorten a closed one: that comes from
 * run_delay, which sums every wait exactly. */
#define TASKSTAT_MAX_BACKOFF 8
#define TASKSTAT_RECHECK_NS (50 * 1000000LL)

struct taskstat_track {
	int64_t period_ns;		/* the sampling period; set by the caller */
	bool have_prev;
	struct taskstat_sched prev;	/* the previous sample */
	int64_t prev_ns;
	uint64_t base_delay;		/* run_delay at the last progressed sample */
	int64_t base_ns;		/* time of the sample before that one */
	bool open;			/* runnable-waiting since open_ns, has not run */
	int64_t open_ns;
	int64_t last_open_ns;		/* latest sample that saw the open stretch */
	int64_t max_ns;			/* longest stretch so far */
	char state;			/* last state read, 0: unknown */
	unsigned backoff, skipped;	/* sample spacing for sleepers */
	bool waiting;			/* the last sample found it runnable-waiting */
};

/* Whether to sample the task at this tick at all: false for a sleeper
 * inside its back-off (then call taskstat_track_skip). FORCE: the last tick. */
bool taskstat_track_due(const struct taskstat_track *t, bool force);
void taskstat_track_skip(struct taskstat_track *t);
/* Whether SS moved since the previous sample (always true for the first). */
bool taskstat_track_progressed(const struct taskstat_track *t, const struct taskstat_sched *ss);
/* Whether the caller should read stat at this sample: no progress, and its
 * state is not known to be R already. */
bool taskstat_track_wants_stat(const struct taskstat_track *t, bool progressed);
/* Feed one sample at NOW_NS; STATE is the state read from stat at this
 * sample, or 0 when it was not read (then a known R stays R). Returns the length of a stretch that
 * closed at this sample, else 0. */
int64_t taskstat_track_sample(struct taskstat_track *t, int64_t now_ns,
			      const struct taskstat_sched *ss, char state);
/* Close a stretch still open at the end of sampling or at exit. */
void taskstat_track_finish(struct taskstat_track *t);
/* Longest stretch including one still open (for progress lines). */
int64_t taskstat_track_current_max(const struct taskstat_track *t);

#endif
