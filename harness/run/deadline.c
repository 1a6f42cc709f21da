/* The watchdog's deadline over one run (deadline.h). */
#include "config.h"
#include "harness/run/deadline.h"
#include "lib/timeutil.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* Loads stop being started this long before the set-up deadline, so moving
 * the deadline later never races the watchdog acting on the earlier one. */
#define DEADLINE_MARGIN_NS (1 * NSEC_PER_SEC)
#define DEADLINE_GRACE_NS (5 * NSEC_PER_SEC)
#define DEADLINE_SETUP_BASE_NS (4 * NSEC_PER_SEC)
#define DEADLINE_SETUP_LOAD_NS (25 * NSEC_PER_MSEC)
#define DEADLINE_SETUP_MAX_NS (30 * NSEC_PER_SEC)

static int deadline_set(struct run_deadline *d, int64_t at)
{
	d->at = at;
	return watchdog_set_deadline(d->wd, at);
}

int64_t deadline_setup_ns(size_t n_loads)
{
	int64_t ns = DEADLINE_SETUP_BASE_NS + (int64_t)n_loads * DEADLINE_SETUP_LOAD_NS;

	return ns < DEADLINE_SETUP_MAX_NS ? ns : DEADLINE_SETUP_MAX_NS;
}

/* What the watchdog did in this run; asked until it did something. */
static enum watchdog_news deadline_heard(struct run_deadline *d)
{
	if (d->wd && d->news == WATCHDOG_QUIET)
		d->news = watchdog_news(d->wd);
	return d->news;
}

int deadline_arm_setup(struct run_deadline *d, struct watchdog *wd, size_t n_loads)
{
	int64_t now = mono_ns();

	d->wd = wd;
	/* news of an earlier run (read too late to matter there) is not this one's */
	d->news = watchdog_news(wd) == WATCHDOG_GONE ? WATCHDOG_GONE : WATCHDOG_QUIET;
	d->setup_ns = deadline_setup_ns(n_loads);
	d->setup_until = now + d->setup_ns - DEADLINE_MARGIN_NS;
	return deadline_set(d, now + d->setup_ns);
}

bool deadline_setup_left(const struct run_deadline *d)
{
	return mono_ns() < d->setup_until;
}

int deadline_arm_run(struct run_deadline *d, int64_t end, int64_t run_ns)
{
	enum watchdog_news news = deadline_heard(d);

	if (news == WATCHDOG_GONE)
		return DEADLINE_UNARMED;
	if (news != WATCHDOG_QUIET || (d->at && mono_ns() > d->at - DEADLINE_MARGIN_NS / 2))
		return DEADLINE_LATE;
	return deadline_set(d, end + DEADLINE_GRACE_NS + run_ns / 4) < 0 ? DEADLINE_UNARMED : 0;
}

bool deadline_passed(struct run_deadline *d)
{
	return d->at && (deadline_heard(d) != WATCHDOG_QUIET || mono_ns() > d->at);
}

const char *deadline_why(struct run_deadline *d)
{
	if (!deadline_passed(d))
		return NULL;
	switch (d->news) {
	case WATCHDOG_STOPPED:
		return DEADLINE_STOPPED_WHY;
	case WATCHDOG_GONE:
		return DEADLINE_GONE_WHY;
	default:
		return DEADLINE_PASSED_WHY;
	}
}

void deadline_disarm(struct run_deadline *d)
{
	if (d->wd)
		deadline_set(d, 0);
}

void deadline_test_stop_at(const char *point)
{
	const char *at = getenv("STARVE_TEST_STOP_AT"), *hold = getenv("STARVE_TEST_HOLD_AT");
	size_t len = strlen(point);

	if (at && !strcmp(at, point))
		raise(SIGSTOP);
	if (hold && !strncmp(hold, point, len) && hold[len] == ':')
		sleep_until_ns(mono_ns() + atoll(hold + len + 1) * NSEC_PER_MSEC);
}
