/* starve vm: run profiles inside other kernels under qemu and compare them
 * (doc/kernels.md). This file reads the command line and checks everything
 * it can on the host before anything boots (kernels, labels, profiles and
 * the run options, with `starve run`'s own rows); harness/vm/ does the rest. */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "harness/cmd/run-options.h"
#include "harness/profile/profile.h"
#include "harness/vm/accel.h"
#include "harness/vm/debian.h"
#include "harness/vm/image.h"
#include "harness/vm/vm.h"
#include "lib/error.h"
#include "lib/xalloc.h"
#include "lib/timeutil.h"
#include "reports/compare/compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int run_vm(int argc, char **argv);

struct vm_args {
	struct cmd_words kernels, labels, configs;
	const char *output, *memory, *append, *guest_script;
	int64_t cpus, accel, timeout_ns;	/* timeout 0: from the profiles */
	bool quiet, own_clocksource, until_decided;
	struct cmd_undecided undecided;	/* what an undecided comparison exits with */
	enum cmp_undecided policy;
	int64_t max_repeat, budget_ns;	/* --until-decided */
	struct run_opts run;	/* handed to starve run in each guest */
};

enum { VM_SPEC_CPUS, VM_SPEC_ACCEL, VM_SPEC_TIMEOUT, VM_SPEC_MAX_REPEAT, VM_SPEC_BUDGET };
static const struct opt_spec vm_specs[] = {
	[VM_SPEC_CPUS] = { "cpus", OPT_INT, NULL, 1, 64, "2", "virtual CPUs", NULL },
	[VM_SPEC_ACCEL] = { "accel", OPT_ENUM, NULL, 0, 0, "auto", "accelerator", vm_accel_names },
	[VM_SPEC_TIMEOUT] = { "timeout", OPT_DURATION, "ns", 1e9, 86400e9, NULL, "time limit",
			      NULL },
	[VM_SPEC_MAX_REPEAT] = { "max-repeat", OPT_INT, NULL, 1, 1000, "10", "runs a kernel at most",
				 NULL },
	[VM_SPEC_BUDGET] = { "budget", OPT_DURATION, "ns", 1e9, 30 * 86400e9, NULL,
			     "time limit of the added looks", NULL },
};

static const struct cmd_option vm_options[] = {
	CMD_LIST("kernel", "IMAGE", struct vm_args, kernels,
		 "a kernel to boot (repeat for more; the first is the baseline): a bzImage or "
		 "vmlinuz file, a kernel tree after make, TREE@REV (built by starve build), a "
		 "linux-image-*.deb, a Debian package "
		 "name, or 6.1, 6.1-cloud, 6.1-rt, 6.12, 6.12-cloud, 6.12-rt",
		 .required = true),
	CMD_LIST("label", "NAME", struct vm_args, labels,
		 "name of the kernel at the same place among --kernel (default: its release, "
		 "made unique)"),
	CMD_LIST("kernel-config", "FILE", struct vm_args, configs,
		 "config of the kernel at the same place (default: config-* beside the image, "
		 "the tree's .config, the package's)"),
	CMD_INT("cpus", "N", &vm_specs[VM_SPEC_CPUS], struct vm_args, cpus,
		"virtual CPUs of the guest, one package of N cores"),
	CMD_STRING("memory", "SIZE", struct vm_args, memory, "memory of the guest (default 1G)"),
	CMD_STRING("append", "CMDLINE", struct vm_args, append,
		   "more kernel command line, e.g. \"preempt=full threadirqs\""),
	CMD_INT("accel", NULL, &vm_specs[VM_SPEC_ACCEL], struct vm_args, accel,
		"auto: KVM when it boots the guest, else TCG (and say why)"),
	CMD_FLAG("own-clocksource", struct vm_args, own_clocksource,
		 "under TCG, let each kernel pick its clock source (default: clocksource=tsc "
		 "tsc=reliable for all, so clock-polling loads compare)"),
	CMD_INT("timeout", "T", &vm_specs[VM_SPEC_TIMEOUT], struct vm_args, timeout_ns,
		"limit per kernel (default 2 min plus 3 times the profiles' run time)"),
	CMD_FLAG("until-decided", struct vm_args, until_decided,
		 "boot the first kernel again and then each kernel still undecided against "
		 "it, in turn, until each is decided (a regression, or every gated row "
		 "equivalent or improved) or the budget is spent; alpha is spent over the "
		 "planned looks"),
	CMD_UNDECIDED_OPTIONS(struct vm_args, undecided),
	CMD_INT("max-repeat", "N", &vm_specs[VM_SPEC_MAX_REPEAT], struct vm_args, max_repeat,
		"--until-decided: runs a kernel at most (default 10)"),
	CMD_INT("budget", "T", &vm_specs[VM_SPEC_BUDGET], struct vm_args, budget_ns,
		"--until-decided: time limit of the added looks (default none)"),
	CMD_STRING("guest-script", "FILE", struct vm_args, guest_script,
		   "a shell script the guest runs after the profiles; what it writes in "
		   "$STARVE_VM_OUT comes back in DIR/<label>/script/"),
	CMD_STRING("output", "DIR", struct vm_args, output,
		   "write each kernel's results to DIR/<label>/ (default ./results/vm-<UTC time>/)",
		   .short_name = 'o'),
	CMD_FLAG("quiet", struct vm_args, quiet, "no progress line", .short_name = 'q'),
	CMD_RUN_OPTIONS(struct vm_args, run),
	CMD_END
};

