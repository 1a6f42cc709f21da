/* The ordered kernels of `starve bisect` (bisect.h): the --kernel words as
 * given, a directory of images in version order, or a range of Debian
 * packages "linux-image-A..linux-image-B": every linux-image package of the
 * same flavour (the part after the release, "cloud-amd64") that apt-cache
 * knows, between the two in Debian's version order, debug and unsigned
 * builds and the meta packages left out. */
#include "config.h"
#include "harness/bisect/bisect.h"
#include "harness/vm/exec.h"
#include "lib/error.h"
#include "lib/xalloc.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BISECT_APT_OUT (1 << 20)

/* dpkg's order of one character in a non-digit part: ~ before the end,
 * letters before the rest. */
static int bisect_order(int c)
{
	if (isdigit(c))
		return 0;
	if (isalpha(c))
		return c;
	if (c == '~')
		return -1;
	return c ? c + 256 : 0;
}

/* dpkg's verrevcmp: alternating non-digit parts (by bisect_order) and digit
 * parts (by value). */
int bisect_debian_vercmp(const char *a, const char *b)
{
	while (*a || *b) {
		int first_diff = 0;

		while ((*a && !isdigit((unsigned char)*a)) || (*b && !isdigit((unsigned char)*b))) {
			int ac = bisect_order((unsigned char)*a), bc = bisect_order((unsigned char)*b);

			if (ac != bc)
				return ac - bc;
			a++;
			b++;
		}
		while (*a == '0')
			a++;
		while (*b == '0')
			b++;
		while (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			if (!first_diff)
				first_diff = *a - *b;
			a++;
			b++;
		}
		if (isdigit((unsigned char)*a))
			return 1;
		if (isdigit((unsigned char)*b))
			return -1;
		if (first_diff)
			return first_diff;
	}
	return 0;
}

static int bisect_cmp_words(const void *a, const void *b)
{
	return bisect_debian_vercmp(*(char *const *)a, *(char *const *)b);
}

/* "linux-image-6.1.0-47-cloud-amd64": the release starts after the prefix,
 * the flavour after the release's last digit-led part. */
#define BISECT_DEB_PREFIX "linux-image-"

static const char *bisect_flavour(const char *pkg)
{
	const char *p = pkg + strlen(BISECT_DEB_PREFIX), *flavour = NULL;

	for (; *p; p++)
		if (*p == '-' && !isdigit((unsigned char)p[1]) && !flavour)
			flavour = p + 1;
		else if (*p == '-' && isdigit((unsigned char)p[1]))
			flavour = NULL;
	return flavour ? flavour : "";
}

/* A versioned image package of FLAVOUR: "6.1.0-47-" or "6.12.100+deb12-",
 * not -dbg, -unsigned or the meta package "linux-image-6.12-cloud-amd64"
 * (a release without a third number). */
static bool bisect_deb_candidate(const char *pkg, const char *flavour)
{
	const char *rel = pkg + strlen(BISECT_DEB_PREFIX);
	int dots = 0;

	if (strncmp(pkg, BISECT_DEB_PREFIX, strlen(BISECT_DEB_PREFIX)) || !isdigit((unsigned char)*rel))
		return false;
	for (const char *p = rel; *p && *p != '-' && *p != '+'; p++)
		dots += *p == '.';
	return dots >= 2 && !strcmp(bisect_flavour(pkg), flavour);
}

static int bisect_deb_range(const char *from, const char *to, char **out, size_t max)
{
	const char *argv[] = { "apt-cache", "pkgnames", BISECT_DEB_PREFIX, NULL };
	char *text = xcalloc(1, BISECT_APT_OUT), *save = NULL;
	const char *flavour = bisect_flavour(from);
	size_t n = 0;

	if (strcmp(flavour, bisect_flavour(to)) || !bisect_deb_candidate(from, flavour) ||
	    !bisect_deb_candidate(to, flavour)) {
		free(text);
		return error("--kernel %s..%s: want two linux-image packages of one flavour, "
			     "e.g. linux-image-6.1.0-47-cloud-amd64..linux-image-6.1.0-57-cloud-amd64",
			     from, to);
	}
	if (vm_exec(argv, NULL, text, BISECT_APT_OUT) != 0) {
		error("apt-cache pkgnames failed: %.200s", text);
		free(text);
		return -1;
	}
	for (char *w = strtok_r(text, "\n", &save); w; w = strtok_r(NULL, "\n", &save))
		if (bisect_deb_candidate(w, flavour) && n < max &&
		    bisect_debian_vercmp(w, from) >= 0 && bisect_debian_vercmp(w, to) <= 0)
			out[n++] = xstrdup(w);
	free(text);
	qsort(out, n, sizeof(*out), bisect_cmp_words);
	if (n < 2 || strcmp(out[0], from) || strcmp(out[n - 1], to)) {
		bisect_kernels_free(out, n);
		return error("--kernel %s..%s: apt-cache does not know both ends (apt-get update?)",
			     from, to);
	}
	return (int)n;
}

/* The images in DIR (regular files, not config-* or System.map-*), in
 * version order of their names. */
static int bisect_image_dir(const char *dir, char **out, size_t max)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	if (!d)
		return error_errno("--kernel %s", dir);
	while ((e = readdir(d)) && n < max) {
		char *path = xasprintf("%s/%s", dir, e->d_name);
		struct stat st;

		if (e->d_name[0] == '.' || !strncmp(e->d_name, "config-", 7) ||
		    !strncmp(e->d_name, "System.map", 10) || stat(path, &st) < 0 ||
		    !S_ISREG(st.st_mode)) {
			free(path);
			continue;
		}
		out[n++] = path;
	}
	closedir(d);
	qsort(out, n, sizeof(*out), bisect_cmp_words);
	if (n < 2) {
		bisect_kernels_free(out, n);
		return error("--kernel %s: fewer than two images in the directory", dir);
	}
	return (int)n;
}

static bool bisect_is_image_dir(const char *path)
{
	struct stat st;
	char *tree = xasprintf("%s/arch/x86/boot/bzImage", path);
	bool dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode) && access(tree, F_OK) < 0;

	free(tree);
	return dir;
}

int bisect_kernels(char *const *words, size_t n, char **out, size_t max)
{
	const char *dots = n == 1 ? strstr(words[0], "..") : NULL;

	if (dots && strncmp(words[0], "linux-image-", 12) == 0) {
		char *from = xasprintf("%.*s", (int)(dots - words[0]), words[0]);
		int got = bisect_deb_range(from, dots + 2, out, max);

		free(from);
		return got;
	}
	if (n == 1 && bisect_is_image_dir(words[0]))
		return bisect_image_dir(words[0], out, max);
	if (n > max)
		return error("at most %zu kernels", max);
	for (size_t i = 0; i < n; i++)
		out[i] = xstrdup(words[i]);
	return (int)n;
}

void bisect_kernels_free(char **k, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(k[i]);
}
