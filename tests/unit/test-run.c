/* Unit tests for the run engine's pure parts: the progress line, the noise
 * figure from /proc/stat text, and the RT-on-every-CPU refusal. */
#include "config.h"
#include "harness/sampler/noise.h"
#include "harness/profile/profile.h"
#include "harness/run/progress.h"
#include "harness/run/result-build.h"
#include "harness/run/status-note.h"
#include "harness/run/engine.h"
#include "harness/run/plan.h"
#include "harness/placement/topology.h"
#include "lib/error.h"
#include "lib/timeutil.h"
#include "reports/result/result.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

START_TEST(progress_line_says_where_we_are)
{
	struct progress p;
	char buf[200];

	progress_init(&p, true, 60 * NSEC_PER_SEC);
	progress_run(&p, "throttled", 0, 3);
	progress_update(&p, p.started_ns + 12 * NSEC_PER_SEC, 950 * NSEC_PER_MSEC);
	progress_update(&p, p.started_ns + 12 * NSEC_PER_SEC, 10 * NSEC_PER_MSEC);	/* worst stays */
	ck_assert_str_eq(progress_format(&p, p.started_ns + 12 * NSEC_PER_SEC, buf, sizeof(buf)),
			 "throttled  rep 1/3  0:12 elapsed, 0:48 left  worst starvation 950ms");
	/* overrunning the estimate shows 0:00 left, not a negative time */
	ck_assert_ptr_nonnull(strstr(progress_format(&p, p.started_ns + 61 * NSEC_PER_SEC, buf,
						     sizeof(buf)), "1:01 elapsed, 0:00 left"));
}
END_TEST

START_TEST(progress_is_silent_off_a_tty)
{
	struct progress p;

	progress_init(&p, false, NSEC_PER_SEC);
	ck_assert(!p.enabled);
	progress_update(&p, mono_ns(), 5);
	ck_assert_int_eq(p.shown, 0);
	ck_assert_int_eq(p.worst_ns, 5);	/* still tracked for the summary */
}
END_TEST

static const char stat_a[] =
	"cpu  300 0 100 1000 0 0 0 0 0 0\n"
	"cpu0 100 0 50 500 0 0 0 0 0 0\n"
	"cpu1 200 0 50 500 0 0 0 0 0 0\n"
	"intr 12345 0 0\n";
static const char stat_b[] =
	"cpu  500 0 100 1100 0 0 0 0 0 0\n"
	"cpu0 100 0 50 600 0 0 0 0 0 0\n"
	"cpu1 380 0 60 510 0 5 5 0 0 0\n"
	"intr 12345 0 0\n";

START_TEST(noise_counts_only_the_loads_cpus)
{
	struct noise_sample a, b;
	cpu_set_t cpu1;
	double tick_ns = (double)NSEC_PER_SEC / (double)sysconf(_SC_CLK_TCK);
	double share;

	CPU_ZERO(&cpu1);
	CPU_SET(1, &cpu1);
	ck_assert_int_eq(noise_parse(stat_a, &cpu1, &a), 0);
	ck_assert_int_eq(noise_parse(stat_b, &cpu1, &b), 0);
	ck_assert_int_eq(a.cpus, 1);
	ck_assert_int_eq(a.busy_ticks, 250);
	ck_assert_int_eq(b.busy_ticks, 450);		/* user + system + irq + softirq */
	ck_assert_int_eq(b.total_ticks - a.total_ticks, 210);
	/* our loads used 150 of the 200 busy ticks: others used 50 of 210 */
	share = noise_other_share(&a, &b, (int64_t)(150 * tick_ns));
	ck_assert_double_eq_tol(share, 50.0 / 210.0, 1e-9);
	/* ours exceeding the busy time (sampling skew) is no noise, not negative */
	ck_assert_double_eq(noise_other_share(&a, &b, (int64_t)(400 * tick_ns)), 0);
}
END_TEST

START_TEST(noise_needs_a_matching_cpu)
{
	struct noise_sample a;
	cpu_set_t cpu7;

	CPU_ZERO(&cpu7);
	CPU_SET(7, &cpu7);
	ck_assert_int_eq(noise_parse(stat_a, &cpu7, &a), -1);
	ck_assert_int_eq(noise_sample(&cpu7, &a) == 0, sysconf(_SC_NPROCESSORS_CONF) > 7);
}
END_TEST

static char last_msg[512];

static void keep_msg(const char *msg, void *data)
{
	(void)data;
	snprintf(last_msg, sizeof(last_msg), "%s", msg);
}

