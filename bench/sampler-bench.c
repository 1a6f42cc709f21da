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
 * missed periods the sampler's way, the peer its tick loss is judged by,
 * and its CPU time per tick: the floor any sampler waking at HZ pays
 * before it reads anything (THREADS may be 0: no population).
 * Mode bpf samples nothing from /proc: BPF mode watches the threads and the
 * controller reads every thread's record at its progress rate (4 Hz); its
 * cost is the programs' run time plus that reading.
 * Mode none observes nothing: the threads alone, the machine's own cost of
 * the population (the process's CPU per wall second) and the share of the
 * runners' wake-ups that came on time, to tell what the machine can start.
 * $SAMPLER_BENCH_PERIOD_MS and $SAMPLER_BENCH_WORK_US set the runners'
 * period (20 ms) and work (20 us).
 * Usage: sampler-bench THREADS SECONDS HZ kept|naive|bare|bpf|none [sleep|run|busy [PRIO]] */
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

static int64_t bench_run_period_ns = 20 * NSEC_PER_MSEC;
static int64_t bench_run_work_ns = 20 * NSEC_PER_USEC;
/* The runners' wake-ups and the periods they missed while counting is on
 * (each thread adds its own once, at the end, so counting costs nothing). */
static atomic_bool bench_counting;
static int64_t bench_count_from, bench_count_until;
static atomic_ullong bench_wakes, bench_missed;

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
 * spread over the period) and burns bench_run_work_ns of CPU. */
static void *bench_runner(void *arg)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);
	int64_t next = mono_ns() + (tid * 7919LL) % bench_run_period_ns;
	unsigned long long wakes = 0, missed = 0;

	*(volatile pid_t *)arg = tid;
	while (!atomic_load(&bench_stop)) {
		int64_t until = thread_cpu_ns() + bench_run_work_ns, lag;

		while (thread_cpu_ns() < until)
			;
		next += bench_run_period_ns;
		sleep_until_ns(next);
		/* a wake-up a whole period late missed one: skip it, as the
		 * bare timer does, rather than catch up in a burst */
		lag = mono_ns() - next;
		if (lag >= bench_run_period_ns)
			next += lag / bench_run_period_ns * bench_run_period_ns;
		if (atomic_load_explicit(&bench_counting, memory_order_relaxed)) {
			wakes++;
			missed += (unsigned long long)(lag / bench_run_period_ns);
		}
	}
	atomic_fetch_add(&bench_wakes, wakes);
	atomic_fetch_add(&bench_missed, missed);
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

/* Count the runners' wake-ups from now (ON) or no more (off): around the
 * measured stretch only, not the observer's set-up. */
static void bench_count(bool on)
{
	*(on ? &bench_count_from : &bench_count_until) = mono_ns();
	atomic_store(&bench_counting, on);
}

/* A bare timer at HZ for SECONDS beside N threads of POP: ticks, whole
 * periods missed and its CPU time per tick. */
static int bench_bare(int n, const char *pop, int hz, double seconds)
{
	int64_t period = NSEC_PER_SEC / hz, next = mono_ns(), cpu0 = thread_cpu_ns();
	int64_t end = next + (int64_t)(seconds * NSEC_PER_SEC);
	unsigned long long ticks = 0, missed = 0;

	prctl(PR_SET_TIMERSLACK, 1, 0, 0, 0);
	bench_count(true);
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
	bench_count(false);
	printf("threads=%d population=%s mode=bare hz=%d ticks=%llu missed=%llu "
	       "cost_us_per_tick=%.3f\n", n, n ? pop : "none", hz, ticks, missed,
	       ticks ? (double)(thread_cpu_ns() - cpu0) / NSEC_PER_USEC / (double)ticks : 0);
	return 0;
}

/* BPF mode over the N threads TIDS for SECONDS: the programs' CPU and the
 * reader's, per wall second; the events, the tasks it lost and the threads
 * it has no figures for (should be none). */
#ifdef HAVE_BPF
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
	bench_count(true);
	for (int64_t next = t0; next < end; next += SAMPLER_PROGRESS_NS) {
		sleep_until_ns(next);
		unseen = 0;
		for (int i = 0; i < n; i++)
			unseen += bpfsched_read(b, tids[i], &r) < 0 || !r.run_ns;
	}
	bench_count(false);
	prog = bpfsched_cpu_s(b);
	printf("threads=%d mode=bpf seconds=%.1f events=%llu lost_tasks=%llu unseen=%d prog_cpu_s=%.4f "
	       "read_cpu_s=%.4f cpu_share=%.4f\n", n, seconds, (unsigned long long)bpfsched_events(b),
	       (unsigned long long)bpfsched_lost(b), unseen, prog,
	       (double)(thread_cpu_ns() - cpu0) / NSEC_PER_SEC,
	       (prog + (double)(thread_cpu_ns() - cpu0) / NSEC_PER_SEC) / seconds);
	bpfsched_free(b);
	return 0;
}
#else
static int bench_bpf(const volatile pid_t *tids, int n, double seconds)
{
	(void)tids;
	(void)n;
	(void)seconds;
	fprintf(stderr, "sampler-bench: this starve was built without BPF mode\n");
	return 1;
}
#endif

