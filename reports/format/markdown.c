/* Markdown report (reports/format/markdown.h). Names come from profiles and can hold
 * anything, so every piece of text goes through markdown_escape(); only our
 * own markup is written raw. */
#include "config.h"
#include "reports/format/markdown.h"
#include "reports/format/who-ran.h"
#include "reports/format/table.h"
#include "reports/result/verdict.h"
#include "lib/textsafe.h"

#include <math.h>
#include <string.h>

void markdown_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', f);
		else if (strchr("\\`*_[]<>#|~", *s))
			fprintf(f, "\\%c", *s);
		else
			fputc(*s, f);
	}
}

static void markdown_header(FILE *f, const struct result_view *v)
{
	const struct rv_summary *s = &v->summary;

	fprintf(f, "### starve ");
	markdown_escape(f, v->profile.name);
	fprintf(f, ": %s\n\n", verdict_upper(s->verdict));
	fprintf(f, "- kernel: ");
	markdown_escape(f, v->kernel.release);
	fprintf(f, ", HZ %ld, preemption ", v->kernel.hz);
	markdown_escape(f, v->kernel.preempt ? v->kernel.preempt : "unknown");
	fprintf(f, "\n- host: ");
	markdown_escape(f, v->host.hostname ? v->host.hostname : "unknown");
	fprintf(f, ", %ld CPUs\n", v->host.nr_cpus);
	fprintf(f, "- %d repetition%s of %gs per setting%s\n", v->repetitions,
		v->repetitions == 1 ? "" : "s", isnan(v->profile.duration_s) ? 0 : v->profile.duration_s,
		v->complete ? "" : " (incomplete: interrupted)");
	fprintf(f, "- verdicts: %ld pass, %ld fail, %ld skip, %ld undecided\n", s->pass, s->fail,
		s->skip, s->undecided);
	if (s->warning) {
		fprintf(f, "- warning: ");
		markdown_escape(f, s->warning);
		fputc('\n', f);
	}
}

static int markdown_table(FILE *f, const struct result_view *v)
{
	struct table_grid *g;
	const char *text;
	char cell[256];

	if (!v->profile.n_expect) {
		fprintf(f, "\nNo expectations in this profile.\n");
		return 0;
	}
	if (!(g = table_grid_build(v)))
		return -1;
	fprintf(f, "\n| expectation |");
	for (size_t j = 0; j < v->n_setting_names; j++) {
		fputc(' ', f);
		markdown_escape(f, v->setting_names[j]);
		fprintf(f, " |");
	}
	fprintf(f, "\n|---|");
	for (size_t j = 0; j < v->n_setting_names; j++)
		fprintf(f, "---|");
	fputc('\n', f);
	for (size_t i = 0; i < v->profile.n_expect; i++) {
		fprintf(f, "| ");
		markdown_escape(f, verdict_label(&v->profile.expect[i].rule, cell, sizeof(cell)));
		fprintf(f, " |");
		for (size_t j = 0; j < v->n_setting_names; j++) {
			fputc(' ', f);
			table_grid_cell(g, i, j, &text);
			markdown_escape(f, text);
			fprintf(f, " |");
		}
		fputc('\n', f);
	}
	table_grid_free(g);
	return 0;
}

/* A bulleted list of the verdicts of kind K with their reasons. */
static void markdown_reasons(FILE *f, const struct result_view *v, enum verdict_kind k,
			     const char *title)
{
	int n = 0;

	for (size_t i = 0; i < v->n_runs; i++) {
		const struct rv_run *run = &v->runs[i];

		for (size_t j = 0; j < run->n_verdicts; j++) {
			const struct rv_verdict *vd = &run->verdicts[j];
			char label[512];

			if (vd->kind != k)
				continue;
			if (!n++)
				fprintf(f, "\n**%s**\n\n", title);
			fprintf(f, "- ");
			markdown_escape(f, verdict_label(&vd->rule, label, sizeof(label)));
			fprintf(f, ", setting ");
			markdown_escape(f, run->setting);
			if (v->repetitions > 1)
				fprintf(f, ", rep %ld", run->repetition + 1);
			fprintf(f, ": ");
			markdown_escape(f, vd->reason ? vd->reason : "no reason recorded");
			fputc('\n', f);
		}
	}
}

static void markdown_who_ran_line(void *data, const struct rv_run *run, const char *label,
				  const char *line)
{
	(void)run;
	fprintf(data, "- ");
	markdown_escape(data, label);
	fprintf(data, ": ");
	markdown_escape(data, line);
	fputc('\n', data);
}

/* The exact source: who held the CPU during each load's longest wait. */
static void markdown_who_ran(FILE *f, const struct result_view *v)
{
	if (!who_ran_any(v))
		return;
	fprintf(f, "\n**Who held the CPU** (each load's longest wait)\n\n");
	who_ran_each(v, markdown_who_ran_line, f);
}

static int markdown_write_all(const struct result_view *v, FILE *f)
{
	markdown_header(f, v);
	if (markdown_table(f, v) < 0)
		return -1;
	markdown_reasons(f, v, VERDICT_FAIL, "Failures");
	markdown_reasons(f, v, VERDICT_UNDECIDED, "Undecided");
	markdown_reasons(f, v, VERDICT_SKIP, "Skipped");
	markdown_who_ran(f, v);
	return fflush(f) == EOF || ferror(f) ? -1 : 0;
}

int markdown_write(const struct result_view *v, FILE *f)
{
	FILE *out = textsafe_open(f);	/* names and reasons may hold an ESC */
	int ret;

	if (!out)
		return -1;
	ret = markdown_write_all(v, out);
	if (fclose(out) == EOF)
		ret = -1;
	return ret;
}
