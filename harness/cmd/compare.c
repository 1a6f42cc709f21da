/* starve compare: compare results across kernels or settings, with
 * significance. This file reads the command line and the files; matching,
 * statistics and printing are in reports/compare*.c. */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "lib/error.h"
#include "reports/compare.h"
#include "reports/result-view.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run_compare(int argc, char **argv);

const struct cmd cmd_compare = { "compare", "A.json B.json... [--label L...] [--threshold METRIC=PCT] [--markdown|--json] | --settings RESULT.json", "compare results across kernels or settings, with significance", run_compare };

static const char compare_options[] =
	"The first result (or setting) is the baseline. Runs are matched by setting, load\n"
	"and metric; a metric's samples are its values in the runs with status ok.\n"
	"Each metric is tested with Mann-Whitney U (two-sided) by default; its verdict is\n"
	"'regression' or 'improvement' when p < alpha and the medians differ by more\n"
	"than the threshold, 'insufficient data' with fewer than 3 repetitions a side.\n\n"
	"options:\n"
	"  --label L              label for the results in order (repeatable; default\n"
	"                         kernel.release, or the run directory for a repeated one)\n"
	"  --threshold METRIC=PCT threshold of METRIC in percent (repeatable); wins over the\n"
	"                         profile's compare_thresholds\n"
	"  --threshold PCT        default threshold (5); the profile's per-metric ones still apply\n"
	"  --alpha A              significance level (0.05)\n"
	"  --test mwu|welch       Mann-Whitney U on ranks (default), or Welch's t on means\n"
	"                         (assumes roughly normal samples; decides with 3 a side)\n"
	"  --settings             compare the settings inside one result (first = baseline)\n"
	"  --markdown             print a Markdown table\n"
	"  --json                 print JSON (format \"starve-compare\")\n\n"
	"exit status: 0 no regression, 1 a regression, 2 bad input or usage.\n";

enum compare_format { FORMAT_TEXT, FORMAT_MARKDOWN, FORMAT_JSON };

struct compare_args {
	enum compare_format format;
	bool settings;
	struct cmp_options opt;
	struct cmp_threshold thresholds[64];
	const char *labels[64];
	size_t n_labels;
	char **files;		/* the operands (cmd_parse_options) */
	int n_files;
};

static int compare_option(int c, char *arg, void *data)
{
	struct compare_args *a = data;
	struct cmp_threshold th;
	char *end;

	switch (c) {
	case 'l':
		if (a->n_labels == sizeof(a->labels) / sizeof(a->labels[0]))
			return error("too many --label options");
		a->labels[a->n_labels++] = arg;
		return 0;
	case 't':
		if (cmp_parse_threshold(arg, &th) < 0)
			return -1;
		if (!th.metric)
			a->opt.threshold = th.pct;
		else if (a->opt.n_thresholds == sizeof(a->thresholds) / sizeof(a->thresholds[0]))
			return error("too many --threshold options");
		else
			a->thresholds[a->opt.n_thresholds++] = th;
		return 0;
	case 'a':
		errno = 0;
		a->opt.alpha = strtod(arg, &end);
		if (errno || end == arg || *end || !(a->opt.alpha > 0 && a->opt.alpha < 1))
			return error("--alpha: '%s' is not a probability between 0 and 1", arg);
		return 0;
	case 'T':
		if (cmp_parse_test(arg) < 0)
			return error("--test: '%s' is not a test (mwu or welch)", arg);
		a->opt.test = (enum cmp_test)cmp_parse_test(arg);
		return 0;
	case 's':
		a->settings = true;
		return 0;
	case 'm':
		a->format = FORMAT_MARKDOWN;
		return 0;
	case 'j':
		a->format = FORMAT_JSON;
		return 0;
	default:
		return error("see 'starve compare --help'");
	}
}

static int compare_parse(int argc, char **argv, struct compare_args *a)
{
	static const struct option longopts[] = {
		{ "label", required_argument, NULL, 'l' },
		{ "threshold", required_argument, NULL, 't' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "test", required_argument, NULL, 'T' },
		{ "settings", no_argument, NULL, 's' },
		{ "markdown", no_argument, NULL, 'm' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};

	a->opt.alpha = CMP_DEFAULT_ALPHA;
	a->opt.threshold = CMP_DEFAULT_THRESHOLD;
	a->opt.thresholds = a->thresholds;
	if (cmd_parse_options(argc, argv, "", longopts, compare_option, a, &a->files,
			      &a->n_files) < 0)
		return -1;
	if (a->settings && a->n_files != 1)
		return error("--settings compares the settings of one result: give one file");
	if (!a->settings && a->n_files < 2)
		return error("give at least two results to compare (or --settings RESULT.json); "
			     "see 'starve compare --help'");
	if (a->n_labels > (size_t)a->n_files)
		return error("%zu --label options for %d results", a->n_labels, a->n_files);
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

static int run_compare(int argc, char **argv)
{
	struct compare_args a = { 0 };
	struct cmp_table t;
	struct result_view **views;
	const char *labels[64] = { NULL };
	size_t n;
	int ret;

	if (cmd_wants_help(argc, argv)) {
		cmd_usage(&cmd_compare, compare_options);
		return EXIT_PASS;
	}
	if (compare_parse(argc, argv, &a) < 0) {
		free(a.files);
		return EXIT_USAGE;
	}
	n = (size_t)a.n_files;
	views = calloc(n, sizeof(*views));
	if (!views)
		die(EXIT_RUNTIME, "out of memory");
	if (compare_load(a.files, n, views) < 0) {
		free(views);
		free(a.files);
		return EXIT_USAGE;
	}
	memcpy(labels, a.labels, a.n_labels * sizeof(*labels));
	if (a.settings)
		ret = cmp_build_settings(&t, views[0], &a.opt);
	else
		ret = n > 64 ? error("too many results (at most 64)") :
		      cmp_build_results(&t, (const struct result_view *const *)views, labels, n,
					&a.opt);
	if (ret == 0) {
		compare_print(&t, a.format);
		ret = cmp_exit_status(&t);
		cmp_free(&t);
	} else {
		ret = EXIT_USAGE;
	}
	for (size_t i = 0; i < n; i++)
		rv_free(views[i]);
	free(views);
	free(a.files);
	return ret;
}
