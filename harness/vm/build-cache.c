/* The cache of built kernels (build-cache.h). Entries are directories named
 * by their 64-hex key; anything else in the cache (obj-*, worktree-*, logs,
 * tmp-*) is not an entry and `--list` skips it. */
#include "config.h"
#include "harness/vm/build-cache.h"
#include "harness/vm/cache-dir.h"
#include "lib/error.h"
#include "lib/fsutil.h"
#include "lib/sha256.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *vm_build_cache_dir(char *buf, size_t len)
{
	return vm_cache_subdir("STARVE_BUILD_CACHE", "builds", buf, len);
}

void vm_build_cache_key(const char *text, char key[65])
{
	struct sha256 h;

	sha256_init(&h);
	sha256_update(&h, text, strlen(text));
	sha256_final_hex(&h, key);
}

static bool cache_is_key(const char *name)
{
	return strlen(name) == 64 && strspn(name, "0123456789abcdef") == 64;
}

bool vm_build_cache_find(const char *key, char *image, size_t len)
{
	char dir[PATH_MAX];

	snprintf(image, len, "%s/%s/bzImage", vm_build_cache_dir(dir, sizeof(dir)), key);
	return access(image, R_OK) == 0;
}

int vm_build_cache_store(const char *tmp, const char *key, char *why, size_t why_len)
{
	char dir[PATH_MAX], entry[PATH_MAX + 80];

	snprintf(entry, sizeof(entry), "%s/%s", vm_build_cache_dir(dir, sizeof(dir)), key);
	if (rename(tmp, entry) == 0)
		return 0;
	if (errno == ENOTEMPTY || errno == EEXIST) {	/* another build put it there first */
		fs_remove_tree(tmp);
		return 0;
	}
	return error_why(why, why_len, "cannot put %s in place as %s: %s", tmp, entry,
			 strerror(errno));
}

/* The value of NAME in an entry's info file ("name=value" lines). */
static const char *cache_info(const char *info, const char *name, char *buf, size_t len)
{
	size_t n = strlen(name);

	for (const char *p = info; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, name, n) && p[n] == '=') {
			snprintf(buf, len, "%.*s", (int)strcspn(p + n + 1, "\n"), p + n + 1);
			return buf;
		}
	snprintf(buf, len, "?");
	return buf;
}

int vm_build_cache_list(void)
{
	char dir[PATH_MAX];
	DIR *d = opendir(vm_build_cache_dir(dir, sizeof(dir)));
	struct dirent *e;
	unsigned n = 0;

	while (d && (e = readdir(d))) {
		char path[PATH_MAX + 300], info[4096], tree[PATH_MAX], commit[64], subject[256],
			base[PATH_MAX], when[64];

		if (!cache_is_key(e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s/info", dir, e->d_name);
		if (fs_read_small(path, info, sizeof(info)) < 0)
			info[0] = '\0';
		printf("%.12s  %s@%.12s  %s  base %s  built %s\n", e->d_name,
		       cache_info(info, "tree", tree, sizeof(tree)),
		       cache_info(info, "commit", commit, sizeof(commit)),
		       cache_info(info, "subject", subject, sizeof(subject)),
		       cache_info(info, "base", base, sizeof(base)),
		       cache_info(info, "built", when, sizeof(when)));
		n++;
	}
	if (d)
		closedir(d);
	if (!n)
		printf("no kernels in %s\n", dir);
	return 0;
}

int vm_build_cache_clean(const char *what)
{
	char dir[PATH_MAX], path[PATH_MAX + 300];
	DIR *d = opendir(vm_build_cache_dir(dir, sizeof(dir)));
	struct dirent *e;
	unsigned n = 0;
	bool all = !strcmp(what, "all");

	while (d && (e = readdir(d))) {
		/* an entry by its key or the start of it as --list shows it */
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    (!all && (!cache_is_key(e->d_name) || strlen(what) < 6 ||
			      strncmp(e->d_name, what, strlen(what)))))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (fs_remove_tree(path) < 0)
			warning("cannot remove %s", path);
		n++;
	}
	if (d)
		closedir(d);
	if (!all && !n) {
		error("build --clean %s: no such kernel in %s (see 'starve build --list'; at least "
		      "6 characters of a key)", what, dir);
		return 2;
	}
	printf("removed %u %s from %s\n", n, all ? "files and directories" :
	       n == 1 ? "kernel" : "kernels", dir);
	return 0;
}
