/* Debian kernel packages (debian.h). apt-cache says which kernel package a
 * metapackage stands for, `apt-get download` fetches it without installing
 * anything, dpkg-deb and tar unpack only its /boot. A fetch goes into a
 * temporary directory beside its cache entry and is renamed into place, so
 * an interrupted download never leaves a half entry behind. */
#include "config.h"
#include "harness/vm/cache-dir.h"
#include "harness/vm/debian.h"
#include "harness/vm/exec.h"
#include "lib/error.h"
#include "lib/fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The kernels the lab tests (doc/kernels.md): Debian 12's own 6.1 and the
 * 6.12 backport, generic, cloud (no drivers for real hardware) and PREEMPT_RT. */
static const struct {
	const char *alias, *package;
} vm_aliases[] = {
	{ "6.1", "linux-image-amd64" },
	{ "6.1-cloud", "linux-image-cloud-amd64" },
	{ "6.1-rt", "linux-image-rt-amd64" },
	{ "6.12", "linux-image-6.12-amd64" },
	{ "6.12-cloud", "linux-image-6.12-cloud-amd64" },
	{ "6.12-rt", "linux-image-6.12-rt-amd64" },
};
#define VM_N_ALIASES (sizeof(vm_aliases) / sizeof(vm_aliases[0]))

const char *vm_debian_alias(const char *name)
{
	for (size_t i = 0; i < VM_N_ALIASES; i++)
		if (!strcmp(name, vm_aliases[i].alias))
			return vm_aliases[i].package;
	return NULL;
}

const char *vm_debian_alias_names(void)
{
	static char names[128];

	if (!names[0])
		for (size_t i = 0; i < VM_N_ALIASES; i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 i ? " " : "", vm_aliases[i].alias);
	return names;
}

bool vm_debian_is_package_name(const char *name)
{
	if (vm_debian_alias(name))
		return true;
	if (strncmp(name, "linux-image-", 12) || !name[12])
		return false;
	/* Debian package names: lowercase letters, digits, + - . */
	return strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789+-.") == strlen(name);
}

const char *vm_cache_dir(char *buf, size_t len)
{
	return vm_cache_subdir("STARVE_KERNEL_CACHE", "kernels", buf, len);
}

/* NAME -> the package to download: a metapackage (an alias, or a name like
 * linux-image-cloud-amd64) depends on exactly one linux-image-<version>. */
static int vm_debian_package(const char *name, char *package, size_t len, char *why,
			     size_t why_len)
{
	const char *meta = vm_debian_alias(name) ? vm_debian_alias(name) : name;
	const char *argv[] = { "apt-cache", "depends", meta, NULL };
	char out[16384], *line, *save = NULL;
	int rc = vm_exec(argv, NULL, out, sizeof(out));

	if (rc != 0) {
		char last[256];

		return error_why(why, why_len, "apt-cache depends %s failed: %s (run apt-get update?)",
				 meta, vm_last_line(out, last, sizeof(last)));
	}
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char dep[192];

		if (sscanf(line, " Depends: %191s", dep) == 1 && !strncmp(dep, "linux-image-", 12) &&
		    dep[12] >= '0' && dep[12] <= '9') {
			snprintf(package, len, "%s", dep);
			return 0;
		}
	}
	snprintf(package, len, "%s", meta);	/* a kernel package itself */
	return 0;
}

int vm_debian_unpack(const char *deb, const char *dir, char *why, size_t why_len)
{
	/* Only ./boot: the modules are not needed and are most of the package. */
	const char *argv[] = { "sh", "-c", "dpkg-deb --fsys-tarfile \"$1\" | tar -x -C \"$2\" ./boot",
			       "sh", deb, dir, NULL };
	char out[4096], last[256];

	if (!vm_have_command("dpkg-deb"))
		return error_why(why, why_len, "unpacking %s needs dpkg-deb (Debian's dpkg)", deb);
	if (fs_mkdirs(dir) < 0)
		return error_why(why, why_len, "cannot create %s: %s", dir, strerror(errno));
	if (vm_exec(argv, NULL, out, sizeof(out)) != 0)
		return error_why(why, why_len, "cannot unpack /boot of %s: %s", deb,
				 vm_last_line(out, last, sizeof(last)));
	return 0;
}

