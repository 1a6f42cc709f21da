/* Repetitions until decided (doc/ci-gating.md, "Repetitions until
 * decided"): two sides whose runs lie in one directory per look, judged with
 * starve compare's gate at alpha spent over the planned looks (Bonferroni),
 * and the loop that adds a look of the baseline and of each undecided side
 * while a row is neither changed nor within its threshold. Shared by
 * `starve vm`, `starve bisect` and `starve compare --until-decided`, which
 * each say only where a look's results go and how a look runs. */
#ifndef STARVE_REPORTS_COMPARE_LOOKS_H
#define STARVE_REPORTS_COMPARE_LOOKS_H

#include "reports/compare/compare.h"
#include "reports/result/result-view.h"
#include "reports/result/results-dir.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LOOKS_MAX 8		/* looks of one side at most */

/* A side against the baseline. The order is bisect.log's (harness/bisect). */
enum looks_state {
	LOOKS_SAME,		/* no regression: every gated row equivalent or improved
				 * (--metric: that row equivalent) */
	LOOKS_CHANGED,		/* a regression (--metric: that row changed either way) */
	LOOKS_MISSING,		/* a result of the baseline's profiles is missing */
	LOOKS_OPEN,		/* undecided: neither (more looks may decide it) */
};

/* What makes a side "changed" against the baseline, and when it is decided. */
struct looks_rule {
	const char *load, *metric;	/* LOAD.METRIC either way; NULL: a gated regression
					 * or a confirmed verdict flip */
	double alpha;
	/* add looks while a row of the family is neither changed nor within
	 * its threshold, up to `looks`; each look tests at alpha / looks */
	bool until_decided;
	size_t looks;			/* planned; 0 or 1: one look at alpha */
	size_t max_repeat;		/* runs a side at most */
	long long budget_ns;		/* time limit of the added looks; 0 none */
	const struct cmp_options *cmp;	/* compare's thresholds and gate; NULL: the defaults */
};

/* The runs of a comparison's two sides, each in one or more directories
 * (one per look: a result.json, or a directory with result.json up to two
 * levels below), merged by profile. */
struct looks_sides {
	const char *const *base;
	size_t n_base;
	const char *const *dirs;
	size_t n;
};

/* The state of S's dirs against S's base over every profile of the base;
 * FIGURE: the row that decided it, with p_holm and the runs a side
 * ("victim cpu_share -38.9% p_holm 0.0003 (regression), 6 runs against 6"). */
int looks_judge(const struct looks_sides *s, const struct looks_rule *rule, char *figure,
		size_t len);

/* The runs with status ok of the first result under DIR. */
size_t looks_runs(const char *dir);

/* The looks planned before any data: --max-repeat over the runs one look
 * gives (10 / 3: 3 looks), 1 without --until-decided, at most LOOKS_MAX. */
size_t looks_planned(const struct looks_rule *rule, size_t runs_per_look);

/* How one caller runs looks. Side 0 is the baseline, 1..n the compared. */
struct looks_driver {
	struct looks_rule rule;		/* rule.looks is set by looks_decide */
	size_t n;			/* compared sides */
	/* the directory of SIDE's LOOK (LOOK from 1) */
	void (*dir)(void *data, size_t side, size_t look, char *buf, size_t len);
	/* run SIDE's LOOK into its directory; < 0 stops the looks */
	int (*run)(void *data, size_t side, size_t look);
	void *data;
	const char *const *names;	/* each side's name in progress lines */
};

struct looks_outcome {
	int state;			/* enum looks_state */
	size_t looks;			/* looks judged */
	size_t runs_base, runs;		/* runs with status ok: the baseline's, the side's */
	char figure[400];
};

/* With every side's first look run: judge each side, then while one is
 * open and the planned looks and the budget allow, run a look of the
 * baseline and then of each open side (interleaved, so both see the same
 * drift of the machine) and judge the open ones on all their looks. OUT has
 * d->n + 1 entries (OUT[0] the baseline's, its runs only). Returns the
 * planned looks, or -1 when a run stopped the looks (OUT holds the last
 * judgement). */
int looks_decide(const struct looks_driver *d, struct looks_outcome *out);

/* "no regression" or "regression" (RULE without a metric), "equivalent" or
 * "changed" (with one), "missing", "undecided". */
const char *looks_state_name(const struct looks_rule *rule, int state);

/* The results of N directories (reports/result/results-dir.h) merged by
 * profile (each look's runs appended to the first's, renumbered), for a
 * caller that builds its own comparison of them (bisect's evidence). */
#define LOOKS_MAX_RESULTS 32
struct looks_results {
	struct result_view *v[LOOKS_MAX_RESULTS];
	size_t n;
	size_t skipped;		/* result files not read or not merged: each warned */
};
void looks_collect(const char *const *dirs, size_t n, struct looks_results *r);
void looks_results_free(struct looks_results *r);
const struct result_view *looks_find(const struct looks_results *r, const char *profile);
/* compare's options for RULE at one look's alpha; *LOAD holds --metric's load. */
struct cmp_options looks_cmp_options(const struct looks_rule *rule, const char **load);

#endif
