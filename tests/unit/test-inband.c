/* Unit tests for the in-band machinery: the stats block and gap tracking,
 * the worker helpers (threads and processes, stop, work_for_ns), the in-band
 * summary and the metrics it hands the engine, and how the engine writes
 * them (harness/run/result-build.c). Histograms read back through the view
 * are tested in test-reports.c. */
#include "config.h"
#include "lib/error.h"
#include "lib/timeutil.h"
#include "loads/inband.h"
#include "loads/load.h"
#include "loads/stats.h"
#include "harness/run/result-build.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MS NSEC_PER_MSEC

static struct load_spec test_spec(enum load_mode mode)
{
	struct load_spec spec;

	load_spec_init(&spec, load_type_find("sleep-hog"), "unit");
	spec.mode = mode;
	return spec;
}

START_TEST(test_create_initialises_block)
{
	struct stats_block *b = stats_create(3, 12345);

	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(b->magic, STATS_MAGIC);
	ck_assert_uint_eq(b->n_records, 3);
	ck_assert_int_eq(b->deadline_ns, 12345);
	ck_assert_int_eq(b->stop, 0);
	for (int i = 0; i < 3; i++) {
		ck_assert_uint_eq(b->rec[i].state, RECORD_UNUSED);
		ck_assert_uint_eq(b->rec[i].hist.count, 0);
		ck_assert_uint_eq(b->rec[i].hist.min, UINT64_MAX);
	}
	stats_destroy(b);
}
END_TEST

START_TEST(test_gaps_counted_by_size)
{
	struct stats_block *b = stats_create(1, 0);
	struct worker_record *r = &b->rec[0];
	uint64_t t = 1000 * MS;

	record_iteration(b, r, t, RECORD_GAP_HIST);		/* starts tracking */
	record_iteration(b, r, t += 500000, RECORD_GAP_HIST);	/* 0.5 ms */
	record_iteration(b, r, t += 2 * MS, RECORD_GAP_HIST);
	record_iteration(b, r, t += 20 * MS, RECORD_GAP_HIST);
	record_iteration(b, r, t += 200 * MS, RECORD_GAP_HIST);
	ck_assert_uint_eq(r->iterations, 5);
	ck_assert_uint_eq(r->gap_max_ns, 200 * MS);
	ck_assert_uint_eq(r->gaps_over_1ms, 3);
	ck_assert_uint_eq(r->gaps_over_10ms, 2);
	ck_assert_uint_eq(r->gaps_over_100ms, 1);
	ck_assert_uint_eq(r->hist.count, 4);
	ck_assert_uint_eq(r->hist.max, 200 * MS);
	record_gap(b, r, t += 5 * MS, 0);	/* a gap, no iteration, no histogram */
	ck_assert_uint_eq(r->iterations, 5);
	ck_assert_uint_eq(r->gaps_over_1ms, 4);
	ck_assert_uint_eq(r->hist.count, 4);
	stats_destroy(b);
}
END_TEST

START_TEST(test_warmup_not_recorded)
{
	struct stats_block *b = stats_create(1, 0);
	struct worker_record *r = &b->rec[0];

	b->measure_from_ns = 100 * MS;
	record_iteration(b, r, 10 * MS, 0);
	record_iteration(b, r, 60 * MS, 0);	/* 50 ms gap, all in warm-up */
	ck_assert_uint_eq(r->iterations, 0);
	ck_assert_uint_eq(r->gap_max_ns, 0);
	record_iteration(b, r, 103 * MS, 0);	/* 43 ms gap, 3 ms of it measured */
	ck_assert_uint_eq(r->iterations, 1);
	ck_assert_uint_eq(r->gap_max_ns, 3 * MS);
	stats_destroy(b);
}
END_TEST

START_TEST(test_after_window_not_recorded)
{
	struct stats_block *b = stats_create(1, 0);
	struct worker_record *r = &b->rec[0];

	b->measure_from_ns = 100 * MS;
	b->measure_until_ns = 200 * MS;
	record_iteration(b, r, 150 * MS, 0);
	record_iteration(b, r, 152 * MS, 0);	/* 2 ms, inside */
	ck_assert_uint_eq(r->gap_max_ns, 2 * MS);
	record_iteration(b, r, 205 * MS, 0);	/* 53 ms gap, 48 ms of it measured */
	ck_assert_uint_eq(r->gap_max_ns, 48 * MS);
	ck_assert_uint_eq(r->gap_max_end_ns, 200 * MS);
	ck_assert_uint_eq(r->iterations, 2);	/* the one after the end does not count */
	record_iteration(b, r, 215 * MS, RECORD_GAP_HIST);	/* 10 ms, wholly after */
	record_iteration(b, r, 300 * MS, RECORD_GAP_HIST);	/* 85 ms, wholly after */
	ck_assert_uint_eq(r->gap_max_ns, 48 * MS);
	ck_assert_uint_eq(r->gaps_over_10ms, 1);
	ck_assert_uint_eq(r->hist.count, 0);
	ck_assert_uint_eq(r->iterations, 2);
	stats_destroy(b);
}
END_TEST

