/* Unit tests for sleep-hog, massive-intr, cpu-victim, wakeup-probe and exec,
 * each run for about a second through spawn_load() exactly as a profile run
 * starts them, and for spawn itself (refusals, stopping a load that does not
 * stop by itself). rt-hog needs root: tests/integration/load-cli.sh runs it.
 * The machine is shared and busy, so CPU figures are judged against the time
 * a task was not kept waiting (schedstat's run_delay), not against wall time,
 * and loads are pinned to CPU 0: CPU 1 is where RT tests may run a hog. */
#include "config.h"
#include "harness/run/spawn.h"
#include "lib/error.h"
#include "lib/timeutil.h"
#include "loads/inband.h"
#include "loads/load.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MS NSEC_PER_MSEC
#define LATE_NS (1500 * MS)	/* a leader ending later than its deadline plus this is late
				 * (generous: other test suites may load the same CPU) */

struct run {
	struct load_spec spec;
	struct stats_block *stats;
	struct spawned_load sl;
	unsigned n;
	int64_t deadline;
	bool ended_alone;	/* the leader exited by itself, before spawn_stop_all */
};

static void run_init(struct run *r, const char *type, int count, const char *cpus)
{
	memset(r, 0, sizeof(*r));
	load_spec_init(&r->spec, load_type_find(type), NULL);
	r->spec.count = count;
	if (cpus)
		r->spec.cpus = strdup(cpus);
}

static void run_opt(struct run *r, const char *name, const char *text)
{
	const struct load_type *t = r->spec.type;
	const struct opt_spec *o = opt_find(t->options, t->n_options, name);
	char why[256];

	ck_assert_ptr_nonnull(o);
	ck_assert_msg(!opt_parse(o, text, &r->spec.opts[o - t->options], why, sizeof(why)), "%s", why);
	r->spec.opt_set[o - t->options] = true;
}

static void run_start(struct run *r, int64_t ns)
{
	struct spawn_options opt = { .run_ns = ns };
	char why[256];

	ck_assert_msg(!load_spec_finish(&r->spec, why, sizeof(why)), "%s", why);
	r->n = load_records_needed(&r->spec);
	r->deadline = mono_ns() + ns;
	r->stats = stats_create(r->n, r->deadline);
	ck_assert_ptr_nonnull(r->stats);
	ck_assert_int_eq(spawn_load(&r->sl, &r->spec, r->stats, 0, &opt), 0);
}

/* Wait for the leader to end by itself (it must, at its deadline), then
 * clean up whatever is left. */
static void run_finish(struct run *r)
{
	while (spawn_poll(&r->sl, 1) && mono_ns() < r->deadline + LATE_NS)
		sleep_until_ns(mono_ns() + 5 * MS);
	r->ended_alone = r->sl.exited;
	spawn_stop_all(&r->sl, 1, r->stats, 100 * MS);
	ck_assert_msg(r->ended_alone, "load '%s' still ran %.0f ms after its deadline",
		      r->spec.name, (double)LATE_NS / MS);
	ck_assert_msg(WIFEXITED(r->sl.status) && WEXITSTATUS(r->sl.status) == 0,
		      "load '%s' ended with wait status %#x", r->spec.name, r->sl.status);
	for (unsigned i = 0; i < r->n; i++)
		ck_assert_msg(r->stats->rec[i].state == RECORD_DONE, "worker %u: state %u %s", i,
			      r->stats->rec[i].state, r->stats->rec[i].error);
}

static void run_free(struct run *r)
{
	stats_destroy(r->stats);
	load_spec_free(&r->spec);
}

static void run_summary(const struct run *r, struct inband_summary *s)
{
	inband_summarize(r->spec.type, r->stats, 0, r->n, r->deadline - (int64_t)r->stats->rec[0].start_ns, s);
}

/* cpu and run_delay (ns) of a thread, from /proc/PID/task/TID/schedstat. */
static void schedstat(pid_t pid, pid_t tid, int64_t *cpu, int64_t *delay)
{
	char path[64], buf[128];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", (int)pid, (int)tid);
	fd = open(path, O_RDONLY);
	ck_assert_msg(fd >= 0, "%s: %s", path, strerror(errno));
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	ck_assert_int_gt(n, 0);
	buf[n] = '\0';
	ck_assert_int_eq(sscanf(buf, "%" SCNd64 " %" SCNd64, cpu, delay), 2);
}

