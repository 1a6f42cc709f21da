/* The watchdog: a small process forked by the controller before any load,
 * in its own process group (so a terminal's Ctrl-C does not reach it), that
 * knows every load's process group and SIGKILLs them all when the controller
 * dies (pipe EOF or PR_SET_PDEATHSIG), is dying (SIGKILL pending: its exit
 * may wait on an fsync), is stopped, or when a run overruns its deadline,
 * even if the controller hangs. After the controller's death it also calls
 * a restore hook (the run's: its cpusets, then the knob journal). Protocol: fixed-size records on a pipe,
 * each written with one write() (atomic below PIPE_BUF). */
#ifndef STARVE_WATCHDOG_H
#define STARVE_WATCHDOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct watchdog {
	pid_t pid;	/* 0 when not running */
	int fd;		/* write end of the command pipe, -1 when closed */
};

/* Runs in the watchdog once the loads are killed: after the controller died
 * without saying goodbye (CONTROLLER_DEAD), or when a run overran its
 * deadline (the controller stopped or hung: only what cannot wait, the
 * knobs). May be NULL. */
typedef void (*watchdog_restore_fn)(pid_t controller, bool controller_dead);

/* Fork the watchdog, which keeps KEEP[0..N_KEEP) open (locks it holds
 * until it exits; -1 entries are skipped) and closes every other
 * descriptor. Returns 0, or -1 with an error printed. */
int watchdog_start(struct watchdog *w, watchdog_restore_fn restore, const int *keep,
		   size_t n_keep);
/* Register or forget a load's process group (after it was reaped). */
int watchdog_add_group(struct watchdog *w, pid_t pgid);
int watchdog_remove_group(struct watchdog *w, pid_t pgid);
/* At DEADLINE_NS (CLOCK_MONOTONIC; 0 = none) every registered group is
 * killed, whether the controller is alive or not. */
int watchdog_set_deadline(struct watchdog *w, int64_t deadline_ns);
/* What the watchdog did since it was last asked: nothing; it killed the
 * loads and restored the knobs because the run overran its deadline, or
 * because the controller was stopped (SIGSTOP, Ctrl-Z: two looks 100 ms
 * apart found it so; the deadline would have let it keep a knob changed
 * for the rest of the run and more); or it is gone (its loads end
 * themselves then: loads/guard.c). Never blocks. */
enum watchdog_news { WATCHDOG_QUIET, WATCHDOG_OVERRAN, WATCHDOG_STOPPED, WATCHDOG_GONE };
enum watchdog_news watchdog_news(struct watchdog *w);
/* Everything is clean: the watchdog exits without killing or restoring;
 * it is reaped here. Safe to call on a stopped watchdog. */
int watchdog_stop(struct watchdog *w);

#endif