static void note_worker(struct load_ctx *ctx, unsigned record, void *arg)
{
	struct worker_record *rec = worker_begin(ctx, record);

	rec->iterations = (uint64_t)(uintptr_t)arg + record;
	worker_end(rec);
}

static void check_workers(enum load_mode mode)
{
	struct load_spec spec = test_spec(mode);
	struct stats_block *b = stats_create(4, mono_ns() + NSEC_PER_SEC);
	struct load_ctx ctx = { &spec, b, 1, 3, NULL };

	ck_assert_int_eq(load_run_workers(&ctx, 3, note_worker, (void *)(uintptr_t)100), 0);
	ck_assert_uint_eq(b->rec[0].state, RECORD_UNUSED);
	for (unsigned i = 1; i < 4; i++) {
		ck_assert_uint_eq(b->rec[i].state, RECORD_DONE);
		ck_assert_uint_eq(b->rec[i].iterations, 100 + i);
		ck_assert_str_eq(b->rec[i].comm, "starve-unit");
		ck_assert_int_ne(b->rec[i].tid, 0);
		ck_assert(b->rec[i].end_ns >= b->rec[i].start_ns);
		/* threads share the leader's pid; processes each have their own */
		if (mode == LOAD_THREADS)
			ck_assert_int_eq(b->rec[i].pid, getpid());
		else
			ck_assert_int_ne(b->rec[i].pid, getpid());
	}
	ck_assert_int_ne(b->rec[1].tid, b->rec[2].tid);
	ck_assert_int_eq(load_run_workers(&ctx, 4, note_worker, NULL), -1);	/* 3 records only */
	stats_destroy(b);
	load_spec_free(&spec);
}

START_TEST(test_workers_threads) { check_workers(LOAD_THREADS); }
END_TEST
START_TEST(test_workers_processes) { check_workers(LOAD_PROCESSES); }
END_TEST

START_TEST(test_should_stop)
{
	struct load_spec spec = test_spec(LOAD_THREADS);
	struct stats_block *b = stats_create(1, mono_ns() + 10 * NSEC_PER_SEC);
	struct load_ctx ctx = { &spec, b, 0, 1, NULL };

	ck_assert(!load_should_stop(&ctx));
	b->stop = 1;
	ck_assert(load_should_stop(&ctx));
	b->stop = 0;
	b->deadline_ns = mono_ns() - 1;
	ck_assert(load_should_stop(&ctx));
	stats_destroy(b);
	load_spec_free(&spec);
}
END_TEST

START_TEST(test_work_for_ns_burns_cpu_time)
{
	struct load_spec spec = test_spec(LOAD_THREADS);
	struct stats_block *b = stats_create(1, mono_ns() + 10 * NSEC_PER_SEC);
	struct load_ctx ctx = { &spec, b, 0, 1, NULL };
	int64_t c0 = thread_cpu_ns(), used, measured;

	used = work_for_ns(&ctx, &b->rec[0], 50 * MS);
	measured = thread_cpu_ns() - c0;
	/* at least what was asked, and less than one chunk more or so */
	ck_assert_int_ge(used, 50 * MS);
	ck_assert_int_lt(used, 52 * MS);
	ck_assert_int_ge(measured, used);
	ck_assert_int_lt(measured, 53 * MS);
	b->stop = 1;	/* a stop request ends the work at once */
	used = work_for_ns(&ctx, NULL, 10 * NSEC_PER_SEC);
	ck_assert_int_lt(used, 5 * MS);
	stats_destroy(b);
	load_spec_free(&spec);
}
END_TEST

START_TEST(test_sleep_ends_at_deadline)
{
	struct load_spec spec = test_spec(LOAD_THREADS);
	int64_t t0 = mono_ns();
	struct stats_block *b = stats_create(1, t0 + 30 * MS);
	struct load_ctx ctx = { &spec, b, 0, 1, NULL };

	ck_assert(!load_sleep_ns(&ctx, 10 * NSEC_PER_SEC));
	ck_assert_int_lt(mono_ns() - t0, 200 * MS);
	ck_assert_int_ge(mono_ns() - t0, 30 * MS);
	stats_destroy(b);
	load_spec_free(&spec);
}
END_TEST

