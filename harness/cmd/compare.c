/* starve compare: compare results across kernels or settings, with
 * significance. This file reads the command line and the files; matching,
 * statistics and printing are in reports/compare*.c. */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "harness/cmd/compare-live.h"
#include "lib/error.h"
#include "lib/textsafe.h"
#include "reports/compare/compare.h"
#include "reports/formats.h"
#include "reports/result/result-view.h"
#include "reports/result/results-dir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run_compare(int argc, char **argv);

#define COMPARE_MAX 64		/* results, labels, thresholds, loads */
#define COMPARE_TOO_FEW "give at least two results to compare (or --settings RESULT.json); " \
			"see 'starve compare --help'"

struct compare_args {
	int format;			/* enum report_format_id, one with a compare printer */
	bool settings;
	struct cmd_words labels, thresholds, loads;
	const char *alpha, *test, *gate, *sort;	/* parsed by compare_parse_values() */
	const char *out[RF_COUNT];	/* --NAME FILE of the formats compare writes besides */
	struct cmp_options opt;
	struct cmp_threshold threshold[COMPARE_MAX];
	char *gate_copy;		/* --gate LOAD,...: split in place */
	const char *gate_loads[COMPARE_MAX];
	struct cmd_words files;
	bool until_decided;		/* the A/B on this kernel: compare-live.h */
	struct cmd_undecided undecided;	/* what an undecided comparison exits with */
	const char *output;
	int64_t max_repeat, budget_ns;
	char *const *run_args;		/* after "--" */
	size_t n_run_args;
};

enum { COMPARE_SPEC_MAX_REPEAT, COMPARE_SPEC_BUDGET };
static const struct opt_spec compare_specs[] = {
	[COMPARE_SPEC_MAX_REPEAT] = { "max-repeat", OPT_INT, NULL, 1, 1000, "10", "runs a side at most",
				      NULL },
	[COMPARE_SPEC_BUDGET] = { "budget", OPT_DURATION, "ns", 1e9, 30 * 86400e9, NULL,
				  "time limit of the added looks", NULL },
};

/* The formats of reports/formats.h that compare prints: --NAME instead of
 * the table (CMP_FLAG), or --NAME FILE besides it (CMP_FILE). */
