/* starve bisect: find the first of an ordered list of kernels whose results
 * differ from the first's, booting each through `starve vm` (harness/vm),
 * about log2(N) of them; or, with --git-step, test one fresh image against
 * a stored baseline for `git bisect run`. This file reads the command line
 * and boots a kernel; harness/bisect/ orders the kernels, judges and
 * searches (doc/ci-gating.md, "Bisecting"). */
#include "config.h"
#include "harness/bisect/bisect.h"
#include "harness/cmd/cmd.h"
#include "harness/vm/vm.h"
#include "lib/error.h"
#include "lib/fsutil.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int run_bisect(int argc, char **argv);

/* git bisect run stops at an exit status of 128 or more: what a usage
 * error of --git-step is, since 2 would mark the commit bad. */
#define BISECT_GIT_ABORT 128

struct bisect_args {
	struct cmd_words kernels;
	const char *output, *resume, *metric, *alpha, *baseline, *git, *good, *bad;
	bool regression, git_step, list;
	bool until_decided, once;
	int64_t max_repeat, budget_ns;
};

enum { BISECT_SPEC_MAX_REPEAT, BISECT_SPEC_BUDGET };
static const struct opt_spec bisect_specs[] = {
	[BISECT_SPEC_MAX_REPEAT] = { "max-repeat", OPT_INT, NULL, 1, 1000, "10",
				     "runs a side at most", NULL },
	[BISECT_SPEC_BUDGET] = { "budget", OPT_DURATION, "ns", 1e9, 30 * 86400e9, NULL,
				 "time limit of a kernel's looks", NULL },
};

static const struct cmd_option bisect_options[] = {
	CMD_LIST("kernel", "K", struct bisect_args, kernels,
		 "the kernels in order, the good one first: --kernel forms of starve vm "
		 "(repeat), one directory of images (version order), or a Debian range "
		 "linux-image-A..linux-image-B"),
	CMD_STRING("git", "TREE", struct bisect_args, git,
		   "bisect the commits of this kernel tree from --good to --bad (first parents), "
		   "each built by starve build; a commit that does not build is skipped"),
	CMD_STRING("good", "REV", struct bisect_args, good, "--git: the good commit"),
	CMD_STRING("bad", "REV", struct bisect_args, bad, "--git: the bad commit"),
	CMD_FLAG("regression", struct bisect_args, regression,
		 "bad: a gated regression or a confirmed verdict flip against the first "
		 "kernel (the default)"),
	CMD_STRING("metric", "LOAD.METRIC", struct bisect_args, metric,
		   "bad: a significant change of this metric either way"),
	CMD_FLAG("until-decided", struct bisect_args, until_decided,
		 "the default: boot an undecided kernel and the first again, in turn, until "
		 "it is decided (a regression, or every gated row equivalent) or the budget is "
		 "spent, then skip it; alpha is spent over the planned looks"),
	CMD_FLAG("once", struct bisect_args, once,
		 "judge each kernel on its first boot only: an undecided one is skipped"),
	CMD_INT("max-repeat", "N", &bisect_specs[BISECT_SPEC_MAX_REPEAT], struct bisect_args,
		max_repeat, "runs a side at most before an undecided kernel is skipped "
		"(default 10)"),
	CMD_INT("budget", "T", &bisect_specs[BISECT_SPEC_BUDGET], struct bisect_args, budget_ns,
		"time limit of one kernel's added looks (default none)"),
	CMD_STRING("alpha", "A", struct bisect_args, alpha,
		   "error rate of each step's comparison (0.05; Holm over the gated rows)"),
	CMD_STRING("output", "DIR", struct bisect_args, output,
		   "each kernel's results in DIR/kNN/, the log in DIR/bisect.log (default "
		   "./results/bisect-<UTC time>/)", .short_name = 'o'),
	CMD_STRING("resume", "DIR", struct bisect_args, resume,
		   "continue the search logged in DIR (its command line; finished steps "
		   "are not run again)"),
	CMD_FLAG("list", struct bisect_args, list,
		 "print the kernels in the order they would be bisected, and boot none"),
	CMD_FLAG("git-step", struct bisect_args, git_step,
		 "for git bisect run: test the one --kernel against --baseline; exit 0 "
		 "equivalent, 1 bad, 125 untestable or undecided"),
	CMD_STRING("baseline", "DIR", struct bisect_args, baseline,
		   "--git-step: the good results (a result.json, or a directory of starve vm "
		   "or bisect results)"),
	CMD_END
};

