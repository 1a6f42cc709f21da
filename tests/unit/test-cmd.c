/* Unit tests for the subcommands' shared option parsing (harness/cmd/cmd.c):
 * options anywhere among the operands, also under POSIXLY_CORRECT, "--"
 * ending the options, argv left as given (result.json records it). */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "tests/unit/unit.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct seen {
	char out[64];
	int quiet, calls;
};

static int seen_option(int c, char *arg, void *data)
{
	struct seen *s = data;

	s->calls++;
	if (c == 'o')
		snprintf(s->out, sizeof(s->out), "%s", arg);
	else if (c == 'q')
		s->quiet++;
	else
		return -1;
	return 0;
}

static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ NULL, 0, NULL, 0 },
};

/* Parse ARGV (NULL-terminated) and return the operands joined by ' '. */
static int parse(char **argv, struct seen *s, char *ops_text, size_t len)
{
	int argc = 0, n, ret;
	char **ops;

	while (argv[argc])
		argc++;
	memset(s, 0, sizeof(*s));
	ret = cmd_parse_options(argc, argv, "o:q", longopts, seen_option, s, &ops, &n);
	ops_text[0] = '\0';
	for (int i = 0; i < n; i++)
		snprintf(ops_text + strlen(ops_text), len - strlen(ops_text), "%s%s", i ? " " : "",
			 ops[i]);
	ck_assert_ptr_null(ops[n]);
	free(ops);
	return ret;
}

START_TEST(options_come_anywhere_among_the_operands)
{
	char *argv[] = { "run", "a.yaml", "-o", "dir", "b.yaml", "--quiet", "c.yaml", NULL };
	char *copy[8], text[128];
	struct seen s;

	memcpy(copy, argv, sizeof(argv));
	ck_assert_int_eq(parse(argv, &s, text, sizeof(text)), 0);
	ck_assert_str_eq(text, "a.yaml b.yaml c.yaml");
	ck_assert_str_eq(s.out, "dir");
	ck_assert_int_eq(s.quiet, 1);
	/* argv itself is not permuted: the command line is recorded as given */
	for (int i = 0; i < 7; i++)
		ck_assert_ptr_eq(argv[i], copy[i]);
}
END_TEST

START_TEST(posixly_correct_does_not_stop_at_the_first_operand)
{
	char *argv[] = { "report", "r.json", "--output=x", "-q", NULL };
	char text[128];
	struct seen s;

	setenv("POSIXLY_CORRECT", "1", 1);
	ck_assert_int_eq(parse(argv, &s, text, sizeof(text)), 0);
	unsetenv("POSIXLY_CORRECT");
	ck_assert_str_eq(text, "r.json");
	ck_assert_str_eq(s.out, "x");
	ck_assert_int_eq(s.quiet, 1);
}
END_TEST

START_TEST(double_dash_ends_the_options)
{
	char *argv[] = { "check", "-q", "--", "-q", "--output", NULL };
	char text[128];
	struct seen s;

	ck_assert_int_eq(parse(argv, &s, text, sizeof(text)), 0);
	ck_assert_str_eq(text, "-q --output");
	ck_assert_int_eq(s.quiet, 1);
}
END_TEST

START_TEST(a_bad_option_stops_the_parse)
{
	char *argv[] = { "run", "--bogus", "a.yaml", "-q", NULL };
	char text[128];
	struct seen s;

	opterr = 0;
	ck_assert_int_eq(parse(argv, &s, text, sizeof(text)), -1);
	ck_assert_int_eq(s.calls, 1);	/* '?' for --bogus, nothing after it */
	ck_assert_int_eq(s.quiet, 0);
	opterr = 1;
	/* and parsing again starts afresh (tests call commands twice) */
	{
		char *again[] = { "run", "-q", "b.yaml", NULL };

		ck_assert_int_eq(parse(again, &s, text, sizeof(text)), 0);
		ck_assert_str_eq(text, "b.yaml");
		ck_assert_int_eq(s.quiet, 1);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cmd");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, options_come_anywhere_among_the_operands);
	tcase_add_test(tc, posixly_correct_does_not_stop_at_the_first_operand);
	tcase_add_test(tc, double_dash_ends_the_options);
	tcase_add_test(tc, a_bad_option_stops_the_parse);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
