/* KTAP report (reports/format/ktap.h). Each verdict is what reports/result/outcome.h
 * makes of it ("not ok", "ok", or "ok # SKIP reason"); a setting is "not
 * ok" when one of its cases failed, skipped when none passed or failed, else
 * "ok"; reasons go to diagnostic lines so a kselftest log reader sees them
 * next to the result. */
#include "config.h"
#include "reports/format/ktap.h"
#include "reports/result/outcome.h"
#include "reports/result/verdict.h"

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

/* One result line: "ok 3 NAME # SKIP reason" etc.; PREFIX goes before the
 * reason of a skip. */
static void ktap_line(FILE *f, const char *indent, unsigned n, enum outcome o, const char *name,
		      const char *prefix, const char *reason)
{
	fprintf(f, "%s%s %u ", indent, o == OUTCOME_FAIL ? "not ok" : "ok", n);
	ktap_escape(f, name);
	if (o == OUTCOME_SKIP) {
		fprintf(f, " # SKIP %s", prefix);
		ktap_escape(f, reason ? reason : "no reason recorded");
	}
	fputc('\n', f);
}

static unsigned ktap_count(const struct result_view *v, size_t setting)
{
	unsigned n = 0;

	for (size_t i = 0; i < v->n_runs; i++)
		if (v->runs[i].setting_index == setting)
			n += (unsigned)v->runs[i].n_verdicts;
	return n;
}

/* The case of verdict VD of RUN, number N; its outcome is counted in COUNT. */
static void ktap_case(FILE *f, const struct result_view *v, const struct rv_run *run,
		      const struct rv_verdict *vd, unsigned n, unsigned count[3])
{
	enum outcome o = outcome_of(v, vd->kind);
	char label[512], name[600], why[1024];

	verdict_label(&vd->rule, label, sizeof(label));
	snprintf(name, sizeof(name), "%s", label);
	if (v->repetitions > 1)
		snprintf(name, sizeof(name), "%s [rep %ld]", label, run->repetition + 1);
	if (o == OUTCOME_FAIL) {
		snprintf(why, sizeof(why), "%s%s", outcome_reason_prefix(vd->kind),
			 vd->reason ? vd->reason : "failed");
		ktap_diag(f, "  ", why);
	}
	ktap_line(f, "  ", n, o, name, outcome_reason_prefix(vd->kind), vd->reason);
	count[o]++;
}

/* The nested subtest of setting SETTING; returns the setting's own outcome
 * and sets *why to a reason for a skipped setting. COUNT adds up the cases'
 * outcomes. */
static enum outcome ktap_subtest(FILE *f, const struct result_view *v, size_t setting,
				 const char **why, unsigned count[3])
{
	unsigned n = 0, mine[3] = { 0 }, undecided = 0;

	fprintf(f, "  KTAP version 1\n  # Subtest: ");
	ktap_escape(f, v->setting_names[setting]);
	fprintf(f, "\n  1..%u\n", ktap_count(v, setting));
	*why = NULL;
	for (size_t i = 0; i < v->n_runs; i++) {
		const struct rv_run *run = &v->runs[i];

		if (run->setting_index != setting)
			continue;
		if (!*why)
			*why = run->reason;
		for (size_t j = 0; j < run->n_verdicts; j++) {
			ktap_case(f, v, run, &run->verdicts[j], ++n, mine);
			undecided += run->verdicts[j].kind == VERDICT_UNDECIDED;
		}
	}
	for (size_t i = 0; i < 3; i++)
		count[i] += mine[i];
	if (mine[OUTCOME_FAIL])
		return OUTCOME_FAIL;
	if (mine[OUTCOME_PASS] || (n == 0 && !*why))
		return OUTCOME_PASS;
	if (undecided)
		*why = undecided == n ? "every verdict undecided" : "every verdict skipped or undecided";
	return OUTCOME_SKIP;
}

int ktap_write(const struct result_view *v, FILE *f)
{
	const struct rv_summary *s = &v->summary;
	unsigned cases[3] = { 0 };
	char text[512];

	fprintf(f, "KTAP version 1\n");
	snprintf(text, sizeof(text), "starve %s: kernel %s, HZ %ld", v->profile.name,
		 v->kernel.release, v->kernel.hz);
	ktap_diag(f, "", text);
	if (v->n_setting_names == 0)
		fprintf(f, "1..0 # SKIP no runs in this result\n");
	else
		fprintf(f, "1..%zu\n", v->n_setting_names);
	for (size_t i = 0; i < v->n_setting_names; i++) {
		const char *why;
		enum outcome o = ktap_subtest(f, v, i, &why, cases);

		ktap_line(f, "", (unsigned)i + 1, o, v->setting_names[i], "", why);
	}
	/* the closing line kselftest's runner prints, over the cases */
	fprintf(f, "# Totals: pass:%u fail:%u xfail:0 xpass:0 skip:%u error:0\n",
		cases[OUTCOME_PASS], cases[OUTCOME_FAIL], cases[OUTCOME_SKIP]);
	snprintf(text, sizeof(text), "verdicts: %ld pass, %ld fail, %ld skip, %ld undecided%s",
		 s->pass, s->fail, s->skip, s->undecided,
		 s->undecided && s->undecided_fails ? " (--strict: undecided fails)" : "");
	ktap_diag(f, "", text);
	return fflush(f) == EOF || ferror(f) ? -1 : 0;
}
