/* wakeup-storm: N workers block on one wait object and a dispatcher wakes
 * all of them (or K) every period; each woken worker spends W of CPU on its
 * "request" and blocks again, like Apache prefork children on accept().
 * A worker serves at most one request per storm, and a storm has at most K
 * requests (N when waking all), so every woken worker's request queues on
 * the run queue with the others': what the scheduler does with a herd.
 * Per worker: wake-to-run latency (the dispatcher's wake call to the worker
 * taking its request), wakeups, and requests served as iterations. */
#include "config.h"
#include "loads/load.h"
#include "loads/pace.h"
#include "lib/error.h"
#include "lib/timeutil.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

enum {
	OPT_PERIOD,
	OPT_WAKE,
	OPT_WORK,
};

static const struct opt_spec options[] = {
	[OPT_PERIOD] = { "period", OPT_DURATION, "ns", 10000, 10e9, "10ms",
		"time between wakeup storms", NULL },
	[OPT_WAKE] = { "wake", OPT_INT, NULL, 0, LOAD_MAX_WORKERS, "0",
		"workers woken per storm; 0 wakes all", NULL },
	[OPT_WORK] = { "work", OPT_DURATION, "ns", 0, 1e9, "200us",
		"CPU time each woken worker spends on its request", NULL },
};

/* The wait object. It lives in a MAP_SHARED page mapped before the workers
 * fork, so processes and threads see the same futex word. Each storm bumps
 * seq (the futex word) and sets tokens to its number of requests; a worker
 * sleeps until seq moves past the last storm it served, then takes a token.
 * A worker still busy when a storm comes takes its token when it is done
 * (without sleeping), but never two from one storm. */
struct storm {
	uint32_t seq;		/* the futex word: storms issued */
	uint32_t tokens;	/* requests of the current storm not yet taken */
	uint32_t quit;		/* the dispatcher has ended: workers finish */
	int64_t wake_ns;	/* when the dispatcher issued the latest wake */
	const struct load_ctx *ctx;
	uint32_t per_storm;
	int64_t period_ns, work_ns;
};

/* Issue one storm. The stamp and the tokens are written before seq is
 * published, so a worker that sees the new seq sees this storm's stamp. */
static void storm_wake(struct storm *s)
{
	__atomic_store_n(&s->wake_ns, mono_ns(), __ATOMIC_RELAXED);
	__atomic_store_n(&s->tokens, s->per_storm, __ATOMIC_RELAXED);
	__atomic_add_fetch(&s->seq, 1, __ATOMIC_RELEASE);
	pace_futex_wake(s->ctx, &s->seq, (int)s->per_storm);
}

/* The dispatcher runs as a thread of the load's leader; it has no record
 * (its CPU use is negligible and it must not skew fairness over workers). */
static void *dispatcher(void *arg)
{
	struct storm *s = arg;
	int64_t next = mono_ns() + s->period_ns;

	load_guard_lower();	/* a load thread: the load's policy, not its leader's */
	while (pace_sleep_until(s->ctx, next)) {
		int64_t now;

		storm_wake(s);
		next += s->period_ns;
		now = mono_ns();
		if (next <= now)	/* overran: skip the storms we missed */
			next += ((now - next) / s->period_ns + 1) * s->period_ns;
	}
	__atomic_store_n(&s->quit, 1, __ATOMIC_RELEASE);
	__atomic_add_fetch(&s->seq, 1, __ATOMIC_RELEASE);
	pace_futex_wake(s->ctx, &s->seq, INT_MAX);
	return NULL;
}

/* Take one token of a storm after *last, sleeping until there is one, and
 * count the times the worker was woken. Returns false when the load must
 * stop. */
static bool storm_take(struct storm *s, struct worker_record *rec, uint32_t *last)
{
	bool slept = false;

	for (;;) {
		uint32_t seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE), t;

		if (__atomic_load_n(&s->quit, __ATOMIC_ACQUIRE) || load_should_stop(s->ctx))
			return false;
		if (seq == *last) {
			/* The timeout only bounds how late a stop is noticed. */
			if (pace_futex_wait(s->ctx, &s->seq, seq, PACE_STOP_CHECK_NS) == 0)
				slept = true;
			continue;
		}
		*last = seq;
		if (slept && stats_measuring(s->ctx->stats, (uint64_t)mono_ns()))
			rec->wakeups++;
		slept = false;
		t = __atomic_load_n(&s->tokens, __ATOMIC_RELAXED);
		while (t > 0)
			if (__atomic_compare_exchange_n(&s->tokens, &t, t - 1, false,
							__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
				return true;
		/* This storm's requests are gone (wake K): wait for the next. */
	}
}

static void storm_worker(struct load_ctx *ctx, unsigned record, void *arg)
{
	struct storm *s = arg;
	struct worker_record *rec = worker_begin(ctx, record);
	uint32_t last = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);

	while (storm_take(s, rec, &last)) {
		int64_t now = mono_ns();
		int64_t woke = __atomic_load_n(&s->wake_ns, __ATOMIC_ACQUIRE);

		if (stats_measuring(ctx->stats, (uint64_t)now))
			hist_record(&rec->hist, now > woke ? (uint64_t)(now - woke) : 0);
		if (s->work_ns)
			work_for_ns(ctx, NULL, s->work_ns);
		if (load_should_stop(ctx))
			break;		/* a request cut short is not served */
		now = mono_ns();
		if (stats_measuring(ctx->stats, (uint64_t)now))
			rec->iterations++;
	}
	worker_end(rec);
}

static int run(struct load_ctx *ctx)
{
	const struct load_spec *spec = ctx->spec;
	struct storm *s;
	pthread_t tid;
	int err, ret;

	s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED) {
		error_errno("load '%s': cannot map the wait object", spec->name);
		return EXIT_RUNTIME;
	}
	s->ctx = ctx;
	s->per_storm = (uint32_t)(spec->opts[OPT_WAKE].i ? spec->opts[OPT_WAKE].i : spec->count);
	s->period_ns = spec->opts[OPT_PERIOD].i;
	s->work_ns = spec->opts[OPT_WORK].i;

	err = pthread_create(&tid, NULL, dispatcher, s);
	if (err) {
		munmap(s, sizeof(*s));
		error("load '%s': cannot start the dispatcher: %s", spec->name, strerror(err));
		return EXIT_RUNTIME;
	}
	ret = load_run_workers(ctx, (unsigned)spec->count, storm_worker, s);
	/* The workers are gone (stopped, or failed to start): end the
	 * dispatcher now rather than after its current period. It holds no
	 * locks, and its sleep is a cancellation point. */
	pthread_cancel(tid);
	pthread_join(tid, NULL);
	munmap(s, sizeof(*s));
	return ret ? EXIT_RUNTIME : EXIT_PASS;
}

static int validate(const struct load_spec *spec, char *why, size_t why_len)
{
	if (spec->opts[OPT_WAKE].i > spec->count) {
		snprintf(why, why_len, "wake %lld is more than the %d workers (count)",
			 (long long)spec->opts[OPT_WAKE].i, spec->count);
		return -1;
	}
	return 0;
}

const struct load_type load_wakeup_storm = {
	.name = "wakeup-storm",
	.summary = "N workers block on one wait object; a dispatcher wakes all (or K) each period; each works W and blocks again (Apache prefork); count = workers",
	.options = options,
	.n_options = sizeof(options) / sizeof(options[0]),
	.hist = HIST_WAKEUP_LATENCY,
	.flags = LOAD_FAIRNESS,
	.validate = validate,
	.run = run,
};
