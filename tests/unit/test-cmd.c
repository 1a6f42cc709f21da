/* Unit tests for the subcommands' option tables (harness/cmd/cmd.c and
 * cmd-usage.c): options anywhere among the operands, also under
 * POSIXLY_CORRECT, "--" ending the options, argv left as given (result.json
 * records it); typed values with ranges, repeatable and required options,
 * one message per mistake; --help and the synopsis written from the rows;
 * and every real command's table well formed. */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "harness/vm/accel.h"
#include "lib/error.h"
#include "tests/unit/unit.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a command made for the tests ---- */

struct try_args {
	const char *out;
	bool quiet, fast;
	int format;
	int64_t repeat, period_ns, colour;
	struct cmd_words labels;
	int64_t level;		/* set by try_level() */
	bool flag_more;		/* MORE's boolean */
	int64_t count_more;	/* MORE's integer */
};

static const char *const colours[] = { "red", "green", NULL };
static const struct opt_spec try_specs[] = {
	{ "repeat", OPT_INT, NULL, 1, 100, "1", "repetitions", NULL },
	{ "period", OPT_DURATION, "ns", 1e6, 10e9, "1s", "how often", NULL },
	{ "colour", OPT_ENUM, NULL, 0, 0, "red", "which colour", colours },
	{ "level", OPT_INT, NULL, 0, 9, "0", "level of detail", NULL },
};
static const struct opt_spec more_specs[] = {
	{ "spin", OPT_BOOL, NULL, 0, 0, "false", "spin instead of sleeping", NULL },
	{ "count", OPT_INT, NULL, 1, 8, "1", "how many", NULL },
};

static int try_level(void *args, const struct cmd_option *o, union opt_value *v)
{
	(void)o;
	((struct try_args *)args)->level = v->i;
	return 0;
}

static int try_more_set(void *args, const struct opt_spec *o, union opt_value *v)
{
	struct try_args *a = args;

	if (o == &more_specs[0])
		a->flag_more = v->b;
	else
		a->count_more = v->i;
	return 0;
}

static bool try_more(const void *args, struct cmd_more *more)
{
	(void)args;
	snprintf(more->title, sizeof(more->title), "more options");
	more->table = more_specs;
	more->n = 2;
	more->set = try_more_set;
	return true;
}

static const struct cmd_option try_options[] = {
	CMD_STRING("output", "DIR", struct try_args, out, "where to write", .short_name = 'o'),
	CMD_FLAG("quiet", struct try_args, quiet, "say less", .short_name = 'q'),
	CMD_FLAG("fast", struct try_args, fast, "hurry"),
	CMD_INT("repeat", "N", &try_specs[0], struct try_args, repeat, "how many times"),
	CMD_INT("period", NULL, &try_specs[1], struct try_args, period_ns, "how often",
		.required = true),
	CMD_INT("colour", NULL, &try_specs[2], struct try_args, colour, "which colour"),
	CMD_LIST("label", "L", struct try_args, labels, "a label (repeatable)"),
	CMD_SET("markdown", struct try_args, format, 1, "print Markdown"),
	CMD_SET("json", struct try_args, format, 2, "print JSON"),
	CMD_CALL("level", NULL, &try_specs[3], try_level, NULL),
	CMD_END
};

static const struct cmd cmd_try = {
	.name = "try", .operands = "FILE...", .summary = "a command for the tests",
	.options = try_options, .notes = "notes come last.\n",
};

static const struct cmd cmd_try_more = {
	.name = "trymore", .operands = "FILE...", .summary = "with more options",
	.options = try_options, .more = try_more,
};

/* ---- helpers ---- */

static char messages[2048];

static void collect(const char *msg, void *data)
{
	(void)data;
	snprintf(messages + strlen(messages), sizeof(messages) - strlen(messages), "%s\n", msg);
}

/* Parse ARGV (NULL-terminated) by C into A; the operands joined by ' ' in
 * OPS_TEXT. Returns cmd_parse()'s answer; *STATUS its status when false. */
