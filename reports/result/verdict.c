/* Verdicts (reports/result/verdict.h): every expectation of the profile checked
 * against every run of a setting it applies to, and the summary. Everything
 * is read from the result's view, never from the live machine, so a result
 * can be re-judged later with `starve report --recompute`. */
#include "config.h"
#include "reports/result/verdict.h"
#include "reports/result/verdict-json.h"
#include "lib/error.h"
#include "lib/metric.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

const char *verdict_threshold_text(const struct rv_rule *rule, char *buf, size_t len)
{
	if (rule->threshold_text && *rule->threshold_text)
		return rule->threshold_text;
	return metric_format(rule->metric, rule->threshold, METRIC_DIGITS, buf, len);
}

const char *verdict_label(const struct rv_rule *rule, char *buf, size_t len)
{
	char thr[64];

	snprintf(buf, len, "%s.%s %s %s", rule->load, rule->metric, result_op_name(rule->op),
		 verdict_threshold_text(rule, thr, sizeof(thr)));
	return buf;
}

bool verdict_sampler_slow(const struct rv_run *run)
{
	return run->sampler.present &&
	       run->sampler.achieved_hz < VERDICT_MIN_SAMPLER_RATIO * run->sampler.target_hz;
}

/* The hypervisor stole CPU time (it vanished: a victim may look starved
 * when its whole CPU was), or a task's CPU clock jumped ahead of wall time. */
static bool verdict_stolen(const struct rv_run *run)
{
	return run->steal_share > VERDICT_MAX_STEAL || run->sampler.cpu_clock_jumps > 0;
}

bool verdict_run_noisy(const struct rv_run *run)
{
	return run->other_cpu_share > VERDICT_MAX_NOISE || verdict_stolen(run) ||
	       verdict_sampler_slow(run);
}

/* ---- judging one expectation against one run ---- */

static bool verdict_holds(enum result_op op, double value, double threshold)
{
	return op == RESULT_BELOW ? value < threshold : value > threshold;
}

/* Why RUN's measurements cannot be trusted, or NULL when they can. */
static const char *verdict_untrusted(const struct rv_run *run, char *buf, size_t len)
{
	if (run->status != RESULT_OK) {
		snprintf(buf, len, "run %s: %s", result_status_name(run->status),
			 run->reason ? run->reason : "no reason given");
		return buf;
	}
	/* whichever source: an event or a task it could not follow leaves a
	 * stretch out of the figures, and the worst may be that one */
	if (run->exact.present && (run->exact.lost_events > 0 || run->exact.lost_tasks > 0)) {
		snprintf(buf, len, "the exact source (%s) lost %ld scheduler event%s and %ld "
			 "task%s (a buffer or table was full): its figures miss stretches",
			 run->exact.source ? run->exact.source : "?", run->exact.lost_events,
			 run->exact.lost_events == 1 ? "" : "s", run->exact.lost_tasks,
			 run->exact.lost_tasks == 1 ? "" : "s");
		return buf;
	}
	if (run->other_cpu_share > VERDICT_MAX_NOISE) {
		snprintf(buf, len,
			 "other tasks used %.0f%% of the loads' CPUs (more than %.0f%%): too noisy",
			 run->other_cpu_share * 100, VERDICT_MAX_NOISE * 100);
		return buf;
	}
	return NULL;
}

/* Why RUN's figures may be off by the noise, or NULL: the hypervisor stole
 * CPU time, or a task's CPU clock jumped ahead of wall time (under
 * emulation the guest's clocks jump without any steal being reported). */
static const char *verdict_noisy(const struct rv_run *run, char *buf, size_t len)
{
	if (run->steal_share > VERDICT_MAX_STEAL) {
		snprintf(buf, len, "the hypervisor stole %.1f%% of the loads' CPUs' time (more "
			 "than %.0f%%)", run->steal_share * 100, VERDICT_MAX_STEAL * 100);
		return buf;
	}
	if (run->sampler.cpu_clock_jumps > 0) {
		snprintf(buf, len, "CPU clocks jumped %ld time%s (a task got more CPU time than "
			 "wall time: steal on a VM, or emulation)", run->sampler.cpu_clock_jumps,
			 run->sampler.cpu_clock_jumps == 1 ? "" : "s");
		return buf;
	}
	return NULL;
}

/* How far the noise in RUN could have moved a figure of METRIC, in the
 * metric's unit, or NAN when it has no such bound (counts, rates, a result
 * from before the jumps were measured). A task's waits and CPU share are off
 * by at most the CPU time that vanished (steal share x the run) plus the
 * time that reappeared at once in clock jumps. */
