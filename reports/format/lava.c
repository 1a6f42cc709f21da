/* LAVA report (reports/format/lava.h). Settings are grouped as the KTAP report
 * groups them: every run of a setting inside one test set, whatever order
 * the runs had, with ".repN" on the names when the settings repeat. */
#include "config.h"
#include "reports/format/lava.h"
#include "reports/format/fleet.h"
#include "reports/result/verdict.h"
#include "lib/metric.h"

#include <math.h>

const char *lava_result(enum outcome o)
{
	static const char *const names[] = { [OUTCOME_PASS] = "pass", [OUTCOME_FAIL] = "fail",
					     [OUTCOME_SKIP] = "skip" };
	return names[o];
}

void lava_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; s && *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	}
	fputc('\'', f);
}

/* TEXT as a comment line: a newline in it would end the comment. */
static void lava_comment(FILE *f, const char *text)
{
	fputs("# ", f);
	for (; *text; text++)
		fputc(*text == '\n' || *text == '\r' ? ' ' : *text, f);
	fputc('\n', f);
}

/* "lava-test-case NAME --result R [--measurement V [--units U]]" (VALUE
 * NAN: none), after an echo of the label and the reason so the LAVA log
 * says why. */
static void lava_case(FILE *f, const char *name, enum outcome o, const char *metric,
		      double value, const char *label, const char *reason)
{
	const struct metric_def *m = metric ? metric_find(metric) : NULL;

	fputs("echo ", f);
	lava_quote(f, label);
	if (reason) {
		fputs(" ", f);
		lava_quote(f, reason);
	}
	fprintf(f, "\n$lava lava-test-case %s --result %s", name, lava_result(o));
	if (isfinite(value)) {
		fprintf(f, " --measurement %.9g", value);
		if (m)
			fprintf(f, " --units %s", metric_unit_name(m->unit));
	}
	fputc('\n', f);
}

/* The cases of RUN, one per verdict; a skipped verdict has no value, an
 * undecided one says so before its reason. */
static void lava_run_cases(FILE *f, const struct result_view *v, const struct rv_run *run)
{
	char name[FLEET_NAME_MAX], label[512], reason[1024];

	for (size_t j = 0; j < run->n_verdicts; j++) {
		const struct rv_verdict *vd = &run->verdicts[j];

		fleet_case_name(v, run, vd, true, name, sizeof(name));
		verdict_label(&vd->rule, label, sizeof(label));
		snprintf(reason, sizeof(reason), "%s%s", outcome_reason_prefix(vd->kind),
			 vd->reason ? vd->reason : "");
		lava_case(f, name, outcome_of(v, vd->kind), vd->rule.metric,
			  vd->kind == VERDICT_SKIP ? NAN : vd->value, label,
			  vd->reason ? reason : NULL);
	}
}

static void lava_set(FILE *f, const struct result_view *v, size_t setting)
{
	char word[FLEET_NAME_MAX];

	fprintf(f, "$lava lava-test-set start %s\n",
		fleet_word(v->setting_names[setting], word, sizeof(word)));
	for (size_t i = 0; i < v->n_runs; i++)
		if (v->runs[i].setting_index == setting)
			lava_run_cases(f, v, &v->runs[i]);
	fputs("$lava lava-test-set stop\n", f);
}

int lava_write(const struct result_view *v, FILE *f)
{
	char word[FLEET_NAME_MAX], text[512];

	fputs("#!/bin/sh\n# LAVA test cases of a starve result (starve report --lava): one per\n"
	      "# expectation per run, a test set per setting. Outside LAVA it prints them.\n", f);
	snprintf(text, sizeof(text), "profile %s, kernel %s, HZ %ld", v->profile.name,
		 v->kernel.release, v->kernel.hz);
	lava_comment(f, text);
	fputs("if command -v lava-test-case >/dev/null 2>&1; then lava=; else lava=echo; fi\n", f);
	for (size_t i = 0; i < v->n_setting_names; i++)
		lava_set(f, v, i);
	fleet_word(v->profile.name, word, sizeof(word));
	lava_case(f, word, outcome_of_result(v), NULL, NAN, fleet_run_summary(v, text, sizeof(text)),
		  v->summary.warning);
	return fflush(f) == EOF || ferror(f) ? -1 : 0;
}
