/* Unit tests for exact mode's stretch tracker (harness/trace/trace-sched.c)
 * and its result figures (harness/trace/trace-metrics.c), fed synthetic
 * scheduler events: no tracefs needed. */
#include "config.h"
#include "harness/trace/trace-metrics.h"
#include "harness/trace/trace-sched.h"
#include "lib/timeutil.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <math.h>
#include <sched.h>
#include <string.h>

#define MS NSEC_PER_MSEC
#define US NSEC_PER_USEC

static int fifo_for_hog(void *data, pid_t pid)
{
	(void)data;
	return pid == 50 ? SCHED_FIFO : SCHED_OTHER;
}

START_TEST(a_preempted_task_waits_until_it_is_switched_in)
{
	struct tsched *t = tsched_new(2, 64);
	const struct tsched_task *v;

	tsched_set_policy_fn(t, fifo_for_hog, NULL);
	/* victim (10) runs on CPU 1, the FIFO hog (50, prio 49 = rtprio 50)
	 * preempts it for 950 ms, a kworker runs 3 ms, then the victim again. */
	tsched_switch(t, 0, 1, 0, 120, false, "swapper/1", 10, 120, "victim");
	tsched_switch(t, 100 * MS, 1, 10, 120, true, "victim", 50, 49, "hog");
	tsched_switch(t, 1047 * MS, 1, 50, 49, false, "hog", 77, 120, "kworker/1:0");
	tsched_switch(t, 1050 * MS, 1, 77, 120, false, "kworker/1:0", 10, 120, "victim");
	v = tsched_find(t, 10);
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(v->stretches, 1);
	ck_assert_int_eq(v->longest.ns, 950 * MS);
	ck_assert_int_eq(v->longest.cpu, 1);
	ck_assert(!v->longest.partial);
	ck_assert_uint_eq(v->longest.n_holders, 2);
	ck_assert_int_eq(v->longest.holders[0].pid, 50);
	ck_assert_int_eq(v->longest.holders[0].ns, 947 * MS);
	ck_assert_int_eq(v->longest.holders[0].policy, SCHED_FIFO);
	ck_assert_str_eq(v->longest.holders[0].comm, "hog");
	ck_assert_int_eq(v->longest.holders[1].pid, 77);
	ck_assert_int_eq(v->longest.holders[1].ns, 3 * MS);
	/* a preemption is no wakeup */
	ck_assert_uint_eq(v->wakeup->count, 0);
	ck_assert_uint_eq(v->wait->count, 1);
	tsched_free(t);
}
END_TEST

START_TEST(a_wakeup_starts_a_stretch_and_its_latency)
{
	struct tsched *t = tsched_new(1, 64);
	const struct tsched_task *k;

	tsched_switch(t, 0, 0, 0, 120, false, "swapper/0", 20, 120, "sleeper");
	tsched_switch(t, 1 * MS, 0, 20, 120, false, "sleeper", 30, 120, "hog");
	tsched_wakeup(t, 5 * MS, 20, 120, 0, "sleeper");
	tsched_wakeup(t, 6 * MS, 20, 120, 0, "sleeper");	/* already waiting: kept */
	tsched_switch(t, 5 * MS + 250 * US, 0, 30, 120, true, "hog", 20, 120, "sleeper");
	k = tsched_find(t, 20);
	ck_assert_int_eq(k->longest.ns, 250 * US);
	ck_assert_uint_eq(k->wakeup->count, 1);
	ck_assert_uint_eq(k->wakeup->max, 250 * US);
	/* The hog was preempted at once: waiting from then on, still at the end. */
	tsched_finish(t, 9 * MS);
	k = tsched_find(t, 30);
	ck_assert_int_eq(k->longest.ns, 9 * MS - (5 * MS + 250 * US));
	ck_assert_int_eq(k->longest.holders[0].pid, 20);
	tsched_free(t);
}
END_TEST

START_TEST(a_wakeup_not_traced_is_counted_not_measured)
{
	struct tsched *t = tsched_new(2, 64);
	const struct tsched_task *k;

	tsched_switch(t, 0, 1, 0, 120, false, "swapper/1", 40, 120, "t");
	tsched_switch(t, 1 * MS, 1, 40, 120, false, "t", 0, 120, "swapper/1");
	/* woken from a CPU outside the trace's mask: no sched_wakeup seen */
	tsched_switch(t, 9 * MS, 1, 0, 120, false, "swapper/1", 40, 120, "t");
	k = tsched_find(t, 40);
	ck_assert_uint_eq(k->unknown_starts, 1);
	ck_assert_uint_eq(k->stretches, 0);
	/* first seen switched in: the trace began, no wakeup to miss */
	ck_assert_uint_eq(tsched_find(t, 40)->unknown_starts, 1);
	tsched_free(t);
}
END_TEST

START_TEST(a_migrated_waiter_counts_who_ran_where_it_ran)
{
	struct tsched *t = tsched_new(2, 64);
	const struct tsched_task *k;

	tsched_switch(t, 0, 0, 0, 120, false, "swapper/0", 60, 120, "a");
	tsched_switch(t, 0, 1, 0, 120, false, "swapper/1", 61, 120, "b");
	tsched_switch(t, 1 * MS, 0, 60, 120, true, "a", 62, 120, "c");	/* a waits on 0 */
	tsched_migrate(t, 4 * MS, 60, 1);
	tsched_switch(t, 10 * MS, 1, 61, 120, false, "b", 60, 120, "a");	/* runs on 1 */
	k = tsched_find(t, 60);
	ck_assert_int_eq(k->longest.ns, 9 * MS);
	ck_assert_int_eq(k->longest.cpu, 1);
	/* on CPU 1 from its migration at 4 ms: b held it 6 ms */
	ck_assert_uint_eq(k->longest.n_holders, 1);
	ck_assert_int_eq(k->longest.holders[0].pid, 61);
	ck_assert_int_eq(k->longest.holders[0].ns, 6 * MS);
	tsched_free(t);
}
END_TEST

