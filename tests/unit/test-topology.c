/* Unit tests for harness/placement/topology.c: cpu specs resolve to the CPUs hwloc
 * sees, out-of-range indices are refused with the machine's real range,
 * and CPU sets print as lists. Expectations are computed from sysconf and
 * hwloc's own counts, so the tests hold on any machine. */
#include "config.h"
#include "harness/placement/topology.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct cpuspec one_term(enum cpuspec_kind kind, unsigned first, unsigned last)
{
	struct cpuspec s = { .n_terms = 1 };

	s.terms[0].kind = kind;
	s.terms[0].first = first;
	s.terms[0].last = last;
	return s;
}

START_TEST(pus_match_the_online_cpus)
{
	struct cpuspec all = one_term(CPUSPEC_ALL, 0, 0);
	cpu_set_t set;
	char why[160];

	ck_assert_int_eq(topology_nr_pus(), (int)sysconf(_SC_NPROCESSORS_ONLN));
	ck_assert_int_eq(topology_resolve(&all, &set, why, sizeof(why)), 0);
	ck_assert_int_eq(CPU_COUNT(&set), topology_nr_pus());
}
END_TEST

START_TEST(each_pu_is_one_cpu)
{
	cpu_set_t set, seen;
	char why[160];
	int n = topology_nr_pus();

	CPU_ZERO(&seen);
	for (int i = 0; i < n; i++) {
		struct cpuspec s = one_term(CPUSPEC_PU, (unsigned)i, (unsigned)i);

		ck_assert_int_eq(topology_resolve(&s, &set, why, sizeof(why)), 0);
		ck_assert_int_eq(CPU_COUNT(&set), 1);
		CPU_OR(&seen, &seen, &set);
	}
	ck_assert_int_eq(CPU_COUNT(&seen), n);
}
END_TEST

START_TEST(out_of_range_indices_name_the_machine_range)
{
	char why[160], want[160];
	int n = topology_nr_pus();
	struct cpuspec s = one_term(CPUSPEC_PU, (unsigned)n, (unsigned)n);
	struct cpuspec r = one_term(CPUSPEC_PU, 0, (unsigned)n + 3);
	cpu_set_t set;

	ck_assert_int_eq(topology_resolve(&s, &set, why, sizeof(why)), -1);
	if (n == 1)
		snprintf(want, sizeof(want), "cpu spec 'pu:1': this machine has 1 PU (pu:0)");
	else
		snprintf(want, sizeof(want), "cpu spec 'pu:%d': this machine has %d PUs (pu:0-%d)",
			 n, n, n - 1);
	ck_assert_str_eq(why, want);
	ck_assert_int_eq(topology_resolve(&r, &set, why, sizeof(why)), -1);
	ck_assert(strstr(why, "cpu spec 'pu:0-") == why);

	s = one_term(CPUSPEC_NUMA, 64, 64);
	ck_assert_int_eq(topology_resolve(&s, &set, why, sizeof(why)), -1);
	ck_assert(strstr(why, "cpu spec 'numa:64': this machine has ") == why);
}
END_TEST

START_TEST(cores_and_numa_nodes_cover_their_pus)
{
	struct cpuspec core0 = one_term(CPUSPEC_CORE, 0, 0);
	struct cpuspec numa0 = one_term(CPUSPEC_NUMA, 0, 0);
	struct cpuspec two = { .n_terms = 2 };
	cpu_set_t c, m, both;
	char why[160];

	ck_assert_int_eq(topology_resolve(&core0, &c, why, sizeof(why)), 0);
	ck_assert_int_ge(CPU_COUNT(&c), 1);
	ck_assert_int_eq(topology_resolve(&numa0, &m, why, sizeof(why)), 0);
	ck_assert_int_ge(CPU_COUNT(&m), CPU_COUNT(&c));
	/* '+' joins terms: core:0 + numa:0 is their union. */
	two.terms[0] = core0.terms[0];
	two.terms[1] = numa0.terms[0];
	ck_assert_int_eq(topology_resolve(&two, &both, why, sizeof(why)), 0);
	CPU_OR(&c, &c, &m);
	ck_assert(CPU_EQUAL(&both, &c));
}
END_TEST

START_TEST(sets_format_as_lists)
{
	cpu_set_t set;
	char buf[64];

	CPU_ZERO(&set);
	ck_assert_str_eq(cpuset_format(&set, buf, sizeof(buf)), "");
	CPU_SET(5, &set);
	ck_assert_str_eq(cpuset_format(&set, buf, sizeof(buf)), "5");
	CPU_SET(0, &set);
	CPU_SET(1, &set);
	CPU_SET(3, &set);
	ck_assert_str_eq(cpuset_format(&set, buf, sizeof(buf)), "0-1,3,5");
	CPU_SET(4, &set);
	CPU_SET(2, &set);
	ck_assert_str_eq(cpuset_format(&set, buf, sizeof(buf)), "0-5");
	ck_assert_str_eq(cpuset_format(&set, buf, 3), "0-");
}
END_TEST

START_TEST(summary_is_one_line_with_the_counts)
{
	char buf[160], want[32];
	regex_t re;

	topology_summary(buf, sizeof(buf));
	ck_assert_int_eq(regcomp(&re, "^[0-9]+ packages?, [0-9]+ cores?, [0-9]+ PUs?, "
				 "[0-9]+ NUMA nodes?(, L[0-9] [0-9]+[KM]B)?$", REG_EXTENDED), 0);
	ck_assert_msg(regexec(&re, buf, 0, NULL, 0) == 0, "summary '%s'", buf);
	regfree(&re);
	snprintf(want, sizeof(want), " %d PU", topology_nr_pus());
	ck_assert_ptr_nonnull(strstr(buf, want));
}
END_TEST

START_TEST(text_specs_parse_and_resolve)
{
	cpu_set_t set;
	char why[160];

	ck_assert_int_eq(topology_cpus(NULL, &set, why, sizeof(why)), 0);
	ck_assert_int_eq(CPU_COUNT(&set), topology_nr_pus());
	ck_assert_int_eq(topology_cpus("pu:0", &set, why, sizeof(why)), 0);
	ck_assert_int_eq(CPU_COUNT(&set), 1);
	ck_assert_int_eq(topology_cpus("pu:x", &set, why, sizeof(why)), -1);
	ck_assert(strstr(why, "pu:x") != NULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("topology");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, pus_match_the_online_cpus);
	tcase_add_test(tc, each_pu_is_one_cpu);
	tcase_add_test(tc, out_of_range_indices_name_the_machine_range);
	tcase_add_test(tc, cores_and_numa_nodes_cover_their_pus);
	tcase_add_test(tc, sets_format_as_lists);
	tcase_add_test(tc, summary_is_one_line_with_the_counts);
	tcase_add_test(tc, text_specs_parse_and_resolve);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
