/* starve report: regenerate the reports of a run (JUnit, KTAP, Markdown, HTML,
 * the terminal table) from its result.json alone, optionally re-judging the
 * verdicts with this starve's rules. The exit status is the result's, so a
 * CI job can gate on `starve report result.json --junit report.xml`. */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "lib/error.h"
#include "reports/formats.h"
#include "reports/result.h"
#include "reports/result-view.h"
#include "reports/verdict.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run_report(int argc, char **argv);

const struct cmd cmd_report = {
	"report", "RESULT.json [--junit F] [--ktap F] [--markdown F] [--html F] [--json F] "
		  "[--table] "
		  "[--recompute] [--strict]",
	"regenerate reports from a result; exit with its verdict", run_report
};

/* Every option once: the rows drive parsing and --help. The first five name
 * report formats (reports/formats.c) and take the file to write. */
enum report_opt { RO_JSON, RO_JUNIT, RO_KTAP, RO_MARKDOWN, RO_HTML, RO_TABLE, RO_RECOMPUTE,
		  RO_STRICT, RO_COUNT };
#define RO_N_FILES (RO_HTML + 1)

static const struct report_opt_row {
	const char *name;
	const char *arg;	/* NULL: a flag */
	const char *help;
} report_opts[RO_COUNT] = {
	[RO_JSON] = { "json", "F", "the result itself (useful with --recompute)" },
	[RO_JUNIT] = { "junit", "F", "JUnit XML: a testsuite per setting, a testcase per expectation" },
	[RO_KTAP] = { "ktap", "F", "KTAP version 1: a test per setting, expectations nested" },
	[RO_MARKDOWN] = { "markdown", "F", "Markdown summary for a merge-request comment" },
	[RO_HTML] = { "html", "F", "one self-contained HTML page: tables and SVG charts" },
	[RO_TABLE] = { "table", NULL, "print the summary table too (default when no file is named)" },
	[RO_RECOMPUTE] = { "recompute", NULL, "judge the verdicts again from the measurements" },
	[RO_STRICT] = { "strict", NULL, "undecided verdicts fail (exit 1); implies --recompute" },
};

static void report_help(void)
{
	char text[2048];
	size_t used = 0;

	used += snprintf(text, sizeof(text), "options (F is a file name, '-' for stdout):\n");
	for (size_t i = 0; i < RO_COUNT && used < sizeof(text); i++)
		used += snprintf(text + used, sizeof(text) - used, "  --%-9s %-2s %s\n",
				 report_opts[i].name, report_opts[i].arg ? report_opts[i].arg : "",
				 report_opts[i].help);
	if (used < sizeof(text))
		snprintf(text + used, sizeof(text) - used,
			 "\nexit status: 0 pass (or only undecided, with a warning), 1 a verdict "
			 "failed,\n2 unreadable or invalid result, 3 a report could not be written, "
			 "4 all skipped.\n");
	cmd_usage(&cmd_report, text);
}

struct report_args {
	const char *input;
	const char *out[RO_N_FILES];	/* indexed like report_opts */
	bool table, recompute, strict;
	char **argv;		/* to name a bad option */
};

/* getopt values are row + RO_VAL: cmd_parse_options() keeps 1 for operands. */
#define RO_VAL 256

static int report_option(int c, char *arg, void *data)
{
	struct report_args *a = data;
	int row = c - RO_VAL;

	if (row >= 0 && row < RO_N_FILES)
		a->out[row] = arg;
	else if (row == RO_TABLE)
		a->table = true;
	else if (row == RO_RECOMPUTE)
		a->recompute = true;
	else if (row == RO_STRICT)
		a->strict = a->recompute = true;
	else if (c == ':')
		return error("option '%s' needs a file name ('-' for stdout)", a->argv[optind - 1]);
	else
		return error("bad option '%s' for 'starve report'; see 'starve report --help'",
			     a->argv[optind - 1]);
	return 0;
}

static int report_parse(int argc, char **argv, struct report_args *a)
{
	struct option longopts[RO_COUNT + 1] = { { NULL, 0, NULL, 0 } };
	char **ops;
	int n, ret;

	for (int i = 0; i < RO_COUNT; i++)
		longopts[i] = (struct option){ report_opts[i].name,
					       report_opts[i].arg ? required_argument : no_argument,
					       NULL, RO_VAL + i };
	memset(a, 0, sizeof(*a));
	a->argv = argv;
	opterr = 0;
	ret = cmd_parse_options(argc, argv, ":", longopts, report_option, a, &ops, &n);
	if (ret == 0 && n != 1)
		ret = error("give exactly one result file; usage: starve report %s",
			    cmd_report.args);
	if (ret == 0)
		a->input = ops[0];
	free(ops);
	return ret;
}

static int report_outputs(const struct report_args *a, const struct result_view *v)
{
	bool any = false, stdout_used = false;

	for (size_t i = 0; i < RO_N_FILES; i++) {
		if (!a->out[i])
			continue;
		any = true;
		stdout_used |= !strcmp(a->out[i], "-");
		if (report_write_file(report_format_find(report_opts[i].name), v, a->out[i]) < 0)
			return -1;
	}
	if (a->table || !any) {
		if (stdout_used)
			return error("--table and an output to '-' would mix on stdout");
		return report_write_file(report_format_find("table"), v, "-");
	}
	/* the table shows the warning; without it, say it on stderr */
	if (v->summary.warning)
		warning("%s", v->summary.warning);
	return 0;
}

/* The view of A->input, its verdicts judged again when asked; NULL with
 * the error printed. */
static struct result_view *report_open(const struct report_args *a)
{
	struct verdict_opts opts = { .undecided_fails = a->strict };
	struct result_view *v;
	char why[1024];

	v = rv_open(a->input, why, sizeof(why));
	if (!v)
		error("%s", why);
	else if (a->recompute)
		verdicts_rejudge(&v, &opts);
	return v;
}

static int run_report(int argc, char **argv)
{
	struct report_args a;
	struct result_view *v;
	int code;

	if (cmd_wants_help(argc, argv)) {
		report_help();
		return EXIT_PASS;
	}
	if (report_parse(argc, argv, &a) < 0)
		return EXIT_USAGE;
	v = report_open(&a);
	if (!v)
		return EXIT_USAGE;
	code = v->summary.exit_code;
	if (report_outputs(&a, v) < 0)
		code = EXIT_RUNTIME;
	rv_free(v);
	return code;
}
