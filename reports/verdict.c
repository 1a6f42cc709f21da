/* Verdicts (reports/verdict.h): every expectation of the profile checked
 * against every run of a setting it applies to, and the summary. Everything
 * is read from the result tree, never from the live machine, so a result can
 * be re-judged later with `starve report --recompute`. */
#include "config.h"
#include "reports/verdict.h"
#include "lib/duration.h"
#include "lib/error.h"
#include "lib/metric.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *const verdict_names[] = {
	[VERDICT_SKIP] = "skip", [VERDICT_PASS] = "pass",
	[VERDICT_UNDECIDED] = "undecided", [VERDICT_FAIL] = "fail",
};
static const char *const verdict_uppers[] = {
	[VERDICT_SKIP] = "SKIP", [VERDICT_PASS] = "PASS",
	[VERDICT_UNDECIDED] = "UNDECIDED", [VERDICT_FAIL] = "FAIL",
};

const char *verdict_name(enum verdict_kind v)
{
	return verdict_names[v];
}

const char *verdict_upper(enum verdict_kind v)
{
	return verdict_uppers[v];
}

int verdict_parse(const char *s)
{
	for (int i = 0; s && i < (int)(sizeof(verdict_names) / sizeof(verdict_names[0])); i++)
		if (!strcmp(s, verdict_names[i]))
			return i;
	return -1;
}

enum verdict_kind verdict_kind_of(const json_t *verdict)
{
	int k = verdict_parse(json_string_value(json_object_get(verdict, "verdict")));

	return k < 0 ? VERDICT_UNDECIDED : (enum verdict_kind)k;
}

const char *verdict_str(const json_t *obj, const char *key, const char *def)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : def;
}

const char *verdict_format_value(const char *metric, double value, char *buf, size_t len)
{
	const struct metric_def *def = metric ? metric_find(metric) : NULL;

	if (!def) {
		snprintf(buf, len, "%g", value);
		return buf;
	}
	switch (def->unit) {
	case METRIC_SECONDS:
		if (fabs(value) < 9e9)	/* fits int64 ns with room to spare */
			return duration_format((int64_t)llround(value * 1e9), buf, len);
		snprintf(buf, len, "%gs", value);
		break;
	case METRIC_RATIO:
		snprintf(buf, len, "%.3g", value);
		break;
	case METRIC_PER_SECOND:
		snprintf(buf, len, "%.3g/s", value);
		break;
	case METRIC_COUNT:
		snprintf(buf, len, "%.0f", value);
		break;
	}
	return buf;
}

static const char *verdict_threshold_text(const json_t *expect, char *buf, size_t len)
{
	const char *text = json_string_value(json_object_get(expect, "threshold_text"));

	if (text && *text)
		return text;
	return verdict_format_value(json_string_value(json_object_get(expect, "metric")),
				    json_number_value(json_object_get(expect, "threshold")), buf, len);
}

const char *verdict_label(const json_t *expect, char *buf, size_t len)
{
	char thr[64];
	const char *load = json_string_value(json_object_get(expect, "load"));
	const char *metric = json_string_value(json_object_get(expect, "metric"));
	const char *op = json_string_value(json_object_get(expect, "op"));

	snprintf(buf, len, "%s.%s %s %s", load ? load : "?", metric ? metric : "?",
		 op ? op : "?", verdict_threshold_text(expect, thr, sizeof(thr)));
	return buf;
}

static bool verdict_str_eq(const json_t *a, const json_t *b, const char *key)
{
	const char *x = json_string_value(json_object_get(a, key));
	const char *y = json_string_value(json_object_get(b, key));

	return x && y && !strcmp(x, y);
}

bool verdict_applies(const json_t *expect, const char *setting)
{
	const char *only = json_string_value(json_object_get(expect, "setting"));

	return !only || (setting && !strcmp(only, setting));
}

bool verdict_run_is(const json_t *run, const char *setting)
{
	const char *name = json_string_value(json_object_get(run, "setting"));

	return name && setting && !strcmp(name, setting);
}