START_TEST(rt_loads_on_every_cpu_are_refused)
{
	struct load_spec loads[2];
	struct profile p;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	memset(&p, 0, sizeof(p));
	memset(loads, 0, sizeof(loads));
	p.name = "t";
	p.loads = loads;
	p.n_loads = 2;
	loads[0].name = "a";
	loads[0].policy = POLICY_FIFO;
	loads[0].cpus = "pu:0";
	loads[1].name = "b";
	loads[1].policy = POLICY_OTHER;
	loads[1].cpus = "all";
	error_set_sink(keep_msg, NULL);
	ck_assert_int_eq(run_plan_check(&p, false), ncpu > 1 ? 0 : -1);
	loads[1].policy = POLICY_RR;		/* now together they cover every CPU */
	ck_assert_int_eq(run_plan_check(&p, false), -1);
	ck_assert_ptr_nonnull(strstr(last_msg, "cover every CPU"));
	ck_assert_int_eq(run_plan_check(&p, true), 0);
	/* the profile's allow_rt_on_all_cpus key counts like the command-line flag */
	p.allow_rt_on_all_cpus = true;
	ck_assert_int_eq(run_plan_check(&p, false), 0);
	error_set_sink(NULL, NULL);
}
END_TEST

/* The plan holds each load's CPUs and their union, resolved once; a load
 * without a profile position (`starve load`) is named in the RT message. */
START_TEST(plan_resolves_each_load_once)
{
	struct load_spec loads[2];
	struct run_plan plan;
	cpu_set_t all;
	char why[160];

	memset(loads, 0, sizeof(loads));
	loads[0].name = "pinned";
	loads[0].cpus = "pu:0";
	loads[1].name = "wide";
	loads[1].cpus = "all";
	ck_assert_int_eq(topology_cpus(NULL, &all, why, sizeof(why)), 0);
	ck_assert_int_eq(run_plan_loads(&plan, loads, 2, false), 0);
	ck_assert_uint_eq(plan.n_loads, 2);
	ck_assert_int_eq(CPU_COUNT(&plan.cpus[0]), 1);
	ck_assert(CPU_ISSET(0, &plan.cpus[0]));
	ck_assert(CPU_EQUAL(&plan.cpus[1], &all));
	ck_assert(CPU_EQUAL(&plan.all, &all));
	run_plan_free(&plan);
	ck_assert_ptr_null(plan.cpus);

	loads[1].policy = POLICY_FIFO;
	error_set_sink(keep_msg, NULL);
	ck_assert_int_eq(run_plan_loads(&plan, &loads[1], 1, false), -1);
	ck_assert_ptr_nonnull(strstr(last_msg, "load 'wide': its fifo/rr loads together cover "
					   "every CPU"));
	ck_assert_ptr_null(plan.cpus);		/* nothing kept on failure */
	loads[0].cpus = "pu:9999";
	ck_assert_int_eq(run_plan_loads(&plan, loads, 1, true), -1);
	ck_assert_ptr_nonnull(strstr(last_msg, "load 'pinned': "));
	error_set_sink(NULL, NULL);
}
END_TEST

static const char profile_text[] =
	"name: p\n"
	"duration: 2s\n"
	"warmup: 250ms\n"
	"repeat: 3\n"
	"loads:\n"
	"  - { name: hog, type: sleep-hog, cpus: pu:0, run: 5ms }\n"
	"settings:\n"
	"  - { name: on, knobs: { kernel.sched_rt_runtime_us: 950000 } }\n"
	"expect:\n"
	"  - { load: hog, metric: starvation_max, below: 1.5s, setting: on }\n"
	"  - { load: hog, metric: cpu_share, above: 0.5 }\n";

