/* Verdicts: each profile expectation checked against each run of a setting it
 * applies to, computed from result.json alone (so `starve report
 * --recompute` gives the same answer as the run), and the summary with the
 * exit code. Rules: doc/result-format.md ("Verdicts"). Also the small
 * helpers every report format shares (labels, value formatting, grouping). */
#ifndef STARVE_VERDICT_H
#define STARVE_VERDICT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* A run whose sampler reached less than this share of its target rate, or
 * whose loads' CPUs were busier than this with other tasks, is undecided. */
#define VERDICT_MIN_SAMPLER_RATIO 0.95
#define VERDICT_MAX_NOISE 0.10
/* Steal above this share of the loads' CPUs makes a run noisy: CPU time
 * vanishes and reappears, so even a measured failure may be the VM's. */
#define VERDICT_MAX_STEAL 0.02

/* In order of severity: the summary is the worst verdict (fail > undecided
 * > pass > skip). */
enum verdict_kind { VERDICT_SKIP, VERDICT_PASS, VERDICT_UNDECIDED, VERDICT_FAIL };

struct verdict_opts {
	bool undecided_fails;	/* undecided verdicts exit 1 instead of 0 with a warning */
};

/* Fill run.verdicts of every run and the top-level summary of RESULT,
 * replacing what was there. Options come from the existing summary
 * ("undecided_fails"), default false. Returns the exit code (0 pass or
 * undecided, 1 fail, 4 all skipped) or -1 with an error printed when RESULT
 * is malformed. */
int verdicts_apply(json_t *result);
int verdicts_apply_opts(json_t *result, const struct verdict_opts *opts);

const char *verdict_name(enum verdict_kind v);
/* The kind named by S ("pass"...); -1 for anything else. */
int verdict_parse(const char *s);
/* The kind of a verdict object; VERDICT_UNDECIDED when it is malformed. */
enum verdict_kind verdict_kind_of(const json_t *verdict);
/* "PASS", "FAIL", "SKIP", "UNDECIDED" for tables. */
const char *verdict_upper(enum verdict_kind v);

/* OBJ[KEY] as a string, or DEF when absent or not a string. */
const char *verdict_str(const json_t *obj, const char *key, const char *def);

/* VALUE of METRIC with its unit, for humans: "1.31s", "0.052", "1.2e+06/s". */
const char *verdict_format_value(const char *metric, double value, char *buf, size_t len);
/* "victim.starvation_max below 1.2s" for an expectation or a verdict object
 * (both carry load, metric, op, threshold and maybe threshold_text). */
const char *verdict_label(const json_t *expect, char *buf, size_t len);
/* True when EXPECT applies to runs of SETTING (its "setting" is null/absent
 * or equal). */
bool verdict_applies(const json_t *expect, const char *setting);
/* True when RUN is a run of SETTING (false when it has no setting). */
bool verdict_run_is(const json_t *run, const char *setting);
/* True when verdict object V was computed for expectation EXPECT. */
bool verdict_matches(const json_t *v, const json_t *expect);

/* Names of the settings in the order the profile declares them, falling
 * back to the order they first appear in runs. Returns a new array of
 * strings (json_decref it). */
json_t *verdict_settings(const json_t *result);
/* Repetitions in the result: 1 + the largest run "repetition". */
int verdict_repetitions(const json_t *result);

#endif
