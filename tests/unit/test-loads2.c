/* Unit tests for the wakeup-storm, pipe-pingpong and compositor loads, and
 * the start gate their workers wait at (loads/gate.c): each
 * runs for about a second on the live machine, started by spawn_load as
 * `starve run` starts it, and the test asserts the metrics it must produce
 * (and, where an option changes them, that they change). */
#include "config.h"
#include "harness/run/spawn.h"
#include "loads/load.h"
#include "loads/stats.h"
#include "lib/timeutil.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define GRACE_MS 3000	/* a load that outlives its deadline by this is hung */
/* Every load here runs on CPU 0: RT loads of other tests (never on every
 * CPU) use CPU 1, and would starve ours there during a parallel make check. */
#define TEST_CPU "pu:0"

struct outcome {
	struct stats_block *stats;
	unsigned n;
	int status;		/* the leader's wait status */
	int64_t elapsed_ms;	/* fork to reap */
};

static void spec_for(struct load_spec *spec, const char *type, int count, enum load_mode mode)
{
	const struct load_type *t = load_type_find(type);

	ck_assert_ptr_nonnull(t);
	load_spec_init(spec, t, NULL);
	spec->count = count;
	spec->mode = mode;
}

static void set_opt(struct load_spec *spec, const char *name, const char *text)
{
	const struct load_type *t = spec->type;
	const struct opt_spec *row = opt_find(t->options, t->n_options, name);
	char why[200];
	size_t i;

	ck_assert_msg(row != NULL, "no option '%s' in %s", name, t->name);
	i = (size_t)(row - t->options);
	ck_assert_msg(opt_parse(row, text, &spec->opts[i], why, sizeof(why)) == 0, "%s", why);
	spec->opt_set[i] = true;
}

/* Run SPEC for MS milliseconds through spawn_load, as `starve run` starts
 * loads (own process group, pinned to CPUS when not NULL), wait for the
 * leader to end by itself at the deadline, and hand back the stats block.
 * A leader that overstays its deadline is killed and the test fails. */
static struct outcome run_load(struct load_spec *spec, int64_t ms, const char *cpus)
{
	struct spawn_options opt = { .run_ns = ms * NSEC_PER_MSEC };
	struct spawned_load sl;
	char why[200];
	struct outcome o = { 0 };
	int64_t t0 = mono_ns();
	bool hung;

	if (cpus) {
		free(spec->cpus);
		spec->cpus = strdup(cpus);
	}
	ck_assert_msg(load_spec_finish(spec, why, sizeof(why)) == 0, "%s", why);
	o.n = load_records_needed(spec);
	o.stats = stats_create(o.n, t0 + ms * NSEC_PER_MSEC);
	ck_assert_ptr_nonnull(o.stats);
	ck_assert_int_eq(spawn_load(&sl, spec, o.stats, 0, &opt), 0);
	while (spawn_poll(&sl, 1) > 0 && mono_ns() - t0 < (ms + GRACE_MS) * NSEC_PER_MSEC)
		usleep(10000);
	hung = !sl.exited;
	spawn_stop_all(&sl, 1, o.stats, 0);	/* reaps; kills only a hung group */
	o.status = sl.status;
	o.elapsed_ms = (mono_ns() - t0) / NSEC_PER_MSEC;
	ck_assert_msg(!hung, "load %s did not stop at its deadline", spec->type->name);
	ck_assert_msg(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0,
		      "load %s ended with wait status %#x", spec->type->name, o.status);
	return o;
}

static void outcome_free(struct outcome *o, struct load_spec *spec)
{
	stats_destroy(o->stats);
	load_spec_free(spec);
}

static void assert_records_done(const struct outcome *o)
{
	for (unsigned i = 0; i < o->n; i++)
		ck_assert_msg(o->stats->rec[i].state == RECORD_DONE,
			      "record %u ended in state %u (%s)", i, o->stats->rec[i].state,
			      o->stats->rec[i].error);
}

/* ---- wakeup-storm ---- */

/* Every worker serves requests, and each request's wake-to-run latency is
 * in the histogram, below one period on a machine that is not swamped. */
