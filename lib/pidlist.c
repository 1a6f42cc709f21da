/* A list of pids from a kernel file (pidlist.h): read and close only. */
#include "config.h"
#include "lib/pidlist.h"

#include <errno.h>
#include <stdbool.h>
#include <unistd.h>

void pidlist_each(int fd, void (*each)(pid_t pid, void *arg), void *arg)
{
	char buf[256];
	unsigned long pid = 0;
	bool in_number = false;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR)) {
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] >= '0' && buf[i] <= '9') {
				pid = pid * 10 + (unsigned long)(buf[i] - '0');
				in_number = true;
				continue;
			}
			if (in_number)
				each((pid_t)pid, arg);
			pid = 0;
			in_number = false;
		}
	}
	if (in_number)
		each((pid_t)pid, arg);
}
