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

/* Room for a whole .config (a distribution's is about 300 KB). */
#define VM_KCONFIG_MAX (1 << 20)

/* Read the config at PATH into TEXT (LEN bytes, NUL-terminated). 0, or -1
 * with WHY when it cannot be read or has no CONFIG_ line. */
int vm_kconfig_read(const char *path, char *text, size_t len, char *why, size_t why_len);
/* The value of OPTION ("CONFIG_X") in the config TEXT as written after the
 * '=' ("y", "m", "250", "\"str\"") into BUF, or NULL when it is not set. */
const char *vm_kconfig_get(const char *text, const char *option, char *buf, size_t len);

#endif
