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

/* Runnable-waiting stretches of one task (DESIGN.md, starvation_max).
 * A stretch opens at the first sample where the CPU time did not advance
 * and the state is R, and closes when the CPU time advances again. Its
 * length is then the run_delay jump since the sample before it opened,
 * which is exact, capped by the wall time between that sample and now:
 * sampled ticks alone cannot tell a waiting task from a running one whose
 * CPU time the kernel has not updated yet (it does so at its tick).
 * A stretch still open at the end (or when the task exits) counts its
 * observed R samples after the first: (samples - 1) * period. */
struct taskstat_track {
	bool have_prev;
	uint64_t prev_cpu, prev_delay;	/* the previous sample */
	int64_t prev_ns;
	bool open;
	unsigned open_samples;		/* R samples without progress in the stretch */
	uint64_t open_delay;		/* run_delay at the sample before the stretch */
	int64_t open_ns;		/* time of that sample */
	int64_t open_first_ns;		/* first R sample of the stretch */
	int64_t max_ns;			/* longest stretch so far */
	bool waiting;			/* the last sample found it runnable-waiting */
};

/* Feed one sample at NOW_NS. PROGRESSED: the CPU time advanced since the
 * previous sample (the caller then need not read stat, STATE is ignored).
 * Returns the length of a stretch that closed at this sample, else 0. */
int64_t taskstat_track_sample(struct taskstat_track *t, int64_t now_ns,
			      const struct taskstat_sched *ss, char state);
/* Whether the sample at SS shows CPU progress (the caller's cue to skip stat). */
bool taskstat_track_progressed(const struct taskstat_track *t, const struct taskstat_sched *ss);
/* Close a stretch still open at the end or at exit, LAST_NS the last sample. */
void taskstat_track_finish(struct taskstat_track *t, int64_t last_ns);
/* Longest stretch including one still open at NOW_NS (for progress lines). */
int64_t taskstat_track_current_max(const struct taskstat_track *t, int64_t now_ns);

#endif