int vm_debian_boot_image(const char *boot, char *image, size_t len, char *why, size_t why_len)
{
	DIR *d = opendir(boot);
	struct dirent *e;
	int found = 0;

	if (!d)
		return error_why(why, why_len, "no /boot in the package (%s: %s)", boot, strerror(errno));
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "vmlinuz-", 8) && !found++)
			snprintf(image, len, "%s/%s", boot, e->d_name);
	closedir(d);
	if (found != 1)
		return error_why(why, why_len, "%s vmlinuz-* in the package's /boot (%s), expected one",
				 found ? "more than one" : "no", boot);
	return 0;
}

/* Download PACKAGE into TMP and unpack its /boot there. */
static int vm_debian_download(const char *package, const char *tmp, char *why, size_t why_len)
{
	const char *argv[8] = { "apt-get", "download", "-q" };
	char out[8192], last[256], deb[PATH_MAX + 512];
	struct dirent *e;
	size_t n = 3;
	DIR *d;
	int rc;

	if (getuid() == 0) {	/* root's apt would hand the download to _apt, who cannot write here */
		argv[n++] = "-o";
		argv[n++] = "APT::Sandbox::User=root";
	}
	argv[n] = package;
	rc = vm_exec(argv, tmp, out, sizeof(out));
	if (rc != 0)
		return error_why(why, why_len, "apt-get download %s failed: %s (run apt-get update?)",
				 package, vm_last_line(out, last, sizeof(last)));
	deb[0] = '\0';
	if ((d = opendir(tmp))) {
		while ((e = readdir(d)))
			if (strstr(e->d_name, ".deb"))
				snprintf(deb, sizeof(deb), "%s/%s", tmp, e->d_name);
		closedir(d);
	}
	if (!deb[0])
		return error_why(why, why_len, "apt-get download %s left no .deb in %s", package, tmp);
	rc = vm_debian_unpack(deb, tmp, why, why_len);
	unlink(deb);
	return rc;
}

int vm_debian_fetch(const char *name, const char *cache, char *package, size_t package_len,
		    char *boot, size_t boot_len, char *why, size_t why_len)
{
	char entry[PATH_MAX], tmp[PATH_MAX + 32], image[PATH_MAX + 256];

	if (!vm_have_command("apt-get") || !vm_have_command("apt-cache"))
		return error_why(why, why_len, "fetching a kernel package needs apt-get (Debian or "
				 "Ubuntu); give an image file instead");
	if (vm_debian_package(name, package, package_len, why, why_len) < 0)
		return -1;
	snprintf(entry, sizeof(entry), "%s/%s", cache, package);
	snprintf(boot, boot_len, "%s/boot", entry);
	if (vm_debian_boot_image(boot, image, sizeof(image), NULL, 0) == 0)
		return 0;	/* fetched before */
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", entry, (long)getpid());
	fs_remove_tree(tmp);
	if (fs_mkdirs(tmp) < 0)
		return error_why(why, why_len, "cannot create %s: %s", tmp, strerror(errno));
	if (vm_debian_download(package, tmp, why, why_len) < 0) {
		fs_remove_tree(tmp);
		return -1;
	}
	fs_remove_tree(entry);	/* a stale entry without its image */
	if (rename(tmp, entry) < 0 && errno != ENOTEMPTY && errno != EEXIST) {
		error_why(why, why_len, "cannot rename %s to %s: %s", tmp, entry, strerror(errno));
		fs_remove_tree(tmp);
		return -1;
	}
	fs_remove_tree(tmp);	/* another starve won the race: its entry is as good */
	return vm_debian_boot_image(boot, image, sizeof(image), why, why_len);
}