static bool parse(const struct cmd *c, char **argv, struct try_args *a, char *ops_text,
		  size_t len, int *status)
{
	struct cmd_words ops;
	int argc = 0;
	bool ok;

	while (argv[argc])
		argc++;
	memset(a, 0, sizeof(*a));
	messages[0] = ops_text[0] = '\0';
	error_set_sink(collect, NULL);
	*status = -1;
	ok = cmd_parse(c, argc, argv, a, &ops, status);
	error_set_sink(NULL, NULL);
	if (!ok)
		return false;
	for (size_t i = 0; i < ops.n; i++)
		snprintf(ops_text + strlen(ops_text), len - strlen(ops_text), "%s%s", i ? " " : "",
			 ops.v[i]);
	ck_assert(ops.n == 0 || ops.v[ops.n] == NULL);
	ck_assert_int_eq(*status, -1);
	cmd_release(c, a, &ops);	/* a->labels freed: tests copy what they need first */
	return true;
}

/* --help of C (with MORE) as text. */
static char *help_of(const struct cmd *c, const struct cmd_more *more)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	cmd_print_help(c, more, f);
	fclose(f);
	return text;
}

/* cmd_try refuses ARGV (exit status 2) saying exactly MESSAGE. */
static void expect_refused(char **argv, const char *message)
{
	char text[128];
	struct try_args a;
	int status;

	ck_assert(!parse(&cmd_try, argv, &a, text, sizeof(text), &status));
	ck_assert_int_eq(status, EXIT_USAGE);
	ck_assert_str_eq(messages, message);
}

/* ---- parsing ---- */

START_TEST(options_come_anywhere_among_the_operands)
{
	char *argv[] = { "try", "a.yaml", "-o", "dir", "b.yaml", "--quiet", "c.yaml",
			 "--period", "5ms", NULL };
	char *copy[10], text[128];
	struct try_args a;
	int status;

	memcpy(copy, argv, sizeof(argv));
	ck_assert(parse(&cmd_try, argv, &a, text, sizeof(text), &status));
	ck_assert_str_eq(text, "a.yaml b.yaml c.yaml");
	ck_assert_str_eq(a.out, "dir");
	ck_assert(a.quiet);
	ck_assert_int_eq(a.period_ns, 5000000);
	/* argv itself is not permuted: the command line is recorded as given */
	for (int i = 0; i < 10; i++)
		ck_assert_ptr_eq(argv[i], copy[i]);
}
END_TEST

START_TEST(posixly_correct_does_not_stop_at_the_first_operand)
{
	char *argv[] = { "try", "r.json", "--output=x", "-q", "--period=1s", NULL };
	char text[128];
	struct try_args a;
	int status;

	setenv("POSIXLY_CORRECT", "1", 1);
	ck_assert(parse(&cmd_try, argv, &a, text, sizeof(text), &status));
	unsetenv("POSIXLY_CORRECT");
	ck_assert_str_eq(text, "r.json");
	ck_assert_str_eq(a.out, "x");
	ck_assert(a.quiet);
}
END_TEST

START_TEST(double_dash_ends_the_options)
{
	char *argv[] = { "try", "-q", "--period", "1s", "--", "-q", "--output", "-", NULL };
	char text[128];
	struct try_args a;
	int status;

	ck_assert(parse(&cmd_try, argv, &a, text, sizeof(text), &status));
	ck_assert_str_eq(text, "-q --output -");
	ck_assert(a.quiet);
	ck_assert_ptr_null(a.out);
}
END_TEST

START_TEST(values_come_in_every_getopt_spelling)
{
	char *argv[] = { "try", "-qodir", "--rep=3", "--period", "2s", "--colour", "green",
			 "--fa", NULL };
	char text[128];
	struct try_args a;
	int status;

	ck_assert(parse(&cmd_try, argv, &a, text, sizeof(text), &status));
	ck_assert(a.quiet);
	ck_assert_str_eq(a.out, "dir");
	ck_assert_int_eq(a.repeat, 3);		/* a unique prefix of --repeat */
	ck_assert_int_eq(a.period_ns, 2000000000LL);
	ck_assert_int_eq(a.colour, 1);		/* the choice's index */
	ck_assert(a.fast);
	{
		char *again[] = { "try", "-q", "-o", "d2", "--period", "1s", NULL };

		ck_assert(parse(&cmd_try, again, &a, text, sizeof(text), &status));
		ck_assert_str_eq(a.out, "d2");	/* and parsing again starts afresh */
	}
}
END_TEST

