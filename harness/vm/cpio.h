/* A writer of cpio archives in the "newc" format, the one the kernel unpacks
 * as an initramfs (Documentation/driver-api/early-userspace/buffer-format.rst).
 * Entries are owned by root with mtime 0, so the same input gives the same
 * archive. Parent directories are added as needed, each once. Errors stick:
 * after one, every call does nothing and vm_cpio_close() reports it. */
#ifndef STARVE_VM_CPIO_H
#define STARVE_VM_CPIO_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define VM_CPIO_MAX_DIRS 64

struct vm_cpio {
	FILE *f;
	unsigned ino;
	char dirs[VM_CPIO_MAX_DIRS][128];	/* directories written so far */
	size_t n_dirs;
	char error[512];			/* the first error, "" while none */
};

/* Start an archive at PATH (replaced). -1 with C->error set. */
int vm_cpio_open(struct vm_cpio *c, const char *path);
/* NAME is relative to the archive's root ("bin/busybox"). */
void vm_cpio_dir(struct vm_cpio *c, const char *name);
void vm_cpio_data(struct vm_cpio *c, const char *name, mode_t perm, const void *data, size_t len);
/* The contents of the host file SRC (symbolic links followed) as NAME. */
void vm_cpio_copy(struct vm_cpio *c, const char *name, mode_t perm, const char *src);
/* A character device node, e.g. dev/console (5, 1). */
void vm_cpio_chardev(struct vm_cpio *c, const char *name, unsigned major, unsigned minor);
/* Write the trailer and close. 0, or -1 with C->error saying what failed. */
int vm_cpio_close(struct vm_cpio *c);

#endif
