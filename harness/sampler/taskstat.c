/* Hand parsers for a thread's schedstat and stat files, and the
 * starvation-stretch tracker (harness/sampler/taskstat.h). These run for every task
 * at every tick, so they avoid stdio and allocation. */
#include "config.h"
#include "harness/sampler/taskstat.h"

#include <stdlib.h>
#include <string.h>

/* Parse an unsigned decimal at *p, advancing it; -1 if there is none. */
static int taskstat_u64(const char **p, const char *end, uint64_t *out)
{
	const char *c = *p;
	uint64_t v = 0;

	while (c < end && *c == ' ')
		c++;
	if (c >= end || *c < '0' || *c > '9')
		return -1;
	while (c < end && *c >= '0' && *c <= '9')
		v = v * 10 + (uint64_t)(*c++ - '0');
	*p = c;
	*out = v;
	return 0;
}

int taskstat_parse_schedstat(const char *buf, size_t len, struct taskstat_sched *out)
{
	const char *p = buf, *end = buf + len;

	if (taskstat_u64(&p, end, &out->cpu_ns) < 0 ||
	    taskstat_u64(&p, end, &out->run_delay_ns) < 0 ||
	    taskstat_u64(&p, end, &out->slices) < 0)
		return -1;
	return 0;
}

/* The ')' closing the comm in a stat line, or NULL when malformed. */
static const char *taskstat_comm_end(const char *buf, size_t len, const char **open)
{
	*open = memchr(buf, '(', len);
	if (!*open)
		return NULL;
	/* The comm is whatever lies between the first '(' and the LAST ')':
	 * a thread may call itself "a) R (b". */
	for (const char *c = buf + len; c > *open;)
		if (*--c == ')')
			return c + 2 < buf + len && c[1] == ' ' ? c : NULL;
	return NULL;
}

int taskstat_parse_stat(const char *buf, size_t len, char *state, char *comm, size_t comm_len)
{
	const char *open, *close = taskstat_comm_end(buf, len, &open);

	if (!close)
		return -1;
	*state = close[2];
	if (comm && comm_len) {
		size_t n = (size_t)(close - open - 1);

		if (n >= comm_len)
			n = comm_len - 1;
		memcpy(comm, open + 1, n);
		comm[n] = '\0';
	}
	return 0;
}

/* The N numbers after the state of a stat line into V (field 4 on); its
 * state into STATE. -1 on a malformed or short line (BUF NUL-terminated). */
static int taskstat_fields(const char *buf, size_t len, char *state, long long *v, int n)
{
	const char *open, *close = taskstat_comm_end(buf, len, &open), *end = buf + len;
	char *next;

	if (!close)
		return -1;
	*state = close[2];
	next = (char *)close + 3;
	for (int i = 0; i < n; i++) {
		const char *p = next;

		if (p >= end || *p != ' ')
			return -1;
		v[i] = strtoll(p + 1, &next, 10);	/* tty_nr and tpgid may be < 0 */
		if (next == p + 1)
			return -1;
	}
	return 0;
}

/* After the state: ppid pgrp session tty_nr tpgid flags. */
int taskstat_parse_pgrp(const char *buf, size_t len, char *state, long *pgrp,
			unsigned long *flags)
{
	long long v[6];

	if (taskstat_fields(buf, len, state, v, 6) < 0)
		return -1;
	*pgrp = (long)v[1];
	*flags = (unsigned long)v[5];
	return 0;
}

/* starttime is field 22: the 19th number after the state. */
int taskstat_parse_starttime(const char *buf, size_t len, unsigned long long *ticks)
{
	long long v[19];
	char state;

	if (taskstat_fields(buf, len, &state, v, 19) < 0 || v[18] < 0)
		return -1;
	*ticks = (unsigned long long)v[18];
	return 0;
}

bool taskstat_track_progressed(const struct taskstat_track *t, const struct taskstat_sched *ss)
{
	return !t->have_prev || ss->cpu_ns != t->prev.cpu_ns ||
	       ss->run_delay_ns != t->prev.run_delay_ns || ss->slices != t->prev.slices;
}

