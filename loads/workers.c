/* Helpers for a load's run(): starting its workers as threads or processes,
 * the worker record life cycle, the stop check, and burning a given amount of
 * thread CPU time (work is specified in time, never in loop counts). */
#include "config.h"
#include "loads/load.h"
#include "lib/error.h"
#include "lib/timeutil.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define WORKER_STACK (512 * 1024)	/* ample for any load; keeps 4096 threads cheap */
#define WORK_CHUNK_NS (30 * NSEC_PER_USEC)	/* CPU time between two clock reads */

/* Set when starting a worker failed, so the workers already started stop
 * without touching the shared stop flag (which belongs to the controller).
 * Written by the leader's main thread, read by every worker thread. */
static atomic_bool workers_abort;

/* The worker that could not start gets its record marked failed with why,
 * so the controller makes the run an error naming the load, never a verdict
 * over the workers that did start. */
static void note_start_failure(struct load_ctx *ctx, unsigned started, unsigned n,
			       const char *what, int err)
{
	struct worker_record *rec = &ctx->stats->rec[ctx->first_record + started];

	atomic_store(&workers_abort, true);
	worker_fail(rec, "cannot start %s %u of %u: %s%s", what, started + 1, n, strerror(err),
		    err == EAGAIN ? " (a process or thread limit: ulimit -u, a pids cgroup?)" : "");
}

struct worker_start {
	struct load_ctx *ctx;
	unsigned record;
	worker_fn fn;
	void *arg;
};

static void *worker_thread(void *p)
{
	struct worker_start *ws = p;

	if (load_guard_lower() < 0) {
		worker_fail(&ws->ctx->stats->rec[ws->record], "cannot take the load's policy: %s",
			    strerror(errno));
		return NULL;
	}
	ws->fn(ws->ctx, ws->record, ws->arg);
	return NULL;
}

static int run_threads(struct load_ctx *ctx, unsigned n, worker_fn fn, void *arg)
{
	struct worker_start *ws = calloc(n, sizeof(*ws));
	pthread_t *tids = calloc(n, sizeof(*tids));
	pthread_attr_t attr;
	unsigned started = 0;
	int err = 0;

	if (!ws || !tids) {
		free(ws);
		free(tids);
		return error("out of memory starting %u workers", n);
	}
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, WORKER_STACK);
	for (; started < n; started++) {
		ws[started] = (struct worker_start){ ctx, ctx->first_record + started, fn, arg };
		err = pthread_create(&tids[started], &attr, worker_thread, &ws[started]);
		if (err)
			break;
	}
	pthread_attr_destroy(&attr);
	if (err)
		note_start_failure(ctx, started, n, "worker thread", err);
	for (unsigned i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	free(ws);
	free(tids);
	if (err)
		return error("cannot start worker thread %u of %u: %s", started + 1, n, strerror(err));
	return 0;
}

/* In a forked worker: die with the leader, and close the race where the
 * leader died before the death signal was armed. */
static void worker_child(struct load_ctx *ctx, unsigned record, worker_fn fn, void *arg,
			 pid_t leader, pid_t *pids)
{
	free(pids);	/* the leader's bookkeeping, not ours */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != leader)
		_exit(1);
	if (load_guard_lower() < 0) {
		worker_fail(&ctx->stats->rec[record], "cannot take the load's policy: %s",
			    strerror(errno));
		_exit(1);
	}
	fn(ctx, record, arg);
	_exit(0);
}

/* A worker process that died by a signal left its record RUNNING: say so. */
static void note_worker_status(struct load_ctx *ctx, unsigned record, int status)
{
	struct worker_record *rec = &ctx->stats->rec[record];

	if (WIFSIGNALED(status) && rec->state == RECORD_RUNNING)
		worker_fail(rec, "worker killed by signal %d", WTERMSIG(status));
}

