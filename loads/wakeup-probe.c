/* wakeup-probe: periodic absolute clock_nanosleep, cyclictest-grade: wakeup latency histogram with p50/p90/p99/p99.9/max.
 * As cyclictest does: absolute CLOCK_MONOTONIC wake times (no drift), memory
 * locked and the stack pre-faulted when allowed (no page fault in the loop),
 * nothing printed or allocated in the loop. A wakeup later than a whole
 * period skips to the next future period; the skipped ones count as missed. */
#include "config.h"
#include "loads/load.h"
#include "lib/error.h"
#include "lib/timeutil.h"

#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

enum {
	OPT_INTERVAL,
	OPT_CPU_DMA_LATENCY,
};

static const struct opt_spec options[] = {
	[OPT_INTERVAL] = { "interval", OPT_DURATION, "ns", 50000, 10e9, "1ms",
		"period of the wakeups", NULL },
	[OPT_CPU_DMA_LATENCY] = { "cpu_dma_latency", OPT_INT, "us", -1, 2e9, "-1",
		"hold /dev/cpu_dma_latency at this many microseconds while the probe runs, as "
		"cyclictest holds it at 0 (idle CPUs stay out of deep C-states); -1 leaves it", NULL },
};

#define PROBE_DMA_LATENCY "/dev/cpu_dma_latency"

#define PROBE_STACK_PREFAULT (64 * 1024)
#define PROBE_SLICE_NS (50 * NSEC_PER_MSEC)	/* long periods still see a stop */

static __attribute__((noinline)) void probe_prefault_stack(void)
{
	volatile char buf[PROBE_STACK_PREFAULT];

	memset((char *)buf, 0, sizeof(buf));
}

/* Sleep until NEXT; the last part is one absolute sleep, as exact as the
 * kernel allows. False when the load must stop. */
static bool probe_wait(const struct load_ctx *ctx, int64_t next)
{
	while (next - mono_ns() > PROBE_SLICE_NS)
		if (!load_sleep_ns(ctx, PROBE_SLICE_NS / 2))
			return false;
	sleep_until_ns(next);
	return true;
}

/* One wakeup at NOW for the period due at NEXT; returns the next period due. */
static int64_t probe_note(const struct load_ctx *ctx, struct worker_record *rec, int64_t now,
			  int64_t next, int64_t interval)
{
	bool measuring = stats_measuring(ctx->stats, (uint64_t)now);
	uint64_t due = (uint64_t)next, latency = (uint64_t)now - due, missed = 0;

	next += interval;
	if (now >= next) {
		missed = (uint64_t)((now - next) / interval) + 1;
		next += (int64_t)missed * interval;
	}
	if (measuring) {
		hist_record(&rec->hist, latency);
		record_stall(rec, latency);
		rec->iterations++;
		rec->wakeups++;
		rec->deadlines_missed += missed;
		rec->deadlines_met += !missed;
	} else {
		/* due in the window, come after it: its measured part */
		record_stall(rec, stats_window_part(ctx->stats, due, (uint64_t)now));
	}
	return next;
}

static void probe(struct load_ctx *ctx, unsigned record, void *arg)
{
	struct worker_record *rec = worker_begin(ctx, record);
	int64_t interval = ctx->spec->opts[OPT_INTERVAL].i, deadline = ctx->stats->deadline_ns;
	int64_t next;

	(void)arg;
	/* woken at the gate's opening (worker_begin): the wait until now is its
	 * first latency (taken before its own set-up below, which is no wait) */
	record_stall(rec, stats_window_part(ctx->stats, rec->last_iter_ns, (uint64_t)mono_ns()));
	/* The default 50 us timer slack of normal tasks would dominate the
	 * figure; the probe measures the scheduler, not the slack. */
	prctl(PR_SET_TIMERSLACK, 1UL);
	probe_prefault_stack();
	next = mono_ns() + interval;
	/* due from NEXT on: a wakeup that never comes in the window is still
	 * a stretch (record_open_stretch) */
	rec->last_iter_ns = (uint64_t)next;
	while (!load_should_stop(ctx) && (deadline <= 0 || next <= deadline)) {
		if (!probe_wait(ctx, next))
			break;
		next = probe_note(ctx, rec, mono_ns(), next, interval);
		rec->last_iter_ns = (uint64_t)next;
	}
	worker_end(rec);
}

/* Hold the PM QoS CPU latency at US microseconds: the request lives as
 * long as the descriptor, so it ends with the probe, however it ends, and
 * nothing needs restoring. -1 (message printed) when it cannot be held. */
static int probe_hold_dma_latency(int64_t us)
{
	int32_t v = (int32_t)us;
	int fd = open(PROBE_DMA_LATENCY, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return error_errno("wakeup-probe: cannot open " PROBE_DMA_LATENCY
				   " to hold cpu_dma_latency %lld us", (long long)us);
	if (write(fd, &v, sizeof(v)) != (ssize_t)sizeof(v)) {
		error_errno("wakeup-probe: cannot set cpu_dma_latency %lld us", (long long)us);
		close(fd);
		return -1;
	}
	return fd;
}

static int run(struct load_ctx *ctx)
{
	int64_t dma_us = ctx->spec->opts[OPT_CPU_DMA_LATENCY].i;
	int dma_fd = -1, ret;

	/* Without CAP_IPC_LOCK, MCL_FUTURE under RLIMIT_MEMLOCK would make
	 * later thread stacks fail to map: lock memory only as root. */
	if (geteuid() == 0 && mlockall(MCL_CURRENT | MCL_FUTURE))
		warning("wakeup-probe: cannot lock memory; page faults may add latency");
	/* asked for and not held, the figures would not mean what the result says */
	if (dma_us >= 0 && (dma_fd = probe_hold_dma_latency(dma_us)) < 0)
		return EXIT_RUNTIME;
	ret = load_run_workers(ctx, (unsigned)ctx->spec->count, probe, NULL) ? EXIT_RUNTIME : 0;
	if (dma_fd >= 0)
		close(dma_fd);
	return ret;
}

const struct load_type load_wakeup_probe = {
	.name = "wakeup-probe",
	.summary = "periodic absolute clock_nanosleep, cyclictest-grade: wakeup latency histogram with p50/p90/p99/p99.9/max; any policy",
	.options = options,
	.n_options = sizeof(options) / sizeof(options[0]),
	.hist = HIST_WAKEUP_LATENCY,
	.flags = LOAD_INBAND_GAPS,
	.run = run,
};
