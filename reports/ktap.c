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

static unsigned ktap_count(const struct result_view *v, size_t setting)
{
	unsigned n = 0;

	for (size_t i = 0; i < v->n_runs; i++)
		if (v->runs[i].setting_index == setting)
			n += (unsigned)v->runs[i].n_verdicts;
	return n;
}

/* The nested subtest of setting SETTING; returns the setting's own result
 * and sets *why to a reason for a skipped setting. */
static enum verdict_kind ktap_subtest(FILE *f, const struct result_view *v, size_t setting,
				      const char **why)
{
	unsigned n = 0, count[4] = { 0 };

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
			const struct rv_verdict *vd = &run->verdicts[j];
			char label[512], name[600];

			verdict_label(&vd->rule, label, sizeof(label));
			snprintf(name, sizeof(name), "%s", label);
			if (v->repetitions > 1)
				snprintf(name, sizeof(name), "%s [rep %ld]", label, run->repetition + 1);
			if (vd->kind == VERDICT_FAIL)
				ktap_diag(f, "  ", vd->reason ? vd->reason : "failed");
			ktap_line(f, "  ", ++n, vd->kind, name, vd->reason);
			count[vd->kind]++;
		}
	}
	if (count[VERDICT_FAIL] || (count[VERDICT_UNDECIDED] && v->summary.undecided_fails))
		return VERDICT_FAIL;
	if (count[VERDICT_PASS] || (n == 0 && !*why))
		return VERDICT_PASS;
	if (count[VERDICT_UNDECIDED])
		*why = "every verdict undecided";
	return VERDICT_SKIP;
}

int ktap_write(const struct result_view *v, FILE *f)
{
	const struct rv_summary *s = &v->summary;
	unsigned totals[4] = { 0 };
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
		enum verdict_kind k = ktap_subtest(f, v, i, &why);

		ktap_line(f, "", (unsigned)i + 1, k, v->setting_names[i], why);
		totals[k]++;
	}
	/* the closing line kselftest's runner prints, over the settings */
	fprintf(f, "# Totals: pass:%u fail:%u xfail:0 xpass:0 skip:%u error:0\n",
		totals[VERDICT_PASS], totals[VERDICT_FAIL], totals[VERDICT_SKIP]);
	snprintf(text, sizeof(text), "verdicts: %ld pass, %ld fail, %ld skip, %ld undecided",
		 s->pass, s->fail, s->skip, s->undecided);
	ktap_diag(f, "", text);
	return fflush(f) == EOF || ferror(f) ? -1 : 0;
}
