/* `starve vm` from start to end (vm.h): one kernel after the other, each in
 * its own directory DIR/<label>/, then the comparison. A kernel that cannot
 * be tested (no image, a config without serial console, a panic, a hang) is
 * reported with the end of its console and the next kernel runs. */
#include "config.h"
#include "harness/run/signals.h"
#include "harness/vm/debian.h"
#include "harness/vm/exec.h"
#include "harness/vm/initramfs.h"
#include "harness/vm/kconfig.h"
#include "harness/vm/looks.h"
#include "harness/vm/summary.h"
#include "harness/vm/vm.h"
#include "lib/error.h"
#include "lib/xalloc.h"
#include "lib/fsutil.h"
#include "lib/timeutil.h"
#include "reports/compare/compare.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define VM_BOOT_ALLOWANCE_NS (120 * NSEC_PER_SEC)

/* How kernel I fared, for the closing summary. */
struct vm_outcome {
	int own;			/* its own verdicts as one exit status; -1 not tested */
	bool booted;
	double boot_s, first_run_s, lifetime_s;
	size_t knobs_left;		/* profiles that left it changed */
	char left_first[400];		/* the first one's profile, knob and the kernel's reason */
};

struct vm_ctx {
	const struct vm_options *o;
	struct vm_outcome out[VM_MAX_KERNELS];
	char dir[PATH_MAX];		/* the output directory */
	char work[PATH_MAX];		/* temporary: initramfs, serial lines */
	char cache[PATH_MAX];
	char busybox[PATH_MAX];
	struct vm_kernel k[VM_MAX_KERNELS];
	struct vm_progress progress;
	bool kvm_failed;		/* auto: KVM booted nothing earlier in this run */
	size_t look;			/* --until-decided: the look being booted, from 1 */
	char kvm_why[512];
};

int64_t vm_default_timeout_ns(int64_t profiles_ns)
{
	return VM_BOOT_ALLOWANCE_NS + 3 * profiles_ns;
}

/* What the host needs before any kernel: qemu and a busybox for the guest. */
static int vm_check_host(struct vm_ctx *c)
{
	if (!vm_have_command(VM_QEMU))
		return error("starve vm needs %s (apt-get install qemu-system-x86)", VM_QEMU);
	if (!vm_find_busybox(c->busybox, sizeof(c->busybox)))
		return error("starve vm needs busybox for the guest (apt-get install busybox-static, "
			     "or set STARVE_VM_BUSYBOX)");
	return 0;
}