static void wait_running(const struct run *r, unsigned rec)
{
	while (r->stats->rec[rec].state != RECORD_RUNNING && mono_ns() < r->deadline)
		sleep_until_ns(mono_ns() + MS);
	ck_assert_uint_eq(r->stats->rec[rec].state, RECORD_RUNNING);
}

START_TEST(test_sleep_hog_duty_cycle)
{
	int64_t cpu0, delay0, cpu1, delay1, t0, t1;
	const struct worker_record *w;
	struct run r;

	run_init(&r, "sleep-hog", 1, "pu:0");
	run_start(&r, 1500 * MS);	/* room for a slow start on a busy machine */
	wait_running(&r, 0);
	w = &r.stats->rec[0];
	t0 = mono_ns();
	schedstat(w->pid, w->tid, &cpu0, &delay0);
	ck_assert_int_gt(r.deadline - 150 * MS - t0, 300 * MS);	/* a window worth judging */
	sleep_until_ns(r.deadline - 150 * MS);	/* the worker still runs */
	t1 = mono_ns();
	schedstat(w->pid, w->tid, &cpu1, &delay1);
	run_finish(&r);
	/* 19 ms on, 1 ms off: 0.95 of the time it was not kept waiting */
	{
		double duty = (double)(cpu1 - cpu0) / (double)((t1 - t0) - (delay1 - delay0));

		ck_assert_msg(duty >= 0.90 && duty <= 0.99, "duty cycle %.3f", duty);
	}
	ck_assert_uint_ge(w->iterations, 2);	/* few on a crowded CPU, but some */
	run_free(&r);
}
END_TEST

START_TEST(test_sleep_hog_processes)
{
	struct run r;

	run_init(&r, "sleep-hog", 2, "pu:0");
	r.spec.mode = LOAD_PROCESSES;
	run_start(&r, 300 * MS);
	run_finish(&r);
	ck_assert_int_ne(r.stats->rec[0].pid, r.stats->rec[1].pid);
	ck_assert_int_ne(r.stats->rec[0].pid, r.sl.pid);	/* workers, not the leader */
	ck_assert_str_eq(r.stats->rec[0].comm, "starve-sleep-ho");	/* comm holds 15 */
	run_free(&r);
}
END_TEST

START_TEST(test_massive_intr_fair)
{
	struct inband_summary s;
	struct run r;

	run_init(&r, "massive-intr", 4, "pu:0");
	run_start(&r, NSEC_PER_SEC);
	run_finish(&r);
	run_summary(&r, &s);
	ck_assert_uint_eq(s.workers, 4);
	for (unsigned i = 0; i < 4; i++)
		ck_assert_uint_gt(r.stats->rec[i].iterations, 3);
	ck_assert_msg(s.fairness >= 0.8, "fairness %.3f", s.fairness);
	ck_assert(s.fairness_minmax > 0 && s.fairness_minmax <= 1);
	run_free(&r);
}
END_TEST

/* One 1.5 s run of a lone cpu-victim on CPU 0: its longest gap, its
 * run_delay and CPU time over the run, and its loop count. */
struct victim_run {
	uint64_t gap_max, iterations;
	int64_t cpu0, cpu1, delay1;
};

static void victim_run_once(struct victim_run *v)
{
	const struct worker_record *w;
	int64_t delay0;
	struct run r;

	run_init(&r, "cpu-victim", 1, "pu:0");
	run_start(&r, 1500 * MS);
	wait_running(&r, 0);
	w = &r.stats->rec[0];
	schedstat(w->pid, w->tid, &v->cpu0, &delay0);
	sleep_until_ns(r.deadline - 150 * MS);
	schedstat(w->pid, w->tid, &v->cpu1, &v->delay1);
	v->gap_max = w->gap_max_ns;
	run_finish(&r);
	v->iterations = w->iterations;
	run_free(&r);
}