/* Two records as a load would leave them. */
static struct stats_block *fake_block(void)
{
	struct stats_block *b = stats_create(3, 0);

	for (int i = 0; i < 2; i++) {
		struct worker_record *r = &b->rec[i];

		r->state = RECORD_DONE;
		r->start_ns = 1000;
		r->end_ns = 1000 + NSEC_PER_SEC;
		r->cpu_begin_ns = 100 * MS;	/* thread start-up, not counted */
		r->cpu_ns = r->cpu_begin_ns + NSEC_PER_SEC / 2;
		r->iterations = i ? 100 : 300;
		r->gap_max_ns = i ? 7 * MS : 2 * MS;
		r->gaps_over_1ms = 2;
		r->deadlines_met = 9;
		r->deadlines_missed = i;
		hist_record(&r->hist, 1000 * (uint64_t)(i + 1));
	}
	return b;
}

START_TEST(test_summary_applies_metrics_by_type)
{
	struct stats_block *b = fake_block();
	struct inband_summary s;

	inband_summarize(load_type_find("cpu-victim"), b, 0, 3, 2 * NSEC_PER_SEC, &s);
	ck_assert_uint_eq(s.workers, 2);
	ck_assert_uint_eq(s.iterations, 400);
	ck_assert_double_eq_tol(s.throughput, 200, 1e-9);
	ck_assert_double_eq_tol(s.starvation_max_inband, 0.007, 1e-12);
	ck_assert_double_eq_tol(s.deadline_miss_ratio, 1.0 / 19, 1e-12);
	ck_assert_double_eq_tol(s.cpu_share, 0.5, 1e-9);
	ck_assert(isnan(s.fairness));	/* cpu-victim is not a fairness load */
	ck_assert_uint_eq(s.gaps_over_1ms, 4);
	ck_assert_uint_eq(s.hist.count, 2);

	inband_summarize(load_type_find("massive-intr"), b, 0, 3, 2 * NSEC_PER_SEC, &s);
	ck_assert(isnan(s.starvation_max_inband));
	ck_assert_double_eq_tol(s.fairness, 160000.0 / (2 * 100000), 1e-9);	/* (400^2)/(2*(300^2+100^2)) */
	ck_assert_double_eq_tol(s.fairness_minmax, 1.0 / 3, 1e-9);
	inband_summarize(load_type_find("massive-intr"), b, 1, 1, NSEC_PER_SEC, &s);
	ck_assert(isnan(s.fairness));	/* one worker: nothing to compare */
	stats_destroy(b);
}
END_TEST

/* A worker starved from the gate's opening until the loads stopped never ran
 * again inside the window to note its gap: the summary closes the stretch
 * it still had open, clipped to the window, whether the worker ended after
 * the window (DONE) or was killed first (RUNNING). A worker that wanted
 * nothing (last_iter_ns 0: a victim's pause) or whose next wakeup was due
 * after the window has no stretch. On 6.1 this read 0 s for a 5 s wait. */
START_TEST(test_summary_closes_open_stretch)
{
	struct stats_block *b = stats_create(4, 0);
	uint64_t now = (uint64_t)mono_ns(), until = now - MS, from = until / 2;
	struct inband_summary s;

	b->measure_from_ns = (int64_t)from;
	b->measure_until_ns = (int64_t)until;
	for (int i = 0; i < 4; i++)
		b->rec[i].state = RECORD_DONE, b->rec[i].start_ns = from - 10 * MS;
	b->rec[0].last_iter_ns = from - 5 * MS;		/* the gate opened before the window */
	b->rec[0].end_ns = now;				/* ran again only once stopped */
	b->rec[1].state = RECORD_RUNNING;		/* killed: never ran again */
	b->rec[1].last_iter_ns = from + 2 * MS;
	b->rec[2].last_iter_ns = 0;			/* pausing */
	b->rec[2].end_ns = now;
	b->rec[3].last_iter_ns = until + MS;		/* a probe's next wakeup, due after */
	b->rec[3].end_ns = now;

	inband_summarize(load_type_find("cpu-victim"), b, 0, 1, 1, &s);
	ck_assert_double_eq_tol(s.starvation_max_inband, (double)(until - from) / NSEC_PER_SEC, 1e-9);
	ck_assert_uint_eq(s.gaps_over_1ms, until - from > MS);
	inband_summarize(load_type_find("cpu-victim"), b, 1, 1, 1, &s);
	ck_assert_double_eq_tol(s.starvation_max_inband,
				(double)(until - from - 2 * MS) / NSEC_PER_SEC, 1e-9);
	inband_summarize(load_type_find("wakeup-probe"), b, 2, 2, 1, &s);
	ck_assert_double_eq_tol(s.starvation_max_inband, 0, 1e-12);
	ck_assert_uint_eq(s.gaps_over_1ms, 0);
	/* the part of a stretch inside the window, as record_gap clips */
	ck_assert_uint_eq(stats_window_part(b, from - MS, from + MS), MS);
	ck_assert_uint_eq(stats_window_part(b, until - MS, until + 9 * MS), MS);
	ck_assert_uint_eq(stats_window_part(b, until + MS, until + 9 * MS), 0);
	ck_assert_uint_eq(stats_window_part(b, 0, until), 0);
	stats_destroy(b);
}
END_TEST

