/* The one writer of kernel knob files: see knob-write.h. */
#include "config.h"
#include "harness/kernel/knob-write.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int knob_write_line(const char *path, const char *text, size_t len, int extra_flags,
		    bool *opened)
{
	char line[KNOB_LINE_MAX];
	ssize_t w;
	int fd, err = 0;

	if (opened)
		*opened = false;
	if (len + 1 > sizeof(line))
		return E2BIG;
	memcpy(line, text, len);
	line[len++] = '\n';
	fd = open(path, O_WRONLY | O_CLOEXEC | extra_flags);
	if (fd < 0)
		return errno;
	if (opened)
		*opened = true;
	w = write(fd, line, len);
	if (w < 0)
		err = errno;
	else if ((size_t)w != len)
		err = EIO;
	close(fd);
	return err;
}