/* The victim's longest gap is time it was kept from running: it cannot be
 * longer than its whole run_delay (plus a little interrupt time, which
 * schedstat does not count as waiting), and on a quiet CPU it is short.
 * This machine is a VM whose hypervisor can stop a vCPU for milliseconds
 * without the guest seeing it as waiting (no steal is reported): such a
 * stall is a gap the kernel never counts. One run in a soak of make check
 * met one (a 7.8 ms gap, 0.14 ms of run_delay), so a run that breaks the
 * bound is run again; accounting that is wrong breaks it every time. */
START_TEST(test_cpu_victim_alone)
{
	struct victim_run v;

	for (int attempt = 1;; attempt++) {
		victim_run_once(&v);
		if (v.gap_max <= (uint64_t)(v.delay1 + 5 * MS) || attempt == 3)
			break;
		fprintf(stderr, "note: gap_max %" PRIu64 " ns, run_delay %" PRId64
			" ns (attempt %d): a stall the kernel did not see? again\n",
			v.gap_max, v.delay1, attempt);
	}
	ck_assert_uint_gt(v.iterations, 1000000);	/* a vDSO clock read is well under 1 us */
	ck_assert_msg(v.gap_max <= (uint64_t)(v.delay1 + 5 * MS),
		      "gap_max %" PRIu64 " ns but run_delay only %" PRId64 " ns", v.gap_max, v.delay1);
	if (v.delay1 < 20 * MS)	/* nobody else wanted the CPU */
		ck_assert_msg(v.gap_max < 25 * MS, "gap_max %" PRIu64 " ns on a quiet CPU", v.gap_max);
	ck_assert_int_gt(v.cpu1, v.cpu0);
}
END_TEST

/* Sharing a CPU with a busy hog, the victim must see the hog's slices as gaps. */
START_TEST(test_cpu_victim_sees_competition)
{
	struct inband_summary s;
	struct run hog, victim;

	run_init(&hog, "sleep-hog", 1, "pu:0");
	run_opt(&hog, "run", "10s");
	run_opt(&hog, "sleep", "0ns");
	run_start(&hog, 1200 * MS);
	run_init(&victim, "cpu-victim", 1, "pu:0");
	run_opt(&victim, "min_gap", "100us");
	run_start(&victim, NSEC_PER_SEC);
	run_finish(&victim);
	run_finish(&hog);
	run_summary(&victim, &s);
	ck_assert_msg(s.starvation_max_inband >= 0.0005, "gap_max %.6f s", s.starvation_max_inband);
	ck_assert_uint_gt(s.hist.count, 10);
	ck_assert_uint_ge(s.hist.min, 100000);	/* only gaps >= min_gap are histogrammed */
	run_free(&victim);
	run_free(&hog);
}
END_TEST

START_TEST(test_wakeup_probe_period_and_latency)
{
	struct inband_summary s;
	struct run r;

	run_init(&r, "wakeup-probe", 1, "pu:0");
	run_opt(&r, "interval", "1ms");
	run_start(&r, NSEC_PER_SEC);
	run_finish(&r);
	run_summary(&r, &s);
	/* one wakeup per period of the probe's life (it may start late on a
	 * busy machine); missed periods are skipped and counted, not queued */
	{
		const struct worker_record *w = &r.stats->rec[0];
		uint64_t periods = (w->end_ns - w->start_ns) / MS;

		ck_assert_uint_ge(periods, 500);
		ck_assert_msg(s.iterations + w->deadlines_missed >= periods * 9 / 10 &&
			      s.iterations + w->deadlines_missed <= periods + 1,
			      "%" PRIu64 " wakeups, %" PRIu64 " missed, %" PRIu64 " periods",
			      s.iterations, w->deadlines_missed, periods);
	}
	ck_assert_uint_eq(s.hist.count, s.iterations);
	ck_assert_msg(hist_percentile(&s.hist, 50) < (uint64_t)MS, "p50 %" PRIu64 " ns",
		      hist_percentile(&s.hist, 50));
	ck_assert_double_eq_tol(s.starvation_max_inband, (double)s.hist.max / NSEC_PER_SEC, 1e-12);
	ck_assert(!isnan(s.deadline_miss_ratio));
	run_free(&r);
}
END_TEST