static double verdict_noise_bound(const struct rv_run *run, const char *metric)
{
	const struct metric_def *def = metric_find(metric);
	double jump_s = run->sampler.cpu_clock_jump_s, noise_s;

	if (isnan(jump_s) && run->sampler.cpu_clock_jumps > 0)
		return NAN;
	if (!def || isnan(run->duration_s) || run->duration_s <= 0)
		return NAN;
	noise_s = (isnan(run->steal_share) ? 0 : run->steal_share) * run->duration_s +
		  (isnan(jump_s) ? 0 : jump_s);
	if (def->unit == METRIC_SECONDS)
		return noise_s;
	if (def->unit == METRIC_RATIO)
		return noise_s / run->duration_s;
	return NAN;
}

/* E in the noisy RUN (NOISY says why): PASS or FAIL when VALUE meets or
 * misses the threshold by more than the noise bound, else UNDECIDED with
 * the reason; BOUND receives the bound, its text in BOUND_TEXT. */
static enum verdict_kind verdict_margin(const struct rv_run *run, const struct rv_rule *e,
					double value, const char *noisy, char *bound_text,
					size_t bound_len, char *reason, size_t len)
{
	double bound = verdict_noise_bound(run, e->metric);
	char val[64], thr[64];

	if (isnan(bound)) {
		snprintf(reason, len, "%s: too noisy, and %s has no noise bound", noisy, e->metric);
		return VERDICT_UNDECIDED;
	}
	metric_format(e->metric, bound, METRIC_DIGITS, bound_text, bound_len);
	if (fabs(value - e->threshold) > bound)
		return verdict_holds(e->op, value, e->threshold) ? VERDICT_PASS : VERDICT_FAIL;
	snprintf(reason, len, "%s %s %s is within %s of %s: %s, and the stolen and jumped CPU "
		 "time (%s) could move it across", e->load, e->metric,
		 metric_format(e->metric, value, METRIC_DIGITS, val, sizeof(val)), bound_text,
		 verdict_threshold_text(e, thr, sizeof(thr)), noisy, bound_text);
	return VERDICT_UNDECIDED;
}

/* Why E cannot be decided in RUN though VALUE was measured: the metric has
 * an upper bound (late sampler ticks merged waits: the value is what was
 * certainly seen) and the threshold lies between the two, so the verdict
 * would rest on the part the sampler could not see. NULL otherwise. */
static const char *verdict_uncertain(const struct rv_run *run, const struct rv_rule *e,
				     double value, char *buf, size_t len)
{
	char key[128], lo[64], hi[64];
	double upper;

	snprintf(key, sizeof(key), "%s_upper", e->metric);
	upper = rv_load_metric(rv_run_load(run, e->load), key);
	if (isnan(upper) || verdict_holds(e->op, value, e->threshold) ==
				    verdict_holds(e->op, upper, e->threshold))
		return NULL;
	snprintf(buf, len, "%s is between %s and %s, which the threshold splits: late sampler "
		 "ticks merged waits (exact mode, trace: true, can tell)", e->metric,
		 metric_format(e->metric, value, METRIC_DIGITS, lo, sizeof(lo)),
		 metric_format(e->metric, upper, METRIC_DIGITS, hi, sizeof(hi)));
	return buf;
}

/* Whether a sampler that fell behind leaves a pass of E in RUN in doubt:
 * it can merge waits but never invent one (stretches are measured by the
 * run_delay jump, shares by CPU clocks over the run), so only a stretch in
 * seconds is in doubt, and only one that has no upper bound in the metric
 * registry: starvation_max_upper says what merging could hide (absent: the
 * value is exact; verdict_uncertain() weighs it). */
static bool verdict_slow_doubt(const struct rv_run *run, const struct rv_rule *e)
{
	const struct metric_def *def = metric_find(e->metric);
	char key[128];

	if (!verdict_sampler_slow(run) || (def && def->unit != METRIC_SECONDS))
		return false;
	snprintf(key, sizeof(key), "%s_upper", e->metric);
	return !metric_find(key);
}

/* Decide E in RUN, whose measured value is VALUE (NAN: none): writes the
 * reason (or "") and returns the kind. A noisy run (stolen time, clock
 * jumps) still decides when the value misses or meets the threshold by
 * more than the noise could move it (verdict_margin()). */
