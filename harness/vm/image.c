/* From --kernel to a bootable image (image.h). A file is read for its x86
 * boot header (Documentation/arch/x86/boot.rst): "HdrS" at 0x202, the
 * protocol version at 0x206, the offset of the version string at 0x20e and,
 * from protocol 2.12, XLF_KERNEL_64 in xloadflags at 0x236. */
#include "config.h"
#include "harness/vm/build.h"
#include "harness/vm/build-source.h"
#include "harness/vm/debian.h"
#include "harness/vm/image.h"
#include "lib/error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HDR_SIZE 0x400

static unsigned vm_le16(const unsigned char *p)
{
	return p[0] | (unsigned)p[1] << 8;
}

/* What a file that is not a bzImage is, for the message. */
static const char *vm_image_not_kernel(const unsigned char *h, ssize_t n)
{
	if (n >= 4 && !memcmp(h, "\177ELF", 4))
		return "an ELF file (an uncompressed vmlinux?): boot arch/x86/boot/bzImage instead";
	if (n >= 8 && !memcmp(h, "!<arch>\n", 8))
		return "a Debian package that is not a kernel";
	if (n < 0x210)
		return "too short to be a kernel image";
	return "not an x86 kernel image (no \"HdrS\" boot header)";
}

/* The header's sizes (setup_sects at 0x1f1, syssize in 16-byte units at
 * 0x1f4) against the file's: a copy cut short boots into nothing. */
static bool vm_image_truncated(int fd, const unsigned char *h, char *why, size_t why_len)
{
	unsigned setup = h[0x1f1] ? h[0x1f1] : 4;
	uint64_t want = (uint64_t)(setup + 1) * 512 +
			16 * (uint64_t)(h[0x1f4] | h[0x1f5] << 8 | h[0x1f6] << 16 | (uint32_t)h[0x1f7] << 24);
	struct stat st;

	if (fstat(fd, &st) < 0 || (uint64_t)st.st_size >= want)
		return false;
	error_why(why, why_len, "the kernel image is cut short: %lld bytes, its header says %llu",
		  (long long)st.st_size, (unsigned long long)want);
	return true;
}

int vm_image_read_header(const char *path, char *release, size_t release_len,
			 char *version, size_t version_len, char *why, size_t why_len)
{
	unsigned char h[HDR_SIZE];
	char text[256];
	unsigned proto, at;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return error_why(why, why_len, "cannot read %s: %s", path, strerror(errno));
	n = pread(fd, h, sizeof(h), 0);
	if (n < 0x240 || memcmp(h + 0x202, "HdrS", 4) || vm_le16(h + 0x1fe) != 0xaa55) {
		close(fd);
		return error_why(why, why_len, "%s is %s", path, vm_image_not_kernel(h, n));
	}
	proto = vm_le16(h + 0x206);
	if (vm_image_truncated(fd, h, why, why_len)) {
		close(fd);
		return -1;
	}
	if (proto >= 0x20c && !(h[0x236] & 1)) {
		close(fd);
		return error_why(why, why_len, "%s is a 32-bit kernel; starve in the guest is 64-bit",
				 path);
	}
	at = vm_le16(h + 0x20e) + 0x200;
	n = pread(fd, text, sizeof(text) - 1, at);
	close(fd);
	text[n > 0 ? n : 0] = '\0';
	if (vm_le16(h + 0x20e) == 0 || !text[0])
		return error_why(why, why_len, "%s has no version string in its boot header", path);
	snprintf(version, version_len, "%s", text);
	snprintf(release, release_len, "%.*s", (int)strcspn(text, " "), text);
	return 0;
}

/* config-RELEASE beside IMAGE, or the only config-* there. */
static bool vm_config_beside(const char *dir, const char *release, char *out, size_t len)
{
	struct dirent *e;
	int found = 0;
	DIR *d;

	snprintf(out, len, "%s/config-%s", dir, release);
	if (release[0] && access(out, R_OK) == 0)
		return true;
	if (!(d = opendir(dir)))
		return false;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "config-", 7) && !found++)
			snprintf(out, len, "%s/%s", dir, e->d_name);
	closedir(d);
	return found == 1;
}