static int vm_make_dirs(struct vm_ctx *c)
{
	const char *tmp = getenv("TMPDIR");
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	if (c->o->output) {
		snprintf(c->dir, sizeof(c->dir), "%s", c->o->output);
	} else {
		gmtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
		snprintf(c->dir, sizeof(c->dir), "results/vm-%s", stamp);
	}
	if (fs_mkdirs(c->dir) < 0)
		return error_errno("cannot create '%s'", c->dir);
	snprintf(c->work, sizeof(c->work), "%s/starve-vm.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(c->work))
		return error_errno("cannot create a temporary directory in %s", tmp ? tmp : "/tmp");
	vm_cache_dir(c->cache, sizeof(c->cache));
	return 0;
}

/* Resolve every --kernel (fetching packages) and name them. */
static void vm_resolve(struct vm_ctx *c)
{
	const struct vm_options *o = c->o;
	struct vm_dirs dirs = { .cache = c->cache, .work = c->work };

	for (size_t i = 0; i < o->n_kernels; i++) {
		c->k[i].spec = o->kernels[i];
		vm_image_resolve(&c->k[i], i < o->n_configs ? o->configs[i] : NULL, &dirs);
	}
	vm_image_labels(c->k, o->n_kernels, o->labels, o->n_labels);
}

/* The console line holding WHAT (e.g. the panic message), or "". */
static const char *vm_console_line(const char *console, const char *what, char *buf, size_t len)
{
	const char *at = strstr(console, what), *start = at;

	buf[0] = '\0';
	if (!at)
		return buf;
	while (start > console && start[-1] != '\n')
		start--;
	snprintf(buf, len, "%.*s", (int)strcspn(start, "\r\n"), start);
	return buf;
}

/* Where the guest was: "starve env", "profile rt-throttle", "its guest script". */
static const char *vm_guest_place(const struct vm_channel *ch, char *buf, size_t len)
{
	if (ch->sending)
		snprintf(buf, len, "sending its files back");
	else if (ch->profile[0])
		snprintf(buf, len, "running %s", ch->profile);
	else
		snprintf(buf, len, "starting (starve env)");
	return buf;
}

/* Why boot B of a guest gave no (whole) result, in one phrase. */
static void vm_boot_failure(const struct vm_boot *b, int64_t timeout_ns, char *why, size_t len)
{
	char panic[256], place[160];
	const struct vm_channel *ch = &b->ch;
	long timeout_s = (long)(timeout_ns / NSEC_PER_SEC);

	vm_console_line(b->console, "Kernel panic", panic, sizeof(panic));
	vm_guest_place(ch, place, sizeof(place));
	if (ch->error[0])
		snprintf(why, len, "the guest's init failed: %.900s", ch->error);
	else if (b->end == VM_END_NOT_STARTED)
		snprintf(why, len, "cannot start %s: %s", VM_QEMU, b->qemu_said);
	else if (b->end == VM_END_INTERRUPTED)
		snprintf(why, len, "interrupted");
	else if (b->end == VM_END_HALTED)
		snprintf(why, len, "the kernel halted while unpacking itself (a damaged image?)");
	else if (panic[0])
		snprintf(why, len, "the kernel panicked %s: %s",
			 ch->hello ? place : "before starve's /init ran", panic + strspn(panic, "[ 0123456789.]"));
	else if (b->end == VM_END_TIMEOUT && !ch->hello)
		snprintf(why, len, "no word from starve's /init within %ld s (--timeout); the kernel "
			 "needs a serial console and initramfs support (doc/kernels.md)", timeout_s);
	else if (b->end == VM_END_TIMEOUT)
		snprintf(why, len, "timed out after %ld s %s (--timeout)", timeout_s, place);
	else if (b->end == VM_END_EXITED && !ch->hello)
		snprintf(why, len, "qemu stopped (status %d) before starve's /init ran%s%s",
			 b->qemu_status, b->qemu_said[0] ? ": " : b->console[0] ? "" :
			 ", with nothing on the console (a damaged image?)", b->qemu_said);
	else if (b->end == VM_END_EXITED)
		snprintf(why, len, "the guest stopped while %s", place);
	else if (ch->files_bad)
		snprintf(why, len, "%zu of the files it sent arrived damaged (the first: %s)",
			 ch->files_bad, ch->first_bad);
	else
		why[0] = '\0';
}

/* Kernel K could not be tested: one line naming it and why, the end of its
 * console under it. Returns -1. */
static int vm_kernel_error(struct vm_ctx *c, const struct vm_kernel *k, const struct vm_boot *b,
			   const char *why)
{
	char tail[2048];

	vm_progress_clear(&c->progress);
	fflush(stdout);		/* in order with what was printed before */
	error("kernel %s: %s", k->label, why);
	if (b && b->console[0])
		fprintf(stderr, "%s  (console: %s/%s/console.log)\n",
			vm_boot_console_tail(b, 6, tail, sizeof(tail)), c->dir, k->label);
	return -1;
}

/* The config check before a boot: -1 (printed) when the kernel cannot run
 * the guest; what starve would lose is a warning. */
static int vm_kernel_config(struct vm_ctx *c, const struct vm_kernel *k)
{
	struct vm_kconfig_report r;
	char why[1024];

	if (!k->config[0]) {
		warning("kernel %s: no config found (--kernel-config FILE): not checked; starve env "
			"in the guest reads /proc/config.gz if the kernel has one", k->label);
		return 0;
	}
	if (vm_kconfig_check(k->config, &r, why, sizeof(why)) < 0)
		return vm_kernel_error(c, k, NULL, why);
	if (r.degraded[0])
		warning("kernel %s: its config (%s) lacks %s: starve measures less", k->label,
			k->config, r.degraded);
	if (!r.missing[0])
		return 0;
	snprintf(why, sizeof(why), "its config (%s, %s) lacks %s", k->config, k->config_from,
		 r.missing);
	return vm_kernel_error(c, k, NULL, why);
}

static int vm_kernel_initramfs(struct vm_ctx *c, const struct vm_kernel *k, size_t i, char *path,
			       size_t len)
{
	const struct vm_options *o = c->o;
	struct vm_initramfs s = {
		.busybox = c->busybox, .config = k->config[0] ? k->config : NULL,
		.release = k->release, .profiles = o->profiles, .profile_names = o->profile_names,
		.n_profiles = o->n_profiles, .run_args = o->run_args, .n_run_args = o->n_run_args,
		.guest_script = o->guest_script,
	};
	char why[1024];

	snprintf(path, len, "%s/initramfs-%zu.cpio", c->work, i);
	if (vm_initramfs_build(path, &s, why, sizeof(why)) < 0)
		return vm_kernel_error(c, k, NULL, why);
	return 0;
}

/* Under auto, KVM failed for G: note why, and from now on use TCG. */
static void vm_kvm_gave_up(struct vm_ctx *c, const struct vm_kernel *k, const struct vm_boot *b)
{
	if (b->end == VM_END_NO_HELLO)
		snprintf(c->kvm_why, sizeof(c->kvm_why), "under KVM the guest did not reach its "
			 "init within %d s", VM_KVM_HELLO_S);
	else
		snprintf(c->kvm_why, sizeof(c->kvm_why), "under KVM qemu stopped before the guest's "
			 "init ran%s%.300s", b->qemu_said[0] ? ": " : "", b->qemu_said);
	c->kvm_failed = true;
	vm_progress_clear(&c->progress);
	warning("kernel %s: %s; booting it under TCG", k->label, c->kvm_why);
}

/* Boot G under the accelerator --accel asks for; under auto, KVM first
 * when it may work, then TCG. WHY receives why the one used was chosen. */
static int vm_kernel_boot(struct vm_ctx *c, size_t i, struct vm_guest *g, struct vm_boot *b,
			  char *why, size_t len)
{
	const struct vm_kernel *k = &c->k[i];

	g->accel = c->o->accel == VM_ACCEL_KVM ? VM_ACCEL_KVM : VM_ACCEL_TCG;
	snprintf(why, len, "--accel %s", vm_accel_name(c->o->accel));
	if (c->o->accel == VM_ACCEL_KVM && vm_kvm_usable(why, len) < 0)
		return vm_kernel_error(c, k, NULL, why);
	if (c->o->accel == VM_ACCEL_AUTO && c->kvm_failed) {
		snprintf(why, len, "%s", c->kvm_why);
	} else if (c->o->accel == VM_ACCEL_AUTO && vm_accel_try_kvm(c->cache, why, len)) {
		g->accel = VM_ACCEL_KVM;
		g->hello_ns = VM_KVM_HELLO_S * NSEC_PER_SEC;
		vm_progress_kernel(&c->progress, i, k->label, "kvm");
		vm_qemu_boot(g, b);
		g->hello_ns = 0;
		snprintf(why, len, "auto: /dev/kvm booted the guest");
		if (b->ch.hello || b->end == VM_END_INTERRUPTED)
			return 0;
		vm_kvm_gave_up(c, k, b);
		g->accel = VM_ACCEL_TCG;
		snprintf(why, len, "%s", c->kvm_why);
		vm_progress_kernel(&c->progress, i, k->label, "tcg");
		vm_qemu_boot(g, b);
		if (b->ch.hello)	/* the kernel is fine: KVM is what fails here */
			vm_accel_remember_kvm_failed(c->cache, c->kvm_why);
		return 0;
	}
	vm_progress_kernel(&c->progress, i, k->label, vm_accel_name(g->accel));
	vm_qemu_boot(g, b);
	return 0;
}

/* Two exit statuses as one, weighed as `starve run` weighs its runs: a
 * failed verdict stands over a runtime error, which stands over "all
 * skipped"; A < 0 means none yet. */
static int vm_exit_combine(int a, int b)
{
	if (a < 0)
		return b;
	if (a == EXIT_VERDICT_FAIL || b == EXIT_VERDICT_FAIL)
		return EXIT_VERDICT_FAIL;
	if ((a != EXIT_PASS && a != EXIT_ALL_SKIPPED) || (b != EXIT_PASS && b != EXIT_ALL_SKIPPED))
		return EXIT_RUNTIME;
	return a == EXIT_ALL_SKIPPED && b == EXIT_ALL_SKIPPED ? EXIT_ALL_SKIPPED : EXIT_PASS;
}

/* Print the result at PATH with its verdicts; its exit status as the
 * result's verdicts say (0, 1, 4), or 3 when it cannot be read or the
 * guest's `starve run` exited GUEST_STATUS 3 (a runtime error). */
static int vm_summary_result_status(const char *path, const char *name,
				    const struct vm_kernel *k, const struct vm_boot_facts *f,
				    int guest_status)
{
	int verdicts = vm_summary_result(path, name, k, f);

	return verdicts < 0 || guest_status == EXIT_RUNTIME ? EXIT_RUNTIME : verdicts;
}

/* Each profile's result and verdicts; returns their statuses as one. */
static int vm_kernel_results(struct vm_ctx *c, const struct vm_kernel *k, const char *outdir,
			     const struct vm_boot_facts *f)
{
	int code = -1;

	for (size_t p = 0; p < c->o->n_profiles; p++) {
		const char *name = c->o->profile_names[p];
		int status = vm_channel_status(&f->boot->ch, name);
		char path[PATH_MAX + 256];

		snprintf(path, sizeof(path), "%s/%s/result.json", outdir, name);
		if (status < 0)
			printf("\n-- %s on %s: no exit status\n", name, k->label);
		else
			printf("\n-- %s on %s: exit %d\n", name, k->label, status);
		fflush(stdout);		/* the error below after the line above */
		if (access(path, R_OK) < 0)
			error("kernel %s: no result of %s (see %s/%s.log)", k->label, name, outdir, name);
		else	/* its verdicts as the result says them; a runtime error stays */
			status = vm_summary_result_status(path, name, k, f, status);
		code = vm_exit_combine(code, status < 0 ? EXIT_RUNTIME : status);
	}
	for (size_t i = 0; i < f->boot->ch.n_left; i++) {
		const struct vm_channel_left *l = &f->boot->ch.left[i];

		if (l->note)
			warning("kernel %s: %s: %s (%s/%s.restore.log)", k->label, l->name, l->why,
				outdir, l->name);
		else
			warning("kernel %s: %s left the kernel changed%s%s (%s/%s.restore.log); the "
				"guest is thrown away, so the next profile ran anyway", k->label,
				l->name, l->why[0] ? ": " : "", l->why, outdir, l->name);
	}
	if (c->o->guest_script && vm_channel_status(&f->boot->ch, "script") != 0)
		warning("kernel %s: the guest script exited %d (see %s/script.log)", k->label,
			vm_channel_status(&f->boot->ch, "script"), outdir);
	return code;
}

/* Test kernel I: its status from vm_exit_combine(), or -1 when it could not
 * be tested at all (the message is printed). */
static int vm_kernel(struct vm_ctx *c, size_t i, bool *interrupted)
{
	const struct vm_options *o = c->o;
	struct vm_kernel *k = &c->k[i];
	char outdir[PATH_MAX + 128], initrd[PATH_MAX + 64], why[1024], accel_why[512];
	struct vm_guest g = { .kernel = k, .initrd = initrd, .outdir = outdir, .workdir = c->work,
			      .cpus = o->cpus, .memory = o->memory, .append = o->append,
			      .own_clocksource = o->own_clocksource,
			      .timeout_ns = o->timeout_ns, .progress = &c->progress };
	struct vm_boot *b;
	int code = -1;

	vm_look_dir(c->dir, k->label, c->look, outdir, sizeof(outdir));
	printf("%s== kernel %zu/%zu: %s (%s)", i || c->look > 1 ? "\n" : "", i + 1, o->n_kernels,
	       k->label, k->spec);
	if (c->look > 1)
		printf(", look %zu", c->look);
	putchar('\n');
	fflush(stdout);
	if (k->error[0])
		return vm_kernel_error(c, k, NULL, k->error);
	if (fs_remove_tree(outdir) < 0 || fs_mkdirs(outdir) < 0)
		return error_errno("cannot create '%s'", outdir);
	if (vm_kernel_config(c, k) < 0 || vm_kernel_initramfs(c, k, i, initrd, sizeof(initrd)) < 0)
		return -1;
	b = xcalloc(1, sizeof(*b));
	if (vm_kernel_boot(c, i, &g, b, accel_why, sizeof(accel_why)) == 0) {
		struct vm_boot_facts f = { .o = o, .boot = b, .accel = vm_accel_name(g.accel),
					   .accel_reason = accel_why };

		vm_progress_clear(&c->progress);
		*interrupted = b->end == VM_END_INTERRUPTED;
		printf("%s, %s (%s): boot %.1f s, first run at %.1f s, %.0f s in all\n", k->release,
		       f.accel, accel_why, b->boot_ns / 1e9, b->first_run_ns / 1e9, b->elapsed_ns / 1e9);
		if (vm_common_clock(&g))
			printf("clock source: booted with %s, as every guest under TCG "
			       "(--own-clocksource: the kernel's own)\n", VM_TCG_CLOCKSOURCE);
		fflush(stdout);
		/* each profile's files come back as it ends: a guest that died
		 * later keeps what it finished */
		if (b->ch.sending || b->ch.files_ok)
			code = vm_kernel_results(c, k, outdir, &f);
		vm_boot_failure(b, o->timeout_ns, why, sizeof(why));
		c->out[i] = (struct vm_outcome){
			.booted = b->ch.hello, .boot_s = b->boot_ns / 1e9,
			.first_run_s = b->first_run_ns / 1e9, .lifetime_s = b->elapsed_ns / 1e9,
		};
		for (size_t l = 0; l < b->ch.n_left; l++)
			if (!b->ch.left[l].note && !c->out[i].knobs_left++)
				snprintf(c->out[i].left_first, sizeof(c->out[i].left_first),
					 "%s: %s", b->ch.left[l].name, b->ch.left[l].why);
		if (why[0]) {
			vm_kernel_error(c, k, b, why);
			code = -1;
		}
	}
	free(b);
	return code;
}

/* Each profile across the kernels, as one exit status: 1 when one
 * regressed, else 4 when one is undecided, else 0; -1 on an error. */
static int vm_compare(struct vm_ctx *c)
{
	int code = EXIT_PASS;

	for (size_t p = 0; p < c->o->n_profiles; p++) {
		int r = vm_summary_compare(c->dir, c->k, c->o->n_kernels, c->o->profile_names[p],
					   c->o->undecided);

		if (r < 0)
			return -1;
		if (r == EXIT_VERDICT_FAIL || (r != EXIT_PASS && code == EXIT_PASS))
			code = r;
	}
	return code;
}

static const char *vm_own_name(int own)
{
	switch (own) {
	case EXIT_PASS:
		return "pass";
	case EXIT_VERDICT_FAIL:
		return "FAIL";
	case EXIT_ALL_SKIPPED:
		return "all skipped";
	case -1:
		return "not tested";
	default:
		return "error";
	}
}

/* The closing summary: each kernel against its own expectations (which
 * the exit status of a comparison does not count), and its times. */
static void vm_print_summary(const struct vm_ctx *c)
{
	printf("\n== kernels against their own expectations\n");
	for (size_t i = 0; i < c->o->n_kernels; i++) {
		const struct vm_outcome *r = &c->out[i];

		printf("%-32s %-11s", c->k[i].label, vm_own_name(r->own));
		if (r->booted)
			printf("  boot %.1f s, first run at %.1f s, %.0f s in all", r->boot_s,
			       r->first_run_s, r->lifetime_s);
		if (r->knobs_left)
			printf(", %zu profile%s left knobs changed (%s%s)", r->knobs_left,
			       r->knobs_left == 1 ? "" : "s", r->knobs_left > 1 ? "first " : "",
			       r->left_first);
		putchar('\n');
	}
}

/* --until-decided: boot kernel I's look LOOK (harness/vm/looks.h). */
static int vm_look_boot(void *data, size_t i, size_t look)
{
	struct vm_ctx *c = data;
	bool interrupted = false;

	c->look = look;
	c->out[i].own = vm_kernel(c, i, &interrupted);
	c->look = 0;
	return interrupted ? -1 : 0;
}

static int vm_until_decided(struct vm_ctx *c)
{
	const char *labels[VM_MAX_KERNELS];
	struct vm_looks l = { .dir = c->dir, .labels = labels, .n = c->o->n_kernels,
			      .max_repeat = c->o->max_repeat, .budget_ns = c->o->budget_ns,
			      .undecided = cmp_undecided_exit((enum cmp_undecided)c->o->undecided),
			      .boot = vm_look_boot, .data = c };

	for (size_t i = 0; i < c->o->n_kernels; i++)
		labels[i] = c->k[i].label;
	return vm_looks_run(&l);
}

/* The exit status: with two kernels or more, the comparison's (1 for a
 * regression or a verdict that flips to fail; a baseline that fails its
 * own expectations is the summary's business), but 3 when a kernel could
 * not be tested or its starve failed, and 4 (or what --strict or
 * --allow-undecided say) when the comparison is undecided: never 0 without
 * the data to show it; with one kernel, its verdicts', as `starve run`. */
static int vm_run_kernels(struct vm_ctx *c)
{
	const struct vm_options *o = c->o;
	bool untested = false, interrupted = false;
	int compared = 0, decided = -1;

	vm_resolve(c);
	for (size_t i = 0; i < o->n_kernels; i++)
		c->out[i].own = -1;	/* until tested */
	for (size_t i = 0; i < o->n_kernels && !interrupted; i++) {
		c->out[i].own = vm_kernel(c, i, &interrupted);
		untested |= c->out[i].own < 0 || c->out[i].own == EXIT_RUNTIME;
	}
	if (o->n_kernels > 1 && !interrupted)
		compared = vm_compare(c);
	if (o->until_decided && o->n_kernels > 1 && !interrupted && compared >= 0)
		decided = vm_until_decided(c);
	vm_print_summary(c);
	printf("\nresults: %s\n", c->dir);
	if (decided == EXIT_VERDICT_FAIL || compared == EXIT_VERDICT_FAIL)
		return EXIT_VERDICT_FAIL;
	if (untested || interrupted || compared < 0)
		return EXIT_RUNTIME;
	if (decided >= 0)	/* the looks decided every kernel, or said why not */
		return decided;
	if (o->n_kernels > 1)
		return compared;
	return c->out[0].own;
}

/* The signal that stopped the last vm_run, for a caller that runs it in a loop. */
static int vm_signal;

int vm_last_signal(void)
{
	return vm_signal;
}

int vm_run(const struct vm_options *o)
{
	struct vm_ctx *c = xcalloc(1, sizeof(*c));
	int code;

	c->o = o;
	if (vm_check_host(c) < 0 || vm_make_dirs(c) < 0) {
		free(c);
		return EXIT_RUNTIME;
	}
	signals_install(NULL);
	vm_progress_init(&c->progress, !o->quiet, o->n_kernels);
	code = vm_run_kernels(c);
	vm_progress_clear(&c->progress);
	vm_signal = signals_caught();
	signals_uninstall();
	if (fs_remove_tree(c->work) < 0)
		warning("cannot remove %s: %s", c->work, strerror(errno));
	free(c);
	return code;
}