bool verdict_matches(const json_t *v, const json_t *expect)
{
	return verdict_str_eq(v, expect, "load") && verdict_str_eq(v, expect, "metric") &&
	       verdict_str_eq(v, expect, "op") &&
	       json_number_value(json_object_get(v, "threshold")) ==
		       json_number_value(json_object_get(expect, "threshold"));
}

static bool verdict_array_has(const json_t *names, const char *name)
{
	size_t i;
	json_t *n;

	json_array_foreach(names, i, n)
		if (!strcmp(json_string_value(n), name))
			return true;
	return false;
}

json_t *verdict_settings(const json_t *result)
{
	json_t *names = json_array(), *s, *run;
	const json_t *settings = json_object_get(json_object_get(result, "profile"), "settings");
	size_t i;

	json_array_foreach(settings, i, s) {
		const char *name = json_string_value(json_object_get(s, "name"));

		if (name && !verdict_array_has(names, name))
			json_array_append_new(names, json_string(name));
	}
	json_array_foreach(json_object_get(result, "runs"), i, run) {
		const char *name = json_string_value(json_object_get(run, "setting"));

		if (name && !verdict_array_has(names, name))
			json_array_append_new(names, json_string(name));
	}
	return names;
}

int verdict_repetitions(const json_t *result)
{
	json_int_t max = -1;
	json_t *run;
	size_t i;

	json_array_foreach(json_object_get(result, "runs"), i, run) {
		json_int_t r = json_integer_value(json_object_get(run, "repetition"));

		if (r > max)
			max = r;
	}
	return (int)(max + 1);
}

/* ---- judging one expectation against one run ---- */

/* Why RUN's CPU time cannot be trusted on a VM, or NULL: the hypervisor
 * stole CPU time (it vanished: a victim may look starved when its whole
 * CPU was), or a task's CPU clock jumped ahead of wall time. */
static const char *verdict_stolen(const json_t *run, char *buf, size_t len)
{
	const json_t *steal = json_object_get(json_object_get(run, "noise"), "steal_share");
	json_int_t jumps = json_integer_value(
		json_object_get(json_object_get(run, "sampler"), "cpu_clock_jumps"));

	if (json_is_number(steal) && json_number_value(steal) > VERDICT_MAX_STEAL) {
		snprintf(buf, len, "the hypervisor stole %.1f%% of the loads' CPUs' time (more "
			 "than %.0f%%): too noisy", json_number_value(steal) * 100,
			 VERDICT_MAX_STEAL * 100);
		return buf;
	}
	if (jumps > 0) {
		snprintf(buf, len, "CPU clocks jumped %lld time%s (a task got more CPU time than "
			 "wall time: steal on a VM): too noisy", (long long)jumps,
			 jumps == 1 ? "" : "s");
		return buf;
	}
	return NULL;
}

/* Why RUN's measurements cannot be trusted, or NULL when they can. */
static const char *verdict_untrusted(const json_t *run, char *buf, size_t len)
{
	const char *status = json_string_value(json_object_get(run, "status"));
	const char *reason = json_string_value(json_object_get(run, "reason"));
	const json_t *sampler = json_object_get(run, "sampler");
	const json_t *noise = json_object_get(json_object_get(run, "noise"), "other_cpu_share");

	if (!status || strcmp(status, "ok")) {
		snprintf(buf, len, "run %s: %s", status ? status : "without a status",
			 reason ? reason : "no reason given");
		return buf;
	}
	if (!json_is_object(sampler))
		return "the run has no sampler figures";
	if (json_is_number(noise) && json_number_value(noise) > VERDICT_MAX_NOISE) {
		snprintf(buf, len,
			 "other tasks used %.0f%% of the loads' CPUs (more than %.0f%%): too noisy",
			 json_number_value(noise) * 100, VERDICT_MAX_NOISE * 100);
		return buf;
	}
	return verdict_stolen(run, buf, len);
}