/* kernel-build: job slots fork and exec jobs that finish (iterations are
 * jobs), no slot fails, and the build directory is gone afterwards. */
START_TEST(test_kernel_build_jobs)
{
	char tmp[] = "/tmp/starve-test-XXXXXX";
	uint64_t jobs = 0;
	struct run r;

	ck_assert_ptr_nonnull(mkdtemp(tmp));
	setenv("TMPDIR", tmp, 1);
	run_init(&r, "kernel-build", 1, "pu:0");
	run_opt(&r, "jobs", "2");
	run_opt(&r, "compile", "5ms");
	run_opt(&r, "link_every", "3");
	run_opt(&r, "link", "10ms");
	run_opt(&r, "output", "4096");
	run_start(&r, NSEC_PER_SEC);
	run_finish(&r);
	unsetenv("TMPDIR");
	ck_assert_uint_eq(r.n, 2);
	for (unsigned i = 0; i < r.n; i++) {
		ck_assert_msg(r.stats->rec[i].state != RECORD_FAILED, "%s", r.stats->rec[i].error);
		jobs += r.stats->rec[i].iterations;
	}
	ck_assert_uint_ge(jobs, 10);	/* ~1 s of 5-10 ms jobs on a busy CPU */
	ck_assert_int_eq(rmdir(tmp), 0);	/* empty: the load removed its build directory */
	run_free(&r);
}
END_TEST

/* pipe-pingpong with a side pinned where no CPU exists: that side's record
 * fails saying which option, and the load ends instead of hanging. */
START_TEST(test_pingpong_side_cpus)
{
	struct run r;

	run_init(&r, "pipe-pingpong", 1, "pu:0");
	run_opt(&r, "initiator_cpus", "pu:0");
	run_opt(&r, "partner_cpus", "pu:0");
	run_start(&r, NSEC_PER_SEC / 2);
	run_finish(&r);
	ck_assert_uint_ne(r.stats->rec[0].state, RECORD_FAILED);
	ck_assert_uint_gt(r.stats->rec[0].iterations, 100);
	run_free(&r);

	run_init(&r, "pipe-pingpong", 1, "pu:0");
	run_opt(&r, "partner_cpus", "pu:4095");
	run_start(&r, 5 * NSEC_PER_SEC);
	while (spawn_poll(&r.sl, 1) && mono_ns() < r.deadline)
		sleep_until_ns(mono_ns() + 5 * MS);
	ck_assert_msg(r.sl.exited, "the load kept running with a side that could not start");
	spawn_stop_all(&r.sl, 1, r.stats, 0);
	ck_assert_uint_eq(r.stats->rec[1].state, RECORD_FAILED);
	ck_assert_msg(strstr(r.stats->rec[1].error, "partner_cpus"), "%s", r.stats->rec[1].error);
	run_free(&r);
}
END_TEST

START_TEST(test_exec_restarts)
{
	struct run r;

	run_init(&r, "exec", 1, "pu:0");
	run_opt(&r, "command", "true");
	run_opt(&r, "restart", "true");
	run_start(&r, NSEC_PER_SEC);
	run_finish(&r);
	ck_assert_uint_ge(r.stats->rec[0].iterations, 5);	/* starts */
	ck_assert_uint_ge(r.stats->rec[0].wakeups + 1, r.stats->rec[0].iterations);	/* exits */
	run_free(&r);
}
END_TEST

START_TEST(test_exec_once_and_missing_command)
{
	struct run r;

	run_init(&r, "exec", 1, "pu:0");
	run_opt(&r, "command", "exit 0");
	run_start(&r, NSEC_PER_SEC);
	while (spawn_poll(&r.sl, 1))
		sleep_until_ns(mono_ns() + MS);
	ck_assert_int_lt(mono_ns(), r.deadline);	/* no restart: ends before its deadline */
	spawn_stop_all(&r.sl, 1, r.stats, 0);
	ck_assert_uint_eq(r.stats->rec[0].iterations, 1);
	run_free(&r);

	run_init(&r, "exec", 1, "pu:0");
	run_opt(&r, "command", "/nonexistent/starve-test");
	run_opt(&r, "restart", "true");
	run_start(&r, NSEC_PER_SEC);
	while (spawn_poll(&r.sl, 1))
		sleep_until_ns(mono_ns() + MS);
	spawn_stop_all(&r.sl, 1, r.stats, 0);
	ck_assert_uint_eq(r.stats->rec[0].state, RECORD_FAILED);
	ck_assert_ptr_nonnull(strstr(r.stats->rec[0].error, "not found"));
	run_free(&r);
}
END_TEST

