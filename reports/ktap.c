/* KTAP report (reports/ktap.h). A setting is "not ok" when one of its
 * verdicts failed, skipped when none of them passed or failed (all skipped
 * or undecided), else "ok"; reasons go to diagnostic lines so a kselftest
 * log reader sees them next to the result. */
#include "config.h"
#include "reports/ktap.h"
#include "reports/verdict.h"

#include <string.h>

void ktap_escape(FILE *f, const char *s)
{
	for (; s && *s; s++)
		fputc(*s == '#' ? '_' : *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

static void ktap_diag(FILE *f, const char *indent, const char *text)
{
	fprintf(f, "%s# ", indent);
	ktap_escape(f, text);	/* a diagnostic must stay on one line */
	fputc('\n', f);
}

/* One result line: "ok 3 NAME # SKIP reason" etc. */
static void ktap_line(FILE *f, const char *indent, unsigned n, enum verdict_kind k,
		      const char *name, const char *reason)
{
	fprintf(f, "%s%s %u ", indent, k == VERDICT_FAIL ? "not ok" : "ok", n);
	ktap_escape(f, name);
	if (k == VERDICT_SKIP || k == VERDICT_UNDECIDED) {
		fputs(" # SKIP ", f);
		if (k == VERDICT_UNDECIDED)
			fputs("undecided: ", f);
		ktap_escape(f, reason ? reason : "no reason recorded");
	}
	fputc('\n', f);
}

static unsigned ktap_count(const json_t *result, const char *setting)
{
	unsigned n = 0;
	json_t *run;
	size_t i;

	json_array_foreach(json_object_get(result, "runs"), i, run)
		if (verdict_run_is(run, setting))
			n += json_array_size(json_object_get(run, "verdicts"));
	return n;
}

/* The nested subtest of SETTING; returns the setting's own result and sets
 * *why to a reason for a skipped setting. */
static enum verdict_kind ktap_subtest(FILE *f, const json_t *result, const char *setting,
				      const char **why)
{
	bool strict = json_is_true(json_object_get(json_object_get(result, "summary"),
						   "undecided_fails"));
	int reps = verdict_repetitions(result);
	unsigned n = 0, count[4] = { 0 };
	json_t *run, *v;
	size_t i, j;

	fprintf(f, "  KTAP version 1\n  # Subtest: ");
	ktap_escape(f, setting);
	fprintf(f, "\n  1..%u\n", ktap_count(result, setting));
	*why = NULL;
	json_array_foreach(json_object_get(result, "runs"), i, run) {
		if (!verdict_run_is(run, setting))
			continue;
		if (!*why)
			*why = json_string_value(json_object_get(run, "reason"));
		json_array_foreach(json_object_get(run, "verdicts"), j, v) {
			enum verdict_kind k = verdict_kind_of(v);
			const char *reason = json_string_value(json_object_get(v, "reason"));
			char label[512], name[600];

			verdict_label(v, label, sizeof(label));
			snprintf(name, sizeof(name), "%s", label);
			if (reps > 1)
				snprintf(name, sizeof(name), "%s [rep %lld]", label,
					 (long long)json_integer_value(
						 json_object_get(run, "repetition")) + 1);
			if (k == VERDICT_FAIL)
				ktap_diag(f, "  ", reason ? reason : "failed");
			ktap_line(f, "  ", ++n, k, name, reason);
			count[k]++;
		}
	}
	if (count[VERDICT_FAIL] || (count[VERDICT_UNDECIDED] && strict))
		return VERDICT_FAIL;
	if (count[VERDICT_PASS] || (n == 0 && !*why))
		return VERDICT_PASS;
	if (count[VERDICT_UNDECIDED])
		*why = "every verdict undecided";
	return VERDICT_SKIP;
}

int ktap_write(const json_t *result, FILE *f)
{
	const json_t *kernel = json_object_get(result, "kernel");
	const json_t *summary = json_object_get(result, "summary");
	json_t *settings = verdict_settings(result), *s;
	unsigned totals[4] = { 0 };
	char text[512];
	size_t i;

	fprintf(f, "KTAP version 1\n");
	snprintf(text, sizeof(text), "starve %s: kernel %s, HZ %lld",
		 verdict_str(json_object_get(result, "profile"), "name", "?"),
		 verdict_str(kernel, "release", "unknown"),
		 (long long)json_integer_value(json_object_get(kernel, "hz")));
	ktap_diag(f, "", text);
	if (json_array_size(settings) == 0)
		fprintf(f, "1..0 # SKIP no runs in this result\n");
	else
		fprintf(f, "1..%zu\n", json_array_size(settings));
	json_array_foreach(settings, i, s) {
		const char *why;
		enum verdict_kind k = ktap_subtest(f, result, json_string_value(s), &why);

		ktap_line(f, "", (unsigned)i + 1, k, json_string_value(s), why);
		totals[k]++;
	}
	/* the closing line kselftest's runner prints, over the settings */
	fprintf(f, "# Totals: pass:%u fail:%u xfail:0 xpass:0 skip:%u error:0\n",
		totals[VERDICT_PASS], totals[VERDICT_FAIL], totals[VERDICT_SKIP]);
	snprintf(text, sizeof(text), "verdicts: %lld pass, %lld fail, %lld skip, %lld undecided",
		 (long long)json_integer_value(json_object_get(summary, "pass")),
		 (long long)json_integer_value(json_object_get(summary, "fail")),
		 (long long)json_integer_value(json_object_get(summary, "skip")),
		 (long long)json_integer_value(json_object_get(summary, "undecided")));
	ktap_diag(f, "", text);
	json_decref(settings);
	return fflush(f) == EOF || ferror(f) ? -1 : 0;
}