static void storm_serves_every_worker(enum load_mode mode)
{
	struct load_spec spec;
	struct outcome o;
	uint64_t total = 0;

	spec_for(&spec, "wakeup-storm", 4, mode);
	set_opt(&spec, "period", "10ms");
	set_opt(&spec, "work", "200us");
	o = run_load(&spec, 1000, TEST_CPU);
	assert_records_done(&o);
	for (unsigned i = 0; i < o.n; i++) {
		const struct worker_record *r = &o.stats->rec[i];

		ck_assert_uint_gt(r->iterations, 10);
		ck_assert_uint_le(r->iterations, 101);	/* one per storm at most */
		/* one latency per request taken (the last may be cut short);
		 * with time to spare, nearly every request follows a wakeup */
		ck_assert_uint_ge(r->hist.count, r->iterations);
		ck_assert_uint_le(r->hist.count, r->iterations + 1);
		ck_assert_uint_le(r->wakeups, r->hist.count + 1);
		ck_assert_uint_gt(r->wakeups * 10, r->hist.count * 9);
		ck_assert_uint_lt(hist_percentile(&r->hist, 50), 10 * NSEC_PER_MSEC);
		total += r->iterations;
	}
	/* about 100 storms of 4 requests; leave room for a busy machine */
	ck_assert_uint_gt(total, 150);
	ck_assert_uint_le(total, 4 * 101);
	outcome_free(&o, &spec);
}

START_TEST(storm_threads_serve_requests)
{
	storm_serves_every_worker(LOAD_THREADS);
}
END_TEST

START_TEST(storm_processes_serve_requests)
{
	storm_serves_every_worker(LOAD_PROCESSES);
}
END_TEST

/* wake = 1 issues one request per storm however many workers wait. */
START_TEST(storm_wakes_only_k_workers)
{
	struct load_spec spec;
	struct outcome o;
	uint64_t total = 0;

	spec_for(&spec, "wakeup-storm", 4, LOAD_PROCESSES);
	set_opt(&spec, "period", "10ms");
	set_opt(&spec, "wake", "1");
	set_opt(&spec, "work", "100us");
	o = run_load(&spec, 1000, TEST_CPU);
	for (unsigned i = 0; i < o.n; i++)
		total += o.stats->rec[i].iterations;
	ck_assert_uint_gt(total, 40);
	ck_assert_uint_le(total, 101);	/* at most one per 10 ms storm */
	outcome_free(&o, &spec);
}
END_TEST

START_TEST(storm_rejects_waking_more_than_count)
{
	struct load_spec spec;
	char why[200];

	spec_for(&spec, "wakeup-storm", 2, LOAD_THREADS);
	set_opt(&spec, "wake", "3");
	ck_assert_int_eq(load_spec_finish(&spec, why, sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "wake"));
	load_spec_free(&spec);
}
END_TEST

/* A storm with a long period still ends promptly at its deadline. */
START_TEST(storm_with_long_period_stops_promptly)
{
	struct load_spec spec;
	struct outcome o;

	spec_for(&spec, "wakeup-storm", 2, LOAD_PROCESSES);
	set_opt(&spec, "period", "10s");
	o = run_load(&spec, 300, TEST_CPU);
	ck_assert_int_lt(o.elapsed_ms, 300 + 500);
	assert_records_done(&o);
	outcome_free(&o, &spec);
}
END_TEST

/* ---- pipe-pingpong ---- */

/* Pairs on one CPU bounce the token many times; the initiator (even record)
 * times each round trip, and both sides end cleanly at the deadline. */
static void pingpong_bounces(enum load_mode mode)
{
	struct load_spec spec;
	struct outcome o;

	spec_for(&spec, "pipe-pingpong", 2, mode);
	o = run_load(&spec, 1000, TEST_CPU);
	ck_assert_uint_eq(o.n, 4);
	assert_records_done(&o);
	for (unsigned i = 0; i < o.n; i += 2) {
		const struct worker_record *r = &o.stats->rec[i];

		ck_assert_uint_gt(r->iterations, 1000);
		ck_assert_uint_eq(r->hist.count, r->iterations);
		ck_assert_uint_gt(r->hist.min, 0);
		ck_assert_uint_eq(o.stats->rec[i + 1].iterations, 0);
		ck_assert_int_gt(o.stats->rec[i + 1].tid, 0);
	}
	outcome_free(&o, &spec);
}

