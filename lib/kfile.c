/* The one writer of kernel files (kfile.h). */
#include "config.h"
#include "lib/kfile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int kfile_write_fd(int fd, const char *buf, size_t len)
{
	ssize_t w = write(fd, buf, len);

	if (w < 0)
		return errno;
	return (size_t)w == len ? 0 : EIO;
}

int kfile_write(const char *path, const char *buf, size_t len, int extra_flags, bool *opened)
{
	int fd, err;

	if (opened)
		*opened = false;
	fd = open(path, O_WRONLY | O_CLOEXEC | extra_flags);
	if (fd < 0)
		return errno;
	if (opened)
		*opened = true;
	err = kfile_write_fd(fd, buf, len);
	close(fd);
	return err;
}

/* DIR/FILE into OUT (KFILE_PATH_MAX) by memcpy: snprintf is not
 * async-signal-safe. */
static bool kfile_join(char *out, const char *dir, const char *file)
{
	size_t a = strlen(dir), b = strlen(file);

	if (a + 1 + b >= KFILE_PATH_MAX)
		return false;
	memcpy(out, dir, a);
	out[a] = '/';
	memcpy(out + a + 1, file, b + 1);
	return true;
}

int kfile_write_at(const char *dir, const char *file, const char *text)
{
	char path[KFILE_PATH_MAX];

	if (!kfile_join(path, dir, file))
		return ENAMETOOLONG;
	return kfile_write(path, text, strlen(text), 0, NULL);
}

int kfile_open_at(const char *dir, const char *file)
{
	char path[KFILE_PATH_MAX];
	int fd;

	if (!kfile_join(path, dir, file))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int kfile_subtree_control(const char *dir, const char *controller, bool on)
{
	char text[64];
	size_t n = strlen(controller);

	if (n + 2 > sizeof(text))
		return EINVAL;
	text[0] = on ? '+' : '-';
	memcpy(text + 1, controller, n + 1);
	return kfile_write_at(dir, "cgroup.subtree_control", text);
}