const struct cmd cmd_vm = {
	.name = "vm", .operands = "PROFILE.yaml...",
	.summary = "run profiles inside other kernels under qemu and compare them",
	.options = vm_options, .run = run_vm,
	.notes = "Each kernel boots in turn with an initramfs holding this starve; inside,\n"
		 "`starve run` runs each profile with the run options. Back on the host:\n"
		 "DIR/<label>/ with each result, the console log, dmesg and starve env, then\n"
		 "the comparison with the first kernel as baseline (DIR/compare-*).\n"
		 "Packages are cached in $STARVE_KERNEL_CACHE (~/.cache/starve/kernels).\n\n"
		 "exit status, with two kernels or more: the comparison's: 0 no regression\n"
		 "(every gated row equivalent or improved), 1 a regression or a verdict that\n"
		 "flips to fail (a closing summary says which kernels failed their own\n"
		 "expectations), 4 undecided (1 with --strict, 0 with --allow-undecided);\n"
		 "with one: its verdicts', 0 pass, 1 a verdict failed, 4 no verdict. 2 usage\n"
		 "or profile error, 3 a kernel could not be tested or its starve failed (the\n"
		 "others still run).\n",
};

#define VM_MAX_PROFILES 32

/* The profiles as the guest gets them: files, unique names, run time. */
struct vm_profiles {
	char *files[VM_MAX_PROFILES];
	char *names[VM_MAX_PROFILES];
	size_t n;
	int64_t planned_ns;
};

/* "1G", "512M", "1048576K", "2147483648": what qemu's -m takes. */
static bool vm_memory_valid(const char *size)
{
	size_t digits = strspn(size, "0123456789");

	return digits && (!size[digits] || (strchr("KMGT", size[digits]) && !size[digits + 1]));
}

/* Everything about the kernels a user can get wrong, before anything runs. */
static int vm_check_args(struct vm_args *a)
{
	char why[512];

	if (cmp_parse_undecided(a->undecided.strict, a->undecided.allow, &a->policy) < 0)
		return -1;
	if (a->kernels.n > VM_MAX_KERNELS)
		return cmd_usage_error(&cmd_vm, "at most %d kernels", VM_MAX_KERNELS);
	if (a->labels.n > a->kernels.n)
		return cmd_usage_error(&cmd_vm, "%zu --label for %zu --kernel", a->labels.n,
				       a->kernels.n);
	if (a->until_decided && a->kernels.n < 2)
		return cmd_usage_error(&cmd_vm, "--until-decided compares kernels: give two or more");
	if (a->configs.n > a->kernels.n)
		return cmd_usage_error(&cmd_vm, "%zu --kernel-config for %zu --kernel", a->configs.n,
				       a->kernels.n);
	for (size_t i = 0; i < a->kernels.n; i++)
		if (vm_image_check_spec(a->kernels.v[i], why, sizeof(why)) < 0)
			return error("%s", why);
	for (size_t i = 0; i < a->configs.n; i++)
		if (access(a->configs.v[i], R_OK) < 0)
			return error_errno("--kernel-config %s", a->configs.v[i]);
	if (a->guest_script && access(a->guest_script, R_OK) < 0)
		return error_errno("--guest-script %s", a->guest_script);
	if (a->memory && !vm_memory_valid(a->memory))
		return cmd_usage_error(&cmd_vm, "--memory %s: a size like 1G, 512M or 1048576K",
				       a->memory);
	/* the guest reads the run options one a line */
	if ((a->run.only && strchr(a->run.only, '\n')) || (a->run.formats && strchr(a->run.formats, '\n')) ||
	    (a->run.report.kcidb_build_id && strchr(a->run.report.kcidb_build_id, '\n')))
		return cmd_usage_error(&cmd_vm, "a run option holds a newline");
	/* one build for several kernels would file every kernel's tests under it */
	if (a->run.report.kcidb_build_id && a->kernels.n > 1)
		return cmd_usage_error(&cmd_vm, "--kcidb-build-id names one kernel's build: give one "
				       "--kernel with it, or leave it out for a stub per kernel");
	if (run_opts_check(&a->run) < 0)
		return -1;
	return vm_image_check_labels((const char *const *)a->labels.v, a->labels.n);
}