const struct cmd cmd_bisect = {
	.name = "bisect", .operands = "PROFILE.yaml... [-- VM-OPTIONS]",
	.summary = "find the first kernel whose results differ from the first's",
	.options = bisect_options, .run = run_bisect,
	.notes = "Each kernel boots as `starve vm -q -o DIR/kNN --kernel K VM-OPTIONS\n"
		 "PROFILE...` would boot it (its output in DIR/kNN.log), and its results are\n"
		 "compared with the first kernel's as starve compare does. The ends first, then\n"
		 "the middle of the interval between the last good and the first bad kernel.\n"
		 "\"good\" means equivalent (every gated row shown inside its margin), \"bad\" a\n"
		 "regression; a kernel neither decides is booted again beside the first, up to\n"
		 "--max-repeat runs a side, then skipped like one that cannot be tested, and a\n"
		 "neighbour tried: a step is never guessed.\n\n"
		 "git bisect run sh -c 'make -j\"$(nproc)\" bzImage || exit 125; starve bisect\n"
		 "  --git-step --baseline GOOD-RESULTS --kernel arch/x86/boot/bzImage P.yaml'\n\n"
		 "exit status: 0 the last kernel is equivalent to the first, 1 first bad kernel\n"
		 "found, 2 usage error, 3 the first kernel (or every later one) could not be\n"
		 "tested, 4 undecided: skipped kernels hide the first bad one (the range is\n"
		 "printed). --git-step: 0 equivalent, 1 bad, 125 untestable or undecided (git\n"
		 "skips the commit), 128 usage error.\n",
};

/* What a boot needs besides the kernel: the profiles and starve vm's options. */
struct bisect_vm {
	char *const *profiles;
	size_t n_profiles;
	char *const *vm_args;		/* after "--" */
	size_t n_vm_args;
};

/* Boot KERNEL through starve vm in this process, its output into LOG. */
static int bisect_boot(void *data, const char *kernel, const char *outdir, const char *log)
{
	const struct bisect_vm *vm = data;
	size_t n = 0, cap = 8 + vm->n_vm_args + vm->n_profiles;
	char **argv = xcalloc(cap, sizeof(*argv));
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int out = dup(STDOUT_FILENO), err = dup(STDERR_FILENO), rc;

	if (fd < 0 || out < 0 || err < 0) {
		free(argv);
		return error_errno("cannot write %s", log), EXIT_RUNTIME;
	}
	argv[n++] = (char *)"vm";
	argv[n++] = (char *)"-q";
	argv[n++] = (char *)"-o";
	argv[n++] = (char *)outdir;
	argv[n++] = (char *)"--kernel";
	argv[n++] = (char *)kernel;
	for (size_t i = 0; i < vm->n_vm_args; i++)
		argv[n++] = vm->vm_args[i];
	for (size_t i = 0; i < vm->n_profiles; i++)
		argv[n++] = vm->profiles[i];
	fflush(stdout);
	fflush(stderr);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	close(fd);
	rc = cmd_vm.run((int)n, argv);
	if (vm_last_signal())	/* interrupted: stop, rather than go on to the next kernel */
		rc = -1;
	fflush(stdout);
	fflush(stderr);
	dup2(out, STDOUT_FILENO);
	dup2(err, STDERR_FILENO);
	close(out);
	close(err);
	free(argv);
	return rc;
}