START_TEST(profile_as_run_is_recorded)
{
	unsigned n_errors = 0;
	struct profile *p = profile_parse("p.yaml", profile_text, strlen(profile_text), &n_errors);
	json_t *j, *load, *knobs, *e0, *e1;

	ck_assert_ptr_nonnull(p);
	j = result_build_profile(p, 250);
	ck_assert_ptr_nonnull(j);
	ck_assert_str_eq(json_string_value(json_object_get(j, "name")), "p");
	ck_assert_double_eq(json_number_value(json_object_get(j, "duration_s")), 2.0);
	ck_assert_double_eq(json_number_value(json_object_get(j, "warmup_s")), 0.25);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "repeat")), 3);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "sample_hz")), 250);
	load = json_array_get(json_object_get(j, "loads"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(load, "type")), "sleep-hog");
	ck_assert_str_eq(json_string_value(json_object_get(load, "cpus")), "pu:0");
	ck_assert_str_eq(json_string_value(json_object_get(load, "policy")), "other");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(load, "options"), "run")),
			 "5ms");
	knobs = json_object_get(json_array_get(json_object_get(j, "settings"), 0), "knobs");
	ck_assert_str_eq(json_string_value(json_object_get(knobs, "kernel.sched_rt_runtime_us")),
			 "950000");
	e0 = json_array_get(json_object_get(j, "expect"), 0);
	e1 = json_array_get(json_object_get(j, "expect"), 1);
	ck_assert_str_eq(json_string_value(json_object_get(e0, "op")), "below");
	ck_assert_double_eq(json_number_value(json_object_get(e0, "threshold")), 1.5);
	ck_assert_str_eq(json_string_value(json_object_get(e0, "setting")), "on");
	ck_assert(json_is_null(json_object_get(e1, "setting")));
	ck_assert_str_eq(json_string_value(json_object_get(e1, "op")), "above");
	json_decref(j);
	profile_free(p);
}
END_TEST

START_TEST(header_and_runs_have_the_documented_shape)
{
	char *argv[] = { "run", "p.yaml", "--quiet" };
	struct knob_value kv = { .name = "kernel.x", .value = "1" };
	struct setting s = { .name = "on", .knobs = &kv, .n_knobs = 1 };
	json_t *r = result_build_new(3, argv, NULL, "affinity"), *run;
	struct run_report rr;

	ck_assert_str_eq(json_string_value(json_object_get(r, "format")), RESULT_FORMAT);
	ck_assert_int_eq(json_integer_value(json_object_get(r, "format_version")),
			 RESULT_FORMAT_VERSION);
	ck_assert_int_eq(json_array_size(json_object_get(json_object_get(r, "tool"), "command_line")), 4);
	ck_assert(json_is_false(json_object_get(r, "complete")));
	ck_assert(json_is_null(json_object_get(r, "ended")));
	ck_assert_int_ge(json_integer_value(json_object_get(json_object_get(r, "host"), "nr_cpus")), 1);
	ck_assert_ptr_null(json_object_get(r, "kernel"));	/* not probed: left out, not faked */
	result_build_finish(r, true);
	ck_assert(json_is_true(json_object_get(r, "complete")));
	ck_assert(json_is_string(json_object_get(r, "ended")));
	rr = (struct run_report){ .setting = &s, .repetition = 2, .started = 1796288400,
				  .applied = true };
	run = result_build_run(&rr);
	ck_assert_str_eq(json_string_value(json_object_get(run, "status")), "ok");
	ck_assert(json_is_null(json_object_get(run, "reason")));
	ck_assert_int_eq(json_integer_value(json_object_get(run, "repetition")), 2);
	ck_assert_str_eq(json_string_value(json_object_get(run, "started")), "2026-12-03T09:00:00Z");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(run, "knobs_applied"),
							   "kernel.x")), "1");
	json_decref(run);
	rr.status = RESULT_SKIPPED;
	rr.reason = "no such knob";
	run = result_build_run(&rr);
	ck_assert_str_eq(json_string_value(json_object_get(run, "status")), "skipped");
	ck_assert_str_eq(json_string_value(json_object_get(run, "reason")), "no such knob");
	ck_assert_ptr_nonnull(json_object_get(run, "knobs_applied"));
	json_decref(run);
	rr.applied = false;	/* the setting was never applied */
	run = result_build_run(&rr);
	ck_assert_ptr_null(json_object_get(run, "knobs_applied"));
	rr.unsampled_hz = 250;	/* stopped before its window closed */
	json_decref(run);
	run = result_build_run(&rr);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(run, "sampler"),
							    "achieved_hz")), 0);
	json_decref(run);
	json_decref(r);
}
END_TEST

/* The keys of OBJ, comma-separated, in order. */
static const char *keys_of(json_t *obj, char *buf, size_t len)
{
	const char *key;
	json_t *v;
	size_t at = 0;

	buf[0] = '\0';
	json_object_foreach(obj, key, v)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? "," : "", key);
	return buf;
}

static double val(json_t *obj, const char *key)
{
	ck_assert_msg(json_is_number(json_object_get(obj, key)), "no number '%s'", key);
	return json_number_value(json_object_get(obj, key));
}

/* In-band over the sampler; exact over both, the sampler's starvation_max
 * kept as starvation_max_sampler; keys in each source's order. */
