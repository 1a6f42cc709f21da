/* Results folders (results-dir.h): walking one, opening each result
 * through the typed view, and saying what was skipped. */
#include "config.h"
#include "reports/result/results-dir.h"
#include "lib/error.h"

#include <glob.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

/* Open FILE into R; FOUND_IN_FOLDER: a file that is not a valid result is
 * skipped with a warning rather than refused. 0, or -1 with the error
 * printed. */
static int results_open(struct results *r, const char *file, bool found_in_folder)
{
	char why[1024];
	struct result_view *v;

	if (r->n == RESULTS_MAX)
		return error("%s: too many results (at most %d)", file, RESULTS_MAX);
	v = rv_open(file, why, sizeof(why));
	if (v) {
		r->v[r->n++] = v;
		return 0;
	}
	if (!found_in_folder)
		return error("%s", why);
	warning("skipped %s", why);	/* WHY starts with the file's name */
	r->skipped++;
	return 0;
}

/* The result.json files of DIR, one level at a time (see the header). */
static int results_walk(struct results *r, const char *dir)
{
	static const char *const below[] = { "", "/*", "/*/*" };
	int found = 0;

	for (size_t d = 0; d < sizeof(below) / sizeof(below[0]); d++) {
		char pattern[PATH_MAX];
		glob_t g;
		int ret = 0;

		if (snprintf(pattern, sizeof(pattern), "%s%s/result.json", dir, below[d]) >=
		    (int)sizeof(pattern))
			return error("%s: the path is too long", dir);
		if (glob(pattern, 0, NULL, &g) != 0)
			continue;	/* none at this level */
		for (size_t i = 0; i < g.gl_pathc && ret == 0; i++, found++)
			ret = results_open(r, g.gl_pathv[i], true);
		globfree(&g);
		if (ret < 0)
			return -1;
	}
	return found;
}

int results_add(struct results *r, const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return results_walk(r, path);
	return results_open(r, path, false) < 0 ? -1 : 1;
}

void results_free(struct results *r)
{
	for (size_t i = 0; i < r->n; i++)
		rv_free(r->v[i]);
	r->n = 0;
	r->skipped = 0;
}
