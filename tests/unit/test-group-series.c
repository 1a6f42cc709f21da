/* Unit tests for a sampler group's time series (harness/sampler/group-series.c),
 * fed with simulated ticks: tasks that use the CPU at a steady rate, read
 * every tick or every few ticks, by a sampler whose ticks jitter and now and
 * then stall across several buckets. A steady task's CPU time lies evenly in
 * time, so every bucket must come out at the sum of the tasks' rates, before
 * and after the series halves, whatever the ticks did. */
#include "config.h"
#include "harness/sampler/group-series.h"
#include "lib/timeutil.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>

#define MS NSEC_PER_MSEC
#define MAX_TASKS 4

struct sim_task {
	double rate;		/* CPU ns per wall ns */
	unsigned spacing;	/* read every SPACING ticks */
	int64_t read_ns;	/* when it was last read */
};

struct sim {
	struct sampler_group *g;
	struct sim_task tasks[MAX_TASKS];
	size_t n_tasks;
	uint64_t rng;
	int64_t first, prev, now;
	unsigned tick;
};

static uint64_t sim_random(struct sim *sim)
{
	sim->rng ^= sim->rng << 13;
	sim->rng ^= sim->rng >> 7;
	sim->rng ^= sim->rng << 17;
	return sim->rng;
}

static void sim_add_task(struct sim *sim, double rate, unsigned spacing)
{
	sim->tasks[sim->n_tasks++] = (struct sim_task){ .rate = rate, .spacing = spacing };
}

/* One tick at NOW: every task counted, the due ones read. */
static void sim_tick_at(struct sim *sim, int64_t now, bool final)
{
	struct sampler_group *g = sim->g;

	sim->now = now;
	if (!sim->first) {
		sim->first = now;
		group_series_start(g, now);
	}
	for (size_t i = 0; i < sim->n_tasks; i++) {
		struct sim_task *t = &sim->tasks[i];

		g->tick_tasks++;
		if (sim->tick == 0) {
			t->read_ns = now;
			continue;
		}
		if (!final && sim->tick % t->spacing != 0)
			continue;
		group_series_add_cpu(g, t->read_ns, now, sim->prev,
				     (int64_t)(t->rate * (double)(now - t->read_ns)));
		t->read_ns = now;
	}
	group_series_tick(g, sim->first, sim->prev, now, final);
	sim->prev = now;
	sim->tick++;
}

/* TICKS ticks of about 4 ms (jitter up to 0.3 ms); one in STALL_ONE_IN
 * stalls for 5-45 ms more (0: none); then a final tick. */
static void sim_run(struct sim *sim, unsigned ticks, unsigned stall_one_in)
{
	int64_t now = 1000 * MS;

	for (unsigned i = 0; i < ticks; i++) {
		now += 4 * MS + (int64_t)(sim_random(sim) % (300 * NSEC_PER_USEC));
		if (stall_one_in && sim_random(sim) % stall_one_in == 0)
			now += 5 * MS + (int64_t)(sim_random(sim) % (40 * MS));
		sim_tick_at(sim, now, false);
	}
	sim_tick_at(sim, now + 4 * MS, true);
}

static struct sim *sim_new(int64_t interval_ns, uint64_t seed)
{
	struct sim *sim = calloc(1, sizeof(*sim));

	ck_assert_ptr_nonnull(sim);
	sim->g = calloc(1, sizeof(*sim->g));
	ck_assert_ptr_nonnull(sim->g);
	sim->g->used = true;
	sim->g->interval_ns = interval_ns;
	sim->rng = seed;
	return sim;
}

static void sim_free(struct sim *sim)
{
	free(sim->g);
	free(sim);
}

static double sim_rate_sum(const struct sim *sim)
{
	double sum = 0;

	for (size_t i = 0; i < sim->n_tasks; i++)
		sum += sim->tasks[i].rate;
	return sum;
}

/* Every bucket holds the tasks' summed rate, within the nanoseconds that
 * rounding CPU time to whole nanoseconds loses (tens, in buckets of many
 * readings; a bucket counted twice is off by milliseconds). */
static void assert_every_bucket_at_rate(const struct sim *sim)
{
	const struct sampler_group *g = sim->g;
	double want = sim_rate_sum(sim);

	ck_assert_uint_gt(g->n, 0);
	for (size_t k = 0; k < g->n; k++) {
		int64_t end = k + 1 < g->n ? g->start_ns[k + 1] : sim->now;
		double off_ns = (g->cpu_share[k] - want) * (double)(end - g->start_ns[k]);

		ck_assert_msg(fabs(off_ns) < 500,
			      "bucket %zu of %zu (from %.3f s): share %.6f, want %.6f", k, g->n,
			      (double)(g->start_ns[k] - sim->first) / NSEC_PER_SEC, g->cpu_share[k],
			      want);
	}
}

