/* starve report: regenerate the reports of a run (JUnit, KTAP, Markdown, the
 * terminal table) from its result.json alone, optionally re-judging the
 * verdicts with this starve's rules. The exit status is the result's, so a
 * CI job can gate on `starve report result.json --junit report.xml`. */
#include "config.h"
#include "harness/cmd.h"
#include "lib/error.h"
#include "reports/formats.h"
#include "reports/result.h"
#include "reports/verdict.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int run_report(int argc, char **argv);

const struct cmd cmd_report = {
	"report", "RESULT.json [--junit F] [--ktap F] [--markdown F] [--json F] [--table] "
		  "[--recompute] [--strict]",
	"regenerate reports from a result; exit with its verdict", run_report
};

static const char report_options[] =
	"options (F is a file name, '-' for stdout):\n"
	"  --junit F      JUnit XML: one testsuite per setting, one testcase per expectation\n"
	"  --ktap F       KTAP version 1: one test per setting, expectations nested\n"
	"  --markdown F   Markdown summary for a merge-request comment\n"
	"  --json F       the result itself (useful with --recompute)\n"
	"  --table        print the summary table too (the default when no file is named)\n"
	"  --recompute    judge the verdicts again from the measurements\n"
	"  --strict       undecided verdicts fail (exit 1); implies --recompute\n"
	"\nexit status: 0 pass (or only undecided, with a warning), 1 a verdict failed,\n"
	"2 unreadable or invalid result, 3 a report could not be written, 4 all skipped.\n";

struct report_args {
	const char *input;
	const char *out[4];	/* by report_formats order: json, junit, ktap, markdown */
	bool table, recompute, strict;
};

static const struct option report_long[] = {
	{ "json", required_argument, NULL, 'j' },
	{ "junit", required_argument, NULL, 'u' },
	{ "ktap", required_argument, NULL, 'k' },
	{ "markdown", required_argument, NULL, 'm' },
	{ "table", no_argument, NULL, 't' },
	{ "recompute", no_argument, NULL, 'r' },
	{ "strict", no_argument, NULL, 's' },
	{ NULL, 0, NULL, 0 },
};

static const char *const report_out_names[] = { "json", "junit", "ktap", "markdown" };

static int report_parse(int argc, char **argv, struct report_args *a)
{
	int c;

	memset(a, 0, sizeof(*a));
	optind = 0;	/* glibc: full re-initialisation, so tests can call us twice */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", report_long, NULL)) != -1) {
		switch (c) {
		case 'j': a->out[0] = optarg; break;
		case 'u': a->out[1] = optarg; break;
		case 'k': a->out[2] = optarg; break;
		case 'm': a->out[3] = optarg; break;
		case 't': a->table = true; break;
		case 'r': a->recompute = true; break;
		case 's': a->strict = a->recompute = true; break;
		default:
			return error("bad option '%s' for 'starve report'; see 'starve report --help'",
				     argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return error("give exactly one result file; usage: starve report %s",
			     cmd_report.args);
	a->input = argv[optind];
	return 0;
}

/* The exit code the summary records, or -1 when it has none we know. */
static int report_exit_code(const json_t *result)
{
	const json_t *code = json_object_get(json_object_get(result, "summary"), "exit_code");
	json_int_t v = json_integer_value(code);

	if (!json_is_integer(code) || (v != EXIT_PASS && v != EXIT_VERDICT_FAIL &&
				       v != EXIT_ALL_SKIPPED))
		return error("%s: no valid summary.exit_code; try --recompute", "result");
	return (int)v;
}

static int report_outputs(const struct report_args *a, const json_t *result)
{
	bool any = false, stdout_used = false;
	const char *warning_str;

	for (size_t i = 0; i < 4; i++) {
		if (!a->out[i])
			continue;
		any = true;
		stdout_used |= !strcmp(a->out[i], "-");
		if (report_write_file(report_format_find(report_out_names[i]), result,
				      a->out[i]) < 0)
			return -1;
	}
	if (a->table || !any) {
		if (stdout_used)
			return error("--table and an output to '-' would mix on stdout");
		return report_write_file(report_format_find("table"), result, "-");
	}
	/* the table shows the warning; without it, say it on stderr */
	warning_str = json_string_value(json_object_get(json_object_get(result, "summary"),
							"warning"));
	if (warning_str)
		warning("%s", warning_str);
	return 0;
}

static int run_report(int argc, char **argv)
{
	struct report_args a;
	char why[1024];
	json_t *result;
	int code;

	if (cmd_wants_help(argc, argv)) {
		cmd_usage(&cmd_report, report_options);
		return EXIT_PASS;
	}
	if (report_parse(argc, argv, &a) < 0)
		return EXIT_USAGE;
	result = result_read(a.input, why, sizeof(why));
	if (!result) {
		error("%s", why);
		return EXIT_USAGE;
	}
	if (a.recompute) {
		struct verdict_opts opts = { .undecided_fails = a.strict };

		code = verdicts_apply_opts(result, &opts);
	} else {
		code = report_exit_code(result);
	}
	if (code >= 0 && report_outputs(&a, result) < 0)
		code = EXIT_RUNTIME;
	else if (code < 0)
		code = EXIT_USAGE;
	json_decref(result);
	return code;
}