/* A load that ignores the stop request is killed with its whole group. */
START_TEST(test_stop_kills_group)
{
	struct run r;
	int64_t t0;

	run_init(&r, "exec", 1, "pu:0");
	run_opt(&r, "command", "trap '' TERM; sleep 30; sleep 30");
	run_start(&r, 60 * NSEC_PER_SEC);
	wait_running(&r, 0);
	sleep_until_ns(mono_ns() + 50 * MS);	/* let the shell start its sleep */
	t0 = mono_ns();
	spawn_stop_all(&r.sl, 1, r.stats, 100 * MS);
	ck_assert_int_lt(mono_ns() - t0, 1500 * MS);
	ck_assert(r.sl.reaped);
	ck_assert_int_eq(kill(-r.sl.pid, 0), -1);
	ck_assert_int_eq(errno, ESRCH);
	spawn_stop_all(&r.sl, 1, r.stats, 100 * MS);	/* twice is harmless */
	run_free(&r);
}
END_TEST

static void sink(const char *msg, void *data)
{
	snprintf(data, 512, "%s", msg);
}

START_TEST(test_spawn_refusals)
{
	struct spawn_options opt = { .run_ns = NSEC_PER_SEC };
	struct stats_block *b = stats_create(1, mono_ns() + NSEC_PER_SEC);
	struct spawned_load sl;
	struct load_spec spec;
	char msg[512] = "", why[256];

	error_set_sink(sink, msg);
	load_spec_init(&spec, load_type_find("rt-hog"), NULL);
	ck_assert_int_eq(load_spec_finish(&spec, why, sizeof(why)), 0);	/* cpus: all */
	ck_assert_int_eq(spawn_load(&sl, &spec, b, 0, &opt), -1);
	ck_assert_msg(strstr(msg, "every CPU") != NULL, "%s", msg);
	free(spec.cpus);
	spec.cpus = strdup("pu:99");
	ck_assert_int_eq(spawn_load(&sl, &spec, b, 0, &opt), -1);
	ck_assert_msg(strstr(msg, "pu:99") != NULL || strstr(msg, "99") != NULL, "%s", msg);
	load_spec_free(&spec);
	load_spec_init(&spec, load_type_find("sleep-hog"), NULL);
	spec.count = 2;		/* two records, the block has one */
	ck_assert_int_eq(load_spec_finish(&spec, why, sizeof(why)), 0);
	ck_assert_int_eq(spawn_load(&sl, &spec, b, 0, &opt), -1);
	ck_assert_msg(strstr(msg, "records") != NULL, "%s", msg);
	error_set_sink(NULL, NULL);
	load_spec_free(&spec);
	stats_destroy(b);
}
END_TEST

static Suite *loads_suite(void)
{
	Suite *s = suite_create("loads");
	TCase *tc = tcase_create("spawned");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_sleep_hog_duty_cycle);
	tcase_add_test(tc, test_sleep_hog_processes);
	tcase_add_test(tc, test_massive_intr_fair);
	tcase_add_test(tc, test_cpu_victim_alone);
	tcase_add_test(tc, test_cpu_victim_sees_competition);
	tcase_add_test(tc, test_wakeup_probe_period_and_latency);
	tcase_add_test(tc, test_exec_restarts);
	tcase_add_test(tc, test_kernel_build_jobs);
	tcase_add_test(tc, test_pingpong_side_cpus);
	tcase_add_test(tc, test_exec_once_and_missing_command);
	tcase_add_test(tc, test_stop_kills_group);
	tcase_add_test(tc, test_spawn_refusals);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(loads_suite());
}