static enum verdict_kind verdict_decide(const struct result_view *v, const struct rv_run *run,
					const struct rv_rule *e, double value, char *reason,
					size_t len)
{
	char buf[512], val[64], thr[64], bound[64] = "";
	const char *why;

	reason[0] = '\0';
	if (run->status == RESULT_SKIPPED) {
		snprintf(reason, len, "%s", run->reason ? run->reason : "the run was skipped");
		return VERDICT_SKIP;
	}
	why = verdict_untrusted(run, buf, sizeof(buf));
	if (why) {
		snprintf(reason, len, "%s", why);
		return VERDICT_UNDECIDED;
	}
	if (isnan(value)) {
		snprintf(reason, len, "metric %s not measured for load %s", e->metric, e->load);
		return VERDICT_UNDECIDED;
	}
	why = verdict_uncertain(run, e, value, buf, sizeof(buf));
	if (why) {
		snprintf(reason, len, "%s", why);
		return VERDICT_UNDECIDED;
	}
	why = verdict_noisy(run, buf, sizeof(buf));
	if (why && verdict_margin(run, e, value, why, bound, sizeof(bound), reason, len) ==
		   VERDICT_UNDECIDED)
		return VERDICT_UNDECIDED;
	if (verdict_holds(e->op, value, e->threshold)) {
		if (!verdict_slow_doubt(run, e))
			return VERDICT_PASS;
		snprintf(reason, len, "sampler reached %.1f Hz of its %.0f Hz target (below %.0f%%)",
			 run->sampler.achieved_hz, run->sampler.target_hz,
			 VERDICT_MIN_SAMPLER_RATIO * 100);
		return VERDICT_UNDECIDED;
	}
	snprintf(reason, len, "%s %s %s is not %s %s (setting %s, kernel %s)%s%s%s", e->load,
		 e->metric, metric_format(e->metric, value, METRIC_DIGITS, val, sizeof(val)),
		 result_op_name(e->op), verdict_threshold_text(e, thr, sizeof(thr)), run->setting,
		 v->kernel.release ? v->kernel.release : "unknown",
		 bound[0] ? ", by more than the noise could move it (stolen and jumped CPU time " : "",
		 bound, bound[0] ? ")" : "");
	return VERDICT_FAIL;
}

/* The kinds of verdict each expectation got in each setting: a bit per
 * enum verdict_kind, at [expectation * settings + setting]. */
struct verdict_seen {
	unsigned char *bits;
	size_t n_settings;
};

/* The verdicts of every applicable expectation in RUN as a list; the
 * tally's counts go up, and SEEN has each kind. */
static json_t *verdict_run(const struct result_view *v, const struct rv_run *run,
			   struct verdict_tally *t, struct verdict_seen *seen)
{
	size_t setting = run->setting_index < seen->n_settings ? run->setting_index : 0;

	json_t *list = json_array();

	for (size_t i = 0; list && i < v->profile.n_expect; i++) {
		const struct rv_expect *e = &v->profile.expect[i];
		struct verdict_record r = { .run = run, .expect = i };
		json_t *o;

		if (!rv_expect_applies(e, run->setting))
			continue;
		r.value = rv_load_metric(rv_run_load(run, e->rule.load), e->rule.metric);
		r.kind = verdict_decide(v, run, &e->rule, r.value, r.reason, sizeof(r.reason));
		o = verdict_record_json(v, &r);
		if (!o || json_array_append_new(list, o) < 0) {
			json_decref(list);
			return NULL;
		}
		t->counts[r.kind]++;
		seen->bits[i * seen->n_settings + setting] |= (unsigned char)(1u << r.kind);
	}
	return list;
}

/* ---- the summary ---- */

/* True when there are runs and every one of them was skipped. */
static bool verdict_all_runs_skipped(const struct result_view *v)
{
	for (size_t i = 0; i < v->n_runs; i++)
		if (v->runs[i].status != RESULT_SKIPPED)
			return false;
	return v->n_runs > 0;
}

/* True when some run completed (status ok): there are measurements. */
static bool verdict_any_run_ok(const struct result_view *v)
{
	for (size_t i = 0; i < v->n_runs; i++)
		if (v->runs[i].status == RESULT_OK)
			return true;
	return false;
}

/* One expectation in one setting, over its runs: failed when a run failed;
 * passed when one passed (an undecided run beside it is a warning, not a
 * verdict); undecided when only undecided runs judged it; -1 when no run
 * of the setting applied it; skipped when every run was skipped. */
static int verdict_expectation(unsigned char bits)
{
	static const enum verdict_kind order[] = { VERDICT_FAIL, VERDICT_PASS, VERDICT_UNDECIDED,
						   VERDICT_SKIP };

	for (size_t i = 0; i < 4; i++)
		if (bits & (1u << order[i]))
			return (int)order[i];
	return -1;
}

/* The result as a whole: FAIL when an expectation failed; UNDECIDED when
 * one was judged only by undecided runs, or when the data cannot show a
 * pass at all (no repetition completed, or the run was interrupted before
 * every setting ran); PASS when every expectation that was judged passed
 * somewhere; SKIP when everything was skipped. So PASS always rests on
 * measurements, as compare's NO REGRESSION does. */
