/* Debian kernel packages for `starve vm --kernel`: the short aliases
 * (6.1-cloud, 6.12-rt...), package names fetched once with `apt-get download`
 * into a cache outside any source tree, and unpacking a linux-image-*.deb's
 * /boot (vmlinuz-RELEASE, config-RELEASE) with dpkg-deb. */
#ifndef STARVE_VM_DEBIAN_H
#define STARVE_VM_DEBIAN_H

#include <stdbool.h>
#include <stddef.h>

/* The metapackage a short alias stands for ("6.12-rt" ->
 * "linux-image-6.12-rt-amd64"); NULL when NAME is not an alias. */
const char *vm_debian_alias(const char *name);
/* The aliases, space-separated, for messages and --help. */
const char *vm_debian_alias_names(void);
/* True when NAME is an alias or a linux-image-* package name. */
bool vm_debian_is_package_name(const char *name);

/* The download cache: $STARVE_KERNEL_CACHE, else $XDG_CACHE_HOME/starve/kernels,
 * else ~/.cache/starve/kernels. */
const char *vm_cache_dir(char *buf, size_t len);

/* Fetch NAME (an alias or package; a metapackage resolves to the kernel
 * package it depends on) into CACHE/<package>/boot/ unless it is there
 * already. PACKAGE receives the package's name, BOOT the directory holding
 * vmlinuz-* and config-*. -1 with WHY when apt cannot find or fetch it. */
int vm_debian_fetch(const char *name, const char *cache, char *package, size_t package_len,
		    char *boot, size_t boot_len, char *why, size_t why_len);

/* Unpack the /boot of the package file DEB into DIR (DIR/boot/). -1 with WHY. */
int vm_debian_unpack(const char *deb, const char *dir, char *why, size_t why_len);

/* The one vmlinuz-* in BOOT into IMAGE; -1 with WHY when there is none. */
int vm_debian_boot_image(const char *boot, char *image, size_t len, char *why, size_t why_len);

#endif