/* --alpha and --metric into RULE; -1 with the error printed. */
static int bisect_rule(const struct bisect_args *a, struct looks_rule *rule, char **metric_copy)
{
	char *end, *dot;

	rule->alpha = 0.05;
	rule->until_decided = !a->once;
	if (a->once && a->until_decided)
		return cmd_usage_error(&cmd_bisect, "--once and --until-decided: choose one");
	rule->max_repeat = (size_t)a->max_repeat;
	rule->budget_ns = a->budget_ns;
	if (a->alpha) {
		errno = 0;
		rule->alpha = strtod(a->alpha, &end);
		if (errno || end == a->alpha || *end || !(rule->alpha > 0 && rule->alpha < 1))
			return cmd_usage_error(&cmd_bisect, "--alpha: '%s' is not a probability "
					       "between 0 and 1", a->alpha);
	}
	if (a->metric && a->regression)
		return cmd_usage_error(&cmd_bisect, "--metric and --regression: choose one");
	if (!a->metric)
		return 0;
	*metric_copy = xstrdup(a->metric);
	dot = strchr(*metric_copy, '.');
	if (!dot || dot == *metric_copy || !dot[1])
		return cmd_usage_error(&cmd_bisect, "--metric %s: want LOAD.METRIC, e.g. "
				       "victim.cpu_share", a->metric);
	*dot = '\0';
	rule->load = *metric_copy;
	rule->metric = dot + 1;
	return 0;
}

/* The default output directory: results/bisect-<UTC time>. */
static char *bisect_default_dir(void)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	return xasprintf("results/bisect-%s", stamp);
}

/* --git-step: boot the one kernel into a directory of its own and judge it. */
static int bisect_git_step(const struct bisect_args *a, struct bisect_vm *vm,
			   const struct looks_rule *rule)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096], log[4200];
	int rc;

	if (!a->baseline || a->kernels.n != 1)
		return cmd_usage_error(&cmd_bisect, "--git-step needs --baseline DIR and one "
				       "--kernel"), BISECT_GIT_ABORT;
	if (a->output)
		snprintf(dir, sizeof(dir), "%s", a->output);
	else
		snprintf(dir, sizeof(dir), "%s/starve-bisect.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if ((a->output && fs_mkdirs(dir) < 0) || (!a->output && !mkdtemp(dir)))
		return error_errno("cannot create '%s'", dir), BISECT_GIT_ABORT;
	snprintf(log, sizeof(log), "%s/vm.log", dir);
	rc = bisect_boot(vm, a->kernels.v[0], dir, log);
	if (rc == EXIT_USAGE || rc < 0)
		return error(rc < 0 ? "interrupted (see %s)" : "starve vm refused the options (see %s)",
			     log), BISECT_GIT_ABORT;
	rc = bisect_git_judge(a->baseline, dir, rule);
	if (rc == BISECT_GIT_SKIP)	/* why it could not be tested is in there */
		printf("starve vm's output: %s\n", log);
	else if (!a->output)
		fs_remove_tree(dir);
	return rc;
}

/* The kernels in order: --git's commits (their subjects in SUBJECTS), or
 * the --kernel words. The count, or -1 with the error printed. */
static int bisect_kernel_list(const struct bisect_args *a, char **kernels, char **subjects)
{
	if (a->git && a->kernels.n)
		return cmd_usage_error(&cmd_bisect, "--git and --kernel: choose one");
	if (!a->git && !a->kernels.n)
		return cmd_usage_error(&cmd_bisect, "no kernels: --kernel K (repeat), or --git "
				       "TREE --good A --bad B");
	if (a->git && (!a->good || !a->bad))
		return cmd_usage_error(&cmd_bisect, "--git needs --good REV and --bad REV");
	if (a->git)
		return bisect_git_commits(a->git, a->good, a->bad, kernels, subjects,
					  BISECT_MAX_KERNELS);
	return bisect_kernels(a->kernels.v, a->kernels.n, kernels, BISECT_MAX_KERNELS);
}

