/* The machine's registry of journals (journal-registry.h). */
#include "config.h"
#include "harness/kernel/journal-registry.h"
#include "lib/error.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int journal_registry_pointer(const char *dir, char *out, size_t len)
{
	struct stat st;

	out[0] = '\0';
	if (stat(dir, &st) < 0)
		return -1;
	if ((size_t)snprintf(out, len, "%s/%llx-%llx", JOURNAL_REGISTRY_DIR,
			     (unsigned long long)st.st_dev, (unsigned long long)st.st_ino) >= len) {
		out[0] = '\0';
		return -1;
	}
	return 0;
}

static bool registry_same_dir(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int journal_registry_each(const char *own_dir,
			  int (*fn)(const char *dir, const char *pointer, void *arg), void *arg)
{
	DIR *d = opendir(JOURNAL_REGISTRY_DIR);
	struct dirent *de;
	char link[PATH_MAX + 64], dir[PATH_MAX];
	int ret = 0;

	if (!d)
		return 0;	/* none yet, or not ours to read */
	while (!ret && (de = readdir(d))) {
		ssize_t n;

		if (de->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "%s/%s", JOURNAL_REGISTRY_DIR, de->d_name);
		n = readlink(link, dir, sizeof(dir) - 1);
		if (n <= 0)
			continue;
		dir[n] = '\0';
		if (!own_dir || !registry_same_dir(dir, own_dir))
			ret = fn(dir, link, arg);
	}
	closedir(d);
	return ret;
}

struct registry_check {
	bool have_lock;
};

/* One registered directory: refuse on an unrestored journal there, forget
 * it when it has nothing to undo. */
static int registry_check_one(const char *dir, const char *pointer, void *arg)
{
	const struct registry_check *rc = arg;
	struct journal *j = malloc(sizeof(*j));
	int r;

	if (!j)
		return error("out of memory");
	r = journal_load(j, dir);
	if (r < 0)
		r = error("the journal in %s, another state directory, cannot be read; run "
			  "'STARVE_STATE_DIR=%s starve restore', or inspect and remove it", dir, dir);
	else if (r > 0 && j->n > 0)
		r = journal_refuse(j, ", another state directory");
	else if (rc->have_lock)
		unlink(pointer);	/* nothing to undo there: a stale pointer */
	free(j);
	return r < 0 ? -1 : 0;
}

int journal_registry_check(const char *own_dir, bool have_lock)
{
	struct registry_check rc = { have_lock };

	return journal_registry_each(own_dir, registry_check_one, &rc);
}

int journal_registry_add(struct journal *j)
{
	char dir[PATH_MAX];

	if (mkdir(JOURNAL_REGISTRY_DIR, 0700) < 0 && errno != EEXIST)
		return error_errno("cannot create the journals' registry %s", JOURNAL_REGISTRY_DIR);
	if (!realpath(j->dir, dir))
		return error_errno("cannot resolve state directory %s", j->dir);
	if (journal_registry_pointer(dir, j->pointer, sizeof(j->pointer)) < 0)
		return error("cannot name the registry's pointer to %s", dir);
	unlink(j->pointer);	/* a stale one of ours (a crash before its journal) */
	if (symlink(dir, j->pointer) < 0) {
		error_errno("cannot register %s in %s", dir, JOURNAL_REGISTRY_DIR);
		j->pointer[0] = '\0';
		return -1;
	}
	return 0;
}
