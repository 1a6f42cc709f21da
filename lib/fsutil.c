/* mkdir -p and rm -rf (fsutil.h). fs_remove_tree walks depth-first with
 * nftw(FTW_PHYS): a symbolic link is removed, never followed. */
#include "config.h"
#include "fsutil.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int fs_mkdirs(const char *path)
{
	char buf[PATH_MAX];

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *s = buf + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -1;
		*s = '/';
	}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

static int fs_remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return (type == FTW_DP ? rmdir(path) : unlink(path)) < 0 && errno != ENOENT ? -1 : 0;
}

int fs_remove_tree(const char *path)
{
	if (access(path, F_OK) < 0 && errno == ENOENT)
		return 0;
	return nftw(path, fs_remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

ssize_t fs_read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return n;
}
