/* The sampler's cost per task and tick and the rate it holds, for
 * bench/sampler-cost.sh: start THREADS threads, either sleepers (blocked on
 * a pipe) or runners (wake every 20 ms, run ~20 us, sleep again, as a busy
 * server's threads do), find them as a run does (sampler_watch_process) and
 * sample them at HZ for SECONDS, the real way (kept descriptors) or naively
 * (open, read and close both files every tick). Prints one line of
 * key=value pairs.
 * PRIO > 0 runs the sampler as SCHED_FIFO PRIO, as sampler_priority does.
 * Usage: sampler-bench THREADS SECONDS HZ kept|naive [sleep|run [PRIO]] */
#include "config.h"
#include "harness/sampler/sampler.h"
#include "lib/timeutil.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BENCH_RUN_PERIOD_NS (20 * NSEC_PER_MSEC)
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

/* Wakes every BENCH_RUN_PERIOD_NS (from a phase of its own, so wake-ups
 * spread over the period) and burns BENCH_RUN_WORK_NS of CPU. */
static void *bench_runner(void *arg)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);
	int64_t next = mono_ns() + (tid * 7919LL) % BENCH_RUN_PERIOD_NS;

	*(volatile pid_t *)arg = tid;
	while (!atomic_load(&bench_stop)) {
		int64_t until = thread_cpu_ns() + BENCH_RUN_WORK_NS;

		while (thread_cpu_ns() < until)
			;
		next += BENCH_RUN_PERIOD_NS;
		sleep_until_ns(next);
	}
	return NULL;
}

static int bench_usage(void)
{
	fprintf(stderr, "usage: sampler-bench THREADS SECONDS HZ kept|naive [sleep|run [PRIO]]\n");
	return 2;
}

int main(int argc, char **argv)
{
	int n, hz, prio;
	double seconds;
	bool run;
	pthread_t *th;
	volatile pid_t *tids;
	pthread_attr_t attr;
	struct sampler *s;
	struct sampler_quality q;

	if (argc < 5 || argc > 7 || (n = atoi(argv[1])) <= 0 || (seconds = atof(argv[2])) <= 0 ||
	    (hz = atoi(argv[3])) <= 0 || (strcmp(argv[4], "kept") && strcmp(argv[4], "naive")) ||
	    (argc >= 6 && strcmp(argv[5], "sleep") && strcmp(argv[5], "run")))
		return bench_usage();
	run = argc >= 6 && !strcmp(argv[5], "run");
	prio = argc == 7 ? atoi(argv[6]) : 0;
	th = calloc((size_t)n, sizeof(*th));
	tids = calloc((size_t)n, sizeof(*tids));
	s = sampler_new(hz);
	if (!th || !tids || !s || pipe(bench_pipe) < 0)
		return 1;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (int i = 0; i < n; i++)
		if (pthread_create(&th[i], &attr, run ? bench_runner : bench_sleeper,
				   (void *)&tids[i]) != 0) {
			fprintf(stderr, "sampler-bench: cannot start thread %d\n", i);
			return 1;
		}
	for (int i = 0; i < n; i++)
		while (!tids[i])
			usleep(1000);
	/* As a run does: the process's threads, rescanned every 100 ms (this
	 * one, the sampler, is among them). */
	if (sampler_watch_process(s, getpid(), 0) < 0)
		return 1;
	sampler_set_naive(s, !strcmp(argv[4], "naive"));
	if (prio && sampler_set_priority(s, prio) < 0)
		return 2;
	if (sampler_run(s, mono_ns() + (int64_t)(seconds * NSEC_PER_SEC), NULL, NULL) < 0)
		return 1;
	sampler_quality(s, &q);
	printf("threads=%d population=%s mode=%s hz=%d achieved_hz=%.1f ticks=%llu late=%llu "
	       "missed=%llu cpu_s=%.4f cpu_share=%.3f cost_us_per_task_tick=%.3f reads_per_task_tick=%.3f\n", n,
	       run ? "run" : "sleep", argv[4], hz, q.achieved_hz, (unsigned long long)q.ticks,
	       (unsigned long long)q.late_ticks, (unsigned long long)q.missed_ticks, q.cpu_s,
	       q.window_ns > 0 ? q.cpu_s * NSEC_PER_SEC / (double)q.window_ns : 0,
	       q.cost_us_per_task_tick, q.reads_per_task_tick);
	atomic_store(&bench_stop, true);
	close(bench_pipe[1]);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	sampler_free(s);
	free(th);
	free((void *)tids);
	return 0;
}