static int run_processes(struct load_ctx *ctx, unsigned n, worker_fn fn, void *arg)
{
	pid_t *pids = calloc(n, sizeof(*pids)), leader = getpid();
	unsigned started = 0;
	int err = 0, status;

	if (!pids)
		return error("out of memory starting %u workers", n);
	for (; started < n; started++) {
		pids[started] = fork();
		if (pids[started] < 0) {
			err = errno;
			note_start_failure(ctx, started, n, "worker process", err);
			break;
		}
		if (pids[started] == 0)
			worker_child(ctx, ctx->first_record + started, fn, arg, leader, pids);
	}
	for (unsigned i = 0; err && i < started; i++)
		kill(pids[i], SIGKILL);		/* our own children only */
	for (unsigned i = 0; i < started; i++) {
		while (waitpid(pids[i], &status, 0) < 0 && errno == EINTR)
			;
		if (!err)
			note_worker_status(ctx, ctx->first_record + i, status);
	}
	free(pids);
	if (err)
		return error("cannot fork worker %u of %u: %s", started + 1, n, strerror(err));
	return 0;
}

int load_run_workers(struct load_ctx *ctx, unsigned n, worker_fn fn, void *arg)
{
	if (n > ctx->n_records)
		return error("load '%s' has %u records for %u workers", ctx->spec->name,
			     ctx->n_records, n);
	if (n == 0)
		return 0;
	if (ctx->spec->mode == LOAD_PROCESSES)
		return run_processes(ctx, n, fn, arg);
	return run_threads(ctx, n, fn, arg);
}

/* A refused admission fails the record and stops the load's workers. */
static void worker_enter_deadline(struct load_ctx *ctx, struct worker_record *rec)
{
	char why[400];

	if (load_enter_deadline(ctx->spec, why, sizeof(why)) == 0)
		return;
	worker_fail(rec, "%s", why);
	workers_abort = 1;
}

/* A test's late worker: with STARVE_TEST_LATE_WORKER=LOAD:MS, the first
 * worker of load LOAD sleeps MS before it registers and then says when it
 * registered (CLOCK_MONOTONIC) on stderr, so a test can see the gate hold
 * the window until it is there. */
static void worker_test_late(const struct load_ctx *ctx, unsigned record)
{
	const char *at = getenv("STARVE_TEST_LATE_WORKER"), *colon;
	size_t len;

	if (!at || record != ctx->first_record || !(colon = strchr(at, ':')))
		return;
	len = (size_t)(colon - at);
	if (len != strlen(ctx->spec->name) || strncmp(at, ctx->spec->name, len))
		return;
	load_sleep_ns(ctx, atoll(colon + 1) * NSEC_PER_MSEC);
	fprintf(stderr, "starve: test: load '%s' worker registered at %lld ns\n",
		ctx->spec->name, (long long)mono_ns());
}

struct worker_record *worker_begin(struct load_ctx *ctx, unsigned record)
{
	struct worker_record *rec = &ctx->stats->rec[record];

	worker_test_late(ctx, record);
	snprintf(rec->comm, sizeof(rec->comm), "starve-%s", ctx->spec->name);
	prctl(PR_SET_NAME, rec->comm);
	rec->pid = getpid();
	rec->tid = gettid();
	/* it wants the CPU from here on: a worker woken at the gate's opening
	 * that never runs again still has a stretch open (record_open_stretch) */
	rec->start_ns = rec->last_iter_ns = (uint64_t)mono_ns();
	rec->cpu_ns = rec->cpu_begin_ns = (uint64_t)thread_cpu_ns();
	/* last, so the controller sees the tid before it counts the record */
	__atomic_store_n(&rec->state, RECORD_RUNNING, __ATOMIC_RELEASE);
	if (ctx->spec->policy == POLICY_DEADLINE)
		worker_enter_deadline(ctx, rec);
	/* sched_setattr(0) sets the calling thread only: each worker asks */
	if (ctx->spec->slice_ns && load_set_fair_slice(ctx->spec, ctx->spec->slice_ns))
		worker_fail(rec, "cannot ask for a %.3g ms slice: %s", ctx->spec->slice_ns / 1e6,
			    strerror(errno));
	/* the in-band figures start at the gate's opening, not at registration
	 * nor when this worker first ran after it: a worker starved from the
	 * opening on counts that wait as its first gap (cpu-victim) */
	if (load_gate_wait(ctx) && ctx->stats->gate_opened_ns) {
		rec->start_ns = rec->last_iter_ns = (uint64_t)ctx->stats->gate_opened_ns;
		rec->cpu_ns = rec->cpu_begin_ns = (uint64_t)thread_cpu_ns();
	}
	return rec;
}