/* The value of NAME among the N metrics M, or NAN when it is not there. */
static double metric_of(const struct inband_metric *m, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(m[i].name, name))
			return m[i].value;
	return NAN;
}

START_TEST(test_metrics_are_handed_over_as_data)
{
	struct stats_block *b = fake_block();
	struct inband_metric m[INBAND_MAX_METRICS];
	struct inband_summary s;
	size_t n;

	inband_summarize(load_type_find("wakeup-probe"), b, 0, 2, NSEC_PER_SEC, &s);
	n = inband_metrics(load_type_find("wakeup-probe"), &s, m);
	ck_assert_str_eq(m[0].name, "throughput");	/* a fixed order */
	ck_assert(!isnan(metric_of(m, n, "starvation_max_inband")));
	ck_assert(isnan(metric_of(m, n, "fairness")));
	ck_assert_double_eq_tol(metric_of(m, n, "wakeup_max"), 2e-6, 1e-12);
	inband_summarize(load_type_find("sleep-hog"), b, 0, 2, NSEC_PER_SEC, &s);
	n = inband_metrics(load_type_find("sleep-hog"), &s, m);
	ck_assert(isnan(metric_of(m, n, "wakeup_p50")));
	ck_assert(isnan(metric_of(m, n, "starvation_max_inband")));
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(!isnan(m[i].value), "%s handed over without a value", m[i].name);
	stats_destroy(b);
}
END_TEST

/* The engine writes the same metrics, and the histogram under its name. */
START_TEST(test_engine_writes_metrics_and_histogram)
{
	struct stats_block *b = fake_block();
	struct inband_summary s;
	json_t *m = json_object(), *h = json_object();

	inband_summarize(load_type_find("wakeup-probe"), b, 0, 2, NSEC_PER_SEC, &s);
	result_build_inband(load_type_find("wakeup-probe"), &s, m, h);
	ck_assert_ptr_nonnull(json_object_get(m, "throughput"));
	ck_assert_ptr_null(json_object_get(m, "fairness"));
	ck_assert_double_eq_tol(json_real_value(json_object_get(m, "wakeup_max")), 2e-6, 1e-12);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(h, "wakeup_latency"),
							      "count")), 2);
	json_decref(m);
	json_decref(h);
	m = json_object();
	h = json_object();
	inband_summarize(load_type_find("sleep-hog"), b, 0, 2, NSEC_PER_SEC, &s);
	result_build_inband(load_type_find("sleep-hog"), &s, m, h);
	ck_assert_uint_eq(json_object_size(h), 0);
	json_decref(m);
	json_decref(h);
	stats_destroy(b);
}
END_TEST

static Suite *inband_suite(void)
{
	Suite *s = suite_create("inband");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, test_create_initialises_block);
	tcase_add_test(tc, test_gaps_counted_by_size);
	tcase_add_test(tc, test_warmup_not_recorded);
	tcase_add_test(tc, test_after_window_not_recorded);
	tcase_add_test(tc, test_workers_threads);
	tcase_add_test(tc, test_workers_processes);
	tcase_add_test(tc, test_should_stop);
	tcase_add_test(tc, test_work_for_ns_burns_cpu_time);
	tcase_add_test(tc, test_sleep_ends_at_deadline);
	tcase_add_test(tc, test_summary_applies_metrics_by_type);
	tcase_add_test(tc, test_summary_closes_open_stretch);
	tcase_add_test(tc, test_metrics_are_handed_over_as_data);
	tcase_add_test(tc, test_engine_writes_metrics_and_histogram);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(inband_suite());
}
