/* The newc cpio writer (cpio.h): a 110-byte ASCII header of hex fields, the
 * name with its NUL padded to 4 bytes, the data padded to 4 bytes, and a
 * last entry named TRAILER!!!. */
#include "config.h"
#include "harness/vm/cpio.h"

#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

static void vm_cpio_fail(struct vm_cpio *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void vm_cpio_fail(struct vm_cpio *c, const char *fmt, ...)
{
	va_list ap;

	if (c->error[0])
		return;
	va_start(ap, fmt);
	vsnprintf(c->error, sizeof(c->error), fmt, ap);
	va_end(ap);
}

static void vm_cpio_pad(struct vm_cpio *c, size_t written)
{
	static const char zeros[4];

	if (written % 4)
		fwrite(zeros, 1, 4 - written % 4, c->f);
}

/* One header and name; the caller writes SIZE bytes of data and pads. */
static void vm_cpio_header(struct vm_cpio *c, const char *name, mode_t mode, size_t size,
			   unsigned rmajor, unsigned rminor)
{
	size_t namesize = strlen(name) + 1;

	if (c->error[0])
		return;
	if (size > 0xffffffffu) {
		vm_cpio_fail(c, "%s: too large for a cpio archive", name);
		return;
	}
	fprintf(c->f, "070701%08x%08x%08x%08x%08x%08x%08zx%08x%08x%08x%08x%08zx%08x", ++c->ino,
		(unsigned)mode, 0u, 0u, S_ISDIR(mode) ? 2u : 1u, 0u, size, 0u, 0u, rmajor, rminor,
		namesize, 0u);
	fwrite(name, 1, namesize, c->f);
	vm_cpio_pad(c, 110 + namesize);
}

static bool vm_cpio_have_dir(const struct vm_cpio *c, const char *name)
{
	for (size_t i = 0; i < c->n_dirs; i++)
		if (!strcmp(c->dirs[i], name))
			return true;
	return false;
}

/* Every directory above NAME that is not in the archive yet. */
static void vm_cpio_parents(struct vm_cpio *c, const char *name)
{
	char path[128];

	for (const char *s = strchr(name, '/'); s; s = strchr(s + 1, '/')) {
		snprintf(path, sizeof(path), "%.*s", (int)(s - name), name);
		vm_cpio_dir(c, path);
	}
}

void vm_cpio_dir(struct vm_cpio *c, const char *name)
{
	if (vm_cpio_have_dir(c, name))
		return;
	if (c->n_dirs == VM_CPIO_MAX_DIRS || strlen(name) >= sizeof(c->dirs[0])) {
		vm_cpio_fail(c, "%s: too many or too deep directories for the initramfs", name);
		return;
	}
	vm_cpio_parents(c, name);
	snprintf(c->dirs[c->n_dirs++], sizeof(c->dirs[0]), "%s", name);
	vm_cpio_header(c, name, S_IFDIR | 0755, 0, 0, 0);
}

void vm_cpio_data(struct vm_cpio *c, const char *name, mode_t perm, const void *data, size_t len)
{
	vm_cpio_parents(c, name);
	vm_cpio_header(c, name, S_IFREG | perm, len, 0, 0);
	if (c->error[0])
		return;
	fwrite(data, 1, len, c->f);
	vm_cpio_pad(c, len);
}

void vm_cpio_copy(struct vm_cpio *c, const char *name, mode_t perm, const char *src)
{
	char buf[65536];
	struct stat st;
	size_t n, total = 0;
	FILE *in;

	if (c->error[0])
		return;
	in = fopen(src, "re");
	if (!in || fstat(fileno(in), &st) < 0) {
		vm_cpio_fail(c, "cannot read %s: %s", src, strerror(errno));
		if (in)
			fclose(in);
		return;
	}
	vm_cpio_parents(c, name);
	vm_cpio_header(c, name, S_IFREG | perm, (size_t)st.st_size, 0, 0);
	while (!c->error[0] && (n = fread(buf, 1, sizeof(buf), in)) > 0 &&
	       total + n <= (size_t)st.st_size) {
		fwrite(buf, 1, n, c->f);
		total += n;
	}
	if (total != (size_t)st.st_size)
		vm_cpio_fail(c, "%s changed while it was being copied", src);
	fclose(in);
	vm_cpio_pad(c, total);
}

void vm_cpio_chardev(struct vm_cpio *c, const char *name, unsigned major, unsigned minor)
{
	vm_cpio_parents(c, name);
	vm_cpio_header(c, name, S_IFCHR | 0600, 0, major, minor);
}

int vm_cpio_open(struct vm_cpio *c, const char *path)
{
	memset(c, 0, sizeof(*c));
	c->f = fopen(path, "we");
	if (!c->f) {
		vm_cpio_fail(c, "cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int vm_cpio_close(struct vm_cpio *c)
{
	vm_cpio_header(c, "TRAILER!!!", 0, 0, 0, 0);
	if (c->f && (ferror(c->f) | fclose(c->f)))
		vm_cpio_fail(c, "cannot write the initramfs: %s", strerror(errno));
	c->f = NULL;
	return c->error[0] ? -1 : 0;
}
