/* The sampler's cost per task and tick, for bench/sampler-cost.sh: start
 * THREADS threads that sleep (blocked on a pipe), find them as a run does
 * (sampler_watch_process) and sample them at HZ for SECONDS, either the real
 * way (kept descriptors, stat only when needed) or naively (open, read and
 * close both files every tick). Prints one line of key=value pairs.
 * Usage: sampler-bench THREADS SECONDS HZ kept|naive */
#include "config.h"
#include "harness/sampler/sampler.h"
#include "lib/timeutil.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int bench_pipe[2];

static void *bench_sleeper(void *arg)
{
	char c;

	*(volatile pid_t *)arg = (pid_t)syscall(SYS_gettid);
	/* Blocks until the write end closes: a sleeper that never runs. */
	while (read(bench_pipe[0], &c, 1) > 0)
		;
	return NULL;
}

static int bench_usage(void)
{
	fprintf(stderr, "usage: sampler-bench THREADS SECONDS HZ kept|naive\n");
	return 2;
}

int main(int argc, char **argv)
{
	int n, hz;
	double seconds;
	pthread_t *th;
	volatile pid_t *tids;
	pthread_attr_t attr;
	struct sampler *s;
	struct sampler_quality q;

	if (argc != 5 || (n = atoi(argv[1])) <= 0 || (seconds = atof(argv[2])) <= 0 ||
	    (hz = atoi(argv[3])) <= 0 || (strcmp(argv[4], "kept") && strcmp(argv[4], "naive")))
		return bench_usage();
	th = calloc((size_t)n, sizeof(*th));
	tids = calloc((size_t)n, sizeof(*tids));
	s = sampler_new(hz);
	if (!th || !tids || !s || pipe(bench_pipe) < 0)
		return 1;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (int i = 0; i < n; i++)
		if (pthread_create(&th[i], &attr, bench_sleeper, (void *)&tids[i]) != 0) {
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
	if (sampler_run(s, mono_ns() + (int64_t)(seconds * NSEC_PER_SEC), NULL, NULL) < 0)
		return 1;
	sampler_quality(s, &q);
	printf("threads=%d mode=%s hz=%d achieved_hz=%.1f ticks=%llu late=%llu missed=%llu "
	       "cpu_s=%.4f cost_us_per_task_tick=%.3f\n", n, argv[4], hz, q.achieved_hz,
	       (unsigned long long)q.ticks, (unsigned long long)q.late_ticks,
	       (unsigned long long)q.missed_ticks, q.cpu_s, q.cost_us_per_task_tick);
	close(bench_pipe[1]);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	sampler_free(s);
	free(th);
	free((void *)tids);
	return 0;
}