START_TEST(metrics_follow_the_registrys_source_order)
{
	struct figures f;
	char keys[512];
	json_t *m;

	figures_init(&f);
	figures_put(&f, METRIC_FROM_INBAND, MET_THROUGHPUT, 100);
	figures_put(&f, METRIC_FROM_INBAND, MET_CPU_SHARE, 0.5);
	figures_put(&f, METRIC_FROM_INBAND, MET_DEADLINE_MISS_RATIO, NAN);	/* absent */
	figures_put(&f, METRIC_FROM_SAMPLER, MET_STARVATION_MAX_UPPER, 0.96);
	figures_put(&f, METRIC_FROM_SAMPLER, MET_STARVATION_MAX, 0.9501);
	figures_put(&f, METRIC_FROM_SAMPLER, MET_CPU_SHARE, 0.4);
	figures_put(&f, METRIC_FROM_CGROUP, MET_THROTTLED_PERIODS, 3);
	m = result_build_metrics(&f);
	ck_assert_str_eq(keys_of(m, keys, sizeof(keys)), "throughput,cpu_share,"
			 "starvation_max_upper,starvation_max,throttled_periods");
	ck_assert_double_eq(val(m, "cpu_share"), 0.5);
	ck_assert_double_eq(val(m, "starvation_max"), 0.9501);
	json_decref(m);
	figures_put(&f, METRIC_FROM_EXACT, MET_STARVATION_MAX, 0.95);
	figures_put(&f, METRIC_FROM_EXACT, MET_WAIT_P99, 0.1);
	m = result_build_metrics(&f);
	ck_assert_str_eq(keys_of(m, keys, sizeof(keys)), "throughput,cpu_share,starvation_max,"
			 "throttled_periods,starvation_max_sampler,starvation_max_sampler_upper,"
			 "wait_p99");
	ck_assert_double_eq(val(m, "starvation_max"), 0.95);
	ck_assert_double_eq(val(m, "starvation_max_sampler"), 0.9501);
	ck_assert_double_eq(val(m, "starvation_max_sampler_upper"), 0.96);
	json_decref(m);
}
END_TEST

/* The exact source's part of a load, as the serialiser writes it: who ran
 * instead, timed (tracefs), or who ran before (BPF); the run's one "exact"
 * object names the source. */
START_TEST(an_exact_load_names_who_held_the_cpu)
{
	struct sampler *smp = sampler_new(250);
	struct load_record l = { .name = "victim", .type = "cpu-victim" };
	struct run_record r = { .smp = smp, .loads = &l, .n_loads = 1,
				.exact = { .present = true, .source = "trace", .events = 3,
					   .instance = "starve-1" } };
	json_t *result = json_pack("{s:[]}", "runs"), *run, *load, *lg, *held;
	struct setting s = { .name = "a" };
	char keys[512];

	figures_init(&l.fig);
	figures_put(&l.fig, METRIC_FROM_SAMPLER, MET_STARVATION_MAX, 0.9501);
	figures_put(&l.fig, METRIC_FROM_EXACT, MET_STARVATION_MAX, 0.95);
	l.exact = (struct load_exact){ .present = true, .stretches = 2, .tid = 10, .comm = "victim",
				       .cpu = 1, .wait_ns = 950 * NSEC_PER_MSEC,
				       .from_ns = 100 * NSEC_PER_MSEC, .holders_timed = true,
				       .n_holders = 1 };
	l.exact.holders[0] = (struct tsched_holder){ .pid = 50, .comm = "hog", .prio = 49,
						     .policy = SCHED_FIFO,
						     .ns = 950 * NSEC_PER_MSEC };
	run = result_build_run(&(struct run_report){ .setting = &s, .applied = true,
						     .record = &r });
	json_array_append_new(json_object_get(result, "runs"), run);
	load = json_array_get(json_object_get(run, "loads"), 0);
	ck_assert_str_eq(keys_of(load, keys, sizeof(keys)), "name,type,metrics,exact");
	ck_assert_double_eq_tol(val(json_object_get(load, "metrics"), "starvation_max"), 0.95, 1e-9);
	lg = json_object_get(json_object_get(load, "exact"), "longest");
	ck_assert_str_eq(keys_of(lg, keys, sizeof(keys)), "tid,cpu,wait_s,at_s,comm,ran_instead,"
			 "others_s,partial");
	held = json_array_get(json_object_get(lg, "ran_instead"), 0);
	ck_assert_str_eq(keys_of(held, keys, sizeof(keys)), "pid,comm,policy,time_s,priority");
	ck_assert_str_eq(json_string_value(json_object_get(held, "policy")), "FIFO");
	ck_assert_int_eq(json_integer_value(json_object_get(held, "priority")), 50);
	ck_assert_int_eq(json_integer_value(json_object_get(lg, "cpu")), 1);
	ck_assert_str_eq(keys_of(run, keys, sizeof(keys)), "setting,repetition,status,reason,"
			 "knobs_applied,started,loads,verdicts,sampler,window,duration_s,exact,"
			 "figures");
	ck_assert_str_eq(keys_of(json_object_get(run, "exact"), keys, sizeof(keys)),
			 "source,events,lost_events,lost_tasks,cpu_s,instance");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(run, "figures"),
							   "source")), "trace");
	/* BPF knows the task switched out when the wait ended, untimed */
	l.exact.holders_timed = false;
	r.exact.source = "bpf";
	r.exact.instance[0] = '\0';
	run = result_build_run(&(struct run_report){ .setting = &s, .repetition = 1,
						     .applied = true, .record = &r });
	json_array_append_new(json_object_get(result, "runs"), run);
	load = json_array_get(json_object_get(run, "loads"), 0);
	lg = json_object_get(json_object_get(load, "exact"), "longest");
	ck_assert_str_eq(keys_of(lg, keys, sizeof(keys)), "tid,cpu,wait_s,at_s,comm,ran_before");
	held = json_object_get(lg, "ran_before");
	ck_assert_str_eq(keys_of(held, keys, sizeof(keys)), "pid,comm,policy,priority");
	ck_assert_str_eq(keys_of(json_object_get(run, "exact"), keys, sizeof(keys)),
			 "source,events,lost_events,lost_tasks,cpu_s");
	json_decref(result);
	sampler_free(smp);
}
END_TEST