START_TEST(repeatable_options_keep_every_value_in_order)
{
	char *argv[] = { "try", "--label", "old", "f1", "--label=new", "--period", "1s",
			 "--markdown", "--json", "--level", "7", NULL };
	struct cmd_words ops;
	struct try_args a = { .format = 0 };
	int status;

	ck_assert(cmd_parse(&cmd_try, 11, argv, &a, &ops, &status));
	ck_assert_uint_eq(a.labels.n, 2);
	ck_assert_str_eq(a.labels.v[0], "old");
	ck_assert_str_eq(a.labels.v[1], "new");
	ck_assert_ptr_null(a.labels.v[2]);
	ck_assert_int_eq(a.format, 2);		/* the last of --markdown, --json wins */
	ck_assert_int_eq(a.level, 7);		/* handed to the row's function */
	cmd_release(&cmd_try, &a, &ops);
	ck_assert_ptr_null(a.labels.v);
	ck_assert_ptr_null(ops.v);
}
END_TEST

START_TEST(unknown_options_say_what_and_where_to_look)
{
	char *bad[] = { "try", "--perood", "1s", "a", "-q", NULL };
	char *bad_short[] = { "try", "-qx", NULL };
	char text[128];
	struct try_args a;
	int status;

	ck_assert(!parse(&cmd_try, bad, &a, text, sizeof(text), &status));
	ck_assert_int_eq(status, EXIT_USAGE);
	ck_assert_str_eq(messages, "try: unknown option '--perood' (did you mean '--period'?); "
				   "see 'starve try --help'\n");
	ck_assert(!a.quiet);	/* nothing after the mistake was taken */
	ck_assert(!parse(&cmd_try, bad_short, &a, text, sizeof(text), &status));
	ck_assert_str_eq(messages, "try: unknown option '-x'; see 'starve try --help'\n");
}
END_TEST

START_TEST(malformed_options_are_usage_errors)
{
	static char *cases[][5] = {
		{ "try", "--period", NULL },
		{ "try", "--period=1s", "--quiet=yes", NULL },
		{ "try", "x", NULL },
		{ "try", "--period=1s", "--l", "2", NULL },
	};
	static const char *const said[] = {
		"try: option '--period' needs a value; see 'starve try --help'\n",
		"try: option '--quiet' takes no value; see 'starve try --help'\n",
		"try: missing --period T; see 'starve try --help'\n",
		"try: option '--l' is ambiguous: it begins 2 option names; see 'starve try --help'\n",
	};

	for (size_t i = 0; i < sizeof(said) / sizeof(said[0]); i++)
		expect_refused(cases[i], said[i]);
}
END_TEST

START_TEST(a_command_without_operands_refuses_one)
{
	static const struct cmd_option none[] = { CMD_END };
	const struct cmd bare = { .name = "bare", .summary = "s", .options = none };
	struct cmd_words ops;
	char *argv[] = { "bare", "stray", NULL };
	int status;

	messages[0] = '\0';
	error_set_sink(collect, NULL);
	ck_assert(!cmd_parse(&bare, 2, argv, NULL, &ops, &status));
	error_set_sink(NULL, NULL);
	ck_assert_int_eq(status, EXIT_USAGE);
	ck_assert_str_eq(messages, "bare: unexpected argument 'stray'; see 'starve bare --help'\n");
}
END_TEST