bool taskstat_track_due(const struct taskstat_track *t, bool force)
{
	if (force || t->state == 0 || t->state == 'R')
		return true;
	return t->skipped + 1 >= t->backoff;
}

void taskstat_track_skip(struct taskstat_track *t)
{
	t->skipped++;
	t->waiting = false;
}

bool taskstat_track_wants_stat(const struct taskstat_track *t, bool progressed)
{
	return !progressed && t->state != 'R';
}

/* The longest spacing of looks at a sleeper, in ticks: TASKSTAT_RECHECK_NS
 * of wall time, so a fast sampler saves the most. */
static unsigned taskstat_max_backoff(const struct taskstat_track *t)
{
	if (!t->period_ns)
		return TASKSTAT_MAX_BACKOFF;
	return t->period_ns >= TASKSTAT_RECHECK_NS ? 1 : (unsigned)(TASKSTAT_RECHECK_NS / t->period_ns);
}

/* The task ran since the previous sample: close the stretch that ended. */
static int64_t taskstat_close(struct taskstat_track *t, int64_t now_ns,
			      const struct taskstat_sched *ss)
{
	int64_t jump = (int64_t)(ss->run_delay_ns - t->base_delay);
	int64_t cap = now_ns - t->base_ns;
	int64_t len = jump < cap ? jump : cap;
	int64_t seen = t->open ? t->last_open_ns - t->open_ns : 0;

	/* The sampler was late: other waits may hide in the jump. */
	if (t->period_ns && now_ns - t->prev_ns > taskstat_max_backoff(t) * t->period_ns) {
		len = jump - (now_ns - t->prev_ns);
		if (len < seen)
			len = seen;
	}
	if (len < 0)
		len = 0;
	t->open = false;
	t->base_delay = ss->run_delay_ns;
	t->base_ns = t->prev_ns;
	if (len > t->max_ns)
		t->max_ns = len;
	return len;
}

static void taskstat_note_state(struct taskstat_track *t, int64_t now_ns, char state)
{
	t->state = state;
	t->skipped = 0;
	if (state == 'R') {
		t->backoff = 1;
		t->waiting = true;
		if (!t->open) {
			t->open = true;
			t->open_ns = now_ns;
		}
		t->last_open_ns = now_ns;
		return;
	}
	/* Not runnable (S, D, T, Z...): any open stretch ended without running
	 * (stopped, dying); keep what was observed of it. */
	if (t->open)
		taskstat_track_finish(t);
	t->backoff = t->backoff ? t->backoff * 2 : 1;
	if (t->backoff > taskstat_max_backoff(t))
		t->backoff = taskstat_max_backoff(t);
}

int64_t taskstat_track_sample(struct taskstat_track *t, int64_t now_ns,
			      const struct taskstat_sched *ss, char state)
{
	bool progressed = taskstat_track_progressed(t, ss);
	int64_t closed = 0;

	t->waiting = false;
	if (!t->have_prev) {
		t->base_delay = ss->run_delay_ns;
		t->base_ns = now_ns;
		t->prev_ns = now_ns;
	} else if (progressed) {
		closed = taskstat_close(t, now_ns, ss);
		t->state = 0;	/* unknown again: read stat at the next stall */
		t->backoff = 0;
	}
	if (!progressed && (state || t->state == 'R'))
		taskstat_note_state(t, now_ns, state ? state : t->state);
	else if (!progressed)
		t->skipped = 0;	/* a sleeper looked at again: its back-off restarts */
	t->have_prev = true;
	t->prev = *ss;
	t->prev_ns = now_ns;
	return closed;
}

void taskstat_track_finish(struct taskstat_track *t)
{
	if (t->open && t->last_open_ns - t->open_ns > t->max_ns)
		t->max_ns = t->last_open_ns - t->open_ns;
	t->open = false;
}

int64_t taskstat_track_current_max(const struct taskstat_track *t)
{
	int64_t open = t->open ? t->last_open_ns - t->open_ns : 0;

	return open > t->max_ns ? open : t->max_ns;
}
