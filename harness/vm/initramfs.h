/* The guest's initramfs, built by starve itself for each kernel: busybox,
 * the running starve binary and every shared library ldd names for them,
 * the /init script (init.sh, compiled into starve), the
 * profiles and the `starve run` options, the kernel's config as
 * /boot/config-RELEASE. Uncompressed, so the kernel needs no decompressor
 * for it; nothing is downloaded. */
#ifndef STARVE_VM_INITRAMFS_H
#define STARVE_VM_INITRAMFS_H

#include <stddef.h>

struct vm_initramfs {
	const char *busybox;		/* vm_find_busybox() */
	const char *config;		/* the kernel's config, or NULL */
	const char *release;		/* its name in /boot/config-RELEASE */
	const char *const *profiles;	/* profile files, and their names in the guest */
	const char *const *profile_names;
	size_t n_profiles;
	char *const *run_args;		/* options for `starve run` in the guest */
	size_t n_run_args;
	const char *guest_script;	/* --guest-script, or NULL */
};

/* A busybox the guest can use into BUF: $STARVE_VM_BUSYBOX, else busybox in
 * PATH, /bin or /usr/bin. NULL when there is none. */
const char *vm_find_busybox(char *buf, size_t len);

/* Write the initramfs for S to PATH. -1 with WHY. */
int vm_initramfs_build(const char *path, const struct vm_initramfs *s, char *why, size_t why_len);

#endif
