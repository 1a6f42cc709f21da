/* `starve vm`: run profiles inside other kernels under qemu, one kernel
 * after the other, and compare them (doc/kernels.md). harness/cmd/vm.c
 * reads the command line into struct vm_options; vm_run() does the rest:
 * resolve each --kernel (image.c, debian.c), check its config (kconfig.c),
 * build its initramfs (initramfs.c), boot it (qemu.c, accel.c) and take back
 * what the guest sends (channel.c), then print the verdicts and the
 * comparison with the first kernel as baseline. The host is never changed:
 * nothing but qemu and the host tools that fetch packages runs, and qemu
 * dies with starve. */
#ifndef STARVE_VM_H
#define STARVE_VM_H

#include "harness/vm/accel.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VM_MAX_KERNELS 16

struct vm_options {
	const char *const *kernels;	/* --kernel, in order: the first is the baseline */
	size_t n_kernels;
	const char *const *labels;	/* --label, for the first n_labels kernels */
	size_t n_labels;
	const char *const *configs;	/* --kernel-config, for the first n_configs */
	size_t n_configs;
	const char *const *profiles;	/* profile files, checked by the caller */
	const char *const *profile_names;	/* their names, unique */
	size_t n_profiles;
	char *const *run_args;		/* options for `starve run` in the guest */
	size_t n_run_args;
	const char *output;		/* -o DIR; NULL: results/vm-<UTC time> */
	int cpus;
	const char *memory;		/* qemu's -m: "1G" */
	const char *append;		/* more kernel command line, or NULL */
	bool own_clocksource;		/* --own-clocksource: not VM_TCG_CLOCKSOURCE */
	enum vm_accel accel;
	int64_t timeout_ns;		/* per kernel */
	const char *guest_script;	/* or NULL */
	bool quiet;			/* no progress line */
	/* --until-decided: more looks of the kernels still undecided against the
	 * first, up to max_repeat runs a kernel or budget_ns (harness/vm/looks.h) */
	bool until_decided;
	size_t max_repeat;
	int64_t budget_ns;
	int undecided;			/* enum cmp_undecided: --strict, --allow-undecided */
	int argc;			/* the command line, for result.json */
	char **argv;
};

/* Everything `starve vm` does after its command line is read. Returns the
 * exit status: with two kernels or more the comparison's (1 for a
 * regression or a verdict that flips to fail, 4 undecided (or what
 * undecided says), else 0: a kernel failing its own expectations is said in
 * the closing summary); with one, its verdicts' (0 pass, 1 fail, 4 all
 * skipped); 3 when a kernel could not be tested or its starve failed (the
 * others still ran), unless a regression was found. With until_decided, the
 * looks decide it (harness/vm/looks.h: 1 a regression, 4 undecided, 3
 * untested, else 0). */
int vm_run(const struct vm_options *o);

/* A default for --timeout: boot and copying back under TCG, plus three
 * times the profiles' own run time (TCG runs everything slower). */
int64_t vm_default_timeout_ns(int64_t profiles_ns);

/* The signal (SIGINT, SIGTERM, SIGHUP) that stopped the last vm_run, or 0: a
 * caller running it in a loop (starve bisect) stops too. */
int vm_last_signal(void);

#endif