START_TEST(values_are_checked_against_their_rows_ranges)
{
	static char *cases[][5] = {
		{ "try", "--period", "1ns", NULL },
		{ "try", "--period", "1s", "--repeat=101", NULL },
		{ "try", "--period", "1s", "--colour=blue", NULL },
		{ "try", "--period", "0x10s", NULL },
		{ "try", "--period", "1s", "--level=10", NULL },
	};
	static const char *const said[] = {
		"try: --period: value 1ns is out of range for 'period' (1ms..10s)\n",
		"try: --repeat: value 101 is out of range for 'repeat' (1..100)\n",
		"try: --colour: 'colour' must be one of red|green, not 'blue'\n",
		("try: --period: 'period': '0x10s' is not a duration (write a decimal number and a "
		 "unit, e.g. 5s or 20ms)\n"),
		"try: --level: value 10 is out of range for 'level' (0..9)\n",
	};

	for (size_t i = 0; i < sizeof(said) / sizeof(said[0]); i++)
		expect_refused(cases[i], said[i]);
}
END_TEST

START_TEST(more_options_parse_like_rows_and_booleans_need_no_value)
{
	char *argv[] = { "trymore", "f", "--period", "1s", "--spin", "--count", "3", "g", NULL };
	char *argv2[] = { "trymore", "--spin", "false", "--period=1s", "--spin=true", "--spin",
			  "no", "h", NULL };
	char *bad[] = { "trymore", "--period=1s", "--cuont", "3", NULL };
	char text[128];
	struct try_args a;
	int status;

	ck_assert(parse(&cmd_try_more, argv, &a, text, sizeof(text), &status));
	ck_assert(a.flag_more);
	ck_assert_int_eq(a.count_more, 3);
	ck_assert_str_eq(text, "f g");
	/* a boolean takes the next word only when it is a boolean */
	ck_assert(parse(&cmd_try_more, argv2, &a, text, sizeof(text), &status));
	ck_assert(!a.flag_more);
	ck_assert_str_eq(text, "h");
	ck_assert(!parse(&cmd_try_more, bad, &a, text, sizeof(text), &status));
	ck_assert_str_eq(messages, "trymore: unknown option '--cuont' (did you mean '--count'?); "
				   "see 'starve trymore --help'\n");
}
END_TEST

START_TEST(help_anywhere_prints_the_help_and_parses_nothing)
{
	char *argv[] = { "try", "--bogus", "-h", NULL };
	char text[128];
	struct try_args a;
	int status;
	FILE *saved = stdout;

	stdout = fopen("/dev/null", "w");
	ck_assert(!parse(&cmd_try, argv, &a, text, sizeof(text), &status));
	fclose(stdout);
	stdout = saved;
	ck_assert_int_eq(status, EXIT_PASS);
	ck_assert_str_eq(messages, "");	/* --bogus is not even looked at */
}
END_TEST

/* ---- text ---- */

START_TEST(help_is_written_from_the_rows)
{
	struct cmd_more more;
	char *text = help_of(&cmd_try, NULL), *with_more;

	/* wrapped under the first operand, an option never split from its value */
	ck_assert_msg(!strncmp(text, "usage: starve try FILE... [--output DIR] [--quiet] [--fast] "
				     "[--repeat N]\n                  --period T [--colour red|green]",
			       strlen("usage: starve try FILE... [--output DIR] [--quiet] [--fast] "
				      "[--repeat N]\n                  --period T [--colour red|green]")),
		      "%s", text);
	ck_assert_msg(strstr(text, "\n\na command for the tests\n\noptions:\n"), "%s", text);
	ck_assert_msg(strstr(text, "\n  -o, --output DIR"), "%s", text);
	ck_assert_msg(strstr(text, "\n      --repeat N          how many times (1..100)\n"), "%s", text);
	ck_assert_msg(strstr(text, "\n      --period T          how often (1ms..10s)\n"), "%s", text);
	ck_assert_msg(strstr(text, "\n      --colour red|green  which colour\n"), "%s", text);
	/* a row without help of its own has its lib/options row's */
	ck_assert_msg(strstr(text, "\n      --level N           level of detail (0..9)\n"), "%s", text);
	ck_assert_msg(strstr(text, "\n\nnotes come last.\n"), "%s", text);
	try_more(NULL, &more);
	with_more = help_of(&cmd_try_more, &more);
	ck_assert_msg(strstr(with_more, "\nmore options:\n      --spin [BOOL]       spin instead of "
					"sleeping (default false)\n"), "%s", with_more);
	ck_assert_msg(strstr(with_more, "\n      --count N           how many (1..8; default 1)\n"),
		      "%s", with_more);
	free(text);
	free(with_more);
}
END_TEST