/* Why RUN's sampler cannot be trusted to have seen everything, or NULL. A
 * sampler that fell behind can miss a starvation stretch but never invents
 * one (stretches are measured by the run_delay jump, shares by CPU clocks),
 * so it only makes a pass doubtful, never a failure. */
static const char *verdict_sampler_slow(const json_t *run, char *buf, size_t len)
{
	const json_t *sampler = json_object_get(run, "sampler");
	double target = json_number_value(json_object_get(sampler, "target_hz"));
	double achieved = json_number_value(json_object_get(sampler, "achieved_hz"));

	if (achieved >= VERDICT_MIN_SAMPLER_RATIO * target)
		return NULL;
	snprintf(buf, len, "sampler reached %.1f Hz of its %.0f Hz target (below %.0f%%)",
		 achieved, target, VERDICT_MIN_SAMPLER_RATIO * 100);
	return buf;
}

/* The measured value of EXPECT's metric in RUN, or NULL; with SUFFIX
 * ("_upper"), the metric's upper bound where the sampler gives one. */
static const json_t *verdict_value_of(const json_t *run, const json_t *expect, const char *suffix)
{
	const char *load = json_string_value(json_object_get(expect, "load"));
	const char *metric = json_string_value(json_object_get(expect, "metric"));
	char key[128];
	json_t *l;
	size_t i;

	json_array_foreach(json_object_get(run, "loads"), i, l) {
		const char *name = json_string_value(json_object_get(l, "name"));
		const json_t *v;

		if (!name || !load || strcmp(name, load))
			continue;
		snprintf(key, sizeof(key), "%s%s", metric ? metric : "", suffix);
		v = json_object_get(json_object_get(l, "metrics"), key);
		return json_is_number(v) ? v : NULL;
	}
	return NULL;
}

static const json_t *verdict_value(const json_t *run, const json_t *expect)
{
	return verdict_value_of(run, expect, "");
}

static bool verdict_holds(const char *op, double value, double threshold)
{
	if (!strcmp(op, "below"))
		return value < threshold;
	return value > threshold;
}

/* Why EXPECT cannot be decided in RUN though VALUE was measured: the
 * metric has an upper bound (late sampler ticks merged waits: the value is
 * what was certainly seen) and the threshold lies between the two, so the
 * verdict would rest on the part the sampler could not see. NULL otherwise. */
static const char *verdict_uncertain(const json_t *run, const json_t *expect,
				     const json_t *value, char *buf, size_t len)
{
	const json_t *upper = verdict_value_of(run, expect, "_upper");
	const char *metric = json_string_value(json_object_get(expect, "metric"));
	const char *op = json_string_value(json_object_get(expect, "op"));
	double thr = json_number_value(json_object_get(expect, "threshold"));
	char lo[64], hi[64];

	if (!upper || verdict_holds(op, json_number_value(value), thr) ==
			      verdict_holds(op, json_number_value(upper), thr))
		return NULL;
	snprintf(buf, len, "%s is between %s and %s, which the threshold splits: late sampler "
		 "ticks merged waits (run in exact mode, trace: true, to tell)", metric,
		 verdict_format_value(metric, json_number_value(value), lo, sizeof(lo)),
		 verdict_format_value(metric, json_number_value(upper), hi, sizeof(hi)));
	return buf;
}

