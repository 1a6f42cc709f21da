/* Verdicts: each profile expectation checked against each run of a setting it
 * applies to, computed from result.json alone (so `starve report
 * --recompute` gives the same answer as the run), and the summary with the
 * exit code. Rules: doc/result-format.md ("Verdicts"). Judging reads the
 * typed view (reports/result/result-view.h); the verdicts and the summary are then
 * written into the tree that result_write() writes. Also the labels every
 * report shows. */
#ifndef STARVE_VERDICT_H
#define STARVE_VERDICT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "reports/result/result-view.h"

/* A run whose sampler reached less than this share of its target rate, or
 * whose loads' CPUs were busier than this with other tasks, is undecided. */
#define VERDICT_MIN_SAMPLER_RATIO 0.95
#define VERDICT_MAX_NOISE 0.10
/* Steal above this share of the loads' CPUs makes a run noisy: CPU time
 * vanishes and reappears, so even a measured failure may be the VM's. */
#define VERDICT_MAX_STEAL 0.02

struct verdict_opts {
	bool undecided_fails;	/* undecided verdicts exit 1 instead of 0 with a warning */
};

/* Fill run.verdicts of every run and the top-level summary of RESULT,
 * replacing what was there. Without OPTS (verdicts_apply, or NULL), the
 * options are those the summary recorded ("undecided_fails"). Returns the exit code (0 pass or
 * undecided, 1 fail, 4 all skipped) or -1 with an error printed when RESULT
 * is not a valid result (the message names the place). */
int verdicts_apply(json_t *result);
int verdicts_apply_opts(json_t *result, const struct verdict_opts *opts);
/* The same on a result already viewed: judge on *V, write the verdicts and
 * the summary into its tree, and replace *V with the view of what was
 * written (without checking the result again). Returns the exit code, or
 * -1 with an error printed and *V NULL. */
int verdicts_rejudge(struct result_view **v, const struct verdict_opts *opts);

/* "victim.starvation_max below 1.2s" for an expectation or a verdict. */
const char *verdict_label(const struct rv_rule *rule, char *buf, size_t len);
/* The threshold as the profile wrote it ("1.2s"), else formatted. */
const char *verdict_threshold_text(const struct rv_rule *rule, char *buf, size_t len);
/* True when RUN's figures would make its verdicts undecided although it
 * ran: other tasks on the loads' CPUs, or a sampler that fell behind. */
bool verdict_run_noisy(const struct rv_run *run);
/* True when the sampler of RUN fell under VERDICT_MIN_SAMPLER_RATIO. */
bool verdict_sampler_slow(const struct rv_run *run);

#endif
