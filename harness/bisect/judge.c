/* Is a kernel "bad"? Its results against the good kernel's, through the
 * looks of reports/compare/compare-looks.h (starve compare's gate: a gated
 * regression or a confirmed verdict flip, or with --metric a significant
 * change of one LOAD.METRIC, each at the comparison's alpha after Holm).
 * Here: one --git-step's judgement, and the evidence printed at the end: the
 * comparison of the last good and the first bad kernel, and who ran instead
 * where exact mode ran. */
#include "config.h"
#include "harness/bisect/bisect.h"
#include "lib/error.h"
#include "reports/compare/compare.h"
#include "reports/compare/compare-looks.h"
#include "reports/format/who-ran.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bisect_git_judge(const char *baseline, const char *dir, const struct looks_rule *rule)
{
	static const char *const word[] = { [BISECT_GOOD] = "good", [BISECT_BAD] = "bad",
					    [BISECT_SKIP] = "untestable", [BISECT_UNSURE] = "undecided" };
	struct looks_sides s = { .base = &baseline, .n_base = 1, .dirs = &dir, .n = 1 };
	char figure[512];
	int state = looks_judge(&s, rule, figure, sizeof(figure));

	printf("%s: %s\n", word[state], figure);
	return state == BISECT_BAD ? BISECT_FOUND : state == BISECT_GOOD ? BISECT_NO_CHANGE :
	       BISECT_GIT_SKIP;
}

static void bisect_who_line(void *data, const struct rv_run *run, const char *label,
			    const char *line)
{
	(void)run;
	printf("  %s %s: %s\n", (const char *)data, label, line);
}

void bisect_evidence(const struct looks_sides *good, const struct looks_sides *bad,
		     const char *good_label, const char *bad_label, const struct looks_rule *rule)
{
	struct looks_results g, b;
	const char *load;
	struct cmp_options opt = looks_cmp_options(rule, &load);

	looks_collect(good->dirs, good->n, &g);
	looks_collect(bad->dirs, bad->n, &b);
	for (size_t i = 0; i < g.n; i++) {
		const struct result_view *views[2] = { g.v[i], looks_find(&b, g.v[i]->profile.name) };
		const char *labels[2] = { good_label, bad_label };
		struct cmp_table t;

		if (!views[1] || cmp_build_results(&t, views, labels, 2, &opt) < 0)
			continue;
		printf("\n== %s: last good %s against first bad %s\n", g.v[i]->profile.name,
		       good_label, bad_label);
		cmp_print_text(&t, stdout);
		cmp_free(&t);
		if (who_ran_any(views[0]) || who_ran_any(views[1])) {
			printf("who ran instead (exact mode):\n");
			who_ran_each(views[0], bisect_who_line, (void *)good_label);
			who_ran_each(views[1], bisect_who_line, (void *)bad_label);
		}
	}
	looks_results_free(&g);
	looks_results_free(&b);
}
