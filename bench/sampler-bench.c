/* The sampler's cost per task and tick and the rate it holds, for
 * bench/sampler-cost.sh: start THREADS threads, either sleepers (blocked on
 * a pipe) or runners (wake every 20 ms, run ~20 us, sleep again, as a busy
 * server's threads do), find them as a run does (sampler_watch_process) and
 * sample them at HZ for SECONDS, the real way (kept descriptors) or naively
 * (open, read and close both files every tick). Prints one line of
 * key=value pairs.
 * PRIO > 0 runs the sampler as SCHED_FIFO PRIO, as sampler_priority does.
 * A third population, busy, spins (SCHED_IDLE, so it yields to anyone else):
 * every task progresses every tick, so every task is read every tick.
 * Mode bare runs no sampler at all: a bare absolute timer at HZ counting
 * missed periods the sampler's way, the peer its tick loss is judged by.
 * Mode bpf samples nothing from /proc: BPF mode watches the threads and the
 * controller reads every thread's record at its progress rate (4 Hz); its
 * cost is the programs' run time plus that reading.
 * Usage: sampler-bench THREADS SECONDS HZ kept|naive|bare|bpf [sleep|run|busy [PRIO]] */
#include "config.h"
#include "harness/bpf/bpf-sched.h"
#include "harness/sampler/sampler.h"
#include "lib/timeutil.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* $SAMPLER_BENCH_PERIOD_MS changes the runners' period (default 20 ms). */
static int64_t bench_run_period_ns = 20 * NSEC_PER_MSEC;
#define BENCH_RUN_WORK_NS (20 * NSEC_PER_USEC)

static int bench_pipe[2];
static atomic_bool bench_stop;

static void *bench_sleeper(void *arg)
{
	char c;

	*(volatile pid_t *)arg = (pid_t)syscall(SYS_gettid);
	/* Blocks until the write end closes: a sleeper that never runs. */
	while (read(bench_pipe[0], &c, 1) > 0)
		;
	return NULL;
}

/* Wakes every bench_run_period_ns (from a phase of its own, so wake-ups
 * spread over the period) and burns BENCH_RUN_WORK_NS of CPU. */
static void *bench_runner(void *arg)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);
	int64_t next = mono_ns() + (tid * 7919LL) % bench_run_period_ns;

	*(volatile pid_t *)arg = tid;
	while (!atomic_load(&bench_stop)) {
		int64_t until = thread_cpu_ns() + BENCH_RUN_WORK_NS;

		while (thread_cpu_ns() < until)
			;
		next += bench_run_period_ns;
		sleep_until_ns(next);
	}
	return NULL;
}

/* Spins until the end, at SCHED_IDLE: always progressing, never in the way. */
static void *bench_busy(void *arg)
{
	struct sched_param sp = { 0 };

	*(volatile pid_t *)arg = (pid_t)syscall(SYS_gettid);
	pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp);
	while (!atomic_load(&bench_stop))
		;
	return NULL;
}

/* A bare timer at HZ for SECONDS: ticks and whole periods missed. */
static int bench_bare(int hz, double seconds)
{
	int64_t period = NSEC_PER_SEC / hz, next = mono_ns();
	int64_t end = next + (int64_t)(seconds * NSEC_PER_SEC);
	unsigned long long ticks = 0, missed = 0;

	prctl(PR_SET_TIMERSLACK, 1, 0, 0, 0);
	while (next < end) {
		int64_t lag;

		next += period;
		sleep_until_ns(next);
		ticks++;
		lag = mono_ns() - next;
		if (lag >= period) {
			missed += (unsigned long long)(lag / period);
			next += lag / period * period;
		}
	}
	printf("threads=0 population=none mode=bare hz=%d ticks=%llu missed=%llu\n", hz, ticks,
	       missed);
	return 0;
}

/* BPF mode over the N threads TIDS for SECONDS: the programs' CPU and the
 * reader's, per wall second; the events, the tasks it lost and the threads
 * it has no figures for (should be none). */
static int bench_bpf(const volatile pid_t *tids, int n, double seconds)
{
	int64_t t0, end, cpu0;
	struct bpfsched *b;
	struct sb_task r;
	char why[256];
	int unseen = 0;
	double prog;

	b = bpfsched_start(why, sizeof(why));
	if (!b || bpfsched_watch(b, getpid()) < 0) {
		fprintf(stderr, "sampler-bench: BPF mode: %s\n", b ? "cannot watch" : why);
		bpfsched_free(b);
		return 1;
	}
	/* loading (BTF, relocations) is a one-off per run, not a cost per tick */
	t0 = mono_ns();
	end = t0 + (int64_t)(seconds * NSEC_PER_SEC);
	cpu0 = thread_cpu_ns();
	bpfsched_set_window(b, t0, end);
	for (int64_t next = t0; next < end; next += SAMPLER_PROGRESS_NS) {
		sleep_until_ns(next);
		unseen = 0;
		for (int i = 0; i < n; i++)
			unseen += bpfsched_read(b, tids[i], &r) < 0 || !r.run_ns;
	}
	prog = bpfsched_cpu_s(b);
	printf("threads=%d mode=bpf seconds=%.1f events=%llu lost_tasks=%llu unseen=%d prog_cpu_s=%.4f "
	       "read_cpu_s=%.4f cpu_share=%.4f\n", n, seconds, (unsigned long long)bpfsched_events(b),
	       (unsigned long long)bpfsched_lost(b), unseen, prog,
	       (double)(thread_cpu_ns() - cpu0) / NSEC_PER_SEC,
	       (prog + (double)(thread_cpu_ns() - cpu0) / NSEC_PER_SEC) / seconds);
	bpfsched_free(b);
	return 0;
}

