/* The kernels `starve vm` boots: what --kernel names (an image file, a
 * linux-image-*.deb, a Debian package or one of the short aliases), resolved
 * to a bzImage with its release, digest and config, and a unique label.
 * Debian packages are fetched and unpacked by debian.c. */
#ifndef STARVE_VM_IMAGE_H
#define STARVE_VM_IMAGE_H

#include "lib/sha256.h"

#include <limits.h>
#include <stddef.h>

enum vm_image_kind {
	VM_IMAGE_FILE,		/* a bzImage/vmlinuz (or a kernel tree holding one) */
	VM_IMAGE_DEB,		/* a linux-image-*.deb file */
	VM_IMAGE_PACKAGE,	/* a package name or alias, fetched with apt-get */
	VM_IMAGE_BUILD,		/* TREE@REV or a git kernel tree: built by starve build */
};

#define VM_LABEL_MAX 120	/* characters of a label, with the NUL */

struct vm_kernel {
	const char *spec;		/* --kernel as given */
	enum vm_image_kind kind;
	char label[VM_LABEL_MAX + 8];		/* directory name and column of the comparison */
	char image[PATH_MAX];		/* the bzImage qemu boots */
	char config[PATH_MAX];		/* its config; "" when none was found */
	const char *config_from;	/* "--kernel-config", "beside the image", ... */
	char package[192];		/* the Debian package; "" for a file */
	char release[128];		/* uname -r, from the image's boot header */
	char version[256];		/* the whole version string of the header */
	char sha256[SHA256_HEX_LEN];	/* of the image */
	char error[1024];		/* why it cannot be booted; "" when it can */
};

/* Where resolution may write: downloads are cached across runs, a .deb is
 * unpacked into the run's own temporary directory. */
struct vm_dirs {
	const char *cache;	/* vm_cache_dir() */
	const char *work;	/* this run's temporary directory */
};

/* A usage check before anything runs: SPEC is an existing file or
 * directory, an alias or a linux-image-* name. -1 with WHY otherwise. */
int vm_image_check_spec(const char *spec, char *why, size_t why_len);

/* Resolve K->spec into K (image, package, release, digest, config; CONFIG
 * from --kernel-config wins when not NULL). Returns 0, or -1 with K->error
 * saying why this kernel cannot be booted (the other kernels still can). */
int vm_image_resolve(struct vm_kernel *k, const char *config, const struct vm_dirs *dirs);

/* Read the x86 boot header of PATH: the release ("6.1.0-57-cloud-amd64")
 * and the whole version string. -1 with WHY when PATH is not a 64-bit x86
 * kernel image (no "HdrS" boot header, an ELF vmlinux, a 32-bit kernel). */
int vm_image_read_header(const char *path, char *release, size_t release_len,
			 char *version, size_t version_len, char *why, size_t why_len);

/* The config of the image at IMAGE whose release is RELEASE, as a kernel
 * developer leaves it: config-RELEASE (or a single config-*) beside the
 * image, or .config at the top of the tree IMAGE was built in
 * (TREE/arch/x86/boot/bzImage). Writes its path into OUT and returns where it
 * came from, or NULL when there is none. */
const char *vm_image_find_config(const char *image, const char *release, char *out, size_t len);

/* The N labels of --label, before anything runs: -1 with an error printed
 * when two are equal or one cannot be a directory name. */
int vm_image_check_labels(const char *const *labels, size_t n);
/* Give each of the N kernels its label: LABELS[i] for the first N_LABELS
 * (checked above), else the release, else the spec's last path component;
 * a label already taken gets "#2", "#3"... */
void vm_image_labels(struct vm_kernel *k, size_t n, const char *const *labels, size_t n_labels);

#endif
