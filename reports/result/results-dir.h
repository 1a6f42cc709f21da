/* Results folders: where results lie on disk, and the one code that walks
 * them. A folder is a directory with result.json files in it or up to two
 * levels below, as starve leaves them: `starve run -o DIR` writes
 * DIR/result.json, `starve vm -o DIR` DIR/<label>/<profile>/result.json,
 * and --until-decided one such directory per look. Each result opens
 * through the typed view (result-view.h). One that does not is skipped,
 * with a warning naming the file and why, and counted: a caller that
 * decides on what it read says how many it skipped, so it never decides
 * on fewer results than it claims. */
#ifndef STARVE_RESULTS_DIR_H
#define STARVE_RESULTS_DIR_H

#include <stddef.h>

#include "reports/result/result-view.h"

#define RESULTS_MAX 64		/* results one set holds */

/* The results read so far, in the order found. Zero-initialised is empty. */
struct results {
	struct result_view *v[RESULTS_MAX];
	size_t n;
	size_t skipped;		/* result files found but not read: each warned */
};

/* Append the results of PATH to R. A directory: every result.json in it,
 * then one, then two levels below, each level in path order; a file that
 * is not a valid result is skipped (warned, counted). Anything else is a
 * result named by itself, and must be one: when it is not (or does not
 * exist), or R is full, the error is printed and -1 returned. Returns how
 * many result files PATH holds, read or skipped. */
int results_add(struct results *r, const char *path);

/* Free the views (a caller that kept one sets its slot to NULL first). */
void results_free(struct results *r);

#endif
