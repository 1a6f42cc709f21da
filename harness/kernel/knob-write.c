/* The one writer of kernel knob files: see knob-write.h. The bytes go
 * through lib/kfile.h, the one writer of every kernel file. */
#include "config.h"
#include "harness/kernel/knob-write.h"
#include "lib/kfile.h"

#include <errno.h>
#include <string.h>

int knob_write_line(const char *path, const char *text, size_t len, int extra_flags,
		    bool *opened)
{
	char line[KNOB_LINE_MAX];

	if (opened)
		*opened = false;
	if (len + 1 > sizeof(line))
		return E2BIG;
	memcpy(line, text, len);
	line[len++] = '\n';
	return kfile_write(path, line, len, extra_flags, opened);
}