/* Nothing observing: the whole process's CPU (the threads' own cost; this
 * thread sleeps) per wall second over SECONDS. */
static int bench_none(int n, double seconds)
{
	int64_t t0 = mono_ns(), cpu0 = process_cpu_ns();

	bench_count(true);
	sleep_until_ns(t0 + (int64_t)(seconds * NSEC_PER_SEC));
	bench_count(false);
	printf("threads=%d mode=none seconds=%.1f cpu_share=%.4f\n", n, seconds,
	       (double)(process_cpu_ns() - cpu0) / (double)(mono_ns() - t0));
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
	bench_count(true);
	if (sampler_run(s, mono_ns() + (int64_t)(seconds * NSEC_PER_SEC), NULL, NULL) < 0)
		return 1;
	bench_count(false);
	sampler_quality(s, &q);
	printf("threads=%d population=%s mode=%s hz=%d achieved_hz=%.1f ticks=%llu late=%llu "
	       "missed=%llu cpu_s=%.4f cpu_share=%.3f cost_us_per_task_tick=%.3f "
	       "reads_per_task_tick=%.3f cost_us_per_read=%.3f cost_us_per_tick=%.3f\n", n, pop, mode, q.target_hz,
	       q.achieved_hz, (unsigned long long)q.ticks, (unsigned long long)q.late_ticks,
	       (unsigned long long)q.missed_ticks, q.cpu_s,
	       q.window_ns > 0 ? q.cpu_s * NSEC_PER_SEC / (double)q.window_ns : 0,
	       q.cost_us_per_task_tick, q.reads_per_task_tick,
	       q.reads_per_task_tick > 0 ? q.cost_us_per_task_tick / q.reads_per_task_tick : 0,
	       q.ticks ? q.cpu_s * 1e6 / (double)q.ticks : 0);
	return 0;
}

/* How many of the wake-ups the N runners were due while counted they made:
 * below 1, the machine (or the observer) could not keep the population's
 * rate. */
static void bench_print_wakes(int n)
{
	double due = n * (double)(bench_count_until - bench_count_from) /
		     (double)bench_run_period_ns;

	printf("wakes=%llu missed_wakes=%llu wake_share=%.3f\n",
	       (unsigned long long)atomic_load(&bench_wakes),
	       (unsigned long long)atomic_load(&bench_missed), (double)atomic_load(&bench_wakes) / due);
}

static int bench_usage(void)
{
	fprintf(stderr, "usage: sampler-bench THREADS SECONDS HZ kept|naive|bare|bpf|none "
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
	if (getenv("SAMPLER_BENCH_PERIOD_MS"))
		bench_run_period_ns = atoll(getenv("SAMPLER_BENCH_PERIOD_MS")) * NSEC_PER_MSEC;
	if (getenv("SAMPLER_BENCH_WORK_US"))
		bench_run_work_ns = atoll(getenv("SAMPLER_BENCH_WORK_US")) * NSEC_PER_USEC;
	body = argc < 6 || !strcmp(argv[5], "sleep") ? bench_sleeper :
	       !strcmp(argv[5], "run") ? bench_runner : !strcmp(argv[5], "busy") ? bench_busy : NULL;
	if ((n <= 0 && strcmp(argv[4], "bare")) || !body ||
	    (strcmp(argv[4], "kept") && strcmp(argv[4], "naive") && strcmp(argv[4], "bare") &&
	     strcmp(argv[4], "bpf") && strcmp(argv[4], "none")))
		return bench_usage();
	prio = argc == 7 ? atoi(argv[6]) : 0;
	th = calloc((size_t)n + 1, sizeof(*th));
	tids = calloc((size_t)n + 1, sizeof(*tids));
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
	if (!strcmp(argv[4], "bare"))
		ret = bench_bare(n, argc >= 6 ? argv[5] : "sleep", hz, seconds);
	else if (!strcmp(argv[4], "bpf"))
		ret = bench_bpf(tids, n, seconds);
	else if (!strcmp(argv[4], "none"))
		ret = bench_none(n, seconds);
	else
		ret = bench_sampler(s, n, seconds, prio, argc >= 6 ? argv[5] : "sleep", argv[4]);
	atomic_store(&bench_stop, true);
	close(bench_pipe[1]);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	if (body == bench_runner)
		bench_print_wakes(n);
	sampler_free(s);
	free(th);
	free((void *)tids);
	return ret;
}