const char *vm_image_find_config(const char *image, const char *release, char *out, size_t len)
{
	char dir[PATH_MAX];
	const char *boot;
	char *slash;

	snprintf(dir, sizeof(dir), "%s", image);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	if (vm_config_beside(dir, release, out, len))
		return "beside the image";
	/* TREE/arch/<arch>/boot/IMAGE (also with make O=TREE) */
	boot = strstr(dir, "/arch/") ? strstr(dir, "/arch/") : (!strncmp(dir, "arch/", 5) ? dir : NULL);
	if (boot && !strcmp(dir + strlen(dir) - 5, "/boot")) {
		snprintf(out, len, "%.*s%s.config", (int)(boot - dir), dir, boot == dir ? "" : "/");
		if (access(out, R_OK) == 0)
			return "the kernel tree";
	}
	out[0] = '\0';
	return NULL;
}

int vm_image_check_spec(const char *spec, char *why, size_t why_len)
{
	struct stat st;

	if (stat(spec, &st) == 0 || vm_build_source_wanted(spec))
		return 0;
	if (strchr(spec, '/') || strstr(spec, ".deb") || !vm_debian_is_package_name(spec))
		return error_why(why, why_len, "--kernel %s: no such file, and not a package name "
				 "(linux-image-*) or alias (%s)", spec, vm_debian_alias_names());
	return 0;
}

static const char *vm_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static bool vm_is_deb(const char *path)
{
	char magic[8];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool deb = fd >= 0 && pread(fd, magic, sizeof(magic), 0) == 8 && !memcmp(magic, "!<arch>\n", 8);

	if (fd >= 0)
		close(fd);
	return deb;
}

/* TREE@REV, or a git kernel tree not built in place: built (or found) in
 * starve's cache by `starve build`'s code, its config beside the image. */
static int vm_image_build(struct vm_kernel *k)
{
	struct vm_build_request rq = { .spec = k->spec, .progress = true };
	struct vm_build_result res;

	k->kind = VM_IMAGE_BUILD;
	if (vm_build(&rq, &res) != 0)
		return error_why(k->error, sizeof(k->error), "cannot build %s: %s", k->spec,
				 res.error);
	snprintf(k->image, sizeof(k->image), "%.4000s", res.image);
	return 0;
}

/* K->spec to K->image (and K->package), fetching or unpacking as needed. */
static int vm_image_locate(struct vm_kernel *k, const struct vm_dirs *dirs)
{
	static unsigned n_debs;	/* each .deb of this run unpacks into its own directory */
	char boot[PATH_MAX], *err = k->error;
	size_t err_len = sizeof(k->error);
	struct stat st;

	if (vm_build_source_wanted(k->spec))
		return vm_image_build(k);
	if (stat(k->spec, &st) < 0) {
		k->kind = VM_IMAGE_PACKAGE;
		return vm_debian_fetch(k->spec, dirs->cache, k->package, sizeof(k->package), boot,
				       sizeof(boot), err, err_len) < 0 ? -1 :
		       vm_debian_boot_image(boot, k->image, sizeof(k->image), err, err_len);
	}
	k->kind = VM_IMAGE_FILE;
	if (S_ISDIR(st.st_mode)) {	/* a kernel tree after `make` */
		snprintf(k->image, sizeof(k->image), "%s/arch/x86/boot/bzImage", k->spec);
		if (access(k->image, R_OK) < 0)
			return error_why(err, err_len, "%s is a directory without arch/x86/boot/bzImage",
					 k->spec);
		return 0;
	}
	if (!vm_is_deb(k->spec)) {
		snprintf(k->image, sizeof(k->image), "%s", k->spec);
		return 0;
	}
	k->kind = VM_IMAGE_DEB;	/* NAME_VERSION_ARCH.deb */
	snprintf(k->package, sizeof(k->package), "%.*s", (int)strcspn(vm_basename(k->spec), "_"),
		 vm_basename(k->spec));
	snprintf(boot, sizeof(boot), "%s/deb-%u", dirs->work, ++n_debs);
	if (vm_debian_unpack(k->spec, boot, err, err_len) < 0)
		return -1;
	snprintf(boot + strlen(boot), sizeof(boot) - strlen(boot), "/boot");
	return vm_debian_boot_image(boot, k->image, sizeof(k->image), err, err_len);
}