START_TEST(pingpong_threads_bounce)
{
	pingpong_bounces(LOAD_THREADS);
}
END_TEST

START_TEST(pingpong_processes_bounce)
{
	pingpong_bounces(LOAD_PROCESSES);
}
END_TEST

/* Work on each side shows up in every round trip: at least twice the work. */
START_TEST(pingpong_work_lengthens_round_trips)
{
	struct load_spec spec;
	struct outcome o;

	spec_for(&spec, "pipe-pingpong", 1, LOAD_THREADS);
	set_opt(&spec, "work", "200us");
	o = run_load(&spec, 500, TEST_CPU);
	ck_assert_uint_gt(o.stats->rec[0].iterations, 10);
	/* the initiator's own work is outside the timed span, the partner's inside */
	ck_assert_uint_ge(o.stats->rec[0].hist.min, 200 * NSEC_PER_USEC);
	ck_assert_uint_lt(o.stats->rec[0].iterations, 500 * NSEC_PER_MSEC / (400 * NSEC_PER_USEC) + 1);
	outcome_free(&o, &spec);
}
END_TEST

/* ---- compositor ---- */

START_TEST(compositor_alone_meets_deadlines)
{
	struct load_spec spec;
	struct outcome o;
	const struct worker_record *r;
	uint64_t dropped;

	spec_for(&spec, "compositor", 1, LOAD_THREADS);
	set_opt(&spec, "fps", "60");
	set_opt(&spec, "frames", "20");
	set_opt(&spec, "cost", "1ms");
	set_opt(&spec, "idle", "100ms");
	o = run_load(&spec, 1000, TEST_CPU);
	r = &o.stats->rec[0];
	assert_records_done(&o);
	/* about 2 bursts of 20 frames in 1 s */
	ck_assert_uint_ge(r->deadlines_met + r->deadlines_missed, 30);
	ck_assert_uint_le(r->deadlines_met + r->deadlines_missed, 60);
	ck_assert_uint_ge(r->deadlines_met * 10, (r->deadlines_met + r->deadlines_missed) * 9);
	dropped = r->deadlines_met + r->deadlines_missed - r->iterations;
	ck_assert_uint_eq(r->hist.count, r->deadlines_missed - dropped);	/* late, rendered */
	outcome_free(&o, &spec);
}
END_TEST

/* A frame costing more than its deadline can never make it; the lateness
 * of each is at least the excess. */
START_TEST(compositor_expensive_frames_miss)
{
	struct load_spec spec;
	struct outcome o;
	const struct worker_record *r;

	spec_for(&spec, "compositor", 1, LOAD_THREADS);
	set_opt(&spec, "fps", "50");
	set_opt(&spec, "cost", "10ms");
	set_opt(&spec, "deadline", "5ms");
	set_opt(&spec, "idle", "0ns");
	o = run_load(&spec, 600, TEST_CPU);
	r = &o.stats->rec[0];
	ck_assert_uint_eq(r->deadlines_met, 0);
	ck_assert_uint_gt(r->deadlines_missed, 10);
	ck_assert_uint_gt(r->hist.count, 0);
	ck_assert_uint_ge(r->hist.min, 5 * NSEC_PER_MSEC);
	outcome_free(&o, &spec);
}
END_TEST

/* Frames whose successor is already due when they could start are dropped
 * and count as missed without being rendered. */
START_TEST(compositor_drops_frames_it_cannot_start)
{
	struct load_spec spec;
	struct outcome o;
	const struct worker_record *r;

	spec_for(&spec, "compositor", 1, LOAD_THREADS);
	set_opt(&spec, "fps", "100");
	set_opt(&spec, "cost", "35ms");	/* 3.5 frame periods: 2-3 dropped per frame */
	set_opt(&spec, "frames", "1000");
	o = run_load(&spec, 1000, TEST_CPU);
	r = &o.stats->rec[0];
	ck_assert_uint_gt(r->iterations, 2);	/* ~28 when the CPU is ours alone */
	/* every rendered frame was late, and more were dropped than rendered */
	ck_assert_uint_eq(r->hist.count, r->iterations);
	ck_assert_uint_gt(r->deadlines_missed, 2 * r->iterations);
	outcome_free(&o, &spec);
}
END_TEST