/* The sampler over this process's threads, as a run does: rescanned every
 * 100 ms (this one, the sampler, is among them), MODE kept or naive. */
static int bench_sampler(struct sampler *s, int n, double seconds, int prio, const char *pop,
			 const char *mode)
{
	struct sampler_quality q;

	if (sampler_watch_process(s, getpid(), 0) < 0)
		return 1;
	sampler_set_naive(s, !strcmp(mode, "naive"));
	if (prio && sampler_set_priority(s, prio) < 0)
		return 2;
	if (sampler_run(s, mono_ns() + (int64_t)(seconds * NSEC_PER_SEC), NULL, NULL) < 0)
		return 1;
	sampler_quality(s, &q);
	printf("threads=%d population=%s mode=%s hz=%d achieved_hz=%.1f ticks=%llu late=%llu "
	       "missed=%llu cpu_s=%.4f cpu_share=%.3f cost_us_per_task_tick=%.3f "
	       "reads_per_task_tick=%.3f cost_us_per_read=%.3f\n", n, pop, mode, q.target_hz,
	       q.achieved_hz, (unsigned long long)q.ticks, (unsigned long long)q.late_ticks,
	       (unsigned long long)q.missed_ticks, q.cpu_s,
	       q.window_ns > 0 ? q.cpu_s * NSEC_PER_SEC / (double)q.window_ns : 0,
	       q.cost_us_per_task_tick, q.reads_per_task_tick,
	       q.reads_per_task_tick > 0 ? q.cost_us_per_task_tick / q.reads_per_task_tick : 0);
	return 0;
}

static int bench_usage(void)
{
	fprintf(stderr, "usage: sampler-bench THREADS SECONDS HZ kept|naive|bare|bpf "
		"[sleep|run|busy [PRIO]]\n");
	return 2;
}

int main(int argc, char **argv)
{
	int n, hz, prio, ret;
	double seconds;
	void *(*body)(void *);
	pthread_t *th;
	volatile pid_t *tids;
	pthread_attr_t attr;
	struct sampler *s;

	if (argc < 5 || argc > 7 || (n = atoi(argv[1])) < 0 || (seconds = atof(argv[2])) <= 0 ||
	    (hz = atoi(argv[3])) <= 0)
		return bench_usage();
	if (!strcmp(argv[4], "bare"))
		return bench_bare(hz, seconds);
	if (getenv("SAMPLER_BENCH_PERIOD_MS"))
		bench_run_period_ns = atoll(getenv("SAMPLER_BENCH_PERIOD_MS")) * NSEC_PER_MSEC;
	body = argc < 6 || !strcmp(argv[5], "sleep") ? bench_sleeper :
	       !strcmp(argv[5], "run") ? bench_runner : !strcmp(argv[5], "busy") ? bench_busy : NULL;
	if (n <= 0 || !body || (strcmp(argv[4], "kept") && strcmp(argv[4], "naive") &&
				 strcmp(argv[4], "bpf")))
		return bench_usage();
	prio = argc == 7 ? atoi(argv[6]) : 0;
	th = calloc((size_t)n, sizeof(*th));
	tids = calloc((size_t)n, sizeof(*tids));
	s = sampler_new(hz);
	if (!th || !tids || !s || pipe(bench_pipe) < 0)
		return 1;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (int i = 0; i < n; i++)
		if (pthread_create(&th[i], &attr, body,
				   (void *)&tids[i]) != 0) {
			fprintf(stderr, "sampler-bench: cannot start thread %d\n", i);
			return 1;
		}
	for (int i = 0; i < n; i++)
		while (!tids[i])
			usleep(1000);
	if (!strcmp(argv[4], "bpf"))
		ret = bench_bpf(tids, n, seconds);
	else
		ret = bench_sampler(s, n, seconds, prio, argc >= 6 ? argv[5] : "sleep", argv[4]);
	atomic_store(&bench_stop, true);
	close(bench_pipe[1]);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	sampler_free(s);
	free(th);
	free((void *)tids);
	return ret;
}