START_TEST(a_busy_task_read_every_tick_fills_every_bucket)
{
	struct sim *sim = sim_new(4 * MS, 0x9e3779b97f4a7c15ULL);

	sim_add_task(sim, 1.0, 1);
	sim_run(sim, 700, 20);
	ck_assert_int_eq(sim->g->interval_ns, 8 * MS);	/* it halved */
	assert_every_bucket_at_rate(sim);
	sim_free(sim);
}
END_TEST

/* The case test-sampler's full_series_halve_their_resolution caught once
 * in about fourteen runs: after the first halving a bucket spans two ticks,
 * the busy task is read in its middle, and the next tick comes late, past
 * several buckets. Each of those got the first bucket's average, and then
 * the task's next reading again, by time: up to 1.33 of one CPU. */
START_TEST(a_stall_after_a_reading_mid_bucket_counts_nothing_twice)
{
	/* A first stall puts the readings in the middle of buckets; the
	 * second comes at each place in two buckets: on ticks with and
	 * without a reading, in the middle of a bucket and at its end. */
	for (unsigned stall_at = 560; stall_at < 564; stall_at++) {
		struct sim *sim = sim_new(4 * MS, 0x2545f4914f6cdd1dULL);
		int64_t now = 1000 * MS;

		sim_add_task(sim, 1.0, 2);
		for (unsigned i = 0; i < 600; i++) {
			now += 4 * MS;
			if (i == 540 || i == stall_at)
				now += 21 * MS;	/* past two 8 ms buckets and more */
			sim_tick_at(sim, now, false);
		}
		sim_tick_at(sim, now + 4 * MS, true);
		ck_assert_int_eq(sim->g->interval_ns, 8 * MS);
		assert_every_bucket_at_rate(sim);
		sim_free(sim);
	}
}
END_TEST

START_TEST(tasks_read_every_few_ticks_give_each_bucket_their_rates)
{
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct sim *sim = sim_new(4 * MS, seed * 0x9e3779b97f4a7c15ULL);

		sim_add_task(sim, 1.0, 1);
		sim_add_task(sim, 0.5, 4);
		sim_add_task(sim, 0.25, 8);
		sim_add_task(sim, 0.125, 2);
		/* two halvings: 1100 periods and more, in 4 ms buckets */
		sim_run(sim, 1100, 10);
		ck_assert_int_eq(sim->g->interval_ns, 16 * MS);
		assert_every_bucket_at_rate(sim);
		sim_free(sim);
	}
}
END_TEST

/* Nothing is lost or made: the buckets, weighted by their real widths, add
 * up to the CPU time the tasks used. */
START_TEST(the_buckets_add_up_to_the_cpu_time_used)
{
	struct sim *sim = sim_new(4 * MS, 77);
	const struct sampler_group *g = sim->g;
	double total = 0, used;

	sim_add_task(sim, 0.7, 4);
	sim_add_task(sim, 0.3, 8);
	sim_run(sim, 900, 8);
	for (size_t k = 0; k < g->n; k++) {
		int64_t end = k + 1 < g->n ? g->start_ns[k + 1] : sim->now;

		total += g->cpu_share[k] * (double)(end - g->start_ns[k]);
	}
	used = sim_rate_sum(sim) * (double)(sim->now - sim->first);
	ck_assert_msg(fabs(total - used) < 1e-6 * used, "buckets %.0f ns, used %.0f ns", total,
		      used);
	sim_free(sim);
}
END_TEST

/* A reading can hold more CPU time than its wall time allows (read after
 * the tick's timestamp): a bucket keeps at most its wall time per task and
 * hands the rest on. */
START_TEST(cpu_time_read_late_goes_to_the_next_bucket)
{
	struct sim *sim = sim_new(8 * MS, 3);
	struct sampler_group *g = sim->g;

	sim_add_task(sim, 1.0, 1);
	sim_tick_at(sim, 1000 * MS, false);
	sim_tick_at(sim, 1004 * MS, false);
	/* 4 ms of wall time, 4.2 ms of CPU time: read 0.2 ms late */
	g->tick_tasks++;
	group_series_add_cpu(g, 1004 * MS, 1008 * MS, 1004 * MS, 4 * MS);
	g->acc_cpu_ns += 200 * NSEC_PER_USEC;
	group_series_tick(g, sim->first, 1004 * MS, 1008 * MS, false);
	ck_assert_uint_eq(g->n, 1);
	ck_assert_double_eq_tol(g->cpu_share[0], 1.0, 1e-9);
	ck_assert_int_eq(g->acc_cpu_ns, 200 * NSEC_PER_USEC);
	sim_free(sim);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("group-series");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, a_busy_task_read_every_tick_fills_every_bucket);
	tcase_add_test(tc, a_stall_after_a_reading_mid_bucket_counts_nothing_twice);
	tcase_add_test(tc, tasks_read_every_few_ticks_give_each_bucket_their_rates);
	tcase_add_test(tc, the_buckets_add_up_to_the_cpu_time_used);
	tcase_add_test(tc, cpu_time_read_late_goes_to_the_next_bucket);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