/* ---- the start gate (loads/gate.c) ---- */

/* With the gate closed, pipe-pingpong's worker processes register and then
 * wait, doing nothing, however long; opened from this process (another than
 * theirs), they run, their start time the opening's. */
START_TEST(gate_holds_registered_workers_until_opened)
{
	struct spawn_options opt = { .run_ns = 1500 * NSEC_PER_MSEC };
	struct load_spec spec;
	struct spawned_load sl;
	struct stats_block *b;
	char why[200];
	int64_t t0 = mono_ns();

	spec_for(&spec, "pipe-pingpong", 1, LOAD_PROCESSES);
	free(spec.cpus);
	spec.cpus = strdup(TEST_CPU);
	ck_assert_msg(load_spec_finish(&spec, why, sizeof(why)) == 0, "%s", why);
	b = stats_create(load_records_needed(&spec), t0 + 1500 * NSEC_PER_MSEC);
	ck_assert_ptr_nonnull(b);
	stats_gate_close(b);
	ck_assert_int_eq(spawn_load(&sl, &spec, b, 0, &opt), 0);
	while (!stats_gate_ready(b) && mono_ns() - t0 < 1000 * NSEC_PER_MSEC)
		usleep(2000);
	ck_assert_msg(stats_gate_ready(b), "the workers did not register within 1 s");
	usleep(300000);		/* held: not one round trip */
	for (unsigned i = 0; i < b->n_records; i++) {
		ck_assert_uint_eq(b->rec[i].state, RECORD_RUNNING);
		ck_assert_uint_eq(b->rec[i].iterations, 0);
		/* no gap noted since it registered */
		ck_assert_uint_eq(b->rec[i].last_iter_ns, b->rec[i].start_ns);
	}
	stats_gate_open(b);
	while (spawn_poll(&sl, 1) > 0 && mono_ns() - t0 < (1500 + GRACE_MS) * NSEC_PER_MSEC)
		usleep(10000);
	ck_assert_msg(sl.exited, "the load did not stop at its deadline");
	spawn_stop_all(&sl, 1, b, 0);
	ck_assert_uint_gt(b->rec[0].iterations, 0);
	for (unsigned i = 0; i < b->n_records; i++)
		ck_assert_uint_eq(b->rec[i].start_ns, (uint64_t)b->gate_opened_ns);
	stats_destroy(b);
	load_spec_free(&spec);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("loads2");
	TCase *storm = tcase_create("wakeup-storm");
	TCase *pp = tcase_create("pipe-pingpong");
	TCase *comp = tcase_create("compositor");
	TCase *gate = tcase_create("start gate");

	tcase_add_test(storm, storm_threads_serve_requests);
	tcase_add_test(storm, storm_processes_serve_requests);
	tcase_add_test(storm, storm_wakes_only_k_workers);
	tcase_add_test(storm, storm_rejects_waking_more_than_count);
	tcase_add_test(storm, storm_with_long_period_stops_promptly);
	tcase_add_test(pp, pingpong_threads_bounce);
	tcase_add_test(pp, pingpong_processes_bounce);
	tcase_add_test(pp, pingpong_work_lengthens_round_trips);
	tcase_add_test(comp, compositor_alone_meets_deadlines);
	tcase_add_test(comp, compositor_expensive_frames_miss);
	tcase_add_test(comp, compositor_drops_frames_it_cannot_start);
	tcase_set_timeout(storm, 10);
	tcase_set_timeout(pp, 10);
	tcase_set_timeout(comp, 10);
	tcase_add_test(gate, gate_holds_registered_workers_until_opened);
	tcase_set_timeout(gate, 10);
	suite_add_tcase(s, storm);
	suite_add_tcase(s, gate);
	suite_add_tcase(s, pp);
	suite_add_tcase(s, comp);
	return unit_run(s);
}
