/* starve report: regenerate the reports of a run (every format of
 * reports/formats.h: --format LIST as `starve run` takes it, or --NAME F
 * each) from its result.json alone, optionally re-judging the verdicts with
 * this starve's rules. The exit status is the result's, so a
 * CI job can gate on `starve report result.json --junit report.xml`. */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "harness/cmd/report-params.h"
#include "lib/error.h"
#include "reports/formats.h"
#include "reports/format/kcidb.h"
#include "reports/result/result.h"
#include "reports/result/result-view.h"
#include "reports/result/verdict.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run_report(int argc, char **argv);

struct report_args {
	const char *out[RF_COUNT];	/* --NAME F, by enum report_format_id */
	const char *formats, *dir;	/* --format LIST --output DIR */
	bool table, recompute, strict;
	struct report_params params;
};

/* One option a format (reports/formats.h): --NAME F, or --table alone. */
#define REPORT_OPTION_OPT_FILE(ID, NAME, HELP) \
	CMD_STRING(NAME, "F", struct report_args, out[RF_##ID], HELP),
#define REPORT_OPTION_OPT_FLAG(ID, NAME, HELP) \
	CMD_FLAG(NAME, struct report_args, table, "print " HELP " (default when no file is named)"),
#define REPORT_OPTION(ID, NAME, FILE, WRITE, WRITE_PARAMS, COMPARE, OPTION, HELP, ...) \
	REPORT_OPTION_##OPTION(ID, NAME, HELP)

static const struct cmd_option report_options[] = {
	CMD_STRING("format", "LIST", struct report_args, formats,
		   "write these formats into DIR, comma-separated, of: " REPORT_FORMAT_FILES),
	CMD_STRING("output", "DIR", struct report_args, dir,
		   "the directory --format writes into (default: the result's)", .short_name = 'o'),
	REPORT_FORMATS(REPORT_OPTION)
	CMD_REPORT_PARAMS(struct report_args, params),
	CMD_FLAG("recompute", struct report_args, recompute,
		 "judge the verdicts again from the measurements"),
	CMD_FLAG("strict", struct report_args, strict,
		 "undecided verdicts fail (exit 1); implies --recompute"),
	CMD_END
};

const struct cmd cmd_report = {
	.name = "report", .operands = "RESULT.json",
	.summary = "regenerate reports from a result; exit with its verdict",
	.options = report_options, .run = run_report,
	.notes = "F is a file name, '-' for stdout. --format names the formats 'starve run\n"
		 "--format' writes, into the same files.\n\n"
		 "exit status: 0 pass (or only undecided, with a warning), 1 a verdict failed,\n"
		 "2 unreadable or invalid result, 3 a report could not be written, 4 all skipped.\n",
};

/* The directory --format writes into: --output, or the result's own. */
static int report_dir(const struct report_args *a, const char *result, char *buf, size_t len)
{
	const char *slash = strrchr(result, '/');

	if (a->dir)
		return snprintf(buf, len, "%s", a->dir) < (int)len ? 0 : -1;
	if (!slash)
		return snprintf(buf, len, ".") < (int)len ? 0 : -1;
	return snprintf(buf, len, "%.*s", (int)(slash - result) + (slash == result), result) <
	       (int)len ? 0 : -1;
}

static int report_outputs(const struct report_args *a, const struct result_view *v,
			  const char *result)
{
	bool any = a->formats, stdout_used = false;
	char dir[4096];

	if (a->formats && (report_dir(a, result, dir, sizeof(dir)) < 0 ||
			   (a->dir && cmd_output_dir(dir) < 0) ||
			   reports_write_formats(v, dir, a->formats, &a->params) < 0))
		return -1;
	for (size_t i = 0; i < RF_COUNT; i++) {
		if (!a->out[i])
			continue;
		any = true;
		stdout_used |= !strcmp(a->out[i], "-");
		if (report_write_file(&report_formats[i], v, &a->params, a->out[i]) < 0)
			return -1;
	}
	if (a->table || !any) {
		if (stdout_used)
			return error("--table and an output to '-' would mix on stdout");
		return report_write_file(&report_formats[RF_TABLE], v, NULL, "-");
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
	else if (!v->complete)	/* killed: its summary may be the header's, from before any run */
		verdicts_rejudge(&v, NULL);
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
	if (ops.n != 1 || kcidb_params_check(&a.params) < 0 ||
	    (a.formats && report_formats_check(a.formats) < 0)) {
		if (ops.n != 1)
			cmd_usage_error(&cmd_report, "give exactly one result file");
		cmd_release(&cmd_report, &a, &ops);
		return EXIT_USAGE;
	}
	v = report_open(&a, ops.v[0]);
	if (!v) {
		cmd_release(&cmd_report, &a, &ops);
		return EXIT_USAGE;
	}
	code = v->summary.exit_code;
	if (report_outputs(&a, v, ops.v[0]) < 0)
		code = EXIT_RUNTIME;
	cmd_release(&cmd_report, &a, &ops);
	rv_free(v);
	return code;
}
