/* Building the guest's initramfs (initramfs.h). The libraries come from ldd,
 * as the dynamic loader would resolve them on this host, and go to the same
 * paths in the guest, where the loader looks for them. */
#include "config.h"
#include "harness/vm/cpio.h"
#include "harness/vm/exec.h"
#include "harness/vm/initramfs.h"
#include "lib/error.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The guest's /init: init.sh, compiled in (Makefile.am makes init.inc). */
static const char vm_init_script[] =
#include "harness/vm/init.inc"
	;

const char *vm_find_busybox(char *buf, size_t len)
{
	static const char *const places[] = { "/bin/busybox", "/usr/bin/busybox", "/sbin/busybox" };
	const char *env = getenv("STARVE_VM_BUSYBOX");

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return access(buf, X_OK) == 0 ? buf : NULL;
	}
	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++)
		if (access(places[i], X_OK) == 0) {
			snprintf(buf, len, "%s", places[i]);
			return buf;
		}
	return NULL;
}

/* glibc loads libgcc_s.so.1 (beside libc.so.6) with dlopen when a thread is
 * cancelled, to unwind it; ldd does not name it, and without it
 * pthread_cancel aborts ("libgcc_s.so.1 must be installed"): wakeup-storm's
 * leader died of SIGABRT in guests whenever its dispatcher was cancelled
 * mid-sleep. */
static void vm_initramfs_libgcc(struct vm_cpio *c, const char *libc)
{
	char path[PATH_MAX];
	const char *slash = strrchr(libc, '/');

	if (!slash || strcmp(slash, "/libc.so.6"))
		return;
	snprintf(path, sizeof(path), "%.*s/libgcc_s.so.1", (int)(slash - libc), libc);
	if (access(path, R_OK) == 0)
		vm_cpio_copy(c, path + 1, 0755, path);
}

/* Each library ldd lists for BINARY, at its own path ("libc.so.6 =>
 * /lib/x86_64-linux-gnu/libc.so.6 (0x...)" or "/lib64/ld-linux-x86-64.so.2
 * (0x...)"). A static binary has none: ldd says so and fails. */
static int vm_initramfs_libs(struct vm_cpio *c, const char *binary, char *why, size_t why_len)
{
	const char *argv[] = { "ldd", binary, NULL };
	char out[8192], *line, *save = NULL;
	int rc = vm_exec(argv, NULL, out, sizeof(out));

	if (rc < 0)
		return error_why(why, why_len, "cannot run ldd: %s", out);
	if (rc != 0)
		return strstr(out, "not a dynamic executable") ? 0 :
		       error_why(why, why_len, "ldd %s failed: %s", binary, out);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *arrow = strstr(line, "=> "), *path = arrow ? arrow + 3 : line;

		path += strspn(path, " \t");
		if (*path != '/')
			continue;	/* linux-vdso.so.1: in the kernel, not a file */
		path[strcspn(path, " \t")] = '\0';
		vm_cpio_copy(c, path + 1, 0755, path);
		vm_initramfs_libgcc(c, path);
	}
	return 0;
}

/* The run options, one a line: the init reads them back into "$@". */
static void vm_initramfs_args(struct vm_cpio *c, char *const *args, size_t n)
{
	char buf[8192];
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && len < sizeof(buf); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s\n", args[i]);
	if (len >= sizeof(buf))
		snprintf(c->error, sizeof(c->error), "the options for starve run are too long");
	vm_cpio_data(c, "vm/run-args", 0644, buf, strlen(buf));
}

/* Mount points and the directories busybox --install fills. */
static const char *const vm_initramfs_dirs[] = { "proc", "sys", "tmp", "run", "root", "usr/bin",
						 "sbin" };

static void vm_initramfs_files(struct vm_cpio *c, const struct vm_initramfs *s, const char *self)
{
	char name[PATH_MAX];

	vm_cpio_data(c, "init", 0755, vm_init_script, strlen(vm_init_script));
	vm_cpio_copy(c, "bin/busybox", 0755, s->busybox);
	vm_cpio_copy(c, "bin/starve", 0755, self);
	vm_cpio_chardev(c, "dev/console", 5, 1);	/* stdin/out of /init before /dev is mounted */
	for (size_t i = 0; i < sizeof(vm_initramfs_dirs) / sizeof(vm_initramfs_dirs[0]); i++)
		vm_cpio_dir(c, vm_initramfs_dirs[i]);
	for (size_t i = 0; i < s->n_profiles; i++) {
		snprintf(name, sizeof(name), "vm/profiles/%s.yaml", s->profile_names[i]);
		vm_cpio_copy(c, name, 0644, s->profiles[i]);
	}
	vm_initramfs_args(c, s->run_args, s->n_run_args);
	if (s->guest_script)
		vm_cpio_copy(c, "vm/guest-script", 0755, s->guest_script);
	if (s->config) {	/* where starve env looks for it, as on an installed system */
		snprintf(name, sizeof(name), "boot/config-%s", s->release);
		vm_cpio_copy(c, name, 0644, s->config);
	}
}

int vm_initramfs_build(const char *path, const struct vm_initramfs *s, char *why, size_t why_len)
{
	char self[64];
	struct vm_cpio c;

	/* This very binary, through its /proc link rather than its path: a
	 * bisect runs for an hour, and a `make` that replaces starve meanwhile
	 * leaves the path "(deleted)" (ldd then fails on it), while the link
	 * still opens the running one; ldd, a child, reads it by our pid. */
	snprintf(self, sizeof(self), "/proc/%ld/exe", (long)getpid());
	if (access(self, R_OK) < 0)
		return error_why(why, why_len, "cannot read the starve binary (%s): %s", self,
				 strerror(errno));
	if (vm_cpio_open(&c, path) < 0)
		return error_why(why, why_len, "%s", c.error);
	vm_initramfs_files(&c, s, self);
	if (vm_initramfs_libs(&c, self, why, why_len) < 0 ||
	    vm_initramfs_libs(&c, s->busybox, why, why_len) < 0) {
		vm_cpio_close(&c);
		return -1;
	}
	if (vm_cpio_close(&c) < 0)
		return error_why(why, why_len, "%s", c.error);
	return 0;
}