#define COMPARE_FORMAT_CMP_NONE(ID, NAME, HELP)
#define COMPARE_FORMAT_CMP_FLAG(ID, NAME, HELP) \
	CMD_SET(NAME, struct compare_args, format, RF_##ID, HELP),
#define COMPARE_FORMAT_CMP_FILE(ID, NAME, HELP) \
	CMD_STRING(NAME, "FILE", struct compare_args, out[RF_##ID], HELP),
#define COMPARE_FORMAT(ID, NAME, FILE, WRITE, WRITE_PARAMS, COMPARE, OPTION, HELP, CMP_OPTION, \
		       CMP_HELP) \
	COMPARE_FORMAT_##CMP_OPTION(ID, NAME, CMP_HELP)

static const struct cmd_option compare_options[] = {
	CMD_LIST("label", "L", struct compare_args, labels,
		 "label of the next result (default kernel.release, or the run directory for "
		 "a repeated one)"),
	CMD_LIST("threshold", "METRIC=PCT", struct compare_args, thresholds,
		 "threshold of METRIC in percent, over the profile's 'compare:' one; a bare "
		 "PCT sets the default (5)"),
	CMD_STRING("alpha", "A", struct compare_args, alpha, "significance level (0.05)"),
	CMD_STRING("test", "auto|mwu|welch", struct compare_args, test,
		   "auto (default): Mann-Whitney U where the runs a side can reach alpha, else a "
		   "bootstrap over the runs' windows or events, else Welch's t (on logs) with 2+ "
		   "runs; mwu or welch: that test on the run values for every metric"),
	CMD_STRING("gate", "expect|all|LOAD,...", struct compare_args, gate,
		   "rows that decide the exit status: the loads the expectations name (default, "
		   "unless the profile's 'compare: gate:' says), every load, or these loads"),
	CMD_LIST("load", "NAME", struct compare_args, loads,
		 "show only this load's rows (repeatable)"),
	CMD_STRING("sort", "given|version", struct compare_args, sort,
		   "order of the results: as given (default) or by kernel release, oldest first "
		   "(the first is the baseline)"),
	CMD_FLAG("settings", struct compare_args, settings,
		 "compare the settings inside one result (first = baseline)"),
	CMD_FLAG("until-decided", struct compare_args, until_decided,
		 "operands A.yaml B.yaml: an A/B on this kernel: starve run of A, then B, in "
		 "turn, until the comparison is decided (a regression, or every gated row "
		 "equivalent or improved) or the budget is spent; alpha is spent over the "
		 "planned looks"),
	CMD_UNDECIDED_OPTIONS(struct compare_args, undecided),
	CMD_INT("max-repeat", "N", &compare_specs[COMPARE_SPEC_MAX_REPEAT], struct compare_args,
		max_repeat, "--until-decided: runs a side at most (default 10)"),
	CMD_INT("budget", "T", &compare_specs[COMPARE_SPEC_BUDGET], struct compare_args, budget_ns,
		"--until-decided: time limit of the added looks (default none)"),
	CMD_STRING("output", "DIR", struct compare_args, output,
		   "--until-decided: each look's runs in DIR/a-L and DIR/b-L (default "
		   "./results/ab-<UTC time>/)", .short_name = 'o'),
	REPORT_FORMATS(COMPARE_FORMAT)
	CMD_END
};

const struct cmd cmd_compare = {
	.name = "compare", .operands = "A.json|DIR B.json...",
	.summary = "compare results across kernels or settings, with significance",
	.options = compare_options, .run = run_compare,
	.notes = "The first result (or setting) is the baseline; a directory stands for the\n"
		 "result.json files under it. Runs are matched by setting, load and metric; a\n"
		 "metric's samples are its values in the runs with status ok. An expectation that\n"
		 "passed on the baseline and fails on another result is a regression by itself\n"
		 "(the reverse an improvement), when its metric's test confirms it. A metric's\n"
		 "verdict is 'regression' or 'improvement' when its change is significant\n"
		 "(one-sided, after Holm) and beyond its margin, 'equivalent' when the change\n"
		 "is shown inside the margin (TOST), else 'undecided'. The comparison is NO\n"
		 "REGRESSION only when every gated row is equivalent or improved. With one run\n"
		 "a side the interval is of the two runs and gives no verdict: repeat >= 2\n"
		 "(doc/ci-gating.md).\n\n"
		 "With --until-decided the operands are two profiles, A.yaml B.yaml, and\n"
		 "options after -- are starve run's: an A/B on this kernel (doc/ci-gating.md).\n\n"
		 "exit status: 0 no regression (every gated row equivalent or improved),\n"
		 "1 a gated regression or a verdict that flipped to fail, 2 bad input or\n"
		 "usage, 3 a run of --until-decided failed, 4 undecided (1 with --strict, 0\n"
		 "with --allow-undecided).\n",
};

/* --gate: expect, all, or a comma-separated list of loads. */
static int compare_parse_gate(struct compare_args *a)
{
	char *save = NULL;

	if (!strcmp(a->gate, "expect") || !strcmp(a->gate, "all")) {
		a->opt.gate = *a->gate == 'a' ? CMP_GATE_ALL : CMP_GATE_EXPECT;
		return 0;
	}
	a->gate_copy = strdup(a->gate);
	if (!a->gate_copy)
		return error("out of memory");
	a->opt.gate = CMP_GATE_LOADS;
	a->opt.gate_loads = a->gate_loads;
	for (char *load = strtok_r(a->gate_copy, ",", &save); load; load = strtok_r(NULL, ",", &save))
		if (a->opt.n_gate_loads == COMPARE_MAX)
			return error("--gate: too many loads");
		else
			a->gate_loads[a->opt.n_gate_loads++] = load;
	if (!a->opt.n_gate_loads)
		return error("--gate: want expect, all, or load names separated by commas");
	return 0;
}

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
		return error("--test: '%s' is not a test (auto, mwu or welch)", a->test);
	if (a->sort && strcmp(a->sort, "given") && strcmp(a->sort, "version"))
		return error("--sort: '%s' is not an order (given or version)", a->sort);
	if (a->gate && compare_parse_gate(a) < 0)
		return -1;
	if (a->loads.n > COMPARE_MAX)
		return error("too many --load options");
	a->opt.only_loads = (const char *const *)a->loads.v;
	a->opt.n_only_loads = a->loads.n;
	if (a->test)
		a->opt.test = (enum cmp_test)cmp_parse_test(a->test);
	for (size_t i = 0; i < a->thresholds.n; i++) {
		struct cmp_threshold th;

		if (cmp_parse_threshold(a->thresholds.v[i], &th) < 0)
			return -1;
		if (!th.metric)
			a->opt.threshold = th.pct;
		else if (a->opt.n_thresholds == COMPARE_MAX)
			return error("too many --threshold options");
		else
			a->threshold[a->opt.n_thresholds++] = th;
	}
	return 0;
}

static int compare_check(struct compare_args *a)
{
	if (compare_parse_values(a) < 0 ||
	    cmp_parse_undecided(a->undecided.strict, a->undecided.allow, &a->opt.undecided) < 0)
		return -1;
	if (a->settings && a->files.n != 1)
		return error("--settings compares the settings of one result: give one file");
	if (!a->settings && !a->files.n)
		return error(COMPARE_TOO_FEW);
	if (a->labels.n > COMPARE_MAX)
		return error("too many --label options");
	return 0;
}

/* The text formats through the control-character filter: names in results
 * may hold an ESC. JSON and JUnit escape on their own. */
static void compare_print(const struct cmp_table *t, enum report_format_id format)
{
	FILE *safe = NULL;

	if (format == RF_TABLE || format == RF_MARKDOWN)
		safe = textsafe_open(stdout);
	report_formats[format].compare(t, safe ? safe : stdout);
	if (safe)
		fclose(safe);
}

/* The operands read into R: each a result, or a folder of them
 * (reports/result/results-dir.h: starve vm writes DIR/KERNEL/PROFILE/
 * result.json). A folder without a readable result is refused; one with a
 * result it skipped is compared without it, and said so. 0, or -1 with an
 * error printed. */
static int compare_read(char **operands, size_t n, struct results *r)
{
	for (size_t i = 0; i < n; i++) {
		size_t before = r->n;
		int found = results_add(r, operands[i]);

		if (found < 0)
			return -1;
		if (!found)
			return error("%s: no result.json under this directory", operands[i]);
		if (r->n == before)
			return error("%s: none of its %d results could be read", operands[i], found);
	}
	if (r->skipped)
		warning("comparing %zu of %zu results: %zu skipped", r->n, r->n + r->skipped,
			r->skipped);
	return 0;
}

/* --sort version: by kernel.release (strverscmp: 6.6 before 6.12), stable;
 * each --label goes with its result. */
static void compare_sort(struct result_view **views, const char **labels, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0; j--) {
			const char *a = views[j - 1]->kernel.release, *b = views[j]->kernel.release;
			struct result_view *v = views[j];
			const char *l = labels[j];

			if (strverscmp(a ? a : "", b ? b : "") <= 0)
				break;
			views[j] = views[j - 1], labels[j] = labels[j - 1];
			views[j - 1] = v, labels[j - 1] = l;
		}
}