void worker_end(struct worker_record *rec)
{
	rec->cpu_ns = (uint64_t)thread_cpu_ns();
	rec->end_ns = (uint64_t)mono_ns();
	if (rec->state != RECORD_FAILED)
		rec->state = RECORD_DONE;
}

void worker_fail(struct worker_record *rec, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rec->error, sizeof(rec->error), fmt, ap);
	va_end(ap);
	rec->state = RECORD_FAILED;
}

bool load_should_stop(const struct load_ctx *ctx)
{
	const struct stats_block *b = ctx->stats;
	int64_t now, deadline = *(const volatile int64_t *)&b->deadline_ns;

	if (*(const volatile int32_t *)&b->stop || atomic_load_explicit(&workers_abort, memory_order_relaxed))
		return true;
	now = mono_ns();
	/* a dead controller or watchdog (loads/guard.c): nobody may be left to stop us */
	return (deadline > 0 && now >= deadline) || load_guard_gone(now);
}

/* Spin for about LOOPS empty iterations the compiler cannot remove. */
static void spin(unsigned long loops)
{
	for (unsigned long i = 0; i < loops; i++)
		__asm__ __volatile__("" ::: "memory");
}

/* Loops per WORK_CHUNK_NS on this CPU, learned per thread as it runs. */
static __thread unsigned long chunk_loops = 1000;

static void calibrate(unsigned long loops, int64_t used)
{
	unsigned long next;

	if (used <= 0)
		return;
	next = (unsigned long)((double)loops * WORK_CHUNK_NS / (double)used);
	if (next < 16)
		next = 16;
	if (next > (1ul << 26))
		next = 1ul << 26;
	/* Smooth, so one chunk slowed by an interrupt does not halve the next. */
	chunk_loops = (chunk_loops + next) / 2 + 1;
}

int64_t work_for_ns(const struct load_ctx *ctx, struct worker_record *rec, int64_t ns)
{
	int64_t start = thread_cpu_ns(), now = start;

	if (rec)
		rec->last_iter_ns = (uint64_t)mono_ns();	/* the sleep before is no gap */
	while (now - start < ns) {
		int64_t left = ns - (now - start), before = now;
		unsigned long loops = chunk_loops;

		if (left < WORK_CHUNK_NS)
			loops = (unsigned long)((double)loops * left / WORK_CHUNK_NS) + 1;
		spin(loops);
		now = thread_cpu_ns();
		calibrate(loops, now - before);
		if (rec) {
			rec->cpu_ns = (uint64_t)now;	/* current even if we are killed */
			record_gap(ctx->stats, rec, (uint64_t)mono_ns(), 0);
		}
		if (load_should_stop(ctx))
			break;
	}
	return now - start;
}

#define SLEEP_SLICE_NS (50 * NSEC_PER_MSEC)

bool load_sleep_ns(const struct load_ctx *ctx, int64_t ns)
{
	int64_t deadline = ctx->stats->deadline_ns, until = mono_ns() + ns;

	if (deadline > 0 && until > deadline)
		until = deadline;
	for (;;) {
		int64_t now = mono_ns();

		if (load_should_stop(ctx))
			return false;
		if (now >= until)
			return true;
		sleep_until_ns(until - now > SLEEP_SLICE_NS ? now + SLEEP_SLICE_NS : until);
	}
}

struct duty_cycle {
	int64_t run_ns, sleep_ns;
};

static void duty_cycle_worker(struct load_ctx *ctx, unsigned record, void *arg)
{
	const struct duty_cycle *dc = arg;
	struct worker_record *rec = worker_begin(ctx, record);

	while (!load_should_stop(ctx)) {
		work_for_ns(ctx, rec, dc->run_ns);
		if (dc->sleep_ns > 0 && !load_sleep_ns(ctx, dc->sleep_ns))
			break;
		if (stats_measuring(ctx->stats, (uint64_t)mono_ns()))
			rec->iterations++;
	}
	worker_end(rec);
}

int load_run_duty_cycle(struct load_ctx *ctx, int64_t run_ns, int64_t sleep_ns)
{
	struct duty_cycle dc = { run_ns, sleep_ns };

	return load_run_workers(ctx, (unsigned)ctx->spec->count, duty_cycle_worker, &dc) ?
		EXIT_RUNTIME : 0;
}
