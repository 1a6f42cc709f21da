/* starve compare: compare results across kernels or settings, with
 * significance. This file reads the command line and the files; matching,
 * statistics and printing are in reports/compare*.c. */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "lib/error.h"
#include "reports/compare.h"
#include "reports/result-view.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run_compare(int argc, char **argv);

enum compare_format { FORMAT_TEXT, FORMAT_MARKDOWN, FORMAT_JSON };

struct compare_args {
	int format;			/* enum compare_format */
	bool settings;
	struct cmd_words labels, thresholds;
	const char *alpha, *test;	/* parsed by compare_parse_values() */
	struct cmp_options opt;
	struct cmp_threshold threshold[64];
	struct cmd_words files;
};

static const struct cmd_option compare_options[] = {
	CMD_LIST("label", "L", struct compare_args, labels,
		 "label of the next result (default kernel.release, or the run directory for "
		 "a repeated one)"),
	CMD_LIST("threshold", "METRIC=PCT", struct compare_args, thresholds,
		 "threshold of METRIC in percent, over the profile's 'compare:' one; a bare "
		 "PCT sets the default (5)"),
	CMD_STRING("alpha", "A", struct compare_args, alpha, "significance level (0.05)"),
	CMD_STRING("test", "mwu|welch", struct compare_args, test,
		   "Mann-Whitney U on ranks (default), or Welch's t on means (assumes roughly "
		   "normal samples; decides with 3 a side)"),
	CMD_FLAG("settings", struct compare_args, settings,
		 "compare the settings inside one result (first = baseline)"),
	CMD_SET("markdown", struct compare_args, format, FORMAT_MARKDOWN, "print a Markdown table"),
	CMD_SET("json", struct compare_args, format, FORMAT_JSON,
		"print JSON (format \"starve-compare\")"),
	CMD_END
};

const struct cmd cmd_compare = {
	.name = "compare", .operands = "A.json B.json...",
	.summary = "compare results across kernels or settings, with significance",
	.options = compare_options, .run = run_compare,
	.notes = "The first result (or setting) is the baseline. Runs are matched by setting, load\n"
		 "and metric; a metric's samples are its values in the runs with status ok.\n"
		 "Each metric is tested with Mann-Whitney U (two-sided) by default; its verdict is\n"
		 "'regression' or 'improvement' when p < alpha and the medians differ by more\n"
		 "than the threshold, 'insufficient data' with fewer than 3 repetitions a side.\n"
		 "Mann-Whitney U cannot reach p < 0.05 with fewer than 4 repetitions a side\n"
		 "(3 a side give p >= 0.1); Welch's t can decide with 3.\n\n"
		 "exit status: 0 no regression, 1 a regression, 2 bad input or usage.\n",
};

/* --alpha, --test and each --threshold into A->opt. */
static int compare_parse_values(struct compare_args *a)
{
	char *end;

	a->opt.alpha = CMP_DEFAULT_ALPHA;
	a->opt.threshold = CMP_DEFAULT_THRESHOLD;
	a->opt.thresholds = a->threshold;
	if (a->alpha) {
		errno = 0;
		a->opt.alpha = strtod(a->alpha, &end);
		if (errno || end == a->alpha || *end || !(a->opt.alpha > 0 && a->opt.alpha < 1))
			return error("--alpha: '%s' is not a probability between 0 and 1", a->alpha);
	}
	if (a->test && cmp_parse_test(a->test) < 0)
		return error("--test: '%s' is not a test (mwu or welch)", a->test);
	if (a->test)
		a->opt.test = (enum cmp_test)cmp_parse_test(a->test);
	for (size_t i = 0; i < a->thresholds.n; i++) {
		struct cmp_threshold th;

		if (cmp_parse_threshold(a->thresholds.v[i], &th) < 0)
			return -1;
		if (!th.metric)
			a->opt.threshold = th.pct;
		else if (a->opt.n_thresholds == sizeof(a->threshold) / sizeof(a->threshold[0]))
			return error("too many --threshold options");
		else
			a->threshold[a->opt.n_thresholds++] = th;
	}
	return 0;
}

static int compare_check(struct compare_args *a)
{
	if (compare_parse_values(a) < 0)
		return -1;
	if (a->settings && a->files.n != 1)
		return error("--settings compares the settings of one result: give one file");
	if (!a->settings && a->files.n < 2)
		return error("give at least two results to compare (or --settings RESULT.json); "
			     "see 'starve compare --help'");
	if (a->labels.n > a->files.n)
		return error("%zu --label options for %zu results", a->labels.n, a->files.n);
	if (a->labels.n > 64)
		return error("too many --label options");
	return 0;
}

static void compare_print(const struct cmp_table *t, enum compare_format format)
{
	json_t *doc;

	switch (format) {
	case FORMAT_MARKDOWN:
		cmp_print_markdown(t, stdout);
		break;
	case FORMAT_JSON:
		doc = cmp_to_json(t);
		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
		fputc('\n', stdout);
		json_decref(doc);
		break;
	default:
		cmp_print_text(t, stdout);
	}
}

/* Read the N files; on failure print why and return -1 (views freed). */
static int compare_load(char **files, size_t n, struct result_view **views)
{
	char why[1024];

	for (size_t i = 0; i < n; i++) {
		views[i] = rv_open(files[i], why, sizeof(why));
		if (!views[i]) {
			while (i--)
				rv_free(views[i]);
			return error("%s", why);
		}
	}
	return 0;
}

/* Read, match, test and print; the exit status. */
static int compare_files(const struct compare_args *a)
{
	size_t n = a->files.n;
	struct result_view **views = calloc(n, sizeof(*views));
	const char *labels[64] = { NULL };
	struct cmp_table t;
	int ret;

	if (!views)
		return error("out of memory"), EXIT_RUNTIME;
	if (compare_load(a->files.v, n, views) < 0) {
		free(views);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < a->labels.n; i++)
		labels[i] = a->labels.v[i];
	if (a->settings)
		ret = cmp_build_settings(&t, views[0], &a->opt);
	else
		ret = n > 64 ? error("too many results (at most 64)") :
		      cmp_build_results(&t, (const struct result_view *const *)views, labels, n,
					&a->opt);
	if (ret == 0) {
		compare_print(&t, a->format);
		ret = cmp_exit_status(&t);
		cmp_free(&t);
	} else {
		ret = EXIT_USAGE;
	}
	for (size_t i = 0; i < n; i++)
		rv_free(views[i]);
	free(views);
	return ret;
}

static int run_compare(int argc, char **argv)
{
	struct compare_args a = { .format = FORMAT_TEXT };
	int ret;

	if (!cmd_parse(&cmd_compare, argc, argv, &a, &a.files, &ret))
		return ret;
	ret = compare_check(&a) < 0 ? EXIT_USAGE : compare_files(&a);
	cmd_release(&cmd_compare, &a, &a.files);
	return ret;
}