START_TEST(the_synopsis_names_every_row)
{
	char buf[1024];

	ck_assert_str_eq(cmd_synopsis(&cmd_try, buf, sizeof(buf)),
			 "starve try FILE... [--output DIR] [--quiet] [--fast] [--repeat N] "
			 "--period T [--colour red|green] [--label L]... [--markdown] [--json] "
			 "[--level N]");
}
END_TEST

START_TEST(the_man_synopsis_keeps_each_option_whole)
{
	const struct cmd *cmds[] = { &cmd_try };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cmd_print_man_synopsis(cmds, 1, f);
	fclose(f);
	ck_assert_msg(strstr(text, "\n.SY \"starve try\"\n\\fIFILE\\fP...\n"
				   "[\\fB\\-\\-output\\fP\\~\\fIDIR\\fP]\n"), "%s", text);
	ck_assert_msg(strstr(text, "\n\\fB\\-\\-period\\fP\\~\\fIT\\fP\n"), "%s", text);
	ck_assert_msg(strstr(text, "\n[\\fB\\-\\-label\\fP\\~\\fIL\\fP]...\n"), "%s", text);
	ck_assert_msg(strstr(text, "\n[\\fB\\-\\-colour\\fP\\~\\fIred\\fP|\\fIgreen\\fP]\n"),
		      "%s", text);
	ck_assert_msg(strstr(text, "\n.YS\n"), "%s", text);
	free(text);
}
END_TEST

/* ---- the real tables ---- */

static const struct cmd *const commands[] = {
	&cmd_run, &cmd_check, &cmd_env, &cmd_list, &cmd_load, &cmd_compare, &cmd_report,
	&cmd_restore,
};

/* What the parser and the help rely on: unique names and letters, the
 * fields a kind needs, integers typed by an integer-like row. */
static void check_row(const struct cmd *c, const struct cmd_option *o)
{
	enum opt_type t = o->spec ? o->spec->type : OPT_STRING;

	ck_assert_msg(o->help || o->spec, "%s --%s has no help", c->name, o->name);
	for (const struct cmd_option *p = c->options; p < o; p++) {
		ck_assert_msg(strcmp(p->name, o->name), "%s: --%s twice", c->name, o->name);
		ck_assert_msg(!o->short_name || p->short_name != o->short_name,
			      "%s: -%c twice", c->name, o->short_name);
	}
	switch (o->kind) {
	case CMD_OPT_STRING:
	case CMD_OPT_LIST:
		ck_assert_msg(o->arg, "%s --%s names no value", c->name, o->name);
		break;
	case CMD_OPT_INT:
		ck_assert_msg(o->spec && (t == OPT_INT || t == OPT_DURATION || t == OPT_ENUM),
			      "%s --%s: an int64_t needs an integer, duration or choice row",
			      c->name, o->name);
		break;
	case CMD_OPT_CALL:
		ck_assert_msg(o->spec && o->call, "%s --%s: no row or function", c->name, o->name);
		break;
	default:
		ck_assert_msg(!o->arg && !o->spec, "%s --%s: a flag takes no value", c->name, o->name);
	}
}

START_TEST(every_command_table_is_well_formed)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		const struct cmd *c = commands[i];
		size_t n = 0;
		char *text;

		ck_assert_ptr_nonnull(c->run);
		for (const struct cmd_option *o = c->options; o->name; o++, n++)
			check_row(c, o);
		ck_assert_uint_le(n, 64);
		/* every line of the help fits a terminal */
		text = help_of(c, NULL);
		for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
			ck_assert_msg(strlen(line) <= 80, "%s --help: long line '%s'", c->name, line);
		free(text);
	}
}
END_TEST

