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

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run_report(int argc, char **argv);

/* The report files, indexed like report_files[]. */
enum report_file { RF_JSON, RF_JUNIT, RF_KTAP, RF_MARKDOWN, RF_HTML, RF_COUNT };

struct report_args {
	const char *out[RF_COUNT];
	bool table, recompute, strict;
};

/* A file option is named after its report format (reports/formats.c). */
static const struct cmd_option report_options[] = {
	CMD_STRING("junit", "F", struct report_args, out[RF_JUNIT],
		   "JUnit XML: a testsuite per setting, a testcase per expectation"),
	CMD_STRING("ktap", "F", struct report_args, out[RF_KTAP],
		   "KTAP version 1: a test per setting, expectations nested"),
	CMD_STRING("markdown", "F", struct report_args, out[RF_MARKDOWN],
		   "Markdown summary for a merge-request comment"),
	CMD_STRING("html", "F", struct report_args, out[RF_HTML],
		   "one self-contained HTML page: tables and SVG charts"),
	CMD_STRING("json", "F", struct report_args, out[RF_JSON],
		   "the result itself (useful with --recompute)"),
	CMD_FLAG("table", struct report_args, table,
		 "print the summary table too (default when no file is named)"),
	CMD_FLAG("recompute", struct report_args, recompute,
		 "judge the verdicts again from the measurements"),
	CMD_FLAG("strict", struct report_args, strict,
		 "undecided verdicts fail (exit 1); implies --recompute"),
	CMD_END
};

static const char *const report_files[RF_COUNT] = {
	[RF_JSON] = "json", [RF_JUNIT] = "junit", [RF_KTAP] = "ktap",
	[RF_MARKDOWN] = "markdown", [RF_HTML] = "html",
};

const struct cmd cmd_report = {
	.name = "report", .operands = "RESULT.json",
	.summary = "regenerate reports from a result; exit with its verdict",
	.options = report_options, .run = run_report,
	.notes = "F is a file name, '-' for stdout.\n\n"
		 "exit status: 0 pass (or only undecided, with a warning), 1 a verdict failed,\n"
		 "2 unreadable or invalid result, 3 a report could not be written, 4 all skipped.\n",
};

static int report_outputs(const struct report_args *a, const struct result_view *v)
{
	bool any = false, stdout_used = false;

	for (size_t i = 0; i < RF_COUNT; i++) {
		if (!a->out[i])
			continue;
		any = true;
		stdout_used |= !strcmp(a->out[i], "-");
		if (report_write_file(report_format_find(report_files[i]), v, a->out[i]) < 0)
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

/* The view of PATH, its verdicts judged again when A asks; NULL with the
 * error printed. */
static struct result_view *report_open(const struct report_args *a, const char *path)
{
	struct verdict_opts opts = { .undecided_fails = a->strict };
	struct result_view *v;
	char why[1024];

	v = rv_open(path, why, sizeof(why));
	if (!v)
		error("%s", why);
	else if (a->recompute || a->strict)
		verdicts_rejudge(&v, &opts);
	return v;
}

static int run_report(int argc, char **argv)
{
	struct report_args a = { .table = false };
	struct cmd_words ops;
	struct result_view *v;
	int code;

	if (!cmd_parse(&cmd_report, argc, argv, &a, &ops, &code))
		return code;
	if (ops.n != 1) {
		cmd_usage_error(&cmd_report, "give exactly one result file");
		cmd_release(&cmd_report, &a, &ops);
		return EXIT_USAGE;
	}
	v = report_open(&a, ops.v[0]);
	cmd_release(&cmd_report, &a, &ops);
	if (!v)
		return EXIT_USAGE;
	code = v->summary.exit_code;
	if (report_outputs(&a, v) < 0)
		code = EXIT_RUNTIME;
	rv_free(v);
	return code;
}