START_TEST(a_stretch_older_than_the_ring_says_so)
{
	struct tsched *t = tsched_new(1, 4);
	const struct tsched_task *k;

	tsched_switch(t, 0, 0, 0, 120, false, "swapper/0", 70, 120, "w");
	tsched_switch(t, 1 * MS, 0, 70, 120, true, "w", 71, 120, "x");
	for (int i = 0; i < 10; i++)
		tsched_switch(t, (2 + i) * MS, 0, 71 + (i % 2), 120, false, "x", 72 - (i % 2),
			      120, "y");
	tsched_switch(t, 20 * MS, 0, 71, 120, false, "x", 70, 120, "w");
	k = tsched_find(t, 70);
	ck_assert_int_eq(k->longest.ns, 19 * MS);
	ck_assert(k->longest.partial);
	tsched_free(t);
}
END_TEST

START_TEST(stretches_are_clipped_to_the_window_at_both_ends)
{
	struct tsched *t = tsched_new(1, 64);
	const struct tsched_task *v;

	tsched_set_window(t, 1000 * MS, 2000 * MS);
	/* 10 waits 900-1100 ms (100 ms of it inside), 1500-1520 ms (inside),
	 * 1990-2100 ms (10 ms inside) and 2200-2600 ms (after: nothing). */
	tsched_switch(t, 0, 0, 0, 120, false, "swapper/0", 10, 120, "victim");
	tsched_switch(t, 900 * MS, 0, 10, 120, true, "victim", 50, 120, "hog");
	tsched_switch(t, 1100 * MS, 0, 50, 120, true, "hog", 10, 120, "victim");
	tsched_switch(t, 1500 * MS, 0, 10, 120, true, "victim", 50, 120, "hog");
	tsched_switch(t, 1520 * MS, 0, 50, 120, true, "hog", 10, 120, "victim");
	tsched_switch(t, 1990 * MS, 0, 10, 120, true, "victim", 50, 120, "hog");
	tsched_switch(t, 2100 * MS, 0, 50, 120, true, "hog", 10, 120, "victim");
	tsched_switch(t, 2200 * MS, 0, 10, 120, true, "victim", 50, 120, "hog");
	tsched_switch(t, 2600 * MS, 0, 50, 120, true, "hog", 10, 120, "victim");
	tsched_finish(t, 2000 * MS);
	v = tsched_find(t, 10);
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(v->stretches, 3);
	ck_assert_int_eq(v->longest.ns, 100 * MS);
	ck_assert_int_eq(v->longest.from_ns, 1000 * MS);
	ck_assert_int_eq(v->longest.to_ns, 1100 * MS);
	ck_assert_uint_eq(v->longest.n_holders, 1);
	ck_assert_int_eq(v->longest.holders[0].ns, 100 * MS);
	ck_assert_uint_eq(v->wait->max, 100 * MS);
	/* the hog waited 1100-1500, 1520-1990 and 2100-2200 (after the end) */
	ck_assert_uint_eq(tsched_find(t, 50)->stretches, 2);
	ck_assert_int_eq(tsched_find(t, 50)->longest.ns, 470 * MS);
	tsched_free(t);
}
END_TEST

START_TEST(load_figures_are_exact_figures)
{
	struct tsched *t = tsched_new(2, 64);
	pid_t tids[] = { 10 };
	struct trace_load tl;
	struct figures f;

	tsched_set_policy_fn(t, fifo_for_hog, NULL);
	tsched_switch(t, 0, 1, 0, 120, false, "swapper/1", 10, 120, "victim");
	tsched_switch(t, 100 * MS, 1, 10, 120, true, "victim", 50, 49, "hog");
	tsched_switch(t, 1050 * MS, 1, 50, 49, false, "hog", 10, 120, "victim");
	figures_init(&f);
	trace_load_figures(t, tids, 1, &f, &tl);
	ck_assert_double_eq_tol(figures_get(&f, METRIC_FROM_EXACT, MET_STARVATION_MAX), 0.95,
				1e-9);
	ck_assert(!isnan(figures_get(&f, METRIC_FROM_EXACT, MET_WAIT_P99)));
	ck_assert(!figures_from(&f, METRIC_FROM_SAMPLER));
	ck_assert_ptr_eq(tl.longest, tsched_find(t, 10));
	ck_assert_uint_eq(tl.stretches, 1);
	ck_assert_str_eq(trace_policy_name(tl.longest->longest.holders[0].policy,
					   tl.longest->longest.holders[0].prio), "FIFO");
	ck_assert_str_eq(trace_policy_name(-1, 10), "RT");
	ck_assert_str_eq(trace_policy_name(SCHED_RR, 10), "RR");
	tsched_free(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("sched");

	tcase_add_test(tc, a_preempted_task_waits_until_it_is_switched_in);
	tcase_add_test(tc, a_wakeup_starts_a_stretch_and_its_latency);
	tcase_add_test(tc, a_wakeup_not_traced_is_counted_not_measured);
	tcase_add_test(tc, a_migrated_waiter_counts_who_ran_where_it_ran);
	tcase_add_test(tc, a_stretch_older_than_the_ring_says_so);
	tcase_add_test(tc, stretches_are_clipped_to_the_window_at_both_ends);
	tcase_add_test(tc, load_figures_are_exact_figures);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