/* NAME, or NAME-2, NAME-3... when an earlier profile has it. */
static char *vm_unique_name(const struct vm_profiles *pr, const char *name)
{
	char *out = NULL;

	for (unsigned dup = 1;; dup++) {
		size_t i = 0;

		free(out);
		out = dup == 1 ? xstrdup(name) : xasprintf("%s-%u", name, dup);
		while (i < pr->n && strcmp(pr->names[i], out))
			i++;
		if (i == pr->n)
			return out;
	}
}

/* Each profile parsed and checked with the run options, as starve run in
 * the guest will: a mistake is a usage error here, before any boot. */
static int vm_load_profiles(const struct cmd_words *ops, const struct run_opts *run,
			    struct vm_profiles *pr)
{
	if (!ops->n)
		return cmd_usage_error(&cmd_vm, "no profile given");
	if (ops->n > VM_MAX_PROFILES)
		return cmd_usage_error(&cmd_vm, "at most %d profiles", VM_MAX_PROFILES);
	for (size_t i = 0; i < ops->n; i++) {
		unsigned n_errors = 0;
		struct profile *p = profile_load(ops->v[i], &n_errors);

		if (!p)
			return -1;
		if (run_opts_apply(p, run) < 0) {
			profile_free(p);
			return -1;
		}
		pr->planned_ns += run_opts_planned_ns(p, run);
		pr->names[pr->n] = vm_unique_name(pr, p->name);
		pr->files[pr->n++] = xstrdup(p->file);
		profile_free(p);
	}
	return 0;
}

static void vm_profiles_free(struct vm_profiles *pr)
{
	for (size_t i = 0; i < pr->n; i++) {
		free(pr->files[i]);
		free(pr->names[i]);
	}
}

static int vm_start(const struct vm_args *a, const struct vm_profiles *pr, int argc, char **argv)
{
	char *words[RUN_OPTS_MAX_WORDS], buf[4096];
	struct vm_options o = {
		.kernels = (const char *const *)a->kernels.v, .n_kernels = a->kernels.n,
		.labels = (const char *const *)a->labels.v, .n_labels = a->labels.n,
		.configs = (const char *const *)a->configs.v, .n_configs = a->configs.n,
		.profiles = (const char *const *)pr->files,
		.profile_names = (const char *const *)pr->names, .n_profiles = pr->n,
		.run_args = words, .n_run_args = run_opts_words(&a->run, words, buf, sizeof(buf)),
		.output = a->output, .cpus = (int)a->cpus,
		.memory = a->memory ? a->memory : "1G", .append = a->append,
		.accel = (enum vm_accel)a->accel,
		.timeout_ns = a->timeout_ns ? a->timeout_ns : vm_default_timeout_ns(pr->planned_ns),
		.own_clocksource = a->own_clocksource,
		.until_decided = a->until_decided, .max_repeat = (size_t)a->max_repeat,
		.budget_ns = a->budget_ns, .undecided = (int)a->policy,
		.guest_script = a->guest_script, .quiet = a->quiet, .argc = argc, .argv = argv,
	};

	return vm_run(&o);
}

static int run_vm(int argc, char **argv)
{
	struct vm_args a = { .cpus = 2, .accel = VM_ACCEL_AUTO, .max_repeat = 10,
			      .run = RUN_OPTS_INIT };
	struct vm_profiles pr = { .n = 0 };
	struct cmd_words ops;
	int status;

	if (!cmd_parse(&cmd_vm, argc, argv, &a, &ops, &status))
		return status;
	if (vm_check_args(&a) < 0 || vm_load_profiles(&ops, &a.run, &pr) < 0)
		status = EXIT_USAGE;
	else
		status = vm_start(&a, &pr, argc, argv);
	vm_profiles_free(&pr);
	cmd_release(&cmd_vm, &a, &ops);
	return status;
}