/* Decide EXPECT in RUN: writes the reason (or "") and returns the kind. */
static enum verdict_kind verdict_decide(const json_t *result, const json_t *run,
					const json_t *expect, const json_t *value,
					char *reason, size_t len)
{
	const char *status = json_string_value(json_object_get(run, "status"));
	const char *run_reason = json_string_value(json_object_get(run, "reason"));
	const char *metric = json_string_value(json_object_get(expect, "metric"));
	const char *op = json_string_value(json_object_get(expect, "op"));
	const char *release = json_string_value(
		json_object_get(json_object_get(result, "kernel"), "release"));
	const char *why;
	char buf[512], val[64], thr[64];

	reason[0] = '\0';
	if (status && !strcmp(status, "skipped")) {
		snprintf(reason, len, "%s", run_reason ? run_reason : "the run was skipped");
		return VERDICT_SKIP;
	}
	why = verdict_untrusted(run, buf, sizeof(buf));
	if (why) {
		snprintf(reason, len, "%s", why);
		return VERDICT_UNDECIDED;
	}
	if (!value) {
		snprintf(reason, len, "metric %s not measured for load %s", metric,
			 json_string_value(json_object_get(expect, "load")));
		return VERDICT_UNDECIDED;
	}
	why = verdict_uncertain(run, expect, value, buf, sizeof(buf));
	if (why) {
		snprintf(reason, len, "%s", why);
		return VERDICT_UNDECIDED;
	}
	if (verdict_holds(op, json_number_value(value),
			  json_number_value(json_object_get(expect, "threshold")))) {
		why = verdict_sampler_slow(run, buf, sizeof(buf));
		if (!why)
			return VERDICT_PASS;
		snprintf(reason, len, "%s", why);
		return VERDICT_UNDECIDED;
	}
	snprintf(reason, len, "%s %s %s is not %s %s (setting %s, kernel %s)",
		 json_string_value(json_object_get(expect, "load")), metric,
		 verdict_format_value(metric, json_number_value(value), val, sizeof(val)), op,
		 verdict_threshold_text(expect, thr, sizeof(thr)),
		 json_string_value(json_object_get(run, "setting")), release ? release : "unknown");
	return VERDICT_FAIL;
}

static json_t *verdict_make(const json_t *result, const json_t *run, const json_t *expect,
			    enum verdict_kind *kind)
{
	const json_t *value = verdict_value(run, expect);
	const json_t *thr_text = json_object_get(expect, "threshold_text");
	char reason[768];
	json_t *v;

	*kind = verdict_decide(result, run, expect, value, reason, sizeof(reason));
	v = json_pack("{s:O, s:O, s:O, s:O}", "load", json_object_get(expect, "load"),
		      "metric", json_object_get(expect, "metric"), "op",
		      json_object_get(expect, "op"), "threshold",
		      json_object_get(expect, "threshold"));
	if (!v)
		return NULL;
	if (json_is_string(thr_text))
		json_object_set(v, "threshold_text", (json_t *)thr_text);
	json_object_set_new(v, "value", value ? json_real(json_number_value(value)) : json_null());
	json_object_set_new(v, "verdict", json_string(verdict_name(*kind)));
	json_object_set_new(v, "reason", reason[0] ? json_string(reason) : json_null());
	json_object_set(v, "setting", json_object_get(run, "setting"));
	json_object_set(v, "repetition", json_object_get(run, "repetition"));
	return v;
}

/* ---- the whole result ---- */

/* Expectations well-formed enough to judge: objects with string load,
 * metric, op in {below, above} and a number threshold. */
static int verdict_check_expect(const json_t *expect, size_t i)
{
	const char *op = json_string_value(json_object_get(expect, "op"));

	if (!json_is_string(json_object_get(expect, "load")) ||
	    !json_is_string(json_object_get(expect, "metric")) ||
	    !json_is_number(json_object_get(expect, "threshold")) || !op ||
	    (strcmp(op, "below") && strcmp(op, "above")))
		return error("malformed result: profile.expect[%zu] needs load, metric, "
			     "op (below|above) and threshold", i);
	return 0;
}

static int verdict_check_shape(const json_t *result, const json_t *expects)
{
	const json_t *runs = json_object_get(result, "runs");
	json_t *e, *run;
	size_t i;

	if (!json_is_array(runs))
		return error("malformed result: \"runs\" is not an array");
	if (expects && !json_is_array(expects))
		return error("malformed result: \"profile.expect\" is not an array");
	json_array_foreach(expects, i, e)
		if (verdict_check_expect(e, i) < 0)
			return -1;
	json_array_foreach(runs, i, run)
		if (!json_is_object(run) || !json_is_string(json_object_get(run, "setting")))
			return error("malformed result: runs[%zu] has no \"setting\"", i);
	return 0;
}