static enum verdict_kind verdict_worst(const struct result_view *v, const struct verdict_seen *seen)
{
	bool fail = false, open = false;

	for (size_t i = 0; i < v->profile.n_expect * seen->n_settings; i++) {
		int kind = verdict_expectation(seen->bits[i]);

		fail |= kind == VERDICT_FAIL;
		open |= kind == VERDICT_UNDECIDED;
	}
	if (fail)
		return VERDICT_FAIL;
	if (verdict_all_runs_skipped(v) && !open)
		return VERDICT_SKIP;
	if (open || !verdict_any_run_ok(v) || !v->complete)
		return VERDICT_UNDECIDED;
	return VERDICT_PASS;	/* every judged expectation passed, or there are none */
}

/* The tally's worst verdict, exit code and warning. */
static void verdict_sum_up(const struct result_view *v, const struct verdict_seen *seen,
			   struct verdict_tally *t)
{
	unsigned undecided = t->counts[VERDICT_UNDECIDED];

	t->worst = verdict_worst(v, seen);
	t->exit_code = EXIT_PASS;
	if (t->worst == VERDICT_FAIL || (t->worst == VERDICT_UNDECIDED && t->undecided_fails))
		t->exit_code = EXIT_VERDICT_FAIL;
	else if (t->worst == VERDICT_SKIP)
		t->exit_code = EXIT_ALL_SKIPPED;
	else if (t->worst == VERDICT_UNDECIDED)
		t->exit_code = EXIT_UNDECIDED;	/* no verdict: not a pass */
	if (t->worst == VERDICT_UNDECIDED && !verdict_any_run_ok(v))
		snprintf(t->warning, sizeof(t->warning), "no repetition completed: nothing was "
			 "measured, so nothing passed");
	else if (t->worst == VERDICT_UNDECIDED && !v->complete && !undecided)
		snprintf(t->warning, sizeof(t->warning), "the run was interrupted before every "
			 "setting ran: a partial result is not a pass");
	else if (undecided && !t->undecided_fails)
		snprintf(t->warning, sizeof(t->warning),
			 "%u verdict%s undecided: the measurement was not trustworthy "
			 "(see the reasons)%s", undecided, undecided == 1 ? "" : "s",
			 t->worst == VERDICT_UNDECIDED ? "; an expectation no run decided is not "
			 "a pass" : "; each expectation passed in another run");
}

/* Judge on V; the new verdict lists (one per run) and summary are returned,
 * not yet in V's tree, since V points into it. OPTS NULL: the options the
 * summary recorded. */
static int verdict_judge(const struct result_view *v, const struct verdict_opts *opts,
			 json_t **lists, json_t **summary)
{
	struct verdict_tally t = { .undecided_fails = opts ? opts->undecided_fails :
							     v->summary.undecided_fails };
	struct verdict_seen seen = { .n_settings = v->n_setting_names ? v->n_setting_names : 1 };

	seen.bits = calloc(v->profile.n_expect * seen.n_settings + 1, 1);
	*lists = seen.bits ? json_array() : NULL;
	for (size_t i = 0; *lists && i < v->n_runs; i++)
		if (json_array_append_new(*lists, verdict_run(v, &v->runs[i], &t, &seen)) < 0)
			break;
	verdict_sum_up(v, &seen, &t);
	free(seen.bits);
	*summary = verdict_tally_json(&t);
	if (!*lists || json_array_size(*lists) != v->n_runs || !*summary)
		return error("out of memory");
	return t.exit_code;
}

int verdicts_rejudge(struct result_view **v, const struct verdict_opts *opts)
{
	json_t *lists = NULL, *summary = NULL;
	int code = verdict_judge(*v, opts, &lists, &summary);
	char why[512];

	if (code >= 0)
		verdict_json_store((json_t *)(*v)->tree, lists, summary);
	json_decref(lists);
	json_decref(summary);
	if (code < 0) {
		rv_free(*v);
		*v = NULL;
		return -1;
	}
	*v = rv_reread(*v, why, sizeof(why));
	return *v ? code : error("%s", why);
}

int verdicts_apply_opts(json_t *result, const struct verdict_opts *opts)
{
	char why[1024];
	struct result_view *v = rv_build(result, "malformed result", why, sizeof(why));
	int code;

	if (!v)
		return error("%s", why);
	code = verdicts_rejudge(&v, opts);
	rv_free(v);
	return code;
}

int verdicts_apply(json_t *result)
{
	return verdicts_apply_opts(result, NULL);
}
