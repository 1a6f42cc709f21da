/* Unit tests for durations and option tables (lib/duration.c, lib/options.c). */
#include "config.h"
#include "lib/duration.h"
#include "lib/options.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

START_TEST(durations_take_units)
{
	int64_t ns;
	char why[160];

	ck_assert_int_eq(duration_parse("5s", &ns, why, sizeof(why)), 0);
	ck_assert_int_eq(ns, 5000000000LL);
	ck_assert_int_eq(duration_parse("1.5ms", &ns, why, sizeof(why)), 0);
	ck_assert_int_eq(ns, 1500000);
	ck_assert_int_eq(duration_parse("250us", &ns, why, sizeof(why)), 0);
	ck_assert_int_eq(ns, 250000);
	ck_assert_int_eq(duration_parse("2min", &ns, why, sizeof(why)), 0);
	ck_assert_int_eq(ns, 120000000000LL);
}
END_TEST

START_TEST(bad_durations_say_why)
{
	int64_t ns;
	char why[160];

	ck_assert_int_eq(duration_parse("5", &ns, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "duration '5' has no unit (use ns, us, ms, s or min)");
	ck_assert_int_eq(duration_parse("5sec", &ns, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "bad unit 'sec' in duration '5sec' (use ns, us, ms, s or min)");
	ck_assert_int_eq(duration_parse("-1s", &ns, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "duration '-1s' is negative");
	ck_assert_int_eq(duration_parse("soon", &ns, why, sizeof(why)), -1);
}
END_TEST

START_TEST(only_decimal_numbers_are_durations)
{
	static const char *const bad[] = {
		"0x10s", "0X1Ams", "1e3ms", "1E3ms", "inf s", "infs", "nan s", "nanms", " 5s", "5 s",
		"+5s", "5s ", "1..5s", "-", "s", ".s", "5s5", "0x1p3s",
	};
	int64_t ns = 42;
	char why[160];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(duration_parse(bad[i], &ns, why, sizeof(why)) == -1, "'%s' parsed as %lld",
			      bad[i], (long long)ns);
		ck_assert_msg(strstr(why, "is not a duration") || strstr(why, "bad unit"),
			      "'%s': %s", bad[i], why);
	}
	ck_assert_int_eq(ns, 42);	/* nothing written on error */
	ck_assert_int_eq(duration_parse("0x10s", &ns, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "'0x10s' is not a duration (write a decimal number and a unit, "
			      "e.g. 5s or 20ms)");
	/* a point may stand at either end, as strtod allowed */
	ck_assert_int_eq(duration_parse(".5s", &ns, why, sizeof(why)), 0);
	ck_assert_int_eq(ns, 500000000);
	ck_assert_int_eq(duration_parse("2.min", &ns, why, sizeof(why)), 0);
	ck_assert_int_eq(ns, 120000000000LL);
}
END_TEST

/* Exact in integers up to INT64_MAX ns; one more is "too long", never a
 * wrapped or float-rounded value. */
START_TEST(long_durations_are_exact_or_too_long)
{
	int64_t ns;
	char why[160];

	ck_assert_int_eq(duration_parse("9223372036854775807ns", &ns, why, sizeof(why)), 0);
	ck_assert_int_eq(ns, INT64_MAX);
	ck_assert_int_eq(duration_parse("4611686018427387905ns", &ns, why, sizeof(why)), 0);
	ck_assert_int_eq(ns, 4611686018427387905LL);	/* 2^62 + 1: a double drops the 1 */
	ck_assert_int_eq(duration_parse("153722867min", &ns, why, sizeof(why)), 0);
	ck_assert_int_eq(ns, 9223372020000000000LL);
	ck_assert_int_eq(duration_parse("9223372036.854775807s", &ns, why, sizeof(why)), 0);
	ck_assert_int_eq(ns, INT64_MAX);
	ck_assert_int_eq(duration_parse("9223372036854775808ns", &ns, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "duration '9223372036854775808ns' is too long (at most 292 years)");
	ck_assert_int_eq(duration_parse("153722868min", &ns, why, sizeof(why)), -1);
	ck_assert_int_eq(duration_parse("99999999999999999999999999s", &ns, why, sizeof(why)), -1);
	ck_assert_int_eq(duration_parse("9223372036.8547758075s", &ns, why, sizeof(why)), -1);
	/* a fraction is rounded to the nearest ns */
	ck_assert_int_eq(duration_parse("1.0000000005s", &ns, why, sizeof(why)), 0);
	ck_assert_int_eq(ns, 1000000001);
	ck_assert_int_eq(duration_parse("0.1s", &ns, why, sizeof(why)), 0);
	ck_assert_int_eq(ns, 100000000);
	ck_assert_int_eq(duration_parse("1.4ns", &ns, why, sizeof(why)), 0);
	ck_assert_int_eq(ns, 1);
}
END_TEST

START_TEST(durations_format_back)
{
	char buf[32];

	ck_assert_str_eq(duration_format(5000000000LL, buf, sizeof(buf)), "5s");
	ck_assert_str_eq(duration_format(1500000, buf, sizeof(buf)), "1.5ms");
	ck_assert_str_eq(duration_format(250, buf, sizeof(buf)), "250ns");
}
END_TEST

static const char *const colours[] = { "red", "green", NULL };
static const struct opt_spec table[] = {
	{ "count", OPT_INT, NULL, 1, 10, "2", "how many", NULL },
	{ "period", OPT_DURATION, "ns", 1000, 1e9, "1ms", "how often", NULL },
	{ "colour", OPT_ENUM, NULL, 0, 0, "red", "which", colours },
	{ "command", OPT_STRING, NULL, 0, 0, NULL, "what", NULL },
};

START_TEST(options_check_ranges_and_types)
{
	union opt_value v;
	char why[160];

	ck_assert_int_eq(opt_parse(&table[0], "11", &v, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "value 11 is out of range for 'count' (1..10)");
	ck_assert_int_eq(opt_parse(&table[0], "ten", &v, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "'count' expects an integer, not 'ten'");
	ck_assert_int_eq(opt_parse(&table[1], "2s", &v, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "value 2s is out of range for 'period' (1us..1s)");
	ck_assert_int_eq(opt_parse(&table[2], "blue", &v, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "'colour' must be one of red|green, not 'blue'");
	ck_assert_int_eq(opt_parse(&table[2], "green", &v, why, sizeof(why)), 0);
	ck_assert_int_eq(v.i, 1);
}
END_TEST

START_TEST(defaults_fill_and_required_options_are_reported)
{
	union opt_value v[4];
	bool set[4] = { false, false, false, false };
	char why[160];

	ck_assert_int_eq(opt_fill_defaults(table, 4, v, set, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "missing required option 'command'");
	set[3] = true;
	v[3].s = strdup("true");
	ck_assert_int_eq(opt_fill_defaults(table, 4, v, set, why, sizeof(why)), 0);
	ck_assert_int_eq(v[0].i, 2);
	ck_assert_int_eq(v[1].i, 1000000);
	opt_values_free(table, 4, v);
}
END_TEST

START_TEST(suggestions_find_close_names)
{
	const char *names[] = { "duration", "warmup", "repeat", "sample_hz" };

	ck_assert_str_eq(opt_suggest("duraton", names, 4), "duration");
	ck_assert_str_eq(opt_suggest("repaet", names, 4), "repeat");
	ck_assert_ptr_null(opt_suggest("colour", names, 4));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("duration-options");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, durations_take_units);
	tcase_add_test(tc, bad_durations_say_why);
	tcase_add_test(tc, only_decimal_numbers_are_durations);
	tcase_add_test(tc, long_durations_are_exact_or_too_long);
	tcase_add_test(tc, durations_format_back);
	tcase_add_test(tc, options_check_ranges_and_types);
	tcase_add_test(tc, defaults_fill_and_required_options_are_reported);
	tcase_add_test(tc, suggestions_find_close_names);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
