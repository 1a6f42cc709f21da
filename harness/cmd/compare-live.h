/* starve compare --until-decided A.yaml B.yaml: an A/B on this live kernel
 * (two profiles, or one profile's two versions: a knob set, a load moved),
 * run in turn until decided (compare-live.c). */
#ifndef STARVE_CMD_COMPARE_LIVE_H
#define STARVE_CMD_COMPARE_LIVE_H

#include "reports/compare/compare.h"

#include <stddef.h>
#include <stdint.h>

struct compare_live {
	const char *profiles[2];	/* A (the baseline), B */
	char *const *run_args;		/* after "--": options of starve run */
	size_t n_run_args;
	const char *output;		/* -o DIR; NULL: results/ab-<UTC time> */
	const struct cmp_options *opt;	/* --alpha, --gate, --threshold... */
	size_t max_repeat;
	int64_t budget_ns;
};

/* Run A then B (a look each: the profile's repetitions), then more looks
 * while a gated row is undecided; print each look, the decision with the
 * runs each side took, and the comparison of all runs. Returns the exit
 * status: 0 the same, 1 a gated regression or a flip to fail, 2 a run
 * refused the profile or options, 3 undecided within --max-repeat or
 * --budget, or a run failed. */
int compare_live_run(const struct compare_live *l);

#endif
