/* What `starve vm` does with the results a guest sent back: each
 * result.json gets a "vm" header (the kernel image and its digest, the qemu
 * command line, the accelerator and why), each kernel's verdicts are printed
 * as `starve run` prints them, and at the end each profile's results are
 * compared across kernels with the first as baseline, as `starve compare`
 * prints them, into DIR/compare-<profile>.txt, .json, .xml, .md and .html
 * (every format compare prints, reports/formats.h). */
#ifndef STARVE_VM_SUMMARY_H
#define STARVE_VM_SUMMARY_H

#include "harness/vm/image.h"
#include "harness/vm/qemu.h"
#include "harness/vm/vm.h"

#include <stdbool.h>
#include <stddef.h>

/* What is known of a boot besides the kernel, for the "vm" header. */
struct vm_boot_facts {
	const struct vm_options *o;
	const struct vm_boot *boot;
	const char *accel;		/* "tcg" or "kvm" */
	const char *accel_reason;
};

/* Add the "vm" header to PROFILE's result at PATH (rewritten in place) and
 * print its verdict table. Returns its verdicts' exit status (0, 1 or 4),
 * or -1 with an error printed. */
int vm_summary_result(const char *path, const char *profile, const struct vm_kernel *k,
		      const struct vm_boot_facts *f);

/* Compare the results of PROFILE across the N kernels whose directories are
 * DIR/<label>/ (kernels without a result are left out, and said so).
 * Returns the comparison's exit status (1 a regression, 0 none, and for an
 * undecided one, or fewer than two kernels with a result, what UNDECIDED,
 * an enum cmp_undecided, says: 4, 1 or 0), -1 on an error (printed). */
int vm_summary_compare(const char *dir, const struct vm_kernel *k, size_t n, const char *profile,
		       int undecided);

#endif