/* Judge every applicable expectation in RUN; counts[kind] incremented. */
static int verdict_run(const json_t *result, json_t *run, const json_t *expects,
		       unsigned counts[4])
{
	const char *setting = json_string_value(json_object_get(run, "setting"));
	json_t *list = json_array(), *e;
	size_t i;

	if (!list)
		return error("out of memory");
	json_array_foreach(expects, i, e) {
		enum verdict_kind kind;
		json_t *v;

		if (!verdict_applies(e, setting))
			continue;
		v = verdict_make(result, run, e, &kind);
		if (!v) {
			json_decref(list);
			return error("out of memory");
		}
		json_array_append_new(list, v);
		counts[kind]++;
	}
	json_object_set_new(run, "verdicts", list);
	return 0;
}

/* True when there are runs and every one of them was skipped. */
static bool verdict_all_runs_skipped(const json_t *result)
{
	const json_t *runs = json_object_get(result, "runs");
	json_t *run;
	size_t i;

	json_array_foreach(runs, i, run) {
		const char *status = json_string_value(json_object_get(run, "status"));

		if (!status || strcmp(status, "skipped"))
			return false;
	}
	return json_array_size(runs) > 0;
}

static enum verdict_kind verdict_worst(const unsigned counts[4], const json_t *result)
{
	static const enum verdict_kind order[] = { VERDICT_FAIL, VERDICT_UNDECIDED, VERDICT_PASS,
						   VERDICT_SKIP };

	for (size_t i = 0; i < 4; i++)
		if (counts[order[i]])
			return order[i];
	/* No expectation at all: nothing failed; skipped only if nothing ran. */
	return verdict_all_runs_skipped(result) ? VERDICT_SKIP : VERDICT_PASS;
}

static int verdict_summary(json_t *result, const unsigned counts[4],
			   const struct verdict_opts *opts)
{
	enum verdict_kind worst = verdict_worst(counts, result);
	int code = EXIT_PASS;
	char warn[256] = "";
	json_t *s;

	if (worst == VERDICT_FAIL || (worst == VERDICT_UNDECIDED && opts->undecided_fails))
		code = EXIT_VERDICT_FAIL;
	else if (worst == VERDICT_SKIP)
		code = EXIT_ALL_SKIPPED;
	if (counts[VERDICT_UNDECIDED] && !opts->undecided_fails)
		snprintf(warn, sizeof(warn),
			 "%u verdict%s undecided: the measurement was not trustworthy "
			 "(see the reasons); not counted as a failure",
			 counts[VERDICT_UNDECIDED], counts[VERDICT_UNDECIDED] == 1 ? "" : "s");
	s = json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:b}", "verdict", verdict_name(worst),
		      "pass", counts[VERDICT_PASS], "fail", counts[VERDICT_FAIL], "skip",
		      counts[VERDICT_SKIP], "undecided", counts[VERDICT_UNDECIDED], "exit_code",
		      code, "undecided_fails", opts->undecided_fails);
	if (!s)
		return error("out of memory");
	json_object_set_new(s, "warning", warn[0] ? json_string(warn) : json_null());
	json_object_set_new(result, "summary", s);
	return code;
}

int verdicts_apply_opts(json_t *result, const struct verdict_opts *opts)
{
	const json_t *expects = json_object_get(json_object_get(result, "profile"), "expect");
	unsigned counts[4] = { 0 };
	json_t *run;
	size_t i;

	if (!json_is_object(result))
		return error("malformed result: not a JSON object");
	if (verdict_check_shape(result, expects) < 0)
		return -1;
	json_array_foreach(json_object_get(result, "runs"), i, run)
		if (verdict_run(result, run, expects, counts) < 0)
			return -1;
	return verdict_summary(result, counts, opts);
}

int verdicts_apply(json_t *result)
{
	struct verdict_opts opts = {
		.undecided_fails = json_is_true(json_object_get(
			json_object_get(result, "summary"), "undecided_fails")),
	};

	return verdicts_apply_opts(result, &opts);
}
