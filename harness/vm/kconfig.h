/* What a kernel config must build in for `starve vm` (doc/kernels.md,
 * "What a kernel needs"): options without which the guest cannot boot into
 * starve or talk to the host, and options without which starve measures
 * less. Options built as modules count as missing: the initramfs has none. */
#ifndef STARVE_VM_KCONFIG_H
#define STARVE_VM_KCONFIG_H

#include <stddef.h>

struct vm_kconfig_report {
	char missing[768];	/* "CONFIG_X (what for), ...": the guest cannot work */
	char degraded[768];	/* the same for what starve loses; "" when nothing */
};

/* Check the config at PATH. Returns 0 (report filled; both may be empty),
 * or -1 with WHY when PATH cannot be read or is no kernel config. */
int vm_kconfig_check(const char *path, struct vm_kconfig_report *r, char *why, size_t why_len);

#endif
