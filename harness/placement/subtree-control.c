/* A controller in a cgroup2 subtree (subtree-control.h). */
#include "config.h"
#include "harness/placement/confine-backend.h"
#include "harness/placement/subtree-control.h"
#include "lib/error.h"
#include "lib/kfile.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

bool subtree_word_in(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(list, word); p; p = strstr(p + 1, word))
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0' || p[n] == '\n'))
			return true;
	return false;
}

bool subtree_control_has(const char *dir, const char *controller)
{
	char list[512];

	return confine_read_file(dir, "cgroup.subtree_control", list, sizeof(list)) == 0 &&
	       subtree_word_in(list, controller);
}

int subtree_control_set(const char *dir, const char *controller, bool on)
{
	char text[64];
	int err = kfile_subtree_control(dir, controller, on);

	if (!err)
		return 0;
	snprintf(text, sizeof(text), "%c%s", on ? '+' : '-', controller);
	if (!on && err == EBUSY) {
		warning("%s/cgroup.subtree_control: left '%s' on: a cgroup made since uses it", dir,
			controller);
		return 0;
	}
	return confine_write_failed(dir, "cgroup.subtree_control", text, err);
}
