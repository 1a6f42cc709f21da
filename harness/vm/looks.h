/* starve vm --until-decided (doc/ci-gating.md, "Repetitions until
 * decided"): after every kernel's first boot, boot the first kernel again
 * and then each kernel still undecided against it, until every one is
 * decided, --max-repeat runs a kernel are reached or --budget is spent. The
 * looks themselves (when to stop, alpha spent over the planned looks) are
 * reports/compare/compare-looks.h's, shared with starve bisect and compare. */
#ifndef STARVE_VM_LOOKS_H
#define STARVE_VM_LOOKS_H

#include <stddef.h>

/* Boot kernel I into its directory of look LOOK (vm_look_dir); < 0 stops. */
typedef int vm_look_boot_fn(void *data, size_t i, size_t look);

struct vm_looks {
	const char *dir;			/* starve vm's output directory */
	const char *const *labels;		/* each kernel's, [0] the baseline */
	size_t n;				/* kernels, the baseline included */
	size_t max_repeat;
	long long budget_ns;			/* 0: none */
	int undecided;				/* the exit status of an undecided kernel */
	vm_look_boot_fn *boot;
	void *data;
};

/* DIR/<label> for look 1, DIR/<label>-look<L> for the later ones. */
void vm_look_dir(const char *dir, const char *label, size_t look, char *buf, size_t len);

/* The looks after the first, and what they decided, printed with the runs
 * each kernel took. Returns the exit status: 1 when a kernel regressed (or
 * a verdict flipped to fail), 3 when one has no result, UNDECIDED (4, or
 * what --strict / --allow-undecided say) when one is undecided, 0
 * when every kernel is decided the same. */
int vm_looks_run(const struct vm_looks *l);

#endif
