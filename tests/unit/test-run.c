/* Unit tests for the run engine's pure parts: the progress line, the noise
 * figure from /proc/stat text, and the RT-on-every-CPU refusal. */
#include "config.h"
#include "harness/noise.h"
#include "harness/progress.h"
#include "harness/run.h"
#include "lib/error.h"
#include "lib/timeutil.h"

#include <check.h>
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
	ck_assert_int_eq(run_check_rt_cpus(&p, false), ncpu > 1 ? 0 : -1);
	loads[1].policy = POLICY_RR;		/* now together they cover every CPU */
	ck_assert_int_eq(run_check_rt_cpus(&p, false), -1);
	ck_assert_ptr_nonnull(strstr(last_msg, "cover every CPU"));
	ck_assert_int_eq(run_check_rt_cpus(&p, true), 0);
	error_set_sink(NULL, NULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("run");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, progress_line_says_where_we_are);
	tcase_add_test(tc, progress_is_silent_off_a_tty);
	tcase_add_test(tc, noise_counts_only_the_loads_cpus);
	tcase_add_test(tc, noise_needs_a_matching_cpu);
	tcase_add_test(tc, rt_loads_on_every_cpu_are_refused);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
