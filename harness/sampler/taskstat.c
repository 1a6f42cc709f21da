/* The schedstat parser and the starvation-stretch tracker
 * (harness/sampler/taskstat.h). These run for every task at every tick, so
 * they avoid stdio and allocation. */
#include "config.h"
#include "harness/sampler/taskstat.h"

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

bool taskstat_track_progressed(const struct taskstat_track *t, const struct taskstat_sched *ss)
{
	return !t->have_prev || ss->cpu_ns != t->prev.cpu_ns ||
	       ss->run_delay_ns != t->prev.run_delay_ns || ss->slices != t->prev.slices;
}

bool taskstat_track_due(const struct taskstat_track *t, uint64_t tick, bool force)
{
	if (force || !t->have_prev || t->spacing <= 1)
		return true;
	return ((tick + t->phase) & (t->spacing - 1)) == 0;
}

void taskstat_track_skip(struct taskstat_track *t)
{
	t->waiting = false;
}

bool taskstat_track_wants_stat(const struct taskstat_track *t, bool progressed)
{
	return !progressed && t->state != 'R';
}

/* The widest spacing of looks, in ticks: a power of two of at most
 * TASKSTAT_RECHECK_NS of wall time, so a fast sampler saves the most. */
static unsigned taskstat_max_spacing(const struct taskstat_track *t)
{
	unsigned max = 1;

	if (!t->period_ns)
		return TASKSTAT_MAX_SPACING;
	while (max < TASKSTAT_MAX_SPACING && (int64_t)(2 * max) * t->period_ns <= TASKSTAT_RECHECK_NS)
		max *= 2;
	return max;
}

static void taskstat_widen(struct taskstat_track *t)
{
	t->spacing = t->spacing ? 2 * t->spacing : 1;
	if (t->spacing > taskstat_max_spacing(t))
		t->spacing = taskstat_max_spacing(t);
}

static void taskstat_record(struct taskstat_track *t, int64_t lower, int64_t upper)
{
	if (upper < lower)
		upper = lower;
	if (lower > t->max_ns || (lower == t->max_ns && upper > t->max_upper_ns)) {
		t->max_ns = lower;
		t->max_upper_ns = upper;
	}
}

/* The task ran since the previous sample: close the stretch(es) that ended.
 * A task that waited half a period or more is looked at every tick (its
 * waits matter and must not merge); one that hardly waited, spaced out. */
static int64_t taskstat_close(struct taskstat_track *t, int64_t now_ns,
			      const struct taskstat_sched *ss)
{
	int64_t jump = (int64_t)(ss->run_delay_ns - t->base_delay);
	int64_t arrivals = (int64_t)(ss->slices - t->base_slices);
	int64_t cap = now_ns - t->base_ns;
	int64_t upper = jump < cap ? jump : cap;
	int64_t lower = arrivals > 1 ? jump / arrivals : jump;
	int64_t seen = t->open ? t->last_open_ns - t->open_ns : 0;

	if (lower > upper)
		lower = upper;
	if (lower < seen)
		lower = seen;
	if (lower < 0)
		lower = upper = 0;
	taskstat_record(t, lower, upper);
	if (t->period_ns && upper >= t->period_ns / 2)
		t->spacing = 1;
	else
		taskstat_widen(t);
	t->open = false;
	t->base_delay = ss->run_delay_ns;
	t->base_slices = ss->slices;
	t->base_ns = t->prev_ns;
	return lower;
}

static void taskstat_note_state(struct taskstat_track *t, int64_t now_ns, char state)
{
	if (state == 'R') {
		if (!t->open) {
			t->open = true;
			t->open_ns = now_ns;
			/* It slept or ran at the look before. */
			t->before_open_ns = t->prev_ns;
		}
		t->state = state;
		t->spacing = 1;
		t->waiting = true;
		t->last_open_ns = now_ns;
		return;
	}
	t->state = state;
	/* Not runnable (S, D, T, Z...): any open stretch ended without running
	 * (stopped, dying); keep what was observed of it. */
	if (t->open)
		taskstat_track_finish(t);
	taskstat_widen(t);
}

int64_t taskstat_track_sample(struct taskstat_track *t, int64_t now_ns,
			      const struct taskstat_sched *ss, char state)
{
	bool progressed = taskstat_track_progressed(t, ss);
	int64_t closed = 0;

	t->waiting = false;
	if (!t->have_prev) {
		t->base_delay = ss->run_delay_ns;
		t->base_slices = ss->slices;
		t->base_ns = now_ns;
		t->prev_ns = now_ns;
		t->spacing = 1;
	} else if (progressed) {
		closed = taskstat_close(t, now_ns, ss);
		t->state = 0;	/* unknown again: read stat at the next stall */
	}
	if (!progressed && (state || t->state == 'R'))
		taskstat_note_state(t, now_ns, state ? state : t->state);
	t->have_prev = true;
	t->prev = *ss;
	t->prev_ns = now_ns;
	return closed;
}

/* An open stretch may have begun right after the look before it was seen;
 * within one period that is the sampler's resolution, beyond it (spaced
 * looks, a late tick) a range. */
void taskstat_track_finish(struct taskstat_track *t)
{
	int64_t seen = t->last_open_ns - t->open_ns;
	int64_t unseen = t->open_ns - t->before_open_ns - t->period_ns;

	if (t->open)
		taskstat_record(t, seen, seen + (unseen > 0 ? unseen : 0));
	t->open = false;
}

int64_t taskstat_track_current_max(const struct taskstat_track *t)
{
	int64_t open = t->open ? t->last_open_ns - t->open_ns : 0;

	return open > t->max_ns ? open : t->max_ns;
}