/* A run's status keeps its first cause, gives way only to a worse one, and
 * never hides a restore failure (issue 33: the deadline's reason used to
 * overwrite "its knobs could not be restored"). */
START_TEST(a_runs_status_keeps_its_first_cause)
{
	struct status_note n;

	status_note_reset(&n);
	ck_assert_int_eq(n.status, RESULT_OK);
	ck_assert(status_note_set(&n, RESULT_INCOMPLETE, "interrupted by SIGINT"));
	ck_assert(!status_note_set(&n, RESULT_SKIPPED, "later, milder"));
	ck_assert(!status_note_set(&n, RESULT_INCOMPLETE, "later, the same"));
	ck_assert_str_eq(n.reason, "interrupted by SIGINT");
	ck_assert(status_note_set(&n, RESULT_ERROR, "load 'hog' could not be started"));
	ck_assert(!status_note_set(&n, RESULT_ERROR, "the run could not be measured"));
	ck_assert_str_eq(n.reason, "load 'hog' could not be started");
	status_note_restore_failed(&n, "its knobs could not be restored");
	ck_assert(!status_note_set(&n, RESULT_ERROR, "the deadline passed"));
	ck_assert_int_eq(n.status, RESULT_ERROR);
	ck_assert_str_eq(n.reason, "its knobs could not be restored (after: load 'hog' could "
			 "not be started)");
	status_note_reset(&n);
	status_note_restore_failed(&n, "its cgroups could not be removed");
	ck_assert_str_eq(n.reason, "its cgroups could not be removed");
}
END_TEST

START_TEST(times_are_utc_iso8601)
{
	char buf[32];

	ck_assert_str_eq(result_time_text(0, buf, sizeof(buf)), "1970-01-01T00:00:00Z");
	ck_assert_str_eq(result_time_text(1796288400, buf, sizeof(buf)), "2026-12-03T09:00:00Z");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("run");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, progress_line_says_where_we_are);
	tcase_add_test(tc, progress_is_silent_off_a_tty);
	tcase_add_test(tc, noise_counts_only_the_loads_cpus);
	tcase_add_test(tc, noise_needs_a_matching_cpu);
	tcase_add_test(tc, rt_loads_on_every_cpu_are_refused);
	tcase_add_test(tc, plan_resolves_each_load_once);
	tcase_add_test(tc, profile_as_run_is_recorded);
	tcase_add_test(tc, header_and_runs_have_the_documented_shape);
	tcase_add_test(tc, times_are_utc_iso8601);
	tcase_add_test(tc, a_runs_status_keeps_its_first_cause);
	tcase_add_test(tc, metrics_follow_the_registrys_source_order);
	tcase_add_test(tc, an_exact_load_names_who_held_the_cpu);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