static int bisect_search_with(const struct bisect_args *a, struct bisect_vm *vm,
			      const struct looks_rule *rule, char **args, size_t n_args)
{
	char *kernels[BISECT_MAX_KERNELS], *subjects[BISECT_MAX_KERNELS], *dir = NULL;
	int n = bisect_kernel_list(a, kernels, subjects), rc;
	struct bisect_options o = { .kernels = kernels, .rule = *rule, .boot = bisect_boot,
				    .boot_data = vm, .args = args, .n_args = n_args,
				    .notes = a->git ? subjects : NULL };

	if (n < 0)
		return EXIT_USAGE;
	o.n_kernels = (size_t)n;
	if (a->list) {
		for (size_t i = 0; i < o.n_kernels; i++)
			printf("%s%s%s\n", kernels[i], a->git ? " " : "", a->git ? subjects[i] : "");
		if (a->git)
			bisect_kernels_free(subjects, o.n_kernels);
		bisect_kernels_free(kernels, o.n_kernels);
		return EXIT_PASS;
	}
	o.dir = a->resume ? a->resume : a->output ? a->output : (dir = bisect_default_dir());
	rc = bisect_run(&o);
	bisect_kernels_free(kernels, (size_t)n);
	if (a->git)
		bisect_kernels_free(subjects, (size_t)n);
	free(dir);
	return rc;
}

/* ARGV without its "-- VM-OPTIONS" tail, which goes to VM. */
static int bisect_split(int argc, char **argv, struct bisect_vm *vm)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			vm->vm_args = argv + i + 1;
			vm->n_vm_args = (size_t)(argc - i - 1);
			return i;
		}
	return argc;
}

static int bisect_parse_run(int argc, char **argv, char **log_args, size_t n_log, bool git)
{
	struct bisect_args a = { .max_repeat = 10 };
	struct bisect_vm vm = { 0 };
	struct looks_rule rule = { 0 };
	struct cmd_words ops;
	char *metric = NULL;
	int status, n = bisect_split(argc, argv, &vm);

	if (!cmd_parse(&cmd_bisect, n, argv, &a, &ops, &status))
		return git ? BISECT_GIT_ABORT : status;
	vm.profiles = ops.v;
	vm.n_profiles = ops.n;
	if (bisect_rule(&a, &rule, &metric) < 0)
		status = a.git_step ? BISECT_GIT_ABORT : EXIT_USAGE;
	else if (!ops.n)
		status = cmd_usage_error(&cmd_bisect, "no profile given"),
		status = a.git_step ? BISECT_GIT_ABORT : EXIT_USAGE;
	else if (a.git_step)
		status = bisect_git_step(&a, &vm, &rule);
	else
		status = bisect_search_with(&a, &vm, &rule, log_args, n_log);
	free(metric);
	cmd_release(&cmd_bisect, &a, &ops);
	return status;
}

/* --resume DIR alone: the command line comes from DIR/bisect.log, with
 * --resume DIR added so the search continues there. */
static int bisect_resume(const char *dir)
{
	size_t n = 0;
	char **words = bisect_log_args(dir, &n), **argv;
	int rc;

	if (!words)
		return EXIT_USAGE;
	argv = xcalloc(n + 4, sizeof(*argv));
	argv[0] = (char *)"bisect";
	argv[1] = (char *)"--resume";
	argv[2] = (char *)dir;
	memcpy(argv + 3, words, n * sizeof(*words));
	rc = bisect_parse_run((int)n + 3, argv, words, n, false);
	free(argv);
	bisect_kernels_free(words, n);
	free(words);
	return rc;
}

static int run_bisect(int argc, char **argv)
{
	bool git = false;

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		git |= !strcmp(argv[i], "--git-step");
	if (argc == 3 && !strcmp(argv[1], "--resume"))
		return bisect_resume(argv[2]);
	return bisect_parse_run(argc, argv, argv + 1, (size_t)argc - 1, git);
}