/* FORMAT's comparison T into the file PATH. */
static int compare_write_file(const struct cmp_table *t, enum report_format_id format,
			      const char *path)
{
	FILE *f = fopen(path, "we");
	int ret;

	if (!f)
		return error_errno("cannot write %s", path);
	ret = report_formats[format].compare(t, f);
	if (fclose(f) != 0 || ret < 0)
		return error_errno("cannot write %s", path);
	return 0;
}

/* Match, test and print N read results; the exit status. */
static int compare_views(const struct compare_args *a, struct result_view **views, size_t n)
{
	const char *labels[RESULTS_MAX] = { NULL };
	struct cmp_table t;
	int ret;

	for (size_t i = 0; i < a->labels.n; i++)
		labels[i] = a->labels.v[i];
	if (a->sort && !strcmp(a->sort, "version"))
		compare_sort(views, labels, n);
	if (a->settings)
		ret = cmp_build_settings(&t, views[0], &a->opt);
	else
		ret = cmp_build_results(&t, (const struct result_view *const *)views, labels, n,
					&a->opt);
	if (ret < 0)
		return EXIT_USAGE;
	compare_print(&t, a->format);
	ret = cmp_exit_status(&t);
	for (int f = 0; f < RF_COUNT; f++)
		if (a->out[f] && compare_write_file(&t, (enum report_format_id)f, a->out[f]) < 0)
			ret = EXIT_RUNTIME;
	cmp_free(&t);
	return ret;
}

/* Read, compare; the exit status. */
static int compare_files(const struct compare_args *a)
{
	struct results r = { .n = 0 };
	int ret = EXIT_USAGE;

	if (compare_read(a->files.v, a->files.n, &r) < 0)
		;
	else if (!a->settings && r.n < 2)
		error(COMPARE_TOO_FEW);
	else if (a->labels.n > r.n)
		error("%zu --label options for %zu results", a->labels.n, r.n);
	else
		ret = compare_views(a, r.v, r.n);
	results_free(&r);
	return ret;
}

/* --until-decided A.yaml B.yaml [-- RUN-OPTIONS]: the A/B on this kernel. */
static int compare_live(const struct compare_args *a)
{
	struct compare_live l = {
		.run_args = a->run_args, .n_run_args = a->n_run_args, .output = a->output,
		.opt = &a->opt, .max_repeat = (size_t)a->max_repeat, .budget_ns = a->budget_ns,
	};

	if (a->files.n != 2 || a->settings)
		return error("--until-decided runs two profiles in turn: give A.yaml B.yaml"),
		       EXIT_USAGE;
	l.profiles[0] = a->files.v[0];
	l.profiles[1] = a->files.v[1];
	return compare_live_run(&l);
}

/* The arguments before "--"; those after it are starve run's (A->run_args). */
static int compare_split(int argc, char **argv, struct compare_args *a)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			a->run_args = argv + i + 1;
			a->n_run_args = (size_t)(argc - i - 1);
			return i;
		}
	return argc;
}

static int run_compare(int argc, char **argv)
{
	struct compare_args a = { .format = RF_TABLE, .max_repeat = 10 };
	int ret, n = compare_split(argc, argv, &a);

	if (!cmd_parse(&cmd_compare, n, argv, &a, &a.files, &ret))
		return ret;
	if (compare_check(&a) < 0)
		ret = EXIT_USAGE;
	else if (n < argc && !a.until_decided)
		ret = error("options after -- are starve run's: only with --until-decided"),
		ret = EXIT_USAGE;
	else
		ret = a.until_decided ? compare_live(&a) : compare_files(&a);
	cmd_release(&cmd_compare, &a, &a.files);
	free(a.gate_copy);
	return ret;
}
