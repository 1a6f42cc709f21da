/* The looks of one profile as one result (rv_merge, result-view.h): the
 * runs of --until-decided's looks lie in one result.json a look, and a
 * comparison takes them as the runs of one side. Part of the view: the one
 * other place besides result-view-build.h that knows the tree's keys. */
#include "config.h"
#include "reports/result/result-view.h"

#include <stdio.h>

/* Append copies of FROM's runs to RUNS, each numbered as the next
 * repetition (what the view's setting order expects of a later look). */
static int rv_merge_runs(json_t *runs, const json_t *from)
{
	size_t i;
	json_t *run;

	json_array_foreach(json_object_get(from, "runs"), i, run) {
		json_t *copy = json_deep_copy(run);

		if (!copy || json_object_set_new(copy, "repetition",
						 json_integer((json_int_t)json_array_size(runs))) ||
		    json_array_append_new(runs, copy))
			return -1;
	}
	return 0;
}

struct result_view *rv_merge(const struct result_view *const *v, size_t n, char *why,
			     size_t why_len)
{
	json_t *tree = json_deep_copy(v[0]->tree), *runs = json_object_get(tree, "runs");
	struct result_view *merged = NULL;
	size_t i = 1;

	while (runs && i < n && rv_merge_runs(runs, v[i]->tree) == 0)
		i++;
	if (runs && i == n)
		merged = rv_build(tree, v[0]->file, why, why_len);
	else
		snprintf(why, why_len, "%s: out of memory merging its looks", v[0]->file);
	json_decref(tree);
	return merged;
}
