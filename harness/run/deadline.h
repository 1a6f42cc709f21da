/* The watchdog's deadline over one run (one setting, one repetition): armed
 * before the setting's first write, moved to the window's end plus a grace
 * once every load runs, disarmed after the last restore. A controller
 * hung anywhere in between cannot keep a knob changed past the deadline,
 * nor a stopped one for more than 0.2 s: the watchdog kills the loads and
 * restores, and says so (watchdog_news). */
#ifndef STARVE_RUN_DEADLINE_H
#define STARVE_RUN_DEADLINE_H

#include "harness/run/watchdog.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What applying a setting, making its cgroups and starting N_LOADS loads
 * may take: 4 s and 25 ms a load, 30 s at most. Loads not started by then
 * make the run an error. */
int64_t deadline_setup_ns(size_t n_loads);

struct run_deadline {
	struct watchdog *wd;
	int64_t at;		/* CLOCK_MONOTONIC; 0: disarmed */
	int64_t setup_until;	/* no load is started after it */
	int64_t setup_ns;	/* what the set-up was given */
	enum watchdog_news news;	/* what the watchdog did in this run, once it did */
};

/* Before the first write: the watchdog acts at now + deadline_setup_ns(). */
int deadline_arm_setup(struct run_deadline *d, struct watchdog *wd, size_t n_loads);
/* Whether another load may still be started. */
bool deadline_setup_left(const struct run_deadline *d);
/* Every load runs and the window is [from, END): the deadline moves to END
 * + 5 s + a quarter of RUN_NS. DEADLINE_LATE when the deadline in force has
 * passed already (the watchdog has restored, or is about to);
 * DEADLINE_UNARMED when the watchdog could not be told (gone: nothing
 * watches the run any more). Either way the run must stop and restore. */
enum { DEADLINE_LATE = -1, DEADLINE_UNARMED = -2 };
int deadline_arm_run(struct run_deadline *d, int64_t end, int64_t run_ns);
/* Whether the armed deadline has passed, or the watchdog acted before it
 * (the controller was stopped) or is gone: its loads are killed, its knobs
 * restored. */
bool deadline_passed(struct run_deadline *d);
/* Why the run is an error because of it (one of the _WHY below), or NULL
 * when the deadline held. */
const char *deadline_why(struct run_deadline *d);
/* After the last restore. */
void deadline_disarm(struct run_deadline *d);

/* The run's status reason once the deadline passed. */
#define DEADLINE_SETUP_WHY "the set-up (knobs, cgroups, starting the loads) outlasted its " \
	"deadline, or the controller was stopped; the watchdog restored the knobs"
#define DEADLINE_PASSED_WHY "the controller was stalled past the run's deadline, or stopped; " \
	"the watchdog killed the loads and restored the knobs"
#define DEADLINE_STOPPED_WHY "the controller was stopped (SIGSTOP, Ctrl-Z) while the run's " \
	"setting was applied; the watchdog killed the loads and restored the knobs"
#define DEADLINE_GONE_WHY "the watchdog died during the run; the loads ended themselves " \
	"(they never run unwatched)"
#define DEADLINE_UNARMED_WHY "the watchdog could not be given the window's deadline (see " \
	"messages); the run stopped and restored the knobs"

/* A test's pause at a named point of a run: with STARVE_TEST_STOP_AT=POINT
 * in the environment the controller stops itself there (SIGSTOP), as a
 * user's stop would, so a test can see the watchdog catch it; with
 * STARVE_TEST_HOLD_AT=POINT:MS it sleeps MS there instead, as a controller
 * held up by its loads would (the watchdog leaves that to the deadline). */
void deadline_test_stop_at(const char *point);

#endif