/* `starve vm --accel` takes the names the vm room boots by, from its one
 * table: a choice's index is the enum vm_accel the guest gets. */
START_TEST(vm_accel_choices_are_the_vm_rooms_table)
{
	const struct cmd_option *o = cmd_vm.options;

	while (o->name && strcmp(o->name, "accel"))
		o++;
	ck_assert_ptr_nonnull(o->name);
	ck_assert_ptr_eq(o->spec->choices, vm_accel_names);
	ck_assert_str_eq(vm_accel_name(VM_ACCEL_KVM), o->spec->choices[VM_ACCEL_KVM]);
}
END_TEST

/* Run the real command C with ARGV; the messages it printed, one a line. */
static const char *run_real(const struct cmd *c, char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	messages[0] = '\0';
	error_set_sink(collect, NULL);
	ck_assert_int_eq(c->run(argc, argv), EXIT_USAGE);
	error_set_sink(NULL, NULL);
	return messages;
}

/* run and load parse --repeat, --duration and --warmup with the profile's
 * own rows: what a profile may not say, the command line may not either. */
START_TEST(the_command_line_obeys_the_profiles_ranges)
{
	static char *refused[][5] = {
		{ "run", "p.yaml", "--duration", "1ns", NULL },
		{ "run", "p.yaml", "--warmup", "10000000s", NULL },
		{ "run", "p.yaml", "--warmup=4611686018s", NULL },
		{ "run", "p.yaml", "--repeat", "1001", NULL },
		{ "load", "sleep-hog", "--duration", "5ms", NULL },
	};
	static const char *const said[] = {
		"run: --duration: value 1ns is out of range for 'duration' (10ms..86400s)\n",
		"run: --warmup: value 10000000s is out of range for 'warmup' (0ns..3600s)\n",
		"run: --warmup: value 4611686018s is out of range for 'warmup' (0ns..3600s)\n",
		"run: --repeat: value 1001 is out of range for 'repeat' (1..1000)\n",
		"load: --duration: value 5ms is out of range for 'duration' (10ms..86400s)\n",
	};
	char *edges[] = { "run", "/nonexistent/p.yaml", "--warmup", "0s", "--duration", "10ms",
			  "--repeat", "1000", NULL };

	for (size_t i = 0; i < sizeof(said) / sizeof(said[0]); i++)
		ck_assert_str_eq(run_real(i < 4 ? &cmd_run : &cmd_load, refused[i]), said[i]);
	/* the edges of the ranges pass: the profile is the next thing missing */
	ck_assert_msg(strstr(run_real(&cmd_run, edges), "cannot open profile"), "%s", messages);
	{
		char *unknown[] = { "run", "p.yaml", "--x", NULL };

		ck_assert_str_eq(run_real(&cmd_run, unknown),
				 "run: unknown option '--x'; see 'starve run --help'\n");
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
	tcase_add_test(tc, values_come_in_every_getopt_spelling);
	tcase_add_test(tc, repeatable_options_keep_every_value_in_order);
	tcase_add_test(tc, unknown_options_say_what_and_where_to_look);
	tcase_add_test(tc, malformed_options_are_usage_errors);
	tcase_add_test(tc, a_command_without_operands_refuses_one);
	tcase_add_test(tc, values_are_checked_against_their_rows_ranges);
	tcase_add_test(tc, more_options_parse_like_rows_and_booleans_need_no_value);
	tcase_add_test(tc, help_anywhere_prints_the_help_and_parses_nothing);
	tcase_add_test(tc, help_is_written_from_the_rows);
	tcase_add_test(tc, the_synopsis_names_every_row);
	tcase_add_test(tc, the_man_synopsis_keeps_each_option_whole);
	tcase_add_test(tc, every_command_table_is_well_formed);
	tcase_add_test(tc, vm_accel_choices_are_the_vm_rooms_table);
	tcase_add_test(tc, the_command_line_obeys_the_profiles_ranges);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