int vm_image_resolve(struct vm_kernel *k, const char *config, const struct vm_dirs *dirs)
{
	k->error[0] = k->config[0] = '\0';
	k->config_from = NULL;
	if (vm_image_locate(k, dirs) < 0 ||
	    vm_image_read_header(k->image, k->release, sizeof(k->release), k->version,
				 sizeof(k->version), k->error, sizeof(k->error)) < 0)
		return -1;
	if (sha256_file(k->image, k->sha256) < 0)
		return error_why(k->error, sizeof(k->error), "cannot read %s: %s", k->image,
				 strerror(errno));
	if (config) {
		if (access(config, R_OK) < 0)
			return error_why(k->error, sizeof(k->error), "--kernel-config %s: %s", config,
					 strerror(errno));
		snprintf(k->config, sizeof(k->config), "%s", config);
		k->config_from = "--kernel-config";
	} else {
		k->config_from = vm_image_find_config(k->image, k->release, k->config,
						      sizeof(k->config));
		if (k->config_from && (k->kind == VM_IMAGE_DEB || k->kind == VM_IMAGE_PACKAGE))
			k->config_from = "the package";
	}
	return 0;
}

/* A label becomes a directory name and a table column. */
static bool vm_label_valid(const char *label)
{
	return *label && !strchr(label, '/') && strcmp(label, ".") && strcmp(label, "..") &&
	       strlen(label) < VM_LABEL_MAX;
}

int vm_image_check_labels(const char *const *labels, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!vm_label_valid(labels[i]))
			return error("--label '%s': a label names a directory: not empty, no '/', "
				     "at most %d characters", labels[i], VM_LABEL_MAX - 1);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(labels[i], labels[j]))
				return error("--label '%s' is given twice: labels name the kernels' "
					     "directories", labels[i]);
	}
	return 0;
}

/* True when one of the first N kernels has LABEL, or one of the given LABELS. */
static bool vm_label_taken(const struct vm_kernel *k, size_t n, const char *const *labels,
			   size_t n_labels, const char *label)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(k[i].label, label))
			return true;
	for (size_t i = 0; i < n_labels; i++)
		if (!strcmp(labels[i], label))
			return true;
	return false;
}

void vm_image_labels(struct vm_kernel *k, size_t n, const char *const *labels, size_t n_labels)
{
	for (size_t i = 0; i < n; i++) {
		char want[VM_LABEL_MAX];

		if (i < n_labels) {
			snprintf(k[i].label, sizeof(k[i].label), "%s", labels[i]);
			continue;
		}
		/* two commits of one tree share a release: TREE@REV tells them apart */
		snprintf(want, sizeof(want), "%s", k[i].release[0] && k[i].kind != VM_IMAGE_BUILD ?
			 k[i].release : vm_basename(k[i].spec));
		if (!vm_label_valid(want))
			snprintf(want, sizeof(want), "kernel");
		snprintf(k[i].label, sizeof(k[i].label), "%s", want);
		for (unsigned dup = 2; vm_label_taken(k, i, labels, n_labels, k[i].label); dup++)
			snprintf(k[i].label, sizeof(k[i].label), "%.*s#%u", VM_LABEL_MAX - 12, want, dup);
	}
}
